//! Chess's settings: flags and environment variables of `kibitz serve`,
//! flattened into the server's (`crate::games::GameSettings`).

use std::path::PathBuf;

use crate::config::budget;

#[derive(Debug, Clone, clap::Args)]
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

impl ChessSettings {
    /// The answer cache's bound from its share of `--memory-mib` (`share`
    /// gives a percent's bytes).
    pub fn share_memory(&mut self, share: &dyn Fn(usize) -> usize) {
        self.cache_entries = share(budget::ENGINE_ANSWERS) / budget::ENGINE_ANSWER_BYTES;
    }
}
