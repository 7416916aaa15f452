//! The integration tests, one binary: the API through the real router,
//! the binary as a process, and every game's own tests, which live in its
//! folder (`src/games/<game>/tests/`) and are listed by build.rs.

mod analyze;
mod arena;
mod arena_series;
mod catalog;
mod deploy;
mod durability;
mod errors;
mod evaluation;
mod evaluation_scales;
mod fairness;
mod fairy;
mod fairy_support;
mod games;
mod headers;
mod health;
mod helpers;
mod hostile;
mod limits;
mod logs;
mod matches;
mod matches_engine;
mod memory;
mod openapi;
mod oversized;
mod playground;
mod process;
mod registry;
mod replicas;
mod review;
mod review_scored;
mod stream;

/// Each game's tests, from its folder.
mod game {
    include!(concat!(env!("OUT_DIR"), "/game_tests.rs"));
}
