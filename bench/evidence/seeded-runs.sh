#!/usr/bin/env bash
# Runs the seed-dependent identical pair (tests/fixtures/verdicts/tests/seeded.rs) N times with
# the default settings (confirmation on) and counts failed tests and confirmed
# wins or losses: identical code, so each of those is a false verdict.
#
#   bench/evidence/seeded-runs.sh [--runs N] [--time 300ms] [--out FILE]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs=64 time=300ms out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --time) time="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
cd "$root"
# Read before building: the figures describe the code the fixture is built from now.
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
cargo test -q --release -p rtcompare-fixture-verdicts --test seeded --no-run 2>/dev/null
failed=0 wins=0 losses=0 unconfirmed=0
for i in $(seq 1 "$runs"); do
  log="$(RTCOMPARE_SEED="$i" RTCOMPARE_TIME="$time" RTCOMPARE_VERBOSE=1 NO_COLOR=1 cargo test -q --release -p rtcompare-fixture-verdicts --test seeded 2>&1 || true)"
  verdict="$(printf '%s\n' "$log" | grep -E '^    (win|loss|parity) \(' | head -1 | sed 's/^ *//' || true)"
  case "$verdict" in
    "win (confirmed)") wins=$((wins + 1)) ;;
    "loss (confirmed)") losses=$((losses + 1)) ;;
  esac
  printf '%s\n' "$log" | grep -q "test result: FAILED" && failed=$((failed + 1))
  how=""
  if printf '%s\n' "$log" | grep -q "not confirmed"; then
    unconfirmed=$((unconfirmed + 1))
    how=" ($(printf '%s\n' "$log" | grep -oE '[0-9]+ fresh processes pooled said [a-z]+' | head -1 || true))"
  fi
  echo "run $i (RTCOMPARE_SEED=$i): $verdict$how"
done
summary="seeded identical pair, $runs runs at RTCOMPARE_TIME=$time, commit $commit: $failed failed tests, $losses confirmed losses, $wins confirmed wins, $unconfirmed first-round signals not confirmed"
echo "$summary"
if [ -n "$out" ]; then echo "$summary" >"$out"; fi
