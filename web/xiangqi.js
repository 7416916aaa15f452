// Xiangqi, plainly: the position as its FEN, the person's legal moves (from
// the match's legal_moves: the page knows no rules) in a list to pick from.
// A board with river and palaces is still to come.

import { analyse } from "./api.js";
import { h } from "./ui.js";

const KEY = "uci";
const PATH = "/xiangqi/move";

export default {
  id: "xiangqi",
  title: "Xiangqi",

  statusText(m) {
    const ai = [...m.history].reverse().find((e) => e.actor === "ai");
    const aiText = ai ? `The AI played ${ai.move[KEY]}. ` : "";
    const check = m.state.check ? "You are in check. " : "";
    return `${aiText}${check}You play ${m.state.human_plays}: pick a move.`;
  },

  describeMove(mv) {
    return `played ${mv[KEY]}`;
  },

  render(m, { play, busy }) {
    const legal = m.status === "in_progress" ? (m.legal_moves ?? []).map((mv) => mv[KEY]) : [];
    const select = h("select", { "aria-label": "your move" }, ...legal.map((mv) => h("option", { value: mv }, mv)));
    const button = h("button", { type: "button", disabled: legal.length === 0 }, "Play");
    button.addEventListener("click", () => {
      if (!busy() && select.value) play({ [KEY]: select.value });
    });
    return h("div", { class: "plain-board" }, h("p", {}, h("code", {}, m.state.fen)), select, button);
  },

  async analyze(m) {
    const answer = await analyse(PATH, { position: m.options.fen, moves: m.state.moves, max_ms: 800, multi_pv: 3 });
    const score = answer.score.mate !== undefined ? `mate in ${answer.score.mate}` : `${answer.score.cp} cp`;
    return h(
      "div",
      { class: "line-analysis" },
      h("p", {}, `Fairy-Stockfish at depth ${answer.depth}: ${answer.move.notation}, ${score} (${answer.win_percent.toFixed(1)}% winning chances).`),
      h("ol", {}, ...answer.pvs.map((pv) => h("li", {}, pv.moves.join(" ")))),
    );
  },
};
