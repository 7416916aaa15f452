#!/usr/bin/env python3
"""Chess overhead, side by side in one run (issue 30's benchmark; not run in CI).

1. Cold analyses: the same fixed-depth search of each position by a bare
   Stockfish process spoken to over UCI, and by `POST /chess/move` on a
   kibitz release server with one engine and its answer cache off. Bare and
   kibitz alternate position by position, so the machine's load falls on
   both alike. Prints each side's wall time and the ratio kibitz / bare.
2. Cached answers: with the cache on, one warm-up request, then wrk on
   /healthz and on the same /chess/move body, alternating; prints the ratio
   of the throughputs.
3. Load: 16 clients asking for analyses of 1 s at once, again and again,
   while /healthz is asked every 50 ms: each answer's time against its
   budget (or how soon it was refused), and /healthz's latencies.

Python's standard library and wrk; loopback only.

Usage: scripts/bench-chess.py target/release/kibitz [--stockfish /usr/games/stockfish]
       [--depth 14] [--rounds 3] [--secs 5]
"""

import argparse
import threading
import urllib.error
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

# Standard test positions (start, Kiwipete, and middlegames from the
# perft and engine test suites), kept to legal ones with several moves.
POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
]

HASH_MIB = 16


class Uci:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name Hash value {HASH_MIB}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish closed its output")
            if line.startswith(prefix):
                return line

    def search(self, fen, depth):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        best = self.wait_for("bestmove")
        return time.perf_counter() - start, best.split()[1]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def post(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def start_server(binary, port, data, cache_entries, engines=1):
    log = open(os.path.join(data, f"server-{port}.log"), "w")
    proc = subprocess.Popen(
        [binary, "serve", "--bind", f"127.0.0.1:{port}", "--data-dir", data, "--log", "error",
         "--engine-count", str(engines), "--engine-hash-mib", str(HASH_MIB),
         "--chess-cache-entries", str(cache_entries), "--max-ms-cap", "120000",
         "--request-timeout-ms", "150000"],
        stdout=log, stderr=log,
    )
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1).read()
            return proc
        except Exception:
            time.sleep(0.25)
    proc.kill()
    raise RuntimeError("the server did not become ready")


def wrk_rate(url, secs, body=None):
    args = ["wrk", "-t1", "-c32", f"-d{secs}s"]
    script = None
    if body is not None:
        script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
        script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n')
        script.write("wrk.body = [[" + json.dumps(body) + "]]\n")
        script.close()
        args += ["-s", script.name]
    out = subprocess.run(args + [url], capture_output=True, text=True, check=True).stdout
    if script:
        os.unlink(script.name)
    for line in out.splitlines():
        if line.startswith("Requests/sec:"):
            return float(line.split()[1])
    raise RuntimeError(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--secs", type=int, default=5)
    args = parser.parse_args()
    data = tempfile.mkdtemp()

    cold_port, warm_port = 18291, 18292
    server = start_server(args.binary, cold_port, data, 0)
    bare = Uci(args.stockfish)
    bare_total = kibitz_total = 0.0
    try:
        for round_ in range(args.rounds):
            for fen in POSITIONS:
                t_bare, best_bare = bare.search(fen, args.depth)
                start = time.perf_counter()
                answer = post(f"http://127.0.0.1:{cold_port}/chess/move",
                              {"fen": fen, "depth": args.depth, "max_ms": 120000})
                t_kibitz = time.perf_counter() - start
                if answer.get("depth") != args.depth:
                    sys.exit(f"kibitz searched to depth {answer.get('depth')}, not {args.depth}: {answer}")
                bare_total += t_bare
                kibitz_total += t_kibitz
                print(f"round {round_ + 1} {fen[:40]:40} bare {t_bare * 1000:7.1f} ms ({best_bare})"
                      f"  kibitz {t_kibitz * 1000:7.1f} ms ({answer['move']['uci']})")
    finally:
        bare.close()
        server.terminate()
        server.wait()
    print(f"cold, depth {args.depth}, {args.rounds} x {len(POSITIONS)} positions: bare {bare_total:.2f} s, "
          f"kibitz {kibitz_total:.2f} s, ratio kibitz / bare {kibitz_total / bare_total:.3f}")

    if not shutil.which("wrk"):
        print("cached: NOT MEASURED (needs wrk: apt-get install wrk)")
        return
    server = start_server(args.binary, warm_port, data, 4096)
    body = {"fen": POSITIONS[1], "depth": 10}
    try:
        post(f"http://127.0.0.1:{warm_port}/chess/move", body)
        ratios = []
        for round_ in range(args.rounds):
            health = wrk_rate(f"http://127.0.0.1:{warm_port}/healthz", args.secs)
            cached = wrk_rate(f"http://127.0.0.1:{warm_port}/chess/move", args.secs, body)
            ratios.append(cached / health)
            print(f"round {round_ + 1} healthz {health:9.0f}/s  cached /chess/move {cached:9.0f}/s  "
                  f"ratio {cached / health:.3f}")
    finally:
        server.terminate()
        server.wait()
    ratios.sort()
    print(f"cached / healthz, median of {len(ratios)}: {ratios[len(ratios) // 2]:.3f}")
    load(args.binary, data)
    shutil.rmtree(data, ignore_errors=True)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def load(binary, data, clients=16, secs=15, budget_ms=1000):
    port = 18293
    # One engine per core, the default.
    server = start_server(binary, port, data, 0, engines=0)
    stop = time.monotonic() + secs
    answered, refused, late, errors, health = [], [], [], [], []
    lock = threading.Lock()

    def client(i):
        n = 0
        while time.monotonic() < stop:
            fen = POSITIONS[(i + n) % len(POSITIONS)]
            n += 1
            start = time.perf_counter()
            try:
                post(f"http://127.0.0.1:{port}/chess/move", {"fen": fen, "max_ms": budget_ms})
                took = time.perf_counter() - start
                with lock:
                    answered.append(took)
                    if took > budget_ms / 1000 + 0.5:
                        late.append(took)
            except urllib.error.HTTPError as e:
                with lock:
                    (refused if e.code == 503 else errors).append(time.perf_counter() - start)
            except Exception:
                with lock:
                    errors.append(time.perf_counter() - start)

    def prober():
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read()
                health.append(time.perf_counter() - start)
            except Exception:
                health.append(5.0)
            time.sleep(0.05)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    threads.append(threading.Thread(target=prober))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    server.terminate()
    server.wait()
    print(f"load: {clients} clients x {secs} s, max_ms {budget_ms}: {len(answered)} answered "
          f"(p50 {percentile(answered, 0.5):.2f} s, max {max(answered, default=0):.2f} s, "
          f"{len(late)} beyond budget + 0.5 s), {len(refused)} refused 503 "
          f"(max {max(refused, default=0):.2f} s), {len(errors)} other errors; /healthz p50 "
          f"{percentile(health, 0.5) * 1000:.1f} ms, p99 {percentile(health, 0.99) * 1000:.1f} ms, "
          f"max {max(health, default=0) * 1000:.1f} ms over {len(health)} probes")


if __name__ == "__main__":
    main()
