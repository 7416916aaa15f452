// Backgammon rules for the analysis board: the person plays both seats of a
// money game or a match to N points (options.match_length, 0 for money).
//
// A position is {board, phase, turn, dice, cube, length, score, crawford,
// last}. `board` is the match API's {points: [24], bar: {me, opponent},
// off: {me, opponent}} seen from the first player's seat ("me": White, at
// the bottom, moving 24 -> 1); the second player (Red) moves the other way,
// its point p being White's 25 - p. `phase` says what happens next:
//   opening  the opening roll (chance: two different dice, face 10a + b,
//            a White's die, b Red's; the higher die plays both);
//   decide   `turn` may double: {roll: true} or {double: true};
//   roll     `turn`'s dice are thrown (chance: face 10 * high + low);
//   play     `turn` plays `dice` ([high, low]): {play: [{from, to}, ...]}
//            in the mover's own numbering, "bar" and "off" at the ends;
//   respond  `turn` doubled: the other side {take: true} or {pass: true};
//   over     the money game or the match is over.
// The moves are the match's own JSON, so a match's history replays here and
// a line's moves are what a match would send. Chance moves are thrown by
// the board (`complete`) and keep their faces, so a line replays exactly.

const SIDES = ["first", "second"];
const OTHER = { first: "second", second: "first" };
const NAMES = { first: "White", second: "Red" };
const CHECKERS = 15;
const BAR = 25; // a step's `from` on the bar, in the mover's numbering
const OFF = 0; // a step's `to` when borne off
// The largest cube (as the server's rules): no real game gets near it.
const MAX_CUBE = 4096;
const MAX_MATCH = 64;

// White's 2 on 24, 5 on 13, 3 on 8, 5 on 6; Red's the same from its side.
const START_POINTS = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2];

// ---- the board ------------------------------------------------------------

const newBoard = () => ({ points: [...START_POINTS], bar: { me: 0, opponent: 0 }, off: { me: 0, opponent: 0 } });

// The same board from the other seat: its points reversed and negated.
function flip(b) {
  return {
    points: b.points.map((_, i) => -b.points[23 - i] || 0),
    bar: { me: b.bar.opponent, opponent: b.bar.me },
    off: { me: b.off.opponent, opponent: b.off.me },
  };
}
const viewOf = (b, side) => (side === "second" ? flip(b) : b);
const copy = (b) => ({ points: [...b.points], bar: { ...b.bar }, off: { ...b.off } });
const keyOf = (b) => `${b.points.join(",")}|${b.bar.me},${b.bar.opponent}|${b.off.me},${b.off.opponent}`;

// Moves one of the mover's checkers (the board is the mover's view) from
// `from` (1..24 or BAR) by `die`, if the rules allow it: {board, step}, or
// null. Entering and moving land on a point the opponent does not hold
// (2+ checkers), hitting a lone one to the bar; bearing off needs every
// checker home, and a larger die only from the highest occupied point.
function singleStep(b, from, die) {
  const onBar = b.bar.me > 0;
  if ((from === BAR) !== onBar) return null;
  if (from !== BAR && !(b.points[from - 1] > 0)) return null;
  const to = from - die;
  const next = copy(b);
  if (from === BAR) next.bar.me -= 1;
  else next.points[from - 1] -= 1;
  if (to >= 1) {
    if (b.points[to - 1] < -1) return null;
    const hit = b.points[to - 1] === -1;
    if (hit) {
      next.points[to - 1] = 0;
      next.bar.opponent += 1;
    }
    next.points[to - 1] += 1;
    return { board: next, step: { from, to, hit } };
  }
  const allHome = b.points.slice(6).every((n) => n <= 0);
  const highest = to === 0 || b.points.slice(from, 6).every((n) => n <= 0);
  if (!allHome || !highest) return null;
  next.off.me += 1;
  return { board: next, step: { from, to: OFF, hit: false } };
}

// Where the mover has checkers: the bar, then the points from 24 down (the
// server's order, so both list the plays alike).
function sources(b) {
  const out = b.bar.me > 0 ? [BAR] : [];
  for (let p = 24; p >= 1; p--) if (b.points[p - 1] > 0) out.push(p);
  return out;
}

// Every way to play `rest` (dice in this order) from `partial`, as far as
// they go; a prefix that cannot go on is a finished play. `seen` cuts
// orders of the same steps that meet in one position with as many dice left.
function extend(partial, rest, seen, out) {
  let moved = false;
  if (rest.length) {
    const [die, ...later] = rest;
    for (const from of sources(partial.board)) {
      const next = singleStep(partial.board, from, die);
      if (!next) continue;
      moved = true;
      const key = `${keyOf(next.board)}#${later.length}`;
      if (seen.has(key)) continue;
      seen.add(key);
      extend({ board: next.board, steps: [...partial.steps, next.step], dice: [...partial.dice, die] }, later, seen, out);
    }
  }
  if (!moved) out.push(partial);
}

// The legal plays of [high, low] (the mover's view), one per resulting
// position, in the order found: [{steps, board}]. Both dice when possible,
// else the larger one if it can be played; doubles four times, or as often
// as they go. No move at all: the one empty play.
export function legalPlays(b, [high, low]) {
  const orders = high === low ? [[high, high, high, high]] : [[high, low], [low, high]];
  const found = [];
  for (const order of orders) extend({ board: b, steps: [], dice: [] }, order, new Set(), found);
  const most = Math.max(...found.map((p) => p.steps.length));
  let plays = found.filter((p) => p.steps.length === most);
  if (most === 1 && high !== low && plays.some((p) => p.dice[0] === high)) plays = plays.filter((p) => p.dice[0] === high);
  const positions = new Set();
  return plays.filter((p) => !positions.has(keyOf(p.board)) && positions.add(keyOf(p.board)));
}

// The analysis board replays its line from the start for every position
// it shows (line.js), and a match runs to hundreds of plays: the plays of
// the positions met are kept (a bounded cache; cleared when full).
const PLAYS = new Map();
const PLAYS_KEPT = 4096;
function playsOf(b, dice) {
  const key = `${keyOf(b)}#${dice.join("")}`;
  let plays = PLAYS.get(key);
  if (!plays) {
    if (PLAYS.size >= PLAYS_KEPT) PLAYS.clear();
    plays = legalPlays(b, dice);
    PLAYS.set(key, plays);
  }
  return plays;
}

const pointName = (p) => (p === BAR ? "bar" : p === OFF ? "off" : p);
const pointNumber = (w) => (w === "bar" ? BAR : w === "off" ? OFF : Number(w));
const stepJson = (st) => ({ from: pointName(st.from), to: pointName(st.to) });

// The board after the steps a person sent (any order, a checker moved by
// several dice at once), or null when a step moves no checker of theirs.
function afterSteps(b, steps) {
  let next = copy(b);
  for (const st of steps) {
    const from = pointNumber(st.from);
    const to = pointNumber(st.to);
    if (from === BAR ? next.bar.me < 1 : !(next.points[from - 1] > 0)) return null;
    if (!(to >= OFF && to < from) || (to > 0 && next.points[to - 1] < -1)) return null;
    next = copy(next);
    if (from === BAR) next.bar.me -= 1;
    else next.points[from - 1] -= 1;
    if (to === OFF) {
      next.off.me += 1;
    } else {
      if (next.points[to - 1] === -1) {
        next.points[to - 1] = 0;
        next.bar.opponent += 1;
      }
      next.points[to - 1] += 1;
    }
  }
  return next;
}

// The legal play the steps mean, matched (as the server does) by the
// position it reaches; throws when there is none.
function findPlay(s, steps) {
  if (!Array.isArray(steps)) throw new Error("a play is a list of {from, to} steps");
  const mine = viewOf(s.board, s.turn);
  const plays = playsOf(mine, s.dice);
  const after = afterSteps(mine, steps);
  const play = after && plays.find((p) => keyOf(p.board) === keyOf(after));
  if (!play) throw new Error(`${steps.length ? steps.map((st) => `${st.from}/${st.to}`).join(" ") : "no move"} is not a legal play of ${s.dice.join("-")}`);
  return play;
}

// gnubg's style, as the server writes a play: `13/7* 8/5(2)`, `bar/22`,
// `6/off`; the same step made again in a row is counted once.
function playText(steps) {
  if (!steps.length) return "no move";
  const parts = [];
  for (let i = 0; i < steps.length; ) {
    const st = steps[i];
    let n = 1;
    while (i + n < steps.length && ["from", "to", "hit"].every((k) => steps[i + n][k] === st[k])) n++;
    parts.push(`${pointName(st.from)}/${pointName(st.to)}${st.hit ? "*" : ""}${n > 1 ? `(${n})` : ""}`);
    i += n;
  }
  return parts.join(" ");
}

// ---- the game around the board ------------------------------------------------

const pipsOf = (b) => b.points.reduce((sum, n, i) => sum + (n > 0 ? n * (i + 1) : 0), 25 * b.bar.me);

// Single, gammon (the loser has none off) or backgammon (none off and one
// on the bar or in the winner's home board): 1, 2 or 3 times the cube.
// `b` is the winner's view.
function gameValue(b) {
  if (b.off.opponent > 0) return 1;
  const stuck = b.bar.opponent > 0 || b.points.slice(0, 6).some((n) => n < 0);
  return stuck ? 3 : 2;
}

// Before rolling a side may double when the cube is centred or its own,
// below the largest, and this is not a match's Crawford game.
function mayDouble(s, side) {
  return (s.cube.owner === "centre" || s.cube.owner === side) && s.cube.value < MAX_CUBE && !s.crawford;
}

const atMatchPoint = (s) => s.length > 0 && SIDES.some((side) => s.score[side] === s.length - 1);

// A game won for `points`: the money game or the match ends, or the next
// game of the match starts with its opening roll. The Crawford game is the
// one right after a side first reaches one point from the match.
function endGame(s, winner, points, how) {
  const score = { ...s.score, [winner]: s.score[winner] + points };
  const last = { winner, points, how };
  const done = s.length === 0 || score[winner] >= s.length;
  if (done) return { ...s, phase: "over", turn: null, dice: null, score, last };
  const next = { ...s, score };
  const crawford = atMatchPoint(next) && !atMatchPoint(s);
  return { ...next, board: newBoard(), phase: "opening", turn: null, dice: null, cube: { value: 1, owner: "centre" }, crawford, last };
}

// The turn passes after a play: the next side doubles or rolls, or (unable
// to double) its dice are thrown at once.
const nextTurn = (s, side) => ({ ...s, phase: mayDouble(s, side) ? "decide" : "roll", turn: side, dice: null });

function die(n) {
  if (!Number.isInteger(n) || n < 1 || n > 6) throw new Error("a die shows 1 to 6");
  return n;
}

function applyRoll(s, face) {
  if (!Number.isInteger(face)) throw new Error("a roll needs its face, e.g. 31 for 3-1");
  const [a, b] = [die(Math.floor(face / 10)), die(face % 10)];
  if (s.phase === "opening") {
    if (a === b) throw new Error("the opening roll is two different dice");
    return { ...s, phase: "play", turn: a > b ? "first" : "second", dice: [Math.max(a, b), Math.min(a, b)] };
  }
  return { ...s, phase: "play", dice: [Math.max(a, b), Math.min(a, b)] };
}

function applyPlay(s, steps) {
  const play = findPlay(s, steps);
  const board = viewOf(copy(play.board), s.turn);
  const after = { ...s, board };
  if (play.board.off.me === CHECKERS) {
    const points = s.cube.value * gameValue(play.board);
    return endGame(after, s.turn, points, ["single", "gammon", "backgammon"][points / s.cube.value - 1]);
  }
  return nextTurn(after, OTHER[s.turn]);
}

function apply(s, mv) {
  const { phase } = s;
  if (phase === "over") throw new Error("the game is over");
  if (phase === "opening" || phase === "roll") {
    if (!Number.isInteger(mv.roll)) throw new Error("the dice are due: a roll with its face");
    return applyRoll(s, mv.roll);
  }
  if (phase === "decide") {
    if (mv.double === true) return { ...s, phase: "respond" };
    if (mv.roll === true) return { ...s, phase: "roll" };
    // A record that went straight to the dice: the side rolled.
    if (Number.isInteger(mv.roll)) return applyRoll(s, mv.roll);
    throw new Error(`${NAMES[s.turn]} doubles or rolls`);
  }
  if (phase === "respond") {
    const taker = OTHER[s.turn];
    if (mv.take === true) return { ...s, phase: "roll", cube: { value: 2 * s.cube.value, owner: taker } };
    if (mv.pass === true) return endGame(s, s.turn, s.cube.value, "pass");
    throw new Error(`${NAMES[taker]} takes or passes`);
  }
  if (!mv.play) throw new Error(`${NAMES[s.turn]} plays ${s.dice.join("-")}`);
  return applyPlay(s, mv.play);
}

function legal(s) {
  switch (s.phase) {
    case "opening":
    case "roll":
      return [{ roll: null }];
    case "decide":
      return [{ roll: true }, { double: true }];
    case "respond":
      return [{ take: true }, { pass: true }];
    case "play":
      return playsOf(viewOf(s.board, s.turn), s.dice).map((p) => ({ play: p.steps.map(stepJson) }));
    default:
      return [];
  }
}

const randomDie = () => 1 + Math.floor(Math.random() * 6);

// The board throws the dice (a chance move's face), and a play is stored
// as the legal list spells it, so replays and links carry one form.
function complete(mv, s) {
  if (mv.roll === null && (s.phase === "roll" || s.phase === "opening")) {
    let [a, b] = [randomDie(), randomDie()];
    if (s.phase === "opening") while (a === b) b = randomDie();
    return { roll: s.phase === "opening" ? 10 * a + b : 10 * Math.max(a, b) + Math.min(a, b) };
  }
  if (s.phase === "play" && Array.isArray(mv.play)) return { play: findPlay(s, mv.play).steps.map(stepJson) };
  return mv;
}

function notation(mv, s) {
  if (mv.double) return "Double";
  if (mv.take) return "Take";
  if (mv.pass) return "Pass";
  if (mv.roll === true) return "Roll";
  if (Number.isInteger(mv.roll)) {
    const [a, b] = [Math.floor(mv.roll / 10), mv.roll % 10];
    return `${Math.max(a, b)}-${Math.min(a, b)}`;
  }
  if (Array.isArray(mv.play)) return playText(findPlay(s, mv.play).steps);
  return JSON.stringify(mv);
}

function result(s) {
  if (s.phase !== "over") return null;
  const { winner, points } = s.last;
  if (s.length === 0) return { winner, scores: { [winner]: points, [OTHER[winner]]: 0 } };
  return { winner, scores: { ...s.score } };
}

const toMove = (s) => {
  if (s.phase === "respond") return OTHER[s.turn];
  // Before the opening roll nobody is on roll yet: the roll is listed as
  // the first player's (the board's own seat).
  return s.turn ?? (s.phase === "opening" ? "first" : null);
};

const AWAITING = { decide: "cube_or_roll", respond: "cube_response", play: "play", roll: "roll", opening: "opening" };
const SEAT = { first: "me", second: "opponent", centre: "centre" };

// The drawing's view: "me" is White (the bottom seat) whoever is to move;
// `deciding` says which seat decides now (the drawing turns the position to
// it for its clicks and its questions to the service), `to_move` whose turn
// it is (the dice are drawn on that side).
function asMatchState(s) {
  const mover = s.phase === "over" ? null : toMove(s);
  const flipped = flip(s.board);
  return {
    board: s.board,
    dice: s.phase === "play" ? [...s.dice] : null,
    cube: { value: s.cube.value, owner: SEAT[s.cube.owner] },
    awaiting: AWAITING[s.phase] ?? null,
    to_move: s.turn ? SEAT[s.turn] : null,
    deciding: mover ? SEAT[mover] : null,
    pips: { me: pipsOf(s.board), opponent: pipsOf(flipped) },
    match: s.length ? { length: s.length, score: { me: s.score.first, opponent: s.score.second }, crawford: s.crawford } : null,
    names: { me: NAMES.first, opponent: NAMES.second },
    last_game: s.last ? { winner: SEAT[s.last.winner], points: s.last.points, how: s.last.how } : null,
  };
}

// ---- set-up text ---------------------------------------------------------------

const SETUP_HELP =
  "White's points 1 to 24 (+ White's checkers, - Red's; White moves 24 to 1), then | bar W R | whose turn " +
  "(opening, white, white 3-1, white doubled, white won 2) | cube 2 red | match 5: 3 2 crawford";

const sideName = (side) => NAMES[side].toLowerCase();
const sideOf = (word) => SIDES.find((side) => sideName(side) === word.toLowerCase());

function turnText(s) {
  switch (s.phase) {
    case "opening":
      return "opening";
    case "decide":
    case "roll":
      return sideName(s.turn);
    case "play":
      return `${sideName(s.turn)} ${s.dice.join("-")}`;
    case "respond":
      return `${sideName(s.turn)} doubled`;
    default:
      return `${sideName(s.last.winner)} won ${s.last.points}`;
  }
}

function format(s) {
  const parts = [s.board.points.join(" "), `bar ${s.board.bar.me} ${s.board.bar.opponent}`, turnText(s)];
  parts.push(`cube ${s.cube.value}${s.cube.owner === "centre" ? "" : ` ${sideName(s.cube.owner)}`}`);
  if (s.length) parts.push(`match ${s.length}: ${s.score.first} ${s.score.second}${s.crawford ? " crawford" : ""}`);
  return parts.join(" | ");
}

function fail(message) {
  throw new Error(message);
}

function parseBoard(pointsText, barText) {
  const points = pointsText.split(/[\s,]+/).filter(Boolean).map(Number);
  if (points.length !== 24 || !points.every(Number.isInteger)) fail("first 24 whole numbers: White's points 1 to 24");
  const bar = (barText ?? "0 0").split(/\s+/).filter(Boolean).map(Number);
  if (bar.length !== 2 || !bar.every((n) => Number.isInteger(n) && n >= 0)) fail("bar: White's and Red's checkers, e.g. bar 1 0");
  const on = (sign) => points.reduce((sum, n) => sum + (Math.sign(n) === sign ? Math.abs(n) : 0), 0);
  const off = { me: CHECKERS - on(1) - bar[0], opponent: CHECKERS - on(-1) - bar[1] };
  if (off.me < 0 || off.opponent < 0) fail(`at most ${CHECKERS} checkers a side`);
  return { points: points.map((n) => n || 0), bar: { me: bar[0], opponent: bar[1] }, off };
}

function parseCube(text) {
  const [value, owner = "centre"] = (text ?? "1").split(/\s+/).filter(Boolean);
  const v = Number(value);
  const who = owner.toLowerCase() === "centre" ? "centre" : sideOf(owner);
  if (!(Number.isInteger(v) && v >= 1 && v <= MAX_CUBE && (v & (v - 1)) === 0) || !who) fail(`cube: a power of two up to ${MAX_CUBE}, and white or red once turned`);
  if ((v === 1) !== (who === "centre")) fail("cube: 1 in the centre, a turned cube owned by the side that took it");
  return { value: v, owner: who };
}

function parseMatch(text, options) {
  if (text === undefined) return { length: Number(options.match_length) || 0, score: { first: 0, second: 0 }, crawford: false };
  const m = /^(\d+)\s*:?\s*(\d+)\s+(\d+)(\s+crawford)?$/i.exec(text.trim());
  if (!m) fail("match: its length, then White's and Red's scores, e.g. match 5: 3 2 crawford");
  const [length, first, second] = [1, 2, 3].map((i) => Number(m[i]));
  if (length < 1 || length > MAX_MATCH || first >= length || second >= length) fail(`match: a length of 1 to ${MAX_MATCH}, and scores below it`);
  const s = { length, score: { first, second }, crawford: Boolean(m[4]) };
  if (s.crawford && (first === length - 1) === (second === length - 1)) fail("the Crawford game needs exactly one side one point from the match");
  return s;
}

// The phase the turn text names; the cube and match are known by then.
function parseTurn(text, s) {
  const t = text.trim().toLowerCase();
  if (t === "opening") return { ...s, phase: "opening", turn: null, dice: null };
  let m = /^(\w+)(?: to roll)?$/.exec(t);
  if (m && sideOf(m[1])) return nextTurn(s, sideOf(m[1]));
  m = /^(\w+)(?: to play)? ([1-6])-?([1-6])$/.exec(t);
  if (m && sideOf(m[1])) {
    const [a, b] = [Number(m[2]), Number(m[3])];
    return { ...s, phase: "play", turn: sideOf(m[1]), dice: [Math.max(a, b), Math.min(a, b)] };
  }
  m = /^(\w+) doubled$/.exec(t);
  if (m && sideOf(m[1])) {
    if (!mayDouble(s, sideOf(m[1]))) fail(`${NAMES[sideOf(m[1])]} may not double this cube`);
    return { ...s, phase: "respond", turn: sideOf(m[1]), dice: null };
  }
  m = /^(\w+) won (\d+)$/.exec(t);
  if (m && sideOf(m[1])) {
    const winner = sideOf(m[1]);
    return { ...s, phase: "over", turn: null, dice: null, last: { winner, points: Number(m[2]), how: null } };
  }
  return fail("whose turn: opening, white, white 3-1, white doubled or white won 2 (or red)");
}

function parse(text, options = {}) {
  const [pointsText, ...rest] = text.split("|").map((p) => p.trim());
  const field = (word) => rest.find((p) => p.toLowerCase().startsWith(`${word} `) || p.toLowerCase() === word)?.slice(word.length).trim();
  const turnPart = rest.find((p) => !/^(bar|cube|match)\b/i.test(p)) ?? "white";
  const board = parseBoard(pointsText, field("bar"));
  const s = { board, cube: parseCube(field("cube")), ...parseMatch(field("match"), options), last: null };
  const position = parseTurn(turnPart, s);
  if (position.phase !== "over" && (board.off.me === CHECKERS || board.off.opponent === CHECKERS)) fail("a side has borne off all 15: the game is over");
  return position;
}

const rules = {
  players: SIDES,
  names: NAMES,
  setupHelp: SETUP_HELP,
  // Backgammon has no stateless review: a match is reviewed by its id.
  reviewable: false,
  start: (options = {}) => ({
    board: newBoard(),
    phase: "opening",
    turn: null,
    dice: null,
    cube: { value: 1, owner: "centre" },
    length: Number(options.match_length) || 0,
    score: { first: 0, second: 0 },
    crawford: false,
    last: null,
  }),
  toMove,
  legal: (s) => (result(s) ? [] : legal(s)),
  complete,
  apply,
  result,
  notation,
  asMatchState,
  format,
  parse,
  optionsFor: (s, options) => ({ ...options, match_length: s.length }),
};
export default rules;
