//! Chess's settings: flags and environment variables of `kibitz serve`,
//! added to the server's by the registry.

use std::path::PathBuf;

use crate::config::GameSettings;

/// Percent of `--memory-mib` for the answers kept.
const ANSWERS_PERCENT: usize = 5;
/// A chess answer is about 2 KiB with its lines; counted generously,
/// since a principal variation's length is the engine's.
const ANSWER_BYTES: usize = 16 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct ChessSettings {
    /// The Stockfish binary for chess (default: `stockfish` on PATH, then
    /// in /usr/games, where Debian's package puts it). Without one, chess
    /// is listed as unavailable and its requests answer 503.
    #[arg(long, env = "KIBITZ_STOCKFISH_PATH")]
    pub stockfish_path: Option<PathBuf>,
    /// Stockfish processes at most, each searching one request at a time
    /// (0: one per CPU).
    #[arg(long, env = "KIBITZ_ENGINE_COUNT", default_value_t = 0)]
    pub engine_count: usize,
    /// Each Stockfish process's hash table, in MiB.
    #[arg(long, env = "KIBITZ_ENGINE_HASH_MIB", default_value_t = 16)]
    pub engine_hash_mib: u32,
    /// Start the engine processes with the server rather than at the first
    /// chess request (which would otherwise wait about 0.3 s for them).
    #[arg(long, env = "KIBITZ_ENGINE_WARM_UP", default_value_t = true, action = clap::ArgAction::Set)]
    pub engine_warm_up: bool,
    /// Chess answers kept by (position, limits), about 2 KiB each (0: none).
    #[arg(
        long = "chess-cache-entries",
        env = "KIBITZ_CHESS_CACHE_ENTRIES",
        default_value_t = 4096
    )]
    pub cache_entries: usize,
}

impl Default for ChessSettings {
    /// The flags' defaults (a test holds them to clap's).
    fn default() -> Self {
        ChessSettings {
            stockfish_path: None,
            engine_count: 0,
            engine_hash_mib: 16,
            engine_warm_up: true,
            cache_entries: 4096,
        }
    }
}

impl GameSettings for ChessSettings {
    fn memory_percent(&self) -> usize {
        ANSWERS_PERCENT
    }

    /// The answer cache's bound from its share.
    fn share_memory(&mut self, share: &dyn Fn(usize) -> usize) {
        self.cache_entries = share(ANSWERS_PERCENT) / ANSWER_BYTES;
    }
}

#[cfg(test)]
mod tests {
    use super::ChessSettings;

    #[test]
    fn the_defaults_are_the_flags_defaults() {
        let command = <ChessSettings as clap::Args>::augment_args(clap::Command::new("kibitz"));
        let matches = command.get_matches_from(["kibitz"]);
        let parsed = <ChessSettings as clap::FromArgMatches>::from_arg_matches(&matches).unwrap();
        assert_eq!(parsed, ChessSettings::default());
    }
}
