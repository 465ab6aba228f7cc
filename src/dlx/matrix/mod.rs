//! Building an exact-cover matrix: items, options, colors, and validation.
//!
//! A [`Matrix`] is built once with a [`MatrixBuilder`] and never changes
//! afterwards; every search works on its own copy of the links (see
//! [`crate::dlx::LinksSolver`]). That split is what lets one matrix serve many
//! solves and many threads.
//!
//! # Layout (Knuth's DLX1/DLX2)
//!
//! With `n` items, the arrays are laid out as:
//!
//! * `items[0]` is the root of the circular list of *primary* items;
//!   `items[1..=n]` are the items (item id `k` at slot `k + 1`); `items[n + 1]`
//!   heads the circular list of secondary items, which the search never scans.
//! * `nodes[1..=n]` are the item header nodes: `up`/`down` link the item's
//!   options, and `itm` holds the item's *len* (its number of active options).
//! * `nodes[n + 1]` is the first *spacer*. After it, each option's nodes stand
//!   one after another, each closed by a spacer. A spacer's `itm` is `-(k+1)`
//!   for the option `k` it closes (0 for the first spacer); its `up` is the
//!   first node of the option before it and its `down` the last node of the
//!   option after it. So an option is walked by index arithmetic, with no
//!   left/right links.
//! * `colors`, only when some option gives a color, is parallel to `nodes`:
//!   0 for no color, `c + 1` for color id `c`.
//! * `bounds`, only when some primary item is to be covered other than
//!   exactly once (DLX3's multiplicities), holds each primary item's
//!   (lower, upper) bound.
//!
//! Options that name no primary item are *ignored*, as DLX1 ignores them: they
//! keep their [`OptionId`] and their items (so a caller's numbering does not
//! shift) but get no nodes and can never be chosen.

use std::borrow::Cow;

use crate::dlx::index::{ColorId, ItemId, OptionId};

mod builder;
mod residual;
mod shuffled;

pub use builder::{BuildError, BuildErrorKind, MatrixBuilder};
pub use residual::{Residual, ResidualError};
pub use shuffled::Shuffled;

/// One node of the toroidal structure. For a header node, `itm` is the len.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) up: u32,
    pub(crate) down: u32,
    /// Item slot (> 0) of an option node; len of a header; `<= 0` on a spacer.
    pub(crate) itm: i32,
}

/// The prev/next links of an item in its circular list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Link {
    pub(crate) prev: u32,
    pub(crate) next: u32,
}

/// A built, immutable exact-cover matrix.
///
/// ```
/// use dlx::{MatrixBuilder, Solver};
///
/// // TAOCP 7.2.2.1's example: items A-G, six options, one exact cover.
/// let mut b = MatrixBuilder::new();
/// for name in ["A", "B", "C", "D", "E", "F", "G"] {
///     b.primary(name).unwrap();
/// }
/// for option in ["C E F", "A D G", "B C F", "A D", "B G", "D E G"] {
///     b.option_by_names(option.split(' ')).unwrap();
/// }
/// let matrix = b.build().unwrap();
/// let mut solver = Solver::new(&matrix);
/// assert_eq!(solver.count().solutions, 1);
/// ```
#[derive(Clone, Debug)]
pub struct Matrix {
    /// Item names by item id; an empty name is an anonymous item.
    names: Vec<Box<str>>,
    color_names: Vec<Box<str>>,
    n_primary: u32,
    pub(crate) nodes: Vec<Node>,
    pub(crate) items: Vec<Link>,
    /// Parallel to `nodes` when any option is colored, else empty.
    pub(crate) colors: Vec<i32>,
    /// Every option's entries, ignored ones too: `entries[option_start[k]..option_start[k+1]]`.
    entries: Vec<(u32, u32)>,
    option_start: Vec<u32>,
    /// First node of each option, or `u32::MAX` for an ignored option.
    pub(crate) option_node: Vec<u32>,
    ignored: Vec<OptionId>,
    /// Each option's cost (DLX5), or empty when every cost is 0.
    costs: Vec<u64>,
    /// The number of nodes of every searched option, when they all have the
    /// same (0 otherwise). Options then stand at a fixed stride.
    uniform_len: usize,
    /// Each primary item's multiplicities (DLX3), or empty when every one is
    /// exactly once.
    bounds: Vec<(u32, u32)>,
}

impl Matrix {
    /// A new, empty builder.
    pub fn builder() -> MatrixBuilder {
        MatrixBuilder::new()
    }

    /// The number of items, primary and secondary.
    pub fn item_count(&self) -> usize {
        self.names.len()
    }

    /// The number of primary items; they are items `0..primary_count()`.
    pub fn primary_count(&self) -> usize {
        self.n_primary as usize
    }

    /// The number of options, ignored ones included.
    pub fn option_count(&self) -> usize {
        self.option_node.len()
    }

    /// The number of option nodes in the dancing structure (entries of the
    /// options that are not ignored).
    pub fn node_count(&self) -> usize {
        self.nodes.len() - self.names.len() - 2 - self.live_option_count()
    }

    fn live_option_count(&self) -> usize {
        self.option_count() - self.ignored.len()
    }

    /// Whether `item` is primary (to be covered exactly once).
    pub fn is_primary(&self, item: ItemId) -> bool {
        item.as_usize() < self.n_primary as usize
    }

    /// Whether any option gives a secondary item a color.
    pub fn has_colors(&self) -> bool {
        !self.colors.is_empty()
    }

    /// The name of an item; anonymous items (from
    /// [`MatrixBuilder::primary_items`]) are named `#k`, `k` their id.
    pub fn item_name(&self, item: ItemId) -> Cow<'_, str> {
        match self.names.get(item.as_usize()) {
            Some(name) if !name.is_empty() => Cow::Borrowed(name),
            _ => Cow::Owned(format!("#{}", item.as_usize())),
        }
    }

    /// The name of a color.
    pub fn color_name(&self, color: ColorId) -> &str {
        self.color_names.get(color.as_usize()).map_or("?", |s| s)
    }

    /// The items of an option, in the order given, each with its color.
    pub fn option_items(
        &self,
        option: OptionId,
    ) -> impl ExactSizeIterator<Item = (ItemId, Option<ColorId>)> + '_ {
        let k = option.as_usize();
        let range = match (self.option_start.get(k), self.option_start.get(k + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        };
        self.entries[range].iter().map(|&(item, color)| {
            let color = if color == 0 {
                None
            } else {
                Some(ColorId::must(color as usize - 1))
            };
            (ItemId::must(item as usize), color)
        })
    }

    /// The cost of an option (DLX5's `|n` tokens; 0 unless given).
    pub fn cost(&self, option: OptionId) -> u64 {
        self.costs.get(option.as_usize()).copied().unwrap_or(0)
    }

    /// Whether any option has a cost.
    pub fn has_costs(&self) -> bool {
        !self.costs.is_empty()
    }

    /// The total cost of `options` (saturating: costs are user numbers).
    pub fn cost_of(&self, options: impl IntoIterator<Item = OptionId>) -> u64 {
        options
            .into_iter()
            .fold(0u64, |sum, o| sum.saturating_add(self.cost(o)))
    }

    /// How many times a primary item is to be covered, as (at least, at
    /// most): DLX3's multiplicities, (1, 1) unless given. `None` for a
    /// secondary item.
    pub fn bounds(&self, item: ItemId) -> Option<(u32, u32)> {
        let i = item.as_usize();
        (i < self.primary_count()).then(|| self.bounds.get(i).copied().unwrap_or((1, 1)))
    }

    /// Whether any primary item has multiplicities other than exactly once:
    /// then the search is Knuth's Algorithm M (DLX3), on the links engine.
    pub fn has_bounds(&self) -> bool {
        !self.bounds.is_empty()
    }

    /// Options that name no primary item: they can never be chosen and are
    /// left out of the search, as DLX1 leaves them out.
    pub fn ignored_options(&self) -> &[OptionId] {
        &self.ignored
    }

    /// The option whose node `x` is (walking forward to its closing spacer).
    #[inline]
    pub(crate) fn option_of_node(&self, mut x: usize) -> OptionId {
        while self.nodes[x].itm > 0 {
            x += 1;
        }
        OptionId::must((-self.nodes[x].itm) as usize - 1)
    }

    /// The common number of items of every searched option, or 0 when they
    /// differ (or there is none). The search walks such options by
    /// arithmetic.
    pub fn uniform_len(&self) -> usize {
        self.uniform_len
    }

    /// Declares in `b` an item like item `i` of this matrix: named or
    /// anonymous, primary or secondary (not its bounds). For the matrices
    /// made from this one (`residual`, `shuffled`).
    pub(crate) fn declare_item_like(
        &self,
        b: &mut MatrixBuilder,
        i: usize,
    ) -> Result<ItemId, BuildError> {
        let name = self.names.get(i).map_or("", |n| n.as_ref());
        match (name.is_empty(), i < self.primary_count()) {
            (true, true) => b.primary_items(1),
            (true, false) => b.secondary_items(1),
            (false, true) => b.primary(name),
            (false, false) => b.secondary(name),
        }
    }

    /// Slot of the first spacer: header nodes are below it, option nodes above.
    #[inline]
    pub(crate) fn first_spacer(&self) -> usize {
        self.names.len() + 1
    }
}
