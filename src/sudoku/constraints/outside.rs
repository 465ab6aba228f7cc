//! Clues outside the grid that look along a row or column from one end:
//! skyscrapers (the number of digits seen from the clue, each digit
//! hiding the smaller ones behind it), X-sums (the first X digits add up
//! to the clue, X the first digit) and numbered rooms (the X-th digit is
//! the clue, X the first digit). Each is an automaton read from the clue
//! inwards ([`Encoder::chain`]): a skyscraper's state is the tallest
//! digit so far and the count seen, an X-sum's the cells still to add and
//! the sum so far, a numbered room's the cells still to pass.
//!
//! A clue names its place as f-puzzles names sandwich clues: the cell
//! outside the grid it stands in, `R0C3` above column 3, `R10C3` below it
//! on 9×9, `R4C0` left of row 4, `R4C10` right of it. Text:
//! `skyscraper=3:R0C3`, `xsum=15:R4C10`, `numberedroom=7:R4C0`.
//! f-puzzles has none of these; we write and read `skyscraper`, `xsum` and
//! `numberedroom`, each entry a `cell` and a `value`, the shape of its
//! `sandwichsum`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    any_eq, broken, entries, json_number, number_and, object, push_entry, Constraint, Encoder,
    Geometry, Kind, Read,
};
use crate::sudoku::rules::{Broken, Rules, RulesError};

/// A cell name `R<r>C<c>` with 0 and n + 1 allowed (clues outside the
/// grid), 1-based.
pub(super) fn outside(name: &str) -> Option<(usize, usize)> {
    let rest = name.strip_prefix(['R', 'r'])?;
    let (r, c) = rest.split_once(['C', 'c'])?;
    Some((r.parse().ok()?, c.parse().ok()?))
}

/// Where a clue outside the grid stands: a row or a column, and the end it
/// looks from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Whether it looks along a row (from the left or right), else along a
    /// column (from the top or bottom).
    pub row: bool,
    /// The row or column, from 0.
    pub index: usize,
    /// Whether it looks from the right or bottom end.
    pub back: bool,
}

impl Look {
    /// The clue standing in cell `R<r>C<c>` (1-based, 0 and n + 1 outside)
    /// of a grid of side n.
    pub fn at(r: usize, c: usize, n: usize) -> Option<Look> {
        let inside = |x: usize| (1..=n).contains(&x);
        let (row, index, back) = match (r, c) {
            (0, c) if inside(c) => (false, c - 1, false),
            (r, c) if r == n + 1 && inside(c) => (false, c - 1, true),
            (r, 0) if inside(r) => (true, r - 1, false),
            (r, c) if c == n + 1 && inside(r) => (true, r - 1, true),
            _ => return None,
        };
        Some(Look { row, index, back })
    }

    /// Reads a clue's cell name, `R0C3` …
    fn read(name: &str, n: usize) -> Result<Look, String> {
        let (r, c) = outside(name.trim())
            .ok_or_else(|| format!("`{name}` is not a clue cell R0C1 … outside the grid"))?;
        Look::at(r, c, n)
            .ok_or_else(|| format!("`{name}` is not a cell just outside a row or column"))
    }

    /// The clue's cell name.
    pub fn name(self, n: usize) -> String {
        let far = if self.back { n + 1 } else { 0 };
        if self.row {
            format!("R{}C{far}", self.index + 1)
        } else {
            format!("R{far}C{}", self.index + 1)
        }
    }

    /// The row's or column's cells, from the clue inwards.
    pub fn cells(self, n: usize) -> Vec<usize> {
        (0..n)
            .map(|i| {
                let i = if self.back { n - 1 - i } else { i };
                if self.row {
                    self.index * n + i
                } else {
                    i * n + self.index
                }
            })
            .collect()
    }

    fn validate(self, rule: &'static str, n: usize) -> Result<(), RulesError> {
        if self.index >= n {
            return Err(RulesError::Shape {
                rule,
                why: format!("the clue {} stands by no line of the grid", self.name(n)),
            });
        }
        Ok(())
    }
}

/// A skyscraper clue: seen from the clue, each digit hides the smaller
/// digits behind it, and `count` digits are seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skyscraper {
    /// Where the clue stands.
    pub look: Look,
    /// The digits seen.
    pub count: u32,
}

/// An X-sum clue: the first X digits from the clue add up to `sum`, X the
/// first digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XSum {
    /// Where the clue stands.
    pub look: Look,
    /// The clue.
    pub sum: u32,
}

/// A numbered room clue: the X-th digit from the clue is `digit`, X the
/// first digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberedRoom {
    /// Where the clue stands.
    pub look: Look,
    /// The clue.
    pub digit: u32,
}

/// Reads `VALUE:R0C3` words into constraints made by `make`.
fn read_word(value: &str, g: &Geometry, make: fn(Look, u32) -> Arc<dyn Constraint>) -> Read {
    let (v, name) = number_and(value)?;
    Ok(vec![make(Look::read(name, g.side)?, v)])
}

/// Reads f-puzzles entries under `key` (`cell`, `value`; no value, no
/// constraint).
fn read_json(
    json: &Map<String, Value>,
    key: &str,
    g: &Geometry,
    make: fn(Look, u32) -> Arc<dyn Constraint>,
) -> Read {
    let mut out = Vec::new();
    for entry in entries(json, key) {
        let name = entry
            .get("cell")
            .and_then(Value::as_str)
            .ok_or("an entry without a clue \"cell\"")?;
        let look = Look::read(name, g.side)?;
        if let Some(v) = json_number(entry)? {
            out.push(make(look, v));
        }
    }
    Ok(out)
}

fn write_json(json: &mut Map<String, Value>, key: &str, look: Look, value: u32, n: usize) {
    push_entry(
        json,
        key,
        object([
            ("cell", Value::from(look.name(n))),
            ("value", Value::from(value.to_string())),
        ]),
    );
}

pub(super) static SKYSCRAPER: Kind = Kind {
    name: "skyscraper",
    words: &["skyscraper"],
    read_word: |_, value, g| {
        read_word(value, g, |look, count| Arc::new(Skyscraper { look, count }))
    },
    fpuzzles_keys: &["skyscraper"],
    negative: &[],
    read_fpuzzles: |json, g| {
        read_json(json, "skyscraper", g, |look, count| {
            Arc::new(Skyscraper { look, count })
        })
    },
};

pub(super) static X_SUM: Kind = Kind {
    name: "x-sum",
    words: &["xsum"],
    read_word: |_, value, g| read_word(value, g, |look, sum| Arc::new(XSum { look, sum })),
    fpuzzles_keys: &["xsum"],
    negative: &[],
    read_fpuzzles: |json, g| read_json(json, "xsum", g, |look, sum| Arc::new(XSum { look, sum })),
};

pub(super) static NUMBERED_ROOM: Kind = Kind {
    name: "numbered room",
    words: &["numberedroom"],
    read_word: |_, value, g| {
        read_word(value, g, |look, digit| {
            Arc::new(NumberedRoom { look, digit })
        })
    },
    fpuzzles_keys: &["numberedroom"],
    negative: &[],
    read_fpuzzles: |json, g| {
        read_json(json, "numberedroom", g, |look, digit| {
            Arc::new(NumberedRoom { look, digit })
        })
    },
};

/// A clue's value out of `range`, refused by name.
fn out_of(
    rule: &'static str,
    look: Look,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
    n: usize,
) -> Result<(), RulesError> {
    if range.contains(&value) {
        return Ok(());
    }
    Err(RulesError::Shape {
        rule,
        why: format!(
            "the clue {value} at {} is not {} to {}",
            look.name(n),
            range.start(),
            range.end()
        ),
    })
}

/// The digits of the look's line in `solution`, from the clue inwards.
fn seen(look: Look, n: usize, solution: &[u8]) -> Vec<u32> {
    look.cells(n)
        .iter()
        .map(|&k| u32::from(solution[k]))
        .collect()
}

impl Skyscraper {
    /// How many of `digits` are seen from their start.
    fn count_of(digits: &[u32]) -> u32 {
        let mut tallest = 0;
        let mut count = 0;
        for &d in digits {
            if d > tallest {
                tallest = d;
                count += 1;
            }
        }
        count
    }
}

impl Constraint for Skyscraper {
    fn kind(&self) -> &'static str {
        SKYSCRAPER.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        self.look.validate(self.kind(), n)?;
        out_of(self.kind(), self.look, self.count, 1..=n as u32, n)
    }
    /// State: the tallest digit so far (bits 8 up) and the count seen. (A
    /// digit equal to the tallest is let through as hidden, though the
    /// line's digits differ: cut, ISS's "Skyscaper 2-3" counted its 6
    /// solutions in 27,181 guesses instead of 4,725.)
    fn encode(&self, e: &mut Encoder<'_>) {
        let n = e.side();
        let count = u64::from(self.count);
        e.chain(
            &self.look.cells(n),
            0,
            |_, s, d| {
                let (tallest, seen) = (s >> 8, s & 255);
                let d = u64::from(d);
                if d <= tallest {
                    Some(s)
                } else {
                    (seen < count).then_some(d << 8 | (seen + 1))
                }
            },
            |s| s & 255 == count,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let digits = seen(self.look, n, solution);
        let count = Skyscraper::count_of(&digits);
        if count != self.count {
            return Err(broken(
                format!("skyscraper {}", self.look.name(n)),
                format!("{digits:?} show {count}, not {}", self.count),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("skyscraper={}:{}", self.count, self.look.name(n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        write_json(json, "skyscraper", self.look, self.count, n);
    }
    any_eq!();
}

impl Constraint for XSum {
    fn kind(&self) -> &'static str {
        X_SUM.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        self.look.validate(self.kind(), n)?;
        // 1 (a 1 first) to the n largest digits.
        out_of(
            self.kind(),
            self.look,
            self.sum,
            1..=(n * (n + 1) / 2) as u32,
            n,
        )
    }
    /// State: 0 once the first X digits are summed. Up to 9×9, else, X
    /// (bits 16 up) and the set of digits met (bit d): the line's digits
    /// differ, so a set adds up to the clue only with distinct digits (a
    /// clue of 12 over three cells from a 3 is 3+… never 3+3+6), and the
    /// matrix and the chain runs say so; a set whose sum, with the
    /// smallest digits it lacks for the cells still to add, passes the
    /// clue is cut. Beyond 9×9, X less the cells added and the sum so far.
    fn encode(&self, e: &mut Encoder<'_>) {
        let sum = u64::from(self.sum);
        let n = e.side() as u64;
        let cells = self.look.cells(e.side());
        if n <= 9 {
            let after = move |x: u64, set: u64| -> Option<u64> {
                let total: u64 = (1..=n).filter(|&d| set >> d & 1 != 0).sum();
                let met = u64::from(set.count_ones());
                let least: u64 = (1..=n)
                    .filter(|&d| set >> d & 1 == 0)
                    .take((x - met) as usize)
                    .sum();
                match met == x {
                    true => (total == sum).then_some(0),
                    false => (total + least <= sum).then_some(x << 16 | set),
                }
            };
            e.chain(
                &cells,
                0,
                move |i, s, d| {
                    let d = u64::from(d);
                    match (i, s) {
                        (0, _) => after(d, 1 << d),
                        (_, 0) => Some(0),
                        _ if s >> d & 1 != 0 => None,
                        _ => after(s >> 16, (s & 0xffff) | 1 << d),
                    }
                },
                |s| s == 0,
            );
            return;
        }
        let after = move |left: u64, total: u64| -> Option<u64> {
            match left {
                0 => (total == sum).then_some(0),
                _ => (total + left <= sum).then_some(left << 16 | total),
            }
        };
        e.chain(
            &cells,
            0,
            move |i, s, d| {
                let d = u64::from(d);
                match (i, s) {
                    (0, _) => after(d - 1, d),
                    (_, 0) => Some(0),
                    _ => after((s >> 16) - 1, (s & 0xffff) + d),
                }
            },
            |s| s == 0,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let digits = seen(self.look, n, solution);
        let x = digits[0] as usize;
        let total: u32 = digits[..x.min(n)].iter().sum();
        if total != self.sum {
            return Err(broken(
                format!("x-sum {}", self.look.name(n)),
                format!(
                    "{digits:?}: the first {x} add up to {total}, not {}",
                    self.sum
                ),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("xsum={}:{}", self.sum, self.look.name(n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        write_json(json, "xsum", self.look, self.sum, n);
    }
    any_eq!();
}

impl Constraint for NumberedRoom {
    fn kind(&self) -> &'static str {
        NUMBERED_ROOM.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        self.look.validate(self.kind(), n)?;
        out_of(self.kind(), self.look, self.digit, 1..=n as u32, n)
    }
    /// State: 0 once the X-th digit is the clue; else X (bits 8 up) and
    /// the cells still to pass up to the X-th. The line's digits differ,
    /// so neither X nor the clue stands between the first cell and the
    /// X-th (the clue first only where X is 1).
    fn encode(&self, e: &mut Encoder<'_>) {
        let digit = u64::from(self.digit);
        e.chain(
            &self.look.cells(e.side()),
            0,
            move |i, s, d| {
                let d = u64::from(d);
                if i == 0 {
                    return match d {
                        1 => (d == digit).then_some(0),
                        _ => (d != digit).then_some(d << 8 | (d - 1)),
                    };
                }
                let (x, left) = (s >> 8, s & 255);
                match s {
                    0 => Some(0),
                    _ if left == 1 => (d == digit).then_some(0),
                    _ => (d != digit && d != x).then_some(x << 8 | (left - 1)),
                }
            },
            |s| s == 0,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let digits = seen(self.look, n, solution);
        let x = digits[0] as usize;
        if digits.get(x.wrapping_sub(1)) != Some(&self.digit) {
            return Err(broken(
                format!("numbered room {}", self.look.name(n)),
                format!("{digits:?}: the digit in place {x} is not {}", self.digit),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("numberedroom={}:{}", self.digit, self.look.name(n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        write_json(json, "numberedroom", self.look, self.digit, n);
    }
    any_eq!();
}
