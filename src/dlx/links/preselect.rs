//! Preselected options: fixed before the search, one by one
//! ([`LinksSolver::preselect`], undone by [`LinksSolver::reset`]) or all at once
//! ([`LinksSolver::preselect_all`], which rebuilds the live links in one pass).
//!
//! Both leave the search the same structure: the items of the preselected
//! options are off the root's list, and every option that clashes with one of
//! them is out of the lists of the remaining items, which keep their other
//! options in the original order. The one-by-one way gets there by DLX
//! covering (counted in `updates`) and can be undone step by step; the bulk
//! way writes the remaining lists directly (O(nodes), not counted) and is
//! undone by copying the matrix. The bulk way pays one pass over every
//! option, so it wins when the preselected options hide most of the matrix
//! and loses when they hide little: on 17-clue Sudoku givens it ran 12% more
//! instructions than one by one (cachegrind, 2,000 puzzles).
//!
//! With multiplicities (Algorithm M, `mult.rs`) a preselected option is
//! taken out of every list (an option is used once at most) and then
//! committed as the search commits it: each primary item uses one of its
//! bound, and is covered when none is left; a primary item with no bound
//! left is a conflict. Only the one-by-one way exists there.

#![allow(unsafe_code)]

use super::dance::{commit_others, cover, uncommit_others, uncover, COVERED};
use super::mult::{commit_node, uncommit_node};
use super::LinksSolver;
use crate::dlx::index::OptionId;
use crate::dlx::matrix::Matrix;
use crate::dlx::search::PreselectError;

impl LinksSolver<'_> {
    /// Commits to `option` before the search, as if it had been chosen at a
    /// level above the root: its items are covered and every option that
    /// clashes with it is hidden. This is how the Sudoku layer applies givens.
    ///
    /// Any search in progress is abandoned first. Undo with [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        let start = self.live_option(option)?;
        if self.is_excluded(option) {
            return Err(PreselectError::Excluded(option));
        }
        self.restart();
        if self.matrix.has_bounds() {
            // SAFETY: `start` is the first node of a live option of this
            // matrix (`live_option`), and the links hold their invariant.
            return unsafe { self.preselect_bounded(option, start) };
        }
        let n_primary = self.matrix.primary_count();
        let first = self.matrix.first_spacer();
        let shared = self.matrix.clone();
        let matrix: &Matrix = &shared;
        let colored = matrix.has_colors();
        let color_of = |x: usize| if colored { matrix.colors[x] } else { 0 };
        // Check every item first, so a refused option changes nothing.
        let mut p = 0;
        let mut x = start;
        while self.links.nodes[x].itm > 0 {
            let c = self.links.nodes[x].itm as usize;
            if self.clashes(c, color_of(x)) {
                let holder = self.links.held_by[c] as usize;
                let with = matrix.option_of_node(self.links.held[holder - 1] as usize);
                return Err(PreselectError::Conflict { option, with });
            }
            if p == 0 && c <= n_primary {
                p = x;
            }
            x += 1;
        }
        let slot = self.links.held.len() as u32 + 1;
        let mut x = start;
        while self.links.nodes[x].itm > 0 {
            let c = self.links.nodes[x].itm as usize;
            if self.links.held_by[c] == 0 {
                self.links.held_by[c] = slot;
                self.links.purified[c] = color_of(x);
            }
            x += 1;
        }
        // SAFETY: `p` is a node of a live option of this matrix (its first
        // primary item's), the links hold their invariant, and each arm
        // walks options as the matrix lays them out (colors, uniform length).
        let updates = unsafe {
            match (colored, matrix.uniform_len()) {
                (true, _) => self.apply::<true, 0>(p, first),
                (false, 3) => self.apply::<false, 3>(p, first),
                (false, 4) => self.apply::<false, 4>(p, first),
                (false, 5) => self.apply::<false, 5>(p, first),
                (false, 6) => self.apply::<false, 6>(p, first),
                (false, _) => self.apply::<false, 0>(p, first),
            }
        };
        self.driver.stats.updates += updates;
        self.links.held.push(p as u32);
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Whether an option giving item slot `c` the color `color` (0: none)
    /// clashes with the preselected options: `c` is held, and not by options
    /// that purified it to this very color.
    fn clashes(&self, c: usize, color: i32) -> bool {
        self.links.held_by[c] != 0 && (color == 0 || color != self.links.purified[c])
    }

    /// The first node of `option`, if it exists and is searched.
    pub(super) fn live_option(&self, option: OptionId) -> Result<usize, PreselectError> {
        match self.matrix.option_node.get(option.as_usize()) {
            None => Err(PreselectError::UnknownOption(option)),
            Some(&u32::MAX) => Err(PreselectError::IgnoredOption(option)),
            Some(&start) => Ok(start as usize),
        }
    }

    /// The first node of `option` whose item is primary.
    fn first_primary_node(&self, start: usize) -> usize {
        let n_primary = self.matrix.primary_count();
        let mut x = start;
        while self.matrix.nodes[x].itm as usize > n_primary {
            x += 1;
        }
        x
    }

    /// Covers node `p`'s item and commits to its option.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn apply<const COLORS: bool, const UL: usize>(&mut self, p: usize, first: usize) -> u64 {
        let (nodes, items, colors, w) = (
            &mut self.links.nodes,
            &mut self.links.items,
            &mut self.links.colors,
            &mut self.links.watch,
        );
        let c = nodes[p].itm as usize;
        cover::<COLORS, false, UL>(nodes, items, colors, w, c, first)
            + commit_others::<COLORS, false, UL>(nodes, items, colors, w, p, first)
    }

    /// Undoes [`apply`](Self::apply).
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn unapply<const COLORS: bool, const UL: usize>(&mut self, p: usize, first: usize) {
        let (nodes, items, colors) = (
            &mut self.links.nodes,
            &mut self.links.items,
            &mut self.links.colors,
        );
        let c = nodes[p].itm as usize;
        uncommit_others::<COLORS, UL>(nodes, items, colors, p, first);
        uncover::<COLORS, UL>(nodes, items, colors, c, first);
    }

    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn unselect(&mut self, p: usize) {
        let first = self.matrix.first_spacer();
        let slot = self.links.held.len() as u32 + 1;
        match (self.matrix.has_colors(), self.matrix.uniform_len()) {
            _ if self.matrix.has_bounds() => self.unapply_bounded(p, first),
            (true, _) => self.unapply::<true, 0>(p, first),
            (false, 3) => self.unapply::<false, 3>(p, first),
            (false, 4) => self.unapply::<false, 4>(p, first),
            (false, 5) => self.unapply::<false, 5>(p, first),
            (false, 6) => self.unapply::<false, 6>(p, first),
            (false, _) => self.unapply::<false, 0>(p, first),
        }
        // Release the items this option held: walk it from its first node.
        let mut x = p;
        while self.links.nodes[x - 1].itm > 0 {
            x -= 1;
        }
        while self.links.nodes[x].itm > 0 {
            let c = self.links.nodes[x].itm as usize;
            if self.links.held_by[c] == slot {
                self.links.held_by[c] = 0;
                self.links.purified[c] = 0;
            }
            x += 1;
        }
    }

    /// Replaces every preselection by `options`, all at once: the result is
    /// as if [`reset`](Self::reset) were followed by [`preselect`](Self::preselect)
    /// of each, but the live links are rebuilt in one pass over the options
    /// and nothing needs undoing (see the module documentation). Counters are
    /// zeroed; the rebuild is not counted as updates.
    ///
    /// On a conflict (two options sharing an item, or disagreeing on a
    /// color) nothing is preselected and the error names the pair.
    pub fn preselect_all(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        let shared = self.matrix.clone();
        let matrix: &Matrix = &shared;
        if matrix.has_bounds() {
            self.reset();
            let result = options.iter().try_for_each(|&o| self.preselect(o));
            if result.is_err() {
                self.reset();
            }
            return result;
        }
        let colored = matrix.has_colors();
        // Abandon the search: the links are about to be rewritten anyway.
        // Counters are zeroed, and the driver's list of preselected options
        // is set once all of them are accepted.
        self.driver.reset();
        self.links.watch.clear();
        self.links.held.clear();
        self.links.removed.clear();
        self.links.held_by.fill(0);
        self.links.purified.fill(0);
        self.links.excluded.fill(false);
        for (i, &option) in options.iter().enumerate() {
            let start = match self.live_option(option) {
                Ok(s) => s,
                Err(e) => {
                    self.clear_preselection();
                    return Err(e);
                }
            };
            let slot = i as u32 + 1;
            let mut x = start;
            while matrix.nodes[x].itm > 0 {
                let c = matrix.nodes[x].itm as usize;
                let color = if colored { matrix.colors[x] } else { 0 };
                if self.clashes(c, color) {
                    let with = options[self.links.held_by[c] as usize - 1];
                    self.clear_preselection();
                    return Err(PreselectError::Conflict { option, with });
                }
                if self.links.held_by[c] == 0 {
                    self.links.held_by[c] = slot;
                    self.links.purified[c] = color;
                }
                x += 1;
            }
            self.links.held.push(self.first_primary_node(start) as u32);
        }
        self.rebuild();
        self.driver.preselected.extend_from_slice(options);
        Ok(())
    }

    fn clear_preselection(&mut self) {
        self.links.held.clear();
        self.links.removed.clear();
        self.links.held_by.fill(0);
        self.links.purified.fill(0);
        self.rebuild();
    }

    /// Writes the live links from `held_by`/`purified`: the items not held
    /// on their lists, and every option that clashes with no held item on
    /// the lists of its items, in the original order.
    fn rebuild(&mut self) {
        let shared = self.matrix.clone();
        let matrix: &Matrix = &shared;
        let n = matrix.item_count();
        let np = matrix.primary_count();
        let colored = matrix.has_colors();
        // Item lists: the free primary items on the root's, the secondary
        // items not covered on theirs (a purified one stays: DLX2 does not
        // cover it).
        let free = |c: usize| self.links.held_by[c] == 0 || self.links.purified[c] != 0;
        let mut last = 0;
        for c in (1..=np).filter(|&c| self.links.held_by[c] == 0) {
            self.links.items[last].next = c as u32;
            self.links.items[c].prev = last as u32;
            last = c;
        }
        self.links.items[last].next = 0;
        self.links.items[0].prev = last as u32;
        let head = n + 1;
        let mut last = head;
        for c in (np + 1..=n).filter(|&c| free(c)) {
            self.links.items[last].next = c as u32;
            self.links.items[c].prev = last as u32;
            last = c;
        }
        self.links.items[last].next = head as u32;
        self.links.items[head].prev = last as u32;
        for c in 1..=n {
            self.links.nodes[c].up = c as u32;
            self.links.nodes[c].down = c as u32;
            // A held item counts as covered (see `dance::COVERED`).
            let held = self.links.held_by[c] != 0 && self.links.purified[c] == 0;
            self.links.nodes[c].itm = if held { COVERED } else { 0 };
        }
        // Options, in order: keep those that clash with nothing held.
        for &start in &matrix.option_node {
            if start == u32::MAX {
                continue;
            }
            let start = start as usize;
            let mut x = start;
            let mut alive = true;
            while matrix.nodes[x].itm > 0 {
                let c = matrix.nodes[x].itm as usize;
                if self.links.held_by[c] != 0
                    && !(colored
                        && self.links.purified[c] != 0
                        && matrix.colors[x] == self.links.purified[c])
                {
                    alive = false;
                    break;
                }
                x += 1;
            }
            if !alive {
                continue;
            }
            let mut x = start;
            while matrix.nodes[x].itm > 0 {
                let c = matrix.nodes[x].itm as usize;
                let tail = self.links.nodes[c].up as usize;
                self.links.nodes[tail].down = x as u32;
                self.links.nodes[x].up = tail as u32;
                self.links.nodes[x].down = c as u32;
                self.links.nodes[c].up = x as u32;
                self.links.nodes[c].itm += 1;
                if colored {
                    // DLX2's purify marks agreeing nodes with -1.
                    self.links.colors[x] = if self.links.purified[c] != 0 {
                        -1
                    } else {
                        matrix.colors[x]
                    };
                }
                x += 1;
            }
        }
        self.links.rebuilt = true;
    }

    /// [`preselect`](Self::preselect) with multiplicities (see the module
    /// documentation): `start` is the option's first node.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn preselect_bounded(
        &mut self,
        option: OptionId,
        start: usize,
    ) -> Result<(), PreselectError> {
        let shared = self.matrix.clone();
        let matrix: &Matrix = &shared;
        let n_primary = matrix.primary_count();
        let colored = matrix.has_colors();
        // Clashes are judged by the option's own colors (purifying marks
        // the live nodes that agree -1; hiding leaves those in place).
        let color_of = |x: usize| if colored { matrix.colors[x] } else { 0 };
        let mut x = start;
        while self.links.nodes[x].itm > 0 {
            let c = self.links.nodes[x].itm as usize;
            let full = c <= n_primary && self.links.bounds[c].bound == 0;
            if full || (c > n_primary && self.clashes(c, color_of(x))) {
                let item = crate::dlx::ItemId::must(c - 1);
                let uses = |o: &OptionId| matrix.option_items(*o).any(|(i, _)| i == item);
                let with = match self.driver.preselected.iter().rev().find(|o| uses(o)) {
                    Some(&with) => with,
                    None => option,
                };
                return Err(PreselectError::Conflict { option, with });
            }
            x += 1;
        }
        let slot = self.links.held.len() as u32 + 1;
        let first = matrix.first_spacer();
        let mut updates = 0;
        let mut x = start;
        while self.links.nodes[x].itm > 0 {
            let c = self.links.nodes[x].itm as usize;
            if c > n_primary && self.links.held_by[c] == 0 {
                self.links.held_by[c] = slot;
                self.links.purified[c] = color_of(x);
            }
            // Out of its list: the option is used, once.
            if !colored || self.links.colors[x] >= 0 {
                let nodes = &mut self.links.nodes;
                let (up, down) = (nodes[x].up as usize, nodes[x].down as usize);
                nodes[up].down = down as u32;
                nodes[down].up = up as u32;
                nodes[c].itm -= 1;
                updates += 1;
            }
            x += 1;
        }
        // Commit it, item by item.
        let mut x = start;
        while self.links.nodes[x].itm > 0 {
            updates += if colored {
                commit_node::<true>(&mut self.links, x, n_primary, first)
            } else {
                commit_node::<false>(&mut self.links, x, n_primary, first)
            };
            x += 1;
        }
        self.driver.stats.updates += updates;
        self.links.held.push(start as u32);
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Undoes [`preselect_bounded`](Self::preselect_bounded) of the option
    /// whose first node is `start`.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn unapply_bounded(&mut self, start: usize, first: usize) {
        let n_primary = self.matrix.primary_count();
        let colored = self.matrix.has_colors();
        let mut last = start;
        while self.links.nodes[last + 1].itm > 0 {
            last += 1;
        }
        let mut x = last;
        while self.links.nodes[x].itm > 0 {
            if colored {
                uncommit_node::<true>(&mut self.links, x, n_primary, first);
            } else {
                uncommit_node::<false>(&mut self.links, x, n_primary, first);
            }
            x -= 1;
        }
        let mut x = last;
        while self.links.nodes[x].itm > 0 {
            if !colored || self.links.colors[x] >= 0 {
                let nodes = &mut self.links.nodes;
                let (up, down, c) = (nodes[x].up as usize, nodes[x].down as usize, nodes[x].itm);
                nodes[up].down = x as u32;
                nodes[down].up = x as u32;
                nodes[c as usize].itm += 1;
            }
            x -= 1;
        }
    }

    /// Copies the pristine links back from the matrix (after a rebuild).
    pub(super) fn restore_from_matrix(&mut self) {
        self.links.nodes.copy_from_slice(&self.matrix.nodes);
        self.links.items.copy_from_slice(&self.matrix.items);
        self.links.colors.copy_from_slice(&self.matrix.colors);
        self.links.held.clear();
        self.links.removed.clear();
        self.links.held_by.fill(0);
        self.links.purified.fill(0);
        self.links.watch.clear();
        self.links.excluded.fill(false);
        self.links.rebuilt = false;
        if self.matrix.has_bounds() {
            self.links.bounds = super::mult::initial_bounds(&self.matrix);
        }
    }
}
