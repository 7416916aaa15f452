// Nine Square: state is {board: 9 row strings, human_plays, dice, score:
// {X, O}}; the server has already rolled the person's die, and a move is
// {placements: [{row, col}, ...]}, exactly min(dice, empty cells) of them.

import { analyseStreamed } from "./api.js";
import { die, grid as uiGrid, h } from "./ui.js";

const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;

// The person's picks survive re-renders of the same position only.
let picks = { at: null, cells: [] };

function emptyCells(board) {
  let n = 0;
  for (const row of board) for (const ch of row) if (ch === ".") n++;
  return n;
}

// The grid has a narrow empty track between boxes (see style.css), so every
// cell stays square and the 3x3 boxes stand apart.
function grid(cell) {
  return uiGrid(9, 9, (r, c) => {
    const e = cell(r, c);
    e.style.gridColumn = String(c + Math.floor(c / 3) + 1);
    e.style.gridRow = String(r + Math.floor(r / 3) + 1);
    return e;
  }, "nine");
}

export default {
  id: "nine-square",
  title: "Nine Square",



  statusText(m) {
    const need = Math.min(m.state.dice, emptyCells(m.state.board));
    const lastAi = [...m.history].reverse().find((e) => e.actor === "ai");
    const ai = lastAi && m.history.at(-2) === lastAi ? `The AI placed ${lastAi.move.placements.length}. ` : "";
    return `${ai}You play ${m.state.human_plays} and rolled ${m.state.dice}: pick ${need} empty cell${need === 1 ? "" : "s"}, then place them.`;
  },

  describeMove(mv) {
    return `placed ${mv.placements.length}: ${mv.placements.map((p) => `(${p.row + 1},${p.col + 1})`).join(" ")}`;
  },

  render(m, { play }) {
    const { board, human_plays: you, dice, score } = m.state;
    const them = you === "X" ? "O" : "X";
    // On the analysis board both sides are the person's: the marks name them.
    const names = m.id === "analysis" ? { you: `${you} to place:`, them: them } : { you: `You (${you})`, them: `AI (${them})` };
    const open = m.status === "in_progress";
    const need = Math.min(dice, emptyCells(board));
    const at = `${m.id}/${m.ply}`;
    if (picks.at !== at) picks = { at, cells: [] };
    const lastAi = [...m.history].reverse().find((e) => e.actor === "ai");
    const recent = new Set((lastAi?.move.placements ?? []).map((p) => `${p.row},${p.col}`));

    const placeButton = h("button", { type: "button", class: "primary", id: "nine-place", dataset: { key: "place" } });
    const counter = h("span", { class: "pick-count", "aria-live": "polite" });
    const sync = () => {
      placeButton.textContent = `Place ${picks.cells.length} of ${need}`;
      placeButton.disabled = !open || picks.cells.length !== need;
      counter.textContent = `${picks.cells.length} of ${need} picked`;
    };
    placeButton.addEventListener("click", () => play({ placements: picks.cells.map(([row, col]) => ({ row, col })) }));

    const boardEl = grid((r, c) => {
      const mark = board[r][c];
      const key = `${r},${c}`;
      if (mark !== ".") {
        return h("div", { class: `cell ${mark === you ? "yours" : "ai"}${recent.has(key) ? " recent" : ""}`, role: "gridcell", "aria-label": `${cellName(r, c)}: ${mark}` }, mark);
      }
      const btn = h("button", { type: "button", role: "gridcell", class: "cell empty", dataset: { key, row: r, col: c }, disabled: !open, "aria-pressed": "false", "aria-label": `${cellName(r, c)}: empty` });
      const paint = () => {
        const on = picks.cells.some(([y, x]) => y === r && x === c);
        btn.classList.toggle("picked", on);
        btn.setAttribute("aria-pressed", String(on));
        btn.textContent = on ? you : "";
      };
      btn.addEventListener("click", () => {
        const i = picks.cells.findIndex(([y, x]) => y === r && x === c);
        if (i >= 0) picks.cells.splice(i, 1);
        else if (picks.cells.length < need) picks.cells.push([r, c]);
        paint();
        sync();
      });
      paint();
      return btn;
    });
    sync();

    return h(
      "div",
      { class: "nine-square" },
      h(
        "div",
        { class: "nine-head" },
        die(dice, m.id === "analysis" ? `${you} rolled ${dice}` : `your roll: ${dice}`),
        h("p", { class: "scoreline" }, h("span", { class: "you" }, `${names.you} `, h("strong", { id: "nine-score-you" }, score[you])), " · ", h("span", { class: "them" }, `${names.them} `, h("strong", {}, score[them]))),
      ),
      boardEl,
      h(
        "div",
        { class: "actions" },
        placeButton,
        h("button", { type: "button", dataset: { key: "clear" }, disabled: !open, onclick: () => { picks.cells = []; boardEl.querySelectorAll("button.picked").forEach((b) => { b.classList.remove("picked"); b.textContent = ""; b.setAttribute("aria-pressed", "false"); }); sync(); } }, "Clear"),
        counter,
      ),
      h("p", { class: "legend" }, "A line of three of your marks in one box scores 1; a full box 8; a line of nine across the grid 3 more."),
    );
  },

  async analyze(m, { thinking, evaluate }) {
    const { board, human_plays: you, dice } = m.state;
    const a = await analyseStreamed("/nine-square/move", { board, player: you, dice, max_ms: 500 }, (line) =>
      thinking(`Thinking: ${line.nodes} positions searched, expected margin ${line.expected_margin.toFixed(1)}…`),
    );
    evaluate(a.evaluation);
    const suggested = new Set(a.placements.map((p) => `${p.row},${p.col}`));
    // The suggested cells are marked on the board too (several: one per mark to place).
    for (const el of document.querySelectorAll("#board .best-move")) el.classList.remove("best-move");
    for (const key of suggested) document.querySelector(`#board .nine-square [data-key="${key}"]`)?.classList.add("best-move");
    const mini = grid((r, c) => {
      const mark = board[r][c];
      const s = suggested.has(`${r},${c}`);
      return h("div", { class: `cell mini${s ? " best" : ""}${mark === "." ? "" : " taken"}` }, s ? you : mark === "." ? "" : mark);
    });
    const margin = a.expected_margin;
    return h(
      "div",
      { class: "nine-analysis" },
      h("h3", {}, "POST /nine-square/move: where the AI would put your marks"),
      h("p", {}, `Expected final margin for you: ${margin >= 0 ? "+" : ""}${margin.toFixed(1)}${a.solved ? " (exact)" : " (search estimate)"}.`),
      mini,
    );
  },
};
