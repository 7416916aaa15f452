//! Matches without HTTP or storage: whole games of every game played to the
//! end against the AI with a seeded RNG, illegal moves, the AI going first,
//! and the difficulty levels.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use std::collections::HashMap;

use kibitz::core::game::{Game, GameOutcome};
use kibitz::games::connect_four::{ConnectFourState, Shape};
use kibitz::games::ishitori::solve::SolverConfig;
use kibitz::games::number_square::{Board as NsBoard, Tile};
use kibitz::games::pig::tables::cache::PigTables;
use kibitz::games::tictactoe::{GameResult, Position, TicTacToeError};
use kibitz::matches::{
    Actor, AiContext, GameKind, HistoryEntry, Match, MatchError, MatchLimits, MoveBudget, NewMatch, Status, Winner,
};
use kibitz::registry::MATCH_GAMES;
use kibitz::solve::solvers::{MemoSizes, Solvers};
use rand::rngs::StdRng;

use crate::game::connect_four::brute as connect_four_brute;
use crate::game::number_square::brute as ns_brute;

use connect_four_brute::{brute_score, Grid};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

fn solvers() -> &'static Solvers {
    static SOLVERS: OnceLock<Solvers> = OnceLock::new();
    SOLVERS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("kibitz-matches-engine-{}", std::process::id()));
        {
            let solvers = Solvers::new(MemoSizes {
                positions: 1 << 16,
                sequence_bytes: SolverConfig::DEFAULT_CACHE_BYTES,
                table_entries: 1 << 16,
                answers: 0,
                search_helpers: 0,
            });
            solvers.provide(Arc::new(PigTables::new(dir, 1 << 28)));
            solvers
        }
    })
}

/// The match game called `id`.
fn kind(id: &str) -> GameKind {
    MATCH_GAMES.find(id).unwrap()
}

/// A budget that ends by node count, with a minute for the clock.
fn nodes(nodes: u64) -> MoveBudget {
    MoveBudget {
        time: Duration::from_secs(60),
        nodes,
    }
}

/// Budgets that end by node count (so that games repeat exactly), small
/// enough for quick tests.
fn ctx() -> AiContext<'static> {
    let s = solvers();
    AiContext {
        solvers: s,
        limits: MatchLimits::default()
            .with_budget(kind("number-square"), nodes(20_000))
            .with_budget(kind("nine-square"), nodes(1_500))
            .with_budget(kind("tictactoe"), nodes(2_000_000))
            .with_budget(kind("connect-four"), nodes(20_000)),
    }
}

fn request(game: &str, options: Value, level: u8, ai_first: bool) -> NewMatch {
    NewMatch {
        game: game.to_string(),
        options: Some(options),
        ai: Some(json!({"strategy": "best", "level": level})),
        ai_first: Some(ai_first),
    }
}

// ---------------------------------------------------------------------------
// A person who plays random legal moves, reading only the match object.

fn random_move(m: &Match, rng: &mut StdRng) -> Value {
    match m.game.as_str() {
        "pig" => {
            let turn_total = m.state["turn_total"].as_u64().unwrap();
            let hold = rng.gen_bool(0.2) || turn_total >= 25;
            json!({"action": if hold { "hold" } else { "roll" }})
        }
        "tictactoe" => {
            let rows = board(&m.state);
            let empties: Vec<(usize, usize)> = cells_of(&rows)
                .filter(|&(_, _, c)| c == '.')
                .map(|(r, c, _)| (r, c))
                .collect();
            let (row, col) = *empties.choose(rng).unwrap();
            json!({"row": row, "col": col})
        }
        "ishitori" => {
            let heaps = heaps(&m.state);
            let take: Vec<u64> = m.options["take"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_u64().unwrap())
                .collect();
            let mut legal = Vec::new();
            for (heap, &size) in heaps.iter().enumerate() {
                for &t in &take {
                    if t <= size {
                        legal.push(json!({"take": t, "heap": heap}));
                    }
                }
            }
            legal.choose(rng).unwrap().clone()
        }
        "nine-square" => {
            let rows = board(&m.state);
            let empties: Vec<Value> = cells_of(&rows)
                .filter(|&(_, _, c)| c == '.')
                .map(|(r, c, _)| json!({"row": r, "col": c}))
                .collect();
            let due = (m.state["dice"].as_u64().unwrap() as usize).min(empties.len());
            let chosen: Vec<Value> = empties.choose_multiple(rng, due).cloned().collect();
            json!({ "placements": chosen })
        }
        "number-square" => {
            let legal = ns_board(&m.state).legal_moves();
            let tile = legal.choose(rng).unwrap();
            json!({"row": tile.row, "col": tile.col})
        }
        "connect-four" => {
            let rows = board(&m.state);
            let open: Vec<usize> = (0..rows[0].len()).filter(|&c| rows[0].as_bytes()[c] == b'.').collect();
            json!({"column": open.choose(rng).unwrap() + 1})
        }
        other => panic!("no random player for {other}"),
    }
}

fn ns_rows(board: &Value) -> Vec<Vec<Option<i64>>> {
    board
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(Value::as_i64).collect())
        .collect()
}

fn ns_board(state: &Value) -> NsBoard {
    NsBoard::from_rows(&ns_rows(&state["board"])).unwrap()
}

fn board(state: &Value) -> Vec<String> {
    state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

fn cells_of(rows: &[String]) -> impl Iterator<Item = (usize, usize, char)> + '_ {
    rows.iter()
        .enumerate()
        .flat_map(|(r, row)| row.chars().enumerate().map(move |(c, ch)| (r, c, ch)))
}

fn heaps(state: &Value) -> Vec<u64> {
    match state.get("remaining") {
        Some(n) => vec![n.as_u64().unwrap()],
        None => state["heaps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .collect(),
    }
}

// ---------------------------------------------------------------------------
// Playing a whole match, checking the invariants on every step.

fn assert_round_trips(m: &Match) {
    let text = serde_json::to_string(&m.to_value()).unwrap();
    let back = Match::from_value(serde_json::from_str(&text).unwrap(), MATCH_GAMES).unwrap();
    assert_eq!(&back, m);
}

fn assert_appends(history: &[HistoryEntry], fresh: &[HistoryEntry], m: &Match) {
    let mut expected = history.last().map_or(1, |e| e.ply + 1);
    for entry in fresh {
        assert_eq!(entry.ply, expected, "plies are consecutive: {fresh:?}");
        expected += 1;
        match entry.actor {
            Actor::Dice => assert!(entry.mv.is_none() && entry.roll.is_some(), "{entry:?}"),
            _ => assert!(entry.mv.is_some() && entry.roll.is_none(), "{entry:?}"),
        }
    }
    assert_eq!(m.ply, expected - 1, "the match's ply is its number of entries");
}

/// `m` as a version before the game's own record stored it.
fn as_stored_before_records(m: &Match) -> Match {
    Match {
        saved: None,
        ..m.clone()
    }
}

/// Checks that `history` replays to `m`'s record, legal moves and result.
fn assert_history_rebuilds(m: &Match, history: &[HistoryEntry], ctx: &AiContext) {
    let mut unrecorded = as_stored_before_records(m);
    assert!(!unrecorded.has_record());
    unrecorded
        .rebuild_record(history, ctx.solvers)
        .unwrap_or_else(|e| panic!("{} at ply {}: {e}", m.game.as_str(), m.ply));
    assert_eq!(&unrecorded, m, "the history replays to the record");
    assert!(unrecorded.has_record());
}

/// Plays `request` to the end with random legal moves; returns the final
/// match and its whole history.
fn play_out(request: &NewMatch, seed: u64) -> (Match, Vec<HistoryEntry>) {
    play_out_with(request, seed, &ctx())
}

fn play_out_with(request: &NewMatch, seed: u64, ctx: &AiContext) -> (Match, Vec<HistoryEntry>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut person = StdRng::seed_from_u64(seed ^ 0xDEAD_BEEF);
    let (mut m, mut history) = Match::create(MATCH_GAMES, request, ctx, &mut rng).unwrap();
    assert_appends(&[], &history, &m);
    assert_history_rebuilds(&m, &history, ctx);
    assert_round_trips(&m);
    for _ in 0..100_000 {
        if m.status == Status::Finished {
            assert_consistent(&m, &history);
            return (m, history);
        }
        assert!(m.result.is_none());
        let mv = random_move(&m, &mut person);
        assert_eq!(
            as_stored_before_records(&m).play(&mv, ctx, &mut rng.clone()),
            Err(MatchError::Unrecorded),
            "a row without its record is not played from its state"
        );
        let fresh = m
            .play(&mv, ctx, &mut rng)
            .unwrap_or_else(|e| panic!("{mv} refused: {e}"));
        assert!(m.has_record(), "a match keeps the game's own record");
        assert_eq!(fresh.first().map(|e| e.actor), Some(Actor::Human));
        assert_eq!(fresh[0].mv.as_ref(), Some(&mv), "the person's move is recorded as sent");
        assert_appends(&history, &fresh, &m);
        history.extend(fresh);
        assert_history_rebuilds(&m, &history, ctx);
        assert_round_trips(&m);
    }
    panic!("the match did not end");
}

fn assert_consistent(m: &Match, history: &[HistoryEntry]) {
    let result = m.result.clone().unwrap();
    match m.game.as_str() {
        "pig" => {
            let goal = m.options["goal"].as_u64().unwrap();
            let human = m.state["scores"]["human"].as_u64().unwrap();
            let ai = m.state["scores"]["ai"].as_u64().unwrap();
            let scores = result.scores.unwrap();
            assert_eq!((scores.human, scores.ai), (human as i64, ai as i64));
            match result.winner {
                Winner::Human => assert!(human >= goal && ai < goal),
                Winner::Ai => assert!(ai >= goal && human < goal),
                Winner::Draw => panic!("Pig has no draws"),
            }
            // Every roll decision is followed by its die.
            for (i, e) in history.iter().enumerate() {
                if e.mv.as_ref().is_some_and(|mv| mv["action"] == "roll") {
                    assert_eq!(history[i + 1].actor, Actor::Dice);
                }
            }
        }
        "tictactoe" => {
            let rows = board(&m.state);
            let k = m.options["k"].as_u64().map(|k| k as usize);
            let human = m.state["human_plays"].as_str().unwrap();
            match Position::parse(&rows, k) {
                Err(TicTacToeError::GameOver { result: over, .. }) => match (over, result.winner) {
                    (GameResult::Draw, Winner::Draw) => {}
                    (GameResult::Won(p), Winner::Human) => assert_eq!(p.to_string(), human),
                    (GameResult::Won(p), Winner::Ai) => assert_ne!(p.to_string(), human),
                    other => panic!("result {other:?} on {rows:?}"),
                },
                other => panic!("a finished match's board is finished: {other:?}"),
            }
            assert!(result.scores.is_none());
        }
        "ishitori" => {
            let smallest = m.options["take"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_u64().unwrap())
                .min()
                .unwrap();
            assert!(heaps(&m.state).iter().all(|&h| h < smallest), "no move is left");
            let last_mover = history.iter().rev().find(|e| e.actor != Actor::Dice).unwrap().actor;
            let misere = m.options["misere"].as_bool().unwrap();
            let last_mover_won = !misere;
            let expected = match (last_mover, last_mover_won) {
                (Actor::Human, true) | (Actor::Ai, false) => Winner::Human,
                _ => Winner::Ai,
            };
            assert_eq!(result.winner, expected);
        }
        "nine-square" => {
            let rows = board(&m.state);
            assert!(cells_of(&rows).all(|(_, _, c)| c != '.'), "the grid is full");
            let human = m.state["human_plays"].as_str().unwrap();
            let ai = if human == "X" { "O" } else { "X" };
            let scores = result.scores.unwrap();
            assert_eq!(scores.human, m.state["score"][human].as_i64().unwrap());
            assert_eq!(scores.ai, m.state["score"][ai].as_i64().unwrap());
            let expected = match scores.human.cmp(&scores.ai) {
                std::cmp::Ordering::Greater => Winner::Human,
                std::cmp::Ordering::Less => Winner::Ai,
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            assert_eq!(result.winner, expected);
            // Every turn starts with its die.
            for (i, e) in history.iter().enumerate() {
                if e.actor != Actor::Dice {
                    assert_eq!(history[i - 1].actor, Actor::Dice, "entry {i}");
                }
            }
        }
        "number-square" => {
            // Replays the history on the starting board: every tile's value
            // goes to whoever took it, and the game ended where it says.
            let scores = result.scores.unwrap();
            assert_eq!(scores.human, m.state["scores"]["human"].as_i64().unwrap());
            assert_eq!(scores.ai, m.state["scores"]["ai"].as_i64().unwrap());
            if let Some(start) = m.options.get("board") {
                let mut board = NsBoard::from_rows(&ns_rows(start)).unwrap();
                let (mut human, mut ai) = (0, 0);
                for e in history {
                    let mv = e.mv.as_ref().unwrap();
                    let tile = Tile::new(
                        mv["row"].as_u64().unwrap() as usize,
                        mv["col"].as_u64().unwrap() as usize,
                    );
                    let played = board.play(tile).unwrap();
                    match e.actor {
                        Actor::Human => human += played.points,
                        _ => ai += played.points,
                    }
                    board = played.board;
                }
                assert!(board.is_over());
                assert_eq!((human, ai), (scores.human, scores.ai));
            }
            let expected = match scores.human.cmp(&scores.ai) {
                std::cmp::Ordering::Greater => Winner::Human,
                std::cmp::Ordering::Less => Winner::Ai,
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            assert_eq!(result.winner, expected);
        }
        "connect-four" => {
            // Replays the history from the empty grid: the same board, and
            // the game ended as the result says.
            let shape: Shape = serde_json::from_value(m.options.clone()).unwrap();
            let mut game = ConnectFourState::new(shape);
            for e in history {
                let column = e.mv.as_ref().unwrap()["column"].as_i64().unwrap();
                let col = game.check_column(column).unwrap();
                game.play(col);
            }
            assert_eq!(game.rows(), board(&m.state));
            let human = usize::from(m.state["human_plays"] == "O");
            let expected = match game.result().expect("the replayed game is over") {
                GameOutcome::Draw => Winner::Draw,
                GameOutcome::Won(seat) if seat == human => Winner::Human,
                GameOutcome::Won(_) => Winner::Ai,
            };
            assert_eq!(result.winner, expected);
            assert!(result.scores.is_none());
        }
        other => panic!("unexpected game {other}"),
    }
}

// ---------------------------------------------------------------------------

#[test]
fn whole_matches_of_every_game_play_to_a_consistent_end() {
    let games = [
        ("pig", json!({"goal": 30})),
        ("pig", json!({"goal": 25, "die_sides": 4, "variant": "progressive"})),
        ("tictactoe", json!({})),
        ("tictactoe", json!({"rows": 4, "cols": 4, "k": 3})),
        ("ishitori", json!({})),
        (
            "ishitori",
            json!({"remaining": "40", "take": [1, 3, 4], "misere": false}),
        ),
        ("ishitori", json!({"heaps": [5, 7, 3], "misere": true})),
        ("ishitori", json!({"heaps": [6, 9], "take": [2, 3], "misere": false})),
        ("nine-square", json!({})),
        ("number-square", json!({"size": 4})),
        ("number-square", json!({"board": [[3, -1, 4], [1, -5, 9], [2, 6, -5]]})),
        ("connect-four", json!({})),
        ("connect-four", json!({"cols": 5, "rows": 4, "k": 3})),
    ];
    for (game, options) in games {
        for (seed, level, ai_first) in [(1, 10, false), (2, 10, true), (3, 1, false), (4, 5, true)] {
            let request = request(game, options.clone(), level, ai_first);
            let (m, history) = play_out(&request, seed);
            assert_eq!(m.ai.level, level);
            assert!(m.ai_first == ai_first);
            // A match stored before records and end reasons were kept gets
            // both back from its history.
            let result = m.result.clone().expect("finished");
            assert!(result.reason.is_some(), "{m:?}");
            let mut legacy = as_stored_before_records(&m);
            if let Some(r) = &mut legacy.result {
                r.reason = None;
            }
            legacy.rebuild_record(&history, solvers()).unwrap();
            assert_eq!(legacy.result, Some(result), "{game} {options}");
        }
    }
}

#[test]
fn defaults_are_filled_in() {
    let mut rng = StdRng::seed_from_u64(1);
    let bare = |game: &str| NewMatch {
        game: game.to_string(),
        ..NewMatch::default()
    };
    let (m, history) = Match::create(MATCH_GAMES, &bare("pig"), &ctx(), &mut rng).unwrap();
    assert_eq!(m.options, json!({"goal": 100, "die_sides": 6, "variant": "standard"}));
    assert_eq!((m.ai.strategy.as_str(), m.ai.level, m.ai_first), ("best", 10, false));
    assert_eq!(
        m.state,
        json!({"scores": {"human": 0, "ai": 0}, "turn_total": 0, "last_roll": null})
    );
    assert!(history.is_empty() && m.ply == 0);
    let value = m.to_value();
    assert_eq!(value["status"], "in_progress");
    assert_eq!(value["result"], Value::Null);

    let (m, _) = Match::create(MATCH_GAMES, &bare("tictactoe"), &ctx(), &mut rng).unwrap();
    assert_eq!(m.options, json!({"rows": 3, "cols": 3, "k": 3}));
    assert_eq!(m.state, json!({"board": ["...", "...", "..."], "human_plays": "X"}));

    let (m, _) = Match::create(MATCH_GAMES, &bare("ishitori"), &ctx(), &mut rng).unwrap();
    assert_eq!(m.options, json!({"remaining": 21, "take": [1, 2, 3], "misere": true}));
    assert_eq!(m.state, json!({"remaining": 21}));

    let (m, _) = Match::create(MATCH_GAMES, &bare("connect-four"), &ctx(), &mut rng).unwrap();
    assert_eq!(m.options, json!({"cols": 7, "rows": 6, "k": 4}));
    assert_eq!(
        m.state,
        json!({"board": [".......", ".......", ".......", ".......", ".......", "......."], "human_plays": "X"})
    );

    // Number Square: the board the server dealt is kept in the options (the
    // state shows taken tiles as null), so the history can be replayed.
    let (m, _) = Match::create(MATCH_GAMES, &bare("number-square"), &ctx(), &mut rng).unwrap();
    assert_eq!(m.options["size"], 8);
    assert_eq!(m.state["board"], m.options["board"]);
    let mut dealt: Vec<i64> = m.options["board"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()))
        .collect();
    dealt.sort_unstable();
    assert_eq!(dealt, (1..=64).collect::<Vec<_>>());
    // Two matches, two deals.
    let (other, _) = Match::create(MATCH_GAMES, &bare("number-square"), &ctx(), &mut rng).unwrap();
    assert_ne!(other.options["board"], m.options["board"]);

    let (m, history) = Match::create(MATCH_GAMES, &bare("nine-square"), &ctx(), &mut rng).unwrap();
    assert_eq!(m.options, json!({}));
    let dice = m.state["dice"].as_u64().unwrap();
    assert!((1..=6).contains(&dice));
    assert_eq!(m.state["human_plays"], "X");
    assert_eq!(m.state["score"], json!({"X": 0, "O": 0}));
    // The person's die is already rolled, and recorded.
    assert_eq!(history.len(), 1);
    assert_eq!((history[0].actor, history[0].roll), (Actor::Dice, Some(dice as u32)));
    assert_eq!(m.ply, 1);
}

#[test]
fn a_default_pig_match_against_the_best_ai_plays_to_the_end() {
    let (m, history) = play_out(&request("pig", json!({}), 10, false), 99);
    assert!(history.len() > 10);
    assert!(m.result.unwrap().scores.is_some());
}

#[test]
fn the_ai_can_go_first() {
    let mut rng = StdRng::seed_from_u64(5);
    let (m, history) = Match::create(
        MATCH_GAMES,
        &request("tictactoe", json!({}), 10, true),
        &ctx(),
        &mut rng,
    )
    .unwrap();
    assert_eq!(m.state["human_plays"], "O");
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].actor, Actor::Ai);
    let placed = board(&m.state).concat();
    assert_eq!(placed.matches('X').count(), 1);

    let (m, history) = Match::create(
        MATCH_GAMES,
        &request("pig", json!({"goal": 30}), 10, true),
        &ctx(),
        &mut rng,
    )
    .unwrap();
    assert_eq!(history[0].actor, Actor::Ai);
    assert_eq!(history[0].mv, Some(json!({"action": "roll"})));
    assert_eq!(history[1].actor, Actor::Dice);
    assert_eq!(m.state["turn_total"], 0);
    let last = history.iter().rev().find(|e| e.actor == Actor::Dice).unwrap();
    assert_eq!(m.state["last_roll"], json!(last.roll));

    let (m, history) = Match::create(MATCH_GAMES, &request("ishitori", json!({}), 10, true), &ctx(), &mut rng).unwrap();
    // 21 stones, take 1-3, last stone loses: 21 = 1 mod 4 loses for the
    // player to move, who then takes the smallest amount.
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].mv, Some(json!({"take": 1, "heap": 0})));
    assert_eq!(m.state, json!({"remaining": 20}));

    let (m, history) = Match::create(
        MATCH_GAMES,
        &request("nine-square", json!({}), 10, true),
        &ctx(),
        &mut rng,
    )
    .unwrap();
    assert_eq!(m.state["human_plays"], "O");
    let actors: Vec<Actor> = history.iter().map(|e| e.actor).collect();
    assert_eq!(actors, [Actor::Dice, Actor::Ai, Actor::Dice]);
    let ai_marks = history[1].mv.as_ref().unwrap()["placements"].as_array().unwrap().len();
    assert_eq!(ai_marks as u32, history[0].roll.unwrap());
}

#[test]
fn matches_are_repeatable_with_a_seeded_rng() {
    for (game, options) in [
        ("pig", json!({"goal": 30})),
        ("nine-square", json!({})),
        ("tictactoe", json!({})),
        ("connect-four", json!({"cols": 5, "rows": 4})),
    ] {
        let request = request(game, options, 4, false);
        assert_eq!(play_out(&request, 17), play_out(&request, 17), "{game}");
    }
}

fn created(game: &str, options: Value, seed: u64) -> Match {
    let mut rng = StdRng::seed_from_u64(seed);
    Match::create(MATCH_GAMES, &request(game, options, 10, false), &ctx(), &mut rng)
        .unwrap()
        .0
}

fn assert_refused(m: &Match, mv: Value, needle: &str) {
    let mut copy = m.clone();
    let mut rng = StdRng::seed_from_u64(0);
    let err = copy
        .play(&mv, &ctx(), &mut rng)
        .expect_err(&format!("{mv} should be refused"));
    assert!(err.is_client_error(), "{err}");
    assert!(
        err.to_string().contains(needle),
        "{mv}: {err} should mention {needle:?}"
    );
    assert_eq!(&copy, m, "a refused move changes nothing");
}

#[test]
fn illegal_and_malformed_moves_are_refused_and_change_nothing() {
    let pig = created("pig", json!({"goal": 30}), 1);
    assert_refused(&pig, json!({"action": "pass"}), "move.action");
    assert_refused(&pig, json!({}), "move.action");
    assert_refused(&pig, json!({"action": "roll", "extra": 1}), "move.extra");
    assert_refused(&pig, json!("roll"), "move");
    assert_refused(&pig, Value::Null, "move");

    let mut ttt = created("tictactoe", json!({}), 1);
    assert_refused(&ttt, json!({"row": 3, "col": 0}), "off the board");
    assert_refused(&ttt, json!({"row": -1, "col": 0}), "row -1, column 0 is off the board");
    assert_refused(&ttt, json!({"row": 0.5, "col": 0}), "move.row");
    assert_refused(&ttt, json!({"row": 0}), "move.col");
    let mut rng = StdRng::seed_from_u64(2);
    ttt.play(&json!({"row": 1, "col": 1}), &ctx(), &mut rng).unwrap();
    assert_refused(&ttt, json!({"row": 1, "col": 1}), "already taken");

    let ish = created("ishitori", json!({"heaps": [2, 5]}), 1);
    assert_refused(&ish, json!({"take": 4}), "not allowed");
    assert_refused(&ish, json!({"take": 3, "heap": 0}), "holds only 2");
    assert_refused(&ish, json!({"take": 1, "heap": 2}), "no heap 2");
    assert_refused(&ish, json!({"take": -1}), "move.take");
    assert_refused(&ish, json!({"heap": 1}), "move.take");

    let nine = created("nine-square", json!({}), 1);
    let due = nine.state["dice"].as_u64().unwrap() as usize;
    let cells = |n: usize| -> Vec<Value> { (0..n).map(|i| json!({"row": i / 9, "col": i % 9})).collect() };
    assert_refused(&nine, json!({"placements": cells(due + 1)}), "exactly");
    if due > 1 {
        assert_refused(&nine, json!({"placements": cells(due - 1)}), "exactly");
        let mut twice = cells(due);
        twice[1] = twice[0].clone();
        assert_refused(&nine, json!({ "placements": twice }), "given twice");
    }
    let mut off = cells(due);
    off[0] = json!({"row": 9, "col": 0});
    assert_refused(&nine, json!({ "placements": off }), "off the 9 x 9 grid");
    assert_refused(
        &nine,
        json!({"placements": [{"row": "a", "col": 0}]}),
        "move.placements[0].row",
    );
    assert_refused(&nine, json!({"placements": 3}), "move.placements");

    let mut c4 = created("connect-four", json!({"cols": 4, "rows": 4}), 1);
    assert_refused(&c4, json!({"column": 0}), "move.column");
    assert_refused(&c4, json!({"column": 5}), "from 1 to 4");
    assert_refused(&c4, json!({"column": "2"}), "move.column");
    assert_refused(&c4, json!({"col": 2}), "move.col");
    assert_refused(&c4, json!({}), "move.column");
    let mut rng = StdRng::seed_from_u64(2);
    // Fill column 1 (the AI answers elsewhere or there), then refuse it.
    while board(&c4.state)[0].as_bytes()[0] == b'.' && c4.status == Status::InProgress {
        c4.play(&json!({"column": 1}), &ctx(), &mut rng).unwrap();
    }
    if c4.status == Status::InProgress {
        assert_refused(&c4, json!({"column": 1}), "full");
    }
}

#[test]
fn a_finished_match_takes_no_more_moves() {
    let (mut m, _) = play_out(&request("ishitori", json!({"remaining": 9}), 10, false), 3);
    let before = m.clone();
    let mut rng = StdRng::seed_from_u64(0);
    assert_eq!(m.play(&json!({"take": 1}), &ctx(), &mut rng), Err(MatchError::Finished));
    assert_eq!(m, before);
}

#[test]
fn bad_requests_name_the_field() {
    let mut rng = StdRng::seed_from_u64(1);
    let cases = [
        (request("go", json!({}), 10, false), "game"),
        (request("number-square", json!({"size": 1}), 10, false), "options: size"),
        (
            request("number-square", json!({"size": 13}), 10, false),
            "options: size",
        ),
        (request("number-square", json!({"board": [[1, 2]]}), 10, false), "board"),
        (
            request(
                "number-square",
                json!({"size": 3, "board": [[1, 2], [3, 4]]}),
                10,
                false,
            ),
            "size",
        ),
        (request("pig", json!({"goal": 0}), 10, false), "goal"),
        (request("pig", json!({"goal": 100000}), 10, false), "goal"),
        (request("pig", json!({"die_sides": 1}), 10, false), "die_sides"),
        (request("pig", json!({"variant": "fast"}), 10, false), "variant"),
        (request("pig", json!({"goal": "ten"}), 10, false), "options.goal"),
        (request("pig", json!({"gaol": 10}), 10, false), "options.gaol"),
        (request("pig", json!([1]), 10, false), "options"),
        (request("tictactoe", json!({"rows": 0}), 10, false), "rows"),
        (
            request("tictactoe", json!({"rows": 3, "cols": 3, "k": 4}), 10, false),
            "k",
        ),
        (
            request("tictactoe", json!({"rows": -3}), 10, false),
            "options: rows must be an integer from 1 to 19",
        ),
        (
            request("ishitori", json!({"remaining": 5, "heaps": [1]}), 10, false),
            "remaining",
        ),
        (request("ishitori", json!({"remaining": 0}), 10, false), "game is over"),
        (request("ishitori", json!({"take": []}), 10, false), "take"),
        (request("ishitori", json!({"take": [2, 2]}), 10, false), "take"),
        (
            request("ishitori", json!({"remaining": "12x"}), 10, false),
            "options: remaining",
        ),
        (request("nine-square", json!({"size": 9}), 10, false), "options.size"),
        (request("connect-four", json!({"cols": 10}), 10, false), "cols"),
        (request("connect-four", json!({"rows": 3}), 10, false), "rows"),
        (request("connect-four", json!({"k": 2}), 10, false), "k"),
        (request("connect-four", json!({"k": "4"}), 10, false), "options.k"),
        (request("connect-four", json!({"size": 7}), 10, false), "options.size"),
        (request("pig", json!({}), 0, false), "ai.level"),
        (request("pig", json!({}), 11, false), "ai.level"),
    ];
    for (req, needle) in cases {
        let err = Match::create(MATCH_GAMES, &req, &ctx(), &mut rng).unwrap_err();
        assert!(err.is_client_error());
        assert!(
            err.to_string().contains(needle),
            "{req:?}: {err} should mention {needle:?}"
        );
    }
    let odd_ai = NewMatch {
        game: "pig".to_string(),
        ai: Some(json!({"strategy": "telepathy"})),
        ..NewMatch::default()
    };
    assert!(Match::create(MATCH_GAMES, &odd_ai, &ctx(), &mut rng)
        .unwrap_err()
        .to_string()
        .contains("ai.strategy"));
}

#[test]
fn stored_garbage_is_refused_without_panicking() {
    // The person (X) has played the centre; the AI has answered.
    let mut rng = StdRng::seed_from_u64(0);
    let (mut good, _) = Match::create(
        MATCH_GAMES,
        &request("tictactoe", json!({}), 10, false),
        &ctx(),
        &mut rng,
    )
    .unwrap();
    good.play(&json!({"row": 1, "col": 1}), &ctx(), &mut rng).unwrap();
    let record: Value = serde_json::from_str(good.saved.as_deref().unwrap()).unwrap();
    assert_eq!(record["moves"].as_array().unwrap().len(), 2, "{record}");
    let good = good.to_value();
    let mut legacy = good.clone();
    legacy.as_object_mut().unwrap().remove("saved");

    let mut variants = vec![json!(null), json!({}), json!([1, 2])];
    let mut with = |base: &Value, key: &str, bad: Value| {
        let mut v = base.clone();
        v[key] = bad;
        variants.push(v);
    };
    with(
        &legacy,
        "state",
        json!({"board": ["XXX", "...", "..."], "human_plays": "O"}),
    );
    with(&legacy, "state", json!({"board": 5}));
    with(&legacy, "options", json!({"rows": 99}));
    with(&good, "game", json!("checkers"));
    with(&good, "ply", json!(-1));
    with(&good, "saved", json!("not json"));
    let mut record_with = |key: &str, bad: Value| {
        let mut r = record.clone();
        r[key] = bad;
        with(&good, "saved", json!(r.to_string()));
    };
    record_with("moves", json!([4, 4]));
    record_with("moves", json!([4, 99]));
    record_with("moves", json!([0, 3, 1, 4, 2]));
    record_with("moves", json!("4"));
    record_with("options", json!({"rows": 99, "cols": 3, "k": 3}));
    record_with("options", json!({"rows": 3}));
    record_with("human", json!(7));
    let mut played = 0;
    for v in &variants {
        if let Ok(mut m) = Match::from_value(v.clone(), MATCH_GAMES) {
            let err = m.play(&json!({"row": 0, "col": 0}), &ctx(), &mut rng).unwrap_err();
            assert!(!err.is_client_error(), "{v}: {err}");
            played += 1;
        }
    }
    // Five variants do not even load (null, {}, an array, an unknown game,
    // a negative ply); every other one loads and is refused when played.
    assert_eq!(played, variants.len() - 5, "a corrupt variant was not played");
}

#[test]
fn matches_without_a_bound_on_their_length_keep_their_position_not_their_moves() {
    let long_games = [
        (
            "ishitori",
            json!({"remaining": 1_000_000, "take": [1, 2, 3]}),
            json!({"take": 1}),
        ),
        ("pig", json!({"goal": 100}), json!({"action": "hold"})),
    ];
    let mut corrupted = 0;
    for (game, options, mv) in long_games {
        let mut rng = StdRng::seed_from_u64(5);
        let (mut m, mut history) =
            Match::create(MATCH_GAMES, &request(game, options, 10, false), &ctx(), &mut rng).unwrap();
        let first = m.saved.clone().unwrap();
        let mut plies = 0;
        while plies < 60 && m.status == Status::InProgress {
            if plies == 5 {
                // A kept position that breaks the rules is the store's
                // fault (checked while the game is surely still on).
                let record: Value = serde_json::from_str(m.saved.as_deref().unwrap()).unwrap();
                let mut broken = record.clone();
                let seat = if game == "pig" { "to_move" } else { "mover" };
                broken["position"][seat] = json!(7);
                let mut corrupt = Match {
                    saved: Some(broken.to_string()),
                    ..m.clone()
                };
                let err = corrupt.play(&mv, &ctx(), &mut rng.clone()).unwrap_err();
                assert!(!err.is_client_error(), "{game}: {err}");
                corrupted += 1;
            }
            history.extend(m.play(&mv, &ctx(), &mut rng).unwrap());
            plies += 1;
        }
        assert!(plies >= 10, "{game}: only {plies} moves");
        let last = m.saved.clone().unwrap();
        let record: Value = serde_json::from_str(&last).unwrap();
        assert_eq!(record["moves"], json!([]), "{game}: {record}");
        assert!(last.len() <= first.len() + 16, "{game}: {first} became {last}");
        // Its history replays to the same kept position.
        assert_history_rebuilds(&m, &history, &ctx());
    }
    assert_eq!(
        corrupted, 2,
        "a long game ended before its kept position could be broken"
    );
}

#[test]
fn a_row_without_its_record_is_given_one_from_its_history() {
    // A replica of an earlier version moves without writing the record: the
    // row's ply runs ahead of its record's. Its history rebuilds it.
    let mut rng = StdRng::seed_from_u64(8);
    let (mut m, mut history) = Match::create(
        MATCH_GAMES,
        &request("tictactoe", json!({}), 10, false),
        &ctx(),
        &mut rng,
    )
    .unwrap();
    history.extend(m.play(&json!({"row": 1, "col": 1}), &ctx(), &mut rng).unwrap());
    let behind = m.saved.clone();
    let mv = m.legal_moves.as_ref().unwrap()[0].clone();
    history.extend(m.play(&mv, &ctx(), &mut rng).unwrap());
    let mut stale = Match {
        saved: behind,
        ..m.clone()
    };
    assert!(!stale.has_record());
    let mv = m.legal_moves.as_ref().unwrap()[0].clone();
    assert_eq!(stale.play(&mv, &ctx(), &mut rng.clone()), Err(MatchError::Unrecorded));
    stale.rebuild_record(&history, solvers()).unwrap();
    assert_eq!(stale, m);

    // A history that does not replay to the row is the store's fault.
    let unrecorded = as_stored_before_records(&m);
    let mut broken_histories = Vec::new();
    let mut with = |index: usize, entry: HistoryEntry| {
        let mut h = history.clone();
        h[index] = entry;
        broken_histories.push(h);
    };
    with(
        1,
        HistoryEntry {
            mv: Some(json!({"row": 1, "col": 1})),
            ..history[1].clone()
        },
    );
    with(
        1,
        HistoryEntry {
            mv: Some(json!({"row": 9, "col": 9})),
            ..history[1].clone()
        },
    );
    with(
        1,
        HistoryEntry {
            mv: Some(json!({"cell": 4})),
            ..history[1].clone()
        },
    );
    with(
        1,
        HistoryEntry {
            actor: Actor::Human,
            ..history[1].clone()
        },
    );
    with(
        1,
        HistoryEntry {
            actor: Actor::Dice,
            mv: None,
            roll: Some(3),
            ..history[1].clone()
        },
    );
    with(
        1,
        HistoryEntry {
            ply: 7,
            ..history[1].clone()
        },
    );
    with(2, history[3].clone());
    broken_histories.push(history[..3].to_vec());
    let mut other_state = unrecorded.clone();
    other_state.state = json!({"board": ["X..", ".O.", "..."], "human_plays": "X"});
    let mut refused = 0;
    for h in &broken_histories {
        let err = unrecorded.clone().rebuild_record(h, solvers()).unwrap_err();
        assert!(matches!(err, MatchError::Corrupt(_)), "{h:?}: {err}");
        refused += 1;
    }
    let err = other_state.rebuild_record(&history, solvers()).unwrap_err();
    assert!(matches!(err, MatchError::Corrupt(_)), "{err}");
    assert_eq!(refused, 8);
}

#[test]
fn a_number_square_match_dealt_before_its_deal_was_kept_goes_on_from_its_state() {
    // Such a row's options say only the size, and its state shows taken
    // tiles as null: its record starts from that state.
    let mut rng = StdRng::seed_from_u64(4);
    let (mut m, mut history) = Match::create(
        MATCH_GAMES,
        &request("number-square", json!({"size": 4}), 10, false),
        &ctx(),
        &mut rng,
    )
    .unwrap();
    let mv = m.legal_moves.as_ref().unwrap()[0].clone();
    history.extend(m.play(&mv, &ctx(), &mut rng).unwrap());
    let mut old = Match {
        options: json!({"size": 4}),
        saved: None,
        legal_moves: None,
        ..m.clone()
    };
    old.rebuild_record(&history, solvers()).unwrap();
    assert_eq!(old.legal_moves, m.legal_moves);
    let record: Value = serde_json::from_str(old.saved.as_deref().unwrap()).unwrap();
    assert_eq!(record["moves"], json!([]), "{record}");
    assert_eq!(record["position"]["board"], m.state["board"], "{record}");
    // Move after move, it plays as the match it was.
    while m.status == Status::InProgress {
        let mv = m.legal_moves.as_ref().unwrap()[0].clone();
        let mut same = rng.clone();
        assert_eq!(
            old.play(&mv, &ctx(), &mut rng).unwrap(),
            m.play(&mv, &ctx(), &mut same).unwrap()
        );
        assert_eq!(old.state, m.state);
        assert_eq!(old.result, m.result);
    }
}

#[test]
fn the_next_move_reads_the_record_not_the_state_the_api_shows() {
    let mut rng = StdRng::seed_from_u64(3);
    let (mut m, _) = Match::create(
        MATCH_GAMES,
        &request("tictactoe", json!({}), 10, false),
        &ctx(),
        &mut rng,
    )
    .unwrap();
    // A state the rules could never reach, which the record contradicts.
    m.state = json!({"board": ["OOO", "OOO", "OOO"], "human_plays": "X"});
    let fresh = m.play(&json!({"row": 1, "col": 1}), &ctx(), &mut rng).unwrap();
    assert_eq!(fresh.len(), 2, "the person's move and the AI's answer");
    let rows = board(&m.state);
    assert_eq!(rows.concat().matches('X').count(), 1, "{rows:?}");
    assert_eq!(rows.concat().matches('O').count(), 1, "{rows:?}");
    assert_eq!(&rows[1][1..2], "X");
}

// ---------------------------------------------------------------------------
// Levels.

#[test]
fn tictactoe_at_level_ten_never_loses() {
    for seed in 0..150u64 {
        let (m, _) = play_out(&request("tictactoe", json!({}), 10, seed % 2 == 0), 1000 + seed);
        assert_ne!(m.result.unwrap().winner, Winner::Human, "seed {seed}: {:?}", m.state);
    }
}

/// The person (O) plays (2,2); the AI (X) can then win at once at (0,2),
/// and only there: its other two moves draw or lose.
const WIN_IN_ONE: [&str; 3] = ["XX.", "OOX", "..."];

fn a_win_in_one(level: u8, seed: u64) -> bool {
    let stored = json!({
        "game": "tictactoe",
        "options": {"rows": 3, "cols": 3, "k": 3},
        "ai": {"strategy": "best", "level": level},
        "ai_first": true,
        "status": "in_progress",
        "ply": 5,
        "state": {"board": WIN_IN_ONE, "human_plays": "O"},
        // X (the AI) at 0, 1 and 5, O at 3 and 4: cells numbered row by row.
        "saved": json!({"options": {"rows": 3, "cols": 3, "k": 3}, "human": 1, "ply": 5, "moves": [0, 3, 1, 4, 5]}).to_string(),
        "result": null
    });
    let mut m = Match::from_value(stored, MATCH_GAMES).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let fresh = m.play(&json!({"row": 2, "col": 2}), &ctx(), &mut rng).unwrap();
    assert_eq!(fresh[0].ply, 6);
    fresh[1].mv == Some(json!({"row": 0, "col": 2}))
}

#[test]
fn the_win_in_one_position_has_one_winning_move() {
    let position = Position::parse(&["XX.", "OOX", "..O"], None).unwrap();
    let limits = kibitz::solve::limits::SearchLimits::within(Duration::from_secs(10));
    let analysis = solvers()
        .of::<kibitz::games::tictactoe::solve::TicTacToeSolver>()
        .analyze(&position, &limits);
    let wins: Vec<usize> = analysis
        .moves
        .iter()
        .filter(|m| m.outcome == Some(kibitz::core::outcome::Outcome::Win))
        .map(|m| m.index)
        .collect();
    assert_eq!(wins, [2]);
    assert_eq!(analysis.moves.len(), 3);
}

#[test]
fn level_one_is_weaker_than_level_ten_but_not_random() {
    let trials = 300usize;
    let taken = |level: u8| (0..trials as u64).filter(|&s| a_win_in_one(level, s)).count();
    assert_eq!(taken(10), trials, "level 10 always wins at once");
    let weak = taken(1);
    // Three empty cells: a random player would take the win a third of the time.
    assert!(weak > trials / 2, "level 1 usually sees a win in one: {weak}/{trials}");
    assert!(weak < trials, "level 1 sometimes misses it: {weak}/{trials}");

    // Against the same random person, level 1 wins fewer tic-tac-toe games.
    let ai_wins = |level: u8| {
        (0..200u64)
            .filter(|&seed| {
                let (m, _) = play_out(&request("tictactoe", json!({}), level, true), 5000 + seed);
                m.result.unwrap().winner == Winner::Ai
            })
            .count()
    };
    let (strong, weak) = (ai_wins(10), ai_wins(1));
    assert!(weak < strong, "level 1 won {weak}, level 10 {strong}");
    assert!(
        weak > 100,
        "level 1 still wins most games against random play: {weak}/200"
    );
}

#[test]
fn pig_level_one_usually_holds_when_holding_wins() {
    // Scores 26 to 0 in a game to 30: once the AI's turn total reaches 4,
    // holding wins. Count how often it holds at its first such chance.
    let holds = |level: u8| {
        let mut held = 0;
        let mut chances = 0;
        for seed in 0..200u64 {
            let stored = json!({
                "game": "pig",
                "options": {"goal": 30, "die_sides": 6, "variant": "standard"},
                "ai": {"strategy": "best", "level": level},
                "ai_first": false,
                "status": "in_progress",
                "ply": 12,
                "state": {"scores": {"human": 0, "ai": 26}, "turn_total": 0, "last_roll": null},
                // The person held at 0; the AI rolled 6, 6, 6, 6, 2 and held.
                "saved": json!({
                    "options": {"goal": 30, "die_sides": 6, "variant": "standard"},
                    "human": 0,
                    "ply": 12,
                    "moves": ["Hold", "Roll", {"Face": 6}, "Roll", {"Face": 6}, "Roll", {"Face": 6},
                              "Roll", {"Face": 6}, "Roll", {"Face": 2}, "Hold"]
                }).to_string(),
                "result": null
            });
            let mut m = Match::from_value(stored, MATCH_GAMES).unwrap();
            let mut rng = StdRng::seed_from_u64(seed);
            let fresh = m.play(&json!({"action": "hold"}), &ctx(), &mut rng).unwrap();
            let mut turn_total = 0;
            for e in &fresh[1..] {
                match (e.actor, e.roll) {
                    (Actor::Dice, Some(1)) => break,
                    (Actor::Dice, Some(face)) => turn_total += face,
                    (Actor::Ai, _) if turn_total >= 4 => {
                        chances += 1;
                        if e.mv == Some(json!({"action": "hold"})) {
                            held += 1;
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
        (held, chances)
    };
    let (held, chances) = holds(10);
    assert!(chances > 100);
    assert_eq!(held, chances);
    let (held, chances) = holds(1);
    assert!(held * 2 > chances, "level 1 held {held} of {chances}");
}

// ---------------------------------------------------------------------------
// Number Square against the tests' brute force (support/number_square_brute.rs):
// the first player's best final margin (its points minus the other's) from a
// board, by trying every legal tile to the end of the game.

fn brute_force_margin(board: &NsBoard) -> i64 {
    ns_brute::brute_margin(&board.rows())
}

fn small_board(rng: &mut StdRng, n: usize) -> Value {
    let rows: Vec<Vec<i64>> = (0..n)
        .map(|_| (0..n).map(|_| rng.gen_range(-9..=9)).collect())
        .collect();
    json!(rows)
}

#[test]
fn number_square_at_level_10_gets_the_exact_value_against_perfect_play_and_no_less_against_any() {
    let mut boards = StdRng::seed_from_u64(77);
    // 3x3: the brute force visits at most 9! lines, without a memo.
    for case in 0..10u64 {
        let start = small_board(&mut boards, 3);
        let exact = brute_force_margin(&NsBoard::from_rows(&ns_rows(&start)).unwrap());
        for perfect_person in [true, false] {
            let mut rng = StdRng::seed_from_u64(case);
            let mut person = StdRng::seed_from_u64(case + 1000);
            let request = request("number-square", json!({"board": start}), 10, true);
            let (mut m, _) = Match::create(MATCH_GAMES, &request, &ctx(), &mut rng).unwrap();
            while m.status != Status::Finished {
                let board = ns_board(&m.state);
                let tile = if perfect_person {
                    // The reply that is best for the person by brute force.
                    *board
                        .legal_moves()
                        .iter()
                        .max_by_key(|&&t| {
                            let played = board.play(t).unwrap();
                            played.points - brute_force_margin(&played.board)
                        })
                        .unwrap()
                } else {
                    *board.legal_moves().choose(&mut person).unwrap()
                };
                m.play(&json!({"row": tile.row, "col": tile.col}), &ctx(), &mut rng)
                    .unwrap();
            }
            let scores = m.result.unwrap().scores.unwrap();
            let ai_margin = scores.ai - scores.human;
            if perfect_person {
                assert_eq!(ai_margin, exact, "board {start}: both perfect");
            } else {
                assert!(
                    ai_margin >= exact,
                    "board {start}: AI margin {ai_margin} < exact {exact}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Connect Four: the AI at level 10 against an independent brute force.

#[test]
fn connect_four_at_level_ten_plays_only_moves_that_keep_the_brute_force_value() {
    let (cols, rows, k) = (5usize, 4usize, 4usize);
    // Budget enough to solve every position of this grid, so the best move
    // is the exact one.
    let solving = AiContext {
        limits: ctx().limits.with_budget(kind("connect-four"), nodes(50_000_000)),
        ..ctx()
    };
    let mut memo = HashMap::new();
    for seed in 0..16u64 {
        let ai_first = seed % 2 == 0;
        let (_, history) = play_out_with(
            &request(
                "connect-four",
                json!({"cols": cols, "rows": rows, "k": k}),
                10,
                ai_first,
            ),
            500 + seed,
            &solving,
        );
        // Replay on the reference grid: each AI move's score must be the best.
        let mut grid = Grid::new(cols, rows, k);
        for e in &history {
            let column = e.mv.as_ref().unwrap()["column"].as_u64().unwrap() as usize - 1;
            if e.actor == Actor::Ai {
                let score_of = |col: usize, memo: &mut HashMap<Grid, i32>| {
                    let mut child = grid.clone();
                    if child.drop(col) {
                        ((cols * rows) as i32 + 1 - grid.stones as i32) / 2
                    } else if child.full() {
                        0
                    } else {
                        -brute_score(&child, memo)
                    }
                };
                let best = brute_score(&grid, &mut memo);
                assert_eq!(
                    score_of(column, &mut memo),
                    best,
                    "seed {seed}: column {} after {} stones",
                    column + 1,
                    grid.stones
                );
            }
            grid.drop(column);
        }
    }
}
