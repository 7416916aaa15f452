//! Kalah's opening book: positions of a board solved ahead by `kibitz
//! kalah-book build` and compiled in, so that the first moves of the
//! boards that take minutes to solve (Kalah(6,4)) answer exactly at once.
//!
//! A book is a text file per board and capture rule
//! (`book/kalah-{m}-{n}-{capture}.txt`), one line a position:
//! `south/north mover values line`, the houses as comma-separated counts in
//! each side's sowing order, the mover `s` or `n`, each legal house's
//! value as `house:margin` (the final margin the house leads to, less the
//! stores' margin at the position: what the rest of the game adds, which
//! the houses alone decide), and the principal variation as house digits.
//! The builder appends a line as soon as a position is solved, so a build
//! stopped anywhere goes on from there.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::endgame;
use super::rules::{Capture, KalahState, Played, Player, Rules};
use super::solve::{analyze, Analysis, HouseValue, Step};
use crate::solve::limits::SearchLimits;
use crate::solve::table::SharedTable;

/// The books compiled in: (houses, seeds, capture, text).
const BOOKS: [(usize, u32, Capture, &str); 2] = [
    (6, 4, Capture::Standard, include_str!("book/kalah-6-4-standard.txt")),
    (6, 4, Capture::Empty, include_str!("book/kalah-6-4-empty.txt")),
];

/// One solved position: each legal house's future margin, and the line.
#[derive(Clone, Debug)]
struct Entry {
    values: Vec<(u8, i32)>,
    line: Vec<u8>,
}

/// A position's key in a book: its houses and its mover.
fn key(position: &KalahState) -> String {
    let board = position.to_board();
    let row = |houses: &[u32]| houses.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mover = match board.to_move {
        Player::South => 's',
        Player::North => 'n',
    };
    format!("{}/{} {mover}", row(&board.south), row(&board.north))
}

/// A book's lines read into entries; a line that does not read is
/// skipped (the builder writes only whole lines, and a test reads every
/// line of the compiled books).
fn read(text: &str) -> HashMap<String, Entry> {
    text.lines().filter_map(parse_line).collect()
}

fn parse_line(line: &str) -> Option<(String, Entry)> {
    let mut fields = line.split_whitespace();
    let (houses, mover, values) = (fields.next()?, fields.next()?, fields.next()?);
    let line_of_play = fields.next().unwrap_or("");
    let values = values
        .split(',')
        .map(|pair| {
            let (house, value) = pair.split_once(':')?;
            Some((house.parse().ok()?, value.parse().ok()?))
        })
        .collect::<Option<Vec<(u8, i32)>>>()?;
    let line = line_of_play
        .bytes()
        .map(|b| b.checked_sub(b'0').filter(|h| (1..=8).contains(h)))
        .collect::<Option<Vec<u8>>>()?;
    Some((format!("{houses} {mover}"), Entry { values, line }))
}

/// A compiled book as read: its board's width, its capture rule, its
/// positions by key.
type ReadBook = (usize, Capture, HashMap<String, Entry>);

/// Every compiled book, read once.
fn books() -> &'static [ReadBook] {
    static BOOKS_READ: OnceLock<Vec<ReadBook>> = OnceLock::new();
    BOOKS_READ.get_or_init(|| {
        BOOKS
            .iter()
            .map(|&(m, _, capture, text)| (m, capture, read(text)))
            .collect()
    })
}

/// The book's answer for `position`, if a compiled book holds it: every
/// legal house exact, and the line of play to the end of the game.
pub fn lookup(position: &KalahState) -> Option<Analysis> {
    let rules = position.rules();
    let entry = books()
        .iter()
        .find(|(m, capture, _)| *m == rules.houses() && *capture == rules.capture())
        .and_then(|(_, _, book)| book.get(&key(position)))?;
    let margin = position.margin();
    let houses: Vec<HouseValue> = entry
        .values
        .iter()
        .map(|&(house, future)| HouseValue {
            house,
            value: margin + future,
            solved: true,
        })
        .collect();
    let best = *entry.line.first()?;
    let value = houses.iter().find(|h| h.house == best)?.value;
    let mut principal_variation = Vec::with_capacity(entry.line.len());
    let mut replay = *position;
    for &house in &entry.line {
        principal_variation.push(Step {
            house,
            player: replay.to_move(),
        });
        replay.play(house).ok()?;
    }
    Some(Analysis {
        player: position.to_move(),
        best: Some(best),
        value,
        solved: true,
        houses,
        principal_variation,
        depth: 0,
        nodes: 0,
    })
}

/// A book's line for a solved position.
fn book_line(position: &KalahState, analysis: &Analysis) -> String {
    let margin = position.margin();
    let mut line = key(position);
    line.push(' ');
    let values: Vec<String> = analysis
        .houses
        .iter()
        .map(|h| format!("{}:{}", h.house, h.value - margin))
        .collect();
    line.push_str(&values.join(","));
    line.push(' ');
    for step in &analysis.principal_variation {
        let _ = write!(line, "{}", step.house);
    }
    line
}

/// Every position within `moves` moves of the start (a move that earns
/// another counts as one), each once, nearest first.
fn positions(rules: Rules, moves: u32) -> Vec<KalahState> {
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    let mut frontier = vec![rules.start()];
    for depth in 0..=moves {
        let mut next = Vec::new();
        for position in frontier {
            if position.is_over() || !seen.insert(key(&position)) {
                continue;
            }
            all.push(position);
            if depth < moves {
                for house in position.legal_houses() {
                    let mut child = position;
                    if child.play(house).is_ok_and(|played| played != Played::Over) {
                        next.push(child);
                    }
                }
            }
        }
        frontier = next;
    }
    all
}

/// `kibitz kalah-book`.
#[derive(Debug, clap::Subcommand)]
pub enum KalahCommand {
    /// Kalah's opening book, built by kibitz and compiled in.
    #[command(subcommand)]
    KalahBook(BookCommand),
}

#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Solve the positions within --moves of the start not yet in the
    /// book's file and append them (resumable: stop it anywhere).
    Build(BuildArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub struct BuildArgs {
    #[arg(long, default_value_t = 6)]
    pub houses: u32,
    #[arg(long, default_value_t = 4)]
    pub seeds: u32,
    /// standard or empty.
    #[arg(long, default_value = "standard")]
    pub capture: String,
    /// Positions within this many moves of the start.
    #[arg(long, default_value_t = 0)]
    pub moves: u32,
    /// The books' folder (the build compiles in what is there).
    #[arg(long, default_value = "src/games/kalah/book")]
    pub dir: PathBuf,
    /// Transposition table entries (16 bytes each), kept across positions.
    #[arg(long, default_value_t = 1 << 25)]
    pub table_entries: usize,
    /// MiB for the board's endgame tables (one is built, up to half of
    /// this, before the first position: 256 gives 18 seeds on 6 houses;
    /// 0 builds none).
    #[arg(long, default_value_t = 256)]
    pub endgame_mib: usize,
}

impl crate::config::GameCommand for KalahCommand {
    fn run(&self) -> Result<(), String> {
        match self {
            KalahCommand::KalahBook(BookCommand::Build(args)) => build(args),
        }
    }
}

/// A run with no bound but the positions' own (30 days: never reached).
const UNBOUNDED: Duration = Duration::from_secs(30 * 24 * 3600);

fn build(args: &BuildArgs) -> Result<(), String> {
    let capture = match args.capture.as_str() {
        "standard" => Capture::Standard,
        "empty" => Capture::Empty,
        other => return Err(format!("--capture must be standard or empty, not {other:?}")),
    };
    let rules = Rules::new(args.houses, args.seeds, capture)?;
    let path = args
        .dir
        .join(format!("kalah-{}-{}-{}.txt", args.houses, args.seeds, args.capture));
    let done = read(&std::fs::read_to_string(&path).unwrap_or_default());
    let todo: Vec<KalahState> = positions(rules, args.moves)
        .into_iter()
        .filter(|p| !done.contains_key(&key(p)))
        .collect();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let bar = ProgressBar::with_draw_target(Some(todo.len() as u64), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} elapsed, ETA {eta}")
            .map_err(|e| e.to_string())?,
    );
    let table = SharedTable::new(args.table_entries);
    endgame::set_budget(args.endgame_mib.saturating_mul(1 << 20));
    let clock = Instant::now();
    if let Some(built) = endgame::build_now(rules.geometry(), capture) {
        eprintln!(
            "endgame table: every position with at most {} seeds, in {:.1} s",
            built.seeds(),
            clock.elapsed().as_secs_f64()
        );
    }
    for position in todo {
        let clock = Instant::now();
        let analysis = analyze(&position, &table, &SearchLimits::within(UNBOUNDED));
        if !analysis.solved {
            return Err(format!("{}: not solved", key(&position)));
        }
        let line = book_line(&position, &analysis);
        writeln!(file, "{line}").map_err(|e| format!("{}: {e}", path.display()))?;
        file.flush().map_err(|e| format!("{}: {e}", path.display()))?;
        let report = format!(
            "{line}  ({:.1} s, {} nodes)",
            clock.elapsed().as_secs_f64(),
            analysis.nodes
        );
        // A hidden bar (stderr not a terminal) prints nothing of its own.
        if bar.is_hidden() {
            eprintln!("{report}");
        } else {
            bar.println(report);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_compiled_books_reads_and_replays() {
        for &(m, n, capture, text) in &BOOKS {
            let rules = Rules::new(m as u32, n, capture).unwrap();
            let reachable: HashMap<String, KalahState> =
                positions(rules, 2).into_iter().map(|p| (key(&p), p)).collect();
            for line in text.lines() {
                let (key, entry) = parse_line(line).unwrap_or_else(|| panic!("unreadable: {line}"));
                assert!(!entry.values.is_empty() && !entry.line.is_empty(), "{line}");
                if let Some(position) = reachable.get(&key) {
                    let analysis = lookup(position).unwrap();
                    assert_eq!(analysis.houses.len(), position.legal_houses().len(), "{line}");
                    // The line ends the game with the value it claims.
                    let mut end = *position;
                    for step in &analysis.principal_variation {
                        end.play(step.house).unwrap();
                    }
                    assert!(end.is_over(), "{line}");
                    let sign = if position.to_move() == Player::South { 1 } else { -1 };
                    assert_eq!(sign * end.south_margin(), analysis.value, "{line}");
                }
            }
        }
    }

    #[test]
    fn a_book_line_reads_back_as_it_was_written() {
        let rules = Rules::new(3, 2, Capture::Standard).unwrap();
        let start = rules.start();
        let table = SharedTable::new(1 << 12);
        let analysis = analyze(&start, &table, &SearchLimits::within(Duration::from_secs(60)));
        let line = book_line(&start, &analysis);
        let (key_read, entry) = parse_line(&line).unwrap();
        assert_eq!(key_read, key(&start));
        let values: Vec<(u8, i32)> = analysis.houses.iter().map(|h| (h.house, h.value)).collect();
        assert_eq!(entry.values, values);
        assert_eq!(entry.line.len(), analysis.principal_variation.len());
    }

    #[test]
    fn positions_within_a_move_are_the_start_and_its_children() {
        let rules = Rules::new(6, 4, Capture::Standard).unwrap();
        assert_eq!(positions(rules, 0).len(), 1);
        // Six houses, each a different position (house 3 earns another move).
        assert_eq!(positions(rules, 1).len(), 7);
    }
}
