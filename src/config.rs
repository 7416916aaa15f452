//! Configuration: every option is a flag and a `KIBITZ_*` environment
//! variable, with defaults that make `cargo run --release` just work.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "kibitz",
    version,
    about = "Best moves and evaluations for board and dice games, over HTTP"
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// With no subcommand, kibitz serves.
    #[command(flatten)]
    pub serve: Config,
}

// Parsed once at start-up: the size of the serve variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve(Config),
    /// Play named strategies against each other and report how strong each is.
    Arena(crate::cli::ArenaArgs),
    #[command(flatten)]
    Game(crate::games::GameCommand),
}

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "KIBITZ_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Where tables and the default SQLite database live.
    #[arg(long, env = "KIBITZ_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// sqlite://... or postgres://...; default: SQLite file kibitz.db in the data dir.
    #[arg(long, env = "KIBITZ_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Connections open at once, at most (lowered to fit under the
    /// open-file limit). When all are taken, the longest-idle one is closed
    /// to make room.
    #[arg(long, env = "KIBITZ_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// A request's line and headers must arrive within this many
    /// milliseconds of the connection being ready for it; a keep-alive
    /// connection idle this long is closed too.
    #[arg(long, env = "KIBITZ_HEADER_TIMEOUT_MS", default_value_t = 10_000)]
    pub header_timeout_ms: u64,
    /// Largest request line plus headers, in bytes (431 beyond).
    #[arg(long, env = "KIBITZ_MAX_HEADER_BYTES", default_value_t = 16 * 1024)]
    pub max_header_bytes: usize,
    /// Most header fields in one request (431 beyond; hyper's own bound,
    /// the fastest: any other costs an allocation per request).
    #[arg(long, env = "KIBITZ_MAX_HEADERS", default_value_t = 100)]
    pub max_headers: usize,
    /// Serve GET /metrics on this address instead of the public one (then
    /// the public port answers 404 there), e.g. 127.0.0.1:9090.
    #[arg(long, env = "KIBITZ_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "KIBITZ_BODY_LIMIT_BYTES", default_value_t = 64 * 1024)]
    pub body_limit_bytes: usize,
    /// Search budget when a request gives no max_ms.
    #[arg(long, env = "KIBITZ_DEFAULT_MAX_MS", default_value_t = 1000)]
    pub default_max_ms: u64,
    /// The largest max_ms a request may ask for; larger values are capped.
    #[arg(long, env = "KIBITZ_MAX_MS_CAP", default_value_t = 10_000)]
    pub max_ms_cap: u64,
    /// POST /arena: the most games one request may play (longer runs: `kibitz arena`).
    #[arg(long, env = "KIBITZ_ARENA_MAX_GAMES", default_value_t = 1000)]
    pub arena_max_games: u64,
    /// POST /arena: the most time one request's games may take, in ms (at most max_ms_cap).
    #[arg(long, env = "KIBITZ_ARENA_MAX_TOTAL_MS", default_value_t = 5000)]
    pub arena_max_total_ms: u64,
    /// Hard limit on any request, in milliseconds (answers 503 past it).
    #[arg(long, env = "KIBITZ_REQUEST_TIMEOUT_MS", default_value_t = 15_000)]
    pub request_timeout_ms: u64,
    /// Origins allowed by CORS, comma-separated; "*" allows any (no credentials).
    #[arg(long, env = "KIBITZ_CORS_ORIGINS", default_value = "*", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// One memory budget for every cache, in MiB: when set, each cache's
    /// bound is derived from its share (see README, "Memory") and the
    /// caches' own settings are ignored. Unset, the caches' own defaults
    /// come to about 1,460 MiB at their most.
    #[arg(long, env = "KIBITZ_MEMORY_MIB")]
    pub memory_mib: Option<usize>,
    /// Entries in each game's shared search memo.
    #[arg(long, env = "KIBITZ_MEMO_CAPACITY", default_value_t = 2_000_000)]
    pub memo_capacity: usize,
    /// Entries (16 bytes each) in the shared transposition table of each
    /// game that searches with one (Connect Four, Othello), allocated at its
    /// first search.
    #[arg(long, env = "KIBITZ_TABLE_ENTRIES", default_value_t = 1 << 22)]
    pub table_entries: usize,
    /// Threads one Connect Four search may add while a core is idle (0: one
    /// thread per search). Under load every search keeps to its own.
    #[arg(long, env = "KIBITZ_SEARCH_HELPERS", default_value_t = 1)]
    pub search_helpers: usize,
    /// Searches that may run at once (0: one per CPU). Cheap lookups never wait for them.
    #[arg(long, env = "KIBITZ_SEARCH_CONCURRENCY", default_value_t = 0)]
    pub search_concurrency: usize,
    /// How long a search waits for a free worker before the answer is 503.
    #[arg(long, env = "KIBITZ_SEARCH_QUEUE_MS", default_value_t = 500)]
    pub search_queue_ms: u64,
    /// Requests per second allowed per client address (0: no limit).
    #[arg(long, env = "KIBITZ_RATE_LIMIT_PER_SEC", default_value_t = 0)]
    pub rate_limit_per_sec: u32,
    /// Requests a client may send in a burst beyond the rate (0: one second's worth).
    #[arg(long, env = "KIBITZ_RATE_LIMIT_BURST", default_value_t = 0)]
    pub rate_limit_burst: u32,
    /// Matches a client may create per hour (0: no quota); beyond it,
    /// POST /matches answers 429 with Retry-After.
    #[arg(long, env = "KIBITZ_MATCH_QUOTA_PER_HOUR", default_value_t = 600)]
    pub match_quota_per_hour: u32,
    /// Matches a client may create in a burst (0: the hourly quota at once).
    #[arg(long, env = "KIBITZ_MATCH_QUOTA_BURST", default_value_t = 60)]
    pub match_quota_burst: u32,
    /// Behind a reverse proxy: take the client address from the last
    /// X-Forwarded-For entry (only when the proxy sets it).
    #[arg(long, env = "KIBITZ_RATE_LIMIT_TRUST_FORWARDED", default_value_t = false)]
    pub rate_limit_trust_forwarded: bool,
    /// Win/loss sequences kept for reuse by the subtraction-game solver
    /// (Ishitori; each at most 64 KiB, the few longer ones have a separate
    /// cache of 8).
    #[arg(long, env = "KIBITZ_SEQUENCE_CACHE_ENTRIES", default_value_t = 1024)]
    pub sequence_cache_entries: usize,
    /// Plies a match may reach: a person's move beyond it is refused (422,
    /// /problems/match-too-long), so a match's answers and review stay bounded.
    #[arg(long, env = "KIBITZ_MATCH_MAX_PLIES", default_value_t = 5_000)]
    pub match_max_plies: u64,
    /// History entries in one match answer, at most (the rest with `?since=`).
    #[arg(long, env = "KIBITZ_HISTORY_PAGE", default_value_t = 1_000)]
    pub history_page: u64,
    /// Finished matches are deleted this many seconds after their last move.
    #[arg(long, env = "KIBITZ_MATCH_RETENTION_SECS", default_value_t = 7 * 24 * 3600)]
    pub match_retention_secs: u64,
    /// Matches in progress that nobody has moved in this many seconds count
    /// as abandoned and are deleted.
    #[arg(long, env = "KIBITZ_MATCH_IDLE_SECS", default_value_t = 30 * 24 * 3600)]
    pub match_idle_secs: u64,
    /// How often the background purge of old matches runs, in seconds.
    #[arg(long, env = "KIBITZ_PURGE_INTERVAL_SECS", default_value_t = 600)]
    pub purge_interval_secs: u64,
    /// POST /analyze: the most positions one batch may hold.
    #[arg(long, env = "KIBITZ_BATCH_MAX_POSITIONS", default_value_t = 256)]
    pub batch_max_positions: usize,
    /// Finished answers kept whole for positions solved exactly, by the games
    /// that keep them (tic-tac-toe; 0: none).
    #[arg(long, env = "KIBITZ_ANSWER_CACHE", default_value_t = 4096)]
    pub answer_cache: usize,
    /// Reviews of finished matches kept when every value in them is proved
    /// (0: none).
    #[arg(long, env = "KIBITZ_REVIEW_CACHE", default_value_t = 1024)]
    pub review_cache: usize,
    /// Each game's own settings (in its folder).
    #[command(flatten)]
    pub games: crate::games::GameSettings,
    /// Seconds that requests in flight get to finish after SIGTERM/SIGINT.
    #[arg(long, env = "KIBITZ_SHUTDOWN_GRACE_SECS", default_value_t = 30)]
    pub shutdown_grace_secs: u64,
    /// Log filter (tracing EnvFilter syntax).
    #[arg(long, env = "KIBITZ_LOG", default_value = "info")]
    pub log: String,
}

impl Config {
    /// The defaults, ignoring the environment (tests build on this).
    pub fn defaults() -> Self {
        let mut cli = Cli::parse_from(["kibitz", "--bind", "127.0.0.1:8080"]);
        // parse_from still reads KIBITZ_* variables; reset what a test
        // environment might have set.
        cli.serve.database_url = None;
        cli.serve.data_dir = PathBuf::from("./data");
        cli.serve
    }

    /// With `memory_mib` set, every cache's bound from its share of it,
    /// replacing the caches' own settings (README, "Memory").
    pub fn with_memory_budget(mut self) -> Self {
        let Some(mib) = self.memory_mib else {
            return self;
        };
        let bytes = mib.saturating_mul(1 << 20);
        let share = |percent: usize| bytes.saturating_mul(percent) / 100;
        self.games.share_memory(&share);
        // Two games (tic-tac-toe, Number Square) each have a memo this big.
        self.memo_capacity = share(budget::MEMOS) / 2 / budget::MEMO_ENTRY_BYTES;
        self.table_entries = share(budget::TABLES) / budget::TABLE_ENTRY_BYTES;
        self.sequence_cache_entries = share(budget::SEQUENCES) / budget::SEQUENCE_BYTES;
        self.answer_cache = share(budget::ANSWERS) / budget::ANSWER_BYTES;
        self.review_cache = share(budget::REVIEWS) / budget::REVIEW_BYTES;
        self
    }

    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}?mode=rwc", self.data_dir.join("kibitz.db").display()))
    }

    /// A request's search budget, defaulted and capped.
    pub fn search_budget_ms(&self, requested: Option<u64>) -> u64 {
        requested.unwrap_or(self.default_max_ms).min(self.max_ms_cap)
    }
}

/// How `--memory-mib` is shared out: percent of the budget per cache, and
/// the most one entry of each takes (estimates for the memos, whose entries
/// are a key, a value and the hash table's share; bounds for the others).
pub mod budget {
    /// Tables solved ahead (Pig's).
    pub const SOLVED_TABLES: usize = 25;
    pub const MEMOS: usize = 35;
    pub const TABLES: usize = 15;
    pub const SEQUENCES: usize = 5;
    pub const ANSWERS: usize = 5;
    pub const REVIEWS: usize = 5;
    /// Policies written out (Pig's).
    pub const POLICIES: usize = 5;
    /// Answers of engine-backed games (chess's).
    pub const ENGINE_ANSWERS: usize = 5;

    pub const MEMO_ENTRY_BYTES: usize = 192;
    pub const TABLE_ENTRY_BYTES: usize = 16;
    pub const SEQUENCE_BYTES: usize = 64 * 1024;
    pub const ANSWER_BYTES: usize = 8 * 1024;
    pub const REVIEW_BYTES: usize = 256 * 1024;
    pub const POLICY_BYTES: usize = 1_400_000;
    /// A chess answer is about 2 KiB with its lines; counted generously,
    /// since a principal variation's length is the engine's.
    pub const ENGINE_ANSWER_BYTES: usize = 16 * 1024;
}
