//! FFO endgame test suite #40-#49: kibitz's exact score and best move
//! against the published ones (tests/data/othello_ffo_40_49.txt, which
//! says where they come from). One test per position, so the harness
//! solves them in parallel.

use std::time::{Duration, Instant};

use kibitz::games::othello::{parse_position, OthelloEngine, OthelloMove};
use kibitz::solve::limits::SearchLimits;

const DATA: &str = include_str!("data/othello_ffo_40_49.txt");

fn check(number: u32) {
    let line = DATA
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&number.to_string()))
        .unwrap_or_else(|| panic!("#{number} is not in the data file"));
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [_, board, side, score, best] = fields[..] else {
        panic!("bad data line: {line}");
    };
    let rows: Vec<String> = board
        .replace('-', ".")
        .as_bytes()
        .chunks(8)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    let game = parse_position(Some(8), &rows, Some(side)).unwrap();
    let engine = OthelloEngine::new(1 << 21);
    let start = Instant::now();
    let solution = engine
        .solve(&game, &SearchLimits::within(Duration::from_secs(600)))
        .expect("solved within 600 s");
    let OthelloMove::Play(square) = solution.best else {
        panic!("#{number}: a pass");
    };
    println!(
        "#{number}: {:+} {square} in {:.1?} ({} nodes)",
        solution.score,
        start.elapsed(),
        solution.nodes
    );
    assert_eq!(solution.score.to_string(), score, "#{number}");
    assert!(
        best.split(',').any(|b| b == square.to_string()),
        "#{number}: {square} is not among {best}"
    );
}

#[test]
fn ffo_40() {
    check(40);
}

#[test]
fn ffo_41() {
    check(41);
}

#[test]
fn ffo_42() {
    check(42);
}

#[test]
fn ffo_43() {
    check(43);
}

#[test]
fn ffo_44() {
    check(44);
}

#[test]
fn ffo_45() {
    check(45);
}

#[test]
fn ffo_46() {
    check(46);
}

#[test]
fn ffo_47() {
    check(47);
}

#[test]
fn ffo_48() {
    check(48);
}

#[test]
fn ffo_49() {
    check(49);
}
