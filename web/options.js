// The options form of a game, built from its GET /games catalog entry: the
// page keeps no copy of any game's options, defaults or bounds. A field left
// at its default is not sent (the server fills defaults in), so options that
// replace one another (Ishitori's heaps for remaining) need no rule here.

import { checkboxField, h, numberField, selectField } from "./ui.js";

// Lists of integers are typed as "1, 2, 3"; a list of lists (a whole board)
// is too much for one text field and is left to the API.
function typedAsList(option) {
  const d = option.default;
  return option.type === "array" && !(Array.isArray(d) && d.some(Array.isArray)) && option.name !== "board";
}

function range(option) {
  const { minimum: min, maximum: max } = option;
  if (min == null || max == null || max > 1e6) return null;
  return `${min}..${max}`;
}

function field(option) {
  const label = option.name.replace(/_/g, " ");
  const help = [range(option), option.description].filter(Boolean).join(" · ");
  switch (option.type) {
    case "integer":
      return numberField(option.name, label, option.default ?? "", { min: option.minimum ?? undefined, help });
    case "boolean":
      return h("div", {}, checkboxField(option.name, label, Boolean(option.default)), h("small", { class: "help" }, option.description));
    case "string":
      if (option.allowed) {
        return h("div", {}, selectField(option.name, label, option.allowed.map((v) => [v, v]), option.default), h("small", { class: "help" }, option.description));
      }
      return h("label", { class: "field" }, label, h("input", { type: "text", name: option.name, id: `opt-${option.name}`, value: option.default ?? "" }), h("small", {}, help));
    default:
      if (!typedAsList(option)) return null;
      return h(
        "label",
        { class: "field" },
        label,
        h("input", { type: "text", name: option.name, id: `opt-${option.name}`, value: (option.default ?? []).join(", "), placeholder: "e.g. 3, 4, 5" }),
        h("small", {}, option.description),
      );
  }
}

export function optionFields(entry) {
  const fields = entry.options.map(field).filter(Boolean);
  return fields.length ? fields : [h("p", { class: "muted" }, `No options: ${entry.summary}`)];
}

// An integer the server can read exactly: beyond 2^53 it goes as a decimal
// string (the API accepts those where numbers can be that large).
function integer(text) {
  const n = Number(text);
  if (!Number.isInteger(n)) return text; // let the server say what is wrong
  return Number.isSafeInteger(n) ? n : text;
}

function list(text) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return parts.map((p) => (/^\d+$/.test(p) ? integer(p) : p));
}

function read(option, el) {
  switch (option.type) {
    case "boolean":
      return el.checked;
    case "integer":
      return el.value.trim() === "" ? undefined : integer(el.value.trim());
    case "array":
      return el.value.trim() === "" ? undefined : list(el.value);
    default:
      return el.value;
  }
}

// The options the person set, each field left at its default omitted.
export function readOptions(entry, form) {
  const options = {};
  for (const option of entry.options) {
    const el = form.querySelector(`[name="${option.name}"]`);
    if (!el) continue;
    const value = read(option, el);
    if (value === undefined || JSON.stringify(value) === JSON.stringify(option.default)) continue;
    options[option.name] = value;
  }
  return options;
}
