// Xiangqi: state.fen is the position (FEN, red uppercase, ranks 10 to 1),
// state.moves the moves played from the match's start, state.check whether
// the side to move is in check, state.human_plays "red" or "black"; a move
// is {uci: "h3e3"} (files a-i from red's left, ranks 1-10 from red's back
// rank, as Fairy-Stockfish writes them). The pieces stand on the points
// (intersections) of a drawn board, river and palaces included; the person
// clicks (or drags) one of their pieces, then a highlighted point. The
// points offered come from the match's legal_moves: the page knows no rules.

import { h } from "./ui.js";
import { engineAnalysis, lastAiMove, lastMove, svg } from "./engine-board.js";

const FILES = "abcdefghi";
const START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const GLYPH = {
  red: { k: "帥", a: "仕", b: "相", n: "傌", r: "俥", c: "炮", p: "兵" },
  black: { k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" },
};
const NAME = { k: "general", a: "advisor", b: "elephant", n: "horse", r: "chariot", c: "cannon", p: "soldier" };
// Fairy-Stockfish also reads E (elephant) and H (horse).
const ALIAS = { e: "b", h: "n" };

// The FEN's placement as a map from point ("e1") to {side, kind}.
function readFen(fen) {
  const pieces = new Map();
  fen.split(" ")[0].split("/").forEach((rank, i) => {
    let file = 0;
    for (const ch of rank.match(/\d+|\D/g) ?? []) {
      if (/\d/.test(ch)) {
        file += Number(ch);
      } else {
        const lower = ch.toLowerCase();
        pieces.set(`${FILES[file]}${10 - i}`, { side: ch === lower ? "black" : "red", kind: ALIAS[lower] ?? lower });
        file += 1;
      }
    }
  });
  return pieces;
}

// "b3b10" -> ["b3", "b10"].
function ends(uci) {
  const found = /^([a-i]\d+)([a-i]\d+)$/.exec(uci);
  return found ? [found[1], found[2]] : [null, null];
}

// Where a point is drawn, in points from the top left (0..8, 0..9): the
// person's side at the bottom.
function place(point, bottom) {
  const file = FILES.indexOf(point[0]);
  const rank = Number(point.slice(1));
  return bottom === "red" ? [file, 10 - rank] : [8 - file, rank - 1];
}

// The points, top-left first, as the person sees the board.
function pointsInView(bottom) {
  const ranks = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
  const files = [...FILES];
  if (bottom !== "red") {
    ranks.reverse();
    files.reverse();
  }
  return { ranks, files, points: ranks.flatMap((r) => files.map((f) => `${f}${r}`)) };
}

const pieceName = (piece) => `${piece.side} ${NAME[piece.kind]}`;

// The lines of the board, in a 9 x 10 box whose points are at the cells'
// centres: ten ranks, the files (broken by the river but at the edges),
// the palaces' diagonals, the river's words, and the marks of the
// cannons' and soldiers' points.
function drawLines() {
  const line = (x1, y1, x2, y2, cls) => svg("line", { x1: x1 + 0.5, y1: y1 + 0.5, x2: x2 + 0.5, y2: y2 + 0.5, class: cls });
  const layer = svg("svg", { class: "xq-lines", viewBox: "0 0 9 10", "aria-hidden": "true" });
  layer.append(svg("rect", { x: 0.5, y: 0.5, width: 8, height: 9, class: "edge" }));
  for (let y = 0; y < 10; y++) layer.append(line(0, y, 8, y, "rank-line"));
  for (let x = 0; x < 9; x++) {
    if (x === 0 || x === 8) {
      layer.append(line(x, 0, x, 9, "file-line"));
    } else {
      layer.append(line(x, 0, x, 4, "file-line"), line(x, 5, x, 9, "file-line"));
    }
  }
  for (const [top, bottom] of [[0, 2], [7, 9]]) {
    layer.append(line(3, top, 5, bottom, "palace"), line(5, top, 3, bottom, "palace"));
  }
  layer.append(
    svg("rect", { x: 0.5, y: 4.5, width: 8, height: 1, class: "river" }),
    svg("text", { x: 2.5, y: 5, class: "river-text", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.5 }, "楚 河"),
    svg("text", { x: 6.5, y: 5, class: "river-text", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.5 }, "漢 界"),
  );
  // Little corners around the points where cannons and soldiers start.
  const marks = [[1, 2], [7, 2], [1, 7], [7, 7], ...[0, 2, 4, 6, 8].flatMap((x) => [[x, 3], [x, 6]])];
  const gap = 0.08;
  const arm = 0.16;
  let d = "";
  for (const [x, y] of marks) {
    for (const dx of [-1, 1]) {
      if ((x === 0 && dx < 0) || (x === 8 && dx > 0)) continue;
      for (const dy of [-1, 1]) {
        const cx = x + 0.5 + dx * gap;
        const cy = y + 0.5 + dy * gap;
        d += `M${cx + dx * arm},${cy}H${cx}V${cy + dy * arm}`;
      }
    }
  }
  layer.append(svg("path", { d, class: "point-mark" }));
  return layer;
}

export default {
  id: "xiangqi",
  title: "Xiangqi",

  statusText(m) {
    const you = m.state.human_plays;
    const ai = lastAiMove(m, "uci");
    let aiText = "";
    if (ai) {
      const [from, to] = ends(ai);
      const piece = readFen(m.state.fen).get(to);
      aiText = `The AI moved ${piece ? `its ${NAME[piece.kind]} ` : ""}${from}–${to}. `;
    }
    const check = m.state.check ? "You are in check. " : "";
    return `${aiText}${check}You play ${you} (at the bottom): pick a piece, then a highlighted point.`;
  },

  // A share link starts a new match from the position on the board.
  shareOptions: (m) => ({ ...m.options, fen: m.state.fen }),

  describeMove(mv) {
    const [from, to] = ends(mv.uci);
    return from ? `moved ${from}–${to}` : `played ${mv.uci}`;
  },

  render(m, { play, busy }) {
    const bottom = m.state.human_plays === "black" ? "black" : "red";
    const pieces = readFen(m.state.fen);
    const open = m.status === "in_progress";
    const legal = open ? (m.legal_moves ?? []).map((mv) => mv.uci) : [];
    const from = new Set(legal.map((uci) => ends(uci)[0]));
    const [lastFrom, lastTo] = ends(lastMove(m, "uci") ?? "");
    const { ranks, files, points } = pointsInView(bottom);
    const grid = h("div", { class: "xq-points", role: "grid", "aria-label": `xiangqi board, ${bottom} at the bottom` });
    const area = h("div", { class: "xq-board" }, drawLines(), grid);
    let selected = null;

    const cell = (point) => grid.querySelector(`[data-square="${point}"]`);
    const select = (point) => {
      for (const el of grid.querySelectorAll(".selected, .target")) el.classList.remove("selected", "target");
      selected = point;
      if (!point) return;
      cell(point).classList.add("selected");
      for (const uci of legal) {
        const [a, b] = ends(uci);
        if (a === point) cell(b)?.classList.add("target");
      }
    };
    const finish = (a, b) => {
      const uci = legal.find((mv) => mv === a + b);
      if (!uci || busy()) return false;
      play({ uci });
      return true;
    };
    const click = (point) => {
      if (selected && selected !== point && finish(selected, point)) return;
      select(from.has(point) && selected !== point ? point : null);
    };

    points.forEach((point) => {
      const piece = pieces.get(point);
      const classes = ["pt"];
      if (from.has(point)) classes.push("movable");
      if (point === lastFrom || point === lastTo) classes.push("last");
      if (m.state.check && piece?.kind === "k" && piece.side === m.state.to_move) classes.push("check");
      const label = `${point}: ${piece ? pieceName(piece) : "empty"}`;
      grid.append(
        h(
          "button",
          {
            type: "button",
            role: "gridcell",
            class: classes.join(" "),
            dataset: { key: point, square: point, piece: piece ? `${piece.side} ${piece.kind}` : "" },
            "aria-label": label,
            draggable: from.has(point) ? "true" : undefined,
            onclick: () => click(point),
            ondragstart: (e) => {
              select(point);
              e.dataTransfer?.setData("text/plain", point);
            },
            ondragover: (e) => e.preventDefault(),
            ondrop: (e) => {
              e.preventDefault();
              if (selected) finish(selected, point);
            },
          },
          piece ? h("span", { class: `disc ${piece.side}`, "aria-hidden": "true" }, GLYPH[piece.side][piece.kind]) : null,
        ),
      );
    });
    // Coordinates outside the board: ranks on the left, files below.
    return h(
      "div",
      { class: "xq" },
      h("div", { class: "xq-ranks", "aria-hidden": "true" }, ranks.map((r) => h("span", { class: "coord rank" }, r))),
      area,
      h("div", { class: "xq-files", "aria-hidden": "true" }, files.map((f) => h("span", { class: "coord file" }, f))),
    );
  },

  async analyze(m, { evaluate }) {
    const bottom = m.state.human_plays === "black" ? "black" : "red";
    const pieces = readFen(m.state.fen);
    const centre = (point) => place(point, bottom).map((v) => v + 0.5);
    return engineAnalysis(m, evaluate, {
      path: "/xiangqi/move",
      position: m.options?.fen ?? START_FEN,
      view: {
        board: ".xq-board",
        width: 9,
        height: 10,
        best: (uci) => `.xq-points [data-square="${ends(uci)[1]}"]`,
        from: (uci) => `.xq-points [data-square="${ends(uci)[0]}"]`,
        arrow: (uci) => {
          const [a, b] = ends(uci);
          return a ? [centre(a), centre(b)] : null;
        },
        name: (uci) => {
          const [a, b] = ends(uci);
          const piece = pieces.get(a);
          return piece ? `${NAME[piece.kind]} ${a}–${b}` : uci;
        },
      },
    });
  },
};
