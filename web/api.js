// The kibitz HTTP API as this page uses it: JSON in, JSON out, and every
// failure turned into an ApiError with a sentence a person can read.

export class ApiError extends Error {
  constructor(status, title, detail) {
    super(detail ? `${title}: ${detail}` : title);
    this.status = status; // 0 when the server did not answer at all
    this.title = title;
    this.detail = detail;
  }
}

async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "The server did not answer", "is it still running? Your match is kept on the server; reload it once the server is back.");
  }
  return answer(response);
}

// A finished response: its JSON, or an ApiError.
async function answer(response) {
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    // A proxy's HTML error page, say: report the status alone.
  }
  if (!response.ok) {
    // Problem details (RFC 9457): `detail` names what was wrong.
    const title = (json && json.title) || response.statusText || "Error";
    const detail = (json && json.detail) || text.slice(0, 200);
    throw new ApiError(response.status, `${response.status} ${title}`, detail);
  }
  return json;
}

// POST `body` asking for NDJSON: `onLine` sees each intermediate answer as
// the search finds it; resolves to the final answer (without `final`).
// Problems, and a server that answers plain JSON, are handled as request does.
async function streamed(path, body, onLine) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { Accept: "application/x-ndjson", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "The server did not answer", "is it still running?");
  }
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || !type.startsWith("application/x-ndjson") || !response.body) {
    return answer(response);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let end;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      const { final, ...fields } = line;
      if (final) {
        reader.cancel().catch(() => {});
        return fields;
      }
      onLine(fields);
    }
  }
  throw new ApiError(0, "The answer was cut short", "the connection closed before the search finished.");
}

// GET /games: the catalog of games, their options and strategies.
export const getGames = () => request("GET", "/games");

// POST /matches -> the match object plus its token (shown only once).
export const createMatch = (game, options, level, aiFirst) =>
  request("POST", "/matches", {
    body: { game, options, ai: { strategy: "best", level }, ai_first: aiFirst },
  });

export const getMatch = (id, token) => request("GET", `/matches/${encodeURIComponent(id)}`, { token });

// A finished (or ongoing) match, reviewed move by move.
export const getReview = (id, token) => request("GET", `/matches/${encodeURIComponent(id)}/review`, { token });

// `ply` must be the match's current ply: a repeated click cannot play twice.
export const playMove = (id, token, ply, move) =>
  request("POST", `/matches/${encodeURIComponent(id)}/moves`, { token, body: { ply, move } });

// A game's analysis endpoint (its catalog entry's `endpoints.analysis`)...
export const analyse = (path, body) => request("POST", path, { body });
// ...and the same reporting the search's progress to `onLine` as it thinks.
export const analyseStreamed = (path, body, onLine) => streamed(path, body, onLine);

// Any other GET a game's drawing needs (its path and query built there).
export const getJson = (path) => request("GET", path);
