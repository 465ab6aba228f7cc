//! Set groups: the Sudoku layer's [`Propagator`] for cells of distinct
//! digits whose digits must be one of a list of sets — a renban's runs of
//! consecutive digits — kept at every node where nothing is forced.
//!
//! The matrix says such a group with [`Encoder::digit_sets`]: a primary
//! item a digit, and one option a set covering the digits the set lacks.
//! That is exact, but it only *forward checks*: a set's option stays
//! active while its digits have left the cells, until the search branches
//! on it, and a digit every set still possible holds is not placed where
//! one cell alone can take it. Here, at a node, a set is *alive* when it
//! holds every placed digit of the group, its other digits lie within
//! the open cells' candidates and it meets each open cell; an open cell
//! keeps only digits of live sets that no cell has taken, and a digit
//! every live set holds goes
//! into the one open cell that can take it (a hidden single of the group:
//! what the Interactive Sudoku Solver's pairwise handler does for renban
//! lines with `enableHiddenSingles`); where several open cells can take
//! it, one of them holds it, so it leaves every cell outside the group
//! that sees all of those — a cell of their row, column or region, or
//! one a pair relation keeps from holding the same digit (anti-king, a
//! thermometer, …) — as ISS's required-value exclusions do. No live set
//! is a dead end. On ISS's HARD_RENBAN that last cut takes the search
//! from 372,986 guesses to 244,508 (BENCHMARKS.md, "Renban digits
//! required").
//!
//! How the search branches where set groups are watched
//! ([`SetGroups::strategy`]): two ways (a failed cell digit leaves the
//! node, which chooses anew where to branch), the cells' conflict scores
//! starting at 3n, the Interactive Sudoku Solver's priority for a cell of
//! three houses, so that the first dead ends
//! move the search off the cells only where they pile up. On ISS's
//! HARD_RENBAN: 1.97 s one way, 1.08 s both (ISS 1.63 s); two ways with
//! the cells at one, about 1.4 s; the cells at 27 one way, about 2.1 s:
//! the two together, not either alone (BENCHMARKS.md, "Two-way
//! branching"). Killers, thermometers and little killers (no set groups)
//! keep one way, where two ways was 1.1–1.2× the time.
//!
//! Summed cages keep their sets in the sum bounds
//! ([`SumBounds`](super::sum_bounds::SumBounds)), which do this and
//! more; only the groups they do not watch come here.
//!
//! Invariant: a digit goes only when no set the group can still take
//! holds it, when the one digit the cell must take is another, or when
//! the cell sees every cell of the group that can hold a digit the group
//! must — each true of every solution extending the node — so the propagator is
//! redundant, as the [`Propagator`] contract asks. It keeps nothing in
//! [`Live::state`] (it asks for no words).
//!
//! [`Encoder::digit_sets`]: super::Encoder::digit_sets

use crate::dlx::{Live, Propagator, Strategy};

/// One group: its cells and the digit sets it may hold (bit `d` = digit
/// `d + 1`), each of as many digits as cells.
#[derive(Debug)]
struct Group {
    cells: Vec<usize>,
    sets: Vec<u64>,
}

/// The set groups of a rule set, watched at every node.
#[derive(Debug)]
pub(crate) struct SetGroups {
    /// Digits a cell: the cell's `k`-th option is digit `k + 1`.
    n: usize,
    groups: Vec<Group>,
    /// Each cell's peers (the cells that see it, not itself), one bit a
    /// cell, `words` words a cell.
    peers: Vec<u64>,
    words: usize,
}

/// The most words of a cell's peers (a side of at most 64: 4,096 cells).
const MOST_WORDS: usize = 64;

impl SetGroups {
    /// How a search that runs these groups branches: on the cells (a
    /// Sudoku matrix's first n² items) first, as the sum bounds do
    /// ([`SumBounds::strategy`](super::sum_bounds::SumBounds::strategy)),
    /// starting at 3n, the Interactive Sudoku Solver's priority for a cell
    /// of three houses (n each): a prior that holds the search on the
    /// cells through the first dozens of dead ends, where one point would
    /// give way to the first; two ways (`search/strategy.rs`). With the
    /// start scores, ISS's HARD_RENBAN in 0.55× the time (BENCHMARKS.md,
    /// "Two-way branching").
    pub(crate) fn strategy(&self) -> Strategy {
        Strategy::new()
            .lead(self.n * self.n, 3 * self.n as u32)
            .two_way(true)
    }

    /// The groups of `n`-digit cells `groups` (each its cells and sets);
    /// `None` when none can cut (a group of one cell, or of every set).
    /// `regions`: each cell's region; `differ`: pairs of cells beyond the
    /// houses that never hold the same digit.
    pub(crate) fn new(
        n: usize,
        groups: &[(Vec<usize>, Vec<u64>)],
        regions: &[usize],
        differ: &[(usize, usize)],
    ) -> Option<SetGroups> {
        let groups: Vec<Group> = groups
            .iter()
            .filter(|(cells, sets)| cells.len() > 1 && !sets.is_empty())
            .map(|(cells, sets)| Group {
                cells: cells.clone(),
                sets: sets.clone(),
            })
            .collect();
        if groups.is_empty() {
            return None;
        }
        let cells = n * n;
        let words = cells.div_ceil(64).min(MOST_WORDS);
        let mut peers = vec![0u64; cells * words];
        let mut see = |a: usize, b: usize| {
            if a != b && a < cells && b < words * 64 {
                peers[a * words + b / 64] |= 1 << (b % 64);
            }
        };
        let mut by_region: Vec<Vec<usize>> = Vec::new();
        for (k, &r) in regions.iter().enumerate().take(cells) {
            if by_region.len() <= r {
                by_region.resize(r + 1, Vec::new());
            }
            by_region[r].push(k);
        }
        for a in 0..cells {
            let (r, c) = (a / n, a % n);
            for x in 0..n {
                see(a, r * n + x);
                see(a, x * n + c);
            }
            for &b in regions
                .get(a)
                .and_then(|&g| by_region.get(g))
                .into_iter()
                .flatten()
            {
                see(a, b);
            }
        }
        for &(a, b) in differ {
            see(a, b);
            see(b, a);
        }
        Some(SetGroups {
            n,
            groups,
            peers,
            words,
        })
    }

    /// One group at a node: false at a dead end.
    fn watch(&self, g: &Group, live: &mut dyn Live) -> bool {
        let n = self.n;
        let mut masks = [0u64; 64];
        let (mut placed, mut union) = (0u64, 0u64);
        let cells = &g.cells[..g.cells.len().min(64)];
        for (x, &k) in cells.iter().enumerate() {
            let options = live.options(k);
            if options != 0 {
                masks[x] = options;
                union |= options;
            } else {
                let Some(o) = live.chosen(k) else {
                    return false;
                };
                let d = 1u64 << (o.as_usize() % n);
                if placed & d != 0 {
                    return false;
                }
                placed |= d;
            }
        }
        let (mut keep, mut must) = (0u64, u64::MAX);
        for &set in &g.sets {
            let alive = set & placed == placed
                && set & !placed & !union == 0
                && masks[..cells.len()].iter().all(|&m| m == 0 || m & set != 0);
            if alive {
                keep |= set;
                must &= set;
            }
        }
        if keep == 0 {
            return false;
        }
        // An open cell keeps the live sets' digits no cell has taken.
        must &= !placed;
        keep &= !placed;
        for (x, &k) in cells.iter().enumerate() {
            let m = masks[x];
            if m != 0 && m & !keep != 0 {
                if m & keep == 0 {
                    return false;
                }
                live.hide(k, m & !keep);
                masks[x] = m & keep;
            }
        }
        // A digit every live set holds, in the one open cell that can
        // take it; where several can, in none outside that sees them all.
        let mut left = must;
        while left != 0 {
            let d = left & left.wrapping_neg();
            left &= left - 1;
            let mut holders = cells.iter().zip(&masks).filter(|(_, &m)| m & d != 0);
            let Some((&k, &m)) = holders.next() else {
                return false;
            };
            if holders.next().is_none() {
                if m != d {
                    live.hide(k, m & !d);
                    if let Some(x) = cells.iter().position(|&c| c == k) {
                        masks[x] = d;
                    }
                }
            } else {
                self.far_cut(cells, &masks, d, live);
            }
        }
        true
    }

    /// Digit `d`, which the group must hold and two or more of its open
    /// cells (`masks`) can take, leaves every cell that sees all of those
    /// (ISS's required-value exclusions): one of them holds it.
    fn far_cut(&self, cells: &[usize], masks: &[u64; 64], d: u64, live: &mut dyn Live) {
        let w = self.words;
        let mut seen = [u64::MAX; MOST_WORDS];
        for (&k, &m) in cells.iter().zip(masks) {
            if m & d != 0 {
                let peers = &self.peers[k * w..(k + 1) * w];
                for (s, p) in seen.iter_mut().zip(peers) {
                    *s &= p;
                }
            }
        }
        for (x, &word) in seen[..w].iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let k = x * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                // Open cells only (a placed cell has no options); the
                // holders see not themselves.
                if live.options(k) & d != 0 {
                    live.hide(k, d);
                }
            }
        }
    }
}

/// The pair relations a group's sets imply, for the pair arcs: two of its
/// cells hold digits `d` and `e` only where some set holds both (two cells
/// of a 3-cell renban differ by 1 or 2). Per pair of cells `(a, b, table)`:
/// `table[d]`, the digits `b` may hold beside digit `d + 1` in `a`.
pub(crate) fn implied_pairs(
    n: usize,
    groups: &[(Vec<usize>, Vec<u64>)],
) -> Vec<(usize, usize, Vec<u64>)> {
    let mut pairs = Vec::new();
    for (cells, sets) in groups {
        // The same table for every pair of the group's cells.
        let table: Vec<u64> = (0..n)
            .map(|d| {
                let with = sets.iter().filter(|&&s| s >> d & 1 == 1);
                with.fold(0u64, |m, &s| m | s) & !(1u64 << d)
            })
            .collect();
        for (x, &a) in cells.iter().enumerate() {
            for &b in &cells[x + 1..] {
                pairs.push((a, b, table.clone()));
            }
        }
    }
    pairs
}

impl Propagator for SetGroups {
    fn propagate(&self, live: &mut dyn Live) -> bool {
        self.groups.iter().all(|g| self.watch(g, live))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::constraints::tests::Cells;
    use rand::{Rng, SeedableRng};

    fn runs(n: usize, m: usize) -> Vec<u64> {
        (0..=n - m).map(|s| ((1u64 << m) - 1) << s).collect()
    }

    #[test]
    fn a_renban_keeps_its_live_runs_and_places_what_they_all_need() {
        let n = 9;
        let p = SetGroups::new(n, &[(vec![0, 1, 2], runs(9, 3))], &[], &[]).unwrap();
        let mut live = Cells::of(n, 3);
        // 5 placed: runs 3–5, 4–6, 5–7 alive; the others keep 3, 4, 6, 7.
        live.masks[0] = 0;
        live.placed[0] = Some(4);
        assert!(p.propagate(&mut live));
        assert_eq!(live.masks[1..], [0b110_1100, 0b110_1100]);
        // Cell 1 holds 5–7, cell 2 3–4: 5–7 misses cell 2, so 3–6 is
        // what is left; 4 is in both live runs and only cell 2 takes it,
        // and cell 1 cannot repeat the 5.
        live.masks[1] = 0b111_0000;
        live.masks[2] = 0b000_1100;
        assert!(p.propagate(&mut live));
        assert_eq!(live.masks[1..], [0b010_0000, 0b000_1000]);
        // Two placed digits no run holds: dead.
        let mut live = Cells::of(n, 3);
        (live.masks[0], live.masks[1]) = (0, 0);
        (live.placed[0], live.placed[1]) = (Some(0), Some(8));
        assert!(!p.propagate(&mut live));
        assert!(SetGroups::new(n, &[(vec![4], runs(9, 1))], &[], &[]).is_none());
    }

    #[test]
    fn what_goes_is_in_no_solution_of_the_group() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let n = 6;
        for _ in 0..500 {
            let m = rng.gen_range(2..=4);
            let sets: Vec<u64> = if rng.gen_bool(0.5) {
                runs(n, m)
            } else {
                (0..rng.gen_range(1..5))
                    .map(|_| {
                        let mut s = 0u64;
                        while (s.count_ones() as usize) < m {
                            s |= 1 << rng.gen_range(0..n);
                        }
                        s
                    })
                    .collect()
            };
            let p = SetGroups::new(n, &[((0..m).collect(), sets.clone())], &[], &[]).unwrap();
            let mut live = Cells::of(n, m);
            for x in 0..m {
                if rng.gen_bool(0.25) {
                    live.masks[x] = 0;
                    live.placed[x] = Some(rng.gen_range(0..n));
                } else {
                    live.masks[x] = rng.gen_range(1..1u64 << n);
                }
            }
            let before = live.masks.clone();
            // Brute force: every assignment of distinct digits from the
            // candidates whose digits are one of the sets.
            let mut seen = vec![0u64; m];
            for code in 0..n.pow(m as u32) {
                let digits: Vec<usize> = (0..m).map(|x| code / n.pow(x as u32) % n).collect();
                let fits = (0..m).all(|x| match live.placed[x] {
                    Some(d) => digits[x] == d,
                    None => before[x] >> digits[x] & 1 == 1,
                });
                let set = digits.iter().fold(0u64, |s, &d| s | 1 << d);
                if fits && set.count_ones() as usize == m && sets.contains(&set) {
                    for x in 0..m {
                        seen[x] |= 1 << digits[x];
                    }
                }
            }
            let alive = p.propagate(&mut live);
            if seen.iter().all(|&s| s != 0) {
                assert!(alive, "{sets:?} {before:?} {:?}", live.placed);
            }
            if alive {
                for x in 0..m {
                    if live.placed[x].is_none() {
                        assert_eq!(live.masks[x] & seen[x], seen[x], "{sets:?} {before:?}");
                        assert_eq!(live.masks[x] & !before[x], 0);
                    }
                }
            }
        }
    }

    /// A digit the group must hold leaves a cell outside it only where
    /// every way to fill the group with its candidates puts that digit in a
    /// cell the outside one sees (a house, or a pair that differs): brute
    /// force over the group on 6×6 grids, with 2×3 boxes and anti-king
    /// pairs. Without the far cut's `seen` intersection (any holder's
    /// peers) it fails.
    #[test]
    fn a_cell_outside_loses_only_a_digit_the_group_puts_where_it_sees() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        let n = 6;
        let regions: Vec<usize> = (0..36).map(|k| k / 12 * 2 + k % 6 / 3).collect();
        let king: Vec<(usize, usize)> = (0..30)
            .flat_map(|k| [(k, k + 5), (k, k + 7)])
            .filter(|&(a, b)| (a % 6 != 0 || b != a + 5) && (a % 6 != 5 || b != a + 7))
            .collect();
        let (mut far, mut cases) = (0, 0);
        while cases < 400 {
            let m = rng.gen_range(2..=4);
            let mut cells: Vec<usize> = Vec::new();
            while cells.len() < m {
                let k = rng.gen_range(0..36);
                if !cells.contains(&k) {
                    cells.push(k);
                }
            }
            let differ = if rng.gen_bool(0.5) {
                king.clone()
            } else {
                Vec::new()
            };
            let sees = |a: usize, b: usize| {
                a != b
                    && (a / n == b / n
                        || a % n == b % n
                        || regions[a] == regions[b]
                        || differ.contains(&(a, b))
                        || differ.contains(&(b, a)))
            };
            let p = SetGroups::new(n, &[(cells.clone(), runs(n, m))], &regions, &differ).unwrap();
            let mut live = Cells::new(n);
            for k in 0..36 {
                live.masks[k] = rng.gen_range(1..1u64 << n) | rng.gen_range(1..1u64 << n);
            }
            let before = live.masks.clone();
            if !p.propagate(&mut live) {
                continue;
            }
            cases += 1;
            // Every filling of the group: distinct digits of its
            // candidates, one run, the cells that see each other apart.
            let mut fillings: Vec<Vec<usize>> = Vec::new();
            for code in 0..n.pow(m as u32) {
                let digits: Vec<usize> = (0..m).map(|x| code / n.pow(x as u32) % n).collect();
                let set = digits.iter().fold(0u64, |s, &d| s | 1 << d);
                let fits = (0..m).all(|x| before[cells[x]] >> digits[x] & 1 == 1);
                if fits && set.count_ones() as usize == m && runs(n, m).contains(&set) {
                    fillings.push(digits);
                }
            }
            for k in (0..36).filter(|k| !cells.contains(k)) {
                let gone = before[k] & !live.masks[k];
                for d in (0..n).filter(|&d| gone >> d & 1 == 1) {
                    far += 1;
                    // Some filling leaves digit d to cell k: wrong.
                    let free = fillings
                        .iter()
                        .any(|f| (0..m).all(|x| f[x] != d || !sees(cells[x], k)));
                    assert!(!free, "{cells:?} cell {k} digit {d} {before:?}");
                }
            }
        }
        assert!(far > 50, "the far cut was met {far} times");
    }
}
