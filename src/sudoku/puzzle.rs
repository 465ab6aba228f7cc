//! [`Puzzle`]: the one puzzle type of the Sudoku layer — a rule set and
//! its givens — for classic grids and variants alike.
//!
//! Every entry point takes a `Puzzle` ([`Sudoku::solve`](super::Sudoku::solve),
//! [`solve`](super::solve), the batches of [`batch`](super::batch)); the
//! readers make one (a classic line through [`Puzzle::classic`], the
//! variant text form, f-puzzles' JSON through
//! [`Document::puzzle`](super::fpuzzles::Document::puzzle)).
//!
//! Invariants: `givens` has `side²` digits, each at most `side`; the rules
//! are shared (an `Arc`), so a puzzle is cheap to clone, and the classic
//! rules of each size are one value for every puzzle of that size, which
//! the solvers recognise without comparing.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::grid::{Conflict, Grid, Unit, BOX_SIDES};
use super::rules::Rules;

/// A Sudoku puzzle: its rules and its givens (row-major, 0 for an empty
/// cell).
///
/// ```
/// use dlx::sudoku::{format, rules::Rules, Puzzle};
///
/// let grid = format::parse_line(
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// ).unwrap();
/// let classic = Puzzle::classic(&grid);
/// assert_eq!(classic.classic_box_side(), Some(3));
/// // The same grid with both diagonals: a variant.
/// let x = Puzzle::new(Rules::boxes(3, 3).unwrap().diagonals(), grid.cells().to_vec()).unwrap();
/// assert_eq!(x.classic_box_side(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    rules: Arc<Rules>,
    givens: Vec<u8>,
    /// The solution its source gives (an f-puzzles document's, a
    /// SudokuPad link's), which an answer must equal.
    expected: Option<Vec<u8>>,
}

/// Why givens do not make a puzzle of these rules.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GivensError {
    /// Not `side²` cells.
    Cells {
        /// The cells given.
        given: usize,
        /// The side of the rules' grid.
        side: usize,
    },
    /// A digit past the side.
    Digit {
        /// The cell (row-major).
        cell: usize,
        /// The digit.
        digit: u8,
    },
    /// Two givens of one digit in a row, a column or a region: no
    /// solution, whatever the other rules (the readers refuse such a
    /// puzzle, in every form, as a classic line's reader does).
    Conflict(Conflict),
}

impl fmt::Display for GivensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GivensError::Cells { given, side } => write!(
                f,
                "{given} cells given, a grid of side {side} has {}",
                side * side
            ),
            GivensError::Digit { cell, digit } => {
                write!(f, "cell {} holds {digit}, past the grid's side", cell + 1)
            }
            GivensError::Conflict(c) => write!(f, "conflicting givens: {c}"),
        }
    }
}

impl std::error::Error for GivensError {}

impl Puzzle {
    /// The puzzle of `givens` (row-major, 0 for an empty cell) under
    /// `rules`; an error when they are not `side²` digits of 0..=side.
    pub fn new(rules: impl Into<Arc<Rules>>, givens: Vec<u8>) -> Result<Puzzle, GivensError> {
        let rules = rules.into();
        let n = rules.side();
        if givens.len() != n * n {
            return Err(GivensError::Cells {
                given: givens.len(),
                side: n,
            });
        }
        if let Some(cell) = givens.iter().position(|&d| d as usize > n) {
            return Err(GivensError::Digit {
                cell,
                digit: givens[cell],
            });
        }
        Ok(Puzzle {
            rules,
            givens,
            expected: None,
        })
    }

    /// [`new`](Self::new), for givens a reader has checked already.
    pub(crate) fn from_parts(rules: impl Into<Arc<Rules>>, givens: Vec<u8>) -> Puzzle {
        let rules = rules.into();
        debug_assert_eq!(givens.len(), rules.side() * rules.side());
        Puzzle {
            rules,
            givens,
            expected: None,
        }
    }

    /// The puzzle with the solution its source gives (row-major, every
    /// cell): [`Sudoku::solve`](super::Sudoku::solve) then refuses to
    /// answer another ([`SolveError::Misread`](super::SolveError::Misread)),
    /// the sign of a rule misread or left out. Refused (`None`) when it is
    /// not a solution of the puzzle's rules and givens.
    pub fn expecting(mut self, solution: Vec<u8>) -> Option<Puzzle> {
        super::rules::check(&self.rules, &self.givens, &solution).ok()?;
        self.expected = Some(solution);
        Some(self)
    }

    /// The solution the puzzle's source gives, if it gave one.
    pub fn expected(&self) -> Option<&[u8]> {
        self.expected.as_deref()
    }

    /// The classic puzzle of `grid` (square boxes, no other rule).
    pub fn classic(grid: &Grid) -> Puzzle {
        let rules = classic_rules(grid.box_side()).unwrap_or_else(|| {
            // A grid's box side is always one of BOX_SIDES.
            Arc::new(
                Rules::boxes(grid.box_side(), grid.box_side())
                    .unwrap_or_else(|_| unreachable!("a grid's box side is between 2 and 8")),
            )
        });
        Puzzle {
            rules,
            givens: grid.cells().to_vec(),
            expected: None,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules, shared.
    pub fn shared_rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The givens, row-major, 0 for an empty cell.
    pub fn givens(&self) -> &[u8] {
        &self.givens
    }

    /// The side of the grid.
    pub fn side(&self) -> usize {
        self.rules.side()
    }

    /// The box side `b` when the puzzle is classic: square `b × b` boxes of
    /// a size the classic solvers take ([`BOX_SIDES`]), no other rule.
    pub fn classic_box_side(&self) -> Option<usize> {
        let n = self.rules.side();
        let b = (1..=n).find(|b| b * b >= n).filter(|b| b * b == n)?;
        let classic = classic_rules(b)?;
        (Arc::ptr_eq(&self.rules, &classic) || *self.rules == *classic).then_some(b)
    }

    /// The first pair of givens of one digit in a row, a column or a region
    /// of the rules, scanning row-major (the second's cell first, then the
    /// first's); `None` when there is none. A region that fills a rectangle
    /// is a box ([`Unit::Box`], as a classic line's reader names it);
    /// another is a [`Unit::Region`].
    ///
    /// ```
    /// use dlx::sudoku::{rules::Rules, Puzzle, Unit};
    ///
    /// let mut givens = vec![0; 16];
    /// (givens[0], givens[5]) = (3, 3);
    /// let p = Puzzle::new(Rules::boxes(2, 2).unwrap(), givens).unwrap();
    /// let c = p.conflict().unwrap();
    /// assert_eq!((c.first, c.second, c.unit), ((0, 0), (1, 1), Unit::Box));
    /// ```
    pub fn conflict(&self) -> Option<Conflict> {
        let n = self.rules.side();
        let regions = self.rules.regions();
        let (mut rows, mut cols, mut regs) = ([0u64; 64], [0u64; 64], [0u64; 64]);
        let region = |k: usize| regions.get(k).copied().filter(|&x| x < 64);
        for (k, &d) in self.givens.iter().enumerate() {
            if d == 0 || usize::from(d) > n.min(64) {
                continue;
            }
            let (r, c, bit) = (k / n, k % n, 1u64 << (d - 1));
            let x = region(k);
            let unit = if rows[r] & bit != 0 {
                Unit::Row
            } else if cols[c] & bit != 0 {
                Unit::Column
            } else if x.is_some_and(|x| regs[x] & bit != 0) {
                self.region_unit(x)
            } else {
                rows[r] |= bit;
                cols[c] |= bit;
                if let Some(x) = x {
                    regs[x] |= bit;
                }
                continue;
            };
            let first = (0..k)
                .find(|&j| {
                    self.givens[j] == d
                        && match unit {
                            Unit::Row => j / n == r,
                            Unit::Column => j % n == c,
                            Unit::Box | Unit::Region => region(j) == x,
                        }
                })
                .unwrap_or(k);
            return Some(Conflict {
                digit: d,
                first: (first / n, first % n),
                second: (r, c),
                unit,
            });
        }
        None
    }

    /// What region `x` is called: a box where it fills a rectangle.
    fn region_unit(&self, x: Option<usize>) -> Unit {
        let n = self.rules.side();
        let cells: Vec<usize> = (self.rules.regions().iter().enumerate())
            .filter(|&(_, &y)| Some(y) == x)
            .map(|(k, _)| k)
            .collect();
        let rows = cells.iter().map(|k| k / n);
        let cols = cells.iter().map(|k| k % n);
        let (r0, r1) = (rows.clone().min(), rows.max());
        let (c0, c1) = (cols.clone().min(), cols.max());
        match (r0, r1, c0, c1) {
            (Some(r0), Some(r1), Some(c0), Some(c1))
                if (r1 - r0 + 1) * (c1 - c0 + 1) == cells.len() =>
            {
                Unit::Box
            }
            _ => Unit::Region,
        }
    }

    /// The puzzle as a classic [`Grid`], when it is one.
    pub fn grid(&self) -> Option<Grid> {
        self.classic_box_side()?;
        Grid::from_cells(self.givens.clone())
    }
}

/// Why a line is not a puzzle ([`Puzzle::from_str`](std::str::FromStr)):
/// the error of the format it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// A classic grid's line.
    Line(super::format::PuzzleError),
    /// The variant text form (a grid line and rule words).
    Variant(super::rule_line::RuleLineError),
    /// f-puzzles: JSON, a link or its compressed string.
    Fpuzzles(super::fpuzzles::FpuzzlesError),
    /// Givens that do not fit their rules.
    Givens(GivensError),
    /// A link that carries no puzzle this reader knows (not f-puzzles
    /// data): the link.
    Link(String),
    /// A SudokuPad link this reader cannot take (a short id, SudokuPad's
    /// own format).
    SudokuPad(super::sudokupad::SudokuPadError),
    /// No puzzle at all: an empty text.
    Empty,
    /// Several puzzles in one text (their number, at least 2): a text is
    /// one puzzle.
    Several(usize),
    /// Pencil marks that make no puzzle (a cell without a candidate).
    Marks(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Line(e) => e.fmt(f),
            ReadError::Variant(e) => e.fmt(f),
            ReadError::Fpuzzles(e) => e.fmt(f),
            ReadError::Givens(e) => e.fmt(f),
            ReadError::Link(link) => {
                // A link's head names it; its data may run to kilobytes.
                let head: String = link.chars().take(60).collect();
                let more = if head.len() < link.len() { "…" } else { "" };
                write!(
                    f,
                    "a link this reader does not know: {head}{more} (it reads f-puzzles \
                     links, `?load=…`, and SudokuPad's that carry f-puzzles data, \
                     `…/fpuz…`, `…/fpuzzles…`)"
                )
            }
            ReadError::SudokuPad(e) => e.fmt(f),
            ReadError::Empty => f.write_str("no puzzle given"),
            ReadError::Marks(why) => write!(f, "pencil marks: {why}"),
            ReadError::Several(n) => write!(
                f,
                "{n} puzzles in one text: give one puzzle at a time (one a line to the \
                 command line)"
            ),
        }
    }
}

impl std::error::Error for ReadError {}

impl std::str::FromStr for Puzzle {
    type Err = ReadError;

    /// One puzzle as people paste it, through the one reader
    /// ([`input::read`](super::input::read)): f-puzzles' JSON, a link or
    /// its compressed string; the variant text form (a grid line, then rule
    /// words); a classic grid's line (`.`, `0` or `-` for empty cells) or
    /// its rows.
    ///
    /// ```
    /// use dlx::sudoku::{Limits, Puzzle, Status, Sudoku};
    ///
    /// let p: Puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    ///     .parse()
    ///     .unwrap();
    /// let solved = Sudoku::default().solve(&p, &Limits::count_to(2)).unwrap();
    /// assert_eq!(solved.answer.status(), Status::Unique);
    /// let x: Puzzle = format!("{} x", ".".repeat(81)).parse().unwrap();
    /// assert_eq!(x.classic_box_side(), None);
    /// ```
    fn from_str(text: &str) -> Result<Puzzle, ReadError> {
        super::input::read(text).map(|p| p.puzzle)
    }
}

impl fmt::Display for Puzzle {
    /// The variant text form: the grid line, then the rules' words (a
    /// classic grid: its line alone), which [`from_str`](std::str::FromStr)
    /// reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::rule_line::write(&self.rules, &self.givens))
    }
}

/// The classic rules of box side `b` (one shared value per size), for the
/// box sides of [`BOX_SIDES`].
pub(crate) fn classic_rules(b: usize) -> Option<Arc<Rules>> {
    static RULES: [OnceLock<Option<Arc<Rules>>>; 9] = [const { OnceLock::new() }; 9];
    if !BOX_SIDES.contains(&b) {
        return None;
    }
    RULES
        .get(b)?
        .get_or_init(|| Rules::boxes(b, b).ok().map(Arc::new))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_puzzles_are_recognised_and_givens_checked() {
        let grid = Grid::empty(2).unwrap();
        let p = Puzzle::classic(&grid);
        assert_eq!(p.classic_box_side(), Some(2));
        assert_eq!(p.grid(), Some(grid));
        // Built by hand, the same rules are classic too.
        let by_hand = Puzzle::new(Rules::boxes(2, 2).unwrap(), vec![0; 16]).unwrap();
        assert_eq!(by_hand.classic_box_side(), Some(2));
        // 6×6 with 2×3 boxes is no square grid of boxes.
        let six = Puzzle::new(Rules::boxes(2, 3).unwrap(), vec![0; 36]).unwrap();
        assert_eq!(six.classic_box_side(), None);
        assert_eq!(
            Puzzle::new(Rules::boxes(2, 2).unwrap(), vec![0; 15]),
            Err(GivensError::Cells { given: 15, side: 4 })
        );
        let mut five = vec![0; 16];
        five[3] = 5;
        assert_eq!(
            Puzzle::new(Rules::boxes(2, 2).unwrap(), five),
            Err(GivensError::Digit { cell: 3, digit: 5 })
        );
    }

    #[test]
    fn puzzles_read_as_pasted_and_write_back() {
        let classic: Puzzle = "1...............".parse().unwrap();
        assert_eq!(classic.classic_box_side(), Some(2));
        let x: Puzzle = "1............... x antiking".parse().unwrap();
        assert!(x.rules().has_anti_king() && x.classic_box_side().is_none());
        for p in [classic, x] {
            assert_eq!(p.to_string().parse::<Puzzle>().unwrap(), p);
        }
        let json = super::super::fpuzzles::write(4, &[0; 16], None);
        assert_eq!(json.parse::<Puzzle>().unwrap().classic_box_side(), Some(2));
        assert!(matches!("12".parse::<Puzzle>(), Err(ReadError::Line(_))));
        assert!(matches!("{".parse::<Puzzle>(), Err(ReadError::Fpuzzles(_))));
    }
}
