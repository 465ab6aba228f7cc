//! Counting on several threads ([`count_parallel`]).
//!
//! One search is cut ([`Solver::split`]) at the fewest branch points that
//! give at least [`SUBTREES_PER_JOB`] subtrees per thread — many more than
//! threads, because subtrees differ in size by orders of magnitude and the
//! threads must finish together — unless finding that cut costs more than
//! [`SPLIT_UPDATES`]: then the last cut tried is taken. The threads take subtrees one at a time,
//! in order, from a shared counter; each preselects a subtree's prefix in its
//! own solver (of any engine, made once, reset per subtree) and counts it.
//! Nothing is shared but the immutable matrices, the prefixes and the
//! counter, so threads never wait on one another.
//!
//! The count is exact with every rule. With [`Branching::Knuth`] the
//! counters are those of a one-thread search too (nodes, updates), because
//! each subtree is searched exactly as one search would (see
//! [`Solver::split`]); the passes that choose the depth are not counted.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use super::search::progress::Track;
use super::search::split::split;
use super::search::{count_up_to, Steps};
use super::solver::Steering;
use super::{
    Branching, Engine, EngineError, Limits, Matrix, OptionId, Progress, Solver, Split, Stats,
    Subtree,
};

/// Subtrees per thread that [`count_parallel`] cuts at least (when the tree
/// has them). With 64, pentominoes 6×10 cut at depth 3 spreads evenly over
/// two threads.
pub const SUBTREES_PER_JOB: usize = 64;

/// Updates after which [`count_parallel`] stops deepening its cut: about a
/// tenth of a second of search.
pub const SPLIT_UPDATES: u64 = 1 << 24;

/// What [`count_parallel`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelCount {
    /// All solutions (the search always runs to the end).
    pub solutions: u64,
    /// The counters of the search above the cut plus every subtree's
    /// (`stats.solutions == solutions`).
    pub stats: Stats,
    /// The depth of the cut, in branch points (0: not cut, one thread).
    pub depth: usize,
    /// The subtrees searched.
    pub subtrees: usize,
}

/// A search cut into subtrees by [`Solver::split`], at the fewest branch
/// points that give `target` subtrees (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct Cut {
    /// The subtrees, in search order.
    pub(crate) subtrees: Vec<Subtree>,
    /// The solutions above the cut, with the number of subtrees before each.
    pub(crate) solutions: Vec<(usize, Vec<OptionId>)>,
    /// The counters above the cut, and its depth in branch points.
    pub(crate) above: Stats,
    pub(crate) depth: usize,
}

impl Cut {
    /// Cuts the search of `splitter` (its preselected options kept) at the
    /// fewest branch points that give `target` subtrees or more, or all of
    /// its tree, or where a pass costs over [`SPLIT_UPDATES`]. Each branch
    /// point at least doubles the live subtrees, so this takes a few passes
    /// over the top of the tree. Any engine cuts: the subtrees are then the
    /// ones that engine's search explores.
    pub(crate) fn new(splitter: &mut impl Steps, target: usize) -> Cut {
        Cut::with_limit(splitter, target, SPLIT_UPDATES)
    }

    /// [`new`](Self::new), stopping where a pass costs over `max_updates`
    /// (job lines for other machines afford a deeper cut than threads).
    pub(crate) fn with_limit(splitter: &mut impl Steps, target: usize, max_updates: u64) -> Cut {
        let mut cut = Cut::default();
        let deepest = splitter.driver().choice.len();
        loop {
            cut.depth += 1;
            cut.subtrees.clear();
            cut.solutions.clear();
            let Cut {
                subtrees,
                solutions,
                above,
                depth,
            } = &mut cut;
            *above = split(splitter, *depth, |piece| match piece {
                Split::Subtree(p) => subtrees.push(p.clone()),
                Split::Solution(s) => solutions.push((subtrees.len(), s.to_vec())),
            });
            let n = cut.subtrees.len();
            // A deadline or cancel of the splitter ends the cutting too (the
            // threads then stop at their first node).
            if n >= target
                || n == 0
                || cut.above.updates > max_updates
                || cut.depth > deepest
                || splitter.driver().limits().stop_now().is_some()
            {
                return cut;
            }
        }
    }

    pub(crate) fn subtrees(&self) -> usize {
        self.subtrees.len()
    }

    /// With `progress`: reports what the cut itself searched (all of the
    /// tree when it left no subtree) and gives each subtree's share of the
    /// tree ([`weights`](Self::weights)); without, no weights.
    pub(crate) fn reported(
        &self,
        splitter: &mut impl Steps,
        progress: Option<&Arc<Progress>>,
    ) -> Vec<f64> {
        let Some(p) = progress else {
            return Vec::new();
        };
        let whole = if self.subtrees() == 0 { 1.0 } else { 0.0 };
        p.add(self.above.nodes, self.above.solutions, whole);
        self.weights(splitter)
    }

    /// Each subtree's share of the tree below the cut, by Knuth's estimate
    /// ([`WEIGHT_PROBES`] probes each, a fixed seed); shares of equal size
    /// when every estimate is 0.
    fn weights(&self, s: &mut impl Steps) -> Vec<f64> {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut sizes: Vec<f64> = self
            .subtrees
            .iter()
            .map(|sub| match s.preselect_subtree(sub) {
                Ok(()) => super::search::estimate::estimate(s, WEIGHT_PROBES, &mut rng)
                    .nodes
                    .mean
                    .max(1.0),
                Err(_) => 1.0,
            })
            .collect();
        let total: f64 = sizes.iter().sum();
        for w in &mut sizes {
            *w /= total;
        }
        sizes
    }
}

/// Nodes between two progress reports of a search
/// ([`count_parallel_with_progress`], `dlx cover`'s progress line): a few
/// thousand, so that a report costs nothing beside the search and comes
/// many times a second.
pub const PROGRESS_NODES: u64 = 1 << 14;

/// Probes per subtree for the weights of [`count_parallel_with_progress`].
const WEIGHT_PROBES: u64 = 4;

/// Makes `s` report its progress into `progress`, when there is one.
pub(crate) fn report_into(s: &mut impl Steps, progress: Option<&Arc<Progress>>) {
    if let Some(p) = progress {
        let depth = s.driver().choice.len();
        s.driver_mut().track = Some(Box::new(Track::new(p.clone(), PROGRESS_NODES, depth, 0)));
    }
}

/// Counts `sub` in `s`, a part `weight` of the whole tree for its progress
/// report; returns its counters (the preselecting not included) and
/// whether the count is complete (the limits of `s` may stop it).
fn count_below(s: &mut impl Steps, sub: &Subtree, weight: f64) -> (Stats, bool) {
    if let Some(t) = &mut s.driver_mut().track {
        t.weight = weight;
    }
    // Entering resets the solver (the report keeps its weight). A subtree
    // is a path of the search: its options are active and clash with none
    // of one another, so entering it cannot fail.
    s.preselect_subtree(sub)
        .expect("a subtree is a path of the search");
    let before = s.stats();
    let count = count_up_to(s, u64::MAX);
    (s.stats() - before, count.complete)
}

/// Counts the solutions of `matrix` with `branching` on `jobs` threads (the
/// calling one waits), searched and cut by `engine` (its tables must be made
/// from `matrix`). An engine that does not take the rule, or tables made
/// from another matrix, is an error. `jobs <= 1` counts on the calling
/// thread. (A [`Solver`](crate::Solver) made with
/// [`Config::jobs`](crate::Config::jobs) counts this way too.)
///
/// ```
/// use dlx::engines::{count_parallel, Engine, LinksSolver};
/// use dlx::{knuth, Branching};
///
/// let mut text = String::from("v1 v2 v3 v4 v5 v6 v7 s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 s12 s13 s14\n");
/// for i in 1..=7 {
///     for j in 1..=14 - i - 1 {
///         text += &format!("v{i} s{j} s{}\n", j + i + 1);
///     }
/// }
/// let m = knuth::read(text.as_bytes()).unwrap();
/// let par = count_parallel(&m, Engine::Links, Branching::Knuth, 2).unwrap();
/// assert_eq!(par.solutions, 52); // Langford pairs, n = 7, both ways
/// let mut one = LinksSolver::new(&m);
/// one.count();
/// assert_eq!(par.stats, one.stats()); // the same search, split
/// ```
pub fn count_parallel(
    matrix: &Matrix,
    engine: Engine,
    branching: Branching,
    jobs: usize,
) -> Result<ParallelCount, EngineError> {
    let (limits, steering) = (Limits::default(), Steering::default());
    count_limited(matrix, engine, branching, jobs, None, &limits, &steering).map(|(c, _)| c)
}

/// [`count_parallel`], reporting its progress into `progress` as it goes:
/// nodes and solutions as the threads find them, and the fraction done as
/// the sum over the subtrees of each one's share of the tree (by Knuth's
/// estimate, a few probes each) times the part of it done (DLX1's estimate,
/// see [`Progress`]), so that it moves inside a long subtree too.
pub fn count_parallel_with_progress(
    matrix: &Matrix,
    engine: Engine,
    branching: Branching,
    jobs: usize,
    progress: &Arc<Progress>,
) -> Result<ParallelCount, EngineError> {
    let (limits, steering) = (Limits::default(), Steering::default());
    count_limited(
        matrix,
        engine,
        branching,
        jobs,
        Some(progress),
        &limits,
        &steering,
    )
    .map(|(c, _)| c)
}

/// [`count_parallel`] with an optional progress report, each thread's
/// search within `limits` (their deadline and cancel handle: a node budget
/// is one search's, and is the caller's to refuse); returns the count and
/// whether it is complete (`false`: a limit stopped a thread, and the
/// others took no more subtrees).
pub(crate) fn count_limited(
    matrix: &Matrix,
    engine: Engine,
    branching: Branching,
    jobs: usize,
    progress: Option<&Arc<Progress>>,
    limits: &Limits,
    steering: &Steering,
) -> Result<(ParallelCount, bool), EngineError> {
    engine.check(matrix, branching)?;
    Ok(count_with(jobs, progress, || {
        let mut s = Solver::borrowing(matrix, engine, branching);
        s.set_limits(limits.clone());
        steering.onto(&mut s);
        s
    }))
}

/// [`count_parallel`] with solvers made by `make`: one cuts the tree, one
/// per thread counts subtrees; the count, and whether it is complete.
fn count_with<S: Steps>(
    jobs: usize,
    progress: Option<&Arc<Progress>>,
    make: impl Fn() -> S + Sync,
) -> (ParallelCount, bool) {
    let reporting = || {
        let mut s = make();
        report_into(&mut s, progress);
        s
    };
    if jobs <= 1 {
        let (stats, complete) = count_below(&mut reporting(), &Subtree::default(), 1.0);
        let count = ParallelCount {
            solutions: stats.solutions,
            stats,
            depth: 0,
            subtrees: 1,
        };
        return (count, complete);
    }
    let mut splitter = make();
    let cut = Cut::new(&mut splitter, SUBTREES_PER_JOB * jobs);
    let subtrees = cut.subtrees();
    let weights = &cut.reported(&mut splitter, progress);
    let depth = cut.depth;
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let (next, stopped, cut, reporting) = (&next, &stopped, &cut, &reporting);
    let mut stats = cut.above;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs.min(subtrees))
            .map(|_| {
                scope.spawn(move || {
                    let mut worker = reporting();
                    let mut mine = Stats::default();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= subtrees || stopped.load(Ordering::Relaxed) {
                            return mine;
                        }
                        let weight = weights.get(k).copied().unwrap_or(0.0);
                        let (counted, complete) =
                            count_below(&mut worker, &cut.subtrees[k], weight);
                        mine += counted;
                        if !complete {
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
    let count = ParallelCount {
        solutions: stats.solutions,
        stats,
        depth,
        subtrees,
    };
    (count, !stopped.load(Ordering::Relaxed))
}
