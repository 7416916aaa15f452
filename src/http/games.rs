//! The registry's games over HTTP: each game's analysis and review routes,
//! and the tables by id that `/analyze` and match reviews look a game up in.
//! Written once for every game (generic over [`ServedGame`]); no game is
//! named here.

use std::sync::OnceLock;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use futures_util::future::BoxFuture;
use serde::Deserialize;
use serde_json::Value;

use super::extract::{json_bytes, parse_object, ApiJson, ApiQuery, JsonBytes};
use super::state::AppState;
use super::stream;
use crate::core::problem::Problem;
use crate::matches::{read, MatchError};
use crate::registry::{each_game, Visitor};
use crate::review::history::{match_names, parse};
use crate::review::{Review, ReviewError, Step};
use crate::serve::{json_body, PostEndpoint, QueryEndpoint, QueryRoutes, ServedGame};
use crate::solve::run::SharedDeadline;
use crate::store::StoredMatch;

/// A route as `http::routes` lists it.
pub type Route = (Method, &'static str, MethodRouter<AppState>);

/// Every served game's routes: its analysis, its stateless review when
/// it has one, and its `GET` endpoints.
pub fn routes() -> Vec<Route> {
    struct Routes(Vec<Route>);
    impl Visitor for Routes {
        fn visit<G: ServedGame>(&mut self) {
            self.0.push((Method::POST, G::analysis_path(), post(analysis::<G>)));
            if let Some(path) = G::review_path() {
                self.0.push((Method::POST, path, post(record_review::<G>)));
            }
            G::query_routes(self);
        }
    }
    impl QueryRoutes for Routes {
        fn add<E: QueryEndpoint>(&mut self) {
            self.0.push((Method::GET, E::PATH, get(query::<E>)));
        }
        fn post<E: PostEndpoint>(&mut self) {
            self.0.push((Method::POST, E::PATH, post(extra_post::<E>)));
        }
    }
    let mut routes = Routes(Vec::new());
    each_game(&mut routes);
    routes.0
}

/// `POST` of a game's analysis endpoint: its answer, or its NDJSON lines
/// when the client streams.
async fn analysis<G: ServedGame>(State(state): State<AppState>, request: Request) -> Result<Response, Problem> {
    let streamed = G::STREAMS && stream::wants_ndjson(request.headers());
    let request = read_request::<G>(&json_bytes(request).await?)?;
    let search = move |lines| async move { G::analyze(&state, request, None, lines).await };
    stream::plain_or_lines_with(streamed, search, G::body).await
}

/// An analysis request's body: by the game's own reader when it has one
/// and the body is in its plain form, else by serde (whose messages are
/// the contract's).
fn read_request<G: ServedGame>(json: &[u8]) -> Result<G::Request, Problem> {
    match G::read_plain(json) {
        Some(request) => Ok(request),
        None => parse_object(json),
    }
}

/// `GET` of a game's query endpoint.
async fn query<E: QueryEndpoint>(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<E::Query>,
) -> Result<Response, Problem> {
    Ok(super::precompressed::respond(E::answer(&state, query).await?, &headers))
}

/// `POST` of a game's other endpoint.
async fn extra_post<E: PostEndpoint>(State(state): State<AppState>, request: Request) -> Result<Response, Problem> {
    let request: E::Request = parse_object(&json_bytes(request).await?)?;
    let answer = E::answer(&state, request).await?;
    Ok(JsonBytes(json_body(&answer)?).into_response())
}

/// A stateless review's body: the record's options and moves, each read
/// into the game's own types as a match reads them (see [`record_part`]).
#[derive(Deserialize)]
struct Record {
    #[serde(default, deserialize_with = "read::optional_unique_keys")]
    options: Option<Value>,
    #[serde(deserialize_with = "read::unique_keys_each")]
    moves: Vec<Value>,
    max_ms: Option<u64>,
}

/// A part of a record read into the game's type. A value of the wrong
/// shape is a malformed body (400); a field the game does not know, in a
/// body otherwise well formed, is a record it cannot review (422), as in a
/// match.
fn record_part(error: MatchError) -> Problem {
    match error {
        MatchError::UnknownField { .. } => Problem::unprocessable(error.to_string()),
        other => Problem::bad_request(format!("the body does not have the expected shape: {other}")),
    }
}

async fn record_review<G: ServedGame>(
    State(state): State<AppState>,
    ApiJson(record): ApiJson<Record>,
) -> Result<Response, Problem> {
    let client_error = |e: ReviewError| Problem::unprocessable(e.to_string());
    let options: G::ReviewOptions = read::optional(record.options.as_ref(), "options").map_err(record_part)?;
    let moves = record
        .moves
        .iter()
        .enumerate()
        .map(|(i, mv)| read::required(mv, &format!("moves[{i}]")))
        .collect::<Result<Vec<G::RecordMove>, MatchError>>()
        .map_err(record_part)?;
    let steps = G::record_steps(moves).map_err(client_error)?;
    let review = G::review(&state, options, steps, G::RECORD_SIDES, record.max_ms)
        .await?
        .map_err(client_error)?;
    Ok(review_body(json_body(&review)?))
}

pub fn review_body(body: Bytes) -> Response {
    JsonBytes(body).into_response()
}

/// A stored match that does not replay is the server's fault; a match too
/// big to review is not.
pub fn stored_error(error: ReviewError) -> Problem {
    match error {
        ReviewError::Unavailable(_) => Problem::unprocessable(error.to_string()),
        other => Problem::internal(&format!("the stored match does not replay: {other}")),
    }
}

/// One position of a batch, answered as the game's endpoint answers it.
type AnalyseJson = for<'a> fn(&'a AppState, &'a [u8], SharedDeadline) -> BoxFuture<'a, Result<Bytes, Problem>>;
/// A stored match's review.
type ReviewStored = for<'a> fn(&'a AppState, &'a StoredMatch, Option<u64>) -> BoxFuture<'a, Result<Review, Problem>>;

struct Entry {
    id: &'static str,
    analyze: AnalyseJson,
    review_stored: ReviewStored,
}

fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        struct Entries(Vec<Entry>);
        impl Visitor for Entries {
            fn visit<G: ServedGame>(&mut self) {
                self.0.push(Entry {
                    id: G::ID,
                    analyze: analyze_json::<G>,
                    review_stored: review_stored::<G>,
                });
            }
        }
        let mut entries = Entries(Vec::new());
        each_game(&mut entries);
        entries.0
    })
}

fn find(id: &str) -> Option<&'static Entry> {
    entries().iter().find(|e| e.id == id)
}

/// The answer of a batch's position of the registry game `id`; None when
/// no served game has that id.
pub fn analyze_position<'a>(
    id: &str,
    state: &'a AppState,
    json: &'a [u8],
    shared: SharedDeadline,
) -> Option<BoxFuture<'a, Result<Bytes, Problem>>> {
    find(id).map(|entry| (entry.analyze)(state, json, shared))
}

/// The review of a stored match of the registry game `id`; None when no
/// served game has that id.
pub fn review_stored_match<'a>(
    id: &str,
    state: &'a AppState,
    stored: &'a StoredMatch,
    max_ms: Option<u64>,
) -> Option<BoxFuture<'a, Result<Review, Problem>>> {
    find(id).map(|entry| (entry.review_stored)(state, stored, max_ms))
}

fn analyze_json<'a, G: ServedGame>(
    state: &'a AppState,
    json: &'a [u8],
    shared: SharedDeadline,
) -> BoxFuture<'a, Result<Bytes, Problem>> {
    Box::pin(async move {
        let request = read_request::<G>(json)?;
        G::body(G::analyze(state, request, Some(shared), None).await?)
    })
}

fn review_stored<'a, G: ServedGame>(
    state: &'a AppState,
    stored: &'a StoredMatch,
    max_ms: Option<u64>,
) -> BoxFuture<'a, Result<Review, Problem>> {
    Box::pin(async move {
        let names = match_names(stored);
        let steps: Vec<Step<G::ReviewMove>> = G::stored_steps(stored, names)?;
        let options: G::ReviewOptions = parse(&stored.game.options, "options")?;
        G::review(state, options, steps, names, max_ms)
            .await?
            .map_err(stored_error)
    })
}
