//! `dlx cover`: solve a problem in Knuth's DLX format.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::output::Output;
use super::{count_of, exit, interrupt, json, progress, BranchingArg, EngineArg};
use dlx::{knuth, Budget, Config, Limits, Matrix, OptionId, Progress, Solver, Step, Stop};

#[derive(Args, Debug)]
pub(crate) struct CoverArgs {
    /// Input in Knuth's DLX format; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Print every solution: each option as its items, one option a line,
    /// a blank line between solutions.
    #[arg(long)]
    pub(crate) all: bool,
    /// Stop after N solutions (1 or more), and print them.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) first: Option<u64>,
    /// Print the K cheapest solutions (options' costs, DLX5's `|n`),
    /// cheapest first, each after a line `| cost N`; ties in search order.
    /// By branch and bound (DLX5's): branches that cannot beat the K-th
    /// best are not searched; with a budget or timeout the answer is the
    /// best found so far, not proven (exit 3). With --jobs the threads
    /// share the K-th best: the same answer, found sooner. With --run-jobs
    /// each result lists its job's K cheapest, which --merge --best K
    /// merges into the run's.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with_all = ["all", "first", "split", "estimate"])]
    pub(crate) best: Option<u64>,
    /// Stop after N updates (link removals); the answer is then unknown.
    #[arg(long, value_name = "N")]
    pub(crate) budget: Option<u64>,
    /// Stop after N search-tree nodes; the answer is then unknown.
    #[arg(long, value_name = "N")]
    pub(crate) node_budget: Option<u64>,
    /// Stop after this long (`90s`, `20m`, `1.5`; per job with --run-jobs);
    /// the answer is then unknown, as with a budget (exit 3). With --jobs
    /// every thread stops at it.
    #[arg(long, value_name = "DURATION", value_parser = super::parse_duration,
          conflicts_with_all = ["split", "estimate", "merge"])]
    pub(crate) timeout: Option<Duration>,
    /// Print solutions, nodes, updates and seconds on standard error.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Print the nodes entered at each level on standard error.
    #[arg(long)]
    pub(crate) profile: bool,
    /// Print one JSON object (solutions, nodes, updates, seconds, complete).
    #[arg(long)]
    pub(crate) json: bool,
    /// Branching rule: `knuth` (DLX1's: Knuth's node and update counts),
    /// `first-forced` or `lookahead`. Default: `knuth`.
    #[arg(long, value_enum)]
    pub(crate) branching: Option<BranchingArg>,
    /// Search engine: `links` (dancing links, DLX1/DLX2), `dense` (a bitset of
    /// active options, undone by copying; no colors, small matrices), `bits`
    /// (dense with lens counted by popcounts or bit-sliced; no colors, at most
    /// 64 primary items and 512 options), `masks` (a bitmask of options per
    /// item, state saved at branch points only: no colors, at most 64 options
    /// an item), `bands` (classic 9×9 Sudoku's matrix alone, by digit and
    /// band; first-forced only), or `auto`: the library's choice, the
    /// fastest engine that honours the rule (Knuth's: bits where it applies,
    /// else masks where it applies, else dense where it is expected to be
    /// faster, else links; first-forced: bands on classic 9×9 Sudoku's
    /// matrix, else the same without bits; lookahead: masks where it
    /// applies, else links). An engine that cannot take the matrix or the rule is an
    /// error. All give the same counts (with knuth branching, the same nodes
    /// and updates too).
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) engine: EngineArg,
    /// Count on N threads: the search is cut into subtrees that the threads
    /// share (same count; with Knuth's rule, the same nodes and updates as
    /// one thread). For counting only: not with --all, --first, a budget or
    /// --profile. Default 1, the one-thread search of Knuth's programs; at
    /// most the cores are used.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::parse_jobs)]
    pub(crate) jobs: usize,
    /// Cut the count into at least N jobs for other machines: a summary
    /// line, then one JSON line per job (see docs/cluster.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with_all = ["all", "first", "profile", "jobs", "run_jobs", "merge"])]
    pub(crate) split: Option<u64>,
    /// Count each job of JOBS (a file of --split's lines; `-` for stdin):
    /// one JSON result line per job, the summary line copied through; with
    /// --all, each result lists its solutions.
    #[arg(long, value_name = "JOBS",
          conflicts_with_all = ["first", "profile", "jobs", "merge"])]
    pub(crate) run_jobs: Option<PathBuf>,
    /// Add up the results of --run-jobs (files with the summary line and
    /// the result lines): the count one run prints, with --json its nodes
    /// and updates, with --all its solutions in its order (the jobs run
    /// with --all); missing, duplicated or incomplete jobs are listed and
    /// the exit code is 3.
    #[arg(long, value_name = "RESULTS", num_args = 1..,
          conflicts_with_all = ["file", "first", "profile", "jobs"])]
    pub(crate) merge: Option<Vec<PathBuf>>,
    /// Estimate the search from N random probes (Knuth 1975): nodes,
    /// updates and solutions with their spread, and the time at this
    /// machine's node rate, measured on the search itself for 0.2 s.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with_all = ["all", "first", "profile", "jobs", "split", "run_jobs",
                                "merge", "budget", "node_budget"])]
    pub(crate) estimate: Option<u64>,
    /// The random seed of --estimate's probes (the same seed, the same
    /// estimate).
    #[arg(long, value_name = "S", default_value_t = 1, requires = "estimate")]
    pub(crate) seed: u64,
    /// Show a progress line on stderr (nodes/s, solutions, the fraction of
    /// the tree done by DLX1's estimate, time left) even where stderr is
    /// not a terminal: then a plain line every 10 s and one at the end. On
    /// by default when stderr is a terminal (and stdout is not, when
    /// listing solutions).
    #[arg(long, conflicts_with_all = ["quiet", "split", "run_jobs", "merge", "estimate"])]
    pub(crate) progress: bool,
    /// No progress line, even on a terminal.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Count with a memo of states (DXZ): the count of what remains after
    /// some options are chosen depends only on the items covered (and the
    /// colors given, and with multiplicities each bounded item's count), so
    /// each state is counted once. Counts no enumeration
    /// reaches (tilings), printed in full however large. SIZE caps the
    /// memo's table (default 2G; `512M`, `4G`): when full it gives states
    /// up, which costs time, never exactness. Branches on the first
    /// uncovered item, or by Knuth's rule with `--branching knuth`. The
    /// budgets count states (--node-budget) and options tried (--budget).
    /// --progress shows states per second and hits. --jobs N counts on N
    /// threads sharing one table. Not with --all, --first, --best,
    /// --profile or --engine. `--memo=auto` (or `auto:SIZE`) counts by the
    /// memo only where it pays: Knuth's estimate and a first run of the
    /// plain search forecast the plain count, the memo gets 1/16 of that
    /// time and again as the plain search goes on; where it does not pay
    /// the count takes about 1.15 times the plain count's time. No budgets
    /// there; --progress shows the plain search.
    #[arg(long, value_name = "SIZE|auto", num_args = 0..=1, require_equals = true,
          default_missing_value = "2G", value_parser = super::memo::parse_memo,
          conflicts_with_all = ["split", "run_jobs", "merge", "estimate"])]
    pub(crate) memo: Option<super::memo::MemoArg>,
    /// Write the decision diagram (a ZDD) of all solutions to FILE while
    /// the memo counts (implies --memo): a line `ID OPTION LO HI` a node,
    /// children before parents, then `root ID COUNT`; every path from the
    /// root to node 1 is one solution, the options of its HI edges
    /// (numbered from 0 in input order). docs/cli.md, "Counting with a memo",
    /// says how to count, list or sample from it. One thread; not with
    /// --memo=auto. A count stopped by --timeout or Ctrl-C removes FILE.
    #[arg(long, value_name = "FILE",
          conflicts_with_all = ["split", "run_jobs", "merge", "estimate"])]
    pub(crate) zdd: Option<PathBuf>,
}

pub(crate) fn run(args: CoverArgs) -> u8 {
    if let Some(paths) = &args.merge {
        return super::jobs::merge(paths, args.json, args.all, args.best);
    }
    if args.run_jobs.as_deref() == Some(std::path::Path::new("-"))
        && args
            .file
            .as_deref()
            .is_none_or(|p| p == std::path::Path::new("-"))
    {
        eprintln!("dlx cover: --run-jobs - reads the jobs from stdin: the matrix must be a file");
        return exit::BAD_INPUT;
    }
    let name = super::input_name(args.file.as_ref());
    let matrix = match super::open_input(args.file.as_deref()).map(knuth::read) {
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
        Ok(Err(e)) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
        Ok(Ok(m)) => m,
    };
    for o in matrix.ignored_options() {
        eprintln!(
            "dlx cover: {name}: warning: option {} ignored (no primary items): {}",
            o.as_usize() + 1,
            option_text(&matrix, *o)
        );
    }

    let mut config = Config::new().budget(budget_of(&args));
    if let Some(b) = args.branching {
        config = config.branching(b.into());
    }
    if let Some(kind) = args.engine.kind() {
        config = config.engine(kind);
    }
    if let Some(probes) = args.estimate {
        return super::estimate::run(&matrix, config, probes, args.seed, args.json);
    }
    if let Some(target) = args.split {
        return super::jobs::split(&matrix, config, target, &name);
    }
    if let Some(jobs) = &args.run_jobs {
        let limits = (budget_of(&args), args.timeout.unwrap_or_default());
        let listed = (args.all, args.best);
        return super::jobs::run_jobs(&matrix, config, jobs, listed, limits, &name);
    }
    if args.memo.is_some() || args.zdd.is_some() {
        let memo = args.memo.unwrap_or(super::memo::MemoArg {
            bytes: dlx::DEFAULT_MEMO_BYTES,
            auto: false,
        });
        return super::memo::run(&args, &matrix, memo, &name);
    }
    if args.jobs > 1 {
        return count_on_threads(&args, &matrix, config);
    }
    let mut solver = match Solver::with_config(&matrix, config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    if args.profile {
        solver.enable_profile();
    }
    let print = args.all || args.first.is_some();
    let shown = show_progress(&args, print).then(|| {
        let p = Arc::new(Progress::new());
        solver.report_progress(Some(p.clone()), dlx::PROGRESS_NODES);
        progress::show(p)
    });
    let limit = args.first.unwrap_or(u64::MAX);
    let mut out = Output::stdout();
    let mut printed: Vec<Vec<String>> = Vec::new();
    let start = Instant::now();
    let mut found = 0u64;
    let mut stopped_by_budget = false;
    solver.restart();
    solver.set_limits(limited(budget_of(&args), args.timeout));
    // `--best`: the library's branch and bound (DLX5's: dear branches are
    // not searched), as on threads.
    let best = args.best.map(|k| {
        let best = solver.best(usize::try_from(k).unwrap_or(usize::MAX));
        found = solver.stats().solutions;
        stopped_by_budget = !best.complete;
        best
    });
    while best.is_none() && found < limit && out.is_ok() {
        match solver.next_solution() {
            Step::Solution => {
                found += 1;
                if print {
                    let sol: Vec<OptionId> = solver.solution().collect();
                    if args.json {
                        printed.push(option_lines(&matrix, &sol));
                    } else {
                        // A write error is kept by `out`; the loop stops.
                        let _ = write_solution(&mut out, &matrix, &sol, found > 1);
                    }
                }
            }
            Step::Exhausted => break,
            Step::Budget => {
                stopped_by_budget = true;
                break;
            }
        }
    }
    if let Some(shown) = shown {
        shown.finish();
    }
    let seconds = start.elapsed().as_secs_f64();
    let complete = solver.is_exhausted();
    let stats = solver.stats();
    let stop = solver.stopped().filter(|_| stopped_by_budget);
    if let (Some(best), false) = (&best, args.json) {
        print_best(&mut out, &matrix, best);
    }
    if args.json {
        let line = Counted {
            complete,
            budget_exhausted: matches!(stop, Some(Stop::Nodes | Stop::Updates)),
            timed_out: stop == Some(Stop::Deadline),
            interrupted: stop == Some(Stop::Cancelled),
            list: print.then_some(printed),
            best: best.as_ref().map(|b| costed_lines(&matrix, b)),
            profile: solver.profile().map(<[u64]>::to_vec),
            ..Counted::new(found, stats, solver.engine(), seconds)
        };
        out.println(&json::line(&line));
    } else if !print && best.is_none() {
        out.println(&count_text(found, stop.is_none()));
    }
    // (A pipe closed by its reader stopped the search: `finish` keeps the
    // code of what was done, as its documentation says.)
    let code = if let Some(stop) = stop {
        eprintln!(
            "dlx cover: {name}: {} after {}; the search is incomplete{}",
            match stop {
                Stop::Nodes | Stop::Updates => "budget exhausted",
                Stop::Deadline => "time limit reached",
                _ => "interrupted",
            },
            count_of(found, "solution"),
            if best.is_some() {
                " (the cheapest found so far, not proven the cheapest)"
            } else {
                ""
            }
        );
        if stop == Stop::Cancelled {
            exit::INTERRUPTED
        } else {
            exit::BUDGET
        }
    } else if found > 0 {
        exit::FOUND
    } else {
        exit::NONE
    };
    let code = out.finish("dlx cover", code);
    if args.stats {
        let rate = stats.updates as f64 / seconds.max(1e-9);
        eprintln!(
            "{}{}, {} nodes, {} updates, {} guesses, {seconds:.3} s, {:.1}M updates/s ({} engine)",
            count_of(found, "solution"),
            if complete { "" } else { " (search incomplete)" },
            stats.nodes,
            stats.updates,
            stats.guesses,
            rate / 1e6,
            solver.engine().name()
        );
        if stats.probes > 0 {
            eprintln!(
                "lookahead: {} probes, {} options pruned",
                stats.probes, stats.pruned
            );
        }
    }
    if let Some(profile) = solver.profile() {
        eprintln!("Profile:");
        for (level, n) in profile.iter().enumerate() {
            eprintln!("{level:3}: {n}");
        }
    }
    code
}

/// `--jobs N` with N > 1: the count, or with `--best K` the K cheapest
/// solutions, on N threads.
fn count_on_threads(args: &CoverArgs, matrix: &Matrix, config: Config) -> u8 {
    let best = args.best.map(|k| usize::try_from(k).unwrap_or(usize::MAX));
    let refused = [
        (args.all, "--all"),
        (args.first.is_some(), "--first"),
        (args.budget.is_some(), "--budget"),
        (args.node_budget.is_some(), "--node-budget"),
        (args.profile, "--profile"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(set, _)| *set) {
        eprintln!("dlx cover: --jobs counts or finds the cheapest only; {flag} needs --jobs 1");
        return exit::BAD_INPUT;
    }
    let jobs = super::jobs(args.jobs);
    let start = Instant::now();
    let mut solver = match Solver::with_config(matrix, config.jobs(jobs)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dlx cover: {e}");
            return exit::BAD_INPUT;
        }
    };
    let shown = show_progress(args, false).then(|| {
        let p = Arc::new(Progress::new());
        solver.report_progress(Some(p.clone()), dlx::PROGRESS_NODES);
        progress::show(p)
    });
    // Ctrl-C and the deadline stop every thread.
    solver.set_limits(limited(Budget::default(), args.timeout));
    let (found, complete, best) = match best {
        // The threads share the k-th best.
        Some(k) => {
            let b = solver.best(k);
            (solver.stats().solutions, b.complete, Some(b))
        }
        None => {
            let c = solver.count();
            (c.solutions, c.complete, None)
        }
    };
    if let Some(shown) = shown {
        shown.finish();
    }
    let stats = solver.stats();
    let stop = solver.stopped().filter(|_| !complete);
    let (depth, subtrees) = solver.last_cut().unwrap_or((0, 1));
    let engine = solver.engine().name();
    let seconds = start.elapsed().as_secs_f64();
    let mut out = Output::stdout();
    if args.json {
        let line = Counted {
            jobs: Some(OnThreads { jobs, subtrees }),
            complete,
            timed_out: stop == Some(Stop::Deadline),
            interrupted: !complete && stop != Some(Stop::Deadline),
            best: best.as_ref().map(|b| costed_lines(matrix, b)),
            ..Counted::new(found, stats, solver.engine(), seconds)
        };
        out.println(&json::line(&line));
    } else if let Some(best) = &best {
        print_best(&mut out, matrix, best);
    } else {
        out.println(&count_text(found, complete));
    }
    let code = if !complete {
        let unproven = if best.is_some() {
            " (the cheapest found so far, not proven the cheapest)"
        } else {
            ""
        };
        let timed_out = stop == Some(Stop::Deadline);
        eprintln!(
            "dlx cover: {} after {}; the search is incomplete{unproven}",
            if timed_out {
                "time limit reached"
            } else {
                "interrupted"
            },
            count_of(found, "solution")
        );
        if timed_out {
            exit::BUDGET
        } else {
            exit::INTERRUPTED
        }
    } else if found > 0 {
        exit::FOUND
    } else {
        exit::NONE
    };
    let code = out.finish("dlx cover", code);
    if args.stats {
        eprintln!(
            "{}, {} nodes, {} updates, {} guesses, {seconds:.3} s, {:.1}M updates/s ({engine} engine, {} threads, {} subtrees cut at depth {})",
            count_of(found, "solution"),
            stats.nodes,
            stats.updates,
            stats.guesses,
            stats.updates as f64 / seconds.max(1e-9) / 1e6,
            jobs,
            subtrees,
            depth,
        );
        if stats.probes > 0 {
            eprintln!(
                "lookahead: {} probes, {} options pruned",
                stats.probes, stats.pruned
            );
        }
    }
    code
}

/// `--best`'s answer as text: each solution after a line `| cost N`, a
/// blank line between them.
pub(crate) fn print_best(out: &mut Output, matrix: &Matrix, best: &dlx::Best) {
    for (k, c) in best.solutions.iter().enumerate() {
        if k > 0 {
            out.println("");
        }
        out.println(&format!("| cost {}", c.cost));
        let _ = write_solution(out, matrix, &c.options, false);
    }
}

/// `--json`'s one object for a search: the count, the search's counters
/// (those of [`Stats`](dlx::Stats)), how it ended, and what was asked to be
/// listed.
#[derive(Serialize)]
struct Counted {
    solutions: u64,
    nodes: u64,
    updates: u64,
    guesses: u64,
    probes: u64,
    pruned: u64,
    engine: dlx::EngineKind,
    #[serde(flatten)]
    jobs: Option<OnThreads>,
    seconds: f64,
    complete: bool,
    budget_exhausted: bool,
    timed_out: bool,
    interrupted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    list: Option<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<Vec<dlx::jobs::CostedLines>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<Vec<u64>>,
}

/// The threads of `--jobs` and the subtrees they shared.
#[derive(Serialize)]
struct OnThreads {
    jobs: usize,
    subtrees: usize,
}

impl Counted {
    /// `solutions` found with `stats`' counters on `engine`; the rest says
    /// nothing (complete, no threads, nothing listed) until set.
    fn new(solutions: u64, stats: dlx::Stats, engine: dlx::EngineKind, seconds: f64) -> Counted {
        Counted {
            solutions,
            nodes: stats.nodes,
            updates: stats.updates,
            guesses: stats.guesses,
            probes: stats.probes,
            pruned: stats.pruned,
            engine,
            jobs: None,
            seconds,
            complete: true,
            budget_exhausted: false,
            timed_out: false,
            interrupted: false,
            list: None,
            best: None,
            profile: None,
        }
    }
}

/// `--best`'s answer for `--json`: each solution's cost and option lines.
fn costed_lines(matrix: &Matrix, best: &dlx::Best) -> Vec<dlx::jobs::CostedLines> {
    best.solutions
        .iter()
        .map(|c| dlx::jobs::CostedLines {
            cost: c.cost,
            options: option_lines(matrix, &c.options),
        })
        .collect()
}

/// The budget the flags ask for (the counts).
fn budget_of(args: &CoverArgs) -> Budget {
    Budget {
        nodes: args.node_budget,
        updates: args.budget,
    }
}

/// `budget` with the deadline of `timeout` (`None` or zero: none) and the
/// handle that Ctrl-C cancels.
pub(crate) fn limited(budget: Budget, timeout: Option<Duration>) -> Limits {
    let limits = Limits::from(budget).cancel(&interrupt::handle());
    match timeout.filter(|t| !t.is_zero()) {
        Some(t) => limits.timeout(t),
        None => limits,
    }
}

/// A count as printed: `N`, or `at least N` when the search stopped
/// before its end.
pub(crate) fn count_text(found: u64, complete: bool) -> String {
    if complete {
        found.to_string()
    } else {
        format!("at least {found}")
    }
}

/// Whether this run shows a progress line (`progress.rs`): forced by
/// `--progress`, else on a terminal unless `--quiet` — and not while
/// solutions are listed on the same terminal, where the bar would be
/// redrawn through them.
pub(crate) fn show_progress(args: &CoverArgs, listing: bool) -> bool {
    args.progress
        || (progress::wanted(false, args.quiet) && !(listing && io::stdout().is_terminal()))
}

fn option_text(matrix: &Matrix, o: OptionId) -> String {
    knuth::option_line(matrix, o)
}

/// How `--all` writes the empty cover: a comment line of Knuth's format.
pub(crate) const EMPTY_COVER: &str = "| the empty cover";

pub(crate) fn write_solution(
    out: &mut impl Write,
    matrix: &Matrix,
    sol: &[OptionId],
    blank: bool,
) -> io::Result<()> {
    if blank {
        writeln!(out)?;
    }
    if sol.is_empty() {
        // The empty cover (no primary item, or lower bounds of 0): a line
        // that says so, in the format's own comment form, rather than a
        // block with nothing in it.
        writeln!(out, "{EMPTY_COVER}")?;
    }
    for &o in sol {
        writeln!(out, "{}", option_text(matrix, o))?;
    }
    Ok(())
}

/// A solution's options as option lines (`--json`'s lists).
fn option_lines(matrix: &Matrix, sol: &[OptionId]) -> Vec<String> {
    sol.iter().map(|&o| option_text(matrix, o)).collect()
}
