//! `dlx cover --timeout`: a search stopped by the clock as by a budget — the
//! answer is then unknown, never "none".
//!
//! The library's budgets count nodes and updates, which a search checks at
//! every node for nothing; the clock is read only every [`CHUNK`] nodes, by
//! lowering the node budget to the next reading and resuming the search
//! (a paused search resumes exactly where it stopped).

use std::time::{Duration, Instant};

use dlx::{Budget, Solver, Step};

/// Nodes between two readings of the clock: about a millisecond of search.
const CHUNK: u64 = 4096;

/// The user's budget and deadline over one search.
pub(crate) struct Deadline {
    at: Option<Instant>,
    budget: Budget,
    /// The node count (since the search started) of the next reading.
    check: u64,
    /// The solver's nodes and updates when the search started.
    start: (u64, u64),
    timed_out: bool,
}

impl Deadline {
    /// A fresh search of `solver` (restarted here, its preselected options
    /// kept, so that its budget and this count from the same start), within
    /// `budget` and `timeout` (zero: no time limit).
    pub(crate) fn new(solver: &mut Solver<'_>, budget: Budget, timeout: Duration) -> Deadline {
        let at = (!timeout.is_zero()).then(|| Instant::now() + timeout);
        solver.restart();
        let stats = solver.stats();
        Deadline {
            at,
            budget,
            check: CHUNK,
            start: (stats.nodes, stats.updates),
            timed_out: false,
        }
    }

    /// Whether the clock stopped the search.
    pub(crate) fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// The search's next step: a solution, the end, or [`Step::Budget`]
    /// when the budget or the time ran out ([`timed_out`](Self::timed_out)
    /// says which).
    pub(crate) fn next(&mut self, solver: &mut Solver<'_>) -> Step {
        if self.at.is_none() {
            solver.set_budget(self.budget);
            return solver.next_solution();
        }
        loop {
            let nodes = match self.budget.nodes {
                Some(n) => n.min(self.check),
                None => self.check,
            };
            solver.set_budget(Budget {
                nodes: Some(nodes),
                ..self.budget
            });
            let step = solver.next_solution();
            if step != Step::Budget {
                return step;
            }
            let stats = solver.stats();
            let (nodes, updates) = (stats.nodes - self.start.0, stats.updates - self.start.1);
            let spent = self.budget.nodes.is_some_and(|n| nodes >= n)
                || self.budget.updates.is_some_and(|u| updates >= u);
            if spent {
                return Step::Budget;
            }
            if self.at.is_some_and(|at| Instant::now() >= at) {
                self.timed_out = true;
                return Step::Budget;
            }
            self.check = nodes + CHUNK;
        }
    }
}
