//! Statistics on measured samples: order statistics, the parity rule, the paired bootstrap,
//! drift and dependence. Everything here is a pure function of its inputs (and a seed), so it is
//! tested on synthetic data and gives the same answer for the same samples.

mod autocorrelation;
mod block_length;
mod bootstrap;
mod drift;
mod normal;
mod parity;
mod pooled;
mod quantile;
mod signed_rank;
mod student;

pub use autocorrelation::lag1_autocorrelation;
pub use block_length::block_length;
pub use bootstrap::{
    BLOCK_THRESHOLD, Bootstrap, DEFAULT_RESAMPLES, Estimate, MAX_RESAMPLES, Resampling, bootstrap_difference,
    choose_resampling, paired_ratios, ratio, resamples_for_level,
};
pub use drift::{DRIFT_ALPHA, Drift, detect_drift};
pub use normal::{normal_quantile, two_sided_normal_p};
pub use parity::{Outcome, ParityInputs, ParityVerdict, Spread, fast_end, parity_verdict, win_margin};
pub use pooled::{Pooled, pool_processes};
pub use quantile::sorted_copy;
pub use quantile::{Summary, median, quantile_sorted};
pub use signed_rank::{SignedRank, SignedRankAnalysis, fewest_for_level};
pub use student::{student_t_cdf, student_t_quantile};
