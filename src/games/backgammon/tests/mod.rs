//! Backgammon's tests: its rules, solver or engine and its API, each held
//! to something it did not write. Part of the one integration-test binary
//! (tests/api), which finds this folder by itself (build.rs).

mod api;
mod bearoff;
mod gnubg;
pub mod gnubg_support;
mod rules;
