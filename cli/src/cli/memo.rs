//! `dlx cover --memo[=SIZE]`: counts with the library's memo of states
//! ([`dlx::Memo`]): reads the flags, calls the library, prints the count in
//! full (however large; with `--json` as a JSON integer) and the memo's work.

use std::sync::Arc;
use std::time::Instant;

use super::cover::{limited, show_progress, CoverArgs};
use super::{count_of, exit, json, progress, BranchingArg, EngineArg};
use dlx::{Budget, Matrix, Memo, MemoOrder, Progress, Stop};
use serde::Serialize;

/// `--memo`'s value: the table's memory cap, and whether the memo counts
/// only where it pays (`auto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemoArg {
    pub(crate) bytes: usize,
    pub(crate) auto: bool,
}

/// `--memo`'s value: `SIZE`, `auto` or `auto:SIZE`.
pub(crate) fn parse_memo(s: &str) -> Result<MemoArg, String> {
    match s.trim().strip_prefix("auto") {
        Some("") => Ok(MemoArg {
            bytes: dlx::DEFAULT_MEMO_BYTES,
            auto: true,
        }),
        Some(rest) => match rest.strip_prefix(':') {
            Some(size) => Ok(MemoArg {
                bytes: parse_size(size)?,
                auto: true,
            }),
            None => Err(format!("`{s}` is not `auto`, `auto:SIZE` or a memory size")),
        },
        None => Ok(MemoArg {
            bytes: parse_size(s)?,
            auto: false,
        }),
    }
}

/// A memory size: bytes, or a number with `K`, `M`, `G` or `T` (powers of
/// 1,024; `1.5G` too), an optional `B` or `iB` after.
pub(crate) fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (number, unit) = match t.char_indices().last() {
        Some((k, c)) if c.is_ascii_alphabetic() => (&t[..k], c.to_ascii_uppercase()),
        _ => (t, ' '),
    };
    let bad = || {
        format!("`{s}` is not a memory size (bytes, or with K, M, G or T: `512M`, `2G`, `1.5G`)")
    };
    let scale: f64 = match unit {
        ' ' => 1.0,
        'K' => 1024.0,
        'M' => 1024.0 * 1024.0,
        'G' => 1024.0 * 1024.0 * 1024.0,
        'T' => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return Err(bad()),
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok((n * scale).min(usize::MAX as f64) as usize),
        _ => Err(bad()),
    }
}

/// The count with a memo of `bytes` at most, or the flag that cannot go
/// with it.
pub(crate) fn run(args: &CoverArgs, matrix: &Matrix, memo_arg: MemoArg, name: &str) -> u8 {
    let bytes = memo_arg.bytes;
    let refused = [
        (args.all, "--all"),
        (args.first.is_some(), "--first"),
        (args.best.is_some(), "--best"),
        (
            args.jobs > 1 && (args.budget.is_some() || args.node_budget.is_some()),
            "a budget (one search's) with --jobs above 1",
        ),
        (args.profile, "--profile"),
        (args.engine != EngineArg::AUTO, "--engine"),
        (
            matches!(
                args.branching,
                Some(BranchingArg::FirstForced | BranchingArg::Lookahead)
            ),
            "--branching other than knuth",
        ),
        (
            args.zdd.is_some() && memo_arg.auto,
            "--zdd with --memo=auto (the diagram needs the memo's whole count)",
        ),
        (
            args.zdd.is_some() && args.jobs > 1,
            "--zdd with --jobs above 1 (one search writes the diagram)",
        ),
    ];
    if let Some((_, flag)) = refused.iter().find(|(set, _)| *set) {
        eprintln!("dlx cover: --memo counts by a search of its own; {flag} cannot go with it");
        return exit::BAD_INPUT;
    }
    if memo_arg.auto {
        return run_auto(args, matrix, bytes, name);
    }
    let order = match args.branching {
        Some(BranchingArg::Knuth) => MemoOrder::Knuth,
        _ => MemoOrder::FirstItem,
    };
    let budget = Budget {
        nodes: args.node_budget,
        updates: args.budget,
    };
    let jobs = super::jobs(args.jobs);
    let mut memo = Memo::new()
        .memory(bytes)
        .order(order)
        .jobs(jobs)
        .limits(limited(budget, args.timeout));
    // States per second, hits, solutions so far and DLX1's fraction.
    let shown = show_progress(args, false).then(|| {
        let p = Arc::new(Progress::new());
        memo = memo.clone().progress(p.clone());
        progress::show(p)
    });
    let start = Instant::now();
    let counted = match &args.zdd {
        None => memo.count(matrix),
        Some(path) => match std::fs::File::create(path) {
            Ok(mut file) => {
                let counted = memo.zdd(matrix, &mut file);
                if !counted.as_ref().is_ok_and(|c| c.complete) {
                    // No root: a diagram a reader cannot use.
                    let _ = std::fs::remove_file(path);
                    eprintln!(
                        "dlx cover: {name}: the count did not finish: {} removed",
                        path.display()
                    );
                }
                counted
            }
            Err(e) => {
                eprintln!("dlx cover: {}: {e}", path.display());
                return exit::BAD_INPUT;
            }
        },
    };
    if let Some(shown) = shown {
        shown.finish();
    }
    let c = match counted {
        Ok(c) => c,
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let s = c.stats;
    let line = args.json.then(|| {
        json::line(&MemoLine {
            solutions: &c.solutions,
            memo: s,
            engine: "memo",
            order: order.name(),
            jobs,
            seconds,
            budget_exhausted: matches!(c.stopped, Some(Stop::Nodes | Stop::Updates)),
            ended: Ended::new(c.complete, c.stopped),
        })
    });
    print_count(line, &c.solutions, c.complete);
    if args.stats {
        eprintln!(
            "{} solutions{}, {} states, {} options tried, {} hits, {} kept, {} evicted, {:.1} MiB table, {seconds:.3} s (memo, {} order, {}){}",
            c.solutions,
            if c.complete { "" } else { " (search incomplete)" },
            s.states,
            s.tried,
            s.hits,
            s.kept,
            s.evicted,
            s.table_bytes as f64 / (1024.0 * 1024.0),
            order.name(),
            count_of(jobs as u64, "thread"),
            match &args.zdd {
                Some(path) if c.complete => format!(
                    "; {} diagram nodes in {}",
                    s.zdd_nodes,
                    path.display()
                ),
                _ => String::new(),
            }
        );
    }
    stopped_exit(c.stopped, &c.solutions, name)
}

/// `--memo`'s `--json` object: the count, the memo's work (the library's
/// [`MemoStats`](dlx::MemoStats)), how it ran and how it ended.
#[derive(Serialize)]
struct MemoLine<'a> {
    solutions: &'a dlx::BigCount,
    #[serde(flatten)]
    memo: dlx::MemoStats,
    engine: &'static str,
    order: &'static str,
    jobs: usize,
    seconds: f64,
    budget_exhausted: bool,
    #[serde(flatten)]
    ended: Ended,
}

/// `--memo=auto`'s `--json` object: the count, which count it is, the
/// memo's last try and the search's work, how it ran and how it ended.
#[derive(Serialize)]
struct AutoLine<'a> {
    solutions: &'a dlx::BigCount,
    counted_by: &'static str,
    memo_tries: u32,
    states: u64,
    hits: u64,
    nodes: u64,
    updates: u64,
    engine: dlx::EngineKind,
    order: &'static str,
    jobs: usize,
    seconds: f64,
    #[serde(flatten)]
    ended: Ended,
}

/// How a count ended, the last fields of its `--json` object.
#[derive(Serialize)]
struct Ended {
    complete: bool,
    timed_out: bool,
    interrupted: bool,
}

impl Ended {
    fn new(complete: bool, stopped: Option<Stop>) -> Ended {
        Ended {
            complete,
            timed_out: stopped == Some(Stop::Deadline),
            interrupted: stopped == Some(Stop::Cancelled),
        }
    }
}

/// Prints a count: under `--json` its `line`, else the count, or
/// `at least` it when stopped.
fn print_count(line: Option<String>, solutions: &dlx::BigCount, complete: bool) {
    match line {
        Some(line) => println!("{line}"),
        None if complete => println!("{solutions}"),
        None => println!("at least {solutions}"),
    }
}

/// The exit code of a memo count: what stopped it (said on stderr), else
/// whether it found any.
fn stopped_exit(stopped: Option<Stop>, solutions: &dlx::BigCount, name: &str) -> u8 {
    match stopped {
        Some(stop) => {
            eprintln!(
                "dlx cover: {name}: {} after {} counted; the count is incomplete",
                match stop {
                    Stop::Nodes => "state budget exhausted",
                    Stop::Updates => "budget of options tried exhausted",
                    Stop::Deadline => "time limit reached",
                    _ => "interrupted",
                },
                solutions.to_u64().map_or_else(
                    || format!("{solutions} solutions"),
                    |n| count_of(n, "solution")
                ),
            );
            if stop == Stop::Cancelled {
                exit::INTERRUPTED
            } else {
                exit::BUDGET
            }
        }
        None if solutions.is_zero() => exit::NONE,
        None => exit::FOUND,
    }
}

/// `--memo=auto`: the memo where it pays, else the plain search
/// ([`Memo::count_or_search`]), on `--jobs` threads.
fn run_auto(args: &CoverArgs, matrix: &Matrix, bytes: usize, name: &str) -> u8 {
    if args.budget.is_some() || args.node_budget.is_some() {
        eprintln!(
            "dlx cover: --memo=auto takes --timeout, not a budget (the memo's states are not the search's nodes)"
        );
        return exit::BAD_INPUT;
    }
    let knuth_order = matches!(args.branching, Some(BranchingArg::Knuth));
    let order = if knuth_order {
        MemoOrder::Knuth
    } else {
        MemoOrder::FirstItem
    };
    let jobs = super::jobs(args.jobs);
    let memo = Memo::new()
        .memory(bytes)
        .order(order)
        .jobs(jobs)
        .limits(limited(Budget::default(), args.timeout));
    let mut solver = match dlx::Solver::with_config(matrix, dlx::Config::new().jobs(jobs)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let shown = show_progress(args, false).then(|| {
        let p = Arc::new(Progress::new());
        solver.report_progress(Some(p.clone()), dlx::PROGRESS_NODES);
        progress::show(p)
    });
    let start = Instant::now();
    let counted = memo.count_or_search(&mut solver);
    if let Some(shown) = shown {
        shown.finish();
    }
    let c = match counted {
        Ok(c) => c,
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let by = if c.by_memo { "memo" } else { "search" };
    let line = args.json.then(|| {
        json::line(&AutoLine {
            solutions: &c.solutions,
            counted_by: by,
            memo_tries: c.memo_tries,
            states: c.memo.states,
            hits: c.memo.hits,
            nodes: c.search.nodes,
            updates: c.search.updates,
            engine: solver.engine(),
            order: order.name(),
            jobs,
            seconds,
            ended: Ended::new(c.complete, c.stopped),
        })
    });
    print_count(line, &c.solutions, c.complete);
    if args.stats {
        eprintln!(
            "{} solutions{}, counted by the {by} ({} memo {}, the last {} states and {} hits; the search {} nodes, {} engine), {seconds:.3} s",
            c.solutions,
            if c.complete { "" } else { " (count incomplete)" },
            c.memo_tries,
            if c.memo_tries == 1 { "try" } else { "tries" },
            c.memo.states,
            c.memo.hits,
            c.search.nodes,
            solver.engine().name(),
        );
    }
    stopped_exit(c.stopped, &c.solutions, name)
}
