//! Derived constraints: what the 45 rule gives a killer puzzle, added to
//! its cover matrix as more cages.
//!
//! Every row, column and region holds each digit once, so its digits add
//! up to n(n+1)/2 (45 on 9×9). Take a house and the summed cages:
//!
//! * *Innies*: the cages wholly inside the house add up to S; the house's
//!   other cells (the innies) then add up to 45 − S, and, being in one
//!   house, hold distinct digits — a cage.
//! * *Outies*: when every cell of the house is in a summed cage, the cages
//!   that touch it add up to S ≥ 45; the cells of those cages outside the
//!   house (the outies) add up to S − 45. They form a cage when they see
//!   each other (one row, column or region).
//! * The same over k adjacent rows or columns (their digits add up to
//!   45k). Innies or outies there may repeat a digit: unless they see each
//!   other, they become a sum over cells that may repeat — a little
//!   killer's encoding (a finite automaton over the partial sums), kept to
//!   at most [`MAX_LOOSE`] cells (each adds items and options the search
//!   pays for at every node).
//!
//! Invariant: a derived cage holds in every solution of the puzzle (it
//! follows from the rules), so adding it loses no solution and admits none
//! that the rules refuse — it only lets the search see sooner what the
//! rules imply: a killer puzzle's house with three cages and two loose cells
//! becomes a two-cell cage of known sum. The derived cages go into the
//! matrix only; the rules (what is written back, checked, drawn) are the
//! puzzle's own. A sum out of reach (S > 45 for innies) makes a cage with no
//! digit set: the matrix then has no solution, as the puzzle has none.
//!
//! * *Innies less outies*: an area whose cells are not all in cages, with
//!   cages leaving it: its free cells (in no cage inside it nor touching
//!   it) less the touching cages' cells outside add up to the area's sum
//!   less every cage that touches it; and the same with one touching cage
//!   at a time (the cells of the area in no cage inside it nor in that
//!   one, less that cage's cells outside) — what ISS's hidden cages with
//!   one outie say. These, and innies or outies of more loose cells than
//!   the matrix takes, are [`SignedSum`]s (of few cells: see below), for
//!   the search to bound ([`SumBounds`](super::sum_bounds)).
//! * *Growing areas* (the Interactive Sudoku Solver's
//!   `_makeInnieOutieSumHandlers`): the first 2, 3, … n − 1 rows from the
//!   top and from the bottom, the columns from either side, the regions in
//!   order; a cage belongs to the area when most of its cells lie in it.
//!   The area's cells in none of its cages less its cages' cells outside
//!   make the area's sum less its cages' (skipped when both sides have
//!   more than two cells). Where the cages inside a house and those
//!   touching it are all the houses above see, these add what lies
//!   between: some touching cages in, others out.
//! * Each sum is derived once: a sum and its negation are one (areas grown
//!   from either side meet), and a house's cells adding up to the house's
//!   total say nothing the rules do not.
//! * A sum with a cell in no summed cage may have up to n cells (that
//!   cell has no other sum to help it; ISS's rule too); one over caged
//!   cells alone at most [`MAX_SUM_CELLS`].
//! * Every summed cage, the puzzle's and the derived ones, goes to the
//!   search as well, as a sum of distinct digits ([`SignedSum::distinct`]):
//!   the search keeps its cells to the digits of the sets still possible.
//!
//! Why cages and sums: the cage's encoding (one option per digit set)
//! already prunes by the sets a sum allows, and the exact-cover search sees
//! it as one more primary item to choose; the little killer's automaton
//! does the same for cells that may repeat. What a matrix cannot say — a
//! sum's bounds over cells that may repeat, or with cells subtracted — the
//! search's propagator does, at every node (ISS, the Interactive Sudoku
//! Solver, propagates sum bounds the same way; it derives more still:
//! sum gaps, intersections of sums, combined sums).

use std::collections::HashSet;
use std::sync::Arc;

use super::killer::Cage;
use super::sums::LittleKiller;
use super::Constraint;
use crate::sudoku::rules::Rules;

/// The largest side derived cages are made for: beyond it a remainder's
/// digit sets are too many to list (25×25: millions for half a house;
/// 16×16: at most 12,870).
pub(crate) const MAX_SIDE: usize = 16;

/// The most cells of a derived sum whose digits may repeat, in the matrix.
pub(crate) const MAX_LOOSE: usize = 3;

/// The most cells of a sum for [`SumBounds`](super::sum_bounds::SumBounds)
/// whose cells are all in summed cages (one with a cell in none may have n):
/// the Interactive Sudoku Solver's cap (`_MAX_SUM_SIZE`). Measured on
/// TAREK_ALL (BENCHMARKS.md, "Sum bounds"): 5 cells 8.7 s, 6 9.5 s, 7 11.5
/// s, 16 22 s — more sums prune more and cost every node more.
pub(crate) const MAX_SUM_CELLS: usize = 6;

/// The constraints the 45 rule derives from `rules` (see the module
/// documentation): innies and outies of every row, column and region and
/// of every run of adjacent rows or columns, each set of cells once, none
/// that repeats a cage of the puzzle; cages where the cells see each
/// other, sums otherwise.
#[cfg(test)]
pub(crate) fn constraints(rules: &Rules) -> Vec<Arc<dyn Constraint>> {
    derive(rules).0
}

/// The 45 rule's constraints for the matrix ([`constraints`]) and its sums
/// for [`SumBounds`]: each set of innies and outies the matrix does not
/// take (loose cells past [`MAX_LOOSE`]), the mixed ones (cells inside
/// an area less cells outside it, up to n cells in all), and every summed
/// cage, the puzzle's and the derived ones, as a sum of distinct digits
/// (first). Nothing when no cage has a sum, the side is past
/// [`MAX_SIDE`] or cages overlap.
pub(crate) fn derive(rules: &Rules) -> (Vec<Arc<dyn Constraint>>, Vec<SignedSum>) {
    let n = rules.side();
    let summed: Vec<(&[usize], u32)> = rules
        .cages()
        .into_iter()
        .filter_map(|c| c.sum.map(|s| (&c.cells[..], s)))
        .collect();
    let nn = n * n;
    // Cages that share a cell would count its digit twice: then nothing is
    // derived.
    let mut cages_of = vec![0u8; nn];
    for (cells, _) in &summed {
        for &k in *cells {
            cages_of[k] = cages_of[k].saturating_add(1);
        }
    }
    if summed.is_empty() || n > MAX_SIDE || cages_of.iter().any(|&c| c > 1) {
        return (Vec::new(), Vec::new());
    }
    let total = (n * (n + 1) / 2) as i64;
    let regions = rules.regions();
    // The areas: each house, then each run of 2 to n - 1 adjacent rows or
    // columns, with the sum of their digits.
    let mut houses: Vec<(Vec<usize>, i64)> = Vec::with_capacity(3 * n + n * n);
    let mut by_region: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, &x) in regions.iter().enumerate() {
        if let Some(h) = by_region.get_mut(x) {
            h.push(k);
        }
    }
    for len in 1..n {
        for first in 0..=n - len {
            let lines = first..first + len;
            let rows = lines.clone().flat_map(|r| (0..n).map(move |c| r * n + c));
            let cols = lines.flat_map(|c| (0..n).map(move |r| r * n + c));
            houses.push((rows.collect(), total * len as i64));
            houses.push((cols.collect(), total * len as i64));
        }
        if len == 1 {
            houses.extend(
                by_region
                    .iter()
                    .filter(|h| h.len() == n)
                    .map(|h| (h.clone(), total)),
            );
        }
    }
    // A house's own cells summing to its digits say nothing new.
    let whole: HashSet<&[usize]> = houses
        .iter()
        .filter(|(h, _)| h.len() == n)
        .map(|(h, _)| &h[..])
        .collect();
    let says_nothing = |cells: &[usize], sum: i64| sum == total && whole.contains(cells);
    let mut seen: HashSet<Vec<usize>> = summed
        .iter()
        .map(|(cells, _)| {
            let mut c = cells.to_vec();
            c.sort_unstable();
            c
        })
        .collect();
    let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
    let mut sums: Vec<SignedSum> = Vec::new();
    let mut cages: Vec<SignedSum> = summed
        .iter()
        .map(|&(cells, s)| SignedSum {
            plus: cells.to_vec(),
            minus: Vec::new(),
            total: i64::from(s),
            distinct: true,
        })
        .collect();
    let mut seen_sums: HashSet<(Vec<usize>, Vec<usize>)> = HashSet::new();
    // A cell in no summed cage has no other sum to help it: a sum over
    // one may have up to n cells.
    let mut push_sum = |mut plus: Vec<usize>, mut minus: Vec<usize>, mut sum: i64| {
        plus.sort_unstable();
        minus.sort_unstable();
        // A sum and its negation are one: a side of cells, the first in
        // order, is plus.
        if plus.is_empty() || !minus.is_empty() && minus < plus {
            (plus, minus, sum) = (minus, plus, -sum);
        }
        if minus.is_empty() && says_nothing(&plus, sum) {
            return;
        }
        let loose = plus.iter().chain(&minus).any(|&k| cages_of[k] == 0);
        let most = if loose { n } else { MAX_SUM_CELLS.min(n) };
        if plus.len() + minus.len() > most || plus.is_empty() && minus.is_empty() {
            return;
        }
        if seen_sums.insert((plus.clone(), minus.clone())) {
            sums.push(SignedSum {
                plus,
                minus,
                total: sum,
                distinct: false,
            });
        }
    };
    let mut push =
        |mut cells: Vec<usize>, sum: i64, sums: &mut dyn FnMut(Vec<usize>, Vec<usize>, i64)| {
            cells.sort_unstable();
            if cells.is_empty() || seen.contains(&cells) || says_nothing(&cells, sum) {
                return;
            }
            // A sum no digits reach (negative) is kept as 0, which none reach
            // either: the matrix then has no solution, as the puzzle has none.
            let sum = u32::try_from(sum).unwrap_or(0);
            if see_each_other(&cells, n, regions) {
                seen.insert(cells.clone());
                cages.push(SignedSum {
                    plus: cells.clone(),
                    minus: Vec::new(),
                    total: i64::from(sum),
                    distinct: true,
                });
                out.push(Arc::new(Cage {
                    cells,
                    sum: Some(sum),
                }));
            } else if cells.len() <= MAX_LOOSE {
                seen.insert(cells.clone());
                out.push(Arc::new(LittleKiller { cells, sum }));
            } else {
                sums(cells, Vec::new(), i64::from(sum));
            }
        };
    // `inner`: in a cage wholly inside the house; `covered`: in any
    // summed cage.
    let mut in_house = vec![false; nn];
    let mut inner = vec![false; nn];
    let mut covered = vec![false; nn];
    for (h, total) in &houses {
        let total = *total;
        for &k in h {
            in_house[k] = true;
        }
        let (mut inside_sum, mut touching_sum) = (0i64, 0i64);
        let mut inside = false;
        let mut outies: Vec<usize> = Vec::new();
        for &(cells, s) in &summed {
            let ins = cells.iter().filter(|&&k| in_house[k]).count();
            if ins == 0 {
                continue;
            }
            let whole = ins == cells.len();
            for &k in cells {
                covered[k] = true;
                inner[k] = whole;
            }
            if whole {
                inside = true;
                inside_sum += i64::from(s);
            } else {
                touching_sum += i64::from(s);
                outies.extend(cells.iter().copied().filter(|&k| !in_house[k]));
            }
        }
        if inside {
            let innies: Vec<usize> = h.iter().copied().filter(|&k| !inner[k]).collect();
            push(innies, total - inside_sum, &mut push_sum);
        }
        let whole_house = h.iter().all(|&k| covered[k]);
        if whole_house && !outies.is_empty() {
            push(outies, inside_sum + touching_sum - total, &mut push_sum);
        } else if !outies.is_empty() {
            // Innies less outies: the cells of the area in no cage inside
            // it nor touching it, less the touching cages' cells outside.
            let free: Vec<usize> = h.iter().copied().filter(|&k| !covered[k]).collect();
            push_sum(free, outies.clone(), total - inside_sum - touching_sum);
        }
        // One touching cage at a time: the area's cells in no cage inside
        // it nor in that one, less that cage's cells outside.
        for &(cells, s) in &summed {
            let ins = cells.iter().filter(|&&k| in_house[k]).count();
            if ins == 0 || ins == cells.len() {
                continue;
            }
            let plus: Vec<usize> = h
                .iter()
                .copied()
                .filter(|&k| !inner[k] && !cells.contains(&k))
                .collect();
            let minus: Vec<usize> = cells.iter().copied().filter(|&k| !in_house[k]).collect();
            push_sum(plus, minus, total - inside_sum - i64::from(s));
        }
        for &(cells, _) in &summed {
            for &k in cells {
                covered[k] = false;
                inner[k] = false;
            }
        }
        for &k in h {
            in_house[k] = false;
        }
    }
    // Growing areas (ISS's `_makeInnieOutieSumHandlers`): the first 2, 3,
    // … n − 1 rows from the top and from the bottom, columns from either
    // side, regions in order; a cage belongs to the area when most of its
    // cells are in it. The area's cells in none of its cages less its
    // cages' cells outside add up to the area's sum less its cages'.
    let mut orders: Vec<Vec<Vec<usize>>> = Vec::new();
    let rows: Vec<Vec<usize>> = (0..n).map(|r| (r * n..r * n + n).collect()).collect();
    let cols: Vec<Vec<usize>> = (0..n)
        .map(|c| (0..n).map(|r| r * n + c).collect())
        .collect();
    for lines in [rows, cols] {
        orders.push(lines.iter().rev().cloned().collect());
        orders.push(lines);
    }
    if by_region.iter().all(|h| h.len() == n) {
        orders.push(by_region);
    }
    for order in &orders {
        let mut used = vec![false; summed.len()];
        let (mut pieces, mut pieces_sum) = (vec![false; nn], 0i64);
        for (i, house) in order.iter().enumerate().take(n - 1) {
            for &k in house {
                in_house[k] = true;
            }
            for (j, &(cells, s)) in summed.iter().enumerate() {
                let ins = cells.iter().filter(|&&k| in_house[k]).count();
                if !used[j] && 2 * ins > cells.len() {
                    used[j] = true;
                    pieces_sum += i64::from(s);
                    for &k in cells {
                        pieces[k] = true;
                    }
                }
            }
            if i == 0 {
                continue;
            }
            let plus: Vec<usize> = (0..nn).filter(|&k| in_house[k] && !pieces[k]).collect();
            let minus: Vec<usize> = (0..nn).filter(|&k| pieces[k] && !in_house[k]).collect();
            let sum = total * (i as i64 + 1) - pieces_sum;
            if plus.len() > 2 && minus.len() > 2 {
                continue;
            }
            if minus.is_empty() {
                push(plus, sum, &mut push_sum);
            } else if plus.is_empty() {
                push(minus, -sum, &mut push_sum);
            } else {
                push_sum(plus, minus, sum);
            }
        }
        in_house.fill(false);
    }
    cages.extend(sums);
    (out, cages)
}

/// A sum the 45 rule derives for [`SumBounds`]: the digits of `plus` less
/// those of `minus` make `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SignedSum {
    pub(crate) plus: Vec<usize>,
    pub(crate) minus: Vec<usize>,
    pub(crate) total: i64,
    /// `plus`'s digits are distinct (a cage; `minus` is empty): the
    /// search may keep only the digits of the sets that make the total.
    pub(crate) distinct: bool,
}

/// Whether `cells` (distinct, at least one) lie in one row, one column or
/// one region.
fn see_each_other(cells: &[usize], n: usize, regions: &[usize]) -> bool {
    let first = cells[0];
    cells.iter().all(|&k| k / n == first / n)
        || cells.iter().all(|&k| k % n == first % n)
        || cells.iter().all(|&k| regions[k] == regions[first])
}
