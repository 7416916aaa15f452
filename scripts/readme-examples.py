#!/usr/bin/env python3
"""Runs every example of README.md against a server and compares.

An example is a `$ curl ...` line inside a fenced block; the lines after it,
up to the next `$ ` line or the end of the block, are the output it shows.
The comparison is chosen by an HTML comment on the line before the block:

- none: the JSON answers are equal, but for what no two runs share
  (`nodes`, `knodes`, `depth`, ids, tokens, times);
- `<!-- examples: shape -->`: the same keys, recursively (answers that
  depend on dice or on an engine's timing);
- `<!-- examples: stream -->`: NDJSON lines, `final` false on all but the
  last (the lines shown are cut short);
- `<!-- examples: skip REASON -->`: not run (another server configuration).

A match's id and token in an answer stand for the real ones in the later
commands. `--update` writes the real answers of the exact examples back
into README.md.

Usage: scripts/readme-examples.py http://127.0.0.1:PORT [--update] [README]
"""
import json
import re
import subprocess
import sys

VOLATILE = {"nodes", "knodes", "depth", "created_at", "updated_at", "at", "id", "token", "location"}

args = [a for a in sys.argv[1:] if not a.startswith("--")]
update = "--update" in sys.argv
base = args[0].rstrip("/")
readme_path = args[1] if len(args) > 1 else "README.md"
host = re.sub(r"^https?://", "", base)
lines = open(readme_path, encoding="utf-8").read().split("\n")


def examples():
    """(mode, command line index, [output line indices]) for every example."""
    in_block, mode, found = False, "exact", []
    current = None
    for i, line in enumerate(lines):
        if line.startswith("```"):
            if in_block and current:
                found.append(current)
            current = None
            if not in_block:
                previous = lines[i - 1] if i > 0 else ""
                marker = re.match(r"<!-- examples: (\w+)", previous)
                mode = marker.group(1) if marker else "exact"
            in_block = not in_block
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            if current:
                found.append(current)
            current = (mode, i, []) if line.startswith("$ curl") else None
        elif current and line.strip():
            current[2].append(i)
    return found


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def shape(value):
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__ if value is not None else "null"


def same_shape(expected, real):
    """Every key shown is in the real answer, recursively."""
    if isinstance(expected, dict):
        return isinstance(real, dict) and all(k in real and same_shape(v, real[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(real, list) and (not expected or not real or same_shape(expected[0], real[0]))
    return True


def json_lines(text):
    found = []
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                found.append(None)
    return found


substitutions = {}
failures = 0
checked = 0
for mode, at, outputs in examples():
    command = lines[at][2:]
    if mode == "skip":
        print(f"skip  line {at + 1}: {command[:80]}")
        continue
    for shown, real in substitutions.items():
        command = command.replace(shown, real)
    command = command.replace("localhost:8080", host)
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    expected_text = "\n".join(lines[i] for i in outputs)
    real_text = result.stdout.strip()
    checked += 1
    if mode == "stream":
        got = json_lines(real_text)
        ok = bool(got) and all(g is not None for g in got) and got[-1].get("final") is True
        ok = ok and all(g.get("final") is False for g in got[:-1])
    else:
        expected = json_lines(expected_text)
        got = json_lines(real_text)
        if len(expected) != len(got) or None in expected or None in got:
            ok = False
        elif mode == "shape":
            ok = all(same_shape(e, g) for e, g in zip(expected, got))
        else:
            ok = [strip(e) for e in expected] == [strip(g) for g in got]
        for e, g in zip(expected, got):
            if isinstance(e, dict) and isinstance(g, dict):
                for key in ("id", "token"):
                    if isinstance(e.get(key), str) and isinstance(g.get(key), str):
                        substitutions[e[key]] = g[key]
        if not ok and update and mode == "exact" and got and None not in got:
            # The real answers replace the shown ones, header lines kept.
            json_at = [i for i in outputs if lines[i].strip().startswith("{")]
            for i, g in zip(json_at, got):
                lines[i] = json.dumps(g, separators=(",", ":"), ensure_ascii=False)
            ok = True
            print(f"updated line {at + 1}")
    print(f"{'ok  ' if ok else 'FAIL'}  line {at + 1}: {command[:100]}")
    if not ok:
        failures += 1
        print(f"      shown: {expected_text[:400]}")
        print(f"      real:  {real_text[:400]}")

if update:
    open(readme_path, "w", encoding="utf-8").write("\n".join(lines))
print(f"{checked} README examples run, {failures} differ")
sys.exit(1 if failures else 0)
