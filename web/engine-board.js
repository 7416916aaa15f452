// What the boards of the Fairy-Stockfish games (xiangqi, shogi) share: SVG
// elements, the engine's lines drawn as arrows over the board, scores in
// words, and the analysis from the game's POST /{game}/move (its lines,
// the eval bar, the best move marked on the board).

import { analyse } from "./api.js";
import { h, markBest } from "./ui.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// svg("line", {x1: 0, ...}, child...) -> an SVG element.
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child);
  return el;
}

// The notation of the last move in the match's history, under `key`.
export function lastMove(m, key) {
  const last = [...m.history].reverse().find((e) => e.move?.[key]);
  return last ? last.move[key] : null;
}

// The latest move the AI made, or null.
export function lastAiMove(m, key) {
  const ai = [...m.history].reverse().find((e) => e.actor === "ai" && e.move?.[key]);
  return ai ? ai.move[key] : null;
}

// Arrows over `layer`'s parent, one per move, the best first and boldest.
// `arrow(move)` gives [[x1, y1], [x2, y2]] in the board's units (a board
// `width` x `height` units wide), or null for a move with no arrow.
export function drawArrows(parent, moves, arrow, width, height) {
  parent.querySelector("svg.arrows")?.remove();
  const colour = "rgba(21, 120, 27, .85)";
  const layer = svg("svg", { class: "arrows", viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" });
  const head = svg("marker", { id: "engine-arrowhead", markerWidth: 4, markerHeight: 4, refX: 2.2, refY: 2, orient: "auto" });
  head.append(svg("path", { d: "M0,0 L4,2 L0,4 z", fill: colour }));
  layer.append(svg("defs", {}, head));
  moves.forEach((move, i) => {
    const ends = arrow(move);
    if (!ends) return;
    const [[x1, y1], [x2, y2]] = ends;
    layer.append(
      svg("line", {
        x1, y1, x2, y2,
        class: i === 0 ? "arrow best" : "arrow",
        "data-move": move,
        stroke: colour,
        "stroke-width": i === 0 ? 0.18 : 0.1,
        "stroke-opacity": i === 0 ? 0.9 : 0.5,
        "stroke-linecap": "round",
        "marker-end": "url(#engine-arrowhead)",
      }),
    );
  });
  parent.append(layer);
}

export function scoreText(score) {
  if (!score) return "?";
  if ("mate" in score) return score.mate > 0 ? `mate in ${score.mate}` : `mated in ${-score.mate}`;
  const units = score.cp / 100;
  return `${units > 0 ? "+" : ""}${units.toFixed(2)}`;
}

// Asks `path` about the match's position (its start and the moves from
// there, so the engine knows the repetitions), feeds the eval bar, marks
// the best move on the board and draws the lines. `view` says how, in the
// game's terms: `best(move)` the selector of the move's destination,
// `from(move)` its origin's (or null), `arrow` and the board's `width`
// and `height` as drawArrows takes them, `board` the element the arrows
// cover, `name(move)` a move in words.
export async function engineAnalysis(m, evaluate, { path, position, view }) {
  const body = { moves: m.state.moves, max_ms: 800, multi_pv: 3 };
  if (position) body.position = position;
  const answer = await analyse(path, body);
  evaluate(answer.evaluation);
  const best = answer.move.notation;
  markBest(view.best(best));
  const from = view.from(best);
  if (from) document.querySelector(`#board ${from}`)?.classList.add("best-from");
  const board = document.querySelector(`#board ${view.board}`);
  const firstMoves = answer.pvs.map((pv) => pv.moves[0]).filter(Boolean);
  if (board) drawArrows(board, firstMoves, view.arrow, view.width, view.height);
  const verdict = answer.solved
    ? `Fairy-Stockfish proved it: ${scoreText(answer.score)} for the side to move.`
    : `Fairy-Stockfish's estimate at depth ${answer.depth}: ${scoreText(answer.score)} for the side to move (${answer.win_percent.toFixed(1)}% winning chances).`;
  return h(
    "div",
    { class: "line-analysis" },
    h("h3", {}, `Fairy-Stockfish's best lines, as POST ${path} gives them (arrows on the board)`),
    h("p", {}, verdict, ` Best: ${answer.move.readable ? `${answer.move.readable}, ` : ""}${best} (${view.name(best)}).`),
    h(
      "ol",
      { class: "lines" },
      answer.pvs.map((pv) => h("li", { class: "line", dataset: { move: pv.moves[0] ?? "" } }, `${scoreText(pv.score)}  ${(pv.readable?.length ? pv.readable : pv.moves).slice(0, 8).join(" ")}`)),
    ),
  );
}
