//! The binary's I/O contract (README, "Exit codes"): every failure reported
//! with its exit code, every input read as what it is. Each test runs the
//! binary and checks exit code, stdout and stderr.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dlx");
const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

/// Runs `dlx args` with `stdin`, its stdout into `stdout`.
fn run_to(args: &[&str], stdin: &[u8], stdout: Stdio) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // Fed from a thread: a command that stops early stops reading.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_to(args, stdin, Stdio::piped())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `dlx args` with its stdout a pipe whose reader has gone; returns
/// the exit code and stderr.
fn run_into_closed_pipe(args: &[&str], stdin: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    (status.code(), err)
}

/// A command of every kind that writes to stdout.
fn writers() -> Vec<Vec<String>> {
    let sample = format!("{PUZZLES}/poj3074_sample.in");
    let langford = format!("{PUZZLES}/langford4.dlx");
    let lines: &[&[&str]] = &[
        &["sudoku", "solve", &sample],
        &["sudoku", "count", &sample],
        &["sudoku", "check", &sample],
        &["sudoku", "solve", "--jobs", "2", &sample],
        &["sudoku", "bench", "--solver", "dlx", &sample],
        &["sudoku", "generate", "--count", "2"],
        &["cover", &langford],
        &["cover", "--all", &langford],
        &["cover", "--json", &langford],
        &["cover", "--jobs", "2", &langford],
        &["gen", "queens", "8"],
    ];
    lines
        .iter()
        .map(|l| l.iter().map(|s| s.to_string()).collect())
        .collect()
}

#[test]
fn output_that_cannot_be_written_is_an_error_exit_2() {
    if !Path::new("/dev/full").exists() {
        eprintln!("no /dev/full here: skipped");
        return;
    }
    for args in writers() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = run_to(&args, b"", Stdio::from(full));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("cannot write output"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    for args in writers() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, err) = run_into_closed_pipe(&args, b"");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_stops_the_work_at_once() {
    // 20,000 puzzles: the first buffer of answers meets the closed pipe,
    // and the run stops there (the summary counts what was answered).
    let puzzle = text(&std::fs::read(format!("{PUZZLES}/poj3074_sample.in")).unwrap());
    let line = puzzle.lines().next().unwrap().to_string() + "\n";
    let input = line.repeat(20_000);
    for jobs in ["1", "2"] {
        let (code, err) = run_into_closed_pipe(
            &["sudoku", "solve", "--stats", "--jobs", jobs, "-"],
            input.as_bytes(),
        );
        assert_eq!(code, Some(0), "{err}");
        let answered: u64 = err
            .split("puzzles: ")
            .nth(1)
            .and_then(|s| s.split(',').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no summary in {err}"));
        assert!(answered < 20_000, "--jobs {jobs}: {answered} answered");
    }
    // Queens 10 has 724 solutions: printing them all is far more than a
    // buffer, and the search stops when the first buffer is refused.
    let queens = run(&["gen", "queens", "10"], b"").stdout;
    let (code, err) = run_into_closed_pipe(&["cover", "--all", "--stats", "-"], &queens);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("(search incomplete)"), "{err}");
}
