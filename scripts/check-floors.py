#!/usr/bin/env python3
"""Keep kibitz's top-level modules free of import circles ("floors").

Each top-level module (src/X.rs or src/X/) is a node, and so is each game
folder src/games/<game>/ ("games::<game>"): a game is a unit of its own.
A file's `crate::...` paths are edges from its node to the nodes they name.
A strongly connected component of several nodes is a circle: none of its
modules can be built, tested or reasoned about without all the others.
Prints each circle with evidence; exits 1 if there is one, else 0.
"""
import argparse
import bisect
import re
import sys
from collections import defaultdict
from pathlib import Path

RAW_STRING = re.compile(r'b?r(#*)"')
CHAR_LITERAL = re.compile(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]*\}|.)|[^\\'\n])'")
CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
ATTRIBUTE = re.compile(r"\s*#\s*\[[^\]]*\]")
USE = re.compile(r"\buse\b")
USE_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[{},*]")
CRATE_PATH = re.compile(r"\bcrate\s*::\s*(\w+)(?:\s*::\s*(\w+))?")


def blank(out, start, end):
    # Spaces, not deletion: every offset and line number stays valid.
    for k in range(start, min(end, len(out))):
        if out[k] != "\n":
            out[k] = " "


def strip_noise(src):
    """The source with comments, strings and char literals blanked out."""
    out, i, n = list(src), 0, len(src)
    while i < n:
        # r"..." starts a raw string only where no identifier runs into it.
        raw = not re.match(r"\w", src[i - 1:i]) and RAW_STRING.match(src, i)
        if src.startswith("//", i):
            j = n if src.find("\n", i) < 0 else src.find("\n", i)
        elif src.startswith("/*", i):
            depth, j = 1, i + 2  # Rust block comments nest
            while j < n and depth:
                step = 2 if src.startswith(("/*", "*/"), j) else 1
                depth += (src.startswith("/*", j)) - (src.startswith("*/", j))
                j += step
        elif raw:
            end = src.find('"' + raw.group(1), raw.end())
            j = n if end < 0 else end + 1 + len(raw.group(1))
        elif src[i] == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
        elif src[i] == "'" and (char := CHAR_LITERAL.match(src, i)):
            j = char.end()  # a char literal, not a lifetime like 'a
        else:
            i += 1
            continue
        blank(out, i, j)
        i = j
    return "".join(out)


def item_end(code, i):
    """Where the item starting at i ends: after its {...} body, after its `;`,
    or before the `}` that closes whatever holds it (e.g. a struct field)."""
    depth = braces = 0
    while i < len(code):
        c = code[i]
        depth += (c in "([") - (c in ")]")
        braces += (c == "{") - (c == "}")
        if braces < 0 or (depth == braces == 0 and c == ";"):
            return i + (c == ";")
        if braces == 0 and c == "}":
            return i + 1
        i += 1
    return i


def strip_tests(code):
    """Blank every #[cfg(test)] item (mostly `mod tests { ... }`): a test may
    reach anywhere without making the modules depend on each other."""
    out = list(code)
    for m in CFG_TEST.finditer(code):
        start = m.end()
        while attr := ATTRIBUTE.match(code, start):  # e.g. a following #[allow]
            start = attr.end()
        blank(out, m.start(), item_end(code, start))
    return "".join(out)


def use_paths(code, start):
    """Flatten the use tree at `start` (just after `use`) into full paths, so
    `crate::{a, b::{c, d}}` gives crate::a, crate::b::c and crate::b::d.
    Each path is a list of (segment, offset); also returns the `;`'s offset."""
    end = code.find(";", start)
    end = len(code) if end < 0 else end
    stack, current, paths, alias = [[]], [], [], False
    for tok in USE_TOKEN.finditer(code, start, end):
        t = tok.group()
        if t == "as":
            alias = True
        elif alias:
            alias = False  # the new local name refers to nothing
        elif t == "{":
            stack.append(stack[-1] + current)
            current = []
        elif t in ",}":
            if current:
                paths.append(stack[-1] + current)
            current = []
            if t == "}" and len(stack) > 1:
                stack.pop()
        else:
            current.append((t, tok.start()))
    if current:
        paths.append(stack[-1] + current)
    return paths, end


def node_of_file(rel):
    parts = rel.parts
    if parts[0] == "games" and len(parts) > 1 and parts[1] != "mod.rs":
        return "games::" + parts[1].removesuffix(".rs")
    return parts[0].removesuffix(".rs")


def node_of_path(first, second, nodes):
    """The node `crate::first::second` lies in, or None if it is no module."""
    if first == "games" and second and "games::" + second in nodes:
        return "games::" + second
    return first if first in nodes else None


def scan(src_dir):
    # A game's tests/ folder belongs to the integration-test binary, not
    # to the crate (build.rs lists it there).
    files = sorted(p for p in src_dir.rglob("*.rs")
                   if p.relative_to(src_dir).parts not in (("lib.rs",), ("main.rs",))
                   and "tests" not in p.relative_to(src_dir).parts[:-1])
    nodes = {node_of_file(p.relative_to(src_dir)) for p in files}
    edges = defaultdict(list)  # (from, to) -> [(file, line)], one per reference
    for path in files:
        here = node_of_file(path.relative_to(src_dir))
        code = strip_tests(strip_noise(path.read_text(encoding="utf-8")))
        line_starts = [0] + [m.end() for m in re.finditer("\n", code)]
        refs, rest = [], list(code)  # refs: (offset, first segment, second)
        for m in USE.finditer(code):
            paths, end = use_paths(code, m.end())
            refs += [(p[1][1], p[1][0], p[2][0] if len(p) > 2 else None)
                     for p in paths if len(p) > 1 and p[0][0] == "crate"]
            blank(rest, m.start(), end)  # so CRATE_PATH doesn't count it twice
        refs += [(m.start(), m.group(1), m.group(2))
                 for m in CRATE_PATH.finditer("".join(rest))]
        for offset, first, second in refs:
            there = node_of_path(first, second, nodes)
            if there and there != here:
                edges[here, there].append((path, bisect.bisect_right(line_starts, offset)))
    return nodes, edges


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative so no graph can hit the recursion limit."""
    adj = defaultdict(list)
    for a, b in sorted(edges):
        adj[a].append(b)
    index, low, on_stack, stack, work, comps = {}, {}, set(), [], [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        work.append((v, iter(adj[v])))

    for root in sorted(nodes):
        if root not in index:
            visit(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    visit(w)
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:  # all of v's children done: v is finished
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while not comp or comp[-1] != v:
                        comp.append(stack.pop())
                        on_stack.discard(comp[-1])
                    comps.append(sorted(comp))
    return comps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    parser.add_argument("--dot", action="store_true", help="print the graph as Graphviz dot")
    args = parser.parse_args()
    nodes, edges = scan(args.src)
    circles = [c for c in strongly_connected(nodes, edges) if len(c) > 1]
    in_circle = {(a, b) for c in circles for a in c for b in c if (a, b) in edges}
    report = sys.stderr if args.dot else sys.stdout  # --dot's graph owns stdout
    if args.dot:
        print("digraph floors {\n  rankdir=BT;")
        print("  " + " ".join(f'"{n}";' for n in sorted(nodes)))
        for (a, b), refs in sorted(edges.items()):
            style = " [color=red, penwidth=2]" if (a, b) in in_circle else ""
            print(f'  "{a}" -> "{b}"{style};  // {len(refs)} references')
        print("}")
    for number, comp in enumerate(circles, 1):
        print(f"circle {number}: {len(comp)} modules: {', '.join(comp)}", file=report)
        for a, b in sorted(e for e in in_circle if e[0] in comp):
            path, line = edges[a, b][0]
            where = Path(args.src.name, path.relative_to(args.src))
            print(f"  {a} -> {b}   {where}:{line}  ({len(edges[a, b])} references)", file=report)
    print(f"floors: {len(nodes)} top-level modules, {len(edges)} edges, "
          f"{len(circles)} circles between them", file=report)
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
