#!/usr/bin/env python3
"""How far one fresh process's own value wanders from process to process: the median of its
rounds' log ratios (what a confirmation tests) against their 20 % trimmed mean (what it tested
before), on the same rounds.

    bench/evidence/process_spread.py [--runs 20] [--first SEED] [--time 125ms] [--k 2]
                                     [--workloads alloc_10us/p01,...] [--out DIR]

Builds bench/detection-fixture's test binary and runs each workload once per seed in a process
of its own, confirmation off, DETECTION_K=k, for --time (125 ms is what a fresh process of a
confirmation gets at the default budget). From each process's per-round log ratios
log(c_i / b_i) it takes the median and the 20 % trimmed mean, turns each into a difference
d = 1 - exp(value), and prints, per workload, the mean and the standard deviation of each across
processes, in percentage points. The test across processes sees this spread: the narrower one
confirms a difference a point beyond the tolerance on fewer processes. Needs cargo and python3;
writes the results files and rows.json into DIR.
"""
import argparse, json, math, os, statistics, subprocess

import fixture

parser = argparse.ArgumentParser()
parser.add_argument('--runs', type=int, default=20)
parser.add_argument('--first', type=int, default=1)
parser.add_argument('--time', default='125ms')
parser.add_argument('--k', default='2')
parser.add_argument('--workloads', default='alloc_10us/p01,memwalk_10us/p01,cpu_10us/p01')
parser.add_argument('--out', default='/tmp/rtcompare-process-spread')
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)


def trimmed_mean(values, share=0.2):
    ordered = sorted(values)
    cut = int(share * len(ordered))
    return statistics.fmean(ordered[cut:len(ordered) - cut])


def difference(log_ratio):
    return -math.expm1(log_ratio) * 100


commit = fixture.commit()
binary = fixture.build_fixture()
print(f'commit {commit}, fixture {binary}, k = {args.k}, {args.time} per process', flush=True)

rows = []
for workload in args.workloads.split(','):
    for run in range(args.first, args.first + args.runs):
        results = os.path.join(args.out, f'{workload.replace("/", "_")}-{run}.json')
        env = {k: v for k, v in os.environ.items() if not k.startswith('RTCOMPARE_')}
        env.update(DETECTION_K=args.k, RTCOMPARE_CONFIRM='0', RTCOMPARE_INSTRUCTIONS='off', RTCOMPARE_SEED=str(run),
                   RTCOMPARE_TIME=args.time, RTCOMPARE_RESULTS=results, NO_COLOR='1')
        subprocess.run([binary, f'detection/{workload}', '--exact'], env=env, capture_output=True, text=True)
        with open(results) as f:
            samples = json.load(f)['comparisons'][0]['first']['samples']
        logs = [math.log(c / b) for c, b in zip(samples['candidate']['per_op'], samples['baseline']['per_op'])]
        row = dict(workload=workload, run=run, rounds=len(logs), median=difference(statistics.median(logs)),
                   trimmed=difference(trimmed_mean(logs)))
        rows.append(row)
        print(f'{workload:18s} process {run:3d}: {len(logs):4d} rounds, median d {row["median"]:+.2f} %, '
              f'trimmed-mean d {row["trimmed"]:+.2f} %', flush=True)

with open(os.path.join(args.out, 'rows.json'), 'w') as f:
    json.dump(dict(commit=commit, args=vars(args), rows=rows), f, indent=1)

print(f'\nk = {args.k}, {args.time} per process; d in %, mean and standard deviation across processes:')
print('| workload | processes | rounds (median) | median: mean | median: sd | trimmed mean: mean | trimmed mean: sd |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for workload in args.workloads.split(','):
    mine = [r for r in rows if r['workload'] == workload]
    medians, trims = [r['median'] for r in mine], [r['trimmed'] for r in mine]
    rounds = statistics.median(r['rounds'] for r in mine)
    print(f'| {workload} | {len(mine)} | {rounds:.0f} | {statistics.fmean(medians):+.2f} | '
          f'{statistics.stdev(medians):.2f} | {statistics.fmean(trims):+.2f} | {statistics.stdev(trims):.2f} |')
