#!/usr/bin/env python3
"""How often a close call is confirmed, and how its confirmation ended, in one condition: a few
cells of the detection benchmark's confirm36 plan without its hour.

    bench/evidence/close_calls.py [--trials 20] [--first SEED] [--time 1s]
                                  [--cells memwalk_10us/p01:2,memwalk_10us/p01:-2,...]
                                  [--condition idle|hog|bandwidth] [--out DIR]

Builds bench/detection-fixture's test binary (and, for a loaded condition, bench/detection, whose
--hog and --bandwidth modes are the benchmark's neighbours) and runs each cell, `workload/pNN:k`,
once per seed in a process of its own at the default settings but `RTCOMPARE_TIME`, counting off.
The binary registers 200 comparisons, so every confirmation is taken at alpha = 0.025 % a side.
Prints per cell how many trials confirmed the change, how their confirmations ended, how many
fresh processes were planned (median, range) and the longest comparison as a multiple of the
budget. Needs cargo and python3; writes the results files and rows.json into DIR.
"""
import argparse, collections, json, os, statistics, subprocess

import fixture

parser = argparse.ArgumentParser()
parser.add_argument('--trials', type=int, default=20)
parser.add_argument('--first', type=int, default=1)
parser.add_argument('--time', default='1s')
parser.add_argument('--cells', default='memwalk_10us/p01:2,memwalk_10us/p01:-2,memwalk_10us/p04:10')
parser.add_argument('--condition', default='idle', choices=['idle', 'hog', 'bandwidth'])
parser.add_argument('--out', default='/tmp/rtcompare-close-calls')
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)
budget_s = float(args.time[:-2]) / 1000 if args.time.endswith('ms') else float(args.time.rstrip('s'))

commit = fixture.commit()
binary = fixture.build_fixture()
neighbour = None
if args.condition != 'idle':
    subprocess.run(['cargo', 'build', '--release', '-q', '-p', 'rtcompare-detection'], cwd=fixture.root, check=True)
    program = os.path.join(fixture.root, 'target', 'release', 'rtcompare-detection')
    seconds = str(int(len(args.cells.split(',')) * args.trials * budget_s * 6 + 60))
    neighbour = subprocess.Popen([program, f'--{args.condition}', seconds, '--parent', str(os.getpid())],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f'commit {commit}, fixture {binary}, {args.condition}, RTCOMPARE_TIME={args.time}', flush=True)

rows = []
try:
    for cell in args.cells.split(','):
        test, k = cell.split(':')
        for seed in range(args.first, args.first + args.trials):
            results = os.path.join(args.out, f'{test.replace("/", "_")}_{k}-{seed}.json')
            env = {key: v for key, v in os.environ.items() if not key.startswith('RTCOMPARE_')}
            env.update(DETECTION_K=k, RTCOMPARE_INSTRUCTIONS='off', RTCOMPARE_SEED=str(seed), RTCOMPARE_TIME=args.time,
                       RTCOMPARE_RESULTS=results, NO_COLOR='1')
            subprocess.run([binary, f'detection/{test}', '--exact'], env=env, capture_output=True, text=True)
            with open(results) as f:
                c = json.load(f)['comparisons'][0]
            confirmation = c.get('confirmation') or {}
            outcome = c['verdict']['outcome']
            wanted = 'loss' if int(k) > 0 else 'win'
            # The comparison's duration, as the benchmark judges the time cap on: its first round
            # and its confirmation.
            duration = c['first']['duration_s'] + ((confirmation.get('report') or {}).get('duration_s') or 0)
            row = dict(cell=cell, seed=seed, outcome=outcome, confirmed=outcome == wanted and confirmation.get(
                'confirmed', False), ending=confirmation.get('ending', 'none'), planned=confirmation.get('planned'),
                       duration_s=duration)
            rows.append(row)
            print(f'{cell:24s} seed {seed:3d}: {outcome:6s} confirmed {row["confirmed"]!s:5s} '
                  f'ending {row["ending"]:10s} planned {row["planned"]} {row["duration_s"]:.2f} s', flush=True)
finally:
    if neighbour:
        neighbour.kill()

with open(os.path.join(args.out, 'rows.json'), 'w') as f:
    json.dump(dict(commit=commit, args=vars(args), rows=rows), f, indent=1)

print(f'\n{args.condition}, RTCOMPARE_TIME={args.time}, at {commit}:')
print('| cell | confirmed | endings | planned (median, range) | longest / budget |')
print('| --- | --- | --- | --- | --- |')
for cell in args.cells.split(','):
    mine = [r for r in rows if r['cell'] == cell]
    endings = collections.Counter(r['ending'] for r in mine)
    planned = [r['planned'] for r in mine if r['planned'] is not None]
    spread = f'{statistics.median(planned):.0f} ({min(planned)}–{max(planned)})' if planned else '–'
    longest = max(r['duration_s'] for r in mine) / budget_s
    print(f'| {cell} | {sum(r["confirmed"] for r in mine)}/{len(mine)} | '
          + ', '.join(f'{e} {n}' for e, n in sorted(endings.items())) + f' | {spread} | {longest:.2f}× |')
