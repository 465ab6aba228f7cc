//! Building a [`Matrix`]: [`MatrixBuilder`] declares items (primary, then
//! secondary) and adds options by name or id, with colors; [`BuildError`]
//! names what is wrong (duplicate or unknown item, a color on a primary item,
//! ...). The layout it builds is described in `mod.rs`.

use super::*;
use crate::dlx::index::{ColorId, ItemId, OptionId};
use std::collections::HashMap;
use std::fmt;

/// What went wrong while building a matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// Two items share a name.
    DuplicateItem {
        /// The item concerned.
        name: String,
    },
    /// A name that is empty or holds white space, a control character, a
    /// byte-order mark, `:` or `|`.
    IllegalItemName {
        /// The item concerned.
        name: String,
    },
    /// A primary item was declared after a secondary one.
    PrimaryAfterSecondary {
        /// The item concerned.
        name: String,
    },
    /// An option names an item that was never declared.
    UnknownItem {
        /// The item concerned.
        name: String,
    },
    /// An option names the same item twice.
    RepeatedItem {
        /// The item concerned.
        name: String,
    },
    /// An option gives a color to a primary item.
    ColorOnPrimary {
        /// The item concerned.
        name: String,
    },
    /// An option item of the form `name:` with no color after the colon.
    EmptyColor {
        /// The item concerned.
        name: String,
    },
    /// The matrix has no items at all.
    NoItems,
    /// Multiplicities (DLX3's `u:v|name`) given to a secondary item, which
    /// takes none.
    BoundsOnSecondary {
        /// The item concerned.
        name: String,
    },
    /// Multiplicities with no room for a use: an upper bound of 0, or a
    /// lower bound above the upper one.
    BadBounds {
        /// The item concerned.
        name: String,
        /// The lower bound given.
        lo: u32,
        /// The upper bound given.
        hi: u32,
    },
    /// A cost given to an option that was never added.
    UnknownOption {
        /// The option's index.
        option: usize,
    },
    /// More items, options or nodes than 32-bit indices can address.
    TooLarge {
        /// The kind of thing concerned.
        what: &'static str,
    },
    /// The options' costs add up past `u64::MAX`: a solution's cost (a sum
    /// of some of them) could not be told, so the matrix is refused rather
    /// than answered wrong.
    CostsTooLarge {
        /// The option whose cost took the sum past it.
        option: usize,
    },
}

/// An error from [`MatrixBuilder`]; [`BuildError::kind`] says which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    kind: BuildErrorKind,
    option: Option<OptionId>,
}

impl BuildError {
    fn new(kind: BuildErrorKind) -> Self {
        BuildError { kind, option: None }
    }

    /// Which error this is.
    pub fn kind(&self) -> &BuildErrorKind {
        &self.kind
    }

    /// The option being added when the error was found, if any.
    pub fn option(&self) -> Option<OptionId> {
        self.option
    }
}

/// A name in a message, its control characters escaped (`\u{1b}`, `\t`), so
/// that an item named with terminal escapes cannot write to the terminal.
struct Shown<'a>(&'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BuildErrorKind::*;
        let name = match &self.kind {
            DuplicateItem { name }
            | IllegalItemName { name }
            | PrimaryAfterSecondary { name }
            | UnknownItem { name }
            | RepeatedItem { name }
            | ColorOnPrimary { name }
            | EmptyColor { name }
            | BoundsOnSecondary { name }
            | BadBounds { name, .. } => Shown(name),
            NoItems | TooLarge { .. } | UnknownOption { .. } | CostsTooLarge { .. } => Shown(""),
        };
        match &self.kind {
            DuplicateItem { .. } => write!(f, "duplicate item name `{name}`"),
            IllegalItemName { .. } => write!(
                f,
                "illegal item name `{name}` (empty, or has white space, a control \
                 character, `:` or `|`)"
            ),
            PrimaryAfterSecondary { .. } => {
                write!(f, "primary item `{name}` declared after a secondary item")
            }
            UnknownItem { .. } => write!(f, "unknown item `{name}`"),
            RepeatedItem { .. } => write!(f, "item `{name}` appears twice in one option"),
            ColorOnPrimary { .. } => write!(f, "primary item `{name}` cannot have a color"),
            EmptyColor { .. } => write!(f, "item `{name}:` has an empty color"),
            BoundsOnSecondary { .. } => write!(
                f,
                "secondary item `{name}` cannot have multiplicities (only primary items take u:v|)"
            ),
            BadBounds { lo, hi, .. } if *hi == 0 => write!(
                f,
                "item `{name}`: multiplicities {lo}:{hi} have an upper bound of zero"
            ),
            BadBounds { lo, hi, .. } => write!(
                f,
                "item `{name}`: multiplicities {lo}:{hi} have a lower bound above the upper"
            ),
            NoItems => write!(f, "the matrix has no items"),
            UnknownOption { option } => write!(f, "option {option} was never added"),
            TooLarge { what } => write!(f, "too many {what} for 32-bit indices"),
            CostsTooLarge { option } => write!(
                f,
                "option {option}'s cost takes the options' costs past {} in all: a solution's cost could overflow",
                u64::MAX
            ),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds a [`Matrix`]: declare the items (primary first), then add options.
///
/// Items can be named ([`primary`](Self::primary), [`secondary`](Self::secondary),
/// options by name with [`option_by_names`](Self::option_by_names)) or
/// anonymous ([`primary_items`](Self::primary_items), options by [`ItemId`]
/// with [`option`](Self::option)), so generated matrices need no strings.
#[derive(Clone, Debug, Default)]
pub struct MatrixBuilder {
    names: Vec<Box<str>>,
    lookup: HashMap<Box<str>, ItemId>,
    n_primary: usize,
    color_names: Vec<Box<str>>,
    color_lookup: HashMap<Box<str>, ColorId>,
    entries: Vec<(u32, u32)>,
    option_start: Vec<u32>,
    has_primary: Vec<bool>,
    /// Per item: 1 + the last option that used it (Knuth's `aux`), for the
    /// repeated-item check.
    stamp: Vec<u32>,
    /// Options' costs, as far as the last option given one (0 beyond).
    costs: Vec<u64>,
    /// The sum of `costs`: at most `u64::MAX`, so that no solution's cost
    /// (a sum of some of them) overflows.
    cost_total: u64,
    /// Primary items' multiplicities (lower, upper), as far as the last item
    /// given any ((1, 1) beyond).
    bounds: Vec<(u32, u32)>,
}

impl MatrixBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        MatrixBuilder {
            option_start: vec![0],
            ..Default::default()
        }
    }

    fn add_item(&mut self, name: &str, primary: bool) -> Result<ItemId, BuildError> {
        // Control characters and the byte-order mark cannot be told apart
        // from the text around them (a BOM at the start of a file is
        // skipped): a name written by `knuth::write` must read back as
        // itself.
        let illegal =
            |c: char| c.is_whitespace() || c.is_control() || matches!(c, ':' | '|' | '\u{feff}');
        if name.is_empty() || name.contains(illegal) {
            return Err(BuildError::new(BuildErrorKind::IllegalItemName {
                name: name.to_string(),
            }));
        }
        if self.lookup.contains_key(name) {
            return Err(BuildError::new(BuildErrorKind::DuplicateItem {
                name: name.to_string(),
            }));
        }
        let id = self.push_item(name.into(), primary, name)?;
        self.lookup.insert(name.into(), id);
        Ok(id)
    }

    fn push_item(
        &mut self,
        name: Box<str>,
        primary: bool,
        shown: &str,
    ) -> Result<ItemId, BuildError> {
        if primary && self.names.len() > self.n_primary {
            return Err(BuildError::new(BuildErrorKind::PrimaryAfterSecondary {
                name: shown.to_string(),
            }));
        }
        let id = ItemId::new(self.names.len())
            .filter(|id| id.as_usize() < i32::MAX as usize / 2)
            .ok_or(BuildError::new(BuildErrorKind::TooLarge { what: "items" }))?;
        self.names.push(name);
        self.stamp.push(0);
        if primary {
            self.n_primary += 1;
        }
        Ok(id)
    }

    /// Declares a primary item (covered exactly once).
    pub fn primary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.add_item(name, true)
    }

    /// Gives the primary item `item` DLX3's multiplicities: it is to be
    /// covered at least `lo` and at most `hi` times (`lo = hi = 1`, the
    /// default, is exact cover). Replaces any bounds given before. A
    /// secondary item takes none, and `hi` must be at least 1 and `lo`.
    ///
    /// ```
    /// use dlx::{MatrixBuilder, Solver};
    ///
    /// // Two of the three options of `A`, any number of `B`'s one.
    /// let mut b = MatrixBuilder::new();
    /// let a = b.primary("A").unwrap();
    /// let bb = b.primary("B").unwrap();
    /// b.set_bounds(a, 2, 2).unwrap();
    /// b.set_bounds(bb, 0, 1).unwrap();
    /// for option in ["A", "A B", "A"] {
    ///     b.option_by_names(option.split(' ')).unwrap();
    /// }
    /// let m = b.build().unwrap();
    /// assert_eq!(Solver::new(&m).count().solutions, 3);
    /// ```
    pub fn set_bounds(&mut self, item: ItemId, lo: u32, hi: u32) -> Result<(), BuildError> {
        let i = item.as_usize();
        if i >= self.names.len() {
            return Err(BuildError::new(BuildErrorKind::UnknownItem {
                name: format!("#{i}"),
            }));
        }
        let name = self.shown_name(i);
        if i >= self.n_primary {
            return Err(BuildError::new(BuildErrorKind::BoundsOnSecondary { name }));
        }
        if hi == 0 || lo > hi {
            return Err(BuildError::new(BuildErrorKind::BadBounds { name, lo, hi }));
        }
        if (lo, hi) != (1, 1) && self.bounds.len() <= i {
            self.bounds.resize(i + 1, (1, 1));
        }
        if let Some(b) = self.bounds.get_mut(i) {
            *b = (lo, hi);
        }
        Ok(())
    }

    /// Declares a secondary item (covered at most once, or by any number of
    /// options that agree on its color).
    pub fn secondary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.add_item(name, false)
    }

    /// Declares `n` anonymous primary items and returns the first one's id;
    /// they are numbered consecutively.
    pub fn primary_items(&mut self, n: usize) -> Result<ItemId, BuildError> {
        self.anonymous_items(n, true)
    }

    /// Declares `n` anonymous secondary items and returns the first one's id.
    pub fn secondary_items(&mut self, n: usize) -> Result<ItemId, BuildError> {
        self.anonymous_items(n, false)
    }

    fn anonymous_items(&mut self, n: usize, primary: bool) -> Result<ItemId, BuildError> {
        let first = self.names.len();
        for k in 0..n {
            self.push_item(Box::from(""), primary, &format!("#{}", first + k))?;
        }
        Ok(ItemId::must(first))
    }

    /// The id of a named item.
    pub fn item(&self, name: &str) -> Option<ItemId> {
        self.lookup.get(name).copied()
    }

    /// The id of a color, interning the name on first use.
    pub fn color(&mut self, name: &str) -> Result<ColorId, BuildError> {
        if let Some(&c) = self.color_lookup.get(name) {
            return Ok(c);
        }
        let c = ColorId::new(self.color_names.len())
            .filter(|c| c.as_usize() < i32::MAX as usize - 1)
            .ok_or(BuildError::new(BuildErrorKind::TooLarge { what: "colors" }))?;
        self.color_names.push(name.into());
        self.color_lookup.insert(name.into(), c);
        Ok(c)
    }

    fn shown_name(&self, item: usize) -> String {
        match self.names.get(item) {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => format!("#{item}"),
        }
    }

    /// Adds an option covering `items` (none colored).
    pub fn option(&mut self, items: &[ItemId]) -> Result<OptionId, BuildError> {
        self.colored_option(items.iter().map(|&i| (i, None)))
    }

    /// Adds an option whose secondary items may carry colors.
    ///
    /// On error nothing is added.
    pub fn colored_option(
        &mut self,
        items: impl IntoIterator<Item = (ItemId, Option<ColorId>)>,
    ) -> Result<OptionId, BuildError> {
        let k = self.option_start.len() - 1;
        let id = OptionId::new(k)
            .filter(|_| k < i32::MAX as usize - 1)
            .ok_or(BuildError::new(BuildErrorKind::TooLarge {
                what: "options",
            }))?;
        let start = self.entries.len();
        let mut primary = false;
        for (item, color) in items {
            if let Err(mut e) = self.check_entry(item, color, k) {
                self.entries.truncate(start);
                // Forget the stamps this option left, so a retry is clean.
                for s in self.stamp.iter_mut() {
                    if *s == k as u32 + 1 {
                        *s = 0;
                    }
                }
                e.option = Some(id);
                return Err(e);
            }
            primary |= item.as_usize() < self.n_primary;
            let color = color.map_or(0, |c| c.as_usize() as u32 + 1);
            self.entries.push((item.as_usize() as u32, color));
        }
        let end = u32::try_from(self.entries.len())
            .ok()
            .filter(|&e| e < i32::MAX as u32 / 2)
            .ok_or(BuildError::new(BuildErrorKind::TooLarge { what: "nodes" }))?;
        self.option_start.push(end);
        self.has_primary.push(primary);
        Ok(id)
    }

    fn check_entry(
        &mut self,
        item: ItemId,
        color: Option<ColorId>,
        k: usize,
    ) -> Result<(), BuildError> {
        let i = item.as_usize();
        if i >= self.names.len() {
            return Err(BuildError::new(BuildErrorKind::UnknownItem {
                name: format!("#{i}"),
            }));
        }
        if self.stamp[i] == k as u32 + 1 {
            return Err(BuildError::new(BuildErrorKind::RepeatedItem {
                name: self.shown_name(i),
            }));
        }
        if color.is_some() && i < self.n_primary {
            return Err(BuildError::new(BuildErrorKind::ColorOnPrimary {
                name: self.shown_name(i),
            }));
        }
        if let Some(c) = color {
            if c.as_usize() >= self.color_names.len() {
                return Err(BuildError::new(BuildErrorKind::TooLarge { what: "colors" }));
            }
        }
        self.stamp[i] = k as u32 + 1;
        Ok(())
    }

    /// Adds an option given as item names, each `name` or `name:color`
    /// (DLX2's notation for a colored secondary item).
    pub fn option_by_names<'a>(
        &mut self,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<OptionId, BuildError> {
        // Options rarely have more than 8 items: no heap allocation per option.
        let mut resolved: smallvec::SmallVec<[(ItemId, Option<ColorId>); 8]> =
            smallvec::SmallVec::new();
        for token in names {
            let (name, color) = match token.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (token, None),
            };
            let item = self.item(name).ok_or_else(|| {
                BuildError::new(BuildErrorKind::UnknownItem {
                    name: name.to_string(),
                })
            })?;
            let color = match color {
                Some("") => {
                    return Err(BuildError::new(BuildErrorKind::EmptyColor {
                        name: name.to_string(),
                    }))
                }
                Some(c) => Some(self.color(c)?),
                None => None,
            };
            resolved.push((item, color));
        }
        self.colored_option(resolved)
    }

    /// Gives `option` (already added) a cost, replacing any before: DLX5's
    /// costs, which [`Solver::best`](crate::dlx::Solver::best) minimizes.
    /// Costs do not change which options cover which items.
    pub fn set_cost(&mut self, option: OptionId, cost: u64) -> Result<(), BuildError> {
        let k = option.as_usize();
        if k >= self.has_primary.len() {
            return Err(BuildError::new(BuildErrorKind::UnknownOption { option: k }));
        }
        let old = self.costs.get(k).copied().unwrap_or(0);
        self.cost_total = (self.cost_total - old)
            .checked_add(cost)
            .ok_or(BuildError::new(BuildErrorKind::CostsTooLarge { option: k }))?;
        if cost > 0 && self.costs.len() <= k {
            self.costs.resize(k + 1, 0);
        }
        if let Some(c) = self.costs.get_mut(k) {
            *c = cost;
        }
        Ok(())
    }

    /// Lays out the dancing structure.
    pub fn build(self) -> Result<Matrix, BuildError> {
        let n = self.names.len();
        if n == 0 {
            return Err(BuildError::new(BuildErrorKind::NoItems));
        }
        let m = self.has_primary.len();
        let colored = self.entries.iter().any(|&(_, c)| c != 0);
        let total = n + 2 + self.entries.len() + m;
        if total >= i32::MAX as usize {
            return Err(BuildError::new(BuildErrorKind::TooLarge { what: "nodes" }));
        }

        // Items: primary ones on the root's list, secondary ones on the list
        // headed by slot n + 1.
        let np = self.n_primary;
        let mut items = vec![Link::default(); n + 2];
        link_ring(&mut items, std::iter::once(0).chain(1..=np));
        link_ring(&mut items, std::iter::once(n + 1).chain(np + 1..=n));

        let mut nodes = Vec::with_capacity(total);
        nodes.push(Node::default());
        for k in 1..=n {
            nodes.push(Node {
                up: k as u32,
                down: k as u32,
                itm: 0,
            });
        }
        let mut colors = if colored {
            vec![0i32; total]
        } else {
            Vec::new()
        };
        let mut option_node = vec![u32::MAX; m];
        let mut ignored = Vec::new();
        let mut spacer = nodes.len();
        nodes.push(Node::default()); // the first spacer, itm 0
        for (k, slot) in option_node.iter_mut().enumerate() {
            if !self.has_primary[k] {
                ignored.push(OptionId::must(k));
                continue;
            }
            let first = nodes.len();
            *slot = first as u32;
            let range = self.option_start[k] as usize..self.option_start[k + 1] as usize;
            for &(item, color) in &self.entries[range] {
                let header = item as usize + 1;
                let x = nodes.len();
                let last = nodes[header].up as usize;
                nodes.push(Node {
                    up: last as u32,
                    down: header as u32,
                    itm: header as i32,
                });
                nodes[last].down = x as u32;
                nodes[header].up = x as u32;
                nodes[header].itm += 1;
                if colored {
                    colors[x] = color as i32;
                }
            }
            nodes[spacer].down = (nodes.len() - 1) as u32;
            spacer = nodes.len();
            nodes.push(Node {
                up: first as u32,
                down: 0,
                itm: -(k as i32) - 1,
            });
        }
        if colored {
            colors.truncate(nodes.len());
        }
        let mut lens = (0..m)
            .filter(|&k| self.has_primary[k])
            .map(|k| (self.option_start[k + 1] - self.option_start[k]) as usize);
        let uniform_len = match lens.next() {
            Some(l) if lens.all(|x| x == l) => l,
            _ => 0,
        };
        Ok(Matrix {
            names: self.names,
            color_names: self.color_names,
            n_primary: np as u32,
            nodes,
            items,
            colors,
            entries: self.entries,
            option_start: self.option_start,
            option_node,
            ignored,
            costs: if self.costs.iter().any(|&c| c > 0) {
                let mut costs = self.costs;
                costs.resize(m, 0);
                costs
            } else {
                Vec::new()
            },
            uniform_len,
            bounds: if self.bounds.iter().any(|&b| b != (1, 1)) {
                let mut bounds = self.bounds;
                bounds.resize(np, (1, 1));
                bounds
            } else {
                Vec::new()
            },
        })
    }
}

/// Links `ring` (a head slot, then members) into one circular list.
fn link_ring(items: &mut [Link], ring: impl Iterator<Item = usize>) {
    let ring: Vec<usize> = ring.collect();
    for (w, &x) in ring.iter().enumerate() {
        let y = ring[(w + 1) % ring.len()];
        items[x].next = y as u32;
        items[y].prev = x as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(r: Result<impl fmt::Debug, BuildError>) -> BuildErrorKind {
        r.unwrap_err().kind().clone()
    }

    #[test]
    fn validation_errors() {
        let mut b = MatrixBuilder::new();
        let a = b.primary("a").unwrap();
        let s = b.secondary("s").unwrap();
        assert!(matches!(
            kind(b.primary("a")),
            BuildErrorKind::DuplicateItem { .. }
        ));
        assert!(matches!(
            kind(b.primary("z")),
            BuildErrorKind::PrimaryAfterSecondary { .. }
        ));
        assert!(matches!(
            kind(b.secondary("x:y")),
            BuildErrorKind::IllegalItemName { .. }
        ));
        assert!(matches!(
            kind(b.secondary("")),
            BuildErrorKind::IllegalItemName { .. }
        ));
        assert!(matches!(
            kind(b.option(&[a, a])),
            BuildErrorKind::RepeatedItem { .. }
        ));
        assert!(matches!(
            kind(b.option(&[ItemId::must(7)])),
            BuildErrorKind::UnknownItem { .. }
        ));
        assert!(matches!(
            kind(b.option_by_names(["a", "nope"])),
            BuildErrorKind::UnknownItem { .. }
        ));
        assert!(matches!(
            kind(b.option_by_names(["a:red"])),
            BuildErrorKind::ColorOnPrimary { .. }
        ));
        assert!(matches!(
            kind(b.option_by_names(["a", "s:"])),
            BuildErrorKind::EmptyColor { .. }
        ));
        // A failed option leaves nothing behind: the same items work afterwards.
        assert_eq!(b.option(&[a, s]).unwrap(), OptionId::must(0));
        assert!(matches!(
            kind(MatrixBuilder::new().build()),
            BuildErrorKind::NoItems
        ));
    }

    #[test]
    fn option_without_primary_is_ignored() {
        let mut b = MatrixBuilder::new();
        let a = b.primary("a").unwrap();
        let s = b.secondary("s").unwrap();
        b.option(&[s]).unwrap();
        b.option(&[a, s]).unwrap();
        let m = b.build().unwrap();
        assert_eq!(m.ignored_options(), &[OptionId::must(0)]);
        assert_eq!(m.option_count(), 2);
        assert_eq!(m.node_count(), 2);
        assert_eq!(m.option_items(OptionId::must(0)).count(), 1);
    }

    #[test]
    fn layout_follows_knuth() {
        let mut b = MatrixBuilder::new();
        for name in ["a", "b"] {
            b.primary(name).unwrap();
        }
        b.secondary("x").unwrap();
        b.option_by_names(["a", "x"]).unwrap();
        b.option_by_names(["b"]).unwrap();
        let m = b.build().unwrap();
        // root <-> a <-> b <-> root; secondary head (4) <-> x (3).
        assert_eq!(m.items[0].next, 1);
        assert_eq!(m.items[2].next, 0);
        assert_eq!(m.items[0].prev, 2);
        assert_eq!(m.items[4].next, 3);
        assert_eq!(m.items[3].next, 4);
        // spacer at 4, option 0 at 5..=6, spacer 7, option 1 at 8, spacer 9.
        assert_eq!(m.first_spacer(), 4);
        assert_eq!(m.nodes[4].down, 6);
        assert_eq!(
            m.nodes[7],
            Node {
                up: 5,
                down: 8,
                itm: -1
            }
        );
        assert_eq!(m.nodes[9].itm, -2);
        assert_eq!(m.nodes[1].itm, 1);
        assert_eq!(m.option_of_node(6), OptionId::must(0));
        assert_eq!(m.option_of_node(8), OptionId::must(1));
    }
}
