//! Propagation hooks: reasoning a matrix cannot say, run by the search at
//! the nodes where nothing is forced.
//!
//! A [`Propagator`] looks at the live matrix through [`Live`] (an item's
//! active options as a bitmask, the option that covered an item) and hides
//! options that belong to no solution extending the partial one: a sum
//! whose bounds a digit would break, say, where the matrix lists digit
//! sets but cannot add. The engine hides them as its own search does, so
//! what they force is committed next and the node looks again; a
//! backtrack restores them with the rest of the state.
//!
//! Invariant (the contract every propagator keeps): it hides only options
//! that are in no solution of the problem extending the options chosen so
//! far, and says "dead" only where there is none. The problem is the
//! matrix, and for a propagator that [`enforces`](Propagator::enforces) a
//! rule of its own, the matrix and that rule: such a propagator is asked
//! once more at every solution of the matrix (every primary item covered)
//! and says "dead" exactly where its rule is broken, so a solution the
//! matrix alone would allow is dropped there. A propagator that enforces
//! nothing is *redundant*: the solutions are the matrix's, with or
//! without it, and only the tree shrinks. Knuth's rule keeps DLX1's tree,
//! so it runs none.
//!
//! Why a propagator may enforce: a rule the matrix can say only at a
//! price (a little killer's sum over cells that may repeat a digit, as an
//! automaton of partial sums: an option a step, state and digit, items
//! that chain the steps) costs that price at every node, while bounds on
//! the sum say as much from the cells' candidates. The Sudoku layer
//! leaves such automata out of the matrix it searches with the sum bounds
//! (`sudoku/rules.rs`): ISS's LITTLE_KILLER_SNIPES 4–6× faster, about the
//! same guesses. The matrix without the rule is then sound only under an engine
//! that runs the propagator, so the layer keeps the whole matrix for the
//! others.
//!
//! Which engines run propagators: masks, searching first-forced or with
//! lookahead ([`EngineKind::propagates`](crate::dlx::EngineKind::propagates)).
//! [`Solver::set_propagator`](crate::dlx::Solver::set_propagator) refuses
//! the others by name, never silently.
//!
//! Where a search that propagates branches: first-forced, not at the
//! leftmost least len but at the item of most *conflict score* per option
//! (the leftmost least len while none scores), the weighted-degree rule
//! the Interactive Sudoku Solver branches by. A dead end is blamed on the
//! move that met it: each item of the option committed last, forced or
//! guessed, scores one (or its first item alone, where the propagator
//! says so with [`Propagator::blame`]), and where the propagator found
//! it, the option that set off the forced chain it judged scores too
//! (not where the search branches two ways; LITTLE_KILLER_SNIPES #14 in
//! half the guesses, "Dead ends blamed on the chain's first move too");
//! the scores are halved every 16,384 dead ends. The items a propagator
//! names with [`Propagator::branch_first`] start at one, so before the
//! first dead ends the search branches on them (a Sudoku matrix's cells,
//! as ISS does, not a house's digit): on ISS's killers 14-28% less time,
//! on HARD_RENBAN 8% (BENCHMARKS.md, "Cells first").
//! Propagation makes dead ends cheap to meet and the scores steer the
//! search to where they are met: on ISS's killer collections the guesses
//! fell 2.3× (TAREK_ALL) to 30× (EXTREME_KILLERS) against the leftmost
//! least len (BENCHMARKS.md, "Conflict scores"), and blaming the last move
//! rather than the innermost branch point took ISS's HARD_THERMOS from
//! more than 6 M guesses to 15,694 ("Dead ends blamed on the last move").
//! The scores are reset as a search starts, so a search's tree is its
//! own: to the propagator's [`Propagator::start_scores`], a prior the
//! dead ends must outweigh (by default one point on each item of
//! `branch_first`, which the first dead end outweighs).
//!
//! Where a propagator asks for it ([`Propagator::two_way`]) the search
//! branches two ways, as ISS does: where the option tried at a branch
//! point fails, it leaves the branch point's state, and the node is
//! entered again, its propagator run and where to branch chosen anew,
//! by scores the failed subtree has just moved, instead of taking the
//! same item's next option. The Sudoku layer asks for it, with the cells
//! starting at 3n, where it watches renban lines: ISS's HARD_RENBAN in
//! 0.55× the time; on killers, thermometers and little killers one way
//! stays ahead (BENCHMARKS.md, "Two-way branching").
//!
//! Where a propagator asks for it ([`Propagator::branch_pairs`]), an
//! item with two options left may be branched on where the item of most
//! score per option has more than two: it scores half the higher score of
//! its two options' first items, and that option goes first. On Sudoku
//! the first item of an option is its cell, so this is ISS's house
//! candidate: a digit with two places left in a house, branched on where
//! the cells of most score per candidate have three or more; where dead
//! ends score the cells alone, a house's digit has no score of its own
//! to be chosen by. The Sudoku layer asks for it where the rules sum
//! cells that may repeat a digit (little killers): ISS's
//! LITTLE_KILLER_SNIPES #14 in half the guesses (BENCHMARKS.md, "House
//! pairs").
//!
//! A propagator may keep words of its own with the search's state
//! ([`Propagator::state_words`], [`Live::state`]): zero as a search starts,
//! saved at each branch point and restored on a backtrack with the masks.
//! What a call leaves there stands for the path, so the next call on it
//! can tell what changed since and reason about that alone: the Sudoku
//! layer's sum bounds keep each cell's candidates there and bound only the
//! sums that read a changed cell (ISS's killers in 0.72–0.86× the time,
//! BENCHMARKS.md, "The sum bounds' words"). A cache that no backtrack
//! restores cannot say that: after a backtrack it holds another path's.
//!
//! Why bitmasks: the masks engine keeps each item's active options as one
//! word (an item there has at most 64 options), so a propagator reads a
//! Sudoku cell's candidates in one call, as the item's options in matrix
//! order, and hides a digit by its bit.

use std::fmt;
use std::ops::Range;

use super::index::OptionId;

/// The live matrix at a node, as a [`Propagator`] sees it. Bit `k` of an
/// item's mask stands for the item's `k`-th option in matrix order
/// (ignored options included: they are never active).
pub trait Live {
    /// The active options of `item`: 0 for an item covered, for an item
    /// past the matrix's, and for a secondary item.
    fn options(&self, item: usize) -> u64;
    /// The active options of items `first`, `first + 1`, … into `out`, one
    /// item a word (as [`options`](Self::options)): one call for many
    /// items where a propagator reads them all at every node.
    fn options_from(&self, first: usize, out: &mut [u64]) {
        for (j, o) in out.iter_mut().enumerate() {
            *o = self.options(first + j);
        }
    }
    /// The option at bit `bit` of `item`'s mask (`None` past them).
    fn option_at(&self, item: usize, bit: u32) -> Option<OptionId>;
    /// The option that covered primary item `item` in the partial
    /// solution, or `None` while it is uncovered (or not primary).
    fn chosen(&self, item: usize) -> Option<OptionId>;
    /// Hides the options of `item` whose bits `options` holds (those still
    /// active; the others are left alone): they leave every item they
    /// are in, for the rest of this subtree.
    fn hide(&mut self, item: usize, options: u64);
    /// The propagator's own words kept with the search's state (as many
    /// as its [`state_words`](Propagator::state_words) asks; fewer, or
    /// none, where the caller keeps none): zero as a search starts, saved
    /// with the state at a branch point and restored with it on a
    /// backtrack, so what a call finds there is what the calls above it
    /// on the path left (the candidates a sum was last bounded at, say).
    fn state(&mut self) -> &mut [u64];
}

/// Propagation the search runs at each node where nothing is forced (see
/// the module documentation for the contract).
pub trait Propagator: fmt::Debug + Send + Sync {
    /// Hides options of `live` that are in no solution extending the
    /// partial one; false when it finds there is no such solution at all
    /// (a dead end).
    fn propagate(&self, live: &mut dyn Live) -> bool;

    /// How many words of its own the propagator keeps with the search's
    /// state ([`Live::state`]); none by default. What a call leaves there
    /// is restored on a backtrack, so it may stand for the path: which
    /// candidates a call above this node already reasoned from, and so
    /// which need not be looked at again.
    fn state_words(&self) -> usize {
        0
    }

    /// Which items of the move that met a dead end score (see the module
    /// documentation): every item of the option, unless the propagator
    /// says otherwise. It steers only where the search branches, never
    /// what it finds.
    fn blame(&self) -> Blame {
        Blame::Option
    }

    /// Whether the propagator enforces a rule the matrix leaves out (see
    /// the module documentation): then the search calls
    /// [`propagate`](Self::propagate) at every solution of the matrix and
    /// reports it only where the call finds it alive. False by default:
    /// a redundant propagator is not asked at solutions.
    fn enforces(&self) -> bool {
        false
    }

    /// Items whose conflict scores start at one, not zero, as a search
    /// starts (see the module documentation): until dead ends say
    /// otherwise, it branches on the one of them with the fewest options.
    /// None by default.
    fn branch_first(&self) -> Range<usize> {
        0..0
    }

    /// The conflict scores the first `items` items start at as a search
    /// starts (item `j`'s at index `j`; those past the end start at zero,
    /// and past `items` are not read): a prior that dead ends, one point
    /// each, must outweigh before the search branches elsewhere. By
    /// default one for each item of [`branch_first`](Self::branch_first)
    /// (the first dead end outweighs it), zero for the others.
    fn start_scores(&self, items: usize) -> Vec<u32> {
        let first = self.branch_first();
        let end = first.end.min(items);
        let mut scores = vec![0; end];
        scores[first.start.min(end)..end].fill(1);
        scores
    }

    /// Whether the search branches two ways: where the option tried at a
    /// branch point fails, it leaves the branch point's state and the
    /// node is entered again, the propagator run and where to branch
    /// chosen anew by the scores the failure just moved, rather than the
    /// item's next option taken (the Interactive Sudoku Solver's search:
    /// a cell's digit, or not that digit). The same solutions; another
    /// tree. False by default.
    fn two_way(&self) -> bool {
        false
    }

    /// Whether the search may branch on an item with two options left
    /// where the item of most score per option has more than two (see the
    /// module documentation): such an item scores half the higher score of
    /// its options' first items (on Sudoku, a house's digit with two places
    /// left, scored by its two cells: the Interactive Sudoku Solver's house
    /// candidates), and the option of the higher is tried first. The same
    /// solutions; another tree. False by default.
    fn branch_pairs(&self) -> bool {
        false
    }
}

/// Which items of the option committed last a dead end scores, in a
/// search that propagates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blame {
    /// Every item of the option: the search may then branch on any item.
    Option,
    /// The option's first item alone: in a Sudoku matrix the cell, never
    /// the house-digit items, so the search branches on cells (what the
    /// Interactive Sudoku Solver blames and branches on).
    FirstItem,
}

/// A [`Live`] whose [`state`](Live::state) is a part of another's, words
/// `from..to` (clipped to what the other keeps): for propagators run one
/// after the other, each with its own words.
pub(crate) struct StatePart<'a> {
    pub(crate) live: &'a mut dyn Live,
    pub(crate) from: usize,
    pub(crate) to: usize,
}

impl Live for StatePart<'_> {
    fn options(&self, item: usize) -> u64 {
        self.live.options(item)
    }

    fn options_from(&self, first: usize, out: &mut [u64]) {
        self.live.options_from(first, out)
    }

    fn option_at(&self, item: usize, bit: u32) -> Option<OptionId> {
        self.live.option_at(item, bit)
    }

    fn chosen(&self, item: usize) -> Option<OptionId> {
        self.live.chosen(item)
    }

    fn hide(&mut self, item: usize, options: u64) {
        self.live.hide(item, options)
    }

    fn state(&mut self) -> &mut [u64] {
        let state = self.live.state();
        let to = self.to.min(state.len());
        &mut state[self.from.min(to)..to]
    }
}
