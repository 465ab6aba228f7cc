//! Algorithm X over bit sets of options, every len *counted* by popcounts
//! (with multiplicities, kept as *bit-sliced counters*): the *bits* engine,
//! for small uncolored matrices (at most 64 primary items and 512 options,
//! no item in more than 255).
//!
//! The same algorithm as [`LinksSolver`](crate::dlx::LinksSolver), the same tree and
//! the same counters, with a third representation of the live matrix. Like
//! the dense engine ([`crate::dlx::DenseSolver`]) it keeps, per search level,
//! a *state* that is copied instead of undone, with one bit per option (still
//! active or not), `W` words, and one more word of the primary items still
//! uncovered: `W + 1` words (queens 13: 3 + 1), small enough to copy per
//! node like a struct. Then:
//! * Knuth's choice counts each uncovered primary item's active options,
//!   `W` popcounts, and takes the least of `len · 64 + item` (the leftmost
//!   least len, without a branch on the lens, which vary too much to be
//!   predicted);
//! * committing an option clears, in one pass, every active option that
//!   shares an item with it: a mask per option, the union of its items'
//!   option masks, made once ([`BitsMatrix::new`]), instead of one cover
//!   per item;
//! * hiding options is clearing their bits, `W` words, whatever their
//!   number; DLX1's updates are their costs (items less one) counted
//!   through the costs' own bit-sliced planes, a popcount per plane and
//!   word.
//!
//! On x86 the search runs in a copy compiled for `popcnt` and the
//! BMI1/BMI2/LZCNT extensions where they are found at run time (Intel's
//! Haswell of 2013 and AMD's Excavator of 2015 on), else in one compiled
//! for `popcnt` alone (Nehalem, 2008, and Barcelona, 2007, on);
//! WebAssembly and ARM count in one instruction or a few. Counting was
//! faster than keeping the lens in bit-sliced planes on every shape
//! measured with BMI (queens 8–14, Langford pairs 10–12, tilings by
//! trominoes and tetrominoes, up to 64 items over 5 words), by up to a
//! third, or as fast (dominoes): BENCHMARKS.md, "Lens counted". Where the
//! processor lacks `popcnt` altogether (x86 before those) the same kernel
//! counts in a dozen instructions a word: 1.4–1.5 times the instructions of
//! the bit-sliced kernel that served such processors before, whose 48
//! copies were not worth their build time (BENCHMARKS.md, "One kernel
//! table an engine").
//!
//! With multiplicities (DLX3's `u:v|`) the search is Algorithm M
//! (`mult.rs`): `B` words, *planes*, hold DLX3's branching degree per
//! primary item (bit `i` of plane `k` is bit `k` of item `i`'s), four more
//! planes a tie key (the bounds), and the state is `W + B + 4 + 1` words
//! (two-queens 8: 1 + 4 + 4 + 1); DLX3's tree and counters. Then
//! * hiding an option subtracts 1 from the degrees of all its primary items
//!   at once: a borrow rippling up the planes, `2·B` word operations, no
//!   loads or stores of counters;
//! * the choice walks down the planes from the highest, keeping the
//!   candidates whose bit is 0 when there are any: `B + 4` steps and a
//!   trailing-zeros count, however many items.
//!
//! `W` (words of option bits, 1 to 8) and `B` (planes: 0 without
//! multiplicities, else 4 or 8) are compile-time constants, the matrix's
//! own sizes (the kernel table, `bits_kernels!`, picks the copy of the
//! search loop), so every loop over a state is unrolled: queens 13 took 4%
//! more time with 4 words than with the 3 it needs.
//!
//! Invariants:
//! * state slot `2l` holds the state on entering level `l`; levels below
//!   `level` are committed, as in the other engines. Committing an option
//!   at `l` writes slot `2l + 2` straight from slot `2l`: the option's
//!   conflicts include every option of the level's branching item, so
//!   covering the item first would clear nothing more (its updates are
//!   counted on entering the level, and not again by the commit). Slot
//!   `2l + 1` is Algorithm M's (`mult.rs`: the item after M4 and its
//!   tweaks);
//! * with multiplicities, for every uncovered primary item `i` (bit `i` of
//!   the last word), the planes hold its branching degree (`mult.rs`); the
//!   planes of covered items are never read (they may hold anything);
//! * no active option contains a covered item, primary or secondary; a
//!   degree never goes below 0, so no borrow leaves the top plane.
//!
//! Counters are DLX1's, counted as the dense engine counts them: a hidden
//! option is as many updates as its items less one, a covered item one
//! more, a node every level entered and every solution. With any
//! [`Branching`](crate::dlx::Branching) the tree is Knuth's: here the leftmost least len costs no
//! more than the first forced item, and a len of 0 or 1 is always least.

#![allow(unsafe_code)]

use crate::dlx::index::{ItemId, OptionId};
use crate::dlx::unchecked::{at, at_mut, span, span_mut, split_mut};
use crate::dlx::Matrix;
use std::fmt;

/// The bits engine's kernel table (see [`kernel_table!`]): the key is
/// `(bounded, words, planes)` of a [`BitsMatrix`] ([`BitsMatrix::shape`]).
/// Knuth's rule counts its lens: a copy for each width of option bits
/// (1 to 8 words; queens 13 took 4% more time with 4 words than with the 3
/// it needs), and on x86 each twice again, compiled for `popcnt` with BMI
/// and without (`search.rs`). Algorithm M keeps `θ` in 4 or 8 planes, a copy for each
/// width and both (BENCHMARKS.md, "One kernel table an engine").
///
/// [`kernel_table!`]: crate::dlx::search::driver::kernel_table
macro_rules! bits_kernels {
    ($($how:tt)*) => {
        $crate::dlx::search::driver::kernel_table! { $($how)*
            (false, 1, _) => $crate::dlx::bits::search::Bits<1>,
            (false, 2, _) => $crate::dlx::bits::search::Bits<2>,
            (false, 3, _) => $crate::dlx::bits::search::Bits<3>,
            (false, 4, _) => $crate::dlx::bits::search::Bits<4>,
            (false, 5, _) => $crate::dlx::bits::search::Bits<5>,
            (false, 6, _) => $crate::dlx::bits::search::Bits<6>,
            (false, 7, _) => $crate::dlx::bits::search::Bits<7>,
            (false, _, _) => $crate::dlx::bits::search::Bits<8>,
            (true, 1, 4) => $crate::dlx::bits::mult::BitsMult<1, 4>,
            (true, 1, _) => $crate::dlx::bits::mult::BitsMult<1, 8>,
            (true, 2, 4) => $crate::dlx::bits::mult::BitsMult<2, 4>,
            (true, 2, _) => $crate::dlx::bits::mult::BitsMult<2, 8>,
            (true, 3, 4) => $crate::dlx::bits::mult::BitsMult<3, 4>,
            (true, 3, _) => $crate::dlx::bits::mult::BitsMult<3, 8>,
            (true, 4, 4) => $crate::dlx::bits::mult::BitsMult<4, 4>,
            (true, 4, _) => $crate::dlx::bits::mult::BitsMult<4, 8>,
            (true, 5, 4) => $crate::dlx::bits::mult::BitsMult<5, 4>,
            (true, 5, _) => $crate::dlx::bits::mult::BitsMult<5, 8>,
            (true, 6, 4) => $crate::dlx::bits::mult::BitsMult<6, 4>,
            (true, 6, _) => $crate::dlx::bits::mult::BitsMult<6, 8>,
            (true, 7, 4) => $crate::dlx::bits::mult::BitsMult<7, 4>,
            (true, 7, _) => $crate::dlx::bits::mult::BitsMult<7, 8>,
            (true, _, 4) => $crate::dlx::bits::mult::BitsMult<8, 4>,
            (true, _, _) => $crate::dlx::bits::mult::BitsMult<8, 8>,
        }
    };
}

// Defined above the submodules, so that both see it.
mod mult;
mod search;

pub use search::{BitsSolutions, BitsSolver};

/// Primary items the engine takes on: one word of planes.
pub const MAX_BITS_PRIMARY: usize = 64;
/// Options it takes on: words of active bits in a state.
pub const MAX_BITS_OPTIONS: usize = 64 * WORD_SIZES[WORD_SIZES.len() - 1];
/// The widths of option bits a state comes in (words); a matrix takes the
/// smallest that holds its options.
const WORD_SIZES: [usize; 8] = [1, 2, 3, 4, 5, 6, 7, 8];
/// The numbers of planes of `θ` a state with multiplicities comes in; a
/// matrix takes the smallest that holds its largest (its longest item's
/// len and the largest lower bound). Without multiplicities the lens are
/// counted: no planes.
const PLANE_SIZES: [usize; 2] = [4, 8];

/// Why a matrix is not for the bits engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BitsError {
    /// The matrix has colors.
    Colors,
    /// With multiplicities (DLX3's `u:v|`): the bits of the largest slack
    /// (upper bound less lower) and of the largest lower bound are more
    /// than four together (`mult.rs`).
    LargeBounds,
    /// It has this many primary items, over [`MAX_BITS_PRIMARY`].
    TooManyPrimary(usize),
    /// It has this many options, over [`MAX_BITS_OPTIONS`].
    TooManyOptions(usize),
    /// An item is in this many options, more than eight planes count (with
    /// multiplicities the planes count them plus the largest lower bound).
    LongItem(usize),
}

impl fmt::Display for BitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitsError::Colors => write!(f, "the matrix has colors"),
            BitsError::LargeBounds => write!(
                f,
                "its bounds are too large (the bits engine takes lower bounds and slacks of four bits together)"
            ),
            BitsError::TooManyPrimary(n) => write!(
                f,
                "it has {n} primary items (the bits engine takes up to {MAX_BITS_PRIMARY})"
            ),
            BitsError::TooManyOptions(n) => write!(
                f,
                "it has {n} options (the bits engine takes up to {MAX_BITS_OPTIONS})"
            ),
            BitsError::LongItem(n) => write!(
                f,
                "an item is in {n} options (at most 255, less the largest lower bound with multiplicities)"
            ),
        }
    }
}

impl std::error::Error for BitsError {}

/// How this processor counts bits, for the copy of the counted kernel that
/// runs: on x86, with `popcnt` and the BMI1/BMI2/LZCNT extensions
/// (Langford pairs 12 took a third more time with `popcnt` alone), with
/// `popcnt` alone, or without (x86's baseline: a count is a dozen
/// instructions); other targets count in one instruction or a few, and
/// run the one copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Counts {
    /// The target's baseline instructions.
    Baseline,
    /// x86's `popcnt`.
    #[cfg_attr(
        not(any(target_arch = "x86", target_arch = "x86_64")),
        allow(dead_code)
    )]
    Popcnt,
    /// x86's `popcnt`, BMI1, BMI2 and LZCNT.
    #[cfg_attr(
        not(any(target_arch = "x86", target_arch = "x86_64")),
        allow(dead_code)
    )]
    Bmi,
}

impl Counts {
    /// This processor's.
    fn here() -> Counts {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        {
            if !std::is_x86_feature_detected!("popcnt") {
                Counts::Baseline
            } else if std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
            {
                Counts::Bmi
            } else {
                Counts::Popcnt
            }
        }
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        {
            Counts::Baseline
        }
    }
}

/// The fixed tables of the bits engine for one [`Matrix`]. Immutable; share
/// it between any number of [`BitsSolver`]s.
#[derive(Clone, Debug)]
pub struct BitsMatrix {
    primary: usize,
    options: usize,
    /// Words of option bits in a state (one of [`WORD_SIZES`]) and planes
    /// (one of [`PLANE_SIZES`] with multiplicities, else 0).
    words: usize,
    planes: usize,
    /// Option `r`'s items are `opt_items[opt_start[r]..opt_start[r + 1]]`.
    opt_start: Vec<u32>,
    opt_items: Vec<u32>,
    /// Option `r`'s primary items as bits, and its updates when hidden (its
    /// items less one).
    opt_bits: Vec<u64>,
    opt_cost: Vec<u32>,
    /// With counted lens (no planes): the options' updates when hidden,
    /// bit-sliced over the options, `cost_bits` planes of `words` words
    /// (plane `k` from `cost_planes[k * words]`).
    cost_planes: Vec<u64>,
    cost_bits: usize,
    /// With counted lens, where every option the search can meet (active
    /// at the root) has the same updates when hidden: those, so that the
    /// updates of a cover are that times the options hidden, one popcount
    /// a word instead of one a word and plane (queens, Langford pairs,
    /// polyomino packings and Sudoku are of this kind).
    one_cost: Option<u32>,
    /// How this processor counts bits ([`Counts`]): the counted kernel
    /// runs in a copy compiled for it.
    #[cfg_attr(
        not(any(target_arch = "x86", target_arch = "x86_64")),
        allow(dead_code)
    )]
    popcnt: Counts,
    /// Item `i`'s options: `words` words from `masks[i * words]`.
    masks: Vec<u64>,
    /// The options that share an item with option `r` (itself included):
    /// `words` words from `conflicts[r * words]`, the union of its items'
    /// masks. Committing `r` clears them all in one pass.
    conflicts: Vec<u64>,
    /// The state before anything is chosen: option bits, planes, the
    /// uncovered primary items.
    root: Vec<u64>,
    /// Deepest level a search can reach.
    max_depth: usize,
    /// With multiplicities (Algorithm M, `mult.rs`): the planes hold
    /// `θ - 1 + lift` per item, and [`mult::TIE_PLANES`] more its tie key, whose
    /// low `owed_planes` bits are its deficit's complement; per primary item
    /// its slack (upper bound less lower), and per option the union of its
    /// secondary items' masks (`words` words from `r * words`) and how many
    /// they are.
    bounded: bool,
    owed_planes: usize,
    /// Per plane of the tie key: all ones where it is one of the deficit's.
    owed_mask: [u64; mult::TIE_PLANES],
    lift: u32,
    slack: Vec<u8>,
    sec_conflicts: Vec<u64>,
    sec_count: Vec<u32>,
}

impl BitsMatrix {
    /// The tables of `matrix`, or why it is not for this engine.
    pub fn new(matrix: &Matrix) -> Result<BitsMatrix, BitsError> {
        if matrix.has_colors() {
            return Err(BitsError::Colors);
        }
        let primary = matrix.primary_count();
        if primary > MAX_BITS_PRIMARY {
            return Err(BitsError::TooManyPrimary(primary));
        }
        let bounded = matrix.has_bounds();
        // Per primary item: (lower, upper) bounds, 1 and 1 without.
        let bounds: Vec<(u32, u32)> = (0..primary)
            .map(|i| matrix.bounds(ItemId::must(i)).unwrap_or((1, 1)))
            .collect();
        let options = matrix.option_count();
        let Some(&words) = WORD_SIZES.iter().find(|&&w| 64 * w >= options) else {
            return Err(BitsError::TooManyOptions(options));
        };
        let items = matrix.item_count();
        let mut opt_start = Vec::with_capacity(options + 1);
        let mut opt_items = Vec::new();
        let mut opt_bits = Vec::with_capacity(options);
        let mut opt_cost = Vec::with_capacity(options);
        let mut masks = vec![0u64; items * words];
        let mut count = vec![0usize; primary];
        let mut active = vec![0u64; words];
        let mut min_primary = usize::MAX;
        opt_start.push(0);
        for r in 0..options {
            let o = OptionId::must(r);
            let mut bits = 0u64;
            for (i, _) in matrix.option_items(o) {
                opt_items.push(i.as_usize() as u32);
                if matrix.is_primary(i) {
                    bits |= 1 << i.as_usize();
                }
            }
            opt_start.push(opt_items.len() as u32);
            opt_bits.push(bits);
            opt_cost.push((matrix.option_items(o).len() as u32).saturating_sub(1));
            // An option without primary items is never chosen (DLX1).
            if bits != 0 {
                active[r / 64] |= 1 << (r % 64);
                min_primary = min_primary.min(bits.count_ones() as usize);
                for (i, _) in matrix.option_items(o) {
                    masks[i.as_usize() * words + r / 64] |= 1 << (r % 64);
                    if let Some(c) = count.get_mut(i.as_usize()) {
                        *c += 1;
                    }
                }
            }
        }
        let mut conflicts = vec![0u64; options * words];
        for r in 0..options {
            for &i in &opt_items[opt_start[r] as usize..opt_start[r + 1] as usize] {
                let i = i as usize;
                for w in 0..words {
                    conflicts[r * words + w] |= masks[i * words + w];
                }
            }
        }
        let bits = |x: usize| (usize::BITS - x.leading_zeros()) as usize;
        let most = count.iter().copied().max().unwrap_or(0);
        let (lo, hi) = (
            |i: usize| bounds[i].0 as usize,
            |i: usize| bounds[i].1 as usize,
        );
        // With multiplicities: `θ - 1 + lift` is at most the len plus
        // `lift`, the largest lower bound; the planes of `min(slack, bound)`
        // hold the largest slack, the deficit's the largest lower bound.
        let (lift, widest) =
            (0..primary).fold((0, 0), |(l, w), i| (l.max(lo(i)), w.max(hi(i) - lo(i))));
        let (owed_planes, tie_planes) = (bits(lift), bits(widest) + bits(lift));
        if bounded && tie_planes > mult::TIE_PLANES {
            return Err(BitsError::LargeBounds);
        }
        let need = bits(most + if bounded { lift } else { 0 });
        let Some(&sliced_planes) = PLANE_SIZES.iter().find(|&&b| b >= need) else {
            return Err(BitsError::LongItem(most));
        };
        // Without multiplicities the lens are counted: faster or as fast on
        // every shape measured where popcounts are one instruction
        // (BENCHMARKS.md, "Lens counted"); where they are not (x86 without
        // `popcnt`), a kernel of its own was not worth its build time
        // (BENCHMARKS.md, "One kernel table an engine").
        let popcnt = Counts::here();
        let counted = !bounded;
        let planes = if counted { 0 } else { sliced_planes };
        let most_cost = opt_cost.iter().copied().max().unwrap_or(0) as usize;
        let cost_bits = if counted { bits(most_cost) } else { 0 };
        let mut cost_planes = vec![0u64; cost_bits * words];
        for (r, &c) in opt_cost.iter().enumerate() {
            for k in 0..cost_bits {
                cost_planes[k * words + r / 64] |= u64::from(c >> k & 1) << (r % 64);
            }
        }
        let mut live_costs = opt_cost
            .iter()
            .enumerate()
            .filter(|&(r, _)| active[r / 64] >> (r % 64) & 1 != 0)
            .map(|(_, &c)| c);
        let first_cost = live_costs.next();
        let one_cost = first_cost.filter(|&c| counted && live_costs.all(|d| d == c));
        let mut root = active;
        // Bit-sliced planes of one value per primary item.
        let sliced = |n: usize, value: &dyn Fn(usize) -> usize| -> Vec<u64> {
            (0..n)
                .map(|k| (0..primary).fold(0, |p, i| p | ((value(i) >> k) as u64 & 1) << i))
                .collect()
        };
        let slack: Vec<u8> = if bounded {
            (0..primary).map(|i| (hi(i) - lo(i)) as u8).collect()
        } else {
            Vec::new()
        };
        if bounded {
            // At the root an item's bound is its upper one: `min(slack,
            // bound)` is the slack, the deficit the lower bound.
            let full = (1 << owed_planes) - 1;
            root.extend(sliced(planes, &|i| count[i] + lift - lo(i)));
            root.extend(sliced(mult::TIE_PLANES, &|i| {
                usize::from(slack[i]) << owed_planes | (full - lo(i))
            }));
        } else {
            root.extend(sliced(planes, &|i| count[i]));
        }
        root.push(if primary == 64 {
            u64::MAX
        } else {
            (1u64 << primary) - 1
        });
        let searched = (0..options)
            .filter(|r| root[r / 64] >> (r % 64) & 1 != 0)
            .count();
        let max_depth = if bounded {
            // Each level commits an option (once at most, using a bound) or
            // ends an item — with no option at all, it ends one.
            let uses: usize = (0..primary).map(hi).sum();
            searched.min(uses) + primary
        } else if min_primary == usize::MAX {
            0
        } else {
            primary / min_primary
        };
        let (mut sec_conflicts, mut sec_count) = (Vec::new(), Vec::new());
        if bounded {
            sec_conflicts = vec![0u64; options * words];
            for r in 0..options {
                let mut n = 0;
                for &i in &opt_items[opt_start[r] as usize..opt_start[r + 1] as usize] {
                    let i = i as usize;
                    if i >= primary {
                        n += 1;
                        for w in 0..words {
                            sec_conflicts[r * words + w] |= masks[i * words + w];
                        }
                    }
                }
                sec_count.push(n);
            }
        }
        Ok(BitsMatrix {
            primary,
            options,
            words,
            planes,
            opt_start,
            opt_items,
            opt_bits,
            opt_cost,
            cost_planes,
            cost_bits,
            one_cost,
            popcnt,
            masks,
            conflicts,
            root,
            max_depth,
            bounded,
            owed_planes,
            owed_mask: std::array::from_fn(|k| if k < owed_planes { u64::MAX } else { 0 }),
            lift: if bounded { lift as u32 } else { 0 },
            slack,
            sec_conflicts,
            sec_count,
        })
    }

    /// The key of the engine's kernel table ([`bits_kernels!`]):
    /// `(bounded, words, planes)`.
    fn shape(&self) -> (bool, usize, usize) {
        (self.bounded, self.words, self.planes)
    }

    /// The number of options (as in the [`Matrix`] it was made from).
    pub fn option_count(&self) -> usize {
        self.options
    }

    /// Words of one search state.
    pub fn state_words(&self) -> usize {
        self.root.len()
    }

    fn option(&self, r: usize) -> &[u32] {
        &self.opt_items[self.opt_start[r] as usize..self.opt_start[r + 1] as usize]
    }

    /// The first option at or after `from` that contains item `i` and is
    /// active in `active` (`W` words).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn next_option<const W: usize>(
        &self,
        active: &[u64],
        i: usize,
        from: usize,
    ) -> Option<usize> {
        let mask = span(&self.masks, i * W, W);
        let mut w = from / 64;
        let mut allowed = u64::MAX << (from % 64);
        while w < W {
            let m = at(mask, w) & at(active, w) & allowed;
            if m != 0 {
                return Some(w * 64 + m.trailing_zeros() as usize);
            }
            allowed = u64::MAX;
            w += 1;
        }
        None
    }

    /// With counted lens: the branching item among the `uncovered` items
    /// (not 0) of a state whose options are `active` (`W` words), the least
    /// len, leftmost on ties, and that len, each len a count of bits.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn choose_counted<const W: usize>(
        &self,
        active: &[u64],
        uncovered: u64,
    ) -> (usize, u32) {
        // The least of `len · 64 + i`: the least len, then the leftmost,
        // without a branch on the lens (they vary too much to predict).
        let (mut rest, mut least) = (uncovered, u32::MAX);
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let len: u32 = (0..W)
                .map(|w| (at(&self.masks, i * W + w) & at(active, w)).count_ones())
                .sum();
            least = least.min(len << 6 | i as u32);
        }
        ((least & 63) as usize, least >> 6)
    }

    /// The updates of covering item `i` of `len` active options in a state
    /// whose option bits are `active` (`W` words): its options' costs (their
    /// items less one each), without clearing them. The search commits one
    /// of them from the same state, clearing its conflicts, which are a
    /// superset of `i`'s options, and takes these back from that commit's
    /// updates (`search.rs`, `Bits::commit`).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn spent<const W: usize>(&self, active: &[u64], i: usize, len: u32) -> u64 {
        if let Some(cost) = self.one_cost {
            return u64::from(len) * u64::from(cost);
        }
        let mask = span(&self.masks, i * W, W);
        let mut hidden = [0u64; W];
        for (w, h) in hidden.iter_mut().enumerate() {
            *h = at(mask, w) & at(active, w);
        }
        self.cost_of::<W>(&hidden)
    }

    /// With counted lens: the updates of hiding the options of `hidden`
    /// (`W` words), their costs through the cost planes.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cost_of<const W: usize>(&self, hidden: &[u64; W]) -> u64 {
        if let Some(cost) = self.one_cost {
            let n: u32 = hidden.iter().map(|h| h.count_ones()).sum();
            return u64::from(n) * u64::from(cost);
        }
        let mut updates = 0;
        for k in 0..self.cost_bits {
            let n: u32 = (0..W)
                .map(|w| (hidden[w] & at(&self.cost_planes, k * W + w)).count_ones())
                .sum();
            updates += u64::from(n) << k;
        }
        updates
    }

    /// Covers every item of option `r` in state `s` (lens counted: `W`
    /// words of option bits, then the uncovered primary items) but those
    /// already covered: clears the active options that conflict with `r`,
    /// and marks `r`'s primary items covered. Returns the updates of the
    /// hidden options only (DLX1 counts one more per item covered).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cover_option<const W: usize>(&self, s: &mut [u64], r: usize) -> u64 {
        let updates = self.clear::<W, 0>(s, span(&self.conflicts, r * W, W));
        *at_mut(s, W) &= !at(&self.opt_bits, r);
        updates
    }

    /// Clears the active options of `mask` in state `s`, subtracting 1 from
    /// the lens of their primary items; returns their updates.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn clear<const W: usize, const B: usize>(&self, s: &mut [u64], mask: &[u64]) -> u64 {
        if B == 0 {
            // Counted lens: nothing to subtract; the updates are the hidden
            // options' costs, plane by plane.
            let mut hidden = [0u64; W];
            for (w, h) in hidden.iter_mut().enumerate() {
                *h = at(mask, w) & at(s, w);
                *at_mut(s, w) &= !*h;
            }
            return self.cost_of::<W>(&hidden);
        }
        let mut updates = 0;
        let (active, rest) = split_mut(s, W);
        let (active, planes) = (span_mut(active, 0, W), span_mut(rest, 0, B));
        for (w, word) in active.iter_mut().enumerate() {
            let mut m = at(mask, w) & *word;
            *word &= !m;
            while m != 0 {
                let r = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                // Subtract 1 from every len of `borrow`, lowest plane first.
                let mut borrow = at(&self.opt_bits, r);
                for plane in planes.iter_mut() {
                    let p = *plane;
                    *plane = p ^ borrow;
                    borrow &= !p;
                }
                updates += u64::from(at(&self.opt_cost, r));
            }
        }
        updates
    }
}
