//! A puzzle generator: reproducible from a seed, any supported size, every
//! puzzle with exactly one solution.
//!
//! 1. A solved grid: the canonical pattern `(b·(r mod b) + r div b + c) mod n`
//!    under random symmetries that keep it valid — digits relabelled, rows
//!    permuted within bands and bands permuted, the same for columns, and a
//!    transposition.
//! 2. Cells are emptied in random order; an emptied cell is put back when the
//!    puzzle would no longer be unique (DLX counts to 2). A node budget bounds
//!    each check: a check that runs out keeps the cell, so generation never
//!    stalls on large grids and every puzzle stays provably unique.
//!
//! The puzzles are *minimal* only when every check finished (always for 9×9).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

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

    /// Whether `puzzle` has exactly one solution: `Some(true)`/`Some(false)`,
    /// or `None` when the check ran out of its node budget.
    fn unique(&mut self, puzzle: &Grid) -> Option<bool> {
        self.solver.reset();
        let n = puzzle.side();
        for (k, &d) in puzzle.cells().iter().enumerate() {
            if d != 0
                && self
                    .solver
                    .preselect(self.cover.option(k / n, k % n, d))
                    .is_err()
            {
                return Some(false);
            }
        }
        self.solver.set_budget(Budget {
            nodes: Some(self.node_budget),
            updates: None,
        });
        let mut found = 0;
        loop {
            match self.solver.next_solution() {
                Step::Solution => {
                    found += 1;
                    if found == 2 {
                        return Some(false);
                    }
                }
                Step::Exhausted => return Some(found == 1),
                Step::Budget => return None,
            }
        }
    }

    /// A puzzle with exactly one solution.
    pub fn puzzle(&mut self) -> Grid {
        let solved = self.solved_grid();
        let mut puzzle = solved.clone();
        let n = puzzle.side();
        let mut cells: Vec<usize> = (0..n * n).collect();
        cells.shuffle(&mut self.rng);
        for k in cells {
            let (r, c) = (k / n, k % n);
            let d = puzzle.get(r, c);
            puzzle.set(r, c, 0);
            if self.unique(&puzzle) != Some(true) {
                puzzle.set(r, c, d);
            }
        }
        puzzle
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
