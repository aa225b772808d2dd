#!/usr/bin/env bash
# Builds the placement fixture (tests/fixtures/verdicts/tests/placement.rs, taken from this
# working tree) in several fresh folders against one revision of rtcompare, runs it, and prints
# per folder: failed tests, parity established with a band wider than the parity, and the A/A
# floors and placement spreads from the results file. A new folder changes the crates' metadata,
# hence symbol names, hence where the linker puts each loop.
#
#   bench/placement/folders.sh [--rev REV] [--folders N] [--time 300ms] [--out FILE]
#
# Extra RUSTFLAGS (for example the alignment recipe in docs/placement.md) pass through from the
# environment. Needs git, cargo and python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rev=HEAD folders=3 time=300ms out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rev) rev="$2"; shift 2 ;;
    --folders) folders="$2"; shift 2 ;;
    --time) time="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
commit="$(git -C "$root" rev-parse --short "$rev")"
fixture="$root/tests/fixtures/verdicts/tests/placement.rs"
summary="$(mktemp)"
# One target folder for all checkouts: crates.io dependencies build once, while the workspace's
# own crates still build anew in each folder (their metadata hash includes the path).
export CARGO_TARGET_DIR="$(mktemp -d "${TMPDIR:-/tmp}/rtcompare-placement-target-XXXXXX")"
trap 'rm -rf "$summary" "$CARGO_TARGET_DIR"' EXIT
echo "placement fixture at rtcompare $commit, $folders folders, RTCOMPARE_TIME=$time, RUSTFLAGS='${RUSTFLAGS:-}'" | tee "$summary"
for i in $(seq 1 "$folders"); do
  dir="$(mktemp -d "${TMPDIR:-/tmp}/rtcompare-placement-$i-XXXXXX")"
  git clone -q "$root" "$dir/checkout"
  git -C "$dir/checkout" checkout -q "$commit"
  cp "$fixture" "$dir/checkout/tests/fixtures/verdicts/tests/placement.rs"
  manifest="$dir/checkout/tests/fixtures/verdicts/Cargo.toml"
  grep -q 'name = "placement"' "$manifest" || printf '\n[[test]]\nname = "placement"\nharness = false\ntest = false\n' >>"$manifest"
  results="$dir/placement.json"
  (cd "$dir/checkout" && RTCOMPARE_TIME="$time" RTCOMPARE_RESULTS="$results" NO_COLOR=1 \
    cargo test -q --release -p rtcompare-fixture-verdicts --test placement >"$dir/output.txt" 2>&1) || true
  # The figures go to the screen and the summary; the folder is kept when something failed.
  keep=0
  python3 - "$results" "$i" "$dir" <<'PY' | tee -a "$summary" || keep=1
import json, statistics, sys
path, index, folder = sys.argv[1], sys.argv[2], sys.argv[3]
PARITY = 0.04  # the fixture's pairs all use the default parity
try:
    run = json.load(open(path))
except OSError:
    print(f"folder {index}: no results file (build or run failed; see {folder}/output.txt)")
    sys.exit(1)
comparisons = run["comparisons"]
failed = sum(not c["passed"] for c in comparisons)
wide = sum(
    c["verdict"]["outcome"] == "parity" and c["verdict"]["resolved"] and c["verdict"]["parity_band"] > PARITY + 1e-12
    for c in comparisons
)
floors = [c["verdict"]["floor"] for c in comparisons]
# Schema 2 keeps the placement figures in the first round's validation; schema 1 beside the verdict.
def placements(c):
    if "first" in c:
        validation = (c["first"] or {}).get("validation") or {}
        return [validation.get("candidate_placement"), validation.get("baseline_placement")]
    return list((c.get("placement") or {}).values())
spreads = [p["spread"] for c in comparisons for p in placements(c) if p is not None]
outcomes = {}
for c in comparisons:
    key = c["verdict"]["outcome"] + (" established" if c["verdict"]["outcome"] == "parity" and c["verdict"]["resolved"] else "")
    outcomes[key] = outcomes.get(key, 0) + 1
placement = f", placement spread median {statistics.median(spreads)*100:.1f} % max {max(spreads)*100:.1f} %" if spreads else ""
print(
    f"folder {index}: {len(comparisons)} comparisons, {failed} failed, {wide} established with a band wider than the parity, "
    f"A/A floor median {statistics.median(floors)*100:.2f} % max {max(floors)*100:.2f} %{placement}; "
    + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
)
for c in comparisons:
    if not c["passed"]:
        v = c["verdict"]
        print(f"  failed: {c['name']}: ratio {v['ratio']:.3f}, A/A floor {v['floor']*100:.2f} % (output in {folder})")
sys.exit(1 if failed else 0)
PY
  if [ "$keep" = 0 ]; then rm -rf "$dir"; fi
done
if [ -n "$out" ]; then cp "$summary" "$out"; fi
