// Plays one whole match of every game against a running kibitz through the
// client that openapi-typescript (default settings) and openapi-fetch make of
// openapi.yaml: every move is taken from the match's own legal_moves, every
// answer is read through the generated types, and no cast is needed.
//
// Usage: KIBITZ_URL=http://127.0.0.1:8080 tsx ts/play.ts
// (scripts/clients-test.sh generates ts/generated/api.d.ts first).
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type Schemas = components["schemas"];
type Match = Schemas["Match"];
type Move = Schemas["MatchMoveRequest"]["move"];
type Entry = Match["history"][number];

const baseUrl = process.env.KIBITZ_URL;
if (!baseUrl) {
  throw new Error("set KIBITZ_URL to the server's address");
}
const client = createClient<paths>({ baseUrl });

function check(ok: boolean, what: string): asserts ok {
  if (!ok) {
    throw new Error(`check failed: ${what}`);
  }
}

const show = (value: unknown): string => JSON.stringify(value);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Pig: roll while the turn total is below 20, then hold. */
const PIG_HOLD_AT = 20;

/** The person's move: the first legal one (Pig: roll or hold by the turn total). */
function chooseMove(m: Match): Move {
  check(m.status === "in_progress" && m.result === null, `match ${m.id} is in progress`);
  switch (m.game) {
    case "pig": {
      const legal = m.legal_moves;
      check(legal !== null && legal.some((mv) => mv.action === "hold"), `pig offers hold: ${show(legal)}`);
      const roll = legal.find((mv) => mv.action === "roll");
      return m.state.turn_total < PIG_HOLD_AT && roll ? roll : { action: "hold" };
    }
    case "nine-square": {
      const cells = m.legal_moves;
      const dice = m.state.dice;
      check(cells !== null && cells.length > 0, "nine-square offers empty cells");
      check(dice !== null && dice >= 1 && dice <= 6, `nine-square rolled the person's die: ${dice}`);
      return { placements: cells.slice(0, Math.min(dice, cells.length)) };
    }
    case "ishitori": {
      const first = m.legal_moves?.[0];
      check(first !== undefined, "ishitori offers a move");
      check(m.state.remaining_decimal === String(m.state.remaining), `remaining_decimal ${show(m.state)}`);
      return first;
    }
    default: {
      const first = m.legal_moves?.[0];
      check(first !== undefined, `${m.game} offers a move`);
      return first;
    }
  }
}

const plies = (entries: readonly { ply: number }[]): number[] => entries.map((e) => e.ply);

/**
 * Plays a match of the catalog's game `game` to the end (options that keep
 * it short where `QUICK` has them, else its defaults), each move asking
 * only for the history after the ply it was made at (`since`); checks that
 * those pieces add up to the whole history and that the match ends for a
 * reason the spec names.
 */
async function playCatalogGame(game: string): Promise<string> {
  // The request is built from the catalog's id at run time, so it is sent
  // in plain JSON; every answer is read through the generated types.
  const request = { game, options: QUICK[game] ?? null, ai_first: AI_FIRST.has(game) };
  const posted = await fetch(`${baseUrl}/matches`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  });
  const body: unknown = await posted.json();
  check(posted.status === 201, `POST /matches ${show(request)} answered ${posted.status}: ${show(body)}`);
  check(typeof body === "object" && body !== null && "token" in body && typeof body.token === "string"
    && "id" in body && typeof body.id === "string", `a new match has an id and a token: ${show(body)}`);
  const auth = bearer(body.token);
  const start = await client.GET("/matches/{id}", { params: { path: { id: body.id } }, headers: auth });
  check(start.data !== undefined, `GET /matches/${body.id} answered ${start.response.status}: ${show(start.error)}`);
  let m: Match = start.data;
  check(m.game === game, `the match plays ${game}`);
  const history: Entry[] = [...m.history];
  while (m.status === "in_progress") {
    const move = chooseMove(m);
    const sent = m.ply;
    const r = await client.POST("/matches/{id}/moves", {
      params: { path: { id: m.id }, query: { since: sent } },
      headers: auth,
      body: { ply: sent, move },
    });
    check(r.data !== undefined, `${show(move)} at ply ${sent} answered ${r.response.status}: ${show(r.error)}`);
    const next = r.data;
    const got = plies(next.history);
    check(next.id === m.id && next.game === m.game, "the same match answers");
    check(next.ply > sent, `ply moves on from ${sent} (got ${next.ply})`);
    check(show(got) === show(Array.from({ length: next.ply - sent }, (_, i) => sent + 1 + i)),
      `since=${sent} gives plies ${sent + 1}..${next.ply}, got ${show(got)}`);
    check(next.history[0]?.actor === "human", `the person's move comes first after ply ${sent}`);
    history.push(...next.history);
    m = next;
  }
  const result = m.result;
  check(m.status === "finished" && result !== null, `match ${m.id} has a result`);
  check(typeof result.reason === "string" && result.reason.length > 0, `${m.game} ended for a reason: ${show(result)}`);
  check(m.legal_moves === null, "a finished match has no legal moves");

  const whole = await client.GET("/matches/{id}", { params: { path: { id: m.id } }, headers: auth });
  check(whole.data !== undefined, `GET /matches/${m.id} answered ${whole.response.status}`);
  check(whole.data.ply === m.ply && whole.data.history.length === m.ply, "the whole history has ply entries");
  check(show(whole.data.history) === show(history), "the since pieces add up to the whole history");

  const late = await client.POST("/matches/{id}/moves", {
    params: { path: { id: m.id } },
    headers: auth,
    body: { ply: m.ply, move: chooseLate(m) },
  });
  check(late.response.status === 422 && late.error?.type === "/problems/match-finished",
    `a move in a finished match is 422 match-finished, got ${late.response.status} ${show(late.error)}`);
  return `${m.game}: ${m.ply} plies, winner ${result.winner} (${result.reason})`;
}

/** Any well-formed move of the match's game, for a match that is over. */
function chooseLate(m: Match): Move {
  const last = m.history.findLast((e) => e.actor === "human");
  check(last !== undefined && last.move !== null, `${m.game} has a move of the person's`);
  return last.move;
}

/** The match problem types: a stale ply, an illegal move, invalid options. */
async function problems(): Promise<string> {
  const bad = await client.POST("/matches", { body: { game: "tictactoe", options: { rows: 40 } } });
  check(bad.response.status === 422 && bad.error?.type === "/problems/invalid-options",
    `rows 40 is 422 invalid-options, got ${bad.response.status} ${show(bad.error)}`);

  const created = await client.POST("/matches", { body: { game: "tictactoe" } });
  check(created.data !== undefined, `POST /matches answered ${created.response.status}`);
  const id = created.data.id;
  const auth = bearer(created.data.token);
  const stale = await client.POST("/matches/{id}/moves", {
    params: { path: { id } },
    headers: auth,
    body: { ply: created.data.ply + 1, move: { row: 0, col: 0 } },
  });
  check(stale.response.status === 409 && stale.error?.type === "/problems/stale-ply",
    `a wrong ply is 409 stale-ply, got ${stale.response.status} ${show(stale.error)}`);
  const illegal = await client.POST("/matches/{id}/moves", {
    params: { path: { id } },
    headers: auth,
    body: { ply: created.data.ply, move: { row: 3, col: 0 } },
  });
  check(illegal.response.status === 422 && illegal.error?.type === "/problems/illegal-move",
    `a cell off the board is 422 illegal-move, got ${illegal.response.status} ${show(illegal.error)}`);
  const anonymous = await client.GET("/matches/{id}", { params: { path: { id } } });
  check(anonymous.response.status === 401, `no token is 401, got ${anonymous.response.status}`);
  return "problems: invalid-options, stale-ply, illegal-move, 401";
}

/** A heap beyond 2^53 comes back exact in the decimal twins. */
async function bigHeap(): Promise<string> {
  const heap = "18446744073709551613";
  const created = await client.POST("/matches", { body: { game: "ishitori", options: { remaining: heap } } });
  check(created.data !== undefined, `POST /matches answered ${created.response.status}: ${show(created.error)}`);
  const m = created.data;
  check(m.game === "ishitori", "an ishitori match");
  check(m.options.remaining_decimal === heap, `options.remaining_decimal is ${heap}: ${show(m.options)}`);
  check(m.state.remaining_decimal === heap, `state.remaining_decimal is ${heap}: ${show(m.state)}`);
  return `ishitori heap ${heap} exact in remaining_decimal`;
}

/** Options that keep a game's match short; a game not here plays its defaults. */
const QUICK: Record<string, Record<string, number | string>> = {
  pig: { goal: 50 },
  ishitori: { remaining: 21 },
  "number-square": { size: 4 },
  othello: { size: 4 },
  kalah: { houses: 4, seeds: 3 },
};
/** Games whose match starts with the AI (Nine Square: the person's die is rolled after it). */
const AI_FIRST = new Set(["nine-square"]);

// Every match game of the catalog: a game added to the server is played
// here without a line of this file changing.
const catalog = await client.GET("/games");
check(catalog.data !== undefined, `GET /games answered ${catalog.response.status}`);
const matchGames = catalog.data.games.filter((g) => g.endpoints.matches !== null).map((g) => g.id);
check(matchGames.length > 0, "the catalog lists match games");
const games: [string, () => Promise<string>][] = [
  ...matchGames.map((id): [string, () => Promise<string>] => [id, () => playCatalogGame(id)]),
  ["problems", problems],
  ["big heap", bigHeap],
];

let failed = 0;
for (const [name, run] of games) {
  try {
    console.log(`ok ${await run()}`);
  } catch (e) {
    failed += 1;
    console.log(`FAILED ${name}: ${e instanceof Error ? e.message : show(e)}`);
  }
}
console.log(`typescript client: ${games.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
