//! Algorithm X (DLX1) and Algorithm C (DLX2, with colors) as an explicit,
//! resumable state machine.
//!
//! A [`Solver`] is the search's scratch state for one [`Matrix`]: its own copy
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
//! one invariant is what lets [`Solver::next_solution`] resume, a budget stop
//! resume, and [`Solver::reset`] unwind from anywhere.
//!
//! A preselected option (see [`Solver::preselect`]) is committed before the
//! search at a level of its own below level 0; solutions list preselected
//! options first.

use super::dance::{choose, choose_watched, commit_others, cover, uncommit_others, uncover, Watch};
use super::index::OptionId;
use super::matrix::{Link, Matrix, Node};
use super::stats::Stats;
use std::fmt;

pub(crate) mod driver;
mod lookahead;
mod preselect;
mod split;

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

/// What [`Solver::next_solution`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A solution; read it with [`Solver::solution`].
    Solution,
    /// The search is over: every solution has been reported.
    Exhausted,
    /// The budget ran out. Nothing is known about the rest of the tree; the
    /// search can resume after [`Solver::set_budget`] raises the limit.
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// About to enter a node at `level`.
    Forward,
    /// Just reported a solution (or stopped): back down from `level`.
    Backdown,
    /// The tree is exhausted and every level unwound.
    Done,
}

/// The search state for one matrix: its own copy of the links, the level
/// stack and the counters. The [`Matrix`] stays untouched, so any number of
/// solvers (one per thread) can share it; after `Solver::new` nothing is
/// allocated. The search is DLX1's loop, paused between solutions (or at a
/// budget) with levels `0..level` entered, which is what lets it resume and
/// lets [`reset`](Self::reset) unwind from anywhere.
#[derive(Clone, Debug)]
pub struct Solver<'m> {
    matrix: &'m Matrix,
    nodes: Vec<Node>,
    items: Vec<Link>,
    colors: Vec<i32>,
    /// `choice[l]` is the node of the option committed at level `l`.
    choice: Vec<u32>,
    level: usize,
    phase: Phase,
    /// Preselected options: the node their commitment started from.
    preselected: Vec<u32>,
    /// Per item slot: the preselected option holding it, plus 1 (0: free).
    held_by: Vec<u32>,
    stats: Stats,
    /// Stats when the current search started, for the budget.
    base: Stats,
    budget: Budget,
    branching: Branching,
    profile: Option<Vec<u64>>,
    /// Items whose len fell to 1 or 0 ([`Branching::FirstForced`] only); a
    /// fixed capacity, so pushing never allocates.
    watch: Watch,
    /// Whether [`Solver::preselect_all`] rebuilt the links: then the lists of
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
    /// The number of branch points above which [`Solver::split`] cuts the
    /// tree (`usize::MAX`: none), and whether the last pause was at the cut.
    cut: usize,
    at_cut: bool,
    /// With a cut: `branches[l]`, the levels above `l` whose item had two
    /// options or more (forced levels do not count).
    branches: Vec<u32>,
}

impl<'m> Solver<'m> {
    /// A solver for `matrix`, ready to search. This allocates the solver's
    /// copy of the links; nothing after it does.
    pub fn new(matrix: &'m Matrix) -> Self {
        Solver {
            matrix,
            nodes: matrix.nodes.clone(),
            items: matrix.items.clone(),
            colors: matrix.colors.clone(),
            choice: vec![0; matrix.primary_count() + 1],
            level: 0,
            phase: Phase::Forward,
            preselected: Vec::with_capacity(matrix.primary_count()),
            held_by: vec![0; matrix.items.len()],
            stats: Stats::default(),
            base: Stats::default(),
            budget: Budget::default(),
            branching: Branching::Knuth,
            profile: None,
            watch: Watch::new(4 * matrix.item_count() + 64),
            rebuilt: false,
            purified: vec![0; matrix.items.len()],
            removed: Vec::with_capacity(matrix.option_count()),
            marks: vec![0; matrix.primary_count() + 1],
            probe_stack: Vec::with_capacity(matrix.primary_count() + 1),
            score: vec![0; matrix.option_count()],
            cut: usize::MAX,
            at_cut: false,
            branches: vec![0; matrix.primary_count() + 2],
        }
    }

    /// The matrix this solver searches.
    pub fn matrix(&self) -> &'m Matrix {
        self.matrix
    }

    /// The counters since the solver was made or last [`reset`](Self::reset).
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Limits the search; applies to the current search from its start.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Chooses the branching rule (takes effect at the next node).
    pub fn set_branching(&mut self, branching: Branching) {
        self.branching = branching;
    }

    /// Turns on counting nodes per level (DLX1's profile).
    pub fn enable_profile(&mut self) {
        self.profile = Some(vec![0; self.matrix.primary_count() + 2]);
    }

    /// Nodes entered at each level, if [`enable_profile`](Self::enable_profile) was called.
    pub fn profile(&self) -> Option<&[u64]> {
        levels_reached(self.profile.as_deref())
    }

    /// Whether the current search has been exhausted.
    pub fn is_exhausted(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Undoes everything: the search in progress and all preselected options.
    /// Zeroes the counters. The solver is then as new.
    pub fn reset(&mut self) {
        if self.rebuilt {
            self.restore_from_matrix();
        } else {
            self.restart();
            while let Some(p) = self.preselected.pop() {
                self.unselect(p as usize);
            }
        }
        self.stats = Stats::default();
        self.base = Stats::default();
        if let Some(p) = &mut self.profile {
            p.fill(0);
        }
    }

    /// Like [`reset`](Self::reset), but by copying the matrix's links back
    /// instead of undoing: O(size of the matrix) whatever was done. Cheaper
    /// than undoing when preselected options cover much of a small matrix
    /// (Sudoku givens).
    pub fn reset_by_copy(&mut self) {
        self.restore_from_matrix();
        self.stats = Stats::default();
        self.base = Stats::default();
        if let Some(p) = &mut self.profile {
            p.fill(0);
        }
    }

    /// Abandons the search in progress (keeping preselected options), so the
    /// next query starts from the root.
    pub fn restart(&mut self) {
        if self.matrix.has_colors() {
            self.unwind::<true>();
        } else {
            self.unwind::<false>();
        }
        self.phase = Phase::Forward;
        self.base = self.stats;
        self.watch.clear();
    }

    fn unwind<const COLORS: bool>(&mut self) {
        let first = self.matrix.first_spacer();
        while self.level > 0 {
            self.level -= 1;
            let p = self.choice[self.level] as usize;
            let (nodes, items, colors) = (&mut self.nodes, &mut self.items, &mut self.colors);
            uncommit_others::<COLORS, 0>(nodes, items, colors, p, first);
            let c = nodes[p].itm as usize;
            uncover::<COLORS, 0>(nodes, items, colors, c, first);
            self.restore_removed(self.marks[self.level] as usize);
        }
    }

    /// The solution just reported by [`next_solution`](Self::next_solution):
    /// preselected options first, then the options chosen by the search.
    pub fn solution(&self) -> impl Iterator<Item = OptionId> + '_ {
        let chosen = if self.phase == Phase::Backdown {
            self.level
        } else {
            0
        };
        self.preselected
            .iter()
            .chain(&self.choice[..chosen])
            .map(|&p| self.matrix.option_of_node(p as usize))
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        self.at_cut = false;
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

    fn over_budget(&self) -> bool {
        self.budget.spent(&self.stats, &self.base)
    }

    /// DLX1's main loop (DLX2's with `COLORS`), from the paused state.
    fn run<const COLORS: bool, const FORCED: bool, const UL: usize>(&mut self) -> Step {
        let first = self.matrix.first_spacer();
        // Budgets and the cut of `split` are checked on entering a node.
        let check_budget = self.budget != Budget::default() || self.cut != usize::MAX;
        // `cur` is the node being tried at `level`; `cur <= first` means the
        // options of the branching item are used up.
        let mut cur;
        match self.phase {
            Phase::Done => return Step::Exhausted,
            Phase::Backdown => match self.back_down::<COLORS, UL>() {
                Some(next) => cur = next,
                None => return Step::Exhausted,
            },
            Phase::Forward => match self.forward::<COLORS, FORCED, UL>(check_budget) {
                Ok(next) => cur = next,
                Err(step) => return step,
            },
        }
        loop {
            // advance
            if cur < first {
                // The branching item (cur itself) has no option left.
                let (nodes, items, colors) = (&mut self.nodes, &mut self.items, &self.colors);
                uncover::<COLORS, UL>(nodes, items, colors, cur, first);
                self.restore_removed(self.marks[self.level] as usize);
                match self.back_down::<COLORS, UL>() {
                    Some(next) => cur = next,
                    None => return Step::Exhausted,
                }
                continue;
            }
            self.choice[self.level] = cur as u32;
            let (nodes, items, colors, w) = (
                &mut self.nodes,
                &mut self.items,
                &mut self.colors,
                &mut self.watch,
            );
            self.stats.updates +=
                commit_others::<COLORS, FORCED, UL>(nodes, items, colors, w, cur, first);
            self.level += 1;
            if items[0].next == 0 {
                self.stats.nodes += 1;
                self.stats.solutions += 1;
                if let Some(p) = &mut self.profile {
                    p[self.level] += 1;
                }
                self.phase = Phase::Backdown;
                return Step::Solution;
            }
            match self.forward::<COLORS, FORCED, UL>(check_budget) {
                Ok(next) => cur = next,
                Err(step) => return step,
            }
        }
    }

    /// Enters a node: picks and covers the branching item, returns its first
    /// option node (or the item itself when it has none).
    #[inline]
    fn forward<const COLORS: bool, const FORCED: bool, const UL: usize>(
        &mut self,
        check_budget: bool,
    ) -> Result<usize, Step> {
        if check_budget {
            if self.branches[self.level] as usize == self.cut {
                // Paused as at a solution, levels 0..cut committed: the
                // node is left to whoever takes this subtree.
                self.at_cut = true;
                self.phase = Phase::Backdown;
                return Err(Step::Solution);
            }
            if self.over_budget() {
                self.phase = Phase::Forward;
                return Err(Step::Budget);
            }
        }
        self.stats.nodes += 1;
        if let Some(p) = &mut self.profile {
            p[self.level] += 1;
        }
        if self.items[0].next == 0 {
            // Only at the root: nothing left to cover, the empty choice is
            // the one solution.
            self.stats.solutions += 1;
            self.phase = Phase::Backdown;
            return Err(Step::Solution);
        }
        let mut best = if FORCED {
            choose_watched(&self.nodes, &mut self.watch, self.matrix.primary_count())
        } else {
            choose(&self.nodes, &self.items)
        };
        self.marks[self.level] = self.removed.len() as u32;
        if !COLORS && self.branching == Branching::Lookahead && self.nodes[best].itm >= 2 {
            best = self.look_ahead::<UL>();
        }
        if check_budget {
            let branch = u32::from(self.nodes[best].itm >= 2);
            self.branches[self.level + 1] = self.branches[self.level] + branch;
        }
        let first = self.matrix.first_spacer();
        let (nodes, items, colors, w) = (
            &mut self.nodes,
            &mut self.items,
            &self.colors,
            &mut self.watch,
        );
        self.stats.updates += cover::<COLORS, FORCED, UL>(nodes, items, colors, w, best, first);
        Ok(nodes[best].down as usize)
    }

    /// Leaves the current level's option and moves to the next option of the
    /// level's branching item; `None` when level 0 is finished.
    #[inline]
    fn back_down<const COLORS: bool, const UL: usize>(&mut self) -> Option<usize> {
        if self.level == 0 {
            self.phase = Phase::Done;
            return None;
        }
        self.level -= 1;
        let first = self.matrix.first_spacer();
        let p = self.choice[self.level] as usize;
        let (nodes, items, colors) = (&mut self.nodes, &mut self.items, &mut self.colors);
        uncommit_others::<COLORS, UL>(nodes, items, colors, p, first);
        Some(nodes[p].down as usize)
    }

    /// Verifies every link, as DLX1's `sanity()` does: each active item's list
    /// is doubly linked, its nodes name it, and its len is their number.
    /// For tests and debugging; O(size of the matrix).
    pub fn check_links(&self) -> Result<(), String> {
        let (nodes, items) = (&self.nodes, &self.items);
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
        self.nodes == self.matrix.nodes
            && self.items == self.matrix.items
            && self.colors == self.matrix.colors
    }
}

/// The step-by-step search every engine offers ([`Solver`],
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
}

/// The queries every engine offers on top of its own `next_solution`,
/// `solution`, `restart`, `reset`, `preselect`, `stats` and `is_exhausted`
/// (same names and meanings for [`Solver`], `DenseSolver` and `BitsSolver`):
/// `first_solution`, `count`, `count_up_to`, `solutions` and its lazy
/// iterator type, and the crate's [`Steps`] for the helpers over any engine.
macro_rules! engine_queries {
    ($solver:ident, $solutions:ident) => {
        impl<'m> $solver<'m> {
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

engine_queries!(Solver, Solutions);

/// A profile (nodes per level) up to the deepest level reached.
pub(crate) fn levels_reached(profile: Option<&[u64]>) -> Option<&[u64]> {
    profile.map(|p| &p[..p.iter().rposition(|&n| n != 0).map_or(0, |i| i + 1)])
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

/// [`Solver::first_solution`], for any engine.
pub(crate) fn first_solution(s: &mut impl Steps) -> Result<Option<Vec<OptionId>>, Step> {
    s.restart();
    match s.next_solution() {
        Step::Solution => Ok(Some(s.solution_vec())),
        Step::Exhausted => Ok(None),
        Step::Budget => Err(Step::Budget),
    }
}

/// [`Solver::count_up_to`], for any engine.
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
    use super::{first_solution, Budget, PreselectError, Solver, Step, Steps};
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
        let mut links = Solver::new(m);
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
        let mut links = Solver::new(m);
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
        let mut links = Solver::new(m);
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
    use crate::dlx::{knuth, verify_cover, Branching, Budget, OptionId, Solver, Step};

    fn solve_all(text: &str, branching: Branching) -> (u64, bool) {
        let m = knuth::read(text.as_bytes()).unwrap();
        let mut s = Solver::new(&m);
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
        let mut s = Solver::new(&m);
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
        let mut s = Solver::new(&m);
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
                let mut s = Solver::new(&m);
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
        let mut s = Solver::new(&m);
        let above = s.split(2, |piece| {
            if let crate::dlx::Split::Subtree(p) = piece {
                prefixes.push(p.to_vec());
            }
        });
        assert!(s.is_pristine());
        let mut total = above;
        let mut sub = Solver::new(&m);
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
        let mut whole = Solver::new(&m);
        assert_eq!(whole.count().solutions, 10);
        assert_eq!(total, whole.stats());
    }
}
