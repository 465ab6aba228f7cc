//! Algorithm M (TAOCP 7.2.2.1; Knuth's DLX3), exact cover with
//! multiplicities, written once: its steps M2–M9 as a [`Kernel`] of the one
//! driver, over [`MultOps`], the few operations on which the engines'
//! representations of the live matrix differ.
//!
//! Each primary item `i` is to be covered between `u` and `v` times. DLX3
//! keeps per item its *bound* (how many more options may still use it, `v`
//! at the start) and its *slack* (`v - u`, fixed). At a node (*enter*,
//! M3–M5) the item with the least branching degree
//! `θ = len + 1 - max(bound - slack, 0)` is chosen, ties to the smaller
//! `min(slack, bound)`, then to the longer list, then the leftmost (DLX3's
//! rule; with every bound 1 it is DLX1's); a node whose θ is 0 or less is a
//! dead end that changes nothing (DLX3 backs up before M4). M4 takes one
//! from its bound and covers it when none is left. Its options are then
//! tried in order (*commit*, M5–M6): an option tried is *tweaked*, taken out
//! of the item's list — and, while the item is still active, *hidden* from
//! every other list — so that deeper levels, which may choose the item
//! again, see only the options after it, and every multiset of options is
//! met once; then every other item of the option uses one of its bound
//! (covered at none), a secondary item is covered (or purified). When the
//! item may go without more options, the last candidate is the *null
//! move*: no option, the item ends (leaves the active list). M5's test
//! backs up when too few options are left to reach the lower bound: the
//! level keeps how many of its candidates are untried (`rest`, DLX3's len
//! of the item after its tweaks). *retract* (M7) takes an option back and
//! names the next candidate; *leave* (M8) restores the item: the tweaks go
//! back in one pass (Knuth's "punch line") or the item is uncovered, and
//! its bound rises again.
//!
//! The engines that copy their state per level (dense, bits) make the
//! level's state on entering and after each tweak, and undo nothing
//! ([`MultOps::UNDOES`] false: the undoing steps are never called); the
//! links engine dances and undoes. What the driver's contract asks of a
//! kernel holds here as long as each engine's operations keep their own
//! representation's invariants, which their modules state.
//!
//! Counters are DLX3's on every engine: a node at every entry (dead ends and
//! solutions included); an update per link that cover, hide, purify and
//! tweak remove (one for the item covered, one per other item of each
//! option hidden, one per tweak that only moves the cursor, the option's
//! items when a tweak hides it). The engine suite's `same_tree_as_links`
//! tests compare the engines' trees and counters node by node.
//!
//! Why written once: the level's bookkeeping — which candidate comes next,
//! when the null move is tried, when to back up, what a tweak counts — is
//! Knuth's and the same everywhere; only how an item is chosen, covered and
//! an option hidden depends on the representation. Monomorphised per
//! engine, the steps inline into the driver's loop as before.

#![allow(unsafe_code)]

use super::driver::{Enter, Kernel};
use crate::dlx::stats::Stats;

/// What M3 chose at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    /// The item (the engine's own index).
    pub(crate) item: usize,
    /// Its branching degree θ (0 or less: a dead end).
    pub(crate) theta: i32,
    /// Options in its list: the level's candidates before any tweak.
    pub(crate) len: u32,
    /// How many more options may use it, before M4 takes one.
    pub(crate) bound: u32,
    /// Its slack (upper bound less lower).
    pub(crate) slack: u32,
}

/// Per level, what Algorithm M keeps (the engine's state holds the
/// vectors, one entry per level).
pub(crate) struct Levels<'a> {
    /// The item chosen.
    pub(crate) item: &'a mut [u32],
    /// Its bound after M4 ([`DEAD`] at a dead end).
    pub(crate) bound: &'a mut [u32],
    /// Its slack.
    pub(crate) slack: &'a mut [u32],
    /// Its candidates not yet tried (DLX3's len after the tweaks).
    pub(crate) rest: &'a mut [u32],
}

/// Algorithm M's per-level vectors besides the item, which an engine's
/// state keeps for its plain kernel too (empty without multiplicities).
#[derive(Clone, Debug, Default)]
pub(crate) struct PerLevel {
    bound: Vec<u32>,
    slack: Vec<u32>,
    rest: Vec<u32>,
}

impl PerLevel {
    /// Room for `levels` levels when the matrix is `bounded`, else none.
    pub(crate) fn new(levels: usize, bounded: bool) -> PerLevel {
        let v = || vec![0; if bounded { levels } else { 0 }];
        PerLevel {
            bound: v(),
            slack: v(),
            rest: v(),
        }
    }

    /// The [`Levels`] of these vectors and the state's `item`.
    #[inline(always)]
    pub(crate) fn with<'a>(&'a mut self, item: &'a mut [u32]) -> Levels<'a> {
        Levels {
            item,
            bound: &mut self.bound,
            slack: &mut self.slack,
            rest: &mut self.rest,
        }
    }
}

/// The bound a level keeps at a dead end (no bound is this large: bounds are
/// held below 2³¹).
pub(crate) const DEAD: u32 = u32::MAX;

/// Algorithm M's operations on one representation of the live matrix.
/// Options are named by the engine's own cursors, as for any [`Kernel`];
/// [`null`](Self::null) names the null move.
///
/// # Safety
///
/// Every step is an `unsafe fn` under [`Kernel`]'s contract (the state made
/// for these tables and changed only by these steps and the engine's own
/// code; `l` a level of the search); besides, `i` is the item this module
/// recorded for level `l`, and `r` a cursor it named there.
pub(crate) trait MultOps {
    type Tables: ?Sized;
    type State;
    /// Whether the representation is changed in place and undone
    /// (dancing links); else each level copies its state, and
    /// [`unend`](Self::unend), [`uncommit`](Self::uncommit) and
    /// [`restore`](Self::restore) are never called.
    const UNDOES: bool;

    /// The cursor of the null move at a level whose item is `i`.
    fn null(i: usize) -> u32;
    /// The per-level vectors of the state.
    fn levels<'a>(s: &'a mut Self::State) -> Levels<'a>;
    /// Prepares the root state of a search.
    unsafe fn start(t: &Self::Tables, s: &mut Self::State);
    /// M2–M3 at level `l`: the item to branch on by DLX3's order (with the
    /// engine's first-forced variant where it has one); `None` when no
    /// primary item is active (a solution).
    unsafe fn choose(t: &Self::Tables, s: &mut Self::State, l: usize) -> Option<Choice>;
    /// M4: item `i` uses one of its bound, now `bound`, and is covered
    /// when that is 0. Returns its first option (`None`: its list is
    /// empty).
    unsafe fn use_one(
        t: &Self::Tables,
        s: &mut Self::State,
        l: usize,
        i: usize,
        bound: u32,
        stats: &mut Stats,
    ) -> Option<u32>;
    /// M5's tweak of option `r` in item `i`'s list; with `hide` (the item
    /// still active) the option is hidden from every list. Returns the
    /// updates.
    unsafe fn tweak(
        t: &Self::Tables,
        s: &mut Self::State,
        l: usize,
        i: usize,
        r: u32,
        hide: bool,
    ) -> u64;
    /// M6: every item of option `r` but `i` uses one of its bound (covered
    /// at none), a secondary one is covered or purified. Returns whether
    /// no primary item is left.
    unsafe fn commit(
        t: &Self::Tables,
        s: &mut Self::State,
        l: usize,
        i: usize,
        r: u32,
        stats: &mut Stats,
    ) -> bool;
    /// The null move: item `i` ends, leaving the active items when `active`
    /// (it is not covered already). Returns whether no primary item is left.
    unsafe fn end(t: &Self::Tables, s: &mut Self::State, l: usize, i: usize, active: bool) -> bool;
    /// The option after `r` in item `i`'s list as level `l` sees it (`None`
    /// past the last).
    unsafe fn next(
        t: &Self::Tables,
        s: &mut Self::State,
        l: usize,
        i: usize,
        r: u32,
    ) -> Option<u32>;
    /// Undoes [`end`](Self::end).
    unsafe fn unend(_t: &Self::Tables, _s: &mut Self::State, _l: usize, _i: usize) {}
    /// Undoes [`commit`](Self::commit) of `r`.
    unsafe fn uncommit(_t: &Self::Tables, _s: &mut Self::State, _l: usize, _i: usize, _r: u32) {}
    /// M8: undoes the level's tweaks and [`use_one`](Self::use_one)
    /// (`bound` and `slack` as the level keeps them).
    unsafe fn restore(
        _t: &Self::Tables,
        _s: &mut Self::State,
        _l: usize,
        _i: usize,
        _bound: u32,
        _slack: u32,
    ) {
    }
}

/// Algorithm M over the operations `O`.
pub(crate) struct AlgorithmM<O>(std::marker::PhantomData<O>);

/// M5's test: the candidate `next` (an option, or `None` for the null move
/// past the last) at a level whose item has `bound` left, `slack`, and
/// `rest` candidates untried; `None` to back up.
#[inline(always)]
fn candidate<O: MultOps>(
    bound: u32,
    slack: u32,
    rest: u32,
    i: usize,
    next: Option<u32>,
) -> Option<u32> {
    if bound == 0 && slack == 0 {
        // Exact cover's case: the item is covered, every option is tried.
        return next;
    }
    // Too few options left to reach the lower bound: back up.
    (i64::from(rest) > i64::from(bound) - i64::from(slack)).then(|| next.unwrap_or(O::null(i)))
}

impl<O: MultOps> Kernel for AlgorithmM<O> {
    type Tables = O::Tables;
    type State = O::State;
    const UNDOES: bool = O::UNDOES;

    unsafe fn start(t: &O::Tables, s: &mut O::State) {
        // SAFETY: the caller's contract.
        unsafe { O::start(t, s) }
    }

    /// M2–M5: choose the item, take one from its bound (covering it at
    /// none), and name its first candidate.
    #[inline(always)]
    unsafe fn enter(t: &O::Tables, s: &mut O::State, l: usize, stats: &mut Stats) -> Enter {
        // SAFETY (the steps below): the caller's contract; `i` is the item
        // recorded for `l`.
        let Some(c) = (unsafe { O::choose(t, s, l) }) else {
            return Enter::Solved;
        };
        let i = c.item;
        let lv = O::levels(s);
        lv.item[l] = i as u32;
        if c.theta <= 0 {
            lv.bound[l] = DEAD;
            lv.rest[l] = 0;
            return Enter::DEAD;
        }
        let bound = c.bound - 1;
        lv.bound[l] = bound;
        lv.slack[l] = c.slack;
        lv.rest[l] = c.len;
        let first = unsafe { O::use_one(t, s, l, i, bound, stats) };
        let degree = c.theta as u32;
        Enter::Item {
            first: candidate::<O>(bound, c.slack, c.len, i, first),
            branch: degree >= 2,
            len: degree,
        }
    }

    /// M5's tweak and M6: option `r`, or the null move.
    #[inline(always)]
    unsafe fn commit(t: &O::Tables, s: &mut O::State, l: usize, r: u32, stats: &mut Stats) -> bool {
        let lv = O::levels(s);
        let (i, bound, slack) = (lv.item[l] as usize, lv.bound[l], lv.slack[l]);
        // SAFETY (the steps below): the caller's contract; `i` is the item
        // recorded for `l`, `r` a cursor named there.
        if r == O::null(i) {
            return unsafe { O::end(t, s, l, i, bound != 0) };
        }
        if bound != 0 || slack != 0 {
            lv.rest[l] -= 1;
            stats.updates += unsafe { O::tweak(t, s, l, i, r, bound != 0) };
        }
        unsafe { O::commit(t, s, l, i, r, stats) }
    }

    /// M7 and M5: takes `r` back and names the next candidate.
    #[inline(always)]
    unsafe fn retract(t: &O::Tables, s: &mut O::State, l: usize, r: u32) -> Option<u32> {
        let lv = O::levels(s);
        let (i, bound, slack, rest) = (lv.item[l] as usize, lv.bound[l], lv.slack[l], lv.rest[l]);
        // SAFETY (the steps below): as in `commit`.
        if r == O::null(i) {
            if O::UNDOES {
                // M9's reactivation; M8 (leave) follows.
                unsafe { O::unend(t, s, l, i) };
            }
            return None;
        }
        if O::UNDOES {
            unsafe { O::uncommit(t, s, l, i, r) };
        }
        let next = unsafe { O::next(t, s, l, i, r) };
        candidate::<O>(bound, slack, rest, i, next)
    }

    /// M8: restores the item (untweak or uncover) and its bound, where the
    /// representation undoes; a dead end changed nothing.
    #[inline(always)]
    unsafe fn leave(t: &O::Tables, s: &mut O::State, l: usize) {
        if !O::UNDOES {
            return;
        }
        let lv = O::levels(s);
        let (i, bound, slack) = (lv.item[l] as usize, lv.bound[l], lv.slack[l]);
        if bound != DEAD {
            // SAFETY: as in `commit`.
            unsafe { O::restore(t, s, l, i, bound, slack) };
        }
    }

    unsafe fn unwind(t: &O::Tables, s: &mut O::State, l: usize, r: u32) {
        // Retracting changes nothing but the option (or the null move); the
        // candidate it names is not wanted.
        // SAFETY: the caller's contract.
        unsafe {
            let _ = Self::retract(t, s, l, r);
            Self::leave(t, s, l);
        }
    }
}

#[cfg(test)]
mod tests {
    //! M5's test alone; the steps are checked through the engines, whose
    //! `same_tree_as_links` tests compare trees and counters node by node
    //! and whose suite counts against brute force and DLX3.
    use super::*;

    /// Operations whose only use here is the null move's cursor.
    struct Header;

    impl MultOps for Header {
        type Tables = ();
        type State = ();
        const UNDOES: bool = false;
        fn null(i: usize) -> u32 {
            1000 + i as u32
        }
        fn levels<'a>(_s: &'a mut ()) -> Levels<'a> {
            unreachable!("not asked for")
        }
        unsafe fn start(_t: &(), _s: &mut ()) {}
        unsafe fn choose(_t: &(), _s: &mut (), _l: usize) -> Option<Choice> {
            None
        }
        unsafe fn use_one(
            _: &(),
            _: &mut (),
            _: usize,
            _: usize,
            _: u32,
            _: &mut Stats,
        ) -> Option<u32> {
            None
        }
        unsafe fn tweak(_: &(), _: &mut (), _: usize, _: usize, _: u32, _: bool) -> u64 {
            0
        }
        unsafe fn commit(_: &(), _: &mut (), _: usize, _: usize, _: u32, _: &mut Stats) -> bool {
            false
        }
        unsafe fn end(_: &(), _: &mut (), _: usize, _: usize, _: bool) -> bool {
            false
        }
        unsafe fn next(_: &(), _: &mut (), _: usize, _: usize, _: u32) -> Option<u32> {
            None
        }
    }

    #[test]
    fn m5_tries_options_then_the_null_move_while_the_lower_bound_is_reachable() {
        let c = candidate::<Header>;
        // Exact cover's case (covered, no slack): every option, no null move.
        assert_eq!(c(0, 0, 3, 7, Some(5)), Some(5));
        assert_eq!(c(0, 0, 0, 7, None), None);
        // Bound 2 left, slack 1: the item must take one more, so a level
        // with one candidate left may not try it without a second.
        assert_eq!(c(2, 1, 2, 7, Some(5)), Some(5));
        assert_eq!(c(2, 1, 1, 7, Some(5)), None);
        // Past the last option, with the lower bound met: the null move.
        assert_eq!(c(1, 1, 1, 7, None), Some(1007));
        assert_eq!(c(0, 2, 0, 7, None), Some(1007));
        // Slack past the bound (the lower bound met): always a candidate.
        assert_eq!(c(1, 3, 0, 7, Some(4)), Some(4));
    }
}
