//! GNU Backgammon (gnubg) as an evaluator: every legal play for a roll
//! ranked with its equity and chances, cube decisions, and a position's
//! value before rolling.
//!
//! gnubg is GPL and kibitz MIT, so kibitz only ever *runs* it, as a
//! separate process (Debian's `gnubg` package, `/usr/games/gnubg`), and
//! speaks to it through its own script, `bridge.py` (kibitz's code, MIT,
//! shipped inside the binary with `include_str!` and written to a private
//! temporary directory at first use). gnubg runs it in its embedded Python
//! (`gnubg -t -q -r -s DIR -p bridge.py`), where `import gnubg` gives its
//! evaluator; one long-lived process answers many questions.
//!
//! This layer speaks in gnubg's own terms (Position IDs, the mover's point
//! numbers) and returns plain data ([`protocol`]); the rules, the
//! contract's board JSON and the HTTP shapes are the game layer's.
//!
//! # Conventions (checked against gnubg 1.07 on this project's machine)
//!
//! - **Position ID.** gnubg's board is two arrays of 25 counts, each side
//!   counted from its own ace point (index 0 = its point 1, index 24 = its
//!   bar). `positionfromid` returns `(opponent, side on roll)`: the side
//!   on roll is the *second* array, and the ID encodes the opponent's
//!   checkers first (checked: a checker of the second array sent to the
//!   bar changes the ID's end, `4HPwATDgc/ABMA` → `4HPwATDgc/ABUA`, and
//!   gnubg's hints for that ID enter from the bar; after gnubg's own 8/3
//!   6/3 in a game its ID's beginning changed, the mover's part, now the
//!   first array since the turn passed). The start is `4HPwATDgc/ABMA`.
//!   The ID does not say who is on roll: the request does (always the side
//!   that moves or decides on the cube). The borne-off checkers are the
//!   ones missing from 15. The bridge refuses IDs that are not 14 base64
//!   characters or do not re-encode to themselves (gnubg's decoder accepts
//!   nearly anything, even an empty string), sides with more than 15 or no
//!   checkers, and points held by both sides.
//! - **Perspective.** `evaluate`/`cfevaluate` answer for the side on roll
//!   (the second array): with its 15 checkers home against an opponent's
//!   far back, win and gammon are 1.0; swapped, lose gammon is 1.0. A
//!   play's figures are the mover's, after the play: the 2-ply
//!   evaluation of the position after 8/5 6/5 with the opponent on roll
//!   is exactly the play's, negated and with the chances mirrored.
//! - **Position after a play** ([`Play::position_after`]) is the Position
//!   ID with the *opponent on roll*, as gnubg shows it once a move is
//!   made (8/5 6/5 from the start gives `sGfwATDgc/ABMA`).
//! - **Probabilities** are cumulative as gnubg gives them: `win_gammon`
//!   includes the backgammons.
//! - **Equities** are normalized to the cube's value (+1: a single game
//!   won at the current cube): owning a 2-cube shows as a higher equity,
//!   not a doubled one. In match play gnubg gives normalized match
//!   equities (EMG), and the bridge adds the mover's match-winning chance
//!   (`mwc`, gnubg's `eq2mwc`); cubeless equities use the score's gammon
//!   prices (checked: the bridge's formula matches gnubg's `evaluate` to
//!   1e-7 at 5-0 to 7). A money game plays without the Jacoby rule and
//!   without beavers unless the request turns them on.
//! - **Cube decisions** come from `cfevaluate`, whose code the bridge maps
//!   to the contract's action/response (a redouble not taken is
//!   `no_double`; "too good" keeps `no_double` with `too_good`; a cube the
//!   side on roll may not turn is `available: false` with no response).
//!
//! # The bridge protocol
//!
//! gnubg's banner comes first (kibitz keeps its `GNU Backgammon x.y` line
//! as the version and skips the rest), then `{"ready":true,"protocol":1}`.
//! The bridge sends gnubg's own output (file descriptor 1) to /dev/null,
//! so after `ready` every line is an answer. Each request is one JSON
//! line:
//!
//! ```text
//! {"id":7,"op":"move","position":"4HPwATDgc/ABMA","dice":[3,1],
//!  "cube":{"value":1,"owner":"centre"},"rules":{"jacoby":false,"beavers":false},
//!  "match":{"length":7,"score":{"me":0,"opponent":2},"crawford":false},
//!  "plies":2,"noise":0.0}
//! ```
//!
//! (`match` absent: a money game; `op` is `move`, `cube`, `evaluate` or
//! `ping`; `dice` only for `move`.) Each answer is one line,
//! `{"id":7,"ok":{...}}` with the fields of [`MoveAnalysis`],
//! [`CubeDecision`] or [`Evaluation`], or `{"id":7,"error":"invalid",
//! "message":...}` for a request at fault (the process stays), or
//! `"error":"internal"` (the process is killed, gnubg's state being in
//! doubt).
//!
//! `move` uses gnubg's `hint` on the position set with `set gnubgid`
//! (the Match ID built by gnubg's `matchid` from the cube and score): it
//! lists every legal play, as distinct resulting positions, from gnubg's
//! own move generator (checked: 16 for the opening 3-1, 73 for 3-3; the
//! tests count them independently). gnubg's move filter evaluates all at
//! 0-ply and only the best few deeper; the bridge sets it so that the two
//! best always go deeper (gnubg's default stops at 0-ply when one play
//! stands out, which would leave the chosen play's equity at 0-ply), then
//! up to 8 more within 0.16, and for 3-ply up to 2 more within 0.04.
//! Each play says its depth. `cube` and `evaluate` use `cfevaluate` and
//! `evaluate` at the request's depth.
//!
//! # Depth and time
//!
//! Measured on this project's 2-core VM, shared with other work, by the
//! ignored test `timings` in `src/games/backgammon/tests/gnubg.rs` (kibitz a test
//! build; the time is gnubg's own, which kibitz's build does not change):
//!
//! | question                     | 0-ply  | 1-ply | 2-ply         | 3-ply       |
//! |------------------------------|--------|-------|---------------|-------------|
//! | `move`, opening 3-1 (16)     | 10 ms  | 10 ms | 50-100 ms     | 0.5-1.6 s   |
//! | `move`, opening 3-3 (73)     | 11 ms  | 11 ms | 0.3-0.36 s    | 0.8-1.1 s   |
//! | `cube`, opening              | < 1 ms | 11 ms | 50 ms         | 0.7 s       |
//!
//! Start-up, from spawn to the bridge's `ready`, about 0.15-0.2 s. No
//! `move` is quicker than about 10 ms: gnubg's embedded Python waits on
//! its evaluation threads with a 10 ms poll (the same floor holds for
//! each `evaluate` call, which is why the bridge uses `hint`, one call for
//! every play, instead of evaluating each play itself). A double in a
//! middle game takes longer than the opening's at 2- and 3-ply.
//!
//! The request's time budget picks the depth
//! ([`protocol::plies_for_budget`]: 0-ply under 100 ms, 1-ply under 0.9 s,
//! 2-ply under 8 s, 3-ply from 8 s), a level's own depth being a
//! ceiling; the budget left once a process is in hand counts (waiting
//! and a cold start are the budget's too). An answer later than the
//! budget plus the pool's grace (5 s by default) kills the process.

pub mod pool;
mod process;
pub mod protocol;

pub use pool::{GnubgConfig, GnubgPool, INSTALL_HINT};
pub use process::MAX_ANSWER_BYTES;
pub use protocol::{
    plies_for_budget, CheckerMove, Cube, CubeAction, CubeDecision, CubeEquities, CubeOwner, CubeResponse, Evaluation,
    MatchState, MoveAnalysis, Play, PositionClass, Probabilities, Situation, Strength, BAR, MAX_PLIES, OFF,
};

use crate::engines::EngineError;

/// What can go wrong with a question to gnubg.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GnubgError {
    /// The question is at fault (a bad Position ID, dice, cube or score):
    /// a 422 for the HTTP layer. The process is kept.
    #[error("{0}")]
    Invalid(String),
    /// No gnubg, every process busy, or a process that failed (already
    /// replaced): as for the chess engines.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl GnubgError {
    /// Seconds a client should wait before retrying, where retrying makes
    /// sense.
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            GnubgError::Invalid(_) => None,
            GnubgError::Engine(e) => e.retry_after_secs(),
        }
    }
}
