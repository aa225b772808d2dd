//! Reads the run-wide facts about the machine and the build once, before measuring, from the
//! places Linux exposes without privileges (`/proc`, `/sys`), from `git` on the `PATH`, and from
//! what the build script recorded (the compiler). What cannot be read is recorded as [`UNKNOWN`] (or `None`) and never stops a run; the
//! facts themselves, and the warnings they call for, are the report's [`Environment`].

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

use rtcompare_report::{Environment, Git, Profile, Target, UNKNOWN};

/// Reads every fact now. Runs `git`, so call it before measuring.
pub(crate) fn read(debug_assertions: bool) -> Environment {
    Environment {
        started_at: rfc3339(SystemTime::now()),
        cpu_model: cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, usize::from),
        load_average_start: load_average(),
        load_average_end: None,
        governor: first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
            .unwrap_or_else(|| UNKNOWN.to_owned()),
        power: power_state(Path::new("/sys/class/power_supply")),
        rustc: built_by(env!("RTCOMPARE_BUILT_RUSTC")),
        profile: Profile { debug_assertions, opt_level: UNKNOWN.to_owned() },
        target: Target {
            arch: std::env::consts::ARCH.to_owned(),
            os: std::env::consts::OS.to_owned(),
            family: std::env::consts::FAMILY.to_owned(),
        },
        git: git_state(),
    }
}

/// Records the load average at the end of the run.
pub(crate) fn finish(environment: &mut Environment) {
    environment.load_average_end = load_average();
}

/// The compiler's `rustc --version` as the build script read it, or [`UNKNOWN`] where it could
/// not.
fn built_by(version: &str) -> String {
    if version.is_empty() { UNKNOWN.to_owned() } else { version.to_owned() }
}

/// The first line of a file, trimmed, if it can be read and is not empty.
fn first_line(path: impl AsRef<Path>) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_owned())
}

/// The three load averages of `/proc/loadavg`.
fn load_average() -> Option<[f64; 3]> {
    parse_load_average(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// `"0.52 0.61 0.70 1/123 4567"` → `[0.52, 0.61, 0.70]`.
fn parse_load_average(text: &str) -> Option<[f64; 3]> {
    let mut fields = text.split_whitespace().map(str::parse::<f64>);
    Some([fields.next()?.ok()?, fields.next()?.ok()?, fields.next()?.ok()?])
}

/// The CPU model from `/proc/cpuinfo` (x86's `model name`, some ARM kernels' `Hardware` or
/// `Processor`), or from `sysctl` on macOS.
fn cpu_model() -> String {
    let from_cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|text| parse_cpu_model(&text));
    from_cpuinfo
        .or_else(|| {
            if cfg!(target_os = "macos") { command_line("sysctl", &["-n", "machdep.cpu.brand_string"]) } else { None }
        })
        .unwrap_or_else(|| UNKNOWN.to_owned())
}

fn parse_cpu_model(cpuinfo: &str) -> Option<String> {
    ["model name", "Hardware", "Processor", "cpu model"].iter().find_map(|key| {
        cpuinfo.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            (name.trim() == *key && !value.trim().is_empty()).then(|| value.trim().to_owned())
        })
    })
}

/// `ac` when a mains supply is online or a battery is charging or full, `battery` when a battery
/// discharges, `unknown` otherwise (desktops and servers often expose no supply at all).
fn power_state(dir: &Path) -> String {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return UNKNOWN.to_owned();
    };
    let mut state = UNKNOWN;
    for entry in entries.flatten() {
        let supply = entry.path();
        let kind = first_line(supply.join("type")).unwrap_or_default();
        if kind == "Mains" && first_line(supply.join("online")).as_deref() == Some("1") {
            return "ac".to_owned();
        }
        if kind == "Battery" {
            match first_line(supply.join("status")).as_deref() {
                Some("Discharging") => state = "battery",
                Some("Charging" | "Full") => return "ac".to_owned(),
                _ => {}
            }
        }
    }
    state.to_owned()
}

/// The repository's commit and whether it has changes, or `None` when the current directory is
/// not in a repository (or git is missing).
fn git_state() -> Option<Git> {
    let commit = command_line("git", &["rev-parse", "HEAD"])?;
    let status = crate::child::output(Command::new("git").args(["status", "--porcelain"])).ok()?;
    let dirty = status.status.success() && !status.stdout.is_empty();
    Some(Git { commit, dirty })
}

/// The first line a successful command prints, or `None` if it cannot run or fails.
fn command_line(program: &str, args: &[&str]) -> Option<String> {
    let output = crate::child::output(Command::new(program).args(args)).ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_owned())
}

/// A time as RFC 3339 in UTC with whole seconds, e.g. `2025-03-01T12:34:56Z`. A clock set
/// before 1970 reads as its first second, one past the year 9999 as its last (humantime writes
/// no other years).
pub(crate) fn rfc3339(time: SystemTime) -> String {
    let last = SystemTime::UNIX_EPOCH + Duration::from_secs(253_402_300_799);
    humantime::format_rfc3339_seconds(time.clamp(SystemTime::UNIX_EPOCH, last)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_compiler_is_the_one_the_build_script_read() {
        let environment = read(false);
        assert!(environment.rustc.starts_with("rustc 1."), "{}", environment.rustc);
        assert_eq!(environment.rustc, env!("RTCOMPARE_BUILT_RUSTC"));
        assert_eq!(built_by(""), UNKNOWN);
    }

    fn at(seconds: u64) -> String {
        rfc3339(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
    }

    #[test]
    fn times_are_rfc3339_utc() {
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(951_868_799), "2000-02-29T23:59:59Z");
        assert_eq!(at(1_709_210_096), "2024-02-29T12:34:56Z");
        assert_eq!(at(4_102_444_800), "2100-01-01T00:00:00Z");
        // 2100 is not a leap year.
        assert_eq!(at(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00Z");
    }

    #[test]
    fn times_keep_whole_seconds_and_stay_within_what_rfc3339_writes() {
        assert_eq!(rfc3339(SystemTime::UNIX_EPOCH + Duration::from_millis(1_999)), "1970-01-01T00:00:01Z");
        assert_eq!(rfc3339(SystemTime::UNIX_EPOCH - Duration::from_secs(1)), "1970-01-01T00:00:00Z");
        assert_eq!(at(253_402_300_800), "9999-12-31T23:59:59Z");
    }

    #[test]
    fn load_average_is_parsed() {
        assert_eq!(parse_load_average("0.52 0.61 0.70 1/123 4567\n"), Some([0.52, 0.61, 0.70]));
        assert_eq!(parse_load_average("garbage"), None);
    }

    #[test]
    fn cpu_model_from_x86_and_arm_cpuinfo() {
        assert_eq!(
            parse_cpu_model("processor\t: 0\nmodel name\t: Intel(R) Xeon(R)\n").as_deref(),
            Some("Intel(R) Xeon(R)")
        );
        assert_eq!(parse_cpu_model("CPU part\t: 0xd08\nHardware\t: BCM2835\n").as_deref(), Some("BCM2835"));
        assert_eq!(parse_cpu_model("processor\t: 0\n"), None);
    }

    #[test]
    fn power_state_reads_supplies_and_says_unknown_without_any() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let battery = dir.join("BAT0");
        std::fs::create_dir_all(&battery).unwrap();
        assert_eq!(power_state(dir), UNKNOWN);
        std::fs::write(battery.join("type"), "Battery\n").unwrap();
        std::fs::write(battery.join("status"), "Discharging\n").unwrap();
        assert_eq!(power_state(dir), "battery");
        std::fs::write(battery.join("status"), "Charging\n").unwrap();
        assert_eq!(power_state(dir), "ac");
        std::fs::remove_dir_all(dir).unwrap();
        assert_eq!(power_state(dir), UNKNOWN);
    }
}
