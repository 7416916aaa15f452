//! Search and solving, apart from the rules (games/) and from HTTP.

pub mod connect_four;
pub mod ishitori;
pub mod limits;
pub mod memo;
pub mod negamax;
pub mod nine_square;
pub mod number_square;
pub mod pig;
pub mod table;
pub mod tictactoe;
