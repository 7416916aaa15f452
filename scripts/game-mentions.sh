#!/usr/bin/env bash
# How many shared files of src/ and web/ name each game in code: its snake,
# kebab or CamelCase id on a line that is not a comment, outside the game's
# own folder (src/games/<game>/) and its drawing (web/<game>.js). The
# registry's promise (issue 27) is at most 2 per game. `-v` lists the files.
set -euo pipefail
cd "$(dirname "$0")/.."
verbose=${1:-}
# id  snake  kebab  camel (a regex)
games=(
  "pig pig pig Pig"
  "tictactoe tictactoe tictactoe Tic[Tt]ac[Tt]oe"
  "ishitori ishitori ishitori Ishitori"
  "number_square number_square number-square NumberSquare"
  "nine_square nine_square nine-square NineSquare"
  "connect_four connect_four connect-four ConnectFour"
  "othello othello othello Othello"
  "chess chess chess Chess"
)
for entry in "${games[@]}"; do
  read -r id snake kebab camel <<<"$entry"
  files=$(grep -rIlE "\b(${snake}|${kebab}|${camel})" src web 2>/dev/null \
    | grep -vE "^src/games/${snake}/|^web/${kebab}\.js$" || true)
  shared=()
  for f in $files; do
    # Only lines that are code: not comments, not doc comments.
    if grep -IE "\b(${snake}|${kebab}|${camel})" "$f" \
      | grep -vqE '^\s*(//|/?\*|#)'; then
      shared+=("$f")
    fi
  done
  own=$(find src -path "*${snake}*" -name '*.rs' 2>/dev/null | { grep -vE "^src/games/${snake}/" || true; } | wc -l)
  printf '%-14s shared files naming it: %2d   own src files outside src/games/%s/: %d\n' \
    "$id" "${#shared[@]}" "$snake" "$own"
  if [ "$verbose" = "-v" ]; then printf '    %s\n' "${shared[@]}"; fi
done
