//! The GitHub workflows that docs/revision.md offers, kept from rotting: every ```yaml block
//! there parses as YAML into jobs of steps that each `uses` an action or `run`s a command, and
//! the commands that can run without GitHub — every `run:` step but those that call GitHub's API
//! (`gh`) or join shards' files (`jq`) — run green, in order, in a fixture repository shaped as
//! the workflows expect: a branch with `origin/main` behind it and a perf target with comparisons
//! against the revision and in one build. The files the workflows upload from the target folder
//! then exist. A step under cargo nextest is skipped, saying so, where cargo-nextest is not
//! installed.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{nested_target, root, run, take_turn, text};
use yaml_rust2::YamlLoader;

/// One step of a documented workflow.
#[derive(Debug)]
struct Step {
    /// `<workflow>/<job>/<step name or action>`, for messages.
    at: String,
    /// Its command, where it runs one.
    run: Option<String>,
    /// The files an `actions/upload-artifact` step uploads.
    uploads: Vec<String>,
}

/// The ```yaml blocks of `markdown`.
fn yaml_blocks(markdown: &str) -> Vec<&str> {
    markdown.split("```yaml\n").skip(1).filter_map(|rest| rest.split("```").next()).collect()
}

/// Every step of the workflow `yaml`, in order, each checked to use an action or run a command.
fn steps(yaml: &str, index: usize) -> Vec<Step> {
    let documents =
        YamlLoader::load_from_str(yaml).unwrap_or_else(|e| panic!("workflow {index} is not YAML: {e}\n{yaml}"));
    assert_eq!(documents.len(), 1, "workflow {index}: one document");
    let workflow = &documents[0];
    let name = workflow["name"].as_str().unwrap_or_else(|| panic!("workflow {index} has no name"));
    assert!(!workflow["on"].is_badvalue(), "{name}: no `on`");
    let jobs = workflow["jobs"].as_hash().unwrap_or_else(|| panic!("{name}: no jobs"));
    let mut all = Vec::new();
    for (job, body) in jobs {
        let job = job.as_str().unwrap_or_default();
        assert!(body["runs-on"].as_str().is_some(), "{name}/{job}: no runs-on");
        for step in body["steps"].as_vec().unwrap_or_else(|| panic!("{name}/{job}: no steps")) {
            let (uses, run) = (step["uses"].as_str(), step["run"].as_str());
            assert!(uses.is_some() != run.is_some(), "{name}/{job}: a step must use an action or run a command");
            let at = format!("{name}/{job}/{}", step["name"].as_str().or(uses).unwrap_or("?"));
            let uploads = match uses {
                Some(action) if action.starts_with("actions/upload-artifact@") => step["with"]["path"]
                    .as_str()
                    .unwrap_or_default()
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect(),
                _ => Vec::new(),
            };
            all.push(Step { at, run: run.map(str::to_owned), uploads });
        }
    }
    all
}

/// `command` with the GitHub expressions the documented workflows use given the fixture's
/// values; any other expression fails the test, so that a new one is given a value here.
fn expanded(command: &str, at: &str) -> String {
    let values = [("github.base_ref", "main"), ("matrix.shard", "1"), ("github.event.number", "7")];
    let mut text = command.to_owned();
    for (name, value) in values {
        text = text.replace(&format!("${{{{ {name} }}}}"), value);
    }
    assert!(!text.contains("${{"), "{at}: an expression this test gives no value: {text}");
    text
}

/// A git repository for the workflows: `main` with a library and a perf target, then a branch
/// one commit ahead of `origin/main` (the branch's own commit changes no code); its `target`
/// folder is the nested target folder, so the dependencies are built once.
fn fixture() -> PathBuf {
    let dir = nested_target().join("workflow-fixture");
    let _ = std::fs::remove_dir_all(&dir);
    let write = |file: &str, text: &str| {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap_or(&dir)).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    };
    write(
        "Cargo.toml",
        &format!(
            "[package]\nname = \"workflow-fixture\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [workspace]\n\n[lib]\nname = \"library\"\n\n[dev-dependencies]\nrtcompare = {{ path = '{}' }}\n\n\
             [[test]]\nname = \"perf\"\nharness = false\ntest = false\n",
            root().display()
        ),
    );
    write("Cargo.lock", &std::fs::read_to_string(root().join("Cargo.lock")).expect("rtcompare's Cargo.lock"));
    write(".gitignore", "target\n");
    write(
        "src/lib.rs",
        "pub fn work(n: u64) -> u64 {\n    (0..std::hint::black_box(n)).fold(0, |a, i| a ^ std::hint::black_box(i))\n}\n",
    );
    write(
        "tests/perf.rs",
        "use rtcompare::compare;\n\n#[compare]\nfn work() -> u64 {\n    library::work(1_000)\n}\n\nfn copy() -> u64 {\n    \
         library::work(1_000)\n}\n\n#[compare(baseline = copy)]\nfn same() -> u64 {\n    library::work(1_000)\n}\n\n\
         #[compare(baseline = copy)]\nfn also_same() -> u64 {\n    library::work(1_000)\n}\n\n#[compare(baseline = copy)]\n\
         fn still_same() -> u64 {\n    library::work(1_000)\n}\n\nrtcompare::main!();\n",
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(nested_target(), dir.join("target")).unwrap_or_else(|e| panic!("{e}"));
    git(&dir, &["init", "--quiet", "--initial-branch=main", "."]);
    git(&dir, &["add", "--all"]);
    git(&dir, &["commit", "--quiet", "-m", "A library and its perf target"]);
    git(&dir, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
    git(&dir, &["switch", "--quiet", "-c", "change"]);
    write("NOTES.md", "A change that is not code.\n");
    git(&dir, &["add", "--all"]);
    git(&dir, &["commit", "--quiet", "-m", "The pull request"]);
    dir
}

fn git(dir: &Path, args: &[&str]) {
    let output = run(Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=rtcompare", "-c", "user.email=rtcompare@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args));
    assert!(output.status.success(), "git {args:?}: {}", text(&output));
}

/// `sh -c command` in `dir`, with the outer run's settings removed, as the workflow's runner
/// would start it. The results file goes where a target folder of the fixture's own would put it
/// (its `target` is the nested target folder, found from the binary's path otherwise).
fn shell(dir: &Path, command: &str) -> std::process::Output {
    let mut shell = Command::new("sh");
    shell.arg("-c").arg(command).current_dir(dir).env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1");
    shell.env("RTCOMPARE_RESULTS", dir.join("target/rtcompare/perf.json"));
    for (name, _) in std::env::vars() {
        if (name.starts_with("RTCOMPARE_") && name != "RTCOMPARE_RESULTS" && name != "RTCOMPARE_TIME")
            || name.starts_with("GITHUB_")
            || name.starts_with("NEXTEST")
        {
            shell.env_remove(name);
        }
    }
    run(&mut shell)
}

fn nextest_installed() -> bool {
    Command::new("cargo").args(["nextest", "--version"]).output().is_ok_and(|output| output.status.success())
}

#[cfg(unix)]
#[test]
fn the_documented_workflows_parse_and_their_commands_run_green() {
    let _turn = take_turn();
    let docs = std::fs::read_to_string(root().join("docs/revision.md")).expect("docs/revision.md");
    let workflows: Vec<Vec<Step>> = yaml_blocks(&docs).iter().enumerate().map(|(i, yaml)| steps(yaml, i)).collect();
    assert!(workflows.len() >= 4, "the merge-base, the shards and the comment's two workflows: {}", workflows.len());
    let dir = fixture();
    let mut ran = 0;
    for step in workflows.iter().flatten() {
        let Some(command) = &step.run else { continue };
        if command.contains("gh ") || command.contains("jq ") {
            continue;
        }
        if command.contains("cargo nextest") && !nextest_installed() {
            println!("skipped: {} needs cargo-nextest (`cargo install cargo-nextest`)", step.at);
            continue;
        }
        let output = shell(&dir, &expanded(command, &step.at));
        assert!(output.status.success(), "{}: `{command}` failed:\n{}", step.at, text(&output));
        ran += 1;
    }
    assert!(ran >= 3, "{ran} commands ran");
    // What the workflows upload from the target folder, the commands wrote (the shards' joined
    // file is jq's, which did not run).
    let uploads: Vec<&String> =
        workflows.iter().flatten().flat_map(|step| &step.uploads).filter(|path| path.starts_with("target/")).collect();
    assert!(uploads.len() >= 3, "{uploads:?}");
    for upload in uploads {
        assert!(dir.join(upload).is_file(), "{upload} was not written");
    }
}
