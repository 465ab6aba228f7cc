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
//! The puzzles of one input are solved one after the other on the calling
//! thread, by the DLX solver: `--jobs` above 1, the backtracking baselines
//! (classic grids only) and output formats of classic grids are refused for
//! them, never ignored.

use std::io::BufRead;
use std::time::Instant;

use super::super::output::Output;
use super::super::{exit, json};
use super::{CommonArgs, FormatArg, Mode, SolverArg, Totals};
use dlx::sudoku::fpuzzles::{self, Puzzle};
use dlx::sudoku::rule_line;
use dlx::sudoku::rules::{Rules, RulesMatrix};
use dlx::sudoku::{Alphabet, Answer, DlxSudoku, Limits, Status};
use dlx::Config;

/// Whether `input` is read as variants: `--format fpuzzles` or `variant`,
/// or no format named and its first byte (after a byte-order mark and white
/// space, in the first buffer) is `{`, or its first line is a link to a
/// puzzle or a grid followed by rule words.
pub(super) fn wanted(args: &CommonArgs, input: &mut dyn BufRead) -> bool {
    match args.format {
        Some(FormatArg::Fpuzzles | FormatArg::Variant) => return true,
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
    let has = |needle: &[u8]| line.windows(needle.len()).any(|w| w == needle);
    first.first() == Some(&b'{')
        || (line.starts_with(b"http") && (has(b"load=") || has(b"fpuzzles")))
        || std::str::from_utf8(line).is_ok_and(rule_line::looks_like)
}

/// Why these flags cannot run on variant puzzles, if they cannot.
pub(super) fn refusal(args: &CommonArgs) -> Option<&'static str> {
    if args.solver != SolverArg::Dlx {
        return Some("the backtracking baselines take classic grids only, not variants");
    }
    if args.jobs.is_some_and(|j| j > 1) {
        return Some(
            "variant puzzles are solved one at a time: --jobs above 1 is for classic grids",
        );
    }
    if args.output_format.is_some_and(|f| {
        !matches!(
            f,
            FormatArg::Line | FormatArg::Fpuzzles | FormatArg::Variant
        )
    }) {
        return Some("variant puzzles are written as a line, as f-puzzles JSON or as variant text");
    }
    None
}

/// The matrix of the last rules seen, kept while puzzles share them (and
/// from one input to the next).
#[derive(Default)]
pub(super) struct Cache {
    matrix: Option<RulesMatrix>,
}

/// The solver's configuration from the flags: the engine and rule named
/// (first-forced by default), the switch to lookahead.
fn config(args: &CommonArgs) -> (Config, Option<u64>) {
    let mut config = Config::new().branching(args.rule());
    if let Some(kind) = args.engine.kind() {
        config = config.engine(kind);
    }
    let after = args
        .lookahead_after
        .map_or(Some(dlx::sudoku::LOOKAHEAD_AFTER), |a| a.0);
    (config, after)
}

/// A variant puzzle read: its rules and givens, and the f-puzzles JSON it
/// came as, if it did (a solution is written back into it).
struct Read {
    rules: Rules,
    givens: Vec<u8>,
    fpuzzles: Option<Puzzle>,
}

/// Reads one line as the format named, else f-puzzles when it starts with
/// `{` or a link, else the text form.
fn read(text: &str, format: Option<FormatArg>) -> Result<Read, String> {
    let json = text.starts_with('{') || text.starts_with("http");
    if format == Some(FormatArg::Fpuzzles) || (format.is_none() && json) {
        let p = fpuzzles::read_pasted(text).map_err(|e| e.to_string())?;
        return Ok(Read {
            rules: p.rules.clone(),
            givens: p.givens.clone(),
            fpuzzles: Some(p),
        });
    }
    let (rules, givens) = rule_line::read(text).map_err(|e| e.to_string())?;
    Ok(Read {
        rules,
        givens,
        fpuzzles: None,
    })
}

/// One puzzle's answer: what the search found and the first solution.
struct Solved {
    answer: Answer,
    solution: Option<Vec<u8>>,
}

/// Answers every puzzle of `input` (one a line) into `out`; returns the
/// exit code they call for.
#[allow(clippy::too_many_arguments)]
pub(super) fn answer_input(
    input: Box<dyn BufRead + Send>,
    name: &str,
    mode: Mode,
    limit: u64,
    args: &CommonArgs,
    out: &mut Output,
    totals: &mut Totals,
    cache: &mut Cache,
) -> u8 {
    if let Some(why) = refusal(args) {
        eprintln!("dlx sudoku: {name}: {why}");
        return exit::BAD_INPUT;
    }
    let (config, after) = config(args);
    let limits = || Limits {
        solutions: limit,
        deadline: (!args.timeout.is_zero()).then(|| Instant::now() + args.timeout),
    };
    let mut solver: Option<Result<DlxSudoku, String>> = None;
    let mut code = exit::FOUND;
    let mut index = 0u64;
    for (n, line) in input.lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("dlx sudoku: {name}: line {}: {e}", n + 1);
                return exit::worse(code, exit::BAD_INPUT);
            }
        };
        let text = line.trim_start_matches('\u{feff}').trim();
        if text.is_empty() {
            continue;
        }
        index += 1;
        totals.puzzles += 1;
        let start = Instant::now();
        let say = |what: &str| {
            eprintln!(
                "dlx sudoku: {name}: puzzle {index} (line {}): {what}",
                n + 1
            )
        };
        let read = read(text, args.format);
        let solved = match &read {
            Err(e) => Err(e.clone()),
            Ok(p) => {
                if cache.matrix.as_ref().is_none_or(|m| m.rules() != &p.rules) {
                    // New rules: a new matrix and its solver, the old ones
                    // dropped first.
                    solver = None;
                    cache.matrix = None;
                    match p.rules.matrix() {
                        Ok(m) => cache.matrix = Some(m),
                        Err(e) => solver = Some(Err(e.to_string())),
                    }
                }
                if let (None, Some(m)) = (&solver, &cache.matrix) {
                    let made = DlxSudoku::for_rules(m, config).map_err(|e| e.to_string());
                    solver = Some(made.map(|mut s| {
                        s.set_lookahead_after(after);
                        s
                    }));
                }
                match solver.as_mut() {
                    Some(Ok(s)) => {
                        let mut grid = Vec::new();
                        let answer = s.solve_cells(&p.givens, &limits(), &mut grid);
                        Ok(Solved {
                            answer,
                            solution: (answer.solutions > 0).then_some(grid),
                        })
                    }
                    Some(Err(e)) => Err(e.clone()),
                    None => Err("no solver".to_string()),
                }
            }
        };
        let status = match &solved {
            Err(_) => Status::Invalid,
            Ok(s) => s.answer.status(),
        };
        let answer = solved.as_ref().ok();
        totals.add(
            status,
            answer.map(|s| &s.answer),
            answer.is_some_and(|s| s.solution.is_some()),
        );
        match &solved {
            Err(e) => say(&format!("invalid: {e}")),
            Ok(s) if s.answer.timed_out => say(&format!(
                "timed out after {:?} with {} found",
                args.timeout,
                super::super::count_of(s.answer.solutions, "solution")
            )),
            Ok(_) if status == Status::None && mode == Mode::Solve => say("no solution"),
            Ok(_) => {}
        }
        code = exit::worse(
            code,
            match (&solved, status) {
                (Err(_), _) => exit::BAD_INPUT,
                (Ok(s), _) if s.answer.timed_out => exit::BUDGET,
                (_, Status::None) if mode != Mode::Check => exit::NONE,
                _ => exit::FOUND,
            },
        );
        let side = read.as_ref().map_or(0, |p| p.rules.side());
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
            let (answer, solution) = match &solved {
                Ok(s) => (s.answer, s.solution.as_deref().map(as_line)),
                Err(_) => (Answer::default(), None),
            };
            json::Object::new()
                .str("file", name)
                .num("index", index)
                .num("line", n + 1)
                .str("puzzle", text)
                .opt_str("solution", solution.as_deref())
                .str("status", status.as_str())
                .num("solutions", answer.solutions)
                .boolean("complete", answer.complete)
                .boolean("timed_out", answer.timed_out)
                .num("nodes", answer.nodes)
                .opt_str("error", solved.as_ref().err().map(String::as_str))
                .float("micros", start.elapsed().as_secs_f64() * 1e6)
                .finish()
        } else {
            match mode {
                Mode::Solve => match (
                    &read,
                    solved.as_ref().ok().and_then(|s| s.solution.as_ref()),
                ) {
                    (Ok(p), Some(sol)) if args.output_format == Some(FormatArg::Fpuzzles) => {
                        match &p.fpuzzles {
                            Some(json) => json.with_solution(sol),
                            None => fpuzzles::write_rules(&p.rules, &p.givens, Some(sol)),
                        }
                    }
                    (Ok(p), Some(sol)) if args.output_format == Some(FormatArg::Variant) => {
                        rule_line::write(&p.rules, sol)
                    }
                    (Ok(_), Some(sol)) => as_line(sol),
                    // Nothing solved: echoed as it came.
                    _ => text.to_string(),
                },
                Mode::Count => match &solved {
                    Err(e) => format!("invalid: {e}"),
                    Ok(s) if s.answer.timed_out => {
                        format!("timeout: at least {}", s.answer.solutions)
                    }
                    Ok(s) => s.answer.solutions.to_string(),
                },
                Mode::Check => match &solved {
                    Err(e) => format!("invalid: {e}"),
                    Ok(_) => status.as_str().to_string(),
                },
            }
        };
        if !out.println(&text_out) {
            break;
        }
    }
    if index == 0 && out.is_ok() {
        eprintln!("dlx sudoku: {name}: no puzzles in the input");
        code = exit::worse(code, exit::BAD_INPUT);
    }
    code
}
