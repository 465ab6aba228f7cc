//! Pair arcs: the Sudoku layer's [`Propagator`] for rules between two
//! cells (thermometers, dots, whispers, XV, clones, palindromes …), made
//! arc consistent at every node where nothing is forced.
//!
//! The matrix says such a rule with forbidden pairs ([`Encoder::forbid`]:
//! bicliques of secondary items) or a code of items for equal digits
//! ([`Encoder::equal`]), and that only *forward checks*: placing 5 in a
//! thermometer's bulb hides the digits up to 5 in the next cell, but while
//! neither is placed, a bulb whose successor holds only 1–4 keeps 5–9.
//! Every pair relation the encoder met is kept here as two tables (for
//! each digit of one cell, the digits of the other it goes with) and at a
//! node each cell keeps only the digits some candidate of the other cell
//! goes with, relation after relation until none changes: on ISS's
//! HARD_THERMOS (two-cell thermometers on an empty grid) the search
//! otherwise branches through millions of nodes that arc consistency
//! never opens (BENCHMARKS.md, "Pair arcs").
//!
//! Kept only where it can cut: a relation no stronger than "different
//! digits" (anti-king, anti-knight, non-consecutive's far pairs …) cuts a
//! digit only beside a cell with one candidate, which the search places
//! first anyway, so it is left out; a rule set with no other relation has
//! no pair propagator.
//!
//! Invariant: a digit goes only when no candidate of the other cell goes
//! with it, so no solution is lost: the propagator is redundant, as the
//! [`Propagator`] contract asks. It keeps nothing in [`Live::state`] (it asks for no words).

use std::collections::HashMap;

use crate::dlx::{Live, Propagator, Strategy};

/// One relation between cells `a` and `b`, each by its place in
/// [`PairArcs::cells`].
#[derive(Debug)]
struct Relation {
    a: usize,
    b: usize,
    /// For digit `x + 1` of `a`: the digits of `b` it goes with (bit `y`
    /// for digit `y + 1`).
    of_a: Vec<u64>,
    /// For digit `y + 1` of `b`: the digits of `a` it goes with.
    of_b: Vec<u64>,
}

/// Arc consistency over the pair relations of a rule set (see the module
/// documentation).
#[derive(Debug)]
pub(crate) struct PairArcs {
    n: usize,
    /// The cells some relation holds.
    cells: Vec<usize>,
    relations: Vec<Relation>,
    /// For each cell of `cells`, the relations on it.
    on: Vec<Vec<usize>>,
}

impl PairArcs {
    /// How a search that runs the arcs branches: the default
    /// (`search/strategy.rs`), every item of the move blamed, no lead: the
    /// cells first cost HARD_THERMOS 15,694 → 28,884 guesses
    /// ([`SumBounds::strategy`](super::sum_bounds::SumBounds::strategy)).
    pub(crate) fn strategy(&self) -> Strategy {
        Strategy::new()
    }

    /// The propagator for `pairs` (cells `a`, `b` and, for each digit
    /// `x + 1` of `a`, the digits of `b` allowed with it) on a grid of side
    /// `n`, where `sees(a, b)` says two cells never hold the same digit;
    /// `None` when no relation can cut (see the module documentation).
    pub(crate) fn new(
        n: usize,
        pairs: &[(usize, usize, Vec<u64>)],
        sees: impl Fn(usize, usize) -> bool,
    ) -> Option<PairArcs> {
        if n == 0 || n > 64 {
            return None;
        }
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // One table per pair of cells, the lower first; relations on the
        // same pair are intersected.
        let mut merged: HashMap<(usize, usize), Vec<u64>> = HashMap::new();
        for (a, b, allowed) in pairs {
            let (a, b) = (*a, *b);
            if a == b || allowed.len() != n {
                continue;
            }
            let distinct = sees(a, b);
            let mut table: Vec<u64> = (0..n)
                .map(|x| {
                    let same = if distinct { 1u64 << x } else { 0 };
                    allowed[x] & all & !same
                })
                .collect();
            let key = if a < b {
                (a, b)
            } else {
                table = transpose(&table, n);
                (b, a)
            };
            let entry = merged.entry(key).or_insert_with(|| vec![all; n]);
            for (e, t) in entry.iter_mut().zip(&table) {
                *e &= t;
            }
        }
        let mut keys: Vec<(usize, usize)> = merged.keys().copied().collect();
        keys.sort_unstable();
        let mut cells: Vec<usize> = Vec::new();
        let mut place: HashMap<usize, usize> = HashMap::new();
        let mut relations = Vec::new();
        for (a, b) in keys {
            let of_a = merged.remove(&(a, b)).unwrap_or_default();
            // No stronger than "different digits": nothing to cut that
            // the search does not place first.
            if (0..n).all(|x| of_a[x] | 1 << x == all) {
                continue;
            }
            let of_b = transpose(&of_a, n);
            let mut at = |k: usize| {
                *place.entry(k).or_insert_with(|| {
                    cells.push(k);
                    cells.len() - 1
                })
            };
            let (a, b) = (at(a), at(b));
            relations.push(Relation { a, b, of_a, of_b });
        }
        if relations.is_empty() {
            return None;
        }
        let mut on = vec![Vec::new(); cells.len()];
        for (r, rel) in relations.iter().enumerate() {
            on[rel.a].push(r);
            on[rel.b].push(r);
        }
        Some(PairArcs {
            n,
            cells,
            relations,
            on,
        })
    }

    /// The relations kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.relations.len()
    }
}

/// `table` read the other way: for each digit `y + 1`, the digits `x + 1`
/// whose row holds it.
fn transpose(table: &[u64], n: usize) -> Vec<u64> {
    let mut out = vec![0u64; n];
    for (x, &row) in table.iter().enumerate() {
        let mut bits = row;
        while bits != 0 {
            let y = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if y < n {
                out[y] |= 1 << x;
            }
        }
    }
    out
}

/// The digits of `mine` some digit of `theirs` goes with, by `table`.
fn supported(mine: u64, theirs: u64, table: &[u64]) -> u64 {
    let mut out = 0;
    let mut bits = mine;
    while bits != 0 {
        let x = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if table.get(x).is_some_and(|&t| t & theirs != 0) {
            out |= 1 << x;
        }
    }
    out
}

impl Propagator for PairArcs {
    fn propagate(&self, live: &mut dyn Live) -> bool {
        let n = self.n;
        // Each cell's candidates, and whether it is open (its options are
        // its item's; a placed cell's one digit cannot be hidden).
        let mut masks: Vec<u64> = Vec::with_capacity(self.cells.len());
        let mut open: Vec<bool> = Vec::with_capacity(self.cells.len());
        for &k in &self.cells {
            let options = live.options(k);
            if options != 0 {
                masks.push(options);
                open.push(true);
            } else {
                let placed = live.chosen(k).map_or(0, |o| 1u64 << (o.as_usize() % n));
                if placed == 0 {
                    return false;
                }
                masks.push(placed);
                open.push(false);
            }
        }
        let mut queued = vec![true; self.relations.len()];
        let mut queue: Vec<usize> = (0..self.relations.len()).rev().collect();
        while let Some(r) = queue.pop() {
            queued[r] = false;
            let rel = &self.relations[r];
            let (ca, cb) = (masks[rel.a], masks[rel.b]);
            let a = supported(ca, cb, &rel.of_a);
            let b = supported(cb, a, &rel.of_b);
            if a == 0 || b == 0 {
                return false;
            }
            for (cell, before, after) in [(rel.a, ca, a), (rel.b, cb, b)] {
                if before == after {
                    continue;
                }
                if !open[cell] {
                    // A placed digit no candidate goes with.
                    return false;
                }
                live.hide(self.cells[cell], before & !after);
                masks[cell] = after;
                for &s in &self.on[cell] {
                    if s != r && !queued[s] {
                        queued[s] = true;
                        queue.push(s);
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::constraints::tests::Cells;

    fn less(n: usize) -> Vec<u64> {
        // Digit x + 1 of a goes with the digits of b above it.
        (0..n)
            .map(|x| ((1u64 << n) - 1) & !((2u64 << x) - 1))
            .collect()
    }

    #[test]
    fn a_thermometer_is_made_arc_consistent_along_its_length() {
        let n = 4;
        // Cells 0 < 1 < 2, none seeing another (the test's `sees`).
        let pairs = vec![(0, 1, less(n)), (1, 2, less(n))];
        let p = PairArcs::new(n, &pairs, |_, _| false).unwrap();
        let mut live = Cells::of(n, 3);
        assert!(p.propagate(&mut live));
        assert_eq!(live.masks, vec![0b0011, 0b0110, 0b1100]);
        // The bulb placed at 2: the rest follow.
        live.masks = vec![0, 0b1111, 0b1111];
        live.placed[0] = Some(1);
        assert!(p.propagate(&mut live));
        assert_eq!(live.masks[1..], [0b0100, 0b1000]);
        // The bulb placed at 3: no room.
        live.masks = vec![0, 0b1111, 0b1111];
        live.placed[0] = Some(2);
        assert!(!p.propagate(&mut live));
    }

    #[test]
    fn different_digits_alone_are_left_to_the_search() {
        let n = 4;
        let differ: Vec<u64> = (0..n).map(|x| 0b1111 & !(1 << x)).collect();
        assert!(PairArcs::new(n, &[(0, 1, differ.clone())], |_, _| false).is_none());
        // Equal digits across cells that see each other: none at all.
        let equal: Vec<u64> = (0..n).map(|x| 1 << x).collect();
        let p = PairArcs::new(n, &[(0, 1, equal), (1, 0, differ)], |_, _| false).unwrap();
        assert_eq!(p.len(), 1);
        let mut live = Cells::of(n, 2);
        assert!(!p.propagate(&mut live));
    }

    #[test]
    fn what_goes_is_in_no_solution_of_the_relations() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let n = 4;
        for _ in 0..300 {
            let cells = 4;
            let mut pairs = Vec::new();
            for _ in 0..rng.gen_range(1..5) {
                let a = rng.gen_range(0..cells);
                let b = rng.gen_range(0..cells);
                let table: Vec<u64> = (0..n).map(|_| rng.gen_range(0..16u64)).collect();
                pairs.push((a, b, table));
            }
            let Some(p) = PairArcs::new(n, &pairs, |_, _| false) else {
                continue;
            };
            let mut live = Cells::of(n, cells);
            live.masks = (0..cells).map(|_| rng.gen_range(1..16u64)).collect();
            let before = live.masks.clone();
            // Brute force: the digits each cell takes in some assignment
            // of the candidates that every relation allows.
            let mut seen = vec![0u64; cells];
            for code in 0..n.pow(cells as u32) {
                let digits: Vec<usize> = (0..cells).map(|i| code / n.pow(i as u32) % n).collect();
                let fits = (0..cells).all(|i| before[i] >> digits[i] & 1 == 1)
                    && pairs
                        .iter()
                        .all(|(a, b, t)| a == b || t[digits[*a]] >> digits[*b] & 1 == 1);
                if fits {
                    for i in 0..cells {
                        seen[i] |= 1 << digits[i];
                    }
                }
            }
            let alive = p.propagate(&mut live);
            if seen.iter().all(|&s| s != 0) {
                assert!(alive, "{pairs:?} {before:?}");
            }
            if alive {
                for i in 0..cells {
                    // Never a digit of a solution lost.
                    assert_eq!(live.masks[i] & seen[i], seen[i], "{pairs:?} {before:?}");
                    assert_eq!(live.masks[i] & !before[i], 0);
                }
            }
        }
    }
}
