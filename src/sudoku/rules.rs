//! Sudoku rules as data: a grid of side n, its regions (rectangular boxes or
//! jigsaw pieces), extra regions, anti-king, anti-knight, non-consecutive and
//! killer cages — mapped to one exact-cover matrix, and a solution back. No
//! search of its own: the core searches the matrix.
//!
//! The items, primary first (a cell is `k = r·n + c`, a digit `d` in 1..=n):
//! * `k` filled; row r has d; column c has d; region x has d — the classic
//!   four, `4n²`;
//! * an extra region of n cells has d (n items); of fewer cells, d at most
//!   once (n secondary items) — Knuth's converter for general Sudoku does
//!   the same;
//! * a killer cage with a sum "uses d" (n items): each cell option of the
//!   cage covers its digit's item, and the cage has one more option per
//!   digit set of its size with that sum, covering the items of the digits
//!   *not* in the set. The cells cover m items and the set options n − m
//!   each, so exactly one set is chosen and the cells hold exactly its
//!   digits. A cage without a sum is "d at most once" (secondary). (Cell
//!   options of digits in no set of their cage could be removed up front by
//!   a forced extra item; tried, it did not lower the nodes — 1.36 million
//!   a minimal killer puzzle first-forced, 1.38 million with it — and was
//!   left out);
//! * "at most once" relations, secondary: anti-king (a pair of diagonally
//!   adjacent cells and a digit; orthogonal neighbours already share a row
//!   or a column), anti-knight (a knight's pair and a digit),
//!   non-consecutive (an orthogonal pair and a digit pair {d, d+1}, in the
//!   four options concerned — the two that put the same digit in both cells
//!   are excluded by the shared row or column anyway). A pair already in
//!   one region gets no item: the region excludes it.
//!
//! Option `k·n + d − 1` puts d in cell k (it covers every item above that
//! concerns it); the cages' set options follow the n³ cell options. The
//! matrix is built once per rule set ([`RulesMatrix`]) and its puzzles'
//! givens are preselected. [`check`] checks a solution against every rule
//! without the matrix, for the tests and for users.
//!
//! ```
//! use dlx::sudoku::rules::{check, Rules};
//!
//! // 6×6 with 2×3 boxes, both diagonals, and a cage r1c1+r1c2 = 3.
//! let rules = Rules::boxes(2, 3).unwrap().diagonals().cage(&[0, 1], Some(3)).unwrap();
//! let matrix = rules.matrix().unwrap();
//! let mut givens = vec![0u8; 36];
//! givens[0] = 1;
//! let (count, first) = matrix.count(&givens, 2);
//! assert!(count.solutions >= 1);
//! let grid = first.unwrap();
//! assert_eq!((grid[0], grid[1]), (1, 2)); // the cage's digits are {1, 2}
//! check(&rules, &givens, &grid).unwrap();
//! ```

use std::fmt;
use std::sync::Arc;

use crate::dlx::{BuildError, Count, ItemId, Matrix, MatrixBuilder, OptionId};
use crate::sudoku::{DlxSudoku, Limits};

/// The largest side: digits are `u8`, and a 64×64 grid is the largest any
/// format here writes.
pub const MAX_SIDE: usize = 64;

/// A killer cage: its cells (row-major indices) hold distinct digits, and
/// add up to `sum` when it is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The cells, row-major (`r·n + c`).
    pub cells: Vec<usize>,
    /// The sum of its digits, if the cage has one.
    pub sum: Option<u32>,
}

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

/// A rule set: the grid, its regions and the extra constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    side: usize,
    /// The region of each cell, row-major; each region has `side` cells.
    regions: Vec<usize>,
    extra: Vec<Vec<usize>>,
    anti_king: bool,
    anti_knight: bool,
    non_consecutive: bool,
    cages: Vec<Cage>,
}

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
            extra: Vec::new(),
            anti_king: false,
            anti_knight: false,
            non_consecutive: false,
            cages: Vec::new(),
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

    /// The cells of `cells` checked: in the grid, none twice, at most n.
    fn shape(&self, rule: &'static str, cells: &[usize]) -> Result<(), RulesError> {
        let n = self.side;
        if let Some(&cell) = cells.iter().find(|&&k| k >= n * n) {
            return Err(RulesError::Cell { rule, cell });
        }
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(RulesError::Shape {
                rule,
                why: format!("cell {} is listed twice", w[0]),
            });
        }
        if cells.len() > n || cells.is_empty() {
            return Err(RulesError::Shape {
                rule,
                why: format!("{} cells; 1 to {n} can hold distinct digits", cells.len()),
            });
        }
        Ok(())
    }

    /// Adds a region of distinct digits (a diagonal, a windoku window, a
    /// disjoint group): n cells hold every digit, fewer hold each at most
    /// once.
    pub fn extra_region(mut self, cells: &[usize]) -> Result<Rules, RulesError> {
        self.shape("extra region", cells)?;
        self.extra.push(cells.to_vec());
        Ok(self)
    }

    /// Adds both main diagonals as extra regions (X-Sudoku, f-puzzles'
    /// `diagonal+` and `diagonal-`).
    pub fn diagonals(self) -> Rules {
        let n = self.side;
        let down: Vec<usize> = (0..n).map(|i| i * n + i).collect();
        let up: Vec<usize> = (0..n).map(|i| (n - 1 - i) * n + i).collect();
        let mut r = self;
        r.extra.push(down);
        r.extra.push(up);
        r
    }

    /// Adds windoku's windows: for a side n = b², the (b−1)² b×b windows
    /// one cell in from the boxes' edges (four on 9×9, at rows and columns
    /// 2–4 and 6–8). A side that is not a square is an error.
    pub fn windoku(self) -> Result<Rules, RulesError> {
        let n = self.side;
        let Some(b) = (1..=n).find(|b| b * b == n) else {
            return Err(RulesError::Shape {
                rule: "windoku",
                why: format!("windows need a side that is a square, not {n}"),
            });
        };
        let mut r = self;
        for wr in 0..b - 1 {
            for wc in 0..b - 1 {
                let (r0, c0) = (1 + wr * (b + 1), 1 + wc * (b + 1));
                let window: Vec<usize> = (0..n).map(|i| (r0 + i / b) * n + c0 + i % b).collect();
                r = r.extra_region(&window)?;
            }
        }
        Ok(r)
    }

    /// Adds disjoint groups: the cells at one place in every box of
    /// `rows × cols` (n groups). Boxes that do not tile the grid are an
    /// error.
    pub fn disjoint_groups(self, rows: usize, cols: usize) -> Result<Rules, RulesError> {
        let n = self.side;
        if rows * cols != n {
            return Err(RulesError::Boxes { rows, cols });
        }
        let per_row = n / cols;
        let mut r = self;
        for place in 0..n {
            let (pr, pc) = (place / cols, place % cols);
            let group: Vec<usize> = (0..n)
                .map(|x| ((x / per_row) * rows + pr) * n + (x % per_row) * cols + pc)
                .collect();
            r = r.extra_region(&group)?;
        }
        Ok(r)
    }

    /// No two cells a king's move apart hold the same digit.
    pub fn anti_king(mut self) -> Rules {
        self.anti_king = true;
        self
    }

    /// No two cells a knight's move apart hold the same digit.
    pub fn anti_knight(mut self) -> Rules {
        self.anti_knight = true;
        self
    }

    /// No two orthogonally adjacent cells hold consecutive digits.
    pub fn non_consecutive(mut self) -> Rules {
        self.non_consecutive = true;
        self
    }

    /// Adds a killer cage: distinct digits in `cells`, adding up to `sum`
    /// when given. A sum no digit set reaches is an error.
    pub fn cage(mut self, cells: &[usize], sum: Option<u32>) -> Result<Rules, RulesError> {
        self.shape("killer cage", cells)?;
        if let Some(s) = sum {
            if digit_sets(self.side, cells.len(), s).is_empty() {
                return Err(RulesError::Sum {
                    cage: self.cages.len(),
                    sum: s,
                });
            }
        }
        self.cages.push(Cage {
            cells: cells.to_vec(),
            sum,
        });
        Ok(self)
    }

    /// The extra regions, in the order given.
    pub fn extra_regions(&self) -> &[Vec<usize>] {
        &self.extra
    }

    /// Whether cells a king's move apart differ.
    pub fn has_anti_king(&self) -> bool {
        self.anti_king
    }

    /// Whether cells a knight's move apart differ.
    pub fn has_anti_knight(&self) -> bool {
        self.anti_knight
    }

    /// Whether orthogonal neighbours hold no consecutive digits.
    pub fn has_non_consecutive(&self) -> bool {
        self.non_consecutive
    }

    /// The killer cages, in the order given.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The pairs of cells that must differ beyond rows, columns and regions
    /// (anti-king's diagonal neighbours, anti-knight's), each once, not
    /// already in one region.
    fn differ_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.side as isize;
        let mut moves: Vec<(isize, isize)> = Vec::new();
        if self.anti_king {
            moves.extend([(1, 1), (1, -1)]);
        }
        if self.anti_knight {
            moves.extend([(1, 2), (1, -2), (2, 1), (2, -1)]);
        }
        let mut pairs = Vec::new();
        for r in 0..n {
            for c in 0..n {
                for &(dr, dc) in &moves {
                    let (r2, c2) = (r + dr, c + dc);
                    if r2 < n && (0..n).contains(&c2) {
                        let (a, b) = ((r * n + c) as usize, (r2 * n + c2) as usize);
                        if self.regions[a] != self.regions[b] {
                            pairs.push((a, b));
                        }
                    }
                }
            }
        }
        pairs
    }

    /// Orthogonally adjacent pairs, for non-consecutive.
    fn orthogonal_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.side;
        let mut pairs = Vec::new();
        for k in 0..n * n {
            if k % n + 1 < n {
                pairs.push((k, k + 1));
            }
            if k + n < n * n {
                pairs.push((k, k + n));
            }
        }
        pairs
    }

    /// The exact-cover matrix of these rules (see the module documentation).
    pub fn matrix(&self) -> Result<RulesMatrix, BuildError> {
        RulesMatrix::new(self.clone())
    }
}

/// The sets of `m` distinct digits of 1..=n adding up to `sum`, each as a
/// bitmask (bit d − 1 for digit d).
fn digit_sets(n: usize, m: usize, sum: u32) -> Vec<u64> {
    fn walk(n: usize, from: usize, m: usize, sum: u32, mask: u64, out: &mut Vec<u64>) {
        if m == 0 {
            if sum == 0 {
                out.push(mask);
            }
            return;
        }
        for d in from..=n {
            if d as u32 > sum {
                break;
            }
            walk(n, d + 1, m - 1, sum - d as u32, mask | 1 << (d - 1), out);
        }
    }
    let mut out = Vec::new();
    walk(n, 1, m, sum, 0, &mut out);
    out
}

/// The exact-cover matrix of a rule set, built once and shared by its
/// puzzles.
#[derive(Debug)]
pub struct RulesMatrix {
    rules: Rules,
    /// Shared with the solvers that own what they search.
    matrix: Arc<Matrix>,
}

impl RulesMatrix {
    fn new(rules: Rules) -> Result<RulesMatrix, BuildError> {
        let n = rules.side;
        let nn = n * n;
        let mut b = MatrixBuilder::new();
        // Primary: cell, row, column, region; full extra regions; summed cages.
        let full: Vec<usize> = (0..rules.extra.len())
            .filter(|&e| rules.extra[e].len() == n)
            .collect();
        let summed: Vec<usize> = (0..rules.cages.len())
            .filter(|&c| rules.cages[c].sum.is_some())
            .collect();
        let primary = 4 * nn + n * (full.len() + summed.len());
        // Secondary: partial extra regions, unsummed cages, the pairs.
        let partial: Vec<usize> = (0..rules.extra.len())
            .filter(|&e| rules.extra[e].len() < n)
            .collect();
        let unsummed: Vec<usize> = (0..rules.cages.len())
            .filter(|&c| rules.cages[c].sum.is_none())
            .collect();
        let differ = rules.differ_pairs();
        let orthogonal = if rules.non_consecutive {
            rules.orthogonal_pairs()
        } else {
            Vec::new()
        };
        let secondary = n * (partial.len() + unsummed.len() + differ.len())
            + n.saturating_sub(1) * orthogonal.len();
        b.primary_items(primary)?;
        if secondary > 0 {
            b.secondary_items(secondary)?;
        }
        // Each cell's items beyond the classic four, per digit: a list of
        // (item base) where the item of digit d is base + d − 1, and the
        // non-consecutive items, where pair p's item for {d, d+1} is
        // base + d − 1.
        let mut extra_items: Vec<Vec<usize>> = vec![Vec::new(); nn];
        let mut next = 4 * nn;
        for &e in &full {
            for &k in &rules.extra[e] {
                extra_items[k].push(next);
            }
            next += n;
        }
        for &c in &summed {
            for &k in &rules.cages[c].cells {
                extra_items[k].push(next);
            }
            next += n;
        }
        let cage_base: Vec<usize> = (0..summed.len())
            .map(|j| 4 * nn + n * (full.len() + j))
            .collect();
        for &e in &partial {
            for &k in &rules.extra[e] {
                extra_items[k].push(next);
            }
            next += n;
        }
        for &c in &unsummed {
            for &k in &rules.cages[c].cells {
                extra_items[k].push(next);
            }
            next += n;
        }
        for &(a, b2) in &differ {
            extra_items[a].push(next);
            extra_items[b2].push(next);
            next += n;
        }
        let mut consecutive: Vec<Vec<usize>> = vec![Vec::new(); nn];
        for &(a, b2) in &orthogonal {
            consecutive[a].push(next);
            consecutive[b2].push(next);
            next += n - 1;
        }
        let item = ItemId::must;
        let mut items = Vec::new();
        for k in 0..nn {
            let (r, c, x) = (k / n, k % n, rules.regions[k]);
            for d in 0..n {
                items.clear();
                items.extend([k, nn + r * n + d, 2 * nn + c * n + d, 3 * nn + x * n + d].map(item));
                items.extend(extra_items[k].iter().map(|&base| item(base + d)));
                // Pair p's item for {e, e+1} (0-based e) concerns d = e and
                // d = e + 1.
                for &base in &consecutive[k] {
                    if d + 1 < n {
                        items.push(item(base + d));
                    }
                    if d > 0 {
                        items.push(item(base + d - 1));
                    }
                }
                b.option(&items)?;
            }
        }
        for (j, &c) in summed.iter().enumerate() {
            let cage = &rules.cages[c];
            let sum = cage.sum.unwrap_or(0);
            for set in digit_sets(n, cage.cells.len(), sum) {
                let missing: Vec<ItemId> = (0..n)
                    .filter(|&d| set >> d & 1 == 0)
                    .map(|d| item(cage_base[j] + d))
                    .collect();
                // A cage of n cells has one set, all digits: nothing to add.
                if !missing.is_empty() {
                    b.option(&missing)?;
                }
            }
        }
        Ok(RulesMatrix {
            rules,
            matrix: Arc::new(b.build()?),
        })
    }

    /// The rules this matrix is for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The exact-cover matrix.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The exact-cover matrix, shared (for a solver that owns what it
    /// searches).
    pub fn shared_matrix(&self) -> Arc<Matrix> {
        self.matrix.clone()
    }

    /// The option putting digit `d` (1..=n) in cell `k` (row-major).
    pub fn option(&self, k: usize, d: u8) -> OptionId {
        OptionId::must(k * self.rules.side + d as usize - 1)
    }

    /// The grid a solution's options describe (0 where no option says).
    pub fn grid_of(&self, solution: impl IntoIterator<Item = OptionId>) -> Vec<u8> {
        let n = self.rules.side;
        let mut cells = vec![0u8; n * n];
        for o in solution {
            let i = o.as_usize();
            if i < n * n * n {
                cells[i / n] = (i % n + 1) as u8;
            }
        }
        cells
    }

    /// Counts the solutions of the puzzle `givens` (row-major, 0 for an
    /// empty cell) up to `limit`, and returns the first. Givens that clash
    /// (or a digit past n) have no solution.
    pub fn count(&self, givens: &[u8], limit: u64) -> (Count, Option<Vec<u8>>) {
        let mut s = DlxSudoku::on_rules(self);
        let mut first = Vec::new();
        let answer = s.solve_cells(givens, &Limits::count_to(limit), &mut first);
        let count = Count {
            solutions: answer.solutions,
            complete: answer.complete,
        };
        (count, (answer.solutions > 0).then_some(first))
    }
}

/// A house of the grid (0-based): a digit may stand in it once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum House {
    /// A row.
    Row(usize),
    /// A column.
    Column(usize),
    /// A region (a box, or a jigsaw piece).
    Region(usize),
    /// An extra region, in the order of [`Rules::extra_regions`].
    Extra(usize),
    /// A killer cage, in the order of [`Rules::cages`].
    Cage(usize),
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            House::Row(i) => write!(f, "row {}", i + 1),
            House::Column(i) => write!(f, "column {}", i + 1),
            House::Region(i) => write!(f, "region {}", i + 1),
            House::Extra(i) => write!(f, "extra region {}", i + 1),
            House::Cage(i) => write!(f, "killer cage {}", i + 1),
        }
    }
}

/// A rule between two neighbouring cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Neighbours {
    /// Diagonal neighbours differ.
    AntiKing,
    /// Cells a knight's move apart differ.
    AntiKnight,
    /// Orthogonal neighbours are not consecutive.
    NonConsecutive,
}

impl fmt::Display for Neighbours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Neighbours::AntiKing => "anti-king",
            Neighbours::AntiKnight => "anti-knight",
            Neighbours::NonConsecutive => "non-consecutive",
        })
    }
}

/// What [`check`] found wrong first. Cells are row-major indices.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Broken {
    /// The solution or the givens are not the grid's size.
    Size {
        /// The grid's side.
        side: usize,
    },
    /// A cell holds no digit of the grid.
    NotADigit {
        /// The cell.
        cell: usize,
        /// What it holds.
        digit: u8,
    },
    /// A cell differs from its given.
    Given {
        /// The cell.
        cell: usize,
        /// What it holds.
        digit: u8,
        /// The given.
        given: u8,
    },
    /// A digit twice in a house.
    Twice {
        /// The house.
        house: House,
        /// The digit.
        digit: u8,
    },
    /// A cage whose digits do not add up to its sum.
    CageSum {
        /// The cage, in the order of [`Rules::cages`].
        cage: usize,
        /// What its digits add up to.
        total: u32,
        /// Its sum.
        sum: u32,
    },
    /// Two cells that break a rule between neighbours.
    Neighbours {
        /// The rule.
        rule: Neighbours,
        /// The cells.
        cells: [usize; 2],
        /// Their digits.
        digits: [u8; 2],
    },
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Broken::Size { side } => write!(f, "a grid of side {side} has {} cells", side * side),
            Broken::NotADigit { cell, digit } => {
                write!(f, "cell {cell} holds {digit}, not a digit of the grid")
            }
            Broken::Given { cell, digit, given } => {
                write!(f, "cell {cell} holds {digit}, the given is {given}")
            }
            Broken::Twice { house, digit } => write!(f, "{house}: {digit} twice"),
            Broken::CageSum { cage, total, sum } => {
                write!(f, "killer cage {}: adds up to {total}, not {sum}", cage + 1)
            }
            Broken::Neighbours {
                rule,
                cells,
                digits,
            } => write!(
                f,
                "{rule}: cells {} and {} hold {} and {}",
                cells[0], cells[1], digits[0], digits[1]
            ),
        }
    }
}

impl std::error::Error for Broken {}

/// Checks `solution` (row-major digits) against every rule and the
/// `givens`, without the matrix: the tests' independent checker. Says what
/// is wrong first.
pub fn check(rules: &Rules, givens: &[u8], solution: &[u8]) -> Result<(), Broken> {
    let n = rules.side;
    if solution.len() != n * n || givens.len() != n * n {
        return Err(Broken::Size { side: n });
    }
    for cell in 0..n * n {
        let digit = solution[cell];
        if digit == 0 || digit as usize > n {
            return Err(Broken::NotADigit { cell, digit });
        }
        let given = givens[cell];
        if given != 0 && given != digit {
            return Err(Broken::Given { cell, digit, given });
        }
    }
    let distinct = |house: House, cells: &mut dyn Iterator<Item = usize>| -> Result<(), Broken> {
        let mut seen = 0u128;
        for k in cells {
            let bit = 1u128 << solution[k];
            if seen & bit != 0 {
                let digit = solution[k];
                return Err(Broken::Twice { house, digit });
            }
            seen |= bit;
        }
        Ok(())
    };
    for i in 0..n {
        distinct(House::Row(i), &mut (0..n).map(|c| i * n + c))?;
        distinct(House::Column(i), &mut (0..n).map(|r| r * n + i))?;
        distinct(
            House::Region(i),
            &mut (0..n * n).filter(|&k| rules.regions[k] == i),
        )?;
    }
    for (e, cells) in rules.extra.iter().enumerate() {
        distinct(House::Extra(e), &mut cells.iter().copied())?;
    }
    for (c, cage) in rules.cages.iter().enumerate() {
        distinct(House::Cage(c), &mut cage.cells.iter().copied())?;
        let total: u32 = cage.cells.iter().map(|&k| solution[k] as u32).sum();
        if let Some(sum) = cage.sum.filter(|&s| s != total) {
            return Err(Broken::CageSum {
                cage: c,
                total,
                sum,
            });
        }
    }
    let sn = n as isize;
    for r in 0..sn {
        for c in 0..sn {
            let near = |dr: isize, dc: isize, rule: Neighbours, bad: &dyn Fn(u8, u8) -> bool| {
                let (r2, c2) = (r + dr, c + dc);
                if !(0..sn).contains(&r2) || !(0..sn).contains(&c2) {
                    return Ok(());
                }
                let cells = [(r * sn + c) as usize, (r2 * sn + c2) as usize];
                let digits = cells.map(|k| solution[k]);
                if bad(digits[0], digits[1]) {
                    return Err(Broken::Neighbours {
                        rule,
                        cells,
                        digits,
                    });
                }
                Ok(())
            };
            let same = |a: u8, b: u8| a == b;
            if rules.anti_king {
                for (dr, dc) in [(1, 1), (1, -1), (1, 0), (0, 1)] {
                    near(dr, dc, Neighbours::AntiKing, &same)?;
                }
            }
            if rules.anti_knight {
                for (dr, dc) in [(1, 2), (1, -2), (2, 1), (2, -1)] {
                    near(dr, dc, Neighbours::AntiKnight, &same)?;
                }
            }
            if rules.non_consecutive {
                for (dr, dc) in [(1, 0), (0, 1)] {
                    near(dr, dc, Neighbours::NonConsecutive, &|a, b| {
                        a.abs_diff(b) == 1
                    })?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    use super::{check, digit_sets, Rules, RulesError};

    /// Every completion of `givens` that keeps rows, columns and regions
    /// distinct, then filtered by [`check`]: a counter that shares nothing
    /// with the matrix.
    fn brute_force(rules: &Rules, givens: &[u8]) -> Vec<Vec<u8>> {
        fn fill(
            rules: &Rules,
            givens: &[u8],
            grid: &mut Vec<u8>,
            k: usize,
            out: &mut Vec<Vec<u8>>,
        ) {
            let n = rules.side();
            if k == n * n {
                if check(rules, givens, grid).is_ok() {
                    out.push(grid.clone());
                }
                return;
            }
            let digits: Vec<u8> = if givens[k] != 0 {
                vec![givens[k]]
            } else {
                (1..=n as u8).collect()
            };
            for d in digits {
                let clash = (0..k).any(|j| {
                    grid[j] == d
                        && (j / n == k / n
                            || j % n == k % n
                            || rules.regions()[j] == rules.regions()[k])
                });
                if !clash {
                    grid[k] = d;
                    fill(rules, givens, grid, k + 1, out);
                    grid[k] = 0;
                }
            }
        }
        let (mut grid, mut out) = (vec![0; givens.len()], Vec::new());
        fill(rules, givens, &mut grid, 0, &mut out);
        out
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
