//! Pig's answers: the decision at one position (`POST /pig/decision`, read
//! and written by hand on its hot path) and the whole policy of a table
//! (`GET /pig/policy`), with the cache of policies written out.

use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::settings::POLICY_BYTES;
use super::solve::{ActionRange, PigTable};
use super::tables::cache::TableWorkerError;
use super::tables::shared_tables;
use super::{rules_of, Action, PigError, PigPosition, PigRules};
use crate::core::evaluation::Evaluation;
use crate::core::outcome::Outcome;
use crate::core::problem::Problem;
use crate::serve::{KeptBody, Services};
use crate::solve::memo::BoundedMemo;

/// The rules' errors: what the request got wrong, in the rules' own words.
impl From<PigError> for Problem {
    fn from(e: PigError) -> Self {
        Self::unprocessable(e.to_string())
    }
}

impl From<TableWorkerError> for Problem {
    fn from(e: TableWorkerError) -> Self {
        Self::internal(&e)
    }
}

#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub struct DecisionRequest {
    my_score: i64,
    opponent_score: i64,
    turn_total: i64,
    // Options, not serde defaults: an explicit null means "the default" too.
    goal: Option<i64>,
    die_sides: Option<i64>,
    variant: Option<String>,
}

/// A reader for the plain form of a decision request: an object of the
/// known fields, each at most once, with integers of at most 18 digits
/// (no sign, fraction or exponent), `null` for an option and strings of
/// printable ASCII without escapes. Whatever it accepts, serde_json reads
/// to the same request; it gives up (None) on anything else, without
/// deciding whether that is an error.
pub(super) mod plain {
    use super::DecisionRequest;

    const MY_SCORE: u8 = 1;
    const OPPONENT_SCORE: u8 = 2;
    const TURN_TOTAL: u8 = 4;
    const REQUIRED: u8 = MY_SCORE | OPPONENT_SCORE | TURN_TOTAL;
    const GOAL: u8 = 8;
    const DIE_SIDES: u8 = 16;
    const VARIANT: u8 = 32;

    pub fn decision(bytes: &[u8]) -> Option<DecisionRequest> {
        let mut r = Reader { bytes, at: 0 };
        let mut request = DecisionRequest {
            my_score: 0,
            opponent_score: 0,
            turn_total: 0,
            goal: None,
            die_sides: None,
            variant: None,
        };
        let mut seen = 0u8;
        r.skip_whitespace();
        r.expect(b'{')?;
        loop {
            r.skip_whitespace();
            let field = match r.key()? {
                b"my_score" => MY_SCORE,
                b"opponent_score" => OPPONENT_SCORE,
                b"turn_total" => TURN_TOTAL,
                b"goal" => GOAL,
                b"die_sides" => DIE_SIDES,
                b"variant" => VARIANT,
                _ => return None,
            };
            // serde refuses a field given twice.
            if seen & field != 0 {
                return None;
            }
            seen |= field;
            r.skip_whitespace();
            r.expect(b':')?;
            r.skip_whitespace();
            match field {
                MY_SCORE => request.my_score = r.integer()?,
                OPPONENT_SCORE => request.opponent_score = r.integer()?,
                TURN_TOTAL => request.turn_total = r.integer()?,
                GOAL => request.goal = r.option(Reader::integer)?,
                DIE_SIDES => request.die_sides = r.option(Reader::integer)?,
                _ => request.variant = r.option(Reader::string)?,
            }
            r.skip_whitespace();
            match r.next()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
        r.skip_whitespace();
        (r.at == bytes.len() && seen & REQUIRED == REQUIRED).then_some(request)
    }

    struct Reader<'a> {
        bytes: &'a [u8],
        at: usize,
    }

    impl<'a> Reader<'a> {
        fn peek(&self) -> Option<u8> {
            self.bytes.get(self.at).copied()
        }

        fn next(&mut self) -> Option<u8> {
            let byte = self.peek()?;
            self.at += 1;
            Some(byte)
        }

        fn expect(&mut self, byte: u8) -> Option<()> {
            (self.next()? == byte).then_some(())
        }

        /// JSON's four whitespace bytes, as serde_json skips them.
        fn skip_whitespace(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
                self.at += 1;
            }
        }

        /// A string's bytes between its quotes: printable ASCII, no escape.
        fn quoted(&mut self) -> Option<&'a [u8]> {
            self.expect(b'"')?;
            let start = self.at;
            loop {
                match self.next()? {
                    b'"' => return self.bytes.get(start..self.at - 1),
                    b'\\' => return None,
                    0x20..=0x7e => {}
                    _ => return None,
                }
            }
        }

        fn key(&mut self) -> Option<&'a [u8]> {
            self.quoted()
        }

        fn string(&mut self) -> Option<String> {
            self.quoted()
                .and_then(|s| std::str::from_utf8(s).ok())
                .map(str::to_owned)
        }

        /// `0` or a digit 1-9 and at most 17 more: no leading zero (serde
        /// refuses it), no sign, and never past `i64::MAX`. A fraction or
        /// exponent after it is left for the caller, who gives up on it.
        fn integer(&mut self) -> Option<i64> {
            let first = self.next()?;
            let mut value = match first {
                b'0' => return Some(0),
                b'1'..=b'9' => i64::from(first - b'0'),
                _ => return None,
            };
            let mut digits = 1;
            while let Some(byte @ b'0'..=b'9') = self.peek() {
                digits += 1;
                if digits > 18 {
                    return None;
                }
                value = value * 10 + i64::from(byte - b'0');
                self.at += 1;
            }
            Some(value)
        }

        fn option<T>(&mut self, read: fn(&mut Self) -> Option<T>) -> Option<Option<T>> {
            if self.bytes.get(self.at..self.at + 4) == Some(b"null") {
                self.at += 4;
                return Some(None);
            }
            read(self).map(Some)
        }
    }
}

#[derive(Serialize)]
pub struct DecisionResponse {
    action: &'static str,
    win_probability: f64,
    roll_win_probability: f64,
    hold_win_probability: f64,
    hold_at: Option<u32>,
    my_score: u32,
    opponent_score: u32,
    turn_total: u32,
    goal: u32,
    die_sides: u32,
    variant: &'static str,
    /// The win probability on the one scale: exact, as the table is.
    evaluation: Evaluation,
}

impl DecisionResponse {
    /// The JSON serde_json writes for this answer (a test compares them
    /// byte for byte), written straight into one buffer: the route's hot
    /// path skips the generic serializer's key escaping. The numbers are
    /// formatted first so that the buffer is allocated at its exact length:
    /// a `Vec` whose length is its capacity becomes the response's `Bytes`
    /// without a second allocation. The win probability is one of the two
    /// action values, so its digits are usually copied, not formatted again.
    pub fn to_json(&self) -> Vec<u8> {
        let mut roll_buffer = ryu::Buffer::new();
        let mut hold_buffer = ryu::Buffer::new();
        let mut win_buffer = ryu::Buffer::new();
        let roll = probability(&mut roll_buffer, self.roll_win_probability);
        let hold = probability(&mut hold_buffer, self.hold_win_probability);
        let win = match self.win_probability.to_bits() {
            bits if bits == self.roll_win_probability.to_bits() => roll,
            bits if bits == self.hold_win_probability.to_bits() => hold,
            _ => probability(&mut win_buffer, self.win_probability),
        };
        let mut hold_at_buffer = itoa::Buffer::new();
        let hold_at = match self.hold_at {
            Some(at) => hold_at_buffer.format(at).as_bytes(),
            None => b"null",
        };
        let mut chance_buffer = ryu::Buffer::new();
        let chance = match self.evaluation.win_chance.to_bits() {
            bits if bits == self.win_probability.to_bits() => win,
            _ => probability(&mut chance_buffer, self.evaluation.win_chance),
        };
        let outcome: &[u8] = match self.evaluation.outcome {
            Some(Outcome::Win) => b"\"win\"",
            Some(Outcome::Draw) => b"\"draw\"",
            Some(Outcome::Loss) => b"\"loss\"",
            None => b"null",
        };
        let exact: &[u8] = if self.evaluation.exact { b"true" } else { b"false" };
        let mut counts = [itoa::Buffer::new(); 6];
        let [my_score, opponent_score, turn_total, goal, die_sides, plies] = &mut counts;
        let plies_to_end = match self.evaluation.plies_to_end {
            Some(n) => plies.format(n).as_bytes(),
            None => b"null",
        };
        // Both names are fixed ASCII words: nothing to escape.
        let pieces: [&[u8]; 31] = [
            b"{\"action\":\"",
            self.action.as_bytes(),
            b"\",\"win_probability\":",
            win,
            b",\"roll_win_probability\":",
            roll,
            b",\"hold_win_probability\":",
            hold,
            b",\"hold_at\":",
            hold_at,
            b",\"my_score\":",
            my_score.format(self.my_score).as_bytes(),
            b",\"opponent_score\":",
            opponent_score.format(self.opponent_score).as_bytes(),
            b",\"turn_total\":",
            turn_total.format(self.turn_total).as_bytes(),
            b",\"goal\":",
            goal.format(self.goal).as_bytes(),
            b",\"die_sides\":",
            die_sides.format(self.die_sides).as_bytes(),
            b",\"variant\":\"",
            self.variant.as_bytes(),
            b"\",\"evaluation\":{\"win_chance\":",
            chance,
            b",\"outcome\":",
            outcome,
            b",\"exact\":",
            exact,
            b",\"plies_to_end\":",
            plies_to_end,
            b"}}",
        ];
        let mut out = Vec::with_capacity(pieces.iter().map(|p| p.len()).sum());
        for piece in pieces {
            out.extend_from_slice(piece);
        }
        out
    }
}

/// serde_json's way with a float: its shortest digits, or `null` when it
/// is not finite.
fn probability(buffer: &mut ryu::Buffer, value: f64) -> &[u8] {
    if value.is_finite() {
        buffer.format_finite(value).as_bytes()
    } else {
        b"null"
    }
}

/// The answer to a decision request, for the route and for a batch.
pub async fn decide(state: &Services, request: DecisionRequest) -> Result<DecisionResponse, Problem> {
    let rules = rules_of(
        request.goal,
        request.die_sides,
        request.variant.as_deref(),
        state.config.games.of::<super::settings::PigSettings>().max_goal,
    )?;
    let position = PigPosition::new(&rules, request.my_score, request.opponent_score, request.turn_total)?;
    // A default table is read in place, without the cache's lock or an
    // `Arc` to count up and down.
    let fetched;
    let tables = shared_tables(&state.solvers);
    let table = match tables.loaded_pinned(&rules) {
        Some(table) => table,
        None => {
            fetched = table(state, rules).await?;
            &fetched
        }
    };
    let d = table.decide(&position);
    Ok(DecisionResponse {
        action: d.action.as_str(),
        win_probability: d.win_probability,
        roll_win_probability: d.roll_win_probability,
        hold_win_probability: d.hold_win_probability,
        hold_at: d.hold_at,
        my_score: position.my_score,
        opponent_score: position.opponent_score,
        turn_total: position.turn_total,
        goal: rules.goal(),
        die_sides: rules.die_sides(),
        variant: rules.variant().as_str(),
        evaluation: Evaluation::chance(d.win_probability, true),
    })
}

#[derive(Serialize)]
pub struct PolicyCell {
    roll: Vec<[u32; 2]>,
    hold: Vec<[u32; 2]>,
}

#[derive(Serialize)]
pub struct PolicyResponse {
    goal: u32,
    die_sides: u32,
    variant: &'static str,
    /// `policy[my_score][opponent_score]`: inclusive turn-total ranges.
    policy: Vec<Vec<PolicyCell>>,
}

fn cell(ranges: &[ActionRange]) -> PolicyCell {
    let pick = |action| {
        ranges
            .iter()
            .filter(|r| r.action == action)
            .map(|r| [r.from, r.to])
            .collect()
    };
    PolicyCell {
        roll: pick(Action::Roll),
        hold: pick(Action::Hold),
    }
}

/// The table for `rules`: from memory when it is there; otherwise solved
/// under the search pool's admission, like any search (a bounded wait for a
/// worker, then 503 with Retry-After), so that a flood of distinct rules
/// queues at the door for a bounded time instead of behind the table
/// solver until the request timeout.
async fn table(state: &Services, rules: PigRules) -> Result<Arc<PigTable>, Problem> {
    let tables = shared_tables(&state.solvers);
    if let Some(table) = tables.cached(&rules) {
        return Ok(table);
    }
    let _permit = state.search_pool.enter().await?;
    Ok(tables.get(rules).await?)
}

/// Policies already written out, by rules: one is up to 1.3 MB of JSON
/// (goal 200) and ~50 ms of CPU to write, kept with its gzip form.
pub struct PolicyCache {
    /// None when the configured capacity is 0.
    bodies: Option<BoundedMemo<PigRules, KeptBody>>,
}

impl PolicyCache {
    /// Room for `capacity` policies of the largest size
    /// ([`POLICY_BYTES`]), each counted by what it holds (its JSON and
    /// its gzip form), so that more smaller ones fit.
    pub fn new(capacity: usize) -> Self {
        Self {
            bodies: (capacity > 0)
                .then(|| BoundedMemo::by_bytes(capacity.max(2) * POLICY_BYTES, |_, body: &KeptBody| body.len())),
        }
    }

    pub fn get(&self, rules: &PigRules) -> Option<KeptBody> {
        self.bodies.as_ref()?.get(rules)
    }

    pub fn offer(&self, rules: PigRules, body: &KeptBody) {
        if let Some(bodies) = &self.bodies {
            bodies.insert(rules, body.clone());
        }
    }
}

/// The policy of the table for `rules`, written out as its JSON body and
/// compressed: solved if needed, written and compressed under one search
/// permit, off the async threads.
pub async fn policy_body(services: &Services, rules: PigRules) -> Result<KeptBody, Problem> {
    let _permit = services.search_pool.enter().await?;
    let table = shared_tables(&services.solvers).get(rules).await?;
    tokio::task::spawn_blocking(move || {
        let goal = table.rules().goal();
        let response = PolicyResponse {
            goal,
            die_sides: rules.die_sides(),
            variant: rules.variant().as_str(),
            policy: (0..goal)
                .map(|i| (0..goal).map(|j| cell(&table.policy_ranges(i, j))).collect())
                .collect(),
        };
        serde_json::to_vec(&response).map(|json| KeptBody::compressed(Bytes::from(json)))
    })
    .await
    .map_err(|e| Problem::internal(&e))?
    .map_err(|e| Problem::internal(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pig::solve::solve;
    use crate::games::pig::Variant;

    /// The hand-written answer is exactly serde_json's, for every state of
    /// small tables of both variants and for odd values (a missing
    /// `hold_at`, extremes of the probabilities).
    #[test]
    fn the_written_answer_is_serde_jsons_byte_for_byte() {
        let mut answers = Vec::new();
        for variant in [Variant::Standard, Variant::Progressive] {
            let rules = PigRules::new(20, 6, variant, 200).unwrap();
            let table = solve(&rules);
            for i in 0..20 {
                for j in 0..20 {
                    for k in 0..(20 - i) {
                        let position = PigPosition::new(&rules, i64::from(i), i64::from(j), i64::from(k)).unwrap();
                        let d = table.decide(&position);
                        answers.push(DecisionResponse {
                            action: d.action.as_str(),
                            win_probability: d.win_probability,
                            roll_win_probability: d.roll_win_probability,
                            hold_win_probability: d.hold_win_probability,
                            hold_at: d.hold_at,
                            my_score: i,
                            opponent_score: j,
                            turn_total: k,
                            goal: rules.goal(),
                            die_sides: rules.die_sides(),
                            variant: rules.variant().as_str(),
                            evaluation: Evaluation::chance(d.win_probability, true),
                        });
                    }
                }
            }
        }
        // The win probability equal to neither action value, to the roll
        // value and to the hold value; non-finite values too.
        let cases = [
            (0.0, 0.1 + 0.2, 1.0 / 3.0, None),
            (1.0, 0.1 + 0.2, 1.0 / 3.0, Some(u32::MAX)),
            (1e-300, 0.1 + 0.2, 1.0 / 3.0, Some(0)),
            (f64::NAN, 0.1 + 0.2, 1.0 / 3.0, None),
            (0.1 + 0.2, 0.1 + 0.2, 1.0 / 3.0, Some(3)),
            (1.0 / 3.0, 0.1 + 0.2, 1.0 / 3.0, Some(4)),
            (f64::INFINITY, f64::INFINITY, f64::NAN, None),
            (-0.0, 0.0, -0.0, None),
        ];
        for (win, roll, hold, hold_at) in cases {
            answers.push(DecisionResponse {
                action: "roll",
                win_probability: win,
                roll_win_probability: roll,
                hold_win_probability: hold,
                hold_at,
                my_score: 0,
                opponent_score: u32::MAX,
                turn_total: 7,
                goal: 1000,
                die_sides: 2,
                variant: "progressive",
                evaluation: Evaluation {
                    plies_to_end: hold_at,
                    ..Evaluation::chance(win, hold_at.is_some())
                },
            });
        }
        for answer in &answers {
            let expected = serde_json::to_vec(answer).unwrap();
            assert_eq!(
                String::from_utf8(answer.to_json()).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
        assert!(answers.len() > 400);
    }

    /// Every body the plain reader accepts, serde_json reads to the same
    /// request: bodies made of right and wrong pieces (spacing, order,
    /// nulls, numbers serde refuses, escapes, unknown and repeated fields).
    #[test]
    fn the_plain_reader_agrees_with_serde() {
        let keys = [
            "\"my_score\"",
            "\"opponent_score\"",
            "\"turn_total\"",
            "\"goal\"",
            "\"die_sides\"",
            "\"variant\"",
            "\"other\"",
            "\"my\\u005fscore\"",
            "\"Goal\"",
            "my_score",
        ];
        let values = [
            "0",
            "7",
            "37",
            "100",
            "00",
            "012",
            "-0",
            "-5",
            "1.0",
            "1e2",
            "2E1",
            "999999999999999999",
            "9223372036854775807",
            "9223372036854775808",
            "99999999999999999999",
            "null",
            "nul",
            "true",
            "\"standard\"",
            "\"progressive\"",
            "\"stand\\u0061rd\"",
            "\"st\u{e9}\"",
            "\"a\tb\"",
            "\"\"",
            "[]",
            "{}",
        ];
        // A form feed is not JSON whitespace: picked rarely.
        let space = |r: usize| {
            if r == 0 {
                "\u{c}"
            } else {
                ["", " ", "\n", "\t", "\r\n  "][r % 5]
            }
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut pick = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut accepted, mut total) = (0, 0);
        for _ in 0..100_000 {
            let mut body = String::from(space(pick(150)));
            body.push('{');
            let fields = 2 + pick(6);
            for f in 0..fields {
                if f > 0 {
                    body.push_str(if pick(30) == 0 { ";" } else { "," });
                }
                body.push_str(space(pick(150)));
                // Mostly the known fields, in order, with fitting values.
                let key = if pick(10) == 0 { pick(keys.len()) } else { f % 6 };
                body.push_str(keys[key]);
                body.push_str(space(pick(150)));
                body.push(':');
                body.push_str(space(pick(150)));
                let value = match (pick(8), key) {
                    (0, _) => values[pick(values.len())],
                    (_, 5) => ["\"standard\"", "\"progressive\"", "null"][pick(3)],
                    (_, 3 | 4) => ["null", "6", "100", "2"][pick(4)],
                    _ => values[pick(4)],
                };
                body.push_str(value);
                body.push_str(space(pick(150)));
            }
            if pick(20) != 0 {
                body.push('}');
            }
            body.push_str([space(pick(150)), "x", "}"][pick(3).min(pick(3))]);
            total += 1;
            if let Some(request) = plain::decision(body.as_bytes()) {
                accepted += 1;
                let by_serde: DecisionRequest =
                    serde_json::from_slice(body.as_bytes()).unwrap_or_else(|e| panic!("serde refuses {body:?}: {e}"));
                assert_eq!(request, by_serde, "{body}");
            }
        }
        // Enough of both kinds to mean something.
        assert!(accepted > total / 20, "{accepted} of {total}");
        assert!(accepted < total / 2, "{accepted} of {total}");
        for body in [
            r#"{"my_score": 37, "opponent_score": 54, "turn_total": 12}"#,
            r#"{"turn_total":0,"goal":null,"my_score":0,"die_sides":6,"opponent_score":99,"variant":"progressive"}"#,
        ] {
            assert!(plain::decision(body.as_bytes()).is_some(), "{body}");
        }
    }
}
