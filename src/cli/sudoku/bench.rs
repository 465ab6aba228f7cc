//! `dlx sudoku bench`: every chosen solver on every file, measured the same
//! way. Puzzles are read once per file (reading is not timed); each solver
//! then answers all of them with the same limits and a per-puzzle deadline,
//! and every figure in the report is measured in that run.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Args;

use super::super::{exit, json};
use dlx::sudoku::format::{ReadOptions, Reader, Record};
use dlx::sudoku::{Grid, Limits, Matrices, SolverKind, Solvers, Status, SudokuSolver};

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
    /// Count each puzzle's solutions up to N (2 checks uniqueness).
    #[arg(long, default_value_t = 2)]
    limit: u64,
    /// Give up on a puzzle after this long (e.g. 1s, 250ms; 0 for never).
    #[arg(long, default_value = "1s", value_parser = super::super::parse_duration)]
    timeout_per_puzzle: Duration,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
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

/// One puzzle's status, microseconds, nodes, and whether it was solved.
type Measured = (Status, f64, u64, bool);

/// What one solver did on one file.
struct Row {
    solver: &'static str,
    file: String,
    puzzles: usize,
    solved: usize,
    unique: usize,
    multiple: usize,
    none: usize,
    invalid: usize,
    timeouts: usize,
    seconds: f64,
    micros: Vec<f64>,
    nodes: Vec<u64>,
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

    fn nodes_mean(&self) -> f64 {
        self.nodes.iter().sum::<u64>() as f64 / self.nodes.len().max(1) as f64
    }
}

pub(crate) fn run(args: BenchArgs) -> u8 {
    let mut kinds = Vec::new();
    for name in &args.solver {
        match SolverKind::from_name(name.trim()) {
            Some(k) => kinds.push(k),
            None => {
                eprintln!(
                    "dlx sudoku bench: unknown solver `{name}` (dlx, backtrack, backtrack-mrv)"
                );
                return exit::BAD_INPUT;
            }
        }
    }
    let matrices = Matrices::new();
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
        let records: Vec<Record> = Reader::new(input, ReadOptions::default())
            .take(args.max_puzzles.unwrap_or(usize::MAX))
            .collect();
        for r in &records {
            if let Err(e) = &r.grid {
                eprintln!("dlx sudoku bench: {name}: puzzle {}: invalid: {e}", r.index);
                code = exit::BAD_INPUT;
            }
        }
        for &kind in &kinds {
            rows.push(measure(&records, kind, &matrices, &args, &name));
        }
    }
    print_rows(&rows, &args);
    code
}

fn measure(
    records: &[Record],
    kind: SolverKind,
    matrices: &Matrices,
    args: &BenchArgs,
    file: &str,
) -> Row {
    let timeout = (!args.timeout_per_puzzle.is_zero()).then_some(args.timeout_per_puzzle);
    let results: Vec<std::sync::Mutex<Option<Measured>>> = records
        .iter()
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    let next = AtomicUsize::new(0);
    let jobs = args.jobs.max(1);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                let mut solvers = Solvers::new(kind, matrices);
                let mut solution = Grid::empty(3).unwrap_or_else(|| unreachable!());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(record) = records.get(i) else { return };
                    let Ok(puzzle) = &record.grid else {
                        *results[i].lock().unwrap_or_else(|e| e.into_inner()) =
                            Some((Status::Invalid, 0.0, 0, false));
                        continue;
                    };
                    let t = Instant::now();
                    let limits = Limits {
                        solutions: args.limit,
                        deadline: timeout.map(|d| t + d),
                    };
                    let answer = solvers.solve(puzzle, &limits, &mut solution);
                    let micros = t.elapsed().as_secs_f64() * 1e6;
                    let solved = answer.solutions > 0;
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) =
                        Some((answer.status(), micros, answer.nodes, solved));
                }
            });
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let mut row = Row {
        solver: kind.name(),
        file: file.to_string(),
        puzzles: records.len(),
        solved: 0,
        unique: 0,
        multiple: 0,
        none: 0,
        invalid: 0,
        timeouts: 0,
        seconds,
        micros: Vec::with_capacity(records.len()),
        nodes: Vec::with_capacity(records.len()),
    };
    for r in results {
        let Some((status, micros, nodes, solved)) =
            r.into_inner().unwrap_or_else(|e| e.into_inner())
        else {
            continue;
        };
        match status {
            Status::Unique => row.unique += 1,
            Status::Multiple => row.multiple += 1,
            Status::None => row.none += 1,
            Status::Invalid => row.invalid += 1,
            Status::Timeout => row.timeouts += 1,
            Status::Solved => {}
        }
        row.solved += usize::from(solved);
        if status != Status::Invalid {
            row.micros.push(micros);
            row.nodes.push(nodes);
        }
    }
    row.micros.sort_by(f64::total_cmp);
    row
}

fn print_rows(rows: &[Row], args: &BenchArgs) {
    let mut out = String::new();
    if args.json {
        for r in rows {
            let obj = json::Object::new()
                .str("solver", r.solver)
                .str("file", &r.file)
                .num("puzzles", r.puzzles)
                .num("solved", r.solved)
                .num("unique", r.unique)
                .num("multiple", r.multiple)
                .num("none", r.none)
                .num("invalid", r.invalid)
                .num("timeouts", r.timeouts)
                .float("seconds", r.seconds)
                .float("puzzles_per_second", r.rate())
                .float("us_median", r.percentile(0.5))
                .float("us_p99", r.percentile(0.99))
                .float("us_max", r.percentile(1.0))
                .float("nodes_mean", r.nodes_mean())
                .num("nodes_max", r.nodes.iter().max().copied().unwrap_or(0))
                .num("limit", args.limit)
                .num("jobs", args.jobs.max(1));
            let _ = writeln!(out, "{}", obj.finish());
        }
    } else if args.csv {
        out.push_str("solver,file,puzzles,solved,unique,multiple,none,invalid,timeouts,seconds,puzzles_per_second,us_median,us_p99,us_max,nodes_mean,nodes_max\n");
        for r in rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{:.6},{:.1},{:.2},{:.2},{:.2},{:.2},{}",
                r.solver,
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
                r.nodes.iter().max().copied().unwrap_or(0)
            );
        }
    } else {
        let header = [
            "solver",
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
        ];
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                vec![
                    r.solver.to_string(),
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
                if i < 2 {
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
            "(limit {} solutions, timeout {:?} per puzzle, {} job(s); times are solving only)",
            args.limit,
            args.timeout_per_puzzle,
            args.jobs.max(1)
        );
    }
    print!("{out}");
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
