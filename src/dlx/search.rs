//! Algorithm X (DLX1) and Algorithm C (DLX2, with colors) as an explicit,
//! resumable state machine.
//!
//! A [`LinksSolver`] is the search's scratch state for one [`Matrix`]: its own copy
//! of the links, the level stack (`choice`), the counters. The matrix stays
//! untouched, so any number of solvers (one per thread) can share it. Building
//! a solver allocates; nothing else does: solving, counting, resetting and
//! preselecting reuse the same arrays, puzzle after puzzle.
//!
//! The search is DLX1's loop with its labels as states:
//!
//! * *forward*: count a node; branch on the primary item with the smallest
//!   len, leftmost on ties ([`Branching::Knuth`]); cover it; try its first option.
//! * *advance*: commit to the option at `choice[level]` (cover its other
//!   items); on an empty root list that is a solution, else go a level deeper.
//! * *backdown*: go back a level, uncommit its option and try the next one;
//!   past the last option, uncover the branching item and back down again.
//!
//! Between calls the solver is paused in a state where levels `0..level` are
//! fully entered (item covered, option committed) and nothing else is: that
//! one invariant is what lets [`LinksSolver::next_solution`] resume, a budget stop
//! resume, and [`LinksSolver::reset`] unwind from anywhere.
//!
//! A preselected option (see [`LinksSolver::preselect`]) is committed before the
//! search at a level of its own below level 0; solutions list preselected
//! options first.

use super::dance::{choose, choose_watched, commit_others, cover, uncommit_others, uncover, Watch};
use super::index::OptionId;
use super::matrix::{Link, Matrix, Node};
use super::stats::Stats;
use driver::{Driver, Enter, Kernel};
use std::fmt;

pub(crate) mod driver;
mod lookahead;
mod preselect;
pub(crate) mod split;

pub use split::Split;

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
    /// on the item (of smallest len) whose options force the most. Far fewer
    /// nodes, each far dearer: for instances where plain DLX's tree explodes
    /// (minimal 25×25 Sudoku). Matrices with colors get `FirstForced`.
    /// See `src/dlx/search/lookahead.rs`.
    Lookahead,
}

/// Limits on a search, counted from the start of the current search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop before entering a node once this many nodes were counted.
    pub nodes: Option<u64>,
    /// Stop before entering a node once this many updates were counted.
    pub updates: Option<u64>,
}

impl Budget {
    /// Whether the search that started at `base` and is now at `now` has
    /// used this budget up.
    pub(crate) fn spent(&self, now: &Stats, base: &Stats) -> bool {
        self.nodes.is_some_and(|n| now.nodes - base.nodes >= n)
            || self
                .updates
                .is_some_and(|u| now.updates - base.updates >= u)
    }
}

/// What [`LinksSolver::next_solution`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A solution; read it with [`LinksSolver::solution`].
    Solution,
    /// The search is over: every solution has been reported.
    Exhausted,
    /// The budget ran out. Nothing is known about the rest of the tree; the
    /// search can resume after [`LinksSolver::set_budget`] raises the limit.
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
        }
    }
}

impl std::error::Error for PreselectError {}

/// The search state for one matrix: the search driver (`driver.rs`) beside
/// the links engine's own copy of the links. The [`Matrix`] stays
/// untouched, so any number of solvers (one per thread) can share it; after
/// `LinksSolver::new` nothing is allocated. The search is DLX1's loop (the
/// crate's one driver), paused between solutions (or at a budget) with
/// levels `0..level` entered, which is what lets it resume and lets
/// [`reset`](Self::reset) unwind from anywhere.
#[derive(Clone, Debug)]
pub struct LinksSolver<'m> {
    matrix: &'m Matrix,
    driver: Driver,
    links: LinksState<'m>,
    branching: Branching,
}

/// The links kernel's scratch state: the solver's own copy of the links
/// and what the rules and preselection keep beside them.
#[derive(Clone, Debug)]
pub(crate) struct LinksState<'m> {
    matrix: &'m Matrix,
    nodes: Vec<Node>,
    items: Vec<Link>,
    colors: Vec<i32>,
    /// Per level: the item covered there (its header node).
    item: Vec<u32>,
    /// Whether branch points look ahead ([`Branching::Lookahead`]).
    lookahead: bool,
    /// Preselected options: the node their commitment started from.
    held: Vec<u32>,
    /// Per item slot: the preselected option holding it, plus 1 (0: free).
    held_by: Vec<u32>,
    /// Items whose len fell to 1 or 0 ([`Branching::FirstForced`] only); a
    /// fixed capacity, so pushing never allocates.
    watch: Watch,
    /// Whether [`LinksSolver::preselect_all`] rebuilt the links: then the lists of
    /// covered items are not what undoing would expect, and `reset` copies
    /// the matrix instead of undoing.
    rebuilt: bool,
    /// Per item slot: the color a preselected option purified it to (0: none).
    purified: Vec<i32>,
    /// Options removed by lookahead, by first node, in order of removal.
    removed: Vec<u32>,
    /// `marks[l]`: the length of `removed` when level `l` was entered.
    marks: Vec<u32>,
    /// The options committed by the probe in progress (lookahead).
    probe_stack: Vec<u32>,
    /// Per option: the updates its latest probe made (lookahead).
    score: Vec<u32>,
}

/// The links kernel: DLX2's steps with `COLORS`, the first-forced choice
/// with `FORCED`, options of `UL` items walked by arithmetic (0: mixed).
struct Links<'m, const COLORS: bool, const FORCED: bool, const UL: usize>(
    std::marker::PhantomData<&'m ()>,
);

impl<'m, const COLORS: bool, const FORCED: bool, const UL: usize> Kernel
    for Links<'m, COLORS, FORCED, UL>
{
    type Tables = Matrix;
    type State = LinksState<'m>;
    const UNDOES: bool = true;

    fn start(_m: &Matrix, s: &mut LinksState<'m>) {
        s.watch.clear();
    }

    /// Picks and covers the branching item (after a lookahead, when on).
    #[inline(always)]
    fn enter(m: &Matrix, s: &mut LinksState<'m>, level: usize, stats: &mut Stats) -> Enter {
        if s.items[0].next == 0 {
            // Only at the root: nothing left to cover, the empty choice is
            // the one solution.
            return Enter::Solved;
        }
        let mut best = if FORCED {
            choose_watched(&s.nodes, &mut s.watch, m.primary_count())
        } else {
            choose(&s.nodes, &s.items)
        };
        s.marks[level] = s.removed.len() as u32;
        if !COLORS && s.lookahead && s.nodes[best].itm >= 2 {
            best = s.look_ahead::<UL>(stats);
        }
        let branch = s.nodes[best].itm >= 2;
        let first = m.first_spacer();
        let (nodes, items, colors, w) = (&mut s.nodes, &mut s.items, &s.colors, &mut s.watch);
        stats.updates += cover::<COLORS, FORCED, UL>(nodes, items, colors, w, best, first);
        s.item[level] = best as u32;
        let down = nodes[best].down;
        Enter::Item {
            first: (down as usize > first).then_some(down),
            branch,
        }
    }

    #[inline(always)]
    fn commit(m: &Matrix, s: &mut LinksState<'m>, _l: usize, p: u32, stats: &mut Stats) -> bool {
        let first = m.first_spacer();
        let (nodes, items, colors, w) = (&mut s.nodes, &mut s.items, &mut s.colors, &mut s.watch);
        stats.updates +=
            commit_others::<COLORS, FORCED, UL>(nodes, items, colors, w, p as usize, first);
        items[0].next == 0
    }

    #[inline(always)]
    fn retract(m: &Matrix, s: &mut LinksState<'m>, _l: usize, p: u32) -> Option<u32> {
        let first = m.first_spacer();
        let (nodes, items, colors) = (&mut s.nodes, &mut s.items, &mut s.colors);
        uncommit_others::<COLORS, UL>(nodes, items, colors, p as usize, first);
        let down = nodes[p as usize].down;
        (down as usize > first).then_some(down)
    }

    #[inline(always)]
    fn leave(m: &Matrix, s: &mut LinksState<'m>, level: usize) {
        let first = m.first_spacer();
        let c = s.item[level] as usize;
        uncover::<COLORS, UL>(&mut s.nodes, &mut s.items, &s.colors, c, first);
        s.restore_removed(s.marks[level] as usize);
    }

    fn unwind(m: &Matrix, s: &mut LinksState<'m>, level: usize, p: u32) {
        let first = m.first_spacer();
        let (nodes, items, colors) = (&mut s.nodes, &mut s.items, &mut s.colors);
        uncommit_others::<COLORS, 0>(nodes, items, colors, p as usize, first);
        let c = s.item[level] as usize;
        uncover::<COLORS, 0>(nodes, items, colors, c, first);
        s.restore_removed(s.marks[level] as usize);
    }
}

impl<'m> LinksSolver<'m> {
    /// A solver for `matrix`, ready to search. This allocates the solver's
    /// copy of the links; nothing after it does.
    pub fn new(matrix: &'m Matrix) -> Self {
        let depth = matrix.primary_count();
        LinksSolver {
            matrix,
            driver: Driver::new(depth, depth),
            links: LinksState {
                matrix,
                nodes: matrix.nodes.clone(),
                items: matrix.items.clone(),
                colors: matrix.colors.clone(),
                item: vec![0; depth + 1],
                lookahead: false,
                held: Vec::with_capacity(depth),
                held_by: vec![0; matrix.items.len()],
                watch: Watch::new(4 * matrix.item_count() + 64),
                rebuilt: false,
                purified: vec![0; matrix.items.len()],
                removed: Vec::with_capacity(matrix.option_count()),
                marks: vec![0; depth + 1],
                probe_stack: Vec::with_capacity(depth + 1),
                score: vec![0; matrix.option_count()],
            },
            branching: Branching::Knuth,
        }
    }

    /// The matrix this solver searches.
    pub fn matrix(&self) -> &'m Matrix {
        self.matrix
    }

    /// Chooses the branching rule (takes effect at the next node).
    pub fn set_branching(&mut self, branching: Branching) {
        self.branching = branching;
        self.links.lookahead = branching == Branching::Lookahead;
    }

    /// Undoes everything: the search in progress and all preselected options.
    /// Zeroes the counters. The solver is then as new.
    pub fn reset(&mut self) {
        if self.links.rebuilt {
            self.restore_from_matrix();
        } else {
            self.restart();
            while let Some(p) = self.links.held.pop() {
                self.unselect(p as usize);
            }
        }
        self.driver.reset();
    }

    /// Like [`reset`](Self::reset), but by copying the matrix's links back
    /// instead of undoing: O(size of the matrix) whatever was done. Cheaper
    /// than undoing when preselected options cover much of a small matrix
    /// (Sudoku givens).
    pub fn reset_by_copy(&mut self) {
        self.restore_from_matrix();
        self.driver.reset();
    }

    /// Abandons the search in progress (keeping preselected options), so the
    /// next query starts from the root.
    pub fn restart(&mut self) {
        let (m, s) = (self.matrix, &mut self.links);
        if m.has_colors() {
            self.driver.restart::<Links<'m, true, false, 0>>(m, s);
        } else {
            self.driver.restart::<Links<'m, false, false, 0>>(m, s);
        }
        s.watch.clear();
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        let forced = self.branching != Branching::Knuth;
        if self.matrix.has_colors() {
            return if forced {
                self.run::<true, true, 0>()
            } else {
                self.run::<true, false, 0>()
            };
        }
        // Options of one length are walked by arithmetic (see dance.rs); the
        // common lengths get their own copy of the loop.
        match (self.matrix.uniform_len(), forced) {
            (3, false) => self.run::<false, false, 3>(),
            (3, true) => self.run::<false, true, 3>(),
            (4, false) => self.run::<false, false, 4>(),
            (4, true) => self.run::<false, true, 4>(),
            (5, false) => self.run::<false, false, 5>(),
            (5, true) => self.run::<false, true, 5>(),
            (6, false) => self.run::<false, false, 6>(),
            (6, true) => self.run::<false, true, 6>(),
            (_, false) => self.run::<false, false, 0>(),
            (_, true) => self.run::<false, true, 0>(),
        }
    }

    /// The driver over the links kernel of one shape.
    fn run<const COLORS: bool, const FORCED: bool, const UL: usize>(&mut self) -> Step {
        self.driver
            .run::<Links<'m, COLORS, FORCED, UL>>(self.matrix, &mut self.links)
    }

    /// Verifies every link, as DLX1's `sanity()` does: each active item's list
    /// is doubly linked, its nodes name it, and its len is their number.
    /// For tests and debugging; O(size of the matrix).
    pub fn check_links(&self) -> Result<(), String> {
        let (nodes, items) = (&self.links.nodes, &self.links.items);
        let mut q = 0;
        let mut p = items[0].next as usize;
        let mut steps = 0;
        loop {
            if items[p].prev as usize != q {
                return Err(format!("bad prev field at item slot {p}"));
            }
            if p == 0 {
                break;
            }
            steps += 1;
            if steps > items.len() {
                return Err("item list does not close".into());
            }
            let (mut qq, mut pp, mut k) = (p, nodes[p].down as usize, 0);
            loop {
                if nodes[pp].up as usize != qq {
                    return Err(format!("bad up field at node {pp}"));
                }
                if pp == p {
                    break;
                }
                if nodes[pp].itm as usize != p {
                    return Err(format!("bad itm field at node {pp}"));
                }
                k += 1;
                if k > nodes.len() {
                    return Err(format!("list of item slot {p} does not close"));
                }
                qq = pp;
                pp = nodes[pp].down as usize;
            }
            if nodes[p].itm as usize != k {
                return Err(format!(
                    "bad len at item slot {p}: {} for {k} nodes",
                    nodes[p].itm
                ));
            }
            q = p;
            p = items[p].next as usize;
        }
        Ok(())
    }

    /// Whether every link is back where the matrix started (after a finished
    /// search, or a [`reset`](Self::reset)). For tests.
    pub fn is_pristine(&self) -> bool {
        let s = &self.links;
        s.nodes == self.matrix.nodes
            && s.items == self.matrix.items
            && s.colors == self.matrix.colors
    }
}

/// The step-by-step search every engine offers ([`LinksSolver`],
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
    /// The option a kernel's cursor names.
    fn cursor_option(&self, cur: u32) -> OptionId;
}

/// The queries every engine offers on top of its own `next_solution`,
/// `solution`, `restart`, `reset`, `preselect`, `stats` and `is_exhausted`
/// (same names and meanings for [`LinksSolver`], `DenseSolver` and `BitsSolver`):
/// `first_solution`, `count`, `count_up_to`, `solutions` and its lazy
/// iterator type, and the crate's [`Steps`] for the helpers over any engine.
macro_rules! engine_queries {
    // An engine's own solver: its driver is the field `driver`, and its
    // cursor `$c` names the option `$option`.
    ($solver:ident, $solutions:ident, |$s:ident, $c:ident| $option:expr) => {
        impl $solver<'_> {
            pub(crate) fn driver_ref(&self) -> &$crate::dlx::search::driver::Driver {
                &self.driver
            }

            pub(crate) fn driver_mut_ref(&mut self) -> &mut $crate::dlx::search::driver::Driver {
                &mut self.driver
            }

            /// The option a kernel's cursor names.
            pub(crate) fn cursor_option(&self, $c: u32) -> $crate::dlx::OptionId {
                let $s = self;
                $option
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

            /// Limits the search; applies to the current search from its start.
            pub fn set_budget(&mut self, budget: $crate::dlx::Budget) {
                self.driver_mut_ref().budget = budget;
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
                    .chain(chosen.map(|&c| self.cursor_option(c)))
            }

            /// The first solution, from a fresh search: `Ok(None)` when there
            /// is none, `Err(Step::Budget)` when the budget ran out first.
            pub fn first_solution(
                &mut self,
            ) -> Result<Option<Vec<$crate::dlx::OptionId>>, $crate::dlx::Step> {
                $crate::dlx::search::first_solution(self)
            }

            /// Counts all solutions of a fresh search (within the budget).
            pub fn count(&mut self) -> $crate::dlx::Count {
                self.count_up_to(u64::MAX)
            }

            /// Counts solutions of a fresh search, stopping at `limit`.
            pub fn count_up_to(&mut self, limit: u64) -> $crate::dlx::Count {
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
            /// they belong to their subtrees). The budget is ignored
            /// meanwhile and kept. Afterwards the solver is restarted, as
            /// after `restart`. See [`Split`]($crate::dlx::Split).
            ///
            /// ```
            /// use dlx::{knuth, LinksSolver, Split};
            ///
            /// // Two items with two options each: four solutions. Cut at depth 1,
            /// // two subtrees, one per option of `A` (the item chosen first).
            /// let m = knuth::read("A B\nA\nA\nB\nB\n".as_bytes()).unwrap();
            /// let mut s = LinksSolver::new(&m);
            /// let mut subtrees = 0;
            /// s.split(1, |piece| {
            ///     if let Split::Subtree(prefix) = piece {
            ///         assert_eq!(prefix.len(), 1);
            ///         subtrees += 1;
            ///     }
            /// });
            /// assert_eq!(subtrees, 2);
            /// ```
            pub fn split(
                &mut self,
                depth: usize,
                visit: impl FnMut($crate::dlx::Split<'_>),
            ) -> $crate::dlx::Stats {
                $crate::dlx::search::split::split(self, depth, visit)
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
            fn cursor_option(&self, cur: u32) -> $crate::dlx::OptionId {
                $solver::cursor_option(self, cur)
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

engine_queries!(LinksSolver, LinksSolutions, |s, p| s
    .matrix
    .option_of_node(p as usize));

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

/// [`LinksSolver::first_solution`], for any engine.
pub(crate) fn first_solution(s: &mut impl Steps) -> Result<Option<Vec<OptionId>>, Step> {
    s.restart();
    match s.next_solution() {
        Step::Solution => Ok(Some(s.solution_vec())),
        Step::Exhausted => Ok(None),
        Step::Budget => Err(Step::Budget),
    }
}

/// [`LinksSolver::count_up_to`], for any engine.
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

/// Test scenarios that every engine must pass the same way, against the
/// links engine: used by the unit tests of `dense.rs` and `bits.rs` (and run
/// under Miri with them).
#[cfg(test)]
pub(crate) mod engine_tests {
    use super::{first_solution, Budget, LinksSolver, PreselectError, Step, Steps};
    use crate::dlx::{knuth, verify_cover, ItemId, Matrix, MatrixBuilder, OptionId};
    use crate::problems;

    /// Small problems with their counts: queens and Langford pairs (uniform
    /// options), TAOCP 7.2.2.1's example (mixed lengths).
    pub(crate) fn small_problems() -> Vec<(Matrix, u64)> {
        let taocp = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
        vec![
            (problems::queens(1).unwrap(), 1),
            (problems::queens(4).unwrap(), 2),
            (problems::queens(6).unwrap(), 4),
            (problems::langford(3).unwrap(), 2),
            (problems::langford(4).unwrap(), 2),
            (knuth::read(taocp.as_bytes()).unwrap(), 1),
        ]
    }

    /// A matrix of `280 + 2·runs + 2` options over several words: item `a`
    /// (the first) has 2 options `2·runs + 281` apart, the four `x` items
    /// share options in a run with each other and the secondary item `s`,
    /// and 280 options of `s` alone are ignored (they fill the words).
    /// Returns it with `a` and the `x` items.
    pub(crate) fn wide(runs: usize) -> (Matrix, ItemId, Vec<ItemId>) {
        let mut b = MatrixBuilder::new();
        let a = b.primary("a").unwrap();
        let x: Vec<_> = (0..4)
            .map(|k| b.primary(&format!("x{k}")).unwrap())
            .collect();
        let s = b.secondary("s").unwrap();
        b.option(&[a, x[0]]).unwrap();
        for _ in 0..280 {
            b.option(&[s]).unwrap();
        }
        for k in 0..runs {
            b.option(&[x[k % 4], x[(k + 1) % 4], s]).unwrap();
            b.option(&[x[k % 4]]).unwrap();
        }
        b.option(&[a]).unwrap();
        (b.build().unwrap(), a, x)
    }

    /// Every solution of `s` (a fresh engine over `m`) and of the links
    /// engine with Knuth's rule: the same solutions in the same order, the
    /// same nodes and updates. Returns the count.
    pub(crate) fn agree_with_links(m: &Matrix, s: &mut impl Steps) -> u64 {
        let mut links = LinksSolver::new(m);
        let mut n = 0;
        loop {
            let (x, y) = (s.next_solution(), links.next_solution());
            assert_eq!(x, y);
            if x != Step::Solution {
                break;
            }
            let sol = s.solution_vec();
            assert_eq!(sol, links.solution().collect::<Vec<_>>());
            verify_cover(m, &sol).unwrap();
            n += 1;
        }
        assert_eq!(s.stats(), links.stats());
        n
    }

    /// Every solution of `s` (a fresh engine over `m`, searching a tree of
    /// its own) against the links engine's: each one valid, the same set.
    /// Returns the count.
    pub(crate) fn same_solutions_as_links(m: &Matrix, s: &mut impl Steps) -> u64 {
        let sorted = |mut v: Vec<OptionId>| {
            v.sort();
            v
        };
        let mut mine = Vec::new();
        while s.next_solution() == Step::Solution {
            let sol = s.solution_vec();
            verify_cover(m, &sol).unwrap();
            mine.push(sorted(sol));
        }
        assert!(s.is_exhausted());
        let mut links = LinksSolver::new(m);
        let mut theirs: Vec<_> = links.solutions().map(sorted).collect();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs);
        mine.len() as u64
    }

    /// On queens 6 (`m`, 4 solutions) with `s` a fresh engine over it:
    /// preselecting (a conflict names the option it clashes with, an
    /// unknown option is refused), counting what is left, and a search
    /// paused every 3 nodes by its budget giving the same solutions as
    /// without pauses. With `same_tree`, the counters must be the links
    /// engine's too.
    pub(crate) fn preselect_budget_and_reset(m: &Matrix, s: &mut impl Steps, same_tree: bool) {
        assert_eq!(m.primary_count(), 12, "queens 6");
        // Queen at row 0, column 1: one of the 4 solutions.
        let first = OptionId::must(1);
        s.preselect(first).unwrap();
        assert!(matches!(
            s.preselect(OptionId::must(2)),
            Err(PreselectError::Conflict { with, .. }) if with == first
        ));
        assert_eq!(
            s.preselect(OptionId::must(10_000)),
            Err(PreselectError::UnknownOption(OptionId::must(10_000)))
        );
        let mut links = LinksSolver::new(m);
        links.preselect(first).unwrap();
        assert_eq!(super::count_up_to(s, u64::MAX), links.count_up_to(u64::MAX));
        if same_tree {
            assert_eq!(s.stats(), links.stats());
        }
        s.reset();
        let mut all = Vec::new();
        s.restart();
        while s.next_solution() == Step::Solution {
            all.push(s.solution_vec());
        }
        assert_eq!(all.len(), 4);
        s.reset();
        let mut paused = Vec::new();
        let mut budget = 3;
        loop {
            s.set_budget(Budget {
                nodes: Some(budget),
                updates: None,
            });
            match s.next_solution() {
                Step::Solution => paused.push(s.solution_vec()),
                Step::Budget => budget += 3,
                Step::Exhausted => break,
            }
        }
        assert_eq!(paused, all);
        assert!(s.is_exhausted());
        s.set_budget(Budget::default());
        assert_eq!(first_solution(s), Ok(Some(all[0].clone())));
    }
}

#[cfg(test)]
mod tests {
    //! Small searches over every path of the dancing (uncolored, colored,
    //! preselect, budget stop and reset). Quick enough to run under Miri,
    //! which checks the unchecked indexing of `dance.rs`.
    use crate::dlx::{knuth, verify_cover, Branching, Budget, LinksSolver, OptionId, Step};

    fn solve_all(text: &str, branching: Branching) -> (u64, bool) {
        let m = knuth::read(text.as_bytes()).unwrap();
        let mut s = LinksSolver::new(&m);
        s.set_branching(branching);
        let mut n = 0;
        for sol in s.solutions() {
            verify_cover(&m, &sol).unwrap();
            n += 1;
        }
        s.check_links().unwrap();
        (n, s.is_pristine())
    }

    /// Queens on 5×5 in Knuth's format: rows and columns primary,
    /// diagonals secondary; 10 solutions.
    fn queens5() -> String {
        let mut t = String::from("r0 r1 r2 r3 r4 c0 c1 c2 c3 c4 |");
        for d in 0..9 {
            t += &format!(" a{d} b{d}");
        }
        t += "\n";
        for i in 0..5 {
            for j in 0..5 {
                t += &format!("r{i} c{j} a{} b{}\n", i + j, i + 4 - j);
            }
        }
        t
    }

    #[test]
    fn small_searches_restore_every_link() {
        let queens5 = queens5();
        for branching in [
            Branching::Knuth,
            Branching::FirstForced,
            Branching::Lookahead,
        ] {
            assert_eq!(
                solve_all(
                    "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n",
                    branching
                ),
                (1, true)
            );
            assert_eq!(solve_all(&queens5, branching), (10, true));
            assert_eq!(
                solve_all(
                    "A B C | x y\nA x:1 y:2\nB x:1 y:2\nB x:1 y:3\nB y:2\nC x\nC\n",
                    branching
                ),
                (2, true)
            );
        }
    }

    #[test]
    fn stops_preselects_and_resets_restore_every_link() {
        let text = "A B C | x\nA x:red\nB x:red\nC x:blue\nC\nA B\nB C\n";
        let m = knuth::read(text.as_bytes()).unwrap();
        let mut s = LinksSolver::new(&m);
        s.preselect(OptionId::must(0)).unwrap();
        s.preselect(OptionId::must(1)).unwrap();
        assert!(s.preselect(OptionId::must(2)).is_err());
        assert_eq!(s.next_solution(), Step::Solution);
        s.check_links().unwrap();
        s.reset();
        assert!(s.is_pristine());
        s.set_budget(Budget {
            nodes: Some(1),
            updates: None,
        });
        assert_eq!(s.next_solution(), Step::Budget);
        s.reset();
        assert!(s.is_pristine());
    }

    #[test]
    fn lookahead_removes_dead_options_and_restores_them() {
        // After the forced `D`, every pair (`A B`, `A C`, `B C`) leaves the
        // third item with no option. The probes of `A B` and `A C` fail and
        // they are removed; then `A` has only `A B C` left, so `B C`, which
        // clashes with it, is removed too, and the search takes `A B C` as a
        // forced node.
        let text = "A B C D\nA B\nA C\nB C\nA B C\nD\n";
        let m = knuth::read(text.as_bytes()).unwrap();
        let mut s = LinksSolver::new(&m);
        s.set_branching(Branching::Lookahead);
        let mut n = 0;
        for sol in s.solutions() {
            verify_cover(&m, &sol).unwrap();
            n += 1;
        }
        assert_eq!(n, 1);
        assert_eq!(s.stats().pruned, 3);
        assert_eq!(s.stats().nodes, 3);
        s.check_links().unwrap();
        assert!(s.is_pristine());
    }

    #[test]
    fn forced_choice_passes_over_covered_items() {
        // Preselecting `A B` covers `A`, whose len stays 1 (its one option):
        // the forced scan must pass over it by its covered mark and take `C`,
        // by either way of preselecting (undo or rebuild of the links).
        let text = "A B C D\nA B\nC\nD B\nD\n";
        let m = knuth::read(text.as_bytes()).unwrap();
        for branching in [Branching::FirstForced, Branching::Lookahead] {
            for rebuild in [false, true] {
                let mut s = LinksSolver::new(&m);
                s.set_branching(branching);
                if rebuild {
                    s.preselect_all(&[OptionId::must(0)]).unwrap();
                } else {
                    s.preselect(OptionId::must(0)).unwrap();
                }
                let all: Vec<_> = s.solutions().collect();
                assert_eq!(all.len(), 1);
                verify_cover(&m, &all[0]).unwrap();
                s.check_links().unwrap();
                s.reset();
                assert!(s.is_pristine());
            }
        }
    }

    #[test]
    fn split_pieces_add_up_and_leave_the_links_alone() {
        // Queens 5 cut at depth 2: subtrees searched after preselecting
        // their prefixes, plus solutions above, give the whole count.
        let m = knuth::read(queens5().as_bytes()).unwrap();
        let mut prefixes = Vec::new();
        let mut s = LinksSolver::new(&m);
        let above = s.split(2, |piece| {
            if let crate::dlx::Split::Subtree(p) = piece {
                prefixes.push(p.to_vec());
            }
        });
        assert!(s.is_pristine());
        let mut total = above;
        let mut sub = LinksSolver::new(&m);
        for p in &prefixes {
            sub.reset();
            for &o in p {
                sub.preselect(o).unwrap();
            }
            let before = sub.stats();
            sub.count();
            total += sub.stats() - before;
        }
        sub.reset();
        assert!(sub.is_pristine());
        let mut whole = LinksSolver::new(&m);
        assert_eq!(whole.count().solutions, 10);
        assert_eq!(total, whole.stats());
    }
}
