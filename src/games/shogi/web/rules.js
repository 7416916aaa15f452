// Shogi rules for the analysis board: a position is {board: 81 squares
// (row * 9 + column: row 0 is rank a, gote's side; column 0 is file 9)
// holding SFEN piece letters (sente uppercase, "+" before a promoted
// piece: "P", "+p", ...) or null, turn "b" (sente) | "w" (gote), hands
// ({b: {P: 2, ...}, w: {...}}), moveNumber (as SFEN counts it: plies, from
// 1), history (every position since the start: its board, hands and side
// to move, and whether that side was in check, for sennichite), moves (the
// moves' USI from the start, which the analysis sends with it, as a
// match's state.moves)}; a move is
// {usi: "7g7f"} ("8h2b+" promotes, "P*5e" drops), as the API writes it.
// The server's rules (src/games/shogi) stay the reference: the browser
// tests hold this generator to the published perft counts.
//
// The end of the game as the server decides it: no legal move loses
// (stalemate too); the fourth occurrence of a position (sennichite) ends
// the game, lost by a side that checked with every move since the first
// occurrence (perpetual check; both did: the side that just moved), else
// drawn. The server's impasse declaration (24-point rule) is not offered
// here.

const RANKS = "abcdefghi";
export const START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const REPETITIONS = 4;
// The kinds a hand holds, in the order moves are listed, and in the order
// an SFEN writes them.
const IN_HAND = ["P", "L", "N", "S", "G", "B", "R"];
const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];
const TOTAL = { P: 18, L: 4, N: 4, S: 4, G: 4, B: 2, R: 2 };
const NAMES = { P: "pawn", L: "lance", N: "knight", S: "silver", G: "gold", B: "bishop", R: "rook", K: "king" };

// Each kind's steps and slides as [rows, columns] for sente (forward is
// row - 1); gote's are turned round.
const KING = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
const GOLD = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, 0]];
const ORTHOGONAL = [[-1, 0], [1, 0], [0, -1], [0, 1]];
const DIAGONAL = [[-1, -1], [-1, 1], [1, -1], [1, 1]];
const STEPS = {
  K: KING,
  G: GOLD,
  S: [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 1]],
  N: [[-2, -1], [-2, 1]],
  P: [[-1, 0]],
  L: [],
  B: [],
  R: [],
  "+P": GOLD,
  "+L": GOLD,
  "+N": GOLD,
  "+S": GOLD,
  "+B": ORTHOGONAL,
  "+R": DIAGONAL,
};
const SLIDES = { L: [[-1, 0]], B: DIAGONAL, R: ORTHOGONAL, "+B": DIAGONAL, "+R": ORTHOGONAL };
// Rows a piece needs ahead of it to move again (else it must promote, and
// may not be dropped there).
const MIN_ROWS_TO_GO = { P: 1, L: 1, N: 2 };

const colourOf = (piece) => (piece === piece.toLowerCase() ? "w" : "b");
const kindOf = (piece) => piece.toUpperCase();
const other = (colour) => (colour === "b" ? "w" : "b");
const sideName = (colour) => (colour === "b" ? "sente" : "gote");
const squareAt = (row, column) => (row >= 0 && row < 9 && column >= 0 && column < 9 ? row * 9 + column : -1);
const nameOf = (square) => `${9 - (square % 9)}${RANKS[Math.floor(square / 9)]}`;
const forwardOf = (colour) => (colour === "b" ? -1 : 1);
// Rows ahead of a square for `colour` (0 on the far rank).
const rowsToGo = (square, colour) => (colour === "b" ? Math.floor(square / 9) : 8 - Math.floor(square / 9));
const inZone = (square, colour) => rowsToGo(square, colour) <= 2;
const pieceOf = (kind, colour) => (colour === "b" ? kind : kind.toLowerCase());

// Whether `by` attacks `square`.
function attacked(board, square, by) {
  const row = Math.floor(square / 9);
  const column = square % 9;
  const flip = by === "b" ? 1 : -1;
  const mine = (s) => s >= 0 && board[s] !== null && colourOf(board[s]) === by;
  // A knight of `by` a jump away.
  for (const [dr, dc] of STEPS.N) {
    const s = squareAt(row - dr * flip, column - dc);
    if (mine(s) && kindOf(board[s]) === "N") return true;
  }
  // The first piece along each line: `by`'s, stepping or sliding back here.
  for (const [dr, dc] of KING) {
    for (let r = row + dr, c = column + dc, s = squareAt(r, c), distance = 1; s >= 0; r += dr, c += dc, s = squareAt(r, c), distance++) {
      if (board[s] === null) continue;
      if (mine(s)) {
        const kind = kindOf(board[s]);
        // The piece moves (-dr, -dc); in its own frame, (-dr * flip, -dc).
        const back = (list) => list.some(([sr, sc]) => sr === -dr * flip && sc === -dc);
        if ((distance === 1 && back(STEPS[kind])) || back(SLIDES[kind] ?? [])) return true;
      }
      break;
    }
  }
  return false;
}

const kingOf = (board, colour) => board.indexOf(colour === "b" ? "K" : "k");
const inCheck = (p, colour = p.turn) => attacked(p.board, kingOf(p.board, colour), other(colour));

function boardMoves(p) {
  const { board, turn } = p;
  const moves = [];
  const flip = turn === "b" ? 1 : -1;
  const add = (piece, from, to) => {
    const kind = kindOf(piece);
    if ("PLNSBR".includes(kind) && (inZone(from, turn) || inZone(to, turn))) {
      moves.push({ from, to, promote: true });
      if (rowsToGo(to, turn) < (MIN_ROWS_TO_GO[kind] ?? 0)) return;
    }
    moves.push({ from, to, promote: false });
  };
  for (let from = 0; from < 81; from++) {
    const piece = board[from];
    if (piece === null || colourOf(piece) !== turn) continue;
    const row = Math.floor(from / 9);
    const column = from % 9;
    const kind = kindOf(piece);
    const free = (s) => s >= 0 && (board[s] === null || colourOf(board[s]) !== turn);
    for (const [dr, dc] of STEPS[kind]) {
      const to = squareAt(row + dr * flip, column + dc);
      if (free(to)) add(piece, from, to);
    }
    for (const [dr, dc] of SLIDES[kind] ?? []) {
      for (let r = row + dr * flip, c = column + dc, to = squareAt(r, c); free(to); r += dr * flip, c += dc, to = squareAt(r, c)) {
        add(piece, from, to);
        if (board[to] !== null) break;
      }
    }
  }
  return moves;
}

// Whether `colour` has an unpromoted pawn on the square's file.
function pawnOnFile(board, colour, square) {
  const pawn = pieceOf("P", colour);
  for (let s = square % 9; s < 81; s += 9) if (board[s] === pawn) return true;
  return false;
}

// Drops by the placement rules (not yet the king's safety or uchifuzume).
function drops(p) {
  const moves = [];
  const hand = p.hands[p.turn];
  for (const kind of IN_HAND) {
    if (!hand[kind]) continue;
    for (let to = 0; to < 81; to++) {
      if (p.board[to] !== null || rowsToGo(to, p.turn) < (MIN_ROWS_TO_GO[kind] ?? 0)) continue;
      if (kind === "P" && pawnOnFile(p.board, p.turn, to)) continue;
      moves.push({ drop: kind, to });
    }
  }
  return moves;
}

const usiOf = (m) => (m.drop ? `${m.drop}*${nameOf(m.to)}` : `${nameOf(m.from)}${nameOf(m.to)}${m.promote ? "+" : ""}`);

// The position after a move (legal or not: the caller checks), without
// its history.
function bare(p, m) {
  const board = p.board.slice();
  const hands = { ...p.hands, [p.turn]: { ...p.hands[p.turn] } };
  const hand = hands[p.turn];
  if (m.drop) {
    hand[m.drop] -= 1;
    board[m.to] = pieceOf(m.drop, p.turn);
  } else {
    const taken = board[m.to];
    if (taken !== null) {
      const kind = kindOf(taken).replace("+", "");
      hand[kind] = (hand[kind] ?? 0) + 1;
    }
    const piece = board[m.from];
    board[m.to] = m.promote ? `+${piece}` : piece;
    board[m.from] = null;
  }
  return { board, turn: other(p.turn), hands, moveNumber: p.moveNumber + 1 };
}

const keyOf = (p) => `${boardOf(p.board)} ${p.turn} ${handsOf(p.hands)}`;

function after(p, m) {
  const next = bare(p, m);
  return { ...next, history: [...p.history, { key: keyOf(next), check: inCheck(next) }], moves: [...p.moves, usiOf(m)] };
}

// Whether the side to move has a legal move, without the pawn-drop-mate
// test on its own drops (a pawn's check, next to the king, is not
// answered by a drop).
function hasLegalMove(p) {
  return [...boardMoves(p), ...drops(p)].some((m) => !inCheck(bare(p, m), p.turn));
}

function legalMoves(p) {
  const us = p.turn;
  const checked = inCheck(p);
  const theirKing = kingOf(p.board, other(us));
  // The square where our pawn would check their king.
  const pawnCheck = squareAt(Math.floor(theirKing / 9) - forwardOf(us), theirKing % 9);
  const board = boardMoves(p).filter((m) => !inCheck(bare(p, m), us));
  const dropped = drops(p).filter((m) => {
    const checks = m.drop === "P" && m.to === pawnCheck;
    // A drop cannot uncover the king: only in check, or a pawn's check
    // (which may not mate: uchifuzume), needs playing out.
    if (!checked && !checks) return true;
    const next = bare(p, m);
    return !inCheck(next, us) && !(checks && !hasLegalMove(next));
  });
  return [...board, ...dropped];
}

// The server's sennichite (Fairy-Stockfish 11.1's n-fold repetition with
// perpetual check illegal): positions two plies apart are compared, back
// to the start; the check flags in between say whether a side checked
// with every move.
function repetition(p) {
  const { history } = p;
  const now = history.length - 1;
  if (now < 4) return null;
  const checks = history.map((e) => e.check);
  let perpetualThem = checks[now] && checks[now - 2];
  let perpetualUs = checks[now - 1] && checks[now - 3];
  let earlier = 0;
  for (let back = 4; back <= now; back += 2) {
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
    if (back < now) perpetualUs &&= checks[i - 1];
  }
  return null;
}

function boardOf(board) {
  const rows = [];
  for (let row = 0; row < 9; row++) {
    let text = "";
    let empty = 0;
    for (let column = 0; column < 9; column++) {
      const piece = board[row * 9 + column];
      if (piece === null) empty += 1;
      else {
        text += `${empty || ""}${piece}`;
        empty = 0;
      }
    }
    rows.push(text + (empty || ""));
  }
  return rows.join("/");
}

function handsOf(hands) {
  let text = "";
  for (const colour of ["b", "w"]) {
    for (const kind of HAND_ORDER) {
      const n = hands[colour][kind] ?? 0;
      if (n > 0) text += `${n > 1 ? n : ""}${pieceOf(kind, colour)}`;
    }
  }
  return text || "-";
}

export function parseSfen(input) {
  let text = input.trim();
  if (text.startsWith("sfen ")) text = text.slice(5).trim();
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length === 0) throw new Error("the SFEN is empty");
  if (fields.length > 4) throw new Error(`an SFEN has at most 4 fields, not ${fields.length}`);
  const [placement, turn = "b", held = "-", moveNumber = "1"] = fields;
  const rows = placement.split("/");
  if (rows.length !== 9) throw new Error("an SFEN's board has 9 ranks separated by /");
  const board = Array(81).fill(null);
  rows.forEach((text, row) => {
    const rank = RANKS[row];
    let column = 0;
    for (const token of text.match(/\d|\+?[A-Za-z]|\+/g) ?? []) {
      if (/\d/.test(token)) column += Number(token);
      else if (column >= 9) throw new Error(`rank ${rank} ("${text}") is wider than 9 squares`);
      else if (/^[plnsgbrk]$/i.test(token) || /^\+[plnsbr]$/i.test(token)) board[row * 9 + column++] = token;
      else if (token === "+") throw new Error(`rank ${rank} ("${text}") has a "+" that promotes nothing`);
      else throw new Error(`"${token}" in rank ${rank} is not a piece (P L N S G B R K, lowercase for gote, "+" before a promoted one, or a digit)`);
    }
    if (column !== 9) throw new Error(`rank ${rank} ("${text}") covers ${column} squares, not 9`);
  });
  if (!/^[bw]$/.test(turn)) throw new Error('the side to move is "b" (sente) or "w" (gote)');
  const hands = { b: {}, w: {} };
  if (held !== "-") {
    if (!/^(\d*[PLNSGBRplnsgbr])+$/.test(held)) throw new Error(`"${held}" is not pieces in hand (counts and letters, e.g. 2Pb, or "-")`);
    for (const [, count, letter] of held.matchAll(/(\d*)([A-Za-z])/g)) {
      const n = count === "" ? 1 : Number(count);
      if (n < 1 || n > 18) throw new Error(`"${held}": a count in hand is 1 to 18`);
      const hand = hands[colourOf(letter)];
      hand[letter.toUpperCase()] = (hand[letter.toUpperCase()] ?? 0) + n;
    }
  }
  if (!/^\d+$/.test(moveNumber) || Number(moveNumber) < 1) throw new Error("the move number is a whole number, 1 or more");
  for (const colour of ["b", "w"]) {
    const kings = board.filter((q) => q === pieceOf("K", colour)).length;
    if (kings !== 1) throw new Error(`${sideName(colour)} has ${kings} kings: exactly one (${pieceOf("K", colour)}) is needed`);
  }
  board.forEach((piece, square) => {
    if (piece === null) return;
    const colour = colourOf(piece);
    if (rowsToGo(square, colour) < (MIN_ROWS_TO_GO[piece.toUpperCase()] ?? 0)) {
      throw new Error(`${sideName(colour)}'s ${NAMES[kindOf(piece)]} on ${nameOf(square)} could never move`);
    }
    if (kindOf(piece) === "P" && board.some((q, s) => q === piece && s > square && s % 9 === square % 9)) {
      throw new Error(`${sideName(colour)} has two unpromoted pawns on file ${9 - (square % 9)}`);
    }
  });
  for (const kind of IN_HAND) {
    const count = board.filter((q) => q !== null && kindOf(q).replace("+", "") === kind).length + (hands.b[kind] ?? 0) + (hands.w[kind] ?? 0);
    if (count > TOTAL[kind]) throw new Error(`${count} ${NAMES[kind]}s on the board and in hand: a set has ${TOTAL[kind]}`);
  }
  const p = { board, turn, hands, moveNumber: Number(moveNumber) };
  if (inCheck(p, other(turn))) throw new Error(`${sideName(other(turn))}'s king is in check with ${sideName(turn)} to move`);
  return { ...p, history: [{ key: keyOf(p), check: inCheck(p) }], moves: [] };
}

export function formatSfen(p) {
  return `${boardOf(p.board)} ${p.turn} ${handsOf(p.hands)} ${p.moveNumber}`;
}

function find(p, usi) {
  const m = legalMoves(p).find((candidate) => usiOf(candidate) === usi);
  if (!m) throw new Error(`${usi} is not a legal move here`);
  return m;
}

// Leaf positions at `depth`: the generator's check against published counts.
export function perft(p, depth) {
  if (depth === 0) return 1;
  const moves = legalMoves(p);
  if (depth === 1) return moves.length;
  return moves.reduce((sum, m) => sum + perft(bare(p, m), depth - 1), 0);
}

// The hands as the match state has them: {sente: {P: 1}, gote: {}}.
const handsJson = (hands) =>
  Object.fromEntries(
    ["b", "w"].map((colour) => [sideName(colour), Object.fromEntries(IN_HAND.filter((k) => hands[colour][k] > 0).map((k) => [k, hands[colour][k]]))]),
  );

const rules = {
  players: ["b", "w"],
  names: { b: "Sente", w: "Gote" },
  setupHelp: "an SFEN (sente uppercase, rank a first; b or w to move; the hands; the move number), e.g. lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
  // The start is an option (sfen), so the stateless review replays from it.
  startInOptions: true,
  start: (options) => parseSfen(options.sfen ?? START_SFEN),
  toMove: (p) => p.turn,
  legal: (p) => (rules.result(p) ? [] : legalMoves(p).map((m) => ({ usi: usiOf(m) }))),
  apply: (p, mv) => after(p, find(p, mv.usi)),
  result(p) {
    if (legalMoves(p).length === 0) return { winner: other(p.turn) };
    return repetition(p);
  },
  notation: (mv, p) => usiOf(find(p, mv.usi)),
  // The drawing puts the person's side (sente here) at the bottom.
  asMatchState: (p) => ({
    sfen: formatSfen(p),
    hands: handsJson(p.hands),
    moves: p.moves,
    check: inCheck(p),
    to_move: sideName(p.turn),
    human_plays: "sente",
  }),
  matchOptions: (start, options) => ({ ...options, sfen: formatSfen(start) }),
  format: formatSfen,
  parse: (text) => parseSfen(text),
  optionsFor: (start, options) => ({ ...options, sfen: formatSfen(start) }),
};
export default rules;
