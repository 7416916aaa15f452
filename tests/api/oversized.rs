//! A body over the limit, sent the way ordinary HTTP libraries send it
//! (Python's urllib: the whole body first, then read the answer), gets the
//! 413 problem instead of a connection reset. Runs the real binary over
//! TCP with a blocking std client.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

use crate::process::Server;

const SIZE: usize = 25 * 1024 * 1024;

/// A JSON object of `SIZE` bytes for /tictactoe/move.
fn big_json() -> Vec<u8> {
    let mut body = b"{\"board\": [\"".to_vec();
    body.resize(SIZE - 3, b'X');
    body.extend_from_slice(b"\"]}");
    body
}

struct Answer {
    status: u16,
    head: String,
    body: Value,
}

/// Writes `head` and all of `body`, then reads the answer to its end: what
/// urllib does.
fn send_then_read(port: u16, head: &str, body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_write_timeout(Some(Duration::from_secs(60))).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body))
        .and_then(|()| stream.flush())
        .unwrap_or_else(|e| panic!("writing the body failed before the answer was read: {e}"));
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .unwrap_or_else(|e| panic!("reading the answer failed: {e}"));
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {text:?}"));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line in {head:?}"));
    let body = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body:?}"));
    Answer {
        status,
        head: head.to_ascii_lowercase(),
        body,
    }
}

fn assert_413_problem(answer: &Answer) {
    assert_eq!(answer.status, 413, "{}", answer.head);
    assert!(
        answer.head.contains("content-type: application/problem+json"),
        "{}",
        answer.head
    );
    assert_eq!(answer.body["status"], 413, "{}", answer.body);
    assert!(answer.body["detail"].as_str().is_some_and(|d| !d.is_empty()));
}

fn server() -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&["--data-dir".to_string(), dir.path().display().to_string()]);
    (server, dir)
}

#[test]
fn a_25_mb_body_with_content_length_reads_a_413_not_a_reset() {
    let (server, _dir) = server();
    let body = big_json();
    let head = format!(
        "POST /tictactoe/move HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    for _ in 0..2 {
        assert_413_problem(&send_then_read(server.port, &head, &body));
    }
    // Keep-alive as urllib sends it: no Connection header at all.
    let head = head.replace("Connection: close\r\n", "");
    let answer = send_then_read(server.port, &head, &body);
    assert_413_problem(&answer);
    assert!(answer.head.contains("connection: close"), "{}", answer.head);
    let ok = server.call("GET", "/healthz", None, None);
    assert_eq!(ok.status, 200);
}

#[test]
fn a_25_mb_chunked_body_reads_a_413_not_a_reset() {
    let (server, _dir) = server();
    let mut body = Vec::with_capacity(SIZE + SIZE / 1000);
    for chunk in big_json().chunks(64 * 1024) {
        body.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        body.extend_from_slice(chunk);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    let head = "POST /tictactoe/move HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                Transfer-Encoding: chunked\r\n\r\n";
    assert_413_problem(&send_then_read(server.port, head, &body));
}
