// Tic-tac-toe and m,n,k boards: state.board is row strings over X, O and
// "."; a move is {row, col}.

import { analyseStreamed } from "./api.js";
import { grid as uiGrid, h, markBest, withCoords } from "./ui.js";

const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;

function lastAiMove(m) {
  const last = m.history.at(-1);
  return last && last.actor === "ai" ? last.move : null;
}


const grid = (rows, cols, cell) => uiGrid(rows, cols, cell, "ttt");

const OUTCOME = { win: "you win", draw: "draw", loss: "you lose" };
const TOP_UNSOLVED = 5;

export default {
  id: "tictactoe",
  title: "Tic-tac-toe",



  statusText(m) {
    const ai = lastAiMove(m);
    const prefix = ai ? `The AI played ${cellName(ai.row, ai.col)}. ` : "";
    return `${prefix}You play ${m.state.human_plays}: your move.`;
  },

  describeMove(mv) {
    return `played ${cellName(mv.row, mv.col)}`;
  },

  render(m, { play }) {
    const board = m.state.board;
    const you = m.state.human_plays;
    const open = m.status === "in_progress";
    const ai = lastAiMove(m);
    const rows = board.length;
    const number = (i) => `${i + 1}`;
    return grid(rows, board[0].length, (r, c) => {
      const mark = board[r][c];
      const empty = mark === ".";
      const owner = empty ? "empty" : mark === you ? "yours" : "ai";
      const recent = ai && ai.row === r && ai.col === c;
      return withCoords(h(
        "button",
        {
          type: "button",
          role: "gridcell",
          class: `cell ${owner}${recent ? " recent" : ""}`,
          dataset: { key: `${r},${c}`, row: r, col: c },
          disabled: !(open && empty),
          "aria-label": `${cellName(r, c)}: ${empty ? "empty" : owner === "yours" ? `${mark}, yours` : `${mark}, the AI's`}`,
          onclick: () => play({ row: r, col: c }),
        },
        empty ? "" : mark,
      ), r, c, rows, number, number);
    });
  },

  async analyze(m, { thinking, evaluate }) {
    const board = m.state.board;
    const answer = await analyseStreamed("/tictactoe/move", { board, k: m.options.k, max_ms: 800 }, (line) =>
      thinking(`Thinking: depth ${line.depth}, best row ${line.move.row + 1}, column ${line.move.col + 1}…`),
    );
    evaluate(answer.evaluation);
    const byCell = new Map(answer.moves.map((mv) => [`${mv.row},${mv.col}`, mv]));
    const best = answer.move;
    markBest(`[data-key="${best.row},${best.col}"]`);
    // Unsolved cells are not "?" in a colour (grey means draw): they are
    // left blank and outlined, and only the search's top few are ranked.
    const ranked = answer.moves.filter((mv) => !mv.outcome).sort((a, b) => b.score - a.score).slice(0, TOP_UNSOLVED);
    const rank = new Map(ranked.map((mv, i) => [`${mv.row},${mv.col}`, i + 1]));
    const mini = grid(board.length, board[0].length, (r, c) => {
      const mv = byCell.get(`${r},${c}`);
      if (!mv) return h("div", { class: "cell mini taken" }, board[r][c]);
      const label = mv.outcome ? mv.outcome : `score ${mv.score}`;
      const isBest = best.row === r && best.col === c;
      return h(
        "div",
        {
          class: `cell mini outcome-${mv.outcome ?? "unknown"}${isBest ? " best" : ""}`,
          dataset: { row: r, col: c, outcome: mv.outcome ?? "" },
          title: `${cellName(r, c)}: ${label}`,
        },
        h("span", { class: "o" }, mv.outcome ?? (rank.has(`${r},${c}`) ? `#${rank.get(`${r},${c}`)}` : "")),
        mv.plies_to_end != null && mv.outcome !== "draw" ? h("small", {}, `${mv.plies_to_end} plies`) : null,
      );
    });
    const verdict = answer.outcome
      ? `With perfect play from here: ${OUTCOME[answer.outcome]}.`
      : `Not solved within the time; the search's score is ${answer.score}.`;
    return h(
      "div",
      { class: "ttt-analysis" },
      h("h3", {}, "Every move, as POST /tictactoe/move sees it"),
      h("p", {}, verdict, ` Best: ${cellName(best.row, best.col)}.`),
      mini,
      h(
        "p",
        { class: "legend" },
        h("span", { class: "swatch outcome-win" }), " you can force a win ",
        h("span", { class: "swatch outcome-draw" }), " draw ",
        h("span", { class: "swatch outcome-loss" }), " loses against best play ",
        h("span", { class: "swatch outcome-unknown" }), ` not solved in time (#1..#${TOP_UNSOLVED}: the search's favourites)`,
      ),
    );
  },
};
