//! Where the backgammon tests find GNU Backgammon: where the server looks
//! (PATH, then /usr/games). Without it a test that needs it fails, unless
//! KIBITZ_TEST_GNUBG=skip says the run chose to skip them (as
//! KIBITZ_TEST_STOCKFISH does for chess). And how they run a Python script
//! of its data/ folder in it. Shared by the backgammon tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// Runs data/`script` in gnubg's Python (`gnubg -t -q -p`), the
/// `input` lines in the file KIBITZ_GNUBG_INPUT names, and returns the
/// output lines that start with `prefix` (gnubg prints its own lines
/// too). Fails unless there is one answer per input line.
// Not every test that finds gnubg runs a script in it.
#[allow(dead_code)]
pub fn run_script(gnubg: &Path, script: &str, input: &[String], prefix: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let input_path = dir.path().join("input.txt");
    let mut file = std::fs::File::create(&input_path).expect("input file");
    for line in input {
        writeln!(file, "{line}").expect("write input");
    }
    drop(file);
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/games/backgammon/tests/data")
        .join(script);
    let output = Command::new(gnubg)
        .args(["-t", "-q", "-p"])
        .arg(&script)
        .env("KIBITZ_GNUBG_INPUT", &input_path)
        .current_dir(dir.path())
        .output()
        .expect("run gnubg");
    let answers: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| line.starts_with(prefix))
        .map(str::to_string)
        .collect();
    assert_eq!(
        answers.len(),
        input.len(),
        "gnubg answered {} of {} lines; stderr: {}",
        answers.len(),
        input.len(),
        String::from_utf8_lossy(&output.stderr)
    );
    answers
}
