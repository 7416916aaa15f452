#!/usr/bin/env python3
"""Slow and idle connections (issue 31, finding 1), against a running server.

Opens SLOW connections that send a request's headers one byte a second
(after PREFILL bytes of headers at once) and IDLE connections that send
nothing, and holds them for up to DURATION seconds; meanwhile a fresh client
asks GET /healthz twice a second. Prints how long the attack's connections
stayed open, how the fresh client fared, and (with --pid) the server's RSS.

Fails (exit 1) when an attack connection is still open CLOSE_WITHIN seconds
after it was opened, or when a fresh /healthz is not answered within
HEALTH_TIMEOUT seconds. With --expect-open it only measures (for the
figures before the fix) and never fails.

Usage: scripts/attack-slowloris.py HOST:PORT [--slow N] [--idle N]
       [--prefill BYTES] [--duration S] [--close-within S] [--pid PID]
Loopback only; every loop is bounded by --duration.
"""
import argparse
import resource
import selectors
import socket
import sys
import time
import urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--slow", type=int, default=1000)
parser.add_argument("--idle", type=int, default=200)
parser.add_argument("--prefill", type=int, default=0, help="header bytes sent at once before the trickle")
parser.add_argument("--duration", type=float, default=30)
parser.add_argument("--close-within", type=float, default=15)
parser.add_argument("--health-timeout", type=float, default=2.0)
parser.add_argument("--pid", type=int)
parser.add_argument("--expect-open", action="store_true", help="measure only, never fail")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)

host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"
port = int(port)

# Our own sockets need descriptors too.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
want = args.slow + args.idle + 64
if soft < want:
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))


def rss_mib():
    if not args.pid:
        return None
    try:
        with open(f"/proc/{args.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


rss_before = rss_mib()
rss_peak = rss_before
selector = selectors.DefaultSelector()
opened = {}  # socket -> (kind, opened at)
closed_after = {"slow": [], "idle": []}
connect_failures = 0
start = time.monotonic()
prefill = b"GET /healthz HTTP/1.1\r\nHost: kibitz\r\n"
if args.prefill:
    prefill += b"X-Pad: " + b"a" * args.prefill + b"\r\n"
prefill += b"X-Slow: "

health_times, health_failures = [], 0


def check_health():
    """One fresh client's GET /healthz, timed."""
    global health_failures
    t = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=args.health_timeout) as r:
            r.read()
        health_times.append(time.monotonic() - t)
    except OSError:
        health_failures += 1
        health_times.append(float("inf"))


next_health = time.monotonic()
for i in range(args.slow + args.idle):
    if time.monotonic() - start > args.duration / 2:
        break  # the server stopped accepting: enough for the measure
    # Fresh clients while the attack's connections pile up too.
    if i > args.slow // 2 and time.monotonic() >= next_health:
        next_health = time.monotonic() + 0.25
        check_health()
    kind = "slow" if i < args.slow else "idle"
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(0.5)
    try:
        s.connect((host, port))
        if kind == "slow":
            s.sendall(prefill)
    except OSError:
        connect_failures += 1
        s.close()
        continue
    s.setblocking(False)
    opened[s] = (kind, time.monotonic())
    selector.register(s, selectors.EVENT_READ)
print(f"opened {len(opened)} connections ({args.slow} slow, {args.idle} idle) in "
      f"{time.monotonic() - start:.1f} s; {connect_failures} could not connect")

next_trickle = next_health = time.monotonic()
deadline = start + args.duration
while opened and time.monotonic() < deadline:
    now = time.monotonic()
    if now >= next_health:
        next_health = now + 0.5
        check_health()
    if now >= next_trickle:
        next_trickle = now + 1
        for s, (kind, _) in list(opened.items()):
            if kind == "slow":
                try:
                    s.send(b"a")
                except BlockingIOError:
                    pass
                except OSError:
                    pass  # seen as closed when it reads end-of-file
        rss = rss_mib()
        if rss is not None:
            rss_peak = max(rss_peak or 0, rss)
    for key, _ in selector.select(timeout=0.1):
        s = key.fileobj
        try:
            data = s.recv(65536)
        except BlockingIOError:
            continue
        except OSError:
            data = b""
        if data:
            continue  # a 408/431 answer: the close follows
        kind, at = opened.pop(s)
        closed_after[kind].append(time.monotonic() - at)
        selector.unregister(s)
        s.close()

still_open = {"slow": 0, "idle": 0}
for s, (kind, _) in opened.items():
    still_open[kind] += 1
    s.close()
time.sleep(1)
rss_after = rss_mib()


def spread(values):
    if not values:
        return "none"
    values = sorted(values)
    return f"{len(values)}, after {values[0]:.1f}..{values[-1]:.1f} s (median {values[len(values) // 2]:.1f})"


answered = sorted(t for t in health_times if t != float("inf"))
p99 = answered[min(len(answered) - 1, int(len(answered) * 0.99))] if answered else float("inf")
print(f"slow connections closed by the server: {spread(closed_after['slow'])}; still open after "
      f"{args.duration:.0f} s: {still_open['slow']}")
print(f"idle connections closed by the server: {spread(closed_after['idle'])}; still open after "
      f"{args.duration:.0f} s: {still_open['idle']}")
print(f"fresh GET /healthz meanwhile: {len(answered)} answered, {health_failures} failed or over "
      f"{args.health_timeout} s; p99 {p99 * 1000:.0f} ms")
if rss_before is not None:
    print(f"server RSS: {rss_before:.0f} MiB before, {rss_peak:.0f} MiB peak, {rss_after or 0:.0f} MiB after")
if args.expect_open:
    sys.exit(0)
late = [t for k in closed_after for t in closed_after[k] if t > args.close_within]
problems = []
if still_open["slow"] or still_open["idle"] or late:
    problems.append(f"{still_open['slow'] + still_open['idle'] + len(late)} connections outlived "
                    f"{args.close_within} s")
if health_failures or not answered:
    problems.append(f"{health_failures} fresh /healthz requests failed")
if problems:
    sys.exit("FAIL: " + "; ".join(problems))
print("ok: slow and idle connections closed in time, fresh clients answered")
