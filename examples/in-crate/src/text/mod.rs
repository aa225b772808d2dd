//! String building, with a nested module below.

pub mod join;
