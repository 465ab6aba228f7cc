//! Variant puzzles on `dlx sudoku solve`, `count` and `check`: f-puzzles'
//! JSON, links and compressed strings, one puzzle a line (`--format
//! fpuzzles`, or detected when an input starts with `{` or a link). Each
//! puzzle's rules become a matrix (`dlx::sudoku::rules`), built once for a
//! run of puzzles with the same rules; the givens are preselected and the
//! core searches. Answers as for classic puzzles: the solution as a line
//! (`--output-format fpuzzles`: the JSON with the solution entered), the
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

use super::super::deadline::Deadline;
use super::super::output::Output;
use super::super::{exit, json};
use super::{CommonArgs, FormatArg, Mode, SolverArg, Totals};
use dlx::sudoku::fpuzzles::{self, Puzzle};
use dlx::sudoku::rules::{Rules, RulesMatrix};
use dlx::sudoku::{Alphabet, Answer, Status};
use dlx::{Branching, Budget, Config, Solver, Step};

/// Whether `input` is read as f-puzzles: `--format fpuzzles`, or no format
/// named and its first byte (after a byte-order mark and white space, in
/// the first buffer) is `{`, or its first line is a link to a puzzle.
pub(super) fn wanted(args: &CommonArgs, input: &mut dyn BufRead) -> bool {
    match args.format {
        Some(FormatArg::Fpuzzles) => return true,
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
}

/// Why these flags cannot run on variant puzzles, if they cannot.
pub(super) fn refusal(args: &CommonArgs) -> Option<&'static str> {
    if args.solver != SolverArg::Dlx {
        return Some("the backtracking baselines take classic grids only, not f-puzzles");
    }
    if args.jobs.is_some_and(|j| j > 1) {
        return Some(
            "f-puzzles puzzles are solved one at a time: --jobs above 1 is for classic grids",
        );
    }
    if args
        .output_format
        .is_some_and(|f| !matches!(f, FormatArg::Line | FormatArg::Fpuzzles))
    {
        return Some("f-puzzles puzzles are written as a line or as f-puzzles JSON");
    }
    None
}

/// The matrix of the last rules seen, kept while puzzles share them.
#[derive(Default)]
pub(super) struct Cache {
    matrix: Option<RulesMatrix>,
}

impl Cache {
    fn matrix(&mut self, rules: &Rules) -> Result<&RulesMatrix, String> {
        if self.matrix.as_ref().is_none_or(|m| m.rules() != rules) {
            self.matrix = Some(rules.matrix().map_err(|e| e.to_string())?);
        }
        self.matrix.as_ref().ok_or_else(|| "no matrix".to_string())
    }
}

/// One puzzle's answer: what the search found and the first solution.
struct Solved {
    answer: Answer,
    solution: Option<Vec<u8>>,
}

/// Searches `puzzle` up to `limit` solutions within `--timeout`, by the
/// engine and rule the flags name (first-forced by default), starting over
/// with lookahead after `--lookahead-after` nodes without a new solution.
fn solve(
    matrix: &RulesMatrix,
    puzzle: &Puzzle,
    limit: u64,
    args: &CommonArgs,
) -> Result<Solved, String> {
    let at = (!args.timeout.is_zero()).then(|| Instant::now() + args.timeout);
    let after = args
        .lookahead_after
        .map_or(Some(dlx::sudoku::LOOKAHEAD_AFTER), |a| a.0)
        .filter(|_| args.rule() != Branching::Lookahead);
    let mut config = Config::new().branching(args.rule());
    if let Some(kind) = args.engine.kind() {
        config = config.engine(kind);
    }
    if let Some(solved) = search(matrix, puzzle, limit, config, at, after)? {
        return Ok(solved);
    }
    // Started over: the nodes of the first search count too.
    let lookahead = Config::new().branching(Branching::Lookahead);
    let mut solved = search(matrix, puzzle, limit, lookahead, at, None)?
        .ok_or_else(|| "the lookahead search stopped without an answer".to_string())?;
    solved.answer.nodes += after.unwrap_or(0);
    Ok(solved)
}

/// One search by `config`; `None` when `switch_after` nodes went by
/// without a new solution (the caller starts over with lookahead).
fn search(
    matrix: &RulesMatrix,
    puzzle: &Puzzle,
    limit: u64,
    config: Config,
    at: Option<Instant>,
    switch_after: Option<u64>,
) -> Result<Option<Solved>, String> {
    let mut s = Solver::with_config(matrix.matrix(), config).map_err(|e| e.to_string())?;
    let mut answer = Answer::default();
    for (k, &d) in puzzle.givens.iter().enumerate() {
        if d != 0 && s.preselect(matrix.option(k, d)).is_err() {
            // Givens that clash: no solution.
            answer.complete = true;
            return Ok(Some(Solved {
                answer,
                solution: None,
            }));
        }
    }
    let switch = |last_found: u64| Budget {
        nodes: switch_after.map(|n| last_found.saturating_add(n)),
        updates: None,
    };
    let mut deadline = Deadline::until(&mut s, switch(0), at);
    let mut solution = None;
    while answer.solutions < limit {
        match deadline.next(&mut s) {
            Step::Solution => {
                answer.solutions += 1;
                if solution.is_none() {
                    solution = Some(matrix.grid_of(s.solution()));
                }
                let found_at = deadline.nodes(&s);
                deadline.set_budget(switch(found_at));
            }
            Step::Exhausted => {
                answer.complete = true;
                break;
            }
            Step::Budget if deadline.timed_out() => {
                answer.timed_out = true;
                break;
            }
            // `switch_after` nodes without a new solution.
            Step::Budget => return Ok(None),
        }
    }
    answer.nodes = s.stats().nodes;
    Ok(Some(Solved { answer, solution }))
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
        let read = fpuzzles::read_pasted(text).map_err(|e| e.to_string());
        let solved = read.as_ref().map_err(Clone::clone).and_then(|p| {
            let m = cache.matrix(&p.rules)?;
            solve(m, p, limit, args)
        });
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
                        p.with_solution(sol)
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
