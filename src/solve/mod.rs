//! Search and solving, apart from the rules (games/) and from HTTP.

pub mod alphabeta;
pub mod connect_four;
pub mod expectimax;
pub mod ishitori;
pub mod limits;
pub mod memo;
pub mod negamax;
pub mod nine_square;
pub mod number_square;
pub mod pig;
pub mod solvers;
pub mod table;
pub mod tictactoe;

/// A search's optional progress hook: called on the searching thread after
/// each completed iteration with the analysis as it stands (the same type
/// the search returns at the end). Domain code knows nothing of where the
/// reports go.
pub type Progress<'a, A> = Option<&'a mut dyn FnMut(&A)>;
