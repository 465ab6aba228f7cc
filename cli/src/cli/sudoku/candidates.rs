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
//! has no solution; `invalid: WHY` when it cannot be read (as `count` and
//! `check` say it); `--json`: `{"candidates": [[…], …], "counts":
//! [[…], …], "complete": bool}`, the counts parallel to the candidates
//! (`null` where a limit stopped the count), or `{"candidates": null,
//! "error": WHY, …}`. Every puzzle of the input has its line, in order. A
//! puzzle stopped by `--timeout` or Ctrl-C prints what was decided, then
//! ` incomplete` (the JSON says `"complete": false`); exit code 3 (130
//! after Ctrl-C). `--format` names the input's format as `solve` takes it:
//! a judge's or the grid format reads its records, `line`, `variant` and
//! `fpuzzles` a puzzle a line in that form (without it, each line's form
//! is told apart).

use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::super::{exit, json, output::Output};
use super::FormatArg;
use dlx::sudoku::format::{ReadOptions, Reader};
use dlx::sudoku::input::{read_as, Form};
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
    /// Input format (without it, each line's form is told apart): a
    /// judge's or the grid format reads its records; `line`, `variant` and
    /// `fpuzzles` read a puzzle a line in that form.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
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

/// One puzzle's answer: its line, and why it has no answer (for standard
/// error).
struct Answered {
    text: String,
    why: Option<String>,
    code: u8,
}

/// A puzzle as the source hands it out: a line to read on the worker, or
/// a judge format's record read already.
enum Text {
    Line(String),
    Read(Result<Puzzle, String>),
}

/// The JSON line of a puzzle that could not be read.
#[derive(Serialize)]
struct Invalid<'a> {
    candidates: Option<()>,
    counts: Option<()>,
    limit: u64,
    complete: bool,
    error: &'a str,
}

/// The line of a puzzle that could not be read (`at`: where it is), as
/// `count` writes one.
fn invalid(at: &str, why: &str, as_json: bool, limit: u64) -> Answered {
    let text = if as_json {
        json::line(&Invalid {
            candidates: None,
            counts: None,
            limit,
            complete: false,
            error: why,
        })
    } else {
        format!("invalid: {why}")
    };
    Answered {
        text,
        why: Some(format!("{at}: {why}")),
        code: exit::BAD_INPUT,
    }
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
        let (form, judged) = match args.format {
            None => (None, None),
            Some(FormatArg::Fpuzzles) => (Some(Form::Fpuzzles), None),
            Some(FormatArg::Variant) => (Some(Form::Variant), None),
            Some(FormatArg::Line) => (Some(Form::Line), None),
            Some(f) => (None, f.classic()),
        };
        let (mut records, mut lines) = match judged {
            Some(format) => {
                let options = ReadOptions {
                    format: Some(format),
                    alphabet: None,
                };
                (Some(Reader::new(input, options)), None)
            }
            None => (None, Some(input.lines().enumerate())),
        };
        let mut read_error = None;
        let mut puzzles = 0u64;
        let source = |_hint: usize| match (&mut records, &mut lines) {
            (Some(reader), _) => reader.next().map(|r| {
                let puzzle = (r.grid.as_ref())
                    .map(Puzzle::classic)
                    .map_err(|e| e.to_string());
                (r.line, Text::Read(puzzle))
            }),
            (None, None) => None,
            (None, Some(lines)) => loop {
                let (k, line) = lines.next()?;
                match line {
                    // Blank lines and comments (`#`, as the collections write them).
                    Ok(l) if l.trim().is_empty() || l.trim_start().starts_with('#') => continue,
                    Ok(l) => return Some((k + 1, Text::Line(l))),
                    Err(e) => {
                        read_error = Some(e);
                        return None;
                    }
                }
            },
        };
        batch::run(
            &Settings::default(),
            jobs,
            source,
            |sudoku, (number, text): (usize, Text)| {
                let read = match text {
                    Text::Read(read) => read,
                    Text::Line(line) => match form {
                        Some(form) => read_as(&line, form).map(|p| p.puzzle),
                        None => line.parse::<Puzzle>(),
                    }
                    .map_err(|e| e.to_string()),
                };
                match read
                    .and_then(|p| candidates(sudoku, &p, &limits()).map_err(|e| e.to_string()))
                {
                    Err(why) => invalid(&format!("{name}:{number}"), &why, args.json, args.limit),
                    Ok(c) => render(&c, args.json),
                }
            },
            |answered| {
                puzzles += 1;
                code = exit::worse(code, answered.code);
                if let Some(why) = &answered.why {
                    eprintln!("dlx sudoku: {why}");
                }
                out.println(&answered.text) && !super::super::interrupt::interrupted()
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
            text: json::line(&c),
            why: None,
            code,
        };
    }
    if c.complete() && !c.solvable() {
        return Answered {
            text: "none".into(),
            why: None,
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
    Answered {
        text: s,
        why: None,
        code,
    }
}
