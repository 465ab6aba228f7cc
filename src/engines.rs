//! The engines one by one, for experts: each representation of the live
//! matrix with its own solver and tables, and the counts on threads as
//! free functions. [`Solver`](crate::Solver) is the way in for everyone
//! else: it chooses among these (or takes the one a
//! [`Config`](crate::Config) names), refuses what an engine cannot take,
//! and counts on threads with [`Config::jobs`](crate::Config::jobs).
//!
//! What only an engine's own solver offers: [`LinksSolver::check_links`]
//! (DLX1's `sanity()`), tables built once and shared by many solvers
//! ([`DenseMatrix`], [`BitsMatrix`], [`MasksMatrix`], [`BandsMatrix`], or any of them as
//! [`EngineTables`]), the masks engine's [`Intersections`] and
//! [`MasksSolver::give_away`]. The engines' solvers refuse what the front
//! door refuses: a rule an engine does not take is an
//! [`EngineError`](crate::EngineError) from their `set_branching`.
//!
//! | engine | takes | refuses |
//! |---|---|---|
//! | [`LinksSolver`] | every matrix; Knuth's rule, first-forced, lookahead | lookahead with multiplicities |
//! | [`DenseSolver`] | no colors, a state of at most [`MAX_STATE_BYTES`]; Knuth's rule, first-forced; multiplicities | lookahead |
//! | [`BitsSolver`] | no colors, at most [`MAX_BITS_PRIMARY`] primary items and [`MAX_BITS_OPTIONS`] options; Knuth's rule; multiplicities | first-forced, lookahead |
//! | [`MasksSolver`] | no colors, no multiplicities, at most [`MAX_MASK_OPTIONS`] options an item; Knuth's rule, first-forced, lookahead | — |
//! | [`BandsSolver`] | classic 9×9 Sudoku's matrix ([`BandsMatrix::new`] says why not); first-forced | Knuth's rule, lookahead, propagators |

pub use crate::dlx::{
    best_parallel, count_parallel, count_parallel_with_progress, BandsError, BandsMatrix,
    BandsSolutions, BandsSolver, BitsError, BitsMatrix, BitsSolutions, BitsSolver, DenseError,
    DenseMatrix, DenseSolutions, DenseSolver, Engine, EngineTables, Intersections, LinkError,
    LinksSolutions, LinksSolver, MasksError, MasksMatrix, MasksSolutions, MasksSolver,
    ParallelBest, ParallelCount, MAX_BITS_OPTIONS, MAX_BITS_PRIMARY, MAX_MASK_OPTIONS,
    MAX_STATE_BYTES, PAYING_LOOK, SMALL_STATE_BYTES, SPLIT_UPDATES, SUBTREES_PER_JOB,
};
