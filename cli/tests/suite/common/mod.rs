//! What the binary's test files share: running `dlx` and reading its output.
#![allow(dead_code)] // each test file uses its own part

pub mod random;

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_dlx");
pub const PUZZLES: &str = concat!(concat!(env!("CARGO_MANIFEST_DIR"), "/.."), "/puzzles");

/// A folder of its own for a test file's scratch files, under the target
/// directory's `tmp` (Cargo's place for them: `cargo clean` removes it,
/// and the system's temporary folder stays clean).
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `dlx args` with `stdin`, its stdout into `stdout`. Stdin is fed
/// from a thread: a command that stops early stops reading, and a command
/// that fails on its arguments does not read at all (a broken pipe here is
/// not the test's concern; the exit code and output are).
pub fn run_to(args: &[&str], stdin: &[u8], stdout: Stdio) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

/// Runs `dlx args` with `stdin`; stdout and stderr captured.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_to(args, stdin, Stdio::piped())
}

/// Bytes as text, for comparing and messages.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The puzzle `givens` (row-major, 0 for an empty cell) of `rules`, counted
/// to `limit` by the library's solver: the answer and the first solution.
pub fn count(
    rules: &dlx::sudoku::rules::Rules,
    givens: &[u8],
    limit: u64,
) -> (dlx::sudoku::Answer, Option<Vec<u8>>) {
    let puzzle = dlx::sudoku::Puzzle::new(rules.clone(), givens.to_vec()).unwrap();
    let solved = dlx::sudoku::Sudoku::default()
        .solve(&puzzle, &dlx::sudoku::Limits::count_to(limit))
        .unwrap();
    (solved.answer, solved.solution)
}
