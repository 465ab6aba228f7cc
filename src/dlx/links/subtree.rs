//! Subtrees of the links engine's search ([`Subtree`]): naming the node a
//! split paused at, and starting a search below one.
//!
//! Without multiplicities a node is named by the options chosen above it.
//! With them (Algorithm M, `mult.rs`) it is named also by the options each
//! level above *tweaked* — tried before the one it chose, or all of its
//! item's options when it took the null move — and by the items a null
//! move ended. The tweaked options of level `l` are a chain in the links
//! that the search keeps for its own untweak: from `first_tweak[l]` down
//! the `down` links (a tweaked node keeps its links) to the option chosen,
//! or to the item's header after a null move.
//!
//! [`LinksSolver::preselect_subtree`] rebuilds that node's state from the
//! pristine links in three passes: the excluded options leave every list
//! (each of them was live when its level tweaked it), the options are
//! preselected in order (bounds used, items covered at bound 0, colors
//! purified), and each retired item, whose options are then all gone,
//! leaves the active list. The live lists (their order kept, only removals
//! made), the active items in their order and every active item's bound are
//! then those of one search at that node, which is what its branching rule
//! reads; lists of inactive items may differ, but nothing below reads them.
//! Exclusion writes the links without dancing, so afterwards
//! [`reset`](LinksSolver::reset) copies them back from the matrix.

#![allow(unsafe_code)]

use super::LinksSolver;
use crate::dlx::index::{ItemId, OptionId};
use crate::dlx::search::{PreselectError, Subtree};

impl LinksSolver<'_> {
    /// Starts over below `sub`, a subtree of [`split`](Self::split) (or one
    /// a job line names): a [`reset`](Self::reset); `sub.excluded` leave the
    /// search; `sub.options` are preselected in order; `sub.retired` take no
    /// more options (each must be primary, with its lower bound met by the
    /// options preselected; its options still live are excluded). The search
    /// that follows is then the one a single search makes below that node,
    /// counters included. On a refusal nothing is kept.
    pub fn preselect_subtree(&mut self, sub: &Subtree) -> Result<(), PreselectError> {
        self.reset();
        let result = self.enter_subtree(sub);
        if result.is_err() {
            self.reset();
        }
        result
    }

    fn enter_subtree(&mut self, sub: &Subtree) -> Result<(), PreselectError> {
        for &o in &sub.excluded {
            self.exclude(o)?;
        }
        for &o in &sub.options {
            self.preselect(o)?;
        }
        for &i in &sub.retired {
            self.retire(i)?;
        }
        // Preselecting reset the driver's base; the passes are not counted.
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Takes `option`, live in every list of the pristine links, out of them.
    fn exclude(&mut self, option: OptionId) -> Result<(), PreselectError> {
        let start = self.live_option(option)?;
        if !self.is_excluded(option) {
            self.take_out(option, start);
            self.driver.excluded.push(option);
        }
        Ok(())
    }

    /// Whether `option` was excluded.
    pub(super) fn is_excluded(&self, option: OptionId) -> bool {
        self.links.excluded.get(option.as_usize()) == Some(&true)
    }

    /// Unlinks every node of `option`, whose first node is `start`, from
    /// its list; marks it excluded, and the links as no longer undoable.
    fn take_out(&mut self, option: OptionId, start: usize) {
        if self.links.excluded.is_empty() {
            self.links.excluded = vec![false; self.matrix.option_count()];
        }
        self.links.excluded[option.as_usize()] = true;
        let colored = self.matrix.has_colors();
        let (nodes, colors) = (&mut self.links.nodes, &self.links.colors);
        let mut x = start;
        while nodes[x].itm > 0 {
            // As hiding does: a node that agrees with a purified item's
            // color (marked below 0) stays where purifying left it.
            if !colored || colors[x] >= 0 {
                let (up, down, c) = (nodes[x].up, nodes[x].down, nodes[x].itm);
                nodes[up as usize].down = down;
                nodes[down as usize].up = up;
                nodes[c as usize].itm -= 1;
            }
            x += 1;
        }
        self.links.rebuilt = true;
    }

    /// Ends primary item `item`: its live options leave the search and it
    /// leaves the active list, as Algorithm M's null move leaves it.
    fn retire(&mut self, item: ItemId) -> Result<(), PreselectError> {
        let c = item.as_usize() + 1;
        if c > self.matrix.primary_count() {
            return Err(PreselectError::NotRetirable(item));
        }
        let covered = if self.matrix.has_bounds() {
            let b = self.links.bounds[c];
            if b.bound > b.slack {
                // Fewer uses than its lower bound.
                return Err(PreselectError::NotRetirable(item));
            }
            b.bound == 0
        } else {
            // Exactly once: retiring is only for an item already covered.
            if self.links.held_by[c] == 0 {
                return Err(PreselectError::NotRetirable(item));
            }
            true
        };
        self.driver.retired.push(item);
        if covered {
            return Ok(());
        }
        // Its options left are live (an active item's list holds no hidden
        // option): each leaves every list.
        loop {
            let x = self.links.nodes[c].down as usize;
            if x == c {
                break;
            }
            let option = self.matrix.option_of_node(x);
            let start = self.live_option(option)?;
            self.take_out(option, start);
        }
        let items = &mut self.links.items;
        let (prev, next) = (items[c].prev, items[c].next);
        items[prev as usize].next = next;
        items[next as usize].prev = prev;
        self.links.rebuilt = true;
        Ok(())
    }

    /// The subtree below the node where the search is paused (at the cut
    /// of [`split`](Self::split)), preselected options not included.
    pub(crate) fn subtree_path(&self, into: &mut Subtree) {
        crate::dlx::search::split::options_path(self, into);
        if !self.matrix.has_bounds() {
            return;
        }
        for (l, &p) in self.driver.chosen().iter().enumerate() {
            let i = self.links.item[l] as usize;
            // The chain this level tweaked, up to its choice (the header
            // after a null move).
            let mut x = self.links.first_tweak[l] as usize;
            while x != p as usize && x != i {
                into.excluded.push(self.matrix.option_of_node(x));
                x = self.links.nodes[x].down as usize;
            }
            if p as usize == i {
                into.retired.push(ItemId::must(i - 1));
            }
        }
    }
}
