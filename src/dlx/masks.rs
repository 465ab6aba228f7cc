//! Algorithm X over one small bitmask per item: the *masks* engine, for
//! uncolored matrices whose items are each in at most 64 options. It is the
//! Sudoku engine (`dlx sudoku`: about 3× the links engine's speed on the
//! public sets), and fast on queens and Langford pairs too.
//!
//! The live matrix is, per item, a mask of its options still active (bit
//! `k` = the item's `k`-th option, in matrix order), `u16`, `u32` or `u64`
//! wide after the matrix's longest item, plus one `u8` len per item. Then:
//! * hiding an option clears one bit in each of its items' masks and
//!   subtracts 1 from their lens, without a test or a branch: no links to
//!   splice, nothing to undo;
//! * committing an option covers its items: each item's mask is cleared,
//!   its len set to `COVERED`, and its other options hidden;
//! * the search saves the state (masks and lens: 984 bytes for 9×9 Sudoku)
//!   only where it branches, and backtracking copies it back: forced moves
//!   are committed in place, never undone one by one;
//! * when every option has the same number of items `K` (4 for Sudoku and
//!   queens, 3 for Langford pairs), the loops over an option's items are
//!   unrolled for that constant; and when, besides, each item is at the same
//!   place in all its options (Sudoku: cell, row, column, box; queens: row,
//!   column, diagonals), an option hidden through an item skips that place,
//!   already covered: a quarter of the hiding work for Sudoku.
//!
//! And a tree of its own: while hiding, every item whose len falls to 1 or 0
//! goes on a *forced* stack, and a len falling to 0 marks the state dead;
//! the search backtracks at once from a dead state, else commits the only
//! option of the latest item on the stack still of len 1, and only with
//! the stack empty does it scan
//! the lens for Knuth's choice (the least len, leftmost on ties) and branch.
//! On Sudoku these forced moves are the naked and hidden singles. A
//! puzzle's givens are committed by [`MasksSolver::preselect`] without the
//! stack: the search's first scan of the lens finds the items they forced
//! (a len of 0 or 1 is the least), which costs less than stacking every
//! item each given hides through.
//!
//! Invariants:
//! * an item's mask holds exactly its active options; an uncovered primary
//!   item's len is the number of bits of its mask;
//! * a covered item's mask is 0 and its len above [`MAX_MASK_OPTIONS`]: set
//!   to `COVERED` (255), then counted down once per option hidden through
//!   it, at most 64 times. A secondary item's len starts at `COVERED` too,
//!   so no test tells them apart while hiding, and none is ever forced or
//!   chosen;
//! * every uncovered primary item of len 0 or 1 whose len fell there since
//!   the last saved state or the root is on the forced stack (items may be
//!   there twice, or covered since: they are skipped when popped), and the
//!   state is marked dead if one of them fell to 0;
//! * saved state `b` holds the state where the `b`-th branch point of the
//!   search in progress began, before its item's options were tried;
//!   `Branches::rest[b]` the options not yet tried.
//!
//! The search itself is the crate's one driver (`search/driver.rs`): a
//! forced move is a level with one option, a branch point a level with
//! several. Forced levels need no undoing, so the kernel keeps its own stack
//! of branch points and backing down jumps straight to the innermost one
//! with an option left (`Kernel::JUMPS`).
//!
//! Counters: a node is a node the driver entered (a forced move, a branch
//! point, a dead end or a solution found by the scan); updates are counted
//! as DLX1 counts them (a hidden option's items less one, one per item
//! covered). With another tree, they are this engine's own, not DLX1's.

use super::engine::Shared;
use super::index::OptionId;
use super::search::driver::{Driver, Enter, Kernel};
use super::search::{conflict, engine_queries, Branching, PreselectError, Step};
use super::stats::Stats;
use super::unchecked::{at, set};
use super::Matrix;
use super::{EngineError, EngineKind};
use std::fmt;
use std::ops::{BitAnd, BitXor, Not};

/// Options an item may be in: the width of the widest mask.
pub const MAX_MASK_OPTIONS: usize = 64;

/// The len of a covered item, above every real len.
const COVERED: u8 = u8::MAX;

/// Lens are scanned in chunks of this many (padded with `COVERED`).
const CHUNK: usize = 16;

/// Why a matrix is not for the masks engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MasksError {
    /// The matrix has colors.
    Colors,
    /// An item is in this many options, over [`MAX_MASK_OPTIONS`].
    LongItem(usize),
}

impl fmt::Display for MasksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MasksError::Colors => write!(f, "the matrix has colors"),
            MasksError::LongItem(n) => write!(
                f,
                "an item is in {n} options (the masks engine takes up to {MAX_MASK_OPTIONS})"
            ),
        }
    }
}

impl std::error::Error for MasksError {}

/// An item's mask of options: `u16`, `u32` or `u64`.
trait Mask:
    Copy
    + Default
    + Eq
    + fmt::Debug
    + BitAnd<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// A mask of the low bits of `x`.
    fn from_u64(x: u64) -> Self;
    /// The lowest set bit's number.
    fn lowest(self) -> u32;
    /// The mask without its lowest set bit.
    fn drop_lowest(self) -> Self;
    /// The mask as a `u64`.
    fn to_u64(self) -> u64;
    /// The matrix's `opt_clear` in this width.
    fn clears(c: &Clears) -> &[Self];
    fn is_zero(self) -> bool {
        self == Self::default()
    }
}

macro_rules! mask {
    ($t:ty, $w:ident) => {
        impl Mask for $t {
            #[inline(always)]
            fn from_u64(x: u64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn drop_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn clears(c: &Clears) -> &[Self] {
                &c.$w
            }
        }
    };
}
mask!(u16, w16);
mask!(u32, w32);
mask!(u64, w64);

/// Per place of `opt_item`, the item's mask with every bit set but the
/// option's: in the matrix's width only (the others are empty). Hiding
/// ANDs it in: no NOT, and 2 bytes a place for 9×9 Sudoku, not 8.
#[derive(Clone, Debug, Default)]
struct Clears {
    w16: Vec<u16>,
    w32: Vec<u32>,
    w64: Vec<u64>,
}

/// The fixed tables of the masks engine for one [`Matrix`]. Immutable;
/// share it between any number of [`MasksSolver`]s.
#[derive(Clone, Debug)]
pub struct MasksMatrix {
    primary: usize,
    items: usize,
    options: usize,
    /// Bits of the widest mask needed: 16, 32 or 64.
    width: u32,
    /// Option `r`'s items are `opt_item[opt_start[r]..opt_start[r + 1]]`,
    /// and its bit in each is `opt_bit` at the same place (as a mask), its
    /// complement `opt_clear`'s.
    opt_start: Vec<u32>,
    opt_item: Vec<u32>,
    opt_bit: Vec<u64>,
    opt_clear: Clears,
    /// Item `i`'s `k`-th option is `item_opt[item_start[i] + k]`.
    item_start: Vec<u32>,
    item_opt: Vec<u32>,
    /// The state before anything is chosen: every item's mask (of the
    /// options with a primary item) and every primary item's len, padded to
    /// a whole number of chunks.
    root_masks: Vec<u64>,
    root_lens: Vec<u8>,
    /// The lens [`choose`] scans: the primary items', padded to whole chunks.
    scan: usize,
    /// Options with no primary item: never chosen (DLX1).
    ignored: Vec<bool>,
    /// Deepest level a search can reach (options committed by the search).
    max_depth: usize,
    /// The number of items of every option when they all have as many,
    /// else 0.
    uniform: usize,
    /// With `uniform` > 0: whether each item is at the same place in every
    /// option it is in (9×9 Sudoku: cell, row, column, box; queens: row,
    /// column, diagonals), so hiding an option through the item can skip
    /// that place.
    aligned: bool,
}

impl MasksMatrix {
    /// The tables of `matrix`, or why it is not for this engine.
    pub fn new(matrix: &Matrix) -> Result<MasksMatrix, MasksError> {
        if matrix.has_colors() {
            return Err(MasksError::Colors);
        }
        let primary = matrix.primary_count();
        let items = matrix.item_count();
        let options = matrix.option_count();
        let mut count = vec![0usize; items];
        for r in 0..options {
            for (i, _) in matrix.option_items(OptionId::must(r)) {
                count[i.as_usize()] += 1;
            }
        }
        let most = count.iter().copied().max().unwrap_or(0);
        if most > MAX_MASK_OPTIONS {
            return Err(MasksError::LongItem(most));
        }
        let width = match most {
            0..=16 => 16,
            17..=32 => 32,
            _ => 64,
        };
        let mut item_start = Vec::with_capacity(items + 1);
        item_start.push(0u32);
        for &c in &count {
            item_start.push(item_start[item_start.len() - 1] + c as u32);
        }
        let mut item_opt = vec![0u32; item_start[items] as usize];
        let mut fill = vec![0usize; items];
        let mut opt_start = Vec::with_capacity(options + 1);
        let mut opt_item = Vec::new();
        let mut opt_bit = Vec::new();
        let mut ignored = vec![false; options];
        let mut root_masks = vec![0u64; items];
        // Secondary items have lens too, never read: from `COVERED` they
        // never fall to 1 (nor below `COVERED - 64`), so hiding needs no test.
        let scan = primary.div_ceil(CHUNK).max(1) * CHUNK;
        let mut root_lens = vec![COVERED; scan.max(items)];
        root_lens[..primary].fill(0);
        let mut min_primary = usize::MAX;
        opt_start.push(0u32);
        for r in 0..options {
            let o = OptionId::must(r);
            let mut primaries = 0;
            for (i, _) in matrix.option_items(o) {
                let i = i.as_usize();
                let k = fill[i];
                fill[i] += 1;
                item_opt[item_start[i] as usize + k] = r as u32;
                opt_item.push(i as u32);
                opt_bit.push(1u64 << k);
                primaries += usize::from(i < primary);
            }
            opt_start.push(opt_item.len() as u32);
            if primaries == 0 {
                ignored[r] = true;
                continue;
            }
            min_primary = min_primary.min(primaries);
            for k in opt_start[r] as usize..opt_item.len() {
                let i = opt_item[k] as usize;
                root_masks[i] |= opt_bit[k];
                if i < primary {
                    root_lens[i] += 1;
                }
            }
        }
        let mut opt_clear = Clears::default();
        match width {
            16 => opt_clear.w16 = opt_bit.iter().map(|&b| !(b as u16)).collect(),
            32 => opt_clear.w32 = opt_bit.iter().map(|&b| !(b as u32)).collect(),
            _ => opt_clear.w64 = opt_bit.iter().map(|&b| !b).collect(),
        }
        let uniform = match opt_item.len().checked_div(options) {
            Some(k) if (0..options).all(|r| opt_start[r + 1] - opt_start[r] == k as u32) => k,
            _ => 0,
        };
        let mut place = vec![usize::MAX; items];
        let aligned = uniform > 0
            && opt_item.iter().enumerate().all(|(t, &i)| {
                let p = &mut place[i as usize];
                if *p == usize::MAX {
                    *p = t % uniform;
                }
                *p == t % uniform
            });
        let max_depth = if min_primary == usize::MAX {
            0
        } else {
            primary / min_primary
        };
        Ok(MasksMatrix {
            primary,
            items,
            options,
            width,
            opt_start,
            opt_item,
            opt_bit,
            opt_clear,
            item_start,
            item_opt,
            root_masks,
            root_lens,
            scan,
            ignored,
            max_depth,
            uniform,
            aligned,
        })
    }

    /// The number of options (as in the [`Matrix`] it was made from).
    pub fn option_count(&self) -> usize {
        self.options
    }

    /// Bytes of one saved search state.
    pub fn state_bytes(&self) -> usize {
        self.items * self.width as usize / 8 + self.root_lens.len()
    }

    fn option(&self, r: usize) -> &[u32] {
        &self.opt_item[self.opt_start[r] as usize..self.opt_start[r + 1] as usize]
    }

    /// The option of item `i` at bit `k` of its mask.
    #[inline(always)]
    fn option_at(&self, i: usize, k: u32) -> usize {
        at(
            &self.item_opt,
            at(&self.item_start, i) as usize + k as usize,
        ) as usize
    }

    /// The item at place `t` of `opt_item`, and its mask of every option
    /// but the one of place `t`.
    #[inline(always)]
    fn slot<M: Mask>(&self, t: usize) -> (usize, M) {
        (
            at(&self.opt_item, t) as usize,
            at(M::clears(&self.opt_clear), t),
        )
    }

    /// Where option `r`'s items are in `opt_item`: with `K` > 0, the
    /// matrix's options all have `K` items (a constant the loops unroll).
    #[inline(always)]
    fn span<const K: usize>(&self, r: usize) -> (usize, usize) {
        if K > 0 {
            (r * K, r * K + K)
        } else {
            (
                at(&self.opt_start, r) as usize,
                at(&self.opt_start, r + 1) as usize,
            )
        }
    }

    /// Commits option `r` in state (`masks`, `lens`): covers each of its
    /// items, hiding the item's other active options. With `FORCED`,
    /// primary items whose len falls to 1 or 0 go on `forced`; without,
    /// `forced` is left alone, for the root, where the search's first scan
    /// finds them. Returns the updates, counted as DLX1 counts them.
    ///
    /// With `A` (the matrix is [`aligned`](Self::aligned), `K` is 3 or 4),
    /// the place of the item being covered is skipped in the options it
    /// hides: a quarter less work for Sudoku.
    #[inline(always)]
    fn commit<M: Mask, const K: usize, const A: bool, const FORCED: bool>(
        &self,
        masks: &mut [M],
        lens: &mut [u8],
        forced: &mut Forced,
        r: usize,
    ) -> u64 {
        let mut push = Push {
            items: &mut forced.items,
            top: forced.top,
            zero: false,
        };
        let updates = self.commit_with::<M, K, A, FORCED>(masks, lens, &mut push, r);
        forced.top = push.top;
        forced.dead |= push.zero;
        updates
    }

    /// [`commit`](Self::commit) with the forced stack's top in a local.
    #[inline(always)]
    fn commit_with<M: Mask, const K: usize, const A: bool, const FORCED: bool>(
        &self,
        masks: &mut [M],
        lens: &mut [u8],
        forced: &mut Push,
        r: usize,
    ) -> u64 {
        if A {
            return self.cover_aligned::<M, K, 0, FORCED>(masks, lens, forced, r)
                + self.cover_aligned::<M, K, 1, FORCED>(masks, lens, forced, r)
                + self.cover_aligned::<M, K, 2, FORCED>(masks, lens, forced, r)
                + self.cover_aligned::<M, K, 3, FORCED>(masks, lens, forced, r);
        }
        let mut updates = 0;
        let (from, to) = self.span::<K>(r);
        for k in from..to {
            let (i, mut rest) = self.cover_slot(masks, lens, k);
            updates += 1;
            while !rest.is_zero() {
                let q = self.option_at(i, rest.lowest());
                rest = rest.drop_lowest();
                // An active option's bit is set in each of its items not
                // covered yet. Those covered (only `r`'s) have a mask of 0
                // and a len of at least `COVERED - 64`: clearing and counting
                // down there changes nothing that is read.
                let (qf, qt) = self.span::<K>(q);
                updates += (qt - qf - 1) as u64;
                // `hide_slot` written out: called here, it cost Langford 12
                // 6% more instructions (cachegrind), by the code it made.
                for t in qf..qt {
                    let (j, c) = self.slot::<M>(t);
                    set(masks, j, at(masks, j) & c);
                    let len = at(lens, j).wrapping_sub(1);
                    set(lens, j, len);
                    if FORCED {
                        forced.push_if(j as u32, len);
                    }
                }
            }
        }
        updates
    }

    /// Covers the item at place `k` of `opt_item`: its mask cleared, its
    /// len `COVERED`. Returns the item and its options to hide (all its
    /// active ones but the option of place `k`).
    #[inline(always)]
    fn cover_slot<M: Mask>(&self, masks: &mut [M], lens: &mut [u8], k: usize) -> (usize, M) {
        let (i, c) = self.slot::<M>(k);
        let rest = at(masks, i) & c;
        set(masks, i, M::default());
        set(lens, i, COVERED);
        (i, rest)
    }

    /// Hides the option of place `t` of `opt_item` from that place's item:
    /// its bit cleared, its len counted down, and with `FORCED` the item
    /// pushed on `forced` if the len fell to 1 or 0.
    #[inline(always)]
    fn hide_slot<M: Mask, const FORCED: bool>(
        &self,
        masks: &mut [M],
        lens: &mut [u8],
        forced: &mut Push,
        t: usize,
    ) {
        let (j, c) = self.slot::<M>(t);
        set(masks, j, at(masks, j) & c);
        let len = at(lens, j).wrapping_sub(1);
        set(lens, j, len);
        if FORCED {
            forced.push_if(j as u32, len);
        }
    }

    /// Covers the item at place `N` of option `r` (nothing when `N` ≥ `K`),
    /// in an aligned matrix of options of `K` items: each option hidden
    /// through it has the item at place `N` too, so that place is skipped.
    /// Returns the updates, as [`commit`](Self::commit).
    #[inline(always)]
    fn cover_aligned<M: Mask, const K: usize, const N: usize, const FORCED: bool>(
        &self,
        masks: &mut [M],
        lens: &mut [u8],
        forced: &mut Push,
        r: usize,
    ) -> u64 {
        if N >= K {
            return 0;
        }
        let (i, mut rest) = self.cover_slot(masks, lens, r * K + N);
        let mut hidden = 0;
        while !rest.is_zero() {
            let q = self.option_at(i, rest.lowest());
            rest = rest.drop_lowest();
            hidden += 1;
            self.hide_at::<M, K, 0, N, FORCED>(masks, lens, forced, q);
            self.hide_at::<M, K, 1, N, FORCED>(masks, lens, forced, q);
            self.hide_at::<M, K, 2, N, FORCED>(masks, lens, forced, q);
            self.hide_at::<M, K, 3, N, FORCED>(masks, lens, forced, q);
        }
        hidden * (K as u64 - 1) + 1
    }

    /// Hides option `q` from its item at place `T`, unless `T` is `N` (the
    /// item being covered) or past the option's `K` items (`K` ≤ 4: the
    /// engine specialises 3 and 4). Written out per place: a loop over the
    /// places here stayed a loop, with a compare per place.
    #[inline(always)]
    fn hide_at<M: Mask, const K: usize, const T: usize, const N: usize, const FORCED: bool>(
        &self,
        masks: &mut [M],
        lens: &mut [u8],
        forced: &mut Push,
        q: usize,
    ) {
        if T < K && T != N {
            self.hide_slot::<M, FORCED>(masks, lens, forced, q * K + T);
        }
    }
}

/// Knuth's choice over `lens` (whole chunks of [`CHUNK`]): the leftmost
/// least len and its item, or `None` when every item is covered. A minimum
/// over all lens, then the first chunk with a len equal to it: 16 lens at a
/// time with SSE2.
#[inline(always)]
fn choose(lens: &[u8]) -> Option<(usize, u8)> {
    let least = least_len(lens);
    // Above every real len: covered (or padding, or a secondary item's).
    if usize::from(least) > MAX_MASK_OPTIONS {
        return None;
    }
    for (c, part) in lens.chunks_exact(CHUNK).enumerate() {
        let hits = equal_bits(part, least);
        if hits != 0 {
            return Some((c * CHUNK + hits.trailing_zeros() as usize, least));
        }
    }
    None
}

/// The least of `lens` (whole chunks).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn least_len(lens: &[u8]) -> u8 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86_64; every load reads one whole chunk.
    #[allow(unsafe_code)]
    unsafe {
        let mut m = _mm_set1_epi8(-1);
        for part in lens.chunks_exact(CHUNK) {
            m = _mm_min_epu8(m, _mm_loadu_si128(part.as_ptr().cast()));
        }
        m = _mm_min_epu8(m, _mm_srli_si128::<8>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<4>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<2>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<1>(m));
        _mm_cvtsi128_si32(m) as u8
    }
}

/// Bit `k` set when `part[k] == len` (one chunk).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn equal_bits(part: &[u8], len: u8) -> u32 {
    use std::arch::x86_64::*;
    debug_assert_eq!(part.len(), CHUNK);
    // SAFETY: SSE2 is part of x86_64; `part` is one whole chunk.
    #[allow(unsafe_code)]
    unsafe {
        let v = _mm_loadu_si128(part.as_ptr().cast());
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(len as i8))) as u32
    }
}

/// The least of `lens`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn least_len(lens: &[u8]) -> u8 {
    lens.iter().fold(COVERED, |a, &b| a.min(b))
}

/// Bit `k` set when `part[k] == len`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn equal_bits(part: &[u8], len: u8) -> u32 {
    part.iter()
        .enumerate()
        .fold(0, |h, (k, &l)| h | u32::from(l == len) << k)
}

/// The forced stack: items whose len fell to 1 or 0. Pushed without a
/// branch, so its room is fixed: between two saved states a len falls to 1
/// and to 0 at most once each, so `2·primary` pushes at most, plus the slot
/// written but not kept.
#[derive(Clone, Debug)]
struct Forced {
    items: Vec<u32>,
    top: usize,
    /// Whether a len fell to 0 since the last saved state (the state is
    /// dead). Set while hiding, a flag in a register until the commit ends:
    /// cheaper than looking at each item pushed since the last pick, whose
    /// loop's end was mispredicted about once a pick (1905 11+: 24% of the
    /// branch misses).
    dead: bool,
}

impl Forced {
    fn new(primary: usize) -> Self {
        Forced {
            items: vec![0; 2 * primary + 1],
            top: 0,
            dead: false,
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        if self.top == 0 {
            return None;
        }
        self.top -= 1;
        Some(at(&self.items, self.top))
    }

    fn clear(&mut self) {
        self.top = 0;
        self.dead = false;
    }
}

/// The forced stack while an option is committed, its top in a local: kept
/// in the [`Forced`], the top was stored and loaded again around every push
/// (the compiler cannot tell the pushed item's store from the top's), two
/// of a hide's thirteen instructions.
struct Push<'a> {
    items: &'a mut [u32],
    top: usize,
    /// Whether a len fell to 0.
    zero: bool,
}

impl Push<'_> {
    /// Pushes item `j`, whose len just fell to `len`, when that is 0 or 1
    /// (written always, kept only then), and notes a len of 0.
    #[inline(always)]
    fn push_if(&mut self, j: u32, len: u8) {
        set(self.items, self.top, j);
        self.top += usize::from(len <= 1);
        self.zero |= len == 0;
    }
}

/// The states of one search, with masks of type `M`.
#[derive(Clone, Debug)]
struct States<M> {
    /// The state being searched.
    masks: Vec<M>,
    lens: Vec<u8>,
    forced: Forced,
    /// The matrix's root masks, as `M`s.
    start_masks: Vec<M>,
    /// The state after the preselected options (where a search starts), and
    /// the forced items they left.
    root_masks: Vec<M>,
    root_lens: Vec<u8>,
    /// Saved states, one per branch point (grown as a search first goes
    /// deeper; never shrunk).
    saved_masks: Vec<M>,
    saved_lens: Vec<u8>,
    /// The branch points of the search in progress.
    branches: Branches,
}

impl<M: Mask> States<M> {
    fn new(m: &MasksMatrix) -> Self {
        let masks: Vec<M> = m.root_masks.iter().map(|&x| M::from_u64(x)).collect();
        States {
            masks: masks.clone(),
            lens: m.root_lens.clone(),
            forced: Forced::new(m.primary),
            root_masks: masks.clone(),
            start_masks: masks,
            root_lens: m.root_lens.clone(),
            saved_masks: Vec::new(),
            saved_lens: Vec::new(),
            branches: Branches {
                level: Vec::new(),
                item: Vec::new(),
                rest: Vec::new(),
                top: 0,
            },
        }
    }

    fn reset(&mut self, m: &MasksMatrix) {
        self.root_masks.copy_from_slice(&self.start_masks);
        self.root_lens.copy_from_slice(&m.root_lens);
    }

    fn restart(&mut self) {
        self.masks.copy_from_slice(&self.root_masks);
        self.lens.copy_from_slice(&self.root_lens);
        self.forced.clear();
        self.branches.top = 0;
    }

    /// Whether option `r` (not ignored) is active at the root.
    fn root_active(&self, m: &MasksMatrix, r: usize) -> bool {
        let k = m.opt_start[r] as usize;
        !(self.root_masks[m.opt_item[k] as usize] & M::from_u64(m.opt_bit[k])).is_zero()
    }

    /// Commits each of `options` at the root, in order, adding it to
    /// `held` and its updates to `updates`; stops at the first that is not
    /// an active option with a primary item.
    fn preselect<const K: usize, const A: bool>(
        &mut self,
        m: &MasksMatrix,
        options: &[OptionId],
        held: &mut Vec<OptionId>,
        updates: &mut u64,
    ) -> Result<(), PreselectError> {
        for &option in options {
            let r = option.as_usize();
            if r >= m.options {
                return Err(PreselectError::UnknownOption(option));
            }
            if m.ignored[r] {
                return Err(PreselectError::IgnoredOption(option));
            }
            if !self.root_active(m, r) {
                let held = held.iter().map(|&q| {
                    let q = q.as_usize();
                    (q as u32, m.option(q))
                });
                return Err(conflict(option, m.option(r), held));
            }
            *updates += m.commit::<M, K, A, false>(
                &mut self.root_masks,
                &mut self.root_lens,
                &mut self.forced,
                r,
            );
            held.push(option);
        }
        Ok(())
    }

    /// Saves the state being searched as branch point `l`'s.
    #[inline(always)]
    fn save(&mut self, l: usize) {
        let (n, p) = (self.masks.len(), self.lens.len());
        if self.saved_masks.len() < (l + 1) * n {
            self.saved_masks.resize((l + 1) * n, M::default());
            self.saved_lens.resize((l + 1) * p, 0);
        }
        self.saved_masks[l * n..(l + 1) * n].copy_from_slice(&self.masks);
        self.saved_lens[l * p..(l + 1) * p].copy_from_slice(&self.lens);
    }

    /// Goes back to branch point `l`'s saved state.
    #[inline(always)]
    fn restore(&mut self, l: usize) {
        let (n, p) = (self.masks.len(), self.lens.len());
        self.masks
            .copy_from_slice(&self.saved_masks[l * n..(l + 1) * n]);
        self.lens
            .copy_from_slice(&self.saved_lens[l * p..(l + 1) * p]);
        self.forced.clear();
    }
}

/// The states, in the mask type the matrix needs.
#[derive(Clone, Debug)]
enum Width {
    W16(States<u16>),
    W32(States<u32>),
    W64(States<u64>),
}

/// Calls `$f` with the states of `$w`, whatever their mask type.
macro_rules! by_width {
    ($w:expr, $s:ident => $e:expr) => {
        match $w {
            Width::W16($s) => $e,
            Width::W32($s) => $e,
            Width::W64($s) => $e,
        }
    };
}

/// One search over a [`MasksMatrix`]: the search driver beside the states and
/// the branch points. Solving, counting, preselecting and resetting allocate
/// nothing, once a search has gone as deep as it will (saved states are
/// added as a search first reaches a new depth). The queries mirror
/// [`LinksSolver`](crate::dlx::LinksSolver)'s.
#[derive(Clone, Debug)]
pub struct MasksSolver<'m> {
    matrix: Shared<'m, MasksMatrix>,
    driver: Driver,
    states: Width,
}

/// The branch points of the search in progress, innermost last: the kernel
/// backs down to them directly ([`Kernel::JUMPS`]), past the forced levels
/// above them, which need no undoing.
#[derive(Clone, Debug)]
struct Branches {
    /// Per branch point: its level, its item, and its options not yet tried
    /// (bits of the item's mask). Branch point `b`'s state is saved slot `b`.
    level: Vec<u32>,
    item: Vec<u32>,
    rest: Vec<u64>,
    /// Branch points in progress.
    top: usize,
}

/// The masks kernel: masks of type `M`, options of `K` items (0: mixed),
/// aligned places when `A`.
struct Masks<M, const K: usize, const A: bool>(std::marker::PhantomData<M>);

impl<M: Mask, const K: usize, const A: bool> Kernel for Masks<M, K, A> {
    type Tables = MasksMatrix;
    type State = States<M>;
    const UNDOES: bool = false;
    const JUMPS: bool = true;

    fn start(_m: &MasksMatrix, s: &mut States<M>) {
        s.restart();
    }

    /// The next option to commit in the state being searched: a forced one,
    /// else the first option of a new branch point.
    #[inline(always)]
    fn enter(m: &MasksMatrix, s: &mut States<M>, l: usize, _stats: &mut Stats) -> Enter {
        let forced = |r: usize| Enter::forced(Some(r as u32));
        // A dead end first: no forced move in a dead state.
        let f = &mut s.forced;
        if f.dead {
            return Enter::DEAD;
        }
        while let Some(j) = f.pop() {
            let j = j as usize;
            let len = at(&s.lens, j);
            debug_assert_ne!(len, 0, "a len of 0 marks the state dead");
            if len == 1 {
                return forced(m.option_at(j, at(&s.masks, j).lowest()));
            }
        }
        let Some((i, len)) = choose(&s.lens[..m.scan]) else {
            return Enter::Solved;
        };
        let mask = at(&s.masks, i);
        match len {
            0 => Enter::DEAD,
            1 => forced(m.option_at(i, mask.lowest())),
            _ => {
                let t = s.branches.top;
                s.save(t);
                let b = &mut s.branches;
                if b.level.len() == t {
                    b.level.push(0);
                    b.item.push(0);
                    b.rest.push(0);
                }
                b.level[t] = l as u32;
                b.item[t] = i as u32;
                b.rest[t] = mask.drop_lowest().to_u64();
                b.top = t + 1;
                Enter::branch(Some(m.option_at(i, mask.lowest()) as u32))
            }
        }
    }

    #[inline(always)]
    fn commit(m: &MasksMatrix, s: &mut States<M>, _l: usize, r: u32, stats: &mut Stats) -> bool {
        stats.updates +=
            m.commit::<M, K, A, true>(&mut s.masks, &mut s.lens, &mut s.forced, r as usize);
        // Whether that covered the last primary item is found by the next
        // scan (`enter`).
        false
    }

    fn retract(_m: &MasksMatrix, _s: &mut States<M>, _l: usize, _r: u32) -> Option<u32> {
        // Never called: the driver backs down by `resume`.
        None
    }

    fn leave(_m: &MasksMatrix, _s: &mut States<M>, _l: usize) {}

    /// Backtracks to the innermost branch point with an option left and
    /// restores its state.
    #[inline(always)]
    fn resume(m: &MasksMatrix, s: &mut States<M>) -> Option<(usize, u32)> {
        while s.branches.top > 0 {
            let t = s.branches.top - 1;
            let rest = s.branches.rest[t];
            if rest == 0 {
                s.branches.top = t;
                continue;
            }
            s.branches.rest[t] = rest & (rest - 1);
            s.restore(t);
            let r = m.option_at(s.branches.item[t] as usize, rest.trailing_zeros());
            return Some((s.branches.level[t] as usize, r as u32));
        }
        None
    }
}

impl<'m> MasksSolver<'m> {
    /// A solver over `matrix`, ready to search.
    pub fn new(matrix: &'m MasksMatrix) -> Self {
        Self::with_tables(Shared::Borrowed(matrix))
    }

    /// A solver over tables it may own.
    pub(crate) fn with_tables(matrix: Shared<'m, MasksMatrix>) -> Self {
        let states = match matrix.width {
            16 => Width::W16(States::new(&matrix)),
            32 => Width::W32(States::new(&matrix)),
            _ => Width::W64(States::new(&matrix)),
        };
        let mut s = MasksSolver {
            driver: Driver::new(matrix.max_depth, matrix.primary),
            states,
            matrix,
        };
        s.reset();
        s
    }

    /// The branching rule: this engine has one tree, forced moves first
    /// (see the module documentation), which is [`Branching::FirstForced`];
    /// every other rule is refused.
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        EngineKind::Masks.check_rule(branching)
    }

    /// Undoes everything, preselected options included; zeroes the counters.
    pub fn reset(&mut self) {
        let m = &*self.matrix;
        by_width!(&mut self.states, s => s.reset(m));
        self.driver.reset();
    }

    /// Abandons the search in progress (keeping preselected options).
    pub fn restart(&mut self) {
        // Nothing to undo: the root state is copied in when the search
        // starts (`Kernel::start`).
        let (m, d) = (&*self.matrix, &mut self.driver);
        by_width!(&mut self.states, s => d.restart::<Masks<_, 0, false>>(m, s));
    }

    /// Commits to `option` before the search (see
    /// [`LinksSolver::preselect`](crate::dlx::LinksSolver::preselect)). Abandons any
    /// search in progress; undone by [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        self.preselect_each(std::slice::from_ref(&option))
    }

    /// Replaces every preselection by `options`: as [`reset`](Self::reset)
    /// followed by [`preselect`](Self::preselect) of each, in one call (the
    /// matrix's shape is looked at once, not per option: a Sudoku's givens
    /// are preselected this way). On a refusal nothing is preselected, as
    /// with [`LinksSolver::preselect_all`](crate::dlx::LinksSolver::preselect_all).
    pub fn preselect_all(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        self.reset();
        let result = self.preselect_each(options);
        if result.is_err() {
            self.reset();
        }
        result
    }

    /// Preselects each of `options` in order, stopping at the first refused.
    fn preselect_each(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        let m = &*self.matrix;
        let before = self.driver.preselected.len();
        let (held, updates) = (&mut self.driver.preselected, &mut self.driver.stats.updates);
        let result = match (m.uniform, m.aligned) {
            (3, false) => {
                by_width!(&mut self.states, s => s.preselect::<3, false>(m, options, held, updates))
            }
            (3, true) => {
                by_width!(&mut self.states, s => s.preselect::<3, true>(m, options, held, updates))
            }
            (4, false) => {
                by_width!(&mut self.states, s => s.preselect::<4, false>(m, options, held, updates))
            }
            (4, true) => {
                by_width!(&mut self.states, s => s.preselect::<4, true>(m, options, held, updates))
            }
            _ => {
                by_width!(&mut self.states, s => s.preselect::<0, false>(m, options, held, updates))
            }
        };
        // A search in progress is abandoned once something is preselected
        // (a refused first option changes nothing).
        if self.driver.preselected.len() > before {
            self.restart();
        }
        result
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        let (m, d) = (&*self.matrix, &mut self.driver);
        match (m.uniform, m.aligned) {
            (3, false) => by_width!(&mut self.states, s => d.run::<Masks<_, 3, false>>(m, s)),
            (3, true) => by_width!(&mut self.states, s => d.run::<Masks<_, 3, true>>(m, s)),
            (4, false) => by_width!(&mut self.states, s => d.run::<Masks<_, 4, false>>(m, s)),
            (4, true) => by_width!(&mut self.states, s => d.run::<Masks<_, 4, true>>(m, s)),
            _ => by_width!(&mut self.states, s => d.run::<Masks<_, 0, false>>(m, s)),
        }
    }
}

engine_queries!(MasksSolver, MasksSolutions, |_s, r| OptionId::must(
    r as usize
));

#[cfg(test)]
mod tests {
    //! Small searches over every path of the masks engine (each mask width,
    //! uniform and mixed option lengths, secondary items, ignored options,
    //! preselect, budget stop and resume), each against the links engine.
    //! Quick enough for Miri, which checks the unchecked reads and writes.
    use super::*;
    use crate::dlx::search::engine_tests::{self, same_solutions_as_links};
    use crate::dlx::Budget;
    use crate::dlx::{knuth, MatrixBuilder};
    use crate::problems;

    /// The masks engine against the links engine: the same solutions.
    fn agree(m: &Matrix) -> u64 {
        let mm = MasksMatrix::new(m).unwrap();
        same_solutions_as_links(m, &mut MasksSolver::new(&mm))
    }

    #[test]
    fn same_solutions_as_dlx_on_small_problems() {
        for (m, want) in engine_tests::small_problems() {
            assert_eq!(agree(&m), want);
        }
    }

    #[test]
    fn sudoku_4x4_grids() {
        // All 288 filled 4×4 grids: 64 items of 4 options, 16-bit masks.
        let cover = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let m = MasksMatrix::new(cover.matrix()).unwrap();
        assert_eq!((m.width, m.uniform), (16, 4));
        if cfg!(miri) {
            // The first row given (1 2 3 4): 12 grids, quick under Miri.
            let mut s = MasksSolver::new(&m);
            for c in 0..4 {
                s.preselect(cover.option(0, c, c as u8 + 1)).unwrap();
            }
            let mut n = 0;
            while s.next_solution() == Step::Solution {
                let sol: Vec<_> = s.solution().collect();
                crate::dlx::verify_cover(cover.matrix(), &sol).unwrap();
                n += 1;
            }
            assert_eq!(n, 12);
        } else {
            assert_eq!(agree(cover.matrix()), 288);
        }
    }

    /// Three-dimensional matching on 3 × `n` items: the options
    /// (a, b, c) with a + b + c even, written a-b-c (aligned) or, for
    /// the first option, b-a-c (not aligned).
    fn matching(n: usize, aligned: bool) -> Matrix {
        let mut b = MatrixBuilder::new();
        let g: Vec<Vec<_>> = ["a", "b", "c"]
            .iter()
            .map(|p| {
                (0..n)
                    .map(|k| b.primary(&format!("{p}{k}")).unwrap())
                    .collect()
            })
            .collect();
        for x in 0..n {
            for y in 0..n {
                for z in (0..n).filter(|z| (x + y + z) % 2 == 0) {
                    if !aligned && (x, y, z) == (0, 0, 0) {
                        b.option(&[g[1][y], g[0][x], g[2][z]]).unwrap();
                    } else {
                        b.option(&[g[0][x], g[1][y], g[2][z]]).unwrap();
                    }
                }
            }
        }
        b.build().unwrap()
    }

    #[test]
    fn aligned_matrices() {
        let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let queens = problems::queens(6).unwrap();
        let langford = problems::langford(4).unwrap();
        for (m, aligned) in [(sudoku.matrix(), true), (&queens, true), (&langford, false)] {
            assert_eq!(MasksMatrix::new(m).unwrap().aligned, aligned);
        }
        // The same problem either way: the same solutions as links.
        // Not 3: the three triples of a cover would add up to 9, odd.
        let n = if cfg!(miri) { 4 } else { 5 };
        let (yes, no) = (matching(n, true), matching(n, false));
        assert!(MasksMatrix::new(&yes).unwrap().aligned);
        assert!(!MasksMatrix::new(&no).unwrap().aligned);
        let count = agree(&yes);
        assert!(count > 0);
        assert_eq!(agree(&no), count);
    }

    #[test]
    fn secondary_items_and_ignored_options() {
        // `s` is in 280 + 8 options: 64-bit masks would not hold it.
        let (m, ..) = engine_tests::wide(8);
        assert_eq!(MasksMatrix::new(&m).unwrap_err(), MasksError::LongItem(288));
        // With 30 options of `s` alone (32-bit masks), mixed lengths.
        let mut b = MatrixBuilder::new();
        let x: Vec<_> = (0..4)
            .map(|k| b.primary(&format!("x{k}")).unwrap())
            .collect();
        let s = b.secondary("s").unwrap();
        for _ in 0..20 {
            b.option(&[s]).unwrap();
        }
        for k in 0..8 {
            b.option(&[x[k % 4], x[(k + 1) % 4], s]).unwrap();
            b.option(&[x[k % 4]]).unwrap();
        }
        let m = b.build().unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        assert_eq!((mm.width, mm.uniform), (32, 0));
        assert_eq!(agree(&m), 48);
        let mut solver = MasksSolver::new(&mm);
        assert_eq!(
            solver.preselect(OptionId::must(1)),
            Err(PreselectError::IgnoredOption(OptionId::must(1)))
        );
    }

    #[test]
    fn wide_masks() {
        // Langford pairs 8 and queens 8: 16-bit masks, 3 and 4 items an
        // option.
        // (Under Miri, Langford pairs 4 and queens 6.)
        let (l, q) = if cfg!(miri) { (4, 6) } else { (8, 8) };
        let m = problems::langford(l).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        assert_eq!((mm.width, mm.uniform), (16, 3));
        assert_eq!(agree(&m), if cfg!(miri) { 2 } else { 300 });
        let m = problems::queens(q).unwrap();
        assert_eq!(agree(&m), if cfg!(miri) { 4 } else { 92 });
        // One item in 40 options: 64-bit masks.
        let mut b = MatrixBuilder::new();
        let a = b.primary("a").unwrap();
        let c = b.primary("c").unwrap();
        for k in 0..40 {
            if k % 3 == 0 {
                b.option(&[a, c]).unwrap();
            } else {
                b.option(&[a]).unwrap();
            }
        }
        b.option(&[c]).unwrap();
        let m = b.build().unwrap();
        assert_eq!(MasksMatrix::new(&m).unwrap().width, 64);
        assert_eq!(agree(&m), 14 + 26);
    }

    #[test]
    fn choose_takes_the_leftmost_least_len() {
        let mut lens = [COVERED; 2 * CHUNK];
        assert_eq!(choose(&lens), None);
        lens[3] = 5;
        lens[20] = 2;
        lens[25] = 2;
        assert_eq!(choose(&lens), Some((20, 2)));
        lens[30] = 0;
        assert_eq!(choose(&lens), Some((30, 0)));
        // Above any real len (a covered item counted down): still covered.
        let mut lens = [COVERED - 64; CHUNK];
        assert_eq!(choose(&lens), None);
        lens[CHUNK - 1] = 1;
        assert_eq!(choose(&lens), Some((CHUNK - 1, 1)));
    }

    #[test]
    fn preselect_budget_and_reset() {
        let m = problems::queens(6).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut s = MasksSolver::new(&mm);
        engine_tests::preselect_budget_and_reset(&m, &mut s, false);
        // A preselected option that leaves an item with no option: the
        // search is a dead end at once.
        s.reset();
        let t = knuth::read("A B C\nA B\nB C\nC\n".as_bytes()).unwrap();
        let tm = MasksMatrix::new(&t).unwrap();
        let mut ts = MasksSolver::new(&tm);
        ts.preselect(OptionId::must(1)).unwrap();
        assert_eq!(ts.count().solutions, 0);
        assert!(ts.is_exhausted());
        ts.reset();
        assert_eq!(ts.count().solutions, 1);
        // The profile counts the nodes of each level.
        s.reset();
        s.set_budget(Budget::default());
        s.enable_profile();
        s.count();
        let profile = s.profile().unwrap();
        assert_eq!(profile.iter().sum::<u64>(), s.stats().nodes);
    }

    #[test]
    fn colors_are_refused() {
        let m = knuth::read("A | s\nA s:x\nA s:y\n".as_bytes()).unwrap();
        assert_eq!(MasksMatrix::new(&m).unwrap_err(), MasksError::Colors);
    }
}
