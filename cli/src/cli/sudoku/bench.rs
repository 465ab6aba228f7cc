//! `dlx sudoku bench`: every chosen solver on every file, measured the same
//! way. Puzzles are read once per file (reading is not timed); each solver
//! (the DLX solver once per engine named) then answers all of them with the
//! same limits and a per-puzzle deadline, and every figure in the report is
//! measured in that run.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::super::output::Output;
use super::super::{exit, json};
use dlx::sudoku::format::{ReadOptions, Reader, Record};
use dlx::sudoku::Intersections;
use dlx::sudoku::{batch, Grid, Limits, Settings, SolveError, SolverKind, Status, Sudoku};
use dlx::{Branching, EngineKind};

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Puzzle files (any format the solve command reads).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Solvers to run, comma-separated: dlx, backtrack, backtrack-mrv.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "dlx,backtrack,backtrack-mrv"
    )]
    solver: Vec<String>,
    /// DLX engines to run, comma-separated: auto (the library's choice),
    /// links, dense, bits, masks, bands; one row each. For the dlx solver only.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "auto")]
    engine: Vec<super::super::EngineArg>,
    /// DLX branching rule (default first-forced, or a named engine's own
    /// rule when it does not take it). For the dlx solver only.
    #[arg(long, value_enum)]
    branching: Option<super::super::BranchingArg>,
    /// Look for intersections above the first N branch points, or `auto`,
    /// as for `sudoku solve` (default 1 for classic grids, auto for
    /// variants); comma-separated, one row per value (e.g. 0,1,auto). For
    /// the dlx solver only.
    #[arg(long, value_name = "N|auto", value_delimiter = ',')]
    intersections: Vec<Intersections>,
    /// Count each puzzle's solutions up to N (2 checks uniqueness).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
    /// Give up on a puzzle after this long (e.g. 1s, 250ms; 0 for never).
    #[arg(long, default_value = "1s", value_parser = super::super::parse_duration)]
    timeout_per_puzzle: Duration,
    /// Worker threads (at most the cores are used).
    #[arg(long, default_value_t = 1, value_parser = super::super::parse_jobs)]
    jobs: usize,
    /// Use only the first N puzzles of each file.
    #[arg(long, value_name = "N")]
    max_puzzles: Option<usize>,
    /// One JSON object per solver and file.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header line.
    #[arg(long)]
    csv: bool,
}

/// One puzzle's status, microseconds, nodes and guesses, and whether it
/// was solved.
type Measured = (Status, f64, (u64, u64), bool);

/// One solver to measure: a kind, and for DLX the engine named (`None`:
/// the library's choice) and the rule.
#[derive(Clone, Copy)]
struct Setup {
    kind: SolverKind,
    engine: Option<EngineKind>,
    rule: Branching,
    intersections: Option<Intersections>,
}

impl Setup {
    /// The library's settings of this setup.
    fn settings(&self) -> Settings {
        let mut settings = Settings::default().solver(self.kind);
        if self.kind == SolverKind::Dlx {
            settings = settings.engine(self.engine).branching(self.rule);
            if let Some(looks) = self.intersections {
                settings = settings.intersections(looks);
            }
        }
        settings
    }

    /// The row's intersections, as the library says its search looks
    /// (`None` for a baseline).
    fn looks(&self, variant: bool) -> Option<Intersections> {
        self.settings().intersections_searched(variant)
    }
}

/// What one solver did on one file; its `--json` object's first fields
/// ([`BenchLine`] adds the figures made from the per-puzzle ones).
#[derive(Serialize)]
struct Row {
    solver: &'static str,
    /// The engines the DLX solver searched with (`-` for the baselines).
    engine: String,
    /// The DLX rule (`-` for the baselines).
    branching: &'static str,
    /// Where the search looked for intersections (`None` for the
    /// baselines, and for bands, which reduces locked candidates at every
    /// node rather than looking where told).
    intersections: Option<Intersections>,
    file: String,
    puzzles: usize,
    solved: usize,
    unique: usize,
    multiple: usize,
    none: usize,
    invalid: usize,
    timeouts: usize,
    seconds: f64,
    #[serde(skip)]
    micros: Vec<f64>,
    #[serde(skip)]
    nodes: Vec<u64>,
    #[serde(skip)]
    guesses: u64,
}

impl Row {
    fn rate(&self) -> f64 {
        self.puzzles as f64 / self.seconds.max(1e-9)
    }

    fn percentile(&self, p: f64) -> f64 {
        if self.micros.is_empty() {
            return 0.0;
        }
        let k = ((self.micros.len() - 1) as f64 * p).round() as usize;
        self.micros[k]
    }

    /// The intersections as text (a depth or `auto`), `none` for a
    /// baseline's.
    fn looks(&self, none: &str) -> String {
        self.intersections
            .map_or_else(|| none.to_string(), |d| d.to_string())
    }

    /// The intersections as a JSON value: a depth, `"auto"` or `null`.
    fn nodes_mean(&self) -> f64 {
        self.nodes.iter().sum::<u64>() as f64 / self.nodes.len().max(1) as f64
    }

    /// Guesses (branch points) per puzzle searched.
    fn guesses_mean(&self) -> f64 {
        self.guesses as f64 / self.nodes.len().max(1) as f64
    }
}

pub(crate) fn run(mut args: BenchArgs) -> u8 {
    args.jobs = super::super::jobs(args.jobs);
    let setups = match setups(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dlx sudoku bench: {e}");
            return exit::BAD_INPUT;
        }
    };
    let mut code = exit::FOUND;
    let mut rows = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let input = match super::super::open_input(Some(path)) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("dlx sudoku bench: {name}: {e}");
                code = exit::BAD_INPUT;
                continue;
            }
        };
        let mut input = input;
        if super::variant::detected(None, &mut input) {
            code = exit::worse(
                code,
                bench_variants(input, &setups, &args, &name, &mut rows),
            );
            continue;
        }
        let records: Vec<Record> = Reader::new(input, ReadOptions::default())
            .take(args.max_puzzles.unwrap_or(usize::MAX))
            .collect();
        for r in &records {
            if let Err(e) = &r.grid {
                eprintln!("dlx sudoku bench: {name}: puzzle {}: invalid: {e}", r.index);
                code = exit::BAD_INPUT;
            }
        }
        for setup in &setups {
            match prepare(&records, setup) {
                Ok(engine) => rows.push(measure(&records, setup, engine, &args, &name)),
                Err(e) => {
                    eprintln!("dlx sudoku bench: {name}: {e}");
                    code = exit::BAD_INPUT;
                }
            }
        }
    }
    let mut out = Output::stdout();
    out.print(&report(&rows, &args));
    out.finish("dlx sudoku bench", code)
}

/// The solvers to measure, in the order asked: each solver named, the DLX
/// one once per engine; an error for a name, an engine and rule that do not
/// go together, or DLX settings without the DLX solver.
fn setups(args: &BenchArgs) -> Result<Vec<Setup>, String> {
    let mut setups = Vec::new();
    for name in &args.solver {
        let kind = SolverKind::from_name(name.trim())
            .ok_or_else(|| format!("unknown solver `{name}` (dlx, backtrack, backtrack-mrv)"))?;
        if kind != SolverKind::Dlx {
            setups.push(Setup {
                kind,
                engine: None,
                rule: Branching::FirstForced,
                intersections: None,
            });
            continue;
        }
        for engine in args.engine.iter().map(|e| e.kind()) {
            // The library's rule for the flags given (`Settings::rule`).
            let mut settings = Settings::default().engine(engine);
            if let Some(b) = args.branching {
                settings = settings.branching(b.into());
            }
            let rule = settings.rule();
            if let Some(e) = engine {
                e.check_rule(rule).map_err(|e| e.to_string())?;
            }
            if args.intersections.iter().any(|n| n.looks()) && !super::looks(engine, rule) {
                return Err("--intersections is for the first-forced search on the masks engine (the default): every --engine row must be auto or masks".into());
            }
            let depths: Vec<Option<Intersections>> = if args.intersections.is_empty() {
                vec![None]
            } else {
                args.intersections.iter().copied().map(Some).collect()
            };
            for intersections in depths {
                setups.push(Setup {
                    kind,
                    engine,
                    rule,
                    intersections,
                });
            }
        }
    }
    let named = args.branching.is_some()
        || !args.intersections.is_empty()
        || args.engine.iter().any(|e| e.kind().is_some());
    if named && !setups.iter().any(|s| s.kind == SolverKind::Dlx) {
        return Err(
            "--engine, --branching and --intersections apply to the dlx solver, which --solver does not name"
                .into(),
        );
    }
    Ok(setups)
}

/// Makes `setup`'s solvers for every size in `records`, before anything is
/// timed: the engines they search with (`-` for a baseline), or why the
/// engine named cannot take a size.
fn prepare(records: &[Record], setup: &Setup) -> Result<String, SolveError> {
    if setup.kind != SolverKind::Dlx {
        return Ok("-".into());
    }
    let mut sudoku = Sudoku::new(setup.settings());
    let mut engines = BTreeSet::new();
    for b in box_sides(records) {
        engines.extend(sudoku.prepare(b)?.map(EngineKind::name));
    }
    Ok(engines.into_iter().collect::<Vec<_>>().join("+"))
}

/// The box sides of the well-formed puzzles of `records`.
fn box_sides(records: &[Record]) -> BTreeSet<usize> {
    records
        .iter()
        .filter_map(|r| r.grid.as_ref().ok().map(Grid::box_side))
        .collect()
}

/// Hands the indices of `n` items to the library's batch, a piece at a
/// time, and keeps each result in its slot: the batch's threads, pieces
/// and order, as `check` runs them.
fn measure_all<M: Send>(
    n: usize,
    settings: &Settings,
    jobs: usize,
    one: impl Fn(&mut Sudoku, usize) -> M + Sync,
) -> (Vec<Option<M>>, f64) {
    let mut results: Vec<Option<M>> = (0..n).map(|_| None).collect();
    let mut next = 0;
    let start = Instant::now();
    batch::run(
        settings,
        jobs,
        |hint| {
            let piece = next..n.min(next + hint.max(1));
            next = piece.end;
            (!piece.is_empty()).then_some(piece)
        },
        |sudoku, piece| piece.map(|k| (k, one(sudoku, k))).collect::<Vec<_>>(),
        |done| {
            for (k, m) in done {
                results[k] = Some(m);
            }
            true
        },
    );
    (results, start.elapsed().as_secs_f64())
}

fn measure(records: &[Record], setup: &Setup, engine: String, args: &BenchArgs, file: &str) -> Row {
    let timeout = (!args.timeout_per_puzzle.is_zero()).then_some(args.timeout_per_puzzle);
    let (results, seconds) =
        measure_all(records.len(), &setup.settings(), args.jobs, |sudoku, i| {
            let Ok(puzzle) = &records[i].grid else {
                return (Status::Invalid, 0.0, (0, 0), false);
            };
            let mut solution = puzzle.clone();
            let t = Instant::now();
            let limits = Limits {
                solutions: args.limit,
                deadline: timeout.map(|d| t + d),
                cancel: None,
            };
            // The engine was checked for every size by `prepare`.
            let answer = sudoku
                .solve_grid(puzzle, &limits, &mut solution)
                .unwrap_or_default();
            let micros = t.elapsed().as_secs_f64() * 1e6;
            (
                answer.status(),
                micros,
                (answer.nodes, answer.guesses),
                answer.solutions > 0,
            )
        });
    let looks = setup.looks(false);
    row_of(results.into_iter(), setup, (engine, looks), file, seconds)
}

/// The row of one solver's `results` on one file (a puzzle not measured:
/// `None`).
fn row_of(
    results: impl ExactSizeIterator<Item = Option<Measured>>,
    setup: &Setup,
    (engine, intersections): (String, Option<Intersections>),
    file: &str,
    seconds: f64,
) -> Row {
    let intersections = intersections.filter(|_| engine != EngineKind::Bands.name());
    let puzzles = results.len();
    let mut row = Row {
        solver: setup.kind.name(),
        engine,
        branching: if setup.kind == SolverKind::Dlx {
            setup.rule.name()
        } else {
            "-"
        },
        intersections,
        file: file.to_string(),
        puzzles,
        solved: 0,
        unique: 0,
        multiple: 0,
        none: 0,
        invalid: 0,
        timeouts: 0,
        seconds,
        micros: Vec::with_capacity(puzzles),
        nodes: Vec::with_capacity(puzzles),
        guesses: 0,
    };
    for r in results {
        let Some((status, micros, (nodes, guesses), solved)) = r else {
            continue;
        };
        match status {
            Status::Unique => row.unique += 1,
            Status::Multiple => row.multiple += 1,
            Status::None => row.none += 1,
            Status::Invalid => row.invalid += 1,
            Status::Timeout => row.timeouts += 1,
            Status::Solved | Status::Cancelled => {}
        }
        row.solved += usize::from(solved);
        if status != Status::Invalid {
            row.micros.push(micros);
            row.nodes.push(nodes);
            row.guesses += guesses;
        }
    }
    row.micros.sort_by(f64::total_cmp);
    row
}

/// Measures the DLX setups on a file of variant puzzles (f-puzzles or
/// variant text), read first and untimed, on `args.jobs` threads; each
/// thread builds the matrix and solver of each rule set it meets, and that
/// building is timed with the puzzle (a file of one rule set builds once a
/// thread). The baselines take classic grids only: they are passed over,
/// with a note. Returns the exit code.
fn bench_variants(
    input: Box<dyn std::io::BufRead + Send>,
    setups: &[Setup],
    args: &BenchArgs,
    name: &str,
    rows: &mut Vec<Row>,
) -> u8 {
    let mut code = exit::FOUND;
    let mut puzzles = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("dlx sudoku bench: {name}: line {} is unreadable", n + 1);
            code = exit::BAD_INPUT;
            break;
        };
        let text = line.trim_start_matches('\u{feff}').trim();
        if text.is_empty() {
            continue;
        }
        if puzzles.len() >= args.max_puzzles.unwrap_or(usize::MAX) {
            break;
        }
        let read = super::variant::read(text, None);
        if let Err(e) = &read {
            eprintln!(
                "dlx sudoku bench: {name}: puzzle {}: invalid: {e}",
                puzzles.len() + 1
            );
            code = exit::BAD_INPUT;
        }
        puzzles.push(read);
    }
    let timeout = (!args.timeout_per_puzzle.is_zero()).then_some(args.timeout_per_puzzle);
    for setup in setups {
        if setup.kind != SolverKind::Dlx {
            eprintln!(
                "dlx sudoku bench: {name}: {} takes classic grids only: not run on variants",
                setup.kind.name()
            );
            continue;
        }
        let (results, seconds) =
            measure_all(puzzles.len(), &setup.settings(), args.jobs, |sudoku, k| {
                let Ok(read) = &puzzles[k] else {
                    return None;
                };
                let t = Instant::now();
                let limits = Limits {
                    solutions: args.limit,
                    deadline: timeout.map(|d| t + d),
                    cancel: None,
                };
                let solved = sudoku.solve(read.puzzle(), &limits).ok()?;
                let micros = t.elapsed().as_secs_f64() * 1e6;
                let a = solved.answer;
                let measured = (a.status(), micros, (a.nodes, a.guesses), a.solutions > 0);
                Some((measured, solved.engine?))
            });
        let results: Vec<Option<(Measured, EngineKind)>> =
            results.into_iter().map(Option::flatten).collect();
        let engines: BTreeSet<&str> = results.iter().flatten().map(|(_, e)| e.name()).collect();
        let engine = engines.into_iter().collect::<Vec<_>>().join("+");
        let measured = results
            .into_iter()
            .map(|r| Some(r.map_or((Status::Invalid, 0.0, (0, 0), false), |(m, _)| m)));
        let looks = setup.looks(true);
        rows.push(row_of(measured, setup, (engine, looks), name, seconds));
    }
    code
}

/// A row's `--json` object: the CSV's columns, by the same names.
#[derive(Serialize)]
struct BenchLine<'a> {
    #[serde(flatten)]
    row: &'a Row,
    puzzles_per_second: f64,
    us_median: f64,
    us_p99: f64,
    us_max: f64,
    nodes_mean: f64,
    nodes_max: u64,
    guesses_mean: f64,
    limit: u64,
    jobs: usize,
}

/// The report of `rows`, as `args` asks (table, JSON or CSV).
fn report(rows: &[Row], args: &BenchArgs) -> String {
    let mut out = String::new();
    if args.json {
        for r in rows {
            let line = BenchLine {
                row: r,
                puzzles_per_second: r.rate(),
                us_median: r.percentile(0.5),
                us_p99: r.percentile(0.99),
                us_max: r.percentile(1.0),
                nodes_mean: r.nodes_mean(),
                nodes_max: r.nodes.iter().max().copied().unwrap_or(0),
                guesses_mean: r.guesses_mean(),
                limit: args.limit,
                jobs: args.jobs,
            };
            let _ = writeln!(out, "{}", json::line(&line));
        }
    } else if args.csv {
        out.push_str("solver,engine,branching,intersections,file,puzzles,solved,unique,multiple,none,invalid,timeouts,seconds,puzzles_per_second,us_median,us_p99,us_max,nodes_mean,nodes_max,guesses_mean,limit,jobs\n");
        for r in rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{:.6},{:.1},{:.2},{:.2},{:.2},{:.2},{},{:.2},{},{}",
                r.solver,
                r.engine,
                r.branching,
                r.looks("-"),
                csv_field(&r.file),
                r.puzzles,
                r.solved,
                r.unique,
                r.multiple,
                r.none,
                r.invalid,
                r.timeouts,
                r.seconds,
                r.rate(),
                r.percentile(0.5),
                r.percentile(0.99),
                r.percentile(1.0),
                r.nodes_mean(),
                r.nodes.iter().max().copied().unwrap_or(0),
                r.guesses_mean(),
                args.limit,
                args.jobs
            );
        }
    } else {
        let header = [
            "solver",
            "engine",
            "rule",
            "look",
            "file",
            "puzzles",
            "solved",
            "unique",
            "multi",
            "none",
            "invalid",
            "timeout",
            "seconds",
            "puzzles/s",
            "µs med",
            "µs p99",
            "µs max",
            "nodes avg",
            "nodes max",
            "guesses avg",
        ];
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                vec![
                    r.solver.to_string(),
                    r.engine.clone(),
                    r.branching.to_string(),
                    r.looks("-"),
                    short_name(&r.file),
                    r.puzzles.to_string(),
                    r.solved.to_string(),
                    r.unique.to_string(),
                    r.multiple.to_string(),
                    r.none.to_string(),
                    r.invalid.to_string(),
                    r.timeouts.to_string(),
                    format!("{:.3}", r.seconds),
                    format!("{:.1}", r.rate()),
                    format!("{:.1}", r.percentile(0.5)),
                    format!("{:.1}", r.percentile(0.99)),
                    format!("{:.1}", r.percentile(1.0)),
                    format!("{:.1}", r.nodes_mean()),
                    r.nodes.iter().max().copied().unwrap_or(0).to_string(),
                    format!("{:.1}", r.guesses_mean()),
                ]
            })
            .collect();
        let widths: Vec<usize> = (0..header.len())
            .map(|i| {
                table
                    .iter()
                    .map(|row| row[i].chars().count())
                    .chain([header[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: Vec<String>, out: &mut String| {
            for (i, c) in cells.iter().enumerate() {
                let pad = widths[i] - c.chars().count();
                if i < 4 {
                    out.push_str(c);
                    out.push_str(&" ".repeat(pad));
                } else {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(c);
                }
                out.push_str(if i + 1 < cells.len() { "  " } else { "\n" });
            }
        };
        line(header.iter().map(|s| s.to_string()).collect(), &mut out);
        for row in table {
            line(row, &mut out);
        }
        let _ = writeln!(
            out,
            "(limit {}, timeout {:?} per puzzle, {}; times are solving only)",
            super::super::count_of(args.limit, "solution"),
            args.timeout_per_puzzle,
            super::super::count_of(args.jobs as u64, "thread")
        );
    }
    out
}

fn short_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |f| f.to_string_lossy().into_owned())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
