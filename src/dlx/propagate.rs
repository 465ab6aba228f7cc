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
//! (`sudoku/rules/matrix.rs`): ISS's LITTLE_KILLER_SNIPES 4–6× faster, about the
//! same guesses. Automata the bounds do not take (sandwiches, pill arrows,
//! lines that carry a state) go the same way, enforced by their runs
//! through the candidates (`sudoku/constraints/chains.rs`). The matrix without the rule is then sound only under an engine
//! that runs the propagator, so the layer keeps the whole matrix for the
//! others.
//!
//! Which engines run propagators: masks, searching first-forced or with
//! lookahead; links and dense, first-forced, on matrices without colors or
//! multiplicities ([`EngineKind::propagates`](crate::dlx::EngineKind::propagates)).
//! [`Solver::set_propagator`](crate::dlx::Solver::set_propagator) refuses
//! the others by name, never silently.
//!
//! Where a search that propagates branches is not the propagator's to
//! say: that is the search's [`Strategy`](crate::dlx::Strategy), written
//! once for every engine (`search/strategy.rs`), which the Sudoku layer
//! chooses beside its propagators.
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
//! Why bitmasks: a propagator reads a Sudoku cell's candidates in one
//! call, as the item's options in matrix order, and hides a digit by its
//! bit (the masks engine keeps them so; links and dense gather them from
//! their own representation). An item's options past its 64th are not
//! shown, and not hidden: a propagator that reads such an item must not
//! take a missing bit for a missing option.

use std::fmt;

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

    /// Whether the propagator enforces a rule the matrix leaves out (see
    /// the module documentation): then the search calls
    /// [`propagate`](Self::propagate) at every solution of the matrix and
    /// reports it only where the call finds it alive. False by default:
    /// a redundant propagator is not asked at solutions.
    fn enforces(&self) -> bool {
        false
    }
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
