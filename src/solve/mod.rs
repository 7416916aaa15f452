//! Search and solving, apart from the rules (games/) and from HTTP.

pub mod limits;
pub mod memo;
pub mod pig;
