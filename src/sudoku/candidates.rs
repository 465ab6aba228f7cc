//! True candidates: for each cell, the digits it takes in at least one
//! solution of the puzzle (what setters call the puzzle's *true
//! candidates*; a unique puzzle has one per cell).
//!
//! First, where the puzzle has few solutions, they are all enumerated by
//! one search (at most `ENUMERATED` solutions and `ENUMERATION_NODES`
//! nodes): the union of their digits is the answer, and each candidate's
//! count is exact — a puzzle of five solutions costs about its count.
//!
//! Otherwise each question is a puzzle for [`Sudoku::solve`]
//! with one more given, counted to one solution. A solution found answers
//! for every cell at once (each of its digits is a candidate), so only the
//! digits no solution has shown yet are asked about; each question either
//! finds a solution (new digits vouched for) or proves a digit absent.
//!
//! With a count cap K above 1, each candidate's solutions are then counted
//! up to K (the candidate given, a count to K), as rangsk's solver shows
//! them: a unique puzzle's are all 1 from one count of the puzzle, and a
//! given's count is the puzzle's.
//!
//! Invariants: a digit is *found* only when a solution holding it was
//! seen, *absent* only when a complete search with it given found none; a
//! cell is decided when each of its digits is one or the other, and a
//! count is known only from a search that ended or reached the cap. A
//! deadline or cancel that stops a question leaves what is not yet decided
//! unknown (`complete` false), never absent or counted.

use super::{Limits, Puzzle, SolveError, Status, Sudoku};

/// The most solutions the first search enumerates before it leaves the
/// puzzle to questions.
const ENUMERATED: u64 = 1_000;

/// The most nodes that search spends before it leaves the puzzle to
/// questions (tens of milliseconds on a 9×9).
const ENUMERATION_NODES: u64 = 200_000;

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
    /// The count cap (1: no counts beyond existence).
    cap: u64,
    /// Per cell and digit (`cell · side + d − 1`), its solutions up to
    /// the cap, where known (with a cap of 1: found or absent).
    counts: Vec<Option<u64>>,
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

    /// Whether every cell is decided and every count known (no limit
    /// stopped a question).
    pub fn complete(&self) -> bool {
        self.decided.iter().all(|&d| d == full(self.side))
            && self.counts.iter().all(Option::is_some)
    }

    /// The number of solutions with `digit` in `cell`, up to the cap
    /// (`limits.solutions` of [`candidates`]; with a cap of 1, whether
    /// there is one); `None` where a limit stopped the search first.
    pub fn count(&self, cell: usize, digit: u8) -> Option<u64> {
        let d = usize::from(digit)
            .checked_sub(1)
            .filter(|&d| d < self.side)?;
        *self.counts.get(cell * self.side + d)?
    }

    /// The count cap the counts were made with.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// Whether the puzzle has a solution (one was seen).
    pub fn solvable(&self) -> bool {
        self.solutions > 0
    }

    /// The solutions the questions found (one per question that had one),
    /// or every solution where they were enumerated: how much searching
    /// the answer took, not a count of the puzzle's.
    pub fn searches_with_solution(&self) -> u64 {
        self.solutions
    }
}

/// As JSON (serde): `candidates`, each cell's digits (row-major); `counts`,
/// beside each of those digits its count (`null` where unknown); `limit`,
/// the count cap; `complete`.
impl serde::Serialize for Candidates {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let digits: Vec<Vec<u8>> = (0..self.found.len()).map(|k| self.digits(k)).collect();
        let counts: Vec<Vec<Option<u64>>> = digits
            .iter()
            .enumerate()
            .map(|(k, ds)| ds.iter().map(|&d| self.count(k, d)).collect())
            .collect();
        let mut s = serializer.serialize_struct("Candidates", 4)?;
        s.serialize_field("candidates", &digits)?;
        s.serialize_field("counts", &counts)?;
        s.serialize_field("limit", &self.cap)?;
        s.serialize_field("complete", &self.complete())?;
        s.end()
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
/// threads) within the deadline and cancel handle of `limits`, and each
/// one's solutions counted up to `limits.solutions` (1 or 0: no counts
/// beyond existence). A limit that stops a question ends the work: what
/// was decided by then is exact, the rest unknown
/// ([`Candidates::complete`] false).
///
/// ```
/// use dlx::sudoku::{candidates, Limits, Puzzle, Sudoku};
///
/// // A 4×4 puzzle of 12 solutions: r1c3 is 3 in 6 of them, 4 in the others.
/// let p: Puzzle = "12..34..........".parse().unwrap();
/// let c = candidates(&mut Sudoku::default(), &p, &Limits::count_to(8)).unwrap();
/// assert!(c.complete());
/// assert_eq!(c.digits(0), [1]);
/// assert_eq!(c.digits(2), [3, 4]);
/// assert_eq!((c.count(2, 3), c.count(2, 1)), (Some(6), Some(0)));
/// assert_eq!(c.count(0, 1), Some(8)); // the given's: all 12, capped
/// ```
pub fn candidates(
    sudoku: &mut Sudoku,
    puzzle: &Puzzle,
    limits: &Limits,
) -> Result<Candidates, SolveError> {
    candidates_within(sudoku, puzzle, limits, (ENUMERATED, ENUMERATION_NODES))
}

/// [`candidates`], enumerating at most `bounds` (solutions, nodes) first.
fn candidates_within(
    sudoku: &mut Sudoku,
    puzzle: &Puzzle,
    limits: &Limits,
    bounds: (u64, u64),
) -> Result<Candidates, SolveError> {
    let side = puzzle.side();
    let cells = side * side;
    let cap = limits.solutions.max(1);
    let mut out = Candidates {
        side,
        found: vec![0; cells],
        decided: vec![0; cells],
        solutions: 0,
        cap,
        counts: vec![None; cells * side],
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
        out.counts.fill(Some(0));
        return Ok(out);
    };
    if let Some(all) = enumerated(sudoku, puzzle, limits, bounds) {
        // Every solution seen: each candidate's count is exact.
        let mut counts = vec![0u64; cells * side];
        for solution in &all {
            out.vouch(solution);
            for (cell, &d) in solution.iter().enumerate() {
                counts[cell * side + usize::from(d) - 1] += 1;
            }
        }
        out.decided.fill(full(side));
        for (k, c) in counts.into_iter().enumerate() {
            out.counts[k] = Some(c.min(cap));
        }
        return Ok(out);
    }
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
            let Some(asked) = with_given(puzzle, &mut givens, cell, d) else {
                // A digit the rules refuse for the cell is in no solution.
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
    // Every cell decided: the counts of digits in no solution are 0.
    for cell in 0..cells {
        for d in 0..side {
            if out.found[cell] >> d & 1 == 0 {
                out.counts[cell * side + d] = Some(0);
            }
        }
    }
    if cap == 1 {
        for cell in 0..cells {
            for d in 0..side {
                if out.found[cell] >> d & 1 == 1 {
                    out.counts[cell * side + d] = Some(1);
                }
            }
        }
        return Ok(out);
    }
    let upto = Limits {
        solutions: cap,
        ..limits.clone()
    };
    let whole = sudoku.solve(puzzle, &upto)?;
    let Some(total) = known(&whole.answer, cap) else {
        return Ok(out);
    };
    for cell in 0..cells {
        for d in 1..=side as u8 {
            let k = cell * side + usize::from(d) - 1;
            if out.counts[k].is_some() {
                continue;
            }
            // One solution in all, or the given's own cell: the puzzle's.
            if total == 1 || givens[cell] == d {
                out.counts[k] = Some(total);
                continue;
            }
            let Some(asked) = with_given(puzzle, &mut givens, cell, d) else {
                continue;
            };
            let solved = sudoku.solve(&asked, &upto)?;
            match known(&solved.answer, cap) {
                Some(n) => out.counts[k] = Some(n),
                None => return Ok(out),
            }
        }
    }
    Ok(out)
}

/// Every solution of `puzzle` when one search of at most `bounds.1`
/// nodes finds them all and they are at most `bounds.0` (each row-major,
/// every cell), searched by `sudoku`'s own solver; `None` otherwise.
fn enumerated(
    sudoku: &mut Sudoku,
    puzzle: &Puzzle,
    limits: &Limits,
    bounds: (u64, u64),
) -> Option<Vec<Vec<u8>>> {
    let mut all = Vec::new();
    let complete = sudoku.each_solution(puzzle, limits, bounds, |cells| {
        all.push(cells.to_vec());
    });
    complete.then_some(all)
}

/// `puzzle` with `d` given in `cell` (`givens` is its givens, left as
/// they were); `None` when the rules refuse the digit there.
fn with_given(puzzle: &Puzzle, givens: &mut [u8], cell: usize, d: u8) -> Option<Puzzle> {
    givens[cell] = d;
    let asked = Puzzle::new(puzzle.shared_rules().clone(), givens.to_vec());
    givens[cell] = 0;
    asked.ok()
}

/// The count an answer makes known, up to `cap`: its solutions when the
/// search ended or reached the cap, `None` when a limit stopped it.
fn known(answer: &super::Answer, cap: u64) -> Option<u64> {
    (answer.complete || answer.solutions >= cap).then_some(answer.solutions.min(cap))
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
            let cap = 3;
            // The solutions enumerated first, and the questions alone.
            let bounds = if rng.gen_bool(0.5) {
                (ENUMERATED, ENUMERATION_NODES)
            } else {
                (0, 0)
            };
            let c = candidates_within(&mut sudoku, &p, &Limits::count_to(cap), bounds).unwrap();
            assert!(c.complete());
            assert_eq!(c.solvable(), !all.is_empty());
            for cell in 0..16 {
                let mut want: Vec<u8> = all.iter().map(|s| s[cell]).collect();
                want.sort();
                want.dedup();
                assert_eq!(c.digits(cell), want, "cell {cell} of {p}");
                for d in 1..=4 {
                    let n = all.iter().filter(|s| s[cell] == d).count() as u64;
                    assert_eq!(c.count(cell, d), Some(n.min(cap)), "{cell} {d} of {p}");
                }
            }
            // Without counts, the same candidates.
            let plain = candidates_within(&mut sudoku, &p, &Limits::count_to(1), bounds).unwrap();
            assert_eq!(plain.found, c.found);
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
