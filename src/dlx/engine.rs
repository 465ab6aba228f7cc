//! Which engine searches a matrix: the four kinds, the rules each honours,
//! the automatic choice, and the refusals.
//!
//! The engines are four representations of the live matrix under the one
//! driver (`search/driver.rs`): [`EngineKind::Links`] (dancing links, every
//! matrix and rule), [`EngineKind::Dense`] (a bitset of active options),
//! [`EngineKind::Bits`] (bit-sliced lens) and [`EngineKind::Masks`] (a
//! bitmask per item, forced moves first). Each says what it *can* take
//! ([`EngineKind::supports`], and its tables' constructor for the matrix);
//! [`EngineTables::auto`] says which one *should* (as regex-automata's
//! `meta` chooses among its engines). Asking for an engine that cannot take
//! the matrix or the rule is an [`EngineError`], never a silent substitution.
//!
//! The automatic choice, measured (BENCHMARKS.md): for Knuth's rule, bits
//! where it applies (at most 64 primary items and 512 options); else masks
//! where it applies (no item in more than 64 options: the Sudoku matrix in
//! 0.3 of the links engine's time, queens 24 and Langford 20 in half
//! dense's); else dense where [`DenseMatrix::recommended`] says it is
//! faster; else links. For first-forced the same without bits. With
//! multiplicities the same rules pick bits (where its tie key holds the
//! bounds: `bits/mult.rs`), dense or links (masks takes none). Lookahead:
//! masks where it applies (its probes clear bits in one mask per item, all
//! in L1 cache: minimal 25×25 Sudoku in about half the links engine's time,
//! BENCHMARKS.md), else links. Every engine walks DLX1's tree with
//! [`Branching::Knuth`], so the counters are always DLX1's (DLX3's with
//! multiplicities).

use std::fmt;

use super::{BitsMatrix, Branching, DenseMatrix, MasksMatrix, Matrix};

/// The engines, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EngineKind {
    /// Dancing links (DLX1, DLX2 with colors): every matrix, every rule.
    Links,
    /// A bitset of active options, undone by copying: no colors, a state of
    /// at most 8 KB; Knuth's rule and first-forced; multiplicities
    /// (Algorithm M) with bounds up to 65,534.
    Dense,
    /// Lens as bit-sliced counters: no colors, at most 64 primary items and
    /// 512 options; Knuth's rule only (its choice is the least len);
    /// multiplicities (Algorithm M) with lower bounds and slacks of four
    /// bits together.
    Bits,
    /// A bitmask of options per item, state saved only at branch points:
    /// no colors, no item in more than 64 options; every rule (with
    /// first-forced, forced moves first without a scan).
    Masks,
}

impl EngineKind {
    /// Every engine.
    pub const ALL: [EngineKind; 4] = [
        EngineKind::Links,
        EngineKind::Dense,
        EngineKind::Bits,
        EngineKind::Masks,
    ];

    /// The engine's name, as `--engine` spells it.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Links => "links",
            EngineKind::Dense => "dense",
            EngineKind::Bits => "bits",
            EngineKind::Masks => "masks",
        }
    }

    /// The rule the engine searches with when none is asked for: Knuth's
    /// (every engine takes it).
    pub fn default_rule(self) -> Branching {
        Branching::Knuth
    }

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

    /// Whether the engine searches with `branching` as the rule says: links
    /// every rule; dense Knuth's and first-forced; bits Knuth's only (its
    /// choice is always the leftmost least len, so it cannot walk
    /// first-forced's tree); masks every rule.
    pub fn supports(self, branching: Branching) -> bool {
        match (self, branching) {
            (EngineKind::Links | EngineKind::Masks, _) => true,
            (EngineKind::Dense, b) => b != Branching::Lookahead,
            (EngineKind::Bits, b) => b == Branching::Knuth,
        }
    }

    /// Whether the engine, searching with `branching`, looks for
    /// intersections at nodes where nothing is forced (an item with two
    /// options left, both sharing another item): masks, first-forced.
    pub fn looks_for_intersections(self, branching: Branching) -> bool {
        self == EngineKind::Masks && branching == Branching::FirstForced
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
                "the {e} engine does not search with the {} rule{}",
                Branching::name(*b),
                match e {
                    EngineKind::Bits => " (it takes Knuth's rule only)",
                    _ => " (lookahead is the links and masks engines')",
                }
            ),
            ErrorKind::ForeignTables => {
                write!(f, "the {e} engine's tables were made from another matrix")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// An engine with its tables, built once from one matrix; any number of
/// solvers and threads share it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum EngineTables {
    /// The links engine (its tables are the matrix itself).
    Links,
    /// The dense engine's tables.
    Dense(DenseMatrix),
    /// The bits engine's tables.
    Bits(BitsMatrix),
    /// The masks engine's tables.
    Masks(MasksMatrix),
}

impl EngineTables {
    /// The tables of `engine` for `matrix`, searched with `branching`; an
    /// error says why the engine cannot take them.
    pub fn build(
        matrix: &Matrix,
        engine: EngineKind,
        branching: Branching,
    ) -> Result<EngineTables, EngineError> {
        if !engine.supports(branching) {
            return Err(EngineError::rule(engine, branching));
        }
        let refused = |why: &dyn fmt::Display| EngineError::matrix(engine, why);
        Ok(match engine {
            EngineKind::Links => EngineTables::Links,
            EngineKind::Dense => {
                EngineTables::Dense(DenseMatrix::new(matrix).map_err(|e| refused(&e))?)
            }
            EngineKind::Bits => {
                EngineTables::Bits(BitsMatrix::new(matrix).map_err(|e| refused(&e))?)
            }
            EngineKind::Masks => {
                EngineTables::Masks(MasksMatrix::new(matrix).map_err(|e| refused(&e))?)
            }
        })
    }

    /// The fastest engine that honours `branching` on `matrix` (see the
    /// module documentation), with its tables.
    pub fn auto(matrix: &Matrix, branching: Branching) -> EngineTables {
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

    /// Which engine these tables are for.
    pub fn kind(&self) -> EngineKind {
        match self {
            EngineTables::Links => EngineKind::Links,
            EngineTables::Dense(_) => EngineKind::Dense,
            EngineTables::Bits(_) => EngineKind::Bits,
            EngineTables::Masks(_) => EngineKind::Masks,
        }
    }

    /// The tables, borrowed, for [`count_parallel`](crate::dlx::count_parallel).
    pub fn engine(&self) -> super::Engine<'_> {
        match self {
            EngineTables::Links => super::Engine::Links,
            EngineTables::Dense(d) => super::Engine::Dense(d),
            EngineTables::Bits(b) => super::Engine::Bits(b),
            EngineTables::Masks(m) => super::Engine::Masks(m),
        }
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
