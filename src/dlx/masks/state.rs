//! The masks engine's live state: the lens' choice (Knuth's, in whole
//! chunks), the forced stack, and [`States`], the masks and lens with the
//! states saved at branch points. The module's invariants are in `mod.rs`.

use super::*;
use crate::dlx::index::OptionId;
use crate::dlx::propagate::Propagator;
use crate::dlx::search::driver::Enter;
use crate::dlx::search::strategy::Scores;
use crate::dlx::search::{conflict, PreselectError};
use crate::dlx::unchecked::{at, set};
use std::sync::Arc;

/// Knuth's choice over `lens` (whole chunks of [`CHUNK`]): the leftmost
/// least len and its item, or `None` when every item is covered. A minimum
/// over all lens, then the first chunk with a len equal to it: 16 lens at a
/// time with SSE2.
#[inline(always)]
pub(super) fn choose(lens: &[u8]) -> Option<(usize, u8)> {
    let least = least_len(lens);
    // Above every real len: covered (or padding, or a secondary item's).
    if usize::from(least) > MAX_MASK_OPTIONS {
        return None;
    }
    for (c, part) in lens.chunks_exact(CHUNK).enumerate() {
        let hits = equal_bits(part, least);
        if hits != 0 {
            return Some((c * CHUNK + hits.trailing_zeros() as usize, least));
        }
    }
    None
}

/// The least of `lens` (whole chunks).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn least_len(lens: &[u8]) -> u8 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86_64; every load reads one whole chunk.
    #[allow(unsafe_code)]
    unsafe {
        let mut m = _mm_set1_epi8(-1);
        for part in lens.chunks_exact(CHUNK) {
            m = _mm_min_epu8(m, _mm_loadu_si128(part.as_ptr().cast()));
        }
        m = _mm_min_epu8(m, _mm_srli_si128::<8>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<4>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<2>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<1>(m));
        _mm_cvtsi128_si32(m) as u8
    }
}

/// Bit `k` set when `part[k] == len` (one chunk).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn equal_bits(part: &[u8], len: u8) -> u32 {
    use std::arch::x86_64::*;
    debug_assert_eq!(part.len(), CHUNK);
    // SAFETY: SSE2 is part of x86_64; `part` is one whole chunk.
    #[allow(unsafe_code)]
    unsafe {
        let v = _mm_loadu_si128(part.as_ptr().cast());
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(len as i8))) as u32
    }
}

/// Bit `k` set when `2 <= lens[k] <= reach[k]` (one chunk each): the
/// items `MasksMatrix::intersect` looks at.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn within_reach(lens: &[u8], reach: &[u8]) -> u32 {
    use std::arch::x86_64::*;
    debug_assert!(lens.len() == CHUNK && reach.len() == CHUNK);
    // SAFETY: SSE2 is part of x86_64; both are one whole chunk.
    #[allow(unsafe_code)]
    unsafe {
        let v = _mm_loadu_si128(lens.as_ptr().cast());
        let r = _mm_loadu_si128(reach.as_ptr().cast());
        let below = _mm_cmpeq_epi8(_mm_max_epu8(v, r), r);
        let two = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(2)), v);
        _mm_movemask_epi8(_mm_and_si128(below, two)) as u32
    }
}

/// Bit `k` set when `2 <= lens[k] <= reach[k]`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn within_reach(lens: &[u8], reach: &[u8]) -> u32 {
    lens.iter()
        .zip(reach)
        .enumerate()
        .fold(0, |h, (k, (&l, &r))| h | u32::from(2 <= l && l <= r) << k)
}

/// The least of `lens`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn least_len(lens: &[u8]) -> u8 {
    lens.iter().fold(COVERED, |a, &b| a.min(b))
}

/// Bit `k` set when `part[k] == len`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn equal_bits(part: &[u8], len: u8) -> u32 {
    part.iter()
        .enumerate()
        .fold(0, |h, (k, &l)| h | u32::from(l == len) << k)
}

/// The forced stack: items whose len fell to 1 or 0. Pushed without a
/// branch, so its room is fixed: between two saved states a len falls to 1
/// and to 0 at most once each, so `2·primary` pushes at most, plus the slot
/// written but not kept.
#[derive(Clone, Debug)]
pub(super) struct Forced {
    pub(super) items: Vec<u32>,
    pub(super) top: usize,
    /// Whether a len fell to 0 since the last saved state (the state is
    /// dead). Set while hiding, a flag in a register until the commit ends:
    /// cheaper than looking at each item pushed since the last pick, whose
    /// loop's end was mispredicted about once a pick (1905 11+: 24% of the
    /// branch misses).
    pub(super) dead: bool,
}

impl Forced {
    pub(super) fn new(primary: usize) -> Self {
        Forced {
            items: vec![0; 2 * primary + 1],
            top: 0,
            dead: false,
        }
    }

    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn pop(&mut self) -> Option<u32> {
        if self.top == 0 {
            return None;
        }
        self.top -= 1;
        Some(at(&self.items, self.top))
    }

    pub(super) fn clear(&mut self) {
        self.top = 0;
        self.dead = false;
    }
}

/// The forced stack while an option is committed, its top in a local: kept
/// in the [`Forced`], the top was stored and loaded again around every push
/// (the compiler cannot tell the pushed item's store from the top's), two
/// of a hide's thirteen instructions.
pub(super) struct Push<'a> {
    pub(super) items: &'a mut [u32],
    pub(super) top: usize,
    /// Whether a len fell to 0.
    pub(super) zero: bool,
}

impl Push<'_> {
    /// Pushes item `j`, whose len just fell to `len`, when that is 0 or 1
    /// (written always, kept only then), and notes a len of 0.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn push_if(&mut self, j: u32, len: u8) {
        set(self.items, self.top, j);
        self.top += usize::from(len <= 1);
        self.zero |= len == 0;
    }
}

/// The states of one search, with masks of type `M`.
#[derive(Clone, Debug)]
pub(super) struct States<M> {
    /// The state being searched.
    pub(super) masks: Vec<M>,
    pub(super) lens: Vec<u8>,
    pub(super) forced: Forced,
    /// The matrix's root masks, as `M`s.
    pub(super) start_masks: Vec<M>,
    /// The state after the preselected options (where a search starts), and
    /// the forced items they left.
    pub(super) root_masks: Vec<M>,
    pub(super) root_lens: Vec<u8>,
    /// Saved states, one per branch point (grown as a search first goes
    /// deeper; never shrunk).
    pub(super) saved_masks: Vec<M>,
    pub(super) saved_lens: Vec<u8>,
    pub(super) saved_memory: Vec<u64>,
    /// The branch points of the search in progress.
    pub(super) branches: Branches,
    /// Nodes where nothing is forced look for intersections
    /// (`MasksMatrix::intersect`) before they branch while fewer branch
    /// points than this are in progress: `fixed_depth`, or, while the looks
    /// pay, no limit (set after each look: the search's hot path tests
    /// this one field); with lookahead, no limit (they probe).
    pub(super) intersect_depth: usize,
    /// The depth asked for.
    pub(super) fixed_depth: usize,
    /// Whether they look below it too while the looks pay
    /// ([`Intersections::Auto`](super::Intersections::Auto)).
    pub(super) while_paying: bool,
    /// The looks of the search in progress, and the options they hid.
    pub(super) looks: u64,
    pub(super) looks_hid: u64,
    /// The probes' scratch, when the search looks ahead
    /// ([`Branching::Lookahead`](crate::dlx::Branching::Lookahead)): then
    /// every node where nothing is forced probes (`intersect_depth` is
    /// unlimited, so the search's hot path tests the same one field).
    pub(super) probes: Option<Box<super::lookahead::Probes<M>>>,
    /// Whether the search chooses by Knuth's rule alone (the leftmost least
    /// len at every node, the forced stack unused): DLX1's tree.
    pub(super) knuth: bool,
    /// With `knuth`: per level, the updates DLX1 counts for covering the
    /// item entered there (`MasksMatrix::cover_cost`), which a commit of
    /// one of its options counts already.
    pub(super) cover: Vec<u64>,
    /// The propagator run at nodes where nothing is forced (first-forced
    /// and lookahead; never by Knuth's rule), if any.
    pub(super) propagator: Option<Arc<dyn Propagator>>,
    /// Per item, the option that covered it last: right for every item
    /// covered in the state being searched (an item is covered once on a
    /// path, and a backtrack uncovers what was covered below), written by
    /// every commit while a propagator is set, and by preselection.
    pub(super) chosen: Vec<u32>,
    /// The propagator's words kept with the state (`Live::state`), as many
    /// as it asks: zeroed as a search starts, saved and restored with the
    /// masks and lens.
    pub(super) memory: Vec<u64>,
    /// With a propagator: the conflict scores of the `scan` items, which
    /// say where to branch (`search::pick`); empty without a propagator.
    /// Reset as a search starts, so a puzzle's tree is its own.
    pub(super) scores: Scores,
    /// The option committed last while a propagator is set, or, two ways,
    /// the option taken out of a level entered again since: whose items a
    /// dead end is blamed on; `u32::MAX` before the first commit of a
    /// search.
    pub(super) last: u32,
    /// The first option committed since the propagator last ran (the move
    /// that set off the forced chain it then judges: a branch's, or the
    /// first forced one after a call), `u32::MAX` where none is: a dead end
    /// the propagator finds is blamed on it too (`dead_end_propagated`).
    /// Not kept two ways, where a level entered again blames the option
    /// taken out: HARD_RENBAN took 150,305 guesses with it, 128,172
    /// without.
    pub(super) chain: u32,
    /// Whether the propagator enforces a rule the matrix leaves out
    /// (`Propagator::enforces`): then it is run once more where every
    /// primary item is covered, and a solution it finds dead is a dead end.
    pub(super) enforce: bool,
    /// Whether a branch point whose first option failed is entered again
    /// with that option hidden, the item to branch on chosen anew (two-way
    /// branching: `Kernel::resume`), not moved to its item's next option.
    pub(super) two_way: bool,
    /// Whether an item of two options may be branched on by its options'
    /// first items' scores (the strategy's pairs, `search::pick`).
    pub(super) pairs: bool,
}

impl<M: Mask> States<M> {
    pub(super) fn new(m: &MasksMatrix) -> Self {
        let masks: Vec<M> = m.root_masks.iter().map(|&x| M::from_u64(x)).collect();
        States {
            masks: masks.clone(),
            lens: m.root_lens.clone(),
            forced: Forced::new(m.primary),
            root_masks: masks.clone(),
            start_masks: masks,
            root_lens: m.root_lens.clone(),
            saved_masks: Vec::new(),
            saved_lens: Vec::new(),
            saved_memory: Vec::new(),
            branches: Branches {
                level: Vec::new(),
                item: Vec::new(),
                rest: Vec::new(),
                hidden: Vec::new(),
                again: false,
                top: 0,
            },
            intersect_depth: 0,
            fixed_depth: 0,
            while_paying: false,
            looks: 0,
            looks_hid: 0,
            probes: None,
            knuth: false,
            cover: vec![0; m.max_depth + 2],
            propagator: None,
            chosen: vec![0; m.items],
            memory: Vec::new(),
            scores: Scores::default(),
            last: u32::MAX,
            chain: u32::MAX,
            enforce: false,
            two_way: false,
            pairs: false,
        }
    }

    /// The depth to which nodes where nothing is forced look, as a search
    /// starts: unlimited when looking ahead, else the depth asked for.
    pub(super) fn first_depth(&self) -> usize {
        if self.probes.is_some() {
            usize::MAX
        } else {
            self.fixed_depth
        }
    }

    /// Whether the looks so far pay: they hid
    /// [`PAYING_LOOK`](super::PAYING_LOOK) options a look or more.
    fn paying(&self) -> bool {
        self.looks > 0 && self.looks_hid >= super::PAYING_LOOK * self.looks
    }

    /// After a look: with [`Intersections::Auto`](super::Intersections::Auto),
    /// the nodes below the fixed depth look while the looks pay.
    pub(super) fn after_look(&mut self) {
        if self.while_paying && self.probes.is_none() {
            self.intersect_depth = if self.paying() {
                usize::MAX
            } else {
                self.fixed_depth
            };
        }
    }

    pub(super) fn reset(&mut self, m: &MasksMatrix) {
        self.root_masks.copy_from_slice(&self.start_masks);
        self.root_lens.copy_from_slice(&m.root_lens);
    }

    pub(super) fn restart(&mut self) {
        self.masks.copy_from_slice(&self.root_masks);
        self.lens.copy_from_slice(&self.root_lens);
        self.forced.clear();
        self.memory.fill(0);
        self.branches.top = 0;
        self.branches.again = false;
        self.looks = 0;
        self.looks_hid = 0;
        self.intersect_depth = self.first_depth();
        if self.scores.is_on() {
            self.scores.restart();
        }
        self.last = u32::MAX;
        self.chain = u32::MAX;
    }

    /// A dead end: with a propagator set, the score of every item of the
    /// option committed last goes up — the move that met the conflict, as
    /// the Interactive Sudoku Solver blames the cell it set last. Blaming
    /// the innermost branch point's item instead scores only where the
    /// search already branched, so it never learns the cells a forced
    /// chain runs into: on ISS's HARD_THERMOS the blame on the last move
    /// takes 15,694 guesses where the branch point's took more than 6 M
    /// (BENCHMARKS.md, "Dead ends blamed on the last move"). Where the
    /// strategy says [`Blame::FirstItem`](crate::dlx::Blame), the option's
    /// first item alone scores (`Scores::blame`).
    /// `Enter::DEAD`, for the caller to return.
    #[inline(always)]
    pub(super) fn dead_end(&mut self, m: &MasksMatrix) -> Enter {
        if self.scores.is_on() && self.last != u32::MAX {
            self.note_dead_end(m);
        }
        Enter::DEAD
    }

    /// A dead end the propagator found after a chain of commits that
    /// `chain` started (taken from `States::chain`): blamed on the chain's
    /// first option as well as on the last, each a dead end toward the
    /// decay. The propagator judges the whole chain at once where the
    /// Interactive Sudoku Solver propagates after each cell it sets, so
    /// the last commit alone is often a cell the chain ran into, not the
    /// move that started it; blaming the start too, LITTLE_KILLER_SNIPES
    /// #14 takes 46.7 M guesses instead of 92.4 M, EXTREME_KILLERS 12,836
    /// instead of 16,474, HARD_THERMOS 15,216 instead of 15,694; the
    /// first alone made #14 89.2 M (BENCHMARKS.md, "Dead ends blamed on
    /// the chain's first move too").
    #[inline(always)]
    pub(super) fn dead_end_propagated(&mut self, m: &MasksMatrix, chain: u32) -> Enter {
        if chain != u32::MAX && chain != self.last {
            let last = std::mem::replace(&mut self.last, chain);
            let _ = self.dead_end(m);
            self.last = last;
        }
        self.dead_end(m)
    }

    #[inline(never)]
    fn note_dead_end(&mut self, m: &MasksMatrix) {
        let r = self.last as usize;
        let items = match (m.opt_start.get(r), m.opt_start.get(r + 1)) {
            (Some(&from), Some(&to)) => m.opt_item.get(from as usize..to as usize),
            _ => None,
        };
        let items = items.unwrap_or(&[]).iter().map(|&j| j as usize);
        self.scores.blame(items);
    }

    /// Whether option `r` (not ignored) is active at the root.
    pub(super) fn root_active(&self, m: &MasksMatrix, r: usize) -> bool {
        let k = m.opt_start[r] as usize;
        !(self.root_masks[m.opt_item[k] as usize] & M::from_u64(m.opt_bit[k])).is_zero()
    }

    /// Commits each of `options` at the root, in order, adding it to
    /// `held` and its updates to `updates`; stops at the first that is not
    /// an active option with a primary item.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn preselect<const K: usize, const A: bool>(
        &mut self,
        m: &MasksMatrix,
        options: &[OptionId],
        held: &mut Vec<OptionId>,
        updates: &mut u64,
    ) -> Result<(), PreselectError> {
        for &option in options {
            let r = option.as_usize();
            if r >= m.options {
                return Err(PreselectError::UnknownOption(option));
            }
            if m.ignored[r] {
                return Err(PreselectError::IgnoredOption(option));
            }
            if !self.root_active(m, r) {
                let held = held.iter().map(|&q| {
                    let q = q.as_usize();
                    (q as u32, m.option(q))
                });
                return Err(conflict(option, m.option(r), held));
            }
            *updates += m.commit::<M, K, A, false>(
                &mut self.root_masks,
                &mut self.root_lens,
                &mut self.forced,
                r,
            );
            m.note_chosen::<K>(&mut self.chosen, r);
            held.push(option);
        }
        Ok(())
    }

    /// Saves the state being searched as branch point `l`'s.
    #[inline(always)]
    pub(super) fn save(&mut self, l: usize) {
        let (n, p, w) = (self.masks.len(), self.lens.len(), self.memory.len());
        if self.saved_masks.len() < (l + 1) * n {
            self.saved_masks.resize((l + 1) * n, M::default());
            self.saved_lens.resize((l + 1) * p, 0);
        }
        self.saved_masks[l * n..(l + 1) * n].copy_from_slice(&self.masks);
        self.saved_lens[l * p..(l + 1) * p].copy_from_slice(&self.lens);
        if w > 0 {
            if self.saved_memory.len() < (l + 1) * w {
                self.saved_memory.resize((l + 1) * w, 0);
            }
            self.saved_memory[l * w..(l + 1) * w].copy_from_slice(&self.memory);
        }
    }

    /// Goes back to branch point `l`'s saved state.
    #[inline(always)]
    pub(super) fn restore(&mut self, l: usize) {
        let (n, p) = (self.masks.len(), self.lens.len());
        self.masks
            .copy_from_slice(&self.saved_masks[l * n..(l + 1) * n]);
        self.lens
            .copy_from_slice(&self.saved_lens[l * p..(l + 1) * p]);
        let w = self.memory.len();
        if w > 0 {
            match self.saved_memory.get(l * w..(l + 1) * w) {
                Some(saved) => self.memory.copy_from_slice(saved),
                // Not saved with this propagator's words: zero is "nothing
                // known", true of any state.
                None => self.memory.fill(0),
            }
        }
        self.forced.clear();
    }
}

/// The branch points of the search in progress, innermost last: the kernel
/// backs down to them directly (`Kernel::JUMPS`), past the forced levels
/// above them, which need no undoing.
#[derive(Clone, Debug)]
pub(super) struct Branches {
    /// Per branch point: its level, its item, and its options not yet tried
    /// (bits of the item's mask). Branch point `b`'s state is saved slot `b`.
    pub(super) level: Vec<u32>,
    pub(super) item: Vec<u32>,
    pub(super) rest: Vec<u64>,
    /// Per branch point: whether it was made on entering its level again
    /// (two-way branching), its state short of an option that failed
    /// there, as every branch point's below it.
    pub(super) hidden: Vec<bool>,
    /// Whether the level being entered is entered again: the next branch
    /// point made is `hidden`.
    pub(super) again: bool,
    /// Branch points in progress.
    pub(super) top: usize,
}
