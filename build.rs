//! Lists the games' own test folders for the one integration-test binary
//! (tests/api): each `src/games/<game>/tests/mod.rs` becomes a module of
//! it, so that a game's tests live in its folder and a new game's tests
//! are found without a line in a shared list.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let root = env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let games = Path::new(&root).join("src").join("games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut folders: Vec<_> = fs::read_dir(&games)
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    folders.sort();
    let mut modules = String::new();
    for folder in folders {
        let tests = folder.join("tests").join("mod.rs");
        let Some(name) = folder.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if tests.is_file() {
            let _ = writeln!(modules, "#[path = {:?}]\npub mod {name};", tests.display().to_string());
        }
    }
    let out = env::var("OUT_DIR").unwrap_or_else(|_| ".".to_string());
    if let Err(e) = fs::write(Path::new(&out).join("game_tests.rs"), modules) {
        panic!("cannot write the list of the games' tests: {e}");
    }
}
