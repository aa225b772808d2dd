//! Both sides of a comparison against a git revision built with their code laid out alike.
//!
//! The placement copies put the measured loop at every offset in both builds, but a function
//! the loop calls without inlining it keeps the one address its build's linker gave it, and two
//! builds of identical code in two folders are linked differently. Identical code then read as
//! a confirmed 15 % loss (`docs/revision.md`, "Two builds, two layouts"). So both sides are
//! built with every function aligned to 64 bytes and every block not reached by falling through
//! to 32 (`docs/placement.md`'s recipe), on top of the flags this binary was built with, which
//! rtcompare-runtime's build script recorded whatever they came from. Cargo takes
//! `CARGO_ENCODED_RUSTFLAGS` over every other source, so both builds get exactly these flags.
//!
//! A binary built with the recipe already is its own aligned side; any other has its test
//! target built again, aligned, in a target folder of its own.

use std::process::Command;

/// The flags this binary was built with, separated by 0x1f, as Cargo gave them to
/// rtcompare-runtime's build script.
const BUILT_WITH: &str = env!("RTCOMPARE_BUILT_RUSTFLAGS");

/// The recipe: each LLVM option, and the flag that sets it.
const RECIPE: [(&str, &str); 2] = [
    ("-align-all-functions=", "-Cllvm-args=-align-all-functions=6"),
    ("-align-all-nofallthru-blocks=", "-Cllvm-args=-align-all-nofallthru-blocks=5"),
];

/// The flags a side of a comparison against a revision is built with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AlignedFlags {
    /// This build's flags with the recipe's options it does not set already.
    flags: Vec<String>,
    /// Whether this build set them all: its binary is laid out as an aligned build would be.
    already: bool,
}

impl AlignedFlags {
    /// The aligned flags of this binary's build.
    pub(crate) fn of_this_build() -> AlignedFlags {
        AlignedFlags::over(BUILT_WITH)
    }

    /// The aligned flags over `built`, flags separated by 0x1f. An option the build sets
    /// already is kept at its value and not given twice (LLVM refuses an option given twice).
    fn over(built: &str) -> AlignedFlags {
        let mut flags: Vec<String> = built.split('\x1f').filter(|flag| !flag.is_empty()).map(str::to_owned).collect();
        let missing: Vec<&str> = RECIPE
            .iter()
            .filter(|(option, _)| !flags.iter().any(|flag| flag.contains(option)))
            .map(|(_, flag)| *flag)
            .collect();
        let already = missing.is_empty();
        flags.extend(missing.into_iter().map(str::to_owned));
        AlignedFlags { flags, already }
    }

    /// Whether this binary needs no aligned build of its own.
    pub(crate) fn already(&self) -> bool {
        self.already
    }

    /// Makes `command`, a cargo build, use these flags and no others.
    pub(crate) fn apply(&self, command: &mut Command) {
        command.env("CARGO_ENCODED_RUSTFLAGS", self.flags.join("\x1f")).env_remove("RUSTFLAGS");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recipe_is_added_to_the_builds_own_flags() {
        let aligned = AlignedFlags::over("-Ctarget-cpu=native");
        assert_eq!(
            aligned.flags,
            ["-Ctarget-cpu=native", "-Cllvm-args=-align-all-functions=6", "-Cllvm-args=-align-all-nofallthru-blocks=5"]
        );
        assert!(!aligned.already());
        assert_eq!(AlignedFlags::over("").flags.len(), 2);
    }

    #[test]
    fn an_option_the_build_sets_is_kept_at_its_value_and_not_given_twice() {
        let aligned = AlignedFlags::over("-C\x1fllvm-args=-align-all-functions=5");
        assert_eq!(
            aligned.flags,
            ["-C", "llvm-args=-align-all-functions=5", "-Cllvm-args=-align-all-nofallthru-blocks=5"]
        );
        assert!(!aligned.already());
        let both = "-Cllvm-args=-align-all-functions=6\x1f-Cllvm-args=-align-all-nofallthru-blocks=4";
        let aligned = AlignedFlags::over(both);
        assert_eq!(aligned.flags.len(), 2);
        assert!(aligned.already(), "a build with both options set is its own aligned side");
    }

    #[test]
    fn the_flags_replace_every_other_source_of_rustflags() {
        let mut command = Command::new("cargo");
        command.env("RUSTFLAGS", "-Copt-level=0");
        AlignedFlags::over("-Ctarget-cpu=native").apply(&mut command);
        let envs: Vec<_> = command.get_envs().collect();
        assert!(envs.contains(&("RUSTFLAGS".as_ref(), None)));
        let encoded = envs.iter().find(|(name, _)| *name == "CARGO_ENCODED_RUSTFLAGS").and_then(|(_, v)| *v);
        assert_eq!(
            encoded.and_then(|v| v.to_str()),
            Some(
                "-Ctarget-cpu=native\x1f-Cllvm-args=-align-all-functions=6\x1f-Cllvm-args=-align-all-nofallthru-blocks=5"
            )
        );
    }
}
