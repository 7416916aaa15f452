// Chess: state.fen is the position (FEN), state.moves the UCI moves played
// from the match's start and state.check whether the side to move is in
// check; a move is {uci: "e2e4"} ("e7e8q" promotes). The person clicks
// (or drags) one of their pieces, then a highlighted square; a pawn that
// reaches the last rank asks which piece it becomes. The squares offered
// come from the match's legal_moves: the page knows no rules of its own.

import { analyse } from "./api.js";
import { h, markBest } from "./ui.js";

const FILES = "abcdefgh";
const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const GLYPH = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const NAME = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
const PROMOTIONS = ["q", "r", "b", "n"];

// The FEN's placement as a map from square ("e4") to piece letter
// ("P" white pawn, "p" black pawn), and its side to move.
function readFen(fen) {
  const [placement, side] = fen.split(" ");
  const pieces = new Map();
  placement.split("/").forEach((rank, i) => {
    let file = 0;
    for (const ch of rank) {
      if (/\d/.test(ch)) {
        file += Number(ch);
      } else {
        pieces.set(`${FILES[file]}${8 - i}`, ch);
        file += 1;
      }
    }
  });
  return { pieces, toMove: side === "b" ? "b" : "w" };
}

const colourOf = (piece) => (piece === piece.toUpperCase() ? "w" : "b");

// The person's colour: the first mover's unless the AI goes first.
function humanColour(m) {
  const first = readFen(m.options?.fen ?? START_FEN).toMove;
  return m.ai_first ? (first === "w" ? "b" : "w") : first;
}

function lastMove(m) {
  const last = [...m.history].reverse().find((e) => e.move?.uci);
  return last ? last.move.uci : null;
}

// Squares top-left first, as the person sees the board (their pieces at
// the bottom).
function squaresInView(colour) {
  const ranks = colour === "w" ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
  const files = colour === "w" ? [...FILES] : [...FILES].reverse();
  return ranks.flatMap((r) => files.map((f) => `${f}${r}`));
}

// Where a square's centre is on the drawn board, in squares (0..8).
function centre(square, colour) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]);
  const x = colour === "w" ? file : 7 - file;
  const y = colour === "w" ? 8 - rank : rank - 1;
  return [x + 0.5, y + 0.5];
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// Arrows over the board, one per UCI move (the best first, boldest).
function drawArrows(board, moves, colour) {
  board.querySelector("svg.arrows")?.remove();
  const layer = svg("svg", { class: "arrows", viewBox: "0 0 8 8" });
  const defs = svg("defs", {});
  const head = svg("marker", { id: "arrowhead", markerWidth: 4, markerHeight: 4, refX: 2.2, refY: 2, orient: "auto" });
  head.append(svg("path", { d: "M0,0 L4,2 L0,4 z", fill: "rgba(21, 120, 27, .85)" }));
  defs.append(head);
  layer.append(defs);
  moves.forEach((uci, i) => {
    const [x1, y1] = centre(uci.slice(0, 2), colour);
    const [x2, y2] = centre(uci.slice(2, 4), colour);
    layer.append(
      svg("line", {
        x1, y1, x2, y2,
        class: i === 0 ? "arrow best" : "arrow",
        "data-uci": uci,
        stroke: "rgba(21, 120, 27, .85)",
        "stroke-width": i === 0 ? 0.18 : 0.1,
        "stroke-opacity": i === 0 ? 0.9 : 0.5,
        "stroke-linecap": "round",
        "marker-end": "url(#arrowhead)",
      }),
    );
  });
  board.append(layer);
}

function scoreText(score) {
  if (!score) return "?";
  if ("mate" in score) return score.mate > 0 ? `mate in ${score.mate}` : `mated in ${-score.mate}`;
  const pawns = score.cp / 100;
  return `${pawns > 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

export default {
  id: "chess",
  title: "Chess",

  statusText(m) {
    const you = humanColour(m) === "w" ? "white" : "black";
    const ai = [...m.history].reverse().find((e) => e.actor === "ai");
    const aiText = ai ? `The AI played ${ai.move.san ?? ai.move.uci}. ` : "";
    const check = m.state.check ? "You are in check. " : "";
    return `${aiText}${check}You play ${you}: pick a piece, then a highlighted square.`;
  },

  // A share link starts a new match from the position on the board.
  shareOptions: (m) => ({ ...m.options, fen: m.state.fen }),

  describeMove(mv) {
    return `played ${mv.san ?? mv.uci}`;
  },

  render(m, { play, busy }) {
    const colour = humanColour(m);
    const { pieces, toMove } = readFen(m.state.fen);
    const open = m.status === "in_progress";
    const legal = open ? (m.legal_moves ?? []).map((mv) => mv.uci) : [];
    const from = new Set(legal.map((uci) => uci.slice(0, 2)));
    const last = lastMove(m);
    const board = h("div", { class: "squares", role: "grid", "aria-label": "board" });
    let selected = null;

    const cell = (square) => board.querySelector(`[data-square="${square}"]`);
    const clearMarks = () => {
      for (const el of board.querySelectorAll(".selected, .target")) el.classList.remove("selected", "target");
    };
    const select = (square) => {
      clearMarks();
      selected = square;
      if (!square) return;
      cell(square).classList.add("selected");
      for (const uci of legal) if (uci.startsWith(square)) cell(uci.slice(2, 4)).classList.add("target");
    };
    const finish = (fromSquare, toSquare) => {
      const choices = legal.filter((uci) => uci.startsWith(fromSquare + toSquare));
      if (choices.length === 0 || busy()) return false;
      if (choices.length === 1) {
        play({ uci: choices[0] });
        return true;
      }
      // A promotion: one legal move per piece the pawn may become.
      const side = colourOf(pieces.get(fromSquare) ?? "P");
      const chooser = h(
        "div",
        { class: "promotion", role: "dialog", "aria-label": "promote to" },
        PROMOTIONS.filter((p) => choices.includes(fromSquare + toSquare + p)).map((p) =>
          h(
            "button",
            {
              type: "button",
              dataset: { promotion: p },
              "aria-label": NAME[p],
              class: side === "w" ? "white" : "black",
              onclick: () => play({ uci: fromSquare + toSquare + p }),
            },
            GLYPH[p],
          ),
        ),
      );
      board.append(chooser);
      return true;
    };
    const click = (square) => {
      if (selected && selected !== square && finish(selected, square)) return;
      select(from.has(square) && selected !== square ? square : null);
    };

    squaresInView(colour).forEach((square, index) => {
      const piece = pieces.get(square);
      const dark = (FILES.indexOf(square[0]) + Number(square[1])) % 2 === 0;
      const pieceColour = piece ? colourOf(piece) : null;
      const classes = ["sq", dark ? "dark" : "light"];
      if (piece) classes.push(pieceColour === "w" ? "white" : "black");
      if (from.has(square)) classes.push("movable");
      if (last && (last.slice(0, 2) === square || last.slice(2, 4) === square)) classes.push("last");
      if (m.state.check && piece && piece.toLowerCase() === "k" && pieceColour === toMove) classes.push("check");
      const label = piece ? `${square}: ${pieceColour === "w" ? "white" : "black"} ${NAME[piece.toLowerCase()]}` : `${square}: empty`;
      const button = h(
        "button",
        {
          type: "button",
          role: "gridcell",
          class: classes.join(" "),
          dataset: { key: square, square, piece: piece ?? "" },
          "aria-label": label,
          draggable: from.has(square) ? "true" : undefined,
          onclick: () => click(square),
          ondragstart: (e) => {
            select(square);
            e.dataTransfer?.setData("text/plain", square);
          },
          ondragover: (e) => e.preventDefault(),
          ondrop: (e) => {
            e.preventDefault();
            if (selected) finish(selected, square);
          },
        },
        piece ? GLYPH[piece.toLowerCase()] : "",
      );
      // Coordinates on the edges, as on a printed board.
      if (index % 8 === 0) button.append(h("span", { class: "coord rank" }, square[1]));
      if (index >= 56) button.append(h("span", { class: "coord file" }, square[0]));
      board.append(button);
    });
    return board;
  },

  async analyze(m, { evaluate }) {
    const multiPv = 3;
    const answer = await analyse("/chess/move", { fen: m.state.fen, max_ms: 800, multi_pv: multiPv });
    evaluate(answer.evaluation);
    const board = document.querySelector("#board .squares");
    // Besides the arrow, the best move's squares are marked (for a keyboard
    // or screen-reader user, and for tests).
    const best = answer.move.uci;
    markBest(`.squares [data-square="${best.slice(2, 4)}"]`);
    document.querySelector(`#board .squares [data-square="${best.slice(0, 2)}"]`)?.classList.add("best-from");
    const firstMoves = answer.pvs.map((pv) => pv.moves[0]).filter(Boolean);
    if (board) drawArrows(board, firstMoves, humanColour(m));
    const verdict = answer.solved
      ? `Stockfish proved it: ${scoreText(answer.score)} for the side to move.`
      : `Stockfish's estimate at depth ${answer.depth}: ${scoreText(answer.score)} for the side to move (${answer.win_percent.toFixed(1)}% winning chances).`;
    return h(
      "div",
      { class: "line-analysis" },
      h("h3", {}, `Stockfish's best lines, as POST /chess/move gives them (arrows on the board)`),
      h("p", {}, verdict, ` Best: ${answer.move.san}.`),
      h(
        "ol",
        { class: "lines" },
        answer.pvs.map((pv) =>
          h("li", { class: "line", dataset: { uci: pv.moves[0] ?? "" } }, `${scoreText(pv.score)}  ${pv.san.slice(0, 8).join(" ")}`),
        ),
      ),
    );
  },
};
