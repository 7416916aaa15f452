// Othello: state.board is row strings over X (black), O (white) and ".",
// top row (row 1) first; a move is {square: "d3"} (column letter, row
// number, a1 top-left). The squares the person may take come from the
// match's legal_moves; a side with no square passes by itself.

import { analyse } from "./api.js";
import { h, markBest, withCoords } from "./ui.js";

const LETTERS = "abcdefgh";
const squareName = (r, c) => `${LETTERS[c]}${r + 1}`;
const legalSquares = (m) => new Set((m.legal_moves ?? []).map((mv) => mv.square).filter(Boolean));

function lastAiMove(m) {
  const last = [...m.history].reverse().find((e) => e.actor === "ai");
  return last ? last.move : null;
}

const count = (board, mark) => board.join("").split(mark).length - 1;
const OUTCOME = { win: "you win", draw: "draw", loss: "you lose" };

export default {
  id: "othello",
  title: "Othello",

  statusText(m) {
    const ai = lastAiMove(m);
    const aiText = !ai ? "" : ai.pass ? "The AI had no move and passed. " : `The AI played ${ai.square}. `;
    const you = m.state.human_plays;
    const board = m.state.board;
    return `${aiText}You play ${you === "X" ? "black (X)" : "white (O)"}: ${count(board, "X")} black, ${count(board, "O")} white. Pick a highlighted square.`;
  },

  describeMove(mv) {
    return mv.pass ? "passed" : `played ${mv.square}`;
  },

  render(m, { play }) {
    const board = m.state.board;
    const side = board.length;
    const you = m.state.human_plays;
    const open = m.status === "in_progress";
    const legal = open ? legalSquares(m) : new Set();
    const ai = lastAiMove(m);
    const el = h("div", { class: "grid discs", role: "grid" });
    el.style.setProperty("--cols", side);
    for (let r = 0; r < side; r++) {
      const row = h("div", { class: "grid-row", role: "row" });
      for (let c = 0; c < side; c++) {
        const name = squareName(r, c);
        const mark = board[r][c];
        const empty = mark === ".";
        const owner = empty ? "empty" : mark === "X" ? "black" : "white";
        const mine = !empty && mark === you;
        const recent = ai && ai.square === name;
        const playable = legal.has(name);
        row.append(withCoords(
          h(
            "button",
            {
              type: "button",
              role: "gridcell",
              class: `cell disc ${owner}${playable ? " legal" : ""}${recent ? " recent" : ""}`,
              dataset: { key: name, square: name },
              disabled: !playable,
              "aria-label": `${name}: ${empty ? (playable ? "empty, you may play here" : "empty") : `${owner}${mine ? ", yours" : ", the AI's"}`}`,
              onclick: () => play({ square: name }),
            },
            h("span", { class: "stone" }),
          ),
          r, c, side, (i) => `${i + 1}`, (i) => LETTERS[i],
        ));
      }
      el.append(row);
    }
    return el;
  },

  async analyze(m, { evaluate }) {
    const board = m.state.board;
    const answer = await analyse("/othello/move", { board, player: m.state.to_move, max_ms: 800 });
    for (const mv of answer.moves) {
      const cell = document.querySelector(`.discs [data-square="${mv.square}"]`);
      if (!cell) continue;
      cell.dataset.score = mv.score;
      cell.title = `${mv.square}: ${mv.solved ? "exact" : "estimate"} ${mv.score > 0 ? "+" : ""}${mv.score}`;
      cell.append(h("small", { class: `square-score${mv.solved ? " exact" : ""}` }, `${mv.solved ? "" : "~"}${mv.score}`));
    }
    evaluate(answer.evaluation);
    const best = answer.move.pass ? "pass" : answer.move.square;
    if (!answer.move.pass) markBest(`.discs [data-square="${best}"]`);
    const verdict = answer.outcome
      ? `With perfect play from here: ${OUTCOME[answer.outcome]} by ${Math.abs(answer.score)} discs.`
      : `Not solved within the time; searched ${answer.depth} plies, estimate ${answer.score} discs.`;
    return h(
      "div",
      { class: "square-analysis" },
      h("h3", {}, "Every legal square, as POST /othello/move scores it (on the board)"),
      h("p", {}, verdict, ` Best: ${best}.`),
      h("p", { class: "legend" }, "Final disc difference for the side to move, empties to the winner; ~ marks an estimate."),
    );
  },
};
