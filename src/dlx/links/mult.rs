//! Algorithm M (TAOCP 7.2.2.1; Knuth's DLX3): exact cover with
//! multiplicities, as a kernel of the one search driver on the links
//! engine's own links.
//!
//! Each primary item `i` is to be covered between `u` and `v` times
//! ([`Matrix::bounds`]). The state keeps, per item, DLX3's *bound* (how
//! many more options may still use it, `v` at the start) and *slack*
//! (`v - u`, fixed). At a node the driver's step *enter* is M3–M4: choose
//! the item with the least branching degree
//! `θ = len + 1 - max(bound - slack, 0)`, ties to the smaller
//! `min(slack, bound)` and then to the longer list, leftmost after that
//! (DLX3's rule: with every bound 1 it is DLX1's); decrement its bound, and
//! cover it when the bound reaches 0. Its options are then tried top down;
//! an option tried is *tweaked*: taken out of the item's list (and, while
//! the item stays active, out of every other list: it is *hidden*), so that
//! deeper levels, which may choose the item again, see only the options
//! below it, and every multiset of options is met once. When the item may
//! go without more options (`bound < slack`), the last move is the *null
//! move*: no option, the item leaves the active list. *leave* (M8) is
//! *untweak*: the tweaked options go back in one pass, Knuth's "punch
//! line", and a covered item is uncovered.
//!
//! Counters are DLX3's: a node at every entry (dead ends and solutions
//! included), an update per link removed by cover, hide, purify and tweak.
//! A node whose θ is 0 or less is a dead end that changes nothing (DLX3
//! backs up before step M4), so its *leave* does nothing either.
//!
//! The kernel's cursor is a node: an option's node in the branching item's
//! list, or the item's header for the null move, which names no option
//! (the solver's solutions leave it out).
//!
//! Indexing is unchecked, under `dance.rs`'s invariant (every link field
//! holds a node index, every option node's `itm` an item slot) and one of
//! this file's: `bounds` has a slot for every item and both list heads.
//! Bounds past 2³⁰ are held as 2³⁰ (more than any matrix's options can
//! use), so their arithmetic stays in an `i32`.

#![allow(unsafe_code)]

use super::dance::{cover, hide, purify, uncover, unhide, unpurify, Arena, View, Watch};
use super::LinksState;
use crate::dlx::matrix::{Link, Matrix, Node};
use crate::dlx::search::driver::{Enter, Kernel};
use crate::dlx::stats::Stats;
use crate::dlx::ItemId;

/// The Algorithm M kernel: DLX2's colors with `COLORS`; with `FORCED` the
/// choice stops at the first item whose θ is 1 or less (first-forced).
/// Options are walked to their spacers: walking them by arithmetic when all
/// have one length, as the links kernel does, measured no faster here
/// (two-queens 8: 1.15 s either way).
pub(super) struct Mult<'m, const COLORS: bool, const FORCED: bool>(
    std::marker::PhantomData<&'m ()>,
);

/// DLX3's state of one item: how many more options may use it, and its
/// upper bound minus its lower one (fixed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Bound {
    pub(super) bound: i32,
    pub(super) slack: i32,
}

/// The most a bound is held as (see the module documentation).
const MOST: u32 = 1 << 30;

/// Per item slot, DLX3's bound and slack from the matrix: `(v, v - u)`
/// for a primary item, `(0, 0)` for the rest.
pub(super) fn initial_bounds(m: &Matrix) -> Vec<Bound> {
    let mut bounds = vec![Bound::default(); m.item_count() + 2];
    for (i, b) in bounds
        .iter_mut()
        .skip(1)
        .take(m.primary_count())
        .enumerate()
    {
        if let Some((lo, hi)) = m.bounds(ItemId::must(i)) {
            let (lo, hi) = (lo.min(MOST) as i32, hi.min(MOST) as i32);
            *b = Bound {
                bound: hi,
                slack: hi - lo,
            };
        }
    }
    bounds
}

/// M3: the item to branch on and its branching degree θ (`i32::MAX` when
/// no primary item is active). DLX3's order — least θ, then least
/// `min(slack, bound)`, then longest list, then leftmost — is one key,
/// compared without branches.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn choose<const FORCED: bool>(
    nodes: &[Node],
    items: &[Link],
    bounds: &[Bound],
) -> (usize, i32) {
    let (nodes, items, bounds) = (View::new(nodes), View::new(items), View::new(bounds));
    let key = |t: i32, s: i32, len: i32| -> u128 {
        // t may be negative; s and len are not. Smaller is better.
        (u128::from((t as u32) ^ 0x8000_0000) << 64)
            | (u128::from(s as u32) << 32)
            | u128::from(!(len as u32))
    };
    let (mut best, mut best_key) = (0, u128::MAX);
    let mut k = items[0].next as usize;
    while k != 0 {
        let Bound { bound: b, slack } = bounds[k];
        let s = slack.min(b);
        let len = nodes[k].itm;
        let t = len + s - b + 1;
        let kk = key(t, s, len);
        if kk < best_key {
            (best, best_key) = (k, kk);
            if FORCED && t <= 1 {
                break;
            }
        }
        k = items[k].next as usize;
    }
    let score = if best == 0 {
        i32::MAX
    } else {
        ((best_key >> 64) as u32 ^ 0x8000_0000) as i32
    };
    (best, score)
}

/// M5's test: `x`, the next candidate in item `i`'s list (its header for
/// the null move), if it may be tried; `None` when the level is done.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn candidate(s: &LinksState<'_>, i: usize, x: u32) -> Option<u32> {
    let Bound { bound: b, slack } = View::new(&s.bounds)[i];
    if b == 0 && slack == 0 {
        // Exact cover's case: the item is covered, every option is tried.
        return (x as usize != i).then_some(x);
    }
    // Too few options left to reach the lower bound: back up.
    (View::new(&s.nodes)[i].itm > b - slack).then_some(x)
}

/// Takes `x`, the top of item `i`'s list, out of it; with `block` (the
/// item is still active) hides its option from every other list first.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn tweak<const COLORS: bool>(
    nodes: &mut [Node],
    colors: &[i32],
    watch: &mut Watch,
    x: usize,
    block: bool,
    first: usize,
) -> u64 {
    let mut updates = 0;
    if block {
        updates += hide::<COLORS, false, 0>(nodes, colors, watch, x, first);
    }
    let mut nodes = Arena::new(nodes);
    let Node { up, down, itm } = nodes[x];
    nodes[up as usize].down = down;
    nodes[down as usize].up = up;
    nodes[itm as usize].itm -= 1;
    updates + 1
}

/// Undoes the tweaks of one level: puts the options from `a` (the first
/// one tweaked) down to the current top back in item `i`'s list, and with
/// `unblock` in their other lists; without it, uncovers `i` (whose cover
/// had hidden them).
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn untweak<const COLORS: bool>(
    s: &mut LinksState<'_>,
    i: usize,
    a: usize,
    unblock: bool,
    first: usize,
) {
    let z = View::new(&s.nodes)[i].down as usize;
    Arena::new(&mut s.nodes)[i].down = a as u32;
    let (mut x, mut y, mut k) = (a, i, 0);
    while x != z {
        Arena::new(&mut s.nodes)[x].up = y as u32;
        k += 1;
        if unblock {
            unhide::<COLORS, 0>(&mut s.nodes, &s.colors, x, first);
        }
        y = x;
        x = View::new(&s.nodes)[x].down as usize;
    }
    let mut nodes = Arena::new(&mut s.nodes);
    nodes[z].up = y as u32;
    nodes[i].itm += k;
    if !unblock {
        uncover::<COLORS, 0>(&mut s.nodes, &mut s.items, &s.colors, i, first);
    }
}

/// M6 without the branching item: every other item of `p`'s option uses
/// one of its bound (covered at 0) or, if secondary, is covered or
/// purified.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn commit_bounded<const COLORS: bool>(
    s: &mut LinksState<'_>,
    p: usize,
    n_primary: usize,
    first: usize,
) -> u64 {
    let mut updates = 0;
    let mut q = p + 1;
    while q != p {
        let Node { up, itm, .. } = View::new(&s.nodes)[q];
        if itm <= 0 {
            q = up as usize;
            continue;
        }
        updates += commit_node::<COLORS>(s, q, n_primary, first);
        q += 1;
    }
    updates
}

/// Undoes [`commit_bounded`], walking the option backwards.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn uncommit_bounded<const COLORS: bool>(
    s: &mut LinksState<'_>,
    p: usize,
    n_primary: usize,
    first: usize,
) {
    let mut q = p - 1;
    while q != p {
        let Node { down, itm, .. } = View::new(&s.nodes)[q];
        if itm <= 0 {
            q = down as usize;
            continue;
        }
        uncommit_node::<COLORS>(s, q, n_primary, first);
        q -= 1;
    }
}

/// The item of node `q` takes its option: a primary item uses one of its
/// bound (and is covered when none is left), a secondary one is covered,
/// or purified to `q`'s color.
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(super) unsafe fn commit_node<const COLORS: bool>(
    s: &mut LinksState<'_>,
    q: usize,
    n_primary: usize,
    first: usize,
) -> u64 {
    let c = View::new(&s.nodes)[q].itm as usize;
    let (nodes, items, colors, w) = (&mut s.nodes, &mut s.items, &mut s.colors, &mut s.watch);
    if c <= n_primary {
        let b = &mut Arena::new(&mut s.bounds)[c].bound;
        *b -= 1;
        if *b == 0 {
            return cover::<COLORS, false, 0>(nodes, items, colors, w, c, first);
        }
        0
    } else if !COLORS || colors[q] == 0 {
        cover::<COLORS, false, 0>(nodes, items, colors, w, c, first)
    } else if colors[q] > 0 {
        purify::<false>(nodes, colors, w, q, first)
    } else {
        0
    }
}

/// Undoes [`commit_node`].
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(super) unsafe fn uncommit_node<const COLORS: bool>(
    s: &mut LinksState<'_>,
    q: usize,
    n_primary: usize,
    first: usize,
) {
    let c = View::new(&s.nodes)[q].itm as usize;
    let (nodes, items, colors) = (&mut s.nodes, &mut s.items, &mut s.colors);
    if c <= n_primary {
        let b = &mut Arena::new(&mut s.bounds)[c].bound;
        if *b == 0 {
            uncover::<COLORS, 0>(nodes, items, colors, c, first);
        }
        *b += 1;
    } else if !COLORS || colors[q] == 0 {
        uncover::<COLORS, 0>(nodes, items, colors, c, first);
    } else if colors[q] > 0 {
        unpurify(nodes, colors, q, first);
    }
}

/// Takes item slot `i` off the active list (the null move), or puts it back.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn set_active(items: &mut [Link], i: usize, active: bool) {
    let mut items = Arena::new(items);
    let Link { prev, next } = items[i];
    if active {
        items[prev as usize].next = i as u32;
        items[next as usize].prev = i as u32;
    } else {
        items[prev as usize].next = next;
        items[next as usize].prev = prev;
    }
}

impl<'m, const COLORS: bool, const FORCED: bool> Kernel for Mult<'m, COLORS, FORCED> {
    type Tables = Matrix;
    type State = LinksState<'m>;
    const UNDOES: bool = true;

    unsafe fn start(_m: &Matrix, s: &mut LinksState<'m>) {
        s.watch.clear();
    }

    /// M2–M5: choose the item, take one from its bound (covering it at 0),
    /// and name its first candidate.
    #[inline(always)]
    unsafe fn enter(m: &Matrix, s: &mut LinksState<'m>, level: usize, stats: &mut Stats) -> Enter {
        let (i, score) = choose::<FORCED>(&s.nodes, &s.items, &s.bounds);
        if i == 0 {
            return Enter::Solved;
        }
        if score <= 0 {
            s.item[level] = 0;
            return Enter::DEAD;
        }
        s.item[level] = i as u32;
        let x = View::new(&s.nodes)[i].down;
        s.first_tweak[level] = x;
        let b = &mut Arena::new(&mut s.bounds)[i].bound;
        *b -= 1;
        if *b == 0 {
            let first = m.first_spacer();
            let (nodes, items, colors, w) = (&mut s.nodes, &mut s.items, &s.colors, &mut s.watch);
            stats.updates += cover::<COLORS, false, 0>(nodes, items, colors, w, i, first);
        }
        let degree = score as u32;
        Enter::Item {
            first: candidate(s, i, x),
            branch: degree >= 2,
            len: degree,
        }
    }

    /// M5's tweak and M6: the option of node `p`, or the null move.
    #[inline(always)]
    unsafe fn commit(
        m: &Matrix,
        s: &mut LinksState<'m>,
        level: usize,
        p: u32,
        stats: &mut Stats,
    ) -> bool {
        let i = s.item[level] as usize;
        let p = p as usize;
        let first = m.first_spacer();
        let Bound { bound, slack } = View::new(&s.bounds)[i];
        if p == i {
            if bound != 0 {
                set_active(&mut s.items, i, false);
            }
            return s.items[0].next == 0;
        }
        if bound != 0 || slack != 0 {
            let (nodes, colors, w) = (&mut s.nodes, &s.colors, &mut s.watch);
            stats.updates += tweak::<COLORS>(nodes, colors, w, p, bound != 0, first);
        }
        stats.updates += commit_bounded::<COLORS>(s, p, m.primary_count(), first);
        s.items[0].next == 0
    }

    /// M7 and M5: takes `p` back and names the next candidate.
    #[inline(always)]
    unsafe fn retract(m: &Matrix, s: &mut LinksState<'m>, level: usize, p: u32) -> Option<u32> {
        let i = s.item[level] as usize;
        if p as usize == i {
            // M9's reactivation; M8 (leave) follows.
            set_active(&mut s.items, i, true);
            return None;
        }
        uncommit_bounded::<COLORS>(s, p as usize, m.primary_count(), m.first_spacer());
        let x = View::new(&s.nodes)[p as usize].down;
        candidate(s, i, x)
    }

    /// M8: restores the item (uncover, or untweak) and its bound.
    #[inline(always)]
    unsafe fn leave(m: &Matrix, s: &mut LinksState<'m>, level: usize) {
        let i = s.item[level] as usize;
        if i == 0 {
            return;
        }
        let first = m.first_spacer();
        let Bound { bound, slack } = View::new(&s.bounds)[i];
        if bound == 0 && slack == 0 {
            uncover::<COLORS, 0>(&mut s.nodes, &mut s.items, &s.colors, i, first);
        } else {
            let a = s.first_tweak[level] as usize;
            untweak::<COLORS>(s, i, a, bound != 0, first);
        }
        Arena::new(&mut s.bounds)[i].bound += 1;
    }

    unsafe fn unwind(m: &Matrix, s: &mut LinksState<'m>, level: usize, p: u32) {
        // Retracting changes nothing but the option (or the null move); the
        // candidate it names is not wanted.
        let _ = Self::retract(m, s, level, p);
        Self::leave(m, s, level);
    }
}
