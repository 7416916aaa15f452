//! What every game a Fairy-Stockfish-family engine evaluates (a variant:
//! xiangqi, shogi, ...) shares between its folder and the service: one
//! analyzer per game on a pool of its own, a request read by the game's
//! rules, the answer, and a record's review once the rules replayed it.
//! The game says who it is, which engine settings are its own and how its
//! rules read a position ([`EngineVariant`]); the rest is written once
//! here.

use std::marker::PhantomData;
use std::sync::Arc;

use super::analysis::{AnalysisError, EngineAnalysis, EngineAnalyzer, EnginePosition};
use super::request::{self, PositionRequest};
use super::review::{position_ms, review, Record};
use super::{EngineConfig, EnginePool};
use crate::config::Config;
use crate::core::game::Seat;
use crate::core::problem::Problem;
use crate::review::Review;
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

/// A game evaluated by an engine of the pool, as its folder describes it.
pub trait EngineVariant: Send + Sync + 'static {
    /// The game's id in the API.
    const ID: &'static str;
    /// A game in progress as the rules keep it: the engine's question.
    type State: EnginePosition + Clone + Send + Sync;

    /// The engine settings of this server's configuration.
    fn engine_config(config: &Config) -> EngineConfig;

    /// The engine settings where no server made the analyzer (a unit
    /// test's solvers).
    fn default_engine_config() -> EngineConfig;

    /// Answers kept by (position, limits); 0: none.
    fn cache_entries(config: &Config) -> usize;

    /// The game `position` (None: the start) and `moves` describe, or
    /// what is wrong with them in the request's words.
    fn read(position: Option<&str>, moves: &[String]) -> Result<Self::State, String>;

    /// Why the game is over, where it is: there is no move to find.
    fn finished(state: &Self::State) -> Option<String>;
}

/// A game's engine pool and answers: one per server, made before it
/// answers ([`provide`]). `.0` is the analyzer.
pub struct VariantAnalyzer<V>(pub EngineAnalyzer, PhantomData<fn() -> V>);

impl<V: EngineVariant> VariantAnalyzer<V> {
    pub fn new(config: &Config) -> Self {
        Self::on(V::engine_config(config), V::cache_entries(config))
    }

    fn on(engine: EngineConfig, cache_entries: usize) -> Self {
        VariantAnalyzer(EngineAnalyzer::new(EnginePool::new(engine), cache_entries), PhantomData)
    }
}

/// Makes the game's analyzer on the configured engine before the first
/// request, so that its endpoints, matches and the arena share one pool.
pub fn provide<V: EngineVariant>(config: &Config, solvers: &Solvers) {
    solvers.provide(Arc::new(VariantAnalyzer::<V>::new(config)));
}

/// The game's analyzer; a set of solvers without one (a unit test's)
/// gets one on the default settings, without a cache.
pub fn analyzer<V: EngineVariant>(solvers: &Solvers) -> Arc<VariantAnalyzer<V>> {
    solvers.of_with(|| VariantAnalyzer::<V>::on(V::default_engine_config(), 0))
}

/// The game a request describes, or what is wrong with it (a finished
/// game included).
pub fn read_game<V: EngineVariant>(request: &PositionRequest) -> Result<V::State, AnalysisError> {
    let game = V::read(request.position.as_deref(), &request.moves).map_err(AnalysisError::Rules)?;
    match V::finished(&game) {
        Some(reason) => Err(AnalysisError::Rules(reason)),
        None => Ok(game),
    }
}

/// The answer to one request (`POST /{game}/move`, an `/analyze`
/// position, a stream).
pub async fn analyze<V: EngineVariant>(
    config: &Config,
    solvers: &Solvers,
    request: PositionRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<EngineAnalysis, Problem> {
    let game = read_game::<V>(&request)?;
    let analyzer = analyzer::<V>(solvers);
    request::answer(config, &analyzer.0, &game, &request, shared, lines).await
}

/// A record the game's rules replayed: every position (the start first),
/// the moves' notation, and each position's side to move as a seat.
pub struct Replayed<S> {
    pub positions: Vec<S>,
    pub played: Vec<String>,
    pub seats: Vec<Seat>,
}

impl<S: Clone> Replayed<S> {
    /// A replay that starts at `start`, `seat` to move.
    pub fn from(start: &S, seat: Seat) -> Self {
        Replayed {
            positions: vec![start.clone()],
            played: Vec::new(),
            seats: vec![seat],
        }
    }

    /// Keeps a move (its notation) and the position after it.
    pub fn push(&mut self, notation: String, after: &S, seat: Seat) {
        self.played.push(notation);
        self.seats.push(seat);
        self.positions.push(after.clone());
    }
}

/// The review of a replayed record: every position evaluated by the
/// game's engine pool, as many at once as it has processes, sharing
/// `max_ms` (defaulted and capped as any search's; at least 50 ms a
/// position), measured lichess's way (see [`super::review`]). `plies` are
/// the entries' numbers; `move_json` writes a move as the game's match
/// move.
pub async fn review_replayed<V: EngineVariant>(
    config: &Config,
    solvers: &Solvers,
    replayed: &Replayed<V::State>,
    plies: &[u64],
    names: [&'static str; 2],
    max_ms: Option<u64>,
    move_json: fn(&str) -> serde_json::Value,
) -> Result<Review, Problem> {
    if replayed.played.is_empty() {
        return Ok(Review::new(V::ID, names, Vec::new()));
    }
    let analyzer = analyzer::<V>(solvers);
    let budget = config.search_budget_ms(max_ms);
    let ms = position_ms(budget, replayed.positions.len(), analyzer.0.pool().size());
    let record = Record {
        game: V::ID,
        positions: &replayed.positions,
        played: &replayed.played,
        seats: &replayed.seats,
        move_json,
    };
    Ok(review(&analyzer.0, &record, names, plies, ms).await?)
}
