//! Shogi's settings: flags and environment variables of `kibitz serve`,
//! added to the server's by the registry.

use std::path::PathBuf;

use crate::config::GameSettings;

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct ShogiSettings {
    /// The Fairy-Stockfish binary for shogi (default: `fairy-stockfish`
    /// on PATH, then in /usr/games, where Debian's package puts it).
    /// Without one, shogi is listed as unavailable and its requests
    /// answer 503.
    #[arg(long, env = "KIBITZ_SHOGI_ENGINE_PATH")]
    pub shogi_engine_path: Option<PathBuf>,
    /// Fairy-Stockfish processes for shogi at most, each searching one
    /// request at a time (0: one per CPU).
    #[arg(long, env = "KIBITZ_SHOGI_ENGINE_COUNT", default_value_t = 0)]
    pub shogi_engine_count: usize,
    /// Shogi answers kept by (position, limits), about 2 KiB each (0:
    /// none).
    #[arg(long, env = "KIBITZ_SHOGI_CACHE_ENTRIES", default_value_t = 4096)]
    pub shogi_cache_entries: usize,
}

impl Default for ShogiSettings {
    /// The flags' defaults (a test holds them to clap's).
    fn default() -> Self {
        ShogiSettings {
            shogi_engine_path: None,
            shogi_engine_count: 0,
            shogi_cache_entries: 4096,
        }
    }
}

impl GameSettings for ShogiSettings {}

#[cfg(test)]
mod tests {
    use super::ShogiSettings;

    #[test]
    fn the_defaults_are_the_flags_defaults() {
        let command = <ShogiSettings as clap::Args>::augment_args(clap::Command::new("kibitz"));
        let matches = command.get_matches_from(["kibitz"]);
        let parsed = <ShogiSettings as clap::FromArgMatches>::from_arg_matches(&matches).unwrap();
        assert_eq!(parsed, ShogiSettings::default());
    }
}
