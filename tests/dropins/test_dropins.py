#!/usr/bin/env python3
"""The drop-ins, exercised by the clients that already exist.

- lichess: berserk (PyPI, the Python lichess client) pointed at kibitz's
  base URL; `analysis.get_cloud_evaluation` must return Stockfish's lines
  in lichess's shape, and a variant kibitz does not play must be refused.
- connect4.gamesolver.org: `GET /solve?pos=` asked exactly as the
  frontends found in public code ask it (a browser-like GET, the JSON read
  for `score`, 100 for a full column).

Usage: tests/dropins/test_dropins.py http://127.0.0.1:PORT
Needs berserk (pip install 'berserk>=0.14,<0.15') and requests.
"""
import json
import sys
import urllib.request

import berserk
import requests

base = sys.argv[1].rstrip("/")
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


# lichess's client, unchanged but for its base URL.
client = berserk.Client(session=requests.Session(), base_url=base)
start_after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
evaluation = client.analysis.get_cloud_evaluation(start_after_e4, num_variations=2)
check(evaluation["fen"].startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"), f"berserk: fen {evaluation['fen']}")
check(evaluation["depth"] > 0 and evaluation["knodes"] >= 0, "berserk: depth and knodes")
pvs = evaluation["pvs"]
check(len(pvs) == 2, f"berserk: two lines asked, {len(pvs)} answered")
for pv in pvs:
    first = pv["moves"].split(" ")[0]
    check(len(first) in (4, 5) and ("cp" in pv or "mate" in pv), f"berserk: line {pv}")
mate_in_one = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
mate = client.analysis.get_cloud_evaluation(mate_in_one)
check(mate["pvs"][0].get("mate") == 1 and mate["pvs"][0]["moves"].startswith("d1d8"), f"berserk: mate in one {mate['pvs'][0]}")
try:
    client.analysis.get_cloud_evaluation(start_after_e4, variant="atomic")
    check(False, "berserk: atomic was answered")
except berserk.exceptions.ResponseError as error:
    check(error.status_code == 422, f"berserk: atomic refused with {error.status_code}")

# connect4.gamesolver.org's frontends: a GET with browser headers, score read.
headers = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0",
}
start = requests.get(f"{base}/solve?pos=", headers=headers).json()
# Pons' solver (blog.gamesolver.org): from the empty grid the centre wins
# with the first player's last stone, its neighbours draw.
check(start == {"pos": "", "score": [-2, -1, 0, 1, 0, -1, -2]}, f"gamesolver: empty grid {start}")
full = requests.get(f"{base}/solve?pos=444444", headers=headers).json()
check(len(full["score"]) == 7 and full["score"][3] == 100, f"gamesolver: full column {full}")
playable = [s for s in full["score"] if s != 100]
check(all(-21 <= s <= 21 for s in playable), f"gamesolver: scores in range {full}")
with urllib.request.urlopen(f"{base}/solve?pos=4453") as response:
    check(response.headers["Content-Type"].startswith("application/json"), "gamesolver: JSON")
    body = json.load(response)
check(body["pos"] == "4453" and len(body["score"]) == 7, f"gamesolver: 4453 {body}")
bad = requests.get(f"{base}/solve?pos=48", headers=headers)
check(bad.status_code == 422, f"gamesolver: column 8 answered {bad.status_code}")

if failures:
    print(f"{len(failures)} drop-in checks failed")
    sys.exit(1)
print("every drop-in check passed")
