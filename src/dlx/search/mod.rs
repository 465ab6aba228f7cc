//! What every engine's search shares: the words of its interface and the
//! queries built on it.
//!
//! * The settings and answers: [`Branching`] (the rule that picks the item to
//!   branch on), [`Budget`], [`Step`] (a solution, exhausted, or stopped by the
//!   budget), [`Count`] (a count and whether it is complete), and
//!   [`PreselectError`].
//! * [`driver`]: Algorithm X's loop, written once over a `Kernel` trait that
//!   each representation of the live matrix implements (`links`, `dense`,
//!   `bits`, `masks`).
//! * `engine_queries!`: the queries every engine's solver and the front door
//!   [`Solver`](crate::dlx::Solver) offer on top of `next_solution` —
//!   `first_solution`, `count`, `count_up_to`, `solutions` (a lazy
//!   iterator), `split` — generated once over the crate's `Steps` trait.
//! * [`split`]: the cut of the search tree into subtrees for threads and
//!   jobs, by the engine that will search them.
//!
//! Invariant shared by every query: a stop by the limits is never an
//! answer. A count stopped by them says `complete: false`, a first solution
//! stopped by them is `Err(Stop)` (what stopped it), never "none".

use super::index::{ItemId, OptionId};
use super::stats::Stats;
use driver::Driver;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(crate) mod best;
pub(crate) mod driver;
#[cfg(test)]
pub(crate) mod engine_tests;
pub(crate) mod estimate;
pub(crate) mod mult;
pub(crate) mod progress;
pub(crate) mod split;
pub(crate) mod strategy;

pub use best::{Best, Cheapest, Costed};
pub use estimate::{Estimate, Spread};
pub use progress::Progress;
pub use split::{Split, Subtree};
pub use strategy::{Blame, Strategy};

/// How the search picks the item to branch on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Branching {
    /// DLX1's rule: the smallest len, leftmost on ties. Node and update
    /// counts match Knuth's programs exactly.
    #[default]
    Knuth,
    /// Take a forced item (len 0 or 1) without scanning every item: the
    /// search remembers items whose len fell to 1 or 0 while hiding, and takes
    /// the latest one still valid; only when there is none does it scan, and
    /// stop at the first len of 1 or less. A different tree (same solutions),
    /// much cheaper on tightly constrained problems such as Sudoku.
    FirstForced,
    /// [`FirstForced`](Self::FirstForced), plus lookahead at every branch
    /// point: each active option is tried with its forced consequences,
    /// options that lead to a dead end are removed, and the search branches
    /// on the item whose options together force the most (each option
    /// counts `1 / (1 + updates)` of its probe; least sum wins). Far fewer
    /// nodes, each far dearer: for instances where plain DLX's tree explodes
    /// (minimal 25×25 Sudoku). Matrices with colors get `FirstForced`.
    /// See `src/dlx/links/lookahead.rs`.
    Lookahead,
}

impl Branching {
    /// The rule's name, as the command line spells it: `knuth`,
    /// `first-forced`, `lookahead`.
    pub fn name(self) -> &'static str {
        match self {
            Branching::Knuth => "knuth",
            Branching::FirstForced => "first-forced",
            Branching::Lookahead => "lookahead",
        }
    }
}

/// Counts that limit a search, from the start of the current search. Part
/// of its [`Limits`], with a deadline and a cancel handle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop before entering a node once this many nodes were counted.
    pub nodes: Option<u64>,
    /// Stop before entering a node once this many updates were counted.
    pub updates: Option<u64>,
}

/// Everything that stops a search before its end: a [`Budget`] of nodes
/// and updates, a deadline, and a [`Cancel`] handle that another thread
/// may set. A search stopped by any of them pauses with [`Step::Budget`]
/// (the answer is then unknown, never "none";
/// [`Solver::stopped`](crate::dlx::Solver::stopped) says which stopped it)
/// and resumes where it paused once the limit is raised.
///
/// The counts are looked at on entering every node; the clock and the
/// handle at a search's first node, then every [`LOOK_NODES`] nodes or
/// [`LOOK_UPDATES`] updates, whichever comes first (a millisecond of search
/// or less), so a search stops that long after its deadline or its cancel
/// at most.
///
/// ```
/// use std::time::Duration;
/// use dlx::{problems::queens, Cancel, Limits, Solver, Stop};
///
/// let m = queens(12).unwrap();
/// let cancel = Cancel::new();
/// let mut s = Solver::new(&m);
/// s.set_limits(Limits::new().timeout(Duration::from_secs(60)).cancel(&cancel));
/// cancel.cancel(); // from another thread, say, on Ctrl-C
/// let count = s.count();
/// assert!(!count.complete); // "at least count.solutions"
/// assert_eq!(s.stopped(), Some(Stop::Cancelled));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Nodes and updates.
    pub budget: Budget,
    /// Stop at this instant (not on `wasm32-unknown-unknown`, which has no
    /// clock: use the cancel handle there).
    pub deadline: Option<Instant>,
    /// Stop once this handle is cancelled.
    pub cancel: Option<Cancel>,
}

/// Nodes between two looks at the deadline and cancel handle of
/// [`Limits`].
pub const LOOK_NODES: u64 = 4096;

/// Updates between two looks at the deadline and cancel handle of
/// [`Limits`] (a lookahead search's nodes each probe hundreds of options,
/// and count far more updates than nodes).
pub const LOOK_UPDATES: u64 = 1 << 18;

impl Limits {
    /// No limit.
    pub fn new() -> Limits {
        Limits::default()
    }

    /// These limits, stopping after `n` nodes.
    pub fn nodes(mut self, n: u64) -> Limits {
        self.budget.nodes = Some(n);
        self
    }

    /// These limits, stopping after `n` updates.
    pub fn updates(mut self, n: u64) -> Limits {
        self.budget.updates = Some(n);
        self
    }

    /// These limits with the counts of `budget`.
    pub fn budget(mut self, budget: Budget) -> Limits {
        self.budget = budget;
        self
    }

    /// These limits, stopping at `deadline`.
    pub fn deadline(mut self, deadline: Instant) -> Limits {
        self.deadline = Some(deadline);
        self
    }

    /// These limits, stopping `timeout` from now (one too long for the
    /// clock is no deadline).
    pub fn timeout(mut self, timeout: Duration) -> Limits {
        self.deadline = Instant::now().checked_add(timeout);
        self
    }

    /// These limits, stopping once `cancel` is cancelled.
    pub fn cancel(mut self, cancel: &Cancel) -> Limits {
        self.cancel = Some(cancel.clone());
        self
    }

    /// Whether these limits stop nothing.
    pub fn is_unlimited(&self) -> bool {
        self.budget == Budget::default() && self.deadline.is_none() && self.cancel.is_none()
    }

    /// Why a search that started at `base` and is now at `now` must stop,
    /// if it must: its counts first, then the handle, then the clock (read
    /// only when there is a deadline).
    pub(crate) fn stop(&self, now: &Stats, base: &Stats) -> Option<Stop> {
        let b = &self.budget;
        if b.nodes.is_some_and(|n| now.nodes - base.nodes >= n) {
            return Some(Stop::Nodes);
        }
        if b.updates.is_some_and(|u| now.updates - base.updates >= u) {
            return Some(Stop::Updates);
        }
        self.stop_now()
    }

    /// Whether the handle or the clock stops a search now.
    pub(crate) fn stop_now(&self) -> Option<Stop> {
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Some(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stop::Deadline);
        }
        None
    }
}

impl From<Budget> for Limits {
    fn from(budget: Budget) -> Limits {
        Limits::new().budget(budget)
    }
}

/// A handle that stops searches from anywhere: clones share one flag, and
/// every search whose [`Limits`] hold a clone stops (within
/// [`LOOK_NODES`] nodes) once any clone is cancelled — Ctrl-C in a
/// terminal or a notebook, a Stop button. Cheap to clone and `Send`.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A handle not cancelled yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Stops every search that holds this handle (or a clone).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl PartialEq for Cancel {
    /// Two handles are equal when they share their flag.
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// What stopped a search before its answer was known (see [`Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stop {
    /// The node budget was spent.
    Nodes,
    /// The update budget was spent.
    Updates,
    /// The deadline passed.
    Deadline,
    /// The [`Cancel`] handle was cancelled.
    Cancelled,
}

impl Stop {
    /// In words: `node budget spent`, `update budget spent`, `time limit
    /// reached`, `cancelled`.
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Nodes => "node budget spent",
            Stop::Updates => "update budget spent",
            Stop::Deadline => "time limit reached",
            Stop::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// What [`Solver::next_solution`](crate::dlx::Solver::next_solution) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A solution; read it with [`Solver::solution`](crate::dlx::Solver::solution).
    Solution,
    /// The search is over: every solution has been reported.
    Exhausted,
    /// The budget ran out. Nothing is known about the rest of the tree; the
    /// search can resume after [`Solver::set_budget`](crate::dlx::Solver::set_budget) raises the limit.
    Budget,
}

/// The result of counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found.
    pub solutions: u64,
    /// Whether the whole tree was searched. `false` when a limit or budget
    /// stopped the count: then `solutions` is a lower bound.
    pub complete: bool,
}

/// Why an option could not be preselected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PreselectError {
    /// No such option in the matrix.
    UnknownOption(OptionId),
    /// The option names no primary item, so it is not in the search.
    IgnoredOption(OptionId),
    /// The option clashes with an option preselected before it: they share
    /// an item (or disagree on a secondary item's color).
    Conflict {
        /// The option that was refused.
        option: OptionId,
        /// The earlier preselected option it clashes with.
        with: OptionId,
    },
    /// The option was excluded ([`Subtree::excluded`]).
    Excluded(OptionId),
    /// The item cannot be retired ([`Subtree::retired`]): no such item, a
    /// secondary one, or one whose lower bound the options preselected do
    /// not meet.
    NotRetirable(ItemId),
    /// The engine neither excludes options nor retires items (links does,
    /// and dense with multiplicities, whose subtrees need them).
    Unsupported(crate::dlx::EngineKind),
}

impl fmt::Display for PreselectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PreselectError::UnknownOption(o) => write!(f, "option {o} does not exist"),
            PreselectError::IgnoredOption(o) => {
                write!(f, "option {o} has no primary item and is not searched")
            }
            PreselectError::Conflict { option, with } => {
                write!(
                    f,
                    "option {option} conflicts with preselected option {with}"
                )
            }
            PreselectError::Excluded(o) => write!(f, "option {o} is excluded"),
            PreselectError::NotRetirable(i) => write!(
                f,
                "item {i} cannot be retired: it is not a primary item whose lower bound the \
                 preselected options meet"
            ),
            PreselectError::Unsupported(e) => write!(
                f,
                "the {} engine does not exclude options or retire items here (links does)",
                e.name()
            ),
        }
    }
}

impl std::error::Error for PreselectError {}

/// The step-by-step search every engine offers ([`LinksSolver`](crate::dlx::LinksSolver),
/// [`DenseSolver`](crate::dlx::DenseSolver),
/// [`BitsSolver`](crate::dlx::BitsSolver),
/// [`MasksSolver`](crate::dlx::MasksSolver)), for the queries built on it.
pub(crate) trait Steps {
    // Only the shared engine tests (`engine_tests`) pause through the trait.
    #[cfg_attr(not(test), allow(dead_code))]
    fn set_budget(&mut self, budget: Budget);
    fn restart(&mut self);
    fn next_solution(&mut self) -> Step;
    fn solution_vec(&self) -> Vec<OptionId>;
    fn is_exhausted(&self) -> bool;
    fn reset(&mut self);
    fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError>;
    fn stats(&self) -> Stats;
    fn driver(&self) -> &Driver;
    fn driver_mut(&mut self) -> &mut Driver;
    /// The option a kernel's cursor names (`None`: a move that takes no
    /// option, Algorithm M's null move).
    fn cursor_option(&self, cur: u32) -> Option<OptionId>;
    /// The subtree below the node where the search is paused (at the cut).
    fn subtree_path(&self, into: &mut Subtree);
    fn preselect_subtree(&mut self, sub: &Subtree) -> Result<(), PreselectError>;
}

/// An engine's `preselect_subtree` and `subtree_path` when its levels fix
/// nothing but their options (dense, bits, masks: they take no
/// multiplicities).
macro_rules! plain_subtrees {
    ($solver:ident, $kind:expr) => {
        impl $solver<'_> {
            /// Starts over below `sub`, a subtree of
            /// [`split`](Self::split): a [`reset`](Self::reset), then its
            /// options preselected in order; nothing preselected on a
            /// refusal. This engine excludes no options and retires no items
            /// (a subtree with multiplicities is refused:
            /// [`PreselectError::Unsupported`]).
            pub fn preselect_subtree(
                &mut self,
                sub: &$crate::dlx::Subtree,
            ) -> Result<(), $crate::dlx::PreselectError> {
                $crate::dlx::search::split::preselect_options(self, sub, $kind)
            }

            pub(crate) fn subtree_path(&self, into: &mut $crate::dlx::Subtree) {
                $crate::dlx::search::split::options_path(self, into);
            }
        }
    };
}
pub(crate) use plain_subtrees;

/// The queries every engine offers on top of its own `next_solution`,
/// `solution`, `restart`, `reset`, `preselect`, `stats` and `is_exhausted`
/// (same names and meanings for every engine's solver and the front door):
/// `first_solution`, `count`, `count_up_to`, `solutions` and its lazy
/// iterator type, and the crate's [`Steps`] for the helpers over any engine.
macro_rules! engine_queries {
    // An engine's own solver: its driver is the field `driver`, and its
    // cursor `$c` names the option `$option` (`None`: a null move).
    ($solver:ident, $solutions:ident, |$s:ident, $c:ident| $option:expr) => {
        impl $solver<'_> {
            pub(crate) fn driver_ref(&self) -> &$crate::dlx::search::driver::Driver {
                &self.driver
            }

            pub(crate) fn driver_mut_ref(&mut self) -> &mut $crate::dlx::search::driver::Driver {
                &mut self.driver
            }

            /// The option a kernel's cursor names (`None`: a null move).
            #[inline]
            pub(crate) fn cursor_option(&self, $c: u32) -> Option<$crate::dlx::OptionId> {
                let $s = self;
                $option
            }

            /// An engine's own solver counts on the calling thread: never.
            #[inline]
            pub(crate) fn count_on_threads(&mut self, _limit: u64) -> Option<$crate::dlx::Count> {
                None
            }
        }

        $crate::dlx::search::engine_queries!($solver, $solutions);
    };
    ($solver:ident, $solutions:ident) => {
        impl<'m> $solver<'m> {
            /// The counters since the solver was made or last `reset`.
            pub fn stats(&self) -> $crate::dlx::Stats {
                self.driver_ref().stats
            }

            /// Limits the search's nodes and updates; applies to the
            /// current search from its start. The deadline and cancel
            /// handle of [`set_limits`](Self::set_limits) are kept.
            pub fn set_budget(&mut self, budget: $crate::dlx::Budget) {
                let d = self.driver_mut_ref();
                let limits = d.limits().clone().budget(budget);
                d.set_limits(limits);
            }

            /// Limits the search (see [`Limits`]($crate::dlx::Limits)):
            /// nodes and updates from the current search's start, a
            /// deadline, a cancel handle.
            pub fn set_limits(&mut self, limits: $crate::dlx::Limits) {
                self.driver_mut_ref().set_limits(limits);
            }

            /// The limits the search runs under.
            pub fn limits(&self) -> &$crate::dlx::Limits {
                self.driver_ref().limits()
            }

            /// What stopped the last query before its answer was known:
            /// `Some` after [`Step::Budget`]($crate::dlx::Step::Budget),
            /// `None` after a solution or the end of the search.
            pub fn stopped(&self) -> Option<$crate::dlx::Stop> {
                self.driver_ref().stopped
            }

            /// Whether the current search has been exhausted.
            pub fn is_exhausted(&self) -> bool {
                self.driver_ref().is_exhausted()
            }

            /// Turns on counting nodes per level (DLX1's profile).
            pub fn enable_profile(&mut self) {
                self.driver_mut_ref().enable_profile();
            }

            /// Nodes entered at each level, if `enable_profile` was called.
            pub fn profile(&self) -> Option<&[u64]> {
                self.driver_ref().profile()
            }

            /// The options preselected so far, in order.
            pub fn preselected(&self) -> impl ExactSizeIterator<Item = $crate::dlx::OptionId> + '_ {
                self.driver_ref().preselected.iter().copied()
            }

            /// The solution just reported by `next_solution`: preselected
            /// options first, then the options chosen by the search, in
            /// order.
            pub fn solution(&self) -> impl Iterator<Item = $crate::dlx::OptionId> + '_ {
                let chosen = self.driver_ref().chosen().iter();
                self.preselected()
                    .chain(chosen.filter_map(|&c| self.cursor_option(c)))
            }

            /// The first solution, from a fresh search: `Ok(None)` when there
            /// is none, `Err` with what stopped the search when its limits
            /// did first (the answer is then unknown).
            pub fn first_solution(
                &mut self,
            ) -> Result<Option<Vec<$crate::dlx::OptionId>>, $crate::dlx::Stop> {
                $crate::dlx::search::first_solution(self)
            }

            /// Counts all solutions of a fresh search (within the budget).
            pub fn count(&mut self) -> $crate::dlx::Count {
                self.count_up_to(u64::MAX)
            }

            /// Counts solutions of a fresh search, stopping at `limit`.
            pub fn count_up_to(&mut self, limit: u64) -> $crate::dlx::Count {
                if let Some(count) = self.count_on_threads(limit) {
                    return count;
                }
                $crate::dlx::search::count_up_to(self, limit)
            }

            /// All solutions of a fresh search, lazily; each is a `Vec` of
            /// options (preselected ones first). The iterator ends early when
            /// the budget runs out: then
            /// [`is_exhausted`](Self::is_exhausted) is false.
            pub fn solutions(&mut self) -> $solutions<'_, 'm> {
                self.restart();
                $solutions { solver: self }
            }

            /// Runs a fresh search (keeping preselected options) down to
            /// `depth` branch points (levels whose item had two options or
            /// more) and hands every node there and every solution above it
            /// to `visit`, in search order; returns the counters of the
            /// search above the cut (the nodes at the cut are not counted:
            /// they belong to their subtrees). The budget is set aside
            /// meanwhile and kept; the deadline and the cancel handle stop
            /// the split: then the answer is `Err` with what stopped it,
            /// and the pieces handed out are not all of them. Afterwards
            /// the solver is restarted, as after `restart`. See
            /// [`Split`]($crate::dlx::Split).
            ///
            /// ```
            /// use dlx::{knuth, Solver, Split};
            ///
            /// // Two items with two options each: four solutions. Cut at depth 1,
            /// // two subtrees, one per option of `A` (the item chosen first).
            /// let m = knuth::read("A B\nA\nA\nB\nB\n".as_bytes()).unwrap();
            /// let mut s = Solver::new(&m);
            /// let mut subtrees = 0;
            /// s.split(1, |piece| {
            ///     if let Split::Subtree(sub) = piece {
            ///         assert_eq!(sub.options.len(), 1);
            ///         subtrees += 1;
            ///     }
            /// }).unwrap();
            /// assert_eq!(subtrees, 2);
            /// ```
            pub fn split(
                &mut self,
                depth: usize,
                visit: impl FnMut($crate::dlx::Split<'_>),
            ) -> Result<$crate::dlx::Stats, $crate::dlx::Stop> {
                match $crate::dlx::search::split::split(self, depth, visit) {
                    (stats, None) => Ok(stats),
                    (_, Some(stop)) => Err(stop),
                }
            }

            /// Reports the progress of every search from now on into
            /// `to` (every `every` nodes, and at the end): nodes,
            /// solutions, and the fraction of the tree done by DLX1's
            /// estimate (see [`Progress`]($crate::dlx::Progress)). `None`
            /// stops reporting. Meant for long searches shown to a person:
            /// the search that reports keeps each level's len, a little
            /// slower than the one that does not.
            pub fn report_progress(
                &mut self,
                to: Option<std::sync::Arc<$crate::dlx::Progress>>,
                every: u64,
            ) {
                let d = self.driver_mut_ref();
                let depth = d.choice.len();
                let nodes = d.stats.nodes;
                d.track = to.map(|to| {
                    Box::new($crate::dlx::search::progress::Track::new(
                        to, every, depth, nodes,
                    ))
                });
            }

            /// Knuth's estimate of the search below the preselected options
            /// from `probes` random root-to-leaf walks (see
            /// [`Estimate`]($crate::dlx::Estimate)): nodes, updates and
            /// solutions, each with its spread. The deadline and the cancel
            /// handle end it early: then fewer probes are made
            /// ([`Estimate::probes`]($crate::dlx::Estimate::probes)), none
            /// cut short. The preselected options and the counters are as
            /// before afterwards; the search is restarted and the profile
            /// cleared.
            ///
            /// ```
            /// use dlx::{knuth, Solver};
            /// use rand::{rngs::StdRng, SeedableRng};
            ///
            /// let m = knuth::read("A B\nA\nA\nB\nB\n".as_bytes()).unwrap();
            /// let e = Solver::new(&m).estimate(100, &mut StdRng::seed_from_u64(1));
            /// assert_eq!(e.solutions.mean, 4.0); // every walk sees 2 × 2 leaves
            /// ```
            pub fn estimate(
                &mut self,
                probes: u64,
                rng: &mut impl rand::Rng,
            ) -> $crate::dlx::Estimate {
                $crate::dlx::search::estimate::estimate(self, probes, rng)
            }
        }

        impl $crate::dlx::search::Steps for $solver<'_> {
            fn set_budget(&mut self, budget: $crate::dlx::Budget) {
                $solver::set_budget(self, budget);
            }
            fn restart(&mut self) {
                $solver::restart(self);
            }
            fn next_solution(&mut self) -> $crate::dlx::Step {
                $solver::next_solution(self)
            }
            fn solution_vec(&self) -> Vec<$crate::dlx::OptionId> {
                self.solution().collect()
            }
            fn is_exhausted(&self) -> bool {
                $solver::is_exhausted(self)
            }
            fn reset(&mut self) {
                $solver::reset(self);
            }
            fn preselect(
                &mut self,
                option: $crate::dlx::OptionId,
            ) -> Result<(), $crate::dlx::PreselectError> {
                $solver::preselect(self, option)
            }
            fn stats(&self) -> $crate::dlx::Stats {
                $solver::stats(self)
            }
            fn driver(&self) -> &$crate::dlx::search::driver::Driver {
                $solver::driver_ref(self)
            }
            fn driver_mut(&mut self) -> &mut $crate::dlx::search::driver::Driver {
                $solver::driver_mut_ref(self)
            }
            #[inline]
            fn cursor_option(&self, cur: u32) -> Option<$crate::dlx::OptionId> {
                $solver::cursor_option(self, cur)
            }
            fn subtree_path(&self, into: &mut $crate::dlx::Subtree) {
                $solver::subtree_path(self, into);
            }
            fn preselect_subtree(
                &mut self,
                sub: &$crate::dlx::Subtree,
            ) -> Result<(), $crate::dlx::PreselectError> {
                $solver::preselect_subtree(self, sub)
            }
        }

        #[doc = concat!("The lazy iterator of [`", stringify!($solver), "::solutions`].")]
        #[derive(Debug)]
        pub struct $solutions<'s, 'm> {
            solver: &'s mut $solver<'m>,
        }

        impl Iterator for $solutions<'_, '_> {
            type Item = Vec<$crate::dlx::OptionId>;

            fn next(&mut self) -> Option<Vec<$crate::dlx::OptionId>> {
                match self.solver.next_solution() {
                    $crate::dlx::Step::Solution => Some(self.solver.solution().collect()),
                    $crate::dlx::Step::Exhausted | $crate::dlx::Step::Budget => None,
                }
            }
        }
    };
}
pub(crate) use engine_queries;

/// Whether `option` can be preselected in an engine whose root state (slot
/// 0, which searching never writes) starts with one bit per option, set while
/// the option is active (dense, bits): not past the `options`, not
/// `ignored` (no primary item), and still active, else a conflict with the
/// `preselected` option that shares an item with it (`items` gives an
/// option's items).
pub(crate) fn check_preselect<'a>(
    option: OptionId,
    options: usize,
    ignored: impl FnOnce(usize) -> bool,
    root: &[u64],
    preselected: &[OptionId],
    items: impl Fn(usize) -> &'a [u32],
) -> Result<(), PreselectError> {
    let r = option.as_usize();
    if r >= options {
        return Err(PreselectError::UnknownOption(option));
    }
    if ignored(r) {
        return Err(PreselectError::IgnoredOption(option));
    }
    if root[r / 64] >> (r % 64) & 1 == 0 {
        let held = preselected
            .iter()
            .map(|&q| (q.as_usize() as u32, items(q.as_usize())));
        return Err(conflict(option, items(r), held));
    }
    Ok(())
}

/// The conflict of preselecting option `option` (of items `mine`) with
/// multiplicities, where an option is refused once an item it has is used
/// up: the latest of the `preselected` options that shares an item with it
/// (itself if none does: an option excluded by a subtree).
pub(crate) fn latest_conflict<'a>(
    option: OptionId,
    mine: &[u32],
    preselected: &[OptionId],
    items: impl Fn(usize) -> &'a [u32],
) -> PreselectError {
    let with = preselected
        .iter()
        .rev()
        .find(|o| items(o.as_usize()).iter().any(|i| mine.contains(i)))
        .map_or(option, |&o| o);
    PreselectError::Conflict { option, with }
}

/// The conflict of preselecting an option of items `mine` that is no longer
/// active: the first of the `preselected` options (given by their items)
/// that shares an item with it, for the engines that keep no holder per item.
pub(crate) fn conflict<'a>(
    option: OptionId,
    mine: &[u32],
    mut preselected: impl Iterator<Item = (u32, &'a [u32])>,
) -> PreselectError {
    let with = preselected
        .find(|(_, items)| items.iter().any(|i| mine.contains(i)))
        .map_or(0, |(q, _)| q);
    PreselectError::Conflict {
        option,
        with: OptionId::must(with as usize),
    }
}

/// [`Solver::first_solution`](crate::dlx::Solver::first_solution), for any engine.
pub(crate) fn first_solution(s: &mut impl Steps) -> Result<Option<Vec<OptionId>>, Stop> {
    s.restart();
    match s.next_solution() {
        Step::Solution => Ok(Some(s.solution_vec())),
        Step::Exhausted => Ok(None),
        Step::Budget => Err(s.driver().stopped.unwrap_or(Stop::Nodes)),
    }
}

/// [`Solver::count_up_to`](crate::dlx::Solver::count_up_to), for any engine.
pub(crate) fn count_up_to(s: &mut impl Steps, limit: u64) -> Count {
    s.restart();
    let mut solutions = 0;
    while solutions < limit {
        match s.next_solution() {
            Step::Solution => solutions += 1,
            Step::Exhausted => {
                return Count {
                    solutions,
                    complete: true,
                }
            }
            Step::Budget => {
                return Count {
                    solutions,
                    complete: false,
                }
            }
        }
    }
    Count {
        solutions,
        complete: s.is_exhausted(),
    }
}

/// Algorithm M's cursor of the *null move* in the engines that copy their
/// states (dense, bits): no option, the level's item ends (the solvers'
/// solutions leave it out).
pub(crate) const NULL_MOVE: u32 = u32::MAX;
