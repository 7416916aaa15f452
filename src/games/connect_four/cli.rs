//! `kibitz connect-four-scores`: exact scores of positions read from stdin,
//! in the standard solvers' format, for comparing kibitz with them.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use super::solve::ConnectFourSolver;
use super::{ConnectFourState, Shape};
use crate::solve::limits::SearchLimits;

/// No limit a person would wait out: every line is solved to the end.
const UNBOUNDED: Duration = Duration::from_secs(30 * 24 * 3600);

/// `kibitz connect-four-scores`.
#[derive(Debug, Clone, clap::Args)]
pub struct ScoresArgs {
    #[arg(long, default_value_t = 7)]
    pub cols: i64,
    #[arg(long, default_value_t = 6)]
    pub rows: i64,
    #[arg(long, default_value_t = 4)]
    pub k: i64,
    /// Transposition table entries (16 bytes each), kept across lines.
    #[arg(long, default_value_t = 1 << 23)]
    pub table_entries: usize,
    /// Also print each line's node count and milliseconds on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Search without the compiled opening book (to time the search alone).
    #[arg(long)]
    pub no_book: bool,
    /// Threads for each line (more than one shares the columns and the
    /// table).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Printed for a full column, as the standard solvers do.
const FULL_COLUMN: i32 = -1000;

/// Solves each line of stdin without a time limit and prints its scores.
pub fn scores(args: &ScoresArgs) -> Result<(), String> {
    use std::io::{BufRead, Write};
    let shape = Shape::new(Some(args.cols), Some(args.rows), Some(args.k)).map_err(|e| e.to_string())?;
    let solver = if args.no_book {
        ConnectFourSolver::with_books(args.table_entries, Cow::Owned(Vec::new()))
    } else {
        ConnectFourSolver::new(args.table_entries)
    }
    .with_helpers(args.threads.saturating_sub(1));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        // An empty line is the empty board, as in Pons' solver: the only
        // way to ask for it.
        let moves = line.split_whitespace().next().unwrap_or("");
        let game = ConnectFourState::from_moves(shape, moves).map_err(|e| format!("{moves}: {e}"))?;
        game.ensure_not_over().map_err(|e| format!("{moves}: {e}"))?;
        let started = Instant::now();
        let analysis = solver.analyze(&game, &SearchLimits::within(UNBOUNDED));
        if args.stats {
            eprintln!(
                "{moves} nodes {} ms {:.1}",
                analysis.nodes,
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        let text: Vec<String> = analysis
            .columns
            .iter()
            .map(|c| c.score.filter(|_| c.solved).unwrap_or(FULL_COLUMN).to_string())
            .collect();
        writeln!(out, "{moves} {}", text.join(" ")).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Connect Four's commands beside `kibitz serve`.
#[derive(Debug, clap::Subcommand)]
pub enum ConnectFourCommand {
    /// Read Connect Four games as column strings ("4453"), one per line on
    /// stdin, and print each line followed by every column's exact score, as
    /// the standard solvers' `-a` does (full columns: -1000).
    ConnectFourScores(ScoresArgs),
    /// Connect Four's opening book, built by kibitz and compiled in.
    #[command(subcommand)]
    ConnectFourBook(super::book::build::BookCommand),
}

impl crate::config::GameCommand for ConnectFourCommand {
    fn run(&self) -> Result<(), String> {
        match self {
            ConnectFourCommand::ConnectFourScores(args) => scores(args),
            ConnectFourCommand::ConnectFourBook(command) => command.run(),
        }
    }
}
