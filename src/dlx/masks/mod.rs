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
//! With [`Branching::Knuth`](crate::dlx::Branching::Knuth) the search is
//! DLX1's: every node scans the lens for the leftmost least len (16 at a
//! time, `state::choose`), and its counters are DLX1's: entering a node
//! counts the updates of covering its item (one, and each active option's
//! items less one, from the item's mask), and a commit counts what covering
//! the option's other items adds (the commit's own count, which covers
//! every item of the option but does not hide the option itself, less the
//! item's share). The same tree as the links engine, node for node, in 0.3
//! of its time on the Sudoku-enumeration matrix (BENCHMARKS.md).
//!
//! With first-forced (the Sudoku layer's rule), a tree of its own: while
//! hiding, every item whose len falls to 1 or 0
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
//! Where asked (`MasksSolver::set_intersections`, which the Sudoku layer
//! sets: before the first guess on classic grids, [`Intersections::Auto`]
//! on variants), a node where nothing is
//! forced first looks for *intersections*: an uncovered item of len 2 both
//! of whose options have another item `j` means one of them covers `j`, so
//! `j`'s other options are hidden (on Sudoku: locked candidates, pointing
//! and claiming). The pairs that can ever meet this are found once per
//! matrix ([`Partners`]: items sharing two options or more), so a look is
//! one AND a pair; options hidden so push the items they force, as a
//! commit does, and the node looks again until nothing more goes. How far
//! down the tree to look is an [`Intersections`]: above a fixed number of
//! branch points, or [`Intersections::Auto`], which goes on looking past the
//! first branch point while the search's looks so far have hidden, on
//! average, at least [`PAYING_LOOK`] options each — deep looks pay on
//! killer cages, jigsaw regions and windoku's extra boxes, and cost more
//! than they save where they find little (classic grids, anti-king,
//! anti-knight): BENCHMARKS.md, "Intersections while they pay".
//!
//! Where a [`Propagator`](crate::dlx::Propagator) is set
//! (`MasksSolver::set_propagator`; the Sudoku layer's sum bounds on killer
//! puzzles), every node where nothing is forced runs it first, with
//! first-forced or lookahead (never by Knuth's rule): it reads items'
//! masks and the option that covered an item (`States::chosen`, written by
//! every commit while a propagator is set) and hides options as
//! intersections do, pushing what they force; the node runs it again until
//! it hides nothing, and again after each look for intersections that hid
//! something. A first-forced search with a propagator then branches as
//! the search's [`Strategy`](crate::dlx::Strategy) says (`States::scores`,
//! the layer's `Scores`: dead ends met just after committing one of the
//! item's options, noted by `enter`; `search::pick`), not at the leftmost
//! least len. Where the strategy branches two ways (`States::two_way`), a
//! branch point whose option failed is not moved to its item's next
//! option: `resume` restores its state, hides that option and has the
//! driver enter the level again (`driver::AGAIN`), where the scores the
//! failure moved choose anew. A branch point made so is
//! `Branches::hidden`, its state short of an option no path names:
//! `give_away` gives only from branch points above the first such. Where
//! it branches on pairs (`States::pairs`), an item of two options may win
//! over the item of most score per option by its options' first items'
//! scores, and its option of the higher goes first (`search::branch_at`:
//! a branch point tries any option first, and `rest` holds the others, so
//! two ways the option tried is the one not in `rest`). A propagator that
//! enforces a rule the matrix leaves out (`Propagator::enforces`) is run
//! once more where every primary item is covered, and a solution it finds
//! dead is a dead end (`search::solved`); see [`crate::dlx::propagate`].
//!
//! With [`Branching::Lookahead`](crate::dlx::Branching::Lookahead)
//! (`MasksSolver::set_branching`) every node where nothing is forced
//! probes the active options of its short items (len 4 or less; all of
//! them where no item is that short) in a scratch copy of the state,
//! removes the options whose probe fails and branches on the item of least
//! work, as the links engine's lookahead does with every option
//! (`lookahead.rs`); intersections are then not looked for (a probe finds
//! what they find).
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
//!   `Branches::rest[b]` the options not yet tried (two ways, the options
//!   after the first, until the first fails: then the branch point is
//!   replaced by the node entered again, or, its options given away, left).
//!   A state below a branch point entered again lacks options that no
//!   option committed above hid (`Branches::hidden` marks it).
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
//! covered). With Knuth's rule they are DLX1's exactly; with another tree,
//! they are this engine's own.

#![allow(unsafe_code)]

use crate::dlx::index::OptionId;
use crate::dlx::unchecked::{at, set};
use crate::dlx::Matrix;
use std::fmt;
use std::ops::{BitAnd, BitXor, Not};

mod lookahead;
mod search;
mod state;

/// Where a first-forced search on the masks engine looks for
/// intersections (see the module documentation): at the nodes where
/// nothing is forced, above the first `n` branch points of a search
/// (`Depth(0)`: never), or, with `Auto`, above the first one and then
/// wherever the looks of this search have hidden [`PAYING_LOOK`] options a
/// look or more. The same solutions either way: fewer guesses, dearer
/// nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intersections {
    /// Above the first `n` branch points.
    Depth(usize),
    /// Above the first branch point, and below it while the looks pay.
    Auto,
}

/// Options hidden a look, on average over a search's looks, from which
/// [`Intersections::Auto`] looks below the first branch point. Measured
/// (BENCHMARKS.md, "Intersections while they pay"): the sets that gain from
/// deep looks hide 2.7–11 options a look, those that lose 0.75–2.2.
pub const PAYING_LOOK: u64 = 3;

impl Intersections {
    /// Whether any node looks.
    pub fn looks(self) -> bool {
        self != Intersections::Depth(0)
    }

    /// The fixed depth, and whether looks go on below it while they pay.
    fn parts(self) -> (usize, bool) {
        match self {
            Intersections::Depth(n) => (n, false),
            Intersections::Auto => (1, true),
        }
    }
}

impl From<usize> for Intersections {
    fn from(depth: usize) -> Self {
        Intersections::Depth(depth)
    }
}

impl fmt::Display for Intersections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Intersections::Depth(n) => write!(f, "{n}"),
            Intersections::Auto => f.write_str("auto"),
        }
    }
}

/// In a report, a depth is a number and `Auto` the word `auto`, as
/// `--intersections` spells them.
impl serde::Serialize for Intersections {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Intersections::Depth(n) => serializer.serialize_u64(n as u64),
            Intersections::Auto => serializer.serialize_str("auto"),
        }
    }
}

impl std::str::FromStr for Intersections {
    type Err = String;

    /// A depth (`0`, `1`, `3`, …) or `auto`.
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "auto" {
            return Ok(Intersections::Auto);
        }
        s.parse::<usize>()
            .map(Intersections::Depth)
            .map_err(|_| format!("`{s}` is neither a number of branch points nor `auto`"))
    }
}

pub use search::{MasksSolutions, MasksSolver};
use state::{Forced, Push};

/// Options an item may be in: the width of the widest mask.
pub const MAX_MASK_OPTIONS: usize = 64;

/// The len of a covered item, above every real len.
const COVERED: u8 = u8::MAX;

/// Lens are scanned in chunks of this many (padded with `COVERED`).
const CHUNK: usize = 16;

/// Why a matrix is not for the masks engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MasksError {
    /// The matrix has colors.
    Colors,
    /// The matrix has multiplicities (DLX3), which the links, dense and bits
    /// engines search (Algorithm M).
    Bounds,
    /// An item is in this many options, over [`MAX_MASK_OPTIONS`].
    LongItem(usize),
}

impl fmt::Display for MasksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MasksError::Colors => write!(f, "the matrix has colors"),
            MasksError::Bounds => write!(
                f,
                "the matrix has multiplicities (DLX3's u:v|), which the links, dense and bits engines search"
            ),
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
    /// The lens `state::choose` scans: the primary items', padded to whole chunks.
    scan: usize,
    /// Options with no primary item: never chosen (DLX1).
    ignored: Vec<bool>,
    /// Each item that is the first of some option not ignored, in order,
    /// with the mask of those options (the lookahead's pass visits the
    /// active options through them, not all options one by one).
    leads: Vec<(u32, u64)>,
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
    /// The pairs of items [`intersect`](Self::intersect) looks at.
    partners: Partners,
}

/// For [`MasksMatrix::intersect`]: the pairs (`a`, `j`), `a` a primary
/// item, `j` another item in two or more of `a`'s options (a pair that
/// shares one option never has all of a len-2 item's options). Primary
/// item `a`'s pairs are `start[a]..start[a + 1]`.
#[derive(Clone, Debug, Default)]
struct Partners {
    start: Vec<u32>,
    /// Per primary item (padded with 0 to whole chunks, as the lens): the
    /// len up to which it is looked at: 2 where it has pairs, else 0.
    /// Pointing and claiming pairs are most of what intersections find on
    /// Sudoku, and looking at lens of 3 too cost more than the triples
    /// saved (BENCHMARKS.md, "Intersections").
    reach: Vec<u8>,
    pairs: Vec<Pair>,
}

/// One pair (`a`, `j`) of [`Partners`].
#[derive(Clone, Copy, Debug)]
struct Pair {
    /// `a`'s options without `j` (bits of `a`'s mask).
    a_without: u64,
    /// `j`'s options without `a` (bits of `j`'s mask).
    j_without: u64,
    j: u32,
}

impl Partners {
    /// The pairs of a matrix of `primary` items, options `opt_item` (from
    /// `opt_start`) and `opt_bit`, items' options `item_opt` (from
    /// `item_start`).
    fn new(
        primary: usize,
        items: usize,
        scan: usize,
        (opt_start, opt_item, opt_bit): (&[u32], &[u32], &[u64]),
        (item_start, item_opt): (&[u32], &[u32]),
    ) -> Partners {
        let mut p = Partners {
            start: vec![0],
            reach: vec![0; scan],
            ..Partners::default()
        };
        // Per item `j`: options of `a` with `j`, and `j`'s with `a`, while
        // `a` is looked at; `seen` lists the `j`s touched.
        let (mut in_a, mut in_j) = (vec![0u64; items], vec![0u64; items]);
        let mut seen = Vec::new();
        for a in 0..primary {
            let options = &item_opt[item_start[a] as usize..item_start[a + 1] as usize];
            for (k, &r) in options.iter().enumerate() {
                let r = r as usize;
                for t in opt_start[r] as usize..opt_start[r + 1] as usize {
                    let j = opt_item[t] as usize;
                    if j == a {
                        continue;
                    }
                    if in_a[j] == 0 {
                        seen.push(j);
                    }
                    in_a[j] |= 1 << k;
                    in_j[j] |= opt_bit[t];
                }
            }
            for &j in &seen {
                if in_a[j].count_ones() >= 2 {
                    p.reach[a] = 2;
                    p.pairs.push(Pair {
                        a_without: !in_a[j],
                        j_without: !in_j[j],
                        j: j as u32,
                    });
                }
                in_a[j] = 0;
                in_j[j] = 0;
            }
            seen.clear();
            p.start.push(p.pairs.len() as u32);
        }
        p
    }
}

impl MasksMatrix {
    /// The tables of `matrix`, or why it is not for this engine.
    pub fn new(matrix: &Matrix) -> Result<MasksMatrix, MasksError> {
        if matrix.has_colors() {
            return Err(MasksError::Colors);
        }
        if matrix.has_bounds() {
            return Err(MasksError::Bounds);
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
        let mut lead = vec![0u64; items];
        for r in (0..options).filter(|&r| !ignored[r]) {
            let k = opt_start[r] as usize;
            lead[opt_item[k] as usize] |= opt_bit[k];
        }
        let leads = (0..items)
            .filter(|&i| lead[i] != 0)
            .map(|i| (i as u32, lead[i]))
            .collect();
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
        let partners = Partners::new(
            primary,
            items,
            scan,
            (&opt_start, &opt_item, &opt_bit),
            (&item_start, &item_opt),
        );
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
            leads,
            max_depth,
            uniform,
            aligned,
            partners,
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
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn option_at(&self, i: usize, k: u32) -> usize {
        at(
            &self.item_opt,
            at(&self.item_start, i) as usize + k as usize,
        ) as usize
    }

    /// The item at place `t` of `opt_item`, and its mask of every option
    /// but the one of place `t`.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn slot<M: Mask>(&self, t: usize) -> (usize, M) {
        (
            at(&self.opt_item, t) as usize,
            at(M::clears(&self.opt_clear), t),
        )
    }

    /// Where option `r`'s items are in `opt_item`: with `K` > 0, the
    /// matrix's options all have `K` items (a constant the loops unroll).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn span<const K: usize>(&self, r: usize) -> (usize, usize) {
        if K > 0 {
            (r * K, r * K + K)
        } else {
            (
                at(&self.opt_start, r) as usize,
                at(&self.opt_start, r + 1) as usize,
            )
        }
    }

    /// The updates DLX1 counts for covering an item whose active options
    /// are `mask` (`len` of them; item `i`'s): one for the item, and for each option
    /// its items less one (hidden from every list but the item's).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cover_cost<M: Mask, const K: usize>(&self, i: usize, mask: M, len: u8) -> u64 {
        if K > 0 {
            return 1 + u64::from(len) * (K as u64 - 1);
        }
        let mut rest = mask;
        let mut updates = 1;
        while !rest.is_zero() {
            let (from, to) = self.span::<0>(self.option_at(i, rest.lowest()));
            rest = rest.drop_lowest();
            updates += (to - from - 1) as u64;
        }
        updates
    }

    /// Notes in `chosen` that option `r` covers each of its items.
    /// # Safety
    /// `r` is an option of this matrix and `chosen` has a slot per item.
    #[inline(always)]
    unsafe fn note_chosen<const K: usize>(&self, chosen: &mut [u32], r: usize) {
        let (from, to) = self.span::<K>(r);
        for t in from..to {
            set(chosen, at(&self.opt_item, t) as usize, r as u32);
        }
    }

    /// Intersections, at a node where nothing is forced: for each
    /// uncovered primary item `a` of len 2, every item `j` that both
    /// of `a`'s active options have loses its active options without `a` —
    /// one of `a`'s options will cover `j`, so they can never be chosen. On
    /// Sudoku these are locked candidates (pointing and claiming). Looked up
    /// in [`Partners`]: one AND a pair. Hidden options put the items whose
    /// len falls to 1 or 0 on `forced`, as a commit does. Returns the
    /// updates (one per item an option is hidden from; 0 when nothing was
    /// hidden) and the options hidden.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn intersect<M: Mask, const K: usize>(
        &self,
        masks: &mut [M],
        lens: &mut [u8],
        forced: &mut Forced,
    ) -> (u64, u64) {
        let mut push = Push {
            items: &mut forced.items,
            top: forced.top,
            zero: false,
        };
        let p = &self.partners;
        let (mut updates, mut options) = (0, 0);
        for c in 0..self.scan / CHUNK {
            let chunk = c * CHUNK..(c + 1) * CHUNK;
            let mut near = state::within_reach(&lens[chunk.clone()], &p.reach[chunk]);
            while near != 0 {
                let a = c * CHUNK + near.trailing_zeros() as usize;
                near &= near - 1;
                let mask = at(masks, a).to_u64();
                for t in at(&p.start, a) as usize..at(&p.start, a + 1) as usize {
                    let pair = at(&p.pairs, t);
                    if mask & pair.a_without != 0 {
                        continue;
                    }
                    let j = pair.j as usize;
                    let mut gone = at(masks, j) & M::from_u64(pair.j_without);
                    if gone.is_zero() {
                        continue;
                    }
                    options += u64::from(gone.to_u64().count_ones());
                    while !gone.is_zero() {
                        let q = self.option_at(j, gone.lowest());
                        gone = gone.drop_lowest();
                        let (qf, qt) = self.span::<K>(q);
                        updates += (qt - qf) as u64;
                        for u in qf..qt {
                            self.hide_slot::<M, true>(masks, lens, &mut push, u);
                        }
                    }
                }
            }
            if push.zero {
                break;
            }
        }
        forced.top = push.top;
        forced.dead |= push.zero;
        (updates, options)
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
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn commit<M: Mask, const K: usize, const A: bool, const FORCED: bool>(
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
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn commit_with<M: Mask, const K: usize, const A: bool, const FORCED: bool>(
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
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cover_slot<M: Mask>(&self, masks: &mut [M], lens: &mut [u8], k: usize) -> (usize, M) {
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
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn hide_slot<M: Mask, const FORCED: bool>(
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
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cover_aligned<M: Mask, const K: usize, const N: usize, const FORCED: bool>(
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
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn hide_at<
        M: Mask,
        const K: usize,
        const T: usize,
        const N: usize,
        const FORCED: bool,
    >(
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
