// Connect Four: state.board is row strings over X, O and ".", top row
// first; a move is {column}, 1-based. Stones drop, so the person picks a
// column: any cell of it, or the drop button above it.

import { analyseStreamed } from "./api.js";
import { grid as uiGrid, h, markBest } from "./ui.js";

function lastAiMove(m) {
  const last = m.history.at(-1);
  return last && last.actor === "ai" ? last.move : null;
}

// The row (top first) where the last stone of `column` (1-based) sits.
function topStone(board, column) {
  return board.findIndex((row) => row[column - 1] !== ".");
}

const OUTCOME = { win: "you win", draw: "draw", loss: "you lose" };

function scoreText(mv) {
  if (!mv.playable) return "full";
  if (mv.outcome) return mv.score > 0 ? `+${mv.score}` : `${mv.score}`;
  return `~${mv.score}`;
}

function scoreTitle(mv) {
  if (!mv.playable) return `column ${mv.column}: full`;
  if (!mv.outcome) return `column ${mv.column}: not solved in time (estimate ${mv.score})`;
  const end = mv.outcome === "draw" ? "" : ` in ${mv.plies_to_end} plies`;
  return `column ${mv.column}: ${OUTCOME[mv.outcome]}${end} (score ${mv.score})`;
}

export default {
  id: "connect-four",
  title: "Connect Four",



  statusText(m) {
    const ai = lastAiMove(m);
    const prefix = ai ? `The AI dropped a stone in column ${ai.column}. ` : "";
    return `${prefix}You play ${m.state.human_plays}: pick a column.`;
  },

  describeMove(mv) {
    return `dropped in column ${mv.column}`;
  },

  render(m, { play }) {
    const board = m.state.board;
    const cols = board[0].length;
    const you = m.state.human_plays;
    const open = m.status === "in_progress";
    const ai = lastAiMove(m);
    const recentRow = ai ? topStone(board, ai.column) : -1;
    const drops = h("div", { class: "c4-drops" });
    drops.style.setProperty("--cols", cols);
    for (let c = 0; c < cols; c++) {
      const playable = open && board[0][c] === ".";
      drops.append(
        h(
          "button",
          {
            type: "button",
            class: "c4-drop",
            dataset: { key: `drop-${c + 1}`, column: c + 1 },
            disabled: !playable,
            "aria-label": `drop a stone in column ${c + 1}${playable ? "" : " (full)"}`,
            onclick: () => play({ column: c + 1 }),
          },
          `${c + 1}`,
        ),
      );
    }
    const cells = uiGrid(board.length, cols, (r, c) => {
      const mark = board[r][c];
      const empty = mark === ".";
      const owner = empty ? "empty" : mark === you ? "yours" : "ai";
      const recent = ai && ai.column === c + 1 && r === recentRow;
      return h(
        "div",
        {
          role: "gridcell",
          class: `cell c4-cell ${owner}${recent ? " recent" : ""}`,
          dataset: { row: r, col: c },
          "aria-label": `row ${r + 1}, column ${c + 1}: ${empty ? "empty" : owner === "yours" ? `${mark}, yours` : `${mark}, the AI's`}`,
          onclick: open && board[0][c] === "." ? () => play({ column: c + 1 }) : undefined,
        },
        h("span", { class: "stone" }),
      );
    }, "c4");
    // The analysis puts each column's score here, right above the column.
    const scores = h("div", { class: "c4-scores-slot", "aria-live": "polite" });
    const frame = h("div", { class: "c4-board" }, scores, drops, cells);
    frame.style.setProperty("--c4-cols", cols);
    return frame;
  },

  async analyze(m, { evaluate }) {
    const board = m.state.board;
    // While it thinks, the slot above the board says how far it got.
    const slot = document.querySelector(".c4-scores-slot");
    const answer = await analyseStreamed("/connect-four/move", { board, k: m.options.k, max_ms: 800 }, (line) =>
      slot?.replaceChildren(
        h("div", { class: "c4-thinking", role: "status" }, `Thinking: depth ${line.depth}, best column ${line.move.column}…`),
      ),
    );
    evaluate(answer.evaluation);
    markBest(`.c4-drop[data-column="${answer.move.column}"]`);
    const row = h("div", { class: "c4-scores", role: "list" });
    row.style.setProperty("--cols", board[0].length);
    for (const mv of answer.moves) {
      const best = mv.column === answer.move.column;
      row.append(
        h(
          "div",
          {
            role: "listitem",
            class: `c4-score outcome-${mv.playable ? mv.outcome ?? "unknown" : "full"}${best ? " best" : ""}`,
            dataset: { column: mv.column, score: mv.playable ? mv.score : "", outcome: mv.outcome ?? "" },
            title: scoreTitle(mv),
          },
          scoreText(mv),
        ),
      );
    }
    document.querySelector(".c4-scores-slot")?.replaceChildren(row);
    const verdict = answer.outcome
      ? `With perfect play from here: ${OUTCOME[answer.outcome]}${answer.outcome === "draw" ? "" : ` in ${answer.plies_to_end} plies`}.`
      : `Not solved within the time; searched ${answer.depth} plies, estimate ${answer.score}.`;
    return h(
      "div",
      { class: "c4-analysis" },
      h("h3", {}, "Every column, as POST /connect-four/move scores it (above the board)"),
      h("p", {}, verdict, ` Best: column ${answer.move.column}.`),
      h(
        "p",
        { class: "legend" },
        "Scores as the standard solvers give them: positive wins (higher is sooner), 0 draws, negative loses; ~ marks an estimate. ",
        h("span", { class: "swatch outcome-win" }), " win ",
        h("span", { class: "swatch outcome-draw" }), " draw ",
        h("span", { class: "swatch outcome-loss" }), " loss",
      ),
    );
  },
};
