//! What a game offers to be served: the one trait a game's folder
//! implements ([`ServedGame`]) and what its endpoints may reach
//! ([`Services`]). The registry lists the games that implement it; the HTTP
//! layer, `/analyze`, the catalog and the review endpoints are made from
//! that list, so none of them names a game.
//!
//! The floor between the generic layers (`solve/`, `matches/`, `review/`,
//! `arena/`) and the games: it imports those, the games import it.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::catalog::{Endpoints, GameEntry, BATCH, MATCHES};
use crate::config::Config;
use crate::core::problem::Problem;
pub use crate::kept_body::KeptBody;
use crate::review::{Review, ReviewError, Step};
use crate::solve::lines::Lines;
use crate::solve::memo::MemoStats;
use crate::solve::pool::SearchPool;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;
use crate::store::StoredMatch;

/// What a game's endpoints reach: the server's settings, the search pool
/// every costly search runs on, and the games' shared solvers.
pub struct Services {
    pub config: Arc<Config>,
    pub search_pool: Arc<SearchPool>,
    pub solvers: Solvers,
}

/// The result of a review before it is an answer: the review, or what is
/// wrong with the record (the client's fault in a stateless review, the
/// server's in a stored match's); the outer error is the service's own (no
/// worker free, the budget gone).
pub type ReviewResult = Result<Result<Review, ReviewError>, Problem>;

/// A game's perft: the position as the game writes it (None: the start)
/// and the plies; the count, or what is wrong with the position.
pub type Perft = fn(position: Option<&str>, depth: u32) -> Result<u64, String>;

/// A game as the service offers it: its id, its catalog entry, its
/// stateless analysis and its reviews. Implemented once in the game's
/// folder; the registry's line for the game is what makes it served.
pub trait ServedGame: 'static {
    /// The game's id in the API: `/matches`, `/arena`, `/analyze` and the
    /// catalog name it so.
    const ID: &'static str;
    /// Where the stateless analysis is served (`POST`, a JSON body):
    /// `/{ID}/move` unless the game names another.
    fn analysis_path() -> &'static str {
        game_path(Self::ID, "move")
    }

    /// The analysis endpoint's body, as the client sends it.
    type Request: DeserializeOwned + Send + 'static;
    /// Its answer: any serialisable answer, or one the game wrote out
    /// itself ([`Written`]).
    type Response: AnswerBody;

    /// The body's common form read by the game's own reader (a hot route
    /// skips serde's generic path); None hands the body to serde, whose
    /// reading and messages are the contract's. Whatever it accepts, serde
    /// must read to the same request.
    fn read_plain(_json: &[u8]) -> Option<Self::Request> {
        None
    }

    /// Whether the analysis answers NDJSON lines when the client asks for
    /// them (a search reports its progress); a lookup answers plain JSON
    /// whatever the Accept header says.
    const STREAMS: bool = true;

    /// The answer as the JSON body sent (a game with a faster writer than
    /// serde's for a hot route may write its own).
    fn body(response: Self::Response) -> Result<Bytes, Problem> {
        response.into_body()
    }

    /// The playground's drawing of the game: the ES module served as
    /// `/playground/{ID}.js` (its source is the game folder's
    /// `web/drawing.js`).
    const DRAWING: &'static str;

    /// The analysis board's rules of the game, if the page keeps them: the
    /// ES module served as `/playground/{ID}-rules.js` (its source is the
    /// game folder's `web/rules.js`); without it the game is played against
    /// the AI only.
    const RULES_SCRIPT: Option<&'static str> = None;

    /// The game's own style rules (its folder's `web/style.css`), served
    /// within the playground's one style sheet after the shared rules.
    const STYLE: &'static str = "";

    /// `kibitz perft --game {ID}`: the leaf positions `depth` plies from a
    /// position (the start when none is given), for games whose move
    /// generators are held to published counts.
    const PERFT: Option<Perft> = None;

    /// The game's entry in `GET /games`.
    fn catalog(config: &Config) -> GameEntry;

    /// The answer to one analysis request; a search keeps to `shared` (a
    /// batch's one deadline) when there is one, and reports its progress to
    /// `lines` when the client streams.
    fn analyze(
        services: &Services,
        request: Self::Request,
        shared: Option<SharedDeadline>,
        lines: Option<Lines>,
    ) -> impl Future<Output = Result<Self::Response, Problem>> + Send;

    /// How many search memos of `--memo-capacity` entries the game keeps
    /// (they share the memos' part of `--memory-mib`).
    const MEMOS: usize = 0;

    /// How many transposition tables of `--table-entries` the game keeps
    /// (they share the tables' part of `--memory-mib`).
    const TABLES: usize = 0;

    /// Builds, before the server answers, what the game's searches need
    /// made from the settings (Pig's tables), and hands it to `solvers`.
    fn prepare(_config: &Config, _solvers: &Solvers) {}

    /// Sets the gauges of the game's caches and memos, just before
    /// `/metrics` is rendered.
    fn record_metrics(_services: &Services) {}

    /// Starts what the game prepares in the background when the server
    /// starts (tables read from disk, engine processes started); called
    /// once, inside the runtime.
    fn start(_services: &Services) {}

    /// Why the game cannot answer yet, while it cannot (`/readyz` answers
    /// 503 with it).
    fn not_ready(_services: &Services) -> Option<String> {
        None
    }

    /// The game's `GET` endpoints besides its analysis, each a
    /// [`QueryEndpoint`] given to `routes` (most games have none).
    fn query_routes(_routes: &mut impl QueryRoutes) {}

    /// Whether a record of moves is reviewed statelessly, at
    /// `/{ID}/review` (every game's matches are reviewed at
    /// `/matches/{id}/review`, these or not).
    const RECORD_REVIEW: bool;

    /// Where the stateless review is served, when there is one.
    fn review_path() -> Option<&'static str> {
        Self::RECORD_REVIEW.then(|| game_path(Self::ID, "review"))
    }
    /// The options of a review's record (the match's options, as stored).
    type ReviewOptions: DeserializeOwned + Default + Send + 'static;
    /// One move of a stateless review's record, as the client sends it
    /// (most games: the review's decision itself).
    type RecordMove: DeserializeOwned + RecordMoves<Self::ReviewMove> + Send + 'static;
    /// One decision as the review reads it.
    type ReviewMove: DeserializeOwned + Send + Sync + 'static;
    /// The names of the sides in a stateless record, first player first.
    const RECORD_SIDES: [&'static str; 2];

    /// A stateless record's moves as the review's decisions, first player
    /// first.
    fn record_steps(moves: Vec<Self::RecordMove>) -> Result<Vec<Step<Self::ReviewMove>>, ReviewError> {
        Self::RecordMove::steps(moves)
    }

    /// A stored match's history as the review's decisions (`names` are the
    /// sides, first player first).
    fn stored_steps(stored: &StoredMatch, names: [&'static str; 2]) -> Result<Vec<Step<Self::ReviewMove>>, Problem> {
        crate::review::history::match_steps(stored, names)
    }

    /// The review of a record under `max_ms`.
    fn review(
        services: &Services,
        options: Self::ReviewOptions,
        steps: Vec<Step<Self::ReviewMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> impl Future<Output = ReviewResult> + Send;
}

/// A `GET` endpoint that reads its question from the query string and
/// answers JSON (the HTTP layer parses the query, with its 400s).
pub trait QueryEndpoint: 'static {
    const PATH: &'static str;
    type Query: DeserializeOwned + Send + 'static;

    /// The JSON answer; a large one kept written out comes with its gzip
    /// form made ahead ([`KeptBody::compressed`]).
    fn answer(services: &Services, query: Self::Query) -> impl Future<Output = Result<KeptBody, Problem>> + Send;
}

/// A game's `POST` endpoint besides its analysis (backgammon's cube
/// decision): a JSON object in, a JSON answer out.
pub trait PostEndpoint: 'static {
    const PATH: &'static str;
    type Request: DeserializeOwned + Send + 'static;
    type Response: Serialize + Send;

    fn answer(
        services: &Services,
        request: Self::Request,
    ) -> impl Future<Output = Result<Self::Response, Problem>> + Send;
}

/// Where a game lists its [`QueryEndpoint`]s and [`PostEndpoint`]s (the
/// HTTP layer makes each a route).
pub trait QueryRoutes {
    fn add<E: QueryEndpoint>(&mut self);
    fn post<E: PostEndpoint>(&mut self);
}

/// An answer as the JSON body sent: every serialisable answer is written by
/// serde; one kept written out is [`Written`].
pub trait AnswerBody: Send + 'static {
    fn into_body(self) -> Result<Bytes, Problem>;
}

impl<T: Serialize + Send + 'static> AnswerBody for T {
    fn into_body(self) -> Result<Bytes, Problem> {
        json_body(&self)
    }
}

/// An answer whose JSON the game wrote itself (a body kept from an earlier
/// answer).
pub struct Written(pub Bytes);

impl AnswerBody for Written {
    fn into_body(self) -> Result<Bytes, Problem> {
        Ok(self.0)
    }
}

/// A stateless review's record as its decisions, numbered from the first
/// player's. A game's record move is most often the decision itself; a
/// game whose record says more (Pig's rolls) reads it its own way.
pub trait RecordMoves<M>: Sized {
    fn steps(moves: Vec<Self>) -> Result<Vec<Step<M>>, ReviewError>;
}

impl<M> RecordMoves<M> for M {
    fn steps(moves: Vec<M>) -> Result<Vec<Step<M>>, ReviewError> {
        Ok(Step::numbered(moves))
    }
}

/// An answer serialised as the JSON body sent.
pub fn json_body<T: Serialize>(response: &T) -> Result<Bytes, Problem> {
    serde_json::to_vec(response)
        .map(Bytes::from)
        .map_err(|e| Problem::internal(&e))
}

/// The gauges of one of a game's bounded memos or caches:
/// `kibitz_{cache}_entries` (and `_capacity`, `_hits`, `_misses`), labelled
/// with the game.
pub fn memo_gauges(game: &'static str, cache: &'static str, stats: &MemoStats) {
    let figures = [
        ("entries", stats.entries as f64),
        ("capacity", stats.capacity as f64),
        ("hits", stats.hits as f64),
        ("misses", stats.misses as f64),
    ];
    for (figure, value) in figures {
        metrics::gauge!(format!("kibitz_{cache}_{figure}"), "game" => game).set(value);
    }
}

/// A served game's endpoints, as its catalog entry lists them.
pub fn endpoints<G: ServedGame>() -> Endpoints {
    Endpoints {
        analysis: G::analysis_path(),
        matches: MATCHES,
        review: G::review_path(),
        batch: BATCH,
    }
}

/// `/{id}/{action}`, made once per game and action and kept for the life of
/// the process (a route's path outlives every router; there are a few of
/// them per game), so that no game writes its own paths.
pub fn game_path(id: &'static str, action: &'static str) -> &'static str {
    static PATHS: OnceLock<Mutex<HashMap<(&'static str, &'static str), &'static str>>> = OnceLock::new();
    let mut paths = PATHS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    paths
        .entry((id, action))
        .or_insert_with(|| Box::leak(format!("/{id}/{action}").into_boxed_str()))
}
