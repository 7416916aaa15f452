// The playground: a person plays the AI through /matches. This file holds
// what every game shares (setup, storage, errors, history, analysis toggle);
// each game's board, options and analysis live in its own module.

import * as api from "./api.js";
import { h } from "./ui.js";
import { optionFields, readOptions } from "./options.js";
import { markHistory, reviewPanel } from "./review.js";

// How the page draws each game, by its id: which games there are, with
// their options, comes from the server's catalog (GET /games), and each
// game's drawing is the module named after its id.
const GAMES = {};
const catalog = new Map();
// Only the id and the token are kept: the server has everything else, so a
// reload (or another tab) shows the match exactly as the server has it.
const STORAGE_KEY = "kibitz.playground.match";

const $ = (id) => document.getElementById(id);
const state = { id: null, token: null, match: null, busy: false, analysisSeq: 0, reviewSeq: 0 };

// ---- errors ---------------------------------------------------------------

function showError(error, { canReload = false } = {}) {
  const text = error instanceof api.ApiError ? error.message : `Something went wrong in this page: ${error}`;
  $("error-text").textContent = text;
  $("error-retry").hidden = !canReload;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

// ---- storage --------------------------------------------------------------

function remember(id, token) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ id, token }));
  } catch (e) {
    // Private mode without storage: the match still plays, it just won't survive a reload.
  }
}

function remembered() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    return saved && saved.id && saved.token ? saved : null;
  } catch (e) {
    return null;
  }
}

// ---- setup form -----------------------------------------------------------

function showOptions(gameId) {
  const entry = catalog.get(gameId);
  if (!entry) return;
  $("options").replaceChildren(h("legend", {}, "Options"), ...optionFields(entry));
}

// The game list: every catalog game that can be played as a match and that
// this page knows how to draw, in the catalog's order.
async function loadCatalog() {
  const { games } = await api.getGames();
  await Promise.all(
    games
      .filter((g) => g.endpoints.matches)
      .map(async (g) => {
        try {
          GAMES[g.id] = (await import(`./${g.id}.js`)).default;
        } catch (e) {
          // A game this server serves without a drawing is left out of the list.
        }
      }),
  );
  const playable = games.filter((g) => g.endpoints.matches && GAMES[g.id]);
  for (const g of playable) catalog.set(g.id, g);
  $("game").replaceChildren(...playable.map((g) => h("option", { value: g.id }, g.name)));
  $("tagline").textContent = `Play the AI at ${playable.length} games, and ask the service what it thinks of the position.`;
}

async function startMatch(event) {
  event.preventDefault();
  if (state.busy) return;
  const form = $("setup");
  const game = GAMES[$("game").value];
  const entry = catalog.get(game.id);
  const level = Number($("level").value);
  const aiFirst = form.querySelector('input[name="starts"]:checked').value === "ai";
  await withBusy(async () => {
    const created = await api.createMatch(game.id, readOptions(entry, form), level, aiFirst);
    state.id = created.id;
    state.token = created.token;
    remember(created.id, created.token);
    clearError();
    show(created);
    // On a phone the board is below the form: bring it into view.
    if (window.matchMedia("(max-width: 720px)").matches) $("play-title").scrollIntoView({ block: "start" });
  });
}

// ---- playing --------------------------------------------------------------

async function withBusy(work) {
  state.busy = true;
  document.body.classList.add("busy");
  $("board").setAttribute("aria-busy", "true");
  try {
    await work();
  } catch (error) {
    await onError(error);
  } finally {
    state.busy = false;
    document.body.classList.remove("busy");
    $("board").removeAttribute("aria-busy");
  }
}

async function onError(error) {
  if (error instanceof api.ApiError && error.status === 409 && state.id) {
    // The match moved on elsewhere (another tab, a repeated request): show
    // where it is now, and say why the move was not played.
    showError(
      new api.ApiError(
        409,
        "409 Conflict",
        `the match had moved on (another tab, or a click sent twice?), so this move was not played; the board now shows the match as the server has it. The server said: ${error.detail}`,
      ),
    );
    try {
      show(await api.getMatch(state.id, state.token));
    } catch (e) {
      showError(e, { canReload: true });
    }
    return;
  }
  showError(error, { canReload: Boolean(state.id) && !(error instanceof api.ApiError && error.status === 422) });
}

// The person's move, sent with the ply the page shows.
async function play(move) {
  if (state.busy || !state.match || state.match.status !== "in_progress") return;
  const ply = state.match.ply;
  await withBusy(async () => {
    const next = await api.playMove(state.id, state.token, ply, move);
    clearError();
    show(next);
  });
}

async function reload() {
  if (!state.id) return;
  await withBusy(async () => {
    const m = await api.getMatch(state.id, state.token);
    clearError();
    show(m);
  });
}

// ---- rendering ------------------------------------------------------------

const ACTOR = { human: "You", ai: "AI", dice: "Die" };

function resultText(m) {
  const r = m.result;
  const who = { human: "You won!", ai: "The AI won.", draw: "A draw." }[r.winner] ?? `Winner: ${r.winner}`;
  const s = r.scores;
  if (s && "human" in s) return `${who} Final score: you ${s.human}, AI ${s.ai}.`;
  return who;
}

function show(m) {
  state.match = m;
  const game = GAMES[m.game];
  $("game").value = m.game;
  document.body.dataset.game = m.game;
  document.body.dataset.status = m.status;
  $("play-title").textContent = game ? game.title : m.game;
  if (!game) {
    $("board").replaceChildren(h("p", {}, `This page cannot show a ${m.game} match.`));
    return;
  }
  const finished = m.status === "finished";
  const status = $("status");
  status.className = finished ? `status result winner-${m.result?.winner}` : "status";
  status.textContent = finished ? resultText(m) : game.statusText(m);
  status.dataset.ply = m.ply;
  // Re-rendering replaces the buttons; a keyboard user keeps their place
  // (the element with the same data-key, else the board's first control).
  const focusedKey = document.activeElement?.closest("#board") ? document.activeElement.dataset.key : undefined;
  $("board").replaceChildren(game.render(m, { play, busy: () => state.busy }));
  if (focusedKey !== undefined) {
    const same = $("board").querySelector(`[data-key="${focusedKey}"]:not([disabled])`);
    (same ?? $("board").querySelector("button:not([disabled])"))?.focus();
  }
  showHistory(m, game);
  showReview(m);
  $("match-meta").textContent = `Match ${m.id} · ply ${m.ply} · AI level ${m.ai.level}`;
  $("match-meta").dataset.matchId = m.id;
  refreshAnalysis();
}

function showHistory(m, game) {
  const items = m.history.map((e) =>
    h(
      "li",
      { class: `actor-${e.actor}`, value: e.ply },
      h("span", { class: "who" }, ACTOR[e.actor] ?? e.actor),
      " ",
      e.actor === "dice" ? `rolled ${e.roll}` : game.describeMove(e.move, m),
    ),
  );
  $("history").replaceChildren(...items);
  $("history-count").textContent = `(${m.history.length})`;
  // A finished match shows its whole story.
  if (m.status === "finished") $("history-box").open = true;
}

// When a match ends, its review: accuracy, the value graph and the
// mistakes marked on the history. Every game's matches are reviewed at
// GET /matches/{id}/review (the catalog's `review` is the stateless form,
// which Number Square and Nine Square lack).
async function showReview(m) {
  const box = $("review");
  const seq = ++state.reviewSeq;
  const reviewable = catalog.get(m.game)?.endpoints.matches;
  box.hidden = m.status !== "finished" || !reviewable;
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(h("p", { class: "muted" }, "Reviewing the match…"));
  try {
    const review = await api.getReview(m.id, state.token);
    if (seq !== state.reviewSeq) return;
    box.replaceChildren(reviewPanel(m, review, Boolean(GAMES[m.game]?.reviewsWinProbabilities)));
    markHistory($("history"), review);
  } catch (error) {
    if (seq === state.reviewSeq) box.replaceChildren(h("p", { class: "analysis-error" }, `The review failed: ${error.message}`));
  }
}

async function refreshAnalysis() {
  const box = $("analysis");
  const on = $("analysis-toggle").checked;
  const m = state.match;
  const game = m && GAMES[m.game];
  box.hidden = !on || !game;
  if (box.hidden) return;
  if (m.status !== "in_progress") {
    box.replaceChildren(h("p", {}, "The match is over: nothing left to analyse."));
    return;
  }
  // Responses can arrive out of order after quick moves: keep the newest.
  const seq = ++state.analysisSeq;
  box.replaceChildren(h("p", { class: "muted" }, "Asking the service…"));
  try {
    // A search that streams its progress says how far it got meanwhile.
    const thinking = (text) => {
      if (seq === state.analysisSeq) box.replaceChildren(h("p", { class: "thinking", role: "status" }, text));
    };
    const content = await game.analyze(m, { thinking });
    if (seq === state.analysisSeq) box.replaceChildren(content);
  } catch (error) {
    if (seq === state.analysisSeq) {
      box.replaceChildren(h("p", { class: "analysis-error" }, `The analysis failed: ${error.message}`));
    }
  }
}

// A reload picks the match up where the server has it.
async function resume(saved) {
  state.id = saved.id;
  state.token = saved.token;
  try {
    const m = await api.getMatch(saved.id, saved.token);
    show(m);
    showOptions(m.game);
  } catch (error) {
    if (error instanceof api.ApiError && [403, 404].includes(error.status)) {
      // A server with a new database, say: the match is gone for good.
      localStorage.removeItem(STORAGE_KEY);
      state.id = state.token = null;
      showError(new api.ApiError(error.status, "Your last match is no longer on this server", "start a new one."));
    } else {
      showError(error, { canReload: true });
    }
  }
}

// ---- start ----------------------------------------------------------------

async function init() {
  try {
    await loadCatalog();
  } catch (error) {
    showError(error, { canReload: false });
  }
  $("game").addEventListener("change", () => showOptions($("game").value));
  $("level").addEventListener("input", () => ($("level-out").textContent = $("level").value));
  $("setup").addEventListener("submit", startMatch);
  $("analysis-toggle").addEventListener("change", refreshAnalysis);
  $("error-dismiss").addEventListener("click", clearError);
  $("error-retry").addEventListener("click", reload);
  showOptions($("game").value);
  const saved = remembered();
  if (saved) resume(saved);
  document.body.dataset.ready = "true";
}

init();
