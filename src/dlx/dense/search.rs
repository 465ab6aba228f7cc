//! The dense engine's search: the kernel the one driver runs over a
//! [`DenseMatrix`]'s states (choice, hide, copy), and [`DenseSolver`], its
//! solver. The module's invariants are in `mod.rs`.

use super::mult::DenseMult;
use super::*;
use crate::dlx::engine::Shared;
use crate::dlx::index::OptionId;
use crate::dlx::search::driver::{Driver, Enter, Kernel};
use crate::dlx::search::mult::PerLevel;
use crate::dlx::search::{
    check_preselect, engine_queries, latest_conflict, Branching, PreselectError, Step,
};
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::{at, copy_slot, span, span_mut, split_mut};
use crate::dlx::{EngineError, EngineKind};

/// The lens part of a state slot, as `u16`s (four to a word): one slot is
/// one array, so a state is copied by one `copy_within`.
#[inline(always)]
pub(super) fn lens(words: &mut [u64]) -> &mut [u16] {
    let n = words.len() * 4;
    // SAFETY: the pointer comes from a live `&mut [u64]` of `n / 4` words,
    // so it is valid, aligned for `u16` (its alignment divides `u64`'s) and
    // covers `n` `u16`s; every bit pattern is a valid `u16`; the result
    // borrows `words`, so nothing else aliases it.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u16>(), n)
    }
}

/// [`lens`], read-only.
#[inline(always)]
pub(super) fn lens_ref(words: &[u64]) -> &[u16] {
    let n = words.len() * 4;
    // SAFETY: as for `lens`, from a shared borrow.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts(words.as_ptr().cast::<u16>(), n)
    }
}

/// The branching item of a state: the smallest len, leftmost on ties; with
/// `forced`, the leftmost item of len 1 or less if there is one. Written as
/// whole-chunk passes so that the compiler vectorizes them.
#[inline]
pub(super) fn choose(len: &[u16], forced: bool) -> (usize, u16) {
    const CHUNK: usize = 16;
    // The first chunk holding a len <= `most`, by whole-chunk folds.
    let find = |most: u16| -> (usize, u16) {
        for (c, chunk) in len.chunks(CHUNK).enumerate() {
            if chunk.iter().fold(false, |a, &l| a | (l <= most)) {
                let k = chunk.iter().position(|&l| l <= most).unwrap_or(0);
                return (c * CHUNK + k, chunk[k]);
            }
        }
        (0, COVERED)
    };
    if forced {
        let (k, l) = find(1);
        if l <= 1 {
            return (k, l);
        }
    }
    // One pass of chunk minima (the leftmost chunk holding the least len),
    // then the leftmost position inside that chunk.
    let (mut at, mut least) = (0, COVERED);
    for (c, chunk) in len.chunks(CHUNK).enumerate() {
        let m = chunk.iter().fold(COVERED, |a, &l| a.min(l));
        if m < least {
            (at, least) = (c * CHUNK, m);
            if m == 0 {
                break;
            }
        }
    }
    let chunk = &len[at..len.len().min(at + CHUNK)];
    (
        at + chunk.iter().position(|&l| l == least).unwrap_or(0),
        least,
    )
}

/// Items whose len fell to 1 or 0 while hiding ([`Branching::FirstForced`]),
/// as in the DLX solver: a stack of fixed capacity (a full stack drops the
/// entry) and the latest item that fell to 0. Entries are hints, checked
/// against the current state when taken.
#[derive(Clone, Debug)]
pub(super) struct Watch {
    stack: Vec<u32>,
    /// The latest item whose len fell to 0 ([`NONE`]: none).
    dead: u32,
}

/// No item.
const NONE: u32 = u32::MAX;

impl Watch {
    #[inline(always)]
    pub(super) fn note(&mut self, item: u32, len: u16) {
        if len == 0 {
            self.dead = item;
        }
        if self.stack.len() < self.stack.capacity() {
            self.stack.push(item);
        }
    }

    pub(super) fn clear(&mut self) {
        self.stack.clear();
        self.dead = NONE;
    }

    /// A watch that notes nothing (no room), while the search's is lent.
    pub(super) fn empty() -> Watch {
        Watch {
            stack: Vec::new(),
            dead: NONE,
        }
    }

    /// The latest item noted at len 0 ([`NONE`]: none), forgotten.
    pub(super) fn take_dead(&mut self) -> u32 {
        std::mem::replace(&mut self.dead, NONE)
    }

    /// The dead item if still valid, else the latest watched item still
    /// uncovered with len 1 or less, else a scan of `len` (the primary
    /// items' lens).
    #[inline]
    fn choose(&mut self, len: &[u16]) -> (usize, u16) {
        let dead = std::mem::replace(&mut self.dead, NONE) as usize;
        if dead < len.len() && len[dead] == 0 {
            return (dead, 0);
        }
        while let Some(x) = self.stack.pop() {
            if let Some(&l) = len.get(x as usize) {
                if l <= 1 {
                    return (x as usize, l);
                }
            }
        }
        choose(len, true)
    }
}

/// One search over a [`DenseMatrix`]: the search driver beside the states.
/// Allocated once by [`DenseSolver::new`]; solving, counting, preselecting
/// and resetting allocate nothing. The queries mirror
/// [`LinksSolver`](crate::dlx::LinksSolver)'s.
#[derive(Clone, Debug)]
pub struct DenseSolver<'m> {
    pub(super) matrix: Shared<'m, DenseMatrix>,
    pub(super) driver: Driver,
    pub(super) state: State,
    branching: Branching,
}

/// The kernel's scratch state.
#[derive(Clone, Debug)]
pub(super) struct State {
    /// Every state slot, `slot` words each: the active bits (`words`), then
    /// the primary items' lens, four to a word (see `lens`), then with
    /// multiplicities their bounds, as the lens.
    pub(super) states: Vec<u64>,
    /// Words of one state slot.
    pub(super) slot: usize,
    /// Uncovered primary items of every state slot (with multiplicities:
    /// neither covered nor ended).
    pub(super) left: Vec<u32>,
    /// Whether the search is first-forced (else Knuth's rule): set as each
    /// search step starts, from the solver's rule.
    pub(super) forced: bool,
    /// Per level: the branching item (with [`FORCED_FLAG`]).
    pub(super) item: Vec<u32>,
    /// Per level, with multiplicities, the rest of Algorithm M's
    /// bookkeeping (`search/mult.rs`).
    pub(super) mult: PerLevel,
    /// With multiplicities and keys of 32 bits, scratch for the choice's
    /// keys, one per primary item (padded); keys of 16 bits are kept in
    /// the state in place of lens (`mult.rs`).
    pub(super) keys32: Vec<i32>,
    pub(super) watch: Watch,
    /// The propagator and the strategy of a search that runs one
    /// (first-forced, no multiplicities: `propagate.rs`).
    pub(super) prop: Option<Box<super::propagate::Propagation>>,
}

/// The dense engine's kernel table (see
/// [`kernel_table!`](crate::dlx::search::driver::kernel_table)): the key is
/// `(bounds, forced, key bits, (uniform option length, its primary
/// items))`. The common shapes of options get their own copy; with
/// multiplicities, options of four primary items with keys of 16 bits, and
/// pentominoes whose pieces are bounded (a piece and five cells, keys of 32
/// bits), each for Knuth's rule and first-forced. Without multiplicities
/// one kernel takes both rules, told by the state ([`State::forced`]):
/// measured against a kernel a rule, the same speed (0.98–1.01, queens 13,
/// Langford 12, pentominoes 6×10, HARD_THERMOS), six kernels fewer.
macro_rules! dense_kernels {
    ($($how:tt)*) => {
        $crate::dlx::search::driver::kernel_table! { $($how)*
            (true, false, 16, (4, 4)) => DenseMult<false, 16, 4, 4>,
            (true, true, 16, (4, 4)) => DenseMult<true, 16, 4, 4>,
            (true, false, 32, (6, 6)) => DenseMult<false, 32, 6, 6>,
            (true, true, 32, (6, 6)) => DenseMult<true, 32, 6, 6>,
            (true, false, 16, _) => DenseMult<false, 16, 0, 0>,
            (true, true, 16, _) => DenseMult<true, 16, 0, 0>,
            (true, false, 32, _) => DenseMult<false, 32, 0, 0>,
            (true, true, 32, _) => DenseMult<true, 32, 0, 0>,
            (true, false, _, _) => DenseMult<false, 64, 0, 0>,
            (true, true, _, _) => DenseMult<true, 64, 0, 0>,
            (false, _, _, (3, 3)) => Dense<3, 3>,
            (false, _, _, (4, 4)) => Dense<4, 4>,
            (false, _, _, (4, 2)) => Dense<4, 2>,
            (false, _, _, (5, 5)) => Dense<5, 5>,
            (false, _, _, (6, 6)) => Dense<6, 6>,
            (false, _, _, _) => Dense<0, 0>,
        }
    };
}

/// The dense kernel: options of `UL` items of which `UP` primary (0:
/// mixed); Knuth's rule or first-forced as the state says
/// ([`State::forced`]), a check a node rather than a copy of the kernel a
/// rule: the items noted at len 1 or 0 as they are hidden are noted under
/// either rule (a rare event; Knuth's choice does not read them).
struct Dense<const UL: usize, const UP: usize>;

impl<const UL: usize, const UP: usize> Kernel for Dense<UL, UP> {
    type Tables = DenseMatrix;
    type State = State;
    const UNDOES: bool = false;
    const AGAINS: bool = true;

    unsafe fn start(_m: &DenseMatrix, s: &mut State) {
        s.watch.clear();
        if let Some(p) = s.prop.as_deref_mut() {
            p.restart(&s.states[..s.slot]);
        }
    }

    /// Enters a node at `l`: picks and covers the branching item (state
    /// slot `2l` into `2l + 1`; after the propagator, where one is set:
    /// `propagate.rs`).
    #[inline(always)]
    unsafe fn enter(m: &DenseMatrix, s: &mut State, l: usize, stats: &mut Stats) -> Enter {
        if s.forced && s.prop.is_some() {
            return s.enter_propagating::<UL, UP>(m, l, stats);
        }
        let (w, n, size) = (m.words, m.primary, s.slot);
        let at = 2 * l;
        if s.left[at] == 0 {
            // Only at the root: nothing to cover, the empty choice solves it.
            return Enter::Solved;
        }
        let here = span(&s.states, at * size, size);
        let len = span(lens_ref(span(here, w, size - w)), 0, n);
        let (i, least) = if s.forced {
            s.watch.choose(len)
        } else {
            choose(len, false)
        };
        s.item[l] = i as u32;
        if least == 0 {
            // A dead end: DLX covers the item (one update) and finds nothing.
            stats.updates += 1;
            return Enter::DEAD;
        }
        let first = m.next_option(span(here, 0, w), i, 0).map(|r| r as u32);
        if least == 1 {
            // Forced: `commit` covers the item too, from slot `2l` itself.
            s.item[l] = FORCED_FLAG | i as u32;
            return Enter::forced(first);
        }
        let slot = copy_slot(&mut s.states, size, at, at + 1);
        let (active, rest) = split_mut(slot, w);
        let len = span_mut(lens(rest), 0, n);
        let mut left = s.left[at];
        stats.updates += if s.forced {
            m.cover::<UL, UP, true>(active, len, &mut left, &mut s.watch, i, 1)
        } else {
            m.cover::<UL, UP, false>(active, len, &mut left, &mut s.watch, i, 1)
        };
        s.left[at + 1] = left;
        Enter::branch(first, least as u32)
    }

    /// Commits option `r` at `l` (state slot `2l + 1`, or `2l` when forced,
    /// plus `r`'s other items into slot `2l + 2`). Returns whether every
    /// primary item is covered.
    #[inline(always)]
    unsafe fn commit(m: &DenseMatrix, s: &mut State, l: usize, r: u32, stats: &mut Stats) -> bool {
        let r = r as usize;
        let (w, n, size) = (m.words, m.primary, s.slot);
        let item = s.item[l];
        // A forced item was not covered into slot `2l + 1`: cover it here.
        let (i, from) = if item & FORCED_FLAG != 0 {
            (usize::MAX, 2 * l)
        } else {
            (item as usize, 2 * l + 1)
        };
        let to = 2 * l + 2;
        let slot = copy_slot(&mut s.states, size, from, to);
        let (active, rest) = split_mut(slot, w);
        let len = span_mut(lens(rest), 0, n);
        let mut left = s.left[from];
        let (start, end) = if UL > 0 {
            (r * UL, r * UL + UL)
        } else {
            (m.opt_start[r] as usize, m.opt_start[r + 1] as usize)
        };
        let mut updates = 0;
        let watch = &mut s.watch;
        if s.forced {
            for q in start..end {
                let j = at(&m.opt_items, q) as usize;
                if j != i {
                    updates += m.cover::<UL, UP, true>(active, len, &mut left, watch, j, 1);
                }
            }
        } else {
            for q in start..end {
                let j = at(&m.opt_items, q) as usize;
                if j != i {
                    updates += m.cover::<UL, UP, false>(active, len, &mut left, watch, j, 1);
                }
            }
        }
        stats.updates += updates;
        s.left[to] = left;
        if s.forced && s.prop.is_some() {
            return s.committed(m, to, r as u32, left == 0, stats);
        }
        left == 0
    }

    #[inline(always)]
    unsafe fn retract_or_again(
        m: &DenseMatrix,
        s: &mut State,
        l: usize,
        r: u32,
        again: bool,
    ) -> Option<u32> {
        if s.forced && s.prop.is_some() {
            return s.next_propagating(m, l, r, again);
        }
        Self::retract(m, s, l, r)
    }

    #[inline(always)]
    unsafe fn retract(m: &DenseMatrix, s: &mut State, l: usize, r: u32) -> Option<u32> {
        let size = s.slot;
        let at = 2 * l;
        let i = (s.item[l] & !FORCED_FLAG) as usize;
        let active = span(&s.states, at * size, m.words);
        m.next_option(active, i, r as usize + 1).map(|r| r as u32)
    }

    unsafe fn leave(_m: &DenseMatrix, _s: &mut State, _l: usize) {}
}

impl<'m> DenseSolver<'m> {
    /// The tables searched (for threads to share).
    pub(crate) fn tables(&self) -> &DenseMatrix {
        &self.matrix
    }

    /// A solver over `matrix`, ready to search. It allocates two state
    /// slots per possible level (the primary items over the fewest primary
    /// items in an option, plus two), zeroed, so the memory is touched only
    /// as deep as the search goes: 9×9 Sudoku 81 levels of 744 bytes.
    pub fn new(matrix: &'m DenseMatrix) -> Self {
        Self::with_tables(Shared::Borrowed(matrix))
    }

    /// A solver over tables it may own.
    pub(crate) fn with_tables(matrix: Shared<'m, DenseMatrix>) -> Self {
        let slots = 2 * (matrix.max_depth + 2);
        let parts = if matrix.bounded { 2 } else { 1 };
        let (keys, padded) = (matrix.narrow, 4 * matrix.len_words());
        let slot = matrix.words + parts * matrix.len_words();
        let mut s = DenseSolver {
            driver: Driver::new(matrix.max_depth, matrix.primary),
            state: State {
                states: vec![0; slots * slot],
                slot,
                left: vec![0; slots],
                forced: false,
                item: vec![0; matrix.max_depth + 1],
                mult: PerLevel::new(matrix.max_depth + 1, matrix.bounded),
                keys32: vec![0; keys.filter(|k| k.wide).map_or(0, |_| padded)],
                watch: Watch {
                    stack: Vec::with_capacity(4 * matrix.primary + 64),
                    dead: NONE,
                },
                prop: None,
            },
            branching: Branching::Knuth,
            matrix,
        };
        s.reset();
        s
    }

    /// The branching rule: [`Branching::Knuth`] or [`Branching::FirstForced`]
    /// (see the module documentation); lookahead is the links engine's only,
    /// and is refused (nothing changes).
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        EngineKind::Dense.check_rule(branching)?;
        if self.state.prop.is_some() && branching != Branching::FirstForced {
            return Err(EngineError::propagation(EngineKind::Dense, branching));
        }
        self.branching = branching;
        Ok(())
    }

    /// Runs `propagator` at the nodes where nothing is forced, from the
    /// next search on, branching as `strategy` says (`None`: none); see
    /// [`Propagator`](crate::dlx::Propagator) for its contract. Searching
    /// first-forced, on a matrix without multiplicities; false, and
    /// nothing changed, elsewhere.
    pub fn set_propagator(
        &mut self,
        propagator: Option<std::sync::Arc<dyn crate::dlx::Propagator>>,
        strategy: crate::dlx::Strategy,
    ) -> bool {
        let Some(propagator) = propagator else {
            self.restart();
            self.state.prop = None;
            return true;
        };
        if self.matrix.bounded || self.branching != Branching::FirstForced {
            return false;
        }
        self.restart();
        self.state.prop = Some(Box::new(super::propagate::Propagation::new(
            &self.matrix,
            propagator,
            strategy,
            &self.driver.preselected,
        )));
        true
    }

    /// A solver over `tables` searching with `branching`, a rule the dense
    /// engine takes (the caller checked it: [`EngineKind::supports`]).
    pub(crate) fn with_rule(tables: Shared<'m, DenseMatrix>, branching: Branching) -> Self {
        debug_assert!(EngineKind::Dense.supports(branching));
        let mut s = Self::with_tables(tables);
        s.branching = branching;
        s
    }

    /// Undoes everything, preselected options included; zeroes the counters.
    pub fn reset(&mut self) {
        let tables = self.matrix.clone();
        let m = &*tables;
        let (w, p, size) = (m.words, m.primary, self.state.slot);
        let (active, rest) = self.state.states[..size].split_at_mut(w);
        active.copy_from_slice(&m.root_active);
        let (len, bound) = rest.split_at_mut(m.len_words());
        if m.bounded {
            m.root_entries(lens(len));
            lens(bound)[..p].copy_from_slice(&m.root_bound);
        } else {
            lens(len)[..p].copy_from_slice(&m.root_len);
        }
        self.state.left[0] = p as u32;
        if let Some(prop) = self.state.prop.as_deref_mut() {
            prop.forget_root();
        }
        self.driver.reset();
    }

    /// Abandons the search in progress (keeping preselected options).
    pub fn restart(&mut self) {
        // Nothing to undo: the root state is slot 0 (the forced items
        // noted are forgotten when the search starts).
        // SAFETY: the dense kernel does not undo (`UNDOES` is false), so
        // restarting calls none of its steps, whatever its parameters.
        unsafe {
            self.driver
                .restart::<Dense<0, 0>>(&self.matrix, &mut self.state)
        };
        // A search that propagates may have hidden options in the root
        // slot at level 0: put back.
        let s = &mut self.state;
        if let Some(p) = s.prop.as_deref_mut() {
            p.put_back(&mut s.states[..s.slot]);
        }
    }

    /// Commits to `option` before the search (see
    /// [`LinksSolver::preselect`](crate::dlx::LinksSolver::preselect)). Abandons any
    /// search in progress; undone by [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        let tables = self.matrix.clone();
        let m = &*tables;
        let ignored = |r| !m.option(r).iter().any(|&i| (i as usize) < m.primary);
        if m.bounded {
            // Every slot-0 bit is live here, so no conflict is judged by it.
            check_preselect(option, m.options, ignored, &m.root_active, &[], |q| {
                m.option(q)
            })?;
            self.restart();
            // SAFETY: the option is one of the matrix's (checked above), and
            // the root slot is this solver's own, made for its tables.
            return unsafe { self.preselect_bounded(option) };
        }
        check_preselect(
            option,
            m.options,
            ignored,
            &self.state.states,
            &self.driver.preselected,
            |q| m.option(q),
        )?;
        let r = option.as_usize();
        self.restart();
        let s = &mut self.state;
        let mut left = s.left[0];
        let (slot, p) = (s.slot, m.primary);
        let (active, rest) = s.states[..slot].split_at_mut(m.words);
        let len = &mut lens(rest)[..p];
        for &i in m.option(r) {
            // SAFETY: `i` is an item of option `r`, an active option of the
            // matrix (checked above); the root slot is this solver's own,
            // split as the tables lay it out.
            self.driver.stats.updates += unsafe {
                m.cover::<0, 0, false>(active, len, &mut left, &mut s.watch, i as usize, 1)
            };
        }
        s.left[0] = left;
        if let Some(p) = s.prop.as_deref_mut() {
            p.note_chosen(m, r);
        }
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// [`preselect`](Self::preselect) with multiplicities: the option is
    /// used once and committed item by item (`mult.rs`); an excluded
    /// option, or one with an item whose bound is used up, is refused.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn preselect_bounded(&mut self, option: OptionId) -> Result<(), PreselectError> {
        let tables = self.matrix.clone();
        let m = &*tables;
        if self.driver.excluded.contains(&option) {
            return Err(PreselectError::Excluded(option));
        }
        let r = option.as_usize();
        let s = &mut self.state;
        let mut left = s.left[0];
        let slot = &mut s.states[..s.slot];
        match m.preselect_bounded(slot, &mut left, &mut s.watch, r) {
            Ok(updates) => self.driver.stats.updates += updates,
            Err(()) => {
                let preselected = &self.driver.preselected;
                return Err(latest_conflict(option, m.option(r), preselected, |q| {
                    m.option(q)
                }));
            }
        }
        s.left[0] = left;
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        // SAFETY (every `run` and `run_mult` below): the states were made
        // for these tables by `with_tables` and changed since only by the
        // kernels' steps and this solver's preselection, and each arm gives
        // the kernel the parameters of the tables' own shape (uniform option
        // lengths, key width), or the general ones (0).
        unsafe { self.next_solution_unchecked() }
    }

    /// [`next_solution`](Self::next_solution)'s dispatch.
    ///
    /// # Safety
    /// The states were made for these tables and kept by the kernels.
    unsafe fn next_solution_unchecked(&mut self) -> Step {
        let m = &*self.matrix;
        // With multiplicities, keys of 16 bits, 32 or 64 (`mult.rs`).
        let key_bits = if m.bounded {
            m.narrow.map_or(64, |k| if k.wide { 32 } else { 16 })
        } else {
            0
        };
        let key = (
            m.bounded,
            self.branching != Branching::Knuth,
            key_bits,
            (m.uniform, m.uniform_primary),
        );
        let s = &mut self.state;
        s.forced = self.branching != Branching::Knuth;
        macro_rules! go {
            ($k:ty) => {
                self.driver.run::<$k>(m, s)
            };
        }
        dense_kernels!(match key, go;)
    }
}

// The cursor `mult::NULL` is the null move.
engine_queries!(DenseSolver, DenseSolutions, |_s, r| (r
    != super::mult::NULL)
    .then(|| OptionId::must(r as usize)));

impl<'m> crate::dlx::engine::Registered<'m> for DenseSolver<'m> {
    type Tables = DenseMatrix;
    const RULES: &'static str = "knuth and first-forced";
    const KERNELS: usize = dense_kernels!(count;);

    fn supports(branching: Branching) -> bool {
        branching != Branching::Lookahead
    }

    fn build(matrix: &crate::dlx::Matrix) -> Result<DenseMatrix, String> {
        DenseMatrix::new(matrix).map_err(|e| e.to_string())
    }

    fn options_of(tables: &DenseMatrix) -> Option<usize> {
        Some(tables.option_count())
    }

    fn over(
        _matrix: Shared<'m, crate::dlx::Matrix>,
        tables: Shared<'m, DenseMatrix>,
        branching: Branching,
    ) -> Self {
        DenseSolver::with_rule(tables, branching)
    }

    fn tables_of(&self) -> &DenseMatrix {
        self.tables()
    }

    fn propagates(branching: Branching) -> bool {
        branching == Branching::FirstForced
    }

    fn propagate(
        &mut self,
        propagator: Option<std::sync::Arc<dyn crate::dlx::Propagator>>,
        strategy: crate::dlx::Strategy,
    ) -> bool {
        self.set_propagator(propagator, strategy)
    }

    fn switch_rule(&mut self, branching: Branching) -> Result<(), EngineError> {
        self.set_branching(branching)
    }
}

#[cfg(test)]
mod tests {
    //! Small searches over every path of the dense engine (uniform and mixed
    //! option lengths, masks and lists, preselect, budget stop and resume),
    //! each against the DLX solver. Quick enough for Miri, which checks the
    //! unchecked indexing.
    use super::*;
    use crate::dlx::search::engine_tests::{self, agree_with_links};
    use crate::dlx::{knuth, LinksSolver, MatrixBuilder};
    use crate::problems;

    /// Every solution of both engines with Knuth's rule: same solutions in
    /// the same order, same nodes and updates; and first-forced finds the
    /// same set.
    fn agree(m: &Matrix) -> u64 {
        let d = DenseMatrix::new(m).unwrap();
        let mut dense = DenseSolver::new(&d);
        let n = agree_with_links(m, &mut dense);
        let mut all: Vec<Vec<OptionId>> = LinksSolver::new(m)
            .solutions()
            .map(|mut s| {
                s.sort();
                s
            })
            .collect();
        dense.set_branching(Branching::FirstForced).unwrap();
        let mut forced: Vec<Vec<OptionId>> = dense
            .solutions()
            .map(|mut s| {
                s.sort();
                s
            })
            .collect();
        forced.sort();
        all.sort();
        assert_eq!(forced, all);
        n
    }

    #[test]
    fn same_tree_as_dlx_on_small_problems() {
        engine_tests::counts_small_problems(agree);
    }

    #[test]
    fn lists_and_masks_and_ignored_options() {
        // 314 options over 5 words (290 under Miri): item `a` has 2 options
        // 313 apart (walked by its list), the `x` items options in a run
        // (masks).
        let (m, a, x) = engine_tests::wide(if cfg!(miri) { 4 } else { 16 });
        let d = DenseMatrix::new(&m).unwrap();
        assert!(d.listed[a.as_usize()]);
        assert!(!d.listed[x[1].as_usize()]);
        assert!(agree(&m) > 0);
    }

    #[test]
    fn preselect_budget_and_reset() {
        let m = problems::queens(6).unwrap();
        let d = DenseMatrix::new(&m).unwrap();
        engine_tests::preselect_budget_and_reset(&m, &mut DenseSolver::new(&d), true);
    }

    #[test]
    #[cfg_attr(miri, ignore = "builds large matrices: slow under Miri")]
    fn colors_and_size_are_refused() {
        let m = knuth::read("A | s\nA s:x\nA s:y\n".as_bytes()).unwrap();
        assert_eq!(DenseMatrix::new(&m).unwrap_err(), DenseError::Colors);
        let mut b = MatrixBuilder::new();
        let items: Vec<_> = (0..5000)
            .map(|k| b.primary(&format!("i{k}")).unwrap())
            .collect();
        b.option(&items[..2]).unwrap();
        let m = b.build().unwrap();
        assert!(matches!(DenseMatrix::new(&m), Err(DenseError::TooLarge(_))));
        assert!(!DenseMatrix::recommended(&m));
        assert!(DenseMatrix::recommended(&problems::queens(13).unwrap()));
        assert!(!DenseMatrix::recommended(&problems::langford(12).unwrap()));
        assert!(!DenseMatrix::recommended(
            crate::sudoku::SudokuMatrix::new(3).unwrap().matrix()
        ));
        assert!(DenseMatrix::recommended(
            &problems::polyomino::packing(&problems::polyomino::PENTOMINOES, 3, 20).unwrap()
        ));
    }
}
