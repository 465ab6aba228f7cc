//! Counting on several threads ([`count_parallel`]).
//!
//! One search is cut ([`Solver::split`]) at the fewest branch points that
//! give at least [`SUBTREES_PER_JOB`] subtrees per thread — many more than
//! threads, because subtrees differ in size by orders of magnitude and the
//! threads must finish together — unless finding that cut costs more than
//! [`SPLIT_UPDATES`]: then the last cut tried is taken. The subtrees are the
//! pieces of the one work-sharing pool ([`share`](super::share)): the threads
//! take them one at a time, in order; each preselects a subtree's prefix in
//! its own solver (of any engine, made once, reset per subtree) and counts
//! it whole, giving none of it away. Nothing is shared but the immutable
//! matrices, the prefixes and the pool.
//!
//! The count is exact with every rule. With [`Branching::Knuth`] the
//! counters are those of a one-thread search too (nodes, updates), because
//! each subtree is searched exactly as one search would (see
//! [`Solver::split`]); the passes that choose the depth are not counted.

use std::sync::Arc;

use super::search::progress::Track;
use super::search::split::split;
use super::search::{Steps, Stop};
use super::share::{pause_after, share, Give, Sharing, Start, Worker};
use super::solver::Steering;
use super::{
    Branching, Engine, EngineError, Limits, Matrix, OptionId, Progress, Solver, Split, Stats, Step,
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
    /// What stopped the cutting inside a pass (the splitter's deadline or
    /// cancel handle): then the subtrees and solutions are not all of the
    /// tree's, and a search of them answers "unknown", never a count.
    pub(crate) stopped: Option<Stop>,
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
                ..
            } = &mut cut;
            let stopped;
            (*above, stopped) = split(splitter, *depth, |piece| match piece {
                Split::Subtree(p) => subtrees.push(p.clone()),
                Split::Solution(s) => solutions.push((subtrees.len(), s.to_vec())),
            });
            if stopped.is_some() {
                cut.stopped = stopped;
                return cut;
            }
            let n = cut.subtrees.len();
            // A deadline or cancel of the splitter met between two passes
            // ends the cutting too, the last pass whole (the threads then
            // stop at their first node).
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

/// [`count_parallel`] with solvers made by `make`: one cuts the tree, and
/// the threads of [`share`] count its subtrees, one solver each; the
/// count, and whether it is complete. Each subtree is searched whole by the
/// thread that took it ([`Give::Never`]): a piece given away would be
/// entered by preselecting, which counts no update, and the counters would
/// no longer be one search's.
fn count_with<'m>(
    jobs: usize,
    progress: Option<&Arc<Progress>>,
    make: impl Fn() -> Solver<'m> + Sync,
) -> (ParallelCount, bool) {
    let reporting = || {
        let mut s = make();
        report_into(&mut s, progress);
        s
    };
    let (start, above, depth) = if jobs <= 1 {
        let whole = Part {
            subtree: Subtree::default(),
            weight: 1.0,
        };
        let start = Start {
            pieces: vec![whole],
            solutions: Vec::new(),
        };
        (start, Stats::default(), 0)
    } else {
        let mut splitter = make();
        let cut = Cut::new(&mut splitter, SUBTREES_PER_JOB * jobs);
        if cut.stopped.is_some() {
            // Stopped inside a pass: pieces are missing, so no count.
            let count = ParallelCount {
                solutions: cut.above.solutions,
                stats: cut.above,
                depth: cut.depth,
                subtrees: 0,
            };
            return (count, false);
        }
        let weights = cut.reported(&mut splitter, progress);
        let start = Start {
            // Counted in `cut.above`, as every solution is in the counters.
            solutions: Vec::new(),
            pieces: (cut.subtrees.into_iter().enumerate())
                .map(|(k, subtree)| Part {
                    subtree,
                    weight: weights.get(k).copied().unwrap_or(0.0),
                })
                .collect(),
        };
        (start, cut.above, cut.depth)
    };
    let subtrees = start.pieces.len();
    let sharing = Sharing {
        every: COUNT_EVERY,
        give: Give::Never,
    };
    let make = || {
        Some(Counting {
            solver: reporting(),
            pause: 0,
            base: Stats::default(),
        })
    };
    let shared = share(jobs.max(1), start, u64::MAX, sharing, make);
    // The solutions are counted in the counters: those above the cut in
    // `above`, each subtree's in its search's.
    let mut stats = above;
    stats += shared.stats;
    let count = ParallelCount {
        solutions: stats.solutions,
        stats,
        depth,
        subtrees,
    };
    (count, shared.complete)
}

/// Nodes a counting thread searches between two looks at the pool (whether
/// another thread has stopped it); its deadline and cancel handle it
/// watches at every node.
const COUNT_EVERY: u64 = 1 << 14;

/// A piece of a count: a subtree of the cut, and its share of the tree for
/// the progress report.
struct Part {
    subtree: Subtree,
    weight: f64,
}

/// A thread's worker of [`count_with`]: its solver, which keeps its limits
/// (a deadline, a cancel handle) and progress report from piece to piece.
struct Counting<'m> {
    solver: Solver<'m>,
    /// Nodes of the piece's search at its next pause.
    pause: u64,
    /// The counters when the piece's search began (its preselecting not
    /// counted).
    base: Stats,
}

impl Worker for Counting<'_> {
    type Piece = Part;
    /// A count hands back no solution.
    type Solution = ();
    /// Nothing is given away.
    type Context = ();

    fn begin(&mut self, part: &Part, _: Option<&()>) -> bool {
        self.pause = 0;
        if let Some(t) = &mut self.solver.driver_mut().track {
            t.weight = part.weight;
        }
        // Entering resets the solver (the report keeps its weight); a
        // subtree is a path of the search, which cannot fail, and a
        // refusal leaves the piece unsearched with nothing in it.
        if self.solver.preselect_subtree(&part.subtree).is_err() {
            return false;
        }
        self.base = self.solver.stats();
        true
    }

    /// Counts on to the next pause: the solutions are left in the solver's
    /// counters, not handed to the pool one by one (a return through the
    /// pool at each of Langford 12's 216,288 cost 5% of the time on two
    /// threads).
    fn resume(&mut self, nodes: u64) -> Step {
        pause_after(&mut self.solver, &mut self.pause, nodes);
        loop {
            match self.solver.next_solution() {
                Step::Solution => {}
                step => return step,
            }
        }
    }

    fn stopped(&self) -> Option<Stop> {
        self.solver.stopped()
    }

    fn give_away(&mut self, _: &Part) -> Option<(Vec<Part>, ())> {
        None
    }

    fn solution(&self) {}

    fn stats(&self) -> Stats {
        self.solver.stats() - self.base
    }
}
