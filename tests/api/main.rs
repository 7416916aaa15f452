//! API tests through the real router: one binary, one module per area.

mod analyze;
mod arena;
mod backgammon;
mod catalog;
mod chess;
mod connect_four;
#[path = "../support/connect_four_brute.rs"]
mod connect_four_brute;
mod durability;
mod errors;
mod evaluation;
mod fairness;
mod fairy;
#[path = "../support/fairy_stockfish.rs"]
mod fairy_support;
mod games;
#[path = "../support/gnubg.rs"]
mod gnubg_support;
mod headers;
mod health;
mod helpers;
mod hostile;
mod kalah;
mod limits;
mod logs;
mod matches;
mod memory;
#[path = "../support/number_square_brute.rs"]
mod number_square_brute;
mod openapi;
mod othello;
mod oversized;
mod pig;
mod playground;
mod process;
mod registry;
mod replicas;
mod review;
mod review_scored;
mod shogi;
#[path = "../support/stockfish.rs"]
mod stockfish_support;
mod stream;
mod xiangqi;
