//! Pig tables: the file format, and the set of tables the server keeps.

pub mod cache;
pub mod file;
