//! The real binary's log: its first line says where to go, and a log that
//! is not a terminal has no colour codes.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::process::{binary, free_port};

#[test]
fn the_first_log_line_names_the_playground_and_the_spec_without_colour_codes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let mut child = Command::new(binary())
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--log",
            "info",
            "--data-dir",
        ])
        .arg(dir.path())
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start kibitz");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    let mut more = String::new();
    let read = lines.read_line(&mut first).and_then(|_| lines.read_line(&mut more));
    let _ = child.kill();
    let _ = child.wait();
    read.expect("read the log");
    let base = format!("http://127.0.0.1:{port}");
    assert!(first.contains(&format!("listening on {base}")), "{first}");
    assert!(first.contains(&format!("playground {base}/")), "{first}");
    assert!(first.contains(&format!("spec {base}/openapi.yaml")), "{first}");
    for line in [&first, &more] {
        assert!(!line.contains('\u{1b}'), "ANSI escape in a piped log: {line:?}");
    }
}
