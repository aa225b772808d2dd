//! Tells the harness the rustflags this build was made with. Cargo gives a build script the
//! flags it passes to every crate of the build, whichever of `CARGO_ENCODED_RUSTFLAGS`,
//! `RUSTFLAGS`, `target.<triple>.rustflags` or `build.rustflags` they came from, and reruns it
//! when they change; no other stable way tells a running binary how it was compiled. A
//! comparison against a git revision builds both sides again with these flags and the code
//! alignment of `docs/placement.md` added (`src/harness/rebuild/aligned.rs`).

fn main() {
    // Separated by 0x1f, as Cargo encodes them; an empty value is a build with no flags.
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-env=RTCOMPARE_BUILT_RUSTFLAGS={flags}");
}
