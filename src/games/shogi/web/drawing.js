// Shogi: state.sfen is the position (SFEN), state.hands the pieces each
// side holds ({sente: {P: 1, ...}, gote: {...}}), state.moves the USI moves
// played from the match's start, state.check whether the side to move is
// in check, state.to_move and state.human_plays "sente" or "gote"; a move
// is {usi: "7g7f"} ("8h2b+" promotes, "P*5e" drops). The board reads as in
// Japanese diagrams, files 9..1 left to right and ranks a..i top down from
// sente's side, turned round when the person plays gote; the other side's
// pieces point down the board. The person clicks (or drags) a piece on the
// board or in their hand, then a highlighted square; when a move may
// promote or not, they choose. Everything offered comes from the match's
// legal_moves: the page knows no rules.

import { h } from "./ui.js";
import { engineAnalysis, lastAiMove, lastMove } from "./engine-board.js";

const RANKS = "abcdefghi";
const START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const KANJI = {
  P: "歩", L: "香", N: "桂", S: "銀", G: "金", B: "角", R: "飛",
  "+P": "と", "+L": "成香", "+N": "成桂", "+S": "成銀", "+B": "馬", "+R": "龍",
};
const KING = { sente: "玉", gote: "王" };
const NAME = {
  P: "pawn", L: "lance", N: "knight", S: "silver", G: "gold", B: "bishop", R: "rook", K: "king",
  "+P": "tokin (promoted pawn)", "+L": "promoted lance", "+N": "promoted knight", "+S": "promoted silver",
  "+B": "horse (promoted bishop)", "+R": "dragon (promoted rook)",
};
const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];
const MARK = { sente: "☗", gote: "☖" };
const LETTERS_KEY = "kibitz.shogi.letters";

// The SFEN's board as a map from square ("7g") to {side, kind} (kind "P",
// "+P", ...); row a first, file 9 first.
function readSfen(sfen) {
  const pieces = new Map();
  sfen.split(" ")[0].split("/").forEach((row, r) => {
    let column = 0;
    for (const token of row.match(/\d+|\+?[A-Za-z]/g) ?? []) {
      if (/\d/.test(token)) {
        column += Number(token);
      } else {
        const upper = token.toUpperCase();
        pieces.set(`${9 - column}${RANKS[r]}`, { side: token === upper ? "sente" : "gote", kind: upper });
        column += 1;
      }
    }
  });
  return pieces;
}

// A USI move's parts: {from, to, promote} or {drop, to}; null if unread.
function parseUsi(usi) {
  const drop = /^([PLNSGBR])\*([1-9][a-i])$/.exec(usi ?? "");
  if (drop) return { drop: drop[1], to: drop[2], source: `${drop[1]}*` };
  const move = /^([1-9][a-i])([1-9][a-i])(\+?)$/.exec(usi ?? "");
  if (move) return { from: move[1], to: move[2], promote: move[3] === "+", source: move[1] };
  return null;
}

// Where a square is drawn, in squares from the top left (0..8): the
// person's side at the bottom.
function place(square, bottom) {
  const file = Number(square[0]);
  const row = RANKS.indexOf(square[1]);
  return bottom === "sente" ? [9 - file, row] : [file - 1, 8 - row];
}

function inView(bottom) {
  const files = [9, 8, 7, 6, 5, 4, 3, 2, 1];
  const ranks = [...RANKS];
  if (bottom !== "sente") {
    files.reverse();
    ranks.reverse();
  }
  return { files, ranks, squares: ranks.flatMap((r) => files.map((f) => `${f}${r}`)) };
}

const other = (side) => (side === "sente" ? "gote" : "sente");
const nameOf = (kind) => NAME[kind] ?? kind;
const glyph = (side, kind) => (kind === "K" ? KING[side] : KANJI[kind]);

// A piece drawn as a koma: the kanji (or, with letters on, the USI
// letter), pointing down the board when it is not the person's.
function koma(side, kind, bottom) {
  const kanji = glyph(side, kind);
  const face = h(
    "span",
    { class: `face${kind.startsWith("+") ? " promoted" : ""}${kanji.length > 1 ? " two" : ""}` },
    h("span", { class: "kanji" }, [...kanji].map((ch) => h("span", {}, ch))),
    h("span", { class: "latin" }, kind),
  );
  return h("span", { class: `koma ${side}${side === bottom ? "" : " turned"}`, "aria-hidden": "true" }, face);
}

function moveWords(mv, pieces) {
  const p = parseUsi(mv);
  if (!p) return mv;
  if (p.drop) return `dropped a ${nameOf(p.drop)} on ${p.to}`;
  const piece = pieces?.get(p.from);
  const what = piece ? `${nameOf(piece.kind)} ` : "";
  return `moved ${what}${p.from}–${p.to}${p.promote ? ", promoting" : ""}`;
}

export default {
  id: "shogi",
  title: "Shogi",

  statusText(m) {
    const you = m.state.human_plays;
    const ai = lastAiMove(m, "usi");
    let aiText = "";
    if (ai) {
      const p = parseUsi(ai);
      const piece = p ? readSfen(m.state.sfen).get(p.to) : null;
      if (p?.drop) aiText = `The AI dropped a ${nameOf(p.drop)} on ${p.to}. `;
      else if (p) aiText = `The AI moved its ${piece ? nameOf(piece.kind) : "piece"} ${p.from}–${p.to}${p.promote ? ", promoting it" : ""}. `;
    }
    const check = m.state.check ? "You are in check. " : "";
    return `${aiText}${check}You play ${you} (${MARK[you]}, at the bottom): pick a piece on the board or in your hand, then a highlighted square.`;
  },

  // A share link starts a new match from the position on the board.
  shareOptions: (m) => ({ ...m.options, sfen: m.state.sfen }),

  describeMove(mv) {
    return mv.declare === "impasse" ? "declared impasse" : moveWords(mv.usi);
  },

  render(m, { play, busy }) {
    const bottom = m.state.human_plays === "gote" ? "gote" : "sente";
    const top = other(bottom);
    // The hand that drops: the side to move's (on the analysis board the
    // person plays both sides; in a match it is theirs when they move).
    const mover = m.state.to_move ?? bottom;
    const analysis = m.id === "analysis";
    const pieces = readSfen(m.state.sfen);
    const open = m.status === "in_progress";
    const offered = open ? (m.legal_moves ?? []) : [];
    const legal = offered.filter((mv) => mv.usi).map(({ usi }) => ({ usi, ...parseUsi(usi) }));
    // The 24-point rule: declaring is offered only where it wins or draws.
    const impasse = m.state.impasse;
    const declare =
      impasse && offered.some((mv) => mv.declare === "impasse")
        ? h(
            "button",
            {
              type: "button",
              class: "declare-impasse",
              title: "Both kings have entered: end the game by the 24-point rule instead of moving",
              onclick: () => busy() || play({ declare: "impasse" }),
            },
            `Declare impasse (${impasse.points} points: ${impasse.verdict === "win" ? "you win" : "a draw"})`,
          )
        : null;
    const sources = new Set(legal.map((mv) => mv.source));
    const last = parseUsi(lastMove(m, "usi"));
    const { files, ranks, squares } = inView(bottom);
    const grid = h("div", { class: "shogi-squares", role: "grid", "aria-label": `shogi board, ${bottom} at the bottom` });
    const boardArea = h("div", { class: "shogi-board" }, grid);
    const root = h("div", { class: `shogi${localStorage.getItem(LETTERS_KEY) === "1" ? " letters" : ""}` });
    let selected = null;

    const marked = () => root.querySelectorAll(".selected, .target");
    const select = (source) => {
      for (const el of marked()) el.classList.remove("selected", "target");
      boardArea.querySelector(".promotion")?.remove();
      selected = source;
      if (!source) return;
      const el = source.endsWith("*")
        ? root.querySelector(`.hand[data-side="${mover}"] [data-drop="${source[0]}"]`)
        : grid.querySelector(`[data-square="${source}"]`);
      el?.classList.add("selected");
      for (const mv of legal) if (mv.source === source) grid.querySelector(`[data-square="${mv.to}"]`)?.classList.add("target");
    };
    const finish = (source, to) => {
      const choices = legal.filter((mv) => mv.source === source && mv.to === to);
      if (choices.length === 0 || busy()) return false;
      if (choices.length === 1) {
        play({ usi: choices[0].usi });
        return true;
      }
      // Promoting is optional here: the person chooses.
      const kind = pieces.get(source)?.kind ?? "P";
      const option = (mv) =>
        h(
          "button",
          {
            type: "button",
            dataset: { promotion: mv.promote ? "+" : "=" },
            "aria-label": mv.promote ? `promote to ${nameOf(`+${kind}`)}` : `do not promote (stay a ${nameOf(kind)})`,
            onclick: () => play({ usi: mv.usi }),
          },
          koma(mover, mv.promote ? `+${kind}` : kind, bottom),
          h("span", { class: "choice" }, mv.promote ? "Promote" : "Don't"),
        );
      const promoting = choices.filter((mv) => mv.promote);
      const staying = choices.filter((mv) => !mv.promote);
      boardArea.append(
        h(
          "div",
          { class: "promotion", role: "dialog", "aria-label": "promote?" },
          [...promoting, ...staying].map(option),
          h("button", { type: "button", class: "cancel", "aria-label": "cancel", onclick: () => select(null) }, "×"),
        ),
      );
      boardArea.querySelector(".promotion button")?.focus();
      return true;
    };
    const click = (source, square) => {
      if (selected && square && selected !== square && finish(selected, square)) return;
      select(sources.has(source) && selected !== source ? source : null);
    };
    const dragging = (source) => ({
      draggable: sources.has(source) ? "true" : undefined,
      ondragstart: (e) => {
        select(source);
        e.dataTransfer?.setData("text/plain", source);
      },
    });

    squares.forEach((square) => {
      const piece = pieces.get(square);
      const classes = ["sq"];
      if (sources.has(square)) classes.push("movable");
      if (last && (last.from === square || last.to === square)) classes.push("last");
      if (m.state.check && piece?.kind === "K" && piece.side === m.state.to_move) classes.push("check");
      const label = `${square}: ${piece ? `${piece.side} ${nameOf(piece.kind)}` : "empty"}`;
      grid.append(
        h(
          "button",
          {
            type: "button",
            role: "gridcell",
            class: classes.join(" "),
            dataset: { key: square, square, piece: piece ? `${piece.side} ${piece.kind}` : "" },
            "aria-label": label,
            onclick: () => click(square, square),
            ...dragging(square),
            ondragover: (e) => e.preventDefault(),
            ondrop: (e) => {
              e.preventDefault();
              if (selected) finish(selected, square);
            },
          },
          piece ? koma(piece.side, piece.kind, bottom) : null,
        ),
      );
    });

    const hand = (side) => {
      const held = m.state.hands?.[side] ?? {};
      const mine = side === bottom;
      const who = analysis ? "" : ` (${mine ? "you" : "the AI"})`;
      const kinds = HAND_ORDER.filter((k) => held[k] > 0);
      return h(
        "div",
        { class: `hand ${mine ? "mine" : "theirs"}`, dataset: { side }, role: "group", "aria-label": `${side}'s hand${who}` },
        h("span", { class: "hand-title" }, `${MARK[side]} ${side === "sente" ? "Sente" : "Gote"}${who}`),
        kinds.length === 0 ? h("span", { class: "hand-empty" }, "no pieces in hand") : null,
        kinds.map((kind) => {
          const source = `${kind}*`;
          const can = side === mover && sources.has(source);
          return h(
            "button",
            {
              type: "button",
              class: `hand-piece${can ? " movable" : ""}`,
              dataset: { key: `hand-${side}-${kind}`, drop: kind, count: held[kind] },
              "aria-label": `${side}'s hand: ${held[kind]} ${nameOf(kind)}${held[kind] > 1 ? "s" : ""}`,
              disabled: !can,
              onclick: () => click(source, null),
              ...(can ? dragging(source) : {}),
            },
            koma(side, kind, bottom),
            h("span", { class: "count" }, `×${held[kind]}`),
          );
        }),
      );
    };

    const toggle = h(
      "button",
      {
        type: "button",
        class: "letters-toggle",
        "aria-pressed": String(root.classList.contains("letters")),
        title: "Show the pieces as USI letters (P pawn, L lance, N knight, S silver, G gold, B bishop, R rook, K king, + promoted) or as kanji",
        onclick: () => {
          const on = root.classList.toggle("letters");
          toggle.setAttribute("aria-pressed", String(on));
          localStorage.setItem(LETTERS_KEY, on ? "1" : "0");
        },
      },
      "Letters instead of kanji",
    );

    // Files above the board and ranks on its right, as in Japanese diagrams.
    const frame = h(
      "div",
      { class: "shogi-frame" },
      h("div", { class: "shogi-files", "aria-hidden": "true" }, files.map((f) => h("span", { class: "coord file" }, f))),
      boardArea,
      h("div", { class: "shogi-ranks", "aria-hidden": "true" }, ranks.map((r) => h("span", { class: "coord rank" }, r))),
    );
    root.append(...[hand(top), frame, hand(bottom), declare, toggle].filter(Boolean));
    return root;
  },

  async analyze(m, { evaluate }) {
    const bottom = m.state.human_plays === "gote" ? "gote" : "sente";
    const pieces = readSfen(m.state.sfen);
    // Squares are a little taller than wide (11 by 12).
    const tall = 12 / 11;
    const centre = (square) => {
      const [x, y] = place(square, bottom);
      return [x + 0.5, (y + 0.5) * tall];
    };
    return engineAnalysis(m, evaluate, {
      path: "/shogi/move",
      position: m.options?.sfen ?? START_SFEN,
      view: {
        board: ".shogi-board",
        width: 9,
        height: 9 * tall,
        best: (usi) => `.shogi-squares [data-square="${parseUsi(usi)?.to}"]`,
        from: (usi) => {
          const p = parseUsi(usi);
          if (!p) return null;
          return p.drop ? `.hand[data-side="${m.state.to_move}"] [data-drop="${p.drop}"]` : `.shogi-squares [data-square="${p.from}"]`;
        },
        arrow: (usi) => {
          const p = parseUsi(usi);
          return p?.from ? [centre(p.from), centre(p.to)] : null;
        },
        name: (usi) => moveWords(usi, pieces),
      },
    });
  },
};
