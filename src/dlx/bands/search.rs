//! The bands engine's search: the kernel the one driver runs over
//! [`Bands`] (a node's forced options committed together and handed to the
//! driver one a level, branch points saved and jumped back to), and
//! [`BandsSolver`], its solver.

#![allow(unsafe_code)]

use super::{BandsMatrix, Board, Queue, CELLS};
use crate::dlx::engine::Shared;
use crate::dlx::index::OptionId;
use crate::dlx::search::driver::{Driver, Enter, Kernel};
use crate::dlx::search::{engine_queries, Branching, PreselectError, Step};
use crate::dlx::stats::Stats;
use crate::dlx::{EngineError, EngineKind, Subtree};

/// No cursor: what `Bands::handed` holds when the last option handed to
/// the driver was a branch point's.
const NONE: u32 = u32::MAX;

/// A branch point: its level, its cell and the digits not yet tried.
#[derive(Clone, Copy, Debug, Default)]
struct Branch {
    level: u32,
    cell: u8,
    rest: u16,
}

/// One search's state: the board searched, the root's (after the
/// preselected options), the boards saved at branch points and the queue
/// of forced options not yet handed to the driver.
#[derive(Clone, Debug)]
struct Bands {
    root: Board,
    board: Board,
    saved: Vec<Board>,
    branches: Vec<Branch>,
    top: usize,
    queue: Queue,
    /// The forced option last handed to the driver (its cursor), or
    /// [`NONE`]: its commit is then a branch point's, to be made.
    handed: u32,
    /// Whether the board was reduced since the last option committed by a
    /// branch point, and found dead.
    reduced: bool,
    dead: bool,
}

impl Bands {
    fn new() -> Bands {
        Bands {
            root: Board::empty(),
            board: Board::empty(),
            saved: Vec::new(),
            branches: Vec::new(),
            top: 0,
            queue: Queue::new(),
            handed: NONE,
            reduced: false,
            dead: false,
        }
    }

    /// Back to the root board, before the search's first node.
    fn restart(&mut self) {
        self.board = self.root;
        self.top = 0;
        self.queue.clear();
        self.handed = NONE;
        self.reduced = false;
        self.dead = false;
    }

    /// Pushes a branch point at `level` on `cell`, saving the board.
    fn push(&mut self, level: usize, cell: usize, rest: u32) {
        if self.saved.len() <= self.top {
            self.saved.push(self.board);
            self.branches.push(Branch::default());
        } else {
            self.saved[self.top] = self.board;
        }
        self.branches[self.top] = Branch {
            level: level as u32,
            cell: cell as u8,
            rest: rest as u16,
        };
        self.top += 1;
    }
}

/// The bands kernel (one: the engine takes one shape).
struct BandsKernel;

impl Kernel for BandsKernel {
    type Tables = BandsMatrix;
    type State = Bands;
    const UNDOES: bool = false;
    const JUMPS: bool = true;

    unsafe fn start(_t: &BandsMatrix, s: &mut Bands) {
        s.restart();
    }

    /// The next forced option of the queue; else the board reduced (its
    /// forced options queued, the first handed over), else a branch point
    /// on a cell of fewest digits.
    #[inline(always)]
    unsafe fn enter(t: &BandsMatrix, s: &mut Bands, level: usize, stats: &mut Stats) -> Enter {
        if s.dead {
            return Enter::DEAD;
        }
        if !s.reduced {
            s.reduced = true;
            s.queue.clear();
            if !s.board.reduce(&mut s.queue) {
                s.dead = true;
                return Enter::DEAD;
            }
            stats.updates += s.queue.len as u64;
        }
        if let Some(p) = s.queue.pop() {
            let cur = t.option_of(p);
            s.handed = cur;
            return Enter::forced(Some(cur));
        }
        let Some((cell, digits)) = s.board.branch_cell() else {
            return Enter::Solved;
        };
        if digits == 0 {
            // (Never: a reduced board has a digit for every open cell.)
            return Enter::DEAD;
        }
        let first = digits.trailing_zeros() as usize;
        s.push(level, cell, digits & (digits - 1));
        s.handed = NONE;
        Enter::branch(Some(t.option_of(cell * 9 + first)), digits.count_ones())
    }

    #[inline(always)]
    unsafe fn commit(
        t: &BandsMatrix,
        s: &mut Bands,
        _level: usize,
        cur: u32,
        stats: &mut Stats,
    ) -> bool {
        if cur == s.handed {
            // A forced option, committed when it was found.
            s.handed = NONE;
            return s.queue.is_empty() && s.board.solved();
        }
        // A branch point's option: active in the board saved there.
        let Some(p) = t.place_of(cur as usize) else {
            s.dead = true;
            return false;
        };
        let (cell, d) = (p / 9, p % 9);
        stats.updates += 1;
        s.reduced = false;
        s.queue.clear();
        match s.board.put(cell / 27, d, cell % 27) {
            super::Put::Placed => s.board.solved(),
            _ => {
                s.dead = true;
                false
            }
        }
    }

    unsafe fn retract(_t: &BandsMatrix, _s: &mut Bands, _level: usize, _cur: u32) -> Option<u32> {
        // Never called: the driver backs down by `resume`.
        None
    }

    unsafe fn leave(_t: &BandsMatrix, _s: &mut Bands, _level: usize) {}

    /// `enter` saved the board and pushed the branch point: popped, with
    /// the board unchanged since.
    unsafe fn abandon(_t: &BandsMatrix, s: &mut Bands, _level: usize) {
        s.top -= 1;
    }

    /// Backtracks to the innermost branch point with a digit left, its
    /// board restored.
    #[inline(always)]
    unsafe fn resume(t: &BandsMatrix, s: &mut Bands, _again: bool) -> Option<(usize, u32)> {
        while s.top > 0 {
            let b = s.top - 1;
            let branch = s.branches[b];
            if branch.rest == 0 {
                s.top = b;
                continue;
            }
            s.board = s.saved[b];
            s.queue.clear();
            s.handed = NONE;
            s.reduced = true;
            s.dead = false;
            let d = branch.rest.trailing_zeros() as usize;
            s.branches[b].rest = branch.rest & (branch.rest - 1);
            let cur = t.option_of(usize::from(branch.cell) * 9 + d);
            return Some((branch.level as usize, cur));
        }
        None
    }

    /// The shallowest branch point with digits left hands them all over.
    unsafe fn give_away(t: &BandsMatrix, s: &mut Bands) -> Option<(usize, Vec<u32>)> {
        let b = (0..s.top).find(|&b| s.branches[b].rest != 0)?;
        let branch = &mut s.branches[b];
        let mut rest = std::mem::take(&mut branch.rest);
        let mut options = Vec::with_capacity(rest.count_ones() as usize);
        while rest != 0 {
            let d = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            options.push(t.option_of(usize::from(branch.cell) * 9 + d));
        }
        Some((branch.level as usize, options))
    }
}

/// One search over a [`BandsMatrix`]: the driver beside the bands state.
/// First-forced only (see the module documentation); the queries mirror
/// [`MasksSolver`](crate::dlx::MasksSolver)'s.
#[derive(Clone, Debug)]
pub struct BandsSolver<'m> {
    matrix: Shared<'m, BandsMatrix>,
    driver: Driver,
    state: Bands,
}

impl<'m> BandsSolver<'m> {
    /// A solver over `matrix`, first-forced (its only rule).
    pub fn new(matrix: &'m BandsMatrix) -> Self {
        Self::with_tables(Shared::Borrowed(matrix))
    }

    /// A solver over tables it may own.
    pub(crate) fn with_tables(matrix: Shared<'m, BandsMatrix>) -> Self {
        BandsSolver {
            matrix,
            driver: Driver::new(CELLS, super::ITEMS),
            state: Bands::new(),
        }
    }

    /// The tables searched.
    pub(crate) fn tables(&self) -> &BandsMatrix {
        &self.matrix
    }

    /// The branching rule: always [`Branching::FirstForced`].
    pub fn branching(&self) -> Branching {
        Branching::FirstForced
    }

    /// Takes first-forced (abandoning the search in progress), refuses
    /// every other rule.
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        EngineKind::Bands.check_rule(branching)?;
        self.restart();
        Ok(())
    }

    /// Undoes everything, preselected options included; zeroes the counters.
    pub fn reset(&mut self) {
        self.state.root = Board::empty();
        self.state.restart();
        self.driver.reset();
    }

    /// Abandons the search in progress (keeping preselected options).
    pub fn restart(&mut self) {
        let (m, d) = (&*self.matrix, &mut self.driver);
        // SAFETY: the bands kernel does not undo (`UNDOES` is false), so
        // restarting calls none of its steps.
        unsafe { d.restart::<BandsKernel>(m, &mut self.state) };
    }

    /// Commits to `option` before the search (see
    /// [`LinksSolver::preselect`](crate::dlx::LinksSolver::preselect)).
    /// Abandons any search in progress; undone by [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        self.preselect_each(std::slice::from_ref(&option))
    }

    /// Replaces every preselection by `options`: as [`reset`](Self::reset)
    /// followed by [`preselect`](Self::preselect) of each; on a refusal
    /// nothing is preselected.
    pub fn preselect_all(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        self.reset();
        let result = self.preselect_each(options);
        if result.is_err() {
            self.reset();
        }
        result
    }

    /// Preselects each of `options` in order, stopping at the first refused.
    fn preselect_each(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        let before = self.driver.preselected.len();
        let mut result = Ok(());
        for &option in options {
            let Some(p) = self.matrix.place_of(option.as_usize()) else {
                result = Err(PreselectError::UnknownOption(option));
                break;
            };
            let (cell, d) = (p / 9, p % 9);
            if self.state.root.put(cell / 27, d, cell % 27) != super::Put::Placed {
                let with = self
                    .driver
                    .preselected
                    .iter()
                    .copied()
                    .find(|&q| {
                        self.matrix
                            .place_of(q.as_usize())
                            .is_some_and(|q| clash(p, q))
                    })
                    .unwrap_or(option);
                result = Err(PreselectError::Conflict { option, with });
                break;
            }
            self.driver.stats.updates += 1;
            self.driver.preselected.push(option);
        }
        if self.driver.preselected.len() > before {
            self.restart();
        }
        result
    }

    /// Hands over the untried options of the shallowest branch point of
    /// the paused search, each as a subtree (see
    /// [`MasksSolver::give_away`](crate::dlx::MasksSolver::give_away)).
    pub fn give_away(&mut self) -> Option<Vec<Subtree>> {
        let (m, d) = (&*self.matrix, &mut self.driver);
        // SAFETY: the state was made for these tables and kept since by the
        // kernel and this solver's preselection.
        let (path, options) = unsafe { d.give_away::<BandsKernel>(m, &mut self.state)? };
        Some(Subtree::given_away(&path, &options))
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        let (m, d) = (&*self.matrix, &mut self.driver);
        // SAFETY: the state was made for these tables (`with_tables`) and
        // kept since by the kernel and this solver's preselection.
        unsafe { d.run::<BandsKernel>(m, &mut self.state) }
    }
}

/// Whether places `p` and `q` (`cell·9 + d`) share an item: a cell, or a
/// digit in a row, column or box.
fn clash(p: usize, q: usize) -> bool {
    let (a, d) = (p / 9, p % 9);
    let (b, e) = (q / 9, q % 9);
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a == b || d == e && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

engine_queries!(BandsSolver, BandsSolutions, |_s, r| Some(OptionId::must(
    r as usize
)));
crate::dlx::search::plain_subtrees!(BandsSolver, EngineKind::Bands);

impl<'m> crate::dlx::engine::Registered<'m> for BandsSolver<'m> {
    type Tables = BandsMatrix;
    const RULES: &'static str = "first-forced only";
    const DEFAULT_RULE: Branching = Branching::FirstForced;
    const KERNELS: usize = 1;

    fn supports(branching: Branching) -> bool {
        branching == Branching::FirstForced
    }

    fn build(matrix: &crate::dlx::Matrix) -> Result<BandsMatrix, String> {
        BandsMatrix::new(matrix).map_err(|e| e.to_string())
    }

    fn options_of(tables: &BandsMatrix) -> Option<usize> {
        Some(tables.option_count())
    }

    fn over(
        _matrix: Shared<'m, crate::dlx::Matrix>,
        tables: Shared<'m, BandsMatrix>,
        _branching: Branching,
    ) -> Self {
        BandsSolver::with_tables(tables)
    }

    fn tables_of(&self) -> &BandsMatrix {
        self.tables()
    }

    fn switch_rule(&mut self, branching: Branching) -> Result<(), EngineError> {
        self.set_branching(branching)
    }

    fn preselect_each(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        self.preselect_all(options)
    }

    fn hand_over(&mut self) -> Option<Vec<Subtree>> {
        self.give_away()
    }

    fn gives_away(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    //! The bands engine against the links and masks engines on classic
    //! Sudoku's matrix: random puzzles of many solutions and none, every
    //! solution checked by `verify_cover`; preselection, budget pauses and
    //! the options given away (Miri runs this last one alone).
    use super::*;
    use crate::dlx::search::engine_tests::budget_pauses_and_resumes;
    use crate::dlx::{verify_cover, BandsError, MasksMatrix, Matrix, MatrixBuilder};
    use crate::dlx::{MasksSolver, OptionId};
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// Classic Sudoku's matrix in the Sudoku layer's layout, its options
    /// in the order `order` gives (cell·9 + d for each option), or with a
    /// box item moved where `wrong` names an option.
    fn sudoku_matrix(order: &[usize], wrong: Option<usize>) -> Matrix {
        let mut b = MatrixBuilder::new();
        let items: Vec<_> = (0..324)
            .map(|i| b.primary(&format!("i{i}")).unwrap())
            .collect();
        for (k, &p) in order.iter().enumerate() {
            let (cell, d) = (p / 9, p % 9);
            let (r, c) = (cell / 9, cell % 9);
            let x = r / 3 * 3 + c / 3;
            let bx = if wrong == Some(k) { (x + 1) % 9 } else { x };
            b.option(&[
                items[cell],
                items[81 + r * 9 + d],
                items[162 + c * 9 + d],
                items[243 + bx * 9 + d],
            ])
            .unwrap();
        }
        b.build().unwrap()
    }

    /// A random solution grid (digits 0..9 by cell): a pattern shuffled
    /// by digits, rows within bands, bands, columns within stacks, stacks.
    fn grid(rng: &mut StdRng) -> Vec<usize> {
        let mut digits: Vec<usize> = (0..9).collect();
        digits.shuffle(rng);
        let lines = |rng: &mut StdRng| {
            let mut bands = [0, 1, 2];
            bands.shuffle(rng);
            let mut out = Vec::new();
            for b in bands {
                let mut rows = [0, 1, 2];
                rows.shuffle(rng);
                out.extend(rows.iter().map(|r| 3 * b + r));
            }
            out
        };
        let (rows, cols) = (lines(rng), lines(rng));
        (0..81)
            .map(|cell| {
                let (r, c) = (rows[cell / 9], cols[cell % 9]);
                digits[(r * 3 + r / 3 + c) % 9]
            })
            .collect()
    }

    /// The options of the givens of a random puzzle from a random grid,
    /// each cell kept with probability `keep`.
    fn puzzle(rng: &mut StdRng, m: &BandsMatrix, keep: f64) -> Vec<OptionId> {
        grid(rng)
            .iter()
            .enumerate()
            .filter(|_| rng.gen_bool(keep))
            .map(|(cell, &d)| OptionId::must(m.option_of(cell * 9 + d) as usize))
            .collect()
    }

    // (Under Miri, which interprets each step, the last test alone: the
    // engine indexes nothing unchecked, and these two build matrices of
    // 729 options for other engines too.)
    #[test]
    #[cfg_attr(miri, ignore)]
    fn takes_sudokus_matrix_in_any_option_order_and_refuses_others() {
        let layer = crate::sudoku::SudokuMatrix::new(3).unwrap();
        assert!(BandsMatrix::new(layer.matrix()).is_ok());
        let mut order: Vec<usize> = (0..729).collect();
        order.shuffle(&mut StdRng::seed_from_u64(1));
        let m = sudoku_matrix(&order, None);
        let bm = BandsMatrix::new(&m).unwrap();
        // Option k places what `order[k]` says.
        assert!((0..729).all(|k| bm.place_of(k) == Some(order[k])));
        assert_eq!(
            BandsMatrix::new(&sudoku_matrix(&order, Some(5))).unwrap_err(),
            BandsError::NotSudoku(OptionId::must(5))
        );
        let queens = crate::problems::queens(8).unwrap();
        assert!(matches!(
            BandsMatrix::new(&queens),
            Err(BandsError::Size { options: 64, .. })
        ));
        let four = crate::sudoku::SudokuMatrix::new(2).unwrap();
        assert!(BandsMatrix::new(four.matrix()).is_err());
        // The same solutions as the links engine, options shuffled.
        let mut rng = StdRng::seed_from_u64(2);
        for _ in 0..10 {
            let givens = puzzle(&mut rng, &bm, 0.45);
            let mut s = BandsSolver::new(&bm);
            s.preselect_all(&givens).unwrap();
            let mut links = crate::dlx::LinksSolver::new(&m);
            links.preselect_all(&givens).unwrap();
            let n = links.count_up_to(50);
            if n.complete {
                let got = same_solutions_preselected(&m, &mut s, &givens);
                assert_eq!(got, n.solutions);
            }
        }
    }

    /// `s`'s solutions (preselected `givens`) against the links engine's,
    /// each checked; returns how many.
    fn same_solutions_preselected(m: &Matrix, s: &mut BandsSolver<'_>, givens: &[OptionId]) -> u64 {
        let sorted = |mut v: Vec<OptionId>| {
            v.sort();
            v
        };
        let mut mine: Vec<_> = s.solutions().map(sorted).collect();
        for sol in &mine {
            verify_cover(m, sol).unwrap();
        }
        let mut links = crate::dlx::LinksSolver::new(m);
        links.preselect_all(givens).unwrap();
        let mut theirs: Vec<_> = links.solutions().map(sorted).collect();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs);
        mine.len() as u64
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn counts_random_puzzles_as_the_masks_engine() {
        let layer = crate::sudoku::SudokuMatrix::new(3).unwrap();
        let m = layer.matrix();
        let (bm, mm) = (BandsMatrix::new(m).unwrap(), MasksMatrix::new(m).unwrap());
        let mut rng = StdRng::seed_from_u64(3);
        let (mut unique, mut many, mut none) = (0, 0, 0);
        for case in 0..400 {
            let keep = [0.2, 0.3, 0.4, 0.45, 0.5][case % 5];
            let mut givens = puzzle(&mut rng, &bm, keep);
            if case % 3 == 2 {
                // A given moved to another digit that no given clashes
                // with: often no solution.
                let p = bm.place_of(givens[0].as_usize()).unwrap();
                let shift = rng.gen_range(1..9);
                let other = (1..9)
                    .map(|k| p / 9 * 9 + (p % 9 + shift + k) % 9)
                    .find(|&q| {
                        givens[1..]
                            .iter()
                            .all(|g| !clash(q, bm.place_of(g.as_usize()).unwrap()))
                    });
                if let Some(q) = other {
                    givens[0] = OptionId::must(bm.option_of(q) as usize);
                }
            }
            let mut s = BandsSolver::new(&bm);
            let mut masks = MasksSolver::new(&mm);
            masks.set_branching(Branching::FirstForced).unwrap();
            let (a, b) = (s.preselect_all(&givens), masks.preselect_all(&givens));
            assert_eq!(a, b, "case {case}");
            if a.is_err() {
                continue;
            }
            let (got, want) = (s.count_up_to(30), masks.count_up_to(30));
            assert_eq!(got, want, "case {case}");
            match want.solutions {
                0 => none += 1,
                1 => unique += 1,
                _ => many += 1,
            }
            if want.complete && want.solutions <= 4 {
                s.preselect_all(&givens).unwrap();
                same_solutions_preselected(m, &mut s, &givens);
            }
        }
        assert!(
            unique > 20 && many > 20 && none > 20,
            "{unique} {many} {none}"
        );
    }

    #[test]
    fn preselection_budget_pauses_and_giving_away() {
        let layer = crate::sudoku::SudokuMatrix::new(3).unwrap();
        let m = layer.matrix();
        let bm = BandsMatrix::new(m).unwrap();
        let mut rng = StdRng::seed_from_u64(4);
        let givens = puzzle(&mut rng, &bm, 0.3);
        // A clash names the given it clashes with; an unknown option is
        // refused; nothing stays preselected after `preselect_all` refuses.
        let mut s = BandsSolver::new(&bm);
        let first = givens[0];
        let p = bm.place_of(first.as_usize()).unwrap();
        let same_cell = OptionId::must(bm.option_of(p / 9 * 9 + (p % 9 + 1) % 9) as usize);
        s.preselect(first).unwrap();
        assert_eq!(
            s.preselect(same_cell),
            Err(PreselectError::Conflict {
                option: same_cell,
                with: first
            })
        );
        assert_eq!(
            s.preselect(OptionId::must(729)),
            Err(PreselectError::UnknownOption(OptionId::must(729)))
        );
        assert!(s.preselect_all(&[first, first]).is_err());
        assert_eq!(s.preselected().count(), 0);
        // A puzzle of a few solutions (a small tree, for Miri too): the
        // first of these random ones with 2 to 40.
        let few = (0..)
            .map(|_| {
                let mut givens = puzzle(&mut rng, &bm, 0.45);
                givens.truncate(givens.len() - 3);
                givens
            })
            .find(|few| {
                let mut s = BandsSolver::new(&bm);
                s.preselect_all(few).is_ok() && (2..=40).contains(&s.count_up_to(41).solutions)
            })
            .unwrap();
        let few = &few[..];
        // Paused by budget every 7 nodes: the same solutions and counters.
        let (mut whole, mut paused) = (BandsSolver::new(&bm), BandsSolver::new(&bm));
        whole.preselect_all(few).unwrap();
        paused.preselect_all(few).unwrap();
        budget_pauses_and_resumes(&mut whole, &mut paused, 7);
        // Given away at the first solution: the subtrees and the rest find
        // every solution once.
        let mut s = BandsSolver::new(&bm);
        s.preselect_all(few).unwrap();
        let total = s.count().solutions;
        assert!((2..=40).contains(&total), "{total}");
        s.restart();
        assert_eq!(s.next_solution(), Step::Solution);
        let subtrees = s.give_away().unwrap();
        let mut found = 1;
        while s.next_solution() == Step::Solution {
            found += 1;
        }
        for sub in &subtrees {
            let mut t = BandsSolver::new(&bm);
            t.preselect_all(few).unwrap();
            for &o in &sub.options {
                t.preselect(o).unwrap();
            }
            found += t.count().solutions;
        }
        assert_eq!(found, total);
    }
}
