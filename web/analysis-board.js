// The analysis board: the person plays both sides of a game the page knows
// the rules of (its `{game}-rules.js`), steps back and forth through the
// moves, sets up a position, asks for a review and shares a link. The
// service is asked only for its opinion (the game's analysis endpoint and
// the stateless review), never to keep the game.

import * as api from "./api.js";
import { h } from "./ui.js";
import { goTo, newLine, play, playAll, positionAt } from "./line.js";
import { markHistory } from "./review.js";
import { readHash, writeHash } from "./share.js";

const $ = (id) => document.getElementById(id);

// A game's rules for this board are the module `{id}-rules.js` its folder
// serves beside its drawing (ServedGame::RULES_SCRIPT); a game without one
// is played against the AI only.
const RULES = new Map();
export async function rulesFor(gameId) {
  if (!RULES.has(gameId)) {
    RULES.set(
      gameId,
      import(`./${gameId}-rules.js`).then(
        (module) => module.default,
        () => null,
      ),
    );
  }
  return RULES.get(gameId);
}

// Every option filled in: the catalog's defaults under what the person set.
export function withDefaults(entry, options) {
  const all = {};
  for (const o of entry.options) all[o.name] = o.default ?? null;
  return { ...all, ...options };
}

export function create(gameId, rules, options, start) {
  const line = newLine(rules, options, start ?? rules.start(options));
  line.game = gameId;
  // A start the person set up is not the game's own: the stateless review
  // replays from the options' start, so it cannot review such a line
  // (unless the start is an option itself, as chess's FEN).
  line.custom = start != null && !rules.parseMoves && !rules.startInOptions;
  return line;
}

// The line a share link describes (null if none, or for a game without rules).
export async function fromHash(hash) {
  const saved = readHash(hash);
  if (!saved || saved.mode !== "analysis") return null;
  const rules = await rulesFor(saved.game);
  if (!rules) return null;
  const start = saved.start != null && rules.parse ? rules.parse(saved.start, saved.options) : null;
  const line = create(saved.game, rules, saved.options, start);
  line.custom = saved.start != null && !rules.startInOptions && Boolean(rules.format) && rules.format(rules.start(saved.options)) !== saved.start;
  playAll(line, saved.moves);
  return goTo(line, saved.cursor < 0 ? line.moves.length : saved.cursor);
}

function hashOf(line, flipped) {
  const start = line.rules.format && line.rules.parse ? line.rules.format(line.start) : null;
  return writeHash({ game: line.game, options: line.options, start, moves: line.moves, cursor: line.cursor }) + (flipped ? "&flip=1" : "");
}

// The drawing modules draw a match object: the line's position dressed as one.
export function asMatch(line, level) {
  const { rules } = line;
  const position = positionAt(line);
  const result = rules.result(position, line.options);
  return {
    id: "analysis",
    game: line.game,
    options: rules.matchOptions ? rules.matchOptions(line.start, line.options) : line.options,
    ai: { strategy: "best", level },
    status: result ? "finished" : "in_progress",
    ply: line.cursor,
    state: rules.asMatchState(position),
    // A die's face (Pig) is its own history entry, as in a match.
    history: line.moves.slice(0, line.cursor).flatMap((move, i) => [
      { ply: i + 1, actor: "human", move, roll: null },
      ...(move.roll != null ? [{ ply: i + 1, actor: "dice", move: null, roll: move.roll }] : []),
    ]),
    legal_moves: result ? [] : rules.legal(position, line.options),
    result: result ? { winner: result.winner } : null,
    position,
    outcome: result,
  };
}

export function statusText(line, m) {
  const { rules } = line;
  if (m.outcome) {
    const w = m.outcome.winner;
    const scores = m.outcome.scores ? ` (${Object.entries(m.outcome.scores).map(([side, n]) => `${rules.names[side]} ${n}`).join(", ")})` : "";
    return `${w === "draw" ? "A draw" : `${rules.names[w]} wins`}${scores}. Step back (←) to try another move.`;
  }
  return `${rules.names[rules.toMove(m.position)]} to move (ply ${line.cursor}).`;
}

// The eval bar's view: the first player on the left, always.
export function barView(line, m) {
  const [first, second] = line.rules.players;
  return { moverIsLeft: line.rules.toMove(m.position) === first, left: line.rules.names[first], right: line.rules.names[second] };
}

function moveList(line, onGo) {
  const items = [];
  let state = line.start;
  line.moves.forEach((mv, i) => {
    const mover = line.rules.toMove(state);
    const text = line.rules.notation(mv, state, line.options);
    items.push(
      h(
        "li",
        { value: i + 1, class: `${i + 1 === line.cursor ? "current" : ""}${i >= line.cursor ? " future" : ""}`, dataset: { ply: i + 1, side: mover ?? "" } },
        h("button", { type: "button", class: "move", "aria-current": i + 1 === line.cursor ? "step" : undefined, onclick: () => onGo(i + 1) }, text),
      ),
    );
    state = line.rules.apply(state, mv, line.options);
  });
  return items;
}

// Draws the line's tools: the move list, navigation, set-up text, share link.
export function showTools(line, { onGo, flipped }) {
  $("line-tools").hidden = false;
  $("moves").replaceChildren(...moveList(line, onGo));
  $("nav-first").disabled = $("nav-back").disabled = line.cursor === 0;
  $("nav-forward").disabled = $("nav-last").disabled = line.cursor === line.moves.length;
  $("position-help").textContent = line.rules.setupHelp;
  const text = $("position-text");
  if (document.activeElement !== text) {
    text.value = line.rules.formatMoves ? line.rules.formatMoves(line.moves.slice(0, line.cursor)) : line.rules.format(positionAt(line));
  }
  const hash = hashOf(line, flipped);
  $("share-link").href = hash;
  history.replaceState(null, "", hash);
  $("review-line").hidden = line.rules.reviewable === false;
  $("review-line").disabled = line.custom || line.moves.length === 0;
  $("review-line").title = line.custom ? "A set-up position cannot be reviewed: the review replays from the game's start." : "";
}

// The set-up text: a position in the game's own format, or (Connect Four)
// the moves that reach it.
export function setUp(line, text) {
  const { rules } = line;
  if (rules.parseMoves) {
    const fresh = create(line.game, rules, line.options);
    return playAll(fresh, rules.parseMoves(text));
  }
  const start = rules.parse(text, line.options);
  return playAll(create(line.game, rules, rules.optionsFor(start, line.options), start), []);
}

export { goTo, play, playAll };

// The stateless review of the whole line, its judgments put beside the moves.
export async function review(line, path) {
  const answer = await api.analyse(path, { options: line.options, moves: line.moves });
  markHistory($("moves"), answer);
  return answer;
}
