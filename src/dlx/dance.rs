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

use super::matrix::{Link, Node};

/// Removes item `c` from its list and hides every option in `c`'s list.
#[inline]
pub(crate) fn cover<const COLORS: bool>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &[i32],
    c: usize,
    first: usize,
) -> u64 {
    let Link { prev, next } = items[c];
    items[prev as usize].next = next;
    items[next as usize].prev = prev;
    let mut updates = 1;
    let mut rr = nodes[c].down as usize;
    while rr > first {
        updates += hide::<COLORS>(nodes, colors, rr);
        rr = nodes[rr].down as usize;
    }
    updates
}

/// Undoes [`cover`]: unhides `c`'s options bottom-up, then relinks `c`.
#[inline]
pub(crate) fn uncover<const COLORS: bool>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &[i32],
    c: usize,
    first: usize,
) {
    let mut rr = nodes[c].up as usize;
    while rr > first {
        unhide::<COLORS>(nodes, colors, rr);
        rr = nodes[rr].up as usize;
    }
    let Link { prev, next } = items[c];
    items[prev as usize].next = c as u32;
    items[next as usize].prev = c as u32;
}

/// Unlinks every node of `p`'s option except `p` from its item's list.
#[inline]
pub(crate) fn hide<const COLORS: bool>(nodes: &mut [Node], colors: &[i32], p: usize) -> u64 {
    let mut updates = 0;
    let mut q = p + 1;
    while q != p {
        let Node { up, down, itm } = nodes[q];
        if itm <= 0 {
            q = up as usize;
            continue;
        }
        if !COLORS || colors[q] >= 0 {
            nodes[up as usize].down = down;
            nodes[down as usize].up = up;
            nodes[itm as usize].itm -= 1;
            updates += 1;
        }
        q += 1;
    }
    updates
}

/// Undoes [`hide`], walking the option backwards.
#[inline]
pub(crate) fn unhide<const COLORS: bool>(nodes: &mut [Node], colors: &[i32], p: usize) {
    let mut q = p - 1;
    while q != p {
        let Node { up, down, itm } = nodes[q];
        if itm <= 0 {
            q = down as usize;
            continue;
        }
        if !COLORS || colors[q] >= 0 {
            nodes[up as usize].down = q as u32;
            nodes[down as usize].up = q as u32;
            nodes[itm as usize].itm += 1;
        }
        q -= 1;
    }
}

/// DLX2's `purify(p)`: `p`'s item takes `p`'s color; options of another color
/// are hidden, and the others are marked (color -1) as already agreeing.
#[inline]
pub(crate) fn purify(nodes: &mut [Node], colors: &mut [i32], p: usize, first: usize) -> u64 {
    let c = nodes[p].itm as usize;
    let x = colors[p];
    let mut updates = 0;
    let mut rr = nodes[c].down as usize;
    while rr > first {
        if colors[rr] != x {
            updates += hide::<true>(nodes, colors, rr);
        } else if rr != p {
            colors[rr] = -1;
        }
        rr = nodes[rr].down as usize;
    }
    updates
}

/// Undoes [`purify`], bottom-up.
#[inline]
pub(crate) fn unpurify(nodes: &mut [Node], colors: &mut [i32], p: usize, first: usize) {
    let c = nodes[p].itm as usize;
    let x = colors[p];
    let mut rr = nodes[c].up as usize;
    while rr > first {
        if colors[rr] < 0 {
            colors[rr] = x;
        } else if rr != p {
            unhide::<true>(nodes, colors, rr);
        }
        rr = nodes[rr].up as usize;
    }
}

/// Commits to the option of node `p`: covers (or purifies) every other item
/// of that option. `p`'s own item was covered by the caller.
#[inline]
pub(crate) fn commit_others<const COLORS: bool>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &mut [i32],
    p: usize,
    first: usize,
) -> u64 {
    let mut updates = 0;
    let mut q = p + 1;
    while q != p {
        let itm = nodes[q].itm;
        if itm <= 0 {
            q = nodes[q].up as usize;
            continue;
        }
        if !COLORS || colors[q] == 0 {
            updates += cover::<COLORS>(nodes, items, colors, itm as usize, first);
        } else if colors[q] > 0 {
            updates += purify(nodes, colors, q, first);
        }
        q += 1;
    }
    updates
}

/// Undoes [`commit_others`], walking the option backwards.
#[inline]
pub(crate) fn uncommit_others<const COLORS: bool>(
    nodes: &mut [Node],
    items: &mut [Link],
    colors: &mut [i32],
    p: usize,
    first: usize,
) {
    let mut q = p - 1;
    while q != p {
        let itm = nodes[q].itm;
        if itm <= 0 {
            q = nodes[q].down as usize;
            continue;
        }
        if !COLORS || colors[q] == 0 {
            uncover::<COLORS>(nodes, items, colors, itm as usize, first);
        } else if colors[q] > 0 {
            unpurify(nodes, colors, q, first);
        }
        q -= 1;
    }
}
