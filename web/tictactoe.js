// Tic-tac-toe and m,n,k boards: state.board is row strings over X, O and
// "."; a move is {row, col}.

import { analyseStreamed } from "./api.js";
import { grid as uiGrid, h } from "./ui.js";

const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;

function lastAiMove(m) {
  const last = m.history.at(-1);
  return last && last.actor === "ai" ? last.move : null;
}


const grid = (rows, cols, cell) => uiGrid(rows, cols, cell, "ttt");

const OUTCOME = { win: "you win", draw: "draw", loss: "you lose" };

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
    return grid(board.length, board[0].length, (r, c) => {
      const mark = board[r][c];
      const empty = mark === ".";
      const owner = empty ? "empty" : mark === you ? "yours" : "ai";
      const recent = ai && ai.row === r && ai.col === c;
      return h(
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
      );
    });
  },

  async analyze(m, { thinking }) {
    const board = m.state.board;
    const answer = await analyseStreamed("/tictactoe/move", { board, k: m.options.k, max_ms: 800 }, (line) =>
      thinking(`Thinking: depth ${line.depth}, best row ${line.move.row + 1}, column ${line.move.col + 1}…`),
    );
    const byCell = new Map(answer.moves.map((mv) => [`${mv.row},${mv.col}`, mv]));
    const best = answer.move;
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
        h("span", { class: "o" }, mv.outcome ?? "?"),
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
        h("span", { class: "swatch outcome-loss" }), " loses against best play",
      ),
    );
  },
};
