#!/usr/bin/env bash
# What counting instructions beside time costs a run: a 6-pair suite at the default budget (four
# identical pairs, one 10 % slower, one three times faster; each call a loop of additions of a
# few microseconds), run with counting on (valgrind found) and off (RTCOMPARE_INSTRUCTIONS=off),
# alternately, N times each, in one build (`baseline = old_fn`) and against a git revision
# (`#[compare]`, RTCOMPARE_BASELINE=HEAD~1); then its four identical pairs alone (`--skip`), the
# case where counting weighs most, since each settles as parity in a fraction of a second.
# Prints each run's wall time and, per suite, the median of each and their ratio (on / off).
#
#   bench/counting/cost.sh [--runs N] [--dir DIR] [--out FILE]
#
# DIR (default target/counting-cost) holds the repository, its target folder and each run's
# output (DIR/logs/). Both suites and the baseline build are built before the first timed run,
# so the times are of measuring, confirming and counting, with cargo's check that nothing needs
# building (a fraction of a second, the same in both).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs=5 dir="$root/target/counting-cost" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --out) out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "valgrind is not on PATH: nothing to compare" >&2; exit 2; }
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
repo="$dir/repo"
rm -rf "$repo" "$dir/logs"
mkdir -p "$repo/src" "$repo/tests" "$dir/logs"
cat >"$repo/Cargo.toml" <<EOF
[package]
name = "rtcompare-counting-cost"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[lib]
name = "library"

[dev-dependencies]
rtcompare = { path = '$root' }

[[test]]
name = "one_build"
harness = false
test = false

[[test]]
name = "revision"
harness = false
test = false
EOF
cp "$root/Cargo.lock" "$repo/Cargo.lock"
printf 'target/\n' >"$repo/.gitignore"
# The library at a commit: `work(n)` is n additions; six functions, of which `slower` and
# `faster` change between the two commits.
library() {
  cat <<EOF
use std::hint::black_box;

pub fn work(n: u64) -> u64 {
    let mut total = 0u64;
    for i in 0..black_box(n) {
        total = total.wrapping_add(black_box(i));
    }
    total
}

pub fn a() -> u64 { work(2_000) }
pub fn b() -> u64 { work(4_000) }
pub fn c() -> u64 { work(6_000) }
pub fn d() -> u64 { work(8_000) }
pub fn slower() -> u64 { work($1) }
pub fn faster() -> u64 { work($2) }
EOF
}
# One build: each function against a copy of the commit's own, or its changed version.
cat >"$repo/tests/one_build.rs" <<'EOF'
use rtcompare::compare;

fn old_a() -> u64 { library::work(2_000) }
fn old_b() -> u64 { library::work(4_000) }
fn old_c() -> u64 { library::work(6_000) }
fn old_d() -> u64 { library::work(8_000) }
fn old_slower() -> u64 { library::work(3_000) }
fn old_faster() -> u64 { library::work(9_000) }

#[compare(baseline = old_a)] fn a() -> u64 { library::a() }
#[compare(baseline = old_b)] fn b() -> u64 { library::b() }
#[compare(baseline = old_c)] fn c() -> u64 { library::c() }
#[compare(baseline = old_d)] fn d() -> u64 { library::d() }
#[compare(baseline = old_slower)] fn slower() -> u64 { library::slower() }
#[compare(baseline = old_faster)] fn faster() -> u64 { library::faster() }

rtcompare::main!();
EOF
cat >"$repo/tests/revision.rs" <<'EOF'
use rtcompare::compare;

#[compare] fn a() -> u64 { library::a() }
#[compare] fn b() -> u64 { library::b() }
#[compare] fn c() -> u64 { library::c() }
#[compare] fn d() -> u64 { library::d() }
#[compare] fn slower() -> u64 { library::slower() }
#[compare] fn faster() -> u64 { library::faster() }

rtcompare::main!();
EOF
git_() { git -C "$repo" -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false "$@"; }
git_ init --quiet --initial-branch=master .
library 3000 9000 >"$repo/src/lib.rs"
git_ add --all && git_ commit --quiet -m "Before"
library 3300 3000 >"$repo/src/lib.rs"
git_ commit --quiet --all -m "One function 10 % slower, one three times faster"

suite() { # suite NAME [VAR=VALUE...]: runs the suite's test target once, printing its wall time
  local name="$1"; shift
  local start end filter=()
  [ -n "${only_identical:-}" ] && filter=(-- --skip slower --skip faster)
  start=$(date +%s.%N)
  (cd "$repo" && env "$@" cargo test --release --test "$name" "${filter[@]}" >"$dir/logs/last.txt" 2>&1) || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
echo "building both suites and the baseline (not timed)" >&2
suite one_build RTCOMPARE_INSTRUCTIONS=off >/dev/null
suite revision RTCOMPARE_BASELINE=HEAD~1 RTCOMPARE_INSTRUCTIONS=off >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}'; }
report=""
for row in one_build revision one_build:identical revision:identical; do
  target="${row%%:*}" only_identical=""
  [ "$row" != "$target" ] && only_identical=1
  extra=()
  [ "$target" = revision ] && extra=(RTCOMPARE_BASELINE=HEAD~1)
  on=() off=()
  for i in $(seq 1 "$runs"); do
    off+=("$(suite "$target" "${extra[@]}" RTCOMPARE_INSTRUCTIONS=off)")
    cp "$dir/logs/last.txt" "$dir/logs/${row/:/-}-off-$i.txt"
    on+=("$(suite "$target" "${extra[@]}")")
    cp "$dir/logs/last.txt" "$dir/logs/${row/:/-}-on-$i.txt"
    echo "$row run $i: off ${off[-1]} s, on ${on[-1]} s" >&2
  done
  m_off=$(printf '%s\n' "${off[@]}" | median)
  m_on=$(printf '%s\n' "${on[@]}" | median)
  ratio=$(echo "scale=2; $m_on / $m_off" | bc)
  report+="$(printf '| %s | %s | %.2f s | %.2f s | %s× |' "${row/:/, }" "$runs" "$m_off" "$m_on" "$ratio")"$'\n'
done
{
  echo "Counting's cost on a 6-pair suite at rtcompare $commit, $(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| suite | runs each | median off | median on | on / off |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s' "$report"
} | tee ${out:+"$out"}
