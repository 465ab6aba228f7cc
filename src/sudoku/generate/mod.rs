//! Puzzle generators: reproducible from a seed, every puzzle with exactly
//! one solution. This module makes classic puzzles of any supported size;
//! [`variant`] makes variants (jigsaw, X, windoku, anti-king, anti-knight,
//! non-consecutive, killer) over [`Rules`](super::rules::Rules); both empty
//! cells the same way ([`remove_clues`]), one cell or one orbit of a
//! [`Symmetry`] at a time.
//!
//! 1. A solved grid: the canonical pattern `(b·(r mod b) + r div b + c) mod n`
//!    under random symmetries that keep it valid — digits relabelled, rows
//!    permuted within bands and bands permuted, the same for columns, and a
//!    transposition.
//! 2. Cells are emptied in random order (whole orbits of the symmetry asked
//!    for); an emptied cell is put back when the puzzle would no longer be
//!    unique (DLX counts to 2). A node budget bounds each check: a check
//!    that runs out keeps the cell, so generation never stalls on large
//!    grids and every puzzle stays provably unique.
//!
//! The puzzles are *minimal* only when every check finished (always for 9×9).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

pub mod symmetry;
pub mod variant;

pub use symmetry::Symmetry;

use super::grid::Grid;
use super::{DlxSudoku, SudokuMatrix};
use crate::dlx::{Budget, Solver, Step};

/// Makes puzzles of one size from a seed.
pub struct Generator<'m> {
    cover: &'m SudokuMatrix,
    solver: Solver<'m>,
    rng: StdRng,
    /// Search nodes allowed for one uniqueness check.
    pub node_budget: u64,
    /// The symmetry the givens keep (default none).
    pub symmetry: Symmetry,
}

impl std::fmt::Debug for Generator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("solver", &self.solver)
            .field("node_budget", &self.node_budget)
            .field("symmetry", &self.symmetry)
            .finish_non_exhaustive()
    }
}

impl<'m> Generator<'m> {
    /// A generator over `cover`'s size, seeded.
    pub fn new(cover: &'m SudokuMatrix, seed: u64) -> Self {
        // Knuth's rule, fixed (`Solver::new`): with a node budget the rule
        // decides which checks finish, so tuning FirstForced would change
        // the puzzles a seed gives. Every engine the library takes for it
        // walks DLX1's tree, node for node.
        let solver = Solver::new(cover.matrix());
        Generator {
            cover,
            solver,
            rng: StdRng::seed_from_u64(seed),
            node_budget: 20_000,
            symmetry: Symmetry::None,
        }
    }

    /// A random solved grid.
    pub fn solved_grid(&mut self) -> Grid {
        let b = self.cover.box_side();
        let n = b * b;
        let rows = self.line_permutation(b);
        let cols = self.line_permutation(b);
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        digits.shuffle(&mut self.rng);
        let transpose = self.rng.gen_bool(0.5);
        let mut g = Grid::empty(b)
            .unwrap_or_else(|| unreachable!("the matrix exists, so the size is supported"));
        for (r, &pr) in rows.iter().enumerate() {
            for (c, &pc) in cols.iter().enumerate() {
                let v = (b * (pr % b) + pr / b + pc) % n;
                let (r2, c2) = if transpose { (c, r) } else { (r, c) };
                g.set(r2, c2, digits[v]);
            }
        }
        g
    }

    /// A permutation of 0..n that keeps bands: bands shuffled, lines within
    /// each band shuffled.
    fn line_permutation(&mut self, b: usize) -> Vec<usize> {
        let mut bands: Vec<usize> = (0..b).collect();
        bands.shuffle(&mut self.rng);
        let mut out = Vec::with_capacity(b * b);
        for band in bands {
            let mut lines: Vec<usize> = (0..b).map(|i| band * b + i).collect();
            lines.shuffle(&mut self.rng);
            out.extend(lines);
        }
        out
    }

    /// A puzzle with exactly one solution.
    pub fn puzzle(&mut self) -> Grid {
        let solved = self.solved_grid();
        let n = solved.side();
        let orbits = self.symmetry.orbits(n);
        let cover = self.cover.rules_matrix();
        let budget = self.node_budget;
        let solver = &mut self.solver;
        let cells = remove_clues(solved.cells(), &orbits, &mut self.rng, |cells| {
            solutions_within(solver, cover, cells, budget).map(|(found, _)| found == 1)
        });
        Grid::from_cells(cells).unwrap_or(solved)
    }
}

impl Generator<'_> {
    /// A puzzle whose Sudoku Explainer rating (ER, as
    /// [`explain`](crate::sudoku::explain::explain) gives it) lies within
    /// `rating`, with its explanation; `None` when `tries` puzzles in a
    /// row miss it (the generator makes mostly easy puzzles: ratings of 9
    /// and more are rare).
    pub fn puzzle_rated(
        &mut self,
        rating: std::ops::RangeInclusive<f32>,
        tries: usize,
    ) -> Option<(Grid, crate::sudoku::explain::Explanation)> {
        for _ in 0..tries {
            let grid = self.puzzle();
            let puzzle = crate::sudoku::Puzzle::classic(&grid);
            let Ok(e) = crate::sudoku::explain::explain(&puzzle) else {
                continue;
            };
            // SE prints its ratings to a tenth: compare as it shows them.
            let er = e.er.map(|r| (r * 10.0).round() / 10.0);
            if er.is_some_and(|r| rating.contains(&r)) {
                return Some((grid, e));
            }
        }
        None
    }
}

/// Empties the orbits of `solution` (row-major cells) in random order, each
/// put back when `unique` does not answer `Some(true)` for the grid without
/// it (`None`: the check ran out of its budget). With one cell an orbit and
/// a check that always finishes, the puzzle is minimal.
pub fn remove_clues(
    solution: &[u8],
    orbits: &[Vec<usize>],
    rng: &mut impl Rng,
    mut unique: impl FnMut(&[u8]) -> Option<bool>,
) -> Vec<u8> {
    let mut puzzle = solution.to_vec();
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    order.shuffle(rng);
    for o in order {
        let orbit = &orbits[o];
        for &k in orbit {
            puzzle[k] = 0;
        }
        if unique(&puzzle) != Some(true) {
            for &k in orbit {
                puzzle[k] = solution[k];
            }
        }
    }
    puzzle
}

/// The solutions of the puzzle `givens` (side of `cover`'s rules) up to two,
/// and the first, by `solver` (over `cover`'s matrix) within `budget`
/// nodes: `None` when the budget ran out first. Clashing givens have none.
pub(crate) fn solutions_within(
    solver: &mut Solver<'_>,
    cover: &super::rules::RulesMatrix,
    givens: &[u8],
    budget: u64,
) -> Option<(u64, Option<Vec<u8>>)> {
    solver.reset();
    for (k, &d) in givens.iter().enumerate() {
        if d != 0 && solver.preselect(cover.option(k, d)).is_err() {
            return Some((0, None));
        }
    }
    solver.set_budget(Budget {
        nodes: Some(budget),
        updates: None,
    });
    let mut found = 0;
    let mut first = None;
    loop {
        match solver.next_solution() {
            Step::Solution => {
                found += 1;
                if first.is_none() {
                    first = Some(cover.grid_of(solver.solution()));
                }
                if found == 2 {
                    return Some((found, first));
                }
            }
            Step::Exhausted => return Some((found, first)),
            Step::Budget => return None,
        }
    }
}

/// Checks that `puzzle` has exactly one solution with a full DLX search (no
/// budget): what the tests use to confirm generated puzzles.
pub fn is_unique(cover: &SudokuMatrix, puzzle: &Grid) -> bool {
    use super::{Limits, SudokuSolver};
    let mut s = DlxSudoku::new(cover);
    let mut solution = puzzle.clone();
    s.solve(puzzle, &Limits::count_to(2), &mut solution)
        .solutions
        == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::check_solution;

    #[test]
    fn solved_grids_are_valid_and_puzzles_unique() {
        for b in [2, 3, 4] {
            let cover = SudokuMatrix::new(b).unwrap();
            let mut g = Generator::new(&cover, 7);
            let solved = g.solved_grid();
            check_solution(&Grid::empty(b).unwrap(), &solved).unwrap();
            let puzzle = g.puzzle();
            assert!(puzzle.givens() < solved.cells().len());
            assert!(is_unique(&cover, &puzzle), "box side {b}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzles() {
        let cover = SudokuMatrix::new(3).unwrap();
        let a = Generator::new(&cover, 42).puzzle();
        let b = Generator::new(&cover, 42).puzzle();
        assert_eq!(a, b);
        assert_ne!(a, Generator::new(&cover, 43).puzzle());
    }
}
