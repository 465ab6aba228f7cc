//! `dlx cover FILE --estimate N [--seed S]`: Knuth's random-probe estimate of
//! the search (nodes, updates, solutions, with their spread) and the time it
//! would take at this machine's node rate, measured on the search itself.
//!
//! The rate is measured by running the real search for a fifth of a second
//! (the engine and rule of a normal run): when it finishes in that time the
//! exact figures are printed beside the estimate.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::output::Output;
use super::{exit, json};
use dlx::{Budget, Config, Limits, Matrix, Solver, Spread, Stats, Step};

/// How long the search runs to measure the node rate.
const MEASURE: Duration = Duration::from_millis(200);

/// What the measuring run saw.
struct Rate {
    /// Nodes per second.
    nodes_per_second: f64,
    seconds: f64,
    /// The search's counters, exact when `finished`.
    stats: Stats,
    finished: bool,
}

/// Runs the search of `solver` for about [`MEASURE`] (or to its end).
fn measure(solver: &mut Solver<'_>) -> Rate {
    let start = Instant::now();
    let before = solver.stats();
    solver.restart();
    solver.set_limits(Limits::new().deadline(start + MEASURE));
    let finished = loop {
        match solver.next_solution() {
            Step::Solution => {}
            Step::Exhausted => break true,
            Step::Budget => break false,
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let stats = solver.stats() - before;
    solver.set_budget(Budget::default());
    solver.restart();
    Rate {
        nodes_per_second: stats.nodes as f64 / seconds.max(1e-9),
        seconds,
        stats,
        finished,
    }
}

/// A count for people: whole below ten million, else three significant
/// digits with an exponent.
fn figure(x: f64) -> String {
    if x < 1e7 {
        format!("{}", x.round() as u64)
    } else {
        format!("{x:.3e}")
    }
}

fn spread_json(s: &Spread) -> String {
    json::Object::new()
        .float("mean", s.mean)
        .float("std_error", s.std_error)
        .float("min", s.min)
        .float("max", s.max)
        .finish()
}

/// A duration for people.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.2} s"),
        s if s < 7200.0 => format!("{:.1} min", s / 60.0),
        s if s < 2.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s if s < 2.0 * 365.0 * 86400.0 => format!("{:.1} days", s / 86400.0),
        s => format!("{:.1} years", s / (365.25 * 86400.0)),
    }
}

/// `--estimate PROBES`.
pub(crate) fn run(matrix: &Matrix, config: Config, probes: u64, seed: u64, as_json: bool) -> u8 {
    let mut solver = match Solver::with_config(matrix, config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dlx cover: {e}");
            return exit::BAD_INPUT;
        }
    };
    let start = Instant::now();
    let e = solver.estimate(probes, &mut StdRng::seed_from_u64(seed));
    let probe_seconds = start.elapsed().as_secs_f64();
    let rate = measure(&mut solver);
    let seconds = e.nodes.mean / rate.nodes_per_second.max(1e-9);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (engine, branching) = (solver.engine().name(), solver.branching().name());
    let mut out = Output::stdout();
    if as_json {
        let mut obj = json::Object::new()
            .num("probes", probes)
            .num("seed", seed)
            .str("engine", engine)
            .str("branching", branching)
            .raw("nodes", &spread_json(&e.nodes))
            .raw("updates", &spread_json(&e.updates))
            .raw("solutions", &spread_json(&e.solutions))
            .float("branch_points", e.depth)
            .float("node_rate", rate.nodes_per_second)
            .float("seconds", seconds)
            .num("cores", cores)
            .float("probe_seconds", probe_seconds)
            .boolean("counted", rate.finished);
        if rate.finished {
            obj = obj
                .num("exact_solutions", rate.stats.solutions)
                .num("exact_nodes", rate.stats.nodes)
                .num("exact_updates", rate.stats.updates);
        }
        out.println(&obj.finish());
        return out.finish("dlx cover", exit::FOUND);
    }
    let row = |name: &str, s: &Spread| {
        format!(
            "{name:<10} {:>12} ± {:.1}%   (single probes {} to {})",
            figure(s.mean),
            100.0 * s.relative_error(),
            figure(s.min),
            figure(s.max)
        )
    };
    out.println(&format!(
        "estimate from {probes} probes (seed {seed}; {engine} engine, {branching} rule), \
         mean ± standard error:"
    ));
    out.println(&row("nodes", &e.nodes));
    out.println(&row("updates", &e.updates));
    out.println(&row("solutions", &e.solutions));
    out.println(&format!("branch points on a probe's path: {:.1}", e.depth));
    if rate.finished {
        out.println(&format!(
            "counted while measuring the rate ({:.3} s): {} solutions, {} nodes, {} updates",
            rate.seconds, rate.stats.solutions, rate.stats.nodes, rate.stats.updates
        ));
    } else {
        out.println(&format!(
            "time: {} on one thread at {} nodes/s (measured over {:.2} s){}",
            duration(seconds),
            figure(rate.nodes_per_second),
            rate.seconds,
            if cores > 1 {
                format!(
                    ", {} at best with --jobs {cores}",
                    duration(seconds / cores as f64)
                )
            } else {
                String::new()
            }
        ));
    }
    out.finish("dlx cover", exit::FOUND)
}
