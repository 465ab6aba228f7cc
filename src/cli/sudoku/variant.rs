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
//! With one job the puzzles of an input are solved in turn on the calling
//! thread, each answer written as soon as it is found; with more, batches of
//! [`BATCH`] lines are spread over the threads (each builds the matrices of
//! the rules it meets) and written in input order. The backtracking
//! baselines (classic grids only) and output formats of classic grids are
//! refused for variants, never ignored. `dlx sudoku bench` measures variant
//! files through [`solve_each`] too.

use std::borrow::Borrow;
use std::io::BufRead;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::super::output::Output;
use super::super::{exit, json};
use super::{CommonArgs, FormatArg, Mode, SolverArg, Totals};
use dlx::sudoku::fpuzzles::{self, Puzzle};
use dlx::sudoku::rule_line;
use dlx::sudoku::rules::{Rules, RulesMatrix};
use dlx::sudoku::Intersections;
use dlx::sudoku::{Alphabet, Answer, DlxSudoku, Limits, Status};
use dlx::{Config, EngineKind};

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

/// How each puzzle is searched: the engine and rule the flags name
/// (first-forced by default), the switch to lookahead, the limit and the
/// time allowed a puzzle.
#[derive(Clone)]
pub(super) struct Settings {
    pub(super) config: Config,
    pub(super) lookahead_after: Option<u64>,
    /// Where the search looks for intersections, as asked (`None`: the
    /// library's default for variants, wherever the engine looks).
    pub(super) intersections: Option<Intersections>,
    pub(super) limit: u64,
    pub(super) timeout: Option<Duration>,
    /// The handle Ctrl-C cancels, on `solve`, `count` and `check`.
    pub(super) cancel: Option<dlx::Cancel>,
}

impl Settings {
    /// Settings for `config`: the switch to lookahead at its default.
    pub(super) fn new(config: Config, limit: u64, timeout: Option<Duration>) -> Settings {
        Settings {
            config,
            lookahead_after: Some(dlx::sudoku::LOOKAHEAD_AFTER),
            intersections: None,
            limit,
            timeout,
            cancel: None,
        }
    }

    /// The settings `args` ask for, counting to `limit`.
    fn of(args: &CommonArgs, limit: u64) -> Settings {
        let mut config = Config::new().branching(args.rule());
        if let Some(kind) = args.engine.kind() {
            config = config.engine(kind);
        }
        Settings {
            config,
            lookahead_after: args
                .lookahead_after
                .map_or(Some(dlx::sudoku::LOOKAHEAD_AFTER), |a| a.0),
            intersections: args.intersections,
            limit,
            timeout: (!args.timeout.is_zero()).then_some(args.timeout),
            cancel: Some(super::super::interrupt::handle()),
        }
    }
}

/// A variant puzzle read: its rules and givens, and the f-puzzles JSON it
/// came as, if it did (a solution is written back into it).
pub(super) struct Read {
    rules: Rules,
    givens: Vec<u8>,
    fpuzzles: Option<Puzzle>,
}

/// Reads one line as the format named, else f-puzzles when it starts with
/// `{` or a link, else the text form.
pub(super) fn read(text: &str, format: Option<FormatArg>) -> Result<Read, String> {
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
pub(super) struct Solved {
    pub(super) answer: Answer,
    pub(super) solution: Option<Vec<u8>>,
    /// The engine that searched.
    pub(super) engine: EngineKind,
}

/// Solves the puzzles `next` hands out, in turn on this thread, each by the
/// matrix and solver of its rules — built once for a run of puzzles with
/// the same rules — and hands each answer to `done` with the puzzle's key
/// and the microseconds it took (building included).
pub(super) fn solve_each<K, R: Borrow<Result<Read, String>>>(
    settings: &Settings,
    mut next: impl FnMut() -> Option<(K, R)>,
    mut done: impl FnMut(K, R, Result<Solved, String>, f64),
) {
    let mut matrix: Option<RulesMatrix> = None;
    let mut solver: Option<Result<DlxSudoku, String>> = None;
    while let Some((key, read)) = next() {
        let start = Instant::now();
        let solved = match read.borrow() {
            Err(e) => Err(e.clone()),
            Ok(p) => {
                if matrix.as_ref().is_none_or(|m| m.rules() != &p.rules) {
                    // New rules: a new matrix and its solver, the old ones
                    // dropped first.
                    solver = None;
                    matrix = None;
                    match p.rules.matrix() {
                        Ok(m) => matrix = Some(m),
                        Err(e) => solver = Some(Err(e.to_string())),
                    }
                }
                if let (None, Some(m)) = (&solver, &matrix) {
                    let made = DlxSudoku::for_rules(m, settings.config).map_err(|e| e.to_string());
                    solver = Some(made.and_then(|mut s| {
                        s.set_lookahead_after(settings.lookahead_after);
                        let asked = settings.intersections;
                        s.set_intersections(asked.unwrap_or(dlx::sudoku::VARIANT_INTERSECTIONS));
                        let rule = settings.config.rule();
                        if asked.is_some_and(Intersections::looks)
                            && !s.engine().looks_for_intersections(rule)
                        {
                            return Err(format!(
                                "--intersections: these rules' matrix is not for the masks engine, which alone looks ({} searches it)",
                                s.engine()
                            ));
                        }
                        Ok(s)
                    }));
                }
                match solver.as_mut() {
                    Some(Ok(s)) => {
                        let limits = Limits {
                            solutions: settings.limit,
                            deadline: settings.timeout.map(|t| start + t),
                            cancel: settings.cancel.clone(),
                        };
                        let mut grid = Vec::new();
                        let answer = s.solve_cells(&p.givens, &limits, &mut grid);
                        Ok(Solved {
                            answer,
                            solution: (answer.solutions > 0).then_some(grid),
                            engine: s.engine(),
                        })
                    }
                    Some(Err(e)) => Err(e.clone()),
                    None => Err("no solver".to_string()),
                }
            }
        };
        done(key, read, solved, start.elapsed().as_secs_f64() * 1e6);
    }
}

/// One puzzle line of an input: its line number (from 0), its index among
/// the puzzles (from 1), and its text, trimmed.
struct Line {
    n: usize,
    index: u64,
    text: String,
}

/// Lines read at a time when puzzles are spread over threads; each thread
/// builds its matrices again for every batch.
const BATCH: usize = 2048;

/// Answers every puzzle of `input` (one a line) into `out`, on `jobs`
/// threads in batches (one thread: each answer as soon as it is found);
/// returns the exit code they call for. Answers keep the input's order.
#[allow(clippy::too_many_arguments)]
pub(super) fn answer_input(
    input: Box<dyn BufRead + Send>,
    name: &str,
    mode: Mode,
    limit: u64,
    jobs: usize,
    args: &CommonArgs,
    out: &mut Output,
    totals: &mut Totals,
) -> u8 {
    if let Some(why) = refusal(args) {
        eprintln!("dlx sudoku: {name}: {why}");
        return exit::BAD_INPUT;
    }
    let settings = Settings::of(args, limit);
    let mut code = exit::FOUND;
    let mut index = 0u64;
    let mut lines = input.lines().enumerate();
    // The next puzzle line, or `None` at the end or on an error reading.
    let mut next_line = |code: &mut u8| -> Option<Line> {
        for (n, line) in lines.by_ref() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("dlx sudoku: {name}: line {}: {e}", n + 1);
                    *code = exit::worse(*code, exit::BAD_INPUT);
                    return None;
                }
            };
            let text = line.trim_start_matches('\u{feff}').trim();
            if !text.is_empty() {
                index += 1;
                return Some(Line {
                    n,
                    index,
                    text: text.to_string(),
                });
            }
        }
        None
    };
    let mut answered = 0u64;
    let mut go_on = true;
    if jobs <= 1 {
        let mut reading = exit::FOUND;
        let more = std::cell::Cell::new(true);
        solve_each(
            &settings,
            || {
                let line = next_line(&mut reading).filter(|_| more.get())?;
                let read = read(&line.text, args.format);
                Some((line, read))
            },
            |line, read, solved, micros| {
                answered += 1;
                let (c, go_on) =
                    report(&line, &read, &solved, micros, name, mode, args, out, totals);
                code = exit::worse(code, c);
                more.set(go_on);
            },
        );
        code = exit::worse(code, reading);
    } else {
        while go_on {
            let batch: Vec<Line> = std::iter::from_fn(|| next_line(&mut code))
                .take(BATCH)
                .collect();
            if batch.is_empty() {
                break;
            }
            let slots: Vec<Mutex<Option<Done>>> = batch.iter().map(|_| Mutex::new(None)).collect();
            let taken = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for _ in 0..jobs.min(batch.len()) {
                    scope.spawn(|| {
                        solve_each(
                            &settings,
                            || {
                                let k = taken.fetch_add(1, Ordering::Relaxed);
                                let line = batch.get(k)?;
                                Some((k, read(&line.text, args.format)))
                            },
                            |k, read, solved, micros| {
                                if let Ok(mut slot) = slots[k].lock() {
                                    *slot = Some((read, solved, micros));
                                }
                            },
                        );
                    });
                }
            });
            for (line, slot) in batch.iter().zip(slots) {
                let Some((read, solved, micros)) = slot.into_inner().ok().flatten() else {
                    continue;
                };
                answered += 1;
                let (c, more) = report(line, &read, &solved, micros, name, mode, args, out, totals);
                code = exit::worse(code, c);
                if !more {
                    go_on = false;
                    break;
                }
            }
        }
    }
    if answered == 0 && out.is_ok() {
        eprintln!("dlx sudoku: {name}: no puzzles in the input");
        code = exit::worse(code, exit::BAD_INPUT);
    }
    code
}

/// A puzzle answered on a worker thread: as read, as solved, microseconds.
type Done = (Result<Read, String>, Result<Solved, String>, f64);

/// Writes one puzzle's answer (and its messages on standard error) and
/// adds it to the totals; returns the exit code it calls for and whether
/// the output can take more.
#[allow(clippy::too_many_arguments)]
fn report(
    line: &Line,
    read: &Result<Read, String>,
    solved: &Result<Solved, String>,
    micros: f64,
    name: &str,
    mode: Mode,
    args: &CommonArgs,
    out: &mut Output,
    totals: &mut Totals,
) -> (u8, bool) {
    let (n, index, text) = (line.n, line.index, line.text.as_str());
    if solved.as_ref().is_ok_and(|s| s.answer.cancelled) {
        // Ctrl-C: the run ends here, this puzzle unanswered.
        return (exit::INTERRUPTED, false);
    }
    let say = |what: &str| {
        eprintln!(
            "dlx sudoku: {name}: puzzle {index} (line {}): {what}",
            n + 1
        )
    };
    let status = match solved {
        Err(_) => Status::Invalid,
        Ok(s) => s.answer.status(),
    };
    let answer = solved.as_ref().ok();
    totals.add(
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
        Ok(_) if status == Status::None && mode == Mode::Solve => say("no solution"),
        Ok(_) => {}
    }
    let code = match (solved, status) {
        (Err(_), _) => exit::BAD_INPUT,
        (Ok(s), _) if s.answer.timed_out => exit::BUDGET,
        (_, Status::None) if mode != Mode::Check => exit::NONE,
        _ => exit::FOUND,
    };
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
        let (answer, solution) = match solved {
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
            .float("micros", micros)
            .finish()
    } else {
        match mode {
            Mode::Solve => match (read, solved.as_ref().ok().and_then(|s| s.solution.as_ref())) {
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
            Mode::Count => match solved {
                Err(e) => format!("invalid: {e}"),
                Ok(s) if s.answer.timed_out => {
                    format!("timeout: at least {}", s.answer.solutions)
                }
                Ok(s) => s.answer.solutions.to_string(),
            },
            Mode::Check => match solved {
                Err(e) => format!("invalid: {e}"),
                Ok(_) => status.as_str().to_string(),
            },
        }
    };
    (code, out.println(&text_out))
}
