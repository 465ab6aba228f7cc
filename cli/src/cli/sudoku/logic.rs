//! `dlx sudoku explain | rate | hint`: solving by logic, step by step,
//! with Sudoku Explainer's technique names and ratings (the library's
//! `dlx::sudoku::explain`), one puzzle a line (a classic line, the variant
//! text form, f-puzzles' JSON or a link), on `--jobs` threads in input
//! order.
//!
//! * `explain`: each step on its own line, `[rating] text`, then the
//!   puzzle's `rating: ER/EP/ED technique`; a blank line between puzzles.
//!   A puzzle the techniques here do not finish ends with `stuck after N
//!   steps …`. `--json`: one object a puzzle, `{"steps": [{"technique",
//!   "rating", "place": [{"cell": "R1C1", "digit": 5}], "eliminate": […],
//!   "text"}], "solved", "er", "ep", "ed", "hardest"}`.
//! * `rate`: `ER/EP/ED technique`, one line a puzzle (`?` for a figure
//!   not known where stuck). `--json`: the same object without the steps.
//! * `hint`: the next step from the grid given (cells filled are taken as
//!   they are, and pencil marks too: a Sukaku line of 729 symbols or a grid
//!   of candidate lists, each cell's list its candidates): `[rating] text`,
//!   `solved` for a full grid, `stuck` where no technique here applies.
//!   `--json`: the step's object (`null`). Marks that leave out the
//!   solution's digit are named: `invalid: the pencil marks leave out the
//!   solution's digit: 5 of R3C4`.
//!
//! A puzzle must have exactly one solution (the techniques assume it, as
//! SE's do): one with none is `invalid: the givens have no solution`, one
//! with several `invalid: … more than one solution …`. `--timeout` (and
//! Ctrl-C) stops a puzzle's solve where it is: its steps so far, `stopped`.
//!
//! Exit code: 0 when every puzzle was solved (hint: a step found), 3 when
//! one was stuck or stopped, 1 when one has no solution (or pencil marks
//! that leave out the solution's digit), 2 for input not
//! read, a puzzle of several solutions or rules not explained yet.

use clap::Args;
use serde::Serialize;

use super::super::{exit, json};
use super::lines::{Answered, Lines};
use dlx::sudoku::explain::{self, ExplainError, Explanation, Until};

#[derive(Args, Debug)]
pub(crate) struct LogicArgs {
    #[command(flatten)]
    lines: Lines,
}

/// Which of the three commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Explain,
    Rate,
    Hint,
}

/// The JSON line of a puzzle that could not be explained.
#[derive(Serialize)]
struct Invalid<'a> {
    solved: bool,
    error: &'a str,
}

pub(crate) fn run(args: LogicArgs, mode: Mode) -> u8 {
    let cancel = super::super::interrupt::handle();
    let as_json = args.lines.json;
    let until = || Until {
        deadline: args.lines.deadline(),
        cancel: Some(cancel.clone()),
    };
    args.lines.run(|_, at, read| {
        let answer = read.map_err(|why| (why, exit::BAD_INPUT)).and_then(|p| {
            let refused = |e: ExplainError| {
                let code = match e {
                    ExplainError::NoSolution | ExplainError::Marks(_) => exit::NONE,
                    _ => exit::BAD_INPUT,
                };
                (e.to_string(), code)
            };
            if mode == Mode::Hint {
                explain::hint(&p, &until()).map(Err).map_err(refused)
            } else {
                explain::explain_until(&p, &until())
                    .map(Ok)
                    .map_err(refused)
            }
        });
        match answer {
            Err((why, code)) => {
                let text = if as_json {
                    json::line(&Invalid {
                        solved: false,
                        error: &why,
                    })
                } else {
                    format!("invalid: {why}")
                };
                Answered {
                    text,
                    why: Some(format!("{at}: {why}")),
                    code,
                }
            }
            Ok(Ok(e)) => explained(&e, mode, as_json),
            Ok(Err(step)) => {
                let code = if step.is_some() {
                    exit::FOUND
                } else {
                    exit::BUDGET
                };
                let text = match (&step, as_json) {
                    (_, true) => json::line(&step),
                    (Some(s), false) => format!("[{:.1}] {}", s.rating, s.text),
                    (None, false) => "stuck".into(),
                };
                Answered {
                    text,
                    why: None,
                    code,
                }
            }
        }
    })
}

fn explained(e: &Explanation, mode: Mode, as_json: bool) -> Answered {
    let code = if e.solved { exit::FOUND } else { exit::BUDGET };
    let text = match (mode, as_json) {
        (Mode::Rate, true) => json::line(&e.rating()),
        (Mode::Rate, false) => e.rating_line(),
        (_, true) => json::line(e),
        (_, false) => {
            let mut s = String::new();
            for step in &e.steps {
                s.push_str(&format!("[{:.1}] {}\n", step.rating, step.text));
            }
            s.push_str("rating: ");
            s.push_str(&e.rating_line());
            s.push('\n');
            s
        }
    };
    Answered {
        text,
        why: None,
        code,
    }
}
