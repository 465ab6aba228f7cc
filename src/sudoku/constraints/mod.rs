//! Sudoku constraints as an open list: each rule beyond rows, columns and
//! regions (extra regions, anti-king, killer cages, thermometers, dots,
//! lines, sums …) is one [`Constraint`] value in one module, registered once
//! in [`KINDS`]. Everything that knows about rules goes through the list:
//! the matrix builder ([`Encoder`]), the checker ([`Constraint::check`]),
//! the variant text form and f-puzzles' JSON, in and out.
//!
//! A trait, not an enum: a new constraint is a new module and one line in
//! [`KINDS`], with no arm to add to matches spread over the layer; a
//! program may also add a constraint of its own to a rule set
//! ([`Rules::with`]) and it is encoded and checked like ours.
//!
//! How a constraint becomes exact cover (the [`Encoder`]'s vocabulary, no
//! search of its own; every encoding is plain items, no colors, so the
//! masks engine searches whatever it can take):
//! * **houses**: cells of distinct digits — all n digits once
//!   ([`Encoder::all_digits`], primary) or each at most once
//!   ([`Encoder::at_most_once`], secondary);
//! * **digit sets**: distinct cells holding one of a list of digit sets
//!   (killer cages, product cages, renban: [`Encoder::digit_sets`]): one primary item per
//!   digit, one option per set covering the digits it lacks;
//! * **forbidden pairs** (dots, thermometers, whispers, anti-king …):
//!   [`Encoder::forbid`] covers the pairs of candidates two cells may not
//!   hold together with bicliques, each one secondary item shared by the
//!   options on its two sides; equal cells (palindromes, clones) by a code
//!   of ⌈log⌉ items a digit ([`Encoder::equal`]);
//! * **banned candidates** (odd, even, given candidates): [`Encoder::ban`] puts a cell's
//!   secondary "void" item in the options banned, and a pin option that
//!   covers it is preselected with the givens;
//! * **sums and other rules over many cells** (arrows, little killers,
//!   sandwiches, skyscrapers, between lines, quadruples): [`Encoder::chain`], a finite
//!   automaton read along the cells, linked to them by primary items alone:
//!   a step's transitions (state, digit, next state) are its options; one
//!   item a digit ties the transition to the cell's digit (the cell's
//!   option for e covers the items of the other digits), one item a state
//!   ties a transition to the next (a transition into v covers the items of
//!   the other states; where the sum bounds enforce the constraint and it
//!   makes fewer nodes, a hub option a state and two items a state
//!   instead). The automaton is
//!   kept too, for the chain runs propagator (`chains.rs`), which
//!   keeps each cell to the digits of some run through the candidates and
//!   enforces a constraint said by automata alone where the searched
//!   matrix leaves it out. No colors: Algorithm C's colors (one item a cell
//!   colored by its digit, one a state) were measured first and searched
//!   far worse — a color forbids but never forces, so a digit no
//!   transition supports stays open — on the published between-line,
//!   arrow and pill-arrow puzzles over 5 s each where the linked items take
//!   0.2–0.7 s (BENCHMARKS.md, "Constraints").
//!
//! **Derived** constraints ([`derive`]): what the rules imply, added to the
//! matrix only (never to the rules, so what is written back is the
//! puzzle's own): the cages the 45 rule gives a killer puzzle.
//!
//! Invariants: a constraint's encoding admits exactly the grids its
//! [`check`](Constraint::check) accepts (the tests compare both with a
//! brute force on small grids); the order of items follows [`KINDS`], so a
//! rule set's matrix is the same whatever order its constraints were added
//! in.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::rules::{Broken, Rules, RulesError};

pub(crate) mod chains;
pub(crate) mod derive;
mod killer;
mod kropki;
mod lines;
mod neighbours;
mod outside;
pub(crate) mod pairs;
mod regions;
pub(crate) mod sets;
mod single;
pub(crate) mod sum_bounds;
mod sums;
#[cfg(test)]
pub(crate) mod tests;

#[cfg(test)]
pub(crate) use killer::digit_sets;
pub use killer::{Cage, ProductCage, Renban};
pub use kropki::{
    Dot, DotKind, NegativeDots, NegativeSum, NegativeXv, NonConsecutive, SumMark, Xv,
};
pub use lines::{
    Between, Clones, DifferencesCount, Entropic, Fibonacci, IndexLine, Nabner, Palindrome,
    ParityLine, Thermometer, Whispers,
};
pub use neighbours::{AntiKing, AntiKnight, KnightCircles, ParityStrings};
pub use outside::{Look, NumberedRoom, Skyscraper, XSum};
pub(crate) use regions::distinct;
pub use regions::ExtraRegion;
pub(crate) use regions::{
    down as regions_down, groups as regions_groups, up as regions_up, windows as regions_windows,
};
pub use single::{
    CountingCircles, Even, GivenCandidates, Indexing, Maximum, Minimum, Odd, Quadruple, Sunburn,
};
pub use sums::{Arrow, EqualProducts, LittleKiller, RegionSum, Sandwich, Zipper};

/// A rule of a Sudoku beyond rows, columns and regions.
///
/// Implementations are plain data (cells, a value); [`Rules::with`] checks
/// [`validate`](Self::validate) before one joins a rule set.
pub trait Constraint: fmt::Debug + Send + Sync + 'static {
    /// The registered kind's name ([`Kind::name`]), or a name of the
    /// program's own for a constraint not in [`KINDS`].
    fn kind(&self) -> &'static str;

    /// Whether the constraint fits a grid of these rules (cells in the grid,
    /// a sum some digits reach …); called by [`Rules::with`].
    fn validate(&self, rules: &Rules) -> Result<(), RulesError>;

    /// Adds the constraint's items and options (see the module
    /// documentation).
    fn encode(&self, e: &mut Encoder<'_>);

    /// Checks a full grid (row-major digits 1..=n), for [`super::rules::check`]:
    /// `nth` is this constraint's place among those of its kind.
    fn check(&self, rules: &Rules, nth: usize, solution: &[u8]) -> Result<(), Broken>;

    /// The words of the variant text form that read back to it.
    fn words(&self, side: usize) -> Vec<String>;

    /// Adds the constraint to an f-puzzles JSON object.
    fn to_fpuzzles(&self, side: usize, json: &mut Map<String, Value>);

    /// Sums the constraint says over cells that may repeat a digit, as
    /// `(plus, minus, total)`: the digits of `plus` less those of `minus`
    /// add up to `total`. The search bounds them at every node where the
    /// engine runs a propagator (`sum_bounds.rs`), on top of what the
    /// constraint's own encoding says (a little killer's automaton only
    /// follows the digits placed). None by default.
    fn sums(&self) -> Vec<(Vec<usize>, Vec<usize>, i64)> {
        Vec::new()
    }

    /// The constraint as `Any`, for [`Rules::find`] and equality.
    fn as_any(&self) -> &dyn Any;

    /// Whether `other` is the same constraint.
    fn same(&self, other: &dyn Constraint) -> bool;
}

/// The two methods every [`Constraint`] writes the same way.
macro_rules! any_eq {
    () => {
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
        fn same(&self, other: &dyn $crate::sudoku::constraints::Constraint) -> bool {
            other.as_any().downcast_ref::<Self>() == Some(self)
        }
    };
}
pub(crate) use any_eq;

/// What the readers know of the grid when a constraint is read.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    /// The side n.
    pub side: usize,
    /// The boxes' rows (f-puzzles' default, or the text form's `boxes=`).
    pub box_rows: usize,
    /// The boxes' columns.
    pub box_cols: usize,
}

/// Constraints read from the text form or f-puzzles, or why not (a message
/// the front end puts after the word or key concerned).
pub type Read = Result<Vec<Arc<dyn Constraint>>, String>;

/// A registered kind of constraint: its names and its readers.
pub struct Kind {
    /// Its name, as [`Constraint::kind`] gives it.
    pub name: &'static str,
    /// The words (flags, or keys before `=`) of the text form it reads,
    /// lower case.
    pub words: &'static [&'static str],
    /// Reads one word: the key (lower case), its value (after `=`, empty for
    /// a flag).
    pub read_word: fn(key: &str, value: &str, g: &Geometry) -> Read,
    /// The f-puzzles keys it reads (flags, arrays).
    pub fpuzzles_keys: &'static [&'static str],
    /// The entries of f-puzzles' `negative` array it reads.
    pub negative: &'static [&'static str],
    /// Reads its keys from an f-puzzles object.
    pub read_fpuzzles: fn(json: &Map<String, Value>, g: &Geometry) -> Read,
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kind").field("name", &self.name).finish()
    }
}

/// Every kind of constraint, in the order their items are made.
pub static KINDS: &[&Kind] = &[
    &regions::KIND,
    &killer::CAGE,
    &killer::PRODUCT_CAGE,
    &neighbours::ANTI_KING,
    &neighbours::ANTI_KNIGHT,
    &neighbours::PARITY_STRINGS,
    &neighbours::KNIGHT_CIRCLES,
    &kropki::NON_CONSECUTIVE,
    &kropki::DOTS,
    &kropki::NEGATIVE,
    &kropki::XV,
    &kropki::SUM_MARK,
    &killer::RENBAN,
    &lines::THERMOMETER,
    &lines::WHISPERS,
    &lines::ENTROPIC,
    &lines::DIFFERENCES_COUNT,
    &lines::FIBONACCI,
    &lines::INDEX,
    &lines::NABNER,
    &lines::PARITY_LINE,
    &lines::PALINDROME,
    &lines::CLONE,
    &lines::BETWEEN,
    &single::ODD_EVEN,
    &single::CANDIDATES,
    &single::MIN_MAX,
    &single::QUADRUPLE,
    &single::COUNTING,
    &single::SUNBURN,
    &single::INDEXING,
    &sums::ARROW,
    &sums::LITTLE_KILLER,
    &sums::SANDWICH,
    &sums::REGION_SUM,
    &sums::ZIPPER,
    &sums::EQUAL_PRODUCTS,
    &outside::SKYSCRAPER,
    &outside::X_SUM,
    &outside::NUMBERED_ROOM,
];

/// The kind reading the text word `key`, if any.
pub fn kind_of_word(key: &str) -> Option<&'static Kind> {
    KINDS.iter().copied().find(|k| k.words.contains(&key))
}

/// Whether `key` is an f-puzzles key some kind reads.
pub fn reads_fpuzzles_key(key: &str) -> bool {
    KINDS.iter().any(|k| k.fpuzzles_keys.contains(&key))
}

/// Whether an entry of f-puzzles' `negative` array is read by some kind.
pub fn reads_negative(entry: &str) -> bool {
    KINDS.iter().any(|k| k.negative.contains(&entry))
}

/// The place of a kind in [`KINDS`] (past the end for a program's own).
pub(crate) fn order(kind: &str) -> usize {
    KINDS
        .iter()
        .position(|k| k.name == kind)
        .unwrap_or(KINDS.len())
}

// ---------------------------------------------------------------------------
// Cells and values, as the text form and f-puzzles name them.

/// The name `R<r>C<c>` of cell `k` of a grid of side `n`.
pub fn cell_name(k: usize, n: usize) -> String {
    format!("R{}C{}", k / n + 1, k % n + 1)
}

/// The cells `R1C1,R1C2,…` of a text value.
pub(crate) fn parse_cells(list: &str, n: usize) -> Result<Vec<usize>, String> {
    if list.trim().is_empty() {
        return Err("no cells given (R1C1,R1C2,…)".into());
    }
    list.split(',')
        .map(|name| {
            super::fpuzzles::cell_index(name.trim(), n)
                .ok_or_else(|| format!("`{name}` is not a cell R1C1 to R{n}C{n}"))
        })
        .collect()
}

/// Cells written `R1C1,R1C2,…`.
pub(crate) fn cells_text(cells: &[usize], n: usize) -> String {
    cells
        .iter()
        .map(|&k| cell_name(k, n))
        .collect::<Vec<_>>()
        .join(",")
}

/// A value `V:rest` split at its first `:`, the number parsed.
pub(crate) fn number_and(value: &str) -> Result<(u32, &str), String> {
    let (v, rest) = value
        .split_once(':')
        .ok_or_else(|| format!("`{value}` is not VALUE:CELLS"))?;
    let v = v
        .trim()
        .parse()
        .map_err(|_| format!("`{v}` is not a number"))?;
    Ok((v, rest))
}

/// The array under `key` (empty when absent).
pub(crate) fn entries<'j>(json: &'j Map<String, Value>, key: &str) -> &'j [Value] {
    json.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// An entry's cells under `field` (`cells`, `cloneCells`).
pub(crate) fn json_cells(entry: &Value, field: &str, n: usize) -> Result<Vec<usize>, String> {
    entry
        .get(field)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("an entry without \"{field}\""))?
        .iter()
        .map(|c| json_cell(c, n))
        .collect()
}

/// One cell named in JSON.
pub(crate) fn json_cell(name: &Value, n: usize) -> Result<usize, String> {
    name.as_str()
        .and_then(|s| super::fpuzzles::cell_index(s, n))
        .ok_or_else(|| format!("{name} is not a cell R1C1 to R{n}C{n}"))
}

/// An entry's `lines`: each a list of cells.
pub(crate) fn json_lines(entry: &Value, n: usize) -> Result<Vec<Vec<usize>>, String> {
    entry
        .get("lines")
        .and_then(Value::as_array)
        .ok_or_else(|| "an entry without \"lines\"".to_string())?
        .iter()
        .map(|line| {
            line.as_array()
                .ok_or_else(|| format!("{line} is not a line of cells"))?
                .iter()
                .map(|c| json_cell(c, n))
                .collect()
        })
        .collect()
}

/// An entry's `value` as a number (f-puzzles writes text, sometimes a
/// number); `None` when absent or empty.
pub(crate) fn json_number(entry: &Value) -> Result<Option<u32>, String> {
    match entry.get("value") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| format!("the value `{s}` is not a number")),
        Some(Value::Number(x)) => x
            .as_u64()
            .and_then(|x| u32::try_from(x).ok())
            .map(Some)
            .ok_or_else(|| format!("the value {x} is not a number")),
        Some(other) => Err(format!("the value {other} is not a number")),
    }
}

/// Cells as f-puzzles names them, a JSON array.
pub(crate) fn json_names(cells: &[usize], n: usize) -> Value {
    Value::Array(
        cells
            .iter()
            .map(|&k| Value::from(cell_name(k, n)))
            .collect(),
    )
}

/// Appends `entry` to the array under `key`.
pub(crate) fn push_entry(json: &mut Map<String, Value>, key: &str, entry: Value) {
    match json
        .entry(key.to_string())
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        Value::Array(a) => a.push(entry),
        other => *other = Value::Array(vec![entry]),
    }
}

/// A line's entry in f-puzzles: `lines` holding the one line.
pub(crate) fn line_entry(cells: &[usize], n: usize) -> Value {
    object([("lines", Value::Array(vec![json_names(cells, n)]))])
}

/// An object of `fields`.
pub(crate) fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// Checks cells are in the grid and none is listed twice (`distinct`), and
/// that there are `min` at least.
pub(crate) fn check_cells(
    rule: &'static str,
    cells: &[usize],
    n: usize,
    min: usize,
) -> Result<(), RulesError> {
    in_grid(rule, cells, n, min)?;
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(RulesError::Shape {
            rule,
            why: format!("{} is listed twice", cell_name(w[0], n)),
        });
    }
    Ok(())
}

/// Checks cells are in the grid and that there are `min` at least.
fn in_grid(rule: &'static str, cells: &[usize], n: usize, min: usize) -> Result<(), RulesError> {
    if let Some(&cell) = cells.iter().find(|&&k| k >= n * n) {
        return Err(RulesError::Cell { rule, cell });
    }
    if cells.len() < min {
        return Err(RulesError::Shape {
            rule,
            why: format!("{} cells, at least {min} needed", cells.len()),
        });
    }
    Ok(())
}

/// Checks a line whose rule holds between neighbours on it only (whispers):
/// cells in the grid, at least `min`, and none next to itself. A cell may
/// come back later on the line, as a loop that closes on its start does.
pub(crate) fn check_path(
    rule: &'static str,
    cells: &[usize],
    n: usize,
    min: usize,
) -> Result<(), RulesError> {
    in_grid(rule, cells, n, min)?;
    if let Some(w) = cells.windows(2).find(|w| w[0] == w[1]) {
        return Err(RulesError::Shape {
            rule,
            why: format!("{} follows itself", cell_name(w[0], n)),
        });
    }
    Ok(())
}

/// The orthogonal neighbours of cell k.
pub(crate) fn neighbours(k: usize, n: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (k / n, k % n);
    [
        (r > 0).then(|| k - n),
        (r + 1 < n).then(|| k + n),
        (c > 0).then(|| k - 1),
        (c + 1 < n).then(|| k + 1),
    ]
    .into_iter()
    .flatten()
}

/// A broken constraint, for checkers.
pub(crate) fn broken(rule: String, why: String) -> Broken {
    Broken::Rule { rule, why }
}

// ---------------------------------------------------------------------------
// The encoder.

/// A layer of an automaton's states between two steps of
/// [`Encoder::chain`]: the items tying a transition into a state to the
/// one out of it.
#[derive(Clone, Copy)]
enum Layer {
    /// One item a state, in the transitions into the other states and out
    /// of its own.
    Complement(Item),
    /// Two items a state (into it, out of it) and a hub option a state.
    Hub { into: Item, out: Item },
}

/// An item a constraint made: primary or secondary, by its place among the
/// constraints' items of that kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    primary: bool,
    index: usize,
}

impl Item {
    /// Whether it is primary, and its place among those.
    pub(crate) fn parts(self) -> (bool, usize) {
        (self.primary, self.index)
    }

    /// The item `i` places after this one (items made together).
    pub fn at(self, i: usize) -> Item {
        Item {
            index: self.index + i,
            ..self
        }
    }
}

/// How a rule set's constraints become items and options (see the module
/// documentation): the classic items and the cell options are the
/// matrix's own; constraints add items to cell options, options of their
/// own, and pins. [`RulesMatrix`](super::rules::RulesMatrix) builds the
/// matrix from it.
pub struct Encoder<'r> {
    rules: &'r Rules,
    n: usize,
    pub(crate) primary: usize,
    pub(crate) secondary: usize,
    /// Items added to cell option `k·n + d − 1`.
    pub(crate) cell_items: Vec<Vec<Item>>,
    /// The constraints' own options.
    pub(crate) options: Vec<Vec<Item>>,
    /// Each cell's void item (covered by the pin), once made.
    voids: Vec<Option<Item>>,
    /// Cells of a house the encoder knows: rows, columns, regions.
    regions: Vec<usize>,
    /// The pair relations met ([`Encoder::forbid`], [`Encoder::equal`]):
    /// cells `a`, `b` and for each digit `x + 1` of `a` the digits of `b`
    /// allowed with it, for the [`pairs`] propagator.
    pub(crate) pairs: Vec<(usize, usize, Vec<u64>)>,
    /// The digit-set groups met ([`Encoder::digit_sets`]): cells and
    /// sets, for the [`sets`] propagator.
    pub(crate) sets: Vec<(Vec<usize>, Vec<u64>)>,
    /// The automata met ([`Encoder::chain`]): cells, each layer's width
    /// and each step's transitions (state before, digit, state after, by
    /// their places in their layers), for the [`chains`] propagator.
    pub(crate) runs: Vec<Run>,
    /// Items, options and bans made outside an automaton
    /// ([`Encoder::chain`]), counted: a constraint that made none says
    /// its rule by automata alone ([`Owner::runs_alone`]).
    outside: usize,
    /// Whether an automaton is being linked (its items and options are
    /// not counted in `outside`).
    chaining: bool,
    /// Whether the sum bounds enforce the constraint being encoded (every
    /// one of its [`Constraint::sums`] taken, so that it is left out of
    /// the lean matrix): its automata may then take the hub form
    /// ([`Encoder::chain`]).
    pub(crate) bounded: bool,
    /// The items each constraint made, primary and secondary (by their
    /// places among those), in the order encoded: what the logic layer
    /// names a step by ([`crate::sudoku::explain`]).
    pub(crate) owners: Vec<Owner>,
}

/// An automaton the encoder met ([`Encoder::runs`]).
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) cells: Vec<usize>,
    pub(crate) widths: Vec<usize>,
    pub(crate) moves: Vec<Vec<(usize, u8, usize)>>,
}

/// The items one constraint made ([`Encoder::owners`]).
#[derive(Clone, Debug)]
pub(crate) struct Owner {
    pub(crate) constraint: Arc<dyn Constraint>,
    /// Derived from the rules (the 45 rule's cages), not one of them.
    pub(crate) derived: bool,
    pub(crate) primary: std::ops::Range<usize>,
    pub(crate) secondary: std::ops::Range<usize>,
    /// Whether its encoding is automata alone ([`Encoder::chain`]), which
    /// the [`chains`] propagator enforces exactly once the cells are
    /// placed: a search that runs it may leave them out of its matrix.
    pub(crate) runs_alone: bool,
    /// Its automata, by their places in [`Encoder::runs`].
    pub(crate) runs: std::ops::Range<usize>,
}

impl fmt::Debug for Encoder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoder")
            .field("side", &self.n)
            .field("primary", &self.primary)
            .field("secondary", &self.secondary)
            .field("options", &self.options.len())
            .finish_non_exhaustive()
    }
}

impl<'r> Encoder<'r> {
    pub(crate) fn new(rules: &'r Rules) -> Encoder<'r> {
        let n = rules.side();
        Encoder {
            rules,
            n,
            primary: 0,
            secondary: 0,
            cell_items: vec![Vec::new(); n * n * n],
            options: Vec::new(),
            voids: vec![None; n * n],
            regions: rules.regions().to_vec(),
            pairs: Vec::new(),
            sets: Vec::new(),
            runs: Vec::new(),
            outside: 0,
            chaining: false,
            bounded: false,
            owners: Vec::new(),
        }
    }

    /// Encodes `c`, noting the items it makes as its own.
    pub(crate) fn encode_owned(&mut self, c: &Arc<dyn Constraint>, derived: bool) {
        let (p, s) = (self.primary, self.secondary);
        let (outside, runs) = (self.outside, self.runs.len());
        c.encode(self);
        self.owners.push(Owner {
            constraint: Arc::clone(c),
            derived,
            primary: p..self.primary,
            secondary: s..self.secondary,
            runs_alone: self.outside == outside && self.runs.len() > runs,
            runs: runs..self.runs.len(),
        });
    }

    /// The rule set being encoded (a constraint may look at the others:
    /// negative dots skip the pairs that carry a dot).
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The side n.
    pub fn side(&self) -> usize {
        self.n
    }

    /// `count` new primary items; the first is returned ([`Item::at`]).
    pub fn primary_items(&mut self, count: usize) -> Item {
        self.outside += usize::from(!self.chaining);
        let item = Item {
            primary: true,
            index: self.primary,
        };
        self.primary += count;
        item
    }

    /// `count` new secondary items; the first is returned.
    pub fn secondary_items(&mut self, count: usize) -> Item {
        self.outside += usize::from(!self.chaining);
        let item = Item {
            primary: false,
            index: self.secondary,
        };
        self.secondary += count;
        item
    }

    /// Adds `item` to the option putting digit `d` (1..=n) in cell `k`.
    pub fn cell_item(&mut self, k: usize, d: u8, item: Item) {
        self.outside += usize::from(!self.chaining);
        self.cell_items[k * self.n + d as usize - 1].push(item);
    }

    /// Adds an option of the constraint's own.
    pub fn option(&mut self, items: Vec<Item>) {
        self.outside += usize::from(!self.chaining);
        self.options.push(items);
    }

    /// Whether two cells share a row, a column or a region: then they
    /// never hold the same digit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let n = self.n;
        a / n == b / n || a % n == b % n || self.regions[a] == self.regions[b]
    }

    /// `cells` (distinct) less the whole houses among them: the cells left,
    /// in order, and what the houses taken add up to (n(n+1)/2 each). A sum
    /// over many cells (a long arrow's shaft) is then read by an automaton
    /// over the cells left, its sum less that: a 78-cell shaft whose rows
    /// 2–9 are whole reads 6 cells, not 78 (the 45 rule). Rows are taken
    /// first, then columns, then regions, each disjoint from those taken.
    pub fn whole_houses(&self, cells: &[usize]) -> (Vec<usize>, u64) {
        let n = self.n;
        let mut left = vec![false; n * n];
        for &k in cells {
            if let Some(l) = left.get_mut(k) {
                *l = true;
            }
        }
        let mut houses: Vec<Vec<usize>> = Vec::new();
        houses.extend((0..n).map(|r| (0..n).map(|c| r * n + c).collect()));
        houses.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect()));
        let mut regions = vec![Vec::new(); n];
        for (k, &g) in self.regions.iter().enumerate() {
            if let Some(region) = regions.get_mut(g) {
                region.push(k);
            }
        }
        houses.extend(regions.into_iter().filter(|r| r.len() == n));
        let mut whole = 0;
        for house in houses {
            if house.iter().all(|&k| left[k]) {
                house.iter().for_each(|&k| left[k] = false);
                whole += 1;
            }
        }
        let rest = cells.iter().copied().filter(|&k| left[k]).collect();
        (rest, whole * (n * (n + 1) / 2) as u64)
    }

    /// Cells holding every digit once (a region of n cells): n primary
    /// items.
    pub fn all_digits(&mut self, cells: &[usize]) {
        let base = self.primary_items(self.n);
        for &k in cells {
            for d in 1..=self.n as u8 {
                self.cell_item(k, d, base.at(d as usize - 1));
            }
        }
    }

    /// Cells holding each digit at most once: n secondary items.
    pub fn at_most_once(&mut self, cells: &[usize]) {
        let base = self.secondary_items(self.n);
        for &k in cells {
            for d in 1..=self.n as u8 {
                self.cell_item(k, d, base.at(d as usize - 1));
            }
        }
    }

    /// Distinct cells holding one of `sets` (bit d − 1 for digit d): one
    /// primary item a digit, covered by the cells' options of that digit,
    /// and one option a set covering the digits it lacks — so exactly one
    /// set is chosen and the cells hold its digits. A set of all n digits
    /// is [`all_digits`](Self::all_digits).
    pub fn digit_sets(&mut self, cells: &[usize], sets: &[u64]) {
        let n = self.n;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        if sets.len() == 1 && sets[0] == full {
            self.all_digits(cells);
            return;
        }
        let base = self.primary_items(n);
        for &k in cells {
            for d in 1..=n as u8 {
                self.cell_item(k, d, base.at(d as usize - 1));
            }
        }
        self.outside += 1;
        self.sets.push((cells.to_vec(), sets.to_vec()));
        for &set in sets {
            let missing: Vec<Item> = (0..n)
                .filter(|&d| set >> d & 1 == 0)
                .map(|d| base.at(d))
                .collect();
            if !missing.is_empty() {
                self.option(missing);
            }
        }
    }

    /// Cell `k` never holds `d`: its option takes the cell's void item,
    /// which the pin (preselected with the givens) covers.
    pub fn ban(&mut self, k: usize, d: u8) {
        self.outside += usize::from(!self.chaining);
        let void = match self.voids[k] {
            Some(v) => v,
            None => {
                let v = self.secondary_items(1);
                self.voids[k] = Some(v);
                v
            }
        };
        let items = &mut self.cell_items[k * self.n + d as usize - 1];
        if !items.contains(&void) {
            items.push(void);
        }
    }

    /// The pin's void items: one for each cell with a banned digit.
    pub(crate) fn voids(&self) -> impl Iterator<Item = Item> + '_ {
        self.voids.iter().flatten().copied()
    }

    /// Cells `a` and `b` hold no pair of digits `(x, y)` that `allowed`
    /// refuses: the forbidden pairs are covered by bicliques (digit sets
    /// X × Y, each one secondary item in the options of `a` with a digit
    /// of X and of `b` with a digit of Y), grown greedily; pairs of one
    /// digit, when the cells see each other, may be covered or not.
    pub fn forbid(&mut self, a: usize, b: usize, allowed: impl Fn(u8, u8) -> bool) {
        if a == b {
            for d in 1..=self.n as u8 {
                if !allowed(d, d) {
                    self.ban(a, d);
                }
            }
            return;
        }
        let n = self.n;
        let sees = self.sees(a, b);
        self.outside += 1;
        self.pairs.push((
            a,
            b,
            (1..=n as u8)
                .map(|x| {
                    (1..=n as u8)
                        .filter(|&y| allowed(x, y))
                        .fold(0u64, |m, y| m | 1 << (y - 1))
                })
                .collect(),
        ));
        // forbidden[x] and free[x]: bit y − 1 for digit y.
        let mut left = vec![0u64; n + 1];
        let mut ok = vec![0u64; n + 1];
        for x in 1..=n as u8 {
            for y in 1..=n as u8 {
                let bit = 1u64 << (y - 1);
                if !allowed(x, y) {
                    if sees && x == y {
                        ok[x as usize] |= bit;
                    } else {
                        left[x as usize] |= bit;
                        ok[x as usize] |= bit;
                    }
                }
            }
        }
        // A digit of a that no digit of b goes with is banned outright; so
        // is a digit of b that no remaining digit of a goes with.
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut a_banned = 0u64;
        for x in 1..=n {
            if ok[x] == all {
                a_banned |= 1 << (x - 1);
                self.ban(a, x as u8);
                left[x] = 0;
            }
        }
        for y in 0..n {
            let bit = 1u64 << y;
            if (1..=n).all(|x| a_banned >> (x - 1) & 1 != 0 || ok[x] & bit != 0) {
                self.ban(b, y as u8 + 1);
                for l in left.iter_mut() {
                    *l &= !bit;
                }
            }
        }
        while let Some(x0) = (1..=n).find(|&x| left[x] != 0) {
            let y0 = left[x0].trailing_zeros() as usize;
            let mut xs = 1u64 << (x0 - 1);
            let mut ys = 1u64 << y0;
            loop {
                // Best digit to add on either side: the most pairs still to
                // cover, keeping every pair of the biclique forbidden.
                let mut best: Option<(u32, bool, usize)> = None;
                for y in 0..n {
                    let bit = 1u64 << y;
                    if ys & bit != 0 {
                        continue;
                    }
                    let fits = (1..=n).all(|x| xs >> (x - 1) & 1 == 0 || ok[x] & bit != 0);
                    if fits {
                        let gain = (1..=n)
                            .filter(|&x| xs >> (x - 1) & 1 != 0 && left[x] & bit != 0)
                            .count() as u32;
                        if gain > 0 && best.is_none_or(|b| gain > b.0) {
                            best = Some((gain, false, y));
                        }
                    }
                }
                for x in 1..=n {
                    if xs >> (x - 1) & 1 != 0 || ok[x] & ys != ys {
                        continue;
                    }
                    let gain = (left[x] & ys).count_ones();
                    if gain > 0 && best.is_none_or(|b| gain > b.0) {
                        best = Some((gain, true, x));
                    }
                }
                match best {
                    Some((_, false, y)) => ys |= 1u64 << y,
                    Some((_, true, x)) => xs |= 1u64 << (x - 1),
                    None => break,
                }
            }
            let item = self.secondary_items(1);
            for (x, l) in left.iter_mut().enumerate().skip(1) {
                if xs >> (x - 1) & 1 != 0 {
                    *l &= !ys;
                    self.cell_item(a, x as u8, item);
                }
            }
            for y in 0..n {
                if ys >> y & 1 != 0 {
                    self.cell_item(b, y as u8 + 1, item);
                }
            }
        }
    }

    /// Cells `a` and `b` hold the same digit: each digit has a code, a
    /// set of ⌊k/2⌋ of k secondary items (no code inside another); `a`'s
    /// option for d takes d's code, `b`'s option for d the items outside
    /// d's code, so the two clash unless the digits are equal. Cells that
    /// see each other can never be equal: the rule set has no solution.
    pub fn equal(&mut self, a: usize, b: usize) {
        let n = self.n;
        if a == b {
            return;
        }
        if self.sees(a, b) {
            for d in 1..=n as u8 {
                self.ban(a, d);
            }
            return;
        }
        self.outside += 1;
        self.pairs.push((a, b, (0..n).map(|x| 1u64 << x).collect()));
        // The least k with C(k, k/2) ≥ n.
        let binom = |k: u64, r: u64| (0..r).fold(1u64, |acc, i| acc * (k - i) / (i + 1));
        let k = (1..64).find(|&k| binom(k, k / 2) >= n as u64).unwrap_or(1);
        let half = (k / 2) as u32;
        let codes: Vec<u64> = (0u64..1 << k)
            .filter(|c| c.count_ones() == half)
            .take(n)
            .collect();
        let base = self.secondary_items(k as usize);
        for (i, &code) in codes.iter().enumerate() {
            let d = i as u8 + 1;
            for bit in 0..k as usize {
                if code >> bit & 1 != 0 {
                    self.cell_item(a, d, base.at(bit));
                } else {
                    self.cell_item(b, d, base.at(bit));
                }
            }
        }
    }

    /// An automaton read along `cells` (in order; a cell read twice, as
    /// crossing groups of equal products are, holds one digit both
    /// times): from `start`,
    /// digit d in a state goes to `step(i, state, d)` (`None`: refused),
    /// and the grid is accepted when the state after the last cell is
    /// `accept`ed. The transitions kept are those on an accepted run
    /// (states reached from the start that reach acceptance); each is an
    /// option, linked to its cell and to the next step by primary items
    /// (see the module documentation; a layer takes a hub where the sums
    /// are bounded and it makes fewer nodes), so exactly one transition a
    /// step is chosen, with the cell's digit, and consecutive ones agree on the
    /// state. A digit no transition of a cell takes is banned. The caller
    /// keeps the states few (sums bounded by what the cells left can add).
    pub fn chain(
        &mut self,
        cells: &[usize],
        start: u64,
        step: impl Fn(usize, u64, u8) -> Option<u64>,
        accept: impl Fn(u64) -> bool,
    ) {
        let n = self.n as u8;
        let m = cells.len();
        if m == 0 {
            return;
        }
        // Forward: the states before each cell.
        let mut layers: Vec<Vec<u64>> = vec![vec![start]];
        for i in 0..m {
            let mut next: Vec<u64> = Vec::new();
            for &q in &layers[i] {
                for d in 1..=n {
                    if let Some(q2) = step(i, q, d) {
                        next.push(q2);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            layers.push(next);
        }
        // Backward: keep the states that reach acceptance.
        layers[m].retain(|&q| accept(q));
        for i in (0..m).rev() {
            let after = &layers[i + 1];
            let keep: Vec<u64> = layers[i]
                .iter()
                .copied()
                .filter(|&q| {
                    (1..=n)
                        .any(|d| step(i, q, d).is_some_and(|q2| after.binary_search(&q2).is_ok()))
                })
                .collect();
            layers[i] = keep;
        }
        let index: Vec<HashMap<u64, usize>> = layers
            .iter()
            .map(|l| l.iter().enumerate().map(|(j, &q)| (q, j)).collect())
            .collect();
        // The transitions of each step: (state before, digit, state after),
        // states by their place in their layer.
        let mut moves: Vec<Vec<(usize, u8, usize)>> = vec![Vec::new(); m];
        for (i, list) in moves.iter_mut().enumerate() {
            for (j, &q) in layers[i].iter().enumerate() {
                for d in 1..=n {
                    if let Some(&j2) = step(i, q, d).and_then(|q2| index[i + 1].get(&q2)) {
                        list.push((j, d, j2));
                    }
                }
            }
        }
        self.chaining = true;
        self.chain_linked(cells, &layers, &moves);
        self.chaining = false;
        self.runs.push(Run {
            cells: cells.to_vec(),
            widths: layers.iter().map(Vec::len).collect(),
            moves,
        });
    }

    fn chain_linked(
        &mut self,
        cells: &[usize],
        layers: &[Vec<u64>],
        moves: &[Vec<(usize, u8, usize)>],
    ) {
        let (n, m) = (self.n, cells.len());
        let mut before: Option<Layer> = None;
        for (i, &k) in cells.iter().enumerate() {
            // Digit items, one for each digit a transition of this step
            // takes: cell k's option for e covers those of the other
            // digits, a transition with d covers d's. Exactly one
            // transition is chosen, with the cell's digit.
            let mut place = vec![usize::MAX; n + 1];
            let mut count = 0;
            for &(_, d, _) in &moves[i] {
                if place[d as usize] == usize::MAX {
                    place[d as usize] = count;
                    count += 1;
                }
            }
            let base = self.primary_items(count);
            for e in 1..=n as u8 {
                if place[e as usize] == usize::MAX {
                    self.ban(k, e);
                }
                for (d, &at) in place.iter().enumerate().skip(1) {
                    if d != e as usize && at != usize::MAX {
                        self.cell_item(k, e, base.at(at));
                    }
                }
            }
            // The items of the layer of states after this step (more than
            // one state, not the last).
            let after = (i + 1 < m && layers[i + 1].len() > 1)
                .then(|| self.layer(layers[i + 1].len(), &moves[i]));
            for &(j, d, j2) in &moves[i] {
                let mut items = vec![base.at(place[d as usize])];
                match before {
                    Some(Layer::Complement(s)) => items.push(s.at(j)),
                    Some(Layer::Hub { out, .. }) => items.push(out.at(j)),
                    None => {}
                }
                match after {
                    Some(Layer::Complement(s)) => items.extend(
                        (0..layers[i + 1].len())
                            .filter(|&u| u != j2)
                            .map(|u| s.at(u)),
                    ),
                    Some(Layer::Hub { into, .. }) => items.push(into.at(j2)),
                    None => {}
                }
                self.option(items);
            }
            before = after;
        }
    }

    /// The items tying the transitions into a layer of `states` states
    /// (`into`) to those out of it. In the complement form a
    /// transition into a state covers the item of every other state, one
    /// out of it its own: `into.len() * (states - 1)` nodes, most of a long
    /// sum's matrix. The hub keeps a transition to two items and adds an
    /// option a state covering the others' two: `into.len() + 2 * states *
    /// (states - 1)`. It is taken only where the constraint's sums are
    /// bounded ([`Encoder::bounded`]: left out of every matrix a search
    /// that propagates takes, and in the whole one, which Knuth's rule and
    /// the logic engine take) and it has fewer nodes. Without the bounds
    /// it searches worse: once every transition left leads to one state,
    /// the complement form says so at once (that state's item keeps only
    /// the transitions out of it), the hub only when the other hub options
    /// clash with a choice — pill arrows took 0.11 s with the complement
    /// form, over 20 s with the hub (BENCHMARKS.md, "Little killers on the
    /// masks engine").
    fn layer(&mut self, states: usize, into: &[(usize, u8, usize)]) -> Layer {
        let complement = into.len() * states.saturating_sub(1);
        let hub = into.len() + 2 * states * states.saturating_sub(1);
        if !self.bounded || complement <= hub {
            // A transition into v covers every other state's item, one
            // out of v covers v's.
            return Layer::Complement(self.primary_items(states));
        }
        // The hub: one option a state v covering the `into` and `out`
        // items of every other state; a transition into v covers v's
        // `into` item, one out of v its `out` item. Exactly one hub option
        // is chosen (two would both cover a third state's items, or, with
        // two states, leave the transition's `into` item covered twice),
        // so the transitions meet in its state.
        let (into, out) = (self.primary_items(states), self.primary_items(states));
        for v in 0..states {
            let items = (0..states)
                .filter(|&u| u != v)
                .flat_map(|u| [into.at(u), out.at(u)])
                .collect();
            self.option(items);
        }
        Layer::Hub { into, out }
    }
}
