//! Sums along cells that may repeat digits: arrows (the shaft adds up to
//! the number in the circle, read as decimal digits when the circle has
//! more than one cell), little killers (a diagonal adds up to its clue)
//! and sandwiches (the digits between the 1 and the n of a row or column
//! add up to the clue). Each is an automaton read along its cells
//! ([`Encoder::chain`]) whose state is the sum so far (and, for a
//! sandwich, whether the 1 or n has been met): the states are bounded by
//! what the cells left can add, so a 9×9 chain has a few hundred options.
//!
//! Text: `arrow=R1C1:R1C2,R1C3` (circle cells, `:`, the shaft from the
//! circle out), `littlekiller=SUM:R1C2,R2C3,…` (the diagonal's cells),
//! `sandwich=SUM:R3` or `sandwich=SUM:C5`. f-puzzles: `arrow` (`cells`:
//! the circle, `lines`: each a shaft starting in the circle — one arrow a
//! line), `littlekillersum` (`cells`, `value`, and the clue's `cell` and
//! `direction`, which we derive when writing; an entry without a value is
//! no constraint), `sandwichsum` (`cell`: the clue outside the grid,
//! `R0C3` or `R4C0` …, `value`).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::outside::outside;
use super::{
    any_eq, broken, cell_name, cells_text, check_cells, entries, json_cell, json_cells, json_lines,
    json_names, json_number, line_entry, number_and, object, parse_cells, push_entry, Constraint,
    Encoder, Kind,
};
use crate::sudoku::rules::{Broken, Rules, RulesError};

/// An arrow: the shaft's digits add up to the circle's number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// The circle's cells, read in order as one number.
    pub circle: Vec<usize>,
    /// The shaft, from the circle out.
    pub shaft: Vec<usize>,
}

/// A little killer: the cells of a diagonal add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LittleKiller {
    /// The diagonal's cells, from the clue out.
    pub cells: Vec<usize>,
    /// The clue.
    pub sum: u32,
}

/// A sandwich clue: the digits between the 1 and the n of a row or column
/// add up to `sum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sandwich {
    /// Whether the clue is a row's (else a column's).
    pub row: bool,
    /// The row or column, from 0.
    pub index: usize,
    /// The clue.
    pub sum: u32,
}

pub(super) static ARROW: Kind = Kind {
    name: "arrow",
    words: &["arrow"],
    read_word: |_, value, g| {
        let (circle, shaft) = value
            .split_once(':')
            .ok_or_else(|| format!("`{value}` is not CIRCLE:SHAFT"))?;
        Ok(vec![Arc::new(Arrow {
            circle: parse_cells(circle, g.side)?,
            shaft: parse_cells(shaft, g.side)?,
        })])
    },
    fpuzzles_keys: &["arrow"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "arrow") {
            let circle = json_cells(entry, "cells", g.side)?;
            for line in json_lines(entry, g.side)? {
                // A line starts in the circle; its first cell is not the shaft's.
                let shaft: Vec<usize> = line
                    .into_iter()
                    .skip_while(|k| circle.contains(k))
                    .collect();
                if !shaft.is_empty() {
                    out.push(Arc::new(Arrow {
                        circle: circle.clone(),
                        shaft,
                    }));
                }
            }
        }
        Ok(out)
    },
};

pub(super) static LITTLE_KILLER: Kind = Kind {
    name: "little killer",
    words: &["littlekiller"],
    read_word: |_, value, g| {
        let (sum, list) = number_and(value)?;
        Ok(vec![Arc::new(LittleKiller {
            cells: parse_cells(list, g.side)?,
            sum,
        })])
    },
    fpuzzles_keys: &["littlekillersum"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "littlekillersum") {
            if let Some(sum) = json_number(entry)? {
                let cells = match entry.get("cells") {
                    Some(_) => json_cells(entry, "cells", g.side)?,
                    // Other tools give the clue and its direction alone.
                    None => diagonal_of(entry, g.side)?,
                };
                out.push(Arc::new(LittleKiller { cells, sum }));
            }
        }
        Ok(out)
    },
};

pub(super) static SANDWICH: Kind = Kind {
    name: "sandwich",
    words: &["sandwich"],
    read_word: |_, value, g| {
        let (sum, line) = number_and(value)?;
        let index = |s: &str| {
            s.parse::<usize>()
                .ok()
                .filter(|&i| i >= 1 && i <= g.side)
                .ok_or_else(|| format!("`{line}` is not a row R1… or column C1… of the grid"))
        };
        let (row, index) = match line.trim().split_at_checked(1) {
            Some(("R" | "r", i)) => (true, index(i)? - 1),
            Some(("C" | "c", i)) => (false, index(i)? - 1),
            _ => return Err(format!("`{line}` is not a row R1… or column C1…")),
        };
        Ok(vec![Arc::new(Sandwich { row, index, sum })])
    },
    fpuzzles_keys: &["sandwichsum"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let n = g.side;
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "sandwichsum") {
            let name = entry.get("cell").and_then(Value::as_str).unwrap_or("");
            let (r, c) = outside(name).ok_or_else(|| format!("`{name}` is not a clue cell"))?;
            let (row, index) = if (r == 0 || r == n + 1) && (1..=n).contains(&c) {
                (false, c - 1)
            } else if (c == 0 || c == n + 1) && (1..=n).contains(&r) {
                (true, r - 1)
            } else {
                return Err(format!("`{name}` is not outside a row or column"));
            };
            if let Some(sum) = json_number(entry)? {
                out.push(Arc::new(Sandwich { row, index, sum }));
            }
        }
        Ok(out)
    },
};

pub(super) static REGION_SUM: Kind = Kind {
    name: "region sum line",
    words: &["regionsum"],
    read_word: |_, value, g| {
        let groups = value
            .split(':')
            .map(|list| parse_cells(list, g.side))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(vec![Arc::new(RegionSum { groups })])
    },
    fpuzzles_keys: &["regionsumline", "equalsums"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        // dlx's own: groups of cells of one sum, as they are.
        for entry in entries(json, "equalsums") {
            let groups = entry
                .get("groups")
                .and_then(Value::as_array)
                .ok_or("an entry without \"groups\"")?
                .iter()
                .map(|group| {
                    group
                        .as_array()
                        .ok_or_else(|| format!("{group} is not a group of cells"))?
                        .iter()
                        .map(|c| json_cell(c, g.side))
                        .collect::<Result<Vec<usize>, String>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push(Arc::new(RegionSum { groups }));
        }
        for entry in entries(json, "regionsumline") {
            // `segments`: each run of the line in a region sums alone.
            let segments = entry.get("segments").and_then(Value::as_bool) == Some(true);
            for line in json_lines(entry, g.side)? {
                let region = |k: usize| fpuzzles_region(json, g, k);
                out.push(Arc::new(match line.as_slice() {
                    [first, .., last] if segments && first == last => {
                        RegionSum::around(&line[1..], region)
                    }
                    _ if segments => RegionSum::in_runs(&line, region),
                    _ => RegionSum::along(&line, region),
                }));
            }
        }
        Ok(out)
    },
};

pub(super) static ZIPPER: Kind = Kind {
    name: "zipper line",
    words: &["zipper"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(Zipper {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["zipperline"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "zipperline") {
            for cells in json_lines(entry, g.side)? {
                out.push(Arc::new(Zipper { cells }));
            }
        }
        Ok(out)
    },
};

/// The region of cell `k` in f-puzzles' `json`: its `grid` cell's
/// `region`, or the default box.
fn fpuzzles_region(json: &Map<String, Value>, g: &super::Geometry, k: usize) -> usize {
    let (r, c) = (k / g.side, k % g.side);
    json.get("grid")
        .and_then(|grid| grid.get(r)?.get(c)?.get("region")?.as_u64())
        .map_or(
            (r / g.box_rows) * (g.side / g.box_cols) + c / g.box_cols,
            |x| x as usize,
        )
}

/// The cells of a little killer given by its clue's `cell` outside the grid
/// and its `direction` (`UL`, `UR`, `DL`, `DR`): those met stepping from the
/// clue diagonally that way until the walk leaves the grid.
fn diagonal_of(entry: &Value, n: usize) -> Result<Vec<usize>, String> {
    let name = entry
        .get("cell")
        .and_then(Value::as_str)
        .ok_or("an entry with neither \"cells\" nor a clue \"cell\" and \"direction\"")?;
    let (r, c) = outside(name)
        .filter(|&(r, c)| r <= n + 1 && c <= n + 1)
        .ok_or_else(|| format!("`{name}` is not a clue cell"))?;
    let way = entry.get("direction").and_then(Value::as_str).unwrap_or("");
    let (dr, dc): (isize, isize) = match way.to_ascii_uppercase().as_str() {
        "UL" => (-1, -1),
        "UR" => (-1, 1),
        "DL" => (1, -1),
        "DR" => (1, 1),
        _ => {
            return Err(format!(
                "clue {name}: `{way}` is not a direction UL, UR, DL or DR"
            ))
        }
    };
    if (1..=n).contains(&r) && (1..=n).contains(&c) {
        return Err(format!("clue {name} is inside the grid, not outside it"));
    }
    let inside = |x: isize| x >= 1 && x <= n as isize;
    let (mut r, mut c) = (r as isize + dr, c as isize + dc);
    let mut cells = Vec::new();
    while inside(r) && inside(c) {
        cells.push((r as usize - 1) * n + c as usize - 1);
        (r, c) = (r + dr, c + dc);
    }
    if cells.is_empty() {
        return Err(format!(
            "clue {name} pointing {way} meets no cell of the grid"
        ));
    }
    Ok(cells)
}

/// The number of decimal digits of `d`.
fn decimal(d: u64) -> u32 {
    d.checked_ilog10().map_or(1, |l| l + 1)
}

impl Constraint for Arrow {
    fn kind(&self) -> &'static str {
        ARROW.name
    }
    /// With a one-cell circle, the shaft less the circle adds up to 0; a
    /// longer circle reads its digits as decimal places, which the bounds
    /// do not weigh, and says none.
    fn sums(&self) -> Vec<(Vec<usize>, Vec<usize>, i64)> {
        if self.circle.len() == 1 {
            vec![(self.shaft.clone(), self.circle.clone(), 0)]
        } else {
            Vec::new()
        }
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let all: Vec<usize> = self.circle.iter().chain(&self.shaft).copied().collect();
        check_cells("arrow", &all, rules.side(), 2)?;
        if self.circle.is_empty() || self.shaft.is_empty() {
            return Err(RulesError::Shape {
                rule: "arrow",
                why: "an arrow needs a circle and a shaft".into(),
            });
        }
        Ok(())
    }
    /// An automaton reading the circle's number, less what the whole
    /// houses in the shaft add up to ([`Encoder::whole_houses`]), then
    /// subtracting the other shaft cells' digits down to 0.
    fn encode(&self, e: &mut Encoder<'_>) {
        let n = e.side() as u64;
        let c = self.circle.len();
        let (shaft, whole) = e.whole_houses(&self.shaft);
        let cells: Vec<usize> = self.circle.iter().chain(&shaft).copied().collect();
        let m = cells.len();
        e.chain(
            &cells,
            0,
            |i, s, d| {
                let d = d as u64;
                // The shaft cells left to read (all of them while in the
                // circle) add at most n each and at least 1.
                let left = ((m - i - 1) as u64).min(shaft.len() as u64);
                if i + 1 < c {
                    let s = s.checked_mul(10u64.pow(decimal(d)))?.checked_add(d)?;
                    return (s <= n * left + whole).then_some(s);
                }
                let s = if i < c {
                    let number = s.checked_mul(10u64.pow(decimal(d)))?.checked_add(d)?;
                    number.checked_sub(whole)?
                } else {
                    s.checked_sub(d)?
                };
                (s >= left && s <= n * left).then_some(s)
            },
            |s| s == 0,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let value = self.circle.iter().fold(0u64, |v, &k| {
            let d = solution[k] as u64;
            v * 10u64.pow(decimal(d)) + d
        });
        let total: u64 = self.shaft.iter().map(|&k| solution[k] as u64).sum();
        if value != total {
            let n = rules.side();
            return Err(broken(
                format!(
                    "arrow {}:{}",
                    cells_text(&self.circle, n),
                    cells_text(&self.shaft, n)
                ),
                format!("the shaft adds up to {total}, the circle holds {value}"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!(
            "arrow={}:{}",
            cells_text(&self.circle, n),
            cells_text(&self.shaft, n)
        )]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        // The line starts in the circle cell nearest the shaft.
        let Some(&first) = self.shaft.first() else {
            return;
        };
        let dist = |k: usize| (k / n).abs_diff(first / n).max((k % n).abs_diff(first % n));
        let start = self
            .circle
            .iter()
            .copied()
            .min_by_key(|&k| dist(k))
            .unwrap_or(0);
        let mut line = vec![start];
        line.extend(&self.shaft);
        push_entry(
            json,
            "arrow",
            object([
                ("cells", json_names(&self.circle, n)),
                ("lines", Value::Array(vec![json_names(&line, n)])),
            ]),
        );
    }
    any_eq!();
}

impl Constraint for LittleKiller {
    fn kind(&self) -> &'static str {
        LITTLE_KILLER.name
    }
    fn sums(&self) -> Vec<(Vec<usize>, Vec<usize>, i64)> {
        vec![(self.cells.clone(), Vec::new(), i64::from(self.sum))]
    }
    /// Cells in the grid, each once, along one diagonal in steps of one
    /// cell (a sum off a diagonal is a cage, not a little killer).
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells("little killer", &self.cells, n, 1)?;
        let step = |w: &[usize]| {
            let (r0, c0, r1, c1) = (w[0] / n, w[0] % n, w[1] / n, w[1] % n);
            (r0.abs_diff(r1) == 1 && c0.abs_diff(c1) == 1).then_some((r1 > r0, c1 > c0))
        };
        let first = self.cells.get(..2).and_then(step);
        if let Some(w) = (self.cells.windows(2)).find(|w| step(w).is_none() || step(w) != first) {
            return Err(RulesError::Shape {
                rule: "little killer",
                why: format!(
                    "{} then {} is not a step along one diagonal",
                    cell_name(w[0], n),
                    cell_name(w[1], n)
                ),
            });
        }
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let n = e.side() as u64;
        let (m, sum) = (self.cells.len(), self.sum as u64);
        e.chain(
            &self.cells,
            0,
            |i, s, d| {
                let s = s + d as u64;
                let left = (m - i - 1) as u64;
                (s + left <= sum && s + n * left >= sum).then_some(s)
            },
            |s| s == sum,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let total: u32 = self.cells.iter().map(|&k| solution[k] as u32).sum();
        if total != self.sum {
            return Err(broken(
                format!("little killer {}", cells_text(&self.cells, rules.side())),
                format!("adds up to {total}, not {}", self.sum),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!(
            "littlekiller={}:{}",
            self.sum,
            cells_text(&self.cells, n)
        )]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        // The clue sits one step before the first cell, pointing along.
        let Some(&first) = self.cells.first() else {
            return;
        };
        let (r, c) = ((first / n) as isize, (first % n) as isize);
        let (dr, dc) = match self.cells.get(1) {
            Some(&k) => ((k / n) as isize - r, (k % n) as isize - c),
            // One cell: a corner; point into the grid.
            None => (if r == 0 { 1 } else { -1 }, if c == 0 { 1 } else { -1 }),
        };
        let direction = match (dr > 0, dc > 0) {
            (true, true) => "DR",
            (true, false) => "DL",
            (false, true) => "UR",
            (false, false) => "UL",
        };
        let clue = format!("R{}C{}", r - dr + 1, c - dc + 1);
        push_entry(
            json,
            "littlekillersum",
            object([
                ("cell", Value::from(clue)),
                ("cells", json_names(&self.cells, n)),
                ("direction", Value::from(direction)),
                ("value", Value::from(self.sum.to_string())),
            ]),
        );
    }
    any_eq!();
}

impl Sandwich {
    fn cells(&self, n: usize) -> Vec<usize> {
        let look = super::Look {
            row: self.row,
            index: self.index,
            back: false,
        };
        look.cells(n)
    }

    fn name(&self) -> String {
        format!("{}{}", if self.row { "R" } else { "C" }, self.index + 1)
    }
}

impl Constraint for Sandwich {
    fn kind(&self) -> &'static str {
        SANDWICH.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        if self.index >= n || n < 2 {
            return Err(RulesError::Shape {
                rule: "sandwich",
                why: format!(
                    "{} is not a line of a grid of side {n} (2 or more)",
                    self.name()
                ),
            });
        }
        Ok(())
    }
    /// An automaton along the row or column. Up to 9×9 its state between
    /// the 1 and the n is the set of digits met so far (the line's digits
    /// differ, so a set adds up to the sum only with distinct digits: a
    /// clue of 18 between three cells is 2+8+… never 6+6+6, and the
    /// matrix and the chain runs say so); beyond, the sum so far.
    fn encode(&self, e: &mut Encoder<'_>) {
        let n = e.side() as u8;
        let cells = self.cells(n as usize);
        let sum = u64::from(self.sum);
        if n <= 9 {
            // State: phase << 16 | the digits met inside (bit d); phase 0
            // before the 1 or n, 1 between them, 2 after.
            const PHASE: u64 = 1 << 16;
            e.chain(
                &cells,
                0,
                |_, s, d| {
                    let (phase, set) = (s / PHASE, s % PHASE);
                    let crust = d == 1 || d == n;
                    match (phase, crust) {
                        (0, false) | (2, false) => Some(s),
                        (0, true) => Some(PHASE),
                        (1, false) => {
                            let set = set | 1 << d;
                            let total: u64 =
                                (2..n).filter(|&x| set >> x & 1 != 0).map(u64::from).sum();
                            (set != s % PHASE && total <= sum).then_some(PHASE | set)
                        }
                        (1, true) => {
                            let total: u64 =
                                (2..n).filter(|&x| set >> x & 1 != 0).map(u64::from).sum();
                            (total == sum).then_some(2 * PHASE)
                        }
                        _ => None,
                    }
                },
                |s| s == 2 * PHASE,
            );
            return;
        }
        let k = sum + 1;
        // State: phase · (sum + 1) + the sum so far; phase 0 before the 1
        // or n, 1 between them, 2 after.
        e.chain(
            &cells,
            0,
            |_, s, d| {
                let (phase, so_far) = (s / k, s % k);
                let crust = d == 1 || d == n;
                match (phase, crust) {
                    (0, false) => Some(s),
                    (0, true) => Some(k),
                    (1, false) => {
                        let t = so_far + d as u64;
                        (t <= sum).then_some(k + t)
                    }
                    (1, true) => Some(2 * k + so_far),
                    (2, false) => Some(s),
                    _ => None,
                }
            },
            |s| s == 2 * k + sum,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let digits: Vec<u8> = self.cells(n).iter().map(|&k| solution[k]).collect();
        let ends: Vec<usize> = (0..n)
            .filter(|&i| digits[i] == 1 || digits[i] as usize == n)
            .collect();
        let total: Option<u32> = match ends[..] {
            [a, b] => Some(digits[a + 1..b].iter().map(|&d| d as u32).sum()),
            _ => None,
        };
        if total != Some(self.sum) {
            return Err(broken(
                format!("sandwich {}", self.name()),
                format!("{digits:?} do not sandwich {}", self.sum),
            ));
        }
        Ok(())
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec![format!("sandwich={}:{}", self.sum, self.name())]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        let clue = if self.row {
            format!("R{}C0", self.index + 1)
        } else {
            format!("R0C{}", self.index + 1)
        };
        push_entry(
            json,
            "sandwichsum",
            object([
                ("cell", Value::from(clue)),
                ("value", Value::from(self.sum.to_string())),
            ]),
        );
    }
    any_eq!();
}

/// A region sum line: the line's digits in each region it passes through
/// add up to the same sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionSum {
    /// The line's cells in each region, a group a region, in the order
    /// the line meets them.
    pub groups: Vec<Vec<usize>>,
}

/// An automaton along `groups` (their cells distinct): the first group's
/// sum becomes the target (the state's high bits), each later group's
/// running sum (the low 16 bits) must end on it.
fn equal_sums(e: &mut Encoder<'_>, groups: &[Vec<usize>]) {
    let cells = groups.concat();
    let mut ends = vec![false; cells.len()];
    let mut at = 0;
    for g in groups {
        at += g.len();
        ends[at - 1] = true;
    }
    e.chain(
        &cells,
        0,
        |i, s, d| {
            let (target, run) = (s >> 16, (s & 0xffff) + d as u64);
            match (ends[i], target) {
                (true, 0) => Some(run << 16),
                (true, t) => (run == t).then_some(t << 16),
                (false, t) => (t == 0 || run < t).then_some(t << 16 | run),
            }
        },
        |s| s & 0xffff == 0,
    );
}

/// Whether `groups` add up to one sum in `solution`, or their sums.
fn sums_of(groups: &[Vec<usize>], solution: &[u8]) -> Result<(), Vec<u64>> {
    let sums: Vec<u64> = groups
        .iter()
        .map(|g| g.iter().map(|&k| u64::from(solution[k])).sum())
        .collect();
    if sums.windows(2).any(|w| w[0] != w[1]) {
        Err(sums)
    } else {
        Ok(())
    }
}

impl RegionSum {
    /// The line through `cells` (in order), grouped by `region`.
    pub fn along(cells: &[usize], region: impl Fn(usize) -> usize) -> RegionSum {
        let mut keys: Vec<usize> = Vec::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &k in cells {
            let g = region(k);
            match keys.iter().position(|&x| x == g) {
                Some(i) => groups[i].push(k),
                None => {
                    keys.push(g);
                    groups.push(vec![k]);
                }
            }
        }
        RegionSum { groups }
    }

    /// The line through `cells` (in order), a group each run of it in
    /// one `region` (a region it enters twice sums twice).
    pub fn in_runs(cells: &[usize], region: impl Fn(usize) -> usize) -> RegionSum {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut last = None;
        for &k in cells {
            let g = region(k);
            match groups.last_mut() {
                Some(run) if last == Some(g) => run.push(k),
                _ => groups.push(vec![k]),
            }
            last = Some(g);
        }
        RegionSum { groups }
    }

    /// The loop through `cells` (in order, closing from the last back to
    /// the first), a group each run of it in one `region`: a run across
    /// the closing point is one.
    pub fn around(cells: &[usize], region: impl Fn(usize) -> usize) -> RegionSum {
        let m = cells.len();
        let start = (0..m)
            .find(|&i| region(cells[(i + m - 1) % m]) != region(cells[i]))
            .unwrap_or(0);
        let turned: Vec<usize> = (0..m).map(|i| cells[(start + i) % m]).collect();
        RegionSum::in_runs(&turned, region)
    }

    fn cells(&self) -> Vec<usize> {
        self.groups.concat()
    }
}

impl Constraint for RegionSum {
    fn kind(&self) -> &'static str {
        REGION_SUM.name
    }
    /// Each group less the next adds up to 0.
    fn sums(&self) -> Vec<(Vec<usize>, Vec<usize>, i64)> {
        self.groups
            .windows(2)
            .map(|w| (w[0].clone(), w[1].clone(), 0))
            .collect()
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells("region sum line", &self.cells(), rules.side(), 2)?;
        if self.groups.len() < 2 || self.groups.iter().any(Vec::is_empty) {
            return Err(RulesError::Shape {
                rule: "region sum line",
                why: "a region sum line needs two regions".into(),
            });
        }
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        equal_sums(e, &self.groups);
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        sums_of(&self.groups, solution).map_err(|sums| {
            broken(
                format!(
                    "region sum line {}",
                    cells_text(&self.cells(), rules.side())
                ),
                format!("its regions add up to {sums:?}"),
            )
        })
    }
    fn words(&self, n: usize) -> Vec<String> {
        let groups: Vec<String> = self.groups.iter().map(|g| cells_text(g, n)).collect();
        vec![format!("regionsum={}", groups.join(":"))]
    }
    /// As f-puzzles' `regionsumline` where its reading gives these groups
    /// back (the line grouped by regions, or with `segments` by its runs
    /// in them); other groups (equal sums of cells a region does not
    /// bound: "the first two digits add up to the last two") as dlx's own
    /// `equalsums` (`groups`), which f-puzzles does not read rather than
    /// reading as another rule.
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let h = crate::sudoku::fpuzzles::default_box_rows(n);
        let g = super::Geometry {
            side: n,
            box_rows: h,
            box_cols: n / h.max(1),
        };
        let cells = self.cells();
        let region = |k: usize| fpuzzles_region(json, &g, k);
        let entry = if RegionSum::along(&cells, region) == *self {
            line_entry(&cells, n)
        } else if RegionSum::in_runs(&cells, region) == *self {
            let mut entry = line_entry(&cells, n);
            if let Value::Object(o) = &mut entry {
                o.insert("segments".into(), Value::Bool(true));
            }
            entry
        } else {
            let groups = self.groups.iter().map(|g| json_names(g, n)).collect();
            push_entry(
                json,
                "equalsums",
                object([("groups", Value::Array(groups))]),
            );
            return;
        };
        push_entry(json, "regionsumline", entry);
    }

    any_eq!();
}

/// A zipper line: cells the same distance from its middle add up to one
/// sum, the middle cell's digit on a line of odd length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zipper {
    /// The cells, in order along the line.
    pub cells: Vec<usize>,
}

impl Zipper {
    /// The groups of equal sum: the middle cell alone (odd length), then
    /// each pair the same distance from it, the nearest first.
    fn groups(&self) -> Vec<Vec<usize>> {
        let m = self.cells.len();
        let mut groups = Vec::new();
        if m % 2 == 1 {
            groups.push(vec![self.cells[m / 2]]);
        }
        for i in (0..m / 2).rev() {
            groups.push(vec![self.cells[i], self.cells[m - 1 - i]]);
        }
        groups
    }
}

impl Constraint for Zipper {
    fn kind(&self) -> &'static str {
        ZIPPER.name
    }
    fn sums(&self) -> Vec<(Vec<usize>, Vec<usize>, i64)> {
        self.groups()
            .windows(2)
            .map(|w| (w[0].clone(), w[1].clone(), 0))
            .collect()
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_cells("zipper line", &self.cells, rules.side(), 3)
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        equal_sums(e, &self.groups());
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        sums_of(&self.groups(), solution).map_err(|sums| {
            broken(
                format!("zipper line {}", cells_text(&self.cells, rules.side())),
                format!("its pairs add up to {sums:?}"),
            )
        })
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("zipper={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "zipperline", line_entry(&self.cells, n));
    }

    any_eq!();
}

pub(super) static EQUAL_PRODUCTS: Kind = Kind {
    name: "equal products",
    words: &["products"],
    read_word: |_, value, g| {
        let groups = value
            .split(':')
            .map(|list| parse_cells(list, g.side))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(vec![Arc::new(EqualProducts { groups })])
    },
    fpuzzles_keys: &["equalproducts"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "equalproducts") {
            out.push(Arc::new(EqualProducts {
                groups: json_lines(entry, g.side)?,
            }));
        }
        Ok(out)
    },
};

/// Groups of cells whose digits multiply to one product (the diagonals a
/// puzzle marks, say). Groups may share cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EqualProducts {
    /// The groups, each its cells.
    pub groups: Vec<Vec<usize>>,
}

/// The largest product an equal-products automaton holds (32 bits of its
/// state).
const MAX_PRODUCT: f64 = u32::MAX as f64;

impl Constraint for EqualProducts {
    fn kind(&self) -> &'static str {
        EQUAL_PRODUCTS.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        if self.groups.is_empty() {
            return Err(RulesError::Shape {
                rule: self.kind(),
                why: "no group of cells".into(),
            });
        }
        for group in &self.groups {
            check_cells(self.kind(), group, n, 1)?;
            if (n as f64).powi(group.len() as i32) > MAX_PRODUCT {
                return Err(RulesError::Shape {
                    rule: self.kind(),
                    why: format!("{} cells may multiply past 2³²", group.len()),
                });
            }
        }
        Ok(())
    }
    /// An automaton along the groups one after the other (a cell in two
    /// groups is read twice: both readings take its digit), whose state is
    /// the first group's product (high 32 bits, once it is done) and the
    /// current group's so far: each later group ends on the first's.
    fn encode(&self, e: &mut Encoder<'_>) {
        let cells: Vec<usize> = self.groups.concat();
        let mut start = vec![usize::MAX; cells.len()];
        let mut at = 0;
        for (g, group) in self.groups.iter().enumerate() {
            start[at] = g;
            at += group.len();
        }
        let several = self.groups.len() > 1;
        e.chain(
            &cells,
            0,
            |i, s, d| {
                let (d, target, product) = (u64::from(d), s >> 32, s & 0xffff_ffff);
                match start[i] {
                    0 => Some(d),
                    1 => Some(product << 32 | d),
                    usize::MAX => Some(target << 32 | (product * d)),
                    _ => (product == target).then_some(target << 32 | d),
                }
            },
            |s| !several || s >> 32 == s & 0xffff_ffff,
        );
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let products: Vec<u64> = self
            .groups
            .iter()
            .map(|g| g.iter().map(|&k| u64::from(solution[k])).product())
            .collect();
        if products.windows(2).any(|w| w[0] != w[1]) {
            let n = rules.side();
            let groups: Vec<String> = self.groups.iter().map(|g| cells_text(g, n)).collect();
            return Err(broken(
                format!("{} {}", self.kind(), groups.join(":")),
                format!("multiply to {products:?}"),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        let groups: Vec<String> = self.groups.iter().map(|g| cells_text(g, n)).collect();
        vec![format!("products={}", groups.join(":"))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let lines: Vec<Value> = self.groups.iter().map(|g| json_names(g, n)).collect();
        push_entry(
            json,
            "equalproducts",
            object([("lines", Value::Array(lines))]),
        );
    }

    any_eq!();
}
