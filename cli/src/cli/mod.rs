//! The command line: argument parsing (clap), and the only place that prints
//! or chooses an exit code. The library never does either.
//!
//! Exit codes (documented in docs/cli.md):
//! * 0 — answered: solutions found (or every puzzle answered);
//! * 1 — a "no" answer: no solution exists;
//! * 2 — bad input or an I/O error (output that cannot be written included;
//!   a pipe closed by its reader stops the run quietly: see `output.rs`);
//! * 3 — stopped by a budget before the answer was known;
//! * 130 — interrupted by Ctrl-C (what was found is printed first).

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

mod cover;
mod estimate;
mod gen;
mod interrupt;
mod jobs;
pub(crate) mod json;
mod memo;
pub(crate) mod output;
mod progress;
mod sudoku;

/// Exact cover by Dancing Links.
#[derive(Parser, Debug)]
#[command(name = "dlx", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve an exact-cover problem given in Knuth's DLX text format.
    Cover(cover::CoverArgs),
    /// Print a classic exact-cover problem in Knuth's DLX text format.
    Gen(gen::GenArgs),
    /// Solve, count or check Sudoku puzzles, or benchmark the solvers.
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
}

/// How the search chooses its branching item (described by each command's
/// `--branching`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum BranchingArg {
    Knuth,
    FirstForced,
    Lookahead,
}

/// `--engine` (described by each command's `--engine`): `auto` (the
/// library chooses) or an engine's name, as the library lists its engines
/// (`EngineKind::ALL`), so that an engine registered there is a value here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EngineArg(Option<dlx::EngineKind>);

/// Every `--engine` value: `auto`, then the library's engines.
const ENGINE_ARGS: [EngineArg; dlx::EngineKind::ALL.len() + 1] = engine_args();

const fn engine_args() -> [EngineArg; dlx::EngineKind::ALL.len() + 1] {
    let mut all = [EngineArg(None); dlx::EngineKind::ALL.len() + 1];
    let mut k = 0;
    while k < dlx::EngineKind::ALL.len() {
        all[k + 1] = EngineArg(Some(dlx::EngineKind::ALL[k]));
        k += 1;
    }
    all
}

impl EngineArg {
    /// `auto`: the library chooses.
    pub(crate) const AUTO: EngineArg = EngineArg(None);

    /// The engine asked for by name (`None`: the library chooses).
    pub(crate) fn kind(self) -> Option<dlx::EngineKind> {
        self.0
    }
}

impl clap::ValueEnum for EngineArg {
    fn value_variants<'a>() -> &'a [Self] {
        &ENGINE_ARGS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(
            self.0.map_or("auto", dlx::EngineKind::name),
        ))
    }
}

impl From<BranchingArg> for dlx::Branching {
    fn from(b: BranchingArg) -> Self {
        match b {
            BranchingArg::Knuth => dlx::Branching::Knuth,
            BranchingArg::FirstForced => dlx::Branching::FirstForced,
            BranchingArg::Lookahead => dlx::Branching::Lookahead,
        }
    }
}

/// The longest duration the command line takes: about 31 years.
const LONGEST_SECONDS: f64 = 1e9;

/// A duration given on the command line: `1s`, `250ms`, `500us`, `2m`, `3h`, or
/// plain seconds; `0` is allowed (callers read it as "no limit"). A
/// positive duration is never zero (one too short for a nanosecond is one
/// nanosecond), and never infinite: past [`LONGEST_SECONDS`] it is an error.
pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, scale) = if let Some(v) = s.strip_suffix("ms") {
        (v, 1e-3)
    } else if let Some(v) = s.strip_suffix("us") {
        (v, 1e-6)
    } else if let Some(v) = s.strip_suffix('s') {
        (v, 1.0)
    } else if let Some(v) = s.strip_suffix('m') {
        (v, 60.0)
    } else if let Some(v) = s.strip_suffix('h') {
        (v, 3600.0)
    } else {
        (s, 1.0)
    };
    let seconds = match num.trim().parse::<f64>() {
        Ok(v) if v >= 0.0 && v.is_finite() => v * scale,
        _ => return Err(format!("`{s}` is not a duration like 1s, 250ms or 0")),
    };
    if seconds > LONGEST_SECONDS {
        return Err(format!(
            "`{s}` is longer than the longest duration taken, {LONGEST_SECONDS:e} s (about 31 years)"
        ));
    }
    let d = Duration::from_secs_f64(seconds);
    Ok(if seconds > 0.0 && d.is_zero() {
        Duration::from_nanos(1)
    } else {
        d
    })
}

/// `--jobs N`: at least 1. More threads than cores never helps (the work is
/// the CPU's), so the run uses [`jobs`] of it.
pub(crate) fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("0 threads cannot run anything: give 1 or more".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a number of threads")),
    }
}

/// The threads a run uses for `--jobs asked`: no more than the cores.
pub(crate) fn jobs(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    asked.clamp(1, cores)
}

/// `n word`, with the plural when `n` is not 1: "1 solution", "2 solutions".
pub(crate) fn count_of(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Exit codes, as docs/cli.md documents them.
pub(crate) mod exit {
    pub const FOUND: u8 = 0;
    pub const NONE: u8 = 1;
    pub const BAD_INPUT: u8 = 2;
    pub const BUDGET: u8 = 3;
    pub const INTERRUPTED: u8 = 130;

    /// The code for a run in which both `a` and `b` happened: Ctrl-C first,
    /// then bad input, then a stop before the answer was known, then "no
    /// solution".
    pub fn worse(a: u8, b: u8) -> u8 {
        let rank = |c: u8| match c {
            INTERRUPTED => 4,
            BAD_INPUT => 3,
            BUDGET => 2,
            NONE => 1,
            _ => 0,
        };
        if rank(b) > rank(a) {
            b
        } else {
            a
        }
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Cover(args) => cover::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Sudoku(cmd) => sudoku::run(cmd),
    };
    ExitCode::from(code)
}

/// Opens a path for reading; `-` (or no path) is standard input. A
/// directory is an error here, not a read error on its first line.
pub(crate) fn open_input(path: Option<&Path>) -> io::Result<Box<dyn BufRead + Send>> {
    match path {
        None => Ok(Box::new(BufReader::new(io::stdin()))),
        Some(p) if p == Path::new("-") => Ok(Box::new(BufReader::new(io::stdin()))),
        Some(p) => {
            let file = File::open(p)?;
            if file.metadata()?.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
        }
    }
}

/// A name for an input in messages.
pub(crate) fn input_name(path: Option<&PathBuf>) -> String {
    match path {
        None => "<stdin>".to_string(),
        Some(p) if p.as_os_str() == "-" => "<stdin>".to_string(),
        Some(p) => p.display().to_string(),
    }
}
