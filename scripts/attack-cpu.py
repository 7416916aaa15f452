#!/usr/bin/env python3
"""Heavy batches and Pig tables must not starve the async threads (issue 31,
findings 3 and 7), against a running server.

For DURATION seconds: BATCHERS clients each send POST /analyze batches of
256 tic-tac-toe positions on 7x7..10x10 boards (max_ms 1), PIG clients ask
POST /pig/decision with random goals and dice (each a table to solve), and
one client asks GET /healthz every 50 ms. Prints the /healthz latencies,
how the Pig requests were answered (a refusal must be a quick 503 with
Retry-After, not the request timeout) and the batches' times.

Fails (exit 1) when the /healthz p99 is over P99_MS (default 200), a
/healthz fails, or a Pig request waits over 5 s or is refused without
Retry-After. With --report-only it only prints (the figures before the fix).

Usage: scripts/attack-cpu.py HOST:PORT [--batchers 4] [--pig 200]
       [--duration 20] [--p99-ms 200] [--report-only]
Loopback only; every loop is bounded by --duration.
"""
import argparse
import json
import multiprocessing
import random
import sys
import threading
import time
import urllib.error
import urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--batchers", type=int, default=4)
parser.add_argument("--pig", type=int, default=200)
parser.add_argument("--duration", type=float, default=20)
parser.add_argument("--p99-ms", type=float, default=200)
parser.add_argument("--max-ms", type=int, default=1)
parser.add_argument("--pid", type=int, help="the server's process, to report its RSS")
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"
base = f"http://{host}:{port}"
stop_at = time.monotonic() + args.duration
lock = threading.Lock()


def post(path, body, timeout=30):
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            answer.read()
            return answer.status, None, time.monotonic() - started
    except urllib.error.HTTPError as error:
        error.read()
        return error.code, error.headers.get("Retry-After"), time.monotonic() - started
    except OSError:
        return "error", None, time.monotonic() - started


def board(rng):
    size = rng.randint(7, 10)
    cells = [["."] * size for _ in range(size)]
    stones = rng.randint(2, 8)
    free = [(r, c) for r in range(size) for c in range(size)]
    rng.shuffle(free)
    for i in range(stones):
        r, c = free[i]
        cells[r][c] = "X" if i % 2 == 0 else "O"
    return ["".join(row) for row in cells]


batches = []


def batcher(seed):
    rng = random.Random(seed)
    while time.monotonic() < stop_at:
        positions = [{"game": "tictactoe", "board": board(rng)} for _ in range(256)]
        status, _, took = post("/analyze", {"positions": positions, "max_ms": args.max_ms})
        with lock:
            batches.append((status, took))


pig = {}
pig_slow = []


def pig_client(seed):
    rng = random.Random(seed)
    while time.monotonic() < stop_at:
        body = {
            "my_score": 0,
            "opponent_score": 0,
            "turn_total": 0,
            "goal": rng.randint(20, 200),
            "die_sides": rng.randint(2, 12),
            "variant": rng.choice(["standard", "progressive"]),
        }
        status, retry_after, took = post("/pig/decision", body)
        key = f"{status}" + (" with Retry-After" if status == 503 and retry_after else "")
        with lock:
            pig[key] = pig.get(key, 0) + 1
            if took > 5:
                pig_slow.append(took)


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def health_client(results, url, stop, pid):
    """Runs in a process of its own: the 200-odd client threads of this one
    share its interpreter lock, which would add their wait to the probe's."""
    times, failures, rss = [], 0, []
    while time.monotonic() < stop:
        if pid:
            rss.append(rss_mib(pid))
        started = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                answer.read()
            times.append(time.monotonic() - started)
        except OSError:
            failures += 1
        time.sleep(0.05)
    results.put((times, failures, rss))


if __name__ == "__main__":
    # The probe's clock: a monotonic deadline means nothing in another
    # process, so it gets its duration.
    results = multiprocessing.Queue()
    probe = multiprocessing.Process(
        target=health_client,
        args=(results, base + "/healthz", time.monotonic() + args.duration, args.pid),
    )
    probe.start()
    threads = [threading.Thread(target=batcher, args=(i,)) for i in range(args.batchers)]
    threads += [threading.Thread(target=pig_client, args=(1000 + i,)) for i in range(args.pig)]
    for t in threads:
        t.daemon = True
        t.start()
    for t in threads:
        t.join(timeout=max(0, stop_at - time.monotonic()) + 40)
    health, health_failures, rss = results.get(timeout=60)
    probe.join(timeout=10)

health.sort()


def pct(values, q):
    return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else float("inf")


print(f"{args.batchers} clients sending 256-position batches (max_ms {args.max_ms}), {args.pig} Pig clients, "
      f"{args.duration:.0f} s")
print(f"GET /healthz: {len(health)} answered, {health_failures} failed; p50 {pct(health, 0.5):.0f} ms, "
      f"p99 {pct(health, 0.99):.0f} ms, max {pct(health, 1.0):.0f} ms")
batch_times = sorted(t for _, t in batches)
batch_statuses = {}
for s, _ in batches:
    batch_statuses[s] = batch_statuses.get(s, 0) + 1
print(f"batches: {batch_statuses}, each {pct(batch_times, 0) / 1000:.2f}..{pct(batch_times, 1.0) / 1000:.2f} s")
print(f"Pig decisions: {pig}; {len(pig_slow)} took over 5 s")
if rss:
    print(f"server RSS: {rss[0]:.0f} MiB at the start, {max(rss):.0f} MiB peak, {rss[-1]:.0f} MiB at the end")
if args.report_only:
    sys.exit(0)
problems = []
if pct(health, 0.99) > args.p99_ms or health_failures:
    problems.append(f"/healthz p99 {pct(health, 0.99):.0f} ms (limit {args.p99_ms:.0f}), {health_failures} failed")
if pig_slow:
    problems.append(f"{len(pig_slow)} Pig requests took over 5 s")
bare = sum(n for k, n in pig.items() if k.startswith("503") and "Retry-After" not in k)
if bare:
    problems.append(f"{bare} Pig 503s without Retry-After")
if problems:
    sys.exit("FAIL: " + "; ".join(problems))
print("ok: probes answered quickly; Pig refusals quick, with Retry-After")
