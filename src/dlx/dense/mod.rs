//! Algorithm X over a bitset of active options, undone by copying: the
//! *dense* engine, for small uncolored matrices.
//!
//! The same algorithm as [`LinksSolver`](crate::dlx::LinksSolver), the same tree and
//! the same counters, with another representation of the live matrix. Where
//! DLX unlinks an option's nodes from their items' lists and relinks them on
//! the way back, this engine keeps, per search level, a *state*: one bit per
//! option (still active or not) and one len per primary item. To cover an
//! item it clears the bits of the item's active options, found by AND-ing a
//! fixed per-item mask with the active bits (or, for an item with few options
//! spread over many words, by testing its list of options), and decrements
//! the len of every primary item of each option it clears. To undo, it does
//! nothing: the level below still has its own state. Every hide is one bit
//! and a few decrements in a state that stays in L1 cache; every undo is
//! free; the price is copying the state (tens to hundreds of bytes) once or
//! twice a node. So it wins where nodes hide many options or the state is
//! tiny (pentominoes: half the DLX solver's time; queens: 15% less) and
//! loses where nodes hide few options of a large state (Sudoku); see
//! [`DenseMatrix::recommended`] and BENCHMARKS.md.
//!
//! Invariants:
//! * a state is one slot of `words` active bits followed by one `u16` len
//!   per primary item, four to a word; a covered item's len is [`COVERED`],
//!   and no active option contains it;
//! * the len of an uncovered primary item is the number of its active
//!   options; secondary items have no len (nothing reads it), and an
//!   option's items are stored primary items first, so hiding decrements
//!   the primary ones only;
//! * slot `2l` holds the state on entering level `l`, slot `2l + 1` the same
//!   after covering the level's branching item (skipped when the item has one
//!   option: its commitment covers it); levels below `level` are committed,
//!   as in the DLX solver, so a paused search resumes anywhere;
//! * there are `2 · (max_depth + 2)` slots and the driver enters at most
//!   `max_depth` levels, so slots `2l` to `2l + 2` exist at every level
//!   `l`: the kernels read, copy and split slots without bounds checks
//!   (`unchecked.rs`).
//!
//! Counters are DLX1's: a hide counts one update per node of the option
//! other than the covering item's, covering an item one more, a node every
//! level entered and every solution. With [`Branching::Knuth`](crate::dlx::Branching::Knuth) the tree,
//! `nodes` and `updates` equal the DLX solver's exactly (tests check it).
//! [`Branching::FirstForced`](crate::dlx::Branching::FirstForced) remembers, as the DLX solver does, items whose
//! len fell to 1 or 0 and takes the latest still valid, else the leftmost
//! item of len ≤ 1, else Knuth's choice; items are hidden in another order
//! than DLX's, so the tree differs (same solutions).
//!
//! With multiplicities the search is Algorithm M (DLX3), in `mult.rs`: a
//! state then holds also a bound per primary item, and the counters are
//! DLX3's.
//!
//! When it applies ([`DenseMatrix::new`]): no colors (a colored secondary
//! item would need a color per node; the DLX solver handles those), bounds
//! up to 65,534, and a state of at most [`MAX_STATE_BYTES`]. Sudoku 9×9 is 744 bytes, 16×16
//! 2,560; queens 13 76, pentominoes on 6×10 360.

#![allow(unsafe_code)]

use crate::dlx::index::{ItemId, OptionId};
use crate::dlx::unchecked::{at, at_mut};
use crate::dlx::Matrix;
use std::fmt;

mod mult;
mod propagate;
mod search;

use search::Watch;
pub use search::{DenseSolutions, DenseSolver};

/// The len of a covered item (no uncovered item reaches it: see
/// [`DenseMatrix::new`]).
const COVERED: u16 = u16::MAX;

/// In `DenseSolver::item`: the level's item had one option and was not
/// covered on its own (see `forward`).
const FORCED_FLAG: u32 = 1 << 31;

/// The largest state (active bits plus lens) the dense engine takes on; past
/// it, copying the state each node costs more than DLX's dancing.
pub const MAX_STATE_BYTES: usize = 8192;

/// Bytes of a state: a bit per option, a `u16` len per primary item, and
/// with multiplicities (`bounded`) a `u16` bound per primary item.
fn state_bytes(options: usize, primary: usize, bounded: bool) -> usize {
    options.div_ceil(64) * 8 + primary * 2 * (1 + usize::from(bounded))
}

/// A state this small is cheap enough to copy that the dense engine is
/// [recommended](DenseMatrix::recommended) for options of four items.
pub const SMALL_STATE_BYTES: usize = 256;

/// Why a matrix is not for the dense engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DenseError {
    /// The matrix has colors.
    Colors,
    /// A primary item's upper bound (DLX3's `u:v|`) is past what a state
    /// holds (65,534); the links engine takes any.
    LargeBound(u32),
    /// Its state would take this many bytes, over [`MAX_STATE_BYTES`].
    TooLarge(usize),
    /// An item is in this many options, more than a len can count.
    LongItem(usize),
}

impl fmt::Display for DenseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DenseError::Colors => write!(f, "the matrix has colors"),
            DenseError::LargeBound(v) => write!(
                f,
                "a multiplicity of {v} is past the dense engine's 65,534 (the links engine takes it)"
            ),
            DenseError::TooLarge(b) => write!(
                f,
                "its search state would take {b} bytes (the dense engine takes up to {MAX_STATE_BYTES})"
            ),
            DenseError::LongItem(n) => write!(f, "an item is in {n} options (at most 65,534)"),
        }
    }
}

impl std::error::Error for DenseError {}

/// The fixed tables of the dense engine for one [`Matrix`]: every option's
/// items, every item's options as a bit mask. Immutable; share it between
/// any number of [`DenseSolver`]s.
#[derive(Clone, Debug)]
pub struct DenseMatrix {
    primary: usize,
    options: usize,
    /// Words of active bits in a state.
    words: usize,
    /// Option `r`'s items are `opt_items[opt_start[r]..opt_start[r + 1]]`,
    /// its primary items first, up to `opt_pend[r]`.
    opt_start: Vec<u32>,
    opt_items: Vec<u32>,
    opt_pend: Vec<u32>,
    /// Item `i`'s mask covers words `mask_lo[i]..mask_lo[i] + mask_len[i]`
    /// of a state, stored from `masks[mask_start[i]]`.
    mask_lo: Vec<u32>,
    mask_len: Vec<u32>,
    mask_start: Vec<u32>,
    masks: Vec<u64>,
    /// Items covered by walking their list of options instead of their mask
    /// (few options spread over many words); the lists, as `masks`.
    listed: Vec<bool>,
    list_start: Vec<u32>,
    lists: Vec<u32>,
    /// The state before anything is chosen.
    root_active: Vec<u64>,
    root_len: Vec<u16>,
    /// The common length of every option, and the common number of primary
    /// items in every option, or 0 and 0 (all options, searched or not).
    uniform: usize,
    uniform_primary: usize,
    /// Deepest level a search can reach: every level covers at least
    /// `min_primary` primary items (with multiplicities: commits each
    /// option once at most, or ends one item).
    max_depth: usize,
    /// Whether the matrix has multiplicities (the search is Algorithm M,
    /// `mult.rs`); then per primary item its upper bound less its lower
    /// one, and the bounds a search starts from (the upper ones).
    bounded: bool,
    slack: Vec<u16>,
    root_bound: Vec<u16>,
    /// DLX3's order as a key of 16 bits (then kept in the state in place
    /// of the lens) or 32, when it fits (`mult.rs`).
    narrow: Option<mult::NarrowKey>,
}

impl DenseMatrix {
    /// The dense tables of `matrix`, or why it is not for this engine.
    pub fn new(matrix: &Matrix) -> Result<DenseMatrix, DenseError> {
        if matrix.has_colors() {
            return Err(DenseError::Colors);
        }
        let primary = matrix.primary_count();
        let bounded = matrix.has_bounds();
        let (mut slack, mut root_bound) = (Vec::new(), Vec::new());
        if bounded {
            for i in 0..primary {
                let (lo, hi) = matrix.bounds(ItemId::must(i)).unwrap_or((1, 1));
                if hi >= u32::from(COVERED) {
                    return Err(DenseError::LargeBound(hi));
                }
                slack.push((hi - lo) as u16);
                root_bound.push(hi as u16);
            }
        }
        let items = matrix.item_count();
        let options = matrix.option_count();
        let words = options.div_ceil(64);
        let bytes = state_bytes(options, primary, bounded);
        if bytes > MAX_STATE_BYTES {
            return Err(DenseError::TooLarge(bytes));
        }
        let mut opt_start = Vec::with_capacity(options + 1);
        let mut opt_items = Vec::new();
        let mut opt_pend = Vec::with_capacity(options);
        let mut root_active = vec![0u64; words];
        let mut count = vec![0usize; items];
        let mut min_primary = usize::MAX;
        opt_start.push(0);
        for r in 0..options {
            let o = OptionId::must(r);
            let searched = matrix.option_items(o).any(|(i, _)| matrix.is_primary(i));
            // Primary items first: only their lens are kept.
            let mut prim = 0;
            for primary_pass in [true, false] {
                for (i, _) in matrix.option_items(o) {
                    if matrix.is_primary(i) != primary_pass {
                        continue;
                    }
                    opt_items.push(i.as_usize() as u32);
                    if searched {
                        count[i.as_usize()] += 1;
                        prim += usize::from(primary_pass);
                    }
                }
                if primary_pass {
                    opt_pend.push(opt_items.len() as u32);
                }
            }
            opt_start.push(opt_items.len() as u32);
            if searched {
                root_active[r / 64] |= 1 << (r % 64);
                min_primary = min_primary.min(prim);
            }
        }
        if let Some(&most) = count.iter().max() {
            if most >= usize::from(COVERED) {
                return Err(DenseError::LongItem(most));
            }
        }
        // Each item's mask, over the words its options span.
        let mut lo = vec![u32::MAX; items];
        let mut hi = vec![0u32; items];
        for r in (0..options).filter(|r| root_active[r / 64] >> (r % 64) & 1 != 0) {
            for &i in &opt_items[opt_start[r] as usize..opt_start[r + 1] as usize] {
                let (i, w) = (i as usize, (r / 64) as u32);
                lo[i] = lo[i].min(w);
                hi[i] = hi[i].max(w + 1);
            }
        }
        let mut mask_lo = Vec::with_capacity(items);
        let mut mask_len = Vec::with_capacity(items);
        let mut mask_start = Vec::with_capacity(items);
        let mut masks = Vec::new();
        for i in 0..items {
            let (l, h) = if hi[i] == 0 { (0, 0) } else { (lo[i], hi[i]) };
            mask_lo.push(l);
            mask_len.push(h - l);
            mask_start.push(masks.len() as u32);
            masks.resize(masks.len() + (h - l) as usize, 0);
        }
        for r in (0..options).filter(|r| root_active[r / 64] >> (r % 64) & 1 != 0) {
            for &i in &opt_items[opt_start[r] as usize..opt_start[r + 1] as usize] {
                let i = i as usize;
                let at = mask_start[i] as usize + r / 64 - mask_lo[i] as usize;
                masks[at] |= 1 << (r % 64);
            }
        }
        // One length for all options (searched or not): the tables are then
        // walked by arithmetic.
        let first_len = opt_start.get(1).map_or(0, |&e| e as usize);
        let first_primary = opt_pend.first().map_or(0, |&e| e as usize);
        let (uniform, uniform_primary) = if (0..options).all(|r| {
            (opt_start[r + 1] - opt_start[r]) as usize == first_len
                && (opt_pend[r] - opt_start[r]) as usize == first_primary
        }) {
            (first_len, first_primary)
        } else {
            (0, 0)
        };
        // An item with fewer than one option per two words of its mask is
        // walked by its list (a column of 25×25 Sudoku: 25 options over 245
        // words). Denser items are faster by mask: with lists for up to four
        // words an option, queens 13 took 0.253 s against 0.204 s by masks
        // only, Langford 12 0.365 s against 0.326 s.
        let listed = (0..items)
            .map(|i| 2 * count[i] < mask_len[i] as usize)
            .collect();
        let mut list_start = Vec::with_capacity(items + 1);
        let mut lists = Vec::new();
        for i in 0..items {
            list_start.push(lists.len() as u32);
            let (s, n) = (mask_start[i] as usize, mask_len[i] as usize);
            for (k, &word) in masks[s..s + n].iter().enumerate() {
                let mut m: u64 = word;
                while m != 0 {
                    lists.push(
                        ((mask_lo[i] as usize + k) * 64 + m.trailing_zeros() as usize) as u32,
                    );
                    m &= m - 1;
                }
            }
        }
        list_start.push(lists.len() as u32);
        let root_len: Vec<u16> = count[..primary].iter().map(|&c| c as u16).collect();
        let narrow = if bounded {
            let longest = root_len.iter().copied().max().unwrap_or(0);
            let most = root_bound.iter().copied().max().unwrap_or(0);
            mult::NarrowKey::new(longest, most)
        } else {
            None
        };
        let searched = (0..options)
            .filter(|r| root_active[r / 64] >> (r % 64) & 1 != 0)
            .count();
        let max_depth = if bounded {
            // Each level commits an option (once at most, using a bound) or
            // ends an item — with no option at all, it ends one.
            let uses: usize = root_bound.iter().map(|&v| usize::from(v)).sum();
            searched.min(uses) + primary
        } else if min_primary == usize::MAX {
            0
        } else {
            primary / min_primary.max(1)
        };
        Ok(DenseMatrix {
            primary,
            options,
            words,
            opt_start,
            opt_items,
            opt_pend,
            mask_lo,
            mask_len,
            mask_start,
            masks,
            listed,
            list_start,
            lists,
            root_active,
            root_len,
            max_depth,
            uniform,
            uniform_primary,
            bounded,
            narrow,
            slack: {
                // Padded to whole chunks, as the lens (`mult.rs`).
                let mut slack = slack;
                if bounded {
                    slack.resize(primary.div_ceil(mult::LANES) * mult::LANES, 0);
                }
                slack
            },
            root_bound,
        })
    }

    /// Whether the dense engine is expected to beat the DLX solver on
    /// `matrix` (with Knuth's rule): it applies (no colors, a state of at most
    /// [`MAX_STATE_BYTES`]), and either options have five items or more on
    /// average (each node hides many), or four or more and the state is at
    /// most [`SMALL_STATE_BYTES`]. A rule of thumb from measurements (BENCHMARKS.md,
    /// "Engines"): pentominoes (6 items an option, 360 bytes) in half the DLX
    /// solver's time or less, queens (4 items, 80 bytes) 15–20% less;
    /// Langford pairs (3 items, 104 bytes) 3–10% more; Sudoku (4 items, 744
    /// bytes) 1.6× the time, 16×16 (2,560 bytes) 2.7×: there a node hides
    /// few options and copying the state dominates. With multiplicities
    /// (the bounds counted in the state) the same rule holds: two-queens 8
    /// about 20% less time than the links engine, pentominoes whose pieces
    /// are `0:2|` less than half.
    pub fn recommended(matrix: &Matrix) -> bool {
        let options = matrix.option_count();
        let nodes: usize = (0..options)
            .map(|r| matrix.option_items(OptionId::must(r)).len())
            .sum();
        let state = state_bytes(options, matrix.primary_count(), matrix.has_bounds());
        !matrix.has_colors()
            && options > 0
            && state <= MAX_STATE_BYTES
            && (nodes >= 5 * options || (nodes >= 4 * options && state <= SMALL_STATE_BYTES))
    }

    /// Words of lens in a state slot (four to a word; with multiplicities
    /// rounded up to whole chunks of `mult::LANES`, as the bounds).
    fn len_words(&self) -> usize {
        if self.bounded {
            self.primary.div_ceil(mult::LANES) * mult::LANES / 4
        } else {
            self.primary.div_ceil(4)
        }
    }

    /// The number of options (as in the [`Matrix`] it was made from).
    pub fn option_count(&self) -> usize {
        self.options
    }

    /// Bytes of one search state.
    pub fn state_bytes(&self) -> usize {
        state_bytes(self.options, self.primary, self.bounded)
    }

    #[inline(always)]
    fn option(&self, r: usize) -> &[u32] {
        &self.opt_items[self.opt_start[r] as usize..self.opt_start[r + 1] as usize]
    }

    /// Covers item `i` in a state: clears its active options, decrementing
    /// the lens of their primary items; returns DLX1's updates. `UL` and `UP`
    /// are the common length of every option and its common number of
    /// primary items when there are such (then an option's items are found by
    /// arithmetic), else 0. With `WATCH`, items whose len falls to 1 or 0 are
    /// noted in `watch` ([`Branching::FirstForced`](crate::dlx::Branching::FirstForced)).
    /// A hidden option takes `step` from each of its primary items' lens:
    /// 1, or with multiplicities where the state keeps the choice's keys in
    /// place of lens, a len's weight in the key (`mult.rs`).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cover<const UL: usize, const UP: usize, const WATCH: bool>(
        &self,
        active: &mut [u64],
        len: &mut [u16],
        left: &mut u32,
        watch: &mut Watch,
        i: usize,
        step: u16,
    ) -> u64 {
        debug_assert!(active.len() == self.words && len.len() >= self.primary);
        let mut hidden = 0;
        let mut hide = |r: usize, len: &mut [u16]| {
            let (s, p, e) = if UL > 0 {
                (r * UL, r * UL + UP, r * UL + UL)
            } else {
                (
                    at(&self.opt_start, r) as usize,
                    at(&self.opt_pend, r) as usize,
                    at(&self.opt_start, r + 1) as usize,
                )
            };
            for q in s..p {
                let j = at(&self.opt_items, q);
                let l = at_mut(len, j as usize);
                let v = l.wrapping_sub(step);
                *l = v;
                if WATCH && v <= 1 {
                    watch.note(j, v);
                }
            }
            hidden += (e - s - 1) as u64;
        };
        if at(&self.listed, i) {
            // Few options over a wide span of words: test them one by one.
            let (s, e) = (
                at(&self.list_start, i) as usize,
                at(&self.list_start, i + 1) as usize,
            );
            for q in s..e {
                let r = at(&self.lists, q) as usize;
                let (w, bit) = (r / 64, 1u64 << (r % 64));
                if at(active, w) & bit != 0 {
                    *at_mut(active, w) &= !bit;
                    hide(r, len);
                }
            }
        } else {
            let lo = self.mask_lo[i] as usize;
            let start = self.mask_start[i] as usize;
            for k in 0..self.mask_len[i] as usize {
                let w = lo + k;
                let mut m = at(&self.masks, start + k) & at(active, w);
                *at_mut(active, w) &= !m;
                while m != 0 {
                    let r = w * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    hide(r, len);
                }
            }
        }
        if i < self.primary {
            *at_mut(len, i) = COVERED;
            *left -= 1;
        }
        hidden + 1
    }

    /// The first option at or after `from` that contains item `i` and is
    /// active in `active`.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn next_option(&self, active: &[u64], i: usize, from: usize) -> Option<usize> {
        let lo = self.mask_lo[i] as usize;
        let n = self.mask_len[i] as usize;
        let start = self.mask_start[i] as usize;
        debug_assert!(active.len() == self.words && lo + n <= self.words);
        // Options before `from` are masked off in its word, and the words
        // before it skipped.
        let mut w = (from / 64).max(lo);
        let mut allowed = if w == from / 64 {
            u64::MAX << (from % 64)
        } else {
            u64::MAX
        };
        while w < lo + n {
            let m = at(&self.masks, start + w - lo) & at(active, w) & allowed;
            if m != 0 {
                return Some(w * 64 + m.trailing_zeros() as usize);
            }
            allowed = u64::MAX;
            w += 1;
        }
        None
    }
}
