//! Pig's settings: flags and environment variables of `kibitz serve`,
//! flattened into the server's (`crate::games::GameSettings`).

use crate::config::budget;

#[derive(Debug, Clone, clap::Args)]
pub struct PigSettings {
    /// Largest Pig goal served (tables grow as goal^3).
    #[arg(long = "pig-max-goal", env = "KIBITZ_PIG_MAX_GOAL", default_value_t = 200)]
    pub max_goal: u32,
    /// Memory for Pig tables beyond the two defaults, in MiB.
    #[arg(long = "pig-cache-mib", env = "KIBITZ_PIG_CACHE_MIB", default_value_t = 256)]
    pub cache_mib: usize,
    /// GET /pig/policy answers kept, written out (each up to 1.3 MB at goal
    /// 200; 0: none).
    #[arg(long = "pig-policy-cache", env = "KIBITZ_PIG_POLICY_CACHE", default_value_t = 16)]
    pub policy_cache: usize,
}

impl PigSettings {
    /// The tables' and the policies' bounds from their shares of
    /// `--memory-mib` (`share` gives a percent's bytes).
    pub fn share_memory(&mut self, share: &dyn Fn(usize) -> usize) {
        self.cache_mib = share(budget::SOLVED_TABLES) >> 20;
        self.policy_cache = share(budget::POLICIES) / budget::POLICY_BYTES;
    }
}
