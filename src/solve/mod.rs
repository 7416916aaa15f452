//! Search and solving, apart from the rules (games/) and from HTTP.

pub mod alphabeta;
pub mod cores;
pub mod expectimax;
pub mod limits;
pub mod lines;
pub mod memo;
pub mod pool;
pub mod run;
pub mod slot;
pub mod solvers;
pub mod table;

/// A search's optional progress hook: called on the searching thread after
/// each completed iteration with the analysis as it stands (the same type
/// the search returns at the end). Domain code knows nothing of where the
/// reports go.
pub type Progress<'a, A> = Option<&'a mut dyn FnMut(&A)>;
