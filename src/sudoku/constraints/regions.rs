//! Extra regions: cells of distinct digits beyond rows, columns and
//! regions — the diagonals of X-Sudoku, windoku's windows, disjoint groups,
//! any group a setter draws. n cells hold every digit (n primary items, as
//! a region); fewer hold each at most once (n secondary items) — Knuth's
//! converter for general Sudoku does the same.
//!
//! Text: `x` (both diagonals), `diagonal-` (top-left to bottom-right),
//! `diagonal+` (bottom-left to top-right), `windoku`, `disjoint`,
//! `region=R1C1,R1C2,…`. f-puzzles: the flags `diagonal+`, `diagonal-`,
//! `disjointgroups` and the array `extraregion` (`cells`).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    any_eq, cells_text, check_cells, entries, json_cells, json_names, object, parse_cells,
    push_entry, Constraint, Encoder, Geometry, Kind, Read,
};
use crate::sudoku::rules::{Broken, House, Rules, RulesError};

/// Cells of distinct digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraRegion {
    /// The cells, row-major.
    pub cells: Vec<usize>,
}

pub(super) static KIND: Kind = Kind {
    name: "extra region",
    words: &[
        "x",
        "diagonal-",
        "diagonal+",
        "windoku",
        "disjoint",
        "region",
    ],
    read_word,
    fpuzzles_keys: &["diagonal+", "diagonal-", "disjointgroups", "extraregion"],
    negative: &[],
    read_fpuzzles,
};

/// The main diagonal, top-left to bottom-right.
pub(crate) fn down(n: usize) -> Vec<usize> {
    (0..n).map(|i| i * n + i).collect()
}

/// The anti-diagonal, bottom-left to top-right.
pub(crate) fn up(n: usize) -> Vec<usize> {
    (0..n).map(|i| (n - 1 - i) * n + i).collect()
}

/// Windoku's windows: for a side n = b², the (b−1)² b×b windows one cell in
/// from the boxes' edges.
pub(crate) fn windows(n: usize) -> Result<Vec<Vec<usize>>, String> {
    let b = (1..=n)
        .find(|b| b * b == n)
        .ok_or_else(|| format!("windows need a side that is a square, not {n}"))?;
    let mut out = Vec::new();
    for wr in 0..b - 1 {
        for wc in 0..b - 1 {
            let (r0, c0) = (1 + wr * (b + 1), 1 + wc * (b + 1));
            out.push((0..n).map(|i| (r0 + i / b) * n + c0 + i % b).collect());
        }
    }
    Ok(out)
}

/// Disjoint groups: the cells at one place in every box of `rows × cols`.
pub(crate) fn groups(n: usize, rows: usize, cols: usize) -> Option<Vec<Vec<usize>>> {
    if rows * cols != n {
        return None;
    }
    let per_row = n / cols;
    Some(
        (0..n)
            .map(|place| {
                let (pr, pc) = (place / cols, place % cols);
                (0..n)
                    .map(|x| ((x / per_row) * rows + pr) * n + (x % per_row) * cols + pc)
                    .collect()
            })
            .collect(),
    )
}

fn all(regions: Vec<Vec<usize>>) -> Vec<Arc<dyn Constraint>> {
    regions
        .into_iter()
        .map(|cells| Arc::new(ExtraRegion { cells }) as Arc<dyn Constraint>)
        .collect()
}

fn read_word(key: &str, value: &str, g: &Geometry) -> Read {
    let n = g.side;
    Ok(all(match key {
        "x" => vec![down(n), up(n)],
        "diagonal-" => vec![down(n)],
        "diagonal+" => vec![up(n)],
        "windoku" => windows(n)?,
        "disjoint" => groups(n, g.box_rows, g.box_cols).ok_or("boxes that do not tile the grid")?,
        _ => vec![parse_cells(value, n)?],
    }))
}

fn read_fpuzzles(json: &Map<String, Value>, g: &Geometry) -> Read {
    let n = g.side;
    let flag = |k: &str| json.get(k).and_then(Value::as_bool) == Some(true);
    let mut regions = Vec::new();
    if flag("diagonal-") {
        regions.push(down(n));
    }
    if flag("diagonal+") {
        regions.push(up(n));
    }
    if flag("disjointgroups") {
        regions.extend(groups(n, g.box_rows, g.box_cols).ok_or("boxes that do not tile the grid")?);
    }
    for entry in entries(json, "extraregion") {
        regions.push(json_cells(entry, "cells", n)?);
    }
    Ok(all(regions))
}

impl Constraint for ExtraRegion {
    fn kind(&self) -> &'static str {
        KIND.name
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells("extra region", &self.cells, n, 1)?;
        if self.cells.len() > n {
            return Err(RulesError::Shape {
                rule: "extra region",
                why: format!(
                    "{} cells; 1 to {n} can hold distinct digits",
                    self.cells.len()
                ),
            });
        }
        Ok(())
    }

    fn encode(&self, e: &mut Encoder<'_>) {
        if self.cells.len() == e.side() {
            e.all_digits(&self.cells);
        } else {
            e.at_most_once(&self.cells);
        }
    }

    fn check(&self, _: &Rules, nth: usize, solution: &[u8]) -> Result<(), Broken> {
        distinct(House::Extra(nth), &self.cells, solution)
    }

    fn words(&self, n: usize) -> Vec<String> {
        vec![if self.cells == down(n) {
            "diagonal-".into()
        } else if self.cells == up(n) {
            "diagonal+".into()
        } else {
            format!("region={}", cells_text(&self.cells, n))
        }]
    }

    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        for (cells, key) in [(down(n), "diagonal-"), (up(n), "diagonal+")] {
            if self.cells == cells && !json.contains_key(key) {
                json.insert(key.into(), Value::Bool(true));
                return;
            }
        }
        push_entry(
            json,
            "extraregion",
            object([("cells", json_names(&self.cells, n))]),
        );
    }

    any_eq!();
}

/// Checks `cells` hold distinct digits, naming `house` when not.
pub(crate) fn distinct(house: House, cells: &[usize], solution: &[u8]) -> Result<(), Broken> {
    let mut seen = 0u128;
    for &k in cells {
        let bit = 1u128 << solution[k];
        if seen & bit != 0 {
            let digit = solution[k];
            return Err(Broken::Twice { house, digit });
        }
        seen |= bit;
    }
    Ok(())
}
