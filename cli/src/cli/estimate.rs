//! `dlx cover FILE --estimate N [--seed S]`: Knuth's random-probe estimate of
//! the search (nodes, updates, solutions, with their spread) and the time it
//! would take at this machine's node rate, measured on the search itself
//! (`Solver::forecast`, for a fifth of a second): when the search finishes
//! in that time the exact figures are printed beside the estimate.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::output::Output;
use super::{exit, json};
use dlx::{Config, Matrix, Solver, Spread};
use serde::Serialize;

/// How long the search runs to measure the node rate.
const MEASURE: Duration = Duration::from_millis(200);

/// A count for people: whole below ten million, else three significant
/// digits with an exponent.
fn figure(x: f64) -> String {
    if x < 1e7 {
        format!("{}", x.round() as u64)
    } else {
        format!("{x:.3e}")
    }
}

/// `--estimate`'s `--json` object: the probes, the estimates (the library's
/// [`Spread`]s), the forecast, and the exact counts when the probes' time
/// sufficed to count.
#[derive(Serialize)]
struct Estimated {
    probes: u64,
    seed: u64,
    engine: dlx::EngineKind,
    branching: &'static str,
    nodes: Spread,
    updates: Spread,
    solutions: Spread,
    branch_points: f64,
    node_rate: f64,
    seconds: f64,
    cores: usize,
    probe_seconds: f64,
    counted: bool,
    #[serde(flatten)]
    exact: Option<Exact>,
}

/// The exact counts of a search that finished while forecasting.
#[derive(Serialize)]
struct Exact {
    exact_solutions: u64,
    exact_nodes: u64,
    exact_updates: u64,
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
    let f = solver.forecast(probes, &mut StdRng::seed_from_u64(seed), MEASURE);
    let (e, seconds) = (f.estimate, f.seconds);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (engine, branching) = (solver.engine().name(), solver.branching().name());
    let mut out = Output::stdout();
    if as_json {
        let line = Estimated {
            probes,
            seed,
            engine: solver.engine(),
            branching,
            nodes: e.nodes,
            updates: e.updates,
            solutions: e.solutions,
            branch_points: e.depth,
            node_rate: f.nodes_per_second,
            seconds,
            cores,
            probe_seconds: f.probe_seconds,
            counted: f.finished,
            exact: f.finished.then_some(Exact {
                exact_solutions: f.measured.solutions,
                exact_nodes: f.measured.nodes,
                exact_updates: f.measured.updates,
            }),
        };
        out.println(&json::line(&line));
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
    if f.finished {
        out.println(&format!(
            "counted while measuring the rate ({:.3} s): {} solutions, {} nodes, {} updates",
            f.measure_seconds, f.measured.solutions, f.measured.nodes, f.measured.updates
        ));
    } else {
        out.println(&format!(
            "time: {} on one thread at {} nodes/s (measured over {:.2} s){}",
            duration(seconds),
            figure(f.nodes_per_second),
            f.measure_seconds,
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
