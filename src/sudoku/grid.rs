//! Sudoku grids of any box size, their alphabets, and the validity checks.
//!
//! A [`Grid`] with box side `b` has `n = b²` rows, columns, boxes and digits,
//! and `n²` cells stored row-major; a cell holds 0 (empty) or a digit `1..=n`.
//! Box sides 2 to 8 are supported (4×4 up to 64×64).
//!
//! Two checks live here, independent of every solver: [`Grid::conflict`]
//! (givens that break a rule, which makes a puzzle *invalid*) and
//! [`check_solution`] (a complete grid that obeys every rule and keeps every
//! given). The tests run every solver's answer through the latter.

use std::fmt;

/// The smallest and largest box side supported.
pub const BOX_SIDES: std::ops::RangeInclusive<usize> = 2..=8;

/// A Sudoku grid: givens (or a solution) with 0 for an empty cell.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    box_side: usize,
    cells: Vec<u8>,
}

/// Two givens that break a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The digit that repeats.
    pub digit: u8,
    /// The first cell (row, column), 0-based.
    pub first: (usize, usize),
    /// The second cell.
    pub second: (usize, usize),
    /// Which unit they share.
    pub unit: Unit,
}

/// A row, a column or a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
    /// A region of a variant's rules (a jigsaw's piece, a box of another
    /// shape).
    Region,
}

impl Unit {
    /// Its name in messages: `row`, `column`, `box`, `region`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
            Unit::Region => "region",
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = self.unit.name();
        write!(
            f,
            "digit {} twice in a {unit}, at r{}c{} and r{}c{}",
            self.digit,
            self.first.0 + 1,
            self.first.1 + 1,
            self.second.0 + 1,
            self.second.1 + 1
        )
    }
}

impl Grid {
    /// An empty grid with box side `b` (`None` outside [`BOX_SIDES`]).
    pub fn empty(box_side: usize) -> Option<Grid> {
        if !BOX_SIDES.contains(&box_side) {
            return None;
        }
        let n = box_side * box_side;
        Some(Grid {
            box_side,
            cells: vec![0; n * n],
        })
    }

    /// A grid from row-major cells (0 empty, else `1..=n`), if the size is
    /// `b⁴` for a supported `b` and every value is in range.
    pub fn from_cells(cells: Vec<u8>) -> Option<Grid> {
        let b = BOX_SIDES
            .into_iter()
            .find(|b| b * b * b * b == cells.len())?;
        let n = b * b;
        if cells.iter().any(|&v| v as usize > n) {
            return None;
        }
        Some(Grid { box_side: b, cells })
    }

    /// The box side `b`.
    pub fn box_side(&self) -> usize {
        self.box_side
    }

    /// The side `n = b²`: rows, columns, boxes and digits.
    pub fn side(&self) -> usize {
        self.box_side * self.box_side
    }

    /// The cells, row-major, 0 for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The cells to write, for the solvers (values stay `0..=n`).
    pub(crate) fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// The cell at row `r`, column `c` (0 when empty).
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.side() + c]
    }

    /// Sets a cell (0 empties it). Panics if out of range: a programming error.
    pub fn set(&mut self, r: usize, c: usize, digit: u8) {
        assert!(digit as usize <= self.side(), "digit {digit} out of range");
        let n = self.side();
        self.cells[r * n + c] = digit;
    }

    /// Sets cell `k` (row-major; 0 empties it). Panics if out of range: a
    /// programming error.
    pub fn set_cell(&mut self, k: usize, digit: u8) {
        assert!(digit as usize <= self.side(), "digit {digit} out of range");
        self.cells[k] = digit;
    }

    /// The number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The box of cell (r, c).
    pub fn box_of(&self, r: usize, c: usize) -> usize {
        (r / self.box_side) * self.box_side + c / self.box_side
    }

    /// The first pair of givens that break a rule, scanning row-major.
    ///
    /// Bitmasks on the stack (a side is at most 64): this runs for every
    /// puzzle read, so it allocates nothing.
    pub fn conflict(&self) -> Option<Conflict> {
        let (n, b) = (self.side(), self.box_side);
        // Row-major, so one row's mask at a time; no division per cell.
        let (mut cols, mut boxes) = ([0u64; 64], [0u64; 64]);
        let mut found = None;
        'rows: for (r, line) in self.cells.chunks_exact(n).enumerate() {
            let mut row = 0u64;
            let band = (r / b) * b;
            for (c, &d) in line.iter().enumerate() {
                if d == 0 {
                    continue;
                }
                let x = band + c / b;
                let bit = 1u64 << (d - 1);
                let unit = if row & bit != 0 {
                    Unit::Row
                } else if cols[c] & bit != 0 {
                    Unit::Column
                } else if boxes[x] & bit != 0 {
                    Unit::Box
                } else {
                    row |= bit;
                    cols[c] |= bit;
                    boxes[x] |= bit;
                    continue;
                };
                found = Some((r, c, x, d, unit));
                break 'rows;
            }
        }
        let (r, c, x, d, unit) = found?;
        let k = r * n + c;
        // Rare: find the earlier cell of the clash.
        let first = (0..k)
            .find(|&j| {
                let (r2, c2) = (j / n, j % n);
                self.cells[j] == d
                    && match unit {
                        Unit::Row => r2 == r,
                        Unit::Column => c2 == c,
                        Unit::Box | Unit::Region => self.box_of(r2, c2) == x,
                    }
            })
            .unwrap_or(k);
        Some(Conflict {
            digit: d,
            first: (first / n, first % n),
            second: (r, c),
            unit,
        })
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Grid({})",
            Alphabet::default_for(self.side()).line(self, '.')
        )
    }
}

impl fmt::Display for Grid {
    /// The grid as one line, row-major: its alphabet's usual symbols
    /// ([`Alphabet::default_for`]), `.` for an empty cell — the `line`
    /// format, which [`format::parse_line`](super::format::parse_line)
    /// reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Alphabet::default_for(self.side()).line(self, '.'))
    }
}

/// What [`check_solution`] found wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolutionError {
    /// The solution is not the puzzle's size.
    Size,
    /// A cell (row, column, 0-based) is empty or holds no digit of the grid.
    Unfilled((usize, usize)),
    /// A given (row, column, 0-based) was changed.
    GivenChanged((usize, usize)),
    /// A digit twice in a unit (`index`: 0-based row, column or box).
    Twice {
        /// The digit.
        digit: u8,
        /// The kind of unit.
        unit: Unit,
        /// Which one.
        index: usize,
    },
}

impl fmt::Display for SolutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SolutionError::Size => write!(f, "solution has a different size"),
            SolutionError::Unfilled((r, c)) => write!(f, "cell r{}c{} is not filled", r + 1, c + 1),
            SolutionError::GivenChanged((r, c)) => {
                write!(f, "given at r{}c{} was changed", r + 1, c + 1)
            }
            SolutionError::Twice { digit, unit, index } => {
                write!(f, "digit {digit} twice in {} {}", unit.name(), index + 1)
            }
        }
    }
}

impl std::error::Error for SolutionError {}

/// Checks that `solution` solves `puzzle`: same size, every cell filled,
/// every row, column and box a permutation of `1..=n`, every given kept.
///
/// This is the independent checker: it shares no code with any solver.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), SolutionError> {
    if puzzle.box_side != solution.box_side {
        return Err(SolutionError::Size);
    }
    let n = solution.side();
    for (k, (&p, &s)) in puzzle.cells.iter().zip(&solution.cells).enumerate() {
        if s == 0 || s as usize > n {
            return Err(SolutionError::Unfilled((k / n, k % n)));
        }
        if p != 0 && p != s {
            return Err(SolutionError::GivenChanged((k / n, k % n)));
        }
    }
    for unit in 0..n {
        let (mut row, mut col, mut bx) =
            (vec![false; n + 1], vec![false; n + 1], vec![false; n + 1]);
        let b = solution.box_side;
        for i in 0..n {
            let r = solution.get(unit, i) as usize;
            let c = solution.get(i, unit) as usize;
            let x = solution.get((unit / b) * b + i / b, (unit % b) * b + i % b) as usize;
            for (seen, d, what) in [
                (&mut row, r, Unit::Row),
                (&mut col, c, Unit::Column),
                (&mut bx, x, Unit::Box),
            ] {
                if seen[d] {
                    return Err(SolutionError::Twice {
                        digit: d as u8,
                        unit: what,
                        index: unit,
                    });
                }
                seen[d] = true;
            }
        }
    }
    Ok(())
}

/// How digits are written. Each alphabet is a sequence of symbols for the
/// digits 1, 2, …; letters are read in either case while the alphabet's
/// first `n` symbols hold no lowercase letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// `1`–`9`, then `A`–`Z` (`1-9A-G` for 16×16): up to 35×35.
    Digits,
    /// `A`–`Z`, then `a`–`z`, `0`–`9`, `+`, `/` (base64's order: POJ 3076's
    /// `A`–`P` for 16×16, `A`–`Y` for 25×25, `A-Za-j` for 36×36): up to
    /// 64×64.
    Letters,
    /// `0`–`9`, then `A`–`Z`, with `0` = 1 (hexadecimal `0-9A-F` for
    /// 16×16): up to 36×36.
    Hex,
}

/// [`Alphabet::Letters`]' symbols.
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

impl Alphabet {
    /// The usual alphabet for side `n`: digits up to 9×9, letters beyond.
    pub fn default_for(n: usize) -> Alphabet {
        if n <= 9 {
            Alphabet::Digits
        } else {
            Alphabet::Letters
        }
    }

    /// The largest side the alphabet can write: its number of symbols.
    pub fn max_side(self) -> usize {
        match self {
            Alphabet::Digits => 35,
            Alphabet::Letters => 64,
            Alphabet::Hex => 36,
        }
    }

    /// The alphabet's name, as `--alphabet` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Alphabet::Digits => "digits",
            Alphabet::Letters => "letters",
            Alphabet::Hex => "hex",
        }
    }

    /// The symbol for digit `d` in `1..=max_side()` (`?` past it).
    pub fn symbol(self, d: u8) -> char {
        let d = u32::from(d);
        let ch = match self {
            Alphabet::Digits if d <= 9 => char::from_digit(d, 10),
            Alphabet::Digits => char::from_u32('A' as u32 + d - 10),
            Alphabet::Letters => BASE64.get(d as usize - 1).map(|&b| b as char),
            Alphabet::Hex if d <= 10 => char::from_digit(d - 1, 10),
            Alphabet::Hex => char::from_u32('A' as u32 + d - 11),
        };
        match ch {
            Some(c) if d >= 1 && (d as usize) <= self.max_side() => c,
            _ => '?',
        }
    }

    /// The digit a symbol stands for, if it is one of this alphabet's first
    /// `n` symbols (letters in either case while none of those is
    /// lowercase: `Letters` past 26 tells `a` from `A`).
    pub fn digit(self, ch: char, n: usize) -> Option<u8> {
        let upper = ch.to_ascii_uppercase();
        let d = match (self, ch) {
            (Alphabet::Digits, '1'..='9') => ch as u32 - '0' as u32,
            (Alphabet::Digits, _) if upper.is_ascii_uppercase() => upper as u32 - 'A' as u32 + 10,
            (Alphabet::Letters, 'A'..='Z') => ch as u32 - 'A' as u32 + 1,
            (Alphabet::Letters, 'a'..='z') if n <= 26 => ch as u32 - 'a' as u32 + 1,
            (Alphabet::Letters, 'a'..='z') => ch as u32 - 'a' as u32 + 27,
            (Alphabet::Letters, '0'..='9') => ch as u32 - '0' as u32 + 53,
            (Alphabet::Letters, '+') => 63,
            (Alphabet::Letters, '/') => 64,
            (Alphabet::Hex, '0'..='9') => ch as u32 - '0' as u32 + 1,
            (Alphabet::Hex, _) if upper.is_ascii_uppercase() => upper as u32 - 'A' as u32 + 11,
            _ => return None,
        };
        (1..=n.min(self.max_side()) as u32)
            .contains(&d)
            .then_some(d as u8)
    }

    /// The grid on one line, `empty` for empty cells.
    pub fn line(self, grid: &Grid, empty: char) -> String {
        grid.cells()
            .iter()
            .map(|&d| if d == 0 { empty } else { self.symbol(d) })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabets_round_trip() {
        for (a, n) in [
            (Alphabet::Digits, 9),
            (Alphabet::Digits, 16),
            (Alphabet::Digits, 25),
            (Alphabet::Letters, 16),
            (Alphabet::Letters, 25),
            (Alphabet::Letters, 36),
            (Alphabet::Letters, 49),
            (Alphabet::Letters, 64),
            (Alphabet::Hex, 16),
            (Alphabet::Hex, 36),
        ] {
            for d in 1..=n as u8 {
                assert_eq!(a.digit(a.symbol(d), n), Some(d), "{a:?} {d}");
            }
            assert_eq!(a.digit('.', n), None);
        }
        assert_eq!(Alphabet::Letters.symbol(16), 'P');
        assert_eq!(Alphabet::Hex.symbol(1), '0');
        assert_eq!(Alphabet::Digits.symbol(16), 'G');
        assert_eq!(Alphabet::Digits.digit('0', 9), None);
        assert_eq!(Alphabet::Letters.digit('Q', 16), None);
        // Letters past Z: base64's order, case told apart.
        assert_eq!(Alphabet::Letters.symbol(27), 'a');
        assert_eq!(Alphabet::Letters.symbol(64), '/');
        assert_eq!(Alphabet::Letters.digit('a', 16), Some(1));
        assert_eq!(Alphabet::Letters.digit('a', 36), Some(27));
        assert_eq!(Alphabet::Letters.digit('0', 64), Some(53));
        assert_eq!(Alphabet::Letters.digit('0', 36), None);
        assert_eq!(Alphabet::Digits.symbol(36), '?');
        assert_eq!(Alphabet::Hex.symbol(36), 'Z');
    }

    #[test]
    fn conflicts_are_found_in_each_unit() {
        let mut g = Grid::empty(3).unwrap();
        assert_eq!(g.conflict(), None);
        g.set(0, 0, 5);
        g.set(0, 8, 5);
        assert_eq!(g.conflict().unwrap().unit, Unit::Row);
        g.set(0, 8, 0);
        g.set(8, 0, 5);
        assert_eq!(g.conflict().unwrap().unit, Unit::Column);
        g.set(8, 0, 0);
        g.set(2, 2, 5);
        let c = g.conflict().unwrap();
        assert_eq!((c.unit, c.first, c.second), (Unit::Box, (0, 0), (2, 2)));
        assert!(c.to_string().contains("r1c1"));
    }

    #[test]
    fn checker_rejects_bad_solutions() {
        let rows = [
            "534678912",
            "672195348",
            "198342567",
            "859761423",
            "426853791",
            "713924856",
            "961537284",
            "287419635",
            "345286179",
        ];
        let cells: Vec<u8> = rows.concat().bytes().map(|b| b - b'0').collect();
        let solution = Grid::from_cells(cells).unwrap();
        let mut puzzle = solution.clone();
        for k in (0..81).step_by(2) {
            puzzle.set(k / 9, k % 9, 0);
        }
        check_solution(&puzzle, &solution).unwrap();
        let mut bad = solution.clone();
        bad.set(0, 0, 6); // breaks row 1 and the given at r1c1
        assert!(check_solution(&puzzle, &bad).is_err());
        let mut swapped = solution.clone();
        // swapping two cells of a row keeps the row but breaks columns
        swapped.set(0, 1, 5);
        swapped.set(0, 0, 3);
        assert!(check_solution(&Grid::empty(3).unwrap(), &swapped).is_err());
        assert!(check_solution(&puzzle, &puzzle).is_err());
    }
}
