#!/usr/bin/env python3
"""bench.py WORKDIR PAIRS VERDICTS BENCHES GOADVISE: are the maintainers' fixes that the module's
own benchmarks run in the top 10 of their package when goadvise ranks by those benchmarks?

For each real fix of VERDICTS (scripts/recall/verdicts-dev.tsv) in a pair of PAIRS, it runs, in
release A's source (WORKDIR/src, from ../shared/recall), `goadvise check -bench REGEXP -json` on
the fixed function's package, REGEXP from BENCHES (a line `module A package-dir regexp`; `.` when
a pair has no line), once by default and once with -cold -heapescape.all. A fixed function is
"run" when the profile of the benchmarks charges it (a finding in it with a CPU share or
allocations per op), and its fixed allocation is run when the benchmarks allocate at a line
the maintainers' fix removed; each rank is that of the first default finding in the function
or at such a line among the package's findings. Benchmarks that need a server (Postgres, Redis) fail and are skipped by
goadvise, so some fixes are not run by any benchmark that can run here: they are listed as
such, not counted."""
import collections, csv, glob, json, os, re, subprocess, sys

work, pairs_file, verdicts_file, benches_file, binary = sys.argv[1:6]
safe = lambda s: re.sub(r'[^A-Za-z0-9._@-]+', '_', s)
env = dict(os.environ, GOFLAGS='-mod=mod', GOTOOLCHAIN='local')

real = collections.defaultdict(list)
with open(verdicts_file) as fp:
    for row in csv.DictReader(fp, delimiter='\t'):
        if row['verdict'] == 'real':
            real[(row['module'], row['A'], row['B'])].append(row['key'])
benches = {}
for raw in open(benches_file):
    raw = raw.split('#', 1)[0].strip()
    if raw:
        mod, a, pkg, rx = raw.split()
        benches[(mod, a, pkg)] = rx

runs = {}
def check(dir_, pkg, rx, extra):
    key = (dir_, pkg, rx, tuple(extra))
    if key not in runs:
        cmd = [binary, 'check', '-bench', rx, '-bench-budget', '15m', '-json'] + extra + ['./' + pkg if pkg != '.' else '.']
        p = subprocess.run(cmd, cwd=dir_, env=env, capture_output=True, text=True)
        try:
            runs[key] = json.loads(p.stdout).get('findings') or []
        except ValueError:
            sys.exit('bench.py: %s in %s: %s' % (' '.join(cmd), dir_, p.stderr.strip().splitlines()[-1:]))
    return runs[key]

T = collections.Counter()
print('%-40s %-44s %-5s %-14s %-12s %s' % ('pair', 'fixed function', 'run', 'fixed line', 'its rank', 'function rank'))
for raw in open(pairs_file):
    raw = raw.split('#', 1)[0].strip()
    if not raw:
        continue
    parts = raw.split()
    mod, a, b = parts[:3]
    pat = parts[3] if len(parts) > 3 else './...'
    keys = real.get((mod, a, b))
    if not keys:
        continue
    out = json.load(open(os.path.join(work, 'out', safe('%s@%s..%s@%s' % (mod, a, b, pat)) + '.json')))
    m = json.load(open(glob.glob(os.path.join(work, 'm', '%s@%s@%s.json' % (safe(mod), a, safe(pat))))[0]))
    fixed = {x['key']: x for x in out['fixed_functions']}
    seen = set()
    for key in keys:
        if key in seen or key not in fixed:
            continue
        seen.add(key)
        fx = fixed[key]
        pkg = os.path.dirname(fx['file_A']) or '.'
        rx = benches.get((mod, a, pkg), '.')
        path = os.path.realpath(os.path.join(m['dir'], fx['file_A']))
        lo, hi = fx['lines_A']
        removed = set()
        for r in fx['removed_A_lines']:
            f, ln = r.split(':')[:2]
            removed.add((os.path.realpath(os.path.join(m['dir'], f)), int(ln)))
        inside = lambda f: os.path.realpath(f['file']) == path and lo <= f['line'] <= hi
        at_fix = lambda f: (os.path.realpath(f['file']), f['line']) in removed
        every = check(m['dir'], pkg, rx, ['-cold', '-heapescape.all', '-redundantbranch.all'])
        # The function ran: the profile charges it CPU or allocations.
        ran = any(inside(f) and ((f.get('hot') or {}).get('func_cum', 0) > 0 or f.get('benchmarks')) for f in every)
        # The fixed line ran: the benchmarks allocated there.
        per_op = max([b['allocs_per_op'] for f in every if at_fix(f) for b in f.get('benchmarks') or []] or [0])
        default = check(m['dir'], pkg, rx, [])
        def rank(pred):
            mine = [f for f in default if pred(f)]
            if not mine:
                return None
            same = [f for f in default if f['package'] == mine[0]['package']]
            return '#%d of %d' % (same.index(mine[0]) + 1, len(same)), same.index(mine[0]) + 1
        fr, lr = rank(inside), rank(at_fix)
        if ran:
            T['run'] += 1
            T['fn_top10'] += bool(fr and fr[1] <= 10)
        if per_op > 0:
            T['line_run'] += 1
            T['line_top10'] += bool(lr and lr[1] <= 10)
        print('%-40s %-44s %-5s %-14s %-12s %s' % ('%s %s' % (mod, a), key[:44], 'yes' if ran else 'no',
                                                 '%.2f allocs/op' % per_op if per_op else 'not run',
                                                 lr[0] if lr else '-', fr[0] if fr else '-'))
print('fixed functions the benchmarks run: %d, in the top 10 of their package: %d' % (T['run'], T['fn_top10']))
print('fixed allocations the benchmarks run: %d, in the top 10 of their package: %d' % (T['line_run'], T['line_top10']))
