//! The links engine: Algorithm X (DLX1) and Algorithm C (DLX2, with colors)
//! on Knuth's doubly linked lists, as a kernel of the one search driver.
//!
//! The files: this one holds the solver and its kernel; `dance.rs` the
//! dancing itself (cover, uncover, hide, unhide, purify, commit) and the
//! choice of item; `mult.rs` Algorithm M (DLX3's multiplicities), a kernel
//! of its own over the same links, taken when the matrix has bounds;
//! `preselect.rs` options committed before the search; `subtree.rs` the
//! subtrees of a split (with multiplicities: options excluded, items
//! retired); `lookahead.rs` the
//! probing branch rule ([`Branching::Lookahead`]); `propagate.rs` a
//! [`Propagator`](crate::dlx::Propagator) and the search's
//! [`Strategy`](crate::dlx::Strategy), first-forced.
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

#![allow(unsafe_code)]

use super::engine::{EngineError, Shared};
use super::matrix::{Link, Matrix, Node};
use super::search::driver::{Driver, Enter, Kernel};
use super::search::mult::PerLevel;
use super::search::{engine_queries, Branching, Limits, Step};
use super::stats::Stats;
use dance::{choose, choose_watched, commit_others, cover, uncommit_others, uncover, Watch};

pub(crate) mod dance;
mod lookahead;
mod mult;
mod preselect;
mod propagate;
mod subtree;

/// The search state for one matrix: the search driver (`driver.rs`) beside
/// the links engine's own copy of the links. The [`Matrix`] stays
/// untouched, so any number of solvers (one per thread) can share it; after
/// `LinksSolver::new` nothing is allocated. The search is DLX1's loop (the
/// crate's one driver), paused between solutions (or at a budget) with
/// levels `0..level` entered, which is what lets it resume and lets
/// [`reset`](Self::reset) unwind from anywhere.
#[derive(Clone, Debug)]
pub struct LinksSolver<'m> {
    matrix: Shared<'m, Matrix>,
    driver: Driver,
    links: LinksState<'m>,
    branching: Branching,
}

/// The links kernel's scratch state: the solver's own copy of the links
/// and what the rules and preselection keep beside them.
#[derive(Clone, Debug)]
pub(crate) struct LinksState<'m> {
    matrix: Shared<'m, Matrix>,
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
    /// Per item slot, DLX3's bound (how many more options may use a
    /// primary item) and slack (upper minus lower bound): Algorithm M's
    /// state, empty when the matrix has no multiplicities (`mult.rs`).
    bounds: Vec<mult::Bound>,
    /// Per level: the first option tweaked there (Algorithm M).
    first_tweak: Vec<u32>,
    /// Per level, the rest of Algorithm M's bookkeeping (`search/mult.rs`).
    mult: PerLevel,
    /// Per option: whether [`LinksSolver::preselect_subtree`] took it out
    /// of the search (empty until an option is).
    excluded: Vec<bool>,
    /// The propagator and the strategy of a search that runs one
    /// (first-forced, no colors, no multiplicities: `propagate.rs`).
    prop: Option<Box<propagate::Propagation>>,
    /// The deadline and cancel handle of the run, when it looks ahead and
    /// has one: a node's probes look at them (`lookahead.rs`).
    stop: Option<Limits>,
}

/// The links engine's kernel table (see
/// [`kernel_table!`](crate::dlx::search::driver::kernel_table)): the key is
/// `(bounds, colors, forced, uniform option length)`. Algorithm M and
/// colors get a copy each for Knuth's rule and first-forced; options of
/// one length are walked by arithmetic (`dance.rs`), the common lengths
/// with a copy of their own.
macro_rules! links_kernels {
    ($($how:tt)*) => {
        $crate::dlx::search::driver::kernel_table! { $($how)*
            (true, true, true, _) => mult::Mult<'_, true, true>,
            (true, true, false, _) => mult::Mult<'_, true, false>,
            (true, false, true, _) => mult::Mult<'_, false, true>,
            (true, false, false, _) => mult::Mult<'_, false, false>,
            (false, true, true, _) => Links<'_, true, true, 0>,
            (false, true, false, _) => Links<'_, true, false, 0>,
            (false, false, false, 3) => Links<'_, false, false, 3>,
            (false, false, true, 3) => Links<'_, false, true, 3>,
            (false, false, false, 4) => Links<'_, false, false, 4>,
            (false, false, true, 4) => Links<'_, false, true, 4>,
            (false, false, false, 5) => Links<'_, false, false, 5>,
            (false, false, true, 5) => Links<'_, false, true, 5>,
            (false, false, false, 6) => Links<'_, false, false, 6>,
            (false, false, true, 6) => Links<'_, false, true, 6>,
            (false, false, false, _) => Links<'_, false, false, 0>,
            (false, false, true, _) => Links<'_, false, true, 0>,
        }
    };
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

    const AGAINS: bool = FORCED && !COLORS;

    unsafe fn start(_m: &Matrix, s: &mut LinksState<'m>) {
        s.watch.clear();
        if let Some(p) = s.prop.as_deref_mut() {
            p.restart();
        }
    }

    fn limits(s: &mut LinksState<'m>, limits: &Limits) {
        let watched = limits.deadline.is_some() || limits.cancel.is_some();
        s.stop = (!COLORS && s.lookahead && watched).then(|| limits.clone());
    }

    /// Picks and covers the branching item (after a lookahead, when on;
    /// after the propagator, where one is set: `propagate.rs`).
    #[inline(always)]
    unsafe fn enter(m: &Matrix, s: &mut LinksState<'m>, level: usize, stats: &mut Stats) -> Enter {
        if FORCED && !COLORS && s.prop.is_some() {
            return s.enter_propagating::<UL>(m, level, stats);
        }
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
        let len = s.nodes[best].itm;
        let branch = len >= 2;
        let first = m.first_spacer();
        let (nodes, items, colors, w) = (&mut s.nodes, &mut s.items, &s.colors, &mut s.watch);
        stats.updates += cover::<COLORS, FORCED, UL>(nodes, items, colors, w, best, first);
        s.item[level] = best as u32;
        let down = nodes[best].down;
        Enter::Item {
            first: (down as usize > first).then_some(down),
            branch,
            len: len as u32,
        }
    }

    #[inline(always)]
    unsafe fn commit(
        m: &Matrix,
        s: &mut LinksState<'m>,
        _l: usize,
        p: u32,
        stats: &mut Stats,
    ) -> bool {
        let first = m.first_spacer();
        let (nodes, items, colors, w) = (&mut s.nodes, &mut s.items, &mut s.colors, &mut s.watch);
        stats.updates +=
            commit_others::<COLORS, FORCED, UL>(nodes, items, colors, w, p as usize, first);
        let solved = items[0].next == 0;
        if FORCED && !COLORS && s.prop.is_some() {
            return s.committed(m, p, solved, stats);
        }
        solved
    }

    #[inline(always)]
    unsafe fn retract(m: &Matrix, s: &mut LinksState<'m>, l: usize, p: u32) -> Option<u32> {
        Self::retract_or_again(m, s, l, p, false)
    }

    #[inline(always)]
    unsafe fn retract_or_again(
        m: &Matrix,
        s: &mut LinksState<'m>,
        l: usize,
        p: u32,
        again: bool,
    ) -> Option<u32> {
        let first = m.first_spacer();
        let (nodes, items, colors) = (&mut s.nodes, &mut s.items, &mut s.colors);
        uncommit_others::<COLORS, UL>(nodes, items, colors, p as usize, first);
        if FORCED && !COLORS && s.prop.is_some() {
            return s.next_propagating::<UL>(m, l, p, again);
        }
        let down = nodes[p as usize].down;
        (down as usize > first).then_some(down)
    }

    /// Uncovers the level's item (none where a propagator found the node
    /// dead before one was chosen: item 0) and restores the options
    /// removed there.
    #[inline(always)]
    unsafe fn leave(m: &Matrix, s: &mut LinksState<'m>, level: usize) {
        let first = m.first_spacer();
        let c = s.item[level] as usize;
        // (Only a kernel that may propagate leaves item 0: the others keep
        // their loop as it was, 4% quicker on queens 13 by Knuth's rule.)
        if !FORCED || COLORS || c != 0 {
            uncover::<COLORS, UL>(&mut s.nodes, &mut s.items, &s.colors, c, first);
        }
        s.restore_removed(s.marks[level] as usize);
    }

    unsafe fn unwind(m: &Matrix, s: &mut LinksState<'m>, level: usize, p: u32) {
        let first = m.first_spacer();
        let (nodes, items, colors) = (&mut s.nodes, &mut s.items, &mut s.colors);
        uncommit_others::<COLORS, 0>(nodes, items, colors, p as usize, first);
        let c = s.item[level] as usize;
        if c != 0 {
            uncover::<COLORS, 0>(nodes, items, colors, c, first);
        }
        s.restore_removed(s.marks[level] as usize);
    }
}

impl<'m> LinksSolver<'m> {
    /// A solver for `matrix`, ready to search. This allocates the solver's
    /// copy of the links; nothing after it does.
    pub fn new(matrix: &'m Matrix) -> Self {
        LinksSolver::shared(Shared::Borrowed(matrix))
    }

    /// [`new`](Self::new), the matrix borrowed or shared.
    pub(crate) fn shared(shared: Shared<'m, Matrix>) -> Self {
        let matrix: &Matrix = &shared;
        let bounded = matrix.has_bounds();
        // With multiplicities a level takes an option or ends an item (the
        // null move): at most one level per option and per primary item.
        let depth = if bounded {
            matrix.option_count() + matrix.primary_count()
        } else {
            matrix.primary_count()
        };
        let bounds = if bounded {
            mult::initial_bounds(matrix)
        } else {
            Vec::new()
        };
        let driver = Driver::new(depth, matrix.primary_count());
        LinksSolver {
            matrix: shared.clone(),
            driver,
            links: LinksState {
                matrix: shared.clone(),
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
                bounds,
                first_tweak: if bounded {
                    vec![0; depth + 1]
                } else {
                    Vec::new()
                },
                mult: PerLevel::new(depth + 1, bounded),
                excluded: Vec::new(),
                prop: None,
                stop: None,
            },
            branching: Branching::Knuth,
        }
    }

    /// The matrix this solver searches.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The branching rule.
    pub fn branching(&self) -> Branching {
        self.branching
    }

    /// Chooses the branching rule (takes effect at the next node). With
    /// multiplicities (Algorithm M) the rule is DLX3's least branching
    /// degree, and first-forced takes the first item of degree 1 or less;
    /// lookahead does not take them and is refused, changing nothing, as
    /// [`Solver::set_branching`](crate::dlx::Solver::set_branching) refuses
    /// it.
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        if branching == Branching::Lookahead && self.matrix.has_bounds() {
            return Err(EngineError::matrix(
                crate::dlx::EngineKind::Links,
                "lookahead does not take multiplicities (DLX3's u:v|); knuth and first-forced do",
            ));
        }
        if self.links.prop.is_some() && branching != Branching::FirstForced {
            return Err(EngineError::propagation(
                crate::dlx::EngineKind::Links,
                branching,
            ));
        }
        self.branching = branching;
        self.links.lookahead = branching == Branching::Lookahead;
        Ok(())
    }

    /// Runs `propagator` at the nodes where nothing is forced, from the
    /// next search on, branching as `strategy` says (`None`: none); see
    /// [`Propagator`](crate::dlx::Propagator) for its contract. Searching
    /// first-forced, on a matrix without colors or multiplicities; false,
    /// and nothing changed, elsewhere.
    pub fn set_propagator(
        &mut self,
        propagator: Option<std::sync::Arc<dyn crate::dlx::Propagator>>,
        strategy: crate::dlx::Strategy,
    ) -> bool {
        let Some(propagator) = propagator else {
            self.restart();
            self.links.prop = None;
            return true;
        };
        let m = self.matrix.clone();
        if m.has_colors() || m.has_bounds() || self.branching != Branching::FirstForced {
            return false;
        }
        self.restart();
        let depth = self.links.marks.len();
        self.links.prop = Some(Box::new(propagate::Propagation::new(
            &m, depth, propagator, strategy,
        )));
        true
    }

    /// Undoes everything: the search in progress and all preselected options.
    /// Zeroes the counters. The solver is then as new.
    pub fn reset(&mut self) {
        if self.links.rebuilt {
            self.restore_from_matrix();
        } else {
            self.restart();
            while let Some(p) = self.links.held.pop() {
                // SAFETY: `p` is the node a preselection started from, and the
                // links are as that preselection and those after it left
                // them (the later ones undone already, in reverse order).
                unsafe { self.unselect(p as usize) };
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
        let (m, s) = (&*self.matrix, &mut self.links);
        // SAFETY (each `restart` below): the links were copied from this
        // matrix by `new` and changed since only by the kernels' steps (the
        // kernel named here is the one that searches this matrix: bounds and
        // colors as it has them) and this solver's preselection, which keep
        // the links' invariant (dance.rs); the levels unwound are the
        // search's own.
        unsafe {
            if m.has_bounds() {
                if m.has_colors() {
                    self.driver.restart::<mult::Mult<'m, true, false>>(m, s);
                } else {
                    self.driver.restart::<mult::Mult<'m, false, false>>(m, s);
                }
            } else if m.has_colors() {
                self.driver.restart::<Links<'m, true, false, 0>>(m, s);
            } else {
                self.driver.restart::<Links<'m, false, false, 0>>(m, s);
            }
        }
        s.watch.clear();
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        // SAFETY: as in `restart`; each arm names the kernel of the matrix's
        // own shape (bounds, colors, uniform option length or the general 0).
        unsafe { self.next_solution_unchecked() }
    }

    /// [`next_solution`](Self::next_solution)'s dispatch.
    ///
    /// # Safety
    /// The links hold their invariant for this matrix (see `restart`).
    unsafe fn next_solution_unchecked(&mut self) -> Step {
        let m = &*self.matrix;
        let key = (
            m.has_bounds(),
            m.has_colors(),
            self.branching != Branching::Knuth,
            m.uniform_len(),
        );
        let s = &mut self.links;
        macro_rules! go {
            ($k:ty) => {
                self.driver.run::<$k>(m, s)
            };
        }
        links_kernels!(match key, go;)
    }

    /// Verifies every link, as DLX1's `sanity()` does: each active item's list
    /// is doubly linked, its nodes name it, and its len is their number.
    /// For tests and debugging; O(size of the matrix).
    pub fn check_links(&self) -> Result<(), LinkError> {
        let (nodes, items) = (&self.links.nodes, &self.links.items);
        let mut q = 0;
        let mut p = items[0].next as usize;
        let mut steps = 0;
        loop {
            if items[p].prev as usize != q {
                return Err(LinkError::Prev { item: p });
            }
            if p == 0 {
                break;
            }
            steps += 1;
            if steps > items.len() {
                return Err(LinkError::ItemsOpen);
            }
            let (mut qq, mut pp, mut k) = (p, nodes[p].down as usize, 0);
            loop {
                if nodes[pp].up as usize != qq {
                    return Err(LinkError::Up { node: pp });
                }
                if pp == p {
                    break;
                }
                if nodes[pp].itm as usize != p {
                    return Err(LinkError::Itm { node: pp });
                }
                k += 1;
                if k > nodes.len() {
                    return Err(LinkError::ListOpen { item: p });
                }
                qq = pp;
                pp = nodes[pp].down as usize;
            }
            if nodes[p].itm as usize != k {
                return Err(LinkError::Len {
                    item: p,
                    len: nodes[p].itm as usize,
                    nodes: k,
                });
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
            && (s.bounds.is_empty() || s.bounds == mult::initial_bounds(&self.matrix))
    }
}

/// What [`LinksSolver::check_links`] found broken (slots and nodes are
/// indices into the links, as DLX1's `sanity()` names them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkError {
    /// The item list's `prev` at this item slot does not point back.
    Prev {
        /// The item slot.
        item: usize,
    },
    /// The item list does not come back to the root.
    ItemsOpen,
    /// A node's `up` does not point back.
    Up {
        /// The node.
        node: usize,
    },
    /// A node in an item's list names another item.
    Itm {
        /// The node.
        node: usize,
    },
    /// An item's list does not come back to its header.
    ListOpen {
        /// The item slot.
        item: usize,
    },
    /// An item's len is not the number of nodes in its list.
    Len {
        /// The item slot.
        item: usize,
        /// Its len.
        len: usize,
        /// The nodes in its list.
        nodes: usize,
    },
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            LinkError::Prev { item } => write!(f, "bad prev field at item slot {item}"),
            LinkError::ItemsOpen => write!(f, "item list does not close"),
            LinkError::Up { node } => write!(f, "bad up field at node {node}"),
            LinkError::Itm { node } => write!(f, "bad itm field at node {node}"),
            LinkError::ListOpen { item } => write!(f, "list of item slot {item} does not close"),
            LinkError::Len { item, len, nodes } => {
                write!(f, "bad len at item slot {item}: {len} for {nodes} nodes")
            }
        }
    }
}

impl std::error::Error for LinkError {}

engine_queries!(LinksSolver, LinksSolutions, |s, p| {
    // A header node is Algorithm M's null move: no option (nor is a
    // spacer, which no search commits).
    let p = p as usize;
    (p > s.matrix.first_spacer() && s.matrix.nodes.get(p).is_some_and(|n| n.itm > 0))
        .then(|| s.matrix.option_of_node(p))
});

impl<'m> crate::dlx::engine::Registered<'m> for LinksSolver<'m> {
    type Tables = ();
    const RULES: &'static str = "every rule";
    const KERNELS: usize = links_kernels!(count;);

    fn supports(_branching: Branching) -> bool {
        true
    }

    fn build(_matrix: &Matrix) -> Result<(), String> {
        Ok(())
    }

    fn options_of(_tables: &()) -> Option<usize> {
        None
    }

    fn over(matrix: Shared<'m, Matrix>, _tables: Shared<'m, ()>, branching: Branching) -> Self {
        let mut s = LinksSolver::shared(matrix);
        // The rule was checked for the matrix by the caller (links takes
        // every rule but lookahead with multiplicities, which
        // `Solver::with_rule` turns first-forced and `with_config` refuses).
        let _ = s.set_branching(branching);
        s
    }

    fn tables_of(&self) -> &() {
        &()
    }

    fn switch_rule(&mut self, branching: Branching) -> Result<(), EngineError> {
        self.set_branching(branching)
    }

    fn propagates(branching: Branching) -> bool {
        branching == Branching::FirstForced
    }

    fn propagate(
        &mut self,
        propagator: Option<std::sync::Arc<dyn crate::dlx::Propagator>>,
        strategy: crate::dlx::Strategy,
    ) -> bool {
        self.set_propagator(propagator, strategy)
    }

    /// Copies the links back from the matrix and preselects one by one:
    /// measured cheaper than undoing the last puzzle's givens or rebuilding
    /// all links in one pass ([`LinksSolver::preselect_all`]).
    fn preselect_each(
        &mut self,
        options: &[crate::dlx::OptionId],
    ) -> Result<(), crate::dlx::PreselectError> {
        crate::dlx::engine::one_by_one(self, options, LinksSolver::reset_by_copy)
    }
}

#[cfg(test)]
mod tests {
    //! Small searches over every path of the dancing (uncolored, colored,
    //! preselect, budget stop and reset). Quick enough to run under Miri,
    //! which checks the unchecked indexing of `dance.rs`.
    use crate::dlx::stats::Stats;
    use crate::dlx::{knuth, verify_cover, Branching, Budget, ItemId, LinksSolver, OptionId, Step};

    fn solve_all(text: &str, branching: Branching) -> (u64, bool) {
        let m = knuth::read(text.as_bytes()).unwrap();
        let mut s = LinksSolver::new(&m);
        s.set_branching(branching).unwrap();
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
    fn multiplicities_restore_every_link() {
        // Algorithm M (`mult.rs`): DLX3's example (colors, a 2:3 item), an
        // item that may go unused (the null move), exact multiplicities.
        for (text, want) in [
            (
                "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n",
                1,
            ),
            ("0:2|A B\nA B\nA\nA B\nB\n", 6),
            ("2|A 2|B\nA B\nA\nB\nA B\n", 3),
        ] {
            for branching in [Branching::Knuth, Branching::FirstForced] {
                assert_eq!(solve_all(text, branching), (want, true), "{text}");
            }
            // Preselected, paused by a budget, reset.
            let m = knuth::read(text.as_bytes()).unwrap();
            let mut s = LinksSolver::new(&m);
            let _ = s.preselect(OptionId::must(1));
            s.set_budget(Budget {
                nodes: Some(2),
                updates: None,
            });
            let _ = s.next_solution();
            s.check_links().unwrap();
            s.reset();
            assert!(s.is_pristine(), "{text}");
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
        s.set_branching(Branching::Lookahead).unwrap();
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

    /// A node's probes look at the cancel handle and the deadline the run
    /// was handed (every 16 probes, from the first): cancelled, the
    /// lookahead probes nothing and still names an item to branch on; not
    /// cancelled, it probes every option.
    #[test]
    fn lookahead_probes_stop_at_the_cancel_handle() {
        let m = crate::problems::queens(6).unwrap();
        for cancelled in [false, true] {
            let mut s = LinksSolver::new(&m);
            s.set_branching(Branching::Lookahead).unwrap();
            let cancel = crate::dlx::Cancel::new();
            if cancelled {
                cancel.cancel();
            }
            let limits = crate::dlx::Limits::new().cancel(&cancel);
            <super::Links<false, true, 0> as super::Kernel>::limits(&mut s.links, &limits);
            let mut stats = Stats::default();
            // SAFETY: the solver's own links, as `new` made them.
            let best = unsafe { s.links.look_ahead::<0>(&mut stats) };
            assert!(best > 0 && best <= m.primary_count());
            let probes = if cancelled {
                0
            } else {
                m.option_count() as u64
            };
            assert_eq!(stats.probes, probes, "cancelled: {cancelled}");
            // SAFETY: the options removed at level 0 just above.
            unsafe { s.links.restore_removed(0) };
        }
    }

    #[test]
    fn lookahead_branches_where_the_options_force_most_in_all() {
        // `X` has two options whose probes force little (a few updates
        // each); `Y` has three, each of which, by covering `c`, `d` or `e`,
        // hides three long options of secondary items (`c`, `d` and `e`
        // have four options, one of them `Y`'s, and their long ones hide
        // two long ones each). Nothing fails and nothing is forced at the
        // root. Smallest len first would branch on `X` (len 2, leftmost);
        // the least `Σ 1 / (1 + updates)` is `Y`'s, however longer.
        let mut text = String::from("X Y a b c d e |");
        let long = |tag: &str| (0..10).map(|i| format!(" {tag}{i}")).collect::<String>();
        let tags = [["f", "g", "h"], ["i", "j", "k"], ["l", "m", "n"]];
        for tag in tags.iter().flatten() {
            text += &long(tag);
        }
        text += "\nX a\nX b\na\nb\nY c\nY d\nY e\n";
        for (item, tags) in ["c", "d", "e"].into_iter().zip(tags) {
            for tag in tags {
                text += &format!("{item}{}\n", long(tag));
            }
        }
        let m = knuth::read(text.as_bytes()).unwrap();
        let mut s = LinksSolver::new(&m);
        s.set_branching(Branching::Lookahead).unwrap();
        let mut stats = Stats::default();
        // SAFETY: the solver's own links, as `new` made them.
        let best = unsafe { s.links.look_ahead::<0>(&mut stats) };
        assert_eq!(stats.pruned, 0);
        assert_eq!(m.item_name(ItemId::must(best - 1)), "Y");
        // SAFETY: the options removed at level 0 just above.
        unsafe { s.links.restore_removed(0) };
        s.check_links().unwrap();
        assert!(s.is_pristine());
        // And the search finds the 2 × 27 solutions (`X`'s two ways, times
        // `Y`'s three, each with 3 × 3 ways for the other two long items).
        let mut n = 0;
        for sol in s.solutions() {
            verify_cover(&m, &sol).unwrap();
            n += 1;
        }
        assert_eq!(n, 54);
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
                s.set_branching(branching).unwrap();
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
        let above = s
            .split(2, |piece| {
                if let crate::dlx::Split::Subtree(p) = piece {
                    prefixes.push(p.options.clone());
                }
            })
            .unwrap();
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
