//! Which engine searches a matrix: the one list of engines, the rules each
//! honours, the automatic choice, and the refusals.
//!
//! The list is one macro invocation ([`engines!`]): a line per engine (its
//! variant, its tables' type, its solver, its name) gives [`EngineKind`],
//! [`EngineTables`], [`Engine`] and the front door's `Inner`, with every
//! match over them. What an engine is — the rules it takes, how its tables
//! are built, what only it does (masks hands subtrees over and looks for
//! intersections) — is its solver's [`Registered`] implementation, in the
//! engine's own module. What every engine shares (limits, progress, the
//! cost bound, the cut, estimates) is the one driver's, reached through
//! [`Steps`]; the memo count is a search of its own (`dlx cover --memo`
//! refuses `--engine` by name). Invariant: the front door dispatches once per query, never per
//! node (each engine's `next_solution` runs the driver monomorphised for
//! its kernel).
//!
//! The engines are five representations of the live matrix under the one driver
//! (`search/driver.rs`): [`EngineKind::Links`] (dancing links, every matrix and
//! rule), [`EngineKind::Dense`] (a bitset of active options),
//! [`EngineKind::Bits`] (bit sets of options, lens counted or bit-sliced),
//! [`EngineKind::Masks`] (a bitmask per item, forced moves first) and
//! [`EngineKind::Bands`] (classic 9×9 Sudoku's matrix by digit and band,
//! first-forced only). Each says
//! what it *can* take ([`EngineKind::supports`], and its tables' constructor
//! for the matrix);
//! [`EngineTables::auto`] says which one *should* (as regex-automata's
//! `meta` chooses among its engines). Asking for an engine that cannot take
//! the matrix or the rule is an [`EngineError`], never a silent substitution.
//!
//! The automatic choice, measured (BENCHMARKS.md): for Knuth's rule, bits
//! where it applies (at most 64 primary items and 512 options); else masks
//! where it applies (no item in more than 64 options: the Sudoku matrix in
//! 0.3 of the links engine's time, queens 24 and Langford 20 in half
//! dense's); else dense where [`DenseMatrix::recommended`] says it is
//! faster; else links. For first-forced: bands on classic 9×9 Sudoku's
//! matrix (a solver the library chose chooses again if a propagator or
//! another rule is asked for later), else the same without bits. With
//! multiplicities the same rules pick bits (where its tie key holds the
//! bounds: `bits/mult.rs`), dense or links (masks takes none). Lookahead:
//! masks where it applies (its probes clear bits in one mask per item, all
//! in L1 cache: minimal 25×25 Sudoku in about half the links engine's time,
//! BENCHMARKS.md), else links. Every engine that takes
//! [`Branching::Knuth`] walks DLX1's tree with it, so the counters are always DLX1's (DLX3's with
//! multiplicities).

use std::fmt;
use std::sync::Arc;

use super::search::strategy::Scores;
use super::search::Steps;
use super::{
    propagate::Propagator, BandsMatrix, BandsSolver, BitsMatrix, BitsSolver, Branching,
    DenseMatrix, DenseSolver, Intersections, LinksSolver, MasksMatrix, MasksSolver, Matrix,
    OptionId, PreselectError, Step, Strategy, Subtree,
};

/// What the one list of engines ([`engines!`]) needs of an engine:
/// implemented by the engine's own solver, in the engine's module. The
/// driver and its hooks (limits, progress, the cost bound, the cut) are
/// the engine's through [`Steps`]; this says what it takes, how its tables
/// are built and shared, and what only some engines do (a default that
/// does nothing says so to the caller: `false`, `None`).
pub(crate) trait Registered<'m>: Steps + Clone + fmt::Debug + Sized {
    /// The tables built once from a matrix, shared by every search of it
    /// (`()` for an engine whose tables are the matrix itself).
    type Tables: fmt::Debug + Send + Sync + 'static;
    /// The rules it takes, in words, for a refusal.
    const RULES: &'static str;
    /// How many kernels it compiles: copies of the driver's loop, one a
    /// line of its kernel table
    /// ([`kernel_table!`](crate::dlx::search::driver::kernel_table)).
    /// Read by a test that pins the tables.
    #[cfg_attr(not(test), allow(dead_code))]
    const KERNELS: usize;
    /// The rule searched with when none is asked for: Knuth's, where the
    /// engine takes it.
    const DEFAULT_RULE: Branching = Branching::Knuth;
    /// Whether it searches with `branching`.
    fn supports(branching: Branching) -> bool;
    /// Whether, searching with `branching`, it looks for intersections at
    /// nodes where nothing is forced.
    fn looks_for_intersections(_branching: Branching) -> bool {
        false
    }
    /// Its tables for `matrix`, or why it cannot take the matrix.
    fn build(matrix: &Matrix) -> Result<Self::Tables, String>;
    /// The options of the matrix `tables` were made from (`None`: tables
    /// that are the matrix itself).
    fn options_of(tables: &Self::Tables) -> Option<usize>;
    /// A solver over `tables`, made from `matrix`, searching with
    /// `branching` (a rule it takes: the caller checked).
    fn over(
        matrix: Shared<'m, Matrix>,
        tables: Shared<'m, Self::Tables>,
        branching: Branching,
    ) -> Self;
    /// Its tables, for other threads to share.
    fn tables_of(&self) -> &Self::Tables;
    /// Chooses the rule; a rule it does not take is refused, nothing changed.
    fn switch_rule(&mut self, branching: Branching) -> Result<(), EngineError>;
    /// Replaces every preselection by `options`; nothing preselected on a
    /// refusal. By default a reset and one preselection at a time.
    fn preselect_each(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        one_by_one(self, options, Steps::reset)
    }
    /// The untried options of the shallowest branch point of the paused
    /// search, handed over as subtrees (`None`: the engine gives none away).
    fn hand_over(&mut self) -> Option<Vec<Subtree>> {
        None
    }
    /// Whether [`hand_over`](Self::hand_over) hands anything over (a
    /// search on threads that cannot take work from a running search cuts
    /// its tree first).
    fn gives_away(&self) -> bool {
        false
    }
    /// The conflict scores of the search so far, for the search of a piece
    /// handed over (`None`: it keeps none).
    fn scores(&self) -> Option<Scores> {
        None
    }
    /// Searches from now on start with the scores `seed` (`None`: the
    /// strategy's start), where it keeps scores as long.
    fn seed_scores(&mut self, _seed: Option<&Scores>) {}
    /// Intersections where `looks` says; false where the engine has none.
    fn intersect(&mut self, _looks: Intersections) -> bool {
        false
    }
    /// Whether, searching with `branching`, it runs a [`Propagator`].
    fn propagates(_branching: Branching) -> bool {
        false
    }
    /// Runs `propagator` (or none) from the next search on, branching as
    /// `strategy` says; false, and nothing changed, where the engine runs
    /// none on this matrix.
    fn propagate(&mut self, _propagator: Option<Arc<dyn Propagator>>, _strategy: Strategy) -> bool {
        false
    }
}

/// Replaces every preselection of `s` by `options`: `reset`, then one
/// preselection at a time; reset again on a refusal.
pub(crate) fn one_by_one<S: Steps + ?Sized>(
    s: &mut S,
    options: &[OptionId],
    reset: fn(&mut S),
) -> Result<(), PreselectError> {
    reset(s);
    let result = options.iter().try_for_each(|&o| s.preselect(o));
    if result.is_err() {
        reset(s);
    }
    result
}

/// `$t`: the binding of an engine's tables in a pattern, for the engines
/// that have tables.
macro_rules! bound {
    ($tables:ty, $t:ident) => {
        $t
    };
}

/// The tables of an engine that has none: `()`, borrowed for as long as
/// anything.
macro_rules! shared_tables {
    ($t:ident, $tables:ty) => {
        $t
    };
    ($t:ident) => {
        Shared::Borrowed(&())
    };
}

/// The one list of engines. Each line names an engine's variant, its
/// tables' type (none for the links engine, whose tables are the matrix),
/// its solver (which implements [`Registered`]) and its name; from it come
/// [`EngineKind`], [`EngineTables`], [`Engine`] and the front door's
/// `Inner`, and every match over them. Adding an engine is its module and
/// one line here (and its place in [`EngineTables::auto`], a policy).
macro_rules! engines {
    ($(
        $(#[$doc:meta])*
        $name:ident $(($tables:ty))? => $solver:ident, $text:literal;
    )*) => {
        /// The engines, by name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum EngineKind {
            $( $(#[$doc])* $name, )*
        }

        const ENGINES: usize = [$($text),*].len();

        impl EngineKind {
            /// Every engine.
            pub const ALL: [EngineKind; ENGINES] = [$(EngineKind::$name),*];

            /// The engine's name, as `--engine` spells it.
            pub fn name(self) -> &'static str {
                match self {
                    $(EngineKind::$name => $text,)*
                }
            }

            /// Whether the engine searches with `branching` as the rule
            /// says: links and masks every rule; dense Knuth's and
            /// first-forced; bits Knuth's only (its choice is always the
            /// leftmost least len, so it cannot walk first-forced's tree).
            pub fn supports(self, branching: Branching) -> bool {
                match self {
                    $(EngineKind::$name =>
                        <$solver<'static> as Registered<'static>>::supports(branching),)*
                }
            }

            /// The rules the engine takes, in words.
            fn rules(self) -> &'static str {
                match self {
                    $(EngineKind::$name => <$solver<'static> as Registered<'static>>::RULES,)*
                }
            }

            /// The rule the engine searches with when none is asked for:
            /// Knuth's, except for bands, which takes first-forced only.
            pub fn default_rule(self) -> Branching {
                match self {
                    $(EngineKind::$name => <$solver<'static> as Registered<'static>>::DEFAULT_RULE,)*
                }
            }

            /// How many kernels the engine compiles (its kernel table's
            /// lines, `Registered::KERNELS`).
            #[cfg(test)]
            fn kernels(self) -> usize {
                match self {
                    $(EngineKind::$name => <$solver<'static> as Registered<'static>>::KERNELS,)*
                }
            }

            /// Whether the engine, searching with `branching`, looks for
            /// intersections at nodes where nothing is forced (an item with
            /// two options left, both sharing another item): masks,
            /// first-forced.
            pub fn looks_for_intersections(self, branching: Branching) -> bool {
                match self {
                    $(EngineKind::$name =>
                        <$solver<'static> as Registered<'static>>::looks_for_intersections(
                            branching,
                        ),)*
                }
            }

            /// Whether the engine, searching with `branching`, runs a
            /// [`Propagator`] at nodes where nothing is forced, with the
            /// search's [`Strategy`]: masks, first-forced and lookahead;
            /// links and dense, first-forced (a matrix without colors or
            /// multiplicities).
            pub fn propagates(self, branching: Branching) -> bool {
                match self {
                    $(EngineKind::$name =>
                        <$solver<'static> as Registered<'static>>::propagates(branching),)*
                }
            }
        }

        /// An engine with its tables, built once from one matrix; any
        /// number of solvers and threads share it.
        #[derive(Clone, Debug)]
        #[non_exhaustive]
        pub enum EngineTables {
            $(
                #[doc = concat!("The ", $text, " engine", $(" and its tables (", stringify!($tables), ")", )? ".")]
                $name $(($tables))?,
            )*
        }

        impl EngineTables {
            /// The tables of `engine` for `matrix`, searched with
            /// `branching`; an error says why the engine cannot take them.
            pub fn build(
                matrix: &Matrix,
                engine: EngineKind,
                branching: Branching,
            ) -> Result<EngineTables, EngineError> {
                if !engine.supports(branching) {
                    return Err(EngineError::rule(engine, branching));
                }
                Ok(match engine {
                    $(EngineKind::$name => {
                        let _t = <$solver<'static> as Registered<'static>>::build(matrix)
                            .map_err(|why| EngineError::matrix(engine, why))?;
                        EngineTables::$name $((bound!($tables, _t)))?
                    })*
                })
            }

            /// Which engine these tables are for.
            pub fn kind(&self) -> EngineKind {
                match self {
                    $(EngineTables::$name $((bound!($tables, _t)))? => EngineKind::$name,)*
                }
            }

            /// The tables, borrowed, for [`count_parallel`](crate::dlx::count_parallel).
            pub fn engine(&self) -> Engine<'_> {
                match self {
                    $(EngineTables::$name $((bound!($tables, t)))? =>
                        Engine::$name $((bound!($tables, t)))?,)*
                }
            }
        }

        /// The engine that searches a matrix, with its tables when it has
        /// any (they must be made from that matrix).
        #[derive(Clone, Copy, Debug)]
        pub enum Engine<'a> {
            $(
                #[doc = concat!("The ", $text, " engine ([`", stringify!($solver), "`](crate::engines::", stringify!($solver), ")).")]
                $name $((&'a $tables))?,
            )*
        }

        impl Engine<'_> {
            /// Which engine this is.
            pub fn kind(&self) -> EngineKind {
                match self {
                    $(Engine::$name $((bound!($tables, _t)))? => EngineKind::$name,)*
                }
            }

            /// The options of the matrix the tables were made from.
            fn options(&self) -> Option<usize> {
                match self {
                    $(Engine::$name $((bound!($tables, t)))? => {
                        $( return <$solver<'static> as Registered<'static>>::options_of(
                            bound!($tables, t),
                        ); )?
                        #[allow(unreachable_code)]
                        None
                    })*
                }
            }
        }

        /// A solver of the front door: one engine's own solver.
        #[derive(Clone, Debug)]
        pub(crate) enum Inner<'m> {
            $( $name($solver<'m>), )*
        }

        impl<'m> Inner<'m> {
            /// A solver by the engine of `tables`, made from `matrix`, with
            /// `branching` (a rule the engine takes: checked by the caller).
            pub(crate) fn owning(
                matrix: Shared<'m, Matrix>,
                tables: EngineTables,
                branching: Branching,
            ) -> Inner<'m> {
                match tables {
                    $(EngineTables::$name $((bound!($tables, t)))? => {
                        $( let t = Shared::Owned(Arc::new(bound!($tables, t))); )?
                        Inner::$name(<$solver<'m> as Registered<'m>>::over(
                            matrix,
                            shared_tables!(t $(, $tables)?),
                            branching,
                        ))
                    })*
                }
            }

            /// A solver by `engine`, its tables borrowed, made from `matrix`,
            /// with `branching` (checked by the caller).
            pub(crate) fn borrowing(
                matrix: &'m Matrix,
                engine: Engine<'m>,
                branching: Branching,
            ) -> Inner<'m> {
                match engine {
                    $(Engine::$name $((bound!($tables, t)))? => {
                        $( let t = Shared::Borrowed(bound!($tables, t)); )?
                        Inner::$name(<$solver<'m> as Registered<'m>>::over(
                            Shared::Borrowed(matrix),
                            shared_tables!(t $(, $tables)?),
                            branching,
                        ))
                    })*
                }
            }

            /// The engine searching.
            pub(crate) fn kind(&self) -> EngineKind {
                match self {
                    $(Inner::$name(_) => EngineKind::$name,)*
                }
            }

            /// The engine's tables, borrowed, for threads to share.
            pub(crate) fn engine(&self) -> Engine<'_> {
                match self {
                    $(Inner::$name(_s) => {
                        $( let t: &$tables = _s.tables_of(); )?
                        Engine::$name $((bound!($tables, t)))?
                    })*
                }
            }

            /// The engine's next solution (matched, not called through
            /// [`steps_mut`](Self::steps_mut): once a solution, inlined).
            #[inline]
            pub(crate) fn next_solution(&mut self) -> Step {
                match self {
                    $(Inner::$name(s) => s.next_solution(),)*
                }
            }

            /// The option a cursor of the engine names (matched: once an
            /// option of every solution read).
            #[inline]
            pub(crate) fn cursor_option(&self, cur: u32) -> Option<OptionId> {
                match self {
                    $(Inner::$name(s) => s.cursor_option(cur),)*
                }
            }

            /// The engine's solver, as the queries over any engine take it
            /// (one call a query: dynamic dispatch costs nothing there).
            pub(crate) fn steps(&self) -> &dyn Steps {
                match self {
                    $(Inner::$name(s) => s,)*
                }
            }

            /// [`steps`](Self::steps), to change.
            pub(crate) fn steps_mut(&mut self) -> &mut dyn Steps {
                match self {
                    $(Inner::$name(s) => s,)*
                }
            }

            /// See [`Registered::switch_rule`].
            pub(crate) fn switch_rule(&mut self, branching: Branching) -> Result<(), EngineError> {
                match self {
                    $(Inner::$name(s) => s.switch_rule(branching),)*
                }
            }

            /// See [`Registered::preselect_each`].
            pub(crate) fn preselect_each(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
                match self {
                    $(Inner::$name(s) => s.preselect_each(options),)*
                }
            }

            /// See [`Registered::hand_over`].
            pub(crate) fn hand_over(&mut self) -> Option<Vec<Subtree>> {
                match self {
                    $(Inner::$name(s) => s.hand_over(),)*
                }
            }

            /// See [`Registered::gives_away`].
            pub(crate) fn gives_away(&self) -> bool {
                match self {
                    $(Inner::$name(s) => s.gives_away(),)*
                }
            }

            /// See [`Registered::scores`].
            pub(crate) fn scores(&self) -> Option<Scores> {
                match self {
                    $(Inner::$name(s) => s.scores(),)*
                }
            }

            /// See [`Registered::seed_scores`].
            pub(crate) fn seed_scores(&mut self, seed: Option<&Scores>) {
                match self {
                    $(Inner::$name(s) => s.seed_scores(seed),)*
                }
            }

            /// See [`Registered::intersect`].
            pub(crate) fn intersect(&mut self, looks: Intersections) -> bool {
                match self {
                    $(Inner::$name(s) => s.intersect(looks),)*
                }
            }

            /// See [`Registered::propagate`].
            pub(crate) fn propagate(
                &mut self,
                propagator: Option<Arc<dyn Propagator>>,
                strategy: Strategy,
            ) -> bool {
                match self {
                    $(Inner::$name(s) => s.propagate(propagator.clone(), strategy),)*
                }
            }
        }
    };
}

engines! {
    /// Dancing links (DLX1, DLX2 with colors): every matrix, every rule;
    /// propagators first-forced, without colors or multiplicities.
    Links => LinksSolver, "links";
    /// A bitset of active options, undone by copying: no colors, a state of
    /// at most 8 KB; Knuth's rule and first-forced; multiplicities
    /// (Algorithm M) with bounds up to 65,534; propagators first-forced,
    /// without multiplicities.
    Dense(DenseMatrix) => DenseSolver, "dense";
    /// Lens as bit-sliced counters: no colors, at most 64 primary items and
    /// 512 options; Knuth's rule only (its choice is the least len);
    /// multiplicities (Algorithm M) with lower bounds and slacks of four
    /// bits together.
    Bits(BitsMatrix) => BitsSolver, "bits";
    /// A bitmask of options per item, state saved only at branch points:
    /// no colors, no item in more than 64 options; every rule (with
    /// first-forced, forced moves first without a scan).
    Masks(MasksMatrix) => MasksSolver, "masks";
    /// Classic 9×9 Sudoku's matrix alone, by digit and band, a node's
    /// forced options committed together: first-forced only.
    Bands(BandsMatrix) => BandsSolver, "bands";
}

impl EngineKind {
    /// `preferred` when the engine takes it, else the engine's own
    /// [`default_rule`](Self::default_rule).
    pub fn rule_preferring(self, preferred: Branching) -> Branching {
        if self.supports(preferred) {
            preferred
        } else {
            self.default_rule()
        }
    }

    /// [`supports`](Self::supports), as an error that says why not.
    pub fn check_rule(self, branching: Branching) -> Result<(), EngineError> {
        if self.supports(branching) {
            Ok(())
        } else {
            Err(EngineError::rule(self, branching))
        }
    }
}

impl Engine<'_> {
    /// Whether the engine takes `branching`, and its tables (if any) were
    /// made from `matrix` (by their options).
    pub(crate) fn check(&self, matrix: &Matrix, branching: Branching) -> Result<(), EngineError> {
        let kind = self.kind();
        if !kind.supports(branching) {
            return Err(EngineError::rule(kind, branching));
        }
        if self.options().is_some_and(|n| n != matrix.option_count()) {
            return Err(EngineError::foreign_tables(kind));
        }
        Ok(())
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine in a report is its name, as `--engine` spells it.
impl serde::Serialize for EngineKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Why an engine cannot search a matrix as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    engine: EngineKind,
    kind: ErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    /// The matrix is not for this engine (its tables' error, in words).
    Matrix(String),
    /// The engine does not search with this rule.
    Rule(Branching),
    /// The engine's tables were made from a matrix of another size.
    ForeignTables,
    /// The engine runs no propagator with this rule.
    Propagation(Branching),
}

impl EngineError {
    /// The engine that refused.
    pub fn engine(&self) -> EngineKind {
        self.engine
    }

    pub(crate) fn matrix(engine: EngineKind, why: impl fmt::Display) -> EngineError {
        EngineError {
            engine,
            kind: ErrorKind::Matrix(why.to_string()),
        }
    }

    pub(crate) fn rule(engine: EngineKind, branching: Branching) -> EngineError {
        EngineError {
            engine,
            kind: ErrorKind::Rule(branching),
        }
    }

    pub(crate) fn propagation(engine: EngineKind, branching: Branching) -> EngineError {
        EngineError {
            engine,
            kind: ErrorKind::Propagation(branching),
        }
    }

    pub(crate) fn foreign_tables(engine: EngineKind) -> EngineError {
        EngineError {
            engine,
            kind: ErrorKind::ForeignTables,
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.engine;
        match &self.kind {
            ErrorKind::Matrix(why) => write!(f, "the {e} engine cannot take this matrix: {why}"),
            ErrorKind::Rule(b) => write!(
                f,
                "the {e} engine does not search with the {} rule (it takes {})",
                Branching::name(*b),
                e.rules()
            ),
            ErrorKind::Propagation(b) => write!(
                f,
                "the {e} engine runs no propagator with the {} rule (masks does, first-forced or lookahead; links and dense, first-forced)",
                Branching::name(*b)
            ),
            ErrorKind::ForeignTables => {
                write!(f, "the {e} engine's tables were made from another matrix")
            }
        }
    }
}

impl std::error::Error for EngineError {}

impl EngineTables {
    /// The fastest engine that honours `branching` on `matrix` (see the
    /// module documentation), with its tables.
    pub fn auto(matrix: &Matrix, branching: Branching) -> EngineTables {
        EngineTables::auto_for(matrix, branching, false)
    }

    /// [`auto`](Self::auto), among the engines that run a propagator with
    /// `branching` where `propagating` (all but bands).
    pub(crate) fn auto_for(
        matrix: &Matrix,
        branching: Branching,
        propagating: bool,
    ) -> EngineTables {
        // Lookahead: masks wherever it applies (its probes in about half the
        // links engine's time on minimal 25×25 Sudoku, queens 10 in a
        // fifth: BENCHMARKS.md), else links.
        if branching == Branching::Lookahead {
            return match MasksMatrix::new(matrix) {
                Ok(m) => EngineTables::Masks(m),
                Err(_) => EngineTables::Links,
            };
        }
        if EngineKind::Bits.supports(branching) {
            if let Ok(b) = BitsMatrix::new(matrix) {
                return EngineTables::Bits(b);
            }
        }
        // First-forced on classic 9×9 Sudoku's matrix: bands, a node's
        // forced options committed a word at a time (BENCHMARKS.md, "The
        // bands engine").
        if EngineKind::Bands.supports(branching) && !propagating {
            if let Ok(b) = BandsMatrix::new(matrix) {
                return EngineTables::Bands(b);
            }
        }
        // Knuth's rule and first-forced: masks wherever it applies, dense's
        // recommendation or not (first-forced: queens 13 and 14 in half
        // dense's time, the Sudoku variants' matrices in 0.4-0.7 of it;
        // Knuth's: the Sudoku matrix in 0.45 of it, queens 24 and Langford
        // 20 in half: BENCHMARKS.md).
        if EngineKind::Masks.supports(branching) {
            if let Ok(m) = MasksMatrix::new(matrix) {
                return EngineTables::Masks(m);
            }
        }
        if DenseMatrix::recommended(matrix) {
            if let Ok(d) = DenseMatrix::new(matrix) {
                return EngineTables::Dense(d);
            }
        }
        EngineTables::Links
    }
}

/// A matrix (or an engine's tables) as a solver holds it: borrowed from
/// the caller for `'m`, or shared through an [`Arc`](std::sync::Arc) — then
/// the solver is `Solver<'static>`, owns what it searches and can be kept
/// in an object (a Python class, a web worker's state) or sent to another
/// thread. `From<&T>` and `From<Arc<T>>` make one, so
/// [`Solver::new`](crate::dlx::Solver::new) takes either.
///
/// ```
/// use std::sync::Arc;
/// use dlx::{problems::queens, Solver};
///
/// let matrix = Arc::new(queens(8).unwrap());
/// let mut solver: Solver<'static> = Solver::new(matrix.clone());
/// let counted = std::thread::spawn(move || solver.count().solutions);
/// assert_eq!(counted.join().unwrap(), 92);
/// ```
#[derive(Debug)]
pub enum Shared<'m, T> {
    /// Borrowed from the caller.
    Borrowed(&'m T),
    /// Shared with whoever else holds the `Arc`.
    Owned(std::sync::Arc<T>),
}

impl<T> Clone for Shared<'_, T> {
    fn clone(&self) -> Self {
        match self {
            Shared::Borrowed(t) => Shared::Borrowed(t),
            Shared::Owned(t) => Shared::Owned(t.clone()),
        }
    }
}

impl<T> std::ops::Deref for Shared<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        match self {
            Shared::Borrowed(t) => t,
            Shared::Owned(t) => t,
        }
    }
}

impl<'m, T> From<&'m T> for Shared<'m, T> {
    fn from(t: &'m T) -> Self {
        Shared::Borrowed(t)
    }
}

impl<T> From<std::sync::Arc<T>> for Shared<'static, T> {
    fn from(t: std::sync::Arc<T>) -> Self {
        Shared::Owned(t)
    }
}

impl<T> From<T> for Shared<'static, T> {
    fn from(t: T) -> Self {
        Shared::Owned(std::sync::Arc::new(t))
    }
}

#[cfg(test)]
mod tests {
    use super::EngineKind;

    /// The kernels compiled, engine by engine: each is a copy of the
    /// driver's loop, and together they are most of the crate's build
    /// time, so a line added to a table is a choice measured
    /// (BENCHMARKS.md, "One kernel table an engine"), not an accident.
    #[test]
    fn the_kernel_tables_are_as_measured() {
        let kernels: Vec<(&str, usize)> = EngineKind::ALL
            .iter()
            .map(|&e| (e.name(), e.kernels()))
            .collect();
        // On x86, Knuth's bits kernels twice again, compiled for `popcnt`
        // with BMI and without.
        let popcnt = if cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
            16
        } else {
            0
        };
        assert_eq!(
            kernels,
            [
                ("links", 16),
                ("dense", 16),
                ("bits", 24 + popcnt),
                ("masks", 15),
                ("bands", 1)
            ]
        );
    }
}
