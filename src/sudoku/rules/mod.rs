//! Sudoku rules as data: a grid of side n, its regions (rectangular boxes or
//! jigsaw pieces) and a list of [constraints] — extra
//! regions, anti-king, killer cages, thermometers, dots, lines, sums —
//! mapped to one exact-cover matrix, and a solution back. No search of its
//! own: the core searches the matrix.
//!
//! The items: first the classic four, primary (a cell is `k = r·n + c`, a
//! digit `d` in 1..=n): `k` filled; row r has d; column c has d; region x
//! has d — `4n²`; then each constraint's, made by its module through the
//! [`Encoder`](super::constraints::Encoder) in the order of
//! [`KINDS`](super::constraints::KINDS) (primary items before secondary
//! ones, as the matrix wants), and a last primary item, the *pin*, when a
//! constraint bans a candidate.
//!
//! Option `k·n + d − 1` puts d in cell k (it covers every item above that
//! concerns it); the constraints' own options follow the n³ cell options,
//! and the pin's option (covering each banned candidate's void item) comes
//! last: it is preselected with the givens ([`RulesMatrix::pins`]). The
//! matrix is built once per rule set ([`RulesMatrix`]) and its puzzles'
//! givens are preselected. [`check`] checks a solution against every rule
//! without the matrix, for the tests and for users.
//!
//! The files: this one holds the rule set ([`Rules`]) and its builders;
//! `matrix.rs` its matrices, the propagators and the strategy the search
//! takes with them; `check.rs` the checker.
//!
//! A rule set whose constraints say sums the search's sum bounds take
//! (little killers, arrows with a one-cell circle), or are said by
//! automata alone, which the chain runs take (sandwiches, pill arrows,
//! between lines …), has a second, *lean* matrix: the same but for those
//! constraints, which the propagator then enforces alone (asked at every solution; see
//! [`Propagator::enforces`](crate::dlx::Propagator::enforces)). A search
//! takes it only where its engine runs the propagator; any other takes the
//! whole matrix, which is what [`RulesMatrix::matrix`] gives, built the
//! first time it is asked for. Invariant: the two have the same cell
//! options, and the same solutions once the propagator is counted in.
//!
//! ```
//! use dlx::sudoku::rules::{check, Rules};
//! use dlx::sudoku::{Limits, Puzzle, Sudoku};
//!
//! // 6×6 with 2×3 boxes, both diagonals, and a cage r1c1+r1c2 = 3.
//! let rules = Rules::boxes(2, 3).unwrap().diagonals().cage(&[0, 1], Some(3)).unwrap();
//! let mut givens = vec![0u8; 36];
//! givens[0] = 1;
//! let puzzle = Puzzle::new(rules.clone(), givens.clone()).unwrap();
//! let solved = Sudoku::default().solve(&puzzle, &Limits::count_to(2)).unwrap();
//! assert!(solved.answer.solutions >= 1);
//! let grid = solved.solution.unwrap();
//! assert_eq!((grid[0], grid[1]), (1, 2)); // the cage's digits are {1, 2}
//! check(&rules, &givens, &grid).unwrap();
//! ```

use std::fmt;
use std::sync::Arc;

use crate::dlx::BuildError;
use crate::sudoku::constraints::{
    self, AntiKing, AntiKnight, Constraint, ExtraRegion, NonConsecutive,
};

pub use crate::sudoku::constraints::Cage;

/// The largest side: digits are `u8`, and a 64×64 grid is the largest any
/// format here writes.
pub const MAX_SIDE: usize = 64;

/// What a rule set cannot be.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// The side is not between 1 and [`MAX_SIDE`].
    Side(usize),
    /// Boxes of `rows × cols` do not tile a grid of side `rows · cols`
    /// (a dimension is 0, or the side is too large).
    Boxes {
        /// The box's rows.
        rows: usize,
        /// The box's columns.
        cols: usize,
    },
    /// The regions do not give every cell one region of exactly n cells.
    Regions(String),
    /// A cell index past the grid, in the rule named.
    Cell {
        /// The rule concerned.
        rule: &'static str,
        /// The cell, row-major.
        cell: usize,
    },
    /// A region, extra region or cage lists a cell twice or holds more
    /// than n cells.
    Shape {
        /// The rule concerned.
        rule: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A cage whose sum no set of distinct digits reaches.
    Sum {
        /// The cage, from 0 in the order added.
        cage: usize,
        /// Its sum.
        sum: u32,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Side(n) => {
                write!(f, "a grid of side {n}: the side must be 1 to {MAX_SIDE}")
            }
            RulesError::Boxes { rows, cols } => {
                write!(
                    f,
                    "boxes of {rows}×{cols} do not make a grid of side 1 to {MAX_SIDE}"
                )
            }
            RulesError::Regions(why) => write!(f, "regions: {why}"),
            RulesError::Cell { rule, cell } => write!(f, "{rule}: cell {cell} is not in the grid"),
            RulesError::Shape { rule, why } => write!(f, "{rule}: {why}"),
            RulesError::Sum { cage, sum } => write!(
                f,
                "killer cage {}: no set of distinct digits adds up to {sum}",
                cage + 1
            ),
        }
    }
}

impl std::error::Error for RulesError {}

/// A rule set: the grid, its regions and the constraints beyond them.
#[derive(Clone, Debug)]
pub struct Rules {
    side: usize,
    /// The region of each cell, row-major; each region has `side` cells.
    regions: Vec<usize>,
    /// The constraints, in the order added.
    constraints: Vec<Arc<dyn Constraint>>,
}

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        // The same constraints in any order (a set: none is held twice).
        self.side == other.side
            && self.regions == other.regions
            && self.constraints.len() == other.constraints.len()
            && self
                .constraints
                .iter()
                .all(|a| other.constraints.iter().any(|b| a.same(b.as_ref())))
    }
}

impl Eq for Rules {}

impl Rules {
    /// Classic Sudoku with boxes of `rows × cols` (side `rows · cols`): 3×3
    /// for 9×9, 2×3 for 6×6, 2×4 for 8×8, 3×4 for 12×12.
    pub fn boxes(rows: usize, cols: usize) -> Result<Rules, RulesError> {
        let n = rows * cols;
        if rows == 0 || cols == 0 || n > MAX_SIDE {
            return Err(RulesError::Boxes { rows, cols });
        }
        let regions = (0..n * n)
            .map(|k| (k / n / rows) * rows + (k % n) / cols)
            .collect();
        Ok(Rules::with_regions_unchecked(n, regions))
    }

    /// Irregular (jigsaw) regions: `regions[k]` names cell k's region, any
    /// `n` distinct values each on n cells (`regions.len()` is n²).
    pub fn jigsaw(regions: &[usize]) -> Result<Rules, RulesError> {
        let n = (regions.len() as f64).sqrt().round() as usize;
        if n == 0 || n * n != regions.len() || n > MAX_SIDE {
            return Err(RulesError::Regions(format!(
                "{} cells are not the n² cells of a grid of side 1 to {MAX_SIDE}",
                regions.len()
            )));
        }
        let mut names: Vec<usize> = regions.to_vec();
        names.sort_unstable();
        names.dedup();
        if names.len() != n {
            return Err(RulesError::Regions(format!(
                "{} regions, a grid of side {n} needs {n}",
                names.len()
            )));
        }
        let index: Vec<usize> = regions
            .iter()
            .map(|r| names.binary_search(r).unwrap_or(0))
            .collect();
        for (x, name) in names.iter().enumerate() {
            let size = index.iter().filter(|&&i| i == x).count();
            if size != n {
                return Err(RulesError::Regions(format!(
                    "region {name} has {size} cells, not {n}"
                )));
            }
        }
        Ok(Rules::with_regions_unchecked(n, index))
    }

    fn with_regions_unchecked(side: usize, regions: Vec<usize>) -> Rules {
        Rules {
            side,
            regions,
            constraints: Vec::new(),
        }
    }

    /// The side n of the grid.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The region of each cell (0..n), row-major.
    pub fn regions(&self) -> &[usize] {
        &self.regions
    }

    /// Adds a constraint (any of [`constraints`], or a
    /// program's own), or says why it does not fit the grid. A constraint
    /// the set holds already is not added twice.
    pub fn with(self, constraint: impl Constraint) -> Result<Rules, RulesError> {
        self.with_shared(Arc::new(constraint))
    }

    /// [`with`](Self::with), for a constraint already shared (as the
    /// readers make them).
    pub fn with_shared(mut self, constraint: Arc<dyn Constraint>) -> Result<Rules, RulesError> {
        constraint.validate(&self)?;
        self.add(constraint);
        Ok(self)
    }

    /// Adds a validated constraint, unless the set holds it already.
    fn add(&mut self, constraint: Arc<dyn Constraint>) {
        if !self.constraints.iter().any(|c| c.same(constraint.as_ref())) {
            self.constraints.push(constraint);
        }
    }

    /// A constraint that fits every grid (a flag, the diagonals), added.
    fn with_valid(mut self, constraint: impl Constraint) -> Rules {
        let constraint: Arc<dyn Constraint> = Arc::new(constraint);
        if constraint.validate(&self).is_ok() {
            self.add(constraint);
        }
        self
    }

    /// The constraints, in the order added.
    pub fn constraints(&self) -> &[Arc<dyn Constraint>] {
        &self.constraints
    }

    /// The constraints of type `T`, in the order added.
    pub fn find<T: Constraint>(&self) -> impl Iterator<Item = &T> {
        self.constraints
            .iter()
            .filter_map(|c| c.as_any().downcast_ref::<T>())
    }

    /// Adds a region of distinct digits (a diagonal, a windoku window, a
    /// disjoint group): n cells hold every digit, fewer hold each at most
    /// once.
    pub fn extra_region(self, cells: &[usize]) -> Result<Rules, RulesError> {
        self.with(ExtraRegion {
            cells: cells.to_vec(),
        })
    }

    /// Adds both main diagonals as extra regions (X-Sudoku, f-puzzles'
    /// `diagonal+` and `diagonal-`).
    pub fn diagonals(self) -> Rules {
        let n = self.side;
        self.with_valid(ExtraRegion {
            cells: constraints::regions_down(n),
        })
        .with_valid(ExtraRegion {
            cells: constraints::regions_up(n),
        })
    }

    /// Adds windoku's windows: for a side n = b², the (b−1)² b×b windows
    /// one cell in from the boxes' edges (four on 9×9, at rows and columns
    /// 2–4 and 6–8). A side that is not a square is an error.
    pub fn windoku(self) -> Result<Rules, RulesError> {
        let windows = constraints::regions_windows(self.side).map_err(|why| RulesError::Shape {
            rule: "windoku",
            why,
        })?;
        windows
            .into_iter()
            .try_fold(self, |r, cells| r.extra_region(&cells))
    }

    /// Adds disjoint groups: the cells at one place in every box of
    /// `rows × cols` (n groups). Boxes that do not tile the grid are an
    /// error.
    pub fn disjoint_groups(self, rows: usize, cols: usize) -> Result<Rules, RulesError> {
        let groups = constraints::regions_groups(self.side, rows, cols)
            .ok_or(RulesError::Boxes { rows, cols })?;
        groups
            .into_iter()
            .try_fold(self, |r, cells| r.extra_region(&cells))
    }

    /// No two cells a king's move apart hold the same digit.
    pub fn anti_king(self) -> Rules {
        self.with_valid(AntiKing)
    }

    /// No two cells a knight's move apart hold the same digit.
    pub fn anti_knight(self) -> Rules {
        self.with_valid(AntiKnight)
    }

    /// No two orthogonally adjacent cells hold consecutive digits (but
    /// those a kropki dot joins).
    pub fn non_consecutive(self) -> Rules {
        self.with_valid(NonConsecutive)
    }

    /// Adds a killer cage: distinct digits in `cells`, adding up to `sum`
    /// when given. A sum no digit set reaches is an error.
    pub fn cage(self, cells: &[usize], sum: Option<u32>) -> Result<Rules, RulesError> {
        self.with(Cage {
            cells: cells.to_vec(),
            sum,
        })
    }

    /// The extra regions' cells, in the order given.
    pub fn extra_regions(&self) -> Vec<&[usize]> {
        self.find::<ExtraRegion>()
            .map(|r| r.cells.as_slice())
            .collect()
    }

    /// Whether cells a king's move apart differ.
    pub fn has_anti_king(&self) -> bool {
        self.find::<AntiKing>().next().is_some()
    }

    /// Whether cells a knight's move apart differ.
    pub fn has_anti_knight(&self) -> bool {
        self.find::<AntiKnight>().next().is_some()
    }

    /// Whether orthogonal neighbours hold no consecutive digits.
    pub fn has_non_consecutive(&self) -> bool {
        self.find::<NonConsecutive>().next().is_some()
    }

    /// The killer cages, in the order given.
    pub fn cages(&self) -> Vec<&Cage> {
        self.find::<Cage>().collect()
    }

    /// Whether the rule set is classic: no constraint beyond its regions.
    pub fn is_plain(&self) -> bool {
        self.constraints.is_empty()
    }

    /// The exact-cover matrix of these rules (see the module documentation).
    pub fn matrix(&self) -> Result<RulesMatrix, BuildError> {
        RulesMatrix::new(self.clone())
    }
}

/// `cells` in increasing order.
fn sorted(cells: &[usize]) -> Vec<usize> {
    let mut cells = cells.to_vec();
    cells.sort_unstable();
    cells
}

mod check;
mod matrix;

pub use check::{check, Broken, House, Neighbours};
pub(crate) use matrix::Form;
pub use matrix::RulesMatrix;

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    use super::{check, Rules, RulesError};
    use crate::sudoku::constraints::digit_sets;

    /// Every completion the checker accepts (`constraints`' brute force).
    fn brute_force(rules: &Rules, givens: &[u8]) -> Vec<Vec<u8>> {
        crate::sudoku::constraints::tests::brute_force(rules, givens, usize::MAX)
    }

    /// A valid classic grid for boxes `rows × cols`, digits shuffled.
    fn solution(rows: usize, cols: usize, rng: &mut StdRng) -> Vec<u8> {
        let n = rows * cols;
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        digits.shuffle(rng);
        (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                digits[(i * cols + i / rows + j) % n]
            })
            .collect()
    }

    #[test]
    fn sums_and_sets_branch_on_cells_first_pairs_alone_do_not() {
        // (And which rule sets branch two ways, or on house pairs.)
        use super::Form;
        use crate::sudoku::constraints::{Renban, Thermometer};
        let first = |rules: &Rules| {
            let m = rules.matrix().unwrap();
            let s = m.strategy();
            m.propagator_in(Form::Whole).map(|_| 0..s.lead_items())
        };
        let thermo = Thermometer {
            cells: vec![0, 1],
            slow: false,
        };
        let renban = Renban {
            cells: vec![9, 10, 11],
        };
        let nine = || Rules::boxes(3, 3).unwrap();
        assert_eq!(first(&nine()), None);
        assert_eq!(first(&nine().cage(&[0, 1], Some(3)).unwrap()), Some(0..81));
        assert_eq!(first(&nine().with(thermo.clone()).unwrap()), Some(0..0));
        assert_eq!(first(&nine().with(renban.clone()).unwrap()), Some(0..81));
        // Pair arcs and set groups together: the widest.
        let both = nine()
            .with(thermo.clone())
            .unwrap()
            .with(renban.clone())
            .unwrap();
        assert_eq!(first(&both), Some(0..81));
        // Where set groups are watched (renban), the search branches two
        // ways, the cells' scores starting at 3n; sums and pairs alone
        // keep one way, their cells starting at one.
        let way = |rules: &Rules| {
            let m = rules.matrix().unwrap();
            assert!(m.propagator_in(Form::Whole).is_some());
            let s = m.strategy();
            let score = (s.lead_items() > 0).then_some(s.lead_score());
            (s.branches_two_ways(), s.lead_items(), score)
        };
        let killer = nine().cage(&[0, 1], Some(3)).unwrap();
        assert_eq!(way(&killer), (false, 81, Some(1)));
        assert_eq!(way(&nine().with(thermo.clone()).unwrap()), (false, 0, None));
        assert_eq!(
            way(&nine().with(renban.clone()).unwrap()),
            (true, 81, Some(27))
        );
        assert_eq!(way(&both), (true, 81, Some(27)));
        let all = killer.clone().with(thermo).unwrap().with(renban).unwrap();
        assert_eq!(way(&all), (true, 81, Some(27)));
        // Where the rules sum cells that may repeat a digit (a little
        // killer), the search branches on house pairs; killers and arrows
        // (a sum less its circle) do not.
        use crate::sudoku::constraints::{Arrow, LittleKiller};
        let pairs = |rules: &Rules| {
            let m = rules.matrix().unwrap();
            m.propagator_in(Form::Whole)
                .map(|_| m.strategy().branches_on_pairs())
        };
        let little = LittleKiller {
            cells: vec![2, 10, 18],
            sum: 12,
        };
        let arrow = Arrow {
            circle: vec![0],
            shaft: vec![1, 2],
        };
        assert_eq!(pairs(&killer), Some(false));
        assert_eq!(pairs(&nine().with(arrow.clone()).unwrap()), Some(false));
        assert_eq!(pairs(&nine().with(little.clone()).unwrap()), Some(true));
        let mixed = killer.with(arrow).unwrap().with(little).unwrap();
        assert_eq!(pairs(&mixed), Some(true));
    }

    #[test]
    fn classic_4x4_has_288_grids_and_6x6_boxes_are_2_by_3() {
        let rules = Rules::boxes(2, 2).unwrap();
        let m = rules.matrix().unwrap();
        let (count, first) = m.count(&[0; 16], u64::MAX);
        assert_eq!((count.solutions, count.complete), (288, true));
        check(&rules, &[0; 16], &first.unwrap()).unwrap();
        let six = Rules::boxes(2, 3).unwrap();
        assert_eq!(six.side(), 6);
        assert_eq!(&six.regions()[..12], &[0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1]);
        assert_eq!(six.regions()[12], 2);
    }

    #[test]
    fn random_variants_count_as_brute_force() {
        let mut rng = StdRng::seed_from_u64(18);
        // Cases with no solution, one, and more: all three must be met.
        let mut seen = [0; 3];
        for case in 0..120 {
            let (rows, cols) = if case % 3 == 0 { (2, 3) } else { (2, 2) };
            let n = rows * cols;
            let sol = solution(rows, cols, &mut rng);
            let mut rules = Rules::boxes(rows, cols).unwrap();
            if case % 5 == 1 {
                // A jigsaw: the classic regions with two cells swapped
                // between neighbouring boxes (still n cells each).
                let mut regions = rules.regions().to_vec();
                regions.swap(1, n + 2);
                if let Ok(j) = Rules::jigsaw(&regions) {
                    rules = j;
                }
            }
            if rng.gen_bool(0.15) {
                rules = rules.diagonals();
            }
            if rng.gen_bool(0.15) {
                rules = rules.anti_king();
            }
            if rng.gen_bool(0.15) {
                rules = rules.anti_knight();
            }
            if rng.gen_bool(0.15) {
                rules = rules.non_consecutive();
            }
            for _ in 0..rng.gen_range(0..3) {
                let mut cells: Vec<usize> = (0..n * n).collect();
                cells.shuffle(&mut rng);
                cells.truncate(rng.gen_range(1..=n));
                if rng.gen_bool(0.5) {
                    rules = rules.extra_region(&cells).unwrap();
                } else {
                    let sum = rng
                        .gen_bool(0.7)
                        .then(|| cells.iter().map(|&k| sol[k] as u32).sum());
                    // A random cage may repeat a digit of `sol`: its sum
                    // may then be out of reach, an error that is fine here.
                    rules = rules.clone().cage(&cells, sum).unwrap_or(rules);
                }
            }
            // Givens from a grid that keeps every rule when one is known
            // (every 4×4 grid is enumerated), else from the classic one.
            let (source, keep) = if n == 4 {
                match brute_force(&rules, &[0; 16]).choose(&mut rng) {
                    Some(g) => (g.clone(), 0.3),
                    None => (sol, 0.3),
                }
            } else {
                (sol, 0.55)
            };
            let givens: Vec<u8> = source
                .iter()
                .map(|&d| if rng.gen_bool(keep) { d } else { 0 })
                .collect();
            let m = rules.matrix().unwrap();
            let (count, first) = m.count(&givens, u64::MAX);
            seen[count.solutions.min(2) as usize] += 1;
            assert_eq!(
                count.solutions,
                brute_force(&rules, &givens).len() as u64,
                "case {case}: {rules:?}"
            );
            if let Some(grid) = first {
                check(&rules, &givens, &grid).unwrap();
            }
        }
        assert!(seen.iter().all(|&s| s >= 5), "none, one, more: {seen:?}");
    }

    #[test]
    fn cages_choose_exactly_one_digit_set() {
        assert_eq!(digit_sets(9, 2, 3), [0b11]);
        assert_eq!(digit_sets(9, 3, 24), [0b1_1100_0000]);
        assert_eq!(digit_sets(9, 2, 10).len(), 4); // 1+9 2+8 3+7 4+6
        assert!(digit_sets(9, 2, 2).is_empty());
        // A 4×4 with a 2-cell cage of sum 3 in the first row: r1c1, r1c2
        // hold {1, 2}, and the count is that of the grids so made.
        let rules = Rules::boxes(2, 2).unwrap().cage(&[0, 1], Some(3)).unwrap();
        let (count, _) = rules.matrix().unwrap().count(&[0; 16], u64::MAX);
        assert_eq!(count.solutions, brute_force(&rules, &[0; 16]).len() as u64);
        // Each ordered pair of distinct digits heads a 4×4 row equally
        // often: 288 / 12 grids each, two pairs make {1, 2}.
        assert_eq!(count.solutions, 48);
        // A cage of all n cells with the full sum adds nothing; any other
        // sum is refused.
        let full = Rules::boxes(2, 2)
            .unwrap()
            .cage(&[0, 1, 2, 3], Some(10))
            .unwrap();
        assert_eq!(
            full.matrix().unwrap().count(&[0; 16], u64::MAX).0.solutions,
            288
        );
        assert_eq!(
            Rules::boxes(2, 2).unwrap().cage(&[0, 1], Some(9)),
            Err(RulesError::Sum { cage: 0, sum: 9 })
        );
    }

    #[test]
    fn bad_rules_are_refused_with_the_reason() {
        assert!(matches!(Rules::boxes(0, 3), Err(RulesError::Boxes { .. })));
        assert!(matches!(Rules::boxes(9, 9), Err(RulesError::Boxes { .. })));
        assert!(matches!(
            Rules::jigsaw(&[0, 0, 1]),
            Err(RulesError::Regions(_))
        ));
        let uneven = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 1];
        let e = Rules::jigsaw(&uneven).unwrap_err();
        assert_eq!(e.to_string(), "regions: region 0 has 5 cells, not 4");
        let r = Rules::boxes(2, 2).unwrap();
        assert_eq!(
            r.clone().extra_region(&[0, 16]),
            Err(RulesError::Cell {
                rule: "extra region",
                cell: 16
            })
        );
        assert!(matches!(
            r.clone().cage(&[3, 3], None),
            Err(RulesError::Shape { .. })
        ));
        assert!(matches!(
            r.cage(&[0, 1, 2, 3, 4], None),
            Err(RulesError::Shape { .. })
        ));
    }
}

#[cfg(test)]
mod classic {
    use super::{check, Rules};
    use crate::sudoku::{format, Limits, Matrices, Solvers, SudokuSolver};

    #[test]
    fn classic_rules_solve_as_the_classic_layer() {
        let lines = [
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ];
        let rules = Rules::boxes(3, 3).unwrap();
        let m = rules.matrix().unwrap();
        let matrices = Matrices::new();
        let mut classic = Solvers::dlx(&matrices);
        for line in lines {
            let puzzle = format::parse_line(line).unwrap();
            let mut want = puzzle.clone();
            let answer = classic.solve(&puzzle, &Limits::count_to(2), &mut want);
            let (count, got) = m.count(puzzle.cells(), 2);
            assert_eq!(count.solutions, answer.solutions);
            let got = got.unwrap();
            assert_eq!(got, want.cells());
            check(&rules, puzzle.cells(), &got).unwrap();
        }
    }
}
