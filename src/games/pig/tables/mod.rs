//! Pig tables: the file format, and the set of tables the server keeps.

pub mod cache;
pub mod file;

use std::sync::Arc;

use crate::solve::solvers::Solvers;

/// Tables in memory when nothing was prepared from settings, at most.
const UNPREPARED_BYTES: usize = 256 << 20;

/// The Pig tables of `solvers`: the ones the server prepared from its
/// settings, or (a set nobody prepared: a test's, a bench's) tables kept in
/// the temporary directory.
pub fn shared_tables(solvers: &Solvers) -> Arc<cache::PigTables> {
    solvers.of_with(|| cache::PigTables::new(std::env::temp_dir().join("kibitz-pig-tables"), UNPREPARED_BYTES))
}
