//! Refusing to measure an unoptimised build: `cargo test --test perf` without `--release` builds
//! the test profile, whose timings describe debug code, and a loss found there can fail a build
//! for a difference the release build does not have. Such a binary builds and runs its optimised
//! self (`optimised.rs`); where it cannot, it measures nothing unless `RTCOMPARE_DEBUG=1` asks for
//! it. This module words that refusal and the command to run instead.

use rtcompare_report::binary_name;
use std::ffi::OsString;
use std::path::Path;

/// The message of a binary built with debug assertions that was not asked to measure anyway and
/// could not run its optimised build (`why` says why not): why nothing was measured, the command
/// to run instead and how to measure debug code on purpose. `exe` is the running binary, `args`
/// its arguments (without the program name) and `nextest` whether cargo nextest started it.
pub(crate) fn refusal(exe: Option<&Path>, args: &[OsString], nextest: bool, why: &str) -> String {
    format!(
        "this perf binary is an unoptimised build (debug assertions are on), so nothing was measured: timings \
         of debug code say little about release code, and a loss found in them could fail a build over a \
         difference the release build does not have.\nrtcompare could not build and run the optimised one \
         itself: {why}. Run the optimised build instead:\n\n    {}\n\nTo measure debug code on purpose, set \
         RTCOMPARE_DEBUG=1: its verdicts are printed but never fail a test. (rtcompare goes by \
         `debug_assertions`; a profile with `debug-assertions = false` is measured as usual.)",
        suggested_command(exe, args, nextest)
    )
}

/// The command that measures the same comparisons in an optimised build: `cargo test --release
/// --test <target>` with the arguments this binary was given after `--`, `cargo run --release
/// --example <name>` for an example, or `cargo nextest run --release` under nextest.
fn suggested_command(exe: Option<&Path>, args: &[OsString], nextest: bool) -> String {
    let Some(name) = exe.and_then(binary_name) else {
        return "cargo test --release --test <your perf target>  (add your usual arguments after `--`)".to_owned();
    };
    let example = exe.and_then(Path::parent).and_then(Path::file_name).is_some_and(|dir| dir == "examples");
    let command = if example {
        format!("cargo run --release --example {}", shell_word(&name))
    } else if nextest {
        format!("cargo nextest run --release --test {}", shell_word(&name))
    } else {
        format!("cargo test --release --test {}", shell_word(&name))
    };
    // nextest passes its own per-test arguments, not the user's; anything else was typed after `--`.
    if nextest || args.is_empty() {
        return command;
    }
    let words: Option<Vec<String>> = args.iter().map(|arg| arg.to_str().map(shell_word)).collect();
    match words {
        Some(words) => format!("{command} -- {}", words.join(" ")),
        None => format!("{command}  (add your usual arguments after `--`)"),
    }
}

/// `arg` as one shell word: unchanged when it holds only characters no shell treats specially,
/// else in single quotes (`'` itself written `'\''`).
fn shell_word(arg: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,@+%^".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) { arg.to_owned() } else { format!("'{}'", arg.replace('\'', "'\\''")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    fn command(exe: &str, words: &[&str]) -> String {
        suggested_command(Some(Path::new(exe)), &args(words), false)
    }

    #[test]
    fn the_target_name_comes_from_the_binary_without_cargos_hash() {
        let exe = "/repo/target/debug/deps/perf-1a2b3c4d5e6f7a8b";
        assert_eq!(command(exe, &[]), "cargo test --release --test perf");
        assert_eq!(
            command("/repo/target/debug/deps/my-bench-0123456789abcdef", &[]),
            "cargo test --release --test my-bench"
        );
    }

    #[test]
    fn the_arguments_after_the_double_dash_are_kept_and_quoted_where_needed() {
        let exe = "/repo/target/debug/deps/perf-1a2b3c4d5e6f7a8b";
        assert_eq!(
            command(exe, &["--exact", "perf::a_vs_b"]),
            "cargo test --release --test perf -- --exact perf::a_vs_b"
        );
        assert_eq!(
            command(exe, &["generic::sort_vs_sort::<u32>", "it's"]),
            "cargo test --release --test perf -- 'generic::sort_vs_sort::<u32>' 'it'\\''s'"
        );
        assert_eq!(command(exe, &[""]), "cargo test --release --test perf -- ''");
    }

    #[test]
    fn examples_and_nextest_get_their_own_command() {
        assert_eq!(
            command("/repo/target/debug/examples/quick_start", &["x"]),
            "cargo run --release --example quick_start -- x"
        );
        let exe = Path::new("/repo/target/debug/deps/perf-1a2b3c4d5e6f7a8b");
        assert_eq!(
            suggested_command(Some(exe), &args(&["perf::a_vs_b", "--exact", "--nocapture"]), true),
            "cargo nextest run --release --test perf"
        );
    }

    #[test]
    fn without_a_binary_path_the_message_says_where_the_arguments_go() {
        assert!(suggested_command(None, &[], false).contains("add your usual arguments after `--`"));
    }

    #[test]
    fn the_message_says_why_what_to_run_and_how_to_opt_in() {
        let exe = Path::new("/repo/target/debug/deps/perf-1a2b3c4d5e6f7a8b");
        let message = refusal(Some(exe), &args(&["sort"]), false, "no cargo");
        for part in [
            "unoptimised build",
            "nothing was measured",
            "\nrtcompare could not build and run the optimised one itself: no cargo. Run",
            "\n    cargo test --release --test perf -- sort\n",
            "RTCOMPARE_DEBUG=1",
            "never fail",
        ] {
            assert!(message.contains(part), "missing {part:?} in {message}");
        }
    }
}
