//! kibitz: best moves and evaluations for board and dice games, as a
//! library that the `kibitz` binary, the tests and the benchmarks share.

pub mod app;
pub mod arena;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod core;
pub mod engines;
pub mod fair;
pub mod games;
pub mod hash;
pub mod http;
pub mod kept_body;
pub mod matches;
pub mod records;
pub mod registry;
pub mod review;
pub mod serve;
pub mod solve;
pub mod store;
pub mod telemetry;
