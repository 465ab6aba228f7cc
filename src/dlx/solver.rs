//! The front door: [`Solver`], one search over a [`Matrix`] by the engine
//! the library chose, or by the one a [`Config`] asks for.
//!
//! `Solver::new(&matrix)` builds the tables of the fastest engine that
//! honours Knuth's rule ([`EngineTables::auto`]) and owns them; its
//! counters are DLX1's. [`Solver::with_config`] names an engine, a rule or a
//! budget; an engine that cannot take the matrix or the rule is an
//! [`EngineError`], never a silent substitution, and so is a later
//! [`Solver::set_branching`] to a rule the engine does not take.
//!
//! Every query goes to the engine with one match per call, never per node:
//! each engine's own `next_solution` runs the one driver monomorphised for
//! its kernel. The engines' own solver types ([`LinksSolver`],
//! [`DenseSolver`], [`BitsSolver`], [`MasksSolver`]) stay available for
//! what only one of them offers (the links engine's `check_links`, say).

use super::engine::{Inner, Shared};
use super::search::driver::Driver;
use super::{
    Branching, Budget, EngineError, EngineKind, EngineTables, Estimate, Matrix, OptionId,
    PreselectError, Propagator, Stats, Step, Strategy,
};
use std::sync::Arc;

/// How long a search would take ([`Solver::forecast`]): Knuth's estimate of
/// its tree, and the node rate measured by running the search itself.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Forecast {
    /// The estimate of the tree below the preselected options.
    pub estimate: Estimate,
    /// The probes' time, in seconds.
    pub probe_seconds: f64,
    /// Nodes a second, measured on the search (its engine and rule).
    pub nodes_per_second: f64,
    /// The estimated time of the whole search on one thread, in seconds:
    /// the estimated nodes at the measured rate.
    pub seconds: f64,
    /// The measuring run's counters: exact figures when it `finished`.
    pub measured: Stats,
    /// The measuring run's time, in seconds.
    pub measure_seconds: f64,
    /// Whether the measuring run searched the whole tree.
    pub finished: bool,
}

/// What a [`Solver`] is asked to be: an engine (`None`: the library
/// chooses), a branching rule (`None`: Knuth's) and a budget.
///
/// ```
/// use dlx::{problems::queens, Branching, Config, EngineKind, Solver};
///
/// let m = queens(8).unwrap();
/// let config = Config::new().engine(EngineKind::Dense).branching(Branching::FirstForced);
/// let mut s = Solver::with_config(&m, config).unwrap();
/// assert_eq!(s.count().solutions, 92);
/// // Bits takes Knuth's rule only: first-forced is refused, by name.
/// let config = Config::new().engine(EngineKind::Bits).branching(Branching::FirstForced);
/// assert!(Solver::with_config(&m, config).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    engine: Option<EngineKind>,
    branching: Option<Branching>,
    budget: Budget,
    jobs: usize,
    strategy: Strategy,
}

impl Config {
    /// The library's engine, Knuth's rule, no budget.
    pub fn new() -> Config {
        Config::default()
    }

    /// Asks for `engine`.
    pub fn engine(mut self, engine: EngineKind) -> Config {
        self.engine = Some(engine);
        self
    }

    /// Asks for the branching rule `branching`.
    pub fn branching(mut self, branching: Branching) -> Config {
        self.branching = Some(branching);
        self
    }

    /// Limits every search to `budget`.
    pub fn budget(mut self, budget: Budget) -> Config {
        self.budget = budget;
        self
    }

    /// Counts ([`Solver::count`]) and finds the cheapest ([`Solver::best`])
    /// on `jobs` threads (0 and 1: the calling thread). The search is cut
    /// into subtrees that the threads share; the count is the same, and with
    /// Knuth's rule the nodes and updates too. Threads are used where a
    /// query runs the whole tree from the root: nothing preselected, no
    /// node or update budget (a budget is one search's; the deadline and the
    /// cancel handle stop every thread), and for `count_up_to` no limit.
    ///
    /// ```
    /// use dlx::{problems::queens, Config, Solver};
    ///
    /// let m = queens(9).unwrap();
    /// let mut s = Solver::with_config(&m, Config::new().jobs(2)).unwrap();
    /// assert_eq!(s.count().solutions, 352);
    /// let mut one = Solver::new(&m);
    /// one.count();
    /// assert_eq!(s.stats(), one.stats()); // the same search, split
    /// ```
    pub fn jobs(mut self, jobs: usize) -> Config {
        self.jobs = jobs;
        self
    }

    /// Branches as `strategy` says where a propagator is set
    /// ([`Solver::set_propagator`]); see [`Strategy`].
    pub fn strategy(mut self, strategy: Strategy) -> Config {
        self.strategy = strategy;
        self
    }

    /// The rule asked for: the one named, else the named engine's own
    /// ([`EngineKind::default_rule`]: Knuth's, first-forced for bands),
    /// else Knuth's.
    pub fn rule(&self) -> Branching {
        self.branching.unwrap_or_else(|| {
            self.engine
                .map_or(Branching::Knuth, EngineKind::default_rule)
        })
    }

    /// The tables of the engine this asks for on `matrix` (the library's
    /// choice when it names none), with the rule: what [`Solver::with_config`]
    /// builds, and what [`count_parallel`](crate::dlx::count_parallel) takes
    /// (through [`EngineTables::engine`]).
    pub fn tables(&self, matrix: &Matrix) -> Result<(EngineTables, Branching), EngineError> {
        let branching = self.rule();
        if branching == Branching::Lookahead && matrix.has_bounds() {
            return Err(EngineError::matrix(
                self.engine.unwrap_or(EngineKind::Links),
                "lookahead does not take multiplicities (DLX3's u:v|); knuth and first-forced do",
            ));
        }
        let tables = match self.engine {
            None => EngineTables::auto(matrix, branching),
            Some(kind) => EngineTables::build(matrix, kind, branching)?,
        };
        Ok((tables, branching))
    }
}

/// A solver's propagator and strategy, for the solvers of its threads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Steering {
    pub(crate) propagator: Option<Arc<dyn Propagator>>,
    pub(crate) strategy: Strategy,
}

impl Steering {
    /// Sets them on `s`, a solver by the engine and rule of the solver
    /// they were taken from, which took them: so does `s`.
    pub(crate) fn onto(&self, s: &mut Solver<'_>) {
        s.set_strategy(self.strategy);
        if let Some(p) = &self.propagator {
            // The same engine, rule and matrix took it: never refused.
            let _ = s.set_propagator(Some(p.clone()));
        }
    }
}

/// One search over a matrix, by one engine (see the module documentation).
/// Made once, it answers any number of queries; after `new` nothing is
/// allocated but by the masks engine, whose saved states grow as a search
/// first goes deeper.
#[derive(Clone, Debug)]
pub struct Solver<'m> {
    matrix: Shared<'m, Matrix>,
    branching: Branching,
    inner: Inner<'m>,
    /// Threads for whole counts and cheapest ([`Config::jobs`]).
    jobs: usize,
    /// The cut of the last query on threads: its depth and subtrees.
    cut: Option<(usize, usize)>,
    /// The propagator set, and the strategy of the search that runs it.
    propagator: Option<Arc<dyn Propagator>>,
    strategy: Strategy,
    /// Whether the engine is the library's choice (no engine was named):
    /// then a rule or a propagator it does not take makes the library
    /// choose again, among the engines that take it.
    chosen: bool,
}

impl<'m> Solver<'m> {
    /// A solver for `matrix` by the fastest engine that honours Knuth's rule
    /// (its counters are DLX1's). This builds the engine's tables. The
    /// matrix is borrowed (`&matrix`) or shared (an `Arc<Matrix>`, or a
    /// `Matrix` moved in): then the solver is `Solver<'static>`, for an
    /// object or another thread to keep ([`Shared`]).
    pub fn new(matrix: impl Into<Shared<'m, Matrix>>) -> Solver<'m> {
        Solver::with_rule(matrix, Branching::Knuth)
    }

    /// A solver for `matrix` by the fastest engine that honours `branching`
    /// (the library's choice never fails: links takes every rule). With
    /// multiplicities, which lookahead does not take, lookahead becomes
    /// first-forced, and [`branching`](Self::branching) says so;
    /// [`with_config`](Self::with_config) refuses it instead.
    pub fn with_rule(matrix: impl Into<Shared<'m, Matrix>>, branching: Branching) -> Solver<'m> {
        let matrix = matrix.into();
        let branching = if branching == Branching::Lookahead && matrix.has_bounds() {
            Branching::FirstForced
        } else {
            branching
        };
        let tables = EngineTables::auto(&matrix, branching);
        let mut s = Solver::over(matrix, tables, branching);
        s.chosen = true;
        s
    }

    /// A solver for `matrix` (borrowed or shared, as for
    /// [`new`](Self::new)) as `config` asks, or why the engine asked for
    /// cannot take the matrix or the rule.
    pub fn with_config(
        matrix: impl Into<Shared<'m, Matrix>>,
        config: Config,
    ) -> Result<Solver<'m>, EngineError> {
        let matrix = matrix.into();
        let (tables, branching) = config.tables(&matrix)?;
        let mut s = Solver::over(matrix, tables, branching);
        s.chosen = config.engine.is_none();
        s.set_budget(config.budget);
        s.jobs = config.jobs.max(1);
        s.strategy = config.strategy;
        Ok(s)
    }

    /// A solver by the engine of `tables`, made from `matrix` and taking
    /// `branching` (checked by the caller).
    fn over(matrix: Shared<'m, Matrix>, tables: EngineTables, branching: Branching) -> Solver<'m> {
        Solver {
            inner: Inner::owning(matrix.clone(), tables, branching),
            matrix,
            branching,
            jobs: 1,
            cut: None,
            propagator: None,
            strategy: Strategy::default(),
            chosen: false,
        }
    }

    /// A solver by `engine`, its tables borrowed (one per thread over
    /// shared tables); the engine takes `branching` and its tables were made
    /// from `matrix` (checked by the caller).
    pub(crate) fn borrowing(
        matrix: &'m Matrix,
        engine: super::Engine<'m>,
        branching: Branching,
    ) -> Solver<'m> {
        Solver {
            inner: Inner::borrowing(matrix, engine, branching),
            matrix: Shared::Borrowed(matrix),
            branching,
            jobs: 1,
            cut: None,
            propagator: None,
            strategy: Strategy::default(),
            chosen: false,
        }
    }

    /// The engine searching.
    pub fn engine(&self) -> EngineKind {
        self.inner.kind()
    }

    /// The branching rule.
    pub fn branching(&self) -> Branching {
        self.branching
    }

    /// The threads of whole counts and cheapest ([`Config::jobs`]).
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// Uses `jobs` threads for whole counts and cheapest from now on (see
    /// [`Config::jobs`]).
    pub fn set_jobs(&mut self, jobs: usize) {
        self.jobs = jobs.max(1);
    }

    /// The cut of the last count or cheapest run on threads: its depth in
    /// branch points and its subtrees; `None` after a query on one thread.
    pub fn last_cut(&self) -> Option<(usize, usize)> {
        self.cut
    }

    /// Whether a query from the root may run on threads: more than one
    /// asked for, nothing preselected, no node or update budget.
    fn on_threads(&self) -> bool {
        let d = self.driver_ref();
        self.jobs > 1 && d.preselected.is_empty() && d.limits().budget == Budget::default()
    }

    /// The engine's tables, borrowed, for threads to share.
    fn engine_ref(&self) -> super::Engine<'_> {
        self.inner.engine()
    }

    /// [`count_up_to`](Self::count_up_to) on threads, where it may run
    /// there (see [`Config::jobs`]): the count, the counters added up into
    /// [`stats`](Self::stats) as one search's, the search left exhausted
    /// (or, when a limit stopped it, at its start: the threads' subtrees
    /// cannot be resumed one by one; [`stopped`](Self::stopped) says what
    /// stopped it); `None` where it runs on the calling thread.
    pub(crate) fn count_on_threads(&mut self, limit: u64) -> Option<crate::dlx::Count> {
        self.cut = None;
        if limit != u64::MAX || !self.on_threads() {
            return None;
        }
        self.restart();
        let progress = self.driver_ref().track.as_ref().map(|t| t.to.clone());
        let limits = self.limits().clone();
        let steering = self.steering();
        let counted = super::parallel::count_limited(
            &self.matrix,
            self.engine_ref(),
            self.branching,
            self.jobs,
            progress.as_ref(),
            &limits,
            &steering,
        );
        // The engine and the rule are this solver's own: always taken.
        let (par, complete) = counted.ok()?;
        self.cut = Some((par.depth, par.subtrees));
        let d = self.driver_mut_ref();
        d.stats += par.stats;
        d.end_on_threads(complete, limits.stop_now());
        Some(crate::dlx::Count {
            solutions: par.solutions,
            complete,
        })
    }

    /// The matrix this solver searches.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// Chooses the branching rule (takes effect at the next node); a rule
    /// the engine does not take is refused and changes nothing.
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        if branching == Branching::Lookahead && self.matrix.has_bounds() {
            return Err(EngineError::matrix(
                self.engine(),
                "lookahead does not take multiplicities (DLX3's u:v|); knuth and first-forced do",
            ));
        }
        if self.chosen && !self.engine().supports(branching) {
            let tables = EngineTables::auto_for(&self.matrix, branching, self.propagator.is_some());
            self.choose_again(tables, branching);
        } else {
            self.inner.switch_rule(branching)?;
        }
        self.branching = branching;
        Ok(())
    }

    /// Makes the search again by the engine of `tables`, the library's
    /// choice for `branching`, keeping the limits, the counters, the
    /// progress report and the preselected options: where the engine it
    /// chose before (bands, for first-forced on classic Sudoku's matrix)
    /// does not take a rule or a propagator asked for later.
    fn choose_again(&mut self, tables: EngineTables, branching: Branching) {
        let old = self.inner.steps_mut().driver_mut();
        let (limits, stats) = (old.limits().clone(), old.stats);
        let (preselected, track) = (old.preselected.clone(), old.track.take());
        self.inner = Inner::owning(self.matrix.clone(), tables, branching);
        // Options the engine before took, so this one takes them too.
        let _ = self.inner.preselect_each(&preselected);
        let driver = self.inner.steps_mut().driver_mut();
        driver.set_limits(limits);
        driver.stats = stats;
        driver.base = stats;
        driver.track = track;
    }

    /// Intersections where `looks` says, where the engine looks for them
    /// (masks: `MasksSolver::set_intersections`); false, and nothing
    /// changed, where it does not.
    pub(crate) fn set_intersections(&mut self, looks: crate::dlx::Intersections) -> bool {
        self.inner.intersect(looks)
    }

    /// Runs `propagator` at the nodes where nothing is forced, from the next
    /// search on (`None`: none), branching as the solver's
    /// [`strategy`](Self::set_strategy) says; see
    /// [`Propagator`](crate::dlx::Propagator) for its contract (it hides
    /// only options in no solution, so the answers are the matrix's, less
    /// those that break the rule of a propagator that
    /// [enforces](crate::dlx::Propagator::enforces) one: it is asked at
    /// every solution). Refused by name, nothing changed, where the engine
    /// runs none with the solver's rule ([`EngineKind::propagates`]: masks,
    /// first-forced or lookahead; links and dense, first-forced) or on this
    /// matrix (links and dense: none with colors or multiplicities).
    pub fn set_propagator(
        &mut self,
        propagator: Option<Arc<dyn Propagator>>,
    ) -> Result<(), EngineError> {
        let (engine, rule) = (self.engine(), self.branching());
        if propagator.is_some() && !engine.propagates(rule) {
            let tables = EngineTables::auto_for(&self.matrix, rule, true);
            if !self.chosen || !tables.kind().propagates(rule) {
                return Err(EngineError::propagation(engine, rule));
            }
            self.choose_again(tables, rule);
        }
        if !self.inner.propagate(propagator.clone(), self.strategy) {
            return Err(EngineError::matrix(
                engine,
                "a propagator over colors or multiplicities (masks takes neither; links and dense run none there)",
            ));
        }
        self.propagator = propagator;
        Ok(())
    }

    /// Branches as `strategy` says wherever a propagator is set, from the
    /// next search on (see [`Strategy`]; [`Config::strategy`] as the
    /// solver is made).
    pub fn set_strategy(&mut self, strategy: Strategy) {
        self.strategy = strategy;
        if self.propagator.is_some() {
            // The engine took this propagator already: it takes it again.
            self.inner.propagate(self.propagator.clone(), strategy);
        }
    }

    /// The strategy of a search that propagates.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The propagator and strategy, for the solvers of its threads.
    fn steering(&self) -> Steering {
        Steering {
            propagator: self.propagator.clone(),
            strategy: self.strategy,
        }
    }

    /// Undoes everything: the search in progress and all preselected options.
    /// Zeroes the counters.
    pub fn reset(&mut self) {
        self.inner.steps_mut().reset()
    }

    /// Abandons the search in progress (keeping preselected options), so the
    /// next query starts from the root.
    pub fn restart(&mut self) {
        self.inner.steps_mut().restart()
    }

    /// Knuth's estimate from `probes` random probes
    /// ([`estimate`](Self::estimate)), and the time the search would take
    /// here: the search itself runs for `measure` (or to its end, when it
    /// is shorter: then its counters are exact) to measure the node rate.
    /// The solver's limits, preselected options and counters are as before
    /// afterwards; its search is restarted. It reads the clock: not on
    /// `wasm32-unknown-unknown`, which has none (use
    /// [`estimate`](Self::estimate) there).
    ///
    /// ```
    /// use dlx::{problems::queens, Solver};
    /// use rand::{rngs::StdRng, SeedableRng};
    /// use std::time::Duration;
    ///
    /// let m = queens(8).unwrap();
    /// let mut s = Solver::new(&m);
    /// let f = s.forecast(100, &mut StdRng::seed_from_u64(1), Duration::from_secs(1));
    /// assert!(f.finished); // queens 8 takes a millisecond: counted out
    /// assert_eq!(f.measured.solutions, 92);
    /// assert!(f.estimate.solutions.mean > 0.0 && f.nodes_per_second > 0.0);
    /// ```
    pub fn forecast(
        &mut self,
        probes: u64,
        rng: &mut impl rand::Rng,
        measure: std::time::Duration,
    ) -> Forecast {
        let start = std::time::Instant::now();
        let estimate = self.estimate(probes, rng);
        let probe_seconds = start.elapsed().as_secs_f64();
        let limits = self.limits().clone();
        let before = self.stats();
        self.restart();
        let start = std::time::Instant::now();
        self.set_limits(super::Limits {
            budget: Budget::default(),
            deadline: Some(start + measure),
            cancel: limits.cancel.clone(),
        });
        let finished = loop {
            match self.next_solution() {
                Step::Solution => {}
                Step::Exhausted => break true,
                Step::Budget => break false,
            }
        };
        let measure_seconds = start.elapsed().as_secs_f64();
        let measured = self.stats() - before;
        let d = self.driver_mut_ref();
        d.stats = before;
        self.set_limits(limits);
        self.restart();
        let nodes_per_second = measured.nodes as f64 / measure_seconds.max(1e-9);
        Forecast {
            estimate,
            probe_seconds,
            nodes_per_second,
            seconds: estimate.nodes.mean / nodes_per_second.max(1e-9),
            measured,
            measure_seconds,
            finished,
        }
    }

    /// Commits to `option` before the search: it is part of every solution,
    /// listed first. Abandons any search in progress; undone by
    /// [`reset`](Self::reset). An unknown option, one with no primary item,
    /// or one that clashes with an option preselected before is refused.
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        self.inner.steps_mut().preselect(option)
    }

    /// Replaces every preselection by `options`, as [`reset`](Self::reset)
    /// followed by [`preselect`](Self::preselect) of each; on a refusal
    /// nothing is preselected. Made for a stream of puzzles over one matrix
    /// (Sudoku givens): the links engine copies its links back from the
    /// matrix and preselects one by one, measured cheaper than undoing the
    /// last puzzle's or rebuilding all links in one pass
    /// ([`LinksSolver::preselect_all`](crate::dlx::LinksSolver::preselect_all)).
    pub fn preselect_all(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        self.inner.preselect_each(options)
    }

    /// The `k` cheapest solutions of a fresh search (options' costs, DLX5's
    /// `|n`), cheapest first, ties in search order, by branch and bound
    /// (see [`bound_costs`](Self::bound_costs)); within the budget, and
    /// [`Best::complete`](crate::dlx::Best::complete) false when it ran out
    /// (the best found so far, not proven). See [`Cheapest`](crate::dlx::Cheapest).
    pub fn best(&mut self, k: usize) -> crate::dlx::Best {
        let matrix = self.matrix.clone();
        self.cut = None;
        if self.on_threads() {
            self.restart();
            let limits = self.limits().clone();
            let progress = self.driver_ref().track.as_ref().map(|t| t.to.clone());
            let steering = self.steering();
            let par = super::parallel_best::best_limited(
                &matrix,
                self.engine_ref(),
                self.branching,
                self.jobs,
                k,
                &limits,
                progress.as_ref(),
                &steering,
            );
            // The engine and the rule are this solver's own: always taken.
            if let Ok(par) = par {
                self.cut = Some((par.depth, par.subtrees));
                let d = self.driver_mut_ref();
                d.stats += par.stats;
                d.end_on_threads(par.best.complete, limits.stop_now());
                return par.best;
            }
        }
        super::search::best::best(self, &matrix, k)
    }

    /// Turns on (or off) the branch and bound of [`best`](Self::best) for
    /// a search driven step by step ([`next_solution`](Self::next_solution),
    /// with [`Cheapest`](crate::dlx::Cheapest) keeping the answers): a
    /// branch whose cost so far plus the taxes its open items owe reaches
    /// the limit of [`set_cost_limit`](Self::set_cost_limit) is not
    /// searched (counted in [`Stats::pruned`](crate::dlx::Stats::pruned)).
    /// Restarts the search; no limit until one is set.
    ///
    /// ```
    /// use dlx::{knuth, Cheapest, Solver, Step};
    ///
    /// let m = knuth::read("A B\nA B |5\nA |1\nB |1\n".as_bytes()).unwrap();
    /// let mut s = Solver::new(&m);
    /// s.bound_costs(true);
    /// let mut best = Cheapest::new(1);
    /// while s.next_solution() == Step::Solution {
    ///     best.offer(m.cost_of(s.solution()), || s.solution().collect());
    ///     s.set_cost_limit(best.limit());
    /// }
    /// assert_eq!(best.finish(true).solutions[0].cost, 2);
    /// ```
    pub fn bound_costs(&mut self, on: bool) {
        let matrix = self.matrix.clone();
        super::search::best::bound_costs(self, &matrix, on);
    }

    /// The cost a solution must be below to be wanted (`None`: any), for
    /// the branch and bound of [`bound_costs`](Self::bound_costs); without
    /// it, nothing.
    pub fn set_cost_limit(&mut self, limit: Option<u64>) {
        super::search::best::set_cost_limit(self, limit);
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        self.inner.next_solution()
    }

    #[inline]
    fn cursor_option(&self, cur: u32) -> Option<OptionId> {
        self.inner.cursor_option(cur)
    }

    /// Starts over below `sub`, a subtree of [`split`](Self::split) (or a
    /// job line's): a [`reset`](Self::reset), then its excluded options
    /// left out, its options preselected in order and its retired items
    /// ended, so that the search that follows is the one a single search
    /// makes below that node. Nothing is preselected on a refusal. The links
    /// and dense engines exclude and retire (subtrees with multiplicities
    /// need it; bits and masks refuse such a matrix anyway).
    pub fn preselect_subtree(&mut self, sub: &super::Subtree) -> Result<(), PreselectError> {
        self.inner.steps_mut().preselect_subtree(sub)
    }

    /// Hands over the untried options of the shallowest branch point of the
    /// paused search (after a budget stop or a solution) as subtrees for
    /// other searches ([`MasksSolver::give_away`]: the masks engine's; the
    /// other engines give nothing, `None`). Preselect a subtree with
    /// [`preselect_subtree`](Self::preselect_subtree) in a solver of the
    /// same matrix to search it.
    pub(crate) fn give_away(&mut self) -> Option<Vec<super::Subtree>> {
        self.inner.hand_over()
    }

    /// Whether [`give_away`](Self::give_away) hands work over (the masks
    /// engine's does; the others' give nothing).
    pub(crate) fn gives_away(&self) -> bool {
        self.inner.gives_away()
    }

    /// The conflict scores of the search so far (the masks engine's, where
    /// it runs a propagator), for the search of a piece handed over.
    pub(crate) fn scores(&self) -> Option<super::search::strategy::Scores> {
        self.inner.scores()
    }

    /// Searches from now on start with the scores `seed` (`None`: the
    /// strategy's start), where the engine keeps scores.
    pub(crate) fn seed_scores(&mut self, seed: Option<&super::search::strategy::Scores>) {
        self.inner.seed_scores(seed);
    }

    fn subtree_path(&self, into: &mut super::Subtree) {
        self.inner.steps().subtree_path(into)
    }

    pub(crate) fn driver_ref(&self) -> &Driver {
        self.inner.steps().driver()
    }

    pub(crate) fn driver_mut_ref(&mut self) -> &mut Driver {
        self.inner.steps_mut().driver_mut()
    }
}

super::search::engine_queries!(Solver, Solutions);

#[cfg(test)]
mod tests {
    //! Random small matrices on every engine and rule the library accepts,
    //! against a brute-force count: the property the integration tests
    //! check with proptest, here with a few seeded cases so that it also
    //! runs under Miri (which checks every kernel's unchecked access).
    use super::*;
    use crate::dlx::{brute_force_count, verify_cover, Branching, MatrixBuilder, Stop};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A random matrix: up to 6 primary and 2 secondary items, up to 10
    /// options of 1 to 4 distinct items, colors on secondary items when
    /// `colors`.
    fn random(rng: &mut StdRng, colors: bool) -> Matrix {
        let mut b = MatrixBuilder::new();
        let np = rng.gen_range(1..=6);
        let ns = rng.gen_range(0..=2);
        let primary: Vec<_> = (0..np)
            .map(|i| b.primary(&format!("p{i}")).unwrap())
            .collect();
        let secondary: Vec<_> = (0..ns)
            .map(|i| b.secondary(&format!("s{i}")).unwrap())
            .collect();
        for _ in 0..rng.gen_range(1..=10) {
            let mut items: Vec<_> = primary
                .iter()
                .chain(&secondary)
                .copied()
                .filter(|_| rng.gen_bool(0.4))
                .collect();
            if items.is_empty() {
                items.push(primary[rng.gen_range(0..np)]);
            }
            items.truncate(4);
            if colors && items.iter().any(|i| secondary.contains(i)) {
                let named: Vec<String> = items
                    .iter()
                    .map(|&i| match secondary.iter().position(|&s| s == i) {
                        Some(k) => format!("s{k}:{}", rng.gen_range(1..=2)),
                        None => {
                            let k = primary.iter().position(|&p| p == i).unwrap_or(0);
                            format!("p{k}")
                        }
                    })
                    .collect();
                b.option_by_names(named.iter().map(String::as_str)).unwrap();
            } else {
                b.option(&items).unwrap();
            }
        }
        b.build().unwrap()
    }

    /// A solver of `m` for every engine and rule the library accepts.
    fn every_solver(m: &Matrix) -> impl Iterator<Item = (EngineKind, Branching, Solver<'_>)> {
        let rules = [
            Branching::Knuth,
            Branching::FirstForced,
            Branching::Lookahead,
        ];
        EngineKind::ALL.into_iter().flat_map(move |engine| {
            rules.into_iter().filter_map(move |rule| {
                let config = Config::new().engine(engine).branching(rule);
                Solver::with_config(m, config)
                    .ok()
                    .map(|s| (engine, rule, s))
            })
        })
    }

    #[test]
    fn every_engine_and_rule_counts_random_matrices_as_brute_force() {
        let mut rng = StdRng::seed_from_u64(14);
        let cases = if cfg!(miri) { 3 } else { 60 };
        for case in 0..cases {
            let m = random(&mut rng, case % 3 == 2);
            let want = brute_force_count(&m).unwrap();
            let mut engines = 0;
            for (engine, rule, mut s) in every_solver(&m) {
                engines += 1;
                let all: Vec<_> = s.solutions().collect();
                for sol in &all {
                    verify_cover(&m, sol).unwrap();
                }
                assert_eq!(all.len() as u64, want, "case {case}: {engine}, {rule:?}");
            }
            // Links takes every rule, whatever the matrix.
            assert!(engines >= 3, "case {case}");
        }
    }

    #[test]
    fn a_cancel_stops_the_split_the_estimate_and_the_cut_and_is_no_answer() {
        // A split or an estimate stopped inside its search misses pieces:
        // it says so (and drops the probe cut short), and a count or a
        // cheapest search on threads whose cut it stopped is incomplete.
        let m = crate::problems::queens(8).unwrap();
        let cancel = crate::dlx::Cancel::new();
        cancel.cancel();
        let limits = super::super::Limits::new().cancel(&cancel);
        for (engine, rule, mut s) in every_solver(&m) {
            let at = format!("{engine}, {rule:?}");
            s.set_limits(limits.clone());
            let mut pieces = 0;
            let split = s.split(2, |_| pieces += 1);
            assert_eq!(split, Err(Stop::Cancelled), "{at}");
            assert_eq!(pieces, 0, "{at}");
            let e = s.estimate(10, &mut StdRng::seed_from_u64(1));
            assert_eq!(e.probes, 0, "{at}");
            let cut = crate::dlx::Cut::new(&mut s, 64);
            assert_eq!(cut.stopped, Some(Stop::Cancelled), "{at}");
            s.set_jobs(2);
            let count = s.count();
            assert!(!count.complete, "{at}: {count:?}");
            assert_eq!(s.stopped(), Some(Stop::Cancelled), "{at}");
        }
    }
}
