#!/usr/bin/env python3
"""Request framing and headers a hostile client controls (issue 31,
finding 8), against a running server:

- `Transfer-Encoding: gzip, chunked` must be refused (501), not read as
  chunked (RFC 9112 section 6.1; nginx answers 501 too);
- a single 390 KB header must be refused (431) or the connection closed;
- an `X-Request-Id` of 10 KB, or with spaces and quotes, must not be echoed.

Prints what each got; exits 1 when one is accepted. With --report-only it
only prints (the figures before the fix).

Usage: scripts/attack-framing.py HOST:PORT [--report-only]
"""
import argparse
import socket
import sys

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"


def exchange(raw):
    """The response's status line and headers, or what went wrong."""
    with socket.create_connection((host, int(port)), timeout=10) as s:
        try:
            s.sendall(raw)
        except OSError as error:
            return f"send failed: {error}", {}
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError as error:
            if not data:
                return f"closed: {error}", {}
    if not data:
        return "closed without an answer", {}
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return head[0], headers


failures = []
body = b'{"my_score": 0, "opponent_score": 0, "turn_total": 0}'
chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
status, _ = exchange(
    b"POST /pig/decision HTTP/1.1\r\nHost: kibitz\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: gzip, chunked\r\n\r\n" + chunked
)
print(f"Transfer-Encoding: gzip, chunked -> {status}")
if " 501 " not in status + " ":
    failures.append("gzip, chunked was not refused with 501")

status, _ = exchange(
    b"GET /healthz HTTP/1.1\r\nHost: kibitz\r\nX-Big: " + b"a" * 390_000 + b"\r\n\r\n"
)
print(f"one 390 KB header -> {status}")
if " 200 " in status + " ":
    failures.append("a 390 KB header was accepted")

for name, sent in [("10 KB", "a" * 10_000), ("with spaces and quotes", 'evil" id=forged level=error')]:
    status, headers = exchange(
        f"GET /healthz HTTP/1.1\r\nHost: kibitz\r\nX-Request-Id: {sent}\r\nConnection: close\r\n\r\n".encode()
    )
    echoed = headers.get("x-request-id", "")
    print(f"X-Request-Id {name} -> {status}, echoed back: {len(echoed)} bytes"
          f"{' (the same)' if echoed == sent else ''}")
    if echoed == sent:
        failures.append(f"an X-Request-Id {name} was echoed verbatim")

if failures and not args.report_only:
    sys.exit("FAIL: " + "; ".join(failures))
print("ok" if not failures else "(report only)")
