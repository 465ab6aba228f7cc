//! Variant puzzles from a seed: jigsaw (random regions), X, windoku,
//! anti-king, anti-knight, non-consecutive and killer (cages drawn from the
//! solution), alone or together, each puzzle with exactly one solution.
//!
//! One puzzle:
//! 1. The rules: boxes of `rows × cols`, or for jigsaw random regions — the
//!    boxes reshaped by random swaps of a border cell between two regions
//!    and a cell back, kept only when both regions stay connected, so every
//!    region is a connected piece of n cells; then the flags asked for.
//! 2. A solved grid: up to n random cells get random digits, each kept when
//!    the grid still has a solution within the node budget; the solution
//!    found with the last kept digit is the grid. (Rules with no solution —
//!    a jigsaw can have none — or a budget spent start the puzzle over with
//!    new regions and digits; after [`ATTEMPTS`] the generator gives up with
//!    [`GenerateError::NoSolvedGrid`].)
//! 3. Killer: the whole grid is cut into cages of 1 to 4 orthogonally
//!    connected cells with distinct digits (sizes drawn 2 to 4; a cell with
//!    no free neighbour stays alone), each with its sum from the grid.
//! 4. Clues are removed as classic generation does ([`remove_clues`]), by
//!    orbits of the symmetry asked for, with uniqueness checks of at most
//!    `node_budget` nodes: first-forced, then lookahead on a hundredth of
//!    the budget (`Checker`); killer with lookahead only, which needs a
//!    few hundred nodes where first-forced needs millions.
//!
//! The same seed and settings give the same puzzles with this version.

use std::fmt;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{remove_clues, solutions_within, Symmetry};
use crate::dlx::{Branching, BuildError, Config, EngineKind, Solver};
use crate::sudoku::rules::{Rules, RulesError, RulesMatrix};

/// How many times one puzzle is started over (new regions, new digits)
/// before the generator gives up.
pub const ATTEMPTS: usize = 100;

/// A rule a generated puzzle carries besides rows, columns and regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Random irregular regions instead of boxes.
    Jigsaw,
    /// Both main diagonals hold every digit.
    X,
    /// Windoku: the (b−1)² extra b×b windows between the boxes' edges
    /// (four on 9×9), square boxes only.
    Windoku,
    /// Cells a king's move apart differ.
    AntiKing,
    /// Cells a knight's move apart differ.
    AntiKnight,
    /// Orthogonal neighbours do not hold consecutive digits.
    NonConsecutive,
    /// Killer cages over the whole grid, with sums.
    Killer,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 7] = [
        Variant::Jigsaw,
        Variant::X,
        Variant::Windoku,
        Variant::AntiKing,
        Variant::AntiKnight,
        Variant::NonConsecutive,
        Variant::Killer,
    ];

    /// The rule's one name, the word the variant text form writes
    /// (`rule_line`) and `--variant` takes: `antiking`, not `anti-king`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Jigsaw => "jigsaw",
            Variant::X => "x",
            Variant::Windoku => "windoku",
            Variant::AntiKing => "antiking",
            Variant::AntiKnight => "antiknight",
            Variant::NonConsecutive => "nonconsecutive",
            Variant::Killer => "killer",
        }
    }

    /// The variant of a name: its [`name`](Self::name), or the hyphenated
    /// alias (`anti-king`, `anti-knight`, `non-consecutive`), as the text
    /// form reads them too.
    pub fn from_name(name: &str) -> Option<Variant> {
        let alias = match name {
            "anti-king" => "antiking",
            "anti-knight" => "antiknight",
            "non-consecutive" => "nonconsecutive",
            other => other,
        };
        Variant::ALL.into_iter().find(|v| v.name() == alias)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why variant puzzles cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GenerateError {
    /// The boxes are not a grid.
    Rules(RulesError),
    /// Windoku's windows need square boxes.
    Windoku {
        /// The box's rows.
        rows: usize,
        /// The box's columns.
        cols: usize,
    },
    /// No solved grid was found in [`ATTEMPTS`] tries (rules too tight for
    /// the grid, or a node budget too small).
    NoSolvedGrid,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Rules(e) => write!(f, "{e}"),
            GenerateError::Windoku { rows, cols } => {
                write!(f, "windoku's windows need square boxes, not {rows}×{cols}")
            }
            GenerateError::NoSolvedGrid => write!(
                f,
                "no solved grid for these rules in {ATTEMPTS} tries (raise --node-budget, or \
                 fewer rules)"
            ),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<RulesError> for GenerateError {
    fn from(e: RulesError) -> Self {
        GenerateError::Rules(e)
    }
}

/// A generated puzzle: its rules, givens and solution (row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The rules, cages included.
    pub rules: Rules,
    /// The givens, 0 for an empty cell.
    pub givens: Vec<u8>,
    /// The one solution.
    pub solution: Vec<u8>,
}

/// Makes variant puzzles of one shape from a seed.
#[derive(Debug)]
pub struct VariantGenerator {
    rows: usize,
    cols: usize,
    variants: Vec<Variant>,
    rng: StdRng,
    /// Search nodes allowed for one check (a solved grid's, a clue's).
    pub node_budget: u64,
    /// The symmetry the givens keep (default none).
    pub symmetry: Symmetry,
}

impl VariantGenerator {
    /// A generator of grids with boxes of `rows × cols` (the shape jigsaw
    /// regions start from) and the `variants` (duplicates ignored), seeded.
    pub fn new(
        rows: usize,
        cols: usize,
        variants: &[Variant],
        seed: u64,
    ) -> Result<VariantGenerator, GenerateError> {
        Rules::boxes(rows, cols)?;
        if variants.contains(&Variant::Windoku) && rows != cols {
            return Err(GenerateError::Windoku { rows, cols });
        }
        let mut variants = variants.to_vec();
        variants.sort_unstable();
        variants.dedup();
        Ok(VariantGenerator {
            rows,
            cols,
            variants,
            rng: StdRng::seed_from_u64(seed),
            node_budget: 20_000,
            symmetry: Symmetry::None,
        })
    }

    fn has(&self, v: Variant) -> bool {
        self.variants.contains(&v)
    }

    /// A puzzle with exactly one solution.
    pub fn puzzle(&mut self) -> Result<Generated, GenerateError> {
        for _ in 0..ATTEMPTS {
            let rules = self.rules()?;
            let matrix = rules.matrix().map_err(|_| GenerateError::NoSolvedGrid)?;
            let Some(solution) = self.solved_grid(&matrix) else {
                continue;
            };
            let rules = if self.has(Variant::Killer) {
                self.cages(rules, &solution)?
            } else {
                rules
            };
            let matrix = rules.matrix().map_err(|_| GenerateError::NoSolvedGrid)?;
            let mut checker =
                Checker::new(&matrix, self.node_budget).map_err(|_| GenerateError::NoSolvedGrid)?;
            checker.first_forced &= !self.has(Variant::Killer);
            let orbits = self.symmetry.orbits(rules.side());
            let givens = remove_clues(&solution, &orbits, &mut self.rng, |cells| {
                checker.solutions(cells).map(|(found, _)| found == 1)
            });
            return Ok(Generated {
                rules,
                givens,
                solution,
            });
        }
        Err(GenerateError::NoSolvedGrid)
    }

    /// The rules of the next puzzle, cages aside.
    fn rules(&mut self) -> Result<Rules, GenerateError> {
        let (rows, cols) = (self.rows, self.cols);
        let mut rules = if self.has(Variant::Jigsaw) {
            Rules::jigsaw(&self.random_regions())?
        } else {
            Rules::boxes(rows, cols)?
        };
        if self.has(Variant::X) {
            rules = rules.diagonals();
        }
        if self.has(Variant::Windoku) {
            rules = rules.windoku()?;
        }
        if self.has(Variant::AntiKing) {
            rules = rules.anti_king();
        }
        if self.has(Variant::AntiKnight) {
            rules = rules.anti_knight();
        }
        if self.has(Variant::NonConsecutive) {
            rules = rules.non_consecutive();
        }
        Ok(rules)
    }

    /// Random jigsaw regions: the boxes reshaped by swaps that keep every
    /// region n connected cells.
    fn random_regions(&mut self) -> Vec<usize> {
        let (rows, cols) = (self.rows, self.cols);
        let n = rows * cols;
        let mut region: Vec<usize> = (0..n * n)
            .map(|k| (k / n / rows) * rows + (k % n) / cols)
            .collect();
        if n < 3 {
            return region;
        }
        let mut swaps = 0;
        let mut tries = 0;
        while swaps < 4 * n * n && tries < 400 * n * n {
            tries += 1;
            let a = self.rng.gen_range(0..n * n);
            let near = neighbours(n, a);
            let Some(&b) = near.choose(&mut self.rng) else {
                continue;
            };
            let (from, to) = (region[a], region[b]);
            if from == to {
                continue;
            }
            // a moves into `to`; a cell of `to` next to `from` moves back.
            region[a] = to;
            let back: Vec<usize> = (0..n * n)
                .filter(|&c| {
                    region[c] == to && c != a && neighbours(n, c).iter().any(|&x| region[x] == from)
                })
                .collect();
            let Some(&c) = back.choose(&mut self.rng) else {
                region[a] = from;
                continue;
            };
            region[c] = from;
            if connected(n, &region, from) && connected(n, &region, to) {
                swaps += 1;
            } else {
                region[c] = to;
                region[a] = from;
            }
        }
        region
    }

    /// A random solved grid of `matrix`'s rules: the first solution with
    /// a random first row (one with no consecutive neighbours under
    /// non-consecutive), or `None` when there is none within the budget.
    fn solved_grid(&mut self, matrix: &RulesMatrix) -> Option<Vec<u8>> {
        let n = matrix.rules().side();
        let mut row: Vec<u8> = (1..=n as u8).collect();
        for _ in 0..1000 {
            row.shuffle(&mut self.rng);
            let consecutive = row.windows(2).any(|w| w[0].abs_diff(w[1]) == 1);
            if !(self.has(Variant::NonConsecutive) && consecutive) {
                break;
            }
        }
        let mut givens = vec![0u8; n * n];
        givens[..n].copy_from_slice(&row);
        Checker::new(matrix, self.node_budget)
            .ok()?
            .solutions(&givens)
            .and_then(|(_, first)| first)
    }

    /// `rules` with killer cages over the whole of `solution`.
    fn cages(&mut self, rules: Rules, solution: &[u8]) -> Result<Rules, GenerateError> {
        let n = rules.side();
        let mut cells: Vec<usize> = (0..n * n).collect();
        cells.shuffle(&mut self.rng);
        let mut caged = vec![false; n * n];
        let mut rules = rules;
        for &k in &cells {
            if caged[k] {
                continue;
            }
            caged[k] = true;
            let mut cage = vec![k];
            let size = self.rng.gen_range(2..=4usize.min(n));
            while cage.len() < size {
                let free: Vec<usize> = cage
                    .iter()
                    .flat_map(|&c| neighbours(n, c))
                    .filter(|&j| !caged[j] && !cage.iter().any(|&c| solution[c] == solution[j]))
                    .collect();
                let Some(&j) = free.choose(&mut self.rng) else {
                    break;
                };
                caged[j] = true;
                cage.push(j);
            }
            cage.sort_unstable();
            let sum = cage.iter().map(|&c| u32::from(solution[c])).sum();
            rules = rules.cage(&cage, Some(sum))?;
        }
        Ok(rules)
    }
}

/// Uniqueness checks within a budget: first-forced up to `budget` nodes,
/// and where that runs out, lookahead up to a hundredth of it (a lookahead
/// node costs tens to hundreds of first-forced ones, and proves in hundreds
/// what first-forced needs millions for on killer, anti-knight and
/// non-consecutive grids). A tenth made 9×9 non-consecutive puzzles 9.5×
/// slower to generate for 1 given fewer a puzzle (3 puzzles: 9.3 s, 7.7
/// givens; a hundredth 1.0 s, 8.7), anti-knight 1.9× slower for none.
struct Checker<'m> {
    matrix: &'m RulesMatrix,
    budget: u64,
    /// Whether the first-forced phase runs (killer: lookahead only).
    first_forced: bool,
    forced: Solver<'m>,
    look: Option<Solver<'m>>,
}

impl<'m> Checker<'m> {
    /// A checker over the whole matrix of `matrix` (built here if it was
    /// not).
    /// The first-forced search is the masks engine's wherever it takes
    /// the matrix: a solved grid is the first solution found from a
    /// shuffled first row, so a seed's puzzles stay the same whichever
    /// engine the library prefers for the matrix (bands, on the classic
    /// one).
    fn new(matrix: &'m RulesMatrix, budget: u64) -> Result<Self, BuildError> {
        let whole = matrix.matrix()?;
        let masks = Config::new()
            .engine(EngineKind::Masks)
            .branching(Branching::FirstForced);
        let forced = Solver::with_config(whole, masks)
            .unwrap_or_else(|_| Solver::with_rule(whole, Branching::FirstForced));
        Ok(Checker {
            matrix,
            budget,
            first_forced: true,
            forced,
            look: None,
        })
    }

    /// The solutions of `givens` up to two and the first, or `None` when
    /// both phases ran out of their budgets.
    fn solutions(&mut self, givens: &[u8]) -> Option<(u64, Option<Vec<u8>>)> {
        if self.first_forced {
            if let Some(found) =
                solutions_within(&mut self.forced, self.matrix, givens, self.budget)
            {
                return Some(found);
            }
        }
        let look = match &mut self.look {
            Some(look) => look,
            None => {
                let whole = self.matrix.matrix().ok()?;
                self.look
                    .insert(Solver::with_rule(whole, Branching::Lookahead))
            }
        };
        solutions_within(look, self.matrix, givens, (self.budget / 100).max(1))
    }
}

/// The orthogonal neighbours of cell k in a grid of side n.
fn neighbours(n: usize, k: usize) -> Vec<usize> {
    let (r, c) = (k / n, k % n);
    let mut out = Vec::with_capacity(4);
    if r > 0 {
        out.push(k - n);
    }
    if r + 1 < n {
        out.push(k + n);
    }
    if c > 0 {
        out.push(k - 1);
    }
    if c + 1 < n {
        out.push(k + 1);
    }
    out
}

/// Whether the cells of region `x` are orthogonally connected.
fn connected(n: usize, region: &[usize], x: usize) -> bool {
    let cells: Vec<usize> = (0..n * n).filter(|&k| region[k] == x).collect();
    let Some(&start) = cells.first() else {
        return true;
    };
    let mut seen = vec![false; n * n];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 1;
    while let Some(k) = stack.pop() {
        for j in neighbours(n, k) {
            if region[j] == x && !seen[j] {
                seen[j] = true;
                reached += 1;
                stack.push(j);
            }
        }
    }
    reached == cells.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::rules::check;

    /// Checks a generated puzzle: its solution keeps every rule and is the
    /// only one (a full count), its givens are the solution's, and it keeps
    /// the symmetry.
    fn confirm(g: &Generated, symmetry: Symmetry) {
        check(&g.rules, &g.givens, &g.solution).unwrap();
        let (count, first) = g.rules.matrix().unwrap().count(&g.givens, 2);
        assert_eq!(count.solutions, 1, "{:?}", g.rules);
        assert!(count.complete);
        assert_eq!(first.as_deref(), Some(&g.solution[..]));
        assert!(g
            .givens
            .iter()
            .zip(&g.solution)
            .all(|(&a, &b)| a == 0 || a == b));
        assert!(symmetry.holds(g.rules.side(), &g.givens));
    }

    #[test]
    fn every_variant_makes_unique_puzzles() {
        for v in Variant::ALL {
            // 6×6 (2×3 boxes) keeps the test quick; windoku needs square
            // boxes, so 4×4 for it.
            let (rows, cols) = if v == Variant::Windoku {
                (2, 2)
            } else {
                (2, 3)
            };
            let mut g = VariantGenerator::new(rows, cols, &[v], 5).unwrap();
            for _ in 0..3 {
                confirm(&g.puzzle().unwrap(), Symmetry::None);
            }
        }
    }

    #[test]
    fn nine_by_nine_variants_and_their_shapes() {
        let mut g = VariantGenerator::new(3, 3, &[Variant::Jigsaw, Variant::X], 2).unwrap();
        g.symmetry = Symmetry::Rot180;
        let p = g.puzzle().unwrap();
        confirm(&p, Symmetry::Rot180);
        assert_ne!(p.rules.regions(), Rules::boxes(3, 3).unwrap().regions());
        for x in 0..9 {
            assert!(connected(9, p.rules.regions(), x));
        }
        assert_eq!(p.rules.extra_regions().len(), 2);
        let mut w = VariantGenerator::new(3, 3, &[Variant::Windoku], 1).unwrap();
        let p = w.puzzle().unwrap();
        confirm(&p, Symmetry::None);
        assert_eq!(p.rules.extra_regions().len(), 4);
        assert!(p.rules.extra_regions()[3].contains(&(5 * 9 + 5)));
        let mut k = VariantGenerator::new(3, 3, &[Variant::Killer], 3).unwrap();
        let p = k.puzzle().unwrap();
        confirm(&p, Symmetry::None);
        let caged: usize = p.rules.cages().iter().map(|c| c.cells.len()).sum();
        assert_eq!(caged, 81);
        assert!(p.rules.cages().iter().all(|c| c.cells.len() <= 4));
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzles_and_windoku_wants_square_boxes() {
        let make = |seed| {
            let mut g = VariantGenerator::new(2, 3, &[Variant::AntiKnight], seed).unwrap();
            g.symmetry = Symmetry::Mirror;
            g.puzzle().unwrap()
        };
        assert_eq!(make(9), make(9));
        assert_ne!(make(9), make(10));
        confirm(&make(9), Symmetry::Mirror);
        assert_eq!(
            VariantGenerator::new(2, 3, &[Variant::Windoku], 1).unwrap_err(),
            GenerateError::Windoku { rows: 2, cols: 3 }
        );
    }
}
