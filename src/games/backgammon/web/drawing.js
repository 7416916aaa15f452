// Backgammon: state.board is from the person's view ({points: [24], bar,
// off}: positive counts the person's checkers, negative the AI's, points[0]
// the person's 1-point, towards which they move), state.dice the roll to
// play (null before it), state.cube {value, owner}, state.awaiting what the
// person must decide now. Moves: {play: [{from, to}, ...]} ("bar" and "off"
// at the ends), {roll}, {double}, {take}, {pass}. The page knows no rules:
// which checkers may move, and where, comes from m.legal_moves.
//
// On the analysis board (backgammon-rules.js) the person plays both seats:
// "me" stays the bottom seat, state.deciding says which seat decides now
// ("opponent": the top one; a match's state has none, the person always
// deciding there), and state.names names the seats. The deciding side is
// turned to its own view for the clicks and the questions to the service,
// whose plays and answers are in the mover's numbering.
//
// Drawn as usual from the person's side: their home board bottom right
// (points 1-6 right to left, 7-12 on to the left), 13-24 along the top left
// to right, the bar in the middle, the borne-off tray on the right.

import { analyse } from "./api.js";
import { h, markBest, percent } from "./ui.js";

const STYLE = `
.bg { display: grid; gap: .35rem; width: min(100%, 40rem); }
.bg-svg { display: block; width: 100%; height: auto; user-select: none; -webkit-user-select: none; touch-action: manipulation; }
.bg-side { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem .9rem; font-size: .9rem; margin: 0; }
.bg-side .who { font-weight: 700; }
.bg-side.me .who { color: var(--you); }
.bg-side.opponent .who { color: var(--ai); }
.bg-actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; min-height: 2.4rem; }
.bg-actions button.best-move { outline-offset: 1px; }
.bg-partial { font-family: ui-monospace, monospace; }
.bg-frame { fill: #6d4520; }
.bg-felt { fill: #2f6b4a; }
.bg-tri.odd { fill: #e8d3a8; }
.bg-tri.even { fill: #a0492c; }
.bg-num { fill: #f3e6cc; font-size: 13px; text-anchor: middle; }
.bg-hit { fill: transparent; }
.bg-checker { stroke-width: 2; }
.bg-checker.me, .bg-slice.me { fill: #f6f2ea; stroke: #1f5fa8; }
.bg-checker.opponent, .bg-slice.opponent { fill: #b0381e; stroke: #5e1a0c; }
.bg-count, .bg-off-count { font-size: 15px; font-weight: 700; text-anchor: middle; pointer-events: none; }
.bg-count.me { fill: #1f5fa8; }
.bg-count.opponent { fill: #fff; }
.bg-off-count.me { fill: #cfe0f5; }
.bg-off-count.opponent { fill: #f7c8bd; }
.bg-die rect, .bg-cube rect { fill: #fffdf7; stroke: #222; stroke-width: 1.5; }
.bg-die circle { fill: #222; }
.bg-die.used { opacity: .35; }
.bg-cube text { font-size: 16px; font-weight: 700; text-anchor: middle; fill: #222; }
.bg-point.movable, .bg-point.target { cursor: pointer; }
.bg-point.movable .bg-top { stroke: #ffd54a; stroke-width: 3; }
.bg-point.selected .bg-top { stroke: #ffd54a; stroke-width: 6; }
.bg-point.target .bg-hit { fill: rgba(255, 213, 74, .28); }
.bg-mark { fill: #ffd54a; stroke: #5e3b17; stroke-width: 1; pointer-events: none; }
.bg-point:focus, .bg-point.best-move { outline: none; }
.bg-point:focus-visible .bg-hit { stroke: #1f6feb; stroke-width: 3; }
.bg-point.best-move .bg-hit, .bg-point.best-from .bg-hit { stroke: #15d01f; stroke-width: 3; }
.bg-arrow { stroke: rgba(21, 190, 40, .9); stroke-width: 5; stroke-linecap: round; fill: none; pointer-events: none; }
.bg-analysis table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
.bg-analysis td, .bg-analysis th { padding: .2rem .6rem; border-bottom: 1px solid var(--line); text-align: right; }
.bg-analysis td:first-child, .bg-analysis th:first-child, .bg-analysis .play { text-align: left; }
.bg-analysis td.play { font-family: ui-monospace, monospace; }
.bg-analysis tr.best td { font-weight: 700; background: #e3f4ea; }
/* Flipped: the home board on the left, as many players like it, with the
   numbers turned back to read. */
#board.flipped .bg-svg { transform: scaleX(-1); }
#board.flipped .bg-svg text { transform-box: fill-box; transform-origin: center; transform: scaleX(-1); }
`;
// A constructed stylesheet: the page's Content Security Policy allows no
// inline <style>, and the look stays in the drawing's own file.
const sheet = new CSSStyleSheet();
sheet.replaceSync(STYLE);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

// ---- geometry (SVG user units) ------------------------------------------

const PW = 40; // a point's width
const R = 17; // a checker's radius
const STEP = 34; // checkers stacked on a point, centre to centre
const SHOWN = 5; // checkers drawn on a point; beyond, a number says how many
const LEFT = 8; // left frame
const BAR_X = LEFT + 6 * PW;
const BAR_W = 44;
const RIGHT = BAR_X + BAR_W; // the person's home board starts here
const TRAY_X = RIGHT + 6 * PW + 4;
const TRAY_W = 48;
const WIDTH = TRAY_X + TRAY_W + 8;
const TOP = 18; // the top frame holds the point numbers
const HALF = 200; // a row of points' height
const MID = 60; // the gap between the rows: dice, cube
const BOTTOM = TOP + HALF + MID + HALF;
const HEIGHT = BOTTOM + 18;
const MID_Y = TOP + HALF + MID / 2;
const TRI = 172; // a triangle's height

const SVGNS = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// The left edge of point p's column (1..24, the person's numbering).
function pointX(p) {
  if (p <= 6) return RIGHT + (6 - p) * PW;
  if (p <= 12) return LEFT + (12 - p) * PW;
  if (p <= 18) return LEFT + (p - 13) * PW;
  return RIGHT + (p - 19) * PW;
}
const isTop = (p) => p >= 13;
const checkerY = (top, i) => (top ? TOP + R + 1 + i * STEP : BOTTOM - R - 1 - i * STEP);

// Where an arrow of the best play starts or ends: a point's middle, the
// mover's half of the bar, their half of the tray (the top seat's above).
function anchor(where, top) {
  if (where === "bar") return [BAR_X + BAR_W / 2, top ? MID_Y - 70 : MID_Y + 70];
  if (where === "off") return [TRAY_X + TRAY_W / 2, top ? TOP + 90 : BOTTOM - 90];
  const p = Number(where);
  return [pointX(p) + PW / 2, isTop(p) ? TOP + 95 : BOTTOM - 95];
}

// ---- the position and the legal plays ------------------------------------

const key = (where) => String(where);
const stepText = (st) => `${st.from}/${st.to}`;
const playText = (steps) => (steps.length ? steps.map(stepText).join(" ") : "no move");
const diceText = (d) => (Array.isArray(d) ? d.join("-") : "");
const OWNER_SWAP = { me: "opponent", opponent: "me" };

function legalPlays(m) {
  return (m.legal_moves ?? []).filter((mv) => Array.isArray(mv.play)).map((mv) => mv.play);
}
const canDo = (m, kind) => (m.legal_moves ?? []).some((mv) => mv[kind] === true);
// A chance move due (the analysis board stepped back to before a roll): its
// face is thrown by the board when the person asks for it.
const diceDue = (m) => (m.legal_moves ?? []).some((mv) => "roll" in mv && mv.roll === null);

// The side deciding now, seen from its own seat: in a match always the
// person; on the analysis board maybe the top seat, whose point p is the
// bottom seat's 25 - p. `where` turns a place between the two numberings
// (either way: the turn is its own inverse).
function seat(st) {
  const top = st.deciding === "opponent";
  return {
    top,
    board: top ? flipBoard(st.board) : st.board,
    cube: top ? flipCube(st.cube) : st.cube,
    match: top ? flipMatch(st.match) : st.match ?? undefined,
    shown: (b) => (top ? flipBoard(b) : b),
    where: (w) => (top && key(w) !== "bar" && key(w) !== "off" ? String(25 - Number(w)) : key(w)),
  };
}

// Who the texts name: in a match the person and the AI; on the analysis
// board the seats' names (state.names), the person playing both.
function words(st) {
  const named = st.names;
  const decider = st.deciding === "opponent" ? "opponent" : "me";
  return {
    decider,
    other: OWNER_SWAP[decider],
    label: (side) => (named ? named[side] : side === "me" ? "You" : "AI"),
    name: (side) => (named ? named[side] : side === "me" ? "you" : "the AI"),
    whose: (side) => (named ? `${named[side]}'s` : side === "me" ? "your" : "the AI's"),
  };
}
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// What is left of `play` once the steps in `chosen` are taken out (as a
// multiset: the same play may be listed in another order than clicked), or
// null when `chosen` is not part of it.
function remainder(play, chosen) {
  const rest = [...play];
  for (const st of chosen) {
    const i = rest.findIndex((r) => stepText(r) === stepText(st));
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

// The board after the person's chosen steps, so each click shows where the
// checker went (a lone AI checker landed on goes to the bar).
function applySteps(board, steps) {
  const b = { points: [...board.points], bar: { ...board.bar }, off: { ...board.off } };
  for (const st of steps) {
    if (key(st.from) === "bar") b.bar.me -= 1;
    else b.points[st.from - 1] -= 1;
    if (key(st.to) === "off") {
      b.off.me += 1;
    } else {
      if (b.points[st.to - 1] === -1) {
        b.points[st.to - 1] = 0;
        b.bar.opponent += 1;
      }
      b.points[st.to - 1] += 1;
    }
  }
  return b;
}

function pipsOf(b) {
  let me = 25 * b.bar.me;
  let opponent = 25 * b.bar.opponent;
  b.points.forEach((n, i) => {
    if (n > 0) me += n * (i + 1);
    else opponent += -n * (24 - i);
  });
  return { me, opponent };
}

// The dice of this roll (four for doubles), each marked used once a chosen
// step took it: its exact distance, else (bearing off) the smallest larger.
function diceUse(dice, steps) {
  if (!dice) return [];
  const faces = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [...dice];
  const used = faces.map(() => false);
  const num = (w) => (key(w) === "bar" ? 25 : key(w) === "off" ? 0 : Number(w));
  for (const st of steps) {
    const d = num(st.from) - num(st.to);
    let i = faces.findIndex((f, j) => !used[j] && f === d);
    if (i < 0) {
      const bigger = faces.map((f, j) => (!used[j] && f > d ? j : -1)).filter((j) => j >= 0);
      i = bigger.sort((a, b) => faces[a] - faces[b])[0] ?? -1;
    }
    if (i >= 0) used[i] = true;
  }
  return faces.map((face, i) => ({ face, used: used[i] }));
}

// The person's progress through a checker play: the candidate plays that
// contain the chosen steps, which checkers may move next, and where.
function playChoice(m, board, chosen) {
  const candidates = [];
  for (const play of legalPlays(m)) {
    const rest = remainder(play, chosen);
    if (rest) candidates.push({ play, rest });
  }
  const hasChecker = (w) => (key(w) === "bar" ? board.bar.me > 0 : board.points[w - 1] > 0);
  let sources = new Set();
  for (const c of candidates) for (const st of c.rest) if (hasChecker(st.from)) sources.add(key(st.from));
  // Checkers on the bar enter first, as the rules say.
  if (sources.has("bar")) sources = new Set(["bar"]);
  const targets = (from) => {
    const out = new Map();
    for (const c of candidates) for (const st of c.rest) if (key(st.from) === from) out.set(key(st.to), st);
    return out;
  };
  const complete = candidates.find((c) => c.rest.length === 0)?.play ?? null;
  const longer = candidates.some((c) => c.rest.length > 0);
  return { sources, targets, complete, longer };
}

// ---- drawing --------------------------------------------------------------

function stack(parent, cx, yAt, n, owner) {
  const shown = Math.min(n, SHOWN);
  for (let i = 0; i < shown; i++) {
    const top = i === shown - 1 ? " bg-top" : "";
    parent.append(s("circle", { class: `bg-checker ${owner}${top}`, cx, cy: yAt(i), r: R, "data-owner": owner }));
  }
  if (n > SHOWN) parent.append(s("text", { class: `bg-count ${owner}`, x: cx, y: yAt(shown - 1) + 5 }, n));
}

// A clickable place on the board (a point, the bar, the tray): a group with
// a transparent hit area, labelled for screen readers and tests.
function place(where, label, ui, attrs) {
  const movable = ui.sources.has(where);
  const target = ui.targets.has(where);
  const cls = ["bg-point"];
  if (movable) cls.push("movable");
  if (target) cls.push("target");
  if (ui.selected === where) cls.push("selected");
  const active = movable || target;
  const extra = target ? ", move here" : ui.selected === where ? ", selected" : movable ? ", you may move from here" : "";
  return s("g", {
    class: cls.join(" "),
    "data-point": where,
    "data-key": `point-${where}`,
    role: active ? "button" : "img",
    tabindex: active ? 0 : undefined,
    "aria-label": label + extra,
    onclick: () => ui.click(where),
    onkeydown: (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      ui.click(where);
    },
    ...attrs,
  });
}

function countLabel(n, w) {
  if (n === 0) return "empty";
  const who = w.whose(n > 0 ? "me" : "opponent");
  return `${Math.abs(n)} of ${who} checker${Math.abs(n) === 1 ? "" : "s"}`;
}

function drawPoint(p, n, ui) {
  const x = pointX(p);
  const top = isTop(p);
  const base = top ? TOP : BOTTOM;
  const tip = top ? TOP + TRI : BOTTOM - TRI;
  const owner = n > 0 ? "me" : n < 0 ? "opponent" : "";
  const g = place(key(p), `point ${p}: ${countLabel(n, ui.words)}`, ui, { "data-count": n, "data-owner": owner || undefined });
  g.append(
    s("rect", { class: "bg-hit", x, y: top ? TOP : BOTTOM - HALF, width: PW, height: HALF }),
    s("polygon", { class: `bg-tri ${p % 2 ? "odd" : "even"}`, points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${tip}` }),
    s("text", { class: "bg-num", x: x + PW / 2, y: top ? TOP - 5 : BOTTOM + 13, "aria-hidden": "true" }, p),
  );
  if (n) stack(g, x + PW / 2, (i) => checkerY(top, i), Math.abs(n), owner);
  if (ui.targets.has(key(p))) {
    // The mark sits on top of the mover's own checkers there.
    const own = ui.top ? -n : n;
    const i = own > 0 ? Math.min(own, SHOWN) : 0;
    g.append(s("circle", { class: "bg-mark", cx: x + PW / 2, cy: checkerY(top, i), r: 6 }));
  }
  return g;
}

// The bar: the AI's checkers above the middle, the person's below.
function drawBar(b, ui) {
  const w = ui.words;
  const label = `bar: ${b.bar.me} of ${w.whose("me")} checkers, ${b.bar.opponent} of ${w.whose("opponent")}`;
  const g = place("bar", label, ui, { "data-me": b.bar.me, "data-opponent": b.bar.opponent });
  const cx = BAR_X + BAR_W / 2;
  g.append(s("rect", { class: "bg-hit", x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP }));
  stack(g, cx, (i) => TOP + HALF - R - 2 - i * STEP, b.bar.opponent, "opponent");
  stack(g, cx, (i) => BOTTOM - HALF + R + 2 + i * STEP, b.bar.me, "me");
  return g;
}

// The tray: the AI's borne-off checkers at the top, the person's at the
// bottom, each as thin slices with its count in the middle.
function drawTray(b, ui) {
  const w = ui.words;
  const label = `borne off: ${b.off.me} of ${w.whose("me")} checkers, ${b.off.opponent} of ${w.whose("opponent")}`;
  const g = place("off", label, ui, { "data-me": b.off.me, "data-opponent": b.off.opponent });
  g.append(s("rect", { class: "bg-hit", x: TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP }));
  const slice = (owner, y) => s("rect", { class: `bg-slice ${owner}`, x: TRAY_X + 5, y, width: TRAY_W - 10, height: 8, rx: 2 });
  for (let i = 0; i < b.off.opponent; i++) g.append(slice("opponent", TOP + 42 + i * 10));
  for (let i = 0; i < b.off.me; i++) g.append(slice("me", BOTTOM - 50 - i * 10));
  const cx = TRAY_X + TRAY_W / 2;
  g.append(
    s("text", { class: "bg-off-count opponent", x: cx, y: MID_Y - 8, "aria-hidden": "true" }, b.off.opponent),
    s("text", { class: "bg-off-count me", x: cx, y: MID_Y + 18, "aria-hidden": "true" }, b.off.me),
  );
  if (ui.targets.has("off")) g.append(s("circle", { class: "bg-mark", cx, cy: ui.top ? TOP + 25 : BOTTOM - 25, r: 7 }));
  return g;
}

const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

function drawDie(face, used, cx, cy) {
  const g = s("g", { class: `bg-die${used ? " used" : ""}`, "data-die": face, "data-used": String(used), role: "img",
    "aria-label": `die showing ${face}${used ? ", used" : ""}` });
  g.append(s("rect", { x: cx - 15, y: cy - 15, width: 30, height: 30, rx: 5 }));
  for (const [dx, dy] of PIPS[face] ?? []) g.append(s("circle", { cx: cx + dx * 8, cy: cy + dy * 8, r: 3 }));
  return g;
}

// The dice on the half of the board of the side to play them.
function drawDice(dice, mine) {
  const g = s("g", { class: "bg-dice", "data-dice": dice.map((d) => d.face).join("-") });
  const cx = mine ? RIGHT + 3 * PW : LEFT + 3 * PW;
  const start = cx - ((dice.length - 1) * 38) / 2;
  dice.forEach((d, i) => g.append(drawDie(d.face, d.used, start + i * 38, MID_Y)));
  return g;
}

// The cube: in the bar's middle when nobody owns it, else at its owner's
// end of the tray. A centred cube shows 64, as on a real one.
function drawCube(cube, w) {
  const at = {
    centre: [BAR_X + BAR_W / 2, MID_Y],
    opponent: [TRAY_X + TRAY_W / 2, TOP + 20],
    me: [TRAY_X + TRAY_W / 2, BOTTOM - 20],
  }[cube.owner] ?? [BAR_X + BAR_W / 2, MID_Y];
  const where = cube.owner === "centre" ? "in the middle" : cube.owner in OWNER_SWAP ? w.whose(cube.owner) : cube.owner;
  const g = s("g", { class: "bg-cube", "data-cube-value": cube.value, "data-cube-owner": cube.owner, role: "img",
    "aria-label": `doubling cube at ${cube.value}, ${where}` });
  g.append(
    s("rect", { x: at[0] - 17, y: at[1] - 17, width: 34, height: 34, rx: 4 }),
    s("text", { x: at[0], y: at[1] + 6 }, cube.owner === "centre" && cube.value === 1 ? 64 : cube.value),
  );
  return g;
}

// The analysis's best play as arrows, its points marked (best-from,
// best-move: the same classes every game's best move uses). The steps are
// in the mover's numbering: `view` places them on the board.
function drawBest(svg, steps, view) {
  const g = s("g", { class: "bg-best", "data-best-play": playText(steps) });
  const defs = s("defs");
  const head = s("marker", { id: "bg-arrowhead", markerWidth: 4, markerHeight: 4, refX: 2, refY: 2, orient: "auto" });
  head.append(s("path", { d: "M0,0 L4,2 L0,4 z", fill: "rgba(21, 190, 40, .9)" }));
  defs.append(head);
  g.append(defs);
  for (const st of steps) {
    const [from, to] = [view.where(st.from), view.where(st.to)];
    const [x1, y1] = anchor(from, view.top);
    const [x2, y2] = anchor(to, view.top);
    g.append(s("line", { class: "bg-arrow", x1, y1, x2, y2, "marker-end": "url(#bg-arrowhead)", "data-step": stepText(st) }));
    svg.querySelector(`[data-point="${from}"]`)?.classList.add("best-from");
    svg.querySelector(`[data-point="${to}"]`)?.classList.add("best-move");
  }
  svg.append(g);
}

function drawBoard(board, dice, cube, mine, ui) {
  const svg = s("svg", { class: "bg-svg", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "group", "aria-label": "backgammon board" });
  svg.append(
    s("rect", { class: "bg-frame", x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 8 }),
    s("rect", { class: "bg-felt", x: LEFT, y: TOP, width: 6 * PW, height: BOTTOM - TOP }),
    s("rect", { class: "bg-felt", x: RIGHT, y: TOP, width: 6 * PW, height: BOTTOM - TOP }),
  );
  for (let p = 1; p <= 24; p++) svg.append(drawPoint(p, board.points[p - 1], ui));
  svg.append(drawBar(board, ui), drawTray(board, ui));
  if (dice.length) svg.append(drawDice(dice, mine));
  svg.append(drawCube(cube, ui.words));
  return svg;
}

function sideLine(who, side, pips, board, extra) {
  return h(
    "p",
    { class: `bg-side ${side}` },
    h("span", { class: "who" }, who),
    h("span", {}, h("span", { dataset: { pips: side } }, pips[side]), " pips"),
    h("span", {}, h("span", { dataset: { off: side } }, board.off[side]), " off"),
    board.bar[side] ? h("span", {}, `${board.bar[side]} on the bar`) : null,
    extra,
  );
}

// The analysis board's match goes on past a game's end: the last game's
// result is said beside the score.
function lastGameText(st, w) {
  const g = st.last_game;
  if (!g || !(g.winner in OWNER_SWAP)) return "";
  const how = g.how === "pass" ? ", the double passed" : g.how && g.how !== "single" ? ` (${g.how})` : "";
  return ` ${capital(w.name(g.winner))} won the last game: ${g.points} point${g.points === 1 ? "" : "s"}${how}.`;
}

function scoreText(st) {
  const mt = st.match;
  const w = words(st);
  if (!mt) return `Money game, cube at ${st.cube.value}.`;
  const score = `${w.name("me")} ${mt.score.me}, ${w.name("opponent")} ${mt.score.opponent}`;
  return `Match to ${mt.length}: ${score}${mt.crawford ? " (Crawford game)" : ""}.${lastGameText(st, w)}`;
}

// The best play of the latest analysis, kept so the board redrawn after a
// click still shows it; `current` redraws the board on the page.
let best = null;
let current = null;
// The analysis board's ply alone does not name a position (a step back and
// another move make another one at the same ply): the position is in it.
const positionKey = (m) => `${m.id}:${m.ply}:${JSON.stringify([m.state.board, m.state.dice, m.state.deciding])}`;

// ---- analysis -------------------------------------------------------------

const signed = (x) => (typeof x === "number" ? `${x >= 0 ? "+" : "-"}${Math.abs(x).toFixed(3)}` : "?");

function flipBoard(b) {
  return {
    points: [...b.points].reverse().map((n) => (n === 0 ? 0 : -n)),
    bar: { me: b.bar.opponent, opponent: b.bar.me },
    off: { me: b.off.opponent, opponent: b.off.me },
  };
}
const flipCube = (c) => ({ value: c.value, owner: OWNER_SWAP[c.owner] ?? c.owner });
const flipMatch = (mt) => (mt ? { ...mt, score: { me: mt.score.opponent, opponent: mt.score.me } } : undefined);
const flipEvaluation = (e) =>
  e && { ...e, win_chance: 1 - e.win_chance, outcome: { win: "loss", loss: "win" }[e.outcome] ?? e.outcome };
const flipEquity = (q) =>
  q && { cubeful: -q.cubeful, cubeless: -q.cubeless, match_winning_chance: q.match_winning_chance == null ? q.match_winning_chance : 1 - q.match_winning_chance };
const flipChances = (p) =>
  p && { win: 1 - p.win, win_gammon: p.lose_gammon, win_backgammon: p.lose_backgammon, lose_gammon: p.win_gammon, lose_backgammon: p.win_backgammon };

function chances(p, w) {
  if (!p) return null;
  return h(
    "p",
    { class: "bg-chances", dataset: { win: p.win } },
    `${capital(w.whose(w.decider))} chances: win ${percent(p.win)} (gammon ${percent(p.win_gammon)}, backgammon ${percent(p.win_backgammon)}); `,
    `lose ${percent(1 - p.win)} (gammon ${percent(p.lose_gammon)}, backgammon ${percent(p.lose_backgammon)}).`,
  );
}

function equityLine(eq, inMatch) {
  if (!eq) return null;
  const mwc = inMatch && typeof eq.match_winning_chance === "number" ? `, match winning chance ${percent(eq.match_winning_chance)}` : "";
  return h("p", { class: "bg-equity" }, `Equity: cubeful ${signed(eq.cubeful)}, cubeless ${signed(eq.cubeless)}${mwc}.`);
}

function depthNote(a) {
  return h("p", { class: "legend" }, a.solved ? "Exact (the bear-off database)." : `Estimate, ${a.plies ?? "?"}-ply; equities in points per cube.`);
}

async function analyzePlay(m, evaluate) {
  const st = m.state;
  const plays = legalPlays(m);
  if (plays.every((p) => p.length === 0)) {
    markBest('.bg-actions [data-key="no-move"]');
    return h("p", {}, "No legal move with this roll: the only thing to do is pass.");
  }
  // Asked from the mover's seat; the answer's play is in its numbering.
  const view = seat(st);
  const a = await analyse("/backgammon/move", { board: view.board, dice: st.dice, cube: view.cube, match: view.match, max_ms: 800 });
  evaluate(a.evaluation);
  best = { key: positionKey(m), steps: a.play };
  if (current?.key === best.key) current.redraw();
  // The top five, each with its equity and what it gives up against the best.
  const rows = (a.moves ?? []).slice(0, 5).map((mv, i) =>
    h("tr", { class: i === 0 ? "best" : "", dataset: { play: playText(mv.play) } },
      h("td", {}, i + 1), h("td", { class: "play" }, playText(mv.play)), h("td", {}, signed(mv.equity)),
      h("td", {}, i === 0 ? "" : signed(-Math.abs(mv.equity_loss ?? 0)))),
  );
  return h(
    "div",
    { class: "bg-analysis" },
    h("h3", {}, "The best plays, as POST /backgammon/move ranks them (arrows on the board)"),
    h("p", {}, `Best: ${playText(a.play)}.`),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { class: "play" }, "play"), h("th", {}, "equity"), h("th", {}, "loss"))), h("tbody", {}, rows)),
    chances(a.probabilities, words(st)),
    equityLine(a.equity, Boolean(st.match)),
    depthNote(a),
  );
}

// The cube: before the roll the side on roll may double; after a double
// the other side takes or passes. The service judges from the doubler's
// side, so for a response the decider's position goes in flipped and the
// answer is turned back.
async function analyzeCube(m, evaluate) {
  const st = m.state;
  const w = words(st);
  const responding = st.awaiting === "cube_response";
  const mine = seat(st);
  const view = responding
    ? { board: flipBoard(mine.board), cube: flipCube(mine.cube), match: flipMatch(mine.match) }
    : { board: mine.board, cube: mine.cube, match: mine.match };
  const a = await analyse("/backgammon/cube", { ...view, max_ms: 800 });
  evaluate(responding ? flipEvaluation(a.evaluation) : a.evaluation);
  const eq = a.equities ?? {};
  let action;
  let advice;
  let rows;
  if (responding) {
    action = a.response === "pass" ? "pass" : "take";
    advice = { pass: "Pass.", take: "Take.", beaver: "Take: it is even worth a beaver." }[a.response] ?? "Take.";
    rows = [["take", "Take", -eq.double_take], ["pass", "Pass", -eq.double_pass]];
  } else {
    const doubling = a.action === "double" || a.action === "redouble";
    action = canDo(m, "double") && doubling && !a.too_good ? "double" : "roll";
    if (!canDo(m, "double")) advice = `${capital(w.name(w.decider))} cannot double now: roll.`;
    else if (a.too_good) advice = "Too good to double: roll on and play for a gammon.";
    else if (doubling) advice = `${a.action === "redouble" ? "Redouble" : "Double"}; ${w.name(w.other)} should ${a.response ?? "take"}.`;
    else advice = "No double: just roll.";
    rows = [["roll", "No double", eq.no_double], ["double", "Double, take", eq.double_take], ["double-pass", "Double, pass", eq.double_pass]];
  }
  markBest(`.bg-actions [data-key="${action}"]`);
  return h(
    "div",
    { class: "bg-analysis", dataset: { action, cubeAction: a.action ?? "", response: a.response ?? "" } },
    h("h3", {}, `The cube, as POST /backgammon/cube sees it${responding ? ` (${w.whose(w.decider)} equities, after ${w.whose(w.other)} double)` : ""}`),
    h("p", { class: "bg-advice" }, advice),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", {}, "choice"), h("th", {}, `${w.whose(w.decider)} equity`))),
      h("tbody", {}, rows.map(([k, name, e]) => h("tr", { class: k === action ? "best" : "", dataset: { choice: k } }, h("td", {}, name), h("td", {}, signed(e))))),
    ),
    chances(responding ? flipChances(a.probabilities) : a.probabilities, w),
    equityLine(responding ? flipEquity(a.equity) : a.equity, Boolean(st.match)),
    depthNote(a),
  );
}

// ---- the drawing ----------------------------------------------------------

// What the AI did since the person last acted, in order.
function lastAiMoves(m) {
  const moves = [];
  for (const e of [...m.history].reverse()) {
    if (e.actor === "human") break;
    if (e.actor === "ai" && e.move) moves.unshift(e.move);
  }
  return moves;
}

function describe(mv) {
  if (Array.isArray(mv.play)) {
    const roll = mv.dice ? `${diceText(mv.dice)}: ` : "";
    return mv.play.length ? `${roll}${playText(mv.play)}` : `${roll}could not move`;
  }
  if (mv.double) return "doubled";
  if (mv.take) return "took";
  if (mv.pass) return "passed";
  if (mv.roll) return mv.dice ? `rolled ${diceText(mv.dice)}` : "rolled";
  return JSON.stringify(mv);
}

export default {
  id: "backgammon",
  title: "Backgammon",

  statusText(m) {
    const st = m.state;
    // The AI's roll is said once: with its roll if that names the dice,
    // else with its play.
    let rolled = false;
    const ai = lastAiMoves(m).map((mv) => {
      if (!Array.isArray(mv.play)) {
        rolled = Boolean(mv.roll && mv.dice);
        return describe(mv);
      }
      const roll = mv.dice && !rolled ? `rolled ${diceText(mv.dice)} and ` : "";
      return `${roll}${mv.play.length ? `played ${playText(mv.play)}` : "could not move"}`;
    });
    const aiText = ai.length ? `The AI ${ai.join(", ")}. ` : "";
    let due = "";
    if (st.awaiting === "cube_or_roll") due = canDo(m, "double") ? "Your turn: double, or roll." : "Your turn: roll.";
    else if (st.awaiting === "cube_response") due = `Take (the cube at ${2 * st.cube.value}, yours) or pass?`;
    else if (st.awaiting === "play") {
      const none = legalPlays(m).every((p) => p.length === 0);
      due = `You rolled ${diceText(st.dice)}: ${none ? "no legal move, so you pass." : "click a checker, then a highlighted point."}`;
    }
    return `${aiText}${due} ${scoreText(st)}`.trim();
  },

  describeMove(mv) {
    return describe(mv);
  },

  // A roll's face is both dice as one number (31: 3-1); the opening
  // roll's first digit is the first player's die.
  describeRoll(face) {
    return `rolled ${Math.floor(face / 10)}-${face % 10}`;
  },

  render(m, { play, busy }) {
    const st = m.state;
    const open = m.status === "in_progress";
    const root = h("div", { class: "bg", dataset: { awaiting: st.awaiting ?? "" } });
    // The steps clicked so far and the picked checker are in the mover's
    // numbering (the legal plays'); `view` turns them onto the board.
    const view = seat(st);
    const w = words(st);
    const chosen = []; // the steps of the checker play clicked so far
    let selected = null;

    // The page ignores a second move while the first is on its way; a move
    // the server refuses leaves the steps on the board, to undo.
    const send = (move) => {
      if (!busy?.()) play(move);
    };
    const redraw = () => {
      const focused = root.contains(document.activeElement) ? document.activeElement.dataset?.key : undefined;
      const moved = applySteps(view.board, chosen);
      const board = view.shown(moved);
      const playing = open && st.awaiting === "play";
      const choice = playing ? playChoice(m, moved, chosen) : { sources: new Set(), targets: () => new Map(), complete: null, longer: false };
      // One checker to move (say from the bar): it is picked already.
      if (!selected && choice.sources.size === 1) selected = [...choice.sources][0];
      if (selected && !choice.sources.has(selected)) selected = null;
      const targets = selected ? choice.targets(selected) : new Map();
      const ui = {
        sources: new Set([...choice.sources].map(view.where)),
        targets: new Map([...targets].map(([where, step]) => [view.where(where), step])),
        selected: selected && view.where(selected),
        click: (where) => click(view.where(where)),
        top: view.top,
        words: w,
      };
      const pips = chosen.length ? pipsOf(board) : st.pips ?? pipsOf(board);
      const svg = drawBoard(board, diceUse(st.dice, chosen), st.cube, st.to_move !== "opponent", ui);
      if (best?.key === positionKey(m)) drawBest(svg, best.steps, view);
      root.replaceChildren(
        sideLine(w.label("opponent"), "opponent", pips, board),
        svg,
        sideLine(w.label("me"), "me", pips, board, h("span", { class: "muted bg-score" }, scoreText(st))),
        actions(choice),
      );
      if (focused) root.querySelector(`[data-key="${focused}"]`)?.focus();
    };
    current = { key: positionKey(m), redraw };

    // `where` in the mover's numbering.
    function click(where) {
      if (busy?.()) return;
      const choice = playChoice(m, applySteps(view.board, chosen), chosen);
      const step = selected ? choice.targets(selected).get(where) : undefined;
      if (step) {
        chosen.push(step);
        selected = null;
        const after = playChoice(m, applySteps(view.board, chosen), chosen);
        // A whole legal play: sent as the legal list has it, so the
        // server sees exactly one of its own plays.
        if (after.complete && !after.longer) send({ play: after.complete });
      } else {
        selected = choice.sources.has(where) && selected !== where ? where : null;
      }
      redraw();
    }

    function button(k, text, move, primary) {
      return h("button", { type: "button", class: primary ? "primary" : "", dataset: { key: k }, onclick: () => send(move) }, text);
    }

    function actions(choice) {
      const bar = h("div", { class: "bg-actions" });
      if (!open) return bar;
      if (diceDue(m)) bar.append(button("dice", st.awaiting === "opening" ? "Roll the opening dice" : "Roll the dice", { roll: null }, true));
      if (canDo(m, "roll")) bar.append(button("roll", "Roll", { roll: true }, true));
      if (canDo(m, "double")) bar.append(button("double", view.cube.owner === "me" ? "Redouble" : "Double", { double: true }));
      if (canDo(m, "take")) bar.append(button("take", "Take", { take: true }, true));
      if (canDo(m, "pass")) bar.append(button("pass", "Pass", { pass: true }));
      if (st.awaiting !== "play") return bar;
      const plays = legalPlays(m);
      if (plays.length && plays.every((p) => p.length === 0)) bar.append(button("no-move", "No legal move: pass", { play: [] }, true));
      // Only if a shorter play is whole while longer ones go on (the server
      // should not list such, but the person is not left stuck).
      if (choice.complete && choice.longer) bar.append(button("play", `Play ${playText(chosen)}`, { play: choice.complete }, true));
      if (chosen.length) {
        bar.append(
          h("span", { class: "bg-partial", dataset: { steps: playText(chosen) } }, playText(chosen)),
          h("button", { type: "button", dataset: { key: "undo" }, onclick: undo }, "Undo"),
        );
      }
      return bar;
    }

    // Takes back the last step (and with it any hit it made).
    function undo() {
      chosen.pop();
      selected = null;
      redraw();
    }

    redraw();
    return root;
  },

  async analyze(m, { evaluate }) {
    const awaiting = m.state.awaiting;
    if (awaiting === "play") return analyzePlay(m, evaluate);
    if (awaiting === "cube_or_roll" || awaiting === "cube_response") return analyzeCube(m, evaluate);
    if (diceDue(m)) return h("p", {}, "The dice are due: nothing to decide before they are thrown.");
    return h("p", {}, "Nothing for you to decide here.");
  },
};
