//! Xiangqi's settings: flags and environment variables of `kibitz serve`,
//! added to the server's by the registry.

use std::path::PathBuf;

use crate::config::GameSettings;

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct XiangqiSettings {
    /// The Fairy-Stockfish binary for xiangqi (default: `fairy-stockfish`
    /// on PATH, then in /usr/games, where Debian's package puts it).
    /// Without one, xiangqi is listed as unavailable and its requests
    /// answer 503.
    #[arg(long, env = "KIBITZ_XIANGQI_ENGINE_PATH")]
    pub xiangqi_engine_path: Option<PathBuf>,
    /// Fairy-Stockfish processes for xiangqi at most, each searching one
    /// request at a time (0: one per CPU).
    #[arg(long, env = "KIBITZ_XIANGQI_ENGINE_COUNT", default_value_t = 0)]
    pub xiangqi_engine_count: usize,
    /// Xiangqi answers kept by (position, limits), about 2 KiB each (0:
    /// none).
    #[arg(long, env = "KIBITZ_XIANGQI_CACHE_ENTRIES", default_value_t = 4096)]
    pub xiangqi_cache_entries: usize,
}

impl Default for XiangqiSettings {
    /// The flags' defaults (a test holds them to clap's).
    fn default() -> Self {
        XiangqiSettings {
            xiangqi_engine_path: None,
            xiangqi_engine_count: 0,
            xiangqi_cache_entries: 4096,
        }
    }
}

impl GameSettings for XiangqiSettings {}

#[cfg(test)]
mod tests {
    use super::XiangqiSettings;

    #[test]
    fn the_defaults_are_the_flags_defaults() {
        let command = <XiangqiSettings as clap::Args>::augment_args(clap::Command::new("kibitz"));
        let matches = command.get_matches_from(["kibitz"]);
        let parsed = <XiangqiSettings as clap::FromArgMatches>::from_arg_matches(&matches).unwrap();
        assert_eq!(parsed, XiangqiSettings::default());
    }
}
