//! A random solution of a puzzle: the first solution of a search over the
//! puzzle's matrix with its options and primary items in an order drawn from
//! a seed ([`Matrix::shuffled`](crate::Matrix::shuffled)), mapped back to a
//! grid.
//!
//! Invariants: the givens and the rules' pins are preselected on the
//! shuffled matrix through the inverse of its option map, so the answer
//! keeps every given; the same seed gives the same solution. Not uniform
//! over the solutions (a search's first is biased toward solutions with
//! fewer branch points before them) — a different solution for a different
//! seed, which is what a setter's "show me another" asks for.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::cover::search_limits;
use super::{Limits, Puzzle, SolveError};
use crate::dlx::{OptionId, Solver, Stop};

/// What [`random_solution`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Random {
    /// A solution, row-major.
    Solved(Vec<u8>),
    /// The puzzle has no solution (its givens clash, or the search ended).
    None,
    /// The deadline or the cancel handle of the limits stopped the search:
    /// unknown.
    Stopped(Stop),
}

/// A random solution of `puzzle` for `seed`, within the deadline and the
/// cancel handle of `limits` (its count is not used).
///
/// ```
/// use dlx::sudoku::{random_solution, rules, Limits, Puzzle, Random};
///
/// let empty: Puzzle = ".".repeat(81).parse().unwrap();
/// let Random::Solved(a) = random_solution(&empty, 1, &Limits::count_to(1)).unwrap() else {
///     panic!()
/// };
/// let Random::Solved(b) = random_solution(&empty, 2, &Limits::count_to(1)).unwrap() else {
///     panic!()
/// };
/// assert_ne!(a, b);
/// assert!(rules::check(empty.rules(), empty.givens(), &a).is_ok());
/// ```
pub fn random_solution(puzzle: &Puzzle, seed: u64, limits: &Limits) -> Result<Random, SolveError> {
    let cover = puzzle.rules().matrix().map_err(SolveError::Rules)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let shuffled = cover
        .matrix()
        .map_err(SolveError::Rules)?
        .shuffled(&mut rng)
        .map_err(SolveError::Rules)?;
    let (matrix, original) = shuffled.into_parts();
    let mut new_id = vec![OptionId::must(0); original.len()];
    for (k, o) in original.iter().enumerate() {
        new_id[o.as_usize()] = OptionId::must(k);
    }
    let mut solver = Solver::new(&matrix);
    solver.set_limits(search_limits(limits));
    let mut preselect: Vec<OptionId> = cover.pins().iter().map(|o| new_id[o.as_usize()]).collect();
    for (k, &d) in puzzle.givens().iter().enumerate() {
        if d != 0 {
            preselect.push(new_id[cover.option(k, d).as_usize()]);
        }
    }
    if solver.preselect_all(&preselect).is_err() {
        // Givens that clash: no solution.
        return Ok(Random::None);
    }
    Ok(match solver.first_solution() {
        Ok(Some(options)) => {
            Random::Solved(cover.grid_of(options.into_iter().map(|o| original[o.as_usize()])))
        }
        Ok(None) => Random::None,
        Err(stop) => Random::Stopped(stop),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::{random_solution, Random};
    use crate::sudoku::rules::{check, Rules};
    use crate::sudoku::{Limits, Puzzle};

    #[test]
    fn every_answer_is_a_solution_keeping_the_givens_and_seeds_differ() {
        // 12 solutions; with a thermometer, one; a killer X, several.
        for text in [
            "12..34..........",
            "12..34.......... thermo=R4C1,R4C2,R4C3",
            "................ cage=7:R1C1,R1C2 x",
        ] {
            let p: Puzzle = text.parse().unwrap();
            let mut seen = HashSet::new();
            for seed in 0..40 {
                let Random::Solved(grid) = random_solution(&p, seed, &Limits::count_to(1)).unwrap()
                else {
                    panic!("{text}: no solution")
                };
                check(p.rules(), p.givens(), &grid).unwrap();
                seen.insert(grid);
            }
            let count = p.rules().matrix().unwrap().count(p.givens(), 2).0;
            assert_eq!(seen.len().min(2) as u64, count.solutions, "{text}");
        }
        let mut givens = vec![0; 16];
        givens[..2].copy_from_slice(&[1, 1]);
        let clash = Puzzle::new(Rules::boxes(2, 2).unwrap(), givens).unwrap();
        assert_eq!(
            random_solution(&clash, 0, &Limits::count_to(1)).unwrap(),
            Random::None
        );
        let none: Puzzle = "12..34.......... thermo=R1C2,R1C1".parse().unwrap();
        assert_eq!(
            random_solution(&none, 0, &Limits::count_to(1)).unwrap(),
            Random::None
        );
    }
}
