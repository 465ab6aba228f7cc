//! Dots between two cells and the rules that say where there are none:
//! kropki white dots (the digits differ by 1, or by the dot's value) and
//! black dots (one digit is twice the other, or the value times it), XV
//! (the digits add up to 10 or 5), non-consecutive (orthogonal neighbours
//! without a dot never differ by 1) and the negative rules (every dot is
//! given: orthogonal neighbours without a dot of that family keep none of
//! its relations).
//!
//! All are forbidden pairs ([`Encoder::forbid`]): secondary items, so the
//! masks engine keeps searching them. Non-consecutive keeps its own
//! encoding — one item a pair of neighbours and a pair of digits {d, d+1}
//! in the four options concerned (the two that put one digit in both cells
//! are excluded by the shared row or column).
//!
//! Which pairs a negative rule covers: f-puzzles' and rangsk's solver's —
//! every orthogonal pair with no kropki dot (white or black) for
//! non-consecutive and the kropki negatives, with no XV mark for the XV
//! negative; the relations refused are difference 1 (and every value a
//! white dot carries), ratio 2 (and every black dot's value), sums 5 and
//! 10.
//!
//! Text: `white=R1C1,R1C2`, `white=3:R1C1,R1C2`, `black=…`,
//! `xv=X:R1C1,R1C2`, `xv=V:…`, `nonconsecutive` (`non-consecutive`),
//! `negative=white`, `negative=black`, `negative=xv`. f-puzzles:
//! `difference` and `ratio` (`cells`, `value` when not 1 or 2), `xv`
//! (`cells`, `value` `"X"` or `"V"`), the flag `nonconsecutive`, the array
//! `negative` (`"difference"`, `"ratio"`, `"xv"`).

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    any_eq, broken, cell_name, check_cells, entries, json_cells, json_names, json_number,
    neighbours::flag, number_and, object, parse_cells, push_entry, Constraint, Encoder, Geometry,
    Kind, Read,
};
use crate::sudoku::rules::{Broken, Neighbours, Rules, RulesError};

/// A kropki dot's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DotKind {
    /// White: the digits differ by the value (1 unless marked).
    White,
    /// Black: one digit is the value (2 unless marked) times the other.
    Black,
}

impl DotKind {
    fn word(self) -> &'static str {
        match self {
            DotKind::White => "white",
            DotKind::Black => "black",
        }
    }

    fn key(self) -> &'static str {
        match self {
            DotKind::White => "difference",
            DotKind::Black => "ratio",
        }
    }

    fn default_value(self) -> u32 {
        match self {
            DotKind::White => 1,
            DotKind::Black => 2,
        }
    }

    /// Whether digits x and y keep a dot of this kind and value.
    pub fn holds(self, value: u32, x: u8, y: u8) -> bool {
        let (x, y) = (x as u32, y as u32);
        match self {
            DotKind::White => x.abs_diff(y) == value,
            DotKind::Black => value.checked_mul(y) == Some(x) || value.checked_mul(x) == Some(y),
        }
    }
}

/// A kropki dot between two cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dot {
    /// The two cells.
    pub cells: [usize; 2],
    /// White or black.
    pub kind: DotKind,
    /// The difference (white) or the ratio (black).
    pub value: u32,
}

/// Orthogonal neighbours without a kropki dot never hold consecutive
/// digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonConsecutive;

/// Every dot of a kind is given: orthogonal neighbours without a kropki
/// dot keep none of the kind's relations (difference 1 or ratio 2, and
/// every value a dot of the kind carries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NegativeDots {
    /// The kind whose dots are all given.
    pub kind: DotKind,
}

/// An XV mark: the two cells add up to `sum` (X: 10, V: 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xv {
    /// The two cells.
    pub cells: [usize; 2],
    /// 10 for X, 5 for V.
    pub sum: u32,
}

/// Every XV mark is given, or every X, or every V: orthogonal neighbours
/// without a mark add up to none of the sums whose marks are all given (10
/// for X, 5 for V). [`NegativeXv::BOTH`] is f-puzzles' `negative: ["xv"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NegativeXv {
    /// Every X is given: unmarked neighbours never add up to 10.
    pub x: bool,
    /// Every V is given: unmarked neighbours never add up to 5.
    pub v: bool,
}

impl NegativeXv {
    /// Every X and every V given.
    pub const BOTH: NegativeXv = NegativeXv { x: true, v: true };

    /// Whether neighbours without a mark may add up to `sum`.
    fn refuses(self, sum: u32) -> bool {
        (self.x && sum == 10) || (self.v && sum == 5)
    }

    /// The marks given, as the text form and f-puzzles' `negative` spell
    /// them: `xv`, `x` or `v`.
    fn word(self) -> &'static str {
        match (self.x, self.v) {
            (true, false) => "x",
            (false, true) => "v",
            _ => "xv",
        }
    }

    /// The rule of `word` (`xv`, `x` or `v`).
    fn of(word: &str) -> Option<NegativeXv> {
        Some(match word {
            "xv" => NegativeXv::BOTH,
            "x" => NegativeXv { x: true, v: false },
            "v" => NegativeXv { x: false, v: true },
            _ => return None,
        })
    }
}

pub(super) static NON_CONSECUTIVE: Kind = Kind {
    name: "non-consecutive",
    words: &["nonconsecutive", "non-consecutive"],
    read_word: |_, _, _| Ok(vec![Arc::new(NonConsecutive)]),
    fpuzzles_keys: &["nonconsecutive"],
    negative: &[],
    read_fpuzzles: |json, _| Ok(flag(json, "nonconsecutive", || Arc::new(NonConsecutive))),
};

pub(super) static DOTS: Kind = Kind {
    name: "kropki dot",
    words: &["white", "black"],
    read_word: |key, value, g| {
        let kind = if key == "white" {
            DotKind::White
        } else {
            DotKind::Black
        };
        let (value, list) = match number_and(value) {
            Ok((v, list)) => (v, list),
            Err(_) => (kind.default_value(), value),
        };
        Ok(vec![Arc::new(Dot {
            cells: pair(&parse_cells(list, g.side)?)?,
            kind,
            value,
        })])
    },
    fpuzzles_keys: &["difference", "ratio"],
    negative: &[],
    read_fpuzzles: read_dots,
};

pub(super) static NEGATIVE: Kind = Kind {
    name: "negative",
    words: &["negative"],
    read_word: |_, value, _| {
        Ok(vec![match value {
            "white" => Arc::new(NegativeDots {
                kind: DotKind::White,
            }),
            "black" => Arc::new(NegativeDots {
                kind: DotKind::Black,
            }),
            other => match NegativeXv::of(other) {
                Some(rule) => Arc::new(rule),
                None => return Err(format!("`{value}` is not white, black, xv, x or v")),
            },
        }])
    },
    fpuzzles_keys: &["negative"],
    negative: &["difference", "ratio", "xv", "x", "v"],
    read_fpuzzles: |json, _| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        for entry in entries(json, "negative") {
            match entry.as_str() {
                Some("difference") => out.push(Arc::new(NegativeDots {
                    kind: DotKind::White,
                })),
                Some("ratio") => out.push(Arc::new(NegativeDots {
                    kind: DotKind::Black,
                })),
                Some(word) => {
                    if let Some(rule) = NegativeXv::of(word) {
                        out.push(Arc::new(rule));
                    }
                }
                None => {}
            }
        }
        Ok(out)
    },
};

pub(super) static XV: Kind = Kind {
    name: "xv",
    words: &["xv"],
    read_word: |_, value, g| {
        let (mark, list) = value
            .split_once(':')
            .ok_or_else(|| format!("`{value}` is not X:CELLS or V:CELLS"))?;
        Ok(vec![Arc::new(Xv {
            cells: pair(&parse_cells(list, g.side)?)?,
            sum: xv_sum(mark)?,
        })])
    },
    fpuzzles_keys: &["xv"],
    negative: &[],
    read_fpuzzles: |json, g| {
        entries(json, "xv")
            .iter()
            .map(|entry| {
                let mark = entry.get("value").and_then(Value::as_str).unwrap_or("");
                Ok(Arc::new(Xv {
                    cells: pair(&json_cells(entry, "cells", g.side)?)?,
                    sum: xv_sum(mark)?,
                }) as Arc<dyn Constraint>)
            })
            .collect()
    },
};

fn xv_sum(mark: &str) -> Result<u32, String> {
    match mark.trim() {
        "X" | "x" => Ok(10),
        "V" | "v" => Ok(5),
        _ => Err(format!("an XV mark `{mark}` is neither X nor V")),
    }
}

fn pair(cells: &[usize]) -> Result<[usize; 2], String> {
    match cells {
        [a, b] => Ok([*a, *b]),
        _ => Err(format!("{} cells, a dot is between two", cells.len())),
    }
}

fn read_dots(json: &Map<String, Value>, g: &Geometry) -> Read {
    let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
    for kind in [DotKind::White, DotKind::Black] {
        for entry in entries(json, kind.key()) {
            let value = json_number(entry)?.unwrap_or(kind.default_value());
            out.push(Arc::new(Dot {
                cells: pair(&json_cells(entry, "cells", g.side)?)?,
                kind,
                value,
            }));
        }
    }
    Ok(out)
}

/// The orthogonal pairs of the grid, each once (smaller cell first).
fn orthogonal_pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n * n).flat_map(move |k| {
        [
            (k % n + 1 < n).then_some((k, k + 1)),
            (k + n < n * n).then_some((k, k + n)),
        ]
        .into_iter()
        .flatten()
    })
}

/// The pairs (smaller cell first) marked by a kropki dot.
fn dotted(rules: &Rules) -> HashSet<(usize, usize)> {
    rules
        .find::<Dot>()
        .map(|d| (d.cells[0].min(d.cells[1]), d.cells[0].max(d.cells[1])))
        .collect()
}

/// The pairs marked by an XV mark.
/// The pairs an XV mark joins (or a sum mark of X or V: 5 and 10), each
/// low cell first.
fn marked_xv(rules: &Rules) -> HashSet<(usize, usize)> {
    let either = rules
        .find::<SumMark>()
        .filter(|m| m.sums.iter().all(|s| matches!(s, 5 | 10)))
        .map(|m| m.cells);
    rules
        .find::<Xv>()
        .map(|d| d.cells)
        .chain(either)
        .map(|[a, b]| (a.min(b), a.max(b)))
        .collect()
}

/// The values a negative rule of `kind` refuses.
fn negative_values(rules: &Rules, kind: DotKind) -> Vec<u32> {
    let mut values = vec![kind.default_value()];
    values.extend(
        rules
            .find::<Dot>()
            .filter(|d| d.kind == kind)
            .map(|d| d.value),
    );
    values.sort_unstable();
    values.dedup();
    values
}

/// Checks a mark between two cells: in the grid, distinct, and side by
/// side (a mark elsewhere means nothing on any grid people draw).
fn two_cells(rule: &'static str, cells: [usize; 2], n: usize) -> Result<(), RulesError> {
    check_cells(rule, &cells, n, 2)?;
    let [a, b] = cells;
    let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
    if ra.abs_diff(rb) + ca.abs_diff(cb) != 1 {
        return Err(RulesError::Shape {
            rule,
            why: format!(
                "{} and {} are not side by side",
                cell_name(a, n),
                cell_name(b, n)
            ),
        });
    }
    Ok(())
}

impl Constraint for Dot {
    fn kind(&self) -> &'static str {
        DOTS.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        two_cells("kropki dot", self.cells, rules.side())?;
        if self.value == 0 {
            return Err(RulesError::Shape {
                rule: "kropki dot",
                why: "a value of 0".into(),
            });
        }
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let (kind, value) = (self.kind, self.value);
        e.forbid(self.cells[0], self.cells[1], |x, y| kind.holds(value, x, y));
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let [a, b] = self.cells;
        if !self.kind.holds(self.value, solution[a], solution[b]) {
            let n = rules.side();
            return Err(broken(
                format!(
                    "{} dot {} {}",
                    self.kind.word(),
                    cell_name(a, n),
                    cell_name(b, n)
                ),
                format!("{} and {}", solution[a], solution[b]),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        let cells = format!(
            "{},{}",
            cell_name(self.cells[0], n),
            cell_name(self.cells[1], n)
        );
        vec![if self.value == self.kind.default_value() {
            format!("{}={cells}", self.kind.word())
        } else {
            format!("{}={}:{cells}", self.kind.word(), self.value)
        }]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let cells = ("cells", json_names(&self.cells, n));
        let entry = if self.value == self.kind.default_value() {
            object([cells])
        } else {
            object([cells, ("value", Value::from(self.value.to_string()))])
        };
        push_entry(json, self.kind.key(), entry);
    }
    any_eq!();
}

impl Constraint for NonConsecutive {
    fn kind(&self) -> &'static str {
        NON_CONSECUTIVE.name
    }
    fn validate(&self, _: &Rules) -> Result<(), RulesError> {
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let n = e.side();
        let marked = dotted(e.rules());
        for (a, b) in orthogonal_pairs(n) {
            if marked.contains(&(a, b)) || n < 2 {
                continue;
            }
            // Item base + d − 1 is the pair of digits {d, d + 1}.
            let base = e.secondary_items(n - 1);
            for d in 1..n as u8 {
                for k in [a, b] {
                    e.cell_item(k, d, base.at(d as usize - 1));
                    e.cell_item(k, d + 1, base.at(d as usize - 1));
                }
            }
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let marked = dotted(rules);
        for (a, b) in orthogonal_pairs(rules.side()) {
            if !marked.contains(&(a, b)) && solution[a].abs_diff(solution[b]) == 1 {
                return Err(Broken::Neighbours {
                    rule: Neighbours::NonConsecutive,
                    cells: [a, b],
                    digits: [solution[a], solution[b]],
                });
            }
        }
        Ok(())
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec!["nonconsecutive".into()]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        json.insert("nonconsecutive".into(), Value::Bool(true));
    }
    any_eq!();
}

impl Constraint for NegativeDots {
    fn kind(&self) -> &'static str {
        NEGATIVE.name
    }
    fn validate(&self, _: &Rules) -> Result<(), RulesError> {
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let rules = e.rules();
        let marked = dotted(rules);
        let values = negative_values(rules, self.kind);
        let kind = self.kind;
        for (a, b) in orthogonal_pairs(e.side()) {
            if !marked.contains(&(a, b)) {
                e.forbid(a, b, |x, y| !values.iter().any(|&v| kind.holds(v, x, y)));
            }
        }
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let marked = dotted(rules);
        let values = negative_values(rules, self.kind);
        let n = rules.side();
        for (a, b) in orthogonal_pairs(n) {
            let (x, y) = (solution[a], solution[b]);
            if !marked.contains(&(a, b)) && values.iter().any(|&v| self.kind.holds(v, x, y)) {
                return Err(broken(
                    format!("negative {} dots", self.kind.word()),
                    format!(
                        "{} and {} hold {x} and {y} with no dot",
                        cell_name(a, n),
                        cell_name(b, n)
                    ),
                ));
            }
        }
        Ok(())
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec![format!("negative={}", self.kind.word())]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        push_entry(json, "negative", Value::from(self.kind.key()));
    }
    any_eq!();
}

impl Constraint for Xv {
    fn kind(&self) -> &'static str {
        XV.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        two_cells("xv", self.cells, rules.side())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let sum = self.sum;
        e.forbid(self.cells[0], self.cells[1], |x, y| {
            x as u32 + y as u32 == sum
        });
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let [a, b] = self.cells;
        let total = solution[a] as u32 + solution[b] as u32;
        if total != self.sum {
            let n = rules.side();
            return Err(broken(
                format!("xv {} {}", cell_name(a, n), cell_name(b, n)),
                format!("add up to {total}, not {}", self.sum),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        let mark = if self.sum == 10 { "X" } else { "V" };
        vec![format!(
            "xv={mark}:{},{}",
            cell_name(self.cells[0], n),
            cell_name(self.cells[1], n)
        )]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let mark = if self.sum == 10 { "X" } else { "V" };
        push_entry(
            json,
            "xv",
            object([
                ("cells", json_names(&self.cells, n)),
                ("value", Value::from(mark)),
            ]),
        );
    }
    any_eq!();
}

impl Constraint for NegativeXv {
    fn kind(&self) -> &'static str {
        NEGATIVE.name
    }
    fn validate(&self, _: &Rules) -> Result<(), RulesError> {
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let rule = *self;
        forbid_unmarked(e, &marked_xv(e.rules()), move |sum| rule.refuses(sum));
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let rule = format!("negative {}", self.word());
        first_unmarked(rules, &marked_xv(rules), solution, rule, |sum| {
            self.refuses(sum)
        })
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec![format!("negative={}", self.word())]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        push_entry(json, "negative", Value::from(self.word()));
    }
    any_eq!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_hold_their_relations() {
        assert!(DotKind::White.holds(1, 4, 5) && !DotKind::White.holds(1, 4, 6));
        assert!(DotKind::Black.holds(2, 3, 6) && DotKind::Black.holds(2, 6, 3));
        assert!(!DotKind::Black.holds(2, 3, 5));
        assert_eq!(orthogonal_pairs(2).count(), 4);
    }
}

pub(super) static SUM_MARK: Kind = Kind {
    name: "sum mark",
    words: &["summark", "negativesum"],
    read_word: |key, value, g| {
        let sums = |list: &str| -> Result<Vec<u32>, String> {
            list.split('/')
                .map(|s| s.trim().parse().map_err(|_| format!("`{s}` is not a sum")))
                .collect()
        };
        if key == "negativesum" {
            return Ok(vec![Arc::new(NegativeSum {
                sum: sums(value)?.first().copied().unwrap_or(0),
            })]);
        }
        let (list, cells) = value
            .split_once(':')
            .ok_or_else(|| format!("`{value}` is not SUMS:CELLS"))?;
        Ok(vec![Arc::new(SumMark {
            cells: pair(&parse_cells(cells, g.side)?)?,
            sums: sums(list)?,
        })])
    },
    fpuzzles_keys: &["summark", "negativesum"],
    negative: &[],
    read_fpuzzles: |json, g| {
        let mut out: Vec<Arc<dyn Constraint>> = Vec::new();
        let number = |v: &Value| {
            v.as_u64()
                .map(|x| x as u32)
                .ok_or_else(|| format!("the sum {v} is not a number"))
        };
        for entry in entries(json, "summark") {
            let sums = entry
                .get("value")
                .and_then(Value::as_array)
                .ok_or("a sum mark without its sums (`value`)")?
                .iter()
                .map(number)
                .collect::<Result<Vec<u32>, String>>()?;
            out.push(Arc::new(SumMark {
                cells: pair(&json_cells(entry, "cells", g.side)?)?,
                sums,
            }));
        }
        for v in entries(json, "negativesum") {
            out.push(Arc::new(NegativeSum { sum: number(v)? }));
        }
        Ok(out)
    },
};

/// A mark between two cells that add up to one of `sums` (a dot "either X
/// or V" is 5 and 10; a square of 7, say). A mark whose sums are 5 and 10
/// counts as an XV mark for [`NegativeXv`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumMark {
    /// The two cells.
    pub cells: [usize; 2],
    /// The sums they may add up to.
    pub sums: Vec<u32>,
}

/// Every mark of `sum` is given: orthogonal neighbours without a
/// [`SumMark`] that allows it (or an [`Xv`] of it) never add up to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NegativeSum {
    /// The sum whose marks are all given.
    pub sum: u32,
}

/// A negative rule's encoding: orthogonal neighbours not `marked` never
/// add up to a sum it `refuses`.
fn forbid_unmarked(
    e: &mut Encoder<'_>,
    marked: &HashSet<(usize, usize)>,
    refuses: impl Fn(u32) -> bool + Copy + 'static,
) {
    for (a, b) in orthogonal_pairs(e.side()) {
        if !marked.contains(&(a, b)) {
            e.forbid(a, b, move |x, y| !refuses(x as u32 + y as u32));
        }
    }
}

/// A negative rule's check: the first orthogonal neighbours not `marked`
/// adding up to a sum it `refuses` break `rule`.
fn first_unmarked(
    rules: &Rules,
    marked: &HashSet<(usize, usize)>,
    solution: &[u8],
    rule: String,
    refuses: impl Fn(u32) -> bool,
) -> Result<(), Broken> {
    let n = rules.side();
    for (a, b) in orthogonal_pairs(n) {
        let total = solution[a] as u32 + solution[b] as u32;
        if !marked.contains(&(a, b)) && refuses(total) {
            return Err(broken(
                rule,
                format!(
                    "{} and {} add up to {total} with no mark",
                    cell_name(a, n),
                    cell_name(b, n)
                ),
            ));
        }
    }
    Ok(())
}

/// The pairs a sum mark allowing `sum` joins, each low cell first.
fn marked_sum(rules: &Rules, sum: u32) -> HashSet<(usize, usize)> {
    let xv = rules.find::<Xv>().filter(|d| d.sum == sum).map(|d| d.cells);
    rules
        .find::<SumMark>()
        .filter(|m| m.sums.contains(&sum))
        .map(|m| m.cells)
        .chain(xv)
        .map(|[a, b]| (a.min(b), a.max(b)))
        .collect()
}

fn sums_text(sums: &[u32]) -> String {
    let list: Vec<String> = sums.iter().map(u32::to_string).collect();
    list.join("/")
}

impl Constraint for SumMark {
    fn kind(&self) -> &'static str {
        SUM_MARK.name
    }
    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        two_cells("sum mark", self.cells, rules.side())?;
        if self.sums.is_empty() {
            return Err(RulesError::Shape {
                rule: "sum mark",
                why: "no sum".into(),
            });
        }
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let sums = self.sums.clone();
        e.forbid(self.cells[0], self.cells[1], move |x, y| {
            sums.contains(&(x as u32 + y as u32))
        });
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let [a, b] = self.cells;
        let total = solution[a] as u32 + solution[b] as u32;
        if !self.sums.contains(&total) {
            let n = rules.side();
            return Err(broken(
                format!("sum mark {} {}", cell_name(a, n), cell_name(b, n)),
                format!("add up to {total}, not {}", sums_text(&self.sums)),
            ));
        }
        Ok(())
    }
    fn words(&self, n: usize) -> Vec<String> {
        vec![format!(
            "summark={}:{},{}",
            sums_text(&self.sums),
            cell_name(self.cells[0], n),
            cell_name(self.cells[1], n)
        )]
    }
    fn to_fpuzzles(&self, n: usize, json: &mut Map<String, Value>) {
        let sums: Vec<Value> = self.sums.iter().map(|&s| Value::from(s)).collect();
        push_entry(
            json,
            "summark",
            object([
                ("cells", json_names(&self.cells, n)),
                ("value", Value::Array(sums)),
            ]),
        );
    }
    any_eq!();
}

impl Constraint for NegativeSum {
    fn kind(&self) -> &'static str {
        SUM_MARK.name
    }
    fn validate(&self, _: &Rules) -> Result<(), RulesError> {
        Ok(())
    }
    fn encode(&self, e: &mut Encoder<'_>) {
        let sum = self.sum;
        forbid_unmarked(e, &marked_sum(e.rules(), sum), move |total| total == sum);
    }
    fn check(&self, rules: &Rules, _: usize, solution: &[u8]) -> Result<(), Broken> {
        let rule = format!("negative sum {}", self.sum);
        first_unmarked(
            rules,
            &marked_sum(rules, self.sum),
            solution,
            rule,
            |total| total == self.sum,
        )
    }
    fn words(&self, _: usize) -> Vec<String> {
        vec![format!("negativesum={}", self.sum)]
    }
    fn to_fpuzzles(&self, _: usize, json: &mut Map<String, Value>) {
        push_entry(json, "negativesum", Value::from(self.sum));
    }
    any_eq!();
}
