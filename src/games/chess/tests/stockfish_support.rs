//! Where the chess tests find Stockfish: where the server looks (PATH,
//! then /usr/games). Without it an engine test fails, unless
//! KIBITZ_TEST_STOCKFISH=skip says the run chose to skip the engine tests
//! (scripts/test.sh sets it only when there is no binary, and its last
//! lines say so). Shared by the engine and API tests.

use std::path::PathBuf;

/// The binary, or None when the run said to skip the engine tests.
pub fn stockfish() -> Option<PathBuf> {
    match kibitz::engines::EngineConfig::stockfish().resolve() {
        Ok(path) => Some(path),
        Err(message) => {
            assert_eq!(
                std::env::var("KIBITZ_TEST_STOCKFISH").as_deref(),
                Ok("skip"),
                "{message}\n(set KIBITZ_TEST_STOCKFISH=skip to run without the Stockfish tests)"
            );
            eprintln!("Stockfish not found and KIBITZ_TEST_STOCKFISH=skip: test skipped");
            None
        }
    }
}
