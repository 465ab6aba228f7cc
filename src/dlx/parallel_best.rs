//! The k cheapest solutions on several threads ([`best_parallel`]): DLX5's
//! branch and bound over the subtrees of a cut, with the limit shared.
//!
//! The search is cut as [`count_parallel`](crate::dlx::count_parallel) cuts
//! it ([`Cut`]); the solutions above the cut are offered first, then the
//! threads take subtrees in order, each searching its subtree with the
//! branch and bound of [`Solver::best`] and offering what it finds to one
//! shared list. Every solution has a *rank*, its place in a one-thread
//! search: a solution above the cut comes before the subtree it precedes,
//! and a subtree's solutions come in its own search order. The list keeps
//! the k least by cost, then rank, so the answer is the one-thread answer
//! (ties to the earlier solution) whatever the threads' timing.
//!
//! The limit a thread searches under is read from the list when it starts a
//! subtree and after each solution it offers: once k are kept, a solution
//! must cost less than the k-th — or as much, when the k-th ranks after
//! the subtree (a tie then goes to this subtree's solution). A branch is
//! pruned only when none of its solutions can enter the list, so no
//! solution of the answer is lost; what is pruned depends on when the
//! threads find their solutions, so the counters (not the answer) differ
//! from run to run.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::parallel::{report_into, Cut, SUBTREES_PER_JOB};
use super::search::Steps;
use super::solver::Steering;
use super::{
    Best, Branching, Costed, Engine, EngineError, Limits, Matrix, OptionId, Progress, Solver,
    Stats, Step,
};

/// What [`best_parallel`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParallelBest {
    /// The k cheapest solutions, cheapest first, ties in search order (the
    /// search always runs to the end: `complete` is true).
    pub best: Best,
    /// The solutions the threads met (pruned branches hold none they met).
    pub met: u64,
    /// The counters of the cut and of every subtree's search; they depend
    /// on the threads' timing (see the module documentation).
    pub stats: Stats,
    /// The depth of the cut, in branch points (0: not cut, one thread).
    pub depth: usize,
    /// The subtrees searched.
    pub subtrees: usize,
}

/// A solution's place in a one-thread search: `(2j, i)` for the `i`-th
/// above the cut, met before subtree `j`; `(2k + 1, i)` for subtree `k`'s
/// `i`-th.
type Rank = (usize, u64);

/// The k least solutions offered, by cost and then rank.
struct Ranked {
    k: usize,
    kept: Vec<(u64, Rank, Vec<OptionId>)>,
}

impl Ranked {
    fn offer(&mut self, cost: u64, rank: Rank, options: impl FnOnce() -> Vec<OptionId>) {
        let at = self
            .kept
            .partition_point(|&(c, r, _)| (c, r) < (cost, rank));
        if at >= self.k {
            return;
        }
        self.kept.insert(at, (cost, rank, options()));
        self.kept.truncate(self.k);
    }

    /// The cost a solution of subtree `k` must be below to enter.
    fn limit_for(&self, subtree: usize) -> Option<u64> {
        if self.k == 0 {
            return Some(0);
        }
        if self.kept.len() < self.k {
            return None;
        }
        let (cost, rank, _) = self.kept[self.k - 1];
        if rank < (2 * subtree + 1, 0) {
            Some(cost)
        } else {
            cost.checked_add(1)
        }
    }
}

/// The `k` cheapest solutions of `matrix` (options' costs, DLX5's `|n`),
/// cheapest first, ties in search order, with `branching` on `jobs` threads,
/// searched and cut by `engine` (its tables made from `matrix`). The answer
/// is [`Solver::best`]'s; `jobs <= 1` is that search, on the calling
/// thread.
///
/// ```
/// use dlx::engines::{best_parallel, Engine};
/// use dlx::{knuth, Branching, Solver};
///
/// let mut text = String::from("A B C D\n");
/// for (k, option) in ["A", "B", "C", "D", "A B", "C D", "A B C D"].iter().enumerate() {
///     text += &format!("{option} |{}\n", 7 - k);
/// }
/// let m = knuth::read(text.as_bytes()).unwrap();
/// let par = best_parallel(&m, Engine::Links, Branching::Knuth, 2, 2).unwrap();
/// assert_eq!(par.best, Solver::new(&m).best(2));
/// assert_eq!(par.best.solutions[0].cost, 1); // `A B C D |1`
/// ```
pub fn best_parallel(
    matrix: &Matrix,
    engine: Engine,
    branching: Branching,
    jobs: usize,
    k: usize,
) -> Result<ParallelBest, EngineError> {
    let (limits, steering) = (Limits::default(), Steering::default());
    best_limited(matrix, engine, branching, jobs, k, &limits, None, &steering)
}

/// [`best_parallel`] under `limits`: its deadline and cancel handle stop
/// every thread (a node or update budget is one search's: give none). A
/// stopped search answers the cheapest found so far, `complete: false`.
/// With `progress`, each thread reports into it as the count's threads do
/// (the fraction done weighs each subtree by Knuth's estimate; a pruned
/// branch counts as done).
#[allow(clippy::too_many_arguments)] // (a query's parts, each passed on as it is)
pub(crate) fn best_limited(
    matrix: &Matrix,
    engine: Engine,
    branching: Branching,
    jobs: usize,
    k: usize,
    limits: &Limits,
    progress: Option<&Arc<Progress>>,
    steering: &Steering,
) -> Result<ParallelBest, EngineError> {
    engine.check(matrix, branching)?;
    let make = || {
        let mut s = Solver::borrowing(matrix, engine, branching);
        s.set_limits(limits.clone());
        steering.onto(&mut s);
        report_into(&mut s, progress);
        s
    };
    if jobs <= 1 {
        let mut s = make();
        let best = s.best(k);
        return Ok(ParallelBest {
            best,
            met: s.stats().solutions,
            stats: s.stats(),
            depth: 0,
            subtrees: 1,
        });
    }
    let mut splitter = make();
    let cut = Cut::new(&mut splitter, SUBTREES_PER_JOB * jobs);
    let weights = &cut.reported(&mut splitter, progress);
    let mut ranked = Ranked {
        k,
        kept: Vec::new(),
    };
    for (i, (j, options)) in cut.solutions.iter().enumerate() {
        let cost = matrix.cost_of(options.iter().copied());
        ranked.offer(cost, (2 * j, i as u64), || options.clone());
    }
    let shared = Mutex::new(ranked);
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let (ranked, next, stopped, cut) = (&shared, &next, &stopped, &cut);
    let limit_for = |k: usize| ranked.lock().map_or(None, |r| r.limit_for(k));
    let mut stats = cut.above;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs.min(cut.subtrees()))
            .map(|_| {
                scope.spawn(move || {
                    let mut s = make();
                    let mut mine = Stats::default();
                    loop {
                        let j = next.fetch_add(1, Ordering::Relaxed);
                        let Some(sub) = cut.subtrees.get(j) else {
                            return mine;
                        };
                        if stopped.load(Ordering::Relaxed) {
                            return mine;
                        }
                        if let Some(t) = &mut s.driver_mut().track {
                            t.weight = weights.get(j).copied().unwrap_or(0.0);
                        }
                        // A subtree is a path of the search: entering it
                        // cannot fail.
                        s.preselect_subtree(sub)
                            .expect("a subtree is a path of the search");
                        s.bound_costs(true);
                        s.set_cost_limit(limit_for(j));
                        let before = s.stats();
                        let mut i = 0;
                        while s.next_solution() == Step::Solution {
                            let options: Vec<OptionId> = s.solution().collect();
                            let cost = matrix.cost_of(options.iter().copied());
                            if let Ok(mut r) = ranked.lock() {
                                r.offer(cost, (2 * j + 1, i), || options);
                            }
                            i += 1;
                            s.set_cost_limit(limit_for(j));
                        }
                        mine += s.stats() - before;
                        if s.stopped().is_some() {
                            stopped.store(true, Ordering::Relaxed);
                            return mine;
                        }
                    }
                })
            })
            .collect();
        for h in handles {
            match h.join() {
                Ok(s) => stats += s,
                Err(e) => std::panic::resume_unwind(e),
            }
        }
    });
    // A thread that panicked was resumed above: the list is whole.
    let kept = shared.into_inner().map(|r| r.kept).unwrap_or_default();
    Ok(ParallelBest {
        best: Best {
            solutions: kept
                .into_iter()
                .map(|(cost, _, options)| Costed { cost, options })
                .collect(),
            complete: !stopped.load(Ordering::Relaxed),
        },
        met: stats.solutions,
        stats,
        depth: cut.depth,
        subtrees: cut.subtrees(),
    })
}
