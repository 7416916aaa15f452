// The playground: a person plays the AI through /matches, or analyses a
// game on the analysis board (analysis-board.js: both sides, undo, set-up,
// share link). This file holds what every game shares (setup, storage,
// errors, history, analysis toggle, flip, keys); each game's board, options
// and analysis live in its own module, its rules in `{game}-rules.js`.

import * as api from "./api.js";
import { h } from "./ui.js";
import { optionFields, readOptions } from "./options.js";
import { markHistory, reviewPanel } from "./review.js";
import { evalBar } from "./evalbar.js";
import * as board from "./analysis-board.js";
import { readHash, writeMatchHash } from "./share.js";

// How the page draws each game, by its id: which games there are, with
// their options, comes from the server's catalog (GET /games), and each
// game's drawing is the module named after its id.
const GAMES = {};
const catalog = new Map();
// Only the id and the token are kept: the server has everything else, so a
// reload (or another tab) shows the match exactly as the server has it.
const STORAGE_KEY = "kibitz.playground.match";

const $ = (id) => document.getElementById(id);
const state = { id: null, token: null, match: null, busy: false, analysisSeq: 0, reviewSeq: 0, line: null, flipped: false };

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
        // Its analysis board's rules, if it has them, are known before the
        // page says it is ready (the mode is offered by them).
        await board.rulesFor(g.id);
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
  if (form.querySelector('input[name="mode"]:checked').value === "analysis") {
    const rules = await board.rulesFor(game.id);
    if (rules) {
      clearError();
      openLine(board.playAll(board.create(game.id, rules, board.withDefaults(entry, readOptions(entry, form))), []));
      return;
    }
  }
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
  leaveLine();
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
  board.rulesFor(m.game).then((rules) => ($("to-analysis").hidden = !rules || state.line !== null));
  $("match-share").hidden = false;
  $("match-share").href = writeMatchHash({ game: m.game, options: game.shareOptions ? game.shareOptions(m) : m.options });
  refreshAnalysis();
}

// ---- the analysis board ---------------------------------------------------

function openLine(line) {
  state.line = line;
  $("match-share").hidden = true;
  $("mode-analysis").checked = true;
  document.body.dataset.setupMode = "analysis";
  $("analysis-toggle").checked = true;
  $("history-box").hidden = true;
  $("review").hidden = true;
  $("to-analysis").hidden = true;
  $("match-meta").textContent = "";
  $("match-meta").dataset.matchId = "";
  showLine();
  if (window.matchMedia("(max-width: 720px)").matches) $("play-title").scrollIntoView({ block: "start" });
}

function leaveLine() {
  if (!state.line) return;
  state.line = null;
  $("line-tools").hidden = true;
  $("history-box").hidden = false;
  document.body.dataset.mode = "match";
  history.replaceState(null, "", location.pathname + location.search);
}

function showLine() {
  const line = state.line;
  const game = GAMES[line.game];
  const m = board.asMatch(line, Number($("level").value));
  $("game").value = line.game;
  document.body.dataset.game = line.game;
  document.body.dataset.status = m.status;
  document.body.dataset.mode = "analysis";
  $("play-title").textContent = `${game.title}: analysis board`;
  const status = $("status");
  status.className = m.outcome ? "status result" : "status";
  status.textContent = board.statusText(line, m);
  status.dataset.ply = line.cursor;
  const focusedKey = document.activeElement?.closest("#board") ? document.activeElement.dataset.key : undefined;
  $("board").replaceChildren(game.render(m, { play: playOnLine, busy: () => false }));
  if (focusedKey !== undefined) $("board").querySelector(`[data-key="${focusedKey}"]:not([disabled])`)?.focus();
  board.showTools(line, { onGo: goOnLine, flipped: state.flipped });
  refreshAnalysis();
}

function playOnLine(move) {
  try {
    board.play(state.line, move);
    clearError();
  } catch (error) {
    showError(new api.ApiError(422, "Not a legal move here", error.message));
  }
  showLine();
}

function goOnLine(n) {
  if (!state.line) return;
  board.goTo(state.line, n);
  showLine();
}

// Arrow keys walk the analysis board's moves, unless typing in a field.
function onKey(event) {
  if (!state.line || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, select, textarea")) return;
  const n = { ArrowLeft: state.line.cursor - 1, ArrowRight: state.line.cursor + 1, Home: 0, End: state.line.moves.length }[event.key];
  if (n === undefined) return;
  event.preventDefault();
  goOnLine(n);
}

function setUpPosition(event) {
  event.preventDefault();
  try {
    state.line = board.setUp(state.line, $("position-text").value);
    clearError();
    $("position-text").blur();
    showLine();
  } catch (error) {
    showError(new api.ApiError(422, "That position could not be read", `${error.message}.`));
  }
}

async function reviewLine() {
  const line = state.line;
  const path = catalog.get(line.game)?.endpoints.review;
  if (!path) return;
  try {
    await board.review(line, path);
  } catch (error) {
    showError(error);
  }
}

// A match's moves, opened on the analysis board from its start.
async function analyseMatch() {
  const m = state.match;
  const rules = m && (await board.rulesFor(m.game));
  if (!rules) return;
  const line = board.create(m.game, rules, m.options);
  // A die's face joins the roll it answers (Pig) or is a move of its own
  // (Nine Square's roll at the start of a turn).
  const moves = [];
  for (const e of m.history) {
    const last = moves.at(-1);
    if (e.actor === "dice" && last?.action === "roll" && last.roll == null) last.roll = e.roll;
    else if (e.actor === "dice") moves.push({ roll: e.roll });
    else if (e.move) moves.push({ ...e.move });
  }
  try {
    board.playAll(line, moves);
  } catch (error) {
    showError(new api.ApiError(422, "This match could not be replayed on the analysis board", error.message));
    return;
  }
  openLine(line);
}

function flip() {
  state.flipped = !state.flipped;
  $("board").classList.toggle("flipped", state.flipped);
  $("flip").setAttribute("aria-pressed", String(state.flipped));
  if (state.line) board.showTools(state.line, { onGo: goOnLine, flipped: state.flipped });
}

// A sensible start: where the first player loses against best play (the
// default Ishitori), the AI starts, so the person does not begin lost.
async function suggestStarter() {
  const gameId = $("game").value;
  const entry = catalog.get(gameId);
  const rules = await board.rulesFor(gameId);
  if (!entry || !rules?.firstPlayerLoses) {
    $("starts-note").hidden = true;
    return;
  }
  let lost = false;
  try {
    lost = rules.firstPlayerLoses(board.withDefaults(entry, readOptions(entry, $("setup"))));
  } catch (e) {
    // Options the server will refuse: it says why when the match starts.
  }
  $("setup").querySelector(`input[name="starts"][value="${lost ? "ai" : "human"}"]`).checked = true;
  $("starts-note").hidden = !lost;
  $("starts-note").textContent = lost ? "With these options the first player loses against best play, so the AI starts." : "";
}

// Games without a rules module are played against the AI only.
async function showModes(gameId) {
  const rules = await board.rulesFor(gameId);
  const analysisRadio = $("mode-analysis");
  analysisRadio.disabled = !rules;
  if (!rules && analysisRadio.checked) $("setup").querySelector('input[name="mode"][value="match"]').checked = true;
  $("mode-note").hidden = Boolean(rules);
  $("mode-note").textContent = rules ? "" : "This game's analysis board is not here yet: play the AI with Analysis on.";
}

function showHistory(m, game) {
  const items = m.history.map((e) =>
    h(
      "li",
      { class: `actor-${e.actor}`, value: e.ply },
      h("span", { class: "who" }, ACTOR[e.actor] ?? e.actor),
      " ",
      e.actor === "dice" ? (game.describeRoll?.(e.roll) ?? `rolled ${e.roll}`) : game.describeMove(e.move, m),
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
  const onLine = Boolean(state.line);
  const m = onLine ? board.asMatch(state.line, Number($("level").value)) : state.match;
  const game = m && GAMES[m.game];
  box.hidden = !on || !game;
  // The bar belongs to the position it was asked for: cleared until the
  // new answer comes.
  $("eval").hidden = true;
  $("eval").replaceChildren();
  if (box.hidden) return;
  if (m.status !== "in_progress") {
    box.replaceChildren(h("p", {}, onLine ? "The game is over here: step back to analyse another move." : "The match is over: nothing left to analyse."));
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
    // Each game hands its answer's common `evaluation` here for the bar
    // (the person is to move whenever a match waits for them).
    const evaluate = (evaluation) => {
      if (seq !== state.analysisSeq || !evaluation) return;
      const view = onLine ? board.barView(state.line, m) : { moverIsLeft: true, left: "You", right: "AI" };
      $("eval").replaceChildren(evalBar(evaluation, view));
      $("eval").hidden = false;
    };
    const content = await game.analyze(m, { thinking, evaluate });
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

// A match's share link: its game and options put in the form, and a new
// match started with them.
function startShared(saved) {
  if (!catalog.has(saved.game)) return false;
  $("game").value = saved.game;
  showOptions(saved.game);
  showModes(saved.game);
  for (const [name, value] of Object.entries(saved.options)) {
    const field = $("setup").querySelector(`[name="${name}"]`);
    if (!field || value === null || (typeof value === "object" && !Array.isArray(value))) continue;
    if (field.type === "checkbox") field.checked = Boolean(value);
    else field.value = Array.isArray(value) ? value.join(", ") : value;
  }
  $("setup").querySelector('input[name="mode"][value="match"]').checked = true;
  history.replaceState(null, "", location.pathname + location.search);
  $("setup").requestSubmit();
  return true;
}

// The position a share link carries, opened on the analysis board.
async function openShared() {
  const asMatch = readHash(location.hash);
  if (asMatch?.mode === "match") return startShared(asMatch);
  const shared = await board.fromHash(location.hash).catch((error) => {
    showError(new api.ApiError(422, "The link's position could not be read", String(error.message ?? error)));
    return null;
  });
  if (!shared || !GAMES[shared.game]) return false;
  showOptions(shared.game);
  showModes(shared.game);
  if (/[#&]flip=1/.test(location.hash) !== state.flipped) flip();
  openLine(shared);
  return true;
}

async function init() {
  try {
    await loadCatalog();
  } catch (error) {
    showError(error, { canReload: false });
  }
  $("game").addEventListener("change", () => {
    showOptions($("game").value);
    showModes($("game").value);
    suggestStarter();
  });
  $("options").addEventListener("change", suggestStarter);
  // Who starts and the AI's level are a match's: the analysis board has no AI.
  $("setup").addEventListener("change", (event) => {
    if (event.target.name !== "mode") return;
    document.body.dataset.setupMode = event.target.value;
  });
  $("flip").addEventListener("click", flip);
  $("to-analysis").addEventListener("click", analyseMatch);
  $("nav-first").addEventListener("click", () => goOnLine(0));
  $("nav-back").addEventListener("click", () => goOnLine(state.line.cursor - 1));
  $("nav-forward").addEventListener("click", () => goOnLine(state.line.cursor + 1));
  $("nav-last").addEventListener("click", () => goOnLine(state.line.moves.length));
  $("setup-position").addEventListener("submit", setUpPosition);
  $("review-line").addEventListener("click", reviewLine);
  document.addEventListener("keydown", onKey);
  $("level").addEventListener("input", () => ($("level-out").textContent = $("level").value));
  $("setup").addEventListener("submit", startMatch);
  $("analysis-toggle").addEventListener("change", refreshAnalysis);
  $("error-dismiss").addEventListener("click", clearError);
  $("error-retry").addEventListener("click", reload);
  showOptions($("game").value);
  showModes($("game").value);
  suggestStarter();
  // A share link opens its position on the analysis board; otherwise the
  // last match is picked up where it was.
  // A link followed within the page (only the hash changes) opens too.
  window.addEventListener("hashchange", openShared);
  if (!(await openShared())) {
    const saved = remembered();
    if (saved) resume(saved);
  }
  document.body.dataset.ready = "true";
}

init();
