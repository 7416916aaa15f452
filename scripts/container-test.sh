#!/usr/bin/env bash
# Builds the real Dockerfile with podman, runs the image and uses it the way a
# person would; then runs deploy/compose.yaml with podman-compose: two
# replicas behind nginx, a match played through the proxy, one replica stopped
# and the match finished through the other.
#
#   scripts/container-test.sh               the image from this machine's
#       release binary (KIBITZ_BIN, default target/release/kibitz): the
#       Dockerfile's build stage is replaced, with --build-context build=DIR,
#       by a directory holding that binary and the tables it solves with the
#       Dockerfile's own `kibitz solve pig` commands; everything after the
#       build stage is the Dockerfile as it is
#   scripts/container-test.sh --full-build  the Dockerfile whole, cargo build
#       inside the build stage (about ten minutes more on two cores)
#   KIBITZ_CONTAINER_COMPOSE=0              skips the compose part
#
# No image registry is needed: the public images the files start from are
# made locally by tests/container/standin-images.sh and handed over without
# touching Dockerfile or compose.yaml (--build-context NAME=container-image://
# for builds, tests/container/compose.standin.yaml for compose). Installs what
# it needs (Debian's podman, runc, debootstrap, the CNI dnsname plugin;
# podman-compose from PyPI). Run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export DEBIAN_FRONTEND=noninteractive
export CONTAINERS_CONF=$root/tests/container/containers.conf
full_build=""
[ "${1:-}" = "--full-build" ] && full_build=1
compose=${KIBITZ_CONTAINER_COMPOSE:-1}
image=localhost/kibitz:latest
standin=localhost/kibitz-standin
name=kibitz-ct
volume=kibitz-ct-data
port=${KIBITZ_CONTAINER_PORT:-18480}
proxy_port=${KIBITZ_COMPOSE_PORT:-18490}
project=kibitz-ct
play="python3 $root/tests/container/play.py"
started=$(date +%s)
say() { printf '%s [%3ss] %s\n' "--" "$(($(date +%s) - started))" "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# podman without systemd cannot schedule healthcheck timers and says so on
# every run, stop and rm; the test runs the checks itself (podman healthcheck run).
podman() { command podman "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
# A container's log without colours (the server colours its log even off a terminal).
logs_of() { command podman logs "$1" 2>&1 | sed 's/\x1b\[[0-9;]*m//g'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
since() { local ms=$(($(now_ms) - $1)); printf '%d.%03d' $((ms / 1000)) $((ms % 1000)); }

[ "$(id -u)" = 0 ] || fail "run as root (apt-get, rootful podman)"

apt_updated=""
apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ -z "$apt_updated" ]; then apt-get update -q; apt_updated=1; fi
  apt-get install -y -q --no-install-recommends "${missing[@]}"
}
apt_install podman runc debootstrap golang-github-containernetworking-plugin-dnsname curl python3
if [ "$compose" = 1 ] && ! python3 -c 'import podman_compose' 2>/dev/null; then
  python3 -m pip install -q podman-compose 2>/dev/null \
    || python3 -m pip install -q --break-system-packages podman-compose
fi
podman --version

compose_cmd() {
  KIBITZ_PORT=$proxy_port python3 -m podman_compose -p "$project" \
    -f deploy/compose.yaml -f tests/container/compose.standin.yaml "$@"
}
ctr() { # SERVICE: its container's name
  command podman ps -a --filter "label=io.podman.compose.project=$project" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -n 1
}
compose_down() { # TIMEOUT
  # The image's VOLUME gives each replica an anonymous volume: removed too.
  local anonymous c
  anonymous=$(for s in kibitz-1 kibitz-2; do
    c=$(ctr "$s")
    [ -z "$c" ] || command podman inspect --format '{{range .Mounts}}{{.Name}} {{end}}' "$c"
  done)
  compose_cmd down -v -t "$1" > "$work/compose-down.log" 2>&1 || { cat "$work/compose-down.log"; return 1; }
  # shellcheck disable=SC2086 # a list of volume names
  [ -z "${anonymous// /}" ] || command podman volume rm -f $anonymous >/dev/null
}
cleanup() {
  podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  if [ "$compose" = 1 ]; then compose_down 5 >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
work=$(mktemp -d)
trap cleanup EXIT
cleanup # what an interrupted run may have left
work=$(mktemp -d)

say "stand-in base images"
if [ -n "$full_build" ]; then tests/container/standin-images.sh --rust; else tests/container/standin-images.sh; fi

# ---------------------------------------------------------------- the image
build_args=(--pull=never --network=host --format=docker --layers
  --build-context "debian:bookworm-slim=container-image://$standin/debian:bookworm-slim")
if [ -n "$full_build" ]; then
  say "podman build: the whole Dockerfile (cargo build in the build stage)"
  build_args+=(--build-context "rust:1.95-slim-bookworm=container-image://$standin/rust:1.95-slim-bookworm")
else
  bin=${KIBITZ_BIN:-target/release/kibitz}
  [ -x "$bin" ] || fail "no release binary at $bin (cargo build --release first, or --full-build)"
  say "podman build: the build stage replaced by $bin and the tables it solves"
  artifacts=$work/build
  mkdir -p "$artifacts/src/target/release" "$artifacts/out/data"
  cp "$bin" "$artifacts/src/target/release/kibitz"
  # The build stage's own solve commands, read from the Dockerfile (lines
  # joined), run with this binary and writing under the artifacts directory.
  solves=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' Dockerfile \
    | grep -o 'kibitz solve pig[^&]*' | sed 's/  */ /g; s/ *$//')
  [ "$(printf '%s\n' "$solves" | grep -c .)" -ge 2 ] || fail "found no solve commands in the Dockerfile"
  while read -r _ _ _ args; do
    # shellcheck disable=SC2086 # the Dockerfile's arguments, split as the shell there splits them
    "$artifacts/src/target/release/kibitz" solve pig ${args//\/out\//$artifacts\/out\/}
  done <<< "$solves"
  build_args+=(--build-context "build=$artifacts")
fi
previous=$(command podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
nice -n 10 podman build "${build_args[@]}" -t "$image" . > "$work/build.log" 2>&1 \
  || { tail -n 40 "$work/build.log"; fail "podman build"; }
# The image this one replaces (an earlier binary) would stay as <none>.
if [ -n "$previous" ] && [ "$previous" != "$(command podman image inspect --format '{{.Id}}' "$image")" ]; then
  command podman rmi "$previous" >/dev/null 2>&1 || true
fi
grep -E '^\[[0-9]+/[0-9]+\] STEP|^STEP' "$work/build.log" || true
size=$(podman image inspect --format '{{.Size}}' "$image")
say "image $image: $((size / 1000000)) MB ($size bytes)"
podman image inspect --format '{{json .Config.Healthcheck}}' "$image" | grep -q readyz \
  || fail "the image has no HEALTHCHECK"

# ------------------------------------------------------------ one container
url=http://127.0.0.1:$port
run_container() {
  podman run -d --name "$name" -p "127.0.0.1:$port:8080" -v "$volume:/app/data" "$image" >/dev/null
}
wait_ready() { # URL SECONDS
  local deadline=$(($(date +%s) + $2))
  until curl -fsS "$1/readyz" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

say "podman run (volume $volume on /app/data, port $port)"
run_container
t0=$(now_ms)
wait_ready "$url" 60 || { podman logs "$name"; fail "/readyz never answered 200"; }
say "/readyz 200 after $(since "$t0") s: $(curl -fsS "$url/readyz")"

uid=$(podman exec "$name" awk '/^Uid:/ {print $2}' /proc/1/status)
user=$(podman exec "$name" id -un)
[ "$uid" = 10001 ] || fail "the server runs as uid $uid, not 10001"
say "the server (PID 1) runs as uid $uid ($user)"

# No solve at start: the cache logs "loaded Pig table" for each table file it
# reads and "solved Pig table" (after "no Pig table file yet" or "unusable")
# for each one it has to compute; /metrics counts the same.
logs=$(logs_of "$name")
loaded=$(grep -c 'loaded Pig table' <<< "$logs" || true)
grep 'loaded Pig table' <<< "$logs" | sed 's/^/   /'
[ "$loaded" -ge 2 ] || fail "expected 2 'loaded Pig table' lines, found $loaded"
if grep -E 'solved Pig table|no Pig table file yet|Pig table unusable' <<< "$logs"; then
  fail "the server solved a Pig table at start instead of loading the baked one"
fi
metrics=$(curl -fsS "$url/metrics")
grep -q '^kibitz_pig_table_load_seconds_count 2$' <<< "$metrics" \
  || fail "/metrics does not count 2 table loads"
if grep -q '^kibitz_solver_seconds_count{solver="pig"}' <<< "$metrics"; then
  fail "/metrics counts a Pig solve"
fi
say "tables loaded from the image, none solved (log and /metrics)"

answer=$(curl -fsS -H 'Content-Type: application/json' \
  -d '{"my_score": 0, "opponent_score": 0, "turn_total": 0}' "$url/pig/decision")
say "POST /pig/decision: $answer"
if ! grep -q '"action":"roll"' <<< "$answer" || ! grep -q '"win_probability":0.53059272527' <<< "$answer"; then
  fail "unexpected Pig decision"
fi

answer=$(curl -fsS -H 'Content-Type: application/json' \
  -d '{"position": "4HPwATDgc/ABMA", "dice": [3, 1], "max_ms": 500}' "$url/backgammon/move")
say "POST /backgammon/move (gnubg in the image): ${answer:0:120}..."
grep -q '"notation":"8/5 6/5"' <<< "$answer" || fail "gnubg did not make the 5 point with the opening 3-1"

say "a whole tic-tac-toe match"
created=$($play new "$url")
read -r id token <<< "$created"
$play move "$url" "$id" "$token" | sed 's/^/   /'
finished=$($play show "$url" "$id" "$token")
say "match $id: $finished"
[[ $finished == finished* ]] || fail "the match did not finish"

say "HEALTHCHECK (podman runs it only on request without systemd)"
podman healthcheck run "$name" || fail "podman healthcheck run"
health=$(podman inspect --format '{{.State.Health.Status}}' "$name")
[ "$health" = healthy ] || fail "health status $health"
say "health status: $health"

say "a second match, two moves in, kept for the restart"
created=$($play new "$url")
read -r kept_id kept_token <<< "$created"
$play move "$url" "$kept_id" "$kept_token" 2 | sed 's/^/   /'
before=$($play show "$url" "$kept_id" "$kept_token")

say "podman stop"
t0=$(now_ms)
podman stop -t 30 "$name" >/dev/null
took=$(since "$t0")
code=$(podman inspect --format '{{.State.ExitCode}}' "$name")
logs=$(logs_of "$name")
tail -n 2 <<< "$logs" | sed 's/^/   /'
[ "$code" = 0 ] || fail "exit code $code after podman stop"
grep -q 'draining: finishing requests in flight' <<< "$logs" || fail "no drain in the log"
grep -q 'INFO stopped' <<< "$logs" || fail "no 'stopped' in the log"
say "drained and exited 0 in $took s"

say "a new container on the same volume"
podman rm "$name" >/dev/null
run_container
wait_ready "$url" 60 || { podman logs "$name"; fail "/readyz never answered 200 after the restart"; }
after=$($play show "$url" "$kept_id" "$kept_token")
say "match $kept_id before: $before; after: $after"
[ "$before" = "$after" ] || fail "the match changed across the restart"
$play move "$url" "$kept_id" "$kept_token" | sed 's/^/   /'
[[ $($play show "$url" "$kept_id" "$kept_token") == finished* ]] || fail "the kept match did not finish"
podman stop -t 30 "$name" >/dev/null
[ "$(podman inspect --format '{{.State.ExitCode}}' "$name")" = 0 ] || fail "exit code after the second stop"
podman rm "$name" >/dev/null
podman volume rm "$volume" >/dev/null
say "single container: all checks passed"

# ------------------------------------------------------------------ compose
if [ "$compose" != 1 ]; then
  say "compose part skipped (KIBITZ_CONTAINER_COMPOSE=$compose)"
  echo "container test passed"
  exit 0
fi
proxy=http://127.0.0.1:$proxy_port
say "podman-compose up: deploy/compose.yaml, stand-in postgres and nginx, image $image"
compose_cmd up -d --no-build > "$work/compose-up.log" 2>&1 || { cat "$work/compose-up.log"; fail "compose up"; }
# podman 4.3 has no `podman wait --condition=healthy`: podman-compose says it
# ignores the service_healthy conditions and starts everything in order; the
# replicas retry the database until it answers.
grep -i 'ignored' "$work/compose-up.log" | sort -u | sed 's/^/   /' || true
for service in postgres kibitz-1 kibitz-2; do
  c=$(ctr "$service")
  ok=""
  for _ in $(seq 120); do podman healthcheck run "$c" >/dev/null 2>&1 && { ok=1; break; }; sleep 0.5; done
  [ -n "$ok" ] || { compose_cmd logs; fail "$service never healthy"; }
  say "$service ($c): $(podman inspect --format '{{.State.Health.Status}}' "$c")"
done
wait_ready "$proxy" 60 || { compose_cmd logs; fail "the proxy's /readyz never answered 200"; }
count() { # REPLICA ROUTE-PATTERN: requests it answered 200, from its own /metrics
  command podman exec "$(ctr "$1")" curl -fsS http://127.0.0.1:8080/metrics \
    | awk -v r="$2" '/^kibitz_http_requests_total\{/ && $0 ~ r && /status="200"/ {n += $NF} END {print n + 0}'
}
# nginx may have marked a replica failed for fail_timeout (5 s) if it asked
# it before it was ready: let that pass, then check both answer.
sleep 6
for _ in $(seq 10); do curl -fsS "$proxy/readyz" >/dev/null; done
r1=$(count kibitz-1 readyz)
r2=$(count kibitz-2 readyz)
say "/readyz answered through the proxy by kibitz-1 $r1 times, kibitz-2 $r2 times"
if [ "$r1" = 0 ] || [ "$r2" = 0 ]; then fail "the proxy does not balance over both replicas"; fi

created=$($play new "$proxy")
read -r id token <<< "$created"
say "match $id through the proxy, two moves"
$play move "$proxy" "$id" "$token" 1 | sed 's/^/   /'
m1=$(count kibitz-1 moves)
$play move "$proxy" "$id" "$token" 1 | sed 's/^/   /'
if [ "$(count kibitz-1 moves)" -gt "$m1" ]; then gone=kibitz-1 left=kibitz-2; else gone=kibitz-2 left=kibitz-1; fi
say "moves answered: kibitz-1 $(count kibitz-1 moves), kibitz-2 $(count kibitz-2 moves); $gone answered the last one"
before=$(count "$left" moves)
say "podman-compose stop $gone"
gone_ctr=$(ctr "$gone")
compose_cmd stop "$gone" > "$work/compose-stop.log" 2>&1 || { cat "$work/compose-stop.log"; fail "compose stop"; }
[ "$(podman inspect --format '{{.State.ExitCode}}' "$gone_ctr")" = 0 ] || fail "$gone did not exit 0"
logs_of "$gone_ctr" | grep -q 'draining: finishing requests in flight' || fail "$gone did not drain"
say "$gone drained and exited 0; the rest of the match through the proxy"
$play move "$proxy" "$id" "$token" | sed 's/^/   /'
result=$($play show "$proxy" "$id" "$token")
after=$(count "$left" moves)
say "match $id: $result; $left answered $((after - before)) moves after the stop"
[[ $result == finished* ]] || fail "the match did not finish through the remaining replica"
[ "$after" -gt "$before" ] || fail "$left answered none of the remaining moves"
compose_down 25 || fail "compose down"
say "compose: all checks passed"
echo "container test passed"
