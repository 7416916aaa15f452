#!/usr/bin/env bash
# How many shared files of src/ and web/ name each game in code: its snake,
# kebab or CamelCase id on a line that is not a comment, outside the game's
# own folder (src/games/<game>/) and its drawing (web/<game>.js). The
# registry's promise (issue 27) is at most 2 per game. `-v` lists the files.
set -euo pipefail
cd "$(dirname "$0")/.."
verbose=${1:-}
# Every game of the registry (its `served <module>::` lines): its module
# (snake case), its id (kebab case, from its match adapter's ID) and its
# CamelCase name (the module without underscores, matched ignoring case).
games=()
for snake in $(grep -oE 'served +[a-z_]+::' src/registry.rs | sed -E 's/served +//; s/:://'); do
  kebab=$(grep -hoE 'const ID: &.static str = "[^"]+"' "src/games/$snake/matches.rs" | head -n 1 | sed -E 's/.*"(.*)"/\1/')
  games+=("$snake $snake ${kebab:-$snake} ${snake//_/}")
done
for entry in "${games[@]}"; do
  read -r id snake kebab camel <<<"$entry"
  files=$(grep -rIliE "\b(${snake}|${kebab}|${camel})" src web 2>/dev/null \
    | grep -vE "^src/games/${snake}/|^web/${kebab}\.js$" || true)
  shared=()
  for f in $files; do
    # Only lines that are code: not comments, not doc comments.
    if grep -IiE "\b(${snake}|${kebab}|${camel})" "$f" \
      | grep -vqE '^\s*(//|/?\*|#)'; then
      shared+=("$f")
    fi
  done
  own=$(find src -path "*${snake}*" -name '*.rs' 2>/dev/null | { grep -vE "^src/games/${snake}/" || true; } | wc -l)
  printf '%-14s shared files naming it: %2d   own src files outside src/games/%s/: %d\n' \
    "$id" "${#shared[@]}" "$snake" "$own"
  if [ "$verbose" = "-v" ]; then printf '    %s\n' "${shared[@]}"; fi
done
