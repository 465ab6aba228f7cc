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

/// The branching item of a state's `planes` among the `uncovered` items
/// (not 0): the least len, leftmost on ties, and that len.
#[inline(always)]
fn choose<const B: usize>(planes: &[u64], uncovered: u64) -> (usize, u32) {
    let mut least = uncovered;
    for k in (0..B).rev() {
        let zero = least & !planes[k];
        if zero != 0 {
            least = zero;
        }
    }
    let i = least.trailing_zeros();
    let len = (0..B).fold(0, |len, k| len | ((planes[k] >> i) as u32 & 1) << k);
    (i as usize, len)
}

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

/// The bits kernel for states of `W` option words and `B` planes.
struct Bits<const W: usize, const B: usize>;

impl<const W: usize, const B: usize> Kernel for Bits<W, B> {
    type Tables = BitsMatrix;
    type State = State;
    const UNDOES: bool = false;

    unsafe fn start(_m: &BitsMatrix, _s: &mut State) {}

    #[inline(always)]
    unsafe fn enter(m: &BitsMatrix, s: &mut State, l: usize, stats: &mut Stats) -> Enter {
        let size = W + B + 1;
        let here = span(&s.states, 2 * l * size, size);
        let uncovered = at(here, W + B);
        if uncovered == 0 {
            // Only at the root: nothing to cover, the empty choice solves it.
            return Enter::Solved;
        }
        let active = span(here, 0, W);
        let (i, least) = if B == 0 {
            m.choose_counted::<W>(active, uncovered)
        } else {
            choose::<B>(span(here, W, B), uncovered)
        };
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
        let spent = m.spent::<W, B>(active, i, least);
        set(&mut s.spent, l, spent);
        stats.updates += spent + 1;
        Enter::branch(first, least)
    }

    /// Commits option `r` at `l`: state slot `2l` less `r`'s conflicts
    /// (the level's item's options among them) into slot `2l + 2`.
    #[inline(always)]
    unsafe fn commit(m: &BitsMatrix, s: &mut State, l: usize, r: u32, stats: &mut Stats) -> bool {
        let (size, r) = (W + B + 1, r as usize);
        let slot = copy_slot(&mut s.states, size, 2 * l, 2 * l + 2);
        let hidden = m.cover_option::<W, B>(slot, r);
        // Covering r's items (all of them when forced, else all but the
        // branching item) is one update each; at a branch point the hidden
        // options of the item, counted on entering, are not counted again.
        let forced = at(&s.item, l) & FORCED_FLAG != 0;
        let again = if forced { 0 } else { at(&s.spent, l) };
        stats.updates += hidden - again + u64::from(at(&m.opt_cost, r)) + u64::from(forced);
        at(slot, W + B) == 0
    }

    #[inline(always)]
    unsafe fn retract(m: &BitsMatrix, s: &mut State, l: usize, r: u32) -> Option<u32> {
        let i = (at(&s.item, l) & !FORCED_FLAG) as usize;
        m.next_option::<W>(span(&s.states, 2 * l * (W + B + 1), W), i, r as usize + 1)
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
                .restart::<Bits<1, 3>>(&self.matrix, &mut self.state)
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
            // SAFETY: the option is one of the matrix's (checked above), the
            // root state is this solver's own, made for its tables, and
            // `by_shape!` names their shape.
            return unsafe { by_shape!(self.matrix, self.preselect_bounded(option)) };
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
        // SAFETY: `r` is an active option of the matrix (checked above), the
        // root state is this solver's own and `by_shape!` names its shape.
        let updates = unsafe { by_shape!(self.matrix, self.preselect_option(r)) };
        self.driver.stats.updates += updates + u64::from(m.opt_cost[r]) + 1;
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        // SAFETY: the states were made for these tables by `with_tables`
        // and changed since only by the kernels' steps and this solver's
        // preselection; `by_shape!` names the tables' shape, the kernel's
        // parameters.
        unsafe {
            if self.matrix.bounded {
                return by_shape!(self.matrix, self.run_mult());
            }
            by_shape!(self.matrix, self.run())
        }
    }

    /// Covers every item of option `r` in state slot 0 (preselecting).
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn preselect_option<const W: usize, const B: usize>(&mut self, r: usize) -> u64 {
        self.matrix
            .cover_option::<W, B>(&mut self.state.states[..W + B + 1], r)
    }

    /// The driver over Algorithm M's kernel of shape `<W, B>`.
    ///
    /// # Safety
    /// `<W, B>` is the tables' shape.
    unsafe fn run_mult<const W: usize, const B: usize>(&mut self) -> Step {
        self.driver
            .run::<super::mult::BitsMult<W, B>>(&self.matrix, &mut self.state)
    }

    /// The driver over the kernel of shape `<W, B>`.
    ///
    /// # Safety
    /// `<W, B>` is the tables' shape.
    unsafe fn run<const W: usize, const B: usize>(&mut self) -> Step {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if B == 0 && self.matrix.popcnt {
            // SAFETY: the processor has `popcnt`, BMI1, BMI2 and LZCNT
            // (`popcount_is_fast`).
            return self.run_counted::<W>();
        }
        self.driver.run::<Bits<W, B>>(&self.matrix, &mut self.state)
    }

    /// The driver over the kernel with counted lens, compiled with the
    /// `popcnt` instruction (x86's baseline lacks it: without, a count is a
    /// dozen instructions and the kernel slower than the bit-sliced one) and
    /// BMI1, BMI2 and LZCNT (`tzcnt`, `andn`, `blsr`, …).
    ///
    /// # Safety
    /// `<W, 0>` is the tables' shape, and the processor has `popcnt`, BMI1,
    /// BMI2 and LZCNT.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn run_counted<const W: usize>(&mut self) -> Step {
        self.driver
            .run_inline::<Bits<W, 0>>(&self.matrix, &mut self.state)
    }
}

// The cursor `NULL_MOVE` is Algorithm M's null move (`mult.rs`).
engine_queries!(BitsSolver, BitsSolutions, |_s, r| (r
    != crate::dlx::search::NULL_MOVE)
    .then(|| OptionId::must(r as usize)));

impl<'m> crate::dlx::engine::Registered<'m> for BitsSolver<'m> {
    type Tables = BitsMatrix;
    const RULES: &'static str = "knuth only: its choice is the leftmost least len";

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
    /// with lens kept in planes and with lens counted: the same tree.
    fn agree(m: &Matrix) -> u64 {
        let sliced = BitsMatrix::with_lens(m, Some(false)).unwrap();
        let solutions = agree_with_links(m, &mut BitsSolver::new(&sliced));
        let mut counted = BitsMatrix::with_lens(m, Some(true)).unwrap();
        if !m.has_bounds() {
            assert_eq!(counted.planes, 0);
        }
        assert_eq!(
            agree_with_links(m, &mut BitsSolver::new(&counted)),
            solutions
        );
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
        let one = |m: &Matrix| BitsMatrix::with_lens(m, Some(true)).unwrap().one_cost;
        // Queens: a row, a column and two diagonals an option.
        assert_eq!(one(&problems::queens(6).unwrap()), Some(3));
        // Options of 3, 1 and 2 items.
        let m = knuth::read("A B | x y\nA x y\nB\nA B\n".as_bytes()).unwrap();
        assert_eq!(one(&m), None);
        // An option with no primary item (`x`) is never met: it does not
        // count.
        let m = knuth::read("A B | x y\nA x\nB y\nx\n".as_bytes()).unwrap();
        assert_eq!(one(&m), Some(1));
        // Lens in planes keep their own updates.
        let m = problems::queens(6).unwrap();
        assert_eq!(
            BitsMatrix::with_lens(&m, Some(false)).unwrap().one_cost,
            None
        );
        assert_eq!(agree(&m), 4);
    }

    #[test]
    fn same_tree_as_dlx_on_small_problems() {
        engine_tests::counts_small_problems(agree);
    }

    #[test]
    fn wide_states_secondary_items_and_ignored_options() {
        // 298 options (5 words), item `x0` in 7 of them (3 planes); 64
        // solutions (each run more doubles them, and Miri's time).
        let (m, ..) = engine_tests::wide(8);
        let bm = BitsMatrix::with_lens(&m, Some(false)).unwrap();
        assert_eq!((bm.words, bm.planes), (5, 3));
        assert_eq!(bm.state_words(), 5 + 3 + 1);
        let counted = BitsMatrix::with_lens(&m, Some(true)).unwrap();
        assert_eq!((counted.words, counted.planes), (5, 0));
        assert_eq!(counted.state_words(), 5 + 1);
        assert!(agree(&m) > 0);
        let mut solver = BitsSolver::new(&bm);
        assert_eq!(
            solver.preselect(OptionId::must(1)),
            Err(PreselectError::IgnoredOption(OptionId::must(1)))
        );
    }

    #[test]
    fn choose_takes_the_leftmost_least_len() {
        // Lens 5, 2, 7, 2, 0 (item 4 covered), in 3 planes.
        let lens = [5u64, 2, 7, 2, 0];
        let planes: Vec<u64> = (0..3)
            .map(|k| {
                lens.iter()
                    .enumerate()
                    .fold(0, |p, (i, &l)| p | (l >> k & 1) << i)
            })
            .collect();
        assert_eq!(choose::<3>(&planes, 0b01111), (1, 2));
        assert_eq!(choose::<3>(&planes, 0b01101), (3, 2));
        assert_eq!(choose::<3>(&planes, 0b00101), (0, 5));
        assert_eq!(choose::<3>(&planes, 0b10101), (4, 0));
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
            BitsMatrix::with_lens(&b.build().unwrap(), Some(false)).map(|b| (b.words, b.planes))
        };
        assert_eq!(many(64, 512), Ok((8, 4)));
        assert_eq!(many(65, 65), Err(BitsError::TooManyPrimary(65)));
        assert_eq!(many(64, 513), Err(BitsError::TooManyOptions(513)));
        assert_eq!(many(2, 510), Ok((8, 8)));
        assert_eq!(many(1, 256), Err(BitsError::LongItem(256)));
        assert!(BitsMatrix::new(crate::sudoku::SudokuMatrix::new(3).unwrap().matrix()).is_err());
        assert!(BitsMatrix::new(crate::sudoku::SudokuMatrix::new(2).unwrap().matrix()).is_ok());
    }
}
