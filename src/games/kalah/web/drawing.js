// Kalah: state.board is {south, north, south_store, north_store}, each
// side's houses in its own sowing order (south[i] faces north[m-1-i]); a
// move is {house: h}, 1..m in the mover's order. Drawn from South's seat:
// North's row on top, right to left; South's below, left to right; North's
// store on the left, South's on the right.

import { analyse } from "./api.js";
import { h, markBest } from "./ui.js";

// The board's look travels with the drawing (the page's stylesheet stays
// the games' shared one).
const STYLE = `
.mancala { display: inline-flex; align-items: stretch; gap: 4px; background: #8a5a2b; padding: 6px; border-radius: 14px; max-width: 100%; }
.mancala .store { display: flex; align-items: center; justify-content: center; min-width: 2rem; padding: 0 0.3rem; border-radius: 1.5rem; background: #5e3b17; color: #fff; font-size: 1.3rem; font-weight: bold; }
.mancala-rows { display: grid; gap: 6px; }
.mancala-row { display: grid; grid-template-columns: repeat(var(--cols), minmax(1.5rem, 3.4rem)); gap: 4px; }
.mancala .pit { aspect-ratio: 1; min-width: 0; padding: 0; border-radius: 50%; background: #6d4520; color: #fff; border: 2px solid #5e3b17; display: flex; flex-direction: column; align-items: center; justify-content: center; font-size: 1.1rem; }
.mancala .pit.legal { border-color: #ffd54a; cursor: pointer; }
.mancala .pit:disabled { opacity: 0.9; cursor: default; }
.mancala .pit small { font-size: 0.7rem; }
`;
// A constructed stylesheet: the page's Content Security Policy allows no
// inline <style>, and this keeps the look in the drawing's own file.
const sheet = new CSSStyleSheet();
sheet.replaceSync(STYLE);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

const legalHouses = (m) => new Set((m.legal_moves ?? []).map((mv) => mv.house));
const OUTCOME = { win: "you win", draw: "draw", loss: "you lose" };

function lastAiMoves(m) {
  const moves = [];
  for (const e of [...m.history].reverse()) {
    if (e.actor !== "ai") break;
    moves.unshift(e.move.house);
  }
  return moves;
}

function house(side, index, seeds, { playable, mine, play }) {
  const label = `${side} house ${index + 1}: ${seeds} seed${seeds === 1 ? "" : "s"}${playable ? ", you may sow it" : ""}`;
  return h(
    "button",
    {
      type: "button",
      class: `cell pit${playable ? " legal" : ""}${mine ? " mine" : ""}`,
      dataset: { side, house: index + 1 },
      disabled: !playable,
      "aria-label": label,
      title: label,
      onclick: () => play({ house: index + 1 }),
    },
    h("span", { class: "seeds" }, String(seeds)),
  );
}

export default {
  id: "kalah",
  title: "Kalah",

  statusText(m) {
    const ai = lastAiMoves(m);
    const aiText = ai.length ? `The AI sowed house${ai.length > 1 ? "s" : ""} ${ai.join(", then ")}. ` : "";
    const b = m.state.board;
    const you = m.state.human_plays;
    const mine = you === "south" ? b.south_store : b.north_store;
    const theirs = you === "south" ? b.north_store : b.south_store;
    return `${aiText}You play ${you}: ${mine} in your store, ${theirs} in the AI's. Pick one of your highlighted houses.`;
  },

  describeMove(mv) {
    return `sowed house ${mv.house}`;
  },

  render(m, { play }) {
    const b = m.state.board;
    const you = m.state.human_plays;
    const open = m.status === "in_progress" && m.state.to_move === you;
    const legal = open ? legalHouses(m) : new Set();
    const cols = b.south.length;
    const el = h("div", { class: "mancala", role: "group", "aria-label": "Kalah board" });
    el.style.setProperty("--cols", cols);
    const north = h("div", { class: "mancala-row north" });
    for (let i = cols - 1; i >= 0; i--) {
      const mine = you === "north";
      north.append(house("north", i, b.north[i], { playable: mine && legal.has(i + 1), mine, play }));
    }
    const south = h("div", { class: "mancala-row south" });
    for (let i = 0; i < cols; i++) {
      const mine = you === "south";
      south.append(house("south", i, b.south[i], { playable: mine && legal.has(i + 1), mine, play }));
    }
    el.append(
      h("div", { class: "store north-store", "aria-label": `North's store: ${b.north_store}` }, String(b.north_store)),
      h("div", { class: "mancala-rows" }, north, south),
      h("div", { class: "store south-store", "aria-label": `South's store: ${b.south_store}` }, String(b.south_store)),
    );
    return el;
  },

  async analyze(m, { evaluate }) {
    const toMove = m.state.to_move;
    if (!toMove) return h("p", {}, "The game is over.");
    const answer = await analyse("/kalah/move", {
      board: m.state.board,
      to_move: toMove,
      capture: m.options.capture,
      max_ms: 800,
    });
    for (const mv of answer.moves) {
      const pit = document.querySelector(`.mancala [data-side="${toMove}"][data-house="${mv.house}"]`);
      if (!pit) continue;
      pit.title = `house ${mv.house}: ${mv.solved ? "exact" : "estimate"} ${mv.score > 0 ? "+" : ""}${mv.score}`;
      pit.append(h("small", { class: `square-score${mv.solved ? " exact" : ""}` }, `${mv.solved ? "" : "~"}${mv.score}`));
    }
    evaluate(answer.evaluation);
    markBest(`.mancala [data-side="${toMove}"][data-house="${answer.move.house}"]`);
    const verdict = answer.outcome
      ? `With perfect play from here: ${OUTCOME[answer.outcome]} by ${Math.abs(answer.score)} seeds.`
      : `Not solved within the time; estimate ${answer.score} seeds.`;
    return h(
      "div",
      { class: "square-analysis" },
      h("h3", {}, `Every house of ${toMove}, as POST /kalah/move scores it (under the houses)`),
      h("p", {}, verdict, ` Best: house ${answer.move.house}.`),
      h("p", { class: "legend" }, "Final store margin for the side to move; ~ marks an estimate."),
    );
  },
};
