//! Lines: thermometers (digits increase from the bulb; a slow thermometer
//! never decreases), German whispers (neighbours on the line differ by 5
//! or more, or the line's value), palindromes (the line reads the same
//! both ways), clones (two groups of cells hold the same digits, cell by
//! cell) and between lines (the cells strictly between the values of the
//! two ends); Nabner lines (no two digits on it repeat or are
//! consecutive) and parity lines (neighbours one odd, one even), forbidden
//! pairs too.
//!
//! Thermometers and whispers are forbidden pairs ([`Encoder::forbid`]) — a
//! thermometer's every pair, not only neighbours, so that cell i of the
//! bulb's line is at least i + 1 before any search; palindromes and clones
//! are equal pairs ([`Encoder::equal`]): all secondary items, for the masks
//! engine. A between line is three-way (a middle cell with both ends), an
//! automaton ([`Encoder::chain`]) read ends first, whose state is the
//! ends' digits.
//!
//! Text: `thermo=R1C1,R1C2,…` (bulb first), `slowthermo=…`,
//! `whispers=…` or `whispers=GAP:…`, `palindrome=…`, `between=…` (ends
//! first and last), `clone=R1C1,R1C2:R5C5,R5C6`, `nabner=…`,
//! `parityline=…`. f-puzzles: `thermometer`,
//! `whispers` (`value`: the gap, 5 unless given), `palindrome`,
//! `betweenline` (each `lines`: one line per entry of the array), `clone`
//! (`cells`, `cloneCells`); f-puzzles has no slow thermometer, which is
//! written as `slowthermometer` (read back by us, refused by f-puzzles as
//! it should be); nor Nabner and parity lines, written as `nabnerline` and
//! `parityline` (each `lines`).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    any_eq, broken, cells_text, check_cells, check_path, entries, json_cells, json_lines,
    json_names, json_number, line_entry, number_and, object, parse_cells, push_entry, Constraint,
    Encoder, Geometry, Kind, Read,
};
use crate::sudoku::rules::{Broken, Rules, RulesError};

/// A thermometer: digits increase from the bulb (the first cell); a slow
/// one's never decrease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermometer {
    /// The cells, bulb first.
    pub cells: Vec<usize>,
    /// Whether equal neighbours are allowed (a slow thermometer).
    pub slow: bool,
}

/// A whispers line: neighbours on it differ by `gap` or more (5: German
/// whispers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Whispers {
    /// The cells along the line.
    pub cells: Vec<usize>,
    /// The least difference.
    pub gap: u32,
}

/// A palindrome: the line reads the same both ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palindrome {
    /// The cells along the line.
    pub cells: Vec<usize>,
}

/// Clones: `cells[i]` and `clones[i]` hold the same digit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clones {
    /// The first group.
    pub cells: Vec<usize>,
    /// Its clone, cell by cell.
    pub clones: Vec<usize>,
}

/// A between line: the cells between its two ends hold digits strictly
/// between the ends' digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Between {
    /// The cells, the two ends first and last.
    pub cells: Vec<usize>,
}

/// Lines read from the entries of `key`, each made by `make`.
fn lines_of(
    json: &Map<String, Value>,
    key: &str,
    n: usize,
    make: impl Fn(Vec<usize>, &Value) -> Result<Arc<dyn Constraint>, String>,
) -> Read {
    let mut out = Vec::new();
    for entry in entries(json, key) {
        for cells in json_lines(entry, n)? {
            out.push(make(cells, entry)?);
        }
    }
    Ok(out)
}

pub(super) static THERMOMETER: Kind = Kind {
    name: "thermometer",
    words: &["thermo", "slowthermo"],
    read_word: |key, value, g| {
        Ok(vec![Arc::new(Thermometer {
            cells: parse_cells(value, g.side)?,
            slow: key == "slowthermo",
        })])
    },
    fpuzzles_keys: &["thermometer", "slowthermometer"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out = lines_of(json, "thermometer", g.side, |cells, _| {
            Ok(Arc::new(Thermometer { cells, slow: false }))
        })?;
        out.extend(lines_of(json, "slowthermometer", g.side, |cells, _| {
            Ok(Arc::new(Thermometer { cells, slow: true }))
        })?);
        Ok(out)
    },
};

pub(super) static ENTROPIC: Kind = Kind {
    name: "entropic line",
    words: &["entropic", "modular"],
    read_word: |key, value, g| {
        Ok(vec![Arc::new(Entropic {
            cells: parse_cells(value, g.side)?,
            modular: key == "modular",
        })])
    },
    fpuzzles_keys: &["entropicline", "modularline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out = lines_of(json, "entropicline", g.side, |cells, _| {
            Ok(Arc::new(Entropic {
                cells,
                modular: false,
            }))
        })?;
        out.extend(lines_of(json, "modularline", g.side, |cells, _| {
            Ok(Arc::new(Entropic {
                cells,
                modular: true,
            }))
        })?);
        Ok(out)
    },
};

pub(super) static WHISPERS: Kind = Kind {
    name: "whispers",
    words: &["whispers"],
    read_word: |_, value, g| {
        let (gap, list) = number_and(value).unwrap_or((5, value));
        Ok(vec![Arc::new(Whispers {
            cells: parse_cells(list, g.side)?,
            gap,
        })])
    },
    fpuzzles_keys: &["whispers"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "whispers", g.side, |cells, entry| {
            let gap = json_number(entry)?.unwrap_or(5);
            Ok(Arc::new(Whispers { cells, gap }))
        })
    },
};

pub(super) static PALINDROME: Kind = Kind {
    name: "palindrome",
    words: &["palindrome"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(Palindrome {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["palindrome"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "palindrome", g.side, |cells, _| {
            Ok(Arc::new(Palindrome { cells }))
        })
    },
};

pub(super) static BETWEEN: Kind = Kind {
    name: "between line",
    words: &["between"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(Between {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["betweenline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "betweenline", g.side, |cells, _| {
            Ok(Arc::new(Between { cells }))
        })
    },
};

pub(super) static CLONE: Kind = Kind {
    name: "clone",
    words: &["clone"],
    read_word: |_, value, g: &Geometry| {
        let (a, b) = value
            .split_once(':')
            .ok_or_else(|| format!("`{value}` is not CELLS:CELLS"))?;
        Ok(vec![Arc::new(Clones {
            cells: parse_cells(a, g.side)?,
            clones: parse_cells(b, g.side)?,
        })])
    },
    fpuzzles_keys: &["clone"],
    negative: &[],
    read_fpuzzles: |json, g| {
        entries(json, "clone")
            .iter()
            .map(|entry| {
                Ok(Arc::new(Clones {
                    cells: json_cells(entry, "cells", g.side)?,
                    clones: json_cells(entry, "cloneCells", g.side)?,
                }) as Arc<dyn Constraint>)
            })
            .collect()
    },
};

impl Constraint for Thermometer {
    fn kind(&self) -> &'static str {
        THERMOMETER.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells("thermometer", &self.cells, rules.side(), 1)
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let c = &self.cells;
        for i in 0..c.len() {
            for j in i + 1..c.len() {
                let gap = if self.slow { 0 } else { (j - i) as u32 };
                e.forbid(c[i], c[j], |x, y| y as u32 >= x as u32 + gap);
            }
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        for w in self.cells.windows(2) {
            let (x, y) = (solution[w[0]], solution[w[1]]);
            if y < x || (y == x && !self.slow) {
                return Err(broken(
                    format!("thermometer {}", cells_text(&self.cells, rules.side())),
                    format!("{x} then {y}"),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        let word = if self.slow { "slowthermo" } else { "thermo" };
        vec![format!("{word}={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let key = if self.slow {
            "slowthermometer"
        } else {
            "thermometer"
        };
        push_entry(json, key, line_entry(&self.cells, n));
    }
    any_eq!();
}

impl Constraint for Whispers {
    fn kind(&self) -> &'static str {
        WHISPERS.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        if self.gap == 0 {
            // Every pair of digits differs by 0 or more: no rule at all.
            return Err(RulesError::Shape {
                rule: "whispers",
                why: "a gap of 0 (neighbours must differ by 1 or more)".into(),
            });
        }
        check_path("whispers", &self.cells, rules.side(), 1)
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let gap = self.gap;
        for w in self.cells.windows(2) {
            e.forbid(w[0], w[1], |x, y| x.abs_diff(y) as u32 >= gap);
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        for w in self.cells.windows(2) {
            let (x, y) = (solution[w[0]], solution[w[1]]);
            if (x.abs_diff(y) as u32) < self.gap {
                return Err(broken(
                    format!("whispers {}", cells_text(&self.cells, rules.side())),
                    format!("{x} next to {y}"),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![if self.gap == 5 {
            format!("whispers={}", cells_text(&self.cells, n))
        } else {
            format!("whispers={}:{}", self.gap, cells_text(&self.cells, n))
        }]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let mut entry = line_entry(&self.cells, n);
        if self.gap != 5 {
            if let Value::Object(m) = &mut entry {
                m.insert("value".into(), Value::from(self.gap.to_string()));
            }
        }
        push_entry(json, "whispers", entry);
    }
    any_eq!();
}

impl Constraint for Palindrome {
    fn kind(&self) -> &'static str {
        PALINDROME.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells("palindrome", &self.cells, rules.side(), 1)
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let m = self.cells.len();
        for i in 0..m / 2 {
            e.equal(self.cells[i], self.cells[m - 1 - i]);
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let digits: Vec<u8> = self.cells.iter().map(|&k| solution[k]).collect();
        if digits.iter().ne(digits.iter().rev()) {
            return Err(broken(
                format!("palindrome {}", cells_text(&self.cells, rules.side())),
                format!("{digits:?} is not one"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("palindrome={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "palindrome", line_entry(&self.cells, n));
    }
    any_eq!();
}

impl Constraint for Clones {
    fn kind(&self) -> &'static str {
        CLONE.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells("clone", &self.cells, n, 1)?;
        check_cells("clone", &self.clones, n, 1)?;
        if self.cells.len() != self.clones.len() {
            return Err(RulesError::Shape {
                rule: "clone",
                why: format!("{} cells cloned to {}", self.cells.len(), self.clones.len()),
            });
        }
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        for (&a, &b) in self.cells.iter().zip(&self.clones) {
            e.equal(a, b);
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        for (&a, &b) in self.cells.iter().zip(&self.clones) {
            if solution[a] != solution[b] {
                return Err(broken(
                    format!(
                        "clone {} of {}",
                        cells_text(&self.clones, n),
                        cells_text(&self.cells, n)
                    ),
                    format!("{} holds {}, its clone {}", a, solution[a], solution[b]),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!(
            "clone={}:{}",
            cells_text(&self.cells, n),
            cells_text(&self.clones, n)
        )]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(
            json,
            "clone",
            object([
                ("cells", json_names(&self.cells, n)),
                ("cloneCells", json_names(&self.clones, n)),
            ]),
        );
    }
    any_eq!();
}

impl Constraint for Between {
    fn kind(&self) -> &'static str {
        BETWEEN.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells("between line", &self.cells, rules.side(), 2)
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let m = self.cells.len();
        if m < 3 {
            return;
        }
        let mut order = vec![self.cells[0], self.cells[m - 1]];
        order.extend_from_slice(&self.cells[1..m - 1]);
        let base = e.side() as u64 + 1;
        e.chain(
            &order,
            0,
            |i, s, d| match i {
                0 => Some(d as u64),
                1 => Some(s * base + d as u64),
                _ => {
                    let (a, b) = (s / base, s % base);
                    let d = d as u64;
                    (a.min(b) < d && d < a.max(b)).then_some(s)
                }
            },
            |_| true,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let m = self.cells.len();
        let (a, b) = (solution[self.cells[0]], solution[self.cells[m - 1]]);
        for &k in &self.cells[1..m - 1] {
            let d = solution[k];
            if !(a.min(b) < d && d < a.max(b)) {
                return Err(broken(
                    format!("between line {}", cells_text(&self.cells, rules.side())),
                    format!("{d} is not between {a} and {b}"),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("between={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "betweenline", line_entry(&self.cells, n));
    }
    any_eq!();
}

/// An entropic line (any three cells in a row along it hold a low, a
/// middle and a high digit: 1–3, 4–6, 7–9 on 9×9, the thirds of 1..=n) or
/// a modular one (three different remainders by 3). Two cells in a row
/// along it hold digits of two classes, so a two-cell line asks that too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entropic {
    /// The cells, in order along the line.
    pub cells: Vec<usize>,
    /// Remainders by 3 (a modular line) rather than thirds.
    pub modular: bool,
}

impl Entropic {
    /// The class of digit `d` (0, 1 or 2) on an `n`×`n` grid.
    fn class(&self, d: u8, n: usize) -> u64 {
        if self.modular {
            u64::from(d % 3)
        } else {
            (usize::from(d - 1) * 3 / n) as u64
        }
    }

    fn name(&self) -> &'static str {
        if self.modular {
            "modular line"
        } else {
            "entropic line"
        }
    }
}

impl Constraint for Entropic {
    fn kind(&self) -> &'static str {
        ENTROPIC.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells(self.name(), &self.cells, n, 2)?;
        if !n.is_multiple_of(3) {
            return Err(RulesError::Shape {
                rule: self.name(),
                why: format!("digits 1 to {n} do not fall in three classes of one size"),
            });
        }
        Ok(())
    }
    /// An automaton whose state is the classes of the last two cells
    /// (each plus one, 0 for none): a digit of either class is refused.
    fn encode(&self, e: &mut Encoder<'_>) {
        let n = e.side();
        e.chain(
            &self.cells,
            0,
            |_, s, d| {
                let c = self.class(d, n) + 1;
                (s & 3 != c && s >> 2 != c).then_some(c | (s & 3) << 2)
            },
            |_| true,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let classes: Vec<u64> = self
            .cells
            .iter()
            .map(|&k| self.class(solution[k], n))
            .collect();
        let clash = |w: &[u64]| w.iter().enumerate().any(|(i, a)| w[i + 1..].contains(a));
        if classes.windows(3).any(clash) || classes.windows(2).any(clash) {
            let digits: Vec<u8> = self.cells.iter().map(|&k| solution[k]).collect();
            return Err(broken(
                format!("{} {}", self.name(), cells_text(&self.cells, n)),
                format!("{digits:?} repeat a class within three cells"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        let key = if self.modular { "modular" } else { "entropic" };
        vec![format!("{key}={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let key = if self.modular {
            "modularline"
        } else {
            "entropicline"
        };
        push_entry(json, key, line_entry(&self.cells, n));
    }

    any_eq!();
}

pub(super) static DIFFERENCES_COUNT: Kind = Kind {
    name: "differences count line",
    words: &["diffcount"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(DifferencesCount {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["differencescountline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "differencescountline", g.side, |cells, _| {
            Ok(Arc::new(DifferencesCount { cells }))
        })
    },
};

/// A differences count line: the difference of each two neighbours on it
/// is how many pairs of neighbours on it have that difference (so a
/// difference of 1 appears once, of 2 twice or never, …; never 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DifferencesCount {
    /// The cells along the line.
    pub cells: Vec<usize>,
}

/// The largest side a differences count line takes: its automaton's state
/// holds the last digit and a count of four bits a difference in 64 bits.
const DIFFERENCES_SIDE: usize = 16;

impl Constraint for DifferencesCount {
    fn kind(&self) -> &'static str {
        DIFFERENCES_COUNT.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells(self.kind(), &self.cells, n, 2)?;
        if n > DIFFERENCES_SIDE {
            return Err(RulesError::Shape {
                rule: self.kind(),
                why: format!("grids of side {DIFFERENCES_SIDE} at most"),
            });
        }
        Ok(())
    }
    /// An automaton whose state is the last digit (less one, four bits)
    /// and, four bits each above it, how many pairs so far have each
    /// difference 1 to n − 1: a pair whose difference is 0 or already
    /// counted that many times is refused; at the end each count is 0 or
    /// its difference.
    fn encode(&self, e: &mut Encoder<'_>) {
        let field = |diff: u64| 4 * diff;
        e.chain(
            &self.cells,
            0,
            |i, s, d| {
                let d = u64::from(d - 1);
                if i == 0 {
                    return Some(d);
                }
                let diff = (s & 15).abs_diff(d);
                let count = (s >> field(diff)) & 15;
                (diff > 0 && count < diff).then(|| ((s & !15) + (1 << field(diff))) | d)
            },
            |s| (1..16u64).all(|diff| matches!((s >> field(diff)) & 15, c if c == 0 || c == diff)),
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let diffs: Vec<usize> = self
            .cells
            .windows(2)
            .map(|w| solution[w[0]].abs_diff(solution[w[1]]) as usize)
            .collect();
        let wrong = diffs
            .iter()
            .find(|&&d| diffs.iter().filter(|&&x| x == d).count() != d);
        if let Some(&d) = wrong {
            let digits: Vec<u8> = self.cells.iter().map(|&k| solution[k]).collect();
            return Err(broken(
                format!("{} {}", self.kind(), cells_text(&self.cells, rules.side())),
                format!("{digits:?}: the difference {d} is not on {d} pairs"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("diffcount={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "differencescountline", line_entry(&self.cells, n));
    }

    any_eq!();
}

pub(super) static FIBONACCI: Kind = Kind {
    name: "fibonacci line",
    words: &["fibonacci"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(Fibonacci {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["fibonacciline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "fibonacciline", g.side, |cells, _| {
            Ok(Arc::new(Fibonacci { cells }))
        })
    },
};

/// A Fibonacci line: its digits strictly increase from one end to the
/// other, and from the low end each digit after the first two is the sum
/// of the two before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fibonacci {
    /// The cells along the line (either end may be the low one).
    pub cells: Vec<usize>,
}

impl Fibonacci {
    /// Whether `digits`, in order along the line, keep the rule.
    fn holds(digits: &[u32]) -> bool {
        let up = |ds: &[u32]| {
            ds.windows(2).all(|w| w[0] < w[1]) && ds.windows(3).all(|w| w[2] == w[0] + w[1])
        };
        let back: Vec<u32> = digits.iter().rev().copied().collect();
        up(digits) || up(&back)
    }
}

impl Constraint for Fibonacci {
    fn kind(&self) -> &'static str {
        FIBONACCI.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells(self.kind(), &self.cells, rules.side(), 2)
    }
    /// An automaton whose state is the last two digits (eight bits each)
    /// and the way the line runs (bit 16: up, bit 17: down, set by the
    /// second digit): up, each digit past the second is the sum of the two
    /// before; down, each is the one before less the digit before that.
    fn encode(&self, e: &mut Encoder<'_>) {
        const UP: u64 = 1 << 16;
        const DOWN: u64 = 1 << 17;
        e.chain(
            &self.cells,
            0,
            |i, s, d| {
                let d = u64::from(d);
                let (last, before) = (s & 255, (s >> 8) & 255);
                let next = |way: u64| Some(way | (last << 8) | d);
                match i {
                    0 => Some(d),
                    1 if d > last => next(UP),
                    1 if d < last => next(DOWN),
                    1 => None,
                    _ if s & UP != 0 => (d == last + before).then(|| next(UP)).flatten(),
                    _ => (d < last && last + d == before)
                        .then(|| next(DOWN))
                        .flatten(),
                }
            },
            |_| true,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let digits: Vec<u32> = self.cells.iter().map(|&k| solution[k] as u32).collect();
        if !Fibonacci::holds(&digits) {
            return Err(broken(
                format!("{} {}", self.kind(), cells_text(&self.cells, rules.side())),
                format!("{digits:?} is no increasing Fibonacci run from either end"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("fibonacci={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "fibonacciline", line_entry(&self.cells, n));
    }

    any_eq!();
}

pub(super) static INDEX: Kind = Kind {
    name: "index line",
    words: &["index"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(IndexLine {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["indexline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "indexline", g.side, |cells, _| {
            Ok(Arc::new(IndexLine { cells }))
        })
    },
};

/// An index line: counted from its first cell, the digit in the `k`th cell
/// is the place along the line of the digit `k` (so every digit on it is
/// a place on it, and a digit `p` in place `k` puts `k` in place `p`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexLine {
    /// The cells, from the end the places are counted from.
    pub cells: Vec<usize>,
}

impl Constraint for IndexLine {
    fn kind(&self) -> &'static str {
        INDEX.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells(self.kind(), &self.cells, n, 2)?;
        if self.cells.len() > n {
            return Err(RulesError::Shape {
                rule: self.kind(),
                why: format!("{} cells, more places than digits", self.cells.len()),
            });
        }
        Ok(())
    }
    /// Digits past the line's length are banned on it; each two places
    /// `i`, `j` (from 1): `i` holds `j` exactly when `j` holds `i`.
    fn encode(&self, e: &mut Encoder<'_>) {
        let m = self.cells.len();
        for &k in &self.cells {
            for d in m + 1..=e.side() {
                e.ban(k, d as u8);
            }
        }
        for (i, &a) in self.cells.iter().enumerate() {
            for (j, &b) in self.cells.iter().enumerate().skip(i + 1) {
                let (pi, pj) = (i as u8 + 1, j as u8 + 1);
                e.forbid(a, b, move |x, y| (x == pj) == (y == pi));
            }
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let digits: Vec<usize> = self.cells.iter().map(|&k| solution[k] as usize).collect();
        let m = digits.len();
        let holds = digits
            .iter()
            .enumerate()
            .all(|(i, &d)| (1..=m).contains(&d) && digits[d - 1] == i + 1);
        if !holds {
            return Err(broken(
                format!("{} {}", self.kind(), cells_text(&self.cells, rules.side())),
                format!("{digits:?}: a digit does not index the place of its own place"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("index={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "indexline", line_entry(&self.cells, n));
    }

    any_eq!();
}

pub(super) static NABNER: Kind = Kind {
    name: "nabner line",
    words: &["nabner"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(Nabner {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["nabnerline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "nabnerline", g.side, |cells, _| {
            Ok(Arc::new(Nabner { cells }))
        })
    },
};

/// A Nabner line: no two digits on it repeat or are consecutive, wherever
/// they stand on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nabner {
    /// The cells.
    pub cells: Vec<usize>,
}

impl Constraint for Nabner {
    fn kind(&self) -> &'static str {
        NABNER.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells(self.kind(), &self.cells, rules.side(), 2)
    }
    /// Every pair of its cells, forbidden to differ by less than 2.
    fn encode(&self, e: &mut Encoder<'_>) {
        for (i, &a) in self.cells.iter().enumerate() {
            for &b in &self.cells[i + 1..] {
                e.forbid(a, b, |x, y| x.abs_diff(y) >= 2);
            }
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        for (i, &a) in self.cells.iter().enumerate() {
            for &b in &self.cells[i + 1..] {
                let (x, y) = (solution[a], solution[b]);
                if x.abs_diff(y) < 2 {
                    return Err(broken(
                        format!("{} {}", self.kind(), cells_text(&self.cells, rules.side())),
                        format!("{x} and {y} on it"),
                    ));
                }
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("nabner={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "nabnerline", line_entry(&self.cells, n));
    }

    any_eq!();
}

pub(super) static PARITY_LINE: Kind = Kind {
    name: "parity line",
    words: &["parityline"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(ParityLine {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["parityline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        lines_of(json, "parityline", g.side, |cells, _| {
            Ok(Arc::new(ParityLine { cells }))
        })
    },
};

/// A parity line: neighbours on it are one odd, one even.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParityLine {
    /// The cells, in order along the line (which may come back to a cell,
    /// closing a loop).
    pub cells: Vec<usize>,
}

impl Constraint for ParityLine {
    fn kind(&self) -> &'static str {
        PARITY_LINE.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_path(self.kind(), &self.cells, rules.side(), 2)
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        for w in self.cells.windows(2) {
            e.forbid(w[0], w[1], |x, y| x % 2 != y % 2);
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        for w in self.cells.windows(2) {
            let (x, y) = (solution[w[0]], solution[w[1]]);
            if x % 2 == y % 2 {
                return Err(broken(
                    format!("{} {}", self.kind(), cells_text(&self.cells, rules.side())),
                    format!("{x} next to {y}"),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("parityline={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "parityline", line_entry(&self.cells, n));
    }

    any_eq!();
}
