// Number Square ("Persegi Bilangan"): state is {board: rows of numbers with
// null for taken tiles, scores: {human, ai}}; a move is {row, col}. Which
// tiles may be taken comes from the match's legal_moves (the server keeps
// the rules).

import { analyseStreamed } from "./api.js";
import { grid as uiGrid, h, markBest, ownersFromHistory } from "./ui.js";

const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;

const takeableTiles = (m) => new Set((m.legal_moves ?? []).map(({ row, col }) => `${row},${col}`));

const grid = (n, cell) => uiGrid(n, n, cell, "nsq");

export default {
  id: "number-square",
  title: "Number Square",



  statusText(m) {
    const last = m.history.at(-1);
    const ai = last && last.actor === "ai" ? `The AI took ${cellName(last.move.row, last.move.col)}. ` : "";
    return `${ai}You ${m.state.scores.human}, AI ${m.state.scores.ai}. Take a highlighted tile (on the edge or next to a taken one).`;
  },

  describeMove(mv) {
    return `took ${cellName(mv.row, mv.col)}`;
  },

  render(m, { play }) {
    const board = m.state.board;
    const owners = ownersFromHistory(m.history);
    const dealt = m.options.board; // the values of taken tiles, when the options carry the deal
    const takeable = takeableTiles(m);
    return h(
      "div",
      { class: "number-square" },
      // On the analysis board both sides are the person's: "you" is the side to move.
      m.id === "analysis"
        ? h("p", { class: "scoreline" }, h("span", { class: "you" }, `To move ${m.state.scores.human}`), " · ", h("span", { class: "them" }, `other side ${m.state.scores.ai}`))
        : h("p", { class: "scoreline" }, h("span", { class: "you" }, `You ${m.state.scores.human}`), " · ", h("span", { class: "them" }, `AI ${m.state.scores.ai}`)),
      grid(board.length, (r, c) => {
        const value = board[r][c];
        if (value === null) {
          const owner = owners.get(`${r},${c}`) ?? "taken";
          // The state keeps no value for a taken tile: show whose it is.
          const shown = dealt?.[r]?.[c] ?? { human: "you", ai: "AI" }[owner] ?? "";
          return h("div", { class: `cell taken by-${owner}`, role: "gridcell", "aria-label": `${cellName(r, c)}: taken${owner === "taken" ? "" : owner === "human" ? " by you" : " by the AI"}` }, shown);
        }
        const can = takeable.has(`${r},${c}`);
        return h(
          "button",
          { type: "button", role: "gridcell", class: `cell tile${can ? " takeable" : ""}`, dataset: { key: `${r},${c}`, row: r, col: c }, disabled: !can, "aria-label": `${cellName(r, c)}: ${value}${can ? "" : ", not reachable yet"}`, onclick: () => play({ row: r, col: c }) },
          value,
        );
      }),
    );
  },

  async analyze(m, { thinking, evaluate }) {
    const board = m.state.board;
    const a = await analyseStreamed("/number-square/move", 
      { board, my_score: m.state.scores.human, opponent_score: m.state.scores.ai, max_ms: 800 },
      (line) => thinking(`Thinking: depth ${line.depth}, best ${cellName(line.move.row, line.move.col)}, value ${line.value}…`),
    );
    evaluate(a.evaluation);
    markBest(`[data-key="${a.move.row},${a.move.col}"]`);
    // A tile's `value` counts only the points still to come; the headline's
    // final margin adds the points already taken. Each tile shows the same
    // measure as the headline: the final margin if you take it.
    const already = m.state.scores.human - m.state.scores.ai;
    const values = new Map(a.moves.map((mv) => [`${mv.row},${mv.col}`, mv.value + already]));
    const mini = grid(board.length, (r, c) => {
      const v = values.get(`${r},${c}`);
      if (v === undefined) return h("div", { class: "cell mini taken" }, board[r][c] === null ? "" : "·");
      const best = a.move.row === r && a.move.col === c;
      return h("div", { class: `cell mini ${v > 0 ? "outcome-win" : v < 0 ? "outcome-loss" : "outcome-draw"}${best ? " best" : ""}`, dataset: { value: v, row: r, col: c }, title: `${cellName(r, c)}: ${v}` }, v > 0 ? `+${v}` : v);
    });
    return h(
      "div",
      { class: "nsq-analysis" },
      h("h3", {}, "POST /number-square/move: the final margin after each takeable tile"),
      h("p", {}, `Best: ${cellName(a.move.row, a.move.col)}; you would end ${a.final_margin >= 0 ? "+" : ""}${a.final_margin} (${a.outcome})${a.solved ? "" : ", by a search that has not seen the end"}.`),
      h("p", { class: "legend" }, "Each tile: how the game would end (your final score minus the AI's) if you take it and both then play well: green you win, red you lose."),
      mini,
    );
  },
};
