// The review panel of a finished match (GET /matches/{id}/review): each
// side's accuracy and mistakes, the value of the game move by move as a
// graph (Pig: both players' win probabilities), and the mistakes marked on
// the history list.

import { h } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";
const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const WIDTH = 560;
const HEIGHT = 180;
const PAD = 24;

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// The person's expected share of the game after each decision (0..1): the
// review's `value` is on the first player's side, -1..1.
function humanPoints(m, review) {
  const sign = m.ai_first ? -1 : 1;
  return review.moves.map((e) => (1 + sign * e.value) / 2);
}

function graph(m, review, probabilities) {
  const points = [0.5, ...humanPoints(m, review)];
  // Win probabilities start where the solver says, not at even: the first
  // decision's value before it is the mover's exact win probability.
  if (probabilities && review.moves.length) {
    const first = review.moves[0];
    const p = typeof first.value_before === "number" ? first.value_before : first.value_before?.points;
    if (typeof p === "number") points[0] = first.actor === "human" ? p : 1 - p;
  }
  const x = (i) => PAD + (i * (WIDTH - 2 * PAD)) / Math.max(1, points.length - 1);
  const y = (p) => HEIGHT - PAD - p * (HEIGHT - 2 * PAD);
  const line = (values, cls) =>
    svg("polyline", { class: cls, points: values.map((p, i) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(" ") });
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "review-graph",
    role: "img",
    "aria-label": probabilities ? "win probability of both players, decision by decision" : "your expected share of the game, move by move",
  });
  for (const p of [0, 0.5, 1]) {
    chart.append(svg("line", { class: "axis", x1: PAD, x2: WIDTH - PAD, y1: y(p), y2: y(p) }));
    const label = svg("text", { x: 2, y: y(p) + 4, class: "axis-label" });
    label.textContent = `${Math.round(p * 100)}%`;
    chart.append(label);
  }
  chart.append(line(points, "you"));
  if (probabilities) chart.append(line(points.map((p) => 1 - p), "ai"));
  review.moves.forEach((e, i) => {
    if (!MARK[e.judgment]) return;
    const dot = svg("circle", { cx: x(i + 1), cy: y(points[i + 1]), r: 5, class: `mark judgment-${e.judgment}`, "data-ply": e.ply });
    const title = svg("title");
    title.textContent = `ply ${e.ply}: ${e.actor === "human" ? "your" : "the AI's"} ${e.judgment} (lost ${e.loss.toFixed(3)})`;
    dot.append(title);
    chart.append(dot);
  });
  return chart;
}

function side(name, s) {
  return h(
    "tr",
    { dataset: { side: name } },
    h("th", {}, name === "human" ? "You" : "AI"),
    h("td", { dataset: { field: "accuracy" } }, s.accuracy == null ? "–" : `${s.accuracy.toFixed(1)}`),
    h("td", { dataset: { field: "inaccuracies" } }, s.inaccuracies),
    h("td", { dataset: { field: "mistakes" } }, s.mistakes),
    h("td", { dataset: { field: "blunders" } }, s.blunders),
  );
}

// Marks each reviewed decision on the history list (items carry their ply).
export function markHistory(list, review) {
  for (const e of review.moves) {
    const item = list.querySelector(`li[value="${e.ply}"]`);
    if (!item) continue;
    item.dataset.judgment = e.judgment;
    item.classList.add(`judgment-${e.judgment}`);
    if (MARK[e.judgment]) item.append(" ", h("span", { class: "judgment-mark", title: e.judgment }, `${MARK[e.judgment]} ${e.judgment}`));
  }
}

export function reviewPanel(m, review, probabilities = false) {
  const exactness = review.exact
    ? "Every value is exact: what perfect play from each position gives."
    : "Some values are the search's estimates (marked as not exact).";
  return h(
    "div",
    { class: "review", dataset: { exact: review.exact } },
    h("h3", {}, "Review of the match"),
    h(
      "table",
      { class: "review-sides" },
      h("tr", {}, h("th", {}, ""), h("th", {}, "accuracy"), h("th", {}, "inaccuracies"), h("th", {}, "mistakes"), h("th", {}, "blunders")),
      side("human", review.players.human),
      side("ai", review.players.ai),
    ),
    graph(m, review, probabilities),
    h(
      "p",
      { class: "legend" },
      probabilities ? "Win probabilities: " : "Your expected share of the game: ",
      h("span", { class: "swatch you" }),
      probabilities ? " you " : " you. ",
      probabilities ? h("span", { class: "swatch ai" }) : null,
      probabilities ? " the AI. " : "",
      "Dots mark inaccuracies (?!), mistakes (?) and blunders (??), also on the history below. ",
      exactness,
    ),
  );
}
