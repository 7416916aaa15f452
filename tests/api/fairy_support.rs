//! Where the xiangqi and shogi tests find Fairy-Stockfish: where the
//! server looks (PATH, /usr/games). Without it an engine test fails,
//! unless KIBITZ_TEST_FAIRY_STOCKFISH=skip says the run chose to skip the
//! Fairy-Stockfish tests (scripts/test.sh sets it only when there is no
//! binary, and its last line says so).

use kibitz::engines::{Dialect, EngineConfig};

/// True when Fairy-Stockfish is there; false only when the run said to
/// skip its tests.
pub fn fairy_stockfish() -> bool {
    match EngineConfig::fairy_stockfish("xiangqi", Dialect::Uci).resolve() {
        Ok(_) => true,
        Err(message) => {
            assert_eq!(
                std::env::var("KIBITZ_TEST_FAIRY_STOCKFISH").as_deref(),
                Ok("skip"),
                "{message}\n(set KIBITZ_TEST_FAIRY_STOCKFISH=skip to run without the Fairy-Stockfish tests)"
            );
            eprintln!("Fairy-Stockfish not found and KIBITZ_TEST_FAIRY_STOCKFISH=skip: test skipped");
            false
        }
    }
}
