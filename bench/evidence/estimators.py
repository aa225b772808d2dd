#!/usr/bin/env python3
"""How precise other estimators of the difference would be on real rounds, against the median.

    bench/evidence/estimators.py [--runs N] [--first SEED] [--time 500ms] [--k 2] [--rounds 300]
                                 [--resamples 200] [--workloads cpu_10us/p01,...] [--out DIR]

Builds bench/detection-fixture's test binary and runs each workload once per seed in a fresh
process, confirmation off, DETECTION_K=k. On each run's per-round log ratios log(c_i / b_i) (the
first --rounds of them) it bootstraps, with the same resampled rounds for all, the standard
error of: the median (rtcompare's estimator), the 10 %, 20 % and 30 % trimmed means, the mean,
and Hodges-Lehmann (the median of the pairwise averages). It prints one line per run and, per
workload, the median over runs of each estimator's standard error divided by the median's:
below 1 means narrower intervals than the median's from the same rounds. Under normal noise the
median's ratio to the mean would be 1.25 (64 % efficiency) and Hodges-Lehmann's 1.02; the point
is what real timing rounds give. Needs cargo and python3; writes the results files and
rows.json into DIR.
"""
import argparse, json, math, os, random, statistics, subprocess

import fixture

parser = argparse.ArgumentParser()
parser.add_argument('--runs', type=int, default=6)
parser.add_argument('--first', type=int, default=1)
parser.add_argument('--time', default='500ms')
parser.add_argument('--k', default='2')
parser.add_argument('--rounds', type=int, default=300)
parser.add_argument('--resamples', type=int, default=200)
parser.add_argument('--workloads',
                    default='cpu_100ns/p01,cpu_10us/p01,memwalk_10us/p01,alloc_10us/p01,hashmap_10us/p01')
parser.add_argument('--out', default='/tmp/rtcompare-estimators')
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)

commit = fixture.commit()
binary = fixture.build_fixture()
print(f'commit {commit}, fixture {binary}, k = {args.k}, {args.time} per run, '
      f'first {args.rounds} rounds, {args.resamples} resamples', flush=True)


def trimmed(share):
    def estimate(sorted_values):
        cut = int(share * len(sorted_values))
        kept = sorted_values[cut:len(sorted_values) - cut]
        return statistics.fmean(kept) if kept else statistics.median(sorted_values)
    return estimate


def hodges_lehmann(sorted_values):
    n = len(sorted_values)
    return statistics.median([(sorted_values[i] + sorted_values[j]) / 2 for i in range(n) for j in range(i, n)])


ESTIMATORS = {
    'median': statistics.median,
    'trim10': trimmed(0.1),
    'trim20': trimmed(0.2),
    'trim30': trimmed(0.3),
    'mean': statistics.fmean,
    'hodges_lehmann': hodges_lehmann,
}


def standard_errors(values, seed):
    """Each estimator's bootstrap standard error, all on the same resampled rounds."""
    rng = random.Random(seed)
    n = len(values)
    replicates = {name: [] for name in ESTIMATORS}
    for _ in range(args.resamples):
        drawn = sorted(values[rng.randrange(n)] for _ in range(n))
        for name, estimate in ESTIMATORS.items():
            replicates[name].append(estimate(drawn))
    return {name: statistics.pstdev(r) for name, r in replicates.items()}


rows = []
for run in range(args.first, args.first + args.runs):
    for workload in args.workloads.split(','):
        results = os.path.join(args.out, f'{workload.replace("/", "_")}-{run}.json')
        env = {k: v for k, v in os.environ.items() if not k.startswith('RTCOMPARE_')}
        env.update(DETECTION_K=args.k, RTCOMPARE_CONFIRM='0', RTCOMPARE_SEED=str(run), RTCOMPARE_TIME=args.time,
                   RTCOMPARE_RESULTS=results, NO_COLOR='1')
        subprocess.run([binary, f'detection/{workload}', '--exact'], env=env, capture_output=True, text=True)
        with open(results) as f:
            c = json.load(f)['comparisons'][0]
        # Schema 2 keeps the first round under `first`; schema 1 beside the verdict.
        samples = (c.get('first') or c)['samples']
        pairs = zip(samples['candidate']['per_op'], samples['baseline']['per_op'])
        logs = [math.log(c / b) for c, b in pairs][:args.rounds]
        errors = standard_errors(logs, run)
        rows.append(dict(run=run, workload=workload, rounds=len(logs), errors=errors))
        relative = ' '.join(f'{name} {errors[name] / errors["median"]:.2f}' for name in ESTIMATORS if name != 'median')
        print(f'{workload:18s} run {run:3d}: {len(logs):4d} rounds, median ±{errors["median"] * 100:.3f} pp; '
              f'relative: {relative}', flush=True)

with open(os.path.join(args.out, 'rows.json'), 'w') as f:
    json.dump(dict(commit=commit, args=vars(args), rows=rows), f, indent=1)

print('\nper workload, the median over runs of each standard error over the median\'s (below 1: narrower):')
print('| workload | runs | ' + ' | '.join(name for name in ESTIMATORS if name != 'median') + ' |')
print('| --- | --- |' + ' --- |' * (len(ESTIMATORS) - 1))
for workload in args.workloads.split(','):
    mine = [r for r in rows if r['workload'] == workload]
    cells = [statistics.median(r['errors'][name] / r['errors']['median'] for r in mine)
             for name in ESTIMATORS if name != 'median']
    print(f'| {workload} | {len(mine)} | ' + ' | '.join(f'{c:.2f}' for c in cells) + ' |')
