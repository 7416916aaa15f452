// Xiangqi rules for the analysis board: a position is {board: 90 points
// (a1 = 0, i10 = 89: rank * 9 + file, red's back rank first) holding FEN
// piece letters (red uppercase: K general, A advisor, B elephant, N horse,
// R chariot, C cannon, P soldier) or null, turn "w" (red) | "b" (black),
// halfmoves (plies since the last capture), fullmove, history (since the
// last capture: each position's placement and side to move, and whether
// that side was in check, for repetition), moves (the moves' uci from the
// start, which the analysis sends with it, as a match's state.moves)}; a
// move is {uci: "h3e3"} (ranks 1-10 from red's side), as the API writes
// it. The server's rules (src/games/xiangqi) stay the reference: the
// browser tests hold this generator to the published perft counts.
//
// The end of the game as the server decides it: no legal move loses
// (stalemate too); a position's third occurrence since the last capture
// ends the game, lost by a side that checked with every move since the
// first occurrence (perpetual check; both did: the side that just moved),
// else drawn; 100 plies without a capture draw. Like the server
// (Fairy-Stockfish 11.1), there is no chasing rule.

const FILES = "abcdefghi";
export const START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const ORTHOGONAL = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const DIAGONAL = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
// A horse's jumps, each with its leg (the point next to it that blocks it).
const HORSE = [[1, 2], [-1, 2], [1, -2], [-1, -2], [2, 1], [2, -1], [-2, 1], [-2, -1]].map(([df, dr]) => ({
  df,
  dr,
  leg: Math.abs(df) === 2 ? [df / 2, 0] : [0, dr / 2],
}));
// Fairy-Stockfish also reads E (elephant) and H (horse).
const ALIAS = { e: "b", h: "n" };
const MOVE_LIMIT_PLIES = 100;
const REPETITIONS = 3;
const NAMES = { k: "general", a: "advisor", b: "elephant", n: "horse", r: "chariot", c: "cannon", p: "soldier" };
const MAX_COUNT = { k: 1, a: 2, b: 2, n: 2, r: 2, c: 2, p: 5 };

const sideOf = (piece) => (piece === piece.toUpperCase() ? "w" : "b");
const other = (side) => (side === "w" ? "b" : "w");
const sideName = (side) => (side === "w" ? "red" : "black");
const pointAt = (file, rank) => (file >= 0 && file < 9 && rank >= 0 && rank < 10 ? rank * 9 + file : -1);
const nameOf = (point) => `${FILES[point % 9]}${Math.floor(point / 9) + 1}`;
const indexOf = (name) => {
  const found = /^([a-i])(10|[1-9])$/.exec(name);
  return found ? pointAt(FILES.indexOf(found[1]), Number(found[2]) - 1) : -1;
};
const inPalace = (file, rank, side) => file >= 3 && file <= 5 && (side === "w" ? rank <= 2 : rank >= 7);
// Whether a rank is on the side's own half (before the river).
const ownHalf = (rank, side) => (side === "w" ? rank <= 4 : rank >= 5);

// Whether `by` attacks `point` (a general's point: advisors and
// elephants, which never leave their own half, cannot reach it). A
// general attacks along an open file too (flying general).
function attacked(board, point, by) {
  const file = point % 9;
  const rank = Math.floor(point / 9);
  const is = (p, type) => p >= 0 && board[p] !== null && sideOf(board[p]) === by && board[p].toLowerCase() === type;
  for (const [df, dr] of ORTHOGONAL) {
    let screens = 0;
    for (let f = file + df, r = rank + dr, p = pointAt(f, r); p >= 0; f += df, r += dr, p = pointAt(f, r)) {
      const piece = board[p];
      if (piece === null) continue;
      if (screens === 0) {
        if (is(p, "r")) return true;
        if (is(p, "k") && (df === 0 || Math.abs(f - file) === 1)) return true;
        screens = 1;
      } else {
        if (is(p, "c")) return true;
        break;
      }
    }
  }
  for (const { df, dr, leg } of HORSE) {
    // The horse stands at point - (df, dr); its leg is beside it.
    const hf = file - df;
    const hr = rank - dr;
    if (is(pointAt(hf, hr), "n") && board[pointAt(hf + leg[0], hr + leg[1])] === null) return true;
  }
  const forward = by === "w" ? 1 : -1;
  if (is(pointAt(file, rank - forward), "p")) return true;
  if (!ownHalf(rank, by) && (is(pointAt(file - 1, rank), "p") || is(pointAt(file + 1, rank), "p"))) return true;
  return false;
}

const generalOf = (board, side) => board.indexOf(side === "w" ? "K" : "k");
const inCheck = (p, side = p.turn) => attacked(p.board, generalOf(p.board, side), other(side));

// Every move by the rules of piece movement, before the general's safety.
function pseudoMoves(p) {
  const { board, turn } = p;
  const moves = [];
  const forward = turn === "w" ? 1 : -1;
  for (let from = 0; from < 90; from++) {
    const piece = board[from];
    if (piece === null || sideOf(piece) !== turn) continue;
    const file = from % 9;
    const rank = Math.floor(from / 9);
    const type = piece.toLowerCase();
    const free = (to) => to >= 0 && (board[to] === null || sideOf(board[to]) !== turn);
    const add = (to) => free(to) && moves.push({ from, to });
    if (type === "k" || type === "a") {
      for (const [df, dr] of type === "k" ? ORTHOGONAL : DIAGONAL) {
        if (inPalace(file + df, rank + dr, turn)) add(pointAt(file + df, rank + dr));
      }
    } else if (type === "b") {
      for (const [df, dr] of DIAGONAL) {
        const to = pointAt(file + 2 * df, rank + 2 * dr);
        if (to >= 0 && ownHalf(rank + 2 * dr, turn) && board[pointAt(file + df, rank + dr)] === null) add(to);
      }
    } else if (type === "n") {
      for (const { df, dr, leg } of HORSE) {
        const to = pointAt(file + df, rank + dr);
        if (to >= 0 && board[pointAt(file + leg[0], rank + leg[1])] === null) add(to);
      }
    } else if (type === "r" || type === "c") {
      for (const [df, dr] of ORTHOGONAL) {
        let screened = false;
        for (let f = file + df, r = rank + dr, to = pointAt(f, r); to >= 0; f += df, r += dr, to = pointAt(f, r)) {
          if (!screened) {
            if (board[to] === null) moves.push({ from, to });
            else if (type === "r") {
              add(to);
              break;
            } else screened = true;
          } else if (board[to] !== null) {
            add(to);
            break;
          }
        }
      }
    } else if (type === "p") {
      add(pointAt(file, rank + forward));
      if (!ownHalf(rank, turn)) {
        add(pointAt(file - 1, rank));
        add(pointAt(file + 1, rank));
      }
    }
  }
  return moves;
}

const uciOf = (m) => `${nameOf(m.from)}${nameOf(m.to)}`;

// The position after a move (legal or not: the caller checks), without
// its history.
function bare(p, m) {
  const board = p.board.slice();
  const taken = board[m.to] !== null;
  board[m.to] = board[m.from];
  board[m.from] = null;
  return {
    board,
    turn: other(p.turn),
    halfmoves: taken ? 0 : p.halfmoves + 1,
    fullmove: p.fullmove + (p.turn === "b" ? 1 : 0),
  };
}

const keyOf = (p) => `${placementOf(p.board)} ${p.turn}`;

function after(p, m) {
  const next = bare(p, m);
  const entry = { key: keyOf(next), check: inCheck(next) };
  return { ...next, history: next.halfmoves === 0 ? [entry] : [...p.history, entry], moves: [...p.moves, uciOf(m)] };
}

function legalMoves(p) {
  return pseudoMoves(p).filter((m) => !inCheck(bare(p, m), p.turn));
}

// The server's repetition rule (Fairy-Stockfish 11.1's n-fold repetition
// with perpetual check illegal): positions two plies apart are compared,
// back to the last capture; the check flags in between say whether a side
// checked with every move.
function repetition(p) {
  const { history } = p;
  const now = history.length - 1;
  const window = Math.min(p.halfmoves, now);
  if (window < 4) return null;
  const checks = history.map((e) => e.check);
  let perpetualThem = checks[now] && checks[now - 2];
  let perpetualUs = checks[now - 1] && checks[now - 3];
  let earlier = 0;
  for (let back = 4; back <= window; back += 2) {
    const i = now - back;
    perpetualThem &&= checks[i];
    if (history[i].key === history[now].key) {
      earlier += 1;
      if (earlier + 1 === REPETITIONS) {
        if (perpetualThem) return { winner: p.turn };
        if (perpetualUs) return { winner: other(p.turn) };
        return { winner: "draw" };
      }
    }
    if (back < window) perpetualUs &&= checks[i - 1];
  }
  return null;
}

function placementOf(board) {
  const ranks = [];
  for (let rank = 9; rank >= 0; rank--) {
    let text = "";
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const piece = board[rank * 9 + file];
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

// Whether a piece can ever stand on a point (as the server checks a FEN).
function reachable(piece, file, rank) {
  const side = sideOf(piece);
  const own = side === "w" ? rank : 9 - rank;
  switch (piece.toLowerCase()) {
    case "k":
      return inPalace(file, rank, side);
    case "a":
      return inPalace(file, rank, side) && (file + own) % 2 === 1;
    case "b":
      return ([2, 6].includes(file) && (own === 0 || own === 4)) || ([0, 4, 8].includes(file) && own === 2);
    case "p":
      return own >= 5 || (own >= 3 && file % 2 === 0);
    default:
      return true;
  }
}

export function parseFen(text) {
  const fields = text.trim().split(/\s+/);
  if (fields.length > 6) throw new Error(`a FEN has at most 6 fields, not ${fields.length}`);
  const [placement, turn = "w", third = "-", fourth = "-", halfmoves = "0", fullmove = "1"] = fields;
  const rows = (placement ?? "").split("/");
  if (rows.length !== 10) throw new Error("a xiangqi FEN's placement has 10 ranks separated by /");
  const board = Array(90).fill(null);
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) file += Number(ch);
      else if (/[kabnrcpeh]/i.test(ch) && file < 9) {
        const lower = ch.toLowerCase();
        const letter = ALIAS[lower] ?? lower;
        const piece = ch === lower ? letter : letter.toUpperCase();
        if (!reachable(piece, file, rank)) {
          throw new Error(`the ${sideName(sideOf(piece))} ${NAMES[letter]} on ${FILES[file]}${rank + 1} stands on a point it can never reach`);
        }
        board[pointAt(file++, rank)] = piece;
      } else if (file >= 9) throw new Error(`rank ${rank + 1} ("${row}") is wider than 9 points`);
      else throw new Error(`"${ch}" in rank ${rank + 1} is not a piece (k a b n r c p, or a digit 1-9)`);
    }
    if (file !== 9) throw new Error(`rank ${rank + 1} ("${row}") covers ${file} points, not 9`);
  });
  for (const letter of Object.keys(MAX_COUNT)) {
    for (const piece of [letter.toUpperCase(), letter]) {
      const count = board.filter((q) => q === piece).length;
      if (letter === "k" && count !== 1) throw new Error(`${sideName(sideOf(piece))} has ${count} generals: exactly one (${piece}) is needed`);
      if (count > MAX_COUNT[letter]) throw new Error(`${sideName(sideOf(piece))} has ${count} ${NAMES[letter]}s, at most ${MAX_COUNT[letter]}`);
    }
  }
  const side = turn === "r" ? "w" : turn;
  if (!/^[wb]$/.test(side)) throw new Error('the side to move is "w" (red) or "b" (black)');
  if (third !== "-" || fourth !== "-") throw new Error('fields 3 and 4 of a xiangqi FEN are always "-"');
  const [half, full] = [Number(halfmoves), Number(fullmove)];
  if (!/^\d+$/.test(halfmoves) || !/^\d+$/.test(fullmove) || full < 1) throw new Error("the move counters are whole numbers (the move number 1 or more)");
  const p = { board, turn: side, halfmoves: half, fullmove: full };
  if (inCheck(p, other(side))) {
    throw new Error(`${sideName(other(side))}'s general is in check (or faces the other general) with ${sideName(side)} to move`);
  }
  return { ...p, history: [{ key: keyOf(p), check: inCheck(p) }], moves: [] };
}

export function formatFen(p) {
  return `${placementOf(p.board)} ${p.turn} - - ${p.halfmoves} ${p.fullmove}`;
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
  return moves.reduce((sum, m) => sum + perft(bare(p, m), depth - 1), 0);
}

const rules = {
  players: ["w", "b"],
  names: { w: "Red", b: "Black" },
  setupHelp: "a FEN (red uppercase, rank 10 first), e.g. rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
  // The start is an option (fen), so the stateless review replays from it.
  startInOptions: true,
  start: (options) => parseFen(options.fen ?? START_FEN),
  toMove: (p) => p.turn,
  legal: (p) => (rules.result(p) ? [] : legalMoves(p).map((m) => ({ uci: uciOf(m) }))),
  apply: (p, mv) => after(p, find(p, mv.uci)),
  result(p) {
    if (legalMoves(p).length === 0) return { winner: other(p.turn) };
    const repeated = repetition(p);
    if (repeated) return repeated;
    if (p.halfmoves >= MOVE_LIMIT_PLIES) return { winner: "draw" };
    return null;
  },
  notation: (mv, p) => wxf(p, find(p, mv.uci)),
  // The drawing puts the person's side (red here) at the bottom.
  asMatchState: (p) => ({ fen: formatFen(p), moves: p.moves, check: inCheck(p), to_move: sideName(p.turn), human_plays: "red" }),
  matchOptions: (start, options) => ({ ...options, fen: formatFen(start) }),
  format: formatFen,
  parse: (text) => parseFen(text),
  optionsFor: (start, options) => ({ ...options, fen: formatFen(start) }),
};
export default rules;

// WXF notation: the piece's letter, its file (counted 1-9 from the mover's
// right), "+" forward, "-" back or "." across, then the file it goes to
// (across, or any move of an advisor, elephant or horse) or the points it
// goes (straight forward or back). Pieces of a kind in tandem on a file
// are told apart as the WXF does: "+" the front one and "-" the rear one
// in place of the file ("R+.3", "C--1"); three soldiers: "P+", the middle
// one by its file, "P-"; four or five: "++", "P+", (the middle one by
// its file,) "P-", "--"; soldiers in tandem on two files: the file, then
// "+", "-" or (the middle one) the file again ("3+.4", "33.4").
const WXF = { k: "K", a: "A", b: "E", n: "H", r: "R", c: "C", p: "P" };
function wxf(p, m) {
  const piece = p.board[m.from];
  const type = piece.toLowerCase();
  const red = p.turn === "w";
  const fileNumber = (point) => (red ? 9 - (point % 9) : (point % 9) + 1);
  const rankOf = (point) => Math.floor(point / 9);
  const ahead = (point) => (red ? rankOf(point) : 9 - rankOf(point));
  // The mover's pieces of this kind on a file, the front one first.
  const onFile = (file) => {
    const points = [];
    for (let rank = 0; rank < 10; rank++) if (p.board[rank * 9 + file] === piece) points.push(rank * 9 + file);
    return points.sort((x, y) => ahead(y) - ahead(x));
  };
  const letter = WXF[type];
  const file = fileNumber(m.from);
  const same = onFile(m.from % 9);
  const n = same.length;
  const i = same.indexOf(m.from);
  const place = i === 0 ? "+" : i === n - 1 ? "-" : null;
  let head = `${letter}${file}`;
  if (n >= 2 && type === "p" && [...Array(9).keys()].filter((f) => onFile(f).length >= 2).length >= 2) {
    head = `${file}${place ?? file}`;
  } else if (n >= 4 && (i === 0 || i === n - 1)) {
    head = place.repeat(2);
  } else if (n >= 4) {
    head = i === 1 ? `${letter}+` : i === n - 2 ? `${letter}-` : `${letter}${file}`;
  } else if (n >= 2) {
    head = place ? `${letter}${place}` : `${letter}${file}`;
  }
  const dRank = ahead(m.to) - ahead(m.from);
  const sign = dRank > 0 ? "+" : dRank < 0 ? "-" : ".";
  const straight = "krcp".includes(type) && m.from % 9 === m.to % 9;
  return `${head}${sign}${straight ? Math.abs(dRank) : fileNumber(m.to)}`;
}
