//! Step-by-step solving by logic, with technique names and Sudoku
//! Explainer's difficulty scale: [`explain`] (the steps and SE's figures) and
//! [`hint`] (the next step).
//!
//! The steps are the core's rules over the live exact-cover matrix
//! ([`crate::logic`]): a single is an item with one option left; locked
//! candidates, naked and hidden subsets and fish are all "k items within k
//! items"; turbot fish and wings are chains of strong and weak links;
//! forcing chains follow what an option's being chosen or not implies
//! ([`logic::implications`]). This layer says which items are cells and
//! which are a house's digits, names each step by the kinds of the items
//! it took, and rates it as Sudoku Explainer (SE) does: techniques tried
//! in SE's order, the first that applies taken (SE's rule of the easiest
//! available step), its rating on SE's scale (singles 1.0–2.3,
//! intersections 2.6–2.8, subsets and fish 3.0–5.4, turbot fish 4.0–4.3,
//! wings 4.2–5.6, forcing chains 6.6 up, nested dynamic chains to 10.5,
//! each chain with SE's bonus for its length). A puzzle's ER is its
//! hardest step, EP the hardest up to the first placement, ED the first
//! step's.
//!
//! Invariants: every step is a deduction over the matrix (it holds in every
//! solution, so a placement is the solution's digit and an elimination
//! never removes it); steps are found on the state the previous ones left;
//! the puzzle has exactly one solution (SE's techniques assume it). SE's
//! uniqueness techniques, its wings past WXYZ, aligned exclusion and
//! cycles are not here: where SE takes one, a chain is taken, rated
//! higher. A puzzle no technique finishes is *stuck*, said as such, with
//! the steps found so far.
//!
//! Variants: every rule set is taken. Extra regions of n cells
//! (diagonals, windoku, …) are houses; every other constraint (killer
//! cages, thermometers, arrows, dots, lines, little killers, sandwiches …,
//! and the cages the 45 rule derives) gives steps named after its kind:
//! the candidates of its cells that no way of satisfying it alone takes,
//! on the candidates left ([`logic::unsupported`] over its items, its
//! cells' and the digits of the houses its cells share; rated 1.5 and 0.1
//! a cell it reads, to 3.0). Its own options (a cage's digit sets, an
//! arrow's running sums) that none of those ways takes are removed
//! unseen, and the chains run through its items as through the houses'.
//! Candidates a constraint bans outright (odd, even) are gone from the
//! start, as the givens are. Ratings of variant puzzles are on SE's scale
//! only as far as SE's techniques go.

use std::fmt::Write as _;

use serde::Serialize;

use std::cell::OnceCell;
use std::sync::Arc;
use std::time::Instant;

use super::{Alphabet, Limits, Puzzle, Status, Sudoku};
use crate::dlx::{BuildError, Cancel, ItemId, OptionId};
use crate::logic::{
    self, Closures, Contradiction, Implied, Links, LiveMatrix, LogicError, Potential,
};

/// Why a puzzle cannot be explained.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExplainError {
    /// The rules have a constraint the steps do not take yet (its kind).
    Constraint(&'static str),
    /// The rules' matrix cannot be built.
    Rules(BuildError),
    /// The matrix is not one the logic rules take.
    Logic(LogicError),
    /// The givens contradict each other or the rules.
    NoSolution,
    /// The puzzle has more than one solution: logic alone cannot finish
    /// it.
    NotUnique,
    /// The count of solutions failed (why).
    Solve(String),
    /// The given candidates (pencil marks) leave out the solution's digit
    /// in these cells, the puzzle without them having one solution: marks
    /// a solver got wrong.
    Marks(Vec<Mark>),
}

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExplainError::Constraint(kind) => {
                write!(f, "explaining {kind} constraints is not supported yet")
            }
            ExplainError::Rules(e) => write!(f, "the rules' matrix cannot be built: {e}"),
            ExplainError::Logic(e) => e.fmt(f),
            ExplainError::NoSolution => f.write_str("the givens have no solution"),
            ExplainError::NotUnique => {
                f.write_str("the puzzle has more than one solution: logic alone cannot finish it")
            }
            ExplainError::Solve(why) => f.write_str(why),
            ExplainError::Marks(wrong) => {
                f.write_str("the pencil marks leave out the solution's digit: ")?;
                let list: Vec<String> = wrong
                    .iter()
                    .map(|m| format!("{} of {}", m.digit, m.cell_name()))
                    .collect();
                f.write_str(&list.join(", "))
            }
        }
    }
}

impl std::error::Error for ExplainError {}

/// A digit in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The cell, row-major.
    pub cell: usize,
    /// The digit, 1..=n.
    pub digit: u8,
    /// The grid's side (for the cell's name).
    pub side: usize,
}

impl Mark {
    /// The cell as R1C1.
    pub fn cell_name(&self) -> String {
        name(self.cell, self.side)
    }
}

fn name(cell: usize, side: usize) -> String {
    format!("R{}C{}", cell / side + 1, cell % side + 1)
}

/// One step of a solve by logic.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The technique, as SE names it ("Hidden Single", "X-Wing", …).
    pub technique: &'static str,
    /// Its difficulty on SE's scale.
    pub rating: f32,
    /// The digits it places.
    pub place: Vec<Mark>,
    /// The candidates it removes.
    pub eliminate: Vec<Mark>,
    /// What it says, in words.
    pub text: String,
}

impl Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        #[derive(Serialize)]
        struct Named {
            cell: String,
            digit: u8,
        }
        let named = |m: &[Mark]| -> Vec<Named> {
            m.iter()
                .map(|m| Named {
                    cell: m.cell_name(),
                    digit: m.digit,
                })
                .collect()
        };
        let mut st = s.serialize_struct("Step", 5)?;
        st.serialize_field("technique", self.technique)?;
        st.serialize_field("rating", &round(self.rating))?;
        st.serialize_field("place", &named(&self.place))?;
        st.serialize_field("eliminate", &named(&self.eliminate))?;
        st.serialize_field("text", &self.text)?;
        st.end()
    }
}

/// A rating to one decimal, as SE prints it.
fn round(r: f32) -> f64 {
    (f64::from(r) * 10.0).round() / 10.0
}

/// A puzzle's solve by logic: its steps and SE's three figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Whether the steps solve the puzzle (false: stuck, the techniques
    /// here do not go further, or stopped).
    pub solved: bool,
    /// Whether the deadline or the cancel handle stopped the solve.
    pub stopped: bool,
    /// The hardest step's rating (SE's ER); `None` when stuck.
    #[serde(serialize_with = "rating")]
    pub er: Option<f32>,
    /// The hardest rating up to the first placement (EP); `None` when
    /// stuck before one.
    #[serde(serialize_with = "rating")]
    pub ep: Option<f32>,
    /// The first step's rating (ED); `None` when there is no step.
    #[serde(serialize_with = "rating")]
    pub ed: Option<f32>,
    /// The technique of the hardest step (the first such).
    pub hardest: Option<&'static str>,
}

fn rating<S: serde::Serializer>(r: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
    match r {
        Some(r) => s.serialize_f64(round(*r)),
        None => s.serialize_none(),
    }
}

/// SE's three figures of a solve, without its steps (what `dlx sudoku
/// rate --json` writes).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Whether the steps solve the puzzle.
    pub solved: bool,
    /// Whether the deadline or the cancel handle stopped the solve.
    pub stopped: bool,
    /// See [`Explanation::er`].
    #[serde(serialize_with = "rating")]
    pub er: Option<f32>,
    /// See [`Explanation::ep`].
    #[serde(serialize_with = "rating")]
    pub ep: Option<f32>,
    /// See [`Explanation::ed`].
    #[serde(serialize_with = "rating")]
    pub ed: Option<f32>,
    /// The technique of the hardest step.
    pub hardest: Option<&'static str>,
    /// The number of steps.
    pub steps: usize,
}

impl Explanation {
    /// The figures alone.
    pub fn rating(&self) -> Rating {
        Rating {
            solved: self.solved,
            stopped: self.stopped,
            er: self.er,
            ep: self.ep,
            ed: self.ed,
            hardest: self.hardest,
            steps: self.steps.len(),
        }
    }

    /// SE's line: `ER/EP/ED technique` (a `?` where stuck).
    pub fn rating_line(&self) -> String {
        let f = |r: Option<f32>| r.map_or("?".to_string(), |r| format!("{:.1}", round(r)));
        let mut s = format!("{}/{}/{}", f(self.er), f(self.ep), f(self.ed));
        match (self.solved, self.hardest) {
            (true, Some(t)) => write!(s, " {t}").unwrap_or(()),
            (true, None) => s.push_str(" solved"),
            (false, _) if self.stopped => {
                write!(s, " stopped after {} steps", self.steps.len()).unwrap_or(())
            }
            (false, t) => {
                let most = self.steps.iter().map(|s| s.rating).fold(0f32, f32::max);
                write!(
                    s,
                    " stuck after {} steps (hardest so far: {:.1} {})",
                    self.steps.len(),
                    round(most),
                    t.unwrap_or("none")
                )
                .unwrap_or(())
            }
        }
        s
    }
}

/// What kind of house a house is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HouseKind {
    Box,
    Region,
    Row,
    Column,
    Extra,
}

impl HouseKind {
    fn word(self) -> &'static str {
        match self {
            HouseKind::Box => "box",
            HouseKind::Region => "region",
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Extra => "extra region",
        }
    }

    fn is_line(self) -> bool {
        matches!(self, HouseKind::Row | HouseKind::Column)
    }
}

#[derive(Clone, Debug)]
struct House {
    kind: HouseKind,
    /// Its number among houses of its kind, from 1.
    number: usize,
    cells: Vec<usize>,
    /// The item of each digit (1..=n at 0..n).
    digits: Vec<ItemId>,
}

impl House {
    fn name(&self) -> String {
        format!("{} {}", self.kind.word(), self.number)
    }
}

/// A puzzle being solved by logic: the live matrix and what its items are
/// (shared by clones: the nested chains clone a board for every round of
/// their other rules).
#[derive(Debug)]
struct Board {
    n: usize,
    live: LiveMatrix,
    /// The item of each cell.
    cells: Arc<[ItemId]>,
    /// Boxes (or regions), columns, rows, extra regions: SE's order.
    houses: Arc<[House]>,
    /// The houses each cell is in.
    houses_of: Arc<[Vec<usize>]>,
    /// Whether each item is a cell's.
    cell_item: Arc<[bool]>,
    alphabet: Alphabet,
    /// When the chains give up.
    until: Until,
    /// What each potential implies along static links, worked out when
    /// first asked for on this state (see [`Board::closures`]).
    closures: OnceCell<Option<Closures>>,
    /// The constraints beyond houses (the steps named after them).
    rules: Arc<[Rule]>,
    /// What each of `rules` rules out alone on this state, worked out when
    /// first asked for ([`Board::unsupported`]).
    unsupported: OnceCell<Vec<Option<Vec<OptionId>>>>,
}

/// A constraint beyond houses, as the steps name it.
#[derive(Debug)]
struct Rule {
    /// Its kind, the step's name ("killer cage", "thermometer", …, "45
    /// rule" for a cage the 45 rule derives).
    technique: &'static str,
    /// It in the variant text form (`cage=15:R1C1,R1C2`).
    text: String,
    /// Its items, and the items of the cells it reads.
    scope: Vec<ItemId>,
    /// The digits' items of the houses two of its cells share.
    at_most: Vec<ItemId>,
    /// How many cells it reads.
    cells: usize,
}

/// The most live options a board works out [`Closures`] for (a classic
/// 9x9 has 729 options at most).
const CLOSURES_PAST: usize = 1_500;

/// The most options the search of what one constraint rules out looks at
/// before it gives up (nothing ruled out then): about a millisecond.
const RULE_BUDGET: usize = 200_000;

impl Clone for Board {
    /// The same state, without the closures worked out (a clone is made
    /// to be changed).
    fn clone(&self) -> Board {
        Board {
            n: self.n,
            live: self.live.clone(),
            cells: Arc::clone(&self.cells),
            houses: Arc::clone(&self.houses),
            houses_of: Arc::clone(&self.houses_of),
            cell_item: Arc::clone(&self.cell_item),
            alphabet: self.alphabet,
            until: self.until.clone(),
            closures: OnceCell::new(),
            rules: Arc::clone(&self.rules),
            unsupported: OnceCell::new(),
        }
    }
}

impl Board {
    fn new(puzzle: &Puzzle) -> Result<Board, ExplainError> {
        let rules = puzzle.rules();
        let n = rules.side();
        let extras = rules.extra_regions();
        let matrix = rules.matrix().map_err(ExplainError::Rules)?;
        let m = matrix.matrix().map_err(ExplainError::Rules)?;
        let mut live = LiveMatrix::new(m).map_err(ExplainError::Logic)?;
        // The item whose options are exactly `options` (cell options).
        let item_of = |live: &LiveMatrix, options: &[usize]| -> Option<ItemId> {
            let first = OptionId::must(*options.first()?);
            live.items(first).find(|&i| {
                i.as_usize() < live.primary_count() && {
                    let mut os: Vec<usize> = live.options(i).map(|o| o.as_usize()).collect();
                    os.sort_unstable();
                    os == options
                }
            })
        };
        let mut cells = Vec::with_capacity(n * n);
        for k in 0..n * n {
            let options: Vec<usize> = (0..n).map(|d| k * n + d).collect();
            cells.push(item_of(&live, &options).ok_or(ExplainError::Constraint("cell"))?);
        }
        let mut shapes: Vec<(HouseKind, Vec<usize>)> = Vec::new();
        let regions = rules.regions();
        let mut region_cells: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, &x) in regions.iter().enumerate() {
            if let Some(r) = region_cells.get_mut(x) {
                r.push(k);
            }
        }
        for r in region_cells {
            let kind = if is_rectangle(&r, n) {
                HouseKind::Box
            } else {
                HouseKind::Region
            };
            shapes.push((kind, r));
        }
        for c in 0..n {
            shapes.push((HouseKind::Column, (0..n).map(|r| r * n + c).collect()));
        }
        for r in 0..n {
            shapes.push((HouseKind::Row, (0..n).map(|c| r * n + c).collect()));
        }
        for e in extras.iter().filter(|e| e.len() == n) {
            let mut e = e.to_vec();
            e.sort_unstable();
            shapes.push((HouseKind::Extra, e));
        }
        let mut houses = Vec::new();
        let mut numbers = [0usize; 5];
        for (kind, cells_of) in shapes {
            let mut digits = Vec::with_capacity(n);
            for d in 0..n {
                let options: Vec<usize> = cells_of.iter().map(|&k| k * n + d).collect();
                digits.push(item_of(&live, &options).ok_or(ExplainError::Constraint("house"))?);
            }
            let slot = &mut numbers[kind as usize];
            *slot += 1;
            houses.push(House {
                kind,
                number: *slot,
                cells: cells_of,
                digits,
            });
        }
        let mut houses_of = vec![Vec::new(); n * n];
        for (h, house) in houses.iter().enumerate() {
            for &k in &house.cells {
                houses_of[k].push(h);
            }
        }
        // Each constraint (but extra regions, which are houses): its items
        // and the cells whose options cover them.
        let mut rules_of = Vec::new();
        for owned in matrix.owners() {
            let kind = owned.constraint.kind();
            if kind == "extra region" || owned.items.is_empty() {
                continue;
            }
            let mut scope = owned.items.clone();
            let mut cells_of: Vec<usize> = owned
                .items
                .iter()
                .flat_map(|&i| live.options(i))
                .filter(|o| o.as_usize() < n * n * n)
                .map(|o| o.as_usize() / n)
                .collect();
            cells_of.sort_unstable();
            cells_of.dedup();
            scope.extend(cells_of.iter().map(|&k| cells[k]));
            // The houses two of its cells share: a digit once among them.
            let mut at_most: Vec<ItemId> = Vec::new();
            for h in &houses {
                if h.cells.iter().filter(|k| cells_of.contains(k)).count() >= 2 {
                    at_most.extend(h.digits.iter().copied());
                }
            }
            let words = owned.constraint.words(n).join(" ");
            rules_of.push(Rule {
                technique: if owned.derived { "45 rule" } else { kind },
                text: if owned.derived {
                    format!("{words} (by the 45 rule)")
                } else {
                    words
                },
                scope,
                at_most,
                cells: cells_of.len(),
            });
        }
        // The pins (candidates the constraints ban from the start), then
        // the givens.
        for &pin in matrix.pins() {
            live.commit(pin).map_err(|_| ExplainError::NoSolution)?;
        }
        for (k, &d) in puzzle.givens().iter().enumerate() {
            if d != 0 {
                live.commit(matrix.option(k, d))
                    .map_err(|_| ExplainError::NoSolution)?;
            }
        }
        if live.dead_end().is_some() {
            return Err(ExplainError::NoSolution);
        }
        let mut cell_item = vec![false; m.item_count()];
        for c in &cells {
            cell_item[c.as_usize()] = true;
        }
        Ok(Board {
            n,
            live,
            cells: cells.into(),
            houses: houses.into(),
            houses_of: houses_of.into(),
            cell_item: cell_item.into(),
            alphabet: Alphabet::default_for(n),
            until: Until::default(),
            closures: OnceCell::new(),
            rules: rules_of.into(),
            unsupported: OnceCell::new(),
        })
        .and_then(|mut b| {
            b.settle().map_err(|_| ExplainError::NoSolution)?;
            Ok(b)
        })
    }

    /// Whether `option` puts a digit in a cell (the others are the
    /// constraints' own).
    fn is_cell_option(&self, option: OptionId) -> bool {
        option.as_usize() < self.n * self.n * self.n
    }

    /// What each constraint alone rules out on this state: its options in
    /// no cover of its items ([`logic::unsupported`]), `None` where the
    /// search gave up.
    fn unsupported(&self) -> &[Option<Vec<OptionId>>] {
        self.unsupported.get_or_init(|| {
            self.rules
                .iter()
                .map(|r| {
                    if self.until.passed() {
                        return None;
                    }
                    logic::unsupported(&self.live, &r.scope, &r.at_most, RULE_BUDGET)
                })
                .collect()
        })
    }

    /// Removes the constraints' own options that none of their covers
    /// takes (what the player never sees: a cage's digit sets, an arrow's
    /// running sums), so the chains read the constraints as they stand.
    fn settle(&mut self) -> Result<(), Contradiction> {
        if self.rules.is_empty() {
            return Ok(());
        }
        let gone: Vec<OptionId> = self
            .unsupported()
            .iter()
            .flatten()
            .flatten()
            .copied()
            .filter(|&o| !self.is_cell_option(o))
            .collect();
        for o in gone {
            self.live.eliminate(o)?;
        }
        // The cell options each rules out are what they were.
        Ok(())
    }

    /// What each potential implies along static links of both kinds, on
    /// this state; none where the matrix has so many live options (a
    /// variant's automata) that the sets, quadratic in them, would cost
    /// more than following each assumption.
    fn closures(&self) -> Option<&Closures> {
        self.closures
            .get_or_init(|| {
                let live = (0..self.live.option_count())
                    .filter(|&o| self.live.is_live(OptionId::must(o)))
                    .count();
                (live <= CLOSURES_PAST).then(|| Closures::new(&self.live, &|_| true))
            })
            .as_ref()
    }

    /// How many of `items` have between 2 and `k` options: k items
    /// within k others need k such (what the subsets and fish ask of
    /// [`logic::within`] before it builds anything).
    fn few(&self, items: impl Iterator<Item = ItemId>, k: usize) -> usize {
        items
            .filter(|&i| (2..=k).contains(&self.live.len(i)))
            .count()
    }

    /// Whether the digit's places `item` (of a house) all lie in one
    /// house of kind `kind` which has places besides: what [`locking`]
    /// asks of [`logic::within`], found without building anything.
    fn locked(&self, item: ItemId, kind: HouseKind) -> bool {
        let len = self.live.len(item);
        if self.live.is_covered(item) || len < 2 {
            return false;
        }
        let mut options = self.live.options(item);
        let Some(first) = options.next() else {
            return false;
        };
        let house_of = |o: OptionId| {
            let m = self.mark(o);
            self.houses_of[m.cell]
                .iter()
                .copied()
                .find(|&h| self.houses[h].kind == kind)
                .map(|h| (h, usize::from(m.digit) - 1))
        };
        let Some((h, d)) = house_of(first) else {
            return false;
        };
        options.all(|o| house_of(o) == Some((h, d)))
            && self.live.len(self.houses[h].digits[d]) > len
    }

    fn mark(&self, option: OptionId) -> Mark {
        let o = option.as_usize();
        Mark {
            cell: o / self.n,
            digit: (o % self.n + 1) as u8,
            side: self.n,
        }
    }

    fn option(&self, cell: usize, digit: u8) -> OptionId {
        OptionId::must(cell * self.n + usize::from(digit) - 1)
    }

    fn sym(&self, digit: u8) -> char {
        self.alphabet.symbol(digit)
    }

    fn cell(&self, k: usize) -> String {
        name(k, self.n)
    }

    fn candidates(&self, k: usize) -> Vec<u8> {
        self.live
            .options(self.cells[k])
            .map(|o| self.mark(o).digit)
            .collect()
    }

    fn empty(&self, house: &House) -> usize {
        house
            .cells
            .iter()
            .filter(|&&k| !self.live.is_covered(self.cells[k]))
            .count()
    }

    fn houses_of_kind(&self, kinds: &[HouseKind]) -> impl Iterator<Item = (usize, &House)> + '_ {
        let kinds = kinds.to_vec();
        kinds.into_iter().flat_map(move |kind| {
            self.houses
                .iter()
                .enumerate()
                .filter(move |(_, h)| h.kind == kind)
        })
    }

    fn sees(&self, a: usize, b: usize) -> bool {
        a != b
            && self.houses_of[a]
                .iter()
                .any(|h| self.houses_of[b].contains(h))
    }

    fn marks(&self, options: &[OptionId]) -> Vec<Mark> {
        options.iter().map(|&o| self.mark(o)).collect()
    }

    fn list(&self, marks: &[Mark]) -> String {
        let mut s = String::new();
        for (i, m) in marks.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            write!(s, "{}≠{}", self.cell(m.cell), self.sym(m.digit)).unwrap_or(());
        }
        s
    }

    /// Applies a step: eliminations first, then placements.
    fn apply(&mut self, step: &Step) -> Result<(), Contradiction> {
        self.closures.take();
        self.unsupported.take();
        for m in &step.eliminate {
            self.live.eliminate(self.option(m.cell, m.digit))?;
        }
        for m in &step.place {
            let o = self.option(m.cell, m.digit);
            if self.live.is_live(o) {
                self.live.commit(o)?;
            }
        }
        self.settle()
    }

    fn solved(&self) -> bool {
        self.cells.iter().all(|&c| self.live.is_covered(c))
    }
}

fn is_rectangle(cells: &[usize], n: usize) -> bool {
    let rows = cells.iter().map(|k| k / n);
    let cols = cells.iter().map(|k| k % n);
    match (
        rows.clone().min(),
        rows.max(),
        cols.clone().min(),
        cols.max(),
    ) {
        (Some(r0), Some(r1), Some(c0), Some(c1)) => (r1 - r0 + 1) * (c1 - c0 + 1) == cells.len(),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// The techniques, in SE's order.

/// A technique: finds its first step on the board, if any.
type Technique = fn(&Board) -> Option<Step>;

/// SE's order (its default technique set, as far as it is written here).
const TECHNIQUES: &[Technique] = &[
    full_house,
    hidden_single,
    direct_locking,
    |b| hidden_set(b, 2, true),
    naked_single,
    constraint_step,
    |b| hidden_set(b, 3, true),
    locking,
    |b| naked_set(b, 2),
    |b| fish(b, 2),
    |b| hidden_set(b, 2, false),
    |b| naked_set(b, 3),
    |b| fish(b, 3),
    |b| hidden_set(b, 3, false),
    turbot_fish,
    |b| wing(b, false),
    |b| wing(b, true),
    |b| naked_set(b, 4),
    |b| fish(b, 4),
    |b| hidden_set(b, 4, false),
    wxyz_wing,
    forcing_chain,
    |b| multiple_chains(b, Chains::Nishio),
    |b| multiple_chains(b, Chains::Multiple),
    |b| multiple_chains(b, Chains::Dynamic),
    |b| multiple_chains(b, Chains::Nested(1)),
    |b| multiple_chains(b, Chains::Nested(2)),
    |b| multiple_chains(b, Chains::Nested(3)),
    |b| multiple_chains(b, Chains::Nested(4)),
];

/// The order SE looks at houses in for singles and subsets.
const SE_HOUSES: &[HouseKind] = &[
    HouseKind::Box,
    HouseKind::Region,
    HouseKind::Column,
    HouseKind::Row,
    HouseKind::Extra,
];

fn placing(b: &Board, option: OptionId, technique: &'static str, rating: f32, why: String) -> Step {
    let m = b.mark(option);
    Step {
        technique,
        rating,
        place: vec![m],
        eliminate: Vec::new(),
        text: format!("{technique}: {why} {} = {}", b.cell(m.cell), b.sym(m.digit)),
    }
}

fn singles_in(b: &Board, alone: bool) -> Option<Step> {
    for (_, h) in b.houses_of_kind(SE_HOUSES) {
        let is_alone = b.empty(h) == 1;
        if is_alone != alone {
            continue;
        }
        for (d, &item) in h.digits.iter().enumerate() {
            if b.live.is_covered(item) || b.live.len(item) != 1 {
                continue;
            }
            let o = b.live.options(item).next()?;
            let (technique, rating) = if alone {
                ("Full House", 1.0)
            } else if matches!(h.kind, HouseKind::Box | HouseKind::Region) {
                ("Hidden Single", 1.2)
            } else {
                ("Hidden Single", 1.5)
            };
            let why = format!("the only place for {} in {}:", b.sym(d as u8 + 1), h.name());
            return Some(placing(b, o, technique, rating, why));
        }
    }
    None
}

fn full_house(b: &Board) -> Option<Step> {
    singles_in(b, true)
}

fn hidden_single(b: &Board) -> Option<Step> {
    singles_in(b, false)
}

fn naked_single(b: &Board) -> Option<Step> {
    (0..b.n * b.n).find_map(|k| {
        let item = b.cells[k];
        if b.live.is_covered(item) || b.live.len(item) != 1 {
            return None;
        }
        let o = b.live.options(item).next()?;
        Some(placing(
            b,
            o,
            "Naked Single",
            2.3,
            "the only digit left for".into(),
        ))
    })
}

/// The first item of `items` that `eliminate` leaves with one live option
/// out of several, and that option: the hidden single a direct technique
/// places.
fn single_after(b: &Board, eliminate: &[OptionId], items: &[ItemId]) -> Option<OptionId> {
    items.iter().find_map(|&i| {
        if b.live.is_covered(i) || b.live.len(i) < 2 {
            return None;
        }
        let mut left = b.live.options(i).filter(|o| !eliminate.contains(o));
        let first = left.next()?;
        left.next().is_none().then_some(first)
    })
}

/// The pairs (house kind of A, house kind of B) SE looks at for
/// intersections: a box's digit in a line (pointing), a line's in a box
/// (claiming).
fn intersections(b: &Board) -> Vec<(HouseKind, HouseKind)> {
    let boxes = if b.houses.iter().any(|h| h.kind == HouseKind::Region) {
        HouseKind::Region
    } else {
        HouseKind::Box
    };
    vec![
        (boxes, HouseKind::Column),
        (boxes, HouseKind::Row),
        (HouseKind::Column, boxes),
        (HouseKind::Row, boxes),
    ]
}

/// A constraint's own deduction: the candidates of its cells that no way
/// of satisfying it alone (on the candidates left) takes — a cage's digits
/// no combination of its sum uses, a thermometer's digits too high for the
/// cells after them, … ([`logic::unsupported`] over the constraint's items
/// and its cells'). Named by the constraint's kind ("45 rule" for a cage
/// the 45 rule derives); rated 1.5 and 0.1 a cell it reads, to 3.0.
fn constraint_step(b: &Board) -> Option<Step> {
    for (rule, gone) in b.rules.iter().zip(b.unsupported()) {
        let Some(gone) = gone else {
            continue;
        };
        let cells: Vec<OptionId> = gone
            .iter()
            .copied()
            .filter(|&o| b.is_cell_option(o) && b.live.is_live(o))
            .collect();
        if cells.is_empty() {
            continue;
        }
        let rating = (1.5 + 0.1 * rule.cells as f32).min(3.0);
        let eliminate = b.marks(&cells);
        let text = format!(
            "{}: {} removes {}",
            rule.technique,
            rule.text,
            b.list(&eliminate)
        );
        return Some(Step {
            technique: rule.technique,
            rating,
            place: Vec::new(),
            eliminate,
            text,
        });
    }
    None
}

/// Locked candidates: a house's digit confined to one other house
/// (k = 1 of [`logic::within`]). `direct`: only where the eliminations
/// leave a hidden single in a house of the first kind, which is placed.
fn locking_with(b: &Board, direct: bool) -> Option<Step> {
    for (ka, kb) in intersections(b) {
        for d in 0..b.n {
            for (_, a) in b.houses_of_kind(&[ka]) {
                let a_item = a.digits[d];
                if !b.locked(a_item, kb) {
                    continue;
                }
                let others: Vec<ItemId> = b
                    .houses_of_kind(&[kb])
                    .filter(|(_, h)| h.cells.iter().any(|k| a.cells.contains(k)))
                    .map(|(_, h)| h.digits[d])
                    .collect();
                let Some(w) = logic::within(&b.live, &[a_item], &others, 1, b.n) else {
                    continue;
                };
                let Some(hb) = b.houses.iter().find(|h| h.digits[d] == w.b[0]) else {
                    continue;
                };
                let pointing = !matches!(ka, HouseKind::Row | HouseKind::Column);
                let digit = b.sym(d as u8 + 1);
                let eliminate = b.marks(&w.eliminate);
                let text_core = format!(
                    "in {}, {digit} lies in {}; removes {}",
                    a.name(),
                    hb.name(),
                    b.list(&eliminate)
                );
                if !direct {
                    let (technique, rating) = if pointing {
                        ("Pointing", 2.6)
                    } else {
                        ("Claiming", 2.8)
                    };
                    return Some(Step {
                        technique,
                        rating,
                        place: Vec::new(),
                        eliminate,
                        text: format!("{technique}: {text_core}"),
                    });
                }
                let same_kind: Vec<ItemId> = b
                    .houses_of_kind(&[ka])
                    .filter(|(_, h)| h.digits[d] != a_item)
                    .map(|(_, h)| h.digits[d])
                    .collect();
                if let Some(o) = single_after(b, &w.eliminate, &same_kind) {
                    let (technique, rating) = if pointing {
                        ("Direct Pointing", 1.7)
                    } else {
                        ("Direct Claiming", 1.9)
                    };
                    // SE's direct steps place the single and leave the
                    // eliminations that led to it undone.
                    let m = b.mark(o);
                    return Some(Step {
                        technique,
                        rating,
                        place: vec![m],
                        eliminate: Vec::new(),
                        text: format!(
                            "{technique}: {text_core}; then {} = {}",
                            b.cell(m.cell),
                            digit
                        ),
                    });
                }
            }
        }
    }
    None
}

fn locking(b: &Board) -> Option<Step> {
    locking_with(b, false)
}

fn direct_locking(b: &Board) -> Option<Step> {
    locking_with(b, true)
}

const SET_NAMES: [&str; 5] = ["", "Single", "Pair", "Triplet", "Quad"];

/// Naked subsets: k cells of a house whose digits are k digits (cells
/// within the house's digits).
fn naked_set(b: &Board, k: usize) -> Option<Step> {
    for (_, h) in b.houses_of_kind(SE_HOUSES) {
        if b.empty(h) < 2 * k || b.few(h.cells.iter().map(|&c| b.cells[c]), k) < k {
            continue;
        }
        let a_pool: Vec<ItemId> = h.cells.iter().map(|&c| b.cells[c]).collect();
        let Some(w) = logic::within(&b.live, &a_pool, &h.digits, k, k) else {
            continue;
        };
        let technique = match k {
            2 => "Naked Pair",
            3 => "Naked Triplet",
            _ => "Naked Quad",
        };
        let rating = [0.0, 0.0, 3.0, 3.6, 5.0][k.min(4)];
        let cells: Vec<usize> =
            w.a.iter()
                .filter_map(|i| b.cells.iter().position(|c| c == i))
                .collect();
        let digits: Vec<u8> = (0..b.n)
            .filter(|&d| w.b.contains(&h.digits[d]))
            .map(|d| d as u8 + 1)
            .collect();
        let eliminate = b.marks(&w.eliminate);
        let text = format!(
            "{technique}: {} in {} hold {}; removes {}",
            cells
                .iter()
                .map(|&c| b.cell(c))
                .collect::<Vec<_>>()
                .join(", "),
            h.name(),
            digits
                .iter()
                .map(|&d| b.sym(d).to_string())
                .collect::<Vec<_>>()
                .join(""),
            b.list(&eliminate)
        );
        return Some(Step {
            technique,
            rating,
            place: Vec::new(),
            eliminate,
            text,
        });
    }
    None
}

/// Hidden subsets: k digits of a house confined to k cells (digits within
/// cells). `direct`: only where that leaves another digit of the house a
/// hidden single, which is placed (SE's direct hidden pair and triplet).
fn hidden_set(b: &Board, k: usize, direct: bool) -> Option<Step> {
    for (_, h) in b.houses_of_kind(SE_HOUSES) {
        let empty = b.empty(h);
        if empty <= 2 * k && !(direct && empty > k) || b.few(h.digits.iter().copied(), k) < k {
            continue;
        }
        let b_pool: Vec<ItemId> = h.cells.iter().map(|&c| b.cells[c]).collect();
        let mut found = None;
        let mut check = |w: &logic::Within| -> bool {
            if !direct {
                found = Some((w.clone(), None));
                return true;
            }
            let rest: Vec<ItemId> = h
                .digits
                .iter()
                .copied()
                .filter(|i| !w.a.contains(i))
                .collect();
            match single_after(b, &w.eliminate, &rest) {
                Some(o) => {
                    found = Some((w.clone(), Some(o)));
                    true
                }
                None => false,
            }
        };
        logic::within_each(&b.live, &h.digits, &b_pool, k, b.n, &mut check);
        let Some((w, single)) = found else {
            continue;
        };
        let name = SET_NAMES[k.min(4)];
        let (technique, rating): (&'static str, f32) = match (direct, k) {
            (true, 2) => ("Direct Hidden Pair", 2.0),
            (true, _) => ("Direct Hidden Triplet", 2.5),
            (false, 2) => ("Hidden Pair", 3.4),
            (false, 3) => ("Hidden Triplet", 4.0),
            (false, _) => ("Hidden Quad", 5.4),
        };
        let digits: Vec<u8> = (0..b.n)
            .filter(|&d| w.a.contains(&h.digits[d]))
            .map(|d| d as u8 + 1)
            .collect();
        let cells: Vec<usize> =
            w.b.iter()
                .filter_map(|i| b.cells.iter().position(|c| c == i))
                .collect();
        let eliminate = b.marks(&w.eliminate);
        let mut text = format!(
            "{technique}: {} of {} only in {} ({name}); removes {}",
            digits
                .iter()
                .map(|&d| b.sym(d).to_string())
                .collect::<Vec<_>>()
                .join(""),
            h.name(),
            cells
                .iter()
                .map(|&c| b.cell(c))
                .collect::<Vec<_>>()
                .join(", "),
            b.list(&eliminate)
        );
        let place = single.map(|o| b.mark(o)).into_iter().collect::<Vec<_>>();
        for m in &place {
            write!(text, "; then {} = {}", b.cell(m.cell), b.sym(m.digit)).unwrap_or(());
        }
        // A direct step places its single alone, as SE's does.
        let eliminate = if direct { Vec::new() } else { eliminate };
        return Some(Step {
            technique,
            rating,
            place,
            eliminate,
            text,
        });
    }
    None
}

/// Fish: a digit's k rows confined to k columns, or the other way round.
fn fish(b: &Board, k: usize) -> Option<Step> {
    let (technique, rating) = match k {
        2 => ("X-Wing", 3.2),
        3 => ("Swordfish", 3.8),
        _ => ("Jellyfish", 5.2),
    };
    for (base, cover) in [
        (HouseKind::Column, HouseKind::Row),
        (HouseKind::Row, HouseKind::Column),
    ] {
        for d in 0..b.n {
            let a_pool: Vec<ItemId> = b
                .houses_of_kind(&[base])
                .map(|(_, h)| h.digits[d])
                .collect();
            if b.few(a_pool.iter().copied(), k) < k {
                continue;
            }
            let b_pool: Vec<ItemId> = b
                .houses_of_kind(&[cover])
                .map(|(_, h)| h.digits[d])
                .collect();
            let Some(w) = logic::within(&b.live, &a_pool, &b_pool, k, b.n) else {
                continue;
            };
            let names = |items: &[ItemId]| -> String {
                b.houses
                    .iter()
                    .filter(|h| items.contains(&h.digits[d]))
                    .map(|h| h.number.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let eliminate = b.marks(&w.eliminate);
            let text = format!(
                "{technique}: {} in {}s {} lies in {}s {}; removes {}",
                b.sym(d as u8 + 1),
                base.word(),
                names(&w.a),
                cover.word(),
                names(&w.b),
                b.list(&eliminate)
            );
            return Some(Step {
                technique,
                rating,
                place: Vec::new(),
                eliminate,
                text,
            });
        }
    }
    None
}

/// The strong links of digit `d` (0-based): each house where the digit's
/// cells fall in exactly two groups, a group being the cells of one box in
/// a line, or of one line in a box (a lone cell is a group of one): the
/// cells of a line split by box, those of a box split into one row's or
/// column's and the rest, in one row or column. One of the two groups
/// holds the digit. `grouped`: a group has two cells or more.
fn strong_links(b: &Board, d: usize) -> Vec<(&House, [Vec<usize>; 2], bool)> {
    let mut links: Vec<(&House, [Vec<usize>; 2], bool)> = Vec::new();
    let box_of = |k: usize| {
        b.houses_of[k]
            .iter()
            .copied()
            .find(|&h| matches!(b.houses[h].kind, HouseKind::Box | HouseKind::Region))
    };
    let n = b.n;
    let row = move |k: usize| k / n;
    let col = move |k: usize| k % n;
    let one_line = |g: &[usize]| {
        g.iter().all(|&k| row(k) == row(g[0])) || g.iter().all(|&k| col(k) == col(g[0]))
    };
    for h in b.houses.iter() {
        let item = h.digits[d];
        if b.live.is_covered(item) || b.live.len(item) < 2 {
            continue;
        }
        let cells: Vec<usize> = b.live.options(item).map(|o| b.mark(o).cell).collect();
        let mut splits: Vec<[Vec<usize>; 2]> = Vec::new();
        match h.kind {
            HouseKind::Row | HouseKind::Column | HouseKind::Extra => {
                let first = box_of(cells[0]);
                let (one, two): (Vec<usize>, Vec<usize>) =
                    cells.iter().partition(|&&k| box_of(k) == first);
                if !two.is_empty() && two.iter().all(|&k| box_of(k) == box_of(two[0])) {
                    splits.push([one, two]);
                }
            }
            HouseKind::Box | HouseKind::Region => {
                for by_row in [true, false] {
                    let line = |k: usize| if by_row { row(k) } else { col(k) };
                    for &k in &cells {
                        let (one, two): (Vec<usize>, Vec<usize>) =
                            cells.iter().partition(|&&j| line(j) == line(k));
                        if !two.is_empty() && one_line(&two) {
                            splits.push([one, two]);
                        }
                    }
                }
            }
        }
        for [one, two] in splits {
            let grouped = one.len() > 1 || two.len() > 1;
            let same =
                |g: &[Vec<usize>; 2]| (g[0] == one && g[1] == two) || (g[0] == two && g[1] == one);
            if links.iter().any(|(k, g, _)| std::ptr::eq(*k, h) && same(g)) {
                continue;
            }
            links.push((h, [one, two], grouped));
        }
    }
    links
}

/// Turbot fish (SE's two strong links: skyscraper, two-string kite,
/// turbot, grouped or not): a digit's strong links in two houses, one end
/// of each seeing the other's (every cell of one group every cell of the
/// other): one of the two far ends holds the digit, so a cell seeing both
/// does not. SE rates a skyscraper (two parallel lines) 4.0, every other
/// shape 4.1, a grouped one 4.3; of the steps found it takes the easiest,
/// then the one removing most.
fn turbot_fish(b: &Board) -> Option<Step> {
    let mut best: Option<(f32, usize, Step)> = None;
    let sees_all = |x: &[usize], y: &[usize]| x.iter().all(|&p| y.iter().all(|&q| b.sees(p, q)));
    for d in 0..b.n {
        let digit = d as u8 + 1;
        let links = strong_links(b, d);
        for (i, (h1, l1, g1)) in links.iter().enumerate() {
            for (h2, l2, g2) in &links[i + 1..] {
                if std::ptr::eq(*h1, *h2) {
                    continue;
                }
                for (s1, s2) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    // l1[s1] and l2[s2] see each other; the far ends are the others.
                    let (near1, far1, near2, far2) = (&l1[s1], &l1[1 - s1], &l2[s2], &l2[1 - s2]);
                    let all: Vec<usize> = [near1, far1, near2, far2]
                        .into_iter()
                        .flatten()
                        .copied()
                        .collect();
                    if (0..all.len()).any(|x| all[x + 1..].contains(&all[x])) {
                        continue;
                    }
                    if !sees_all(near1, near2) {
                        continue;
                    }
                    let eliminate: Vec<OptionId> = (0..b.n * b.n)
                        .filter(|c| !all.contains(c))
                        .filter(|&c| sees_all(&[c], far1) && sees_all(&[c], far2))
                        .map(|c| b.option(c, digit))
                        .filter(|&o| b.live.is_live(o))
                        .collect();
                    if eliminate.is_empty() {
                        continue;
                    }
                    let parallel = h1.kind.is_line() && h1.kind == h2.kind;
                    let grouped = *g1 || *g2;
                    let (mut technique, mut rating) = if parallel {
                        ("Skyscraper", 4.0)
                    } else if h1.kind.is_line() && h2.kind.is_line() {
                        ("2-String Kite", 4.1)
                    } else {
                        ("Turbot Fish", 4.1)
                    };
                    if grouped {
                        technique = match technique {
                            "Skyscraper" => "Grouped Skyscraper",
                            "2-String Kite" => "Grouped 2-String Kite",
                            _ => "Grouped Turbot Fish",
                        };
                        rating = 4.3;
                    }
                    let better = match &best {
                        None => true,
                        Some((r, e, _)) => rating < *r || rating == *r && eliminate.len() > *e,
                    };
                    if better {
                        let marks = b.marks(&eliminate);
                        let cells = |g: &[usize]| {
                            g.iter().map(|&c| b.cell(c)).collect::<Vec<_>>().join("/")
                        };
                        let text = format!(
                            "{technique}: {} is in {} or {} ({}), and in {} or {} ({}); {} and {} see each other, so {} or {} holds it; removes {}",
                            b.sym(digit),
                            cells(far1),
                            cells(near1),
                            h1.name(),
                            cells(near2),
                            cells(far2),
                            h2.name(),
                            cells(near1),
                            cells(near2),
                            cells(far1),
                            cells(far2),
                            b.list(&marks)
                        );
                        let n = eliminate.len();
                        best = Some((
                            rating,
                            n,
                            Step {
                                technique,
                                rating,
                                place: Vec::new(),
                                eliminate: marks,
                                text,
                            },
                        ));
                    }
                }
            }
        }
    }
    best.map(|(_, _, s)| s)
}

/// XY-Wing (`xyz` false): a pivot with two digits xy sees a pincer xz and
/// a pincer yz; z goes from cells seeing both pincers. XYZ-Wing: the pivot
/// holds xyz, and z goes from cells seeing the pivot and both pincers.
fn wing(b: &Board, xyz: bool) -> Option<Step> {
    let cells = b.n * b.n;
    let pivot_len = if xyz { 3 } else { 2 };
    for p in 0..cells {
        let pc = b.candidates(p);
        if b.live.is_covered(b.cells[p]) || pc.len() != pivot_len {
            continue;
        }
        let pincers: Vec<(usize, Vec<u8>)> = (0..cells)
            .filter(|&q| b.sees(p, q) && !b.live.is_covered(b.cells[q]))
            .map(|q| (q, b.candidates(q)))
            .filter(|(_, c)| c.len() == 2)
            .collect();
        for (i, (q1, c1)) in pincers.iter().enumerate() {
            for (q2, c2) in &pincers[i + 1..] {
                // The digit z the pincers share, the others the pivot's.
                let shared: Vec<u8> = c1.iter().copied().filter(|d| c2.contains(d)).collect();
                if shared.len() != 1 {
                    continue;
                }
                let z = shared[0];
                let (x, y) = (c1.iter().find(|&&d| d != z), c2.iter().find(|&&d| d != z));
                let (Some(&x), Some(&y)) = (x, y) else {
                    continue;
                };
                if x == y || !pc.contains(&x) || !pc.contains(&y) {
                    continue;
                }
                if xyz != pc.contains(&z) {
                    continue;
                }
                let eliminate: Vec<OptionId> = (0..cells)
                    .filter(|&c| c != p && c != *q1 && c != *q2)
                    .filter(|&c| b.sees(c, *q1) && b.sees(c, *q2) && (!xyz || b.sees(c, p)))
                    .map(|c| b.option(c, z))
                    .filter(|&o| b.live.is_live(o))
                    .collect();
                if eliminate.is_empty() {
                    continue;
                }
                let (technique, rating) = if xyz {
                    ("XYZ-Wing", 4.4)
                } else {
                    ("XY-Wing", 4.2)
                };
                let marks = b.marks(&eliminate);
                let text = format!(
                    "{technique}: pivot {} with pincers {} and {}; one of them holds {}; removes {}",
                    b.cell(p),
                    b.cell(*q1),
                    b.cell(*q2),
                    b.sym(z),
                    b.list(&marks)
                );
                return Some(Step {
                    technique,
                    rating,
                    place: Vec::new(),
                    eliminate: marks,
                    text,
                });
            }
        }
    }
    None
}

/// WXYZ-Wing (SukakuExplainer's: an almost locked set of three cells that
/// see each other and hold four digits, and a cell of two of them, x and
/// z): where every cell of the pattern holding x sees the others holding
/// it, x is in one of the two parts, so z is in the other: z goes from
/// cells seeing every z of the pattern. Where z links them too, both
/// parts are locked: each digit goes from cells seeing all its cells in
/// the pattern. Rated 5.5, 5.6 where the largest of the three cells holds
/// three digits; the easiest, then the one removing most.
fn wxyz_wing(b: &Board) -> Option<Step> {
    let open = b.open_cells(2);
    let cands: Vec<u64> = (0..b.n * b.n)
        .map(|k| {
            if b.live.is_covered(b.cells[k]) {
                0
            } else {
                b.candidates(k).iter().fold(0u64, |m, &d| m | 1 << d)
            }
        })
        .collect();
    let digits = |m: u64| (1..=b.n as u8).filter(move |&d| m >> d & 1 == 1);
    let mut best: Option<(f32, usize, Step)> = None;
    for (i, &p) in open.iter().enumerate() {
        if cands[p].count_ones() > 4 {
            continue;
        }
        for (j, &q) in open.iter().enumerate().skip(i + 1) {
            if !b.sees(p, q) || (cands[p] | cands[q]).count_ones() > 4 {
                continue;
            }
            for &r in &open[j + 1..] {
                let union = cands[p] | cands[q] | cands[r];
                if union.count_ones() != 4 || !b.sees(p, r) || !b.sees(q, r) {
                    continue;
                }
                let als = [p, q, r];
                let biggest = als
                    .iter()
                    .map(|&k| cands[k].count_ones())
                    .max()
                    .unwrap_or(0);
                let rating = 5.5 + if biggest == 3 { 0.1 } else { 0.0 };
                for &y in &open {
                    if als.contains(&y)
                        || cands[y].count_ones() != 2
                        || cands[y] & union != cands[y]
                        || !als.iter().any(|&k| b.sees(k, y))
                    {
                        continue;
                    }
                    // A digit links the parts where each ALS cell holding it
                    // sees y.
                    let linked =
                        |d: u8| als.iter().all(|&k| cands[k] >> d & 1 == 0 || b.sees(k, y));
                    let yd: Vec<u8> = digits(cands[y]).collect();
                    for (x, z) in [(yd[0], yd[1]), (yd[1], yd[0])] {
                        if !linked(x) {
                            continue;
                        }
                        let double = linked(z);
                        if double && x > z {
                            continue; // the same pattern, met once
                        }
                        let holders = |d: u8, with_y: bool| -> Vec<usize> {
                            als.iter()
                                .copied()
                                .chain(with_y.then_some(y))
                                .filter(|&k| cands[k] >> d & 1 == 1)
                                .collect()
                        };
                        // (digit, the pattern's cells holding it) to clear.
                        let mut clear: Vec<(u8, Vec<usize>)> = vec![(z, holders(z, true))];
                        if double {
                            clear.push((x, holders(x, true)));
                            for w in digits(union).filter(|&w| w != x && w != z) {
                                clear.push((w, holders(w, false)));
                            }
                        }
                        let mut eliminate = Vec::new();
                        for (d, cells) in &clear {
                            for (c, &held) in cands.iter().enumerate() {
                                if als.contains(&c) || c == y || held >> d & 1 == 0 {
                                    continue;
                                }
                                if !cells.is_empty() && cells.iter().all(|&k| b.sees(c, k)) {
                                    let o = b.option(c, *d);
                                    if !eliminate.contains(&o) {
                                        eliminate.push(o);
                                    }
                                }
                            }
                        }
                        if eliminate.is_empty() {
                            continue;
                        }
                        let better = match &best {
                            None => true,
                            Some((r0, e0, _)) => {
                                rating < *r0 || rating == *r0 && eliminate.len() > *e0
                            }
                        };
                        if better {
                            let marks = b.marks(&eliminate);
                            let text = format!(
                                "WXYZ-Wing: {}, {} and {} hold {} with {} ({}{}), linked by {}{}; removes {}",
                                b.cell(p),
                                b.cell(q),
                                b.cell(r),
                                digits(union).map(|d| b.sym(d).to_string()).collect::<String>(),
                                b.cell(y),
                                b.sym(x),
                                b.sym(z),
                                b.sym(x),
                                if double { format!(" and {}", b.sym(z)) } else { String::new() },
                                b.list(&marks)
                            );
                            let n = eliminate.len();
                            best = Some((
                                rating,
                                n,
                                Step {
                                    technique: "WXYZ-Wing",
                                    rating,
                                    place: Vec::new(),
                                    eliminate: marks,
                                    text,
                                },
                            ));
                        }
                    }
                }
            }
        }
    }
    best.map(|(_, _, s)| s)
}

// ---------------------------------------------------------------------------
// Chains (SE's forcing chains, 6.6 and up).

/// SE's rating added for a chain's length: 0.1 for each threshold its
/// complexity (the potentials it takes, less 2) passes, the thresholds
/// growing by 3/2 and 4/3 in turn (4, 6, 8, 10, 15, 20, 30, …).
fn length_bonus(complexity: usize) -> f32 {
    let length = complexity.saturating_sub(2);
    let (mut ceil, mut odd, mut added) = (4usize, false, 0f32);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// Which of SE's chaining rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chains {
    /// An assumption's contradiction along one digit's links, dynamic
    /// (7.5).
    Nishio,
    /// Every candidate of a cell, or every place of a digit in a house,
    /// leading to one conclusion; static links (8.0).
    Multiple,
    /// The same and contradictions, with dynamic links (8.5).
    Dynamic,
    /// Dynamic, with other rules drawing more eliminations along the way:
    /// level 1 (9.0) the basic techniques, 2 (9.5) forcing chains too, 3
    /// (10.0) multiple forcing chains, 4 (10.5) dynamic ones.
    Nested(u8),
}

/// What a multiple chain concludes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An assumption leading to a contradiction.
    Contradiction,
    /// Both states of a candidate leading to one conclusion.
    Double,
    /// Every candidate of a cell.
    Cell,
    /// Every place of a digit in a house.
    Region,
}

impl Chains {
    /// SE's name of a step of these chains.
    fn name(self, kind: Kind) -> &'static str {
        use Kind::*;
        match (self, kind) {
            (Chains::Nishio, _) => "Nishio Forcing Chains",
            (Chains::Multiple, Region) => "Region Forcing Chains",
            (Chains::Multiple, _) => "Cell Forcing Chains",
            (Chains::Dynamic, Contradiction) => "Dynamic Contradiction Forcing Chains",
            (Chains::Dynamic, Double) => "Dynamic Double Forcing Chains",
            (Chains::Dynamic, Cell) => "Dynamic Cell Forcing Chains",
            (Chains::Dynamic, Region) => "Dynamic Region Forcing Chains",
            (Chains::Nested(level), kind) => {
                const NAMES: [[&str; 4]; 4] = [
                    [
                        "Dynamic Contradiction Forcing Chains (+)",
                        "Dynamic Double Forcing Chains (+)",
                        "Dynamic Cell Forcing Chains (+)",
                        "Dynamic Region Forcing Chains (+)",
                    ],
                    [
                        "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
                        "Dynamic Double Forcing Chains (+ Forcing Chains)",
                        "Dynamic Cell Forcing Chains (+ Forcing Chains)",
                        "Dynamic Region Forcing Chains (+ Forcing Chains)",
                    ],
                    [
                        "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
                        "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
                        "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
                        "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
                    ],
                    [
                        "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
                        "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)",
                        "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
                        "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
                    ],
                ];
                let row = usize::from(level.clamp(1, 4)) - 1;
                NAMES[row][kind as usize]
            }
        }
    }

    fn base(self) -> f32 {
        match self {
            Chains::Nishio => 7.5,
            Chains::Multiple => 8.0,
            Chains::Dynamic => 8.5,
            Chains::Nested(level) => 8.5 + 0.5 * f32::from(level),
        }
    }

    fn dynamic(self) -> bool {
        self != Chains::Multiple
    }
}

/// A chain step found, to be ranked as SE ranks them: easiest, then least
/// complex.
struct Found {
    rating: f32,
    complexity: usize,
    step: Step,
}

impl Board {
    /// Whether an item is a cell's (a Y-link) rather than a house digit's
    /// (an X-link).
    fn is_cell_item(&self, item: ItemId) -> bool {
        self.cell_item
            .get(item.as_usize())
            .copied()
            .unwrap_or(false)
    }

    fn potential(&self, p: Potential) -> String {
        let op = if p.on { "=" } else { "≠" };
        if !self.is_cell_option(p.option) {
            // One of a constraint's own options (a digit set, a running
            // sum): named by its constraint.
            let rule = self
                .live
                .items(p.option)
                .find_map(|i| self.rules.iter().find(|r| r.scope.contains(&i)));
            let of = rule.map_or(String::new(), |r| format!(" of {} {}", r.technique, r.text));
            return format!("[option {}{of}]{op}", p.option.as_usize());
        }
        let m = self.mark(p.option);
        format!("{}{op}{}", self.cell(m.cell), self.sym(m.digit))
    }

    /// The chain from the assumption to `p`, through first parents.
    fn path(&self, implied: &Implied, p: Potential) -> String {
        let mut path = vec![p];
        let mut at = p;
        while let Some(parent) = implied.first_parent(at) {
            if path.contains(&parent) {
                break;
            }
            path.push(parent);
            at = parent;
        }
        path.iter()
            .rev()
            .map(|&p| self.potential(p))
            .collect::<Vec<_>>()
            .join(" → ")
    }

    /// What `assumed` implies under `chains`'s links (X-links only for
    /// Nishio and for `x_only`).
    fn imply(
        &self,
        assumed: Potential,
        dynamic: bool,
        x_only: bool,
        level: u8,
        stop: bool,
    ) -> Implied {
        let cells = |i: ItemId| !(x_only && self.is_cell_item(i));
        let links = Links {
            item: &cells,
            dynamic,
            stop,
        };
        let mut extra = |off: &[bool]| -> logic::Drawn {
            if level > 0 {
                self.basic_eliminations(off, level)
            } else {
                Vec::new()
            }
        };
        logic::implications(&self.live, links, assumed, &mut extra)
    }

    /// The eliminations SE's basic techniques (pointing and claiming,
    /// hidden and naked pairs, X-wings; from `level` 2 forcing chains,
    /// from 3 multiple ones, from 4 dynamic ones) draw once the options
    /// `off` are gone, each with the options off it stands on (those in
    /// the houses of the cells it changes).
    fn basic_eliminations(&self, off: &[bool], level: u8) -> logic::Drawn {
        let mut board = self.clone();
        for (o, &gone) in off.iter().enumerate() {
            if gone && board.live.eliminate(OptionId::must(o)).is_err() {
                return Vec::new();
            }
        }
        let mut techniques: Vec<Technique> = vec![
            locking,
            |b| hidden_set(b, 2, false),
            |b| naked_set(b, 2),
            |b| fish(b, 2),
        ];
        if level >= 2 {
            techniques.push(|b| forcing_chain_in(b, true));
        }
        if level >= 3 {
            techniques.push(|b| multiple_chains_in(b, Chains::Multiple, true));
        }
        if level >= 4 {
            techniques.push(|b| multiple_chains_in(b, Chains::Dynamic, true));
        }
        for t in techniques {
            if let Some(step) = t(&board) {
                // It stands on the options off in the houses of its cells.
                let touched: Vec<usize> = step
                    .eliminate
                    .iter()
                    .flat_map(|m| self.houses_of[m.cell].iter().copied())
                    .collect();
                let parents: Vec<Potential> = (0..off.len())
                    .filter(|&o| off[o] && self.live.is_live(OptionId::must(o)))
                    .map(OptionId::must)
                    .filter(|&o| self.is_cell_option(o))
                    .filter(|&o| {
                        let cell = self.mark(o).cell;
                        self.houses_of[cell].iter().any(|h| touched.contains(h))
                    })
                    .map(|option| Potential { option, on: false })
                    .collect();
                return step
                    .eliminate
                    .iter()
                    .map(|m| {
                        let p = Potential {
                            option: self.option(m.cell, m.digit),
                            on: false,
                        };
                        (p, parents.clone())
                    })
                    .collect();
            }
        }
        Vec::new()
    }

    /// The step that concludes `p` (a placement or an elimination), if it
    /// changes the grid.
    fn concluding(
        &self,
        p: Potential,
        technique: &'static str,
        rating: f32,
        text: String,
    ) -> Option<Step> {
        if !self.live.is_live(p.option) || !self.is_cell_option(p.option) {
            return None;
        }
        let m = self.mark(p.option);
        let (place, eliminate) = if p.on {
            (vec![m], Vec::new())
        } else {
            (Vec::new(), vec![m])
        };
        Some(Step {
            technique,
            rating,
            place,
            eliminate,
            text: format!("{technique}: {text}"),
        })
    }

    /// The empty cells with at least `least` candidates, row-major.
    fn open_cells(&self, least: usize) -> Vec<usize> {
        (0..self.n * self.n)
            .filter(|&k| {
                !self.live.is_covered(self.cells[k]) && self.live.len(self.cells[k]) >= least
            })
            .collect()
    }
}

impl Implied {
    /// The first potential `p` follows from, if any.
    fn first_parent(&self, p: Potential) -> Option<Potential> {
        self.parent_list(p).first().copied()
    }
}

/// Offers the step concluding `p` (a chain of `complexity` potentials,
/// rated `base` and SE's length bonus) to `best`; true when the caller is
/// to stop there (see [`keep`]).
#[allow(clippy::too_many_arguments)]
fn offer(
    b: &Board,
    best: &mut Option<Found>,
    p: Potential,
    technique: &'static str,
    base: f32,
    complexity: usize,
    text: String,
    first: bool,
) -> bool {
    let rating = base + length_bonus(complexity);
    match b.concluding(p, technique, rating, text) {
        Some(step) => keep(
            best,
            Found {
                rating,
                complexity,
                step,
            },
            first,
        ),
        None => false,
    }
}

/// Keeps the easiest, least complex step; true when the caller is to stop
/// there (`first`: a nested rule's, which takes the first it finds).
fn keep(best: &mut Option<Found>, found: Found, first: bool) -> bool {
    let better = match best {
        None => true,
        Some(b) => {
            found.rating < b.rating - 1e-4
                || (found.rating - b.rating).abs() < 1e-4 && found.complexity < b.complexity
        }
    };
    if better {
        *best = Some(found);
    }
    first
}

/// SE's forcing chains (static, 6.6 along one kind of link, 7.0 along
/// both, and more for length): an assumption that implies its own
/// negation.
fn forcing_chain(b: &Board) -> Option<Step> {
    forcing_chain_in(b, false)
}

/// [`forcing_chain`]; `first`: the first step found (a nested rule's,
/// where any conclusion serves), XY links alone.
fn forcing_chain_in(b: &Board, first: bool) -> Option<Step> {
    let mut best = None;
    // Which assumptions lead anywhere, for both kinds of links at once:
    // only those are followed link by link.
    let all = b.closures();
    // X-links alone (a nested rule takes none; nor a board too large for
    // closures).
    let x_links = match all {
        Some(_) if !first => Some(Closures::new(&b.live, &|i| !b.is_cell_item(i))),
        _ => None,
    };
    for k in b.open_cells(2) {
        if b.until.passed() {
            return None;
        }
        let options: Vec<OptionId> = b.live.options(b.cells[k]).collect();
        for o in options {
            for x_only in [true, false] {
                if first && x_only {
                    continue;
                }
                let base = if x_only { 6.6 } else { 7.0 };
                for on in [true, false] {
                    let assumed = Potential { option: o, on };
                    let negation = Potential { option: o, on: !on };
                    let closures = if x_only { x_links.as_ref() } else { all };
                    let leads = closures.is_none_or(|c| {
                        if first {
                            c.contradicts(assumed)
                        } else {
                            c.implies(assumed, negation)
                        }
                    });
                    if !leads {
                        continue;
                    }
                    // It looks for the assumption's negation past other
                    // contradictions, as SE's does; a nested rule takes
                    // any contradiction (which refutes the assumption as
                    // well) and stops there.
                    let implied = b.imply(assumed, false, x_only, 0, first);
                    if !(implied.has(negation) || first && implied.contradiction.is_some()) {
                        continue;
                    }
                    let complexity = implied.ancestors(negation);
                    let text = format!(
                        "{}, so {}",
                        b.path(&implied, negation),
                        b.potential(negation)
                    );
                    if offer(
                        b,
                        &mut best,
                        negation,
                        "Forcing Chain",
                        base,
                        complexity,
                        text,
                        first,
                    ) {
                        return best.map(|f| f.step);
                    }
                }
            }
        }
    }
    best.map(|f| f.step)
}

/// SE's chaining rules past forcing chains (see [`Chains`]): for each
/// candidate, what its being on and off implies; a contradiction settles
/// it (Nishio, dynamic); a conclusion every candidate of a cell, every
/// place of a digit in a house, or (dynamic, three candidates or more)
/// both states of a candidate lead to holds.
fn multiple_chains(b: &Board, chains: Chains) -> Option<Step> {
    multiple_chains_in(b, chains, false)
}

/// [`multiple_chains`]; `first`: the first step found (a nested rule's).
fn multiple_chains_in(b: &Board, chains: Chains, first: bool) -> Option<Step> {
    let dynamic = chains.dynamic();
    let x_only = chains == Chains::Nishio;
    let level = match chains {
        Chains::Nested(level) => level,
        _ => 0,
    };
    let least = if dynamic { 2 } else { 3 };
    let mut best: Option<Found> = None;
    let base = chains.base();
    let name = |kind: Kind| chains.name(kind);
    // What each candidate's being on implies (the cells' and the houses'
    // branches share them), and being off, worked out once.
    let cells = b.open_cells(least);
    let mut on_of: std::collections::HashMap<OptionId, Implied> = std::collections::HashMap::new();
    let on_p = |option| Potential { option, on: true };
    // Static links: which cells and houses lead to a common conclusion,
    // for all at once; only those are followed link by link, when they
    // come.
    let closures = (chains == Chains::Multiple).then(|| b.closures()).flatten();
    let leads = |assumed: &[OptionId]| {
        closures
            .is_none_or(|c| assumed.iter().all(|&o| !c.contradicts(on_p(o))) && c.common(assumed))
    };
    let fill = |on_of: &mut std::collections::HashMap<OptionId, Implied>, qs: &[OptionId]| {
        for &q in qs {
            on_of
                .entry(q)
                .or_insert_with(|| b.imply(on_p(q), dynamic, x_only, level, true));
        }
    };
    for &k in cells.iter().filter(|_| closures.is_none()) {
        if b.until.passed() {
            return None;
        }
        for o in b.live.options(b.cells[k]) {
            let d = usize::from(b.mark(o).digit) - 1;
            let places = b.houses_of[k]
                .iter()
                .flat_map(|&h| b.live.options(b.houses[h].digits[d]));
            let qs: Vec<OptionId> = std::iter::once(o).chain(places).collect();
            fill(&mut on_of, &qs);
        }
    }
    for &k in &cells {
        if b.until.passed() {
            return None;
        }
        let options: Vec<OptionId> = b.live.options(b.cells[k]).collect();
        let cell_leads = leads(&options);
        if closures.is_some() {
            // The cell's and its houses' branches, where they lead.
            let mut qs = if cell_leads {
                options.clone()
            } else {
                Vec::new()
            };
            for &o in &options {
                let d = usize::from(b.mark(o).digit) - 1;
                for &h in &b.houses_of[k] {
                    let places: Vec<OptionId> = b.live.options(b.houses[h].digits[d]).collect();
                    if places.len() >= 2 && places[0] == o && leads(&places) {
                        qs.extend(places);
                    }
                }
            }
            fill(&mut on_of, &qs);
        }
        let mut per_value: Vec<&Implied> = Vec::new();
        for &o in &options {
            let Some(on) = on_of.get(&o) else {
                continue;
            };
            if chains != Chains::Multiple {
                let off = &b.imply(
                    Potential {
                        option: o,
                        on: false,
                    },
                    dynamic,
                    x_only,
                    level,
                    true,
                );
                // A contradiction settles the assumption.
                for (implied, assumed) in [(on, true), (off, false)] {
                    if let Some(c) = implied.contradiction {
                        let negation = Potential {
                            option: o,
                            on: !assumed,
                        };
                        let conjugate = Potential { on: false, ..c };
                        let complexity = implied.ancestors(c) + implied.ancestors(conjugate);
                        let text = format!(
                            "if {} then both {} and {}, so {}",
                            b.potential(Potential {
                                option: o,
                                on: assumed
                            }),
                            b.path(implied, c),
                            b.path(implied, conjugate),
                            b.potential(negation)
                        );
                        let t = name(Kind::Contradiction);
                        if offer(b, &mut best, negation, t, base, complexity, text, first) {
                            return best.map(|f| f.step);
                        }
                    }
                }
                // Both states of a candidate of a cell of three or more
                // leading to one conclusion.
                if dynamic
                    && chains != Chains::Nishio
                    && options.len() >= 3
                    && on.contradiction.is_none()
                    && off.contradiction.is_none()
                {
                    for &p in on.potentials() {
                        if p.option == o || !off.has(p) {
                            continue;
                        }
                        let complexity = on.ancestors(p) + off.ancestors(p);
                        let text = format!(
                            "{} and {}, so {}",
                            b.path(on, p),
                            b.path(off, p),
                            b.potential(p)
                        );
                        let t = name(Kind::Double);
                        if offer(b, &mut best, p, t, base, complexity, text, first) {
                            return best.map(|f| f.step);
                        }
                    }
                }
            }
            per_value.push(on);
        }
        if chains == Chains::Nishio {
            continue;
        }
        // Cell forcing: what every candidate of the cell implies.
        if cell_leads
            && per_value.len() == options.len()
            && per_value.iter().all(|i| i.contradiction.is_none())
        {
            common(
                b,
                &per_value,
                &options,
                name(Kind::Cell),
                base,
                &format!("each candidate of {}", b.cell(k)),
                &mut best,
            );
            if first && best.is_some() {
                return best.map(|f| f.step);
            }
        }
        // Region forcing: what every place of a digit in a house implies,
        // each house once (from its first place).
        for &o in &options {
            let digit = b.mark(o).digit;
            for &h in &b.houses_of[k] {
                let item = b.houses[h].digits[usize::from(digit) - 1];
                let places: Vec<OptionId> = b.live.options(item).collect();
                if places.len() < 2 || places[0] != o || !leads(&places) {
                    continue;
                }
                let implied: Vec<&Implied> = places.iter().filter_map(|q| on_of.get(q)).collect();
                if implied.len() != places.len() {
                    continue;
                }
                if implied.iter().any(|i| i.contradiction.is_some()) {
                    continue;
                }
                let what = format!("each place of {} in {}", b.sym(digit), b.houses[h].name());
                common(
                    b,
                    &implied,
                    &places,
                    name(Kind::Region),
                    base,
                    &what,
                    &mut best,
                );
                if first && best.is_some() {
                    return best.map(|f| f.step);
                }
            }
        }
    }
    best.map(|f| f.step)
}

/// The conclusions every branch of `branches` (each assuming one of
/// `assumed` on) holds, as steps.
fn common(
    b: &Board,
    branches: &[&Implied],
    assumed: &[OptionId],
    technique: &'static str,
    base: f32,
    what: &str,
    best: &mut Option<Found>,
) {
    let Some(first) = branches.first() else {
        return;
    };
    for &p in first.potentials() {
        if assumed.contains(&p.option) || !branches.iter().all(|i| i.has(p)) {
            continue;
        }
        let complexity: usize = branches.iter().map(|i| i.ancestors(p)).sum();
        let rating = base + length_bonus(complexity);
        let paths: Vec<String> = branches.iter().map(|i| b.path(i, p)).collect();
        let text = format!("{what} leads to {}: {}", b.potential(p), paths.join("; "));
        if let Some(step) = b.concluding(p, technique, rating, text) {
            keep(
                best,
                Found {
                    rating,
                    complexity,
                    step,
                },
                false,
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The ways in.

/// The easiest step SE would take next on `board`, if any technique here
/// applies.
fn next_step(board: &Board) -> Option<Step> {
    TECHNIQUES.iter().find_map(|t| t(board))
}

/// When to give up: a deadline, a cancel handle (both optional).
#[derive(Clone, Debug, Default)]
pub struct Until {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up once this handle is cancelled.
    pub cancel: Option<Cancel>,
}

impl Until {
    fn passed(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }
}

/// The board of `puzzle`, once it is known to have exactly one solution
/// (`None`: `until` passed first).
fn unique_board(puzzle: &Puzzle, until: &Until) -> Result<Option<Board>, ExplainError> {
    let limits = Limits {
        solutions: 2,
        deadline: until.deadline,
        cancel: until.cancel.clone(),
    };
    if !marks_kept(puzzle, &limits)? {
        return Ok(None);
    }
    let mut board = Board::new(puzzle)?;
    let solved = Sudoku::default()
        .solve(puzzle, &limits)
        .map_err(|e| ExplainError::Solve(e.to_string()))?;
    match solved.answer.status() {
        Status::Unique => {
            board.until = until.clone();
            Ok(Some(board))
        }
        Status::None => Err(ExplainError::NoSolution),
        Status::Multiple => Err(ExplainError::NotUnique),
        _ => Ok(None),
    }
}

/// Whether `puzzle`'s given candidates (pencil marks), if it has any,
/// keep the solution of the puzzle without them, where that puzzle has
/// exactly one: an error naming each cell whose marks leave out its digit
/// (a solver's marks gone wrong would otherwise be explained as another
/// puzzle, or refused as one without a solution). A Sukaku, whose marks are
/// its clues, has many solutions without them: nothing to compare. False
/// when `limits` stopped the count first.
fn marks_kept(puzzle: &Puzzle, limits: &Limits) -> Result<bool, ExplainError> {
    use super::constraints::GivenCandidates;
    let rules = puzzle.rules();
    let marks: Vec<&GivenCandidates> = rules.find::<GivenCandidates>().collect();
    if marks.is_empty() {
        return Ok(true);
    }
    let mut bare = super::rules::Rules::jigsaw(rules.regions())
        .map_err(|e| ExplainError::Solve(e.to_string()))?;
    for c in rules.constraints() {
        if !c.as_any().is::<GivenCandidates>() {
            bare = bare
                .with_shared(c.clone())
                .map_err(|e| ExplainError::Solve(e.to_string()))?;
        }
    }
    let bare = Puzzle::new(bare, puzzle.givens().to_vec())
        .map_err(|e| ExplainError::Solve(e.to_string()))?;
    let solved = Sudoku::default()
        .solve(&bare, limits)
        .map_err(|e| ExplainError::Solve(e.to_string()))?;
    match (solved.answer.status(), &solved.solution) {
        (Status::Unique, Some(solution)) => {
            let side = rules.side();
            let wrong: Vec<Mark> = marks
                .iter()
                .filter(|m| !m.digits.contains(&solution[m.cell]))
                .map(|m| Mark {
                    cell: m.cell,
                    digit: solution[m.cell],
                    side,
                })
                .collect();
            if wrong.is_empty() {
                Ok(true)
            } else {
                Err(ExplainError::Marks(wrong))
            }
        }
        (Status::Unique | Status::None | Status::Multiple, _) => Ok(true),
        _ => Ok(false),
    }
}

/// Solves `puzzle` by logic, step by step, taking the easiest step each
/// time as SE does, until solved or stuck. The puzzle must have exactly
/// one solution (SE's rule: the techniques assume it).
///
/// ```
/// use dlx::sudoku::{explain, Puzzle};
///
/// let p: Puzzle =
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///         .parse()
///         .unwrap();
/// let e = explain::explain(&p).unwrap();
/// assert!(e.solved);
/// assert_eq!(e.steps[0].technique, "Hidden Single");
/// ```
pub fn explain(puzzle: &Puzzle) -> Result<Explanation, ExplainError> {
    explain_until(puzzle, &Until::default())
}

/// [`explain`], given up when `until` passes: the steps found so far,
/// [`Explanation::stopped`].
pub fn explain_until(puzzle: &Puzzle, until: &Until) -> Result<Explanation, ExplainError> {
    let mut explanation = Explanation {
        steps: Vec::new(),
        solved: false,
        stopped: false,
        er: None,
        ep: None,
        ed: None,
        hardest: None,
    };
    let Some(mut board) = unique_board(puzzle, until)? else {
        explanation.stopped = true;
        return Ok(explanation);
    };
    let mut er = 0f32;
    while !board.solved() {
        let Some(step) = next_step(&board) else {
            explanation.stopped = until.passed();
            break;
        };
        if step.rating > er {
            er = step.rating;
            explanation.hardest = Some(step.technique);
        }
        explanation.ed.get_or_insert(er);
        if explanation.ep.is_none() && !step.place.is_empty() {
            explanation.ep = Some(er);
        }
        board.apply(&step).map_err(|_| ExplainError::NoSolution)?;
        explanation.steps.push(step);
    }
    explanation.solved = board.solved();
    explanation.er = explanation.solved.then_some(er);
    Ok(explanation)
}

/// The next step from `puzzle`'s givens (a grid partly filled, with
/// exactly one solution), if a technique here finds one; `None` when the
/// grid is full, stuck, or `until` passed.
pub fn hint(puzzle: &Puzzle, until: &Until) -> Result<Option<Step>, ExplainError> {
    let Some(board) = unique_board(puzzle, until)? else {
        return Ok(None);
    };
    if board.solved() {
        return Ok(None);
    }
    Ok(next_step(&board))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solver's pencil marks: a hint from where they stand, every step
    /// of the explanation agreeing with the solution; marks that leave out
    /// the solution's digit named, not explained from.
    #[test]
    fn pencil_marks_are_hinted_from_and_wrong_ones_named() {
        use crate::sudoku::constraints::GivenCandidates;
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let p: Puzzle = line.parse().unwrap();
        let solution = Sudoku::default()
            .solve(&p, &Limits::count_to(2))
            .unwrap()
            .solution
            .unwrap();
        // R1C3's marks: 1, 2, 4 (the solution's 4 kept); R1C4: 6, 8 (6).
        let marked = |c4: &[u8]| {
            let rules = p
                .rules()
                .clone()
                .with(GivenCandidates::new(2, &[1, 2, 4]))
                .unwrap()
                .with(GivenCandidates::new(3, c4))
                .unwrap();
            Puzzle::new(rules, p.givens().to_vec()).unwrap()
        };
        let good = marked(&[6, 8]);
        let step = hint(&good, &Until::default()).unwrap().unwrap();
        assert!(!step.place.is_empty() || !step.eliminate.is_empty());
        let e = explain(&good).unwrap();
        assert!(e.solved);
        for s in &e.steps {
            assert!(
                s.place.iter().all(|m| solution[m.cell] == m.digit),
                "{}",
                s.text
            );
            assert!(
                s.eliminate.iter().all(|m| solution[m.cell] != m.digit),
                "{}",
                s.text
            );
        }
        let err = hint(&marked(&[7, 8]), &Until::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the pencil marks leave out the solution's digit: 6 of R1C4"
        );
        assert!(matches!(
            explain(&marked(&[7, 8])),
            Err(ExplainError::Marks(_))
        ));
    }

    /// Every step agrees with the solution: placements are its digits,
    /// eliminations never remove one.
    fn agrees(p: &Puzzle) -> Explanation {
        let solved = Sudoku::default().solve(p, &Limits::count_to(2)).unwrap();
        let solution = solved.solution.unwrap();
        let e = explain(p).unwrap();
        for s in &e.steps {
            for m in &s.place {
                assert_eq!(solution[m.cell], m.digit, "{}", s.text);
            }
            for m in &s.eliminate {
                assert_ne!(solution[m.cell], m.digit, "{}", s.text);
            }
            assert!(!s.place.is_empty() || !s.eliminate.is_empty(), "{}", s.text);
        }
        e
    }

    /// Puzzles of `dlx sudoku generate --count 300 --seed 7`, one for each
    /// technique SE took as the hardest, with SukakuExplainer 1.18.1's
    /// `serate` figures (ER/EP/ED) and the hardest technique (SE's name
    /// but for its "2 Strong links 001": a turbot fish).
    const RATED: &[(&str, &str, &str)] = &[
        (
            "...5.4.8....16.4.5.7.9.......96..5..1.....9........6....4..8..16.2.57....3.......",
            "1.2/1.2/1.2",
            "Hidden Single",
        ),
        (
            "..81....6...7....1..........2.6....8.7..2.4..6..8.7.....4....3......3....12.4..89",
            "1.5/1.2/1.2",
            "Hidden Single",
        ),
        (
            "......5...6.47......9.....23.5.....72.1.....8.8.2...597.........4....96.....2...1",
            "1.5/1.5/1.5",
            "Hidden Single",
        ),
        (
            ".7.8..32.2.3.......5.....1..85..9...3...718.46......3...1.84.......1.4.....3....6",
            "1.7/1.2/1.2",
            "Direct Pointing",
        ),
        (
            ".......571...65...6.7....48..625.....7....4.....6.8..2.....18..9.4......86.3.....",
            "2.0/1.2/1.2",
            "Direct Hidden Pair",
        ),
        (
            "6...5.2.974.....6.....1......3247....89.............5.9...8.6.......2831.1.......",
            "2.3/1.2/1.2",
            "Naked Single",
        ),
        (
            "..1..8..7.58.7...3...3.148...7...5....3....2......2.1..4...7....3..4....2....9...",
            "2.5/1.2/1.2",
            "Direct Hidden Triplet",
        ),
        (
            "8....324...32.7.......96....3.....689.2......56....9......1..29.1..2.3.56.9......",
            "2.6/1.2/1.2",
            "Pointing",
        ),
        (
            "58..4.........9..8...........9.531.....4.7..94..2.6.3.8.5....2...7.....3.2..3..14",
            "2.8/1.2/1.2",
            "Claiming",
        ),
        (
            "1....5.9..86.7...........5..4.6...73.....941..39.4...........3.3....28.56......2.",
            "3.2/1.2/1.2",
            "X-Wing",
        ),
        (
            "..8..41...17....2424........2...3..9..54........8.5.6....3.7.5.1..5.....5.92...3.",
            "3.4/1.2/1.2",
            "Hidden Pair",
        ),
        (
            ".5...4..6..78.......3..179...63..4.5.....9.....1....7...9.8.51....4.2...7...5....",
            "4.0/1.2/1.2",
            "Skyscraper",
        ),
        (
            "..9..1.......5...2..13.6.9...3.7.4..7.51.483.2..6...........5....7.....883...72..",
            "4.1/1.2/1.2",
            "Turbot Fish",
        ),
        (
            "..41..9....8....5.9.7..2.....5.......79...8.6.....34.....2.5.8..5..18.3..6.93....",
            "4.2/1.2/1.2",
            "XY-Wing",
        ),
        (
            ".......4...7.32.....86..1.........3.1..98.4..6.....95.2.1.9..7..9..7...2.4..2..8.",
            "4.3/1.2/1.2",
            "Grouped Skyscraper",
        ),
        (
            "....5...392...6.7.1.6...........49.5...63.....8..9.....9....8....3.8..5...75...61",
            "4.4/1.2/1.2",
            "XYZ-Wing",
        ),
    ];

    #[test]
    fn ratings_are_sudoku_explainers_on_puzzles_it_rated() {
        for &(line, figures, technique) in RATED {
            let p: Puzzle = line.parse().unwrap();
            let e = agrees(&p);
            assert!(e.solved, "{line}");
            assert_eq!(e.rating_line(), format!("{figures} {technique}"), "{line}");
        }
    }

    #[test]
    fn a_hint_is_the_first_step_and_none_on_a_full_grid() {
        let (line, _, _) = RATED[13];
        let p: Puzzle = line.parse().unwrap();
        let first = explain(&p).unwrap().steps.remove(0);
        assert_eq!(hint(&p, &Until::default()).unwrap(), Some(first));
        let solved = Sudoku::default().solve(&p, &Limits::count_to(1)).unwrap();
        let full = Puzzle::new(p.shared_rules().clone(), solved.solution.unwrap()).unwrap();
        assert_eq!(hint(&full, &Until::default()).unwrap(), None);
    }

    #[test]
    fn jigsaws_and_small_grids_are_explained() {
        use crate::sudoku::rules::Rules;
        // A 4x4 and a 6x6 (2x3 boxes) from the generator's seeds.
        use crate::sudoku::generate::Generator;
        use crate::sudoku::SudokuMatrix;
        let cover = SudokuMatrix::new(2).unwrap();
        for seed in 0..20 {
            let p = Puzzle::classic(&Generator::new(&cover, seed).puzzle());
            assert!(agrees(&p).solved);
        }
        // A jigsaw (regions: each pair of rows split down the middle) with
        // one cell of each row and column left empty: full houses.
        let regions: Vec<usize> = (0..16).map(|k| (k / 8) * 2 + (k % 4) / 2).collect();
        let rules = Rules::jigsaw(&regions).unwrap();
        let empty = Puzzle::new(rules.clone(), vec![0; 16]).unwrap();
        let solved = Sudoku::default()
            .solve(&empty, &Limits::count_to(1))
            .unwrap();
        let mut givens = solved.solution.unwrap();
        for k in [0, 5, 10, 15] {
            givens[k] = 0;
        }
        let e = agrees(&Puzzle::new(rules, givens).unwrap());
        assert!(e.solved && e.steps.len() == 4);
        assert!(e.steps.iter().all(|s| s.technique == "Full House"));
        let knight = Puzzle::new(Rules::boxes(3, 3).unwrap().anti_knight(), vec![0; 81]).unwrap();
        assert_eq!(explain(&knight), Err(ExplainError::NotUnique));
        // Clashing givens have no solution.
        let mut clash = vec![0u8; 81];
        (clash[0], clash[1]) = (5, 5);
        let rules = Rules::boxes(3, 3).unwrap();
        assert!(matches!(
            Puzzle::new(rules, clash).map(|p| explain(&p)),
            Err(_) | Ok(Err(ExplainError::NoSolution))
        ));
    }

    /// Unique puzzles of every constraint kind the tests make (each three
    /// times, 4x4 twice and 6x6 once, one or two constraints, givens taken away while the puzzle
    /// stays unique): every step agrees with the solution, and the
    /// constraints' own steps are among them.
    #[test]
    fn every_step_agrees_with_the_solution_on_variant_puzzles() {
        use crate::sudoku::constraints::tests::{make, solution, MADE};
        use crate::sudoku::rules::Rules;
        use rand::seq::SliceRandom;
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(87);
        let mut named = std::collections::BTreeSet::new();
        let (mut explained, mut solved) = (0, 0);
        // Steps named after constraints, looked for below.
        let kinds = [
            "killer cage",
            "thermometer",
            "arrow",
            "little killer",
            "sandwich",
        ];
        // Each kind first three times, once on 6x6; laps more, to three
        // more, until a step of each of `kinds` is seen (whether one is
        // depends on the puzzles drawn).
        for case in 0..6 * MADE.len() {
            if case >= 3 * MADE.len() && kinds.iter().all(|k| named.contains(k)) {
                break;
            }
            let (rows, cols) = if (case % MADE.len() + case / MADE.len()) % 3 == 2 {
                (2, 3)
            } else {
                (2, 2)
            };
            let n = rows * cols;
            let sol = solution(rows, cols, &mut rng);
            let mut rules = Rules::boxes(rows, cols).unwrap();
            for i in [case % MADE.len(), rng.gen_range(0..MADE.len())] {
                rules = rules
                    .clone()
                    .with_shared(make(MADE[i], n, &sol, &mut rng))
                    .unwrap_or(rules);
            }
            let empty = Puzzle::new(rules.clone(), vec![0; n * n]).unwrap();
            let one = Sudoku::default().solve(&empty, &Limits::count_to(1));
            let Some(grid) = one.unwrap().solution else {
                continue;
            };
            let mut givens = grid.clone();
            let mut order: Vec<usize> = (0..n * n).collect();
            order.shuffle(&mut rng);
            for k in order {
                let d = std::mem::take(&mut givens[k]);
                let p = Puzzle::new(rules.clone(), givens.clone()).unwrap();
                let count = Sudoku::default().solve(&p, &Limits::count_to(2)).unwrap();
                if count.answer.status() != Status::Unique {
                    givens[k] = d;
                }
            }
            let p = Puzzle::new(rules, givens).unwrap();
            let until = Until {
                deadline: Some(Instant::now() + std::time::Duration::from_secs(5)),
                cancel: None,
            };
            let e = explain_until(&p, &until).unwrap();
            for s in &e.steps {
                for m in &s.place {
                    assert_eq!(grid[m.cell], m.digit, "{}", s.text);
                }
                for m in &s.eliminate {
                    assert_ne!(grid[m.cell], m.digit, "{}", s.text);
                }
                assert!(!s.place.is_empty() || !s.eliminate.is_empty(), "{}", s.text);
                named.insert(s.technique);
            }
            explained += 1;
            solved += usize::from(e.solved);
        }
        assert!(explained >= MADE.len(), "{explained}");
        for kind in kinds {
            assert!(named.contains(kind), "{kind}: {named:?}");
        }
        assert!(solved * 10 >= explained * 9, "{solved} of {explained}");
    }

    #[test]
    fn every_step_agrees_with_the_solution_on_generated_puzzles() {
        use crate::sudoku::generate::Generator;
        use crate::sudoku::SudokuMatrix;
        let cover = SudokuMatrix::new(3).unwrap();
        let mut stuck = 0;
        for seed in 0..200 {
            let grid = Generator::new(&cover, seed).puzzle();
            let e = agrees(&Puzzle::classic(&grid));
            stuck += usize::from(!e.solved);
        }
        // The chains finish every one of these.
        assert_eq!(stuck, 0);
    }
}
