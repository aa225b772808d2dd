//! Holder of the criterion benchmark `benches/detection.rs`: the workloads come from
//! `rtcompare-detection-fixture`, the same functions rtcompare measures in `bench/detection`.
