//! Answers of classic puzzles rendered into [`Chunk`]s: the text for
//! standard output, the messages for standard error, the totals for
//! `--stats` and the exit code, of a run of puzzles in input order.
//!
//! Workers render (`pipeline`); the main thread only writes chunks in order
//! and adds up their totals. Rendering depends on nothing before the chunk
//! but one thing: formats with a separator between answers (`poj3076`,
//! `hdu1426`, `grid`) put none before the output's first answer. A chunk is
//! rendered as though an answer came before it, and [`Chunk::lead`] says
//! where its first separator is, for the writer to leave out when nothing
//! was answered before it. So the output is one job's, byte for byte.

use std::fmt::Write as _;
use std::ops::Range;

use super::super::{exit, json};
use super::{CommonArgs, FormatArg, Mode, Outcome};
use dlx::sudoku::format;
use dlx::sudoku::fpuzzles;
use dlx::sudoku::sudokupad;
use dlx::sudoku::{Answer, Status};
use serde::Serialize;

/// Totals for --stats.
#[derive(Default)]
pub(crate) struct Totals {
    pub(crate) puzzles: u64,
    pub(crate) solved: u64,
    pub(crate) unique: u64,
    pub(crate) multiple: u64,
    pub(crate) none: u64,
    pub(crate) invalid: u64,
    pub(crate) timeouts: u64,
    pub(crate) nodes: u64,
    pub(crate) guesses: u64,
}

impl Totals {
    /// Counts one answered puzzle (`answer`: `None` when not searched).
    pub(crate) fn add(&mut self, status: Status, answer: Option<&Answer>, solved: bool) {
        self.puzzles += 1;
        match status {
            Status::Invalid => self.invalid += 1,
            Status::None => self.none += 1,
            Status::Unique => self.unique += 1,
            Status::Multiple => self.multiple += 1,
            _ => {}
        }
        if let Some(a) = answer {
            self.timeouts += u64::from(a.timed_out);
            self.nodes += a.nodes;
            self.guesses += a.guesses;
        }
        self.solved += u64::from(solved);
    }

    /// Adds `other`'s counts.
    pub(crate) fn merge(&mut self, other: &Totals) {
        self.puzzles += other.puzzles;
        self.solved += other.solved;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.none += other.none;
        self.invalid += other.invalid;
        self.timeouts += other.timeouts;
        self.nodes += other.nodes;
        self.guesses += other.guesses;
    }
}

/// A run of puzzles' answers, rendered.
pub(crate) struct Chunk {
    /// Text for standard output.
    pub(crate) out: String,
    /// Messages for standard error, one a line.
    pub(crate) err: String,
    /// Where in `out` the separator before its first answer is, if that
    /// answer has one: not written when no answer came before the chunk.
    pub(crate) lead: Option<Range<usize>>,
    /// Whether it holds an answer (a solution or a puzzle echoed).
    pub(crate) answered: bool,
    pub(crate) totals: Totals,
    /// The worst exit code of its puzzles.
    pub(crate) code: u8,
    /// Whether the run stops after it (Ctrl-C, or a size the engine named
    /// cannot take): the puzzles after it in the chunk are left out.
    pub(crate) stop: bool,
}

impl Chunk {
    pub(crate) fn new() -> Chunk {
        Chunk {
            out: String::new(),
            err: String::new(),
            lead: None,
            answered: false,
            totals: Totals::default(),
            code: exit::FOUND,
            stop: false,
        }
    }

    /// Its text for standard output, after `answered_before` (whether an
    /// answer was written before it).
    pub(crate) fn text(&self, answered_before: bool) -> [&str; 2] {
        match &self.lead {
            Some(r) if !answered_before => [&self.out[..r.start], &self.out[r.end..]],
            _ => [&self.out, ""],
        }
    }
}

/// How answers are rendered in a run: the input's name, the command and
/// its flags.
pub(crate) struct Render<'a> {
    pub(crate) name: &'a str,
    pub(crate) mode: Mode,
    pub(crate) args: &'a CommonArgs,
}

impl Render<'_> {
    /// Adds `o` to `chunk`. A puzzle whose search Ctrl-C stopped is
    /// answered with what it had, as a timed-out one is (status
    /// `cancelled`), and the run ends there.
    pub(crate) fn add(&self, chunk: &mut Chunk, o: &Outcome) {
        let (name, mode, args) = (self.name, self.mode, self.args);
        let r = &o.record;
        let cancelled = o.answer.is_some_and(|a| a.cancelled);
        if cancelled {
            chunk.code = exit::worse(chunk.code, exit::INTERRUPTED);
            chunk.stop = true;
        }
        if let (Some(e), Ok(grid)) = (&o.refused, &r.grid) {
            // The engine named cannot take this size: said once, and the
            // run stops here (every puzzle of the size would be refused).
            let n = grid.side();
            let _ = writeln!(
                chunk.err,
                "dlx sudoku: {name}: puzzle {} (line {}): {n}×{n} grids cannot be searched as asked: {e}",
                r.index, r.line
            );
            chunk.code = exit::worse(chunk.code, exit::BAD_INPUT);
            chunk.stop = true;
            return;
        }
        let status = match (&r.grid, &o.answer) {
            (Err(_), _) | (_, None) => Status::Invalid,
            (Ok(_), Some(a)) => a.status(),
        };
        chunk
            .totals
            .add(status, o.answer.as_ref(), o.solution.is_some());
        let timed_out = o.answer.is_some_and(|a| a.timed_out);
        chunk.code = exit::worse(
            chunk.code,
            match status {
                Status::Invalid => exit::BAD_INPUT,
                _ if timed_out => exit::BUDGET,
                _ if cancelled => exit::INTERRUPTED,
                Status::None if mode != Mode::Check => exit::NONE,
                _ => exit::FOUND,
            },
        );
        // Only a puzzle with something to say costs a message.
        let mut say = |what: &dyn std::fmt::Display| {
            let _ = writeln!(
                chunk.err,
                "dlx sudoku: {name}: puzzle {} (line {}): {what}",
                r.index, r.line
            );
        };
        if let Err(e) = &r.grid {
            say(&format_args!("invalid: {e}"));
        } else if status == Status::None && mode == Mode::Solve {
            say(&"no solution");
        } else if timed_out {
            let found = o.answer.map_or(0, |a| a.solutions);
            say(&format_args!(
                "timed out after {:?} with {} found",
                args.timeout,
                super::super::count_of(found, "solution")
            ));
        } else if cancelled {
            let found = o.answer.map_or(0, |a| a.solutions);
            say(&format_args!(
                "interrupted with {} found",
                super::super::count_of(found, "solution")
            ));
        }
        let buf = &mut chunk.out;
        if args.json {
            buf.push_str(&json_line(o, name, status));
            buf.push('\n');
            return;
        }
        let out_format = args
            .output_format
            .map_or(Some(r.format), FormatArg::classic);
        match mode {
            Mode::Solve if out_format.is_none() => match (&r.grid, &o.solution) {
                (Ok(puzzle), solution) => {
                    // Nothing solved (no solution, or none in time): the
                    // puzzle alone, so that every line is f-puzzles JSON.
                    let solution = solution.as_ref().map(|s| s.cells());
                    if args.output_format == Some(FormatArg::Sudokupad) {
                        let json = fpuzzles::write(puzzle.side(), puzzle.cells(), None);
                        buf.push_str(&sudokupad::link(&json, solution));
                    } else {
                        buf.push_str(&fpuzzles::write(puzzle.side(), puzzle.cells(), solution));
                    }
                    buf.push('\n');
                }
                // A puzzle that could not be read: echoed as it came, as in
                // every format.
                _ if !r.raw.is_empty() => {
                    buf.push_str(&r.raw);
                    buf.push('\n');
                }
                _ => {}
            },
            Mode::Solve => {
                let out_format = out_format.unwrap_or(r.format);
                let answer = match &o.solution {
                    Some(g) => format::Answer::Grid(g, r.alphabet),
                    None => format::Answer::Raw(&r.raw),
                };
                // A puzzle that could not be read is echoed as it came; an
                // error that is no puzzle (POJ 2676's count) has nothing to
                // echo.
                let format = if o.solution.is_some() {
                    out_format
                } else {
                    r.format
                };
                if o.solution.is_some() || !r.raw.is_empty() {
                    if !chunk.answered {
                        let at = buf.len();
                        let separator = format::separator(format).len();
                        chunk.lead = (separator > 0).then_some(at..at + separator);
                        chunk.answered = true;
                    }
                    format::write_answer(buf, format, false, r.index, answer);
                }
            }
            Mode::Count => {
                match (&r.grid, &o.answer) {
                    (Err(e), _) => buf.push_str(&format!("invalid: {}", e.kind)),
                    (_, Some(a)) => {
                        buf.push_str(&stopped_count(a).unwrap_or_else(|| a.solutions.to_string()))
                    }
                    _ => buf.push_str("invalid"),
                }
                buf.push('\n');
            }
            Mode::Check => {
                match &r.grid {
                    Err(e) => buf.push_str(&format!("invalid: {}", e.kind)),
                    Ok(_) => buf.push_str(status.as_str()),
                }
                buf.push('\n');
            }
        }
    }
}

/// `count`'s line for a search the deadline or Ctrl-C stopped:
/// `timeout: at least N`, `cancelled: at least N`; `None` for one that
/// ended.
pub(super) fn stopped_count(a: &Answer) -> Option<String> {
    let word = if a.timed_out {
        "timeout"
    } else if a.cancelled && !a.complete {
        "cancelled"
    } else {
        return None;
    };
    Some(format!("{word}: at least {}", a.solutions))
}

/// A puzzle's `--json` object, classic or variant. Every object has every
/// field: a puzzle not searched (invalid, or refused by the engine named)
/// found nothing (the library's [`Answer`] of none), and says why in
/// `error`.
#[derive(Serialize)]
pub(super) struct PuzzleLine<'a> {
    /// The file's name, as given.
    pub(super) file: &'a str,
    /// The puzzle's place among the file's puzzles, from 1.
    pub(super) index: u64,
    /// Its line in the file, from 1.
    pub(super) line: u64,
    /// The puzzle as written.
    pub(super) puzzle: &'a str,
    /// The first solution found, as a line.
    pub(super) solution: Option<String>,
    pub(super) status: Status,
    #[serde(flatten)]
    pub(super) answer: Answer,
    pub(super) error: Option<String>,
    /// How long it took.
    pub(super) micros: f64,
}

fn json_line(o: &Outcome, name: &str, status: Status) -> String {
    let r = &o.record;
    let error = match (&r.grid, &o.refused) {
        (Err(e), _) => Some(e.to_string()),
        (_, Some(e)) => Some(e.to_string()),
        _ => None,
    };
    json::line(&PuzzleLine {
        file: name,
        index: r.index as u64,
        line: r.line as u64,
        puzzle: &r.raw,
        solution: o.solution.as_ref().map(|g| r.alphabet.line(g, '.')),
        status,
        answer: o.answer.unwrap_or_default(),
        error,
        micros: o.micros,
    })
}
