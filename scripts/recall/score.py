#!/usr/bin/env python3
"""score.py WORKDIR PAIRS VERDICTS BINHASH: recall of goadvise's default output on the
maintainers' fixes of the pairs, from ../shared/recall's results in WORKDIR.

Two ground truths: every function ../shared/recall calls fixed (its heap allocations dropped
and its body changed), and the ones read as real fixes in VERDICTS (a TSV: module, A, B, key,
verdict, kind, note; verdict real, artefact or unsure), leaving out refactoring artefacts
(allocations moved to another function, values that never allocated, a log line or a feature
removed). For each, it prints goadvise's recall by default and the naive baseline's
(naive.py: A's functions ranked by their number of -m allocations, the top 3 per 1,000
lines), and the default findings per 1,000 lines."""
import collections, csv, glob, json, os, re, sys

work, pairs_file, verdicts_file, binhash = sys.argv[1:5]
safe = lambda s: re.sub(r'[^A-Za-z0-9._@-]+', '_', s)
verdict = {}
with open(verdicts_file) as fp:
    for row in csv.DictReader(fp, delimiter='\t'):
        verdict[(row['module'], row['A'], row['B'], row['key'])] = row['verdict']
pairs = []
for raw in open(pairs_file):
    raw = raw.split('#', 1)[0].strip()
    if raw:
        parts = raw.split()
        pairs.append((parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else './...'))
T = collections.Counter()
print('%-52s %5s %5s | %-11s %-11s | %-11s %-11s | %s' % ('pair', 'fixed', 'real', 'ga all', 'naive all', 'ga real', 'naive real', 'default/kLOC'))
for mod, a, b, pat in pairs:
    out = os.path.join(work, 'out', safe('%s@%s..%s@%s' % (mod, a, b, pat)) + '.json')
    if not os.path.exists(out):
        print('%s %s->%s: no result (run ../shared/recall/run.sh first)' % (mod, a, b))
        continue
    d = json.load(open(out))
    ga = os.path.join(work, 'ga', binhash, '%s@%s@%s.default.json' % (safe(mod), a, safe(pat)))
    if not os.path.exists(ga):
        print('%s %s->%s: no goadvise result for %s' % (mod, a, b, binhash))
        continue
    m = json.load(open(glob.glob(os.path.join(work, 'm', '%s@%s@%s.json' % (safe(mod), a, safe(pat))))[0]))
    rep = json.load(open(ga))
    files = m['files']
    def key_of(path, line):
        rel = os.path.relpath(path, m['dir'])
        for s, e, k in files.get(rel, {}).get('start_end', []):
            if s <= line <= e:
                return k
        return None
    flagged = {key_of(f['file'], f['line']) for f in rep.get('findings') or []}
    cnt = {k: len(v) for k, v in m['allocs'].items() if not m['funcs'].get(k, {}).get('excluded')}
    naive = set(sorted(cnt, key=lambda k: -cnt[k])[:max(1, int(3 * d['loc_A'] / 1000))])
    fixed = [x['key'] for x in d['fixed_functions']]
    real = [k for k in fixed if verdict.get((mod, a, b, k)) == 'real']
    unread = [k for k in fixed if (mod, a, b, k) not in verdict]
    n = len(rep.get('findings') or [])
    kloc = d['loc_A'] / 1000
    row = lambda ks, s: '%d/%d' % (sum(1 for k in ks if k in s), len(ks))
    print('%-52s %5d %5d | %-11s %-11s | %-11s %-11s | %.2f%s' % (
        '%s %s->%s' % (mod, a, b), len(fixed), len(real), row(fixed, flagged), row(fixed, naive),
        row(real, flagged), row(real, naive), n / kloc, ' (%d not read)' % len(unread) if unread else ''))
    T['fixed'] += len(fixed); T['real'] += len(real)
    T['ga_all'] += sum(1 for k in fixed if k in flagged); T['naive_all'] += sum(1 for k in fixed if k in naive)
    T['ga_real'] += sum(1 for k in real if k in flagged); T['naive_real'] += sum(1 for k in real if k in naive)
    T['max_density'] = max(T['max_density'], n / kloc)
pct = lambda x, n: '%d/%d (%.0f%%)' % (x, n, 100.0 * x / n) if n else '-'
print('all fixed functions: goadvise %s, naive %s' % (pct(T['ga_all'], T['fixed']), pct(T['naive_all'], T['fixed'])))
print('real fixes:          goadvise %s, naive %s' % (pct(T['ga_real'], T['real']), pct(T['naive_real'], T['real'])))
print('largest default density: %.2f findings per 1,000 lines' % T['max_density'])
