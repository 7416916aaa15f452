// The eval bar: every game's analysis answer carries the same `evaluation`
// ({win_chance, outcome, exact, plies_to_end}, for the side to move), so one
// bar serves them all. It is always drawn from one fixed side's view (the
// left one: the person in a match, the first player on the analysis board),
// whoever is to move, so the bar does not jump from side to side as turns
// change.

import { h } from "./ui.js";

const VERB = {
  you: { win: "win", draw: "draw", loss: "lose" },
  other: { win: "wins", draw: "draws", loss: "loses" },
};

// `moverIsLeft`: whether the evaluation's side to move is the left side.
export function evalBar(evaluation, { moverIsLeft = true, left = "You", right = "AI" } = {}) {
  const mover = Math.min(1, Math.max(0, evaluation.win_chance));
  const yours = moverIsLeft ? mover : 1 - mover;
  const pct = Math.round(yours * 1000) / 10;
  const fill = h("div", { class: "evalbar-fill" });
  fill.style.setProperty("--share", `${pct}%`);
  let verdict;
  if (evaluation.outcome) {
    // The outcome is the mover's: said of whoever moves.
    const end = evaluation.outcome !== "draw" && evaluation.plies_to_end != null ? ` in ${evaluation.plies_to_end} plies` : "";
    const subject = moverIsLeft ? left : right;
    const verb = VERB[subject === "You" ? "you" : "other"][evaluation.outcome];
    verdict = `${evaluation.exact ? "exact" : "expected"}: ${subject === "You" ? "you" : subject} ${verb}${end}`;
  } else {
    verdict = evaluation.exact ? "exact chance" : "estimate";
  }
  return h(
    "div",
    {
      class: `evalbar${evaluation.exact ? " exact" : ""}`,
      role: "meter",
      "aria-valuemin": 0,
      "aria-valuemax": 100,
      "aria-valuenow": pct,
      "aria-label": `${left}'s winning chances: ${pct}%, ${verdict}`,
      dataset: { share: yours.toFixed(4), outcome: evaluation.outcome ?? "", exact: String(Boolean(evaluation.exact)) },
    },
    h("div", { class: "evalbar-track" }, fill, h("span", { class: "evalbar-mid", "aria-hidden": "true" })),
    h(
      "p",
      { class: "evalbar-text" },
      h("strong", { class: "evalbar-you" }, `${left} ${pct.toFixed(1)}%`),
      h("span", { class: "evalbar-verdict" }, verdict),
      h("span", { class: "evalbar-ai" }, `${right} ${(100 - pct).toFixed(1)}%`),
    ),
  );
}
