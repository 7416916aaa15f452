//! Configuration: every option is a flag and a `KIBITZ_*` environment
//! variable, with defaults that make `cargo run --release` just work.

use std::net::SocketAddr;
use std::path::PathBuf;

use std::any::Any;
use std::borrow::Cow;
use std::fmt;

use clap::{Args, Parser};

/// A command a game adds to `kibitz` beside `serve`.
pub trait GameCommand: fmt::Debug + Send {
    /// Runs the command; the error is the message for stderr.
    fn run(&self) -> Result<(), String>;
}

/// One game's command, as parsed (the registry makes it `clap`'s
/// subcommands, see `crate::registry`).
#[derive(Debug)]
pub struct GameCommands(pub Box<dyn GameCommand>);

impl GameCommands {
    pub fn run(&self) -> Result<(), String> {
        self.0.run()
    }
}

/// A game's own settings, parsed with the server's: each game's flags
/// (the registry adds them) and its share of `--memory-mib`.
pub trait GameSettings: Any + fmt::Debug + Send + Sync {
    /// Percent of `--memory-mib` the game's own caches take.
    fn memory_percent(&self) -> usize {
        0
    }
    /// The game's caches bounded from its share (`share` gives a percent's
    /// bytes).
    fn share_memory(&mut self, _share: &dyn Fn(usize) -> usize) {}
}

/// What [`GameConfigs`] needs of every settings type, written once for
/// all of them (any `GameSettings` that is `Clone`).
pub trait StoredSettings: GameSettings {
    fn clone_box(&self) -> Box<dyn StoredSettings>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<S: GameSettings + Clone> StoredSettings for S {
    fn clone_box(&self) -> Box<dyn StoredSettings> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Every game's own settings, by type.
#[derive(Debug, Default)]
pub struct GameConfigs(Vec<Box<dyn StoredSettings>>);

impl Clone for GameConfigs {
    fn clone(&self) -> Self {
        GameConfigs(self.0.iter().map(|s| s.clone_box()).collect())
    }
}

impl GameConfigs {
    pub fn insert(&mut self, settings: impl GameSettings + Clone) {
        self.0.push(Box::new(settings));
    }

    /// The settings of type `S`: as parsed, or their defaults where a
    /// config was made without them.
    pub fn of<S: GameSettings + Default + Clone>(&self) -> Cow<'_, S> {
        self.0
            .iter()
            .find_map(|s| s.as_any().downcast_ref::<S>())
            .map_or_else(|| Cow::Owned(S::default()), Cow::Borrowed)
    }

    /// The settings of type `S` to change (None where a config was made
    /// without them).
    pub fn of_mut<S: GameSettings>(&mut self) -> Option<&mut S> {
        self.0.iter_mut().find_map(|s| s.as_any_mut().downcast_mut::<S>())
    }

    /// The percent of `--memory-mib` all the games' own caches take.
    fn memory_percent(&self) -> usize {
        self.0.iter().map(|s| s.memory_percent()).sum()
    }

    fn share_memory(&mut self, share: &dyn Fn(usize) -> usize) {
        for settings in &mut self.0 {
            settings.share_memory(share);
        }
    }
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
    /// to make room. At least 2.
    #[arg(long, env = "KIBITZ_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// A request's line and headers must arrive within this many
    /// milliseconds of the connection being ready for it; a keep-alive
    /// connection idle this long is closed too. At least 100.
    #[arg(long, env = "KIBITZ_HEADER_TIMEOUT_MS", default_value_t = 10_000)]
    pub header_timeout_ms: u64,
    /// Largest request line plus headers, in bytes (431 beyond; at least
    /// 1024).
    #[arg(long, env = "KIBITZ_MAX_HEADER_BYTES", default_value_t = 16 * 1024)]
    pub max_header_bytes: usize,
    /// Most header fields in one request (431 beyond; hyper's own bound,
    /// the fastest: any other costs an allocation per request; at least 8).
    #[arg(long, env = "KIBITZ_MAX_HEADERS", default_value_t = 100)]
    pub max_headers: usize,
    /// Serve GET /metrics on this address instead of the public one (then
    /// the public port answers 404 there), e.g. 127.0.0.1:9090.
    #[arg(long, env = "KIBITZ_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "KIBITZ_BODY_LIMIT_BYTES", default_value_t = 64 * 1024)]
    pub body_limit_bytes: usize,
    /// Search budget when a request gives no max_ms (at most max_ms_cap).
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
    /// Hard limit on any request's whole time, streamed answers included,
    /// in milliseconds (503 past it; a stream is cut off). Unset: derived
    /// from the search budget, max_ms_cap (or search_queue_ms, if longer)
    /// plus 5000, so that every search within the cap is answered (15000
    /// with the defaults). Set, it must be at least that budget plus 1000.
    #[arg(long, env = "KIBITZ_REQUEST_TIMEOUT_MS")]
    pub request_timeout_ms: Option<u64>,
    /// Origins allowed by CORS, comma-separated; "*" allows any (no
    /// credentials). GET /metrics never sends CORS headers: a page of
    /// another origin cannot read it.
    #[arg(long, env = "KIBITZ_CORS_ORIGINS", default_value = "*", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// One memory budget for every cache, in MiB: when set, each cache's
    /// bound is derived from its share (see README, "Memory") and the
    /// caches' own settings are ignored. Unset, the caches' own defaults
    /// come to about 1,620 MiB at their most.
    #[arg(long, env = "KIBITZ_MEMORY_MIB")]
    pub memory_mib: Option<usize>,
    /// The most malloc arenas the C allocator keeps (glibc's M_ARENA_MAX;
    /// 0 leaves glibc's default of eight per core). Each thread that
    /// allocates may get an arena of its own, and memory freed in one is
    /// kept there: with the default, a server whose caches fill under
    /// --memory-mib 64 grew by 1.04-1.06 times the figure, with 2 by 0.51.
    #[arg(long, env = "KIBITZ_MALLOC_ARENAS", default_value_t = 2)]
    pub malloc_arenas: usize,
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
    /// The longest a search waits for a free worker before the answer is
    /// 503; a search never waits past its own budget (max_ms), and work
    /// without one (a match's move, a Pig table) at most default_max_ms.
    #[arg(long, env = "KIBITZ_SEARCH_QUEUE_MS", default_value_t = 10_000)]
    pub search_queue_ms: u64,
    /// How long a search or engine call keeps its worker while a client
    /// holding fewer workers waits, in ms: past it, the search is asked to
    /// stop early and answers its best so far (see README, "Fairness").
    #[arg(long, env = "KIBITZ_SEARCH_SLICE_MS", default_value_t = 200)]
    pub search_slice_ms: u64,
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
    /// Memory for the win/loss sequences kept by the subtraction-game
    /// solver (Ishitori), in MiB, each counted by the bytes it holds (half
    /// for sequences of up to 65,536 values, half for longer ones).
    #[arg(long, env = "KIBITZ_SEQUENCE_CACHE_MIB", default_value_t = 64)]
    pub sequence_cache_mib: usize,
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
    /// Each game's own settings (in its folder; the registry adds them).
    #[command(flatten)]
    pub games: GameConfigs,
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
        /// The server's flags alone (the whole command line is `crate::cli`'s).
        #[derive(Parser)]
        struct Flags {
            #[command(flatten)]
            serve: Config,
        }
        let mut flags = Flags::parse_from(["kibitz", "--bind", "127.0.0.1:8080"]);
        // parse_from still reads KIBITZ_* variables; reset what a test
        // environment might have set.
        flags.serve.database_url = None;
        flags.serve.data_dir = PathBuf::from("./data");
        flags.serve
    }

    /// With `memory_mib` set, every cache's bound from its share of it,
    /// replacing the caches' own settings (README, "Memory"); `memos` is
    /// how many memos of `memo_capacity` entries the games keep, `tables`
    /// how many transposition tables of `table_entries`. The shares
    /// are percents: the generic caches' ([`budget`]) and each game's own;
    /// should they add up to more than 100, each is scaled down to fit.
    pub fn with_memory_budget(mut self, memos: usize, tables: usize) -> Self {
        let Some(mib) = self.memory_mib else {
            return self;
        };
        let bytes = mib.saturating_mul(1 << 20);
        let whole = (budget::GENERIC + self.games.memory_percent()).max(100);
        let share = |percent: usize| bytes.saturating_mul(percent) / whole;
        self.games.share_memory(&share);
        self.memo_capacity = share(budget::MEMOS) / memos.max(1) / budget::MEMO_ENTRY_BYTES;
        self.table_entries = budget::table_entries(share(budget::TABLES) / tables.max(1));
        self.sequence_cache_mib = share(budget::SEQUENCES) >> 20;
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

    /// The longest a search within the limits takes before it answers
    /// (bar the small margin of its last step): its budget, at most
    /// `max_ms_cap`, which its wait for a worker counts against, or that
    /// wait, `search_queue_ms`, if longer.
    fn longest_search_ms(&self) -> u64 {
        self.max_ms_cap.max(self.search_queue_ms)
    }

    /// The request timeout in force, in milliseconds: `request_timeout_ms`
    /// as set, else derived from the search budget
    /// ([`limits::REQUEST_MARGIN_MS`] past the longest search).
    pub fn request_timeout_in_ms(&self) -> u64 {
        self.request_timeout_ms
            .unwrap_or_else(|| self.longest_search_ms().saturating_add(limits::REQUEST_MARGIN_MS))
    }

    /// [`Config::request_timeout_in_ms`] as a duration.
    pub fn request_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.request_timeout_in_ms())
    }

    /// Refuses settings that contradict each other, or that would leave
    /// the server unable to answer (README, "Configuration"): every
    /// contradiction found, each naming its settings. Called before the
    /// server is built.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut problems = Vec::new();
        if self.default_max_ms > self.max_ms_cap {
            problems.push(format!(
                "--default-max-ms (KIBITZ_DEFAULT_MAX_MS) = {} is above --max-ms-cap (KIBITZ_MAX_MS_CAP) = {}: \
                 a search without max_ms would ask for more than any request may; lower the default or raise the cap",
                self.default_max_ms, self.max_ms_cap
            ));
        }
        if let Some(timeout) = self.request_timeout_ms {
            let least = self.longest_search_ms().saturating_add(limits::MIN_REQUEST_MARGIN_MS);
            if timeout < least {
                problems.push(format!(
                    "--request-timeout-ms (KIBITZ_REQUEST_TIMEOUT_MS) = {timeout} would cut off searches within \
                     --max-ms-cap (KIBITZ_MAX_MS_CAP) = {} (and their wait for a worker, --search-queue-ms, \
                     KIBITZ_SEARCH_QUEUE_MS = {}): it must be at least {least} ({} ms past the longer of the two); \
                     leave it unset to derive it ({} ms)",
                    self.max_ms_cap,
                    self.search_queue_ms,
                    limits::MIN_REQUEST_MARGIN_MS,
                    self.longest_search_ms().saturating_add(limits::REQUEST_MARGIN_MS),
                ));
            }
        }
        if self.max_connections < limits::MIN_CONNECTIONS {
            problems.push(format!(
                "--max-connections (KIBITZ_MAX_CONNECTIONS) = {} is below {}: every new client would close \
                 the connection of the last one (a keep-alive client and a health probe already need two)",
                self.max_connections,
                limits::MIN_CONNECTIONS
            ));
        }
        if self.header_timeout_ms < limits::MIN_HEADER_TIMEOUT_MS {
            problems.push(format!(
                "--header-timeout-ms (KIBITZ_HEADER_TIMEOUT_MS) = {} is below {} ms: connections would be \
                 closed before a client's headers could arrive",
                self.header_timeout_ms,
                limits::MIN_HEADER_TIMEOUT_MS
            ));
        }
        if self.max_header_bytes < limits::MIN_HEADER_BYTES {
            problems.push(format!(
                "--max-header-bytes (KIBITZ_MAX_HEADER_BYTES) = {} is below {}: ordinary requests' headers \
                 would be refused",
                self.max_header_bytes,
                limits::MIN_HEADER_BYTES
            ));
        }
        if self.max_headers < limits::MIN_HEADERS {
            problems.push(format!(
                "--max-headers (KIBITZ_MAX_HEADERS) = {} is below {}: ordinary requests' headers would be refused",
                self.max_headers,
                limits::MIN_HEADERS
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError(problems))
        }
    }

    /// Settings that do not contradict but are reconciled, or that cut
    /// something short; the server logs each at start-up.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.arena_max_total_ms > self.max_ms_cap {
            notes.push(format!(
                "--arena-max-total-ms (KIBITZ_ARENA_MAX_TOTAL_MS) = {} is above --max-ms-cap (KIBITZ_MAX_MS_CAP) \
                 = {}: POST /arena runs are held to the cap",
                self.arena_max_total_ms, self.max_ms_cap
            ));
        }
        let timeout = self.request_timeout_in_ms();
        if self.shutdown_grace_secs.saturating_mul(1000) < timeout {
            notes.push(format!(
                "--shutdown-grace-secs (KIBITZ_SHUTDOWN_GRACE_SECS) = {} is shorter than the request timeout \
                 ({timeout} ms): a request in flight at shutdown may be cut off",
                self.shutdown_grace_secs
            ));
        }
        notes
    }
}

/// The bounds [`Config::validate`] holds the settings to.
pub mod limits {
    /// The derived request timeout's margin past the longest search: the
    /// search's last step, reading the body, writing the answer, a match's
    /// database work.
    pub const REQUEST_MARGIN_MS: u64 = 5_000;
    /// The least margin an explicit request timeout must leave.
    pub const MIN_REQUEST_MARGIN_MS: u64 = 1_000;
    pub const MIN_CONNECTIONS: usize = 2;
    pub const MIN_HEADER_TIMEOUT_MS: u64 = 100;
    pub const MIN_HEADER_BYTES: usize = 1024;
    pub const MIN_HEADERS: usize = 8;
}

/// Settings that contradict each other: each problem names its settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub Vec<String>);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "contradictory settings, refused: {}", self.0.join("; "))
    }
}

impl std::error::Error for ConfigError {}

/// How `--memory-mib` is shared out: percent of the budget per cache, and
/// the most one entry of each takes (estimates for the memos, whose entries
/// are a key, a value and the hash table's share; bounds for the others).
pub mod budget {
    /// The games' search memos, shared equally by the games that keep one.
    pub const MEMOS: usize = 35;
    /// The transposition tables of the games that search with one.
    pub const TABLES: usize = 15;
    /// The subtraction-game solver's win/loss sequences.
    pub const SEQUENCES: usize = 5;
    /// Finished answers of solved positions.
    pub const ANSWERS: usize = 5;
    pub const REVIEWS: usize = 5;
    /// The generic caches' shares together; each game adds its own
    /// (`GameSettings::memory_percent`).
    pub const GENERIC: usize = MEMOS + TABLES + SEQUENCES + ANSWERS + REVIEWS;

    pub const MEMO_ENTRY_BYTES: usize = 192;
    pub const TABLE_ENTRY_BYTES: usize = 16;
    /// The small tables beside each big one, at most: a table of `c`
    /// entries keeps small ones of `min(4 MiB, 4 c × 16 bytes)` (Connect
    /// Four: one of 1 MiB per searching thread, up to four).
    pub const TABLE_NEAR_BYTES: usize = 4 << 20;
    /// Entries of one transposition table that, with its small tables,
    /// holds at most `bytes`.
    pub fn table_entries(bytes: usize) -> usize {
        if bytes >= 2 * TABLE_NEAR_BYTES {
            (bytes - TABLE_NEAR_BYTES) / TABLE_ENTRY_BYTES
        } else {
            bytes / (5 * TABLE_ENTRY_BYTES)
        }
    }
    pub const ANSWER_BYTES: usize = 8 * 1024;
    pub const REVIEW_BYTES: usize = 256 * 1024;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one problem `validate` finds in the defaults changed by `adjust`.
    fn refused(adjust: impl FnOnce(&mut Config)) -> String {
        let mut config = Config::defaults();
        adjust(&mut config);
        match config.validate() {
            Err(ConfigError(problems)) if problems.len() == 1 => problems[0].clone(),
            other => panic!("expected one problem, got {other:?}"),
        }
    }

    #[test]
    fn the_defaults_are_consistent_and_the_timeout_follows_the_cap() {
        let mut config = Config::defaults();
        assert_eq!(config.validate(), Ok(()));
        assert!(config.notes().is_empty(), "{:?}", config.notes());
        assert_eq!(config.request_timeout_ms, None);
        // The old fixed default, now derived.
        assert_eq!(config.request_timeout_in_ms(), 15_000);
        config.max_ms_cap = 60_000;
        assert_eq!(config.request_timeout_in_ms(), 65_000);
        assert_eq!(config.validate(), Ok(()));
        // A long wait for a worker counts as much as a search.
        config.search_queue_ms = 90_000;
        assert_eq!(config.request_timeout_in_ms(), 95_000);
        // Set explicitly above the cap, it is taken as it is.
        config.request_timeout_ms = Some(120_000);
        assert_eq!(config.request_timeout_in_ms(), 120_000);
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn a_default_budget_above_the_cap_is_refused_naming_both() {
        let problem = refused(|c| c.default_max_ms = 30_000);
        assert!(
            problem.contains("--default-max-ms") && problem.contains("30000"),
            "{problem}"
        );
        assert!(
            problem.contains("--max-ms-cap") && problem.contains("10000"),
            "{problem}"
        );
    }

    #[test]
    fn an_explicit_timeout_that_would_cut_a_search_short_is_refused() {
        for timeout in [0, 5_000, 10_000, 10_999] {
            let problem = refused(|c| c.request_timeout_ms = Some(timeout));
            assert!(problem.contains("--request-timeout-ms"), "{problem}");
            assert!(problem.contains("--max-ms-cap"), "{problem}");
            assert!(problem.contains("at least 11000"), "{problem}");
        }
        let problem = refused(|c| {
            c.search_queue_ms = 20_000;
            c.request_timeout_ms = Some(15_000);
        });
        assert!(
            problem.contains("--search-queue-ms") && problem.contains("at least 21000"),
            "{problem}"
        );
        let mut config = Config::defaults();
        config.request_timeout_ms = Some(11_000);
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn connection_bounds_that_cannot_serve_are_refused() {
        for n in [0, 1] {
            let problem = refused(|c| c.max_connections = n);
            assert!(
                problem.contains("--max-connections") && problem.contains("below 2"),
                "{problem}"
            );
        }
        for ms in [0, 99] {
            let problem = refused(|c| c.header_timeout_ms = ms);
            assert!(problem.contains("--header-timeout-ms"), "{problem}");
        }
        assert!(refused(|c| c.max_header_bytes = 100).contains("--max-header-bytes"));
        assert!(refused(|c| c.max_headers = 0).contains("--max-headers"));
        let mut config = Config::defaults();
        config.max_connections = 2;
        config.header_timeout_ms = 100;
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn every_contradiction_is_named_at_once() {
        let mut config = Config::defaults();
        config.default_max_ms = 30_000;
        config.max_connections = 0;
        config.request_timeout_ms = Some(0);
        let error = config.validate().unwrap_err();
        assert_eq!(error.0.len(), 3, "{error}");
        let message = error.to_string();
        for name in ["--default-max-ms", "--max-connections", "--request-timeout-ms"] {
            assert!(message.contains(name), "{message}");
        }
    }

    #[test]
    fn reconciled_settings_are_noted() {
        let mut config = Config::defaults();
        config.max_ms_cap = 1_000;
        config.default_max_ms = 1_000;
        config.shutdown_grace_secs = 5;
        let notes = config.notes();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("--arena-max-total-ms"), "{notes:?}");
        assert!(notes[1].contains("--shutdown-grace-secs"), "{notes:?}");
    }
}
