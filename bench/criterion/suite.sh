#!/usr/bin/env bash
# A criterion suite of 50 benchmarks judged two ways on the same two commits: rtcompare-criterion
# (`RTCOMPARE_BASELINE=HEAD~1 cargo bench`, one run, both builds in it) and criterion's own
# workflow (`cargo bench -- --save-baseline base` at HEAD~1, then `cargo bench -- --baseline base`
# at HEAD). The library has 50 functions, each a loop of additions whose length is set per
# function; at HEAD, `--slower K` of them (the first K) do 10 % more additions, the rest are
# unchanged. The bench file is the same at both commits and for both tools: only the
# `criterion` dev-dependency line differs between the tools. Prints, per tool: time per
# verdict (rtcompare: each comparison's `duration_s` from its results file; criterion: the
# run's wall time over the benchmarks, both runs), the verdicts on the unchanged benchmarks
# (rtcompare: failed tests, wins and losses; criterion: "Performance has regressed" and
# "Performance has improved"), and on the slower ones.
#
#   bench/criterion/suite.sh [--slower K] [--dir DIR] [--out FILE] [--skip-criterion]
#
# DIR (default target/criterion-suite) holds both repositories, their target folders and each
# run's full output. Needs crates.io for criterion itself.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
slower=5 dir="$root/target/criterion-suite" out="" skip_criterion=0
while [ $# -gt 0 ]; do
  case "$1" in
    --slower) slower="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --out) out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --skip-criterion) skip_criterion=1; shift ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
benchmarks=50

# The library: f00 … f49, each `work(n)` with its own n (500 to 2,950 additions); at HEAD the
# first `slower` do 10 % more.
library() {
  local grown="$1"
  cat <<'RS'
use std::hint::black_box;

pub fn work(n: u64) -> u64 {
    let mut total = 0u64;
    for i in 0..black_box(n) {
        total = total.wrapping_add(black_box(i));
    }
    total
}
RS
  for i in $(seq 0 $((benchmarks - 1))); do
    n=$((500 + 50 * i))
    if [ "$grown" = 1 ] && [ "$i" -lt "$slower" ]; then n=$((n * 11 / 10)); fi
    printf '\npub fn f%02d() -> u64 {\n    work(%d)\n}\n' "$i" "$n"
  done
}

# The bench file, as criterion's users write one: five groups of ten functions.
suite() {
  printf 'use criterion::{criterion_group, criterion_main, Criterion};\n'
  for g in 0 1 2 3 4; do
    printf '\nfn group%d(c: &mut Criterion) {\n    let mut group = c.benchmark_group("g%d");\n' "$g" "$g"
    for j in $(seq 0 9); do
      i=$((g * 10 + j))
      printf '    group.bench_function("f%02d", |b| b.iter(library::f%02d));\n' "$i" "$i"
    done
    printf '    group.finish();\n}\n'
  done
  printf '\ncriterion_group!(benches, group0, group1, group2, group3, group4);\ncriterion_main!(benches);\n'
}

# A repository at `$1` with the two commits, its dev-dependency on criterion `$2`, and the lock
# file `$3` when given.
repository() {
  local repo="$1" criterion="$2" lock="${3:-}"
  rm -rf "$repo"
  mkdir -p "$repo/src" "$repo/benches"
  cat >"$repo/Cargo.toml" <<TOML
[package]
name = "criterion-suite"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[lib]
name = "library"

[dev-dependencies]
criterion = $criterion

[[bench]]
name = "suite"
harness = false
TOML
  printf 'target/\n' >"$repo/.gitignore"
  if [ -n "$lock" ]; then cp "$lock" "$repo/Cargo.lock"; fi
  suite >"$repo/benches/suite.rs"
  library 0 >"$repo/src/lib.rs"
  local git=(git -C "$repo" -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false)
  "${git[@]}" init --quiet --initial-branch=main .
  "${git[@]}" add --all && "${git[@]}" commit --quiet -m "Before"
  library 1 >"$repo/src/lib.rs"
  "${git[@]}" commit --quiet -am "Make the first $slower functions 10 % slower"
}

mkdir -p "$dir"
seconds() { date +%s.%N; }

# rtcompare-criterion: one run against HEAD~1.
ours="$dir/rtcompare"
# rtcompare's own lock file pins the same dependency versions, so nothing is resolved anew.
repository "$ours" "{ package = \"rtcompare-criterion\", path = '$root/criterion' }" "$root/Cargo.lock"
export CARGO_TARGET_DIR="$dir/rtcompare-target"
(cd "$ours" && cargo bench --bench suite --no-run >/dev/null 2>&1)
start=$(seconds)
set +e
(cd "$ours" && RTCOMPARE_BASELINE=HEAD~1 RTCOMPARE_RESULTS="$dir/rtcompare.json" NO_COLOR=1 \
  cargo bench --bench suite >"$dir/rtcompare.txt" 2>&1)
set -e
ours_wall=$(echo "$(seconds) - $start" | bc)

# Per comparison: name, passed, outcome, duration.
summary=$(python3 - "$dir/rtcompare.json" "$slower" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))
slower = int(sys.argv[2])
changed = {f"g{i // 10}/f{i:02d}" for i in range(slower)}
rows = results["comparisons"]
same = [r for r in rows if r["name"] not in changed]
grown = [r for r in rows if r["name"] in changed]
def line(label, rs):
    if not rs:
        return f"| {label} | 0 | | | | |"
    durations = [r["duration_s"] for r in rs]
    failed = sum(1 for r in rs if not r["passed"])
    outcomes = [r["verdict"]["outcome"] for r in rs]
    confirmed = sum(1 for r in rs if (r.get("confirmation") or {}).get("confirmed"))
    return (f"| {label} | {len(rs)} | {statistics.median(durations):.2f} s | {failed} | "
            f"{outcomes.count('win')} / {outcomes.count('parity')} / {outcomes.count('loss')} | {confirmed} |")
print("| rtcompare-criterion | benchmarks | median time per verdict | failed tests | win / parity / loss | confirmed |")
print("| --- | --- | --- | --- | --- | --- |")
print(line("unchanged", same))
print(line("10 % slower", grown))
PY
)

criterion_lines=""
if [ "$skip_criterion" = 0 ]; then
  theirs="$dir/criterion"
  repository "$theirs" '{ version = "0.8", default-features = false, features = ["cargo_bench_support"] }'
  export CARGO_TARGET_DIR="$dir/criterion-target"
  rm -rf "$CARGO_TARGET_DIR/criterion"
  git -C "$theirs" checkout --quiet HEAD~1
  (cd "$theirs" && cargo bench --bench suite --no-run >/dev/null 2>&1)
  start=$(seconds)
  (cd "$theirs" && cargo bench --bench suite -- --save-baseline base >"$dir/criterion-base.txt" 2>&1)
  base_wall=$(echo "$(seconds) - $start" | bc)
  git -C "$theirs" checkout --quiet main
  (cd "$theirs" && cargo bench --bench suite --no-run >/dev/null 2>&1)
  start=$(seconds)
  (cd "$theirs" && cargo bench --bench suite -- --baseline base >"$dir/criterion-head.txt" 2>&1)
  head_wall=$(echo "$(seconds) - $start" | bc)
  criterion_lines=$(python3 - "$dir/criterion-head.txt" "$slower" "$base_wall" "$head_wall" "$benchmarks" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
slower, base_wall, head_wall, n = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
changed = {f"g{i // 10}/f{i:02d}" for i in range(slower)}
# criterion prints the id on a line of its own (or before "time:"), then its change report.
said = {}
current = None
for line in text.splitlines():
    m = re.match(r"^(g\d/f\d\d)\b", line)
    if m:
        current = m.group(1)
    if current and "Performance has regressed" in line:
        said[current] = "regressed"
    elif current and "Performance has improved" in line:
        said[current] = "improved"
    elif current and ("No change in performance" in line or "Change within noise threshold" in line):
        said.setdefault(current, "no change")
def line(label, ids):
    verdicts = [said.get(i, "not reported") for i in ids]
    return (f"| {label} | {len(ids)} | {(base_wall + head_wall) / n:.2f} s | "
            f"{verdicts.count('regressed')} | {verdicts.count('improved')} | {verdicts.count('no change')} |")
ids = [f"g{i // 10}/f{i:02d}" for i in range(n)]
print("| criterion, two runs | benchmarks | time per verdict (both runs) | regressed | improved | no change |")
print("| --- | --- | --- | --- | --- | --- |")
print(line("unchanged", [i for i in ids if i not in changed]))
print(line("10 % slower", [i for i in ids if i in changed]))
PY
)
fi

report=$(cat <<MD
### \`bench/criterion/suite.sh --slower $slower\` at $commit

$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; rtcompare's run took $(printf '%.1f' "$ours_wall") s of wall time, its baseline build included.

$summary

$criterion_lines
MD
)
echo "$report"
if [ -n "$out" ]; then echo "$report" >"$out"; fi
