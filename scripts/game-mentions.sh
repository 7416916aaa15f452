#!/usr/bin/env bash
# How many shared files name each game: its snake, kebab or CamelCase id on
# a line that is not a comment, in src/ outside the game's own folder
# (src/games/<game>/), in web/ (the page's shared modules and style sheets)
# and in openapi/base.yaml (the spec's shared part), plus the string
# literals of its own end reasons (x-kibitz end_reasons in its spec
# fragment) written in shared Rust. A game is registered by its line in
# src/registry.rs and the `pub mod` line Rust needs for its folder
# (src/games/mod.rs); those two are not counted. Prose naming another game
# inside a game's folder ("Chinese chess") is not a mention.
#
#   scripts/game-mentions.sh          one line per game
#   scripts/game-mentions.sh -v       ... and the files
#   scripts/game-mentions.sh --check  exits 1 when src/, web/ or the spec's
#                                     base name a game outside its folder (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
registered='^(src/registry\.rs|src/games/mod\.rs)$'
failed=0
for snake in $(grep -oE 'served +[a-z_]+::' src/registry.rs | sed -E 's/served +//; s/:://'); do
  kebab=$(grep -hoE 'const ID: &.static str = "[^"]+"' "src/games/$snake/served.rs" | head -n 1 | sed -E 's/.*"(.*)"/\1/')
  kebab=${kebab:-$snake}
  camel=${snake//_/}
  pattern="\\b(${snake}|${kebab}|${camel})\\b"
  code=()
  for f in $(grep -rIliE "$pattern" src web 2>/dev/null | grep -vE "^src/games/${snake}/" | grep -vE "$registered" || true); do
    # Only lines that are code: not comments; in another game's folder not
    # its prose either (a summary string that says "Japanese chess").
    lines=$(grep -IiE "$pattern" "$f" | grep -vE '^\s*(//|/?\*|#)' || true)
    case "$f" in
      src/games/*) lines=$(printf '%s\n' "$lines" | grep -iE "(::|\")${snake}\b|\b${camel}(::|[A-Z{(<])|\"${kebab}\"" || true) ;;
    esac
    [ -n "$lines" ] && code+=("$f")
  done
  spec=$(grep -ciE "$pattern" openapi/base.yaml || true)
  # The game's own end reasons, as string literals in shared Rust.
  reasons=$(python3 - "$snake" <<'PY'
import sys, yaml, pathlib
meta = (yaml.safe_load(pathlib.Path(f"src/games/{sys.argv[1]}/openapi.yaml").read_text()) or {}).get("x-kibitz", {})
print(" ".join(meta.get("end_reasons", {}) or {}))
PY
)
  reason_files=()
  for word in $reasons; do
    for f in $(grep -rlF "\"$word\"" src --include='*.rs' | grep -vE '^src/games/' || true); do
      if grep -F "\"$word\"" "$f" | grep -vqE '^\s*//'; then reason_files+=("$f:$word"); fi
    done
  done
  printf '%-14s shared src/web files naming it: %2d   end-reason literals in shared src: %d   lines of openapi/base.yaml: %d\n' \
    "$snake" "${#code[@]}" "${#reason_files[@]}" "$spec"
  if [ "$mode" = "-v" ]; then
    for f in "${code[@]}" "${reason_files[@]}"; do printf '    %s\n' "$f"; done
  fi
  if [ ${#code[@]} -gt 0 ] || [ ${#reason_files[@]} -gt 0 ] || [ "$spec" -gt 0 ]; then failed=1; fi
done
if [ "$mode" = "--check" ] && [ "$failed" = 1 ]; then
  echo "a game is named in a shared file of src/, web/ or openapi/base.yaml (run scripts/game-mentions.sh -v)" >&2
  exit 1
fi
