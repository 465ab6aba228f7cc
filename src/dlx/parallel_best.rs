//! The k cheapest solutions on several threads ([`best_parallel`]): DLX5's
//! branch and bound over the subtrees of a cut, with the limit shared.
//!
//! The search is cut as [`count_parallel`](crate::dlx::count_parallel) cuts
//! it ([`Cut`]); the solutions above the cut are offered first, then the
//! threads take subtrees in order from the work-sharing pool
//! ([`share`](super::share), no piece given away), each searching its subtree with the
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

use std::sync::{Arc, Mutex};

use super::parallel::{report_into, Cut, SUBTREES_PER_JOB};
use super::search::{Steps, Stop};
use super::share::{pause_after, share, Give, Sharing, Start, Worker};
use super::solver::Steering;
use super::{
    Best, Branching, Costed, Engine, EngineError, Limits, Matrix, OptionId, Progress, Solver,
    Stats, Step, Subtree,
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
    let ranked = Mutex::new(ranked);
    let start = Start {
        pieces: (cut.subtrees.iter().enumerate())
            .map(|(j, sub)| (j, weights.get(j).copied().unwrap_or(0.0), sub))
            .collect(),
        solutions: Vec::new(),
    };
    let sharing = Sharing {
        every: BEST_EVERY,
        give: Give::Never,
    };
    let make = || {
        Some(Cheapest {
            solver: make(),
            matrix,
            ranked: &ranked,
            subtree: 0,
            met: 0,
            pause: 0,
            base: Stats::default(),
        })
    };
    let shared = share(jobs, start, u64::MAX, sharing, make);
    let mut stats = cut.above;
    stats += shared.stats;
    // A thread that panicked was resumed above: the list is whole.
    let kept = ranked.into_inner().map(|r| r.kept).unwrap_or_default();
    Ok(ParallelBest {
        best: Best {
            solutions: kept
                .into_iter()
                .map(|(cost, _, options)| Costed { cost, options })
                .collect(),
            // A cut stopped inside a pass missed pieces.
            complete: shared.complete && cut.stopped.is_none(),
        },
        met: stats.solutions,
        stats,
        depth: cut.depth,
        subtrees: cut.subtrees(),
    })
}

/// Nodes a thread searches between two looks at the pool (whether another
/// thread has stopped it); its deadline and cancel handle it watches at
/// every node.
const BEST_EVERY: u64 = 1 << 14;

/// A thread's worker of [`best_limited`]: a piece is a subtree of the cut
/// (its number, its share of the tree for the progress report), searched
/// whole with the branch and bound, each solution offered to the shared
/// list as it is met (none is handed to the pool).
struct Cheapest<'m, 'r> {
    solver: Solver<'m>,
    matrix: &'m Matrix,
    ranked: &'r Mutex<Ranked>,
    /// The subtree searched, and the solutions met in it so far.
    subtree: usize,
    met: u64,
    /// Nodes of the piece's search at its next pause.
    pause: u64,
    /// The counters when the piece's search began.
    base: Stats,
}

impl Cheapest<'_, '_> {
    /// The cost a solution of the subtree searched must be below.
    fn limit(&self) -> Option<u64> {
        self.ranked
            .lock()
            .map_or(None, |r| r.limit_for(self.subtree))
    }
}

impl<'r> Worker for Cheapest<'_, 'r> {
    type Piece = (usize, f64, &'r Subtree);
    /// Solutions go to the shared list, not to the pool.
    type Solution = ();
    type Context = ();

    fn begin(&mut self, &(j, weight, sub): &Self::Piece, _: Option<&()>) -> bool {
        if let Some(t) = &mut self.solver.driver_mut().track {
            t.weight = weight;
        }
        (self.subtree, self.met, self.pause) = (j, 0, 0);
        // A subtree is a path of the search: entering it cannot fail (a
        // refusal would leave it unsearched, with nothing in it).
        if self.solver.preselect_subtree(sub).is_err() {
            return false;
        }
        self.solver.bound_costs(true);
        self.solver.set_cost_limit(self.limit());
        self.base = self.solver.stats();
        true
    }

    fn resume(&mut self, nodes: u64) -> Step {
        pause_after(&mut self.solver, &mut self.pause, nodes);
        loop {
            match self.solver.next_solution() {
                Step::Solution => {
                    let options: Vec<OptionId> = self.solver.solution().collect();
                    let cost = self.matrix.cost_of(options.iter().copied());
                    let rank = (2 * self.subtree + 1, self.met);
                    if let Ok(mut r) = self.ranked.lock() {
                        r.offer(cost, rank, || options);
                    }
                    self.met += 1;
                    self.solver.set_cost_limit(self.limit());
                }
                step => return step,
            }
        }
    }

    fn stopped(&self) -> Option<Stop> {
        self.solver.stopped()
    }

    fn give_away(&mut self, _: &Self::Piece) -> Option<(Vec<Self::Piece>, ())> {
        None
    }

    fn solution(&self) {}

    fn stats(&self) -> Stats {
        self.solver.stats() - self.base
    }
}
