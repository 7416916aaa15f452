//! The offline subcommands.

use std::path::Path;
use std::time::Instant;

use crate::games::pig::{PigRules, Variant};
use crate::solve::pig::solve;
use crate::tables::file;

/// `kibitz solve pig`: solves a table and writes it; returns a summary line.
pub fn solve_pig(goal: i64, die_sides: i64, variant: &str, out: &Path) -> Result<String, String> {
    let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let rules = PigRules::new(goal, die_sides, variant, u32::MAX).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let table = solve(&rules);
    let seconds = started.elapsed().as_secs_f64();
    file::save(out, &table).map_err(|e| e.to_string())?;
    Ok(format!(
        "solved {variant} Pig to {goal} with a d{die_sides} in {seconds:.3} s: first player wins with {:.12}; wrote {} ({} bytes)",
        table.win_probability(0, 0, 0),
        out.display(),
        file::encode(&table).len()
    ))
}
