//! The decision diagram of all solutions, written while the memo counts
//! ([`Memo::zdd`]): DXZ's other half (Nishino et al. build the ZDD of the
//! solutions on the way), so a user can count, list or sample the
//! solutions later without searching again.
//!
//! Each state the memo counts becomes a node of a zero-suppressed decision
//! diagram (Minato's ZDD): a node `(option, lo, hi)` stands for the family
//! of sets `lo ∪ { {option} ∪ s : s ∈ hi }`; node 0 is the empty family
//! (no solution), node 1 the family of the empty set (nothing more to
//! choose). A state whose item has options `o₁ … oₖ` that lead to
//! solutions (and, with multiplicities, the move that closes the item) is
//! a chain: `o₁`'s node, whose `lo` is `o₂`'s, … whose `lo` is the closing
//! move's state (or 0), each `hi` the state its option leads to. A state
//! met again (a hit in the table) is the node written for it before, so
//! the diagram is as small as the memo's table makes it.
//!
//! Invariants (what a reader may rely on):
//! * every node is written after the nodes it names (`lo`, `hi` below its
//!   own id), ids counting up from 2 in the order written, so one pass in
//!   file order can count or weigh the paths;
//! * no node has `hi` 0 and no state without solutions is written: every
//!   path from the root that ends at 1 is a solution (the options of its
//!   `hi` edges), each solution is one such path, and every node is on one;
//! * a state evicted from the table and met again is written again (a copy
//!   of the same sub-diagram under new ids): the cap changes the size,
//!   never the family.
//!
//! It is not *ordered* (options need not appear in one global order along
//! the paths) nor fully *reduced* (two nodes may have the same option, lo
//! and hi), so it is not the canonical ZDD of the family; it is the one the
//! search finds, and counting, listing and uniform sampling need no more.
//!
//! The text written (`FORMAT`): a comment line that starts with `#`, then
//! a line `ID OPTION LO HI` a node (decimal; `OPTION` the option's number
//! counting from 0 in the matrix's order, as [`OptionId`] has it), then
//! `root ID COUNT`: the diagram's root and the number of solutions (paths).
//! A count stopped by the limits writes no `root` line.
//!
//! [`OptionId`]: crate::dlx::OptionId

use super::big::{BigCount, Tally};
use std::io::{self, Write};

/// The first line of a diagram's text.
pub(super) const FORMAT: &str =
    "# dlx zdd 1: a node per line, ID OPTION LO HI (0 the empty family, 1 the empty set); then root ID COUNT";

/// The child of a state reached by closing its bounded item (no option).
pub(super) const CLOSE: u32 = u32::MAX;

/// A count with its state's node in the diagram: what the table keeps
/// while a diagram is written. Counts of any size (no width to outgrow, so
/// the diagram is never started again): a `u128` until a sum passes it,
/// then a [`BigCount`] (no allocation per state while counts are small).
#[derive(Clone, Debug, Default)]
pub(super) struct Zn {
    small: u128,
    big: Option<BigCount>,
    node: u64,
}

impl Tally for Zn {
    fn one() -> Self {
        Zn {
            small: 1,
            big: None,
            node: 1,
        }
    }

    fn add(&mut self, other: &Self) -> bool {
        match (&mut self.big, &other.big) {
            (None, None) => match self.small.checked_add(other.small) {
                Some(sum) => self.small = sum,
                None => {
                    let mut sum = BigCount::from(self.small);
                    sum.add(&BigCount::from(other.small));
                    self.big = Some(sum);
                }
            },
            (None, Some(b)) => {
                let mut sum = b.clone();
                sum.add(&BigCount::from(self.small));
                self.big = Some(sum);
            }
            (Some(a), None) => a.add(&BigCount::from(other.small)),
            (Some(a), Some(b)) => a.add(b),
        }
        true
    }

    fn big(&self) -> BigCount {
        match &self.big {
            Some(b) => b.clone(),
            None => BigCount::from(self.small),
        }
    }

    fn from_big(n: &BigCount) -> Self {
        Zn {
            small: n.to_u128().unwrap_or(0),
            big: n.to_u128().is_none().then(|| n.clone()),
            node: 0,
        }
    }

    fn heap_bytes(&self) -> usize {
        self.big.as_ref().map_or(0, Tally::heap_bytes)
    }

    fn node(&self) -> u64 {
        self.node
    }

    fn set_node(&mut self, node: u64) {
        self.node = node;
    }
}

/// The diagram being written: the open states' children so far and the
/// next id.
pub(super) struct ZddOut<'a> {
    out: io::BufWriter<&'a mut dyn Write>,
    /// `(option or CLOSE, node)` of the open states' children with
    /// solutions, each state's after its parent's.
    children: Vec<(u32, u64)>,
    /// Where each open state's children start in `children`.
    starts: Vec<usize>,
    next: u64,
    error: Option<io::Error>,
}

impl<'a> ZddOut<'a> {
    pub(super) fn new(out: &'a mut dyn Write) -> ZddOut<'a> {
        let mut z = ZddOut {
            out: io::BufWriter::with_capacity(1 << 16, out),
            children: Vec::new(),
            starts: Vec::new(),
            next: 2,
            error: None,
        };
        let line = format!("{FORMAT}\n");
        z.write(line.as_bytes());
        z
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(bytes) {
                self.error = Some(e);
            }
        }
    }

    /// Whether a write failed (the count then stops).
    pub(super) fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Nodes written.
    pub(super) fn nodes(&self) -> u64 {
        self.next - 2
    }

    /// A state is entered.
    pub(super) fn open(&mut self) {
        self.starts.push(self.children.len());
    }

    /// The open state's child by `option` (or [`CLOSE`]) is `node`.
    pub(super) fn child(&mut self, option: u32, node: u64) {
        if node != 0 {
            self.children.push((option, node));
        }
    }

    /// The open state's children are all met: writes its chain and returns
    /// its node (0 when it has no solutions).
    pub(super) fn close(&mut self) -> u64 {
        let start = self.starts.pop().unwrap_or(0);
        let mut head = 0;
        let mut line = Vec::with_capacity(48);
        let mut k = self.children.len();
        while k > start {
            k -= 1;
            let (option, node) = self.children[k];
            if option == CLOSE {
                // The closing move is tried last: the chain's tail.
                head = node;
                continue;
            }
            line.clear();
            let id = self.next;
            self.next += 1;
            // Writing to a Vec cannot fail.
            let _ = writeln!(line, "{id} {option} {head} {node}");
            self.write(&line);
            head = id;
        }
        self.children.truncate(start);
        head
    }

    /// The diagram is whole: its root and count.
    pub(super) fn finish(&mut self, root: u64, count: &BigCount) {
        let line = format!("root {root} {count}\n");
        self.write(line.as_bytes());
        self.flush();
    }

    /// Writes out what is buffered (a stopped count's nodes too).
    pub(super) fn flush(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
    }

    /// The first write error, if any.
    pub(super) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}
