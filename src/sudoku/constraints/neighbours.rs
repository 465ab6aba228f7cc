//! Anti-king and anti-knight: no two cells a king's (a knight's) move
//! apart hold the same digit. Each pair of such cells not already in one
//! region gets, through [`Encoder::forbid`], one secondary item a digit,
//! in the two cells' options of that digit (orthogonal neighbours already
//! share a row or a column).
//!
//! Text: `antiking`, `antiknight` (`anti-king`, `anti-knight` read too).
//! f-puzzles: the flags `antiking`, `antiknight`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    any_eq, broken, cell_name, cells_text, check_cells, entries, json_cells, json_names, object,
    parse_cells, push_entry, Constraint, Encoder, Kind,
};
use crate::sudoku::rules::{Broken, Neighbours, Rules, RulesError};

/// No two cells a king's move apart hold the same digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AntiKing;

/// No two cells a knight's move apart hold the same digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AntiKnight;

pub(super) static ANTI_KING: Kind = Kind {
    name: "anti-king",
    words: &["antiking", "anti-king"],
    read_word: |_, _, _| Ok(vec![Arc::new(AntiKing)]),
    fpuzzles_keys: &["antiking"],
    negative: &[],
    read_fpuzzles: |json, _| Ok(flag(json, "antiking", || Arc::new(AntiKing))),
};

pub(super) static ANTI_KNIGHT: Kind = Kind {
    name: "anti-knight",
    words: &["antiknight", "anti-knight"],
    read_word: |_, _, _| Ok(vec![Arc::new(AntiKnight)]),
    fpuzzles_keys: &["antiknight"],
    negative: &[],
    read_fpuzzles: |json, _| Ok(flag(json, "antiknight", || Arc::new(AntiKnight))),
};

/// The constraint of a true flag `key`, or none.
pub(crate) fn flag(
    json: &Map<String, Value>,
    key: &str,
    make: impl Fn() -> Arc<dyn Constraint>,
) -> Vec<Arc<dyn Constraint>> {
    if json.get(key).and_then(Value::as_bool) == Some(true) {
        vec![make()]
    } else {
        Vec::new()
    }
}

/// The pairs of cells `moves` apart (each once, forward moves only).
fn pairs(n: usize, moves: &[(isize, isize)]) -> Vec<(usize, usize)> {
    let sn = n as isize;
    let mut out = Vec::new();
    for r in 0..sn {
        for c in 0..sn {
            for &(dr, dc) in moves {
                let (r2, c2) = (r + dr, c + dc);
                if r2 < sn && (0..sn).contains(&c2) {
                    out.push(((r * sn + c) as usize, (r2 * sn + c2) as usize));
                }
            }
        }
    }
    out
}

const KING: [(isize, isize); 2] = [(1, 1), (1, -1)];
const KNIGHT: [(isize, isize); 4] = [(1, 2), (1, -2), (2, 1), (2, -1)];

fn encode(e: &mut Encoder<'_>, moves: &[(isize, isize)]) {
    for (a, b) in pairs(e.side(), moves) {
        if e.rules().regions()[a] != e.rules().regions()[b] {
            e.forbid(a, b, |x, y| x != y);
        }
    }
}

fn check(
    rules: &Rules,
    moves: &[(isize, isize)],
    rule: Neighbours,
    solution: &[u8],
) -> Result<(), Broken> {
    for (a, b) in pairs(rules.side(), moves) {
        if solution[a] == solution[b] {
            return Err(Broken::Neighbours {
                rule,
                cells: [a, b],
                digits: [solution[a], solution[b]],
            });
        }
    }
    Ok(())
}

impl Constraint for AntiKing {
    fn kind(&self) -> &'static str {
        ANTI_KING.name
    }
    fn validate(&self, _: &Rules) -> Result<(), RulesError> {
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        encode(e, &KING);
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        // Orthogonal neighbours too: the checker trusts no other rule.
        let all = [(1, 1), (1, -1), (1, 0), (0, 1)];
        check(rules, &all, Neighbours::AntiKing, solution)
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec!["antiking".into()]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        json.insert("antiking".into(), Value::Bool(true));
    }
    any_eq!();
}

impl Constraint for AntiKnight {
    fn kind(&self) -> &'static str {
        ANTI_KNIGHT.name
    }
    fn validate(&self, _: &Rules) -> Result<(), RulesError> {
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        encode(e, &KNIGHT);
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        check(rules, &KNIGHT, Neighbours::AntiKnight, solution)
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec!["antiknight".into()]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        json.insert("antiknight".into(), Value::Bool(true));
    }
    any_eq!();
}

pub(super) static PARITY_STRINGS: Kind = Kind {
    name: "parity strings",
    words: &["paritystrings"],
    read_word: |_, value, _| {
        let length = value
            .trim()
            .parse()
            .map_err(|_| format!("`{value}` is not a number of cells"))?;
        Ok(vec![Arc::new(ParityStrings { length })])
    },
    fpuzzles_keys: &["paritystrings"],
    negative: &[],
    // A number, or a list of them (rules with strings of several lengths).
    read_fpuzzles: |json, _| {
        let lengths: Vec<&Value> = match json.get("paritystrings") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => Vec::new(),
            Some(Value::Array(list)) => list.iter().collect(),
            Some(v) => vec![v],
        };
        lengths
            .into_iter()
            .map(|v| -> Result<Arc<dyn Constraint>, String> {
                let length = v
                    .as_u64()
                    .ok_or_else(|| format!("`paritystrings` {v} is not a number of cells"))?;
                Ok(Arc::new(ParityStrings {
                    length: length as usize,
                }))
            })
            .collect()
    },
};

/// In every row and every column, no `length` cells in a row hold digits
/// of one parity (all even or all odd).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParityStrings {
    /// The cells in a row that may not share a parity.
    pub length: usize,
}

impl ParityStrings {
    /// The rows, then the columns, each cell by cell.
    fn lines(n: usize) -> impl Iterator<Item = Vec<usize>> {
        (0..n)
            .map(move |r| (0..n).map(|c| r * n + c).collect())
            .chain((0..n).map(move |c| (0..n).map(|r| r * n + c).collect()))
    }
}

impl Constraint for ParityStrings {
    fn kind(&self) -> &'static str {
        PARITY_STRINGS.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        if !(2..=rules.side()).contains(&self.length) {
            return Err(RulesError::Shape {
                rule: self.kind(),
                why: format!(
                    "strings of {} cells in a grid of side {}",
                    self.length,
                    rules.side()
                ),
            });
        }
        Ok(())
    }
    /// An automaton along each row and column whose state is the last
    /// digit's parity (bit 0) and how many cells in a row have had it.
    fn encode(&self, e: &mut Encoder<'_>) {
        let length = self.length as u64;
        for line in ParityStrings::lines(e.side()) {
            e.chain(
                &line,
                0,
                |i, s, d| {
                    let p = u64::from(d % 2);
                    let run = if i > 0 && s & 1 == p { (s >> 1) + 1 } else { 1 };
                    (run < length).then_some(run << 1 | p)
                },
                |_| true,
            );
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        for line in ParityStrings::lines(n) {
            let run = line
                .windows(self.length)
                .find(|w| w.iter().all(|&k| solution[k] % 2 == solution[w[0]] % 2));
            if let Some(w) = run {
                return Err(broken(
                    format!("parity strings of {}", self.length),
                    format!(
                        "{} to {} are all {}",
                        cell_name(w[0], n),
                        cell_name(w[w.len() - 1], n),
                        if solution[w[0]].is_multiple_of(2) {
                            "even"
                        } else {
                            "odd"
                        }
                    ),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec![format!("paritystrings={}", self.length)]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        let length = Value::from(self.length);
        match json.get_mut("paritystrings") {
            Some(Value::Array(list)) => list.push(length),
            Some(one) => *one = Value::Array(vec![one.take(), length]),
            None => {
                json.insert("paritystrings".into(), length);
            }
        }
    }
    any_eq!();
}

pub(super) static KNIGHT_CIRCLES: Kind = Kind {
    name: "knight circles",
    words: &["knightcircles"],
    read_word: |_, value, g| {
        Ok(vec![Arc::new(KnightCircles {
            cells: parse_cells(value, g.side)?,
        })])
    },
    fpuzzles_keys: &["knightcircles"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "knightcircles") {
            out.push(Arc::new(KnightCircles {
                cells: json_cells(entry, "cells", g.side)?,
            }));
        }
        Ok(out)
    },
};

/// Circles whose digit is in the same third of the digits (low, middle,
/// high: 1–3, 4–6, 7–9 on 9×9) as the digit of every cell a knight's move
/// away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnightCircles {
    /// The circled cells.
    pub cells: Vec<usize>,
}

impl KnightCircles {
    /// The third of the digits `d` is in.
    fn third(d: u8, n: usize) -> usize {
        usize::from(d - 1) * 3 / n
    }

    /// Each circle with each cell a knight's move from it.
    fn pairs(&self, n: usize) -> Vec<(usize, usize)> {
        let sn = n as isize;
        let mut out = Vec::new();
        for &k in &self.cells {
            let (r, c) = ((k / n) as isize, (k % n) as isize);
            for (dr, dc) in [(1, 2), (1, -2), (2, 1), (2, -1)] {
                for (r2, c2) in [(r + dr, c + dc), (r - dr, c - dc)] {
                    if (0..sn).contains(&r2) && (0..sn).contains(&c2) {
                        out.push((k, (r2 * sn + c2) as usize));
                    }
                }
            }
        }
        out
    }
}

impl Constraint for KnightCircles {
    fn kind(&self) -> &'static str {
        KNIGHT_CIRCLES.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.side();
        check_cells(self.kind(), &self.cells, n, 1)?;
        if !n.is_multiple_of(3) {
            return Err(RulesError::Shape {
                rule: self.kind(),
                why: format!("digits 1 to {n} do not fall in three thirds of one size"),
            });
        }
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let n = e.side();
        for (a, b) in self.pairs(n) {
            e.forbid(a, b, move |x, y| Self::third(x, n) == Self::third(y, n));
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let n = rules.side();
        for (a, b) in self.pairs(n) {
            if Self::third(solution[a], n) != Self::third(solution[b], n) {
                return Err(broken(
                    format!("knight circle {}", cell_name(a, n)),
                    format!(
                        "holds {}, and {} a knight's move away {}",
                        solution[a],
                        cell_name(b, n),
                        solution[b]
                    ),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!("knightcircles={}", cells_text(&self.cells, n))]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        push_entry(
            json,
            "knightcircles",
            object([("cells", json_names(&self.cells, n))]),
        );
    }
    any_eq!();
}
