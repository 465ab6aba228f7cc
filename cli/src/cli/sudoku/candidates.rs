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

use clap::Args;
use serde::Serialize;

use super::super::{exit, json};
use super::lines::{Answered, Lines};
use dlx::sudoku::{candidates, Alphabet, Candidates, Limits};

#[derive(Args, Debug)]
pub(crate) struct CandidatesArgs {
    #[command(flatten)]
    lines: Lines,
    /// Count each candidate's solutions up to K (1: only whether it has
    /// one).
    #[arg(long, value_name = "K", default_value = "8", value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
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
    let cancel = super::super::interrupt::handle();
    let as_json = args.lines.json;
    let limits = || {
        let mut l = Limits::count_to(args.limit).cancel(&cancel);
        if let Some(d) = args.lines.deadline() {
            l = l.deadline(d);
        }
        l
    };
    args.lines.run(|sudoku, at, read| {
        match read.and_then(|p| candidates(sudoku, &p, &limits()).map_err(|e| e.to_string())) {
            Err(why) => invalid(at, &why, as_json, args.limit),
            Ok(c) => render(&c, as_json),
        }
    })
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
