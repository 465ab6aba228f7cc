//! `dlx sudoku candidates`: each puzzle's true candidates (the digits each
//! cell takes in at least one solution) and how many solutions each has,
//! capped (`--limit`, 8 by default, as rangsk's solver caps them). The work
//! is the library's (`dlx::sudoku::candidates`), one puzzle a line (a
//! classic line, the variant text form, f-puzzles' JSON or a link), through
//! the library's ordered batch on `--jobs` threads.
//!
//! Output, one line a puzzle: the cells' candidates row-major, each cell's
//! digits as one group, groups separated by single spaces; with a limit
//! above 1 each group goes on with `:` and its digits' counts (`8+`: the
//! cap, at least 8; `?`: not known), as `25:1,8+`; `none` when the puzzle
//! has no solution; `--json`: `{"candidates": [[…], …], "counts":
//! [[…], …], "complete": bool}`, the counts parallel to the candidates
//! (`null` where a limit stopped the count). A puzzle stopped by
//! `--timeout` or Ctrl-C prints what was decided, then ` incomplete` (the
//! JSON says `"complete": false`); exit code 3 (130 after Ctrl-C).

use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use super::super::{exit, json, output::Output};
use dlx::sudoku::{batch, candidates, Alphabet, Candidates, Limits, Puzzle, Settings};

#[derive(Args, Debug)]
pub(crate) struct CandidatesArgs {
    /// Puzzle files, one puzzle a line: a classic line, the variant text
    /// form, f-puzzles' JSON or a link (blank lines and lines starting
    /// with `#` are skipped); none or `-` reads standard input.
    files: Vec<PathBuf>,
    /// Count each candidate's solutions up to K (1: only whether it has
    /// one).
    #[arg(long, value_name = "K", default_value = "8", value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
    /// Print one JSON object per puzzle instead.
    #[arg(long)]
    json: bool,
    /// Worker threads (default and most: the cores). Output keeps input
    /// order.
    #[arg(long, value_name = "N", value_parser = super::super::parse_jobs)]
    jobs: Option<usize>,
    /// Give up on a puzzle after this long (e.g. 10s, 250ms; 0 for never):
    /// what was decided is printed, marked incomplete, and the exit code
    /// is 3.
    #[arg(long, default_value = "0", value_parser = super::super::parse_duration)]
    timeout: Duration,
}

/// One puzzle's answer: its line, or why there is none.
struct Answered {
    text: Result<String, String>,
    code: u8,
}

pub(crate) fn run(args: CandidatesArgs) -> u8 {
    let jobs = super::super::jobs(args.jobs.unwrap_or(usize::MAX));
    let files: Vec<Option<PathBuf>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files.iter().cloned().map(Some).collect()
    };
    let mut out = Output::stdout();
    let mut code = exit::FOUND;
    let cancel = super::super::interrupt::handle();
    let timeout = (!args.timeout.is_zero()).then_some(args.timeout);
    let limits = || {
        let mut l = Limits::count_to(args.limit).cancel(&cancel);
        if let Some(t) = timeout {
            l = l.deadline(Instant::now() + t);
        }
        l
    };
    for file in &files {
        let name = super::super::input_name(file.as_ref());
        let input = match super::super::open_input(file.as_deref()) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("dlx sudoku: {name}: {e}");
                code = exit::worse(code, exit::BAD_INPUT);
                continue;
            }
        };
        let mut lines = input.lines().enumerate();
        let mut read_error = None;
        let mut puzzles = 0u64;
        let source = |_hint: usize| loop {
            let (k, line) = lines.next()?;
            match line {
                // Blank lines and comments (`#`, as the collections write them).
                Ok(l) if l.trim().is_empty() || l.trim_start().starts_with('#') => continue,
                Ok(l) => return Some((k + 1, l)),
                Err(e) => {
                    read_error = Some(e);
                    return None;
                }
            }
        };
        batch::run(
            &Settings::default(),
            jobs,
            source,
            |sudoku, (number, line): (usize, String)| match line.parse::<Puzzle>() {
                Err(e) => Answered {
                    text: Err(format!("{name}:{number}: {e}")),
                    code: exit::BAD_INPUT,
                },
                Ok(p) => match candidates(sudoku, &p, &limits()) {
                    Err(e) => Answered {
                        text: Err(format!("{name}:{number}: {e}")),
                        code: exit::BAD_INPUT,
                    },
                    Ok(c) => render(&c, args.json),
                },
            },
            |answered| {
                puzzles += 1;
                code = exit::worse(code, answered.code);
                match answered.text {
                    Ok(line) => out.println(&line) && !super::super::interrupt::interrupted(),
                    Err(why) => {
                        eprintln!("dlx sudoku: {why}");
                        true
                    }
                }
            },
        );
        if let Some(e) = read_error {
            eprintln!("dlx sudoku: {name}: {e}");
            code = exit::worse(code, exit::BAD_INPUT);
        } else if puzzles == 0 && out.is_ok() {
            eprintln!("dlx sudoku: {name}: no puzzles in the input");
            code = exit::worse(code, exit::BAD_INPUT);
        }
        if super::super::interrupt::interrupted() {
            code = exit::worse(code, exit::INTERRUPTED);
            break;
        }
    }
    out.finish("dlx sudoku", code)
}

/// One puzzle's line (text or JSON) and its exit code.
fn render(c: &Candidates, as_json: bool) -> Answered {
    let side = c.side();
    let cells = side * side;
    let code = if !c.complete() {
        exit::BUDGET
    } else if !c.solvable() {
        exit::NONE
    } else {
        exit::FOUND
    };
    if as_json {
        return Answered {
            text: Ok(json::line(&c)),
            code,
        };
    }
    if c.complete() && !c.solvable() {
        return Answered {
            text: Ok("none".into()),
            code,
        };
    }
    let alphabet = Alphabet::default_for(side);
    let mut s = String::new();
    for cell in 0..cells {
        if cell > 0 {
            s.push(' ');
        }
        let digits = c.digits(cell);
        if digits.is_empty() {
            s.push('-');
        }
        s.extend(digits.iter().map(|&d| alphabet.symbol(d)));
        if c.cap() > 1 && !digits.is_empty() {
            s.push(':');
            for (k, &d) in digits.iter().enumerate() {
                if k > 0 {
                    s.push(',');
                }
                match c.count(cell, d) {
                    Some(n) if n >= c.cap() => s.push_str(&format!("{n}+")),
                    Some(n) => s.push_str(&n.to_string()),
                    None => s.push('?'),
                }
            }
        }
    }
    if !c.complete() {
        s.push_str(" incomplete");
    }
    Answered { text: Ok(s), code }
}
