//! End to end on tests/fixtures/verdicts/tests/placement.rs: thirteen pairs of identical work in
//! tight loops (23 comparisons with their sizes; the last calls one function at two addresses), the code whose speed depends most on where the
//! linker puts it. With every batch spread over four placement copies, none may fail and none may claim parity within a band
//! wider than its parity, whatever folder this checkout (and so the binary's layout) is in.

mod support;

use support::{fixture_command, run, stdout, take_turn, text};

#[test]
fn identical_work_in_tight_loops_never_fails_and_parity_keeps_its_band() {
    let _turn = take_turn();
    let dir = support::scratch_dir("placement");
    let dir = dir.path();
    let results = dir.join("placement.json");
    // Verbose, for each block's placement line.
    let output =
        run(fixture_command("placement", &[]).env("RTCOMPARE_RESULTS", &results).env("RTCOMPARE_VERBOSE", "1"));
    assert!(output.status.success(), "{}", text(&output));
    let out = stdout(&output);
    assert!(out.contains("test result: ok. 23 passed; 0 failed"), "{}", text(&output));
    assert_eq!(out.matches("placement: each arm at 4 code offsets").count(), 23, "{}", text(&output));
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).expect("results file")).expect("results file is JSON");
    let comparisons = file["comparisons"].as_array().expect("comparisons");
    assert_eq!(comparisons.len(), 23);
    for comparison in comparisons {
        let verdict = &comparison["verdict"];
        // A first-round signal that its confirmation does not repeat is allowed; a confirmed
        // win or loss on identical code is a wrong verdict.
        let signalled = verdict["outcome"] != "parity";
        assert!(!(signalled && comparison["confirmation"]["confirmed"] == true), "{comparison:#}");
        assert_eq!(verdict["parity_band"].as_f64(), Some(0.04), "{}", comparison["name"]);
        for arm in ["candidate", "baseline"] {
            let medians =
                comparison["first"]["validation"][format!("{arm}_placement")]["medians"].as_array().map(Vec::len);
            assert_eq!(medians, Some(4), "{} {arm}: {comparison:#}", comparison["name"]);
        }
    }
}
