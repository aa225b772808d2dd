#!/usr/bin/env bash
# Runs the README's test command (`cargo test --workspace`) in N fresh clones of this
# repository, each in a folder never used before, and counts how many pass. A new folder
# changes the crates' metadata, hence symbol names, hence code layout, so one green run says
# little about the next folder; this says how often the suite passes across folders.
#
#   bench/placement/fresh-clones.sh [--rev REV] [--runs N] [--showcase M] [--out FILE]
#
# With --showcase M, the first M clones also run the main job (`cargo test --release --test
# perf`) and report the verdict of its parity pair, which must read as parity in every folder.
#
# crates.io dependencies are built once, in a target folder shared by the runs (set
# CARGO_TARGET_DIR to choose it); the workspace's own crates build anew in every folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rev=HEAD runs=20 showcase=0 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rev) rev="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --showcase) showcase="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
commit="$(git -C "$root" rev-parse --short "$rev")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/rtcompare-clones-target-XXXXXX")}"
summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT
echo "cargo test --workspace in $runs fresh clones of rtcompare $commit" | tee "$summary"
passed=0
for i in $(seq 1 "$runs"); do
  dir="$(mktemp -d "${TMPDIR:-/tmp}/rtcompare-clone-$i-XXXXXX")"
  git clone -q "$root" "$dir/checkout"
  git -C "$dir/checkout" checkout -q "$commit"
  started=$(date +%s)
  if (cd "$dir/checkout" && cargo test -q --workspace >"$dir/output.txt" 2>&1); then
    passed=$((passed + 1))
    echo "run $i: passed in $(( $(date +%s) - started )) s ($dir)" | tee -a "$summary"
    rm -rf "$dir"
  else
    echo "run $i: FAILED in $(( $(date +%s) - started )) s; output kept in $dir/output.txt" | tee -a "$summary"
    grep -E "^test .* FAILED|^---- |panicked" "$dir/output.txt" | head -20 | sed 's/^/  /' | tee -a "$summary"
  fi
  if [ "$i" -le "$showcase" ]; then
    mkdir -p "$dir"
    git clone -q "$root" "$dir/showcase"
    git -C "$dir/showcase" checkout -q "$commit"
    (cd "$dir/showcase" && NO_COLOR=1 cargo test -q --release --test perf >"$dir/showcase.txt" 2>&1) || true
    verdict="$(grep -A12 '^test perf::sum_by_iterator_vs_sum_by_index' "$dir/showcase.txt" | grep -E '^    (parity|win|loss) \(' | head -1 | sed 's/^ *//')"
    ratio="$(grep -A12 '^test perf::sum_by_iterator_vs_sum_by_index' "$dir/showcase.txt" | grep -E '^    ratio ' | head -1 | sed 's/^ *//')"
    echo "run $i: showcase parity pair: ${verdict:-no verdict found} (${ratio:-no ratio})" | tee -a "$summary"
    rm -rf "$dir/showcase"
  fi
done
echo "$passed passed, $((runs - passed)) failed" | tee -a "$summary"
if [ -n "$out" ]; then cp "$summary" "$out"; fi
