//! `dlx sudoku solve | count | check | bench`.
//!
//! Puzzles stream through `pipeline`: worker threads take batches of lines
//! from the reader and parse, solve and render them (`render`), each with
//! its own solvers over the shared matrices; the main thread writes the
//! rendered chunks in input order. At most a fixed window of chunks is in
//! flight, so memory stays flat however long the input is. An input of one
//! variant puzzle, or of one classic puzzle of 25×25 or more, is spread
//! over the threads itself (the library's `Sudoku::with_jobs`). Variant
//! puzzles go through `variant`.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};

use super::exit;
use super::output::Output;
use dlx::sudoku::format::{Format, ReadOptions, Reader};
use dlx::sudoku::{Alphabet, Intersections, Limits, Settings, SolverKind};

mod bench;
mod candidates;
mod generate;
mod lines;
mod logic;
mod pipeline;
mod render;
mod variant;

use pipeline::Outcome;
use pipeline::{pipeline, Work};
use render::{Chunk, Render, Totals};

#[derive(Subcommand, Debug)]
pub(crate) enum SudokuCommand {
    /// Print one solution of each puzzle, in the format it was given in.
    Solve(SolveArgs),
    /// Print the number of solutions of each puzzle.
    Count(CountArgs),
    /// Print unique, multiple, none or invalid for each puzzle.
    Check(CommonArgs),
    /// Print each puzzle's true candidates (the digits each cell takes in
    /// some solution) and how many solutions each has, capped.
    Candidates(candidates::CandidatesArgs),
    /// Print each puzzle's solve by logic, step by step, with technique
    /// names and Sudoku Explainer's ratings.
    Explain(logic::LogicArgs),
    /// Print each puzzle's difficulty on Sudoku Explainer's scale:
    /// ER/EP/ED and the hardest technique.
    Rate(logic::LogicArgs),
    /// Print the next logical step from each grid given.
    Hint(logic::LogicArgs),
    /// Measure solvers (DLX and the backtracking baselines) on puzzle files.
    Bench(bench::BenchArgs),
    /// Make puzzles with exactly one solution, reproducibly from a seed.
    Generate(generate::GenerateArgs),
}

#[derive(Args, Debug, Clone)]
pub(crate) struct CommonArgs {
    /// Puzzle files; none or `-` reads standard input.
    files: Vec<PathBuf>,
    /// Input format (detected from the first puzzle's shape when not
    /// given). `fpuzzles`: f-puzzles' JSON, a link or its compressed string,
    /// one puzzle a line; `variant`: a grid line, then the rules as words
    /// (`x`, `windoku`, `antiking`, `regions=…`, `region=R1C1,…`,
    /// `cage=SUM:R1C1,…`, `thermo=R1C1,…`, `arrow=R1C1:R1C2,…`,
    /// `white=R1C1,R1C2`, `littlekiller=SUM:…`, `sandwich=SUM:R3`,
    /// `boxes=RxC`, …; docs/variants.md lists every constraint).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Output format (default: the input's). `sudokupad`: a link
    /// SudokuPad opens (the puzzle, and the solution found for it to check
    /// a solve against; as input, SudokuPad links are read).
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
    /// digits first, on the masks engine, the fastest), knuth (DLX1's: the
    /// fewest options, leftmost on ties), or lookahead from the first node
    /// (dead ends pruned at branch points). With an engine named that does
    /// not take first-forced (bits), its own rule. Killer puzzles whose sums
    /// the search bounds branch first-forced where dead ends were met most
    /// (conflict scores, per option), not at the fewest options.
    #[arg(long, value_enum)]
    branching: Option<super::BranchingArg>,
    /// DLX search engine, as for `dlx cover` (see its --help): `auto`, the
    /// library's choice for the rule and the grid's size. An engine that
    /// does not take the rule is an error before anything is read; a size
    /// it cannot take (bits: 4×4 only; dense: a state of at most 8 KB)
    /// stops the run at its first puzzle of that size.
    #[arg(long, value_enum, default_value = "auto")]
    engine: super::EngineArg,
    /// Start a puzzle over with lookahead after N search nodes without a new
    /// solution ("never" to keep the chosen rule; default 100000). Puzzles
    /// plain DLX cannot finish (minimal 25×25) need it. Killer puzzles
    /// whose derived sums the search bounds (masks engine) start over only
    /// when this is given: lookahead's probes do not bound sums.
    #[arg(long, value_name = "N|never", value_parser = parse_after)]
    lookahead_after: Option<After>,
    /// Look for intersections (locked candidates: an item with two options
    /// left, both of which have another item, leaves that item's other
    /// options out)
    /// where nothing is forced, above the first N branch points of a
    /// puzzle's search (0: never), or `auto`: above the first, and below
    /// it while the looks have hidden 3 options or more a look on average
    /// (default 1 for classic grids, auto for variants, every node for
    /// killer puzzles whose derived sums the search bounds). The masks
    /// engine (first-forced) looks; the answers are the same, the guesses
    /// fewer.
    #[arg(long, value_name = "N|auto")]
    intersections: Option<Intersections>,
    /// Give up on a puzzle after this long (e.g. 10s, 250ms; 0 for never).
    /// A puzzle given up on is reported `timeout`, and the exit code is 3.
    /// Ctrl-C reports the puzzle under way `cancelled` (with what it had)
    /// and ends the run, exit code 130.
    #[arg(long, default_value = "0", value_parser = super::parse_duration)]
    timeout: Duration,
}

impl CommonArgs {
    /// The rule searched with: the library's ([`Settings::rule`]) for the
    /// flags given.
    fn rule(&self) -> dlx::Branching {
        self.settings().rule()
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

impl CommonArgs {
    /// The library's settings these flags ask for.
    fn settings(&self) -> Settings {
        let mut settings = Settings::default()
            .solver(self.solver.into())
            .engine(self.engine.kind());
        if let Some(b) = self.branching {
            settings = settings.branching(b.into());
        }
        if let Some(after) = self.lookahead_after {
            settings = settings.lookahead_after(after.0);
        }
        if let Some(looks) = self.intersections {
            settings = settings.intersections(looks);
        }
        settings
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
    Fpuzzles,
    Variant,
    Sudokupad,
}

impl FormatArg {
    /// The classic format named (`None`: f-puzzles or a SudokuPad link;
    /// the variant text form of a classic grid is its line).
    pub(crate) fn classic(self) -> Option<Format> {
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
            FormatArg::Fpuzzles | FormatArg::Sudokupad => return None,
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
        SudokuCommand::Candidates(a) => candidates::run(a),
        SudokuCommand::Explain(a) => logic::run(a, logic::Mode::Explain),
        SudokuCommand::Rate(a) => logic::run(a, logic::Mode::Rate),
        SudokuCommand::Hint(a) => logic::run(a, logic::Mode::Hint),
        SudokuCommand::Bench(a) => bench::run(a),
        SudokuCommand::Generate(a) => generate::run(a),
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
        (args.intersections.is_some(), "--intersections"),
    ];
    if args.solver != SolverArg::Dlx {
        if let Some((_, flag)) = dlx_flags.iter().find(|(set, _)| *set) {
            return Some(format!(
                "{flag} is for the dlx solver, and --solver names a backtracking baseline"
            ));
        }
    }
    if args.intersections.is_some_and(Intersections::looks)
        && !args.settings().looks_for_intersections()
    {
        return Some(
            "--intersections is for the first-forced search on the masks engine (the default): drop --branching or --engine"
                .into(),
        );
    }
    None
}

/// Whether a Sudoku search on `engine` (`None`: the library's choice)
/// with `rule` looks for intersections, so that `--intersections` means
/// something: the library's answer ([`Settings::looks_for_intersections`]).
pub(super) fn looks(engine: Option<dlx::EngineKind>, rule: dlx::Branching) -> bool {
    Settings::default()
        .engine(engine)
        .branching(rule)
        .looks_for_intersections()
}

fn answer_all(args: &CommonArgs, mode: Mode, limit: u64) -> u8 {
    if let Some(why) = refusal(args, mode) {
        eprintln!("dlx sudoku: {why}");
        return exit::BAD_INPUT;
    }
    let jobs = super::jobs(args.jobs.unwrap_or(usize::MAX));
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
    let mut answered = false;
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
        let variants = variant::wanted(args, &mut input);
        let mut count_in_file = 0u64;
        let timeout = (!args.timeout.is_zero()).then_some(args.timeout);
        // Called by a worker just before it solves a puzzle.
        let cancel = super::interrupt::handle();
        let limits = || Limits {
            solutions: limit,
            deadline: timeout.map(|t| Instant::now() + t),
            cancel: Some(cancel.clone()),
        };
        let mut write = |chunk: &Chunk| {
            if !chunk.err.is_empty() {
                eprint!("{}", chunk.err);
            }
            let [a, b] = chunk.text(answered);
            let go_on = out.print(a) && out.print(b);
            answered |= chunk.answered;
            count_in_file += chunk.totals.puzzles.max(u64::from(chunk.stop));
            totals.merge(&chunk.totals);
            code = exit::worse(code, chunk.code);
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
            go_on && !chunk.stop && !super::interrupt::interrupted()
        };
        if variants {
            let settings = args.settings();
            let got = variant::pipeline(
                input, &name, mode, jobs, args, &settings, &limits, &mut write,
            );
            code = exit::worse(code, got);
        } else {
            let render = Render {
                name: &name,
                mode,
                args,
            };
            let work = Work {
                settings: args.settings(),
                limits: &limits,
                render: &render,
            };
            pipeline(Reader::new(input, options), jobs, &work, &mut write);
        }
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
        // `solve` stops at the first solution: uniqueness is not known
        // (--check-unique counts to 2), and 0 would be a wrong figure.
        let (unique, multiple) = if limit < 2 {
            (
                "- (--check-unique counts them)".to_string(),
                "-".to_string(),
            )
        } else {
            (t.unique.to_string(), t.multiple.to_string())
        };
        eprintln!(
            "puzzles: {}, solved: {}, unique: {unique}, multiple: {multiple}, none: {}, invalid: {}, timeouts: {}, seconds: {:.3}, puzzles/s: {:.1}, search nodes: {} ({:.1} per puzzle), guesses: {} ({:.1} per puzzle)",
            t.puzzles,
            t.solved,
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
