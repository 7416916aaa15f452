// The share link: the analysis board's game, options, start position, moves
// and cursor in the page's URL hash, so a link (or a reload) restores it.
// Moves go as JSON: every game's move objects, as the API writes them. A
// match's link (`mode=match`) carries the game and options only: opened, it
// starts a new match against the AI with them (chess: from the FEN shown).

export function writeHash({ game, options, start, moves, cursor }) {
  const params = new URLSearchParams({ game, options: JSON.stringify(options), moves: JSON.stringify(moves), ply: String(cursor) });
  if (start != null) params.set("start", start);
  return `#${params}`;
}

export function writeMatchHash({ game, options }) {
  return `#${new URLSearchParams({ game, mode: "match", options: JSON.stringify(options) })}`;
}

// The board the hash describes, or null when it describes none.
export function readHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (!params.get("game")) return null;
  try {
    return {
      game: params.get("game"),
      mode: params.get("mode") ?? "analysis",
      options: JSON.parse(params.get("options") ?? "{}"),
      moves: JSON.parse(params.get("moves") ?? "[]"),
      cursor: Number(params.get("ply") ?? "-1"),
      start: params.get("start"),
    };
  } catch (e) {
    return null;
  }
}
