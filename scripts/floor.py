#!/usr/bin/env python3
"""Compares the performance linters' reports with goadvise's findings.

The linters teams already run (perfsprint, prealloc, staticcheck's SA6xxx
checks, gocritic's performance checks; see scripts/linters.sh) are the
floor of what goadvise must report. A linter's report is matched when a
goadvise finding of `goadvise check -all -cold -format json` that is not
in cold code is on the same line of the same file, or lists that line among
its Related locations (the findings it folded in). An unmatched report on a
line where goadvise has only cold findings is counted as cold: goadvise
hides it by default, on purpose.

usage: scripts/floor.py MODULE_DIR [PATTERN...]
         runs scripts/linters.sh and goadvise ($GOADVISE, else goadvise on
         PATH) on the module
       scripts/floor.py --linters L.json --goadvise G.json [--name NAME]
         compares saved outputs (the linters' golangci-lint JSON, goadvise's
         JSON)
       scripts/floor.py --sum FIGURES.json...
         sums the figures that --json wrote for several modules
options: --json FILE  also write the figures as JSON (for summing modules)
         -q           print the figures only, not each unmatched report
"""

import json
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))


def usage(msg):
    sys.stderr.write("floor.py: %s\n%s" % (msg, __doc__))
    sys.exit(2)


def load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write("floor.py: %s: cannot read %s: %s\n" % (path, what, e))
        sys.exit(1)


def run_tools(mod, patterns):
    """Runs both tools on the module and returns their parsed outputs."""
    # Both tools get the same patterns: goadvise with none checks only the
    # package in the directory, where linters.sh defaults to ./... .
    patterns = patterns or ["./..."]
    out = subprocess.run([os.path.join(HERE, "linters.sh"), mod] + patterns,
                         stdout=subprocess.PIPE, check=False)
    if out.returncode != 0:
        sys.stderr.write("floor.py: scripts/linters.sh failed on %s\n" % mod)
        sys.exit(1)
    lint = json.loads(out.stdout or b"{}")
    goadvise = os.environ.get("GOADVISE", "goadvise")
    out = subprocess.run([goadvise, "check", "-all", "-cold", "-format", "json"] + patterns,
                         cwd=mod, stdout=subprocess.PIPE, check=False)
    if out.returncode not in (0, 3):
        sys.stderr.write("floor.py: goadvise check failed on %s (status %d)\n" % (mod, out.returncode))
        sys.exit(1)
    return lint, json.loads(out.stdout)


def linter_of(issue):
    """Names the linter of a golangci-lint issue, gocritic and staticcheck
    with their check ("gocritic:hugeParam", "staticcheck:SA6002")."""
    name = issue.get("FromLinter", "?")
    text = issue.get("Text", "")
    if name in ("gocritic", "staticcheck", "perfsprint") and ":" in text:
        return name, name + ":" + text.split(":", 1)[0].strip()
    return name, name


def compare(lint, ga, root):
    """Returns {linter: figures} and the unmatched reports."""
    hot, cold = set(), set()
    for f in ga.get("findings") or []:
        places = [(f["file"], f["line"])] + [(r["file"], r["line"]) for r in f.get("related") or []]
        for p in places:
            (cold if f.get("tier") == "cold" else hot).add((os.path.realpath(p[0]), p[1]))
    figures = defaultdict(lambda: {"reports": 0, "matched": 0, "unmatched": 0, "cold": 0})
    unmatched = []
    for issue in lint.get("Issues") or []:
        pos = issue.get("Pos", {})
        path = pos.get("Filename", "")
        if not os.path.isabs(path):
            path = os.path.join(root, path)
        key = (os.path.realpath(path), pos.get("Line", 0))
        name, check = linter_of(issue)
        for n in {name, check}:
            figures[n]["reports"] += 1
        if key in hot:
            state = "matched"
        elif key in cold:
            state = "cold"
        else:
            state = "unmatched"
        for n in {name, check}:
            figures[n][state if state != "cold" else "unmatched"] += 1
            if state == "cold":
                figures[n]["cold"] += 1
        if state != "matched":
            rel = os.path.relpath(key[0], root)
            unmatched.append((check, "%s:%d" % (rel, key[1]), state, issue.get("Text", "")))
    return figures, unmatched


def print_figures(title, figures):
    print("%s: per linter, matched/reports (unmatched, of which in cold code)" % title)
    for n in sorted(figures, key=lambda n: (n.split(":")[0], ":" in n, n)):
        f = figures[n]
        indent = "    " if ":" in n else "  "
        print("%s%-34s %4d/%-4d (%d unmatched, %d cold)" % (indent, n, f["matched"], f["reports"], f["unmatched"], f["cold"]))


def sum_figures(paths):
    total = defaultdict(lambda: {"reports": 0, "matched": 0, "unmatched": 0, "cold": 0})
    for p in paths:
        for n, f in load_json(p, "figures").get("figures", {}).items():
            for k in total[n]:
                total[n][k] += f.get(k, 0)
    print_figures("%d modules" % len(paths), total)


def main(argv):
    if argv[:1] == ["--sum"]:
        if len(argv) < 2:
            usage("--sum needs figure files")
        sum_figures(argv[1:])
        return
    args = {"--linters": None, "--goadvise": None, "--name": None, "--json": None}
    quiet = False
    rest = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in args:
            if i + 1 >= len(argv):
                usage(a + " needs a value")
            args[a] = argv[i + 1]
            i += 2
            continue
        if a == "-q":
            quiet = True
        elif a.startswith("-"):
            usage("unknown option " + a)
        else:
            rest.append(a)
        i += 1
    if args["--linters"] or args["--goadvise"]:
        if not (args["--linters"] and args["--goadvise"]):
            usage("--linters and --goadvise go together")
        lint = load_json(args["--linters"], "golangci-lint JSON")
        ga = load_json(args["--goadvise"], "goadvise JSON")
        root = os.path.realpath(rest[0]) if rest else os.getcwd()
    else:
        if not rest or not os.path.isfile(os.path.join(rest[0], "go.mod")):
            usage("MODULE_DIR must hold a go.mod")
        root = os.path.realpath(rest[0])
        lint, ga = run_tools(root, rest[1:])
    name = args["--name"] or os.path.basename(root)
    figures, unmatched = compare(lint, ga, root)
    print_figures(name, figures)
    if not quiet and unmatched:
        print("unmatched:")
        for check, where, state, text in sorted(unmatched):
            print("  %-28s %s%s: %s" % (check, where, " (cold)" if state == "cold" else "", text))
    if args["--json"]:
        with open(args["--json"], "w") as f:
            json.dump({"module": name, "figures": figures,
                       "unmatched": [{"check": c, "at": w, "cold": s == "cold", "text": t} for c, w, s, t in unmatched]},
                      f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
