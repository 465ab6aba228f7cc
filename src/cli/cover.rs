//! `dlx cover`: solve a problem in Knuth's DLX format.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::{exit, json, BranchingArg};
use dlx::{knuth, Budget, Matrix, OptionId, Solver, Step};

#[derive(Args, Debug)]
pub(crate) struct CoverArgs {
    /// Input in Knuth's DLX format; `-` or nothing reads standard input.
    file: Option<PathBuf>,
    /// Print every solution: each option as its items, one option a line,
    /// a blank line between solutions.
    #[arg(long)]
    all: bool,
    /// Stop after N solutions (and print them).
    #[arg(long, value_name = "N")]
    first: Option<u64>,
    /// Stop after N updates (link removals); the answer is then unknown.
    #[arg(long, value_name = "N")]
    budget: Option<u64>,
    /// Stop after N search-tree nodes; the answer is then unknown.
    #[arg(long, value_name = "N")]
    node_budget: Option<u64>,
    /// Print solutions, nodes, updates and seconds on standard error.
    #[arg(long)]
    stats: bool,
    /// Print the nodes entered at each level on standard error.
    #[arg(long)]
    profile: bool,
    /// Print one JSON object (solutions, nodes, updates, seconds, complete).
    #[arg(long)]
    json: bool,
    /// Branching rule.
    #[arg(long, value_enum, default_value = "knuth")]
    branching: BranchingArg,
}

pub(crate) fn run(args: CoverArgs) -> u8 {
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

    let mut solver = Solver::new(&matrix);
    solver.set_branching(args.branching.into());
    solver.set_budget(Budget {
        nodes: args.node_budget,
        updates: args.budget,
    });
    if args.profile {
        solver.enable_profile();
    }
    let print = args.all || args.first.is_some();
    let limit = args.first.unwrap_or(u64::MAX);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut printed: Vec<String> = Vec::new();
    let start = Instant::now();
    let mut found = 0u64;
    let mut stopped_by_budget = false;
    let mut write_ok = true;
    while found < limit {
        match solver.next_solution() {
            Step::Solution => {
                found += 1;
                if print {
                    let sol: Vec<OptionId> = solver.solution().collect();
                    if args.json {
                        printed.push(solution_json(&matrix, &sol));
                    } else if write_ok {
                        write_ok = write_solution(&mut out, &matrix, &sol, found > 1).is_ok();
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
    let seconds = start.elapsed().as_secs_f64();
    let complete = solver.is_exhausted();
    let stats = solver.stats();
    if args.json {
        let mut obj = json::Object::new()
            .num("solutions", found)
            .num("nodes", stats.nodes)
            .num("updates", stats.updates)
            .num("probes", stats.probes)
            .num("pruned", stats.pruned)
            .float("seconds", seconds)
            .boolean("complete", complete)
            .boolean("budget_exhausted", stopped_by_budget);
        if print {
            obj = obj.raw("list", &format!("[{}]", printed.join(",")));
        }
        let _ = writeln!(out, "{}", obj.finish());
    } else if !print && write_ok {
        let _ = writeln!(out, "{found}");
    }
    super::flush_or_quiet(&mut out);
    if args.stats {
        let rate = stats.updates as f64 / seconds.max(1e-9);
        eprintln!(
            "{found} solutions{}, {} nodes, {} updates, {seconds:.3} s, {:.1}M updates/s",
            if complete { "" } else { " (search incomplete)" },
            stats.nodes,
            stats.updates,
            rate / 1e6
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
    if stopped_by_budget {
        eprintln!(
            "dlx cover: {name}: budget exhausted after {found} solutions; the search is incomplete"
        );
        exit::BUDGET
    } else if found > 0 {
        exit::FOUND
    } else {
        exit::NONE
    }
}

fn option_text(matrix: &Matrix, o: OptionId) -> String {
    knuth::option_line(matrix, o)
}

fn write_solution(
    out: &mut impl Write,
    matrix: &Matrix,
    sol: &[OptionId],
    blank: bool,
) -> io::Result<()> {
    if blank {
        writeln!(out)?;
    }
    for &o in sol {
        writeln!(out, "{}", option_text(matrix, o))?;
    }
    Ok(())
}

fn solution_json(matrix: &Matrix, sol: &[OptionId]) -> String {
    let mut s = String::from("[");
    for (k, &o) in sol.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        json::string(&mut s, &option_text(matrix, o));
    }
    s.push(']');
    s
}
