//! Sum bounds: the Sudoku layer's [`Propagator`], for the sums the 45 rule
//! derives that a cover matrix cannot say (cells that may repeat a digit,
//! too many to list their digit sets; cells inside an area less cells
//! outside it).
//!
//! Each sum is `Σ plus − Σ minus = total` over cells. Its cells are split,
//! side by side, into *groups* of cells that see each other (a row, a
//! column or a region: distinct digits). At a node, a cell's candidates
//! are its item's active options (bit `d` = digit `d + 1`; a placed cell
//! is the option that covered it), and a group's digits add up to at
//! least the `k` least digits of its candidates' union (`k` cells,
//! distinct digits) and at least its cells' least digits added, and
//! likewise at most. A candidate `v` of a cell goes when, with the cell
//! holding `v` and the rest of its group and the other groups at their
//! bounds, the total is out of reach; a sum out of reach with every
//! candidate is a dead end.
//!
//! A sum with at most three open cells (candidates left to choose from)
//! is bounded exactly instead: each keeps the digits some assignment of
//! the open cells makes the total with, the placed ones as they are and
//! cells that see each other distinct (ISS's `_enforceFewRemainingCells`):
//! the last two cells' digits by bit operations (a digit's partner is one
//! digit: the other mask mirrored and shifted), once for each digit of
//! the first of three.
//!
//! Two cells of one digit each (placed, or one candidate left) that share
//! a group or see each other and hold the same digit are a dead end,
//! checked as the cells are read, up to a sum's fourth open cell (one
//! mask a digit against each cell's earlier clashing cells: a few
//! operations a cell).
//!
//! A *cage* (cells of distinct digits, whether they see each other or
//! not: a killer cage, or a derived one) is one group, and more: its
//! digit sets of its size that make the total are listed once, and at a
//! node a set is alive when it holds every placed digit of the cage, its
//! other digits lie within the open cells' candidates, and it meets each
//! open cell. An open cell keeps only digits of live sets; a digit every
//! live set holds is in the cage, so where one open cell can take it that
//! cell holds it, and where several can, a cell outside the cage that
//! sees them all does not (what the Interactive Sudoku Solver's sum
//! handler does for cages: `_restrictCellsSingleExclusionGroup`). The
//! matrix's own encoding of a cage (one option a digit set) cannot say
//! this: a set option stays active while its digits have left the cells,
//! until the search branches on it.
//!
//! A cage wholly inside a house (a row, column or region of n cells)
//! holds every digit the rest of the house cannot take, so its live sets
//! hold them too (ISS's complement cells: `setComplementCells`). What the
//! cage cuts then depends on the rest's candidates as well: the cage
//! reads those cells too (below).
//!
//! Only the sums that read a cell whose candidates changed are bounded:
//! the propagator's words of the search's state ([`Live::state`], restored
//! on a backtrack) hold every cell's candidates as the last call on this
//! path found them as it started, so a call bounds the sums that read a
//! cell (their own, and a cage's house rests) that differs from those,
//! and those a hide of its own reaches later in its order (`Grid::hide`):
//! the sums a call before it left alone, a function of the same
//! candidates, would cut nothing again, nor would a cage's required digits
//! outside it (candidates only go along a path). What each call hides is
//! then what bounding every sum in order hides, and the trees are the same
//! as without the words; a dead end zeroes them. Before, a cache of each
//! sum's masks at the last call that cut nothing was checked at every
//! call, kept across backtracks, so it missed where the search had just
//! come back: EXTREME_KILLERS 0.89× the time with the words
//! (BENCHMARKS.md, "The sum bounds' words").
//!
//! Invariant: only candidates in no solution go — a digit is removed only
//! when no choice of the other cells' candidates meets the total — so the
//! propagator is redundant (its sums follow from the rules) and the
//! matrix's solutions are the same with it or without.
//!
//! Why bounds: they cost a few table lookups a cell, and on killer puzzles
//! the derived sums they run on are what the Interactive Sudoku Solver's
//! optimizer adds (`_makeInnieOutieSumHandlers`, `_makeHiddenCageHandlers`)
//! and its sum handler bounds. Why the cages' sets as well: on ISS's
//! TAREK_ALL they take the search from 1.00 M guesses to 0.22 M (the sets
//! alone, without the required digits, to 0.34 M); the bounds still run on
//! cages, and without them the search guesses 0.26 M. A cage with more
//! than [`MOST_SETS`] sets is bounded only.
//!
//! The cells' candidates are read once a call, and kept as the
//! propagator hides.

use crate::dlx::{Blame, Live, Propagator, Strategy};

use super::derive::SignedSum;

/// The least and most sum of `k` distinct digits of a candidate mask, for
/// every mask of `n` bits and every `k` (`u8`: at most 16 · 17 / 2), side
/// by side: one lookup for both.
#[derive(Debug)]
struct Tables {
    n: usize,
    /// At `mask · (n + 1) + k`: the least and the most sum, or
    /// (`u8::MAX`, 0) where the mask has fewer than `k` digits.
    bounds: Vec<[u8; 2]>,
}

impl Tables {
    fn new(n: usize) -> Tables {
        let masks = 1usize << n;
        let mut bounds = vec![[0u8; 2]; masks * (n + 1)];
        for mask in 0..masks {
            let digits: Vec<u8> = (0..n)
                .filter(|&d| mask >> d & 1 == 1)
                .map(|d| d as u8 + 1)
                .collect();
            let (mut lo, mut hi) = (0u8, 0u8);
            for k in 1..=n {
                bounds[mask * (n + 1) + k] = if k <= digits.len() {
                    lo += digits[k - 1];
                    hi += digits[digits.len() - k];
                    [lo, hi]
                } else {
                    // Not enough digits: marked out of reach.
                    [u8::MAX, 0]
                };
            }
        }
        Tables { n, bounds }
    }

    /// The least and most sum of `k` distinct digits of `mask`, `None`
    /// when it has fewer than `k` (or is no mask of `n` bits).
    #[inline]
    fn get(&self, mask: u32, k: usize) -> Option<(i32, i32)> {
        let [lo, hi] = *self.bounds.get(mask as usize * (self.n + 1) + k)?;
        (k == 0 || lo != u8::MAX).then_some((i32::from(lo), i32::from(hi)))
    }
}

/// A group of cells of one sign that see each other.
#[derive(Clone, Debug)]
struct Group {
    cells: Vec<usize>,
    /// 1 for the plus side, −1 for the minus side.
    sign: i32,
}

/// One sum, its cells in groups.
#[derive(Clone, Debug)]
struct Sum {
    /// Its groups in order over `cells`: each one's count of cells and
    /// sign (1 for the plus side, −1 for the minus side).
    groups: Vec<(u8, i8)>,
    total: i32,
    /// For a cage (one group, distinct digits): the digit sets of its size
    /// that make the total; empty otherwise, or when they are too many.
    sets: Vec<u32>,
    /// For a cage with sets: the rest of each house that holds it whole
    /// (its row, column or region less the cage's cells).
    rests: Vec<Vec<usize>>,
    /// A cage's cells, one bit a cell.
    inside: [u64; 4],
    /// The cells of the groups one after the other (n · n ≤ 256).
    cells: Vec<u8>,
    /// For each of `cells`, the earlier ones it may not repeat a digit
    /// with (its group's, and those it sees), one bit each.
    clash: Vec<u16>,
}

/// The most digit sets a cage keeps for the search to check (a 16×16
/// cage of 8 cells may have more than a thousand).
const MOST_SETS: usize = 512;

/// The sum-bounds propagator of one rule set (see the module
/// documentation): its sums, and the tables for its side.
#[derive(Debug)]
pub(crate) struct SumBounds {
    sums: Vec<Sum>,
    tables: Tables,
    /// Each cell's peers (the cells of its row, column and region but
    /// itself), one bit a cell.
    peers: Vec<[u64; 4]>,
    /// Whether the search branches on a house's digit with two places
    /// left by its cells' scores (the strategy's pairs; see
    /// [`with_pairs`](Self::with_pairs)).
    pairs: bool,
    /// Per cell, the sums that read its candidates (its sums, and the
    /// cages whose house rest it is in), one bit a sum, `words` words a
    /// cell; empty when the sums are more than [`MOST_SUMS`].
    readers: Vec<u64>,
    words: usize,
}

/// The most open cells of a sum bounded exactly ([`SumBounds::few_cut`]):
/// beyond them, by their bounds.
const FEW: usize = 3;

/// The most open cells before a cell of one digit (placed, or one
/// candidate left) for [`SumBounds::bound`] to check it against the
/// earlier cells of one digit it may not repeat; a sum with no open cell
/// is not checked (the matrix finds the repeat). The check was once the
/// exact case's ([`SumBounds::few_cut`]), which read a sum up to its
/// fourth open cell; checking as far keeps the trees it made, and they
/// are the trees the little killers want. On LITTLE_KILLER_SNIPES #12 and
/// #14 (guesses): this 24.2 M and 92.4 M, every cell 27.7 M and 93.6 M,
/// none 26.3 M and 126.7 M (EXTREME_KILLERS: 16,474, 16,478, 15,911; the
/// trees move either way, BENCHMARKS.md, "A repeated digit checked as the
/// cells are read").
const REPEATS_OPEN: usize = FEW;

/// The most sums whose readers a call looks up ([`SumBounds::readers`]):
/// beyond them every sum is bounded at every call.
const MOST_SUMS: usize = 64 * SUM_WORDS;

/// Words of a set of sums, one bit a sum.
const SUM_WORDS: usize = 32;

/// The most cells of a sum (the derived sums have at most n, n ≤ 16).
const MOST_CELLS: usize = 16;

impl SumBounds {
    /// How a search that runs the bounds branches (`search/strategy.rs`).
    ///
    /// A dead end blames the cell alone: sums are reasoned over cells, and
    /// a search that blames (and so branches on) cells meets their dead
    /// ends sooner. On ISS's killers, against every item of the move:
    /// TAREK_ALL 35,889 → 19,135 guesses, MATHEMAGIC #1 189,573 → 85,611
    /// (BENCHMARKS.md, "Killers blame the cell"). Lines want every item, so
    /// a rule set with pair arcs or set groups beside the sums blames the
    /// whole option ([`Strategy::and`]).
    ///
    /// The cells (a Sudoku matrix's first n² items) lead at one: before the
    /// first dead ends, the search branches on the cell of fewest
    /// candidates, not on the leftmost item of fewest options, which is a
    /// house's digit as often as a cell. On ISS's killers, against all at
    /// zero (BENCHMARKS.md, "Cells first"): TAREK_ALL 19,135 → 15,660
    /// guesses, EXTREME_KILLERS 22,609 → 16,474, MATHEMAGIC_KILLERS
    /// 1.13 M → 0.88 M; HARD_RENBAN 244,508 → 227,033. Not for the pair
    /// arcs alone: HARD_THERMOS 15,694 → 28,884.
    ///
    /// Pairs where the sums read cells that may repeat a digit
    /// ([`with_pairs`](Self::with_pairs)).
    pub(crate) fn strategy(&self) -> Strategy {
        Strategy::new()
            .blame(Blame::FirstItem)
            .lead(self.peers.len(), 1)
            .pairs(self.pairs)
    }

    /// Whether the propagator for a grid of side `n` bounds `sum` (at most
    /// [`MOST_CELLS`] cells, a side of at most 16): then it bounds it
    /// exactly once every cell is placed (each group's least and most sum
    /// are its digits' sum), so it may enforce the sum alone, as the
    /// searched matrix of a rule set has it do for little killers
    /// (`RulesMatrix`); the others are passed over.
    pub(crate) fn takes(n: usize, sum: &SignedSum) -> bool {
        (1..=16).contains(&n) && sum.plus.len() + sum.minus.len() <= MOST_CELLS
    }

    /// The propagator for `sums` on a grid of side `n` (at most 16) with
    /// `regions`; `None` when there is nothing to bound.
    pub(crate) fn new(n: usize, regions: &[usize], sums: &[SignedSum]) -> Option<SumBounds> {
        if sums.is_empty() || n > 16 || n == 0 {
            return None;
        }
        let sees =
            |a: usize, b: usize| a / n == b / n || a % n == b % n || regions[a] == regions[b];
        let mut out = Vec::with_capacity(sums.len());
        for s in sums {
            if !SumBounds::takes(n, s) {
                continue;
            }
            let total = i32::try_from(s.total).unwrap_or(i32::MAX);
            if s.distinct && s.minus.is_empty() && !s.plus.is_empty() {
                let sets = u32::try_from(s.total)
                    .map(|t| super::killer::digit_sets(n, s.plus.len(), t))
                    .unwrap_or_default();
                let sets: Vec<u32> = if sets.len() <= MOST_SETS {
                    sets.into_iter().map(|m| m as u32).collect()
                } else {
                    Vec::new()
                };
                let first = s.plus[0];
                let houses: [&dyn Fn(usize) -> bool; 3] =
                    [&|k| k / n == first / n, &|k| k % n == first % n, &|k| {
                        regions[k] == regions[first]
                    }];
                let rests = houses
                    .iter()
                    .filter(|_| !sets.is_empty())
                    .filter(|inside| s.plus.iter().all(|&k| inside(k)))
                    .map(|inside| {
                        (0..n * n)
                            .filter(|&k| inside(k) && !s.plus.contains(&k))
                            .collect::<Vec<usize>>()
                    })
                    // A region smaller than n (a jigsaw's misfit) holds
                    // not every digit.
                    .filter(|rest| rest.len() + s.plus.len() == n && !rest.is_empty())
                    .collect();
                let mut inside = [0u64; 4];
                for &k in &s.plus {
                    inside[k / 64] |= 1 << (k % 64);
                }
                out.push(Sum {
                    groups: vec![(s.plus.len() as u8, 1)],
                    total,
                    sets,
                    rests,
                    inside,
                    cells: s.plus.iter().map(|&k| k as u8).collect(),
                    clash: (0..s.plus.len()).map(|x| (1u16 << x) - 1).collect(),
                });
                continue;
            }
            let mut groups: Vec<Group> = Vec::new();
            for (cells, sign) in [(&s.plus, 1), (&s.minus, -1)] {
                let from = groups.len();
                for &k in cells {
                    let fits = groups[from..]
                        .iter_mut()
                        .find(|g| g.cells.iter().all(|&c| sees(c, k)));
                    match fits {
                        Some(g) => g.cells.push(k),
                        None => groups.push(Group {
                            cells: vec![k],
                            sign,
                        }),
                    }
                }
            }
            let cells: Vec<usize> = groups
                .iter()
                .flat_map(|g| g.cells.iter().copied())
                .collect();
            let group: Vec<usize> = (0..groups.len())
                .flat_map(|t| std::iter::repeat_n(t, groups[t].cells.len()))
                .collect();
            let clash = (0..cells.len())
                .map(|x| {
                    (0..x)
                        .filter(|&y| group[y] == group[x] || sees(cells[y], cells[x]))
                        .fold(0u16, |c, y| c | 1 << y)
                })
                .collect();
            out.push(Sum {
                cells: cells.iter().map(|&k| k as u8).collect(),
                clash,
                groups: groups
                    .iter()
                    .map(|g| (g.cells.len() as u8, g.sign as i8))
                    .collect(),
                total,
                sets: Vec::new(),
                rests: Vec::new(),
                inside: [0; 4],
            });
        }
        let peers = (0..n * n)
            .map(|a| {
                let mut p = [0u64; 4];
                for b in (0..n * n).filter(|&b| b != a && sees(a, b)) {
                    p[b / 64] |= 1 << (b % 64);
                }
                p
            })
            .collect();
        let words = out.len().div_ceil(64);
        let mut readers = Vec::new();
        if out.len() <= MOST_SUMS {
            readers = vec![0u64; n * n * words];
            for (t, s) in out.iter().enumerate() {
                let read = s.cells.iter().map(|&k| usize::from(k));
                for k in read.chain(s.rests.iter().flatten().copied()) {
                    readers[k * words + t / 64] |= 1 << (t % 64);
                }
            }
        }
        Some(SumBounds {
            sums: out,
            tables: Tables::new(n),
            peers,
            pairs: false,
            readers,
            words,
        })
    }

    /// The same bounds, the search branching on a house's digit with two
    /// places left where its cells' scores say so, or not (the
    /// [`strategy`](Self::strategy)'s pairs). The rule sets that sum cells that
    /// may repeat a digit (little killers) ask for it: on ISS's
    /// LITTLE_KILLER_SNIPES, #14 in 92 M guesses against 171 M, #12 in
    /// 24 M against 28 M; on killers it is no gain (TAREK_ALL 15,660 →
    /// 19,158 guesses), where a cage's sum ties its cells to one house
    /// already (BENCHMARKS.md, "House pairs").
    pub(crate) fn with_pairs(self, pairs: bool) -> SumBounds {
        SumBounds { pairs, ..self }
    }

    /// The candidates of cell `k`: its item's active options, or the digit
    /// of the option that placed it; 0 for none.
    fn candidates(&self, live: &dyn Live, k: usize) -> u32 {
        let options = live.options(k) as u32;
        if options != 0 {
            return options;
        }
        let n = self.tables.n;
        live.chosen(k).map_or(0, |o| {
            // Cell `k`'s options are `k·n` to `k·n + n − 1`: a subtraction,
            // where `% n` was a division for every placed cell at every
            // call.
            let d = o.as_usize().wrapping_sub(k * n);
            1 << if d < n { d } else { o.as_usize() % n }
        })
    }

    /// Bounds one sum (its cells have candidates: `propagate` sees to it):
    /// hides the candidates out of reach; false at a dead
    /// end. Its cells' candidates are read once, group by group, each
    /// group's bounds as they are: the least and most sum of distinct
    /// digits of their union, and of each cell's own least and most digit
    /// (dead where the union has fewer digits than cells).
    fn bound(&self, s: &Sum, grid: &mut Grid<'_>) -> bool {
        let mut masks = [0u32; MOST_CELLS];
        let mut at = [(0i32, 0i32); MOST_CELLS];
        let (mut lo, mut hi, mut open) = (0i32, 0i32, 0usize);
        // Per digit, the cells left that one digit (placed, or one
        // candidate) so far, one bit each: two that may not repeat it are a
        // dead end.
        let (mut single, mut repeats) = ([0u16; 16], 0u16);
        let mut j = 0;
        for (&(len, sign), b) in s.groups.iter().zip(at.iter_mut()) {
            let (mut union, mut least, mut most) = (0u32, 0i32, 0i32);
            for &k in &s.cells[j..j + usize::from(len)] {
                let m = grid.cells[usize::from(k)];
                masks[j] = m;
                if m & m.wrapping_sub(1) != 0 {
                    open += 1;
                } else if open <= REPEATS_OPEN {
                    let d = &mut single[m.trailing_zeros() as usize & 15];
                    repeats |= *d & s.clash[j];
                    *d |= 1 << j;
                }
                j += 1;
                union |= m;
                least += least_digit(m);
                most += most_digit(m);
            }
            let Some((low, high)) = self.tables.get(union, usize::from(len)) else {
                return false;
            };
            let (glo, ghi) = (least.max(low), most.min(high));
            if sign > 0 {
                lo += glo;
                hi += ghi;
            } else {
                lo -= ghi;
                hi -= glo;
            }
            *b = (glo, ghi);
        }
        if s.total < lo || s.total > hi {
            return false;
        }
        if open == 0 {
            return true;
        }
        if repeats != 0 {
            return false;
        }
        // The digits the rest of a house holding the cage cannot take are
        // in the cage (its sets must hold them).
        let (mut must, full) = (0u32, (1u32 << self.tables.n) - 1);
        for rest in &s.rests {
            let outside = rest.iter().fold(0, |u, &k| u | grid.cells[k]);
            must |= full & !outside;
        }
        // The open cells counted first: building the exact case's cells
        // only to find a fourth was most of its cost (EXTREME_KILLERS:
        // four calls in five have more).
        if open <= FEW {
            if let Some(exact) = self.few_cut(s, &masks, grid) {
                return exact.is_some()
                    && (s.sets.is_empty() || self.sets_cut(s, must, grid).is_some());
            }
        }
        // A cell's digit is at most what the total leaves once the rest of
        // the sum and the other cells of its group are at their least (and
        // at least what it leaves with them at their most).
        let mut first = 0;
        for (&(len, sign), &(glo, ghi)) in s.groups.iter().zip(at.iter()) {
            let len = usize::from(len);
            let cells = &masks[first..first + len];
            let ids = &s.cells[first..first + len];
            first += len;
            let (rest_lo, rest_hi) = if sign > 0 {
                (lo - glo, hi - ghi)
            } else {
                (lo + ghi, hi + glo)
            };
            // What this group must add up to, signs undone.
            let (need_lo, need_hi) = if sign > 0 {
                (s.total - rest_hi, s.total - rest_lo)
            } else {
                (rest_lo - s.total, rest_hi - s.total)
            };
            if need_lo <= glo && ghi <= need_hi {
                // Nothing to cut: the group's whole range fits.
                continue;
            }
            let mut before = [0u32; MOST_CELLS + 1];
            let (mut least, mut most) = (0i32, 0i32);
            for (x, &m) in cells.iter().enumerate() {
                before[x + 1] = before[x] | m;
                least += least_digit(m);
                most += most_digit(m);
            }
            let mut after = 0u32;
            for x in (0..len).rev() {
                let m = cells[x];
                let others = before[x] | after;
                after |= m;
                if m & (m - 1) == 0 {
                    continue;
                }
                // The other cells' bounds, as a group's.
                let Some((low, high)) = self.tables.get(others, len - 1) else {
                    return false;
                };
                let olo = (least - least_digit(m)).max(low);
                let ohi = (most - most_digit(m)).min(high);
                let keep = digits_between(need_lo - ohi, need_hi - olo);
                let gone = m & !keep;
                if gone != 0 {
                    if gone == m {
                        return false;
                    }
                    grid.hide(usize::from(ids[x]), gone);
                }
            }
        }
        s.sets.is_empty() || self.sets_cut(s, must, grid).is_some()
    }

    /// A sum with at most [`FEW`] open cells, exactly: each open cell keeps
    /// the digits some assignment of the open cells makes the total with,
    /// the placed cells as they are, cells that see each other or share a
    /// group holding distinct digits. `None` when more cells are open, else
    /// as [`cut`](Self::cut).
    fn few_cut(
        &self,
        s: &Sum,
        masks: &[u32; MOST_CELLS],
        grid: &mut Grid<'_>,
    ) -> Option<Option<bool>> {
        let sees = |a: usize, b: usize| self.peers[a][b / 64] >> (b % 64) & 1 == 1;
        let mut open = [Open::default(); FEW];
        let mut placed = [(0usize, 0usize, 0u32); MOST_CELLS];
        let (mut count, mut fixed, mut rest, mut next) = (0, 0, s.total, 0);
        for (t, &(len, sign)) in s.groups.iter().enumerate() {
            let sign = i32::from(sign);
            for &k in &s.cells[next..next + usize::from(len)] {
                let k = usize::from(k);
                let m = masks[next];
                next += 1;
                if m & (m - 1) == 0 {
                    // Two of one digit that may not repeat it: `bound`
                    // found them.
                    placed[fixed] = (k, t, m);
                    fixed += 1;
                    rest -= sign * (m.trailing_zeros() as i32 + 1);
                } else {
                    if count == FEW {
                        return None;
                    }
                    open[count] = Open {
                        mask: m,
                        cell: k,
                        sign,
                        group: t,
                        clash: 0,
                    };
                    count += 1;
                }
            }
        }
        let open = &mut open[..count];
        if open.is_empty() {
            return Some(Some(false));
        }
        for t in 0..open.len() {
            let o = open[t];
            for &(k, group, bit) in &placed[..fixed] {
                if group == o.group || sees(o.cell, k) {
                    open[t].mask &= !bit;
                }
            }
            for u in 0..t {
                if open[u].group == o.group || sees(open[u].cell, o.cell) {
                    open[t].clash |= 1 << u;
                }
            }
        }
        let mut keep = [0u32; FEW];
        assign(open, rest, &mut keep);
        let mut cut = false;
        for (o, &kept) in open.iter().zip(&keep) {
            if kept == 0 {
                return Some(None);
            }
            let gone = grid.cells[o.cell] & !kept;
            if gone != 0 {
                grid.hide(o.cell, gone);
                cut = true;
            }
        }
        Some(Some(cut))
    }

    /// A cage's digits: a cell keeps only the digits of the sets that
    /// hold every placed digit and every digit of `must` (those the rest
    /// of a house holding the cage cannot take), lie within the open
    /// cells' candidates and meet each open cell; `None` at a dead end (no
    /// such set), else whether it hid something.
    fn sets_cut(&self, s: &Sum, must: u32, grid: &mut Grid<'_>) -> Option<bool> {
        let cells = &s.cells;
        let mut masks = [0u32; MOST_CELLS];
        let (mut fixed, mut union) = (0u32, 0u32);
        for (x, &k) in cells.iter().enumerate() {
            let m = grid.cells[usize::from(k)];
            masks[x] = m;
            if m & (m - 1) == 0 {
                if fixed & m != 0 {
                    return None;
                }
                fixed |= m;
            } else {
                union |= m;
            }
        }
        let masks = &masks[..cells.len()];
        let (mut keep, mut required) = (0u32, u32::MAX);
        'sets: for &set in &s.sets {
            let rest = set & !fixed;
            if set & (fixed | must) != fixed | must || rest & !union != 0 {
                continue;
            }
            for &m in masks {
                if m & (m - 1) != 0 && m & rest == 0 {
                    continue 'sets;
                }
            }
            keep |= rest;
            required &= rest;
        }
        if union == 0 {
            return Some(false);
        }
        if keep == 0 {
            return None;
        }
        let mut cut = false;
        for (&m, &k) in masks.iter().zip(cells) {
            if m & (m - 1) == 0 {
                continue;
            }
            let gone = m & !keep;
            if gone == m {
                return None;
            }
            if gone != 0 {
                grid.hide(usize::from(k), gone);
                cut = true;
            }
        }
        // A digit every set holds is in the cage: where one open cell can
        // take it, that cell holds it; where several can, no cell outside
        // the cage that sees them all does (`far_cut`).
        let mut required = required & keep;
        while required != 0 {
            let bit = required & required.wrapping_neg();
            required &= required - 1;
            let holding = masks
                .iter()
                .zip(cells)
                .filter(|(&m, _)| m & (m - 1) != 0 && m & bit != 0);
            let (mut count, mut only) = (0, 0);
            for (_, &k) in holding {
                count += 1;
                only = usize::from(k);
            }
            if count == 1 {
                let m = grid.cells[only] & !bit;
                if m != 0 {
                    grid.hide(only, m);
                    cut = true;
                }
            } else {
                self.far_cut(s, masks, bit, grid);
            }
        }
        Some(cut)
    }

    /// Digit `bit`, which the cage must hold and two or more of its open
    /// cells (`masks`) can take, leaves every open cell outside the cage
    /// that sees all of those.
    fn far_cut(&self, s: &Sum, masks: &[u32], bit: u32, grid: &mut Grid<'_>) {
        let mut seen = [u64::MAX; 4];
        for (&m, &k) in masks.iter().zip(&s.cells) {
            if m & (m - 1) != 0 && m & bit != 0 {
                for (w, p) in seen.iter_mut().zip(&self.peers[usize::from(k)]) {
                    *w &= p;
                }
            }
        }
        for (w, inside) in seen.iter_mut().zip(&s.inside) {
            *w &= !inside;
        }
        for (w, mut word) in seen.into_iter().enumerate() {
            while word != 0 {
                let k = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                // Open cells only: a placed cell's digit is the option
                // that covered it, not an active one.
                let m = grid.cells[k];
                if m & bit != 0 && m & (m - 1) != 0 {
                    grid.hide(k, bit);
                }
            }
        }
    }
}

/// The least digit of a candidate mask (not 0).
fn least_digit(m: u32) -> i32 {
    m.trailing_zeros() as i32 + 1
}

/// The most digit of a candidate mask (not 0).
fn most_digit(m: u32) -> i32 {
    32 - m.leading_zeros() as i32
}

/// An open cell of a sum bounded exactly: its candidates (less the
/// placed digits it may not repeat), cell, sign and group, and the open
/// cells before it whose digit it may not repeat (bit `u` for the `u`-th).
#[derive(Clone, Copy, Debug, Default)]
struct Open {
    mask: u32,
    cell: usize,
    sign: i32,
    group: usize,
    clash: u8,
}

/// Every assignment of the open cells that makes `rest`: each cell's
/// digits that are in one go into `keep`. The last two cells' digits go
/// in one step of bit operations ([`pair`]), so three cells cost one step
/// per digit of the first.
fn assign(open: &[Open], rest: i32, keep: &mut [u32; FEW]) {
    // One, two or three cells: a larger `FEW` needs another arm here.
    const _: () = assert!(FEW == 3);
    match open {
        [a] => {
            let d = a.sign * rest;
            if (1..=32).contains(&d) {
                keep[0] = a.mask & 1 << (d - 1);
            }
        }
        [a, b] => (keep[0], keep[1]) = pair(*a, *b, rest, b.clash & 1 != 0),
        [a, b, c] => {
            let mut left = a.mask;
            while left != 0 {
                let bit = left & left.wrapping_neg();
                left &= left - 1;
                // Cells that may not repeat the first's digit lose it.
                let b = Open {
                    mask: b.mask & !(bit * u32::from(b.clash & 1)),
                    ..*b
                };
                let c = Open {
                    mask: c.mask & !(bit * u32::from(c.clash & 1)),
                    ..*c
                };
                let (kb, kc) = pair(b, c, rest - a.sign * least_digit(bit), c.clash & 2 != 0);
                if kb != 0 {
                    keep[0] |= bit;
                    keep[1] |= kb;
                    keep[2] |= kc;
                }
            }
        }
        _ => {}
    }
}

/// Two open cells whose signed digits add up to `rest`
/// (`a.sign · da + b.sign · db = rest`), distinct where `distinct`: the
/// digits of each that have a partner in the other. A digit's partner is
/// one digit: `t − da` for equal signs (`t = sign · rest`: the masks
/// mirrored and shifted) and `da + u` for opposite ones (`u = b.sign ·
/// rest`: shifted); distinct digits lose the pair of a digit with itself.
fn pair(a: Open, b: Open, rest: i32, distinct: bool) -> (u32, u32) {
    if a.sign == b.sign {
        let t = a.sign * rest;
        // Digit d (bit d − 1) of the mirror is bit 32 − d; t − d is at
        // bit t − d − 1: the mirror shifted by t − 33.
        let to_b = |m: u32| shift(m.reverse_bits(), t - 33);
        let mut kb = to_b(a.mask) & b.mask;
        if distinct && t % 2 == 0 && (2..=64).contains(&t) {
            kb &= !(1 << (t / 2 - 1));
        }
        (to_b(kb), kb)
    } else {
        let u = b.sign * rest;
        if distinct && u == 0 {
            return (0, 0);
        }
        let kb = shift(a.mask, u) & b.mask;
        (shift(kb, -u), kb)
    }
}

/// `m` shifted left by `by` bits (right for a negative `by`), the bits
/// shifted past either end gone.
fn shift(m: u32, by: i32) -> u32 {
    match by {
        0..=31 => m << by,
        -31..=-1 => m >> -by,
        _ => 0,
    }
}

/// The mask of digits `least..=most` (bit `d` = digit `d + 1`).
fn digits_between(least: i32, most: i32) -> u32 {
    if most < least || most < 1 || least > 32 {
        return 0;
    }
    let (least, most) = (least.max(1) as u32, most.min(32) as u32);
    let upto = if most == 32 {
        u32::MAX
    } else {
        (1u32 << most) - 1
    };
    upto & !((1u32 << (least - 1)) - 1)
}

/// The grid at a node: each cell's candidates, read once a call (see
/// [`SumBounds::candidates`]) and kept as the propagator hides.
struct Grid<'a> {
    live: &'a mut dyn Live,
    cells: [u32; 256],
    /// The sums to bound in this call, one bit a sum.
    dirty: [u64; SUM_WORDS],
    /// [`SumBounds::readers`], or none where every sum is dirty.
    readers: &'a [u64],
    words: usize,
}

impl Grid<'_> {
    /// Hides candidates `gone` (a subset of the open cell's) of cell `k`;
    /// the sums that read it are dirty.
    fn hide(&mut self, k: usize, gone: u32) {
        self.live.hide(k, u64::from(gone));
        self.cells[k] &= !gone;
        if let Some(readers) = self.readers.get(k * self.words..(k + 1) * self.words) {
            for (d, &r) in self.dirty.iter_mut().zip(readers) {
                *d |= r;
            }
        }
    }

    /// The first dirty sum from `t` on.
    fn next_dirty(&self, t: usize) -> Option<usize> {
        let mut w = t / 64;
        let mut word = *self.dirty.get(w)? & (u64::MAX << (t % 64));
        while word == 0 {
            w += 1;
            word = *self.dirty.get(w)?;
        }
        Some(w * 64 + word.trailing_zeros() as usize)
    }
}

impl Propagator for SumBounds {
    /// Bounds the sums that read a cell whose candidates changed since
    /// the last call on this path (every sum where the state keeps no
    /// memory: see the module documentation).
    fn propagate(&self, live: &mut dyn Live) -> bool {
        let cells_n = self.peers.len();
        let lanes = cells_n.div_ceil(4);
        let words = self.words;
        let remembers = live.state().len() >= lanes && !self.readers.is_empty();
        // Built in place, then filled: the cells as a local moved into the
        // grid were a kilobyte copied at every call.
        let mut grid = Grid {
            live,
            cells: [0; 256],
            dirty: [0; SUM_WORDS],
            readers: if remembers { &self.readers } else { &[] },
            words,
        };
        let mut empty = false;
        if !remembers {
            for k in 0..cells_n {
                grid.cells[k] = self.candidates(&*grid.live, k);
                empty |= grid.cells[k] == 0;
            }
            for t in 0..self.sums.len().min(MOST_SUMS) {
                grid.dirty[t / 64] |= 1 << (t % 64);
            }
        } else {
            // Four cells a word of the state: the candidates at the last
            // call on the path, each cell's now, and the readers of those
            // that differ dirty. A covered cell (no active option) that
            // had one candidate then holds it: only a cell covered since
            // with more asks which option covered it. (Asking for every
            // covered cell was a branch mispredicted a cell in two.) The
            // active options are read in one call, not a call a cell.
            let mut options = [0u64; 256];
            grid.live.options_from(0, &mut options[..cells_n]);
            let mut before = [0u64; 64];
            before[..lanes].copy_from_slice(&grid.live.state()[..lanes]);
            for (w, word) in before[..lanes].iter_mut().enumerate() {
                let last_word = *word;
                let mut now = 0u64;
                for j in 0..4.min(cells_n - 4 * w) {
                    let k = 4 * w + j;
                    let o = options[k] as u32;
                    let last = (last_word >> (16 * j)) as u32 & 0xffff;
                    let mut m = if o != 0 { o } else { last };
                    if o == 0 && last & last.wrapping_sub(1) != 0 || m == 0 {
                        m = self.candidates(&*grid.live, k);
                    }
                    grid.cells[k] = m;
                    empty |= m == 0;
                    now |= u64::from(m) << (16 * j);
                }
                let mut diff = last_word ^ now;
                *word = now;
                while diff != 0 {
                    let k = w * 4 + diff.trailing_zeros() as usize / 16;
                    diff &= !(0xffff << (16 * (k % 4)));
                    let readers = &self.readers[k * words..(k + 1) * words];
                    for (d, &r) in grid.dirty.iter_mut().zip(readers) {
                        *d |= r;
                    }
                }
            }
            grid.live.state()[..lanes].copy_from_slice(&before[..lanes]);
        }
        // A cell without candidates is a dead end (the search never asks
        // at one: its len is 0), and no sum need look for one.
        let mut alive = !empty;
        // In order, each dirty sum once; a sum a hide makes dirty is
        // looked at in this call where it comes later (`Grid::hide`), in
        // the next one where it came before.
        let mut t = if alive { 0 } else { usize::MAX };
        while let Some(next) = grid.next_dirty(t) {
            if !self.bound(&self.sums[next], &mut grid) {
                alive = false;
                break;
            }
            t = next + 1;
        }
        if alive && !remembers {
            alive = self.sums[MOST_SUMS.min(self.sums.len())..]
                .iter()
                .all(|s| self.bound(s, &mut grid));
        }
        if !alive && remembers {
            // The sums after the dead end were not looked at: nothing is
            // known of this state (a search backs away from it anyway).
            grid.live.state()[..lanes].fill(0);
        }
        alive
    }

    /// The cells' candidates as the last call on the path found them, a
    /// 16-bit lane a cell.
    fn state_words(&self) -> usize {
        self.peers.len().div_ceil(4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::constraints::tests::Cells;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    fn boxes9() -> Vec<usize> {
        (0..81).map(|k| k / 27 * 3 + k % 9 / 3).collect()
    }

    fn bounds(plus: &[usize], minus: &[usize], total: i64) -> SumBounds {
        let sum = SignedSum {
            plus: plus.to_vec(),
            minus: minus.to_vec(),
            total,
            distinct: false,
        };
        SumBounds::new(9, &boxes9(), &[sum]).unwrap()
    }

    #[test]
    fn digits_between_are_a_mask() {
        assert_eq!(digits_between(1, 9), 0x1ff);
        assert_eq!(digits_between(3, 4), 0b1100);
        assert_eq!(digits_between(-5, 2), 0b11);
        assert_eq!(digits_between(5, 4), 0);
        assert_eq!(digits_between(40, 50), 0);
        assert_eq!(digits_between(32, 40), 1 << 31);
        assert_eq!(digits_between(0, 0), 0);
    }

    #[test]
    fn bounds_cut_what_the_total_leaves_out() {
        // Two cells of a row adding up to 3: 1 and 2.
        let mut c = Cells::new(9);
        assert!(bounds(&[0, 1], &[], 3).propagate(&mut c));
        assert_eq!((c.digits(0), c.digits(1)), (vec![1, 2], vec![1, 2]));
        // Two cells that do not see each other, to 2: both 1; a row's
        // two cells cannot.
        let mut c = Cells::new(9);
        assert!(bounds(&[0, 13], &[], 2).propagate(&mut c));
        assert_eq!((c.digits(0), c.digits(13)), (vec![1], vec![1]));
        assert!(!bounds(&[0, 1], &[], 2).propagate(&mut Cells::new(9)));
        // One cell less another, 8: 9 and 1.
        let mut c = Cells::new(9);
        assert!(bounds(&[0], &[40], 8).propagate(&mut c));
        assert_eq!((c.digits(0), c.digits(40)), (vec![9], vec![1]));
        // Three cells of a row to 6, one placed at 3: the others 1 and 2.
        let mut c = Cells::new(9);
        c.masks[0] = 0;
        c.placed[0] = Some(2);
        assert!(bounds(&[0, 1, 2], &[], 6).propagate(&mut c));
        assert_eq!((c.digits(1), c.digits(2)), (vec![1, 2], vec![1, 2]));
        // A cell with no candidate and not placed: a dead end.
        let mut c = Cells::new(9);
        c.masks[5] = 0;
        assert!(!bounds(&[5, 6], &[], 10).propagate(&mut c));
    }

    #[test]
    fn cells_of_one_digit_that_may_not_repeat_it_are_a_dead_end() {
        // A row's six cells to 30, the first two left 5 and four open: the
        // bounds allow it, the repeat does not.
        let row = [0, 1, 2, 3, 4, 5];
        let mut c = Cells::new(9);
        c.masks[0] = 1 << 4;
        c.masks[1] = 1 << 4;
        assert!(!bounds(&row, &[], 30).propagate(&mut c));
        // Placed and left one candidate alike.
        let mut c = Cells::new(9);
        c.masks[0] = 0;
        c.placed[0] = Some(4);
        c.masks[1] = 1 << 4;
        assert!(!bounds(&row, &[], 30).propagate(&mut c));
        // Two groups, cells of each that see each other: r1c1 less five
        // cells of row 2, r1c1 and r2c1 left 5.
        let minus = [9, 10, 11, 12, 13];
        let mut c = Cells::new(9);
        c.masks[0] = 1 << 4;
        c.masks[9] = 1 << 4;
        assert!(!bounds(&[0], &minus, -20).propagate(&mut c));
        // Cells that do not see each other may: r1c1 and r2c4.
        let mut c = Cells::new(9);
        c.masks[0] = 1 << 4;
        c.masks[12] = 1 << 4;
        assert!(bounds(&[0], &minus, -20).propagate(&mut c));
    }

    /// Whether cell 9×9 `a` and `b` see each other.
    fn sees(a: usize, b: usize) -> bool {
        a / 9 == b / 9 || a % 9 == b % 9 || boxes9()[a] == boxes9()[b]
    }

    /// Whether `cells` can take digits from their candidates in `c`, the
    /// `u`-th and `t`-th differing where `apart(u, t)`, with `ok` of the
    /// digits (a brute force).
    fn fill(
        c: &Cells,
        cells: &[usize],
        apart: &dyn Fn(usize, usize) -> bool,
        ok: &dyn Fn(&[usize]) -> bool,
    ) -> bool {
        fn go(
            t: usize,
            cells: &[usize],
            values: &mut Vec<usize>,
            c: &Cells,
            apart: &dyn Fn(usize, usize) -> bool,
            ok: &dyn Fn(&[usize]) -> bool,
        ) -> bool {
            if t == cells.len() {
                return ok(values);
            }
            for v in c.digits(cells[t]) {
                if (0..t).any(|u| values[u] == v && apart(u, t)) {
                    continue;
                }
                values.push(v);
                if go(t + 1, cells, values, c, apart, ok) {
                    return true;
                }
                values.pop();
            }
            false
        }
        go(0, cells, &mut Vec::new(), c, apart, ok)
    }

    /// Every assignment of `cells` (candidates from `c`) with distinct
    /// digits where they see each other that makes the sum: whether one
    /// puts `d` in cell `x`.
    fn supported(
        c: &Cells,
        plus: &[usize],
        minus: &[usize],
        total: i64,
        x: usize,
        d: usize,
    ) -> bool {
        let cells: Vec<usize> = plus.iter().chain(minus).copied().collect();
        let ok = |values: &[usize]| {
            let s: i64 = values[..plus.len()].iter().map(|&v| v as i64).sum::<i64>()
                - values[plus.len()..].iter().map(|&v| v as i64).sum::<i64>();
            s == total && cells.iter().zip(values).all(|(&k, &v)| k != x || v == d)
        };
        fill(c, &cells, &|u, t| sees(cells[u], cells[t]), &ok)
    }

    #[test]
    fn bounds_never_cut_a_supported_digit() {
        // Random signed sums of up to 5 cells over random candidates:
        // every digit cut has no assignment making the sum (brute force),
        // and "dead" only where none exists; something is cut in many; a
        // sum of at most three open cells keeps only supported digits.
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let (mut cut, mut dead, mut exact) = (0, 0, 0);
        for _ in 0..if cfg!(miri) { 20 } else { 3000 } {
            let mut cells: Vec<usize> = Vec::new();
            let size = rng.gen_range(1..=5);
            while cells.len() < size {
                // Near each other, so groups form.
                let k = rng.gen_range(0..27);
                if !cells.contains(&k) {
                    cells.push(k);
                }
            }
            let split = rng.gen_range(0..=size);
            let (plus, minus) = cells.split_at(split);
            let mut c = Cells::new(9);
            c.shuffle(&cells, &mut rng);
            let total = rng.gen_range(-20..=40);
            let before = c.clone();
            let any = cells.iter().any(|&k| {
                before
                    .digits(k)
                    .iter()
                    .any(|&d| supported(&before, plus, minus, total, k, d))
            });
            let alive = bounds(plus, minus, total).propagate(&mut c);
            if !alive {
                assert!(!any, "dead, but {plus:?} − {minus:?} = {total} can be met");
                dead += 1;
                continue;
            }
            // With at most three open cells, exactly the supported digits
            // stay.
            let open = cells.iter().filter(|&&k| before.digits(k).len() > 1);
            let few = open.count() <= FEW;
            for &k in &cells {
                for d in before.digits(k) {
                    let fine = supported(&before, plus, minus, total, k, d);
                    if !c.digits(k).contains(&d) {
                        cut += 1;
                        assert!(
                            !fine,
                            "{d} cut from cell {k} of {plus:?} − {minus:?} = {total}"
                        );
                    } else if few && before.digits(k).len() > 1 {
                        assert!(
                            fine,
                            "{d} kept in cell {k} of {plus:?} − {minus:?} = {total}"
                        );
                        exact += 1;
                    }
                }
            }
        }
        assert!(
            cut > 1000 && dead > 100 && exact > 1000,
            "{cut} cut, {dead} dead, {exact} kept exactly"
        );
    }

    #[test]
    fn the_paths_memory_hides_what_a_call_without_it_hides() {
        // Sums over a solved grid (cages of cells of one row or region,
        // and signed sums of cells anywhere), and a random walk over its
        // candidates that narrows cells, places them, and goes back to a
        // point passed before (the words restored with the candidates, as
        // a search backs up): at every call the propagator that keeps its
        // words (`Live::state`) hides what one without them hides (it
        // bounds every sum at every call), and is as alive.
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        let regions = boxes9();
        let (mut calls, mut hid, mut dead, mut back) = (0, 0, 0, 0);
        for _ in 0..if cfg!(miri) { 2 } else { 150 } {
            // A solved grid: the pattern's rows, columns and digits shuffled
            // within bands.
            let mut perm: Vec<usize> = (0..9).collect();
            perm.shuffle(&mut rng);
            let solved: Vec<usize> = (0..81)
                .map(|k| perm[(k / 9 * 3 + k / 27 + k % 9) % 9] + 1)
                .collect();
            let mut sums = Vec::new();
            for _ in 0..rng.gen_range(8..30) {
                if rng.gen_bool(0.5) {
                    let r = rng.gen_range(0..9);
                    let in_row = rng.gen_bool(0.5);
                    let house: Vec<usize> = (0..81)
                        .filter(|&k| if in_row { k / 9 == r } else { regions[k] == r })
                        .collect();
                    let size = rng.gen_range(2..=5);
                    let plus: Vec<usize> = house.choose_multiple(&mut rng, size).copied().collect();
                    let total = plus.iter().map(|&k| solved[k] as i64).sum();
                    sums.push(SignedSum {
                        plus,
                        minus: Vec::new(),
                        total,
                        distinct: true,
                    });
                } else {
                    let mut cells: Vec<usize> = (0..81).collect();
                    cells.shuffle(&mut rng);
                    let (a, b) = (rng.gen_range(1..6), rng.gen_range(0..4));
                    let plus = cells[..a].to_vec();
                    let minus = cells[a..a + b].to_vec();
                    let total = plus.iter().map(|&k| solved[k] as i64).sum::<i64>()
                        - minus.iter().map(|&k| solved[k] as i64).sum::<i64>();
                    sums.push(SignedSum {
                        plus,
                        minus,
                        total,
                        distinct: false,
                    });
                }
            }
            let Some(p) = SumBounds::new(9, &regions, &sums) else {
                continue;
            };
            let mut with = Cells::new(9);
            with.state = vec![0; p.state_words()];
            let mut without = Cells::new(9);
            let mut passed: Vec<(Cells, Cells)> = Vec::new();
            for _ in 0..100 {
                match rng.gen_range(0..10) {
                    // Back to a point passed before.
                    0 if !passed.is_empty() => {
                        let t = rng.gen_range(0..passed.len());
                        passed.truncate(t + 1);
                        (with, without) = passed[t].clone();
                        back += 1;
                    }
                    // A cell narrowed or placed, mostly keeping its digit of
                    // the solved grid.
                    _ => {
                        passed.push((with.clone(), without.clone()));
                        let k = rng.gen_range(0..81);
                        let m = with.masks[k];
                        if m & (m - 1) == 0 {
                            continue;
                        }
                        let keep = if rng.gen_bool(0.5) {
                            1u64 << (solved[k] - 1)
                        } else {
                            0
                        };
                        let mut narrowed = m & (rng.gen::<u64>() | keep);
                        if narrowed == 0 {
                            narrowed = m & m.wrapping_neg();
                        }
                        let place = rng.gen_bool(0.3) && narrowed & (narrowed - 1) == 0;
                        for c in [&mut with, &mut without] {
                            if place {
                                c.masks[k] = 0;
                                c.placed[k] = Some(narrowed.trailing_zeros() as usize);
                            } else {
                                c.masks[k] = narrowed;
                            }
                        }
                    }
                }
                let before = without.masks.clone();
                let alive = p.propagate(&mut with);
                assert_eq!(
                    alive,
                    p.propagate(&mut without),
                    "alive, after {calls} calls"
                );
                calls += 1;
                if !alive {
                    dead += 1;
                    let Some(last) = passed.pop() else { break };
                    (with, without) = last;
                    continue;
                }
                assert_eq!(with.masks, without.masks, "what the call hid");
                hid += usize::from(before != without.masks);
            }
        }
        if !cfg!(miri) {
            assert!(
                hid > 300 && dead > 50 && back > 300,
                "{calls} calls, {hid} hid, {dead} dead, {back} back"
            );
        }
    }

    fn cage(cells: &[usize], total: i64) -> SumBounds {
        let sum = SignedSum {
            plus: cells.to_vec(),
            minus: Vec::new(),
            total,
            distinct: true,
        };
        SumBounds::new(9, &boxes9(), &[sum]).unwrap()
    }

    /// Whether the cage's cells (distinct digits) and cell `x` (outside
    /// it, or `None`), from their candidates in `c`, can make `total`
    /// with `d` in `at`: digits repeat only between cells that do not see
    /// each other and are not both in the cage.
    fn cage_supported(
        c: &Cells,
        cage: &[usize],
        total: usize,
        x: Option<usize>,
        at: usize,
        d: usize,
    ) -> bool {
        let cells: Vec<usize> = cage.iter().copied().chain(x).collect();
        let ok = |values: &[usize]| {
            values[..cage.len()].iter().sum::<usize>() == total
                && cells.iter().zip(values).all(|(&k, &v)| k != at || v == d)
        };
        let apart = |u: usize, t: usize| t < cage.len() || sees(cells[u], cells[t]);
        fill(c, &cells, &apart, &ok)
    }

    #[test]
    fn cage_sets_never_cut_a_supported_digit() {
        // Random cages of up to 5 cells anywhere (distinct digits whether
        // they see each other or not) over random candidates: every digit
        // cut, in the cage or outside it, has no assignment making the sum
        // (brute force), "dead" only where none exists; a cage with one
        // open cell keeps exactly its supported digits; digits go outside
        // cages and cells are forced in many.
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let (mut outside, mut forced, mut dead, mut exact) = (0, 0, 0, 0);
        for _ in 0..if cfg!(miri) { 20 } else { 3000 } {
            let size = rng.gen_range(1..=5);
            let mut cells: Vec<usize> = Vec::new();
            let near = rng.gen_bool(0.7);
            while cells.len() < size {
                let k = rng.gen_range(0..if near { 27 } else { 81 });
                if !cells.contains(&k) {
                    cells.push(k);
                }
            }
            let mut c = Cells::new(9);
            c.shuffle(&cells, &mut rng);
            let total = rng.gen_range(size * (size + 1) / 2..=45 - (9 - size) * (10 - size) / 2);
            let before = c.clone();
            let any = cells.iter().any(|&k| {
                before
                    .digits(k)
                    .iter()
                    .any(|&d| cage_supported(&before, &cells, total, None, k, d))
            });
            if !cage(&cells, total as i64).propagate(&mut c) {
                assert!(!any, "dead, but {cells:?} can make {total}");
                dead += 1;
                continue;
            }
            let open: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&k| before.digits(k).len() > 1)
                .collect();
            for k in 0..81 {
                let x = (!cells.contains(&k)).then_some(k);
                let mut all_cut = true;
                for d in before.digits(k) {
                    let kept = c.digits(k).contains(&d);
                    if kept && x.is_some() {
                        continue;
                    }
                    let fine = cage_supported(&before, &cells, total, x, k, d);
                    all_cut &= kept == fine;
                    if !kept {
                        assert!(!fine, "{d} cut from cell {k}, {cells:?} = {total}");
                        if x.is_some() {
                            outside += 1;
                        }
                    }
                }
                if x.is_none() && open == [k] {
                    assert!(all_cut, "cell {k} of {cells:?} = {total} keeps a digit");
                    exact += 1;
                }
                if x.is_none() && before.digits(k).len() > 1 && c.digits(k).len() == 1 {
                    forced += 1;
                }
            }
        }
        assert!(
            outside > 300 && forced > 300 && dead > 100 && exact > 100,
            "{outside} outside, {forced} forced, {dead} dead, {exact} exact"
        );
    }

    /// Whether row `r` can be filled from the candidates in `c` (each
    /// digit once) with its cells `cage` making `total`, and cell `x`
    /// (outside the row, or `None`) a digit none of the row's cells it
    /// sees holds, with `d` in `at`.
    fn row_supported(
        c: &Cells,
        r: usize,
        cage: &[usize],
        total: usize,
        x: Option<usize>,
        at: usize,
        d: usize,
    ) -> bool {
        let cells: Vec<usize> = (r * 9..r * 9 + 9).chain(x).collect();
        let ok = |values: &[usize]| {
            let sum: usize = cells
                .iter()
                .zip(values)
                .filter(|(k, _)| cage.contains(k))
                .map(|(_, &v)| v)
                .sum();
            sum == total && cells.iter().zip(values).all(|(&k, &v)| k != at || v == d)
        };
        fill(c, &cells, &|u, t| sees(cells[u], cells[t]), &ok)
    }

    #[test]
    fn a_cage_in_a_house_holds_what_the_rest_cannot() {
        // A cage of 2 to 4 cells in one row, random candidates for the
        // whole row: a digit the rest of the row cannot take is in the
        // cage, so the cage's sets must hold it. Every digit cut, in the
        // row or outside it, has no filling of the row making the sum
        // (brute force); "dead" only where none exists; and the rest of
        // the row cuts digits the cage alone would keep.
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        let (mut by_rest, mut dead) = (0, 0);
        for _ in 0..if cfg!(miri) { 10 } else { 2000 } {
            let r = rng.gen_range(0..9);
            let size = rng.gen_range(2..=4);
            let mut cells: Vec<usize> = Vec::new();
            while cells.len() < size {
                let k = r * 9 + rng.gen_range(0..9);
                if !cells.contains(&k) {
                    cells.push(k);
                }
            }
            let row: Vec<usize> = (r * 9..r * 9 + 9).collect();
            let mut c = Cells::new(9);
            c.shuffle(&row, &mut rng);
            let total = rng.gen_range(size * (size + 1) / 2..=45 - (9 - size) * (10 - size) / 2);
            let before = c.clone();
            let bounds = cage(&cells, total as i64);
            if !bounds.propagate(&mut c) {
                let any = before
                    .digits(cells[0])
                    .into_iter()
                    .any(|d| row_supported(&before, r, &cells, total, None, cells[0], d));
                assert!(!any, "dead, but row {r} can make {cells:?} = {total}");
                dead += 1;
                continue;
            }
            for k in 0..81 {
                let x = (k / 9 != r).then_some(k);
                for d in before.digits(k) {
                    if c.digits(k).contains(&d) {
                        continue;
                    }
                    let fine = row_supported(&before, r, &cells, total, x, k, d);
                    assert!(!fine, "{d} cut from cell {k}, row {r}, {cells:?} = {total}");
                    if cells.contains(&k) && cage_supported(&before, &cells, total, None, k, d) {
                        by_rest += 1;
                    }
                }
            }
        }
        assert!(
            by_rest > 100 && dead > 50,
            "{by_rest} cut by the rest of the row, {dead} dead"
        );
    }
}
