#!/usr/bin/env bash
# Comparisons against a git revision on a real crate's repository, as a new user makes them: a
# copy of the repository (given as a local git repository, with its history) gets, on top of its
# newest commit, the rtcompare dev-dependency (by a relative path, as a checkout beside the
# project is written), a `[[test]] name = "perf"` target and the perf test
# bench/revision/real-crates/<crate>.rs, committed; then
# `RTCOMPARE_BASELINE=<revision> cargo test --release --test perf` runs, the revision being a
# release from before rtcompare, whose manifest has none of it. Nothing of the baseline is
# changed by hand. Prints what rtcompare said of the baseline build, each verdict with its
# instruction change, how long the baseline build took and the whole run.
#
#   bench/revision/real-crates.sh CRATE REPOSITORY REVISION [--dir DIR] [--out FILE]
#
# CRATE names the perf test (itoa, memchr, ryu); REPOSITORY is a git repository of that crate
# (for instance `git clone https://github.com/dtolnay/itoa`); REVISION the baseline (a tag such
# as 1.0.15). DIR (default target/real-crates/CRATE) holds the copy and its target folder; its
# full output is DIR/run.txt. A repository whose history lacks some large files can be given
# with a sparse checkout leaving them out (`git sparse-checkout set --no-cone '/*' '!/benchmarks/'`):
# the baseline's worktree keeps the same patterns.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -ge 3 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
crate="$1" repository="$(cd "$2" && pwd)" revision="$3"; shift 3
dir="$root/target/real-crates/$crate" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --out) out="$(realpath -m "$2")"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
perf="$root/bench/revision/real-crates/$crate.rs"
[ -f "$perf" ] || { echo "no perf test $perf" >&2; exit 2; }
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
copy="$dir/repo"
rm -rf "$copy"
mkdir -p "$dir"
git clone --quiet --no-checkout "$repository" "$copy"
sparse="$(git -C "$repository" sparse-checkout list 2>/dev/null || true)"
if [ -n "$sparse" ]; then
  git -C "$copy" sparse-checkout set --no-cone --stdin <<<"$sparse"
fi
git -C "$copy" checkout --quiet 2>/dev/null || true
# The index from HEAD's trees, so that a commit need not read blobs a sparse checkout left out.
git -C "$copy" read-tree HEAD
git -C "$copy" switch --quiet -c perf
relative="$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$root" "$copy")"
printf '\n[dev-dependencies.rtcompare]\npath = "%s"\n\n[[test]]\nname = "perf"\nharness = false\ntest = false\n' "$relative" >>"$copy/Cargo.toml"
mkdir -p "$copy/tests"
cp "$perf" "$copy/tests/perf.rs"
git -C "$copy" add Cargo.toml tests/perf.rs
git -C "$copy" -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false commit --quiet -m "Compare with rtcompare"
# The current build first, so that the run's time is the baseline's build and the measuring.
(cd "$copy" && cargo test --release --test perf --no-run >/dev/null 2>&1)
start=$(date +%s.%N)
status=0
(cd "$copy" && RTCOMPARE_BASELINE="$revision" cargo test --release --test perf >"$dir/run.txt" 2>&1) || status=$?
end=$(date +%s.%N)
{
  echo "$crate against $revision ($(git -C "$copy" rev-parse --short "$revision^{commit}") → $(git -C "$copy" rev-parse --short HEAD~1) plus the perf test), rtcompare $commit, $(date -u +%Y-%m-%d), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  grep -E '^rtcompare: (baseline|in commit|commit|this)' "$dir/run.txt" | sed 's/^/    /'
  grep -E '^test perf::|^    (win|loss|parity)' "$dir/run.txt" | sed 's/^/    /'
  echo
  # Each comparison's instruction change and how long it took, from the results file.
  python3 - "$copy/target/rtcompare/perf.json" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["comparisons"]:
    i = c["instructions"]
    counted = f"instructions {i['change'] * 100:+.2f} % ({i['agreement']})" if i else f"not counted: {c['instructions_not_counted']}"
    print(f"    {c['name']}: {counted}, {c['duration_s']:.2f} s")
PY
  echo "exit code $status; the run took $(printf '%.1f' "$(echo "$end - $start" | bc)") s, the baseline build included"
} | tee ${out:+"$out"}
