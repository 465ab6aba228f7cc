//! A solution checked against every rule of a rule set, without the
//! matrix ([`check`]): for the tests, and for users.

use std::fmt;

use super::Rules;

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
    /// A constraint broken: which (its kind and cells), and how.
    Rule {
        /// The constraint, as people name it (`thermometer R1C1,R1C2,…`).
        rule: String,
        /// What the grid does to it.
        why: String,
    },
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
            Broken::Rule { rule, why } => write!(f, "{rule}: {why}"),
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
    let distinct = crate::sudoku::constraints::distinct;
    for i in 0..n {
        let row: Vec<usize> = (0..n).map(|c| i * n + c).collect();
        distinct(House::Row(i), &row, solution)?;
        let column: Vec<usize> = (0..n).map(|r| r * n + i).collect();
        distinct(House::Column(i), &column, solution)?;
        let region: Vec<usize> = (0..n * n).filter(|&k| rules.regions[k] == i).collect();
        distinct(House::Region(i), &region, solution)?;
    }
    // Each constraint checks itself, told its place among its kind's.
    let mut seen: Vec<&str> = Vec::new();
    for c in &rules.constraints {
        let nth = seen.iter().filter(|&&k| k == c.kind()).count();
        seen.push(c.kind());
        c.check(rules, nth, solution)?;
    }
    Ok(())
}
