//! Number Square's tests: its rules, solver or engine and its API, each held
//! to something it did not write. Part of the one integration-test binary
//! (tests/api), which finds this folder by itself (build.rs).

pub mod brute;
mod rules;
mod solver;
mod strategies;
mod strength;
