//! True candidates: for each cell, the digits it takes in at least one
//! solution of the puzzle (what setters call the puzzle's *true
//! candidates*; a unique puzzle has one per cell).
//!
//! No search of its own: each question is a puzzle for [`Sudoku::solve`]
//! with one more given, counted to one solution. A solution found answers
//! for every cell at once (each of its digits is a candidate), so only the
//! digits no solution has shown yet are asked about; each question either
//! finds a solution (new digits vouched for) or proves a digit absent.
//!
//! Invariants: a digit is *found* only when a solution holding it was
//! seen, *absent* only when a complete search with it given found none; a
//! cell is decided when each of its digits is one or the other. A deadline
//! or cancel that stops a question leaves the digits not yet decided
//! unknown (`complete` false), never absent.

use super::{Limits, Puzzle, SolveError, Status, Sudoku};

/// The true candidates of a puzzle ([`candidates`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    side: usize,
    /// Per cell, bit `d − 1`: digit `d` is in some solution.
    found: Vec<u64>,
    /// Per cell, bit `d − 1`: digit `d` is decided (found, or in none).
    decided: Vec<u64>,
    /// Solutions seen (each question's, the first one's included).
    solutions: u64,
}

impl Candidates {
    /// The grid's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The digits of `cell` (row-major) found in some solution, ascending.
    /// With [`complete`](Self::complete), exactly the cell's candidates.
    pub fn digits(&self, cell: usize) -> Vec<u8> {
        let bits = self.found.get(cell).copied().unwrap_or(0);
        (1..=self.side as u8)
            .filter(|&d| bits >> (d - 1) & 1 == 1)
            .collect()
    }

    /// Whether every digit of `cell` is decided: its digits are then its
    /// candidates.
    pub fn is_decided(&self, cell: usize) -> bool {
        self.decided.get(cell) == Some(&full(self.side))
    }

    /// Whether every cell is decided (no limit stopped a question).
    pub fn complete(&self) -> bool {
        self.decided.iter().all(|&d| d == full(self.side))
    }

    /// Whether the puzzle has a solution (one was seen).
    pub fn solvable(&self) -> bool {
        self.solutions > 0
    }

    /// The solutions the questions found (one per question that had one):
    /// how much searching the answer took, not a count of the puzzle's.
    pub fn searches_with_solution(&self) -> u64 {
        self.solutions
    }
}

/// Every digit `1..=side` as bits.
fn full(side: usize) -> u64 {
    if side >= 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    }
}

/// The true candidates of `puzzle`, found by `sudoku` (its settings and
/// threads) within the deadline and cancel handle of `limits` (its count
/// is not used: each question counts to one). A limit that stops a
/// question ends the work: the cells decided by then are exact, the rest
/// unknown ([`Candidates::complete`] false).
///
/// ```
/// use dlx::sudoku::{candidates, Limits, Puzzle, Sudoku};
///
/// // A 4×4 puzzle with two solutions: they differ in four cells.
/// let p: Puzzle = "12..34..........".parse().unwrap();
/// let c = candidates(&mut Sudoku::default(), &p, &Limits::count_to(1)).unwrap();
/// assert!(c.complete());
/// assert_eq!(c.digits(0), [1]);
/// assert_eq!(c.digits(2), [3, 4]);
/// ```
pub fn candidates(
    sudoku: &mut Sudoku,
    puzzle: &Puzzle,
    limits: &Limits,
) -> Result<Candidates, SolveError> {
    let side = puzzle.side();
    let cells = side * side;
    let mut out = Candidates {
        side,
        found: vec![0; cells],
        decided: vec![0; cells],
        solutions: 0,
    };
    let one = Limits {
        solutions: 1,
        ..limits.clone()
    };
    let mut givens = puzzle.givens().to_vec();
    // The puzzle itself first: no solution decides every cell.
    let solved = sudoku.solve(puzzle, &one)?;
    match solved.answer.status() {
        Status::Timeout | Status::Cancelled => return Ok(out),
        _ => {}
    }
    let Some(first) = solved.solution else {
        out.decided.fill(full(side));
        return Ok(out);
    };
    out.vouch(&first);
    for cell in 0..cells {
        if givens[cell] != 0 {
            // A given is its cell's only digit (the solution holds it).
            out.decided[cell] = full(side);
            continue;
        }
        for d in 1..=side as u8 {
            let bit = 1u64 << (d - 1);
            if out.decided[cell] & bit != 0 {
                continue;
            }
            givens[cell] = d;
            let asked = Puzzle::new(puzzle.shared_rules().clone(), givens.clone());
            givens[cell] = 0;
            // A digit the rules refuse for the cell is in no solution.
            let Ok(asked) = asked else {
                out.decided[cell] |= bit;
                continue;
            };
            let solved = sudoku.solve(&asked, &one)?;
            match (solved.answer.status(), solved.solution) {
                (Status::Timeout | Status::Cancelled, _) => return Ok(out),
                (_, Some(solution)) => out.vouch(&solution),
                (_, None) => out.decided[cell] |= bit,
            }
        }
    }
    Ok(out)
}

impl Candidates {
    /// Marks every digit of `solution` found (and so decided).
    fn vouch(&mut self, solution: &[u8]) {
        self.solutions += 1;
        for (cell, &d) in solution.iter().enumerate() {
            if let Some(bit) = (d as u32).checked_sub(1).and_then(|b| 1u64.checked_shl(b)) {
                self.found[cell] |= bit;
                self.decided[cell] |= bit;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::rules::Rules;
    use rand::{Rng, SeedableRng};

    /// Every solution of a classic 4×4 puzzle, by brute force: each empty
    /// cell takes each digit no cell of its row, column or box holds yet;
    /// each full grid is checked by `rules::check`.
    fn all_solutions(p: &Puzzle) -> Vec<Vec<u8>> {
        fn sees(a: usize, b: usize) -> bool {
            let (ra, ca, rb, cb) = (a / 4, a % 4, b / 4, b % 4);
            ra == rb || ca == cb || (ra / 2 == rb / 2 && ca / 2 == cb / 2)
        }
        fn fill(p: &Puzzle, grid: &mut Vec<u8>, cell: usize, out: &mut Vec<Vec<u8>>) {
            if cell == grid.len() {
                if crate::sudoku::rules::check(p.rules(), p.givens(), grid).is_ok() {
                    out.push(grid.clone());
                }
                return;
            }
            if p.givens()[cell] != 0 {
                return fill(p, grid, cell + 1, out);
            }
            for d in 1..=4 {
                if (0..16).any(|o| o != cell && grid[o] == d && sees(o, cell)) {
                    continue;
                }
                grid[cell] = d;
                fill(p, grid, cell + 1, out);
            }
            grid[cell] = 0;
        }
        let mut out = Vec::new();
        fill(p, &mut p.givens().to_vec(), 0, &mut out);
        out
    }

    #[test]
    fn candidates_are_the_union_of_all_solutions() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut sudoku = Sudoku::default();
        let rules = std::sync::Arc::new(Rules::boxes(2, 2).unwrap());
        let (mut none, mut several) = (0, 0);
        for _ in 0..60 {
            let mut givens = vec![0u8; 16];
            for _ in 0..rng.gen_range(2..7) {
                givens[rng.gen_range(0..16)] = rng.gen_range(1..=4);
            }
            let Ok(p) = Puzzle::new(rules.clone(), givens) else {
                continue;
            };
            let all = all_solutions(&p);
            let c = candidates(&mut sudoku, &p, &Limits::count_to(2)).unwrap();
            assert!(c.complete());
            assert_eq!(c.solvable(), !all.is_empty());
            for cell in 0..16 {
                let mut want: Vec<u8> = all.iter().map(|s| s[cell]).collect();
                want.sort();
                want.dedup();
                assert_eq!(c.digits(cell), want, "cell {cell} of {p}");
            }
            none += usize::from(all.is_empty());
            several += usize::from(all.len() > 1);
        }
        assert!(none > 0 && several > 0, "{none} {several}");
    }

    #[test]
    fn a_cancelled_search_leaves_cells_unknown() {
        let p: Puzzle = ".".repeat(81).parse().unwrap();
        let cancel = crate::dlx::Cancel::new();
        cancel.cancel();
        let c = candidates(
            &mut Sudoku::default(),
            &p,
            &Limits::count_to(1).cancel(&cancel),
        )
        .unwrap();
        assert!(!c.complete());
        assert!(!c.is_decided(0));
        assert!(c.digits(0).is_empty());
        // Without the limit: every digit everywhere.
        let c = candidates(&mut Sudoku::default(), &p, &Limits::count_to(1)).unwrap();
        assert!(c.complete());
        assert_eq!(c.digits(40), (1..=9).collect::<Vec<u8>>());
    }
}
