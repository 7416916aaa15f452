// Ishitori (subtraction games): state is {remaining} or {heaps}; a move is
// {take, heap}.

import { analyse } from "./api.js";
import { h, markBest } from "./ui.js";

const SHOWN_STONES = 60;
const STRIP = 40;

// Heap sizes as the server's decimal strings: a JavaScript number loses
// heaps above 2^53 (BigInt for arithmetic on them).
const heapsOf = (state) => state.heaps_decimal ?? [state.remaining_decimal];

function rule(misere) {
  return misere ? "whoever takes the last stone loses" : "whoever cannot move loses";
}

// Win/loss of heap sizes 0..n from the periodic rule the endpoint explains.
function isLosing(n, r) {
  if (n < r.preperiod) return r.losing_before_preperiod.includes(n);
  return r.losing_residues.includes(n % r.period);
}

function strip(heap, r) {
  const from = Math.max(0, Math.min(heap - STRIP / 2, heap - 5));
  const cells = [];
  for (let n = from; n < from + STRIP; n++) {
    const lose = isLosing(n, r);
    cells.push(
      h(
        "span",
        { class: `strip-cell ${lose ? "lose" : "win"}${n === heap ? " here" : ""}`, title: `${n} stones: ${lose ? "lost" : "won"} for the player to move` },
        n,
      ),
    );
  }
  return h(
    "div",
    { class: "strip-wrap" },
    h("div", { class: "strip", role: "img", "aria-label": "heap sizes coloured by who wins" }, cells),
    h("p", { class: "legend" }, h("span", { class: "swatch win" }), " won for the player to move ", h("span", { class: "swatch lose" }), " lost; the outlined one is the heap now"),
  );
}

export default {
  id: "ishitori",
  title: "Ishitori",



  statusText(m) {
    const last = m.history.at(-1);
    const ai = last && last.actor === "ai" ? `The AI took ${last.move.take}${m.state.heaps ? ` from heap ${last.move.heap + 1}` : ""}. ` : "";
    const left = heapsOf(m.state).join(", ");
    return `${ai}${m.state.heaps ? "Heaps" : "Stones left"}: ${left}. Take ${m.options.take.join(", ")} (${rule(m.options.misere)}).`;
  },

  describeMove(mv, m) {
    return `took ${mv.take}${m.state.heaps ? ` from heap ${mv.heap + 1}` : ""}`;
  },

  render(m, { play }) {
    const open = m.status === "in_progress";
    const take = [...m.options.take].sort((a, b) => a - b);
    const heaps = heapsOf(m.state);
    return h(
      "div",
      { class: "ishitori" },
      heaps.map((size, heap) => {
        const stones = [];
        for (let i = 0; i < Math.min(Number(size), SHOWN_STONES); i++) stones.push(h("span", { class: "stone" }));
        return h(
          "div",
          { class: "heap", dataset: { heap, size } },
          h("div", { class: "heap-head" }, heaps.length > 1 ? `Heap ${heap + 1}: ` : "", h("strong", { class: "heap-size" }, size), size === "1" ? " stone" : " stones"),
          h("div", { class: "stones", "aria-hidden": "true" }, stones, BigInt(size) > SHOWN_STONES ? h("span", { class: "more" }, `+${BigInt(size) - BigInt(SHOWN_STONES)}`) : null),
          h(
            "div",
            { class: "actions" },
            take.map((t) =>
              h(
                "button",
                { type: "button", dataset: { key: `${heap}:${t}`, take: t }, disabled: !open || BigInt(t) > BigInt(size), "aria-label": `take ${t}${heaps.length > 1 ? ` from heap ${heap + 1}` : ""}`, onclick: () => play({ take: t, heap }) },
                `Take ${t}`,
              ),
            ),
          ),
        );
      }),
    );
  },

  async analyze(m, { evaluate }) {
    const body = { take: m.options.take, misere: m.options.misere };
    if (m.state.heaps) body.heaps = m.state.heaps_decimal;
    else body.remaining = m.state.remaining_decimal;
    const a = await analyse("/ishitori/move", body);
    evaluate(a.evaluation);
    markBest(`.ishitori [data-key="${a.heap ?? 0}:${a.take}"]`);
    const you = a.outcome === "win" ? "you can force a win" : "every move loses against best play";
    const parts = [
      h("h3", {}, "POST /ishitori/move for this position"),
      h("p", {}, `From here ${you}. Best: take ${a.take}${m.state.heaps ? ` from heap ${a.heap + 1}` : ""}, leaving ${a.remaining_after_decimal}.`),
    ];
    const r = a.explanation?.rule;
    if (r) {
      const residues = r.losing_residues.join(", ");
      parts.push(
        h(
          "p",
          { class: "rule", dataset: { period: r.period, preperiod: r.preperiod } },
          `The rule: ${r.preperiod ? `from ${r.preperiod} stones on, ` : ""}a heap of n stones is lost for the player to move when n mod ${r.period} is one of {${residues}} (period ${r.period})`,
          r.losing_before_preperiod.length ? ` (below ${r.preperiod}: ${r.losing_before_preperiod.join(", ")})` : "",
          `. Now ${heapsOf(m.state)[a.heap]} mod ${r.period} = ${BigInt(heapsOf(m.state)[a.heap]) % BigInt(r.period)}.`,
        ),
      );
      if (r.losing_residue_count === r.losing_residues.length && !m.state.heaps && Number.isSafeInteger(m.state.remaining)) parts.push(strip(m.state.remaining, r));
    } else if (a.explanation) {
      parts.push(h("p", { class: "rule" }, `Several heaps: solved by ${a.explanation.kind.replaceAll("_", " ")}${a.explanation.positions ? ` over ${a.explanation.positions} positions` : ""}.`));
    }
    return h("div", { class: "ishitori-analysis" }, parts);
  },
};
