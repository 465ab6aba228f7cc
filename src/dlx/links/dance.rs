//! The dancing: `cover`, `uncover`, `hide`, `unhide`, `purify`, `unpurify`.
//!
//! These are Knuth's routines from DLX1 (and DLX2 for colors) over the
//! index arenas of [`crate::dlx::matrix`]. They are free functions over
//! slices so that the search loop can hold its arrays in locals; each returns
//! the number of *updates* (link removals) it made, undo routines none.
//!
//! Invariants they rely on (established by the builder):
//! * header nodes sit below `first` (the first spacer), option nodes above;
//! * an option's nodes are contiguous and closed by spacers whose `up` and
//!   `down` jump back to the option's first and last node;
//! * undo runs in exactly the reverse order of do.
//!
//! The `COLORS` parameter selects DLX2's behaviour at compile time, so the
//! uncolored search pays nothing for colors: with `COLORS = false` the
//! `colors` slice is never read. In DLX2 a node whose color is negative has
//! been *purified* (its option agrees with the color already chosen for its
//! item), and hiding passes over it without unlinking.
//!
//! Why not the nicer `for node in option_nodes(p)` iterator style: the spacer
//! jump (`q = up`) keeps the walk to one compare per node and no bounds on
//! the option, which is what makes this loop as tight as Knuth's.

#![allow(unsafe_code)]

use crate::dlx::matrix::{Link, Node};
use crate::dlx::unchecked::{at_mut, get};
use std::ops::{Index, IndexMut};

/// A slice indexed without bounds checks, for the links of one solver.
///
/// Bounds checks cost about a third of the search's time here (pentominoes
/// 5×12: 136M updates/s checked, 203M unchecked, best of several runs), because
/// every update touches four nodes. They are removed under one invariant,
/// which the builder establishes and these routines keep:
///
/// * every `up`/`down` field holds an index of the node array, and every
///   option node's `itm` an item slot `1..=n`; the routines only ever copy
///   such values from one field to another;
/// * every option is bracketed by spacers, so `q + 1` and `q - 1` from an
///   option node stay inside the array;
/// * the `items` array has a slot for every item and both list heads.
///
/// The arrays are private to [`crate::dlx::LinksSolver`] and only built by
/// [`crate::dlx::MatrixBuilder`], so no caller can break the invariant. Debug
/// builds keep the checks (`debug_assert!`), and the tests run under Miri
/// (`unchecked.rs` holds the one unchecked access and its SAFETY argument).
///
/// Making one is `unsafe`: the maker promises that every index used
/// through it is in bounds, which the invariant above gives for the
/// indices these routines read from the arrays themselves. So the routines
/// that make arenas are `unsafe fn`s over arrays that hold the invariant,
/// and the solver's safe methods call them on its own arrays.
pub(super) struct Arena<'a, T>(&'a mut [T]);

/// A read-only [`Arena`], under the same invariant.
pub(super) struct View<'a, T>(&'a [T]);

impl<'a, T> Arena<'a, T> {
    /// # Safety
    /// Every index used through the arena is below `s.len()`.
    #[inline(always)]
    pub(super) unsafe fn new(s: &'a mut [T]) -> Self {
        Arena(s)
    }
}

impl<'a, T> View<'a, T> {
    /// # Safety
    /// Every index used through the view is below `s.len()`.
    #[inline(always)]
    pub(super) unsafe fn new(s: &'a [T]) -> Self {
        View(s)
    }
}

impl<T> Index<usize> for Arena<'_, T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        // SAFETY: `i` is in bounds, the promise of `Arena::new`.
        unsafe { get(self.0, i) }
    }
}

impl<T> Index<usize> for View<'_, T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        // SAFETY: `i` is in bounds, the promise of `View::new`.
        unsafe { get(self.0, i) }
    }
}

impl<T> IndexMut<usize> for Arena<'_, T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        // SAFETY: `i` is in bounds, the promise of `Arena::new`.
        unsafe { at_mut(self.0, i) }
    }
}

/// Added to a header's len while its item is covered, so that a covered item
/// is never the smallest: [`choose_forced`] can then scan the headers of all
/// primary items in index order — an array, no list to chase — and still see
/// only the active ones. An item's len stays below it (the builder caps the
/// nodes at `i32::MAX / 2`), and no hide touches a covered item's len: no
/// active option holds a covered item.
pub(crate) const COVERED: i32 = 1 << 30;

/// The item to branch on: the smallest len among the primary items on the
/// root's list, leftmost on ties (DLX1). Returns 0 when the list is empty.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn choose(nodes: &[Node], items: &[Link]) -> usize {
    let (nodes, items) = (View::new(nodes), View::new(items));
    let mut best = 0;
    let mut t = i32::MAX;
    let mut k = items[0].next as usize;
    while k != 0 {
        let len = nodes[k].itm;
        if len < t {
            best = k;
            t = len;
        }
        k = items[k].next as usize;
    }
    best
}

/// The leftmost active primary item of len 1 or less, else the one that
/// [`choose`] would pick; 0 when every primary item is covered.
///
/// It scans the headers of items `1..=n_primary` (nodes `1..=n_primary`) in
/// index order, the root list's order, passing over covered ones by their
/// len (see [`COVERED`]), instead of walking the root's list, where each
/// step waits for the load before. For the Sudoku search that is 9% less
/// time on 20,000 17-clue puzzles and on 5,000 of the hardest, 2% on
/// top1465 (`dlx sudoku check --jobs 1`, best of 5, interleaved). Knuth's
/// rule keeps the list: it always scans to the end, and the list passes
/// over the covered items (by the array, Langford pairs 12 took 10% more
/// time, pentominoes 4×15 11%).
#[inline]
pub(crate) fn choose_forced(nodes: &[Node], n_primary: usize) -> usize {
    let mut best = 0;
    let mut t = COVERED;
    for (k, h) in nodes[1..=n_primary].iter().enumerate() {
        let len = h.itm;
        if len < t {
            best = k + 1;
            t = len;
            if t <= 1 {
                break;
            }
        }
    }
    best
}

/// Items whose len fell to 1 or 0 while hiding ([`Branching::FirstForced`]):
/// a stack with a fixed capacity (pushing never allocates; a full stack
/// drops the entry) and the latest item that fell to 0.
///
/// [`Branching::FirstForced`]: crate::dlx::Branching::FirstForced
#[derive(Clone, Debug)]
pub(crate) struct Watch {
    stack: Vec<u32>,
    /// The latest item whose len fell to 0 (0: none): a dead end, which the
    /// next choice takes first, so no work is done below it.
    dead: u32,
    /// Whether an entry was dropped since the last `clear` (the stack was
    /// full): then only a scan can tell that no item is forced.
    dropped: bool,
}

impl Watch {
    pub(crate) fn new(capacity: usize) -> Self {
        Watch {
            stack: Vec::with_capacity(capacity),
            dead: 0,
            dropped: false,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.stack.clear();
        self.dead = 0;
        self.dropped = false;
    }

    /// The latest item noted at len 0 (0: none), forgotten.
    pub(crate) fn take_dead(&mut self) -> u32 {
        std::mem::take(&mut self.dead)
    }

    #[inline(always)]
    fn note(&mut self, itm: u32, len: i32) {
        if len == 0 {
            self.dead = itm;
        }
        if self.stack.len() < self.stack.capacity() {
            self.stack.push(itm);
        } else {
            self.dropped = true;
        }
    }

    /// The latest watched primary item that is still active with len 1 or
    /// less, or 0 when none is. Exact if nothing was dropped and no such
    /// item existed when the watch was last cleared: the probing of
    /// the links engine's lookahead (`lookahead.rs`) relies on that, and
    /// scans otherwise.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(crate) unsafe fn pop_forced(&mut self, nodes: &[Node], n_primary: usize) -> usize {
        while let Some(x) = self.stack.pop() {
            if is_forced(nodes, x as usize, 1, n_primary) {
                return x as usize;
            }
        }
        if self.dropped {
            self.dropped = false;
            let best = choose_forced(nodes, n_primary);
            if is_forced(nodes, best, 1, n_primary) {
                return best;
            }
        }
        0
    }
}

/// Takes the option of node `p` out of every list it is in (all of its
/// nodes, `p`'s too): probing found that it leads to no solution. Returns
/// the updates; an item whose len drops to 1 or 0 is noted on `watch`.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn remove_option(nodes: &mut [Node], watch: &mut Watch, p: usize) -> u64 {
    let mut nodes = Arena::new(nodes);
    let mut q = p;
    while nodes[q - 1].itm > 0 {
        q -= 1;
    }
    let mut updates = 0;
    while nodes[q].itm > 0 {
        let Node { up, down, itm } = nodes[q];
        nodes[up as usize].down = down;
        nodes[down as usize].up = up;
        let len = nodes[itm as usize].itm - 1;
        nodes[itm as usize].itm = len;
        if len <= 1 {
            watch.note(itm as u32, len);
        }
        updates += 1;
        q += 1;
    }
    updates
}

/// Undoes [`remove_option`], walking the option backwards.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn restore_option(nodes: &mut [Node], p: usize) {
    let mut nodes = Arena::new(nodes);
    let mut q = p;
    while nodes[q + 1].itm > 0 {
        q += 1;
    }
    while nodes[q].itm > 0 {
        let Node { up, down, itm } = nodes[q];
        nodes[up as usize].down = q as u32;
        nodes[down as usize].up = q as u32;
        nodes[itm as usize].itm += 1;
        q -= 1;
    }
}

/// Whether slot `x` is an active primary item with len `most` or less (a
/// covered item's len is at least [`COVERED`]).
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn is_forced(nodes: &[Node], x: usize, most: i32, n_primary: usize) -> bool {
    x != 0 && x <= n_primary && View::new(nodes)[x].itm <= most
}

/// The branching item from the watch list: a dead item (len 0) if one is
/// noted and still valid, else the most recently watched primary item that
/// is still active with len 1 or less. Stale entries (covered since, or len
/// grown back by an undo) are dropped; when none is left, the full scan of
/// [`choose`] decides. The list only speeds the choice up: every entry is
/// checked against the links, so a missing entry costs a scan, never a wrong
/// choice.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn choose_watched(nodes: &[Node], watch: &mut Watch, n_primary: usize) -> usize {
    let valid = |x: usize, most: i32| is_forced(nodes, x, most, n_primary);
    let dead = std::mem::take(&mut watch.dead) as usize;
    if valid(dead, 0) {
        return dead;
    }
    while let Some(x) = watch.stack.pop() {
        if valid(x as usize, 1) {
            return x as usize;
        }
    }
    choose_forced(nodes, n_primary)
}

/// Removes item `c` from its list and hides every option in `c`'s list.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn cover<const COLORS: bool, const WATCH: bool, const UL: usize>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &[i32],
    watch: &mut Watch,
    c: usize,
    first: usize,
) -> u64 {
    let mut items = Arena::new(items);
    let Link { prev, next } = items[c];
    items[prev as usize].next = next;
    items[next as usize].prev = prev;
    let mut updates = 1;
    Arena::new(&mut *nodes)[c].itm += COVERED;
    let mut rr = View::new(nodes)[c].down as usize;
    while rr > first {
        updates += hide::<COLORS, WATCH, UL>(nodes, colors, watch, rr, first);
        rr = View::new(nodes)[rr].down as usize;
    }
    updates
}

/// Undoes [`cover`]: unhides `c`'s options bottom-up, then relinks `c`.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn uncover<const COLORS: bool, const UL: usize>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &[i32],
    c: usize,
    first: usize,
) {
    let mut rr = View::new(nodes)[c].up as usize;
    while rr > first {
        unhide::<COLORS, UL>(nodes, colors, rr, first);
        rr = View::new(nodes)[rr].up as usize;
    }
    Arena::new(&mut *nodes)[c].itm -= COVERED;
    let mut items = Arena::new(items);
    let Link { prev, next } = items[c];
    items[prev as usize].next = c as u32;
    items[next as usize].prev = c as u32;
}

/// Unlinks every node of `p`'s option except `p` from its item's list.
///
/// With `WATCH`, an item whose len drops to 1 or 0 is pushed on `watch` (while
/// it has room: it never grows), for [`choose_watched`].
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn hide<const COLORS: bool, const WATCH: bool, const UL: usize>(
    nodes: &mut [Node],
    colors: &[i32],
    watch: &mut Watch,
    p: usize,
    first: usize,
) -> u64 {
    let mut nodes = Arena::new(nodes);
    let mut updates = 0;
    let mut unlink = |nodes: &mut Arena<'_, Node>, q: usize| {
        let Node { up, down, itm } = nodes[q];
        if !COLORS || colors[q] >= 0 {
            nodes[up as usize].down = down;
            nodes[down as usize].up = up;
            let len = nodes[itm as usize].itm - 1;
            nodes[itm as usize].itm = len;
            updates += 1;
            if WATCH && len <= 1 {
                watch.note(itm as u32, len);
            }
        }
    };
    if UL > 0 {
        let (start, pos) = uniform_position::<UL>(p, first);
        for j in 1..UL {
            unlink(&mut nodes, start + (pos + j) % UL);
        }
    } else {
        let mut q = p + 1;
        while q != p {
            let Node { up, itm, .. } = nodes[q];
            if itm <= 0 {
                q = up as usize;
                continue;
            }
            unlink(&mut nodes, q);
            q += 1;
        }
    }
    updates
}

/// Where node `p` sits when every option has `UL` nodes: its option's first
/// node and `p`'s position in it. Options then stand at a stride of `UL + 1`
/// (nodes and a spacer) from the first spacer, so this is arithmetic, and the
/// walks over an option become `UL - 1` steps with no spacer test and no
/// data-dependent exit.
#[inline(always)]
fn uniform_position<const UL: usize>(p: usize, first: usize) -> (usize, usize) {
    let pos = (p - first - 1) % (UL + 1);
    (p - pos, pos)
}

/// Undoes [`hide`], walking the option backwards.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn unhide<const COLORS: bool, const UL: usize>(
    nodes: &mut [Node],
    colors: &[i32],
    p: usize,
    first: usize,
) {
    let mut nodes = Arena::new(nodes);
    let relink = |nodes: &mut Arena<'_, Node>, q: usize| {
        let Node { up, down, itm } = nodes[q];
        if !COLORS || colors[q] >= 0 {
            nodes[up as usize].down = q as u32;
            nodes[down as usize].up = q as u32;
            nodes[itm as usize].itm += 1;
        }
    };
    if UL > 0 {
        let (start, pos) = uniform_position::<UL>(p, first);
        for j in (1..UL).rev() {
            relink(&mut nodes, start + (pos + j) % UL);
        }
    } else {
        let mut q = p - 1;
        while q != p {
            let Node { down, itm, .. } = nodes[q];
            if itm <= 0 {
                q = down as usize;
                continue;
            }
            relink(&mut nodes, q);
            q -= 1;
        }
    }
}

/// DLX2's `purify(p)`: `p`'s item takes `p`'s color; options of another color
/// are hidden, and the others are marked (color -1) as already agreeing.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn purify<const WATCH: bool>(
    nodes: &mut [Node],
    colors: &mut [i32],
    watch: &mut Watch,
    p: usize,
    first: usize,
) -> u64 {
    let c = nodes[p].itm as usize;
    let x = colors[p];
    let mut updates = 0;
    let mut rr = nodes[c].down as usize;
    while rr > first {
        if colors[rr] != x {
            updates += hide::<true, WATCH, 0>(nodes, colors, watch, rr, first);
        } else if rr != p {
            colors[rr] = -1;
        }
        rr = nodes[rr].down as usize;
    }
    updates
}

/// Undoes [`purify`], bottom-up.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn unpurify(nodes: &mut [Node], colors: &mut [i32], p: usize, first: usize) {
    let c = nodes[p].itm as usize;
    let x = colors[p];
    let mut rr = nodes[c].up as usize;
    while rr > first {
        if colors[rr] < 0 {
            colors[rr] = x;
        } else if rr != p {
            unhide::<true, 0>(nodes, colors, rr, first);
        }
        rr = nodes[rr].up as usize;
    }
}

/// Commits to the option of node `p`: covers (or purifies) every other item
/// of that option. `p`'s own item was covered by the caller.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn commit_others<const COLORS: bool, const WATCH: bool, const UL: usize>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &mut [i32],
    watch: &mut Watch,
    p: usize,
    first: usize,
) -> u64 {
    let mut updates = 0;
    if UL > 0 {
        let (start, pos) = uniform_position::<UL>(p, first);
        for j in 1..UL {
            let itm = View::new(nodes)[start + (pos + j) % UL].itm as usize;
            updates += cover::<COLORS, WATCH, UL>(nodes, items, colors, watch, itm, first);
        }
        return updates;
    }
    let mut q = p + 1;
    while q != p {
        let itm = nodes[q].itm;
        if itm <= 0 {
            q = nodes[q].up as usize;
            continue;
        }
        if !COLORS || colors[q] == 0 {
            updates += cover::<COLORS, WATCH, UL>(nodes, items, colors, watch, itm as usize, first);
        } else if colors[q] > 0 {
            updates += purify::<WATCH>(nodes, colors, watch, q, first);
        }
        q += 1;
    }
    updates
}

/// Undoes [`commit_others`], walking the option backwards.
#[inline]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(crate) unsafe fn uncommit_others<const COLORS: bool, const UL: usize>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &mut [i32],
    p: usize,
    first: usize,
) {
    if UL > 0 {
        let (start, pos) = uniform_position::<UL>(p, first);
        for j in (1..UL).rev() {
            let itm = View::new(nodes)[start + (pos + j) % UL].itm as usize;
            uncover::<COLORS, UL>(nodes, items, colors, itm, first);
        }
        return;
    }
    let mut q = p - 1;
    while q != p {
        let itm = nodes[q].itm;
        if itm <= 0 {
            q = nodes[q].down as usize;
            continue;
        }
        if !COLORS || colors[q] == 0 {
            uncover::<COLORS, UL>(nodes, items, colors, itm as usize, first);
        } else if colors[q] > 0 {
            unpurify(nodes, colors, q, first);
        }
        q -= 1;
    }
}
