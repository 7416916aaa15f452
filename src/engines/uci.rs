//! A UCI client: one engine process, spoken to line by line over its
//! standard input and output.
//!
//! Hand-written rather than the `vampirc-uci` crate. What kibitz needs of
//! the protocol is small (`uci`/`uciok`, `setoption`, `isready`/`readyok`,
//! `ucinewgame`, `position`, `go`, `stop`, and reading `info` and
//! `bestmove`), while vampirc-uci is a full pest grammar of both directions
//! that returns a parse error for a line it does not know instead of
//! skipping it, has had no release since 2021, and would bring pest and its
//! derive macros into the build. An engine is untrusted input here: every
//! line is parsed defensively (unknown words skipped, numbers that do not
//! parse dropped, lines longer than [`MAX_LINE_BYTES`] refused) and nothing
//! an engine prints can panic the server.
//!
//! Nothing here is chess-specific: moves stay strings, and the game layer
//! checks them against its own rules.

use std::collections::HashMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use super::EngineError;
use crate::solve::limits::SearchLimits;

/// The longest line accepted from an engine. Stockfish's longest lines are
/// `info ... pv` with a few dozen moves (well under 2 KiB); a line past this
/// is a broken or hostile engine, and reading it unbounded would let it
/// fill the server's memory.
pub const MAX_LINE_BYTES: u64 = 64 * 1024;

/// How often a search with no output checks its cancellation flag.
const POLL: Duration = Duration::from_millis(20);

/// Time kept back from `go movetime` so that the engine's own answer, and
/// the reading of it, fit inside the caller's deadline.
const MOVETIME_MARGIN: Duration = Duration::from_millis(25);

/// The shortest `go movetime`: below it, on a busy CPU, Stockfish can
/// answer before it has finished depth 1, with no evaluation at all. A
/// search with less time left asks for `go depth 1` instead (a millisecond
/// or two), so that every answer has an evaluation.
const MIN_MOVETIME: Duration = Duration::from_millis(30);

/// The protocol an engine speaks: UCI, or USI, shogi's form of it (the
/// same commands and answers but for its greeting, `usi`/`usiok`, and
/// `usinewgame`; moves and positions in USI's notation, which stay the
/// game layer's strings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    #[default]
    Uci,
    Usi,
}

impl Dialect {
    /// The greeting that starts the handshake.
    fn hello(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Usi => "usi",
        }
    }

    /// The command that tells the engine an unrelated position follows.
    fn new_game(self) -> &'static str {
        match self {
            Dialect::Uci => "ucinewgame",
            Dialect::Usi => "usinewgame",
        }
    }
}

/// An evaluation as UCI reports it: from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (aspiration windows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// One `info` line, with every field optional: engines print many kinds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub bound: Bound,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// An option the engine advertised in its `uci` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    pub name: String,
    pub kind: String,
    pub default: Option<String>,
}

/// One line from an engine, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineMessage {
    Id {
        key: String,
        value: String,
    },
    UciOk,
    ReadyOk,
    Option(EngineOption),
    Info(Info),
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    /// Anything else (copyright banners, debug output): ignored.
    Other,
}

/// A move as an engine writes it: short and plain ASCII (`+` and `*` are
/// USI's promotion and drop). The game layer
/// checks legality; this only keeps junk out of the answers.
fn move_token(token: &str) -> Option<String> {
    (!token.is_empty()
        && token.len() <= 16
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'@' | b'=' | b'+' | b'*')))
    .then(|| token.to_string())
}

fn number<T: std::str::FromStr>(token: Option<&str>) -> Option<T> {
    token.and_then(|t| t.parse().ok())
}

/// Parses one line. Never fails: what it does not understand is `Other`,
/// or a field left empty.
pub fn parse_line(line: &str) -> EngineMessage {
    let mut tokens = line.split_ascii_whitespace();
    match tokens.next() {
        Some("uciok" | "usiok") => EngineMessage::UciOk,
        Some("readyok") => EngineMessage::ReadyOk,
        Some("id") => match tokens.next() {
            Some(key) => EngineMessage::Id {
                key: key.to_string(),
                value: tokens.collect::<Vec<_>>().join(" "),
            },
            None => EngineMessage::Other,
        },
        Some("bestmove") => {
            let best = tokens
                .next()
                .filter(|m| !matches!(*m, "(none)" | "0000" | "resign" | "win"))
                .and_then(move_token);
            let ponder = match tokens.next() {
                Some("ponder") => tokens.next().and_then(move_token),
                _ => None,
            };
            EngineMessage::BestMove { best, ponder }
        }
        Some("option") => parse_option(tokens).map_or(EngineMessage::Other, EngineMessage::Option),
        Some("info") => EngineMessage::Info(parse_info(tokens)),
        _ => EngineMessage::Other,
    }
}

fn parse_option<'a>(tokens: impl Iterator<Item = &'a str>) -> Option<EngineOption> {
    // option name <words...> type <kind> [default <words...>] [min n] [max n] [var v]*
    let mut name = Vec::new();
    let mut kind = None;
    let mut default: Option<Vec<&str>> = None;
    let mut section = "";
    for token in tokens {
        match token {
            "name" | "type" | "default" | "min" | "max" | "var" if !(section == "name" && token == "name") => {
                section = token;
                if token == "default" {
                    default = Some(Vec::new());
                }
            }
            _ => match section {
                "name" => name.push(token),
                "type" => kind = Some(token.to_string()),
                "default" => default.get_or_insert_with(Vec::new).push(token),
                _ => {}
            },
        }
    }
    if name.is_empty() {
        return None;
    }
    Some(EngineOption {
        name: name.join(" "),
        kind: kind.unwrap_or_default(),
        default: default.map(|words| words.join(" ")),
    })
}

fn parse_info<'a>(mut tokens: impl Iterator<Item = &'a str>) -> Info {
    let mut info = Info::default();
    while let Some(token) = tokens.next() {
        match token {
            "depth" => info.depth = number(tokens.next()),
            "seldepth" => info.seldepth = number(tokens.next()),
            "multipv" => info.multipv = number(tokens.next()),
            "nodes" => info.nodes = number(tokens.next()),
            "nps" => info.nps = number(tokens.next()),
            "time" => info.time_ms = number(tokens.next()),
            "score" => {
                info.score = match tokens.next() {
                    Some("cp") => number(tokens.next()).map(Score::Cp),
                    Some("mate") => number(tokens.next()).map(Score::Mate),
                    _ => None,
                };
            }
            "lowerbound" => info.bound = Bound::Lower,
            "upperbound" => info.bound = Bound::Upper,
            // Words with one argument kibitz does not use.
            "currmove" | "currmovenumber" | "hashfull" | "tbhits" | "cpuload" | "sbhits" => {
                tokens.next();
            }
            "wdl" => {
                tokens.next();
                tokens.next();
                tokens.next();
            }
            // Both run to the end of the line (UCI says so for `string`;
            // engines put `pv` last).
            "pv" => {
                info.pv = tokens.by_ref().map_while(move_token).collect();
            }
            "string" => {
                info.string = Some(tokens.by_ref().collect::<Vec<_>>().join(" "));
            }
            "refutation" | "currline" => break,
            _ => {}
        }
    }
    info
}

/// One principal variation as the engine last reported it.
#[derive(Clone, Debug, PartialEq)]
pub struct PvLine {
    /// 1-based rank among the MultiPV lines.
    pub multipv: u32,
    pub depth: u32,
    pub seldepth: Option<u32>,
    pub score: Score,
    pub pv: Vec<String>,
}

/// A completed depth: every requested line reported at that depth.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthReport {
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    /// Ordered by rank, best first.
    pub lines: Vec<PvLine>,
}

/// What a search asks of an engine. Built by code, never from a request's
/// raw text: `position` is checked for line breaks all the same.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchJob {
    /// What follows `position ` (e.g. `fen <fen> moves e2e4 e7e5`).
    pub position: String,
    /// A depth limit (`go depth`), on top of the time budget.
    pub depth: Option<u32>,
    /// How many lines to report (the `MultiPV` option); at least 1. The
    /// caller clamps it to the number of legal moves, or the last depth
    /// is never complete.
    pub multi_pv: u32,
    /// Engine options for this search (e.g. strength settings). Options
    /// set by an earlier search and absent here go back to their defaults.
    pub options: Vec<(String, String)>,
    /// Searches of one game share a session id: between them the engine
    /// keeps its hash; anything else starts with `ucinewgame`.
    pub session: Option<u64>,
}

/// The end of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutput {
    /// None when the engine had no move (a finished game).
    pub best_move: Option<String>,
    pub ponder: Option<String>,
    /// The deepest reported line of each rank, best first.
    pub lines: Vec<PvLine>,
    /// The deepest completed depth (0 when none completed).
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    /// True when kibitz sent `stop` (budget spent or cancelled) rather than
    /// the engine finishing its own limits.
    pub stopped: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between commands: safe to hand to another search.
    Idle,
    /// A command is outstanding: its answer may still come.
    Busy,
}

/// One engine process. Dropping it kills the process (`kill_on_drop`).
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    pid: Option<u32>,
    name: Option<String>,
    options: HashMap<String, EngineOption>,
    /// Options this client has set away from their defaults.
    applied: Vec<(String, String)>,
    session: Option<u64>,
    state: State,
    /// A `go` was sent and its `bestmove` has not been read.
    searching: bool,
    line: Vec<u8>,
    dialect: Dialect,
}

impl UciEngine {
    /// Starts the program and completes the `uci` handshake within
    /// `timeout`.
    pub async fn spawn(path: &Path, dialect: Dialect, timeout: Duration) -> Result<Self, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", path.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(EngineError::Spawn("the engine's pipes were not opened".into()));
        };
        let mut engine = UciEngine {
            pid: child.id(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            name: None,
            options: HashMap::new(),
            applied: Vec::new(),
            session: None,
            state: State::Busy,
            searching: false,
            line: Vec::with_capacity(256),
            dialect,
        };
        engine.send(dialect.hello()).await?;
        let deadline = Instant::now() + timeout;
        loop {
            match engine.read_by(deadline).await? {
                EngineMessage::UciOk => break,
                EngineMessage::Id { key, value } if key == "name" => engine.name = Some(value),
                EngineMessage::Option(option) => {
                    engine.options.insert(option.name.to_ascii_lowercase(), option);
                }
                _ => {}
            }
        }
        engine.state = State::Idle;
        Ok(engine)
    }

    /// The process id while it runs (tests kill it by this).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The name from `id name`.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// True when the engine advertised this option (case-insensitive).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.contains_key(&name.to_ascii_lowercase())
    }

    /// True between commands, when another search may use it.
    pub fn is_idle(&self) -> bool {
        self.state == State::Idle
    }

    pub fn session(&self) -> Option<u64> {
        self.session
    }

    async fn send(&mut self, command: &str) -> Result<(), EngineError> {
        // A line break would let one command smuggle in another.
        if command.contains(['\n', '\r']) {
            return Err(EngineError::Protocol("a command contained a line break".into()));
        }
        let write = async {
            self.stdin.write_all(command.as_bytes()).await?;
            self.stdin.write_all(b"\n").await?;
            self.stdin.flush().await
        };
        write
            .await
            .map_err(|e| EngineError::Died(format!("writing to the engine failed: {e}")))
    }

    /// Reads one line. Cancel-safe: `read_until` appends what it has read
    /// to `self.line` before a timeout drops it, and the line is cleared
    /// only once complete, so a search's poll timeouts lose nothing.
    async fn read(&mut self) -> Result<EngineMessage, EngineError> {
        let room = MAX_LINE_BYTES.saturating_sub(self.line.len() as u64);
        (&mut self.stdout)
            .take(room)
            .read_until(b'\n', &mut self.line)
            .await
            .map_err(|e| EngineError::Died(format!("reading from the engine failed: {e}")))?;
        if self.line.last() == Some(&b'\n') {
            let message = parse_line(&String::from_utf8_lossy(&self.line));
            self.line.clear();
            return Ok(message);
        }
        if self.line.len() as u64 >= MAX_LINE_BYTES {
            return Err(EngineError::Protocol(format!(
                "the engine wrote a line longer than {MAX_LINE_BYTES} bytes"
            )));
        }
        // read_until stops short of a line break only at the end of input.
        Err(EngineError::Died(
            "the engine closed its output (it exited or crashed)".into(),
        ))
    }

    async fn read_by(&mut self, deadline: Instant) -> Result<EngineMessage, EngineError> {
        match tokio::time::timeout_at(deadline.into(), self.read()).await {
            Ok(message) => message,
            Err(_) => Err(EngineError::Hung("the engine did not answer in time".into())),
        }
    }

    /// `isready` until `readyok`, within `timeout`; anything printed in
    /// between (a late `bestmove`, stray `info`) is discarded.
    pub async fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.state = State::Busy;
        self.send("isready").await?;
        let deadline = Instant::now() + timeout;
        while self.read_by(deadline).await? != EngineMessage::ReadyOk {}
        self.state = State::Idle;
        Ok(())
    }

    /// Sets an option the engine advertised. Names and values come from
    /// code, but are still checked: an unknown name is refused rather than
    /// passed on, and no line breaks get through.
    pub async fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        if !self.has_option(name) {
            return Err(EngineError::Protocol(format!(
                "the engine has no option named {name:?}"
            )));
        }
        self.send(&format!("setoption name {name} value {value}")).await
    }

    /// Brings the engine to the job's options and session: options from an
    /// earlier search go back to their defaults, a new session starts with
    /// `ucinewgame`, and `isready` confirms it all within `timeout`.
    pub async fn prepare(&mut self, job: &SearchJob, timeout: Duration) -> Result<(), EngineError> {
        self.state = State::Busy;
        let mut wanted = job.options.clone();
        if self.has_option("MultiPV") {
            wanted.push(("MultiPV".to_string(), job.multi_pv.max(1).to_string()));
        }
        let stale: Vec<String> = self
            .applied
            .iter()
            .filter(|(name, _)| !wanted.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
            .map(|(name, _)| name.clone())
            .collect();
        for name in stale {
            let default = self
                .options
                .get(&name.to_ascii_lowercase())
                .and_then(|o| o.default.clone())
                .unwrap_or_default();
            self.set_option(&name, &default).await?;
        }
        for (name, value) in &wanted {
            if !self.applied.iter().any(|(n, v)| n == name && v == value) {
                self.set_option(name, value).await?;
            }
        }
        self.applied = wanted;
        if job.session.is_none() || job.session != self.session {
            self.send(self.dialect.new_game()).await?;
        }
        self.session = job.session;
        self.sync(timeout).await
    }

    /// Runs one search: `position`, `go` with the time left in `limits`
    /// (less a margin) and the job's depth and the limits' node cap, then
    /// reads `info` lines until `bestmove`. Each completed depth goes to
    /// `on_depth`.
    ///
    /// When the deadline passes or `limits` is cancelled, `stop` is sent.
    /// If the `bestmove` is not back within `answer_wait`, the search
    /// answers from the last complete lines and leaves the engine busy
    /// (the pool lets it finish in the background): the caller's answer
    /// never waits on a slow engine past the deadline plus `answer_wait`.
    /// With no lines to answer from, it waits up to `grace` after `stop`
    /// before declaring the engine hung (the caller kills it).
    pub async fn search(
        &mut self,
        job: &SearchJob,
        limits: &SearchLimits,
        answer_wait: Duration,
        grace: Duration,
        on_depth: &mut (dyn FnMut(&DepthReport) + Send),
    ) -> Result<SearchOutput, EngineError> {
        self.state = State::Busy;
        let movetime = limits.remaining().saturating_sub(MOVETIME_MARGIN);
        let mut go = if movetime < MIN_MOVETIME {
            "go depth 1".to_string()
        } else {
            let mut go = format!("go movetime {}", movetime.as_millis());
            if let Some(depth) = job.depth {
                go.push_str(&format!(" depth {depth}"));
            }
            go
        };
        if limits.max_nodes() != u64::MAX {
            go.push_str(&format!(" nodes {}", limits.max_nodes()));
        }
        self.send(&format!("position {}", job.position)).await?;
        self.searching = true;
        self.send(&go).await?;

        let started = Instant::now();
        let mut collector = Collector::new(job.multi_pv.max(1));
        let mut stopped_at: Option<Instant> = None;
        loop {
            // No `stop` before the engine has an evaluation (depth 1, a
            // millisecond or two), unless it takes longer than `grace`.
            let floor_met = collector.has_lines() || started.elapsed() >= grace;
            if stopped_at.is_none() && limits.exhausted(0) && floor_met {
                self.send("stop").await?;
                stopped_at = Some(Instant::now());
            }
            let wake = match stopped_at {
                Some(at) if collector.has_lines() => at + answer_wait.min(grace),
                Some(at) => at + grace,
                None if limits.exhausted(0) => (started + grace).min(Instant::now() + POLL),
                None => limits.deadline().min(Instant::now() + POLL),
            };
            match tokio::time::timeout_at(wake.into(), self.read()).await {
                Ok(Ok(EngineMessage::Info(info))) => {
                    if let Some(report) = collector.add(info) {
                        on_depth(&report);
                    }
                }
                Ok(Ok(EngineMessage::BestMove { best, ponder })) => {
                    self.searching = false;
                    self.state = State::Idle;
                    return Ok(collector.finish(best, ponder, started.elapsed(), stopped_at.is_some()));
                }
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) if stopped_at.is_some() && collector.has_lines() => {
                    // Still `State::Busy`: the pool settles the engine.
                    let best = collector.first_move();
                    return Ok(collector.finish(best, None, started.elapsed(), true));
                }
                Err(_) if stopped_at.is_some() => {
                    return Err(EngineError::Hung(format!(
                        "no bestmove {} ms after stop",
                        grace.as_millis()
                    )))
                }
                // Quiet for a poll interval: loop to look at the limits.
                Err(_) => {}
            }
        }
    }

    /// After an abandoned search: `stop`, its `bestmove` within `grace`,
    /// then `isready` within `ready_timeout`, so that the engine can serve
    /// again.
    pub async fn recover(&mut self, grace: Duration, ready_timeout: Duration) -> Result<(), EngineError> {
        if self.searching {
            // Stockfish answers `isready` even mid-search: only the
            // `bestmove` says the search is over.
            self.send("stop").await?;
            let deadline = Instant::now() + grace;
            while !matches!(self.read_by(deadline).await?, EngineMessage::BestMove { .. }) {}
            self.searching = false;
        }
        self.sync(ready_timeout).await
    }

    /// Kills the process and reaps it (bounded: a process that survives
    /// SIGKILL for a second is left to `kill_on_drop`).
    pub async fn kill(mut self) {
        let _ = self.child.start_kill();
        let _ = tokio::time::timeout(Duration::from_secs(1), self.child.wait()).await;
    }
}

/// Gathers `info` lines into per-rank lines and completed depths.
///
/// An engine prints its MultiPV lines together, rank 1 first, at the end
/// of each iteration (and once more when stopped, with the ranks it did not
/// reach at the previous depth). Lines are therefore taken a whole print
/// (a batch) at a time: mixing ranks from two prints could show one move
/// twice.
struct Collector {
    multi_pv: u32,
    /// The print being read.
    batch: Vec<PvLine>,
    /// The last complete print.
    lines: Vec<PvLine>,
    last_complete: u32,
    nodes: u64,
    time_ms: u64,
}

impl Collector {
    fn new(multi_pv: u32) -> Self {
        Collector {
            multi_pv,
            batch: Vec::new(),
            lines: Vec::new(),
            last_complete: 0,
            nodes: 0,
            time_ms: 0,
        }
    }

    /// Takes one `info`; returns the depth it completed, if any. Bounds
    /// (aspiration-window fails) and lines without a score or a move are
    /// progress, not answers.
    fn add(&mut self, info: Info) -> Option<DepthReport> {
        self.nodes = self.nodes.max(info.nodes.unwrap_or(0));
        self.time_ms = self.time_ms.max(info.time_ms.unwrap_or(0));
        let (Some(depth), Some(score)) = (info.depth, info.score) else {
            return None;
        };
        if info.bound != Bound::Exact || info.pv.is_empty() {
            return None;
        }
        let multipv = info.multipv.unwrap_or(1);
        if multipv == 1 {
            self.batch.clear();
        }
        // Out of order (or beyond what was asked): not a print to trust.
        if multipv as usize != self.batch.len() + 1 || multipv > self.multi_pv {
            self.batch.clear();
            return None;
        }
        self.batch.push(PvLine {
            multipv,
            depth,
            seldepth: info.seldepth,
            score,
            pv: info.pv,
        });
        if self.batch.len() < self.multi_pv as usize {
            return None;
        }
        self.lines = std::mem::take(&mut self.batch);
        // A depth is complete when every rank reached it (a print after
        // `stop` mixes depths: its lines are kept, no depth is reported).
        let complete = depth > self.last_complete && self.lines.iter().all(|l| l.depth == depth);
        if !complete {
            return None;
        }
        self.last_complete = depth;
        Some(DepthReport {
            depth,
            nodes: self.nodes,
            time_ms: self.time_ms,
            lines: self.lines.clone(),
        })
    }

    fn has_lines(&self) -> bool {
        !self.lines.is_empty()
    }

    /// The first move of the best complete line.
    fn first_move(&self) -> Option<String> {
        self.lines.first().and_then(|l| l.pv.first().cloned())
    }

    fn finish(self, best: Option<String>, ponder: Option<String>, elapsed: Duration, stopped: bool) -> SearchOutput {
        let mut lines = self.lines;
        // A line whose depth was left unfinished by `stop` may rank above a
        // deeper one; the engine's bestmove is what counts, so its line
        // goes first when the ranks disagree.
        if let Some(best) = &best {
            if let Some(i) = lines.iter().position(|l| l.pv.first() == Some(best)) {
                if i != 0 {
                    let line = lines.remove(i);
                    lines.insert(0, line);
                }
            }
        }
        SearchOutput {
            best_move: best,
            ponder,
            depth: self.last_complete,
            nodes: self.nodes,
            time_ms: self.time_ms.max(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)),
            lines,
            stopped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_info_line_with_score_bound_and_pv() {
        let line = "info depth 12 seldepth 17 multipv 2 score cp -31 upperbound nodes 123456 nps 999 hashfull 12 tbhits 0 time 88 pv e7e5 g1f3 b8c6";
        let EngineMessage::Info(info) = parse_line(line) else {
            panic!("not an info line");
        };
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(17));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some(Score::Cp(-31)));
        assert_eq!(info.bound, Bound::Upper);
        assert_eq!(info.nodes, Some(123456));
        assert_eq!(info.time_ms, Some(88));
        assert_eq!(info.pv, vec!["e7e5", "g1f3", "b8c6"]);
    }

    #[test]
    fn reads_mate_scores_and_skips_junk() {
        let EngineMessage::Info(info) =
            parse_line("info depth x score mate -3 wdl 0 0 1000 bogus pv h7h8q b\u{0}1 a1a2")
        else {
            panic!("not an info line");
        };
        assert_eq!(info.depth, None);
        assert_eq!(info.score, Some(Score::Mate(-3)));
        assert_eq!(info.pv, vec!["h7h8q"]);
        assert!(matches!(
            parse_line("info score cp"),
            EngineMessage::Info(Info { score: None, .. })
        ));
        assert_eq!(parse_line("garbage"), EngineMessage::Other);
        assert_eq!(parse_line(""), EngineMessage::Other);
    }

    #[test]
    fn reads_bestmove_with_and_without_a_move() {
        assert_eq!(
            parse_line("bestmove e2e4 ponder e7e5"),
            EngineMessage::BestMove {
                best: Some("e2e4".into()),
                ponder: Some("e7e5".into())
            }
        );
        assert_eq!(
            parse_line("bestmove (none)"),
            EngineMessage::BestMove {
                best: None,
                ponder: None
            }
        );
    }

    #[test]
    fn reads_options_with_spaces_in_names_and_defaults() {
        assert_eq!(
            parse_line("option name Skill Level type spin default 20 min 0 max 20"),
            EngineMessage::Option(EngineOption {
                name: "Skill Level".into(),
                kind: "spin".into(),
                default: Some("20".into())
            })
        );
        assert_eq!(
            parse_line("option name Debug Log File type string default "),
            EngineMessage::Option(EngineOption {
                name: "Debug Log File".into(),
                kind: "string".into(),
                default: Some(String::new())
            })
        );
        assert_eq!(
            parse_line("option name Clear Hash type button"),
            EngineMessage::Option(EngineOption {
                name: "Clear Hash".into(),
                kind: "button".into(),
                default: None
            })
        );
    }

    #[test]
    fn a_depth_completes_once_every_line_reports_it() {
        let mut c = Collector::new(2);
        let info = |depth, multipv, cp: i32| Info {
            depth: Some(depth),
            multipv: Some(multipv),
            score: Some(Score::Cp(cp)),
            nodes: Some(10 * u64::from(depth)),
            pv: vec!["e2e4".into()],
            ..Info::default()
        };
        assert_eq!(c.add(info(1, 1, 30)), None);
        let report = c.add(info(1, 2, 10)).map(|r| (r.depth, r.lines.len()));
        assert_eq!(report, Some((1, 2)));
        let bounded = Info {
            bound: Bound::Lower,
            ..info(2, 1, 50)
        };
        assert_eq!(c.add(bounded), None);
        assert_eq!(c.add(info(2, 1, 40)), None);
        assert_eq!(c.add(info(2, 2, 5)).map(|r| r.depth), Some(2));
        // The print after `stop`: rank 1 at depth 3, rank 2 still at 2.
        // Its lines replace the old ones together; no depth completes.
        let mut stopped = info(3, 1, 45);
        stopped.pv = vec!["d2d4".into()];
        assert_eq!(c.add(stopped), None);
        assert_eq!(c.add(info(2, 2, 5)), None);
        // A rank out of order is not trusted.
        assert_eq!(c.add(info(4, 2, 5)), None);
        let out = c.finish(Some("d2d4".into()), None, Duration::ZERO, true);
        assert_eq!(out.depth, 2);
        assert_eq!(out.nodes, 40);
        let firsts: Vec<&str> = out.lines.iter().map(|l| l.pv[0].as_str()).collect();
        assert_eq!(firsts, ["d2d4", "e2e4"]);
    }
}
