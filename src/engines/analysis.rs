//! Questions about a game's position answered by an engine of the pool, for
//! the games whose answer has one shape (xiangqi, shogi): the best move in
//! the game's notation, its score (cp or mate), lichess's win%, the lines,
//! and the one evaluation scale. The game supplies its position through
//! [`EnginePosition`]: kibitz's rules, against which every move the engine
//! names is checked (an engine is never trusted for legality).
//!
//! Chess answers in its own shape (it adds SAN and White's view, and
//! lichess's cloud-eval shape) through the same [`EngineAnalyzer`]: an
//! answer's shape is an [`EngineAnswer`].

use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};

use super::score::{win_percent, EvalScore};
use super::{DepthReport, EngineError, EngineLease, EnginePool, PvLine, SearchJob};
use crate::core::evaluation::Evaluation;
use crate::solve::limits::SearchLimits;
use crate::solve::memo::{BoundedMemo, MemoStats};

/// The most lines one answer may have.
pub const MAX_MULTI_PV: u32 = 5;
/// The deepest `depth` a request may ask for.
pub const MAX_DEPTH: u32 = 99;

/// A game's position as an engine's question needs it, checked by the
/// game's own rules.
pub trait EnginePosition: Sync {
    /// The position after the moves, in the game's notation (the cache's
    /// key: the same position reached another way is the same question).
    fn key(&self) -> String;
    /// What follows `position ` in the engine's protocol.
    fn engine_position(&self) -> String;
    /// How many legal moves the side to move has.
    fn legal_move_count(&self) -> usize;
    /// Who moves, as the game names its sides.
    fn player(&self) -> &'static str;
    /// The longest legal start of an engine's line, each move as the game
    /// writes it.
    fn legal_line(&self, pv: &[String]) -> Vec<String>;
    /// The value of a finished game for the side to move, as a score
    /// (lost: `{"mate": -1}`, won: `{"mate": 1}`, drawn: `{"cp": 0}`);
    /// None while the game goes on.
    fn final_score(&self) -> Option<EvalScore>;
    /// A line (the game's notation, legal from here) in the readable form
    /// the game's players write, where one is customary (xiangqi's WXF,
    /// shogi's Western notation); empty where none is.
    fn readable_line(&self, _moves: &[String]) -> Vec<String> {
        Vec::new()
    }
}

/// A move in the answer: the game's notation, and its readable form where
/// the game has one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineMove {
    pub notation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readable: Option<String>,
}

/// One principal variation, checked against the rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineLine {
    /// The game's notation, from the position.
    pub moves: Vec<String>,
    /// The same moves in the game's readable form, where it has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readable: Vec<String>,
    /// From the side to move's view.
    pub score: EvalScore,
    pub depth: u32,
    pub evaluation: Evaluation,
}

/// The answer to a game's `/move` (and its `/analyze` results and
/// streamed lines).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineAnalysis {
    pub player: String,
    #[serde(rename = "move")]
    pub best: EngineMove,
    /// From the side to move's view.
    pub score: EvalScore,
    /// The side to move's winning chances, 0..100 (lichess's formula).
    pub win_percent: f64,
    pub depth: u32,
    pub nodes: u64,
    /// Up to `multi_pv` lines, best first.
    pub pvs: Vec<EngineLine>,
    /// True only for a mate the engine proved.
    pub solved: bool,
    pub evaluation: Evaluation,
}

/// The engine's lines as moves the rules accept, best first: a line whose
/// first move is illegal is dropped, the others cut at their first illegal
/// move.
fn checked_lines(position: &impl EnginePosition, lines: &[PvLine]) -> Vec<EngineLine> {
    lines
        .iter()
        .filter_map(|line| {
            let moves = position.legal_line(&line.pv);
            (!moves.is_empty()).then(|| EngineLine {
                readable: position.readable_line(&moves),
                moves,
                score: line.score.into(),
                depth: line.depth,
                evaluation: EvalScore::from(line.score).evaluation(),
            })
        })
        .collect()
}

/// The answer from the engine's best move and lines. As chess's: the move
/// is the first move of the first line, so that the move, its score and
/// `pvs[0]` agree (the line that starts with `bestmove` goes first; when
/// none does, the best completed line's move is the answer). A `bestmove`
/// the rules refuse (Fairy-Stockfish can name a pawn drop that mates,
/// which shogi forbids) is not the answer: the best legal line's move is.
///
/// A `weakened` engine (a level's `Skill Level`) is the exception: its
/// `bestmove` is the deliberately weaker move it picked among candidates
/// it does not print, so a legal one is the answer even when no line
/// starts with it (the score stays the position's, from the best line).
/// Taking the best line's move there played every level at full strength.
impl<P: EnginePosition> EngineAnswer<P> for EngineAnalysis {
    fn from_engine(
        position: &P,
        best_move: Option<&str>,
        weakened: bool,
        lines: &[PvLine],
        depth: u32,
        nodes: u64,
    ) -> Result<Self, EngineError> {
        let mut pvs = checked_lines(position, lines);
        if let Some(best) = best_move {
            if let Some(i) = pvs
                .iter()
                .position(|pv| pv.moves.first().map(String::as_str) == Some(best))
            {
                let chosen = pvs.remove(i);
                pvs.insert(0, chosen);
            }
        }
        let line = pvs
            .first()
            .ok_or_else(|| EngineError::Unusable("the engine gave no legal move with an evaluation".into()))?;
        let notation = line
            .moves
            .first()
            .cloned()
            .ok_or_else(|| EngineError::Unusable("the engine gave an empty line".into()))?;
        let score = line.score;
        let readable = line.readable.first().cloned();
        let chosen = best_move
            .filter(|best| weakened && *best != notation)
            .map(|best| position.legal_line(&[best.to_string()]))
            .and_then(|moves| {
                let readable = position.readable_line(&moves).first().cloned();
                moves
                    .into_iter()
                    .next()
                    .map(|notation| EngineMove { notation, readable })
            });
        let best = chosen.unwrap_or(EngineMove { notation, readable });
        Ok(EngineAnalysis {
            player: position.player().to_string(),
            best,
            win_percent: win_percent(score.to_engine()),
            solved: matches!(score, EvalScore::Mate(n) if n != 0),
            evaluation: score.evaluation(),
            score,
            depth,
            nodes,
            pvs,
        })
    }
}

/// An answer's shape, built from an engine's search of a position `P`:
/// [`EngineAnalysis`] for every position, chess's own for chess.
pub trait EngineAnswer<P>: Clone + Send + Sync + Sized {
    /// The answer from the engine's best move and lines (a final search
    /// result, or one completed depth with no best move); see
    /// [`EngineAnalysis`]'s for the rules every shape keeps.
    fn from_engine(
        position: &P,
        best_move: Option<&str>,
        weakened: bool,
        lines: &[PvLine],
        depth: u32,
        nodes: u64,
    ) -> Result<Self, EngineError>;
}

/// What can go wrong answering, by whose fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The position or moves (422), in the game's words.
    #[error("{0}")]
    Rules(String),
    /// An out-of-range parameter (422), naming the field.
    #[error("{field}: {detail}")]
    BadParameter { field: &'static str, detail: String },
    /// The engine (503; see [`EngineError::retry_after_secs`]).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl AnalysisError {
    /// The `detail` for a client: the input's errors and the install hint
    /// as they are; an engine's failure without its internals.
    pub fn client_detail(&self) -> String {
        match self {
            AnalysisError::Engine(e @ (EngineError::Died(_) | EngineError::Hung(_) | EngineError::Protocol(_))) => {
                format!(
                    "the engine failed on this request ({e}); its process was stopped and the next request \
                     starts a fresh one: try again"
                )
            }
            AnalysisError::Engine(EngineError::Spawn(_)) => "the engine could not be started".to_string(),
            other => other.to_string(),
        }
    }
}

/// One question's limits and settings, besides the time budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The `max_ms` asked for (part of the cache key).
    pub max_ms: u64,
    pub depth: Option<u32>,
    /// 1..=[`MAX_MULTI_PV`].
    pub multi_pv: u32,
    /// Engine options of a weakened level; none at full strength (the
    /// only answers kept: a weakened level is meant to vary).
    pub options: Vec<(String, String)>,
    /// Questions of one game share a session (the engine keeps its hash).
    pub session: Option<u64>,
}

impl Question {
    /// A full-strength question, its ranges checked (naming the field).
    pub fn new(max_ms: u64, depth: Option<u32>, multi_pv: u32) -> Result<Self, AnalysisError> {
        if !(1..=MAX_MULTI_PV).contains(&multi_pv) {
            return Err(AnalysisError::BadParameter {
                field: "multi_pv",
                detail: format!("must be between 1 and {MAX_MULTI_PV}, got {multi_pv}"),
            });
        }
        if let Some(depth) = depth.filter(|d| !(1..=MAX_DEPTH).contains(d)) {
            return Err(AnalysisError::BadParameter {
                field: "depth",
                detail: format!("must be between 1 and {MAX_DEPTH}, got {depth}"),
            });
        }
        Ok(Question {
            max_ms,
            depth,
            multi_pv,
            options: Vec::new(),
            session: None,
        })
    }
}

/// An answer's key in the cache: the position and every limit that
/// changes the answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CacheKey {
    position: String,
    max_ms: u64,
    depth: Option<u32>,
    multi_pv: u32,
}

/// An engine pool and the answers it gave, for one game, in the game's
/// answer shape `A`.
pub struct EngineAnalyzer<A = EngineAnalysis> {
    pool: EnginePool,
    cache: Option<BoundedMemo<CacheKey, A>>,
}

impl<A: Clone> EngineAnalyzer<A> {
    /// `cache_entries` answers kept at most (0: none).
    pub fn new(pool: EnginePool, cache_entries: usize) -> Self {
        EngineAnalyzer {
            pool,
            cache: (cache_entries > 0).then(|| BoundedMemo::new(cache_entries)),
        }
    }

    pub fn pool(&self) -> &EnginePool {
        &self.pool
    }

    pub fn cache_stats(&self) -> MemoStats {
        self.cache.as_ref().map(BoundedMemo::stats).unwrap_or_default()
    }

    /// The best move and evaluation of `position` (not a finished game:
    /// the caller refuses those), within `limits`; `on_depth` hears the
    /// answer so far after each completed depth (not called for a cached
    /// answer).
    pub async fn analyze<P: EnginePosition>(
        &self,
        position: &P,
        question: &Question,
        limits: &SearchLimits,
        on_depth: impl FnMut(A) + Send,
    ) -> Result<A, EngineError>
    where
        A: EngineAnswer<P>,
    {
        self.analyze_leased(None, position, question, limits, on_depth).await.0
    }

    /// [`EngineAnalyzer::analyze`] on the engine of `lease` when there is
    /// one (a review's); gives the lease back when its engine is free.
    pub async fn analyze_leased<P: EnginePosition>(
        &self,
        lease: Option<EngineLease>,
        position: &P,
        question: &Question,
        limits: &SearchLimits,
        mut on_depth: impl FnMut(A) + Send,
    ) -> (Result<A, EngineError>, Option<EngineLease>)
    where
        A: EngineAnswer<P>,
    {
        // The engine prints one line per legal move at most: asking for
        // more would leave every depth incomplete.
        let multi_pv = question
            .multi_pv
            .min(u32::try_from(position.legal_move_count()).unwrap_or(1))
            .max(1);
        let key = question.options.is_empty().then(|| CacheKey {
            position: position.key(),
            max_ms: question.max_ms,
            depth: question.depth,
            multi_pv,
        });
        if let (Some(cache), Some(key)) = (&self.cache, &key) {
            if let Some(hit) = cache.get(key) {
                return (Ok(hit), lease);
            }
        }
        let job = SearchJob {
            position: position.engine_position(),
            depth: question.depth,
            multi_pv,
            options: question.options.clone(),
            session: question.session,
        };
        let lease = match lease {
            Some(lease) => lease,
            None => match self.pool.lease(self.pool.wait_within(limits), true).await {
                Ok(lease) => lease,
                Err(e) => return (Err(e), None),
            },
        };
        let yield_flag = lease.yield_flag();
        let weakened = !question.options.is_empty();
        let on_report = |report: &DepthReport| {
            if let Ok(partial) = A::from_engine(position, None, false, &report.lines, report.depth, report.nodes) {
                on_depth(partial);
            }
        };
        let (out, lease) = self.pool.search_leased(lease, &job, limits, on_report).await;
        let analysis = out.and_then(|out| {
            A::from_engine(
                position,
                out.best_move.as_deref(),
                weakened,
                &out.lines,
                out.depth,
                out.nodes,
            )
        });
        // A search stopped early (cancelled, or yielding its engine to
        // another client) is weaker than its budget: not kept.
        let yielded = yield_flag.is_some_and(|f| f.load(Ordering::Relaxed));
        if let (Ok(analysis), Some(cache), Some(key)) = (&analysis, &self.cache, key) {
            if !limits.stopped_early() && !yielded {
                cache.insert(key, analysis.clone());
            }
        }
        (analysis, lease)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Score;

    /// A toy game whose legal moves are `a`, `b` and `c`, each followed by
    /// any of them.
    struct Toy;

    impl EnginePosition for Toy {
        fn key(&self) -> String {
            "toy".into()
        }
        fn engine_position(&self) -> String {
            "startpos".into()
        }
        fn legal_move_count(&self) -> usize {
            3
        }
        fn player(&self) -> &'static str {
            "first"
        }
        fn legal_line(&self, pv: &[String]) -> Vec<String> {
            pv.iter()
                .take_while(|m| matches!(m.as_str(), "a" | "b" | "c"))
                .cloned()
                .collect()
        }
        fn final_score(&self) -> Option<EvalScore> {
            None
        }
    }

    fn line(multipv: u32, score: Score, pv: &[&str]) -> PvLine {
        PvLine {
            multipv,
            depth: 5,
            seldepth: None,
            score,
            pv: pv.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn an_illegal_bestmove_gives_way_to_the_best_legal_line() {
        let lines = [
            line(1, Score::Mate(1), &["x"]),
            line(2, Score::Cp(-40), &["b", "a", "z"]),
        ];
        let Ok(a) = EngineAnalysis::from_engine(&Toy, Some("x"), false, &lines, 5, 10) else {
            panic!("an answer");
        };
        assert_eq!(a.best.notation, "b");
        assert_eq!(a.score, EvalScore::Cp(-40));
        assert_eq!(a.pvs.len(), 1);
        assert_eq!(a.pvs[0].moves, ["b", "a"]);
        assert!(!a.solved);
        assert!(EngineAnalysis::from_engine(&Toy, Some("x"), false, &lines[..1], 5, 10).is_err());
    }

    #[test]
    fn a_weakened_engines_bestmove_is_the_answer_though_no_line_starts_with_it() {
        let lines = [line(1, Score::Cp(30), &["a", "b"])];
        let Ok(full) = EngineAnalysis::from_engine(&Toy, Some("c"), false, &lines, 5, 10) else {
            panic!("an answer");
        };
        assert_eq!(full.best.notation, "a");
        let Ok(weak) = EngineAnalysis::from_engine(&Toy, Some("c"), true, &lines, 5, 10) else {
            panic!("an answer");
        };
        assert_eq!(weak.best.notation, "c");
        assert_eq!(weak.score, EvalScore::Cp(30));
        // An illegal one is still not played.
        let Ok(weak) = EngineAnalysis::from_engine(&Toy, Some("x"), true, &lines, 5, 10) else {
            panic!("an answer");
        };
        assert_eq!(weak.best.notation, "a");
    }

    #[test]
    fn a_proved_mate_is_solved_and_exact() {
        let lines = [
            line(1, Score::Cp(10), &["a"]),
            line(2, Score::Mate(2), &["c", "a", "b"]),
        ];
        let Ok(a) = EngineAnalysis::from_engine(&Toy, Some("c"), false, &lines, 5, 10) else {
            panic!("an answer");
        };
        assert_eq!(a.best.notation, "c");
        assert!(a.solved);
        assert!(a.evaluation.exact);
        assert_eq!(a.win_percent, win_percent(Score::Mate(2)));
        let json = serde_json::to_value(&a).unwrap_or_default();
        assert_eq!(json["move"], serde_json::json!({"notation": "c"}));
        assert_eq!(json["score"], serde_json::json!({"mate": 2}));
        assert!(Question::new(100, None, 6).is_err());
        assert!(Question::new(100, Some(0), 1).is_err());
    }
}
