//! Pig's settings: flags and environment variables of `kibitz serve`,
//! added to the server's by the registry.

use crate::config::GameSettings;

/// Percent of `--memory-mib` for the tables solved ahead.
const SOLVED_TABLES_PERCENT: usize = 25;
/// Percent of `--memory-mib` for the policies written out.
const POLICIES_PERCENT: usize = 5;
/// A policy written out, at most: its JSON (1,420,833 bytes at goal 200)
/// and its gzip form (44,721).
pub const POLICY_BYTES: usize = 1_500_000;

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct PigSettings {
    /// Largest Pig goal served (tables grow as goal^3).
    #[arg(long = "pig-max-goal", env = "KIBITZ_PIG_MAX_GOAL", default_value_t = 200)]
    pub max_goal: u32,
    /// Memory for Pig tables beyond the two defaults, in MiB.
    #[arg(long = "pig-cache-mib", env = "KIBITZ_PIG_CACHE_MIB", default_value_t = 256)]
    pub cache_mib: usize,
    /// GET /pig/policy answers kept, written out and compressed (each up to
    /// 1.5 MB at goal 200, counted by its real size; 0: none).
    #[arg(long = "pig-policy-cache", env = "KIBITZ_PIG_POLICY_CACHE", default_value_t = 16)]
    pub policy_cache: usize,
}

impl Default for PigSettings {
    /// The flags' defaults (a test holds them to clap's).
    fn default() -> Self {
        PigSettings {
            max_goal: 200,
            cache_mib: 256,
            policy_cache: 16,
        }
    }
}

impl GameSettings for PigSettings {
    fn memory_percent(&self) -> usize {
        SOLVED_TABLES_PERCENT + POLICIES_PERCENT
    }

    /// The tables' and the policies' bounds from their shares.
    fn share_memory(&mut self, share: &dyn Fn(usize) -> usize) {
        self.cache_mib = share(SOLVED_TABLES_PERCENT) >> 20;
        self.policy_cache = share(POLICIES_PERCENT) / POLICY_BYTES;
    }
}

#[cfg(test)]
mod tests {
    use super::PigSettings;

    #[test]
    fn the_defaults_are_the_flags_defaults() {
        let command = <PigSettings as clap::Args>::augment_args(clap::Command::new("kibitz"));
        let matches = command.get_matches_from(["kibitz"]);
        let parsed = <PigSettings as clap::FromArgMatches>::from_arg_matches(&matches).unwrap();
        assert_eq!(parsed, PigSettings::default());
    }
}
