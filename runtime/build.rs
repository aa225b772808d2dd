//! Tells the harness how this build was made: its rustflags and its compiler. Cargo gives a
//! build script the flags it passes to every crate of the build, whichever of
//! `CARGO_ENCODED_RUSTFLAGS`, `RUSTFLAGS`, `target.<triple>.rustflags` or `build.rustflags` they
//! came from, and the compiler it builds them with (`RUSTC`), and reruns it when they change;
//! no other stable way tells a running binary how it was compiled. A comparison against a git
//! revision builds both sides again with these flags and the code alignment of
//! `docs/placement.md` added (`src/harness/rebuild/aligned.rs`); the results file names the
//! compiler (`src/environment.rs`).

use std::process::Command;

fn main() {
    // Separated by 0x1f, as Cargo encodes them; an empty value is a build with no flags.
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-env=RTCOMPARE_BUILT_RUSTFLAGS={flags}");
    // Read here, once per build, rather than by starting `rustc` (a rustup proxy, tens of
    // milliseconds) in every test process; and it is the compiler that built the binary, where
    // the `rustc` on the `PATH` at run time may be another. Empty where it cannot be read.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc).arg("--version").output().ok().filter(|output| output.status.success());
    let version = version.map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned()).unwrap_or_default();
    println!("cargo::rustc-env=RTCOMPARE_BUILT_RUSTC={version}");
}
