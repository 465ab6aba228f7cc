//! A variant puzzle on one line of plain text, for people and scripts: the
//! grid as a classic line, then its rules as words, separated by spaces.
//!
//! ```text
//! 4.....1...........3.....8....7.......2.5..............6.9..4.........1....2.3.... x antiking
//! 1.2.....3.....4..... regions=AAABBBAABBCCCCDDDDEE...
//! ......... cage=15:R1C1,R1C2,R2C1 cage=R5C5,R5C6 nonconsecutive
//! ```
//!
//! * the grid: n² symbols, row-major, `.`, `0`, `-` or `_` for an empty
//!   cell, digits in [`Alphabet::default_for`] n (`1`–`9` up to 9×9,
//!   letters beyond);
//! * `boxes=RxC` — boxes of R rows and C columns (default: f-puzzles',
//!   [`default_box_rows`]; [`write()`] names them on grids whose side is
//!   not a square, so that the line is not taken for a classic one);
//! * `regions=…` — jigsaw: n² symbols, each naming its cell's region (any
//!   n distinct symbols, n cells each; the form sudokuwiki and others use);
//! * then the constraints, each a word its [module](super::constraints)
//!   reads: a flag (`x`, `diagonal-`, `diagonal+`, `windoku`, `disjoint`,
//!   `antiking`, `antiknight`, `nonconsecutive`) or `key=value` with cells
//!   named `R1C1` (`region=R1C1,R1C2,…`, `cage=SUM:R1C1,…`,
//!   `thermo=R1C1,…`, `arrow=CIRCLE:SHAFT`, `white=R1C1,R1C2`,
//!   `littlekiller=SUM:…`, `sandwich=SUM:R3` …; docs/variants.md lists them all).
//!
//! A word not listed is an error naming it, never passed over: a puzzle
//! solved without one of its rules is a wrong answer. [`write()`] writes what
//! [`read()`] reads back to equal rules.

use std::fmt;

use super::constraints::{self, Geometry};
use super::fpuzzles::default_box_rows;
use super::grid::Alphabet;
use super::rules::{Rules, RulesError, MAX_SIDE};

/// Why a line is not a variant puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleLineError {
    /// The grid is not n² symbols of a side 1 to 64, or a symbol is no digit.
    Grid(String),
    /// A word that names no rule, as written.
    Unknown(String),
    /// A rule's value is malformed: the word and why.
    Value(String, String),
    /// The rules are not a valid rule set.
    Rules(RulesError),
}

impl fmt::Display for RuleLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleLineError::Grid(why) => write!(f, "grid: {why}"),
            RuleLineError::Unknown(word) => write!(
                f,
                "`{word}` is not a rule this layer knows; solving without it would give wrong answers"
            ),
            RuleLineError::Value(word, why) => write!(f, "`{word}`: {why}"),
            RuleLineError::Rules(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RuleLineError {}

impl From<RulesError> for RuleLineError {
    fn from(e: RulesError) -> Self {
        RuleLineError::Rules(e)
    }
}

/// Whether `line`'s words after the first name rules: what tells this form
/// from a classic line when no format is named.
pub fn looks_like(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next().is_some()
        && words.next().is_some_and(|w| {
            let key = w.split_once('=').map_or(w, |(k, _)| k).to_ascii_lowercase();
            ["boxes", "regions"].contains(&key.as_str())
                || constraints::kind_of_word(&key).is_some()
        })
}

/// Reads one puzzle: its rules and givens (row-major, 0 for empty).
pub fn read(line: &str) -> Result<(Rules, Vec<u8>), RuleLineError> {
    let mut words = line.split_whitespace();
    let grid = words
        .next()
        .ok_or_else(|| RuleLineError::Grid("an empty line".into()))?;
    let cells: Vec<char> = grid.chars().collect();
    let n = (1..=MAX_SIDE)
        .find(|n| n * n == cells.len())
        .ok_or_else(|| {
            RuleLineError::Grid(format!(
                "{} symbols are not the n² cells of a grid of side 1 to {MAX_SIDE}",
                cells.len()
            ))
        })?;
    let alphabet = Alphabet::default_for(n);
    let givens = cells
        .iter()
        .enumerate()
        .map(|(k, &ch)| match ch {
            '.' | '0' | '-' | '_' => Ok(0),
            _ => alphabet.digit(ch, n).ok_or_else(|| {
                RuleLineError::Grid(format!(
                    "R{}C{}: `{ch}` is not a digit 1 to {n}",
                    k / n + 1,
                    k % n + 1
                ))
            }),
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let words: Vec<&str> = words.collect();
    let value = |key: &str| {
        words
            .iter()
            .filter_map(|w| w.strip_prefix(key)?.strip_prefix('='))
            .collect::<Vec<_>>()
    };
    let h = default_box_rows(n);
    let (mut rows, mut cols) = (h, n / h);
    if let Some(v) = value("boxes").last() {
        let bad = || RuleLineError::Value(format!("boxes={v}"), "not RxC".into());
        let (r, c) = v.split_once(['x', 'X', '×']).ok_or_else(bad)?;
        (rows, cols) = (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
        if rows * cols != n {
            return Err(RulesError::Boxes { rows, cols }.into());
        }
    }
    let mut rules = match value("regions").last() {
        Some(v) => {
            let symbols: Vec<char> = v.chars().collect();
            if symbols.len() != n * n {
                return Err(RuleLineError::Value(
                    "regions".into(),
                    format!(
                        "{} symbols, a grid of side {n} needs {}",
                        symbols.len(),
                        n * n
                    ),
                ));
            }
            Rules::jigsaw(&symbols.iter().map(|&c| c as usize).collect::<Vec<_>>())?
        }
        None => Rules::boxes(rows, cols)?,
    };
    let g = Geometry {
        side: n,
        box_rows: rows,
        box_cols: cols,
    };
    for &word in &words {
        let (key, v) = word.split_once('=').unwrap_or((word, ""));
        // Read above, as written (`BOXES=` is no word of this form).
        if key == "boxes" || key == "regions" {
            continue;
        }
        let key = key.to_ascii_lowercase();
        let kind =
            constraints::kind_of_word(&key).ok_or_else(|| RuleLineError::Unknown(word.into()))?;
        let read =
            (kind.read_word)(&key, v, &g).map_err(|why| RuleLineError::Value(word.into(), why))?;
        for c in read {
            rules = rules.with_shared(c)?;
        }
    }
    Ok((rules, givens))
}

/// Writes `cells` (givens, or a solution) with `rules` as one line (no
/// newline): jigsaw regions as `regions=` with symbols `1`–`9`, `A`–…,
/// then each constraint's words, as its module writes them.
pub fn write(rules: &Rules, cells: &[u8]) -> String {
    let n = rules.side();
    let alphabet = Alphabet::default_for(n);
    let mut out: String = cells
        .iter()
        .map(|&d| if d == 0 { '.' } else { alphabet.symbol(d) })
        .collect();
    let h = default_box_rows(n);
    if Rules::boxes(h, n / h).ok().as_ref().map(Rules::regions) != Some(rules.regions()) {
        let names = Alphabet::Letters;
        out.push_str(" regions=");
        out.extend(rules.regions().iter().map(|&x| names.symbol(x as u8 + 1)));
    } else if h * h != n {
        // Not a classic grid (6×6, 8×8, 12×12, a prime side): the boxes
        // say so, and tell this form from a classic line.
        out.push_str(&format!(" boxes={h}x{}", n / h));
    }
    for c in rules.constraints() {
        for word in c.words(n) {
            out.push(' ');
            out.push_str(&word);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::generate::variant::{Variant, VariantGenerator};

    #[test]
    fn generated_puzzles_write_and_read_back() {
        for (rows, cols, variants) in [
            (2, 3, vec![Variant::Jigsaw, Variant::X]),
            (2, 3, vec![Variant::AntiKing, Variant::Killer]),
            (2, 3, vec![Variant::AntiKnight]),
            (2, 3, vec![Variant::NonConsecutive]),
            (3, 3, vec![Variant::Windoku]),
        ] {
            let p = VariantGenerator::new(rows, cols, &variants, 4)
                .unwrap()
                .puzzle()
                .unwrap();
            let line = write(&p.rules, &p.givens);
            assert!(looks_like(&line), "{line}");
            let (rules, givens) = read(&line).unwrap();
            assert_eq!((&rules, &givens), (&p.rules, &p.givens), "{line}");
        }
    }

    #[test]
    fn the_words_people_type() {
        let (rules, givens) = read("1...............").unwrap();
        assert_eq!(rules, Rules::boxes(2, 2).unwrap());
        assert_eq!(givens[..2], [1, 0]);
        let empty = ".".repeat(81);
        let (r, _) = read(&format!(
            "{empty} x anti-knight cage=3:R1C1,r1c2 region=R9C9,R9C8"
        ))
        .unwrap();
        let want = Rules::boxes(3, 3)
            .unwrap()
            .diagonals()
            .anti_knight()
            .cage(&[0, 1], Some(3))
            .unwrap()
            .extra_region(&[80, 79])
            .unwrap();
        assert_eq!(r, want);
        let (r, _) = read(&format!("{} boxes=3x2 disjoint", ".".repeat(36))).unwrap();
        assert_eq!(
            r,
            Rules::boxes(3, 2).unwrap().disjoint_groups(3, 2).unwrap()
        );
        assert!(!looks_like(&empty));
        assert!(!looks_like(&format!("{empty} # a comment")));
    }

    #[test]
    fn what_is_wrong_is_named() {
        let empty = ".".repeat(81);
        assert_eq!(
            read(&format!("{empty} lockout=R1C1,R1C2,R1C3")),
            Err(RuleLineError::Unknown("lockout=R1C1,R1C2,R1C3".into()))
        );
        assert!(matches!(
            read(&format!("{empty} thermo")),
            Err(RuleLineError::Value(..))
        ));
        assert_eq!(
            read(&format!("{empty} BOXES=3x3")),
            Err(RuleLineError::Unknown("BOXES=3x3".into()))
        );
        assert!(matches!(read("12345"), Err(RuleLineError::Grid(_))));
        assert!(matches!(
            read(&format!("{empty} cage=x:R1C1")),
            Err(RuleLineError::Value(..))
        ));
        assert!(matches!(
            read(&format!("{empty} cage=R1C1,R10C1")),
            Err(RuleLineError::Value(..))
        ));
        assert!(matches!(
            read(&format!("{empty} boxes=2x4")),
            Err(RuleLineError::Rules(RulesError::Boxes { .. }))
        ));
        assert!(matches!(
            read(&format!("{empty} regions=ABC")),
            Err(RuleLineError::Value(..))
        ));
    }
}
