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
//! [`DenseMatrix::recommended`] and README, "Engines".
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
//!   as in the DLX solver, so a paused search resumes anywhere.
//!
//! Counters are DLX1's: a hide counts one update per node of the option
//! other than the covering item's, covering an item one more, a node every
//! level entered and every solution. With [`Branching::Knuth`] the tree,
//! `nodes` and `updates` equal the DLX solver's exactly (tests check it).
//! [`Branching::FirstForced`] remembers, as the DLX solver does, items whose
//! len fell to 1 or 0 and takes the latest still valid, else the leftmost
//! item of len ≤ 1, else Knuth's choice; items are hidden in another order
//! than DLX's, so the tree differs (same solutions).
//!
//! When it applies ([`DenseMatrix::new`]): no colors (a colored secondary
//! item would need a color per node; the DLX solver handles those), and a
//! state of at most [`MAX_STATE_BYTES`]. Sudoku 9×9 is 744 bytes, 16×16
//! 2,560; queens 13 76, pentominoes on 6×10 360.

use super::engine::Shared;
use super::index::OptionId;
use super::search::driver::{Driver, Enter, Kernel};
use super::search::{conflict, engine_queries, Branching, PreselectError, Step};
use super::stats::Stats;
use super::unchecked::{at, at_mut};
use super::Matrix;
use super::{EngineError, EngineKind};
use std::fmt;

/// The len of a covered item (no uncovered item reaches it: see
/// [`DenseMatrix::new`]).
const COVERED: u16 = u16::MAX;

/// In `DenseSolver::item`: the level's item had one option and was not
/// covered on its own (see `forward`).
const FORCED_FLAG: u32 = 1 << 31;

/// The largest state (active bits plus lens) the dense engine takes on; past
/// it, copying the state each node costs more than DLX's dancing.
pub const MAX_STATE_BYTES: usize = 8192;

/// Bytes of a state: a bit per option, a `u16` per primary item.
fn state_bytes(options: usize, primary: usize) -> usize {
    options.div_ceil(64) * 8 + primary * 2
}

/// A state this small is cheap enough to copy that the dense engine is
/// [recommended](DenseMatrix::recommended) for options of four items.
pub const SMALL_STATE_BYTES: usize = 256;

/// Why a matrix is not for the dense engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DenseError {
    /// The matrix has colors.
    Colors,
    /// Its state would take this many bytes, over [`MAX_STATE_BYTES`].
    TooLarge(usize),
    /// An item is in this many options, more than a len can count.
    LongItem(usize),
}

impl fmt::Display for DenseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DenseError::Colors => write!(f, "the matrix has colors"),
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
    /// `min_primary` primary items.
    max_depth: usize,
}

impl DenseMatrix {
    /// The dense tables of `matrix`, or why it is not for this engine.
    pub fn new(matrix: &Matrix) -> Result<DenseMatrix, DenseError> {
        if matrix.has_colors() {
            return Err(DenseError::Colors);
        }
        let primary = matrix.primary_count();
        let items = matrix.item_count();
        let options = matrix.option_count();
        let words = options.div_ceil(64);
        let bytes = state_bytes(options, primary);
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
        let root_len = count[..primary].iter().map(|&c| c as u16).collect();
        let max_depth = if min_primary == usize::MAX {
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
        })
    }

    /// Whether the dense engine is expected to beat the DLX solver on
    /// `matrix` (with Knuth's rule): it applies (no colors, a state of at most
    /// [`MAX_STATE_BYTES`]), and either options have five items or more on
    /// average (each node hides many), or four or more and the state is at
    /// most [`SMALL_STATE_BYTES`]. A rule of thumb from measurements (README,
    /// "Engines"): pentominoes (6 items an option, 360 bytes) in half the DLX
    /// solver's time or less, queens (4 items, 80 bytes) 15–20% less;
    /// Langford pairs (3 items, 104 bytes) 3–10% more; Sudoku (4 items, 744
    /// bytes) 1.6× the time, 16×16 (2,560 bytes) 2.7×: there a node hides
    /// few options and copying the state dominates.
    pub fn recommended(matrix: &Matrix) -> bool {
        let options = matrix.option_count();
        let nodes: usize = (0..options)
            .map(|r| matrix.option_items(OptionId::must(r)).len())
            .sum();
        let state = state_bytes(options, matrix.primary_count());
        !matrix.has_colors()
            && options > 0
            && state <= MAX_STATE_BYTES
            && (nodes >= 5 * options || (nodes >= 4 * options && state <= SMALL_STATE_BYTES))
    }

    /// The number of options (as in the [`Matrix`] it was made from).
    pub fn option_count(&self) -> usize {
        self.options
    }

    /// Bytes of one search state.
    pub fn state_bytes(&self) -> usize {
        state_bytes(self.options, self.primary)
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
    /// noted in `watch` ([`Branching::FirstForced`]).
    #[inline(always)]
    fn cover<const UL: usize, const UP: usize, const WATCH: bool>(
        &self,
        active: &mut [u64],
        len: &mut [u16],
        left: &mut u32,
        watch: &mut Watch,
        i: usize,
    ) -> u64 {
        debug_assert!(active.len() == self.words && len.len() == self.primary);
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
                let v = l.wrapping_sub(1);
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
    fn next_option(&self, active: &[u64], i: usize, from: usize) -> Option<usize> {
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

/// The lens part of a state slot, as `u16`s (four to a word): one slot is
/// one array, so a state is copied by one `copy_within`.
#[inline(always)]
fn lens(words: &mut [u64]) -> &mut [u16] {
    let n = words.len() * 4;
    // SAFETY: the pointer comes from a live `&mut [u64]` of `n / 4` words,
    // so it is valid, aligned for `u16` (its alignment divides `u64`'s) and
    // covers `n` `u16`s; every bit pattern is a valid `u16`; the result
    // borrows `words`, so nothing else aliases it.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u16>(), n)
    }
}

/// [`lens`], read-only.
#[inline(always)]
fn lens_ref(words: &[u64]) -> &[u16] {
    let n = words.len() * 4;
    // SAFETY: as for `lens`, from a shared borrow.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts(words.as_ptr().cast::<u16>(), n)
    }
}

/// The branching item of a state: the smallest len, leftmost on ties; with
/// `forced`, the leftmost item of len 1 or less if there is one. Written as
/// whole-chunk passes so that the compiler vectorizes them.
#[inline]
fn choose(len: &[u16], forced: bool) -> (usize, u16) {
    const CHUNK: usize = 16;
    // The first chunk holding a len <= `most`, by whole-chunk folds.
    let find = |most: u16| -> (usize, u16) {
        for (c, chunk) in len.chunks(CHUNK).enumerate() {
            if chunk.iter().fold(false, |a, &l| a | (l <= most)) {
                let k = chunk.iter().position(|&l| l <= most).unwrap_or(0);
                return (c * CHUNK + k, chunk[k]);
            }
        }
        (0, COVERED)
    };
    if forced {
        let (k, l) = find(1);
        if l <= 1 {
            return (k, l);
        }
    }
    // One pass of chunk minima (the leftmost chunk holding the least len),
    // then the leftmost position inside that chunk.
    let (mut at, mut least) = (0, COVERED);
    for (c, chunk) in len.chunks(CHUNK).enumerate() {
        let m = chunk.iter().fold(COVERED, |a, &l| a.min(l));
        if m < least {
            (at, least) = (c * CHUNK, m);
            if m == 0 {
                break;
            }
        }
    }
    let chunk = &len[at..len.len().min(at + CHUNK)];
    (
        at + chunk.iter().position(|&l| l == least).unwrap_or(0),
        least,
    )
}

/// Items whose len fell to 1 or 0 while hiding ([`Branching::FirstForced`]),
/// as in the DLX solver: a stack of fixed capacity (a full stack drops the
/// entry) and the latest item that fell to 0. Entries are hints, checked
/// against the current state when taken.
#[derive(Clone, Debug)]
struct Watch {
    stack: Vec<u32>,
    /// The latest item whose len fell to 0 ([`NONE`]: none).
    dead: u32,
}

/// No item.
const NONE: u32 = u32::MAX;

impl Watch {
    #[inline(always)]
    fn note(&mut self, item: u32, len: u16) {
        if len == 0 {
            self.dead = item;
        }
        if self.stack.len() < self.stack.capacity() {
            self.stack.push(item);
        }
    }

    fn clear(&mut self) {
        self.stack.clear();
        self.dead = NONE;
    }

    /// The dead item if still valid, else the latest watched item still
    /// uncovered with len 1 or less, else a scan of `len` (the primary
    /// items' lens).
    #[inline]
    fn choose(&mut self, len: &[u16]) -> (usize, u16) {
        let dead = std::mem::replace(&mut self.dead, NONE) as usize;
        if dead < len.len() && len[dead] == 0 {
            return (dead, 0);
        }
        while let Some(x) = self.stack.pop() {
            if let Some(&l) = len.get(x as usize) {
                if l <= 1 {
                    return (x as usize, l);
                }
            }
        }
        choose(len, true)
    }
}

/// One search over a [`DenseMatrix`]: the search driver beside the states.
/// Allocated once by [`DenseSolver::new`]; solving, counting, preselecting
/// and resetting allocate nothing. The queries mirror
/// [`LinksSolver`](crate::dlx::LinksSolver)'s.
#[derive(Clone, Debug)]
pub struct DenseSolver<'m> {
    matrix: Shared<'m, DenseMatrix>,
    driver: Driver,
    state: State,
    branching: Branching,
}

/// The kernel's scratch state.
#[derive(Clone, Debug)]
struct State {
    /// Every state slot, `slot` words each: the active bits (`words`), then
    /// the primary items' lens, four to a word (see `lens`).
    states: Vec<u64>,
    /// Words of one state slot.
    slot: usize,
    /// Uncovered primary items of every state slot.
    left: Vec<u32>,
    /// Per level: the branching item (with [`FORCED_FLAG`]).
    item: Vec<u32>,
    watch: Watch,
}

/// The dense kernel: `FORCED` for [`Branching::FirstForced`], options of
/// `UL` items of which `UP` primary (0: mixed).
struct Dense<const FORCED: bool, const UL: usize, const UP: usize>;

impl<const FORCED: bool, const UL: usize, const UP: usize> Kernel for Dense<FORCED, UL, UP> {
    type Tables = DenseMatrix;
    type State = State;
    const UNDOES: bool = false;

    fn start(_m: &DenseMatrix, s: &mut State) {
        s.watch.clear();
    }

    /// Enters a node at `l`: picks and covers the branching item (state
    /// slot `2l` into `2l + 1`).
    #[inline(always)]
    fn enter(m: &DenseMatrix, s: &mut State, l: usize, stats: &mut Stats) -> Enter {
        let (w, n, size) = (m.words, m.primary, s.slot);
        let at = 2 * l;
        if s.left[at] == 0 {
            // Only at the root: nothing to cover, the empty choice solves it.
            return Enter::Solved;
        }
        let here = &s.states[at * size..(at + 1) * size];
        let len = &lens_ref(&here[w..])[..n];
        let (i, least) = if FORCED {
            s.watch.choose(len)
        } else {
            choose(len, false)
        };
        s.item[l] = i as u32;
        if least == 0 {
            // A dead end: DLX covers the item (one update) and finds nothing.
            stats.updates += 1;
            return Enter::DEAD;
        }
        let first = m.next_option(&here[..w], i, 0).map(|r| r as u32);
        if least == 1 {
            // Forced: `commit` covers the item too, from slot `2l` itself.
            s.item[l] = FORCED_FLAG | i as u32;
            return Enter::forced(first);
        }
        s.states
            .copy_within(at * size..(at + 1) * size, (at + 1) * size);
        let slot = &mut s.states[(at + 1) * size..(at + 2) * size];
        let (active, rest) = slot.split_at_mut(w);
        let len = &mut lens(rest)[..n];
        let mut left = s.left[at];
        stats.updates += m.cover::<UL, UP, FORCED>(active, len, &mut left, &mut s.watch, i);
        s.left[at + 1] = left;
        Enter::branch(first)
    }

    /// Commits option `r` at `l` (state slot `2l + 1`, or `2l` when forced,
    /// plus `r`'s other items into slot `2l + 2`). Returns whether every
    /// primary item is covered.
    #[inline(always)]
    fn commit(m: &DenseMatrix, s: &mut State, l: usize, r: u32, stats: &mut Stats) -> bool {
        let r = r as usize;
        let (w, n, size) = (m.words, m.primary, s.slot);
        let item = s.item[l];
        // A forced item was not covered into slot `2l + 1`: cover it here.
        let (i, from) = if item & FORCED_FLAG != 0 {
            (usize::MAX, 2 * l)
        } else {
            (item as usize, 2 * l + 1)
        };
        let to = 2 * l + 2;
        s.states
            .copy_within(from * size..(from + 1) * size, to * size);
        let slot = &mut s.states[to * size..(to + 1) * size];
        let (active, rest) = slot.split_at_mut(w);
        let len = &mut lens(rest)[..n];
        let mut left = s.left[from];
        let (start, end) = if UL > 0 {
            (r * UL, r * UL + UL)
        } else {
            (m.opt_start[r] as usize, m.opt_start[r + 1] as usize)
        };
        let mut updates = 0;
        for q in start..end {
            let j = at(&m.opt_items, q) as usize;
            if j != i {
                updates += m.cover::<UL, UP, FORCED>(active, len, &mut left, &mut s.watch, j);
            }
        }
        stats.updates += updates;
        s.left[to] = left;
        left == 0
    }

    #[inline(always)]
    fn retract(m: &DenseMatrix, s: &mut State, l: usize, r: u32) -> Option<u32> {
        let size = s.slot;
        let at = 2 * l;
        let i = (s.item[l] & !FORCED_FLAG) as usize;
        let active = &s.states[at * size..at * size + m.words];
        m.next_option(active, i, r as usize + 1).map(|r| r as u32)
    }

    fn leave(_m: &DenseMatrix, _s: &mut State, _l: usize) {}
}

impl<'m> DenseSolver<'m> {
    /// A solver over `matrix`, ready to search. It allocates two state
    /// slots per possible level (the primary items over the fewest primary
    /// items in an option, plus two), zeroed, so the memory is touched only
    /// as deep as the search goes: 9×9 Sudoku 81 levels of 744 bytes.
    pub fn new(matrix: &'m DenseMatrix) -> Self {
        Self::with_tables(Shared::Borrowed(matrix))
    }

    /// A solver over tables it may own.
    pub(crate) fn with_tables(matrix: Shared<'m, DenseMatrix>) -> Self {
        let slots = 2 * (matrix.max_depth + 2);
        let slot = matrix.words + matrix.primary.div_ceil(4);
        let mut s = DenseSolver {
            driver: Driver::new(matrix.max_depth, matrix.primary),
            state: State {
                states: vec![0; slots * slot],
                slot,
                left: vec![0; slots],
                item: vec![0; matrix.max_depth + 1],
                watch: Watch {
                    stack: Vec::with_capacity(4 * matrix.primary + 64),
                    dead: NONE,
                },
            },
            branching: Branching::Knuth,
            matrix,
        };
        s.reset();
        s
    }

    /// The branching rule: [`Branching::Knuth`] or [`Branching::FirstForced`]
    /// (see the module documentation); lookahead is the links engine's only,
    /// and is refused (nothing changes).
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        EngineKind::Dense.check_rule(branching)?;
        self.branching = branching;
        Ok(())
    }

    /// A solver over `tables` searching with `branching`, a rule the dense
    /// engine takes (the caller checked it: [`EngineKind::supports`]).
    pub(crate) fn with_rule(tables: Shared<'m, DenseMatrix>, branching: Branching) -> Self {
        debug_assert!(EngineKind::Dense.supports(branching));
        let mut s = Self::with_tables(tables);
        s.branching = branching;
        s
    }

    /// Undoes everything, preselected options included; zeroes the counters.
    pub fn reset(&mut self) {
        let tables = self.matrix.clone();
        let m = &*tables;
        let (w, p, size) = (m.words, m.primary, self.state.slot);
        let (active, rest) = self.state.states[..size].split_at_mut(w);
        active.copy_from_slice(&m.root_active);
        lens(rest)[..p].copy_from_slice(&m.root_len);
        self.state.left[0] = p as u32;
        self.driver.reset();
    }

    /// Abandons the search in progress (keeping preselected options).
    pub fn restart(&mut self) {
        // Nothing to undo: the root state is slot 0 (the forced items
        // noted are forgotten when the search starts).
        self.driver
            .restart::<Dense<false, 0, 0>>(&self.matrix, &mut self.state);
    }

    /// Commits to `option` before the search (see
    /// [`LinksSolver::preselect`](crate::dlx::LinksSolver::preselect)). Abandons any
    /// search in progress; undone by [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        let tables = self.matrix.clone();
        let m = &*tables;
        let r = option.as_usize();
        if r >= m.options {
            return Err(PreselectError::UnknownOption(option));
        }
        if !m.option(r).iter().any(|&i| (i as usize) < m.primary) {
            return Err(PreselectError::IgnoredOption(option));
        }
        self.restart();
        let s = &mut self.state;
        if s.states[r / 64] >> (r % 64) & 1 == 0 {
            let held = self.driver.preselected.iter().map(|&q| {
                let q = q.as_usize();
                (q as u32, m.option(q))
            });
            return Err(conflict(option, m.option(r), held));
        }
        let mut left = s.left[0];
        let (slot, p) = (s.slot, m.primary);
        let (active, rest) = s.states[..slot].split_at_mut(m.words);
        let len = &mut lens(rest)[..p];
        for &i in m.option(r) {
            self.driver.stats.updates +=
                m.cover::<0, 0, false>(active, len, &mut left, &mut s.watch, i as usize);
        }
        s.left[0] = left;
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        let forced = self.branching != Branching::Knuth;
        // The common shapes of options get their own copy of the loop.
        match (self.matrix.uniform, self.matrix.uniform_primary, forced) {
            (3, 3, false) => self.run::<false, 3, 3>(),
            (3, 3, true) => self.run::<true, 3, 3>(),
            (4, 4, false) => self.run::<false, 4, 4>(),
            (4, 4, true) => self.run::<true, 4, 4>(),
            (4, 2, false) => self.run::<false, 4, 2>(),
            (4, 2, true) => self.run::<true, 4, 2>(),
            (5, 5, false) => self.run::<false, 5, 5>(),
            (5, 5, true) => self.run::<true, 5, 5>(),
            (6, 6, false) => self.run::<false, 6, 6>(),
            (6, 6, true) => self.run::<true, 6, 6>(),
            (_, _, false) => self.run::<false, 0, 0>(),
            (_, _, true) => self.run::<true, 0, 0>(),
        }
    }

    /// The driver over the kernel for one shape.
    fn run<const FORCED: bool, const UL: usize, const UP: usize>(&mut self) -> Step {
        self.driver
            .run::<Dense<FORCED, UL, UP>>(&self.matrix, &mut self.state)
    }
}

engine_queries!(DenseSolver, DenseSolutions, |_s, r| OptionId::must(
    r as usize
));

#[cfg(test)]
mod tests {
    //! Small searches over every path of the dense engine (uniform and mixed
    //! option lengths, masks and lists, preselect, budget stop and resume),
    //! each against the DLX solver. Quick enough for Miri, which checks the
    //! unchecked indexing.
    use super::*;
    use crate::dlx::search::engine_tests::{self, agree_with_links};
    use crate::dlx::{knuth, LinksSolver, MatrixBuilder};
    use crate::problems;

    /// Every solution of both engines with Knuth's rule: same solutions in
    /// the same order, same nodes and updates; and first-forced finds the
    /// same set.
    fn agree(m: &Matrix) -> u64 {
        let d = DenseMatrix::new(m).unwrap();
        let mut dense = DenseSolver::new(&d);
        let n = agree_with_links(m, &mut dense);
        let mut all: Vec<Vec<OptionId>> = LinksSolver::new(m)
            .solutions()
            .map(|mut s| {
                s.sort();
                s
            })
            .collect();
        dense.set_branching(Branching::FirstForced).unwrap();
        let mut forced: Vec<Vec<OptionId>> = dense
            .solutions()
            .map(|mut s| {
                s.sort();
                s
            })
            .collect();
        forced.sort();
        all.sort();
        assert_eq!(forced, all);
        n
    }

    #[test]
    fn same_tree_as_dlx_on_small_problems() {
        for (m, want) in engine_tests::small_problems() {
            assert_eq!(agree(&m), want);
        }
    }

    #[test]
    fn lists_and_masks_and_ignored_options() {
        // 314 options over 5 words: item `a` has 2 options 313 apart (walked
        // by its list), the `x` items options in a run (masks).
        let (m, a, x) = engine_tests::wide(16);
        let d = DenseMatrix::new(&m).unwrap();
        assert!(d.listed[a.as_usize()]);
        assert!(!d.listed[x[1].as_usize()]);
        assert!(agree(&m) > 0);
    }

    #[test]
    fn preselect_budget_and_reset() {
        let m = problems::queens(6).unwrap();
        let d = DenseMatrix::new(&m).unwrap();
        engine_tests::preselect_budget_and_reset(&m, &mut DenseSolver::new(&d), true);
    }

    #[test]
    #[cfg_attr(miri, ignore = "builds large matrices: slow under Miri")]
    fn colors_and_size_are_refused() {
        let m = knuth::read("A | s\nA s:x\nA s:y\n".as_bytes()).unwrap();
        assert_eq!(DenseMatrix::new(&m).unwrap_err(), DenseError::Colors);
        let mut b = MatrixBuilder::new();
        let items: Vec<_> = (0..5000)
            .map(|k| b.primary(&format!("i{k}")).unwrap())
            .collect();
        b.option(&items[..2]).unwrap();
        let m = b.build().unwrap();
        assert!(matches!(DenseMatrix::new(&m), Err(DenseError::TooLarge(_))));
        assert!(!DenseMatrix::recommended(&m));
        assert!(DenseMatrix::recommended(&problems::queens(13).unwrap()));
        assert!(!DenseMatrix::recommended(&problems::langford(12).unwrap()));
        assert!(!DenseMatrix::recommended(
            crate::sudoku::SudokuMatrix::new(3).unwrap().matrix()
        ));
        assert!(DenseMatrix::recommended(
            &problems::polyomino::packing(&problems::polyomino::PENTOMINOES, 3, 20).unwrap()
        ));
    }
}
