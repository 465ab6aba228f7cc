//! The bits engine's search: the kernel the one driver runs over a
//! [`BitsMatrix`]'s bit-sliced states, and [`BitsSolver`], its solver. The
//! module's invariants are in `mod.rs`.

#![allow(unsafe_code)]

use super::*;
use crate::dlx::engine::Shared;
use crate::dlx::index::OptionId;
use crate::dlx::search::driver::{Driver, Enter, Kernel};
use crate::dlx::search::mult::PerLevel;
use crate::dlx::search::{check_preselect, engine_queries, Branching, PreselectError, Step};
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::{at, copy_slot, set, span};
use crate::dlx::{EngineError, EngineKind};

/// In `State::item`: the level's item had one option and was not covered
/// on its own.
const FORCED_FLAG: u32 = 1 << 31;

/// One search over a [`BitsMatrix`]: the search driver beside the states.
/// Allocated once by [`BitsSolver::new`]; solving, counting, preselecting
/// and resetting allocate nothing. The queries mirror
/// [`LinksSolver`](crate::dlx::LinksSolver)'s.
#[derive(Clone, Debug)]
pub struct BitsSolver<'m> {
    pub(super) matrix: Shared<'m, BitsMatrix>,
    pub(super) driver: Driver,
    pub(super) state: State,
}

/// The kernel's scratch state.
#[derive(Clone, Debug)]
pub(super) struct State {
    /// Every state slot, `slot` words each (see the module's invariants).
    pub(super) states: Vec<u64>,
    /// Per level: the branching item (with [`FORCED_FLAG`]).
    pub(super) item: Vec<u32>,
    /// Per level that branches: the updates of covering its item (its
    /// options' costs), counted on entering it.
    pub(super) spent: Vec<u64>,
    /// Per level, with multiplicities, the rest of Algorithm M's
    /// bookkeeping (`search/mult.rs`).
    pub(super) mult: PerLevel,
}

/// The bits kernel for states of `W` option words, lens counted.
pub(super) struct Bits<const W: usize>;

/// A kernel of the bits engine's table ([`bits_kernels!`]): its state's
/// shape, and how the solver runs the driver over it.
pub(super) trait BitsKernel: Kernel<Tables = BitsMatrix, State = State> + Sized {
    /// Words of option bits.
    const W: usize;
    /// Planes of `θ` (0: lens counted, no multiplicities).
    const B: usize;
    /// The driver over this kernel.
    ///
    /// # Safety
    /// The kernel is the one of `s`'s tables' shape, and `s`'s states were
    /// made for its tables.
    unsafe fn run(s: &mut BitsSolver<'_>) -> Step {
        s.driver.run::<Self>(&s.matrix, &mut s.state)
    }
}

impl<const W: usize> BitsKernel for Bits<W> {
    const W: usize = W;
    const B: usize = 0;

    unsafe fn run(s: &mut BitsSolver<'_>) -> Step {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        match s.matrix.popcnt {
            // SAFETY: the processor has `popcnt`, BMI1, BMI2 and LZCNT
            // (`Counts::here`); the rest is this function's contract.
            super::Counts::Bmi => return unsafe { s.run_bmi::<W>() },
            // SAFETY: the processor has `popcnt` (`Counts::here`); the
            // rest is this function's contract.
            super::Counts::Popcnt => return unsafe { s.run_popcnt::<W>() },
            super::Counts::Baseline => {}
        }
        // SAFETY: this function's contract.
        unsafe { s.driver.run::<Self>(&s.matrix, &mut s.state) }
    }
}

impl<const W: usize> Kernel for Bits<W> {
    type Tables = BitsMatrix;
    type State = State;
    const UNDOES: bool = false;

    unsafe fn start(_m: &BitsMatrix, _s: &mut State) {}

    #[inline(always)]
    unsafe fn enter(m: &BitsMatrix, s: &mut State, l: usize, stats: &mut Stats) -> Enter {
        let size = W + 1;
        let here = span(&s.states, 2 * l * size, size);
        let uncovered = at(here, W);
        if uncovered == 0 {
            // Only at the root: nothing to cover, the empty choice solves it.
            return Enter::Solved;
        }
        let active = span(here, 0, W);
        let (i, least) = m.choose_counted::<W>(active, uncovered);
        if least == 0 {
            // A dead end: DLX covers the item (one update) and finds nothing.
            set(&mut s.item, l, i as u32);
            stats.updates += 1;
            return Enter::DEAD;
        }
        let first = m.next_option::<W>(active, i, 0).map(|r| r as u32);
        if least == 1 {
            // Forced: `commit` covers the item too.
            set(&mut s.item, l, FORCED_FLAG | i as u32);
            return Enter::forced(first);
        }
        // Covering the item is counted here, done by each commit: its
        // options are among the conflicts of every one of them.
        set(&mut s.item, l, i as u32);
        let spent = m.spent::<W>(active, i, least);
        set(&mut s.spent, l, spent);
        stats.updates += spent + 1;
        Enter::branch(first, least)
    }

    /// Commits option `r` at `l`: state slot `2l` less `r`'s conflicts
    /// (the level's item's options among them) into slot `2l + 2`.
    #[inline(always)]
    unsafe fn commit(m: &BitsMatrix, s: &mut State, l: usize, r: u32, stats: &mut Stats) -> bool {
        let (size, r) = (W + 1, r as usize);
        let slot = copy_slot(&mut s.states, size, 2 * l, 2 * l + 2);
        let hidden = m.cover_option::<W>(slot, r);
        // Covering r's items (all of them when forced, else all but the
        // branching item) is one update each; at a branch point the hidden
        // options of the item, counted on entering, are not counted again.
        let forced = at(&s.item, l) & FORCED_FLAG != 0;
        let again = if forced { 0 } else { at(&s.spent, l) };
        stats.updates += hidden - again + u64::from(at(&m.opt_cost, r)) + u64::from(forced);
        at(slot, W) == 0
    }

    #[inline(always)]
    unsafe fn retract(m: &BitsMatrix, s: &mut State, l: usize, r: u32) -> Option<u32> {
        let i = (at(&s.item, l) & !FORCED_FLAG) as usize;
        m.next_option::<W>(span(&s.states, 2 * l * (W + 1), W), i, r as usize + 1)
            .map(|r| r as u32)
    }

    unsafe fn leave(_m: &BitsMatrix, _s: &mut State, _l: usize) {}
}

impl<'m> BitsSolver<'m> {
    /// The tables searched (for threads to share).
    pub(crate) fn tables(&self) -> &BitsMatrix {
        &self.matrix
    }

    /// A solver over `matrix`, ready to search.
    pub fn new(matrix: &'m BitsMatrix) -> Self {
        Self::with_tables(Shared::Borrowed(matrix))
    }

    /// A solver over tables it may own.
    pub(crate) fn with_tables(matrix: Shared<'m, BitsMatrix>) -> Self {
        let slot = matrix.root.len();
        let mut s = BitsSolver {
            driver: Driver::new(matrix.max_depth, matrix.primary),
            state: State {
                states: vec![0; 2 * (matrix.max_depth + 2) * slot],
                item: vec![0; matrix.max_depth + 1],
                spent: vec![0; matrix.max_depth + 1],
                mult: PerLevel::new(matrix.max_depth + 1, matrix.bounded),
            },
            matrix,
        };
        s.reset();
        s
    }

    /// The branching rule: Knuth's is this engine's only (its choice is the
    /// leftmost least len); any other is refused.
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        EngineKind::Bits.check_rule(branching)
    }

    /// Undoes everything, preselected options included; zeroes the counters.
    pub fn reset(&mut self) {
        let slot = self.matrix.root.len();
        self.state.states[..slot].copy_from_slice(&self.matrix.root);
        self.driver.reset();
    }

    /// Abandons the search in progress (keeping preselected options).
    pub fn restart(&mut self) {
        // Nothing to undo: the root state is slot 0.
        // SAFETY: the bits kernel does not undo (`UNDOES` is false), so
        // restarting calls none of its steps, whatever its shape parameters.
        unsafe {
            self.driver
                .restart::<Bits<1>>(&self.matrix, &mut self.state)
        };
    }

    /// Commits to `option` before the search (see
    /// [`LinksSolver::preselect`](crate::dlx::LinksSolver::preselect)). Abandons any
    /// search in progress; undone by [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        let tables = self.matrix.clone();
        let m = &*tables;
        if m.bounded {
            // Every root bit is live here, so no conflict is judged by it.
            check_preselect(
                option,
                m.options,
                |r| m.opt_bits[r] == 0,
                &m.root,
                &[],
                |q| m.option(q),
            )?;
            self.restart();
            macro_rules! go {
                ($k:ty) => {
                    self.preselect_bounded::<{ <$k as BitsKernel>::W }, { <$k as BitsKernel>::B }>(
                        option,
                    )
                };
            }
            // SAFETY: the option is one of the matrix's (checked above), the
            // root state is this solver's own, made for its tables, and the
            // table names their shape.
            return unsafe { bits_kernels!(match m.shape(), go;) };
        }
        check_preselect(
            option,
            m.options,
            |r| m.opt_bits[r] == 0,
            &self.state.states,
            &self.driver.preselected,
            |q| m.option(q),
        )?;
        let r = option.as_usize();
        self.restart();
        macro_rules! go {
            ($k:ty) => {
                self.preselect_option::<{ <$k as BitsKernel>::W }>(r)
            };
        }
        // SAFETY: `r` is an active option of the matrix (checked above), the
        // root state is this solver's own and the table names its shape
        // (without multiplicities: the lens are counted, no planes).
        let updates = unsafe { bits_kernels!(match m.shape(), go;) };
        self.driver.stats.updates += updates + u64::from(m.opt_cost[r]) + 1;
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        macro_rules! go {
            ($k:ty) => {
                <$k as BitsKernel>::run(self)
            };
        }
        // SAFETY: the states were made for these tables by `with_tables`
        // and changed since only by the kernels' steps and this solver's
        // preselection; the table names the kernel of the tables' shape.
        unsafe { bits_kernels!(match self.matrix.shape(), go;) }
    }

    /// Covers every item of option `r` in state slot 0 (preselecting).
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds; the matrix has no
    /// multiplicities and `W` words of option bits.
    unsafe fn preselect_option<const W: usize>(&mut self, r: usize) -> u64 {
        self.matrix
            .cover_option::<W>(&mut self.state.states[..W + 1], r)
    }

    /// The driver over the kernel with counted lens, compiled with the
    /// `popcnt` instruction (x86's baseline lacks it: without, a count is a
    /// dozen instructions) and BMI1, BMI2 and LZCNT (`tzcnt`, `andn`,
    /// `blsr`, …).
    ///
    /// # Safety
    /// `W` is the tables' width, they have no multiplicities, and the
    /// processor has `popcnt`, BMI1, BMI2 and LZCNT.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn run_bmi<const W: usize>(&mut self) -> Step {
        self.driver
            .run_inline::<Bits<W>>(&self.matrix, &mut self.state)
    }

    /// [`run_bmi`](Self::run_bmi) for a processor with `popcnt` alone
    /// (x86-64 of 2008–2013): without it the count is a dozen instructions
    /// (1.4–1.5 times the instructions of the bit-sliced kernel it
    /// replaced on queens 12 and Langford 11, BENCHMARKS.md, "One kernel
    /// table an engine").
    ///
    /// # Safety
    /// `W` is the tables' width, they have no multiplicities, and the
    /// processor has `popcnt`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[target_feature(enable = "popcnt")]
    unsafe fn run_popcnt<const W: usize>(&mut self) -> Step {
        self.driver
            .run_inline::<Bits<W>>(&self.matrix, &mut self.state)
    }
}

// The cursor `NULL_MOVE` is Algorithm M's null move (`mult.rs`).
engine_queries!(BitsSolver, BitsSolutions, |_s, r| (r
    != crate::dlx::search::NULL_MOVE)
    .then(|| OptionId::must(r as usize)));

impl<'m> crate::dlx::engine::Registered<'m> for BitsSolver<'m> {
    type Tables = BitsMatrix;
    const RULES: &'static str = "knuth only: its choice is the leftmost least len";
    // On x86 each of Knuth's kernels twice again, compiled for `popcnt`
    // and BMI, and for `popcnt` alone.
    const KERNELS: usize = bits_kernels!(count;)
        + if cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
            2 * super::WORD_SIZES.len()
        } else {
            0
        };

    fn supports(branching: Branching) -> bool {
        branching == Branching::Knuth
    }

    fn build(matrix: &crate::dlx::Matrix) -> Result<BitsMatrix, String> {
        BitsMatrix::new(matrix).map_err(|e| e.to_string())
    }

    fn options_of(tables: &BitsMatrix) -> Option<usize> {
        Some(tables.option_count())
    }

    fn over(
        _matrix: Shared<'m, crate::dlx::Matrix>,
        tables: Shared<'m, BitsMatrix>,
        _branching: Branching,
    ) -> Self {
        BitsSolver::with_tables(tables)
    }

    fn tables_of(&self) -> &BitsMatrix {
        self.tables()
    }

    fn switch_rule(&mut self, branching: Branching) -> Result<(), EngineError> {
        self.set_branching(branching)
    }
}

#[cfg(test)]
mod tests {
    //! Small searches over every path of the bits engine (several shapes of
    //! state, secondary items, ignored options, preselect, budget stop and
    //! resume), each against the DLX solver. Quick enough for Miri, which
    //! checks the unchecked reads.
    use super::*;
    use crate::dlx::search::engine_tests::{self, agree_with_links};
    use crate::dlx::Budget;
    use crate::dlx::{knuth, MatrixBuilder};
    use crate::problems;

    /// The bits engine against the links engine (see `agree_with_links`),
    /// with the updates of hidden options from one cost and from the cost
    /// planes: the same tree.
    fn agree(m: &Matrix) -> u64 {
        let mut counted = BitsMatrix::new(m).unwrap();
        if !m.has_bounds() {
            assert_eq!(counted.planes, 0);
        }
        let solutions = agree_with_links(m, &mut BitsSolver::new(&counted));
        if counted.one_cost.is_some() {
            // The same updates from the cost planes.
            counted.one_cost = None;
            assert_eq!(
                agree_with_links(m, &mut BitsSolver::new(&counted)),
                solutions
            );
        }
        solutions
    }

    #[test]
    fn one_cost_where_every_option_met_has_it() {
        let one = |m: &Matrix| BitsMatrix::new(m).unwrap().one_cost;
        // Queens: a row, a column and two diagonals an option.
        assert_eq!(one(&problems::queens(6).unwrap()), Some(3));
        // Options of 3, 1 and 2 items.
        let m = knuth::read("A B | x y\nA x y\nB\nA B\n".as_bytes()).unwrap();
        assert_eq!(one(&m), None);
        // An option with no primary item (`x`) is never met: it does not
        // count.
        let m = knuth::read("A B | x y\nA x\nB y\nx\n".as_bytes()).unwrap();
        assert_eq!(one(&m), Some(1));
        assert_eq!(agree(&problems::queens(6).unwrap()), 4);
    }

    #[test]
    fn same_tree_as_dlx_on_small_problems() {
        engine_tests::counts_small_problems(agree);
    }

    #[test]
    fn wide_states_secondary_items_and_ignored_options() {
        // 298 options (5 words), item `x0` in 7 of them; 64
        // solutions (each run more doubles them, and Miri's time).
        let (m, ..) = engine_tests::wide(8);
        let bm = BitsMatrix::new(&m).unwrap();
        assert_eq!((bm.words, bm.planes), (5, 0));
        assert_eq!(bm.state_words(), 5 + 1);
        assert!(agree(&m) > 0);
        let mut solver = BitsSolver::new(&bm);
        assert_eq!(
            solver.preselect(OptionId::must(1)),
            Err(PreselectError::IgnoredOption(OptionId::must(1)))
        );
    }

    #[test]
    fn preselect_budget_and_reset() {
        let m = problems::queens(6).unwrap();
        let b = BitsMatrix::new(&m).unwrap();
        let mut s = BitsSolver::new(&b);
        engine_tests::preselect_budget_and_reset(&m, &mut s, true);
        // The profile counts the nodes of each level.
        s.reset();
        s.set_budget(Budget::default());
        s.enable_profile();
        s.count();
        let profile = s.profile().unwrap();
        assert_eq!(profile[0], 1);
        assert_eq!(profile.iter().sum::<u64>(), s.stats().nodes);
    }

    #[test]
    #[cfg_attr(miri, ignore = "builds large matrices: slow under Miri")]
    fn limits_are_refused() {
        let m = knuth::read("A | s\nA s:x\nA s:y\n".as_bytes()).unwrap();
        assert_eq!(BitsMatrix::new(&m).unwrap_err(), BitsError::Colors);
        let many = |primary: usize, options: usize| {
            let mut b = MatrixBuilder::new();
            let items: Vec<_> = (0..primary)
                .map(|k| b.primary(&format!("i{k}")).unwrap())
                .collect();
            for r in 0..options {
                b.option(&[items[r % primary]]).unwrap();
            }
            BitsMatrix::new(&b.build().unwrap()).map(|b| (b.words, b.planes))
        };
        assert_eq!(many(64, 512), Ok((8, 0)));
        assert_eq!(many(65, 65), Err(BitsError::TooManyPrimary(65)));
        assert_eq!(many(64, 513), Err(BitsError::TooManyOptions(513)));
        assert_eq!(many(2, 510), Ok((8, 0)));
        assert_eq!(many(1, 256), Err(BitsError::LongItem(256)));
        assert!(BitsMatrix::new(crate::sudoku::SudokuMatrix::new(3).unwrap().matrix()).is_err());
        assert!(BitsMatrix::new(crate::sudoku::SudokuMatrix::new(2).unwrap().matrix()).is_ok());
    }
}
