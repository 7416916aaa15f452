//! Standard chess: the rules on `cozy_chess` (FEN, legal moves, UCI, the
//! end of the game) with kibitz's own SAN, the evaluation through
//! Stockfish on the engine pool (`crate::engines`), and lichess's measures
//! (win%, move accuracy, judgments) for reviews.
//!
//! - [`rules`]: [`ChessState`] (implements `Game`), FEN and move errors
//!   that name the field or the move's index.
//! - [`san`]: moves in Standard Algebraic Notation.
//! - [`search`]: [`ChessAnalyzer`], the entry point: analyse a position,
//!   the cloud-eval view, the AI's move at a level.
//! - [`analysis`]: the answers' JSON shapes.
//! - [`review`]: a game reviewed move by move with lichess's measures.
//! - [`engine`]: a position as the engine's question, in chess's answer
//!   shape.
//! - [`accuracy`], [`levels`]: the pieces they use.
//! - [`api`]: `POST /chess/move` and `GET /chess/cloud-eval` on them.
//! - [`matches`]: chess as a match and arena game; [`blocking`]: the
//!   engine pool called from their blocking threads.
//! - [`record`]: `POST /chess/review` and match reviews in the shared
//!   review's shape.

pub mod accuracy;
pub mod analysis;
pub mod engine;
pub mod levels;
pub mod review;
pub mod rules;
pub mod san;
pub mod search;

// How the service offers it: its endpoints and ServedGame.
pub mod api;
pub use crate::engines::blocking;
pub mod matches;
pub mod record;
mod served;
pub mod settings;

pub use served::ChessGame;

pub use analysis::{ChessAnalysis, CloudEval, EvalScore};
pub use review::{review_game, ChessReview, MoveReview, SideReview};
pub use rules::{ChessMove, ChessState, EndReason, FenField, RulesError, SanMove, START_FEN};
pub use search::{AnalyzeOptions, ChessAnalyzer, ChessError};
