//! Digit-set rules: killer cages, product cages and renban lines. Each is
//! distinct cells whose digits form one of a list of sets — the sets of
//! the cage's size with its sum or its product, or the runs of consecutive
//! digits of the line's length —
//! encoded by [`Encoder::digit_sets`]: a primary item "uses d" a digit,
//! covered by the cells' options of that digit, and one option a set
//! covering the digits the set lacks, so exactly one set is chosen and the
//! cells hold exactly its digits. A cage without a sum is "d at most once"
//! (secondary). (Banning the digits of no set up front was tried on killer
//! puzzles and did not lower the nodes; it is left out.)
//!
//! Text: `cage=SUM:R1C1,R1C2,…`, `cage=R1C1,…` (no sum),
//! `productcage=PRODUCT:R1C1,…`, `renban=R1C1,…`. f-puzzles: `killercage`
//! (`cells`, `value`: the sum as text, absent or empty for none) and
//! `renban` (`lines`, each a line); f-puzzles has no product cage, written
//! as dlx's `productcage` (`cells`, `value`).

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

/// A product cage: its cells hold distinct digits whose product is
/// `product`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProductCage {
    /// The cells, row-major (`r·n + c`).
    pub cells: Vec<usize>,
    /// The product of its digits.
    pub product: u64,
}

pub(super) static PRODUCT_CAGE: Kind = Kind {
    name: "product cage",
    words: &["productcage"],
    read_word: |_, value, g| {
        let (p, list) = value
            .split_once(':')
            .ok_or_else(|| format!("`{value}` is not PRODUCT:CELLS"))?;
        let product = p
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("the product `{p}` is not a number"))?;
        let cells = parse_cells(list, g.side)?;
        Ok(vec![Arc::new(ProductCage { cells, product })])
    },
    fpuzzles_keys: &["productcage"],
    negative: &[],
    read_fpuzzles: |json, g| {
        entries(json, "productcage")
            .iter()
            .map(|entry| {
                let product = json_product(entry).map_err(|e| format!("a product cage: {e}"))?;
                let cells = json_cells(entry, "cells", g.side)?;
                Ok(Arc::new(ProductCage { cells, product }) as Arc<dyn Constraint>)
            })
            .collect()
    },
};

/// A product cage's `value`: a number, as text or not (64 bits: 9×9's
/// largest product is 9! and a 16×16 cage's 16!).
fn json_product(entry: &Value) -> Result<u64, String> {
    match entry.get("value") {
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map_err(|_| format!("the value `{s}` is not a number")),
        Some(Value::Number(x)) => x
            .as_u64()
            .ok_or_else(|| format!("the value {x} is not a number")),
        Some(other) => Err(format!("the value {other} is not a number")),
        None => Err("an entry without \"value\"".into()),
    }
}

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

/// The sets of `m` distinct digits of 1..=n whose product is `product`,
/// each as a bitmask (bit d − 1 for digit d): digits tried in increasing
/// order, each dividing what is left.
pub(crate) fn product_sets(n: usize, m: usize, product: u64) -> Vec<u64> {
    fn walk(n: usize, from: usize, m: usize, left: u64, mask: u64, out: &mut Vec<u64>) {
        if m == 0 {
            if left == 1 {
                out.push(mask);
            }
            return;
        }
        // Too few digits left to choose from.
        if from + m > n + 1 {
            return;
        }
        for d in from..=n {
            if left.is_multiple_of(d as u64) {
                walk(n, d + 1, m - 1, left / d as u64, mask | 1 << (d - 1), out);
            }
        }
    }
    let mut out = Vec::new();
    if product > 0 {
        walk(n, 1, m, product, 0, &mut out);
    }
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

impl Constraint for ProductCage {
    fn kind(&self) -> &'static str {
        PRODUCT_CAGE.name
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        check_shape(self.kind(), &self.cells, rules.side())?;
        if product_sets(rules.side(), self.cells.len(), self.product).is_empty() {
            return Err(RulesError::Shape {
                rule: self.kind(),
                why: format!(
                    "no {} distinct digits of 1 to {} multiply to {}",
                    self.cells.len(),
                    rules.side(),
                    self.product
                ),
            });
        }
        Ok(())
    }

    /// The sets of the cage's size with its product ([`Encoder::digit_sets`]).
    fn encode(&self, e: &mut Encoder<'_>) {
        let sets = product_sets(e.side(), self.cells.len(), self.product);
        e.digit_sets(&self.cells, &sets);
    }

    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        let digits: Vec<u8> = self.cells.iter().map(|&k| solution[k]).collect();
        let mut sorted = digits.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let product = digits
            .iter()
            .try_fold(1u64, |p, &d| p.checked_mul(u64::from(d)));
        if sorted.len() != digits.len() || product != Some(self.product) {
            return Err(broken(
                format!(
                    "product cage {}:{}",
                    self.product,
                    cells_text(&self.cells, n)
                ),
                format!("{digits:?} are not distinct digits multiplying to it"),
            ));
        }
        Ok(())
    }

    fn words(&self, n: usize) -> Vec<String> {
        vec![format!(
            "productcage={}:{}",
            self.product,
            cells_text(&self.cells, n)
        )]
    }

    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(
            json,
            "productcage",
            object([
                ("cells", json_names(&self.cells, n)),
                ("value", Value::from(self.product.to_string())),
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
