//! `dlx sudoku solve | count | check | bench`.
//!
//! Puzzles stream through: the reader is pulled in chunks by worker threads
//! (each with its own solvers over the shared matrices), and answers are
//! written in input order. At most a fixed window of chunks is in flight, so
//! memory stays flat however long the input is. An input of one puzzle of
//! 25×25 or more is spread over the threads itself (`solve_on_threads`).

use std::collections::BTreeMap;
use std::io::{self, BufRead, IsTerminal};
use std::path::PathBuf;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};

use super::output::Output;
use super::{exit, json};
use dlx::sudoku::format::{self, Format, ReadOptions, Reader, Record};
use dlx::sudoku::fpuzzles;
use dlx::sudoku::{
    Alphabet, Answer, Grid, Limits, Matrices, SolverKind, Solvers, Status, SudokuSolver,
};

mod bench;
mod generate;
mod variant;

#[derive(Subcommand, Debug)]
pub(crate) enum SudokuCommand {
    /// Print one solution of each puzzle, in the format it was given in.
    Solve(SolveArgs),
    /// Print the number of solutions of each puzzle.
    Count(CountArgs),
    /// Print unique, multiple, none or invalid for each puzzle.
    Check(CommonArgs),
    /// Measure solvers (DLX and the backtracking baselines) on puzzle files.
    Bench(bench::BenchArgs),
    /// Make puzzles with exactly one solution, reproducibly from a seed.
    Generate(generate::GenerateArgs),
}

#[derive(Args, Debug, Clone)]
pub(crate) struct CommonArgs {
    /// Puzzle files; none or `-` reads standard input.
    files: Vec<PathBuf>,
    /// Input format (detected from the first puzzle's shape when not given).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Output format (default: the input's).
    #[arg(long, value_enum)]
    output_format: Option<FormatArg>,
    /// Symbols for digits (default: 1-9 up to 9×9; letters, or 1-9A-… when
    /// the puzzle uses digits, beyond).
    #[arg(long, value_enum)]
    alphabet: Option<AlphabetArg>,
    /// Worker threads (default and most: the cores). Output keeps input
    /// order.
    #[arg(long, value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<usize>,
    /// Print a summary on standard error.
    #[arg(long)]
    stats: bool,
    /// Print one JSON object per puzzle instead.
    #[arg(long)]
    json: bool,
    /// Solver to use.
    #[arg(long, value_enum, default_value = "dlx")]
    solver: SolverArg,
    /// DLX branching rule: first-forced (the default: forced cells and
    /// digits first, on the masks engine, the fastest), knuth (DLX1's, on
    /// the links engine), or lookahead from the first node (links). With an
    /// engine named that does not take first-forced (bits), its own rule.
    #[arg(long, value_enum)]
    branching: Option<super::BranchingArg>,
    /// DLX search engine, as for `dlx cover`: `auto` (the library's choice
    /// for the rule and the grid's size), or `links`, `dense`, `bits`,
    /// `masks`. An engine that does not take the rule is an error before
    /// anything is read; a size it cannot take (bits: 4×4 only; dense: a
    /// state of at most 8 KB) is an error for each puzzle of that size.
    #[arg(long, value_enum, default_value = "auto")]
    engine: super::EngineArg,
    /// Start a puzzle over with lookahead after N search nodes without a new
    /// solution ("never" to keep the chosen rule; default 100000). Puzzles
    /// plain DLX cannot finish (minimal 25×25) need it.
    #[arg(long, value_name = "N|never", value_parser = parse_after)]
    lookahead_after: Option<After>,
    /// Give up on a puzzle after this long (e.g. 10s, 250ms; 0 for never).
    /// A puzzle given up on is reported `timeout`, and the exit code is 3.
    #[arg(long, default_value = "0", value_parser = super::parse_duration)]
    timeout: Duration,
}

impl CommonArgs {
    /// The rule asked for, else first-forced, or the named engine's own
    /// when it does not take first-forced.
    fn rule(&self) -> dlx::Branching {
        match (self.branching, self.engine.kind()) {
            (Some(b), _) => b.into(),
            (None, Some(e)) => e.rule_preferring(dlx::Branching::FirstForced),
            (None, None) => dlx::Branching::FirstForced,
        }
    }
}

/// A node count, or never.
#[derive(Clone, Copy, Debug)]
pub(crate) struct After(Option<u64>);

fn parse_after(s: &str) -> Result<After, String> {
    match s.trim() {
        "never" => Ok(After(None)),
        t => t
            .parse()
            .map(|n| After(Some(n)))
            .map_err(|_| format!("`{s}` is not a number of nodes or `never`")),
    }
}

/// How the DLX solvers search (ignored by the baselines).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tuning {
    pub(crate) engine: Option<dlx::EngineKind>,
    pub(crate) branching: dlx::Branching,
    pub(crate) lookahead_after: Option<u64>,
}

impl Tuning {
    fn apply(self, solvers: &mut Solvers<'_>) {
        solvers.set_engine(self.engine);
        solvers.set_branching(self.branching);
        solvers.set_lookahead_after(self.lookahead_after);
    }
}

#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Also check uniqueness (count to 2), for --stats and --json.
    #[arg(long)]
    check_unique: bool,
}

#[derive(Args, Debug)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Stop counting a puzzle at N solutions (1 or more).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    Line,
    Poj3074,
    Poj2676,
    Poj2918,
    Poj3076,
    Hdu1426,
    Leetcode,
    Grid,
    /// f-puzzles: its JSON, a link, or the link's compressed string, one
    /// puzzle a line; variants (jigsaw, extra regions, anti-king/knight,
    /// non-consecutive, killer cages) included.
    Fpuzzles,
    /// Plain text for variants: a grid line, then the rules as words (`x`,
    /// `windoku`, `antiking`, `antiknight`, `nonconsecutive`, `disjoint`,
    /// `regions=…`, `region=R1C1,…`, `cage=SUM:R1C1,…`, `boxes=RxC`); for
    /// classic grids the same as `line`.
    Variant,
}

impl FormatArg {
    /// The classic format named (`None`: f-puzzles; the variant text form
    /// of a classic grid is its line).
    fn classic(self) -> Option<Format> {
        Some(match self {
            FormatArg::Line => Format::Line,
            FormatArg::Poj3074 => Format::Poj3074,
            FormatArg::Poj2676 => Format::Poj2676,
            FormatArg::Poj2918 => Format::Poj2918,
            FormatArg::Poj3076 => Format::Poj3076,
            FormatArg::Hdu1426 => Format::Hdu1426,
            FormatArg::Leetcode => Format::Leetcode,
            FormatArg::Grid => Format::Grid,
            FormatArg::Variant => Format::Line,
            FormatArg::Fpuzzles => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum AlphabetArg {
    /// 1-9, then A, B, … (1-9A-G for 16×16).
    Digits,
    /// A = 1, B = 2, … (A-P for 16×16, A-Y for 25×25).
    Letters,
    /// 0-9A-F…, with 0 = 1.
    Hex,
}

impl From<AlphabetArg> for Alphabet {
    fn from(a: AlphabetArg) -> Alphabet {
        match a {
            AlphabetArg::Digits => Alphabet::Digits,
            AlphabetArg::Letters => Alphabet::Letters,
            AlphabetArg::Hex => Alphabet::Hex,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum SolverArg {
    Dlx,
    Backtrack,
    BacktrackMrv,
}

impl From<SolverArg> for SolverKind {
    fn from(s: SolverArg) -> SolverKind {
        match s {
            SolverArg::Dlx => SolverKind::Dlx,
            SolverArg::Backtrack => SolverKind::Backtrack,
            SolverArg::BacktrackMrv => SolverKind::BacktrackMrv,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Solve,
    Count,
    Check,
}

pub(crate) fn run(cmd: SudokuCommand) -> u8 {
    match cmd {
        SudokuCommand::Solve(a) => {
            let limit = if a.check_unique { 2 } else { 1 };
            answer_all(&a.common, Mode::Solve, limit)
        }
        SudokuCommand::Count(a) => answer_all(&a.common, Mode::Count, a.limit.unwrap_or(u64::MAX)),
        SudokuCommand::Check(a) => answer_all(&a, Mode::Check, 2),
        SudokuCommand::Bench(a) => bench::run(a),
        SudokuCommand::Generate(a) => generate::run(a),
    }
}

/// One puzzle answered.
pub(crate) struct Outcome {
    pub(crate) record: Record,
    pub(crate) answer: Option<Answer>,
    pub(crate) solution: Option<Grid>,
    pub(crate) micros: f64,
    /// The engine asked for cannot take this puzzle's size.
    pub(crate) refused: Option<dlx::EngineError>,
}

/// Solves one record with `solvers`.
pub(crate) fn solve_record(solvers: &mut Solvers<'_>, record: Record, limits: &Limits) -> Outcome {
    let start = Instant::now();
    let refused = match &record.grid {
        Ok(puzzle) => solvers.prepare(puzzle.box_side()).err(),
        Err(_) => None,
    };
    let (answer, solution) = match &record.grid {
        Ok(_) if refused.is_some() => (None, None),
        Ok(puzzle) => {
            let mut solution = puzzle.clone();
            let answer = solvers.solve(puzzle, limits, &mut solution);
            let solution = (answer.solutions > 0).then_some(solution);
            (Some(answer), solution)
        }
        Err(_) => (None, None),
    };
    Outcome {
        record,
        answer,
        solution,
        micros: start.elapsed().as_secs_f64() * 1e6,
        refused,
    }
}

/// Most puzzles a worker takes at a time. A worker starts with one and
/// doubles while a chunk takes under `CHUNK_FAST`, halves when one takes
/// over `CHUNK_SLOW`: easy puzzles go by in large chunks (little locking),
/// and a file of hard ones still spreads over every worker.
const CHUNK: usize = 64;
const CHUNK_FAST: Duration = Duration::from_millis(2);
const CHUNK_SLOW: Duration = Duration::from_millis(20);
/// Chunks that may be in flight (taken but not yet written) per worker.
const WINDOW_PER_JOB: usize = 8;

struct Queue<I> {
    reader: I,
    next_seq: usize,
    written: usize,
    done: bool,
}

/// Runs `reader`'s puzzles through `jobs` workers; `sink` gets the outcomes
/// in input order, and says whether to go on. Returns when the input is
/// exhausted or `sink` said stop (workers then finish only the puzzles they
/// hold).
pub(crate) fn pipeline<R: BufRead + Send>(
    reader: Reader<R>,
    jobs: usize,
    kind: SolverKind,
    tuning: Tuning,
    matrices: &Matrices,
    limits: &(dyn Fn() -> Limits + Sync),
    sink: &mut dyn FnMut(Outcome) -> bool,
) {
    if jobs <= 1 {
        let mut solvers = Solvers::new(kind, matrices);
        tuning.apply(&mut solvers);
        for record in reader {
            if !sink(solve_record(&mut solvers, record, &limits())) {
                return;
            }
        }
        return;
    }
    // A lone puzzle of 25×25 or more gets every thread (`solve_on_threads`):
    // such a puzzle can take minutes. The second record is read to know.
    let mut reader = reader;
    let mut ahead = Vec::new();
    ahead.extend(reader.next());
    if let Some(b) = ahead[..]
        .first()
        .and_then(|r| r.grid.as_ref().ok())
        .map(|g| g.box_side())
    {
        if b >= 5 && kind == SolverKind::Dlx {
            ahead.extend(reader.next());
        }
    }
    // With the rules that reach lookahead (it is what such puzzles need).
    // A named engine searches as named, in the pipeline.
    let lookahead = tuning.engine.is_none()
        && matches!(
            (tuning.branching, tuning.lookahead_after),
            (dlx::Branching::Lookahead, _) | (dlx::Branching::FirstForced, Some(_))
        );
    if let ([record], true) = (&ahead[..], lookahead) {
        if let (Ok(puzzle), true) = (&record.grid, kind == SolverKind::Dlx) {
            if let Some(cover) = matrices
                .get(puzzle.box_side())
                .filter(|_| puzzle.box_side() >= 5)
            {
                let start = Instant::now();
                let mut solution = puzzle.clone();
                let answer = dlx::sudoku::solve_on_threads(
                    cover,
                    puzzle,
                    &limits(),
                    lookahead,
                    jobs,
                    &mut solution,
                );
                let record = ahead.pop().expect("one record");
                // Nothing follows it: whether to go on is moot.
                let _ = sink(Outcome {
                    record,
                    answer: Some(answer),
                    solution: (answer.solutions > 0).then_some(solution),
                    micros: start.elapsed().as_secs_f64() * 1e6,
                    refused: None,
                });
                return;
            }
        }
    }
    let reader = ahead.into_iter().chain(reader);
    let window = jobs * WINDOW_PER_JOB;
    let queue = Mutex::new(Queue {
        reader,
        next_seq: 0,
        written: 0,
        done: false,
    });
    let room = Condvar::new();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Vec<Outcome>)>();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (queue, room) = (&queue, &room);
            s.spawn(move || {
                let mut solvers = Solvers::new(kind, matrices);
                tuning.apply(&mut solvers);
                let mut chunk_len = 1;
                loop {
                    let (seq, chunk) = {
                        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                        while !q.done && q.next_seq >= q.written + window {
                            q = room.wait(q).unwrap_or_else(|e| e.into_inner());
                        }
                        if q.done {
                            return;
                        }
                        let chunk: Vec<Record> = q.reader.by_ref().take(chunk_len).collect();
                        if chunk.len() < chunk_len {
                            q.done = true;
                            room.notify_all();
                        }
                        let seq = q.next_seq;
                        q.next_seq += 1;
                        (seq, chunk)
                    };
                    let started = Instant::now();
                    let out: Vec<Outcome> = chunk
                        .into_iter()
                        .map(|r| solve_record(&mut solvers, r, &limits()))
                        .collect();
                    let took = started.elapsed();
                    if took < CHUNK_FAST {
                        chunk_len = (chunk_len * 2).min(CHUNK);
                    } else if took > CHUNK_SLOW {
                        chunk_len = (chunk_len / 2).max(1);
                    }
                    if tx.send((seq, out)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Vec<Outcome>> = BTreeMap::new();
        let mut next = 0;
        'written: for (seq, out) in rx {
            pending.insert(seq, out);
            while let Some(out) = pending.remove(&next) {
                for o in out {
                    if !sink(o) {
                        // No more puzzles are handed out; a worker's next
                        // send fails once `rx` is gone, and it returns.
                        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                        q.done = true;
                        room.notify_all();
                        break 'written;
                    }
                }
                next += 1;
                let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                q.written = next;
                room.notify_all();
            }
        }
    });
}

/// Totals for --stats.
#[derive(Default)]
struct Totals {
    puzzles: u64,
    solved: u64,
    unique: u64,
    multiple: u64,
    none: u64,
    invalid: u64,
    timeouts: u64,
    nodes: u64,
    guesses: u64,
}

impl Totals {
    /// Counts one answered puzzle (`answer`: `None` when not searched).
    fn add(&mut self, status: Status, answer: Option<&Answer>, solved: bool) {
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
}

/// Why `args` cannot run in `mode`: a flag that would be ignored, or an
/// engine that does not take the rule.
fn refusal(args: &CommonArgs, mode: Mode) -> Option<String> {
    if let Some(engine) = args.engine.kind() {
        if let Err(e) = engine.check_rule(args.rule()) {
            return Some(e.to_string());
        }
    }
    if args.output_format.is_some() && (mode != Mode::Solve || args.json) {
        return Some(
            "--output-format is for `sudoku solve` without --json: count, check and JSON print their own lines"
                .into(),
        );
    }
    let dlx_flags = [
        (args.branching.is_some(), "--branching"),
        (args.engine.kind().is_some(), "--engine"),
        (args.lookahead_after.is_some(), "--lookahead-after"),
    ];
    if args.solver != SolverArg::Dlx {
        if let Some((_, flag)) = dlx_flags.iter().find(|(set, _)| *set) {
            return Some(format!(
                "{flag} is for the dlx solver, and --solver names a backtracking baseline"
            ));
        }
    }
    None
}

fn answer_all(args: &CommonArgs, mode: Mode, limit: u64) -> u8 {
    if let Some(why) = refusal(args, mode) {
        eprintln!("dlx sudoku: {why}");
        return exit::BAD_INPUT;
    }
    let jobs = super::jobs(args.jobs.unwrap_or(usize::MAX));
    let matrices = Matrices::new();
    let options = ReadOptions {
        format: args.format.and_then(FormatArg::classic),
        alphabet: args.alphabet.map(Alphabet::from),
    };
    let files: Vec<Option<PathBuf>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files.iter().cloned().map(Some).collect()
    };
    let mut out = Output::stdout();
    let mut totals = Totals::default();
    let mut code = exit::FOUND;
    let start = Instant::now();
    let progress = io::stderr().is_terminal();
    let mut last_progress = Instant::now();
    let mut first_answer = true;
    let mut buf = String::new();
    for file in &files {
        if !out.is_ok() {
            break;
        }
        let name = super::input_name(file.as_ref());
        let mut input = match super::open_input(file.as_deref()) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("dlx sudoku: {name}: {e}");
                code = exit::worse(code, exit::BAD_INPUT);
                continue;
            }
        };
        if variant::wanted(args, &mut input) {
            let got =
                variant::answer_input(input, &name, mode, limit, jobs, args, &mut out, &mut totals);
            code = exit::worse(code, got);
            continue;
        }
        let reader = Reader::new(input, options);
        let mut count_in_file = 0u64;
        let timeout = (!args.timeout.is_zero()).then_some(args.timeout);
        // Called by a worker just before it solves a puzzle.
        let limits = || Limits {
            solutions: limit,
            deadline: timeout.map(|t| Instant::now() + t),
        };
        let mut sink = |o: Outcome| {
            count_in_file += 1;
            totals.puzzles += 1;
            buf.clear();
            let status = report(
                &o,
                &name,
                mode,
                args,
                &mut buf,
                &mut first_answer,
                &mut totals,
            );
            let timed_out = o.answer.is_some_and(|a| a.timed_out);
            code = exit::worse(
                code,
                match status {
                    Status::Invalid => exit::BAD_INPUT,
                    _ if timed_out => exit::BUDGET,
                    Status::None if mode != Mode::Check => exit::NONE,
                    _ => exit::FOUND,
                },
            );
            let go_on = out.print(&buf);
            if progress
                && last_progress.elapsed() > Duration::from_millis(250)
                && start.elapsed() > Duration::from_secs(1)
            {
                last_progress = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                eprint!(
                    "\r{} puzzles, {:.0}/s ",
                    totals.puzzles,
                    totals.puzzles as f64 / secs
                );
            }
            go_on
        };
        pipeline(
            reader,
            jobs,
            args.solver.into(),
            Tuning {
                engine: args.engine.kind(),
                branching: args.rule(),
                lookahead_after: args
                    .lookahead_after
                    .map_or(Some(dlx::sudoku::LOOKAHEAD_AFTER), |a| a.0),
            },
            &matrices,
            &limits,
            &mut sink,
        );
        if count_in_file == 0 && out.is_ok() {
            eprintln!("dlx sudoku: {name}: no puzzles in the input");
            code = exit::worse(code, exit::BAD_INPUT);
        }
    }
    if progress && start.elapsed() > Duration::from_secs(1) {
        eprint!("\r\x1b[K");
    }
    let code = out.finish("dlx sudoku", code);
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        let t = &totals;
        eprintln!(
            "puzzles: {}, solved: {}, unique: {}, multiple: {}, none: {}, invalid: {}, timeouts: {}, seconds: {:.3}, puzzles/s: {:.1}, search nodes: {} ({:.1} per puzzle), guesses: {} ({:.1} per puzzle)",
            t.puzzles,
            t.solved,
            t.unique,
            t.multiple,
            t.none,
            t.invalid,
            t.timeouts,
            secs,
            t.puzzles as f64 / secs.max(1e-9),
            t.nodes,
            t.nodes as f64 / (t.puzzles - t.invalid).max(1) as f64,
            t.guesses,
            t.guesses as f64 / (t.puzzles - t.invalid).max(1) as f64
        );
    }
    code
}

/// Writes one outcome into `buf` (stdout text) and messages to stderr;
/// returns its status.
fn report(
    o: &Outcome,
    name: &str,
    mode: Mode,
    args: &CommonArgs,
    buf: &mut String,
    first: &mut bool,
    totals: &mut Totals,
) -> Status {
    let r = &o.record;
    let status = match (&r.grid, &o.answer) {
        (Err(_), _) | (_, None) => Status::Invalid,
        (Ok(_), Some(a)) => a.status(),
    };
    totals.add(status, o.answer.as_ref(), o.solution.is_some());
    // Only a puzzle with something to say costs a message.
    let say = |what: &dyn std::fmt::Display| {
        eprintln!(
            "dlx sudoku: {name}: puzzle {} (line {}): {what}",
            r.index, r.line
        );
    };
    if let Err(e) = &r.grid {
        say(&format_args!("invalid: {e}"));
    } else if let Some(e) = &o.refused {
        say(e);
    } else if status == Status::None && mode == Mode::Solve {
        say(&"no solution");
    } else if o.answer.is_some_and(|a| a.timed_out) {
        let found = o.answer.map_or(0, |a| a.solutions);
        say(&format_args!(
            "timed out after {:?} with {} found",
            args.timeout,
            super::count_of(found, "solution")
        ));
    }
    if args.json {
        buf.push_str(&json_line(o, name, status));
        buf.push('\n');
        return status;
    }
    let out_format = args
        .output_format
        .map_or(Some(r.format), FormatArg::classic);
    match mode {
        Mode::Solve if out_format.is_none() => match (&r.grid, &o.solution) {
            (Ok(puzzle), Some(solution)) => {
                buf.push_str(&fpuzzles::write(
                    puzzle.side(),
                    puzzle.cells(),
                    Some(solution.cells()),
                ));
                buf.push('\n');
            }
            // Nothing solved: echoed as it came, as in every format.
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
            // error that is no puzzle (POJ 2676's count) has nothing to echo.
            let format = if o.solution.is_some() {
                out_format
            } else {
                r.format
            };
            if o.solution.is_some() || !r.raw.is_empty() {
                format::write_answer(buf, format, *first, r.index, answer);
                *first = false;
            }
        }
        Mode::Count => {
            match (&r.grid, &o.answer) {
                (Err(e), _) => buf.push_str(&format!("invalid: {}", e.kind)),
                (_, Some(a)) if a.timed_out => {
                    buf.push_str(&format!("timeout: at least {}", a.solutions))
                }
                (_, Some(a)) => buf.push_str(&a.solutions.to_string()),
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
    status
}

fn json_line(o: &Outcome, name: &str, status: Status) -> String {
    let r = &o.record;
    let mut obj = json::Object::new()
        .str("file", name)
        .num("index", r.index)
        .num("line", r.line)
        .str("puzzle", &r.raw);
    let solution = o.solution.as_ref().map(|g| r.alphabet.line(g, '.'));
    obj = obj
        .opt_str("solution", solution.as_deref())
        .str("status", status.as_str());
    // Every object has every field: a puzzle not searched (invalid, or
    // refused by the engine named) found nothing, and says why in `error`.
    let a = o.answer.unwrap_or_default();
    obj = obj
        .num("solutions", a.solutions)
        .boolean("complete", a.complete)
        .boolean("timed_out", a.timed_out)
        .num("nodes", a.nodes)
        .num("guesses", a.guesses);
    let error = match (&r.grid, &o.refused) {
        (Err(e), _) => Some(e.to_string()),
        (_, Some(e)) => Some(e.to_string()),
        _ => None,
    };
    obj.opt_str("error", error.as_deref())
        .float("micros", o.micros)
        .finish()
}
