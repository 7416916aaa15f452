// Chess rules for the analysis board: a position is {board: 64 squares
// (a1 = 0, h8 = 63) holding FEN piece letters or null, turn "w" | "b",
// castling (a subset of "KQkq"), ep (the en-passant target square or -1),
// halfmove, fullmove, seen (how often each position has stood, for
// threefold repetition)}; a move is {uci: "e2e4"} ("e7e8q" promotes), as
// the API writes it. The server's rules stay the reference: the browser
// tests hold this generator to the published perft counts.

const FILES = "abcdefgh";
export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const SLIDES = { r: ROOK, b: BISHOP, q: [...ROOK, ...BISHOP] };
const PROMOTIONS = ["q", "r", "b", "n"];
// The squares whose piece leaving or being taken ends a castling right.
const CASTLING_SQUARE = { 0: "Q", 4: "KQ", 7: "K", 56: "q", 60: "kq", 63: "k" };

const colourOf = (piece) => (piece === piece.toUpperCase() ? "w" : "b");
const other = (colour) => (colour === "w" ? "b" : "w");
const squareAt = (file, rank) => (file >= 0 && file < 8 && rank >= 0 && rank < 8 ? rank * 8 + file : -1);
const nameOf = (square) => `${FILES[square % 8]}${Math.floor(square / 8) + 1}`;
const indexOf = (name) => (/^[a-h][1-8]$/.test(name) ? squareAt(FILES.indexOf(name[0]), Number(name[1]) - 1) : -1);

// Whether `by` attacks `square` on `board`.
function attacked(board, square, by) {
  const file = square % 8;
  const rank = Math.floor(square / 8);
  const is = (s, type) => s >= 0 && board[s] !== null && colourOf(board[s]) === by && board[s].toLowerCase() === type;
  const pawnRank = rank + (by === "w" ? -1 : 1);
  if (is(squareAt(file - 1, pawnRank), "p") || is(squareAt(file + 1, pawnRank), "p")) return true;
  if (KNIGHT.some(([df, dr]) => is(squareAt(file + df, rank + dr), "n"))) return true;
  if (KING.some(([df, dr]) => is(squareAt(file + df, rank + dr), "k"))) return true;
  for (const [dirs, types] of [[ROOK, "rq"], [BISHOP, "bq"]]) {
    for (const [df, dr] of dirs) {
      for (let f = file + df, r = rank + dr, s = squareAt(f, r); s >= 0; f += df, r += dr, s = squareAt(f, r)) {
        const piece = board[s];
        if (piece === null) continue;
        if (colourOf(piece) === by && types.includes(piece.toLowerCase())) return true;
        break;
      }
    }
  }
  return false;
}

const kingOf = (board, colour) => board.indexOf(colour === "w" ? "K" : "k");
const inCheck = (p, colour = p.turn) => attacked(p.board, kingOf(p.board, colour), other(colour));

// Every move by the rules of piece movement, before the king's safety.
function pseudoMoves(p) {
  const { board, turn } = p;
  const moves = [];
  const add = (from, to, promo = "") => moves.push({ from, to, promo });
  const forward = turn === "w" ? 1 : -1;
  for (let from = 0; from < 64; from++) {
    const piece = board[from];
    if (piece === null || colourOf(piece) !== turn) continue;
    const file = from % 8;
    const rank = Math.floor(from / 8);
    const type = piece.toLowerCase();
    const target = (s) => s >= 0 && (board[s] === null || colourOf(board[s]) !== turn);
    if (type === "p") {
      const last = rank + forward === (turn === "w" ? 7 : 0);
      const pawnTo = (to) => (last ? PROMOTIONS.forEach((promo) => add(from, to, promo)) : add(from, to));
      const one = squareAt(file, rank + forward);
      if (one >= 0 && board[one] === null) {
        pawnTo(one);
        const two = squareAt(file, rank + 2 * forward);
        if (rank === (turn === "w" ? 1 : 6) && board[two] === null) add(from, two);
      }
      for (const df of [-1, 1]) {
        const to = squareAt(file + df, rank + forward);
        if (to >= 0 && ((board[to] !== null && colourOf(board[to]) !== turn) || to === p.ep)) pawnTo(to);
      }
    } else if (type === "n" || type === "k") {
      for (const [df, dr] of type === "n" ? KNIGHT : KING) {
        const to = squareAt(file + df, rank + dr);
        if (target(to)) add(from, to);
      }
    } else {
      for (const [df, dr] of SLIDES[type]) {
        for (let f = file + df, r = rank + dr, to = squareAt(f, r); target(to); f += df, r += dr, to = squareAt(f, r)) {
          add(from, to);
          if (board[to] !== null) break;
        }
      }
    }
  }
  // Castling: the right kept, the squares between empty, and the king
  // neither in check nor crossing or landing on an attacked square.
  const home = turn === "w" ? 0 : 56;
  const rights = turn === "w" ? ["K", "Q"] : ["k", "q"];
  const own = (letter) => (turn === "w" ? letter.toUpperCase() : letter);
  if (board[home + 4] === own("k")) {
    const safe = (squares) => squares.every((s) => !attacked(board, home + s, other(turn)));
    const empty = (squares) => squares.every((s) => board[home + s] === null);
    const rook = (s) => board[home + s] === own("r");
    if (p.castling.includes(rights[0]) && rook(7) && empty([5, 6]) && safe([4, 5, 6])) add(home + 4, home + 6);
    if (p.castling.includes(rights[1]) && rook(0) && empty([1, 2, 3]) && safe([4, 3, 2])) add(home + 4, home + 2);
  }
  return moves;
}

const uciOf = (m) => `${nameOf(m.from)}${nameOf(m.to)}${m.promo}`;

// The position after a move (legal or not: the caller checks).
function after(p, m) {
  const board = p.board.slice();
  const piece = board[m.from];
  const type = piece.toLowerCase();
  const taken = board[m.to] !== null || (type === "p" && m.to === p.ep);
  if (type === "p" && m.to === p.ep) board[m.to + (p.turn === "w" ? -8 : 8)] = null;
  if (type === "k" && Math.abs(m.to - m.from) === 2) {
    const [rookFrom, rookTo] = m.to > m.from ? [m.from + 3, m.from + 1] : [m.from - 4, m.from - 1];
    board[rookTo] = board[rookFrom];
    board[rookFrom] = null;
  }
  board[m.to] = m.promo ? (p.turn === "w" ? m.promo.toUpperCase() : m.promo) : piece;
  board[m.from] = null;
  const lost = `${CASTLING_SQUARE[m.from] ?? ""}${CASTLING_SQUARE[m.to] ?? ""}`;
  const next = {
    board,
    turn: other(p.turn),
    castling: [...p.castling].filter((c) => !lost.includes(c)).join(""),
    ep: type === "p" && Math.abs(m.to - m.from) === 16 ? (m.to + m.from) / 2 : -1,
    halfmove: type === "p" || taken ? 0 : p.halfmove + 1,
    fullmove: p.fullmove + (p.turn === "b" ? 1 : 0),
  };
  // Repetition counts start over after a move that cannot be undone.
  const seen = next.halfmove === 0 ? {} : { ...p.seen };
  const key = repetitionKey(next);
  seen[key] = (seen[key] ?? 0) + 1;
  return { ...next, seen };
}

function legalMoves(p) {
  return pseudoMoves(p).filter((m) => !inCheck(after(p, m), p.turn));
}

// Two positions repeat when the pieces, the side to move, the castling
// rights and a capturable en-passant square are the same.
function repetitionKey(p) {
  const epCapturable = p.ep >= 0 && pseudoMoves(p).some((m) => m.to === p.ep && p.board[m.from].toLowerCase() === "p");
  return `${placementOf(p.board)} ${p.turn} ${p.castling} ${epCapturable ? p.ep : "-"}`;
}

function placementOf(board) {
  const ranks = [];
  for (let rank = 7; rank >= 0; rank--) {
    let text = "";
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = board[rank * 8 + file];
      if (piece === null) empty += 1;
      else {
        text += `${empty || ""}${piece}`;
        empty = 0;
      }
    }
    ranks.push(text + (empty || ""));
  }
  return ranks.join("/");
}

export function parseFen(text) {
  const fields = text.trim().split(/\s+/);
  const [placement, turn = "w", castling = "-", ep = "-", halfmove = "0", fullmove = "1"] = fields;
  const rows = (placement ?? "").split("/");
  const board = Array(64).fill(null);
  if (rows.length !== 8) throw new Error("a FEN's placement has 8 ranks separated by /");
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else if (/[prnbqk]/i.test(ch) && file < 8) board[(7 - i) * 8 + file++] = ch;
      else throw new Error(`"${ch}" in rank ${8 - i} is not a piece`);
    }
    if (file !== 8) throw new Error(`rank ${8 - i} does not hold 8 squares`);
  });
  if (board.filter((p) => p === "K").length !== 1 || board.filter((p) => p === "k").length !== 1) {
    throw new Error("each side has exactly one king");
  }
  if (!/^[wb]$/.test(turn)) throw new Error('the side to move is "w" or "b"');
  if (!/^(-|K?Q?k?q?)$/.test(castling) || castling === "") throw new Error('castling rights are "-" or a subset of KQkq');
  const epSquare = ep === "-" ? -1 : indexOf(ep);
  if (ep !== "-" && epSquare < 0) throw new Error(`"${ep}" is not an en-passant square`);
  const [half, full] = [Number(halfmove), Number(fullmove)];
  if (!Number.isInteger(half) || half < 0 || !Number.isInteger(full) || full < 1) throw new Error("the move counters are whole numbers");
  const p = { board, turn, castling: castling === "-" ? "" : castling, ep: epSquare, halfmove: half, fullmove: full };
  if (inCheck(p, other(turn))) throw new Error("the side not to move is in check");
  return { ...p, seen: { [repetitionKey(p)]: 1 } };
}

export function formatFen(p) {
  return `${placementOf(p.board)} ${p.turn} ${p.castling || "-"} ${p.ep >= 0 ? nameOf(p.ep) : "-"} ${p.halfmove} ${p.fullmove}`;
}

function insufficientMaterial(board) {
  const pieces = board.filter((piece) => piece !== null && piece.toLowerCase() !== "k");
  return pieces.length === 0 || (pieces.length === 1 && "nb".includes(pieces[0].toLowerCase()));
}

// Standard Algebraic Notation, as the server's moves carry it.
function san(p, m) {
  const piece = p.board[m.from].toLowerCase();
  let text;
  if (piece === "k" && Math.abs(m.to - m.from) === 2) {
    text = m.to > m.from ? "O-O" : "O-O-O";
  } else {
    const capture = p.board[m.to] !== null || (piece === "p" && m.to === p.ep);
    if (piece === "p") {
      text = `${capture ? `${FILES[m.from % 8]}x` : ""}${nameOf(m.to)}${m.promo ? `=${m.promo.toUpperCase()}` : ""}`;
    } else {
      const rivals = legalMoves(p).filter((o) => o.to === m.to && o.from !== m.from && p.board[o.from] === p.board[m.from]);
      let which = "";
      if (rivals.length) {
        if (rivals.every((o) => o.from % 8 !== m.from % 8)) which = FILES[m.from % 8];
        else if (rivals.every((o) => Math.floor(o.from / 8) !== Math.floor(m.from / 8))) which = nameOf(m.from)[1];
        else which = nameOf(m.from);
      }
      text = `${piece.toUpperCase()}${which}${capture ? "x" : ""}${nameOf(m.to)}`;
    }
  }
  const next = after(p, m);
  if (inCheck(next)) text += legalMoves(next).length === 0 ? "#" : "+";
  return text;
}

function find(p, uci) {
  const m = legalMoves(p).find((candidate) => uciOf(candidate) === uci);
  if (!m) throw new Error(`${uci} is not a legal move here`);
  return m;
}

// Leaf positions at `depth`: the generator's check against published counts.
export function perft(p, depth) {
  if (depth === 0) return 1;
  const moves = legalMoves(p);
  if (depth === 1) return moves.length;
  return moves.reduce((sum, m) => sum + perft(after(p, m), depth - 1), 0);
}

const rules = {
  players: ["w", "b"],
  names: { w: "White", b: "Black" },
  setupHelp: "a FEN, e.g. rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
  // The start is an option (fen), so the stateless review replays from it.
  startInOptions: true,
  start: (options) => parseFen(options.fen ?? START_FEN),
  toMove: (p) => p.turn,
  legal: (p) => (rules.result(p) ? [] : legalMoves(p).map((m) => ({ uci: uciOf(m) }))),
  apply: (p, mv) => after(p, find(p, mv.uci)),
  result(p) {
    if (legalMoves(p).length === 0) return { winner: inCheck(p) ? other(p.turn) : "draw" };
    if (p.halfmove >= 100 || insufficientMaterial(p.board) || Object.values(p.seen).some((n) => n >= 3)) return { winner: "draw" };
    return null;
  },
  notation: (mv, p) => san(p, find(p, mv.uci)),
  asMatchState: (p) => ({ fen: formatFen(p), moves: [], check: inCheck(p) }),
  matchOptions: (start, options) => ({ ...options, fen: formatFen(start) }),
  format: formatFen,
  parse: (text) => parseFen(text),
  optionsFor: (start, options) => ({ ...options, fen: formatFen(start) }),
};
export default rules;
