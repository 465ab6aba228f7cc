//! Rules of one cell or one corner: odd and even cells (the other parity
//! banned: [`Encoder::ban`]), minimum and maximum cells (less, or more,
//! than every orthogonal neighbour: forbidden pairs) and quadruples (the
//! digits of a circle on a corner all appear in its cells, a digit listed
//! twice twice: an automaton whose state counts the digits still missing,
//! [`Encoder::chain`]) and counting circles (a digit d in a circle is in d
//! of them: an automaton a digit, counting its circles); indexing cells
//! (a cell's digit names the place of its own column's number in its row,
//! or of its row's number in its column: forbidden pairs along the row or
//! column); given candidates (pencil marks given as clues, as Sukaku
//! puzzles give every cell's: the other digits banned).
//!
//! Text: `odd=R1C1`, `even=R1C1`, `min=R1C1`, `max=R1C1` (a list of cells
//! gives one constraint a cell), `quad=1,2:R1C1,R1C2,R2C1,R2C2`,
//! `counting=R1C1,R2C5,…`, `columnindexing=R1C1,R1C5,…`,
//! `rowindexing=…`, `candidates=1,2,5:R1C1,R2C2` (a list of cells gives
//! one constraint a cell).
//! f-puzzles: `odd`, `even`, `minimum`, `maximum` (each entry a `cell`),
//! `quadruple` (`cells`, `values`: numbers), `countingcircles` (`cells`);
//! f-puzzles has no indexing, written as dlx's `columnindexing` and
//! `rowindexing` (each entry a `cell`); given candidates are f-puzzles'
//! `givenPencilMarks` of a cell of `grid`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    any_eq, broken, cell_name, cells_text, check_cells, entries, json_cell, json_cells, json_names,
    neighbours, object, parse_cells, push_entry, Constraint, Encoder, Kind,
};
use crate::sudoku::rules::{Broken, Rules, RulesError};

/// An odd cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odd {
    /// The cell.
    pub cell: usize,
}

/// An even cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Even {
    /// The cell.
    pub cell: usize,
}

/// A cell less than each of its orthogonal neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Minimum {
    /// The cell.
    pub cell: usize,
}

/// A cell more than each of its orthogonal neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Maximum {
    /// The cell.
    pub cell: usize,
}

/// A quadruple: each digit listed appears in the cells (as often as
/// listed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quadruple {
    /// The cells (the four around a corner).
    pub cells: Vec<usize>,
    /// The digits, sorted.
    pub digits: Vec<u8>,
}

pub(super) static ODD_EVEN: Kind = Kind {
    name: "odd/even",
    words: &["odd", "even"],
    read_word: |key, value, g| {
        parse_cells(value, g.side).map(|cells| {
            cells
                .into_iter()
                .map(|cell| -> Arc<dyn Constraint> {
                    if key == "odd" {
                        Arc::new(Odd { cell })
                    } else {
                        Arc::new(Even { cell })
                    }
                })
                .collect()
        })
    },
    fpuzzles_keys: &["odd", "even"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "odd") {
            out.push(Arc::new(Odd {
                cell: entry_cell(entry, g.side)?,
            }));
        }
        for entry in entries(json, "even") {
            out.push(Arc::new(Even {
                cell: entry_cell(entry, g.side)?,
            }));
        }
        Ok(out)
    },
};

/// An indexing cell. Column indexing (the Interactive Sudoku Solver's
/// name; "159" puzzles make columns 1, 5 and 9 of every row such cells):
/// the digit V of the cell at row R, column C says where the digit C is in
/// row R — cell (R, V) holds C. Row indexing is the same down the cell's
/// column: cell (V, C) holds R.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indexing {
    /// The cell.
    pub cell: usize,
    /// Whether its digit names a column of its row (column indexing), or
    /// a row of its column (row indexing).
    pub columns: bool,
}

pub(super) static INDEXING: Kind = Kind {
    name: "indexing",
    words: &["columnindexing", "rowindexing"],
    read_word: |key, value, g| {
        let columns = key == "columnindexing";
        parse_cells(value, g.side).map(|cells| {
            cells
                .into_iter()
                .map(|cell| Arc::new(Indexing { cell, columns }) as Arc<dyn Constraint>)
                .collect()
        })
    },
    fpuzzles_keys: &["columnindexing", "rowindexing"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for (key, columns) in [("columnindexing", true), ("rowindexing", false)] {
            for entry in entries(json, key) {
                out.push(Arc::new(Indexing {
                    cell: entry_cell(entry, g.side)?,
                    columns,
                }));
            }
        }
        Ok(out)
    },
};

impl Indexing {
    /// Its word and f-puzzles key.
    fn key(&self) -> &'static str {
        if self.columns {
            "columnindexing"
        } else {
            "rowindexing"
        }
    }

    /// The cells it indexes, in order (place 1 first: its row or column),
    /// and its own place among them, from 1.
    fn line(&self, n: usize) -> (Vec<usize>, usize) {
        let (r, c) = (self.cell / n, self.cell % n);
        if self.columns {
            ((0..n).map(|j| r * n + j).collect(), c + 1)
        } else {
            ((0..n).map(|i| i * n + c).collect(), r + 1)
        }
    }
}

impl Constraint for Indexing {
    fn kind(&self) -> &'static str {
        INDEXING.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        one_cell(self.kind(), self.cell, rules.side())
    }
    /// With the cell at place `p` of its line: the cell holds `j` exactly
    /// when the line's place `j` holds `p`, a forbidden pair with each
    /// other cell of the line (its own place needs none: `p` there is the
    /// cell pointing at itself).
    fn encode(&self, e: &mut Encoder<'_>) {
        let (line, p) = self.line(e.side());
        let p8 = p as u8;
        for (j, &b) in line.iter().enumerate() {
            if b != self.cell {
                let j8 = j as u8 + 1;
                e.forbid(self.cell, b, move |x, y| (x == j8) == (y == p8));
            }
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let (line, p) = self.line(n);
        let v = solution[self.cell] as usize;
        let at = line.get(v.wrapping_sub(1)).map(|&k| solution[k] as usize);
        if at != Some(p) {
            let what = if self.columns { "column" } else { "row" };
            return Err(broken(
                format!("{} {}", self.key(), cell_name(self.cell, n)),
                format!(
                    "its {v} says {p} is in {what} {v}, which holds {}",
                    at.map_or("nothing".to_string(), |d| d.to_string())
                ),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("{}={}", self.key(), cell_name(self.cell, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, self.key(), cell_entry(self.cell, n));
    }
    any_eq!();
}

/// Given candidates: the cell holds one of `digits` (pencil marks given as
/// clues, as a Sukaku puzzle gives every cell's, or a solver's marks taken
/// as they stand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenCandidates {
    /// The cell.
    pub cell: usize,
    /// The digits it may hold, sorted, each once.
    pub digits: Vec<u8>,
}

impl GivenCandidates {
    /// The candidates `digits` (any order, repeats dropped) of `cell`.
    pub fn new(cell: usize, digits: &[u8]) -> GivenCandidates {
        let mut digits = digits.to_vec();
        digits.sort_unstable();
        digits.dedup();
        GivenCandidates { cell, digits }
    }
}

pub(super) static CANDIDATES: Kind = Kind {
    name: "given candidates",
    words: &["candidates"],
    read_word: |_, value, g| {
        let (digits, list) = value
            .split_once(':')
            .ok_or_else(|| format!("`{value}` is not DIGITS:CELLS"))?;
        let digits: Vec<u8> = if g.side <= 9 && !digits.contains(',') {
            // `125`: one symbol a digit, on grids of one-symbol digits.
            digits
                .trim()
                .chars()
                .map(|ch| {
                    ch.to_digit(10)
                        .map(|d| d as u8)
                        .ok_or_else(|| format!("`{ch}` is not a digit"))
                })
                .collect::<Result<_, _>>()?
        } else {
            digits
                .split(',')
                .map(|d| {
                    d.trim()
                        .parse::<u8>()
                        .map_err(|_| format!("`{d}` is not a digit"))
                })
                .collect::<Result<_, _>>()?
        };
        Ok(parse_cells(list, g.side)?
            .into_iter()
            .map(|cell| Arc::new(GivenCandidates::new(cell, &digits)) as Arc<dyn Constraint>)
            .collect())
    },
    // In `grid`, a cell's `givenPencilMarks`: no key of its own.
    fpuzzles_keys: &[],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        let rows = json.get("grid").and_then(Value::as_array);
        for (r, row) in rows.into_iter().flatten().enumerate() {
            for (c, cell) in row.as_array().into_iter().flatten().enumerate() {
                let Some(marks) = cell.get("givenPencilMarks") else {
                    continue;
                };
                let name = cell_name(r * g.side + c, g.side);
                let marks = match marks {
                    Value::Null => continue,
                    Value::Array(a) if a.is_empty() => continue,
                    Value::Array(a) => a,
                    other => return Err(format!("{name}: givenPencilMarks {other} is no list")),
                };
                let digits = marks
                    .iter()
                    .map(|v| {
                        v.as_u64()
                            .and_then(|d| u8::try_from(d).ok())
                            .ok_or_else(|| format!("{name}: {v} is not a digit"))
                    })
                    .collect::<Result<Vec<u8>, _>>()?;
                out.push(Arc::new(GivenCandidates::new(r * g.side + c, &digits)));
            }
        }
        Ok(out)
    },
};

impl Constraint for GivenCandidates {
    fn kind(&self) -> &'static str {
        CANDIDATES.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        one_cell(self.kind(), self.cell, n)?;
        if self.digits.is_empty() || self.digits.iter().any(|&d| d == 0 || d as usize > n) {
            return Err(RulesError::Shape {
                rule: self.kind(),
                why: format!(
                    "{}: candidates {:?}, not digits 1 to {n}",
                    cell_name(self.cell, n),
                    self.digits
                ),
            });
        }
        Ok(())
    }
    /// The other digits banned.
    fn encode(&self, e: &mut Encoder<'_>) {
        for d in 1..=e.side() as u8 {
            if self.digits.binary_search(&d).is_err() {
                e.ban(self.cell, d);
            }
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let d = solution[self.cell];
        if self.digits.binary_search(&d).is_err() {
            return Err(broken(
                format!(
                    "candidates {} of {}",
                    digits_text(&self.digits),
                    cell_name(self.cell, rules.side())
                ),
                format!("holds {d}"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        let digits = if n <= 9 {
            self.digits.iter().map(|d| d.to_string()).collect()
        } else {
            digits_text(&self.digits)
        };
        vec![format!("candidates={digits}:{}", cell_name(self.cell, n))]
    }
    /// As f-puzzles gives them: the `givenPencilMarks` of the cell in
    /// `grid` (which the writer makes before any constraint's entries).
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let cell = json
            .get_mut("grid")
            .and_then(|g| g.get_mut(self.cell / n))
            .and_then(|row| row.get_mut(self.cell % n))
            .and_then(Value::as_object_mut);
        if let Some(cell) = cell {
            let marks = self.digits.iter().map(|&d| Value::from(d)).collect();
            cell.insert("givenPencilMarks".into(), Value::Array(marks));
        }
    }
    any_eq!();
}

/// Digits written `1,2,5`.
fn digits_text(digits: &[u8]) -> String {
    digits
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) static MIN_MAX: Kind = Kind {
    name: "minimum/maximum",
    words: &["min", "max"],
    read_word: |key, value, g| {
        parse_cells(value, g.side).map(|cells| {
            cells
                .into_iter()
                .map(|cell| -> Arc<dyn Constraint> {
                    if key == "min" {
                        Arc::new(Minimum { cell })
                    } else {
                        Arc::new(Maximum { cell })
                    }
                })
                .collect()
        })
    },
    fpuzzles_keys: &["minimum", "maximum"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "minimum") {
            out.push(Arc::new(Minimum {
                cell: entry_cell(entry, g.side)?,
            }));
        }
        for entry in entries(json, "maximum") {
            out.push(Arc::new(Maximum {
                cell: entry_cell(entry, g.side)?,
            }));
        }
        Ok(out)
    },
};

pub(super) static COUNTING: Kind = Kind {
    name: "counting circles",
    words: &["counting"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(CountingCircles {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["countingcircles"],
    negative: &[],
    read_fpuzzles: |json, g| {
        entries(json, "countingcircles")
            .iter()
            .map(|entry| {
                Ok(Arc::new(CountingCircles {
                    cells: json_cells(entry, "cells", g.side)?,
                }) as Arc<dyn Constraint>)
            })
            .collect()
    },
};

pub(super) static QUADRUPLE: Kind = Kind {
    name: "quadruple",
    words: &["quad"],
    read_word: |_, value, g| {
        let (digits, list) = value
            .split_once(':')
            .ok_or_else(|| format!("`{value}` is not DIGITS:CELLS"))?;
        let mut digits = digits
            .split(',')
            .map(|d| {
                d.trim()
                    .parse::<u8>()
                    .map_err(|_| format!("`{d}` is not a digit"))
            })
            .collect::<Result<Vec<u8>, _>>()?;
        digits.sort_unstable();
        Ok(vec![Arc::new(Quadruple {
            cells: parse_cells(list, g.side)?,
            digits,
        })])
    },
    fpuzzles_keys: &["quadruple"],
    negative: &[],
    read_fpuzzles: |json, g| {
        entries(json, "quadruple")
            .iter()
            .map(|entry| {
                let mut digits = entry
                    .get("values")
                    .and_then(Value::as_array)
                    .ok_or("a quadruple without \"values\"")?
                    .iter()
                    .map(|v| {
                        v.as_u64()
                            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                            .and_then(|d| u8::try_from(d).ok())
                            .ok_or_else(|| format!("{v} is not a digit"))
                    })
                    .collect::<Result<Vec<u8>, _>>()?;
                digits.sort_unstable();
                Ok(Arc::new(Quadruple {
                    cells: json_cells(entry, "cells", g.side)?,
                    digits,
                }) as Arc<dyn Constraint>)
            })
            .collect()
    },
};

fn entry_cell(entry: &Value, n: usize) -> Result<usize, String> {
    json_cell(entry.get("cell").ok_or("an entry without \"cell\"")?, n)
}

fn one_cell(rule: &'static str, cell: usize, n: usize) -> Result<(), RulesError> {
    check_cells(rule, &[cell], n, 1)
}

fn cell_entry(cell: usize, n: usize) -> Value {
    object([("cell", Value::from(cell_name(cell, n)))])
}

/// The parity rules: `odd` says which digits stay.
fn parity(e: &mut Encoder<'_>, cell: usize, odd: bool) {
    for d in 1..=e.side() as u8 {
        if (d % 2 == 1) != odd {
            e.ban(cell, d);
        }
    }
}

fn parity_check(
    rule: &str,
    cell: usize,
    odd: bool,
    n: usize,
    solution: &[u8],
) -> Result<(), Broken> {
    let d = solution[cell];
    if (d % 2 == 1) != odd {
        return Err(broken(
            format!("{rule} {}", cell_name(cell, n)),
            format!("holds {d}"),
        ));
    }
    Ok(())
}

impl Constraint for Odd {
    fn kind(&self) -> &'static str {
        ODD_EVEN.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        one_cell("odd", self.cell, rules.side())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        parity(e, self.cell, true);
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        parity_check("odd", self.cell, true, rules.side(), solution)
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("odd={}", cell_name(self.cell, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "odd", cell_entry(self.cell, n));
    }
    any_eq!();
}

impl Constraint for Even {
    fn kind(&self) -> &'static str {
        ODD_EVEN.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        one_cell("even", self.cell, rules.side())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        parity(e, self.cell, false);
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        parity_check("even", self.cell, false, rules.side(), solution)
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("even={}", cell_name(self.cell, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "even", cell_entry(self.cell, n));
    }
    any_eq!();
}

/// Checks a minimum (`less`) or maximum cell.
fn extreme_check(
    rule: &str,
    cell: usize,
    less: bool,
    n: usize,
    solution: &[u8],
) -> Result<(), Broken> {
    let d = solution[cell];
    for k in neighbours(cell, n) {
        let e = solution[k];
        if (less && d >= e) || (!less && d <= e) {
            return Err(broken(
                format!("{rule} {}", cell_name(cell, n)),
                format!("holds {d}, its neighbour {} holds {e}", cell_name(k, n)),
            ));
        }
    }
    Ok(())
}

impl Constraint for Minimum {
    fn kind(&self) -> &'static str {
        MIN_MAX.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        one_cell("minimum", self.cell, rules.side())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        for k in neighbours(self.cell, e.side()) {
            e.forbid(self.cell, k, |x, y| x < y);
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        extreme_check("minimum", self.cell, true, rules.side(), solution)
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("min={}", cell_name(self.cell, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "minimum", cell_entry(self.cell, n));
    }
    any_eq!();
}

impl Constraint for Maximum {
    fn kind(&self) -> &'static str {
        MIN_MAX.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        one_cell("maximum", self.cell, rules.side())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        for k in neighbours(self.cell, e.side()) {
            e.forbid(self.cell, k, |x, y| x > y);
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        extreme_check("maximum", self.cell, false, rules.side(), solution)
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("max={}", cell_name(self.cell, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "maximum", cell_entry(self.cell, n));
    }
    any_eq!();
}

impl Quadruple {
    /// The distinct digits and how often each is needed.
    fn needs(&self) -> Vec<(u8, u64)> {
        let mut out: Vec<(u8, u64)> = Vec::new();
        for &d in &self.digits {
            match out.last_mut() {
                Some((last, count)) if *last == d => *count += 1,
                _ => out.push((d, 1)),
            }
        }
        out
    }
}

impl Constraint for Quadruple {
    fn kind(&self) -> &'static str {
        QUADRUPLE.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells("quadruple", &self.cells, n, 1)?;
        let bad = |why: String| RulesError::Shape {
            rule: "quadruple",
            why,
        };
        if let Some(&d) = self.digits.iter().find(|&&d| d == 0 || d as usize > n) {
            return Err(bad(format!("{d} is not a digit 1 to {n}")));
        }
        if self.cells.len() > 4 {
            return Err(bad(format!(
                "{} cells; a quadruple has 4 at most",
                self.cells.len()
            )));
        }
        if self.digits.len() > self.cells.len() {
            return Err(bad(format!(
                "{} digits in {} cells",
                self.digits.len(),
                self.cells.len()
            )));
        }
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        // The state: each digit's count still needed, in base (cells + 1).
        let needs = self.needs();
        let base = self.cells.len() as u64 + 1;
        let start = needs
            .iter()
            .rev()
            .fold(0u64, |s, &(_, count)| s * base + count);
        let place: Vec<u64> = (0..needs.len()).map(|i| base.pow(i as u32)).collect();
        let m = self.cells.len();
        e.chain(
            &self.cells,
            start,
            |i, s, d| {
                let mut s = s;
                if let Some(j) = needs.iter().position(|&(x, _)| x == d) {
                    if !(s / place[j]).is_multiple_of(base) {
                        s -= place[j];
                    }
                }
                // What is still needed must fit in the cells left.
                let left: u64 = (0..needs.len()).map(|j| s / place[j] % base).sum();
                (left <= (m - i - 1) as u64).then_some(s)
            },
            |s| s == 0,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        for (d, count) in self.needs() {
            let have = self.cells.iter().filter(|&&k| solution[k] == d).count() as u64;
            if have < count {
                return Err(broken(
                    format!("quadruple {}", cells_text(&self.cells, rules.side())),
                    format!("{d} {have} times, {count} needed"),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        let digits: Vec<String> = self.digits.iter().map(u8::to_string).collect();
        vec![format!(
            "quad={}:{}",
            digits.join(","),
            cells_text(&self.cells, n)
        )]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let values = self.digits.iter().map(|&d| Value::from(d)).collect();
        push_entry(
            json,
            "quadruple",
            object([
                ("cells", json_names(&self.cells, n)),
                ("values", Value::Array(values)),
            ]),
        );
    }
    any_eq!();
}

/// Counting circles: a digit d in one of the circles is in exactly d of
/// them (a digit in none is free).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountingCircles {
    /// The circles' cells.
    pub cells: Vec<usize>,
}

impl Constraint for CountingCircles {
    fn kind(&self) -> &'static str {
        COUNTING.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells("counting circles", &self.cells, rules.side(), 1)
    }
    /// An automaton a digit d, counting the circles that hold it, ending
    /// on 0 or d.
    fn encode(&self, e: &mut Encoder<'_>) {
        for d in 1..=e.side() as u64 {
            e.chain(
                &self.cells,
                0,
                |_, s, digit| match u64::from(digit) == d {
                    true => (s < d).then_some(s + 1),
                    false => Some(s),
                },
                |s| s == 0 || s == d,
            );
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        for d in 1..=n as u8 {
            let count = self.cells.iter().filter(|&&k| solution[k] == d).count();
            if count != 0 && count != usize::from(d) {
                return Err(broken(
                    format!("counting circles {}", cells_text(&self.cells, n)),
                    format!("{d} is in {count} of them"),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("counting={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(
            json,
            "countingcircles",
            object([("cells", json_names(&self.cells, n))]),
        );
    }

    any_eq!();
}

pub(super) static SUNBURN: Kind = Kind {
    name: "sunburn",
    words: &["sun"],
    read_word: |_, value, g| {
        parse_cells(value, g.side).map(|cells| {
            cells
                .into_iter()
                .map(|cell| -> Arc<dyn Constraint> { Arc::new(Sunburn { cell }) })
                .collect()
        })
    },
    fpuzzles_keys: &["sunburn"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "sunburn") {
            out.push(Arc::new(Sunburn {
                cell: entry_cell(entry, g.side)?,
            }));
        }
        Ok(out)
    },
};

/// A sun: the digit in its cell is how many of the (up to eight) cells
/// around it, orthogonally or diagonally, hold smaller digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sunburn {
    /// The sun's cell.
    pub cell: usize,
}

impl Sunburn {
    /// The cell, then the cells around it (a king's move away).
    fn cells(&self, n: usize) -> Vec<usize> {
        let (r, c) = ((self.cell / n) as isize, (self.cell % n) as isize);
        let mut cells = vec![self.cell];
        for (dr, dc) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let (r2, c2) = (r + dr, c + dc);
            if (0..n as isize).contains(&r2) && (0..n as isize).contains(&c2) {
                cells.push(r2 as usize * n + c2 as usize);
            }
        }
        cells
    }
}

impl Constraint for Sunburn {
    fn kind(&self) -> &'static str {
        SUNBURN.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        one_cell("sunburn", self.cell, rules.side())
    }
    /// An automaton along the cell and then its neighbours, whose state is
    /// the sun's digit (low eight bits) and how many smaller ones it has
    /// met: at the end, as many as its digit.
    fn encode(&self, e: &mut Encoder<'_>) {
        let cells = self.cells(e.side());
        e.chain(
            &cells,
            0,
            |i, s, d| {
                let d = u64::from(d);
                Some(match i {
                    0 => d,
                    _ => s + (u64::from(d < s & 255) << 8),
                })
            },
            |s| s >> 8 == s & 255,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let cells = self.cells(n);
        let d = solution[self.cell];
        let smaller = cells[1..].iter().filter(|&&k| solution[k] < d).count();
        if smaller != d as usize {
            return Err(broken(
                format!("sunburn {}", cell_name(self.cell, n)),
                format!("holds {d}, and {smaller} cells around it hold smaller digits"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("sun={}", cell_name(self.cell, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "sunburn", cell_entry(self.cell, n));
    }
    any_eq!();
}
