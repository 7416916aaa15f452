//! Where an engine is and how many processes of it run, with defaults
//! that need no configuration on a Debian machine with the package
//! installed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Dialect;

/// The flag and environment variable that name the Stockfish binary (for
/// the messages that tell an operator how to fix a missing engine; the CLI
/// defines them).
pub const STOCKFISH_PATH_FLAG: &str = "--stockfish-path / KIBITZ_STOCKFISH_PATH";

/// Directories searched after PATH: Debian and Ubuntu install games,
/// Stockfish included, in /usr/games, which is not on a service's PATH.
const EXTRA_DIRS: [&str; 3] = ["/usr/games", "/usr/local/games", "/usr/local/bin"];

#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The program's file name, looked up when `path` is None.
    pub program: String,
    /// An explicit binary (a flag); a bare name is looked up on PATH.
    pub path: Option<PathBuf>,
    /// Processes at most; 0 means one per available core.
    pub count: usize,
    /// The `Hash` option in MiB (per process).
    pub hash_mib: u32,
    /// The `Threads` option (per process).
    pub threads: u32,
    /// How long a search waits for a free process before `Busy` (never
    /// past its own deadline).
    pub queue_wait: Duration,
    /// How long a search keeps its process while a client holding fewer
    /// waits; then it is asked to stop early (see [`crate::fair`]).
    pub slice: Duration,
    /// Bound on the `uci` handshake of a new process.
    pub handshake_timeout: Duration,
    /// Bound on `isready` after `ucinewgame` and option changes (clearing a
    /// large hash takes a while).
    pub ready_timeout: Duration,
    /// How long after the deadline a search waits for the engine's
    /// `bestmove` before answering from its last complete depth (the
    /// engine then settles in the background): the most a response can
    /// overrun its budget on the engine's account.
    pub answer_wait: Duration,
    /// How long after `stop` a `bestmove` may take before the process is
    /// declared hung and killed.
    pub stop_grace: Duration,
    /// Words for the `Unavailable` error: how to install the engine.
    pub install_hint: String,
    /// The protocol the engine is spoken to in.
    pub dialect: Dialect,
    /// Options set once on every process as it starts (e.g. the variant
    /// a multi-game engine plays); an option the engine does not have
    /// fails the start.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// Stockfish with the defaults: found on PATH or in /usr/games, one
    /// process per core, 16 MiB of hash and one thread each (parallel
    /// requests use the cores better than threads within one search).
    pub fn stockfish() -> Self {
        EngineConfig {
            program: "stockfish".to_string(),
            path: None,
            count: 0,
            hash_mib: 16,
            threads: 1,
            queue_wait: Duration::from_secs(10),
            slice: Duration::from_millis(200),
            handshake_timeout: Duration::from_secs(5),
            ready_timeout: Duration::from_secs(2),
            answer_wait: Duration::from_millis(40),
            stop_grace: Duration::from_millis(250),
            install_hint: format!(
                "Stockfish is not installed: install it (Debian/Ubuntu: `apt-get install stockfish`, which puts it at /usr/games/stockfish) or name the binary with {STOCKFISH_PATH_FLAG}"
            ),
            dialect: Dialect::Uci,
            options: Vec::new(),
        }
    }

    /// Fairy-Stockfish playing `variant` (its `UCI_Variant`, set on each
    /// process as it starts) in `dialect`, with Stockfish's defaults
    /// otherwise: found on PATH or in /usr/games, one process per core.
    pub fn fairy_stockfish(variant: &str, dialect: Dialect) -> Self {
        EngineConfig {
            program: "fairy-stockfish".to_string(),
            install_hint: format!(
                "Fairy-Stockfish is not installed: install it (Debian/Ubuntu: `apt-get install fairy-stockfish`, which puts it at /usr/games/fairy-stockfish) or name the binary with --{variant}-engine-path / KIBITZ_{}_ENGINE_PATH",
                variant.to_ascii_uppercase()
            ),
            dialect,
            options: vec![("UCI_Variant".to_string(), variant.to_string())],
            ..EngineConfig::stockfish()
        }
    }

    /// The number of processes this configuration allows.
    pub fn process_count(&self) -> usize {
        if self.count > 0 {
            self.count
        } else {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        }
    }

    /// The binary to run, or the reason there is none (the install hint).
    pub fn resolve(&self) -> Result<PathBuf, String> {
        match &self.path {
            Some(path) if path.components().count() > 1 => {
                if is_executable(path) {
                    Ok(path.clone())
                } else {
                    Err(format!(
                        "{} is not an executable file. {}",
                        path.display(),
                        self.install_hint
                    ))
                }
            }
            Some(name) => find_program(&name.to_string_lossy())
                .ok_or_else(|| format!("{} was not found on PATH. {}", name.display(), self.install_hint)),
            None => find_program(&self.program).ok_or_else(|| self.install_hint.clone()),
        }
    }
}

/// Looks a program up on PATH, then in the places Debian-like systems put
/// games.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path_dirs = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    path_dirs
        .into_iter()
        .chain(EXTRA_DIRS.iter().map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_binary_says_how_to_install_stockfish() {
        let config = EngineConfig {
            path: Some(PathBuf::from("/nonexistent/stockfish")),
            ..EngineConfig::stockfish()
        };
        let message = config.resolve().err().unwrap_or_default();
        assert!(message.contains("apt-get install stockfish"), "{message}");
        assert!(message.contains("/nonexistent/stockfish"), "{message}");
        let config = EngineConfig {
            program: "no-such-engine-kibitz".into(),
            ..EngineConfig::stockfish()
        };
        assert!(config.resolve().is_err());
    }
}
