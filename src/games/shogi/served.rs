//! Shogi as the service offers it: its catalog entry, `POST
//! /shogi/move`, the engine pool made from the settings. Its matches and
//! arena players are `super::matches`.

use super::api::{self, Shogi};
use super::engine::engine_config;
use super::matches::{Options, ShogiMove};
use super::rules::{ShogiState, ShogiTurn};
use crate::arena::strategy::names;
use crate::catalog::{default_of, other, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::engines::analysis::EngineAnalysis;
use crate::engines::request::PositionRequest;
use crate::engines::variant::{self, Replayed};
use crate::games::game::Game;
use crate::review::{check_seat, ReviewError, Step};
use crate::serve::{endpoints, memo_gauges, Perft, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

pub struct ShogiGame;

impl ServedGame for ShogiGame {
    const ID: &'static str = "shogi";
    // The board with its pieces and hands (see web/drawing.js).
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    const PERFT: Option<Perft> = Some(perft);
    type Request = PositionRequest;
    type Response = EngineAnalysis;

    fn catalog(config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Shogi",
            summary: "Japanese chess, with drops. Positions as SFEN and/or USI moves; evaluations by Fairy-Stockfish.",
            players: 2,
            chance: false,
            solved_by: "Fairy-Stockfish's evaluation within max_ms (or depth); solved: true only for a mate it proved",
            endpoints: endpoints::<Self>(),
            options: vec![other(
                "sfen",
                "string",
                default_of::<Options>("sfen"),
                "The start position in SFEN; the person plays the side to move there unless the AI goes first.",
            )],
            strategies: names::<super::matches::ShogiMatch>(),
            available: engine_config(config).resolve().is_ok(),
        }
    }

    async fn analyze(
        services: &Services,
        request: PositionRequest,
        shared: Option<SharedDeadline>,
        lines: Option<Lines>,
    ) -> Result<EngineAnalysis, Problem> {
        variant::analyze::<Shogi>(&services.config, &services.solvers, request, shared, lines).await
    }

    /// The analyzer on the configured engine, made before the first
    /// request so that matches and the arena use the same pool.
    fn prepare(config: &Config, solvers: &Solvers) {
        variant::provide::<Shogi>(config, solvers);
    }

    fn record_metrics(services: &Services) {
        let analyzer = api::analyzer(&services.solvers);
        memo_gauges(Self::ID, "answer_cache", &analyzer.0.cache_stats());
        metrics::gauge!("kibitz_engine_processes", "game" => Self::ID).set(analyzer.0.pool().live_pids().len() as f64);
    }

    const RECORD_REVIEW: bool = true;
    const RECORD_SIDES: [&'static str; 2] = ["sente", "gote"];
    type ReviewOptions = Options;
    type RecordMove = ShogiMove;
    type ReviewMove = ShogiMove;

    /// Every position the record passed through evaluated by the engine
    /// pool (see [`variant::review_replayed`]).
    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<ShogiMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        let replayed = match replay(&options, &steps, names) {
            Ok(replayed) => replayed,
            Err(e) => return Ok(Err(e)),
        };
        let plies: Vec<u64> = steps.iter().map(|s| s.ply).collect();
        let move_json = |notation: &str| serde_json::json!({"usi": notation});
        let (config, solvers) = (&services.config, &services.solvers);
        Ok(Ok(variant::review_replayed::<Shogi>(
            config, solvers, &replayed, &plies, names, max_ms, move_json,
        )
        .await?))
    }
}

/// Replays `steps` from the options' start, checking each move and the
/// side the record gives it.
fn replay(options: &Options, steps: &[Step<ShogiMove>], names: [&str; 2]) -> Result<Replayed<ShogiState>, ReviewError> {
    let mut game = options.start().map_err(ReviewError::Options)?;
    let mut replayed = Replayed::from(&game, game.side_to_move().index());
    for (index, step) in steps.iter().enumerate() {
        check_seat(index, step.seat, game.side_to_move().index(), names)?;
        if let Some(end) = game.end() {
            return Err(ReviewError::at(
                index,
                format!("the game is already over ({})", end.reason),
            ));
        }
        match step.mv.turn(&game).map_err(|reason| ReviewError::at(index, reason))? {
            ShogiTurn::Play(mv) => {
                game.play(ShogiTurn::Play(mv));
                replayed.push(mv.notation(), &game, game.side_to_move().index());
            }
            // A declaration ends the game and is not a move the engine
            // can judge: the review ends with the last move.
            ShogiTurn::DeclareImpasse => game.play(ShogiTurn::DeclareImpasse),
        }
    }
    Ok(replayed)
}

/// The leaf positions `depth` plies from `position` (SFEN; the start when
/// None), by kibitz's own move generator.
fn perft(position: Option<&str>, depth: u32) -> Result<u64, String> {
    let position = match position {
        Some(text) => super::rules::Position::from_sfen(text).map_err(|e| format!("--position: {e}"))?,
        None => super::rules::Position::default(),
    };
    Ok(super::rules::perft(&position, depth))
}

#[cfg(test)]
mod tests {
    #[test]
    fn perft_counts_the_published_start_number_and_names_a_bad_position() {
        assert_eq!(super::perft(None, 2), Ok(900));
        assert!(super::perft(Some("9/9 b - 1"), 1).is_err_and(|e| e.starts_with("--position")));
    }
}
