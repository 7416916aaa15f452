//! Where the backgammon tests find GNU Backgammon: where the server looks
//! (PATH, then /usr/games). Without it a test that needs it fails, unless
//! KIBITZ_TEST_GNUBG=skip says the run chose to skip them (as
//! KIBITZ_TEST_STOCKFISH does for chess).

use std::path::PathBuf;

/// The binary, or None when the run said to skip the gnubg tests.
pub fn gnubg() -> Option<PathBuf> {
    match kibitz::games::backgammon::gnubg::GnubgConfig::default().resolve() {
        Ok(path) => Some(path),
        Err(message) => {
            assert_eq!(
                std::env::var("KIBITZ_TEST_GNUBG").as_deref(),
                Ok("skip"),
                "{message}\n(set KIBITZ_TEST_GNUBG=skip to run without the gnubg tests)"
            );
            eprintln!("gnubg not found and KIBITZ_TEST_GNUBG=skip: test skipped");
            None
        }
    }
}
