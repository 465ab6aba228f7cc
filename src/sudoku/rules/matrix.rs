//! A rule set's exact-cover matrix ([`RulesMatrix`]): the one searches
//! take (the lean one where the propagators enforce some constraints
//! alone, else the whole one), and the whole one built when first asked;
//! the propagators the search runs over them and the [`Strategy`] it branches
//! by (each propagator's wish, joined); and a solution back (see the
//! module documentation of [`rules`](super)).

use std::sync::{Arc, OnceLock};

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

/// The whole matrix, where there is a lean one: built the first time it
/// is asked for (Knuth's rule, the logic engine, a random solution), from
/// the rules encoded again.
#[derive(Debug)]
struct Whole {
    /// The 45 rule's cages, encoded after the rules'.
    derived: Vec<Arc<dyn Constraint>>,
    matrix: OnceLock<Result<Arc<Matrix>, BuildError>>,
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
/// Two forms where the rule set has constraints whose sums the sum
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
/// (`k·n + d − 1`); their pins differ. Only the matrix searches take is
/// built with the rule set; the whole one, where there is a lean one, is
/// built when first asked for ([`matrix`](Self::matrix)): searches that
/// propagate never ask ("Triple digits", three pill arrows of 25–29
/// cells, 140 MB to 78 MB).
#[derive(Debug)]
pub struct RulesMatrix {
    rules: Rules,
    /// The matrix searches take (the lean one where there is one), shared
    /// with the solvers that own what they search.
    searched: Arc<Matrix>,
    /// The whole matrix: built with the rule set where there is no lean
    /// matrix (then `searched`), else when first asked for.
    whole: Whole,
    /// The options of the whole matrix preselected with every puzzle's
    /// givens (the pin).
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
        // A constraint the sum bounds enforce (out of the lean matrix) may
        // encode its automata in the hub form, where it makes fewer nodes.
        e.bounded = bounds_enforce(rules.side, c);
        e.encode_owned(c, false);
    }
    e.bounded = false;
    for derived in derived {
        e.encode_owned(derived, true);
    }
    e
}

/// The sums a constraint says ([`Constraint::sums`]), as the sum bounds
/// take them.
fn said(c: &Arc<dyn Constraint>) -> Vec<constraints::derive::SignedSum> {
    c.sums()
        .into_iter()
        .map(|(plus, minus, total)| constraints::derive::SignedSum {
            plus,
            minus,
            total,
            distinct: false,
        })
        .collect()
}

/// Whether the sum bounds enforce constraint `c` on a grid of side `n`
/// alone: it says sums, and the bounds take every one (they are exact
/// once the cells are placed), so it is left out of the lean matrix.
fn bounds_enforce(n: usize, c: &Arc<dyn Constraint>) -> bool {
    let own = said(c);
    !own.is_empty()
        && own
            .iter()
            .all(|s| constraints::sum_bounds::SumBounds::takes(n, s))
}

/// A constraint's items in the whole matrix ([`RulesMatrix::owners`]).
#[derive(Clone, Debug)]
pub(crate) struct Owned {
    pub(crate) constraint: Arc<dyn Constraint>,
    /// Derived from the rules (the 45 rule), not one of them.
    pub(crate) derived: bool,
    pub(crate) items: Vec<ItemId>,
}

/// The pins of the matrix of what `e` encoded: the pin option, last, if
/// a constraint bans candidates.
fn pins_of(rules: &Rules, e: &Encoder<'_>) -> Vec<OptionId> {
    let n = rules.side;
    let options = n * n * n + e.options.len();
    match e.voids().next() {
        Some(_) => vec![OptionId::must(options)],
        None => Vec::new(),
    }
}

/// The matrix of what `e` encoded (its pins: [`pins_of`]).
fn assemble(rules: &Rules, e: &Encoder<'_>) -> Result<Matrix, BuildError> {
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
    if !voids.is_empty() {
        // The pin, the last primary item, in the last option.
        items.clear();
        items.push(ItemId::must(primary - 1));
        items.extend(voids.iter().map(|&v| id(v)));
        b.option(&items)?;
    }
    b.build()
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
        // ([`bounds_enforce`]).
        let left_out = |c: &Arc<dyn Constraint>| bounds_enforce(n, c);
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
        let pins = pins_of(&rules, &e);
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
        let whole = Whole {
            derived,
            matrix: OnceLock::new(),
        };
        let (searched, lean) = match &propagator {
            Some(p) if rules.constraints.iter().any(out_of_lean) => {
                drop(e);
                let e = encode(&rules, &whole.derived, out_of_lean);
                let matrix = Arc::new(assemble(&rules, &e)?);
                let pins = pins_of(&rules, &e);
                let lean = Lean {
                    matrix: Arc::clone(&matrix),
                    pins,
                    propagator: Arc::new(Enforcing(p.clone())),
                };
                (matrix, Some(lean))
            }
            _ => {
                let matrix = Arc::new(assemble(&rules, &e)?);
                let _ = whole.matrix.set(Ok(Arc::clone(&matrix)));
                (matrix, None)
            }
        };
        Ok(RulesMatrix {
            rules,
            searched,
            whole,
            pins,
            propagator,
            strategy,
            lean,
            owners,
        })
    }

    /// The whole matrix, built the first time it is asked for.
    fn whole(&self) -> Result<&Arc<Matrix>, BuildError> {
        let built = self.whole.matrix.get_or_init(|| {
            let e = encode(&self.rules, &self.whole.derived, |_| false);
            assemble(&self.rules, &e).map(Arc::new)
        });
        built.as_ref().map_err(Clone::clone)
    }

    /// Whether the whole matrix has been built (a test's question).
    #[cfg(test)]
    pub(crate) fn whole_built(&self) -> bool {
        self.whole.matrix.get().is_some()
    }

    /// The items of the whole matrix each constraint made (derived ones
    /// last).
    pub(crate) fn owners(&self) -> &[Owned] {
        &self.owners
    }

    /// The options of the whole matrix ([`matrix`](Self::matrix))
    /// preselected with every puzzle's givens: the pin that bans the
    /// candidates constraints rule out (odd, even, …), if any. Known
    /// without building the matrix.
    pub fn pins(&self) -> &[OptionId] {
        &self.pins
    }

    /// Whether there is a lean matrix (see the type's documentation).
    pub(crate) fn has_lean(&self) -> bool {
        self.lean.is_some()
    }

    /// The matrix of `form` (the whole one where there is no lean one),
    /// shared; the whole one is built the first time it is asked for.
    pub(crate) fn matrix_in(&self, form: Form) -> Result<&Arc<Matrix>, BuildError> {
        match (&self.lean, form) {
            (Some(lean), Form::Lean) => Ok(&lean.matrix),
            _ => self.whole(),
        }
    }

    /// The matrix searches take (the lean one where there is one, else
    /// the whole one), shared.
    pub(crate) fn searched(&self) -> &Arc<Matrix> {
        &self.searched
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

    /// The exact-cover matrix of every rule: what Knuth's rule searches
    /// (DLX1's input), the logic engine reasons over and
    /// [`knuth::write`](crate::knuth::write) writes. Where searches take a
    /// lean matrix (see the type's documentation), it is built the first
    /// time it is asked for, and a builder's error is said then.
    pub fn matrix(&self) -> Result<&Matrix, BuildError> {
        self.whole().map(|m| &**m)
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
