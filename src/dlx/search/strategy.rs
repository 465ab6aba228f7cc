//! The branching strategy of a search that propagates, written once for
//! every engine that runs a [`Propagator`](crate::dlx::Propagator): where
//! it branches (conflict scores), what a dead end is blamed on, what the
//! scores start at, and whether it branches two ways or on pairs.
//!
//! A [`Strategy`] is what a caller asks for ([`Config::strategy`],
//! [`Solver::set_strategy`]); [`Scores`] is what an engine keeps of it
//! while it searches: one score an item, raised by the dead ends blamed on
//! it, halved every [`SCORE_DECAY`] dead ends, reset as a search starts.
//! An engine hands [`Scores::pick`] the lens of its live matrix (any
//! number of options an item) and is told where to branch; it tells
//! [`Scores::blame`] the items of the option that met a dead end.
//!
//! Where a search that propagates branches: not at the leftmost least
//! len but at the item of most *conflict score* per option (the leftmost
//! least len while none scores), the weighted-degree rule the Interactive
//! Sudoku Solver branches by. A dead end is blamed on the move that met it:
//! each item of the option committed last, forced or guessed, scores one
//! (or its first item alone: [`Blame::FirstItem`]), and where the
//! propagator found it, the option that set off the forced chain it judged
//! scores too (not where the search branches two ways; LITTLE_KILLER_SNIPES
//! #14 in half the guesses, BENCHMARKS.md, "Dead ends blamed on the chain's
//! first move too"). Propagation makes dead ends cheap to meet and the
//! scores steer the search to where they are met: on ISS's killer
//! collections the guesses fell 2.3× (TAREK_ALL) to 30× (EXTREME_KILLERS)
//! against the leftmost least len ("Conflict scores"), and blaming the last
//! move rather than the innermost branch point took ISS's HARD_THERMOS from
//! more than 6 M guesses to 15,694 ("Dead ends blamed on the last move").
//!
//! The first [`lead`](Strategy::lead) items start at a score of their own
//! (one by default), a prior the dead ends must outweigh: before the first
//! dead ends the search branches on them (a Sudoku matrix's cells, as ISS
//! does, not a house's digit: on ISS's killers 14–28% less time, on
//! HARD_RENBAN 8%, "Cells first").
//!
//! [Two ways](Strategy::two_way): where the option tried at a branch point
//! fails, the search leaves the branch point's state and enters the node
//! again without that option, its propagator run and where to branch chosen
//! anew by the scores the failed subtree has just moved (ISS's search; on
//! HARD_RENBAN 0.55× the time, "Two-way branching"). [Pairs](Strategy::pairs):
//! an item with two options left may be branched on where the item of most
//! score per option has more than two; it scores half the higher score of
//! its two options' first items, and that option goes first (ISS's house
//! candidate; LITTLE_KILLER_SNIPES #14 in half the guesses, "House pairs").
//!
//! Why a layer of its own: the strategy is the same whatever represents the
//! live matrix (a mask an item, dancing links, a bitset of options); written
//! inside one engine, only that engine could propagate.
//!
//! [`Config::strategy`]: crate::dlx::Config::strategy
//! [`Solver::set_strategy`]: crate::dlx::Solver::set_strategy

use std::sync::Arc;

use crate::dlx::propagate::Propagator;

/// Which items of the option committed last a dead end scores, in a
/// search that propagates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Blame {
    /// Every item of the option: the search may then branch on any item.
    #[default]
    Option,
    /// The option's first item alone: in a Sudoku matrix the cell, never
    /// the house-digit items, so the search branches on cells (what the
    /// Interactive Sudoku Solver blames and branches on).
    FirstItem,
}

/// How a search that propagates chooses where to branch (see the module
/// documentation): the blame of a dead end, the items that lead and the
/// score they start at, two-way branching, pairs. The same solutions
/// whatever it says; another tree. Taken where a propagator is set
/// ([`Solver::set_propagator`](crate::dlx::Solver::set_propagator)), by
/// every engine that runs one.
///
/// ```
/// use dlx::{Blame, Strategy};
///
/// // ISS's search on a 9×9 Sudoku matrix: cells (its first 81 items) lead
/// // at 27, dead ends blame the cell, two ways.
/// let s = Strategy::new().blame(Blame::FirstItem).lead(81, 27).two_way(true);
/// assert_eq!(s.lead_items(), 81);
/// assert!(s.branches_two_ways() && !s.branches_on_pairs());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Strategy {
    blame: Blame,
    lead: usize,
    lead_score: u32,
    two_way: bool,
    pairs: bool,
}

impl Strategy {
    /// Every item of the option blamed, every score starting at zero, one
    /// way, no pairs.
    pub fn new() -> Strategy {
        Strategy::default()
    }

    /// Blames a dead end on `blame`.
    pub fn blame(mut self, blame: Blame) -> Strategy {
        self.blame = blame;
        self
    }

    /// The first `items` items start at `score` as a search starts (the
    /// others at zero): until dead ends outweigh it, the search branches on
    /// the one of them with the fewest options.
    pub fn lead(mut self, items: usize, score: u32) -> Strategy {
        self.lead = items;
        self.lead_score = score;
        self
    }

    /// Branches two ways where `two_way` (see the module documentation).
    pub fn two_way(mut self, two_way: bool) -> Strategy {
        self.two_way = two_way;
        self
    }

    /// May branch on an item of two options by its options' first items'
    /// scores where `pairs` (see the module documentation).
    pub fn pairs(mut self, pairs: bool) -> Strategy {
        self.pairs = pairs;
        self
    }

    /// What a dead end is blamed on.
    pub fn blamed(&self) -> Blame {
        self.blame
    }

    /// How many items lead (start at [`lead_score`](Self::lead_score)).
    pub fn lead_items(&self) -> usize {
        self.lead
    }

    /// The score the leading items start at.
    pub fn lead_score(&self) -> u32 {
        self.lead_score
    }

    /// Whether it branches two ways.
    pub fn branches_two_ways(&self) -> bool {
        self.two_way
    }

    /// Whether it may branch on pairs.
    pub fn branches_on_pairs(&self) -> bool {
        self.pairs
    }

    /// The strategy of propagators run together: the first item blamed
    /// only where both blame it, the wider lead at the higher score, two
    /// ways or pairs where either asks.
    pub fn and(self, other: Strategy) -> Strategy {
        Strategy {
            blame: if self.blame == Blame::FirstItem && other.blame == Blame::FirstItem {
                Blame::FirstItem
            } else {
                Blame::Option
            },
            lead: self.lead.max(other.lead),
            lead_score: self.lead_score.max(other.lead_score),
            two_way: self.two_way || other.two_way,
            pairs: self.pairs || other.pairs,
        }
    }
}

/// How many dead ends between two halvings of the conflict scores (the
/// Interactive Sudoku Solver's `DECAY_FREQUENCY`): recent conflicts weigh
/// more.
pub(crate) const SCORE_DECAY: u32 = 1 << 14;

/// A search's conflict scores (see the module documentation): one an item
/// of the first `len` items, empty where the search runs no propagator.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scores {
    /// Per item, the dead ends blamed on it (halved every [`SCORE_DECAY`]).
    of: Vec<u32>,
    /// The strategy the scores serve.
    strategy: Strategy,
    /// Dead ends left before the scores are halved.
    decay: u32,
    /// The scores a search starts with where they are not the strategy's
    /// (those of the search a piece was handed over from): empty for the
    /// strategy's.
    seed: Vec<u32>,
}

impl Scores {
    /// Scores for the first `items` items of a search that propagates,
    /// as `strategy` asks, at their start.
    pub(crate) fn new(items: usize, strategy: Strategy) -> Scores {
        let mut s = Scores {
            of: vec![0; items],
            strategy,
            decay: SCORE_DECAY,
            seed: Vec::new(),
        };
        s.restart();
        s
    }

    /// Whether there are scores (a propagator is set).
    #[inline(always)]
    pub(crate) fn is_on(&self) -> bool {
        !self.of.is_empty()
    }

    /// The strategy the scores serve.
    #[cfg(test)]
    pub(crate) fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Back to the start of a search: the seed's scores where there is
    /// one, else the leading items at their score, the others at zero.
    pub(crate) fn restart(&mut self) {
        self.decay = SCORE_DECAY;
        if self.seed.len() == self.of.len() && !self.seed.is_empty() {
            self.of.copy_from_slice(&self.seed);
            return;
        }
        let lead = self.strategy.lead.min(self.of.len());
        self.of[..lead].fill(self.strategy.lead_score);
        self.of[lead..].fill(0);
    }

    /// Searches from now on start with `seed`'s scores (those of a search
    /// of the same matrix and strategy, whose piece this search takes
    /// over: it goes on with what that search learnt), or with the
    /// strategy's (`None`). Scores of another size are not taken.
    pub(crate) fn seed(&mut self, seed: Option<&Scores>) {
        self.seed.clear();
        if let Some(from) = seed.filter(|f| f.of.len() == self.of.len()) {
            self.seed.extend_from_slice(&from.of);
        }
    }

    /// A dead end blamed on the option whose items are `items` (in the
    /// option's order): each scores one, or the first alone
    /// ([`Blame::FirstItem`]). Items past the scores are passed over.
    #[inline(never)]
    pub(crate) fn blame(&mut self, items: impl IntoIterator<Item = usize>) {
        let most = match self.strategy.blame {
            Blame::Option => usize::MAX,
            Blame::FirstItem => 1,
        };
        for j in items.into_iter().take(most) {
            if let Some(x) = self.of.get_mut(j) {
                *x = x.saturating_add(1);
            }
        }
        self.decay -= 1;
        if self.decay == 0 {
            self.decay = SCORE_DECAY;
            for x in &mut self.of {
                *x >>= 1;
            }
        }
    }

    /// Every item's score.
    #[cfg(test)]
    pub(crate) fn all(&self) -> &[u32] {
        &self.of
    }

    /// Sets item `j`'s score (for tests of a `pick`).
    #[cfg(test)]
    pub(crate) fn set(&mut self, j: usize, x: u32) {
        self.of[j] = x;
    }

    /// The score of item `j` (0 past the scores).
    #[inline(always)]
    pub(crate) fn of(&self, j: usize) -> u32 {
        self.of.get(j).copied().unwrap_or(0)
    }

    /// Where to branch: the item of most score per option among those with
    /// two options or more (`lens`: item `j`'s options at `j`; an item
    /// covered is 0 or past `most`), the first such on a tie; `fallback`
    /// while none scores.
    /// Where the strategy asks for pairs and that item has more than two
    /// options, an item of two options scores half the higher score of its
    /// options' first items (`leads(j)`: those, in the order the engine
    /// tries its options) and wins where that is at least the best's score
    /// per option (the last such). With the item, whether its second
    /// option goes first (a pair's of higher score). The lens are the
    /// engine's own array, of its own type, zipped with the scores: the loop
    /// a branch point runs is the masks engine's as it was before this
    /// layer (an iterator mapping its lens took 1.4× the instructions).
    #[inline]
    pub(crate) fn pick<L: Copy + Into<u64>>(
        &self,
        lens: &[L],
        most: u64,
        fallback: usize,
        leads: impl Fn(usize) -> (usize, usize),
    ) -> (usize, bool) {
        let (mut best, mut score, mut least) = (fallback, 0u64, 1u64);
        for (j, (&x, &n)) in self.of.iter().zip(lens).enumerate() {
            let n: u64 = n.into();
            if n < 2 || n > most {
                continue;
            }
            // score / len above the best's, without dividing.
            if u64::from(x) * least > score * n {
                (best, score, least) = (j, u64::from(x), n);
            }
        }
        let mut second = false;
        if !self.strategy.pairs || least <= 2 || score == 0 {
            return (best, second);
        }
        for (j, (_, &n)) in self.of.iter().zip(lens).enumerate() {
            if n.into() != 2 {
                continue;
            }
            // (An item that leads its options, a cell, is scored by its own
            // score: as above, but the last of two on a tie.)
            let (c0, c1) = leads(j);
            let (x0, x1) = (u64::from(self.of(c0)), u64::from(self.of(c1)));
            let x = x0.max(x1);
            // x / 2 at least score / len, without dividing.
            if x * least >= 2 * score {
                (best, score, least) = (j, x, 2);
                second = x1 > x0;
            }
        }
        (best, second)
    }
}

/// No option (`Steer::last`, `Steer::chain`).
pub(crate) const NONE: u32 = u32::MAX;

/// What an engine that propagates first-forced keeps beside its own
/// representation of the live matrix, the same whatever that is (the links
/// and dense engines): the propagator and what it enforces, the scores,
/// each item's options in matrix order, the propagator's words and their
/// copies saved at each branch point, and the moves a dead end is blamed
/// on. The masks engine keeps the same in its states, per mask width.
#[derive(Clone, Debug)]
pub(crate) struct Steer {
    pub(crate) propagator: Arc<dyn Propagator>,
    pub(crate) scores: Scores,
    /// Whether the propagator enforces what the matrix leaves out (it is
    /// asked at every solution).
    pub(crate) enforce: bool,
    pub(crate) two_way: bool,
    /// Per item, its options in matrix order: `options[start[i]..start[i + 1]]`.
    pub(crate) start: Vec<u32>,
    pub(crate) options: Vec<u32>,
    /// Per primary item, the option that covered it in the search.
    pub(crate) chosen: Vec<u32>,
    /// The propagator's words, and per level a copy saved at a branch point.
    pub(crate) words: Vec<u64>,
    saved: Vec<u64>,
    /// Per level: whether it is a branch point (entered with two options
    /// or more), and whether its item's second option went first (pairs).
    pub(crate) branch: Vec<bool>,
    pub(crate) flipped: Vec<bool>,
    /// The option committed last (as the engine names it), or, two ways,
    /// the one removed from a level entered again: whose items a dead end
    /// is blamed on. [`NONE`] before the first commit.
    pub(crate) last: u32,
    /// The first option committed since the propagator last ran ([`NONE`]:
    /// none), blamed too where the propagator finds a dead end; not kept
    /// two ways (as the masks engine).
    pub(crate) chain: u32,
    /// Whether the propagator found a solution of the matrix breaking its
    /// rule: the next node is a dead end.
    pub(crate) broken: bool,
}

impl Steer {
    /// What a search of a matrix of `items` items (`primary` of them
    /// primary) and `option_count` options keeps for `propagator`, searched
    /// at most `levels` levels deep, branching as `strategy` says;
    /// `items_of(r)` lists the items of option `r` (none where it is
    /// ignored).
    pub(crate) fn new<I: IntoIterator<Item = usize>>(
        (items, primary, option_count): (usize, usize, usize),
        items_of: impl Fn(usize) -> I,
        levels: usize,
        propagator: Arc<dyn Propagator>,
        strategy: Strategy,
    ) -> Steer {
        let mut start = vec![0u32; items + 1];
        for r in 0..option_count {
            for i in items_of(r) {
                start[i + 1] += 1;
            }
        }
        for i in 0..items {
            start[i + 1] += start[i];
        }
        let mut options = vec![0u32; start[items] as usize];
        let mut filled = vec![0u32; items];
        for r in 0..option_count {
            for i in items_of(r) {
                options[(start[i] + filled[i]) as usize] = r as u32;
                filled[i] += 1;
            }
        }
        let words = propagator.state_words();
        Steer {
            enforce: propagator.enforces(),
            two_way: strategy.branches_two_ways(),
            scores: Scores::new(primary, strategy),
            propagator,
            start,
            options,
            chosen: vec![0; primary],
            words: vec![0; words],
            saved: vec![0; words * levels],
            branch: vec![false; levels],
            flipped: vec![false; levels],
            last: NONE,
            chain: NONE,
            broken: false,
        }
    }

    /// As a search starts: the scores at their start, the words zero,
    /// nothing committed.
    pub(crate) fn restart(&mut self) {
        self.scores.restart();
        self.words.fill(0);
        self.last = NONE;
        self.chain = NONE;
        self.broken = false;
    }

    /// Saves the words as level `l`'s.
    pub(crate) fn save(&mut self, l: usize) {
        let w = self.words.len();
        if let Some(to) = self.saved.get_mut(l * w..(l + 1) * w) {
            to.copy_from_slice(&self.words);
        }
    }

    /// Restores the words saved as level `l`'s.
    pub(crate) fn restore(&mut self, l: usize) {
        let w = self.words.len();
        if let Some(from) = self.saved.get(l * w..(l + 1) * w) {
            self.words.copy_from_slice(from);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_start_at_the_lead_and_halve() {
        let mut s = Scores::new(4, Strategy::new().lead(2, 3));
        assert_eq!((0..5).map(|j| s.of(j)).collect::<Vec<_>>(), [3, 3, 0, 0, 0]);
        s.blame([2, 3, 9]);
        assert_eq!((s.of(2), s.of(3)), (1, 1));
        for _ in 1..SCORE_DECAY {
            s.blame([]);
        }
        // The decay halved them all: 3 -> 1, 1 -> 0.
        assert_eq!((0..4).map(|j| s.of(j)).collect::<Vec<_>>(), [1, 1, 0, 0]);
        s.restart();
        assert_eq!((0..4).map(|j| s.of(j)).collect::<Vec<_>>(), [3, 3, 0, 0]);
        let mut first = Scores::new(4, Strategy::new().blame(Blame::FirstItem));
        first.blame([2, 3]);
        assert_eq!((first.of(2), first.of(3)), (1, 0));
    }

    #[test]
    fn pick_takes_most_score_per_option_then_pairs() {
        let mut s = Scores::new(5, Strategy::new());
        let len = &[3u32, 4, 2, 0, 99][..];
        // None scores: the fallback.
        assert_eq!(s.pick(len, 9, 1, |j| (j, j)), (1, false));
        s.blame([1]);
        s.blame([1]);
        s.blame([0]);
        // 2/4 against 1/3: item 1.
        assert_eq!(s.pick(len, 9, 0, |j| (j, j)), (1, false));
        // A covered item (len 0, or past `most`) is never picked, whatever
        // its score.
        for _ in 0..200 {
            s.blame([3, 4]);
        }
        assert_eq!(s.pick(len, 9, 0, |j| (j, j)).0, 1);
        // (Item 4, of 99 options, taken where that is not past `most`.)
        assert_eq!(s.pick(len, 99, 0, |j| (j, j)).0, 4);
        // Pairs: item 2 (two options) led by items 0 and 1: half of 2 is
        // at least 2/4, and its second option (led by item 1) goes first.
        let mut p = Scores::new(4, Strategy::new().pairs(true));
        p.blame([1]);
        p.blame([1]);
        assert_eq!(p.pick(len, 9, 0, |_| (0, 1)), (2, true));
        assert_eq!(p.pick(len, 9, 0, |_| (1, 0)), (2, false));
    }

    #[test]
    fn strategies_run_together() {
        let sums = Strategy::new()
            .blame(Blame::FirstItem)
            .lead(81, 1)
            .pairs(true);
        let sets = Strategy::new().lead(81, 27).two_way(true);
        let both = sums.and(sets);
        assert_eq!(both.blamed(), Blame::Option);
        assert_eq!((both.lead_items(), both.lead_score()), (81, 27));
        assert!(both.branches_two_ways() && both.branches_on_pairs());
        assert_eq!(sums.and(sums), sums);
    }
}
