//! A rule set's exact-cover matrix ([`RulesMatrix`]): the whole one and,
//! where the sum bounds enforce some constraints alone, the lean one; the
//! propagators the search runs over them and the [`Strategy`] it branches
//! by (each propagator's wish, joined); and a solution back (see the
//! module documentation of [`rules`](super)).

use std::sync::Arc;

use super::{sorted, Rules};
use crate::dlx::{BuildError, ItemId, Matrix, MatrixBuilder, OptionId, Propagator, Strategy};
use crate::sudoku::constraints::{self, Constraint, Encoder};

/// Propagators run one after the other, to the first dead end, each with
/// its own words of the state ([`Live::state`](crate::dlx::Live::state)),
/// one after the other. One that asks for none (the pair arcs, the set
/// groups) is handed the live matrix itself, not a part whose forwarding
/// is a call more for every candidate it reads.
#[derive(Debug)]
struct Each(Vec<Arc<dyn Propagator>>);

impl Propagator for Each {
    fn propagate(&self, live: &mut dyn crate::dlx::Live) -> bool {
        let mut from = 0;
        self.0.iter().all(|p| {
            let to = from + p.state_words();
            if to == from {
                return p.propagate(live);
            }
            let mut part = crate::dlx::StatePart { live, from, to };
            from = to;
            p.propagate(&mut part)
        })
    }

    /// Theirs, one after the other.
    fn state_words(&self) -> usize {
        self.0.iter().map(|p| p.state_words()).sum()
    }
}

/// A propagator that enforces the sums of the constraints a lean matrix
/// leaves out ([`Propagator::enforces`]): the rule set's propagator, asked
/// at every solution as well.
#[derive(Debug)]
struct Enforcing(Arc<dyn Propagator>);

impl Propagator for Enforcing {
    fn propagate(&self, live: &mut dyn crate::dlx::Live) -> bool {
        self.0.propagate(live)
    }

    fn enforces(&self) -> bool {
        true
    }

    fn state_words(&self) -> usize {
        self.0.state_words()
    }
}

/// The matrix a search that runs the sum bounds takes: the rule set's
/// without the constraints the bounds enforce alone.
#[derive(Debug)]
struct Lean {
    matrix: Arc<Matrix>,
    pins: Vec<OptionId>,
    /// The rule set's propagator, [`Enforcing`].
    propagator: Arc<dyn Propagator>,
}

/// Which of a rule set's matrices a search takes (see [`RulesMatrix`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// Every rule in the matrix.
    Whole,
    /// The constraints the sum bounds enforce left out.
    Lean,
}

/// The exact-cover matrix of a rule set, built once and shared by its
/// puzzles.
///
/// Two matrices where the rule set has constraints whose sums the sum
/// bounds take (little killers, arrows with a one-cell circle) or that
/// are said by automata alone ([`Encoder::chain`]: sandwiches, pill
/// arrows, between lines …), which the chain runs take
/// (`constraints/chains.rs`): the
/// *whole* matrix encodes every rule ([`matrix`](Self::matrix): what any
/// engine may search); the *lean* one leaves
/// those constraints out, and a search over it must run the propagator,
/// which then [enforces](Propagator::enforces) them (asked at every
/// solution). An automaton (an option a step, state and digit; items
/// chaining the steps) is the costliest part of its matrix to search,
/// and the bounds prune as much: ISS's LITTLE_KILLER_SNIPES 4–6× faster a
/// guess, about the same guesses (BENCHMARKS.md, "Little killers as
/// sums"); the runs prune more (a state no run through the candidates
/// reaches goes), "Sandwich snipe 18" in 1.7 s against over 30
/// (BENCHMARKS.md, "Chain runs"). The two share the cell options
/// (`k·n + d − 1`); their pins differ.
#[derive(Debug)]
pub struct RulesMatrix {
    rules: Rules,
    /// Shared with the solvers that own what they search.
    matrix: Arc<Matrix>,
    /// The options preselected with every puzzle's givens (the pin).
    pins: Vec<OptionId>,
    /// What the search runs at nodes where nothing is forced: arc
    /// consistency over pair relations
    /// ([`PairArcs`](constraints::pairs::PairArcs)), the live sets of
    /// digit-set groups ([`SetGroups`](constraints::sets::SetGroups)) and
    /// bounds on the sums
    /// the 45 rule derives that the matrix does not take
    /// ([`SumBounds`](constraints::sum_bounds::SumBounds)), and the runs
    /// of the automata the sum bounds do not take
    /// ([`Chains`](constraints::chains::Chains)), if any.
    propagator: Option<Arc<dyn Propagator>>,
    /// How a search that runs the propagator branches (each propagator's
    /// wish, `Strategy::and`).
    strategy: Strategy,
    /// The lean matrix, where the rules have constraints the sum bounds or
    /// the chain runs enforce.
    lean: Option<Lean>,
    /// The whole matrix's items each constraint made.
    owners: Vec<Owned>,
}

/// The rules' constraints and the derived cages, encoded, but for those
/// `left_out` says.
fn encode<'r>(
    rules: &'r Rules,
    derived: &[Arc<dyn Constraint>],
    left_out: impl Fn(&Arc<dyn Constraint>) -> bool,
) -> Encoder<'r> {
    let mut e = Encoder::new(rules);
    // Encoded in the order of the registry, then as added.
    let mut order: Vec<&Arc<dyn Constraint>> = rules.constraints.iter().collect();
    order.sort_by_key(|c| constraints::order(c.kind()));
    for c in order.into_iter().filter(|c| !left_out(c)) {
        // A constraint whose sums the propagator bounds may encode its
        // automata in the hub form (kept within the masks engine, which
        // alone propagates).
        e.bounded = !c.sums().is_empty();
        e.encode_owned(c, false);
    }
    e.bounded = false;
    for derived in derived {
        e.encode_owned(derived, true);
    }
    e
}

/// A constraint's items in the whole matrix ([`RulesMatrix::owners`]).
#[derive(Clone, Debug)]
pub(crate) struct Owned {
    pub(crate) constraint: Arc<dyn Constraint>,
    /// Derived from the rules (the 45 rule), not one of them.
    pub(crate) derived: bool,
    pub(crate) items: Vec<ItemId>,
}

/// The matrix of what `e` encoded and its pins.
fn assemble(rules: &Rules, e: &Encoder<'_>) -> Result<(Matrix, Vec<OptionId>), BuildError> {
    let n = rules.side;
    let nn = n * n;
    let voids: Vec<constraints::Item> = e.voids().collect();
    let primary = 4 * nn + e.primary + usize::from(!voids.is_empty());
    let id = |item: constraints::Item| -> ItemId {
        let (p, i) = item.parts();
        ItemId::must(if p { 4 * nn + i } else { primary + i })
    };
    let mut b = MatrixBuilder::new();
    b.primary_items(primary)?;
    if e.secondary > 0 {
        b.secondary_items(e.secondary)?;
    }
    let mut items: Vec<ItemId> = Vec::new();
    for k in 0..nn {
        let (r, c, x) = (k / n, k % n, rules.regions[k]);
        for d in 0..n {
            items.clear();
            items.extend(
                [k, nn + r * n + d, 2 * nn + c * n + d, 3 * nn + x * n + d].map(ItemId::must),
            );
            items.extend(e.cell_items[k * n + d].iter().map(|&i| id(i)));
            b.option(&items)?;
        }
    }
    for option in &e.options {
        items.clear();
        items.extend(option.iter().map(|&i| id(i)));
        b.option(&items)?;
    }
    let mut pins = Vec::new();
    if !voids.is_empty() {
        // The pin, the last primary item.
        items.clear();
        items.push(ItemId::must(primary - 1));
        items.extend(voids.iter().map(|&v| id(v)));
        pins.push(b.option(&items)?);
    }
    Ok((b.build()?, pins))
}

impl RulesMatrix {
    pub(super) fn new(rules: Rules) -> Result<RulesMatrix, BuildError> {
        let n = rules.side;
        // What the 45 rule derives from the cages, implied by the rules:
        // more cages and sums for the search, never part of the rules.
        let (derived, mut sums) = constraints::derive::derive(&rules);
        // And the sums the rules say over cells that may repeat a digit
        // (little killers), bounded by the same propagator; a constraint
        // whose sums it bounds, every one, is left out of the lean matrix
        // (the bounds are exact once the cells are placed).
        let said = |c: &Arc<dyn Constraint>| {
            c.sums()
                .into_iter()
                .map(|(plus, minus, total)| constraints::derive::SignedSum {
                    plus,
                    minus,
                    total,
                    distinct: false,
                })
                .collect::<Vec<_>>()
        };
        let left_out = |c: &Arc<dyn Constraint>| {
            let own = said(c);
            !own.is_empty()
                && own
                    .iter()
                    .all(|s| constraints::sum_bounds::SumBounds::takes(n, s))
        };
        // Sums the rules say over cells that may repeat a digit, nothing
        // subtracted (little killers): the search branches on house pairs.
        let mut loose = false;
        for c in &rules.constraints {
            let own = said(c);
            loose |= own.iter().any(|s| s.minus.is_empty());
            sums.extend(own);
        }
        let e = encode(&rules, &derived, |_| false);
        // Constraints said by automata alone, which the chain runs enforce
        // exactly: out of the lean matrix too.
        let alone: Vec<Arc<dyn Constraint>> = e
            .owners
            .iter()
            .filter(|o| o.runs_alone && !o.derived)
            .map(|o| Arc::clone(&o.constraint))
            .collect();
        let out_of_lean =
            |c: &Arc<dyn Constraint>| left_out(c) || alone.iter().any(|a| Arc::ptr_eq(a, c));
        let mut propagators: Vec<Arc<dyn Propagator>> = Vec::new();
        // How the search branches, each propagator's wish taken
        // (`Strategy::and`).
        let mut strategy: Option<Strategy> = None;
        let mut wish = |s: Strategy| strategy = Some(strategy.map_or(s, |t| t.and(s)));
        // Digit-set groups (renban lines) the sum bounds do not watch: a
        // summed cage's sets are theirs.
        let watched: Vec<Vec<usize>> = sums
            .iter()
            .filter(|s| s.distinct && s.minus.is_empty())
            .map(|s| sorted(&s.plus))
            .collect();
        let groups: Vec<(Vec<usize>, Vec<u64>)> = e
            .sets
            .iter()
            .filter(|(cells, _)| !watched.contains(&sorted(cells)))
            .cloned()
            .collect();
        // Pair relations (thermometers, dots, clones …, and the pairs a
        // group's sets imply: two cells of a 3-cell renban differ by 1 or
        // 2) arc consistent first: cheap, and what they cut the rest see.
        let mut pairs = e.pairs.clone();
        pairs.extend(constraints::sets::implied_pairs(n, &groups));
        if let Some(p) = constraints::pairs::PairArcs::new(n, &pairs, |a, b| e.sees(a, b)) {
            wish(p.strategy());
            propagators.push(Arc::new(p));
        }
        // Cells that never hold the same digit beyond the houses: a pair
        // relation that allows no digit beside itself (anti-king …).
        let differ: Vec<(usize, usize)> = e
            .pairs
            .iter()
            .filter(|(_, _, allowed)| allowed.iter().enumerate().all(|(x, &m)| m >> x & 1 == 0))
            .map(|&(a, b, _)| (a, b))
            .collect();
        if let Some(p) = constraints::sets::SetGroups::new(n, &groups, &rules.regions, &differ) {
            wish(p.strategy());
            propagators.push(Arc::new(p));
        }
        // The automata, but those of constraints the sum bounds enforce
        // (little killers: the bounds cut as much, at a fraction of the
        // cost).
        let runs: Vec<&constraints::Run> = e
            .owners
            .iter()
            .filter(|o| !left_out(&o.constraint))
            .flat_map(|o| &e.runs[o.runs.clone()])
            .collect();
        if let Some(p) = constraints::chains::Chains::new(n, &runs) {
            propagators.push(Arc::new(p));
        }
        if let Some(p) = constraints::sum_bounds::SumBounds::new(n, &rules.regions, &sums) {
            let p = p.with_pairs(loose);
            wish(p.strategy());
            propagators.push(Arc::new(p));
        }
        let strategy = strategy.unwrap_or_default();
        let propagator = match propagators.len() {
            0 => None,
            1 => propagators.pop(),
            _ => Some(Arc::new(Each(propagators)) as Arc<dyn Propagator>),
        };
        let (matrix, pins) = assemble(&rules, &e)?;
        let nn = n * n;
        let primary = 4 * nn + e.primary + usize::from(e.voids().next().is_some());
        let owners = e
            .owners
            .iter()
            .map(|o| Owned {
                constraint: Arc::clone(&o.constraint),
                derived: o.derived,
                items: o
                    .primary
                    .clone()
                    .map(|i| 4 * nn + i)
                    .chain(o.secondary.clone().map(|i| primary + i))
                    .map(ItemId::must)
                    .collect(),
            })
            .collect();
        // The pairs and sets the left-out constraints met stay in the
        // propagator: they are the rules' (the lean matrix's encoder is
        // asked for nothing but its matrix).
        let lean = match &propagator {
            Some(p) if rules.constraints.iter().any(out_of_lean) => {
                let e = encode(&rules, &derived, out_of_lean);
                let (matrix, pins) = assemble(&rules, &e)?;
                Some(Lean {
                    matrix: Arc::new(matrix),
                    pins,
                    propagator: Arc::new(Enforcing(p.clone())),
                })
            }
            _ => None,
        };
        Ok(RulesMatrix {
            rules,
            matrix: Arc::new(matrix),
            pins,
            propagator,
            strategy,
            lean,
            owners,
        })
    }

    /// The items of the whole matrix each constraint made (derived ones
    /// last).
    pub(crate) fn owners(&self) -> &[Owned] {
        &self.owners
    }

    /// The options preselected with every puzzle's givens: the pin that
    /// bans the candidates constraints rule out (odd, even, …), if any.
    pub fn pins(&self) -> &[OptionId] {
        &self.pins
    }

    /// Whether there is a lean matrix (see the type's documentation).
    pub(crate) fn has_lean(&self) -> bool {
        self.lean.is_some()
    }

    /// The matrix of `form` (the whole one where there is no lean one),
    /// shared.
    pub(crate) fn matrix_in(&self, form: Form) -> &Arc<Matrix> {
        match (&self.lean, form) {
            (Some(lean), Form::Lean) => &lean.matrix,
            _ => &self.matrix,
        }
    }

    /// The pins of the matrix of `form`.
    pub(crate) fn pins_in(&self, form: Form) -> &[OptionId] {
        match (&self.lean, form) {
            (Some(lean), Form::Lean) => &lean.pins,
            _ => &self.pins,
        }
    }

    /// What a search of the matrix of `form` runs at nodes where nothing
    /// is forced, beyond the matrix (pair arcs, renban runs, sum bounds on
    /// a killer puzzle's derived sums and little killers), if anything:
    /// over the lean matrix it must (it enforces what that one leaves
    /// out).
    pub(crate) fn propagator_in(&self, form: Form) -> Option<Arc<dyn Propagator>> {
        match (&self.lean, form) {
            (Some(lean), Form::Lean) => Some(lean.propagator.clone()),
            _ => self.propagator.clone(),
        }
    }

    /// How a search that runs the propagator branches, over either matrix.
    pub(crate) fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The rules this matrix is for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The exact-cover matrix.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The exact-cover matrix, shared (for a solver that owns what it
    /// searches).
    pub fn shared_matrix(&self) -> Arc<Matrix> {
        self.matrix.clone()
    }

    /// The option putting digit `d` (1..=n) in cell `k` (row-major).
    pub fn option(&self, k: usize, d: u8) -> OptionId {
        OptionId::must(k * self.rules.side + d as usize - 1)
    }

    /// The grid a solution's options describe (0 where no option says).
    pub fn grid_of(&self, solution: impl IntoIterator<Item = OptionId>) -> Vec<u8> {
        let n = self.rules.side;
        let mut cells = vec![0u8; n * n];
        for o in solution {
            let i = o.as_usize();
            if i < n * n * n {
                cells[i / n] = (i % n + 1) as u8;
            }
        }
        cells
    }

    /// Counts the solutions of the puzzle `givens` (row-major, 0 for an
    /// empty cell) up to `limit`, and returns the first. Givens that clash
    /// (or a digit past n) have no solution. The tests' plain count, beside
    /// [`Sudoku::solve`](crate::sudoku::Sudoku::solve)'s strategy.
    #[cfg(test)]
    pub(crate) fn count(&self, givens: &[u8], limit: u64) -> (crate::dlx::Count, Option<Vec<u8>>) {
        let mut s = crate::sudoku::DlxSudoku::on_rules(self);
        let mut first = Vec::new();
        let limits = crate::sudoku::Limits::count_to(limit);
        let answer = s.solve_cells(givens, &limits, &mut first);
        let count = crate::dlx::Count {
            solutions: answer.solutions,
            complete: answer.complete,
        };
        (count, (answer.solutions > 0).then_some(first))
    }
}
