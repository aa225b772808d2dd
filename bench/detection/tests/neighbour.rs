//! The neighbours of the loaded conditions are this program in another mode: started here as the
//! benchmark starts them (`--bandwidth <seconds> --parent <pid>`), with a small buffer, they run,
//! say so, and stop when killed, at their limit, or once their parent is gone.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

fn neighbour(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_rtcompare-detection"))
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the benchmark's binary starts")
}

/// The first line the neighbour writes: it writes it after its first copy.
fn first_line(child: &mut Child) -> String {
    let stdout = child.stdout.take().expect("piped");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    line
}

/// Waits for `child` to end by itself; a minute is far more than it needs, so a neighbour that
/// never ends fails the test instead of hanging it.
fn ends_by_itself(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the neighbour did not end by itself");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_bandwidth_neighbour_streams_until_it_is_killed() {
    let me = std::process::id().to_string();
    let mut child = neighbour(&["--bandwidth", "600", "--parent", &me, "--mib", "8"]);
    let line = first_line(&mut child);
    assert_eq!(line, format!("bandwidth neighbour: streaming 8 MiB (pid {})\n", child.id()));
    assert!(child.try_wait().expect("waitable").is_none(), "still streaming after its first copy");
    child.kill().expect("killable");
    let status = child.wait().expect("reaped");
    assert!(!status.success(), "ended by the signal, not by itself: {status}");
}

#[test]
fn the_bandwidth_neighbour_stops_at_its_limit() {
    let mut child = neighbour(&["--bandwidth", "0", "--mib", "1"]);
    assert!(first_line(&mut child).starts_with("bandwidth neighbour: streaming 1 MiB"));
    assert!(ends_by_itself(&mut child).success());
}

#[test]
fn neighbours_stop_when_their_parent_is_gone() {
    // The test process is their parent, so a neighbour told to watch another PID behaves as one
    // whose benchmark died and left it to be adopted.
    let mut bandwidth = neighbour(&["--bandwidth", "600", "--parent", "1", "--mib", "1"]);
    assert!(ends_by_itself(&mut bandwidth).success());
    let mut hog = neighbour(&["--hog", "600", "--parent", "1"]);
    assert!(ends_by_itself(&mut hog).success());
}

#[test]
fn a_neighbour_with_bad_arguments_stops_with_a_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_rtcompare-detection"))
        .args(["--bandwidth", "soon"])
        .output()
        .expect("the benchmark's binary starts");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--bandwidth needs a time limit in seconds as a whole number"), "{stderr}");
}
