//! Every malformed `#[compare]` and `main!()` is a compile error pointing at the offending
//! token. The expected messages are the `.stderr` files beside each case.

#[test]
fn malformed_attributes_are_spanned_compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
