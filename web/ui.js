// Small DOM helpers shared by the game modules.

// h("button", {class: "x", onclick: f}, "text", child...) -> element.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// A labelled number input for the options form.
export function numberField(name, label, value, { min, step, help } = {}) {
  return h(
    "label",
    { class: "field" },
    label,
    h("input", { type: "number", name, id: `opt-${name}`, value, min, step: step ?? 1, inputmode: "numeric" }),
    help ? h("small", {}, help) : null,
  );
}

export function selectField(name, label, choices, value) {
  return h(
    "label",
    { class: "field" },
    label,
    h(
      "select",
      { name, id: `opt-${name}` },
      choices.map(([v, text]) => h("option", { value: v, selected: v === value }, text)),
    ),
  );
}

export function checkboxField(name, label, checked) {
  return h("label", { class: "field check" }, h("input", { type: "checkbox", name, id: `opt-${name}`, checked }), label);
}


// Marks the board's control for the analysis's best move (the selector
// names it in that game's terms), so the hint is on the board, not only in
// the text below it.
export function markBest(selector) {
  for (const el of document.querySelectorAll("#board .best-move")) el.classList.remove("best-move");
  const el = document.querySelector(`#board ${selector}`);
  el?.classList.add("best-move");
  return el;
}

export function percent(p) {
  return `${(100 * p).toFixed(1)}%`;
}

// A die face: pips for 1..6, the number beyond.
export function die(face, label) {
  const pips = {
    1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9],
  }[face];
  const el = h("div", { class: "die", role: "img", "aria-label": label ?? `die showing ${face ?? "nothing"}` });
  if (face === null || face === undefined) {
    el.classList.add("blank");
    el.append(h("span", { class: "die-num" }, "–"));
  } else if (pips) {
    for (let i = 1; i <= 9; i++) el.append(h("span", { class: pips.includes(i) ? "pip" : "pip off" }));
  } else {
    el.append(h("span", { class: "die-num" }, face));
  }
  return el;
}

// Who took each cell, from the history's moves of the person and the AI.
export function ownersFromHistory(history) {
  const owner = new Map();
  for (const entry of history) {
    const mv = entry.move;
    if (!mv || entry.actor === "dice") continue;
    if (Number.isInteger(mv.row)) owner.set(`${mv.row},${mv.col}`, entry.actor);
    for (const p of mv.placements ?? []) owner.set(`${p.row},${p.col}`, entry.actor);
  }
  return owner;
}

// Coordinates on a board's edges, as on a printed board: the row's label in
// the first column's cells, the column's in the last row's.
export function withCoords(cell, r, c, rows, rowLabel, colLabel) {
  cell.classList.add("has-coords");
  if (c === 0) cell.append(h("span", { class: "coord rank", "aria-hidden": "true" }, rowLabel(r)));
  if (r === rows - 1) cell.append(h("span", { class: "coord file", "aria-hidden": "true" }, colLabel(c)));
  return cell;
}

// A rows x cols board of cells made by cell(r, c), as an ARIA grid; the
// columns are sized in CSS from --cols.
export function grid(rows, cols, cell, className) {
  const el = h("div", { class: `grid ${className}`, role: "grid" });
  el.style.setProperty("--cols", cols);
  for (let r = 0; r < rows; r++) {
    const row = h("div", { class: "grid-row", role: "row" });
    for (let c = 0; c < cols; c++) row.append(cell(r, c));
    el.append(row);
  }
  return el;
}
