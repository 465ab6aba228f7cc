//! Digit-set rules: killer cages and renban lines. Both are distinct cells
//! whose digits form one of a list of sets — the sets of the cage's size
//! with its sum, or the runs of consecutive digits of the line's length —
//! encoded by [`Encoder::digit_sets`]: a primary item "uses d" a digit,
//! covered by the cells' options of that digit, and one option a set
//! covering the digits the set lacks, so exactly one set is chosen and the
//! cells hold exactly its digits. A cage without a sum is "d at most once"
//! (secondary). (Banning the digits of no set up front was tried on killer
//! puzzles and did not lower the nodes; it is left out.)
//!
//! Text: `cage=SUM:R1C1,R1C2,…`, `cage=R1C1,…` (no sum), `renban=R1C1,…`.
//! f-puzzles: `killercage` (`cells`, `value`: the sum as text, absent or
//! empty for none) and `renban` (`lines`, each a line).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    any_eq, broken, cells_text, check_cells, entries, json_cells, json_lines, json_names,
    json_number, line_entry, object, parse_cells, push_entry, Constraint, Encoder, Geometry, Kind,
    Read,
};
use crate::sudoku::rules::{Broken, House, Rules, RulesError};

/// A killer cage: its cells hold distinct digits, and add up to `sum`
/// when it is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The cells, row-major (`r·n + c`).
    pub cells: Vec<usize>,
    /// The sum of its digits, if the cage has one.
    pub sum: Option<u32>,
}

/// A renban line: its cells hold distinct consecutive digits, in any
/// order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renban {
    /// The cells along the line.
    pub cells: Vec<usize>,
}

pub(super) static CAGE: Kind = Kind {
    name: "killer cage",
    words: &["cage"],
    read_word: |_, value, g| {
        let (sum, list) = match value.split_once(':') {
            Some((s, list)) => (
                Some(
                    s.trim()
                        .parse::<u32>()
                        .map_err(|_| format!("the sum `{s}` is not a number"))?,
                ),
                list,
            ),
            None => (None, value),
        };
        let cells = parse_cells(list, g.side)?;
        Ok(vec![Arc::new(Cage { cells, sum })])
    },
    fpuzzles_keys: &["killercage"],
    negative: &[],
    read_fpuzzles: |json, g| {
        entries(json, "killercage")
            .iter()
            .map(|entry| {
                let sum = json_number(entry).map_err(|e| format!("a killer cage: {e}"))?;
                let cells = json_cells(entry, "cells", g.side)?;
                Ok(Arc::new(Cage { cells, sum }) as Arc<dyn Constraint>)
            })
            .collect()
    },
};

pub(super) static RENBAN: Kind = Kind {
    name: "renban",
    words: &["renban"],
    read_word: |_, value, g: &Geometry| {
        Ok(vec![Arc::new(Renban {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["renban"],
    negative: &[],
    read_fpuzzles: read_renban,
};

fn read_renban(json: &Map<String, Value>, g: &Geometry) -> Read {
    let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
    for entry in entries(json, "renban") {
        for cells in json_lines(entry, g.side)? {
            out.push(Arc::new(Renban { cells }));
        }
    }
    Ok(out)
}

/// The sets of `m` distinct digits of 1..=n adding up to `sum`, each as a
/// bitmask (bit d − 1 for digit d).
pub(crate) fn digit_sets(n: usize, m: usize, sum: u32) -> Vec<u64> {
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

/// Cells of distinct digits, at most n.
fn check_shape(rule: &'static str, cells: &[usize], n: usize) -> Result<(), RulesError> {
    check_cells(rule, cells, n, 1)?;
    if cells.len() > n {
        return Err(RulesError::Shape {
            rule,
            why: format!("{} cells; 1 to {n} can hold distinct digits", cells.len()),
        });
    }
    Ok(())
}

impl Constraint for Cage {
    fn kind(&self) -> &'static str {
        CAGE.name
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_shape("killer cage", &self.cells, rules.side())?;
        match self.sum {
            Some(s) if digit_sets(rules.side(), self.cells.len(), s).is_empty() => {
                Err(RulesError::Sum {
                    cage: rules.find::<Cage>().count(),
                    sum: s,
                })
            }
            _ => Ok(()),
        }
    }

    fn encode(&self, e: &mut Encoder<'_>) {
        match self.sum {
            Some(s) => {
                let sets = digit_sets(e.side(), self.cells.len(), s);
                e.digit_sets(&self.cells, &sets);
            }
            None => e.at_most_once(&self.cells),
        }
    }

    fn check(&self, _: &Rules, nth: usize, solution: &[u8]) -> Result<(), Broken> {
        super::regions::distinct(House::Cage(nth), &self.cells, solution)?;
        let total: u32 = self.cells.iter().map(|&k| solution[k] as u32).sum();
        match self.sum {
            Some(sum) if sum != total => Err(Broken::CageSum {
                cage: nth,
                total,
                sum,
            }),
            _ => Ok(()),
        }
    }

    fn words(&self, n: usize) -> Vec<String> {
        vec![match self.sum {
            Some(s) => format!("cage={s}:{}", cells_text(&self.cells, n)),
            None => format!("cage={}", cells_text(&self.cells, n)),
        }]
    }

    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let value = self.sum.map_or(String::new(), |s| s.to_string());
        push_entry(
            json,
            "killercage",
            object([
                ("cells", json_names(&self.cells, n)),
                ("value", Value::from(value)),
            ]),
        );
    }

    any_eq!();
}

impl Constraint for Renban {
    fn kind(&self) -> &'static str {
        RENBAN.name
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_shape("renban", &self.cells, rules.side())
    }

    fn encode(&self, e: &mut Encoder<'_>) {
        let (n, m) = (e.side(), self.cells.len());
        let run = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
        let sets: Vec<u64> = (0..=n - m).map(|s| run << s).collect();
        e.digit_sets(&self.cells, &sets);
    }

    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let digits: Vec<u8> = self.cells.iter().map(|&k| solution[k]).collect();
        let mut sorted = digits.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let (lo, hi) = (sorted[0], sorted[sorted.len() - 1]);
        if sorted.len() != digits.len() || (hi - lo) as usize + 1 != digits.len() {
            return Err(broken(
                format!("renban {}", cells_text(&self.cells, n)),
                format!("{digits:?} are not distinct consecutive digits"),
            ));
        }
        Ok(())
    }

    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("renban={}", cells_text(&self.cells, n))]
    }

    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(json, "renban", line_entry(&self.cells, n));
    }

    any_eq!();
}
