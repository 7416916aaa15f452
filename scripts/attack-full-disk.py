#!/usr/bin/env python3
"""A full disk, then space again (issue 31, finding 5): while the database's
filesystem is full, writes must fail cleanly and /readyz must say not
ready; once space is back, every creation must succeed and read back.

Needs root: mounts a small tmpfs for the SQLite database, starts BINARY on
it, fills the filesystem with a file until ENOSPC, tries creations and
/readyz, frees the space, then creates ROUNDS matches, each read back at
once with GET /matches/{id}. Prints what each phase got; fails (exit 1)
when /readyz said ready while the disk was full, or a creation or read
failed after space came back. With --report-only it only prints.

Usage: scripts/attack-full-disk.py BINARY [--tables DIR] [--rounds 100]
Loopback only; every loop is bounded.
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--tables", help="a directory with Pig table files to copy (else they are solved)")
parser.add_argument("--rounds", type=int, default=100)
parser.add_argument("--size-mib", type=int, default=16)
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)

work = tempfile.mkdtemp(prefix="kibitz-full-disk-")
data, mount = os.path.join(work, "data"), os.path.join(work, "db")
os.makedirs(data)
os.makedirs(mount)
if args.tables:
    for name in os.listdir(args.tables):
        if name.endswith(".kpig"):
            shutil.copy(os.path.join(args.tables, name), data)
subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.size_mib}m", "tmpfs", mount], check=True)
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
log = open(os.path.join(work, "server.log"), "w")
server = subprocess.Popen(
    [args.binary, "serve", "--bind", f"127.0.0.1:{port}", "--data-dir", data,
     "--database-url", f"sqlite://{mount}/kibitz.db?mode=rwc"],
    stdout=log, stderr=subprocess.STDOUT,
    # More creations than the quota allows one client.
    env={**os.environ, "KIBITZ_MATCH_QUOTA_PER_HOUR": "0"},
)


def call(method, path, body=None, token=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = conn.getresponse()
        return answer.status, answer.read()
    except OSError as error:
        return f"error {error}", b""
    finally:
        conn.close()


def tally(results):
    counts = {}
    for r in results:
        counts[r] = counts.get(r, 0) + 1
    return counts


failures = []
try:
    for _ in range(240):
        if call("GET", "/readyz")[0] == 200:
            break
        if server.poll() is not None:
            sys.exit(f"the server exited: see {log.name}")
        time.sleep(0.5)
    new_match = {"game": "tictactoe"}
    print(f"before: creations {tally(call('POST', '/matches', new_match)[0] for _ in range(5))}")

    filler = os.path.join(mount, "filler")
    f = open(filler, "wb", buffering=0)
    try:
        while True:
            f.write(b"\0" * 65536)
    except OSError:
        pass  # ENOSPC: the filesystem is full
    f.close()
    full_creations, full_ready = [], []
    for _ in range(20):
        full_creations.append(call("POST", "/matches", new_match)[0])
        full_ready.append(call("GET", "/readyz")[0])
    print(f"disk full: creations {tally(full_creations)}, /readyz {tally(full_ready)}")
    if 200 in full_ready:
        failures.append("/readyz said ready while the database could not write")

    os.remove(filler)
    time.sleep(1)
    created, read_back, ready = [], [], []
    for _ in range(args.rounds):
        status, body = call("POST", "/matches", new_match)
        created.append(status)
        if status == 201:
            m = json.loads(body)
            read_back.append(call("GET", f"/matches/{m['id']}", token=m["token"])[0])
        ready.append(call("GET", "/readyz")[0])
    print(f"space back: creations {tally(created)}, read back at once {tally(read_back)}, /readyz {tally(ready)}")
    if any(s != 201 for s in created) or any(s != 200 for s in read_back):
        failures.append("creations or reads failed after space came back")
finally:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=40)
    except subprocess.TimeoutExpired:
        server.kill()
    subprocess.run(["umount", mount])
    log.close()
if failures and not args.report_only:
    print(f"server log: {os.path.join(work, 'server.log')}")
    sys.exit("FAIL: " + "; ".join(failures))
shutil.rmtree(work, ignore_errors=True)
print("ok" if not failures else "(report only)")
