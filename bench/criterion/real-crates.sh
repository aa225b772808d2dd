#!/usr/bin/env bash
# A real crate's criterion suite under rtcompare-criterion, as a user switches one: a copy of the
# repository (a local git repository with its history) gets one change on top of its newest
# commit — its `criterion` dev-dependency line replaced by this checkout's rtcompare-criterion,
# renamed into place — committed; then `RTCOMPARE_BASELINE=<revision> cargo bench` runs RUNS
# times against a release from before the switch, whose manifest still names criterion. Nothing
# else is changed, in the bench files or in the baseline. Every bench target runs, unless
# `--bench` names one (`--no-fail-fast`: one that fails does not stop the others). Prints each
# run's failed benchmarks, its summary lines and its wall time (the first includes the builds).
#
#   bench/criterion/real-crates.sh CRATE REPOSITORY REVISION [--bench NAME] [--runs N] [--dir DIR] [--out FILE]
#
# The replaced line is the first `criterion = …` of the manifest, whichever dependency table it
# is in (`[dev-dependencies]`, `[target.'cfg(…)'.dev-dependencies]`); its features are dropped
# (rtcompare-criterion accepts criterion's feature names, and they change nothing). DIR (default
# target/criterion-real/CRATE) holds the copy, its target folder and each run's full output.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -ge 3 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
crate="$1" repository="$(cd "$2" && pwd)" revision="$3"; shift 3
bench=(--no-fail-fast) runs=1 dir="$root/target/criterion-real/$crate" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) bench=(--bench "$2"); shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --out) out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
copy="$dir/repo"
rm -rf "$copy"
mkdir -p "$dir"
git clone --quiet "$repository" "$copy"
head=$(git -C "$copy" rev-parse --short HEAD)
line=$(grep -n -m1 '^criterion *=' "$copy/Cargo.toml" | cut -d: -f1)
[ -n "$line" ] || { echo "error: $crate's Cargo.toml has no \`criterion = …\` line" >&2; exit 2; }
sed -i "${line}s|.*|criterion = { package = \"rtcompare-criterion\", path = '$root/criterion' }|" "$copy/Cargo.toml"
git -C "$copy" -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false \
  commit --quiet -am "Switch the benches to rtcompare-criterion"
export CARGO_TARGET_DIR="$dir/target"
report="### \`bench/criterion/real-crates.sh $crate <repository> $revision ${bench[*]}\` at $commit

$crate at $head, one line of Cargo.toml switched, against $revision; $(nproc) cores.

| run | exit | failed | summary | wall time |
| --- | --- | --- | --- | --- |"
for run in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  set +e
  (cd "$copy" && RTCOMPARE_BASELINE="$revision" NO_COLOR=1 cargo bench "${bench[@]}" >"$dir/run-$run.txt" 2>&1)
  code=$?
  set -e
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  failed=$(grep -E '^test .* \.\.\. FAILED$' "$dir/run-$run.txt" | sed -E 's/^test (.*) \.\.\. FAILED$/`\1`/' | paste -sd, - || true)
  summary=$(grep -E '^test result:' "$dir/run-$run.txt" | sed -E 's/; finished in .*//' | paste -sd' ' - || true)
  report+="
| $run | $code | ${failed:-none} | $summary | $(printf '%.1f' "$wall") s |"
done
echo "$report"
grep -E '^rtcompare: (baseline|in commit|this)' "$dir/run-1.txt" || true
if [ -n "$out" ]; then echo "$report" >"$out"; fi
