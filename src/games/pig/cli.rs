//! `kibitz solve pig`: a table solved offline and written to a file (the
//! container image ships the default ones made so).

use std::path::PathBuf;
use std::time::Instant;

use super::solve::solve;
use super::tables::file;
use super::{PigRules, Variant};

/// Write a Pig win-probability table file.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    #[arg(long, default_value_t = 100)]
    pub goal: i64,
    #[arg(long, default_value_t = 6)]
    pub die_sides: i64,
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// The file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Solves the table, writes it and prints a summary line.
pub fn solve_table(args: &SolveArgs) -> Result<(), String> {
    let SolveArgs {
        goal,
        die_sides,
        variant,
        out,
    } = args;
    let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let rules = PigRules::new(*goal, *die_sides, variant, u32::MAX).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let table = solve(&rules);
    let seconds = started.elapsed().as_secs_f64();
    file::save(out, &table).map_err(|e| e.to_string())?;
    println!(
        "solved {variant} Pig to {goal} with a d{die_sides} in {seconds:.3} s: first player wins with {:.12}; wrote {} ({} bytes)",
        table.win_probability(0, 0, 0),
        out.display(),
        file::encode(&table).len()
    );
    Ok(())
}

/// Pig's commands beside `kibitz serve`.
#[derive(Debug, clap::Subcommand)]
pub enum PigCommand {
    /// Solve a game offline and write the result.
    #[command(subcommand)]
    Solve(SolveCommand),
}

#[derive(Debug, clap::Subcommand)]
pub enum SolveCommand {
    /// Write a Pig win-probability table file.
    Pig(SolveArgs),
}

impl crate::config::GameCommand for PigCommand {
    fn run(&self) -> Result<(), String> {
        match self {
            PigCommand::Solve(SolveCommand::Pig(args)) => solve_table(args),
        }
    }
}
