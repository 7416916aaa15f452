// Pig: state is {scores: {human, ai}, turn_total, last_roll}; a move is
// {action: "roll" | "hold"} and the server rolls. Whenever a match waits
// for the person, it is the person's turn.

import { analyse, getJson } from "./api.js";
import { die, h, markBest, percent } from "./ui.js";

// The policy picture survives re-renders: it is fetched once per rule set
// and stays open once opened.
const policies = new Map();
let policyOpen = false;
let winSeq = 0;

const decisionBody = (m) => ({
  my_score: m.state.scores.human,
  opponent_score: m.state.scores.ai,
  turn_total: m.state.turn_total,
  goal: m.options.goal,
  die_sides: m.options.die_sides,
  variant: m.options.variant,
});

// What happened since the person last decided: their roll's face, then the
// AI's whole turn, so nobody has to read the history to follow the game.
function turnStory(m) {
  const hist = m.history;
  let start = hist.length;
  for (let i = hist.length - 1; i >= 0; i--) {
    if (hist[i].actor === "human") {
      start = i;
      break;
    }
  }
  if (start === hist.length) start = 0; // the AI started: tell its turns
  const parts = [];
  let aiRolls = [];
  const flushAi = (end) => {
    if (aiRolls.length || end) parts.push(`The AI rolled ${aiRolls.length ? aiRolls.join(", ") : "nothing"}${end}.`);
    aiRolls = [];
  };
  let actor = null;
  for (const e of hist.slice(start)) {
    if (e.actor === "human" || e.actor === "ai") {
      actor = e.actor;
      if (e.move.action === "hold") {
        if (actor === "human") parts.push("You held.");
        else flushAi(" and held");
      }
    } else if (e.actor === "dice") {
      if (actor === "human") {
        parts.push(e.roll === 1 ? "You rolled a 1: your turn is over." : `You rolled ${e.roll}.`);
      } else {
        aiRolls.push(e.roll);
        if (e.roll === 1) flushAi(": its turn is over");
      }
    }
  }
  if (aiRolls.length) flushAi("");
  return parts.join(" ");
}

// Whose roll the die shows: after the AI's turn it is the AI's last one.
function lastRoller(m) {
  const i = m.history.findLastIndex((e) => e.actor === "dice");
  if (i < 1) return "no roll yet";
  return m.history[i - 1].actor === "human" ? "your roll" : "the AI's roll";
}

function scoreRow(who, score, goal, extra) {
  const bar = h("div", { class: "progress", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": goal, "aria-valuenow": score, "aria-label": `${who}: ${score} of ${goal}` });
  const fill = h("div", { class: "fill" });
  fill.style.width = `${Math.min(100, (100 * score) / goal)}%`;
  bar.append(fill);
  return h("div", { class: `score-row ${who === "You" ? "yours" : "ai"}` }, h("span", { class: "who" }, who), h("span", { class: "num", dataset: { score: who === "You" ? "human" : "ai" } }, score), bar, extra);
}

function winBar(m) {
  const box = h("div", { class: "winbar", id: "pig-winbar" });
  const label = h("p", { class: "winbar-label" }, "Your chance to win…");
  const track = h("div", { class: "track" });
  const fill = h("div", { class: "fill" });
  track.append(fill);
  box.append(label, track);
  const set = (p, text) => {
    fill.style.width = `${(100 * p).toFixed(2)}%`;
    box.dataset.p = p.toFixed(6);
    label.textContent = text;
  };
  if (m.status === "finished") {
    set(m.result.winner === "human" ? 1 : 0, "The match is over.");
  } else {
    const seq = ++winSeq;
    pigDecision(decisionBody(m))
      .then((d) => {
        if (seq === winSeq) set(d.win_probability, `Your chance to win with best play from here: ${percent(d.win_probability)}`);
      })
      .catch((e) => {
        if (seq === winSeq) label.textContent = `No win probability: ${e.message}`;
      });
  }
  return box;
}

// The smallest turn total at which holding is optimal (rolling is optimal
// below it); when holding never is, the points still needed, where the turn
// ends anyway with a win: either way, the turn total to stop at.
function holdAt(policy, goal, mine, theirs) {
  const cell = policy[mine]?.[theirs];
  if (!cell) return null;
  return cell.hold.length ? cell.hold[0][0] : goal - mine;
}

// Light for "stop early", dark for "keep rolling".
function color(t) {
  const hue = 50 + 180 * t;
  const light = 88 - 62 * t;
  return `hsl(${hue.toFixed(0)} 75% ${light.toFixed(0)}%)`;
}

function drawPolicy(canvas, data, m) {
  const goal = data.goal;
  const scale = Math.max(2, Math.ceil(400 / goal));
  // A white margin, so that a position on the map's edge stays visible.
  const pad = 12;
  canvas.width = goal * scale + 2 * pad;
  canvas.height = goal * scale + 2 * pad;
  const ctx = canvas.getContext("2d");
  // The scale ends at the largest real hold threshold: the long "roll on to
  // the goal" runs of a player far behind would otherwise wash out the rest.
  let max = 1;
  for (let i = 0; i < goal; i++) {
    for (let j = 0; j < goal; j++) {
      const hold = data.policy[i][j].hold;
      if (hold.length) max = Math.max(max, hold[0][0]);
    }
  }
  for (let i = 0; i < goal; i++) {
    for (let j = 0; j < goal; j++) {
      ctx.fillStyle = color(Math.min(1, holdAt(data.policy, goal, i, j) / max));
      // x: your score, y: the AI's score, origin at the bottom left.
      ctx.fillRect(pad + i * scale, pad + (goal - 1 - j) * scale, scale, scale);
    }
  }
  const { human, ai } = m.state.scores;
  if (human < goal && ai < goal) {
    // Cross hairs reach the edges, so the position shows even in a corner.
    const x = pad + (human + 0.5) * scale;
    const y = pad + (goal - 1 - ai + 0.5) * scale;
    const r = Math.max(8, 3 * scale);
    for (const [width, colour] of [[4, "rgba(255,255,255,.9)"], [2, "#d01010"]]) {
      ctx.lineWidth = width;
      ctx.strokeStyle = colour;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, y - r);
      ctx.moveTo(x, y + r);
      ctx.lineTo(x, canvas.height);
      ctx.moveTo(0, y);
      ctx.lineTo(x - r, y);
      ctx.moveTo(x + r, y);
      ctx.lineTo(canvas.width, y);
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.stroke();
    }
    canvas.dataset.marker = `${human},${ai}`;
  }
  canvas.dataset.drawn = "true";
  return max;
}

function policyPicture(m) {
  const details = h("details", { class: "policy", id: "pig-policy", open: policyOpen });
  const body = h("div", { class: "policy-body" });
  details.append(h("summary", {}, "The optimal policy, as a picture"), body);
  const key = `${m.options.goal}/${m.options.die_sides}/${m.options.variant}`;
  const fill = async () => {
    body.replaceChildren(h("p", { class: "muted" }, "Loading GET /pig/policy…"));
    try {
      if (!policies.has(key)) policies.set(key, await pigPolicy(m.options));
      const data = policies.get(key);
      const canvas = h("canvas", { class: "heatmap", role: "img" });
      const legend = h("div", { class: "legend-bar" });
      body.replaceChildren(
        h("p", {}, "For each pair of scores, the turn total to stop at: roll below it, hold from it (or win there). Dark means keep rolling. The cross hairs mark this game's position."),
        h("div", { class: "heat-wrap" }, h("span", { class: "axis-y" }, `AI's score 0 → ${data.goal - 1}`), canvas, h("span", { class: "axis-x" }, `your score 0 → ${data.goal - 1}`)),
        legend,
      );
      const max = drawPolicy(canvas, data, m);
      canvas.setAttribute("aria-label", `Heat map of the turn total to hold at, for every pair of scores up to ${data.goal}`);
      legend.append(h("span", {}, "stop at 0"), h("span", { class: "gradient" }), h("span", {}, `${max}+`));
      const { human, ai } = m.state.scores;
      const t = holdAt(data.policy, data.goal, human, ai);
      if (t !== null && m.status === "in_progress") {
        const rule = data.policy[human][ai].hold.length
          ? `roll while the turn total is below ${t}`
          : `never hold: roll on until the turn total reaches ${t} and wins`;
        body.append(h("p", { class: "policy-here" }, `Here (you ${human}, AI ${ai}): ${rule}; the turn total is ${m.state.turn_total}.`));
      }
    } catch (e) {
      body.replaceChildren(h("p", { class: "analysis-error" }, `The policy could not be loaded: ${e.message}`));
    }
  };
  details.addEventListener("toggle", () => {
    policyOpen = details.open;
    if (details.open) fill();
  });
  if (policyOpen) fill();
  return details;
}

const pigDecision = (body) => analyse("/pig/decision", body);
const pigPolicy = ({ goal, die_sides, variant }) =>
  getJson(`/pig/policy?goal=${goal}&die_sides=${die_sides}&variant=${encodeURIComponent(variant)}`);

export default {
  id: "pig",
  title: "Pig",
  // The review's values are both players' exact win probabilities.
  reviewsWinProbabilities: true,



  statusText(m) {
    const story = turnStory(m);
    return `${story ? story + " " : ""}Your turn: roll or hold.`;
  },

  describeMove(mv) {
    return mv.action === "roll" ? "rolls" : "holds";
  },

  render(m, { play }) {
    const { scores, turn_total, last_roll } = m.state;
    const open = m.status === "in_progress";
    const goal = m.options.goal;
    return h(
      "div",
      { class: "race" },
      h("div", { class: "scores" }, scoreRow("You", scores.human, goal), scoreRow("AI", scores.ai, goal)),
      h(
        "div",
        { class: "turn" },
        h("div", { class: "die-box" }, die(last_roll, `last roll: ${last_roll ?? "none yet"}`), h("span", { class: "label", id: "pig-roller" }, lastRoller(m))),
        h("div", { class: "turn-total" }, h("span", { class: "label" }, "Turn total"), h("span", { class: "num", id: "pig-turn-total" }, turn_total)),
        h(
          "div",
          { class: "actions" },
          h("button", { type: "button", class: "primary", id: "pig-roll", dataset: { key: "roll" }, disabled: !open, onclick: () => play({ action: "roll" }) }, "Roll"),
          h("button", { type: "button", id: "pig-hold", dataset: { key: "hold" }, disabled: !open, onclick: () => play({ action: "hold" }) }, `Hold (+${turn_total})`),
        ),
      ),
      winBar(m),
      policyPicture(m),
    );
  },

  async analyze(m, { evaluate }) {
    const d = await pigDecision(decisionBody(m));
    evaluate(d.evaluation);
    markBest(`[data-key="${d.action}"]`);
    const rows = [
      ["Roll", d.roll_win_probability],
      ["Hold", d.hold_win_probability],
    ];
    return h(
      "div",
      { class: "decision-analysis" },
      h("h3", {}, "POST /pig/decision for this position"),
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}, "action"), h("th", {}, "your win probability"))),
        h(
          "tbody",
          {},
          rows.map(([name, p]) =>
            h("tr", { class: name.toLowerCase() === d.action ? "best" : "" }, h("td", {}, name), h("td", { dataset: { action: name.toLowerCase() } }, percent(p))),
          ),
        ),
      ),
      h("p", {}, `Best: ${d.action}.`, d.hold_at != null ? ` With these scores, hold from a turn total of ${d.hold_at}.` : " Holding is never best with these scores."),
    );
  },
};
