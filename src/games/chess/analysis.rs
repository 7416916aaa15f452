//! The answers to chess questions, in the contract's JSON shapes: the
//! `POST /chess/move` response ([`ChessAnalysis`]) and lichess's
//! `/api/cloud-eval` shape ([`CloudEval`]), built from an engine's output
//! checked against the rules (an engine's moves are not trusted).

use super::rules::Color;
use serde::{Deserialize, Serialize};

use super::accuracy::win_percent;
use super::rules::{ChessMove, ChessState, SanMove};
use crate::core::evaluation::Evaluation;
use crate::engines::analysis::EngineAnswer;
pub use crate::engines::score::EvalScore;
use crate::engines::{EngineError, PvLine};

/// One principal variation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PvOut {
    /// UCI moves from the position.
    pub moves: Vec<String>,
    /// The same in SAN.
    pub san: Vec<String>,
    /// From the side to move's view.
    pub score: EvalScore,
    pub depth: u32,
    pub evaluation: Evaluation,
}

/// The answer to `POST /chess/move`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChessAnalysis {
    /// `"white"` or `"black"`: who moves.
    pub player: String,
    #[serde(rename = "move")]
    pub best: SanMove,
    /// From the side to move's view.
    pub score: EvalScore,
    /// From White's view, as lichess reports it.
    pub white_score: EvalScore,
    /// The side to move's winning chances, 0..100 (lichess's formula).
    pub win_percent: f64,
    pub depth: u32,
    pub nodes: u64,
    /// Up to `multi_pv` lines, best first.
    pub pvs: Vec<PvOut>,
    /// True only for a mate the engine proved.
    pub solved: bool,
    pub evaluation: Evaluation,
}

/// The engine's lines as moves the rules accept, best first. Lines whose
/// first move is not legal are dropped; the rest are cut at the first
/// illegal move.
pub fn checked_lines(state: &ChessState, lines: &[PvLine]) -> Vec<PvOut> {
    lines
        .iter()
        .filter_map(|line| {
            let (moves, san) = state.line(&line.pv);
            (!moves.is_empty()).then(|| PvOut {
                moves,
                san,
                score: line.score.into(),
                depth: line.depth,
                evaluation: EvalScore::from(line.score).evaluation(),
            })
        })
        .collect()
}

/// Builds the answer from the engine's best move and lines (a final
/// search result or one completed depth). The answer's move is the first
/// move of its first line, so that the move, its score and `pvs[0]` always
/// agree: the line that starts with the engine's `bestmove` goes first (a
/// `stop` can leave the ranks out of order); when no completed line starts
/// with it (a `stop` mid-iteration can leave `bestmove` from a depth that
/// no line finished, with no score), the best completed line's move is the
/// answer. A `weakened` engine's (a level's) `bestmove` is the answer
/// even so: it is the weaker move it chose among lines it does not print
/// (see [`crate::engines::analysis::EngineAnalysis`]'s [`EngineAnswer`]).
impl EngineAnswer<ChessState> for ChessAnalysis {
    fn from_engine(
        state: &ChessState,
        best_move: Option<&str>,
        weakened: bool,
        lines: &[PvLine],
        depth: u32,
        nodes: u64,
    ) -> Result<Self, EngineError> {
        let mut pvs = checked_lines(state, lines);
        if let Some(text) = best_move {
            if ChessMove::parse(text).and_then(|mv| state.san(mv)).is_none() {
                return Err(EngineError::Unusable(format!(
                    "the engine's move {text:?} is not legal here"
                )));
            }
            if let Some(i) = pvs
                .iter()
                .position(|pv| pv.moves.first().map(String::as_str) == Some(text))
            {
                let chosen = pvs.remove(i);
                pvs.insert(0, chosen);
            }
        }
        let ranked = pvs.first().and_then(|pv| pv.moves.first().cloned());
        let best_text = best_move
            .filter(|_| weakened)
            .map(str::to_string)
            .or(ranked)
            .or_else(|| best_move.map(str::to_string))
            .ok_or_else(|| EngineError::Unusable("the engine gave no move".into()))?;
        let best = ChessMove::parse(&best_text)
            .and_then(|mv| state.san(mv).map(|san| SanMove { uci: mv.uci(), san }))
            .ok_or_else(|| EngineError::Unusable(format!("the engine's move {best_text:?} is not legal here")))?;
        let line = pvs
            .first()
            .ok_or_else(|| EngineError::Unusable("the engine gave no evaluation".into()))?;
        let score = line.score;
        let white_score = match state.side_to_move() {
            Color::White => score,
            Color::Black => score.flipped(),
        };
        Ok(ChessAnalysis {
            player: state.player().to_string(),
            win_percent: win_percent(score.to_engine()),
            solved: matches!(score, EvalScore::Mate(n) if n != 0),
            evaluation: score.evaluation(),
            best,
            score,
            white_score,
            depth,
            nodes,
            pvs,
        })
    }
}

/// One line of a cloud evaluation: White's view, moves space-separated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CloudPv {
    pub moves: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mate: Option<i32>,
}

/// lichess's `GET /api/cloud-eval` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CloudEval {
    pub fen: String,
    pub knodes: u64,
    pub depth: u32,
    pub pvs: Vec<CloudPv>,
}

impl CloudEval {
    /// The cloud-eval view of an analysis of `state`.
    pub fn from_analysis(state: &ChessState, analysis: &ChessAnalysis) -> CloudEval {
        let white = state.side_to_move() == Color::White;
        CloudEval {
            fen: state.fen(),
            knodes: analysis.nodes / 1000,
            depth: analysis.depth,
            pvs: analysis
                .pvs
                .iter()
                .map(|pv| {
                    let score = if white { pv.score } else { pv.score.flipped() };
                    let (cp, mate) = match score {
                        EvalScore::Cp(cp) => (Some(cp), None),
                        EvalScore::Mate(n) => (None, Some(n)),
                    };
                    CloudPv {
                        moves: pv.moves.join(" "),
                        cp,
                        mate,
                    }
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Score;

    fn line(multipv: u32, score: Score, pv: &[&str]) -> PvLine {
        PvLine {
            multipv,
            depth: 7,
            seldepth: None,
            score,
            pv: pv.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn an_analysis_reads_black_scores_from_whites_view_and_drops_illegal_engine_moves() {
        let state = ChessState::from_fen_and_moves(None, &["e2e4"]).unwrap_or_default();
        let lines = [
            line(1, Score::Cp(-30), &["c7c5", "g1f3", "zz", "d7d6"]),
            line(2, Score::Cp(-45), &["e2e4"]),
        ];
        let a = ChessAnalysis::from_engine(&state, Some("c7c5"), false, &lines, 7, 1234);
        let Ok(a) = a else {
            panic!("{a:?}");
        };
        assert_eq!(a.player, "black");
        assert_eq!(a.best.san, "c5");
        assert_eq!(a.score, EvalScore::Cp(-30));
        assert_eq!(a.white_score, EvalScore::Cp(30));
        assert_eq!(a.pvs.len(), 1, "the illegal second line is dropped");
        assert_eq!(a.pvs[0].san, vec!["c5", "Nf3"]);
        assert!(!a.solved);
        let json = serde_json::to_value(&a).unwrap_or_default();
        assert_eq!(json["score"], serde_json::json!({"cp": -30}));
        assert_eq!(json["move"], serde_json::json!({"uci": "c7c5", "san": "c5"}));
        let cloud = CloudEval::from_analysis(&state, &a);
        assert_eq!(cloud.knodes, 1);
        assert_eq!(
            serde_json::to_value(&cloud.pvs).unwrap_or_default(),
            serde_json::json!([{"moves": "c7c5 g1f3", "cp": 30}])
        );
        assert!(ChessAnalysis::from_engine(&state, Some("e2e4"), false, &lines, 7, 1).is_err());
    }

    #[test]
    fn the_move_its_score_and_the_first_line_always_agree() {
        let state = ChessState::default();
        let lines = [
            line(1, Score::Cp(31), &["g1f3", "c7c5"]),
            line(2, Score::Cp(25), &["e2e4", "e7e5"]),
        ];
        // bestmove from the second line (ranks out of order after a stop):
        // that line goes first.
        let Ok(a) = ChessAnalysis::from_engine(&state, Some("e2e4"), false, &lines, 9, 1) else {
            panic!("an answer");
        };
        assert_eq!((a.best.uci.as_str(), a.score), ("e2e4", EvalScore::Cp(25)));
        assert_eq!(
            a.pvs.iter().map(|pv| pv.moves[0].as_str()).collect::<Vec<_>>(),
            ["e2e4", "g1f3"]
        );
        // bestmove from a depth no line finished: the best completed line's
        // move, with its score.
        let Ok(a) = ChessAnalysis::from_engine(&state, Some("d2d4"), false, &lines[..1], 9, 1) else {
            panic!("an answer");
        };
        assert_eq!((a.best.uci.as_str(), a.score), ("g1f3", EvalScore::Cp(31)));
        assert_eq!(a.pvs[0].moves[0], "g1f3");
        // A level's weakened engine: its bestmove is the move played, the
        // score still the position's.
        let Ok(a) = ChessAnalysis::from_engine(&state, Some("d2d4"), true, &lines[..1], 9, 1) else {
            panic!("an answer");
        };
        assert_eq!((a.best.uci.as_str(), a.score), ("d2d4", EvalScore::Cp(31)));
    }
}
