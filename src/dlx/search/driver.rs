//! The one search driver: Algorithm X's loop written once, over a [`Kernel`].
//!
//! A kernel is a representation of the live matrix (dancing links, a bitset
//! of active options, bit-sliced lens, per-item option masks) and Knuth's
//! steps on it, nothing else: *enter* a node (choose the item to branch on
//! and cover it), *commit* an option, *retract* it and move to the item's
//! next option, *leave* the node (uncover the item). The [`Driver`] owns
//! everything else that a search is: the level stack (`choice`), the phase
//! it is paused in, the counters ([`Stats`]) and the per-level profile, the
//! budget, the options preselected before the search, the cut of
//! [`split`](crate::dlx::LinksSolver::split), and the cost bound of
//! [`best`](crate::dlx::Solver::best) (a branch too dear to beat the k-th
//! best is taken back as soon as its option is committed). Each engine's solver is a `Driver`
//! beside its kernel's state; its `next_solution` matches once on the
//! matrix's shape and calls [`Driver::run`] with a kernel view whose const
//! parameters fit that shape, so the loop is monomorphised into each kernel
//! and nothing is dispatched per node.
//!
//! The loop is DLX1's, with its labels as phases:
//!
//! * *forward*: count a node; the kernel enters it ([`Kernel::enter`]) and
//!   names the first option of the item it covered, or none (a dead end), or
//!   says that no primary item is left (a solution).
//! * *advance*: commit the option at `choice[level]` and go a level deeper;
//!   a commit that covers the last primary item is a solution.
//! * *backdown*: go back a level and retract its option, which gives the
//!   item's next option; past the last, leave the node and back down again.
//!
//! The invariant that makes a search resumable: between calls, levels
//! `0..level` are fully entered (item covered, option committed) and nothing
//! else is. A solution, a budget stop and the cut all pause in that state;
//! [`Driver::restart`] unwinds from it (kernels that undo by dancing are told
//! each level, from the deepest; kernels that copy their state need not be).
//!
//! Kernels whose forced levels need no undoing ([`Kernel::JUMPS`]) say where
//! the next untried option is, and backing down goes straight there; or,
//! branching two ways, name a level to enter again ([`AGAIN`]), its state
//! restored without the option that failed there: the driver enters it as
//! a new node (counted as one), and the progress report goes on counting
//! the level's first item. Never at a cut, whose subtrees are named by
//! their paths alone.

#![allow(unsafe_code)]

use super::super::index::{ItemId, OptionId};
use super::super::stats::Stats;
use super::best::CostBound;
use super::progress::Track;
use super::{Limits, Step, Stop, LOOK_NODES, LOOK_UPDATES};

/// An engine's kernel table: one line a kernel compiled (a copy of the
/// driver's loop, [`Driver::run`], with the kernel's steps inlined), the
/// key that picks it and its type. An engine writes its table once, as a
/// macro that hands its lines to this one (`links_kernels!` and its
/// siblings), and every use of the table comes from it:
///
/// * `kernel_table!(match KEY, go; LINES)`: a `match` on `KEY` whose arm for
///   each line is `go!(ITS_TYPE)`, `go` a macro the caller defines in place
///   (what it does with the kernel: run the driver over it, preselect with
///   its shape's constants);
/// * `kernel_table!(count; LINES)`: how many lines, the engine's
///   `Registered::KERNELS`, whose sum over the engines a test pins
///   (`engine.rs`), so that a kernel is never added unnoticed.
///
/// Why a table: each kernel costs build time (the crate's release build
/// is mostly these copies, BENCHMARKS.md), so which shapes get a copy of
/// their own is a choice made and measured in one place an engine.
macro_rules! kernel_table {
    (count; $($pat:pat => $kernel:ty),* $(,)?) => {
        [$(stringify!($kernel)),*].len()
    };
    (match $key:expr, $go:ident; $($pat:pat => $kernel:ty),* $(,)?) => {
        match $key {
            $($pat => $go!($kernel),)*
        }
    };
}
pub(crate) use kernel_table;

/// The cursor [`Kernel::resume`] names to have the level it names entered
/// again (its state changed since it was entered), not an option committed.
pub(crate) const AGAIN: u32 = u32::MAX;

/// What a kernel found on entering a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Enter {
    /// No primary item is left: the options committed so far are a solution.
    /// Nothing was covered at this level.
    Solved,
    /// An item was chosen and covered: `first` is its first option (`None`:
    /// it has none, a dead end), `branch` whether it had two or more, and
    /// `len` how many (read only by the progress report).
    Item {
        first: Option<u32>,
        branch: bool,
        len: u32,
    },
}

impl Enter {
    /// An item with no option left: a dead end.
    pub(crate) const DEAD: Enter = Enter::Item {
        first: None,
        branch: false,
        len: 0,
    };

    /// An item with one option left, `first`.
    pub(crate) fn forced(first: Option<u32>) -> Enter {
        Enter::Item {
            first,
            branch: false,
            len: 1,
        }
    }

    /// An item with `len` options, two or more, the first `first`.
    pub(crate) fn branch(first: Option<u32>, len: u32) -> Enter {
        Enter::Item {
            first,
            branch: true,
            len,
        }
    }
}

/// Knuth's steps on one representation of the live matrix. A kernel is a
/// type with no value (its const parameters say the matrix's shape); its
/// steps take the immutable [`Tables`](Self::Tables), shared by every
/// search of a matrix, and the search's own [`State`](Self::State) as
/// separate arguments, as regex-automata's search functions take the
/// automaton and its cache: a `&mut` argument tells the compiler that
/// nothing else writes the state, so its vectors' addresses stay in
/// registers while the state's contents are written (held in a struct
/// field, they were loaded again after every store: 20% more instructions
/// on the masks engine).
///
/// Options are named by a kernel's own cursor (`u32`: a node, an option
/// number); the driver keeps the cursor committed at each level and hands it
/// back, and the engine maps cursors to [`OptionId`]s when a solution is
/// read.
///
/// [`OptionId`]: crate::dlx::OptionId
///
/// # Safety
///
/// The steps index the tables and the state without bounds checks
/// (`unchecked.rs`), so each is an `unsafe fn` under one contract, which
/// the [`Driver`] keeps and says where it calls them: `s` was made for `t`
/// by the engine (for these tables, as deep as the driver's levels) and
/// since then changed only by this kernel's steps and the engine's own
/// code, which keep its invariants; `level` is a level of the search
/// (below `choice.len()`), entered when a step says so; `cur` is a cursor
/// this kernel named at that level (by `enter` or `retract`).
pub(crate) trait Kernel {
    /// The tables built once from a matrix.
    type Tables: ?Sized;
    /// One search's scratch state.
    type State;
    /// Whether the kernel must be told to undo each level when a paused
    /// search is abandoned (dancing links); kernels that copy their state per
    /// level restart from the root state instead.
    const UNDOES: bool;
    /// Whether [`resume`](Self::resume) is used to back down: the kernel
    /// keeps its own stack of branch points and forced levels need nothing.
    const JUMPS: bool = false;
    /// Whether a kernel that backs down by [`retract`](Self::retract) may
    /// name [`AGAIN`] ([`retract_or_again`](Self::retract_or_again)).
    const AGAINS: bool = false;

    /// Prepares the root state of a search (after the preselected options).
    unsafe fn start(t: &Self::Tables, s: &mut Self::State);
    /// Hands the kernel the limits of the run about to go on, for work a
    /// node may do at length (lookahead's probes) to look at the clock and
    /// the cancel handle too: the driver looks only between nodes.
    fn limits(_s: &mut Self::State, _limits: &Limits) {}
    /// Enters the node at `level`: chooses the item to branch on and covers
    /// it, counting its updates (and a lookahead's probes) in `stats`.
    unsafe fn enter(
        t: &Self::Tables,
        s: &mut Self::State,
        level: usize,
        stats: &mut Stats,
    ) -> Enter;
    /// Commits the option `cur` of the item entered at `level`; returns
    /// whether no primary item is left.
    unsafe fn commit(
        t: &Self::Tables,
        s: &mut Self::State,
        level: usize,
        cur: u32,
        stats: &mut Stats,
    ) -> bool;
    /// Takes back the option `cur` committed at `level`; returns the item's
    /// next option, `None` past its last.
    unsafe fn retract(t: &Self::Tables, s: &mut Self::State, level: usize, cur: u32)
        -> Option<u32>;
    /// [`retract`](Self::retract), where `again` allows it (never at a
    /// cut) and the kernel branches two ways ([`AGAINS`](Self::AGAINS)),
    /// naming [`AGAIN`] instead of the next option: the level's item is
    /// uncovered, the option that failed taken out of its state, and the
    /// driver enters the level again.
    unsafe fn retract_or_again(
        t: &Self::Tables,
        s: &mut Self::State,
        level: usize,
        cur: u32,
        _again: bool,
    ) -> Option<u32> {
        // SAFETY: the caller's contract, the same as `retract`'s.
        unsafe { Self::retract(t, s, level, cur) }
    }
    /// Leaves the node at `level` (its item's options are used up, or it had
    /// none): uncovers its item.
    unsafe fn leave(t: &Self::Tables, s: &mut Self::State, level: usize);
    /// Takes back the [`enter`](Self::enter) of a branch point at `level`
    /// before any of its options was tried: the cut pauses there, leaving
    /// the node to whoever searches the subtree. [`leave`](Self::leave)
    /// does it for kernels whose `leave` undoes `enter`.
    unsafe fn abandon(t: &Self::Tables, s: &mut Self::State, level: usize) {
        // SAFETY: the caller's contract, the same as `leave`'s.
        unsafe { Self::leave(t, s, level) };
    }
    /// Undoes level `level` of a paused search: its option `cur` and its
    /// item. Only called when [`UNDOES`](Self::UNDOES).
    unsafe fn unwind(_t: &Self::Tables, _s: &mut Self::State, _level: usize, _cur: u32) {}
    /// With [`JUMPS`](Self::JUMPS): the deepest level whose item has an
    /// option left, its state restored to where that option is to be
    /// committed, and that option; `None` when there is none. Where
    /// `again` allows it, the cursor may be [`AGAIN`] instead: the level's
    /// state is restored with the option that failed there taken out, and
    /// the driver enters the level again, choosing anew where to branch
    /// (two-way branching). `again` is false at a cut, whose subtrees are
    /// named by the options above them alone.
    unsafe fn resume(
        _t: &Self::Tables,
        _s: &mut Self::State,
        _again: bool,
    ) -> Option<(usize, u32)> {
        None
    }
    /// Gives away the untried options of the shallowest branch point that
    /// has any, for another search to take: returns its level and those
    /// options (in the order the search would try them), which the search
    /// then skips; `None` where there are none, or where the kernel cannot
    /// (the default: only kernels that keep their own branch points,
    /// [`JUMPS`](Self::JUMPS), list untried options without undoing).
    unsafe fn give_away(_t: &Self::Tables, _s: &mut Self::State) -> Option<(usize, Vec<u32>)> {
        None
    }
}

/// Where a search is paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// A fresh search: the kernel's root state is still to be made.
    Start,
    /// About to enter a node at `level` (after a budget stop).
    Forward,
    /// Just reported a solution or reached the cut: back down from `level`.
    Backdown,
    /// The tree is exhausted and every level unwound.
    Done,
}

/// The search of one matrix, apart from the matrix's representation: level
/// stack, phase, counters, budget, profile, preselected options and the cut.
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    /// `choice[l]`: the kernel's cursor of the option committed at level `l`.
    pub(crate) choice: Vec<u32>,
    /// Levels `0..level` are entered and committed (see the module docs).
    pub(crate) level: usize,
    pub(crate) phase: Phase,
    /// The counters since the solver was made or last reset.
    pub(crate) stats: Stats,
    /// `stats` when the current search started, for the budget.
    pub(crate) base: Stats,
    limits: Limits,
    /// The counters (nodes, updates) at which the loop next looks at the
    /// limits: where their node or update count runs out, or sooner, with a
    /// deadline or a cancel handle, at `clock`; never, `u64::MAX`, without
    /// limits. One comparison each per node, as a count alone costs.
    look: (u64, u64),
    /// The counters of the next look at the clock and the cancel handle:
    /// the search's first node, then [`LOOK_NODES`] and [`LOOK_UPDATES`]
    /// past the last look. Moved only by a look and a new search, so that
    /// limits set again and again (after each solution, say) cannot put it
    /// off.
    clock: (u64, u64),
    /// What stopped the last query, when the budget did.
    pub(crate) stopped: Option<Stop>,
    profile: Option<Vec<u64>>,
    /// Options preselected before the search, in order.
    pub(crate) preselected: Vec<OptionId>,
    /// The number of branch points at which [`split`] cuts the tree
    /// (`usize::MAX`: none), and whether the last pause was at the cut.
    ///
    /// [`split`]: crate::dlx::LinksSolver::split
    pub(crate) cut: usize,
    pub(crate) at_cut: bool,
    /// With a cut: `branches[l]`, the levels above `l` whose item had two
    /// options or more (forced levels do not count).
    branches: Vec<u32>,
    /// The progress report, when one is asked for (`progress.rs`).
    pub(crate) track: Option<Box<Track>>,
    /// Options excluded and items retired before the search
    /// ([`Subtree`](super::Subtree)), in order.
    pub(crate) excluded: Vec<OptionId>,
    pub(crate) retired: Vec<ItemId>,
    /// The branch and bound of a [`best`](super::best::best) search: a
    /// branch whose cost so far and taxes owed reach the limit is not
    /// entered (counted in `stats.pruned`).
    pub(crate) bound: Option<Box<CostBound>>,
    /// Whether the pause in [`Phase::Forward`] was on entering a level
    /// again ([`AGAIN`]).
    again: bool,
}

impl Driver {
    /// A driver for searches at most `depth` levels deep over a matrix of
    /// `primary` primary items (room for that many preselected options).
    pub(crate) fn new(depth: usize, primary: usize) -> Driver {
        Driver {
            choice: vec![0; depth + 1],
            level: 0,
            phase: Phase::Start,
            stats: Stats::default(),
            base: Stats::default(),
            limits: Limits::default(),
            look: (u64::MAX, u64::MAX),
            clock: (0, 0),
            stopped: None,
            profile: None,
            preselected: Vec::with_capacity(primary),
            cut: usize::MAX,
            at_cut: false,
            branches: vec![0; depth + 2],
            track: None,
            excluded: Vec::new(),
            retired: Vec::new(),
            bound: None,
            again: false,
        }
    }

    /// The limits the search runs under.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Limits the current search (its counts from its start).
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.arm();
    }

    /// Takes the limits out, leaving none (given back by `set_limits`).
    pub(crate) fn take_limits(&mut self) -> Limits {
        let limits = std::mem::take(&mut self.limits);
        self.set_limits(Limits::default());
        limits
    }

    /// Sets the counters of the next look at the limits (see `look`), from
    /// the current search's start and `clock`.
    fn arm(&mut self) {
        let b = &self.limits.budget;
        let from = |base: u64, n: Option<u64>| n.map_or(u64::MAX, |n| base.saturating_add(n));
        let mut look = (
            from(self.base.nodes, b.nodes),
            from(self.base.updates, b.updates),
        );
        if self.limits.deadline.is_some() || self.limits.cancel.is_some() {
            look.0 = look.0.min(self.clock.0);
            look.1 = look.1.min(self.clock.1);
        }
        self.look = look;
    }

    /// Puts the next look at the clock [`LOOK_NODES`] and [`LOOK_UPDATES`]
    /// from now.
    fn wind(&mut self) {
        self.clock = (
            self.stats.nodes.saturating_add(LOOK_NODES),
            self.stats.updates.saturating_add(LOOK_UPDATES),
        );
    }

    /// Whether the limits stop the search now, at a look (`stopped` says
    /// why); if not, the next look is set.
    #[cold]
    #[inline(never)]
    fn limits_stop(&mut self) -> bool {
        self.stopped = self.limits.stop(&self.stats, &self.base);
        if self.stopped.is_none() {
            self.wind();
            self.arm();
        }
        self.stopped.is_some()
    }

    /// After a query run on threads from the root (their counters added
    /// to `stats`): the search exhausted when `complete`, else paused at the
    /// start, stopped by `stop`.
    pub(crate) fn end_on_threads(&mut self, complete: bool, stop: Option<Stop>) {
        self.level = 0;
        self.at_cut = false;
        if complete {
            self.phase = Phase::Done;
            self.stopped = None;
        } else {
            self.phase = Phase::Start;
            self.again = false;
            self.stopped = stop.or(Some(Stop::Cancelled));
        }
    }

    /// Turns on counting nodes per level.
    pub(crate) fn enable_profile(&mut self) {
        self.profile = Some(vec![0; self.choice.len() + 1]);
    }

    /// Nodes entered at each level, up to the deepest level reached.
    pub(crate) fn profile(&self) -> Option<&[u64]> {
        let p = self.profile.as_deref()?;
        Some(&p[..p.iter().rposition(|&n| n != 0).map_or(0, |i| i + 1)])
    }

    /// Whether the current search has been exhausted.
    pub(crate) fn is_exhausted(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The cursors of the solution just reported (or of the prefix at the
    /// cut): the options committed by the search, in order.
    pub(crate) fn chosen(&self) -> &[u32] {
        if self.phase == Phase::Backdown {
            &self.choice[..self.level]
        } else {
            &[]
        }
    }

    /// The untried options of the shallowest branch point of the paused
    /// search ([`Kernel::give_away`]), each with the path to it: the
    /// cursors committed above that branch point, then the option. The
    /// search goes on without them; with the pieces searched apart, every
    /// solution is found once. `None` when the search is not paused inside
    /// its tree (not started, exhausted, at the cut) or has nothing to give.
    ///
    /// # Safety
    /// `s` was made for `t` and changed only by `K`'s steps through this
    /// driver and the engine's own code (the [`Kernel`] contract).
    pub(crate) unsafe fn give_away<K: Kernel>(
        &mut self,
        t: &K::Tables,
        s: &mut K::State,
    ) -> Option<(Vec<u32>, Vec<u32>)> {
        let paused = matches!(self.phase, Phase::Forward | Phase::Backdown);
        if !paused || self.at_cut {
            return None;
        }
        // SAFETY: the caller's contract; the search is paused inside its
        // tree, where the kernel's branch points are its own.
        let (level, options) = unsafe { K::give_away(t, s)? };
        Some((self.choice[..level].to_vec(), options))
    }

    /// Abandons the search in progress: unwinds the kernel (when it undoes)
    /// and makes the next query start a fresh search.
    ///
    /// # Safety
    /// As [`give_away`](Self::give_away)'s.
    pub(crate) unsafe fn restart<K: Kernel>(&mut self, t: &K::Tables, s: &mut K::State) {
        if K::UNDOES {
            while self.level > 0 {
                self.level -= 1;
                // SAFETY: the caller's contract; levels `0..level` are
                // entered, each with the cursor committed there.
                unsafe { K::unwind(t, s, self.level, self.choice[self.level]) };
            }
        }
        self.level = 0;
        self.phase = Phase::Start;
        self.again = false;
        self.at_cut = false;
        self.base = self.stats;
        self.clock = (self.stats.nodes, self.stats.updates);
        self.arm();
        if let Some(t) = &mut self.track {
            let weight = t.weight;
            t.restart(self.stats.nodes, self.stats.solutions, weight);
        }
    }

    /// Forgets the counters, the profile and the preselected options (the
    /// kernel must have been put back to the matrix's own state).
    pub(crate) fn reset(&mut self) {
        self.level = 0;
        self.phase = Phase::Start;
        self.again = false;
        self.at_cut = false;
        self.preselected.clear();
        self.excluded.clear();
        self.retired.clear();
        self.stats = Stats::default();
        self.base = Stats::default();
        self.clock = (0, 0);
        self.arm();
        if let Some(p) = &mut self.profile {
            p.fill(0);
        }
        if let Some(t) = &mut self.track {
            let weight = t.weight;
            t.restart(0, 0, weight);
        }
    }

    /// Continues the search to its next solution.
    ///
    /// # Safety
    /// As [`give_away`](Self::give_away)'s.
    #[inline]
    pub(crate) unsafe fn run<K: Kernel>(&mut self, t: &K::Tables, s: &mut K::State) -> Step {
        // SAFETY: this function's contract.
        unsafe { self.run_inline::<K>(t, s) }
    }

    /// [`run`](Self::run), always inlined: for a caller compiled with
    /// more instructions than the target's baseline (the bits engine's
    /// counted lens, with `popcnt`), whose kernel must be compiled inside it.
    ///
    /// # Safety
    /// As [`give_away`](Self::give_away)'s.
    #[inline(always)]
    pub(crate) unsafe fn run_inline<K: Kernel>(&mut self, t: &K::Tables, s: &mut K::State) -> Step {
        self.at_cut = false;
        self.stopped = None;
        K::limits(s, &self.limits);
        // SAFETY (each `search` below): this function's contract.
        // Four copies of the loop, each compiled into every kernel: the
        // ordinary one, which looks at the budget, the clock and the cancel
        // handle on entering a node (without limits its counters never
        // reach the next look: two comparisons a node); that one reporting
        // progress; one under the cost bound of `best`, reporting progress
        // where asked (its pruned branches count as done: their ranks move
        // on); and one at the cut of `split`. (A copy for each with
        // progress and without made six a kernel and half again the
        // crate's build time; one copy for progress, the bound and the cut
        // was 10% slower with progress, and one for the bound and the cut 6%
        // under a bound: BENCHMARKS.md, 2026-12-02.)
        if self.bound.is_some() {
            let step = self.search::<K, false, true, true>(t, s);
            self.report_after(step);
            step
        } else if self.cut != usize::MAX {
            self.search::<K, true, false, false>(t, s)
        } else if self.track.is_some() {
            let step = self.search::<K, false, true, false>(t, s);
            self.report_after(step);
            step
        } else {
            self.search::<K, false, false, false>(t, s)
        }
    }

    /// Reports progress after a tracked search returns `step`: the end of
    /// the search, or a pause past the next report's node.
    fn report_after(&mut self, step: Step) {
        let (nodes, solutions) = (self.stats.nodes, self.stats.solutions);
        if let Some(track) = &mut self.track {
            match step {
                Step::Exhausted => track.report(nodes, solutions, None),
                _ if nodes >= track.next => track.report(nodes, solutions, Some(self.level)),
                _ => {}
            }
        }
    }

    /// [`run`](Self::run), looking at the limits on entering a node, with or
    /// without the cut, progress and the cost bound (`BOUND`). The level lives in a local while the
    /// loop runs (stored on the way out): in the struct it was loaded and
    /// stored around every kernel step.
    ///
    /// # Safety
    /// As [`give_away`](Self::give_away)'s. Each kernel step below is called
    /// under the [`Kernel`] contract: `t` and `s` as the caller gives them;
    /// `level` below `choice.len()` (a level is entered only while a primary
    /// item is left, and each level covers one, so the depth is at most the
    /// primary items, or with multiplicities the options and primary items,
    /// which is what `choice` was made for); and each cursor the one the
    /// kernel named at that level.
    #[inline(always)]
    unsafe fn search<K: Kernel, const CUT: bool, const TRACK: bool, const BOUND: bool>(
        &mut self,
        t: &K::Tables,
        s: &mut K::State,
    ) -> Step {
        let mut level = self.level;
        let mut cur = match self.phase {
            Phase::Done => return Step::Exhausted,
            Phase::Start | Phase::Forward => {
                if self.phase == Phase::Start {
                    // SAFETY: a fresh search: the state as its engine made it.
                    K::start(t, s);
                }
                let again = std::mem::take(&mut self.again);
                match self.forward::<K, CUT, TRACK>(t, s, level, again) {
                    Ok(c) => c,
                    Err(step) => return step,
                }
            }
            Phase::Backdown => match self.back_down::<K, CUT, TRACK>(t, s, &mut level) {
                Ok(c) => c,
                Err(step) => return step,
            },
        };
        loop {
            let Some(c) = cur else {
                // The item entered at `level` has no option left.
                // SAFETY: `level` was entered (its item covered), and no
                // deeper level is.
                K::leave(t, s, level);
                match self.back_down::<K, CUT, TRACK>(t, s, &mut level) {
                    Ok(next) => cur = next,
                    Err(step) => return step,
                }
                continue;
            };
            self.choice[level] = c;
            // SAFETY: `c` is the cursor the kernel named at `level`, just
            // entered or retracted to.
            let solved = K::commit(t, s, level, c, &mut self.stats);
            level += 1;
            if BOUND && !solved && !self.bound.as_mut().is_some_and(|b| b.keep(level, c)) {
                // Too dear: the option is taken back, as after its subtree.
                self.stats.pruned += 1;
                match self.back_down::<K, CUT, TRACK>(t, s, &mut level) {
                    Ok(next) => cur = next,
                    Err(step) => return step,
                }
                continue;
            }
            if solved {
                self.level = level;
                self.stats.nodes += 1;
                self.stats.solutions += 1;
                if let Some(p) = &mut self.profile {
                    p[level] += 1;
                }
                self.phase = Phase::Backdown;
                return Step::Solution;
            }
            cur = match self.forward::<K, CUT, TRACK>(t, s, level, false) {
                Ok(c) => c,
                Err(step) => return step,
            };
        }
    }

    /// Enters a node at `level`; returns its first option. On a pause the
    /// level is stored. `again`: the level is entered again after an
    /// option failed there ([`AGAIN`]); the progress report goes on
    /// counting the level's first item's options (its rank was moved on),
    /// so that the fraction done never falls.
    ///
    /// # Safety
    /// As [`search`](Self::search)'s.
    #[inline(always)]
    unsafe fn forward<K: Kernel, const CUT: bool, const TRACK: bool>(
        &mut self,
        t: &K::Tables,
        s: &mut K::State,
        level: usize,
        again: bool,
    ) -> Result<Option<u32>, Step> {
        if (self.stats.nodes >= self.look.0 || self.stats.updates >= self.look.1)
            && self.limits_stop()
        {
            self.level = level;
            self.phase = Phase::Forward;
            self.again = again;
            return Err(Step::Budget);
        }
        if TRACK {
            if let Some(track) = &mut self.track {
                if self.stats.nodes >= track.next {
                    track.report(self.stats.nodes, self.stats.solutions, Some(level));
                }
            }
        }
        let before = self.stats;
        self.stats.nodes += 1;
        if let Some(p) = &mut self.profile {
            p[level] += 1;
        }
        // SAFETY: `level` is below `choice.len()` (see `search`), levels
        // `0..level` entered and committed.
        match K::enter(t, s, level, &mut self.stats) {
            Enter::Solved => {
                self.level = level;
                self.stats.solutions += 1;
                self.phase = Phase::Backdown;
                Err(Step::Solution)
            }
            Enter::Item { first, branch, len } => {
                self.stats.guesses += u64::from(branch);
                if TRACK && !again {
                    if let Some(track) = &mut self.track {
                        track.lens[level] = len;
                        track.ranks[level] = 1;
                    }
                }
                if CUT {
                    if branch && self.branches[level] as usize == self.cut {
                        // The first branch point below the cut: paused
                        // before it, as at a solution, levels 0..level
                        // committed (the forced levels since the cut's
                        // last branch point included). The node is not
                        // counted: whoever takes the subtree enters it, in
                        // the same state, as one search would have.
                        // SAFETY: `level` was just entered.
                        K::abandon(t, s, level);
                        self.stats = before;
                        if let Some(p) = &mut self.profile {
                            p[level] -= 1;
                        }
                        self.level = level;
                        self.at_cut = true;
                        self.phase = Phase::Backdown;
                        return Err(Step::Solution);
                    }
                    self.branches[level + 1] = self.branches[level] + u32::from(branch);
                }
                Ok(first)
            }
        }
    }

    /// [`forward`](Self::forward) into a level entered again ([`AGAIN`]):
    /// out of line, so that searches branching one way keep their loop's
    /// code as it was.
    ///
    /// # Safety
    /// As [`search`](Self::search)'s.
    #[cold]
    #[inline(never)]
    unsafe fn enter_again<K: Kernel, const CUT: bool, const TRACK: bool>(
        &mut self,
        t: &K::Tables,
        s: &mut K::State,
        level: usize,
    ) -> Result<Option<u32>, Step> {
        // SAFETY: this function's contract.
        unsafe { self.forward::<K, CUT, TRACK>(t, s, level, true) }
    }

    /// Goes back a level and moves to the next option there (`Some(None)`:
    /// none left); `None` when level 0 is finished.
    ///
    /// # Safety
    /// As [`search`](Self::search)'s.
    #[inline(always)]
    unsafe fn back_down<K: Kernel, const CUT: bool, const TRACK: bool>(
        &mut self,
        t: &K::Tables,
        s: &mut K::State,
        level: &mut usize,
    ) -> Result<Option<u32>, Step> {
        if K::JUMPS {
            // SAFETY: the state's own branch points (a jumping kernel).
            return match K::resume(t, s, !CUT) {
                Some((l, c)) => {
                    *level = l;
                    if TRACK {
                        if let Some(track) = &mut self.track {
                            track.ranks[l] += 1;
                            if c == AGAIN {
                                // Entered again, perhaps many times: the
                                // level's share done stays below one.
                                track.ranks[l] = track.ranks[l].min(track.lens[l].max(1));
                            }
                        }
                    }
                    if c == AGAIN {
                        // SAFETY: levels `0..l` are entered and committed,
                        // the state as `resume` left it, a node to enter.
                        return unsafe { self.enter_again::<K, CUT, TRACK>(t, s, l) };
                    }
                    Ok(Some(c))
                }
                None => {
                    *level = 0;
                    self.level = 0;
                    self.phase = Phase::Done;
                    Err(Step::Exhausted)
                }
            };
        }
        if *level == 0 {
            self.level = 0;
            self.phase = Phase::Done;
            return Err(Step::Exhausted);
        }
        *level -= 1;
        if TRACK {
            if let Some(track) = &mut self.track {
                track.ranks[*level] += 1;
            }
        }
        if K::AGAINS {
            // SAFETY: `choice[level]` is the cursor committed at `level`.
            let next = K::retract_or_again(t, s, *level, self.choice[*level], !CUT);
            if next == Some(AGAIN) {
                if TRACK {
                    if let Some(track) = &mut self.track {
                        let l = *level;
                        // Entered again, perhaps many times: the level's
                        // share done stays below one.
                        track.ranks[l] = track.ranks[l].min(track.lens[l].max(1));
                    }
                }
                // SAFETY: levels `0..level` are entered and committed, the
                // state as `retract_or_again` left it, a node to enter.
                return unsafe { self.enter_again::<K, CUT, TRACK>(t, s, *level) };
            }
            return Ok(next);
        }
        // SAFETY: `choice[level]` is the cursor committed at `level`.
        Ok(K::retract(t, s, *level, self.choice[*level]))
    }
}
