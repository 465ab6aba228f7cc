//! The exact-cover core: Knuth's Dancing Links, with no Sudoku knowledge.
//!
//! Which type to use:
//! * [`MatrixBuilder`] → [`Matrix`]: declare items (primary, then secondary),
//!   add options (by name, by [`ItemId`], with colors). Built once, immutable.
//! * [`Solver`]: one search over a matrix, by the engine the library chose
//!   (`Solver::new`: the fastest that honours Knuth's rule, so its counters
//!   are DLX1's) or the one a [`Config`] names ([`Solver::with_config`]; an
//!   [`EngineError`] when it cannot take the matrix or the rule). Queries:
//!   [`Solver::first_solution`], [`Solver::count`], [`Solver::count_up_to`],
//!   [`Solver::solutions`] (a lazy iterator), [`Solver::next_solution`] (step
//!   by step), with a [`Budget`], [`Solver::preselect`] for options fixed in
//!   advance, and a [`Branching`] rule: Knuth's (exact DLX1 counts),
//!   first-forced, or lookahead (failed options pruned at branch points, for
//!   instances whose plain tree explodes).
//! * The engines ([`EngineKind`]; `engine.rs` says what each takes and how the
//!   library chooses), each a kernel under the one search driver
//!   (`search/driver.rs`: level stack, phases, budget, counters, profile,
//!   preselected options, the cut of `split`), and each with its own solver
//!   type for what only it offers: [`LinksSolver`] (dancing links, colors,
//!   lookahead, `check_links`), [`DenseSolver`] over a [`DenseMatrix`] (a
//!   bitset of active options, undone by copying), [`BitsSolver`] over a
//!   [`BitsMatrix`] (lens bit-sliced into a few words), [`MasksSolver`] over a
//!   [`MasksMatrix`] (a bitmask of options per item, forced moves first, a
//!   tree of its own).
//! * [`Solver::split`] cuts a search into subtrees ([`Subtree`]: with
//!   multiplicities they also carry options excluded and items retired);
//!   [`count_parallel`] counts them on several threads with any [`Engine`],
//!   cut by that engine (same count; with Knuth's rule, same counters);
//!   [`best_parallel`] finds the k cheapest on threads sharing the k-th.
//! * [`knuth`]: the DLX1/DLX2 text format. [`verify_cover`]: an independent
//!   checker of solutions; [`brute_force_count`]: an independent counter for
//!   small matrices.
//!
//! # The structure
//!
//! Items 1..=n (slot 0 is the root; only primary items are on its list) and,
//! below them in the node array, the options between spacers. Here TAOCP's
//! example `A B C` with options `A C` and `B`:
//!
//! ```text
//!  items:   root <-> A <-> B <-> C <-> root           (prev/next)
//!  nodes:   0    1(A) 2(B) 3(C) | 4 spacer | 5 A  6 C | 7 spacer | 8 B | 9 spacer
//!                 ^len          |   itm 0  |  up/down |  itm -1  |     |  itm -2
//!  A's list: 1 <-> 5 <-> 1      C's list: 3 <-> 6 <-> 3      B's: 2 <-> 8 <-> 2
//! ```
//!
//! A spacer's `up` points to the first node of the option before it, its
//! `down` to the last node of the option after it, so an option is walked by
//! `q + 1` and a jump at the spacer: no left/right links.
//!
//! Knuth's words are used throughout: *item*, *option*, *node*, *spacer*,
//! *len*, *cover*, *uncover*, *hide*, *unhide*, *purify*. The counters
//! ([`Stats`]) are DLX1's: *nodes* and *updates*.

mod bands;
mod bits;
mod dense;
mod engine;
mod index;
pub mod knuth;
mod links;
mod masks;
mod matrix;
mod memo;
mod parallel;
mod parallel_best;
mod propagate;
mod search;
pub(crate) mod share;
mod solver;
mod stats;
mod unchecked;
mod verify;

pub use bands::{BandsError, BandsMatrix, BandsSolutions, BandsSolver};
pub use bits::{
    BitsError, BitsMatrix, BitsSolutions, BitsSolver, MAX_BITS_OPTIONS, MAX_BITS_PRIMARY,
};
pub use dense::{
    DenseError, DenseMatrix, DenseSolutions, DenseSolver, MAX_STATE_BYTES, SMALL_STATE_BYTES,
};
pub use engine::{Engine, EngineError, EngineKind, EngineTables, Shared};
pub use index::{ColorId, ItemId, OptionId};
pub use links::{LinkError, LinksSolutions, LinksSolver};
pub use masks::{
    Intersections, MasksError, MasksMatrix, MasksSolutions, MasksSolver, MAX_MASK_OPTIONS,
    PAYING_LOOK,
};
pub use matrix::{
    BuildError, BuildErrorKind, Matrix, MatrixBuilder, Residual, ResidualError, Shuffled,
};
pub use memo::{
    AutoCount, BigCount, Memo, MemoCount, MemoError, MemoOrder, MemoStats, DEFAULT_MEMO_BYTES,
};
pub(crate) use parallel::Cut;
pub use parallel::{
    count_parallel, count_parallel_with_progress, ParallelCount, PROGRESS_NODES, SPLIT_UPDATES,
    SUBTREES_PER_JOB,
};
pub use parallel_best::{best_parallel, ParallelBest};
pub(crate) use propagate::StatePart;
pub use propagate::{Live, Propagator};
pub use search::{
    Best, Blame, Branching, Budget, Cancel, Cheapest, Costed, Count, Estimate, Limits,
    PreselectError, Progress, Split, Spread, Step, Stop, Strategy, Subtree, LOOK_NODES,
    LOOK_UPDATES,
};
pub use solver::{Config, Forecast, Solutions, Solver};
pub use stats::Stats;
pub use verify::{brute_force_count, verify_cover, CoverError, BRUTE_FORCE_OPTIONS};
