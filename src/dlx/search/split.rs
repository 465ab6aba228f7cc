//! Cutting one search into subtrees ([`LinksSolver::split`](crate::dlx::LinksSolver::split)), so that they can be
//! searched apart — on several threads, by any engine.
//!
//! The split runs the search down to a depth and no further. The depth
//! counts *branch points*, levels whose item had two options or more:
//! forced levels do not count, so a chain of forced choices is passed
//! through in one split, and each level of depth at least doubles the
//! subtrees that do not die. Below `depth` branch points, the search goes
//! on through forced levels and dead ends, and pauses on reaching the next
//! branch point, before entering it: that node is handed out as a
//! *subtree*, named by its prefix (every option the search chose on the way
//! down, forced ones included), and each solution met above it as a
//! solution. Every solution of the problem is either one of those or lies in
//! exactly one subtree, so searching each subtree (after preselecting its
//! prefix) and adding up gives the whole search; taking the pieces in the
//! order given gives the one-thread order of solutions.
//!
//! With multiplicities (Algorithm M) a node also depends on what the levels
//! above it tried: an item may be chosen again below, and offers then only
//! the options after the one taken at the level above (the tried ones are
//! *tweaked* out), and a level may end an item without an option (the null
//! move). A [`Subtree`] carries both: the options tweaked above, excluded,
//! and the items ended, retired. Excluding them, preselecting the prefix and
//! retiring the items leaves the live lists, the active items and their
//! bounds as one search has them at that node, so the subtree's search and
//! its counters are again one search's.
//!
//! A subtree's search is then the very subtree a one-thread search
//! explores. The preselected prefix leaves the same items with the same
//! options in the same order; and at a branch point no item is forced, so
//! first-forced's memory of items just forced has nothing to add there,
//! and its search, like Knuth's, chooses as one search would. Then the
//! split's counters plus each subtree's — counted after preselecting — are
//! exactly those of one search, with [`Branching::Knuth`](super::Branching::Knuth)
//! on the links, dense and bits engines and with `FirstForced` on links,
//! dense and masks (tests check both). Lookahead's pieces still partition
//! the solutions, but its removals at the levels above are not carried
//! down, so its subtrees' searches differ.

use super::super::index::{ItemId, OptionId};
use super::super::stats::Stats;
use super::{Limits, PreselectError, Step, Steps, Stop};

/// A subtree of the search as [`split`](crate::dlx::LinksSolver::split)
/// names it: what a search of it fixes before it starts. Searching it after
/// [`preselect_subtree`](crate::dlx::Solver::preselect_subtree) is the very
/// search one thread makes below that node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Subtree {
    /// The options chosen above it, in order, one per branch point and one
    /// per forced level (preselected options not included).
    pub options: Vec<OptionId>,
    /// Options already tried at the levels above and left out below them:
    /// Algorithm M's *tweaked* options (with multiplicities an item may be
    /// chosen again below, and must then not offer its options taken before,
    /// or a multiset of options would be met twice). Empty without
    /// multiplicities.
    pub excluded: Vec<OptionId>,
    /// Primary items that a level above ended without another option
    /// (Algorithm M's null move): they take no more options below. Empty
    /// without multiplicities.
    pub retired: Vec<ItemId>,
}

impl Subtree {
    /// A subtree named by its options alone (a search without
    /// multiplicities).
    pub fn of_options(options: &[OptionId]) -> Subtree {
        Subtree {
            options: options.to_vec(),
            ..Subtree::default()
        }
    }

    /// The subtrees of options given away at a branch point
    /// ([`Driver::give_away`](super::driver::Driver::give_away)): `path`,
    /// the cursors committed above it, then each of `options` (cursors
    /// that name options by their numbers: masks, bands).
    pub(crate) fn given_away(path: &[u32], options: &[u32]) -> Vec<Subtree> {
        let option = |c: u32| OptionId::must(c as usize);
        let path: Vec<OptionId> = path.iter().map(|&c| option(c)).collect();
        options
            .iter()
            .map(|&c| {
                let mut options = path.clone();
                options.push(option(c));
                Subtree::of_options(&options)
            })
            .collect()
    }

    /// Appends `below`, a subtree of the search of this one.
    pub fn extend(&mut self, below: &Subtree) {
        self.options.extend_from_slice(&below.options);
        self.excluded.extend_from_slice(&below.excluded);
        self.retired.extend_from_slice(&below.retired);
    }

    fn clear(&mut self) {
        self.options.clear();
        self.excluded.clear();
        self.retired.clear();
    }
}

/// What [`Solver::split`](crate::dlx::Solver::split) meets, in the order of a one-thread search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split<'a> {
    /// A branch point below the cut, not entered.
    Subtree(&'a Subtree),
    /// A solution above the cut, as [`LinksSolver::solution`](crate::dlx::LinksSolver::solution)
    /// gives it (preselected options first).
    Solution(&'a [OptionId]),
}

/// The subtree below the node where `s` is paused, for engines whose levels
/// fix nothing but their options.
pub(crate) fn options_path(s: &impl Steps, into: &mut Subtree) {
    into.clear();
    let chosen = s.driver().chosen().iter();
    into.options
        .extend(chosen.filter_map(|&c| s.cursor_option(c)));
}

/// [`Solver::preselect_subtree`](crate::dlx::Solver::preselect_subtree) for
/// engines that neither exclude options nor retire items: the options
/// preselected one by one, nothing preselected on a refusal.
pub(crate) fn preselect_options(
    s: &mut impl Steps,
    sub: &Subtree,
    engine: super::super::EngineKind,
) -> Result<(), PreselectError> {
    s.reset();
    if !sub.excluded.is_empty() || !sub.retired.is_empty() {
        return Err(PreselectError::Unsupported(engine));
    }
    let result = sub.options.iter().try_for_each(|&o| s.preselect(o));
    if result.is_err() {
        s.reset();
    }
    result
}

/// What a subtree with multiplicities asks of the root state of an engine
/// that copies its states (dense, bits), beyond preselecting: excluding an
/// option, retiring an item, and naming what a level tweaked.
pub(crate) trait RootSteps: Steps {
    /// Whether the matrix has multiplicities.
    fn bounded(&self) -> bool;
    /// The number of options, and whether option `r` has no primary item.
    fn options(&self) -> usize;
    fn ignored(&self, r: usize) -> bool;
    /// Takes option `r` out of the root state without counting; whether it
    /// was active.
    fn exclude_root(&mut self, r: usize) -> bool;
    /// Ends primary item `i` in the root state (refused for a secondary
    /// item or one whose lower bound is not met).
    fn retire_root(&mut self, i: usize) -> Result<(), PreselectError>;
    /// Level `l`'s item, and the options it tweaked before choosing its
    /// cursor `r` (all of its item's after a null move).
    fn level_item(&self, l: usize) -> usize;
    fn tweaked(&self, l: usize, r: u32, into: &mut Vec<OptionId>);
}

/// [`Solver::preselect_subtree`](crate::dlx::Solver::preselect_subtree)
/// for the engines of [`RootSteps`]: a reset; with multiplicities,
/// `sub.excluded` leave the search, `sub.options` are preselected in order
/// and `sub.retired` take no more options, as
/// [`LinksSolver::preselect_subtree`](crate::dlx::LinksSolver::preselect_subtree)
/// does; without them as [`preselect_options`]. On a refusal nothing is
/// kept.
pub(crate) fn preselect_root_subtree(
    s: &mut impl RootSteps,
    sub: &Subtree,
    engine: super::super::EngineKind,
) -> Result<(), PreselectError> {
    if !s.bounded() {
        return preselect_options(s, sub, engine);
    }
    s.reset();
    let result = enter_root_subtree(s, sub);
    if result.is_err() {
        s.reset();
    }
    result
}

fn enter_root_subtree(s: &mut impl RootSteps, sub: &Subtree) -> Result<(), PreselectError> {
    for &o in &sub.excluded {
        let r = o.as_usize();
        if r >= s.options() {
            return Err(PreselectError::UnknownOption(o));
        }
        if s.ignored(r) {
            return Err(PreselectError::IgnoredOption(o));
        }
        if s.exclude_root(r) {
            s.driver_mut().excluded.push(o);
        }
    }
    for &o in &sub.options {
        s.preselect(o)?;
    }
    for &i in &sub.retired {
        s.retire_root(i.as_usize())?;
        s.driver_mut().retired.push(i);
    }
    // Preselecting reset the driver's base; the passes are not counted.
    let d = s.driver_mut();
    d.base = d.stats;
    Ok(())
}

/// The subtree below the node where `s` is paused (at the cut of
/// [`split`]), preselected options not included: with multiplicities, also
/// each level's tweaked options and the items its null moves ended.
pub(crate) fn root_subtree_path(s: &impl RootSteps, into: &mut Subtree) {
    options_path(s, into);
    if !s.bounded() {
        return;
    }
    for (l, &r) in s.driver().chosen().iter().enumerate() {
        s.tweaked(l, r, &mut into.excluded);
        if r == super::NULL_MOVE {
            into.retired.push(ItemId::must(s.level_item(l)));
        }
    }
}

/// [`LinksSolver::split`](crate::dlx::LinksSolver::split), for any engine: the driver's cut does the work.
/// The counters of the search above the cut, and what stopped it before
/// its end (the deadline or the cancel handle: the budget is set aside
/// meanwhile), if anything did: then not every piece was handed out.
pub(crate) fn split(
    s: &mut impl Steps,
    depth: usize,
    mut visit: impl FnMut(Split<'_>),
) -> (Stats, Option<Stop>) {
    let limits = s.driver_mut().take_limits();
    s.driver_mut().set_limits(Limits {
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
        ..Limits::default()
    });
    s.restart();
    let start = s.stats();
    s.driver_mut().cut = depth;
    let mut subtree = Subtree::default();
    let mut solution = Vec::new();
    let stopped = loop {
        match s.next_solution() {
            Step::Solution if s.driver().at_cut => {
                s.subtree_path(&mut subtree);
                visit(Split::Subtree(&subtree));
            }
            Step::Solution => {
                solution.clear();
                solution.extend(s.solution_vec());
                visit(Split::Solution(&solution));
            }
            Step::Exhausted => break None,
            // Only the deadline or the cancel handle can stop it: say which.
            Step::Budget => break Some(s.driver().stopped.unwrap_or(Stop::Cancelled)),
        }
    };
    let d = s.driver_mut();
    d.cut = usize::MAX;
    d.at_cut = false;
    d.set_limits(limits);
    let stats = s.stats() - start;
    s.restart();
    (stats, stopped)
}
