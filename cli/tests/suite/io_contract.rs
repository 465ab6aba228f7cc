//! The binary's I/O contract (README, "Exit codes"): every failure reported
//! with its exit code, every input read as what it is. Each test runs the
//! binary and checks exit code, stdout and stderr.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{run, run_to, text, BIN, PUZZLES};

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

/// Arguments that would mean nothing, or be ignored, are refused with
/// exit 2 and a message naming them, before anything is printed.
#[test]
fn arguments_mean_what_they_say() {
    let sample = format!("{PUZZLES}/poj3074_sample.in");
    let langford = format!("{PUZZLES}/langford4.dlx");
    let s = sample.as_str();
    let cases: &[(&[&str], &str)] = &[
        (&["sudoku", "count", "--limit", "0", s], "--limit"),
        (&["sudoku", "bench", "--limit", "0", s], "--limit"),
        (&["cover", "--first", "0", &langford], "--first"),
        (
            &["sudoku", "generate", "--node-budget", "0"],
            "--node-budget",
        ),
        (&["sudoku", "check", "--jobs", "0", s], "--jobs"),
        (&["sudoku", "bench", "--jobs", "0", s], "--jobs"),
        (&["cover", "--jobs", "0", &langford], "--jobs"),
        (&["sudoku", "check", "--timeout", "1e12s", s], "longer than"),
        (
            &["sudoku", "check", "--timeout", "soon", s],
            "not a duration",
        ),
        (
            &["sudoku", "check", "--output-format", "line", s],
            "--output-format",
        ),
        (
            &["sudoku", "count", "--output-format", "grid", s],
            "--output-format",
        ),
        (
            &["sudoku", "solve", "--json", "--output-format", "grid", s],
            "--output-format",
        ),
        (
            &[
                "sudoku",
                "solve",
                "--solver",
                "backtrack",
                "--branching",
                "knuth",
                s,
            ],
            "--branching",
        ),
        (
            &[
                "sudoku",
                "count",
                "--solver",
                "backtrack-mrv",
                "--engine",
                "links",
                s,
            ],
            "--engine",
        ),
        (
            &[
                "sudoku",
                "check",
                "--solver",
                "backtrack",
                "--lookahead-after",
                "never",
                s,
            ],
            "--lookahead-after",
        ),
        (
            &[
                "sudoku",
                "solve",
                "--engine",
                "bits",
                "--branching",
                "lookahead",
                s,
            ],
            "bits engine",
        ),
        (
            &[
                "cover",
                "--engine",
                "dense",
                "--branching",
                "lookahead",
                &langford,
            ],
            "dense engine",
        ),
    ];
    for (args, names) in cases {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(names), "{args:?}: {err}");
    }
}

#[test]
fn a_positive_timeout_is_never_infinite_and_jobs_are_capped() {
    // An empty 25×25 grid: counting its solutions never ends, so only the
    // deadline (a nanosecond here, not "never") stops it.
    let empty = format!("{}\n", "-".repeat(625));
    let out = run(
        &[
            "sudoku",
            "count",
            "--timeout",
            "0.0000000001s",
            "--jobs",
            "1",
        ],
        empty.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("timeout"));
    // More threads than cores: the run uses the cores, and says so.
    let langford = format!("{PUZZLES}/langford4.dlx");
    let out = run(&["cover", "--jobs", "100000", "--json", &langford], b"");
    assert_eq!(out.status.code(), Some(0));
    let json = text(&out.stdout);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(json.contains(&format!(r#""jobs":{cores},"#)), "{json}");
}

#[test]
fn messages_count_in_words() {
    let langford = format!("{PUZZLES}/langford4.dlx");
    let out = run(&["cover", "--stats", "--first", "1", &langford], b"");
    let err = text(&out.stderr);
    assert!(err.starts_with("1 solution (search incomplete),"), "{err}");
    let out = run(&["cover", "--stats", &langford], b"");
    assert!(text(&out.stderr).starts_with("2 solutions,"));
}

/// A solved grid of box side `b` (the canonical pattern), written in
/// `symbols`, with every `k`-th cell emptied (`.`).
fn pattern_line(b: usize, symbols: &[u8], k: usize) -> String {
    let n = b * b;
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            if (i + 1) % k == 0 {
                '.'
            } else {
                symbols[(b * (r % b) + r / b + c) % n] as char
            }
        })
        .collect()
}

#[test]
fn every_promised_size_round_trips_through_every_command() {
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for b in [5usize, 6, 7, 8] {
        let puzzle = pattern_line(b, LETTERS, 5) + "\n";
        let solved = run(&["sudoku", "solve", "--jobs", "1"], puzzle.as_bytes());
        assert_eq!(
            solved.status.code(),
            Some(0),
            "{b}: {}",
            text(&solved.stderr)
        );
        // The answer keeps every given (and `check` below says it is a
        // valid grid: a full grid is unique when it is valid).
        let line = text(&solved.stdout);
        assert_eq!(line.trim().len(), puzzle.trim().len(), "{b}");
        for (p, a) in puzzle.trim().chars().zip(line.trim().chars()) {
            assert!(p == '.' || p == a, "{b}: {p} became {a}");
        }
        // The answer, read back as a puzzle: solved, in every format.
        for format in ["line", "poj3076", "grid"] {
            let out = run(
                &["sudoku", "solve", "--output-format", format],
                line.as_bytes(),
            );
            assert_eq!(out.status.code(), Some(0), "{b} {format}");
            let back = run(&["sudoku", "check"], &out.stdout);
            assert_eq!(
                text(&back.stdout),
                "unique\n",
                "{b} {format}: {}",
                text(&back.stderr)
            );
        }
    }
    // The generator's own 36×36 output is read back (a 4×4 here: the same
    // writer; 36×36 takes a minute to generate).
    let out = run(
        &["sudoku", "generate", "--box-side", "2", "--count", "3"],
        b"",
    );
    let back = run(&["sudoku", "check"], &out.stdout);
    assert_eq!(text(&back.stdout), "unique\nunique\nunique\n");
    // An alphabet too small for the size is named.
    let puzzle = pattern_line(6, LETTERS, 5) + "\n";
    let out = run(
        &["sudoku", "check", "--alphabet", "digits"],
        puzzle.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).contains("digits alphabet writes up to 35×35"));
}

#[test]
fn an_ambiguous_alphabet_is_refused_not_guessed() {
    // 16×16 in hex (0-9A-F), with `0` given and no `G`: hex, or 1-9A-G
    // with `0` empty, are two different puzzles.
    let hex = pattern_line(4, b"0123456789ABCDEF", 3) + "\n";
    let out = run(&["sudoku", "check"], hex.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stdout);
    assert!(
        said.contains("--alphabet hex") && said.contains("--alphabet digits"),
        "{said}"
    );
    let out = run(&["sudoku", "solve", "--alphabet", "hex"], hex.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        pattern_line(4, b"0123456789ABCDEF", usize::MAX) + "\n"
    );
    // With `G` there is one reading: digits, `0` empty.
    let digits = pattern_line(4, b"123456789ABCDEFG", 3).replace('.', "0") + "\n";
    let out = run(&["sudoku", "check"], digits.as_bytes());
    assert_eq!(text(&out.stdout), "unique\n", "{}", text(&out.stderr));
}

#[test]
fn inputs_are_read_as_what_they_are() {
    // A byte-order mark, in a Sudoku file and in Knuth's format.
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let out = run(&["sudoku", "check"], format!("\u{feff}{line}\n").as_bytes());
    assert_eq!(text(&out.stdout), "unique\n", "{}", text(&out.stderr));
    let langford = std::fs::read(format!("{PUZZLES}/langford4.dlx")).unwrap();
    let mut bom = "\u{feff}".as_bytes().to_vec();
    bom.extend(&langford);
    let out = run(&["cover"], &bom);
    assert_eq!(text(&out.stdout), "2\n", "{}", text(&out.stderr));
    // The tool's own 4×4 POJ 3076 answer, empty first row and all, read
    // back as POJ 3076 (it was detected as a 4×4 `line` puzzle).
    let puzzle = "----\n1---\n--2-\n---3\n";
    let out = run(&["sudoku", "solve"], puzzle.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 4);
    // A directory: one message naming it, nothing on stdout.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for args in [&["sudoku", "check", dir][..], &["cover", dir][..]] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("is a directory") && err.lines().count() == 1,
            "{err}"
        );
    }
    // A binary file: one error for it, not one per line.
    let mut binary = vec![0x7fu8, b'E', b'L', b'F', 2, 1, 1, 0, b'\n'];
    for k in 0..4000u32 {
        binary.extend(k.to_le_bytes());
        binary.push(b'\n');
    }
    let out = run(&["sudoku", "check"], &binary);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout).lines().count(), 1);
    assert!(text(&out.stdout).contains("not a text file"));
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    // POJ 2676 with a count smaller than its grids: every grid answered,
    // and the mismatch reported.
    let sample = std::fs::read(format!("{PUZZLES}/poj2676_sample.in")).unwrap();
    let grids = text(&sample);
    let body = grids.split_once('\n').unwrap().1;
    let twice = format!("1\n{body}\n{body}");
    let out = run(
        &["sudoku", "solve", "--format", "poj2676"],
        twice.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stdout).lines().count(),
        18,
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("the count says 1 puzzle but the input has 2 puzzles"));
}

#[test]
fn leading_blank_lines_are_not_held() {
    // 3 million blank lines before a puzzle: read in constant memory (the
    // reader drops them; this checks the answer, the unit test the bound).
    let mut input = vec![b'\n'; 3_000_000];
    input.extend(
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    );
    let out = run(&["sudoku", "check"], &input);
    assert_eq!(text(&out.stdout), "unique\n");
}

#[test]
fn poj2918_is_read_detected_and_answered() {
    let sample = std::fs::read(format!("{PUZZLES}/poj2918_sample.in")).unwrap();
    let want = text(&std::fs::read(format!("{PUZZLES}/poj2918_sample.out")).unwrap());
    // One scenario reads as POJ 2676 too: named, it is answered as 2918.
    let one: String = text(&sample)
        .lines()
        .skip(1)
        .take(10)
        .map(|l| format!("{l}\n"))
        .collect();
    let one = format!("1\n{one}");
    let out = run(&["sudoku", "solve", "--format", "poj2918"], one.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first: String = want.lines().take(11).map(|l| format!("{l}\n")).collect();
    assert_eq!(text(&out.stdout), first);
    // Any answer can be written as 2918.
    let out = run(
        &[
            "sudoku",
            "solve",
            "--output-format",
            "poj2918",
            &format!("{PUZZLES}/poj2676_sample.in"),
        ],
        b"",
    );
    assert!(text(&out.stdout).starts_with("Scenario #1:\n143628579\n"));
}

#[test]
fn messages_escape_names_and_json_keeps_its_fields() {
    // An item named with a terminal escape is shown escaped.
    let out = run(&["cover"], b"A B\nA \x1b[31mX\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains(r"unknown item `\u{1b}[31mX`"), "{err}");
    assert!(!err.contains('\x1b'));
    // Every JSON object has every field, an invalid puzzle's too.
    let fields = [
        "file",
        "index",
        "line",
        "puzzle",
        "solution",
        "status",
        "solutions",
        "complete",
        "timed_out",
        "nodes",
        "error",
        "micros",
    ];
    let input = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n12345\n";
    let out = run(&["sudoku", "check", "--json"], input.as_bytes());
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        for f in fields {
            assert!(line.contains(&format!("\"{f}\":")), "{f} in {line}");
        }
    }
    assert!(lines[0].contains(r#""error":null"#));
    assert!(lines[1].contains(r#""status":"invalid""#) && lines[1].contains(r#""solution":null"#));
    // cover's JSON carries the profile asked for.
    let langford = format!("{PUZZLES}/langford4.dlx");
    let out = run(&["cover", "--json", "--profile", &langford], b"");
    assert!(
        text(&out.stdout).contains(r#""profile":[1,3,6,6,2]"#),
        "{}",
        text(&out.stdout)
    );
}
