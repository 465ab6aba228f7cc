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
//! A sum whose cells' candidates are what they were when it last cut
//! nothing is passed over (the bounds are a function of the candidates
//! alone): its cells' masks side by side are kept in the engine's scratch
//! for the propagator ([`Live::scratch`]), which no backtrack needs to
//! restore.
//!
//! Invariant: only candidates in no solution go — a digit is removed only
//! when no choice of the other cells' candidates meets the total — so the
//! propagator is redundant (its sums follow from the rules) and the
//! matrix's solutions are the same with it or without.
//!
//! Why bounds: they cost a few table lookups a cell, and on killer puzzles
//! the derived sums they run on are what the Interactive Sudoku Solver's
//! optimizer adds (`_makeInnieOutieSumHandlers`, `_makeHiddenCageHandlers`)
//! and its sum handler bounds; the exact digit sets stay the matrix's
//! (cages).

use crate::dlx::{Live, Propagator};

use super::derive::SignedSum;

/// The least and most sum of `k` distinct digits of a candidate mask, for
/// every mask of `n` bits and every `k` (`u8`: at most 16 · 17 / 2).
#[derive(Debug)]
struct Tables {
    n: usize,
    low: Vec<u8>,
    high: Vec<u8>,
}

impl Tables {
    fn new(n: usize) -> Tables {
        let masks = 1usize << n;
        let mut low = vec![0u8; masks * (n + 1)];
        let mut high = vec![0u8; masks * (n + 1)];
        for mask in 0..masks {
            let digits: Vec<u8> = (0..n)
                .filter(|&d| mask >> d & 1 == 1)
                .map(|d| d as u8 + 1)
                .collect();
            let (mut lo, mut hi) = (0u8, 0u8);
            for k in 1..=n {
                if k <= digits.len() {
                    lo += digits[k - 1];
                    hi += digits[digits.len() - k];
                    low[mask * (n + 1) + k] = lo;
                    high[mask * (n + 1) + k] = hi;
                } else {
                    // Not enough digits: marked out of reach.
                    low[mask * (n + 1) + k] = u8::MAX;
                    high[mask * (n + 1) + k] = 0;
                }
            }
        }
        Tables { n, low, high }
    }

    /// The least sum of `k` distinct digits of `mask`, `None` when it has
    /// fewer than `k`.
    fn low(&self, mask: u32, k: usize) -> Option<i32> {
        let v = self.low[mask as usize * (self.n + 1) + k];
        (k == 0 || v != u8::MAX).then_some(i32::from(v))
    }

    fn high(&self, mask: u32, k: usize) -> i32 {
        i32::from(self.high[mask as usize * (self.n + 1) + k])
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
    groups: Vec<Group>,
    total: i32,
}

/// The sum-bounds propagator of one rule set (see the module
/// documentation): its sums, and the tables for its side.
#[derive(Debug)]
pub(crate) struct SumBounds {
    sums: Vec<Sum>,
    tables: Tables,
}

/// The most cells of a sum (the derived sums have at most n, n ≤ 16).
const MOST_CELLS: usize = 16;

/// Where one group stands at a node: its cells' candidate masks (in
/// `masks`, from `first`) and its bounds.
#[derive(Clone, Copy, Debug, Default)]
struct Bounds {
    first: usize,
    lo: i32,
    hi: i32,
}

impl SumBounds {
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
            if s.plus.len() + s.minus.len() > MOST_CELLS {
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
            let total = i32::try_from(s.total).unwrap_or(i32::MAX);
            out.push(Sum { groups, total });
        }
        Some(SumBounds {
            sums: out,
            tables: Tables::new(n),
        })
    }

    /// The candidates of cell `k`: its item's active options, or the digit
    /// of the option that placed it; 0 for none.
    fn candidates(&self, live: &dyn Live, k: usize) -> u32 {
        let options = live.options(k) as u32;
        if options != 0 {
            return options;
        }
        let n = self.tables.n;
        live.chosen(k).map_or(0, |o| 1 << (o.as_usize() % n))
    }

    /// A group's bounds from its cells' `masks`: the least and most sum of
    /// distinct digits of their union, and of each cell's own least and
    /// most digit; `None` when the union has fewer digits than cells.
    fn group_bounds(&self, masks: &[u32]) -> Option<(i32, i32)> {
        let (mut union, mut lo, mut hi) = (0u32, 0i32, 0i32);
        for &m in masks {
            union |= m;
            lo += m.trailing_zeros() as i32 + 1;
            hi += 32 - m.leading_zeros() as i32;
        }
        let k = masks.len();
        let low = self.tables.low(union, k)?;
        Some((lo.max(low), hi.min(self.tables.high(union, k))))
    }

    /// Bounds one sum: hides the candidates out of reach; false at a dead
    /// end. `memo`: the sum's cells' masks, side by side, when it last cut
    /// nothing (0: never); the same masks again cut nothing again, so the
    /// bounds are not worked out anew.
    fn bound(&self, s: &Sum, live: &mut dyn Live, memo: &mut [u64]) -> bool {
        let mut masks = [0u32; MOST_CELLS];
        let (n, mut key, mut next) = (self.tables.n, 0u128, 0);
        let mut open = false;
        for g in &s.groups {
            for &k in &g.cells {
                let m = self.candidates(live, k);
                if m == 0 {
                    return false;
                }
                open |= m & (m - 1) != 0;
                masks[next] = m;
                next += 1;
                key = key << n | u128::from(m);
            }
        }
        let keyed = next * n <= 128;
        let key = [key as u64, (key >> 64) as u64];
        if keyed && memo == key {
            return true;
        }
        let cut = match self.cut(s, &masks, open, live) {
            Some(cut) => cut,
            None => return false,
        };
        if keyed && !cut {
            memo.copy_from_slice(&key);
        }
        true
    }

    /// Bounds one sum whose cells' candidates are `masks` (group by
    /// group): `None` at a dead end, else whether it hid something.
    fn cut(
        &self,
        s: &Sum,
        masks: &[u32; MOST_CELLS],
        open: bool,
        live: &mut dyn Live,
    ) -> Option<bool> {
        let mut at = [Bounds::default(); MOST_CELLS];
        let (mut lo, mut hi) = (0i32, 0i32);
        let mut next = 0;
        for (t, g) in s.groups.iter().enumerate() {
            let first = next;
            next += g.cells.len();
            let (glo, ghi) = self.group_bounds(&masks[first..next])?;
            if g.sign > 0 {
                lo += glo;
                hi += ghi;
            } else {
                lo -= ghi;
                hi -= glo;
            }
            at[t] = Bounds {
                first,
                lo: glo,
                hi: ghi,
            };
        }
        if s.total < lo || s.total > hi {
            return None;
        }
        if !open {
            return Some(false);
        }
        let mut cut = false;
        // A cell's digit is at most what the total leaves once the rest of
        // the sum and the other cells of its group are at their least (and
        // at least what it leaves with them at their most).
        for (g, b) in s.groups.iter().zip(at.iter()) {
            let cells = &masks[b.first..b.first + g.cells.len()];
            let (rest_lo, rest_hi) = if g.sign > 0 {
                (lo - b.lo, hi - b.hi)
            } else {
                (lo + b.hi, hi + b.lo)
            };
            // What this group must add up to, signs undone.
            let (need_lo, need_hi) = if g.sign > 0 {
                (s.total - rest_hi, s.total - rest_lo)
            } else {
                (rest_lo - s.total, rest_hi - s.total)
            };
            if need_lo <= b.lo && b.hi <= need_hi {
                // Nothing to cut: the group's whole range fits.
                continue;
            }
            let mut before = [0u32; MOST_CELLS + 1];
            for (x, &m) in cells.iter().enumerate() {
                before[x + 1] = before[x] | m;
            }
            let mut after = 0u32;
            for x in (0..cells.len()).rev() {
                let m = cells[x];
                let others = before[x] | after;
                after |= m;
                if m & (m - 1) == 0 {
                    continue;
                }
                let (olo, ohi) = self.others_bounds(cells, x, others)?;
                let most = need_hi - olo;
                let least = need_lo - ohi;
                let keep = digits_between(least, most);
                let gone = m & !keep;
                if gone != 0 {
                    if gone == m {
                        return None;
                    }
                    live.hide(g.cells[x], u64::from(gone));
                    cut = true;
                }
            }
        }
        Some(cut)
    }

    /// Bounds of a group's cells but the `x`-th, whose candidates'
    /// union is `union`: as [`group_bounds`](Self::group_bounds), for
    /// `cells.len() - 1` cells.
    fn others_bounds(&self, cells: &[u32], x: usize, union: u32) -> Option<(i32, i32)> {
        let (mut lo, mut hi) = (0i32, 0i32);
        for (y, &m) in cells.iter().enumerate() {
            if y != x {
                lo += m.trailing_zeros() as i32 + 1;
                hi += 32 - m.leading_zeros() as i32;
            }
        }
        let k = cells.len() - 1;
        let low = self.tables.low(union, k)?;
        Some((lo.max(low), hi.min(self.tables.high(union, k))))
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

impl Propagator for SumBounds {
    fn propagate(&self, live: &mut dyn Live) -> bool {
        let mut memo = std::mem::take(live.scratch());
        memo.resize(2 * self.sums.len(), 0);
        let alive = self
            .sums
            .iter()
            .zip(memo.chunks_exact_mut(2))
            .all(|(s, m)| self.bound(s, live, m));
        *live.scratch() = memo;
        alive
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx::OptionId;
    use rand::{Rng, SeedableRng};

    /// A grid's cells as a [`Live`]: cell `k`'s item is `k`, its options
    /// `k·n + d` (digit `d + 1`), as in the Sudoku layer's matrix.
    struct Cells {
        n: usize,
        masks: Vec<u64>,
        placed: Vec<Option<usize>>,
        scratch: Vec<u64>,
    }

    impl Cells {
        fn new(n: usize) -> Cells {
            Cells {
                n,
                masks: vec![(1 << n) - 1; n * n],
                placed: vec![None; n * n],
                scratch: Vec::new(),
            }
        }

        fn digits(&self, k: usize) -> Vec<usize> {
            if let Some(d) = self.placed[k] {
                return vec![d + 1];
            }
            (0..self.n)
                .filter(|d| self.masks[k] >> d & 1 == 1)
                .map(|d| d + 1)
                .collect()
        }
    }

    impl Live for Cells {
        fn options(&self, item: usize) -> u64 {
            self.masks.get(item).copied().unwrap_or(0)
        }
        fn option_at(&self, item: usize, bit: u32) -> Option<OptionId> {
            ((bit as usize) < self.n).then(|| OptionId::must(item * self.n + bit as usize))
        }
        fn chosen(&self, item: usize) -> Option<OptionId> {
            self.placed[item].map(|d| OptionId::must(item * self.n + d))
        }
        fn hide(&mut self, item: usize, options: u64) {
            self.masks[item] &= !options;
        }
        fn scratch(&mut self) -> &mut Vec<u64> {
            &mut self.scratch
        }
    }

    fn boxes9() -> Vec<usize> {
        (0..81).map(|k| k / 27 * 3 + k % 9 / 3).collect()
    }

    fn bounds(plus: &[usize], minus: &[usize], total: i64) -> SumBounds {
        let sum = SignedSum {
            plus: plus.to_vec(),
            minus: minus.to_vec(),
            total,
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
        let sees =
            |a: usize, b: usize| a / 9 == b / 9 || a % 9 == b % 9 || boxes9()[a] == boxes9()[b];
        let mut values = vec![0usize; cells.len()];
        fn go(
            t: usize,
            cells: &[usize],
            values: &mut Vec<usize>,
            c: &Cells,
            ok: &dyn Fn(&[usize]) -> bool,
            sees: &dyn Fn(usize, usize) -> bool,
        ) -> bool {
            if t == cells.len() {
                return ok(values);
            }
            for v in c.digits(cells[t]) {
                if (0..t).any(|u| values[u] == v && sees(cells[u], cells[t])) {
                    continue;
                }
                values[t] = v;
                if go(t + 1, cells, values, c, ok, sees) {
                    return true;
                }
            }
            false
        }
        let ok = |values: &[usize]| {
            let s: i64 = values[..plus.len()].iter().map(|&v| v as i64).sum::<i64>()
                - values[plus.len()..].iter().map(|&v| v as i64).sum::<i64>();
            s == total && cells.iter().zip(values).all(|(&k, &v)| k != x || v == d)
        };
        go(0, &cells, &mut values, c, &ok, &sees)
    }

    #[test]
    fn bounds_never_cut_a_supported_digit() {
        // Random signed sums of up to 5 cells over random candidates:
        // every digit cut has no assignment making the sum (brute force),
        // and "dead" only where none exists; something is cut in many.
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let (mut cut, mut dead) = (0, 0);
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
            for &k in &cells {
                if rng.gen_bool(0.2) {
                    c.masks[k] = 0;
                    c.placed[k] = Some(rng.gen_range(0..9));
                } else {
                    c.masks[k] = rng.gen_range(1..512);
                }
            }
            let total = rng.gen_range(-20..=40);
            let before = Cells {
                n: 9,
                masks: c.masks.clone(),
                placed: c.placed.clone(),
                scratch: Vec::new(),
            };
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
            for &k in &cells {
                for d in before.digits(k) {
                    if !c.digits(k).contains(&d) {
                        cut += 1;
                        assert!(
                            !supported(&before, plus, minus, total, k, d),
                            "{d} cut from cell {k} of {plus:?} − {minus:?} = {total}"
                        );
                    }
                }
            }
        }
        assert!(cut > 1000 && dead > 100, "{cut} cut, {dead} dead");
    }
}
