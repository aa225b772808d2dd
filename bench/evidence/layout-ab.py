#!/usr/bin/env python3
"""A/B of RTCOMPARE_LAYOUT (fixed against random) on pairs of the detection fixture.

    bench/evidence/layout-ab.py [--runs N] [--first SEED] [--time 1s] [--k 0]
                                [--workloads alloc_10us/p01,memwalk_10us/p01] [--out DIR]

Builds bench/detection-fixture's test binary, then for each seed runs every workload once with
each layout, in a fresh process each, the two layouts' order alternating from seed to seed (so a
disturbance of the machine hits both alike); confirmation off, DETECTION_K=k (0: identical code).
Prints one line per run and, per workload and layout, the A/A floor (`verdict.floor`) and the
spread of the difference d over processes, then the paired comparison of the floors. Needs
cargo and python3; writes the results files and rows.json into DIR.
"""
import argparse, json, math, os, statistics, subprocess, sys, time

import fixture

parser = argparse.ArgumentParser()
parser.add_argument('--runs', type=int, default=20)
parser.add_argument('--first', type=int, default=1)
parser.add_argument('--time', default='1s')
parser.add_argument('--k', default='0')
parser.add_argument('--workloads', default='alloc_10us/p01,memwalk_10us/p01,hashmap_10us/p01,cpu_10us/p01')
parser.add_argument('--out', default='/tmp/rtcompare-layout-ab')
args = parser.parse_args()
workloads = args.workloads.split(',')
os.makedirs(args.out, exist_ok=True)

commit = fixture.commit()
binary = fixture.build_fixture()
print(f'commit {commit}, fixture {binary}, k = {args.k}, {args.time} per run', flush=True)


def load():
    with open('/proc/loadavg') as f:
        return float(f.read().split()[0])


rows = []
for i in range(args.first, args.first + args.runs):
    modes = ['fixed', 'random'] if i % 2 else ['random', 'fixed']
    for w in workloads:
        for mode in modes:
            results = os.path.join(args.out, f'{w.replace("/", "_")}-{mode}-{i}.json')
            env = {k: v for k, v in os.environ.items() if not k.startswith('RTCOMPARE_')}
            env.update(DETECTION_K=args.k, RTCOMPARE_CONFIRM='0', RTCOMPARE_SEED=str(i), RTCOMPARE_TIME=args.time,
                       RTCOMPARE_LAYOUT=mode, RTCOMPARE_RESULTS=results, NO_COLOR='1')
            started = time.time()
            subprocess.run([binary, f'detection/{w}', '--exact'], env=env, capture_output=True, text=True)
            wall = time.time() - started
            with open(results) as f:
                c = json.load(f)['comparisons'][0]
            # Schema 2 keeps the first round under `first`; schema 1 beside the verdict.
            first = c.get('first') or c
            v = first['validation']
            summaries = {arm: first[f'{arm}_summary'] for arm in ('candidate', 'baseline')} if 'first' in c \
                else c['summaries']
            r = dict(run=i, workload=w, mode=mode, d=first['estimate']['difference'], floor=c['verdict']['floor'],
                     aa_c=v['candidate']['apparent_difference'], aa_b=v['baseline']['apparent_difference'],
                     outcome=c['verdict']['outcome'], rounds=summaries['candidate']['count'], wall=wall,
                     load=load(), median=summaries['baseline']['median'])
            rows.append(r)
            print(f"{i:3} {w:18} {mode:6} d {r['d'] * 100:+.2f} % floor {r['floor'] * 100:.2f} % "
                  f"aa {r['aa_c'] * 100:+.2f}/{r['aa_b'] * 100:+.2f} % {r['outcome']:7} rounds {r['rounds']} "
                  f"median {r['median']:.0f} ns wall {wall:.2f} s load {r['load']:.2f}", flush=True)
with open(os.path.join(args.out, 'rows.json'), 'w') as f:
    json.dump(rows, f)


def quantile(xs, p):
    xs = sorted(xs)
    i = p * (len(xs) - 1)
    lo = int(i)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


print('\n| workload | layout | runs | A/A floor: median | mean | 90th pct | max | floor > 1 % | '
      'd over processes: SD | IQR | range | losses | load |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for w in workloads:
    for mode in ['fixed', 'random']:
        s = [r for r in rows if r['workload'] == w and r['mode'] == mode]
        ds = [r['d'] * 100 for r in s]
        fl = [r['floor'] * 100 for r in s]
        loads = [r['load'] for r in s]
        sd = statistics.stdev(ds) if len(ds) > 1 else 0.0
        print(f"| {w} | {mode} | {len(s)} | {statistics.median(fl):.2f} % | {statistics.mean(fl):.2f} % | "
              f"{quantile(fl, 0.9):.2f} % | {max(fl):.2f} % | {sum(x > 1 for x in fl)} | {sd:.2f} pp | "
              f"{quantile(ds, 0.75) - quantile(ds, 0.25):.2f} pp | {min(ds):+.2f} to {max(ds):+.2f} % | "
              f"{sum(r['outcome'] == 'loss' for r in s)} | {min(loads):.1f}–{max(loads):.1f} |")

print('\n| workload | pairs | random floor lower | sign test p | median paired change of the floor |')
print('| --- | --- | --- | --- | --- |')
for w in workloads:
    by = {}
    for r in rows:
        if r['workload'] == w:
            by.setdefault(r['run'], {})[r['mode']] = r
    diffs = [(v['random']['floor'] - v['fixed']['floor']) * 100 for v in by.values() if len(v) == 2]
    n, lower = len(diffs), sum(x < 0 for x in diffs)
    tail = min(lower, n - lower)
    p = min(1.0, 2 * sum(math.comb(n, j) for j in range(tail + 1)) / 2 ** n)
    print(f'| {w} | {n} | {lower}/{n} | {p:.2f} | {statistics.median(diffs):+.2f} pp |')
