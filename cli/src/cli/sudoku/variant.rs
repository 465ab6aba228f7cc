//! Variant puzzles on `dlx sudoku solve`, `count` and `check`, one puzzle a
//! line: f-puzzles' JSON, links and compressed strings (`--format
//! fpuzzles`, or detected when an input starts with `{` or a link), and the
//! plain-text form, a grid line followed by rule words
//! (`dlx::sudoku::rule_line`; `--format variant`, or detected by its
//! words). Each puzzle's rules become a matrix (`dlx::sudoku::rules`),
//! built once with its solver for a run of puzzles with the same rules;
//! the givens are preselected and the core searches. Answers as for
//! classic puzzles: the solution as a line (`--output-format fpuzzles`:
//! the JSON with the solution entered; `variant`: the text form), the
//! count, or unique/multiple/none/invalid/timeout; `--json` one object a
//! puzzle.
//!
//! The search is the classic solver's: first-forced, and a puzzle that goes
//! `--lookahead-after` nodes (default 100,000) without a new solution starts
//! over with lookahead, which killer cages need most (20 minimal killer
//! puzzles: 6.5 million nodes a puzzle first-forced, 120 with lookahead).
//!
//! The puzzles go through the library's batch (`dlx::sudoku::batch`), as
//! classic grids do: a worker reads pieces of lines, parses, solves (its
//! `Sudoku` keeps the matrix of the latest rules it met) and renders each
//! puzzle into a chunk, written in input order. The backtracking baselines
//! (classic grids only) and output formats of classic grids are refused for
//! variants, never ignored. `dlx sudoku bench` measures variant files
//! through the same batch.

use std::fmt::Write as _;
use std::io::BufRead;
use std::time::Instant;

use super::super::{exit, json};
use super::render::{stopped_count, Chunk, PuzzleLine};
use super::{CommonArgs, FormatArg, Mode, SolverArg};
use dlx::sudoku::batch;
use dlx::sudoku::fpuzzles::{self, Document};
use dlx::sudoku::input::{self, Form};
use dlx::sudoku::rule_line;
use dlx::sudoku::sudokupad;
use dlx::sudoku::{Alphabet, Answer, Limits, Puzzle, Settings, Solved, Status};

/// Whether `input` is read as variants: `--format fpuzzles` or `variant`,
/// or no format named and its first byte (after a byte-order mark and white
/// space, in the first buffer) is `{`, or its first line is a link to a
/// puzzle or a grid followed by rule words.
pub(super) fn wanted(args: &CommonArgs, input: &mut dyn BufRead) -> bool {
    detected(args.format, input)
}

/// [`wanted`] for the format named, if any.
pub(super) fn detected(format: Option<FormatArg>, input: &mut dyn BufRead) -> bool {
    match format {
        Some(FormatArg::Fpuzzles | FormatArg::Variant | FormatArg::Sudokupad) => return true,
        Some(_) => return false,
        None => {}
    }
    let Ok(buf) = input.fill_buf() else {
        return false;
    };
    let buf = buf.strip_prefix(b"\xef\xbb\xbf").unwrap_or(buf);
    let start = buf
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(buf.len());
    let first = &buf[start..];
    let line = &first[..first
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(first.len())];
    // The first line's form, as the library's one reader tells it (a JSON
    // object may go on past it: its `{` says enough). A classic line goes
    // to the classic readers, which know the judges' files too.
    let form = if first.first() == Some(&b'{') {
        Some(Form::Fpuzzles)
    } else {
        std::str::from_utf8(line).ok().and_then(Form::detect)
    };
    if let Some(n) = std::str::from_utf8(line).ok().and_then(input::bare_side) {
        // A line of n² small symbols: a whole n×n puzzle, or the first row
        // of an n²×n² grid. The grid's next rows (those in the buffer)
        // would hold a symbol past n somewhere; lines of puzzles do not.
        let rows = first.split(|&b| b == b'\n').take(n * n).skip(1);
        let mut rows = rows.map(|r| std::str::from_utf8(r).ok().map(str::trim));
        return rows.all(|r| r.is_some_and(|r| r.is_empty() || input::bare_side(r) == Some(n)));
    }
    matches!(
        form,
        Some(Form::Fpuzzles | Form::Link | Form::Variant | Form::Marks)
    )
}

/// Why these flags cannot run on variant puzzles, if they cannot.
pub(super) fn refusal(args: &CommonArgs) -> Option<&'static str> {
    if args.solver != SolverArg::Dlx {
        return Some("the backtracking baselines take classic grids only, not variants");
    }
    if args.output_format.is_some_and(|f| {
        !matches!(
            f,
            FormatArg::Line | FormatArg::Fpuzzles | FormatArg::Variant | FormatArg::Sudokupad
        )
    }) {
        return Some(
            "variant puzzles are written as a line, as f-puzzles JSON, as variant text or as a \
             SudokuPad link",
        );
    }
    None
}

/// A variant puzzle read: the puzzle, and the f-puzzles document it came
/// as, if it did (a solution is written back into it).
pub(super) struct Read {
    puzzle: Puzzle,
    fpuzzles: Option<Document>,
}

/// Reads one line through the library's one reader: as the format named,
/// else in the form it tells (f-puzzles, a link, the text form, a line).
pub(super) fn read(text: &str, format: Option<FormatArg>) -> Result<Read, String> {
    let pasted = match format {
        Some(FormatArg::Fpuzzles) => input::read_as(text, Form::Fpuzzles),
        Some(FormatArg::Variant) => input::read_as(text, Form::Variant),
        Some(FormatArg::Sudokupad) => input::read_as(text, Form::Link),
        _ => input::read(text),
    }
    .map_err(|e| e.to_string())?;
    Ok(Read {
        puzzle: pasted.puzzle,
        fpuzzles: pasted.fpuzzles,
    })
}

impl Read {
    /// The puzzle read.
    pub(super) fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }
}

/// One puzzle line of an input: its line number (from 0), its index among
/// the puzzles (from 1), and its text, trimmed.
struct Line {
    n: usize,
    index: u64,
    text: String,
}

/// Answers every puzzle of `input` (one a line) through the library's
/// batch on `jobs` threads, each rendered into a [`Chunk`] that `write`
/// gets in input order (and says whether to go on); returns the exit code
/// of reading the input.
#[allow(clippy::too_many_arguments)]
pub(super) fn pipeline(
    input: Box<dyn BufRead + Send>,
    name: &str,
    mode: Mode,
    jobs: usize,
    args: &CommonArgs,
    settings: &Settings,
    limits: &(dyn Fn() -> Limits + Sync),
    write: &mut dyn FnMut(&Chunk) -> bool,
) -> u8 {
    if let Some(why) = refusal(args) {
        eprintln!("dlx sudoku: {name}: {why}");
        return exit::BAD_INPUT;
    }
    let mut reading = exit::FOUND;
    let mut index = 0u64;
    let mut lines = input.lines().enumerate();
    // Up to `n` puzzle lines; `None` at the end or on an error reading.
    let next_lines = |n: usize| -> Option<Vec<Line>> {
        let mut piece = Vec::new();
        for (k, line) in lines.by_ref() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("dlx sudoku: {name}: line {}: {e}", k + 1);
                    reading = exit::BAD_INPUT;
                    break;
                }
            };
            let text = line.trim_start_matches('\u{feff}').trim();
            if !text.is_empty() {
                index += 1;
                piece.push(Line {
                    n: k,
                    index,
                    text: text.to_string(),
                });
                if piece.len() >= n {
                    break;
                }
            }
        }
        (!piece.is_empty()).then_some(piece)
    };
    batch::run(
        settings,
        jobs,
        next_lines,
        |sudoku, piece| {
            let mut chunk = Chunk::new();
            for line in piece {
                let start = Instant::now();
                let read = read(&line.text, args.format);
                let solved = match &read {
                    Ok(p) => sudoku
                        .solve(&p.puzzle, &limits())
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e.clone()),
                };
                let micros = start.elapsed().as_secs_f64() * 1e6;
                report(&line, &read, &solved, micros, name, mode, args, &mut chunk);
                if chunk.stop {
                    break;
                }
            }
            chunk
        },
        |chunk| write(&chunk),
    );
    reading
}

/// Renders one puzzle's answer (and its messages for standard error) into
/// `chunk`, its totals and its exit code.
#[allow(clippy::too_many_arguments)]
fn report(
    line: &Line,
    read: &Result<Read, String>,
    solved: &Result<Solved, String>,
    micros: f64,
    name: &str,
    mode: Mode,
    args: &CommonArgs,
    chunk: &mut Chunk,
) {
    let (n, index, text) = (line.n, line.index, line.text.as_str());
    let cancelled = solved.as_ref().is_ok_and(|s| s.answer.cancelled);
    if cancelled {
        // Ctrl-C: this puzzle is answered with what it had, and the run
        // ends here.
        chunk.code = exit::worse(chunk.code, exit::INTERRUPTED);
        chunk.stop = true;
    }
    let err = &mut chunk.err;
    let mut say = |what: &str| {
        let _ = writeln!(
            err,
            "dlx sudoku: {name}: puzzle {index} (line {}): {what}",
            n + 1
        );
    };
    let status = match solved {
        Err(_) => Status::Invalid,
        Ok(s) => s.answer.status(),
    };
    let answer = solved.as_ref().ok();
    chunk.totals.add(
        status,
        answer.map(|s| &s.answer),
        answer.is_some_and(|s| s.solution.is_some()),
    );
    match solved {
        Err(e) => say(&format!("invalid: {e}")),
        Ok(s) if s.answer.timed_out => say(&format!(
            "timed out after {:?} with {} found",
            args.timeout,
            super::super::count_of(s.answer.solutions, "solution")
        )),
        Ok(s) if cancelled => say(&format!(
            "interrupted with {} found",
            super::super::count_of(s.answer.solutions, "solution")
        )),
        Ok(_) if status == Status::None && mode == Mode::Solve => say("no solution"),
        Ok(_) => {}
    }
    let code = match (solved, status) {
        (Err(_), _) => exit::BAD_INPUT,
        (Ok(s), _) if s.answer.timed_out => exit::BUDGET,
        _ if cancelled => exit::INTERRUPTED,
        (_, Status::None) if mode != Mode::Check => exit::NONE,
        _ => exit::FOUND,
    };
    let side = read.as_ref().map_or(0, |p| p.puzzle.side());
    let alphabet =
        args.alphabet
            .map(Alphabet::from)
            .unwrap_or(if side <= Alphabet::Digits.max_side() {
                Alphabet::Digits
            } else {
                Alphabet::Letters
            });
    let as_line = |cells: &[u8]| -> String {
        cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { alphabet.symbol(d) })
            .collect()
    };
    let text_out = if args.json {
        let (answer, solution) = match solved {
            Ok(s) => (s.answer, s.solution.as_deref().map(as_line)),
            Err(_) => (Answer::default(), None),
        };
        json::line(&PuzzleLine {
            file: name,
            index,
            line: n as u64 + 1,
            puzzle: text,
            solution,
            status,
            answer,
            error: solved.as_ref().err().cloned(),
            micros,
        })
    } else {
        match mode {
            Mode::Solve => match (read, solved.as_ref().ok().and_then(|s| s.solution.as_ref())) {
                (Ok(p), Some(sol)) if args.output_format == Some(FormatArg::Fpuzzles) => {
                    match &p.fpuzzles {
                        Some(json) => json.with_solution(sol),
                        None => {
                            fpuzzles::write_rules(p.puzzle.rules(), p.puzzle.givens(), Some(sol))
                        }
                    }
                }
                (Ok(p), Some(sol)) if args.output_format == Some(FormatArg::Variant) => {
                    rule_line::write(p.puzzle.rules(), sol)
                }
                (Ok(p), solution) if args.output_format == Some(FormatArg::Sudokupad) => {
                    let (rules, givens) = (p.puzzle.rules(), p.puzzle.givens());
                    let json = fpuzzles::write_rules(rules, givens, None);
                    sudokupad::link(&json, solution.map(|s| &s[..]))
                }
                (Ok(_), Some(sol)) => as_line(sol),
                // Nothing solved (no solution, or none in time): the
                // puzzle in the format named, so that every line is in it.
                (Ok(p), None) if args.output_format == Some(FormatArg::Fpuzzles) => {
                    let (rules, givens) = (p.puzzle.rules(), p.puzzle.givens());
                    match &p.fpuzzles {
                        Some(json) => json.with_solution(givens),
                        None => fpuzzles::write_rules(rules, givens, None),
                    }
                }
                (Ok(p), None) if args.output_format == Some(FormatArg::Variant) => {
                    rule_line::write(p.puzzle.rules(), p.puzzle.givens())
                }
                // Else echoed as it came (a puzzle that could not be read
                // has no other form).
                _ => text.to_string(),
            },
            Mode::Count => match solved {
                Err(e) => format!("invalid: {e}"),
                Ok(s) => stopped_count(&s.answer).unwrap_or_else(|| s.answer.solutions.to_string()),
            },
            Mode::Check => match solved {
                Err(e) => format!("invalid: {e}"),
                Ok(_) => status.as_str().to_string(),
            },
        }
    };
    chunk.code = exit::worse(chunk.code, code);
    chunk.out.push_str(&text_out);
    chunk.out.push('\n');
    chunk.answered = true;
}
