#!/usr/bin/env bash
# A/A across builds for comparisons against a git revision: a throwaway git repository whose
# two commits differ only in a file that is not code, measured with
# `RTCOMPARE_BASELINE=HEAD~1 cargo test --release --test perf` N times. Identical code, so every
# failed test, win or loss is a false verdict. Prints one line per run (exit code, each pair's
# verdict, difference and A/A floor) and a summary, and times the first run (the baseline build
# included, from an empty baseline target folder) and the repeated ones (the build reused).
#
#   bench/revision/aa-runs.sh [--runs N] [--time 1s] [--dir DIR] [--out FILE] [--reuse]
#
# DIR (default target/revision-aa) holds the repository, its target folder and each run's full
# output (DIR/logs/run-N.txt); the baseline build goes to DIR/target/rtcompare-baseline, which
# is emptied before the first run unless --reuse is given.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs=20 time=1s dir="$root/target/revision-aa" out="" reuse=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --time) time="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --out) out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --reuse) reuse=1; shift ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
# Read before building: the figures describe the rtcompare the repository is built against now.
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
repo="$dir/repo"
rm -rf "$repo"
mkdir -p "$repo/tests"
cat >"$repo/Cargo.toml" <<EOF
[package]
name = "rtcompare-revision-aa"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dev-dependencies]
rtcompare = { path = '$root' }

[[test]]
name = "perf"
harness = false
test = false
EOF
cp "$root/Cargo.lock" "$repo/Cargo.lock"
printf 'target/\n' >"$repo/.gitignore"
# The same work as tests/revision.rs: a loop of additions, in two functions.
cat >"$repo/tests/perf.rs" <<'EOF'
use rtcompare::compare;
use std::hint::black_box;

fn work(n: u64) -> u64 {
    let mut total = 0u64;
    for i in 0..black_box(n) {
        total = total.wrapping_add(black_box(i));
    }
    total
}

#[compare]
fn changed() -> u64 {
    work(1_000)
}

#[compare]
fn unchanged() -> u64 {
    work(1_000)
}

rtcompare::main!();
EOF
g() { git -C "$repo" -c user.name=rtcompare -c user.email=rtcompare@example.invalid -c commit.gpgsign=false "$@"; }
g init --quiet .
g add --all
g commit --quiet -m "Before"
printf 'A change that is not code.\n' >"$repo/NOTES.md"
g add --all
g commit --quiet -m "Add notes"

# Verbose blocks carry the A/A floor.
export CARGO_TARGET_DIR="$dir/target" NO_COLOR=1 RTCOMPARE_TIME="$time" RTCOMPARE_BASELINE=HEAD~1 RTCOMPARE_VERBOSE=1
cd "$repo"
cargo test -q --release --test perf --no-run 2>/dev/null
[ "$reuse" = 1 ] || rm -rf "$CARGO_TARGET_DIR/rtcompare-baseline"
rm -rf "$dir/logs"
mkdir -p "$dir/logs"
failed=0 not_parity=0 established=0 inconclusive=0 floors="" first="" repeated=""
for i in $(seq 1 "$runs"); do
  started="$(date +%s%N)"
  status=0
  log="$(cargo test --release --test perf 2>&1)" || status=$?
  printf '%s\n' "$log" >"$dir/logs/run-$i.txt"
  seconds="$(awk -v a="$started" -v b="$(date +%s%N)" 'BEGIN {printf "%.2f", (b - a) / 1e9}')"
  if [ "$i" = 1 ]; then first="$seconds"; else repeated="$repeated $seconds"; fi
  [ "$status" = 0 ] || failed=$((failed + 1))
  line="run $i: load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'), exit $status, $(printf '%.1f' "$seconds") s"
  for name in changed unchanged; do
    block="$(printf '%s\n' "$log" | sed -n "/^test perf::${name}_vs_baseline /,/^test /p")"
    verdict="$(printf '%s\n' "$block" | grep -E '^    (win|loss|parity) \(' | head -1 | sed -E 's/^ *//; s/: .*//' || true)"
    difference="$(printf '%s\n' "$block" | grep -oE ': time [+-]?[0-9.]+ %' | head -1 | awk '{print $3}' || true)"
    floor="$(printf '%s\n' "$block" | grep -oE 'A/A floor [0-9.]+ %' | head -1 | awk '{print $3}' || true)"
    case "$verdict" in
      "parity (established"*) established=$((established + 1)) ;;
      "parity (inconclusive"*) inconclusive=$((inconclusive + 1)) ;;
      *) not_parity=$((not_parity + 1)) ;;
    esac
    floors="$floors $floor"
    line="$line; $name: $verdict, time $difference %, A/A floor $floor %"
  done
  echo "$line"
done
sorted="$(printf '%s\n' $floors | sort -g)"
count="$(printf '%s\n' "$sorted" | wc -l)"
median="$(printf '%s\n' "$sorted" | sed -n "$(((count + 1) / 2))p")"
max="$(printf '%s\n' "$sorted" | tail -1)"
mean_repeated="$(printf '%s\n' $repeated | awk '{s += $1; n += 1} END {if (n) printf "%.1f", s / n}')"
summary="A/A across builds, $runs runs of RTCOMPARE_BASELINE=HEAD~1 cargo test --release --test perf at RTCOMPARE_TIME=$time, rtcompare commit $commit: $failed failed runs, $not_parity verdicts other than parity, $established parity established and $inconclusive inconclusive of $((2 * runs)); A/A floor median $median %, max $max %; first run $(printf '%.1f' "$first") s ($([ "$reuse" = 1 ] && echo "baseline build reused" || echo "baseline build included")), repeated runs $mean_repeated s on average"
echo "$summary"
if [ -n "$out" ]; then echo "$summary" >"$out"; fi
