//! kibitz: best moves and evaluations for five games, as a library that the
//! `kibitz` binary, the tests and the benchmarks share.

pub mod app;
pub mod arena;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod games;
pub mod hash;
pub mod http;
pub mod matches;
pub mod review;
pub mod solve;
pub mod store;
pub mod strategies;
pub mod tables;
pub mod telemetry;
