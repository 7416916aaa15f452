//! The real `kibitz` binary as a child process, and a minimal HTTP/1.1
//! client for talking to it (std only: one request per connection).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub struct Server {
    pub port: u16,
    args: Vec<String>,
    child: Child,
}

pub struct Reply {
    pub status: u16,
    pub body: Value,
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Server {
    /// Starts `kibitz serve` on a free port with these extra arguments and
    /// waits until /readyz answers 200.
    pub fn start(extra: &[String]) -> Server {
        let server = Server::launch(extra);
        server.wait_ready();
        server
    }

    /// Starts it without waiting (to start several at once).
    pub fn launch(extra: &[String]) -> Server {
        let port = free_port();
        let mut args = vec![
            "serve".to_string(),
            "--bind".to_string(),
            format!("127.0.0.1:{port}"),
            "--log".to_string(),
            "warn".to_string(),
        ];
        args.extend_from_slice(extra);
        let child = spawn(&args);
        Server { port, args, child }
    }

    pub fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(reply) = request(self.port, "GET", "/readyz", None, None) {
                if reply.status == 200 {
                    return;
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("kibitz on port {} was not ready within 60 s", self.port);
    }

    /// The process's id (to read its /proc entries).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill_hard(&mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }

    /// SIGTERM, then waits for the process; its exit status.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -TERM failed");
        self.child.wait().expect("wait")
    }

    /// Starts the same command again on the same port.
    pub fn restart(&mut self) {
        self.child = spawn(&self.args);
        self.wait_ready();
    }

    pub fn call(&self, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> Reply {
        request(self.port, method, path, token, body).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The binary under test: KIBITZ_TEST_BIN when set (CI points it at the
/// release build), else the one cargo built for these tests.
pub fn binary() -> String {
    std::env::var("KIBITZ_TEST_BIN")
        .ok()
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_kibitz").to_string())
}

fn spawn(args: &[String]) -> Child {
    Command::new(binary())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start kibitz")
}

pub fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("no header end in {text:?}")))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line in {head:?}")))?;
    let body = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body).unwrap_or(Value::String(body.to_string()))
    };
    Ok(Reply { status, body })
}
