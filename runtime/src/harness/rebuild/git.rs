//! Running git: the one way the harness asks a repository anything.

use crate::child;
use crate::harness::error::HarnessError;
use std::path::Path;
use std::process::Command;

/// Runs git in `dir` and returns its trimmed standard output, or why it failed.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String, HarnessError> {
    git_output(dir, args).map(|text| text.trim().to_owned())
}

/// Runs git in `dir` and returns its standard output as it is, or why it failed.
pub(crate) fn git_output(dir: &Path, args: &[&str]) -> Result<String, HarnessError> {
    let output = child::output(Command::new("git").arg("-C").arg(dir).args(args)).map_err(HarnessError::NoGit)?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        let said = child::last_lines(&String::from_utf8_lossy(&output.stderr), 3);
        Err(HarnessError::Git { args: args.join(" "), said })
    }
}
