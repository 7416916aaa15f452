//! Pig as the service offers it: its catalog entry, the decision endpoint
//! (its body read and written by hand: the hottest route) and its reviews.

use std::sync::Arc;

use bytes::Bytes;

use super::api::{self, plain, policy_body, DecisionRequest, DecisionResponse, PolicyCache};
use super::review::{self as pig_review, Decision, RecordMove};
use super::tables::cache::PigTables;
use super::tables::shared_tables;
use super::Options;
use super::{MAX_DIE_SIDES, MIN_DIE_SIDES, MIN_GOAL};
use crate::arena::strategy::names;
use crate::catalog::{default_of, integer, other, GameEntry, GameOption};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::{ReviewError, Step, AB};
use crate::serve::{endpoints, KeptBody, QueryEndpoint, QueryRoutes, RecordMoves, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;
use crate::store::StoredMatch;

pub struct PigGame;

impl ServedGame for PigGame {
    const ID: &'static str = "pig";
    fn analysis_path() -> &'static str {
        "/pig/decision"
    }
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    // A table lookup: nothing to report on the way.
    const STREAMS: bool = false;
    type Request = DecisionRequest;
    type Response = DecisionResponse;

    fn read_plain(json: &[u8]) -> Option<DecisionRequest> {
        plain::decision(json)
    }

    fn body(response: DecisionResponse) -> Result<Bytes, Problem> {
        Ok(Bytes::from(response.to_json()))
    }

    fn catalog(config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Pig",
            summary:
                "Roll a die to build a turn total, hold to bank it; a 1 loses the turn's points. First to the goal wins.",
            players: 2,
            chance: true,
            solved_by: "exact: win probabilities from a table solved (or loaded) at start-up",
            endpoints: endpoints::<Self>(),
            options: vec![
                integer(
                    "goal",
                    default_of::<Options>("goal"),
                    (u64::from(MIN_GOAL), u64::from(config.games.of::<super::settings::PigSettings>().max_goal)),
                    "Points to win.",
                ),
                integer(
                    "die_sides",
                    default_of::<Options>("die_sides"),
                    (u64::from(MIN_DIE_SIDES), u64::from(MAX_DIE_SIDES)),
                    "Faces of the die.",
                ),
                GameOption {
                    allowed: Some(vec!["standard", "progressive"]),
                    ..other(
                        "variant",
                        "string",
                        default_of::<Options>("variant"),
                        "progressive: a 1 banks exactly 1 point.",
                    )
                },
            ],
            strategies: names::<super::matches::PigMatch>(),
            available: true,
        }
    }

    async fn analyze(
        services: &Services,
        request: DecisionRequest,
        _shared: Option<SharedDeadline>,
        _lines: Option<Lines>,
    ) -> Result<DecisionResponse, Problem> {
        api::decide(services, request).await
    }

    /// The tables, from the data directory and the settings' bounds.
    fn prepare(config: &Config, solvers: &Solvers) {
        let tables = PigTables::new(
            config.data_dir.clone(),
            config
                .games
                .of::<super::settings::PigSettings>()
                .cache_mib
                .saturating_mul(1 << 20),
        )
        .with_max_goal(config.games.of::<super::settings::PigSettings>().max_goal);
        solvers.provide(Arc::new(tables));
    }

    fn record_metrics(services: &Services) {
        let (tables, bytes) = shared_tables(&services.solvers).memory();
        metrics::gauge!("kibitz_pig_tables").set(tables as f64);
        metrics::gauge!("kibitz_pig_tables_bytes").set(bytes as f64);
    }

    /// The default tables, read (or solved and written) at start-up.
    fn start(services: &Services) {
        let tables = shared_tables(&services.solvers);
        tokio::spawn(async move {
            if let Err(error) = tables.load_defaults().await {
                tracing::error!(%error, "loading the Pig tables failed");
            }
        });
    }

    fn not_ready(services: &Services) -> Option<String> {
        (!shared_tables(&services.solvers).defaults_ready()).then(|| "the Pig tables are still loading".to_string())
    }

    fn query_routes(routes: &mut impl QueryRoutes) {
        routes.add::<PolicyEndpoint>();
    }

    const RECORD_REVIEW: bool = true;
    const RECORD_SIDES: [&'static str; 2] = AB;
    type ReviewOptions = Options;
    type RecordMove = RecordMove;
    type ReviewMove = Decision;

    fn stored_steps(stored: &StoredMatch, names: [&'static str; 2]) -> Result<Vec<Step<Decision>>, Problem> {
        pig_review::stored_steps(stored, names)
    }

    /// Exact whatever the budget: every value is the table's.
    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<Decision>>,
        names: [&'static str; 2],
        _max_ms: Option<u64>,
    ) -> ReviewResult {
        let rules = match options.rules(services.config.games.of::<super::settings::PigSettings>().max_goal) {
            Ok(rules) => rules,
            Err(e) => return Ok(Err(ReviewError::Options(e.to_string()))),
        };
        if let Err(e) = pig_review::validate(&rules, &steps, names) {
            return Ok(Err(e));
        }
        let table = shared_tables(&services.solvers).get(rules).await?;
        Ok(pig_review::review(&table, &steps, names))
    }
}

/// `GET /pig/policy`: the whole optimal policy of a table, kept written
/// out (bounded by `--pig-policy-cache`).
struct PolicyEndpoint;

impl QueryEndpoint for PolicyEndpoint {
    const PATH: &'static str = "/pig/policy";
    type Query = Options;

    async fn answer(services: &Services, options: Options) -> Result<KeptBody, Problem> {
        let rules = options.rules(services.config.games.of::<super::settings::PigSettings>().max_goal)?;
        let cache = services
            .solvers
            .of_with(|| PolicyCache::new(services.config.games.of::<super::settings::PigSettings>().policy_cache));
        if let Some(body) = cache.get(&rules) {
            return Ok(body);
        }
        let body = policy_body(services, rules).await?;
        cache.offer(rules, &body);
        Ok(body)
    }
}

/// A Pig record says who decided and what each roll showed: its decisions
/// are read from the whole record.
impl RecordMoves<Decision> for RecordMove {
    fn steps(moves: Vec<RecordMove>) -> Result<Vec<Step<Decision>>, ReviewError> {
        pig_review::steps(moves)
    }
}
