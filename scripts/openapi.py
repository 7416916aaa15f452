#!/usr/bin/env python3
"""openapi.yaml, assembled from openapi/base.yaml and each game's fragment.

Each served game's paths and schemas live in its folder, in
src/games/<game>/openapi.yaml: a small YAML document with `paths:`,
`components: schemas:` and an `x-kibitz:` mapping that names the game's
schemas the shared ones list (its /analyze position and result, its match
and so on). The base holds everything shared and says where the games go:

  `  # @paths` and `    # @schemas`: every game's paths and schemas, in the
      registry's order (src/registry.rs), copied as written;
  `<indent># @each <key>: <template>`: one line per game whose x-kibitz has
      <key>, `{id}` and `{value}` filled in (repeated lines written once);
  `@ids` in a line: every game's id, comma-separated; `@ids(<key>)`: those
      of the games whose x-kibitz has <key>; `@ids(<key>=<value>)`: those
      whose <key> is <value>.
  `@words(<key>)` in a line: the words of every game's <key> mapping (its
      own end reasons, say), comma-separated, each once;
  `<indent># @words <key>`: one line per game with that mapping, its id
      and each word with its meaning;
  `<indent># @properties <key>`: the properties every game's <key>
      mapping adds to a shared schema (a review's extras), each once.

Text is copied, not re-serialised, so the spec keeps its comments and
layout. Usage:

  python3 scripts/openapi.py           # writes openapi.yaml
  python3 scripts/openapi.py --check   # exits 1 if openapi.yaml is stale (CI)
"""

import json
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
BASE = ROOT / "openapi" / "base.yaml"
OUT = ROOT / "openapi.yaml"


def registry_order():
    """The games' folders in the registry's order (its `served <module>::` lines)."""
    text = (ROOT / "src" / "registry.rs").read_text()
    return re.findall(r"served\s+(\w+)::", text)


def section(lines, header, indent):
    """The lines under `header` (a key at `indent` spaces) up to the next key
    at that indent or less."""
    out, inside = [], False
    for line in lines:
        stripped = line.strip()
        depth = len(line) - len(line.lstrip(" "))
        if inside and stripped and not stripped.startswith("#") and depth <= indent:
            break
        if inside:
            out.append(line)
        elif line == " " * indent + header:
            inside = True
    while out and not out[-1].strip():
        out.pop()
    return out


def fragments():
    games = []
    for module in registry_order():
        path = ROOT / "src" / "games" / module / "openapi.yaml"
        if not path.exists():
            sys.exit(f"{path.relative_to(ROOT)}: the registry serves {module} but it has no spec fragment")
        text = path.read_text()
        meta = (yaml.safe_load(text) or {}).get("x-kibitz")
        if not isinstance(meta, dict) or "id" not in meta:
            sys.exit(f"{path.relative_to(ROOT)}: no x-kibitz mapping with the game's id")
        lines = text.split("\n")
        games.append(
            {
                "meta": meta,
                "paths": section(lines, "paths:", 0),
                "schemas": section(section(lines, "components:", 0), "schemas:", 2),
            }
        )
    return games


EACH = re.compile(r"^(\s*)# @each (\w+): (.*)$")
IDS = re.compile(r"@ids(?:\((\w+)(?:=(\w+))?\))?")
WORDS = re.compile(r"@words\((\w+)\)")
WORD_LINES = re.compile(r"^(\s*)# @words (\w+)$")
PROPERTIES = re.compile(r"^(\s*)# @properties (\w+)$")


def mappings(games, key):
    """(id, mapping) of every game whose x-kibitz has the mapping `key`."""
    out = []
    for game in games:
        meta = game["meta"]
        value = meta.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            sys.exit(f"{meta['id']}: x-kibitz {key} must be a mapping")
        out.append((str(meta["id"]), value))
    return out


def words(games, key):
    seen = []
    for _, mapping in mappings(games, key):
        seen.extend(str(w) for w in mapping if str(w) not in seen)
    return seen


def word_lines(games, key, indent):
    return [
        indent + game_id + ": " + "; ".join(f"`{w}` - {text}" for w, text in mapping.items()) + "."
        for game_id, mapping in mappings(games, key)
    ]


def property_lines(games, key, indent):
    """Each property once; two games that add the same name must agree."""
    written = {}
    for game_id, mapping in mappings(games, key):
        for name, schema in mapping.items():
            if name in written and written[name] != schema:
                sys.exit(f"{game_id}: x-kibitz {key}.{name} differs from another game's")
            written[name] = schema
    return [f"{indent}{name}: {json.dumps(schema)}" for name, schema in written.items()]


NOTICE = (
    "# Written by scripts/openapi.py from openapi/base.yaml and src/games/*/openapi.yaml:\n"
    "# edit those and run it (CI checks that this file is their assembly)."
)


def assemble():
    games = fragments()
    out = [NOTICE]
    for line in BASE.read_text().split("\n"):
        if line == "  # @paths":
            for game in games:
                out.extend(game["paths"])
            continue
        if line == "    # @schemas":
            for game in games:
                out.extend(game["schemas"])
            continue
        described = WORD_LINES.match(line)
        if described:
            out.extend(word_lines(games, described.group(2), described.group(1)))
            continue
        added = PROPERTIES.match(line)
        if added:
            out.extend(property_lines(games, added.group(2), added.group(1)))
            continue
        each = EACH.match(line)
        if each:
            indent, key, template = each.groups()
            seen = set()
            for game in games:
                meta = game["meta"]
                if key not in meta:
                    continue
                written = indent + template.replace("{id}", str(meta["id"])).replace("{value}", str(meta[key]))
                if written not in seen:
                    seen.add(written)
                    out.append(written)
            continue

        def ids(match):
            key, value = match.group(1), match.group(2)

            def named(meta):
                return key is None or (key in meta and (value is None or str(meta[key]) == value))

            return ", ".join(str(g["meta"]["id"]) for g in games if named(g["meta"]))

        line = WORDS.sub(lambda m: ", ".join(words(games, m.group(1))), line)
        out.append(IDS.sub(ids, line))
    return "\n".join(out)


def main():
    text = assemble()
    yaml.safe_load(text)
    if "--check" in sys.argv[1:]:
        if OUT.read_text() != text:
            sys.exit("openapi.yaml is not the assembly of openapi/base.yaml and the games' fragments: run python3 scripts/openapi.py")
        print("openapi.yaml is up to date with openapi/base.yaml and the games' fragments")
        return
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
