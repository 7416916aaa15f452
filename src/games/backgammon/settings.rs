//! Backgammon's settings: flags and environment variables of `kibitz
//! serve`, added to the server's by the registry.

use std::path::PathBuf;
use std::time::Duration;

use super::gnubg::GnubgConfig;
use crate::config::GameSettings;

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct BackgammonSettings {
    /// The GNU Backgammon binary (default: `gnubg` on PATH, then in
    /// /usr/games, where Debian's package puts it). Without one,
    /// backgammon is listed as unavailable and its requests answer 503,
    /// except the races kibitz's exact table answers.
    #[arg(long, env = "KIBITZ_GNUBG_PATH")]
    pub gnubg_path: Option<PathBuf>,
    /// GNU Backgammon processes at most, each answering one question at a
    /// time (0: one per CPU).
    #[arg(long, env = "KIBITZ_GNUBG_COUNT", default_value_t = 0)]
    pub gnubg_count: usize,
    /// How long past its budget a gnubg answer may come before its
    /// process is declared hung and killed, in milliseconds.
    #[arg(long, env = "KIBITZ_GNUBG_GRACE_MS", default_value_t = 5000)]
    pub gnubg_grace_ms: u64,
}

impl Default for BackgammonSettings {
    /// The flags' defaults (a test holds them to clap's).
    fn default() -> Self {
        BackgammonSettings {
            gnubg_path: None,
            gnubg_count: 0,
            gnubg_grace_ms: 5000,
        }
    }
}

impl GameSettings for BackgammonSettings {}

impl BackgammonSettings {
    /// The pool's configuration: a question waits for a process no longer
    /// than its own budget allows (the pool bounds the wait by it).
    pub fn gnubg(&self) -> GnubgConfig {
        GnubgConfig {
            path: self.gnubg_path.clone(),
            count: self.gnubg_count,
            answer_grace: Duration::from_millis(self.gnubg_grace_ms),
            ..GnubgConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BackgammonSettings;

    #[test]
    fn the_defaults_are_the_flags_defaults() {
        let command = <BackgammonSettings as clap::Args>::augment_args(clap::Command::new("kibitz"));
        let matches = command.get_matches_from(["kibitz"]);
        let parsed = <BackgammonSettings as clap::FromArgMatches>::from_arg_matches(&matches).unwrap();
        assert_eq!(parsed, BackgammonSettings::default());
    }
}
