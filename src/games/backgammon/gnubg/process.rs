//! One gnubg process running `bridge.py`: started, greeted, asked one
//! question at a time, killed.
//!
//! gnubg's output is untrusted input: lines are bounded
//! ([`MAX_ANSWER_BYTES`]), every answer must carry the id of the question
//! and parse as the expected shape, and anything else is an error after
//! which the pool kills the process.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use super::protocol::{Answer, Ready, PROTOCOL};
use super::GnubgError;
use crate::engines::EngineError;

/// The longest answer line accepted. A `move` answer is about 400 bytes a
/// play and a roll has at most a few thousand distinct plays (a double in
/// a spread position); past this the output is broken or hostile, and
/// reading it unbounded would let it fill the server's memory.
pub const MAX_ANSWER_BYTES: u64 = 4 * 1024 * 1024;

/// Lines gnubg may print before the bridge's `ready` (its banner is 7).
const MAX_GREETING_LINES: usize = 200;

/// One running gnubg. Dropping it kills the process (`kill_on_drop`).
pub struct GnubgProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    pid: Option<u32>,
    version: Option<String>,
    line: Vec<u8>,
    next_id: u64,
    /// A question was sent and its answer not read: the process is not
    /// fit to serve another until it is (it is killed instead).
    busy: bool,
}

impl GnubgProcess {
    /// Starts `binary` on `bridge` (gnubg's preferences kept in `home`,
    /// its rc files not read) and waits for the bridge's `ready`.
    pub async fn spawn(binary: &Path, bridge: &Path, home: &Path, timeout: Duration) -> Result<Self, GnubgError> {
        let mut child = Command::new(binary)
            .arg("-t")
            .arg("-q")
            .arg("-r")
            .arg("-s")
            .arg(home)
            .arg("-p")
            .arg(bridge)
            .current_dir(home)
            .env("HOME", home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", binary.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(EngineError::Spawn("gnubg's pipes were not opened".into()).into());
        };
        let mut process = GnubgProcess {
            pid: child.id(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            version: None,
            line: Vec::with_capacity(4096),
            next_id: 0,
            busy: true,
        };
        let deadline = Instant::now() + timeout;
        for _ in 0..MAX_GREETING_LINES {
            let line = process.read_by(deadline).await?;
            let line = line.trim();
            if let Ok(ready) = serde_json::from_str::<Ready>(line) {
                if !ready.ready || ready.protocol != PROTOCOL {
                    return Err(EngineError::Spawn(format!(
                        "the bridge speaks protocol {}, kibitz {PROTOCOL}",
                        ready.protocol
                    ))
                    .into());
                }
                process.busy = false;
                return Ok(process);
            }
            if process.version.is_none() && line.starts_with("GNU Backgammon") {
                process.version = Some(line.to_string());
            }
        }
        Err(EngineError::Spawn("gnubg printed no `ready` (is its Python support missing?)".into()).into())
    }

    /// The process id while it runs (tests kill it by this).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// gnubg's banner line, e.g. `GNU Backgammon 1.07.001 20230103`.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// False once a question went unanswered (the process must go).
    pub fn is_idle(&self) -> bool {
        !self.busy
    }

    /// Sends `request` (its `id` set here) and reads the answer by
    /// `deadline`. The bridge's `invalid` is [`GnubgError::Invalid`] and
    /// leaves the process fit; anything else that goes wrong is an
    /// [`EngineError`] and leaves it unfit ([`GnubgProcess::is_idle`]
    /// false).
    pub async fn ask(&mut self, mut request: Value, deadline: Instant) -> Result<Value, GnubgError> {
        if self.busy {
            return Err(EngineError::Protocol("a question is still unanswered".into()).into());
        }
        self.next_id += 1;
        let id = self.next_id;
        request["id"] = Value::from(id);
        let mut text = request.to_string();
        // serde_json never writes a raw line break inside a value, so one
        // request is one line.
        text.push('\n');
        self.busy = true;
        let write = async {
            self.stdin.write_all(text.as_bytes()).await?;
            self.stdin.flush().await
        };
        write
            .await
            .map_err(|e| EngineError::Died(format!("writing to gnubg failed: {e}")))?;
        let line = self.read_by(deadline).await?;
        let answer: Answer = serde_json::from_str(&line)
            .map_err(|e| EngineError::Protocol(format!("gnubg's answer is not the bridge's JSON: {e}")))?;
        if answer.id != Some(id) {
            return Err(EngineError::Protocol(format!("an answer to {:?} came for question {id}", answer.id)).into());
        }
        self.busy = false;
        match (answer.ok, answer.error.as_deref()) {
            (Some(ok), None) => Ok(ok),
            (None, Some("invalid")) => Err(GnubgError::Invalid(answer.message.unwrap_or_default())),
            (None, Some(_)) => {
                // The bridge caught something it did not expect: gnubg's
                // state is in doubt, so the process goes.
                self.busy = true;
                Err(EngineError::Protocol(format!("the bridge failed: {}", answer.message.unwrap_or_default())).into())
            }
            _ => {
                self.busy = true;
                Err(EngineError::Protocol("an answer with neither a result nor an error".into()).into())
            }
        }
    }

    /// One line by `deadline`. Not cancel-safe (a partial line is lost),
    /// which is fine: a process whose read was abandoned is killed.
    async fn read_by(&mut self, deadline: Instant) -> Result<String, GnubgError> {
        match tokio::time::timeout_at(deadline.into(), self.read_line()).await {
            Ok(line) => line,
            Err(_) => Err(EngineError::Hung("gnubg did not answer in time".into()).into()),
        }
    }

    async fn read_line(&mut self) -> Result<String, GnubgError> {
        self.line.clear();
        (&mut self.stdout)
            .take(MAX_ANSWER_BYTES)
            .read_until(b'\n', &mut self.line)
            .await
            .map_err(|e| EngineError::Died(format!("reading from gnubg failed: {e}")))?;
        if self.line.last() == Some(&b'\n') {
            return Ok(String::from_utf8_lossy(&self.line).into_owned());
        }
        if self.line.len() as u64 >= MAX_ANSWER_BYTES {
            return Err(
                EngineError::Protocol(format!("gnubg wrote a line longer than {MAX_ANSWER_BYTES} bytes")).into(),
            );
        }
        // read_until stops short of a line break only at the end of input.
        Err(EngineError::Died("gnubg closed its output (it exited or crashed)".into()).into())
    }

    /// Kills the process and reaps it (bounded: one that survives SIGKILL
    /// for a second is left to `kill_on_drop`).
    pub async fn kill(mut self) {
        let _ = self.child.start_kill();
        let _ = tokio::time::timeout(Duration::from_secs(1), self.child.wait()).await;
    }
}
