//! Algorithm M (TAOCP 7.2.2.1; Knuth's DLX3) on the links engine's own
//! links: the operations of `search/mult.rs`, which has the steps M2–M9
//! once for every engine (and says them in words).
//!
//! The state keeps, per item, DLX3's *bound* (how many more options may
//! still use it, `v` at the start) and *slack* (`v - u`, fixed), from
//! [`Matrix::bounds`]. The representation dances and undoes: a tweak takes
//! the top of the item's list out of it (and, while the item is active,
//! hides the option from every other list); M8's *untweak* puts the level's
//! tweaked options back in one pass, from the first one tweaked
//! (`first_tweak`, kept per level), Knuth's "punch line"; the null move
//! takes the item off the active list and M9 puts it back.
//!
//! Counters are DLX3's: a node at every entry (dead ends and solutions
//! included), an update per link removed by cover, hide, purify and tweak.
//!
//! The cursor is a node: an option's node in the branching item's list, or
//! the item's header for the null move, which names no option (the
//! solver's solutions leave it out).
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
use crate::dlx::search::mult::{AlgorithmM, Choice, Levels, MultOps};
use crate::dlx::stats::Stats;
use crate::dlx::ItemId;

/// Algorithm M's operations on the links (`search/mult.rs` has the steps):
/// DLX2's colors with `COLORS`; with `FORCED` the choice stops at the first
/// item whose θ is 1 or less (first-forced). Options are walked to their
/// spacers: walking them by arithmetic when all have one length, as the
/// links kernel does, measured no faster here (two-queens 8: 1.15 s either
/// way).
pub(super) struct LinksMult<'m, const COLORS: bool, const FORCED: bool>(
    std::marker::PhantomData<&'m ()>,
);

/// The Algorithm M kernel on the links.
pub(super) type Mult<'m, const COLORS: bool, const FORCED: bool> =
    AlgorithmM<LinksMult<'m, COLORS, FORCED>>;

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

impl<'m, const COLORS: bool, const FORCED: bool> MultOps for LinksMult<'m, COLORS, FORCED> {
    type Tables = Matrix;
    type State = LinksState<'m>;
    const UNDOES: bool = true;

    /// The null move's cursor is the item's header, where its list ends.
    #[inline(always)]
    fn null(i: usize) -> u32 {
        i as u32
    }

    #[inline(always)]
    fn levels<'a>(s: &'a mut LinksState<'m>) -> Levels<'a> {
        s.mult.with(&mut s.item)
    }

    unsafe fn start(_m: &Matrix, s: &mut LinksState<'m>) {
        s.watch.clear();
    }

    #[inline(always)]
    unsafe fn choose(_m: &Matrix, s: &mut LinksState<'m>, _l: usize) -> Option<Choice> {
        let (i, theta) = choose::<FORCED>(&s.nodes, &s.items, &s.bounds);
        if i == 0 {
            return None;
        }
        let Bound { bound, slack } = View::new(&s.bounds)[i];
        Some(Choice {
            item: i,
            theta,
            len: View::new(&s.nodes)[i].itm as u32,
            bound: bound as u32,
            slack: slack as u32,
        })
    }

    #[inline(always)]
    unsafe fn use_one(
        m: &Matrix,
        s: &mut LinksState<'m>,
        l: usize,
        i: usize,
        bound: u32,
        stats: &mut Stats,
    ) -> Option<u32> {
        let x = View::new(&s.nodes)[i].down;
        Arena::new(&mut s.first_tweak)[l] = x;
        Arena::new(&mut s.bounds)[i].bound = bound as i32;
        if bound == 0 {
            let first = m.first_spacer();
            let (nodes, items, colors, w) = (&mut s.nodes, &mut s.items, &s.colors, &mut s.watch);
            stats.updates += cover::<COLORS, false, 0>(nodes, items, colors, w, i, first);
        }
        (x as usize != i).then_some(x)
    }

    #[inline(always)]
    unsafe fn tweak(
        m: &Matrix,
        s: &mut LinksState<'m>,
        _l: usize,
        _i: usize,
        r: u32,
        hide: bool,
    ) -> u64 {
        let (nodes, colors, w) = (&mut s.nodes, &s.colors, &mut s.watch);
        tweak::<COLORS>(nodes, colors, w, r as usize, hide, m.first_spacer())
    }

    #[inline(always)]
    unsafe fn commit(
        m: &Matrix,
        s: &mut LinksState<'m>,
        _l: usize,
        _i: usize,
        r: u32,
        stats: &mut Stats,
    ) -> bool {
        stats.updates +=
            commit_bounded::<COLORS>(s, r as usize, m.primary_count(), m.first_spacer());
        s.items[0].next == 0
    }

    #[inline(always)]
    unsafe fn end(_m: &Matrix, s: &mut LinksState<'m>, _l: usize, i: usize, active: bool) -> bool {
        if active {
            set_active(&mut s.items, i, false);
        }
        s.items[0].next == 0
    }

    #[inline(always)]
    unsafe fn next(
        _m: &Matrix,
        s: &mut LinksState<'m>,
        _l: usize,
        i: usize,
        r: u32,
    ) -> Option<u32> {
        let x = View::new(&s.nodes)[r as usize].down;
        (x as usize != i).then_some(x)
    }

    #[inline(always)]
    unsafe fn unend(_m: &Matrix, s: &mut LinksState<'m>, _l: usize, i: usize) {
        set_active(&mut s.items, i, true);
    }

    #[inline(always)]
    unsafe fn uncommit(m: &Matrix, s: &mut LinksState<'m>, _l: usize, _i: usize, r: u32) {
        uncommit_bounded::<COLORS>(s, r as usize, m.primary_count(), m.first_spacer());
    }

    #[inline(always)]
    unsafe fn restore(
        m: &Matrix,
        s: &mut LinksState<'m>,
        l: usize,
        i: usize,
        bound: u32,
        slack: u32,
    ) {
        let first = m.first_spacer();
        if bound == 0 && slack == 0 {
            uncover::<COLORS, 0>(&mut s.nodes, &mut s.items, &s.colors, i, first);
        } else {
            let a = View::new(&s.first_tweak)[l] as usize;
            untweak::<COLORS>(s, i, a, bound != 0, first);
        }
        Arena::new(&mut s.bounds)[i].bound += 1;
    }
}
