//! Puzzles a line, answered a line each in input order on `--jobs`
//! threads (the library's ordered batch): the driver `candidates`,
//! `explain`, `rate` and `hint` share. Each input line (or a judge
//! format's record) is read by the one reader on a worker; blank lines and
//! lines starting with `#` are skipped; a puzzle that cannot be read is
//! answered as the command says (its `invalid` line), and standard error
//! names where it is. Ctrl-C stops after the puzzle under way.

use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use super::super::{exit, output::Output};
use super::FormatArg;
use dlx::sudoku::format::{ReadOptions, Reader};
use dlx::sudoku::input::{read_as, Form};
use dlx::sudoku::{batch, Puzzle, Settings, Sudoku};

/// One puzzle's answer: its line, and why it has no answer (for standard
/// error).
pub(super) struct Answered {
    pub(super) text: String,
    pub(super) why: Option<String>,
    pub(super) code: u8,
}

/// A puzzle as the source hands it out: a line to read on the worker, or
/// a judge format's record read already.
enum Text {
    Line(String),
    Read(Result<Puzzle, String>),
}

/// The inputs, how to read them, and the flags every command of the
/// driver takes.
#[derive(Args, Debug)]
pub(super) struct Lines {
    /// Puzzle files, one puzzle a line: a classic line, the variant text
    /// form, f-puzzles' JSON or a link (blank lines and lines starting
    /// with `#` are skipped); none or `-` reads standard input.
    files: Vec<PathBuf>,
    /// Print one JSON object per puzzle instead.
    #[arg(long)]
    pub(super) json: bool,
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
    /// what was found by then is printed, marked as such (`incomplete`,
    /// `stopped`), and the exit code is 3.
    #[arg(long, default_value = "0", value_parser = super::super::parse_duration)]
    timeout: Duration,
}

impl Lines {
    /// The deadline of a puzzle started now, if `--timeout` set one.
    pub(super) fn deadline(&self) -> Option<Instant> {
        (!self.timeout.is_zero()).then(|| Instant::now() + self.timeout)
    }

    /// Answers every puzzle of every file with `answer(solver, where, read)`
    /// (`where`: `file:line`), printing the lines in input order; the exit
    /// code is the worst answer's.
    pub(super) fn run<F>(&self, answer: F) -> u8
    where
        F: Fn(&mut Sudoku, &str, Result<Puzzle, String>) -> Answered + Sync,
    {
        let jobs = super::super::jobs(self.jobs.unwrap_or(usize::MAX));
        let files: Vec<Option<PathBuf>> = if self.files.is_empty() {
            vec![None]
        } else {
            self.files.iter().cloned().map(Some).collect()
        };
        let mut out = Output::stdout();
        let mut code = exit::FOUND;
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
            let (form, judged) = match self.format {
                None => (None, None),
                Some(FormatArg::Fpuzzles) => (Some(Form::Fpuzzles), None),
                Some(FormatArg::Variant) => (Some(Form::Variant), None),
                Some(FormatArg::Sudokupad) => (Some(Form::Link), None),
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
                    answer(sudoku, &format!("{name}:{number}"), read)
                },
                |answered: Answered| {
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
}
