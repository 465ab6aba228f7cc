//! Batches of records, for a reader shared by many threads.
//!
//! A thread that holds the [`Reader`] takes a [`Batch`] with
//! [`Reader::next_batch`], lets go of it, and turns the batch into records
//! itself. In the one-line formats (`line`, `poj3074`: the collections of
//! thousands of puzzles) the holder only splits lines: it finds each line's
//! end, skips blank and comment lines, stops at `end`, and numbers the
//! rest; checking that a line is text, parsing its symbols and looking for
//! conflicts among the givens happen when the batch is iterated, on the
//! thread that took it. The other formats need the lines around a record to
//! read it, and their batches hold records read whole.
//!
//! Invariant: the records of a reader's batches, in order, are the records
//! its iterator yields — the same numbers, lines, text and grids or errors
//! (cli/tests/suite/sudoku.rs compares them on arbitrary bytes).

use std::io::BufRead;

use super::line::{is_end, record_at};
use super::{is_blank_or_comment, text_of, Format, Reader, Record};
use crate::sudoku::grid::Alphabet;

/// Records taken from a [`Reader`] at once; iterate it for them.
pub struct Batch {
    items: Vec<Item>,
    /// The text of the lines not yet parsed, one after another.
    bytes: Vec<u8>,
    format: Format,
    alphabet: Option<Alphabet>,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("records", &self.items.len())
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

enum Item {
    /// A record read whole.
    Read(Record),
    /// Data line `line`, record `index`, at `bytes[start..end]`.
    Line {
        line: usize,
        index: usize,
        start: usize,
        end: usize,
    },
}

impl Batch {
    /// How many records it holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A batch of records read already (records of any format).
impl FromIterator<Record> for Batch {
    fn from_iter<I: IntoIterator<Item = Record>>(records: I) -> Batch {
        Batch {
            items: records.into_iter().map(Item::Read).collect(),
            bytes: Vec::new(),
            format: Format::Line,
            alphabet: None,
        }
    }
}

/// The records of a [`Batch`], parsed as they are taken.
pub struct Records {
    items: std::vec::IntoIter<Item>,
    bytes: Vec<u8>,
    format: Format,
    alphabet: Option<Alphabet>,
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records")
            .field("left", &self.items.len())
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

impl IntoIterator for Batch {
    type Item = Record;
    type IntoIter = Records;

    fn into_iter(self) -> Records {
        Records {
            items: self.items.into_iter(),
            bytes: self.bytes,
            format: self.format,
            alphabet: self.alphabet,
        }
    }
}

impl Iterator for Records {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        Some(match self.items.next()? {
            Item::Read(record) => record,
            Item::Line {
                line,
                index,
                start,
                end,
            } => {
                let text = text_of(&self.bytes[start..end]);
                record_at(index, line, text, self.format, self.alphabet)
            }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.items.size_hint()
    }
}

/// What a line is to the one-line formats.
enum Kind {
    /// Blank or a comment: no record.
    Skip,
    /// `end`: the input ends before it.
    End,
    /// A puzzle, or an error to report.
    Data,
}

/// Classifies a line by its first bytes where they decide: after spaces
/// and TABs, a printable ASCII byte other than `#` starts a data line
/// (whitespace or not, text or not, the iterator takes it for one) unless
/// `end` might start there; a line of spaces and TABs is blank. Anything
/// else is decoded as the iterator decodes it.
fn kind(bytes: &[u8]) -> Kind {
    let Some(first) = bytes.iter().position(|&b| b != b' ' && b != b'\t') else {
        return Kind::Skip;
    };
    let rest = &bytes[first..];
    if matches!(rest[0], b'!'..=b'~') && rest[0] != b'#' && !rest.starts_with(b"end") {
        return Kind::Data;
    }
    match text_of(bytes) {
        Ok(t) if is_blank_or_comment(&t) => Kind::Skip,
        Ok(t) if is_end(&t) => Kind::End,
        _ => Kind::Data,
    }
}

impl<R: BufRead> Reader<R> {
    /// The next records, up to `max` of them (at least one); `None` at the
    /// end of the input. See the module documentation.
    pub fn next_batch(&mut self, max: usize) -> Option<Batch> {
        let mut batch = Batch {
            items: Vec::new(),
            bytes: Vec::new(),
            format: self.format.unwrap_or(Format::Line),
            alphabet: self.options.alphabet,
        };
        while batch.items.len() < max.max(1) {
            // The first record (format detection, the binary check) and the
            // lines looked ahead at go through the iterator.
            let split = !self.finished
                && self.index > 0
                && self.lookahead.is_empty()
                && matches!(self.format, Some(Format::Line | Format::Poj3074));
            if !split {
                match self.next() {
                    Some(record) => batch.items.push(Item::Read(record)),
                    None => break,
                }
                batch.format = self.format.unwrap_or(Format::Line);
            } else if !self.split_line(&mut batch) {
                break;
            }
        }
        (!batch.items.is_empty()).then_some(batch)
    }

    /// Adds the next line to `batch`: false at the end of the input.
    fn split_line(&mut self, batch: &mut Batch) -> bool {
        let start = batch.bytes.len();
        match self.read_bytes(&mut batch.bytes) {
            None => {
                self.finished = true;
                false
            }
            Some(Err(kind)) => {
                let line = self.line_no;
                let record = self.error(line, String::new(), batch.format, kind);
                batch.items.push(Item::Read(record));
                true
            }
            Some(Ok(())) => match kind(&batch.bytes[start..]) {
                Kind::Skip => {
                    batch.bytes.truncate(start);
                    true
                }
                Kind::End => {
                    batch.bytes.truncate(start);
                    self.finished = true;
                    false
                }
                Kind::Data => {
                    self.index += 1;
                    batch.items.push(Item::Line {
                        line: self.line_no,
                        index: self.index,
                        start,
                        end: batch.bytes.len(),
                    });
                    true
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{PuzzleErrorKind, ReadOptions, MAX_LINE};
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";

    /// Errors and line numbers of the records, by the iterator and in
    /// batches of `max`.
    fn both(bytes: &[u8], max: usize) -> [Vec<(usize, usize, Option<PuzzleErrorKind>)>; 2] {
        let key = |r: Record| (r.index, r.line, r.grid.err().map(|e| e.kind));
        let whole = Reader::new(bytes, ReadOptions::default())
            .map(key)
            .collect();
        let mut reader = Reader::new(bytes, ReadOptions::default());
        let mut batched = Vec::new();
        while let Some(batch) = reader.next_batch(max) {
            batched.extend(batch.into_iter().map(key));
        }
        [whole, batched]
    }

    #[test]
    fn lines_too_long_are_one_error_each_in_batches_too() {
        // Line lengths around the limit, with and without a line end, the
        // last at the end of the input.
        for (len, too_long) in [
            (MAX_LINE - 1, false),
            (MAX_LINE, true),
            (MAX_LINE + 1, true),
            (3 * MAX_LINE, true),
        ] {
            for end in [true, false] {
                let mut bytes = PUZZLE.as_bytes().to_vec();
                bytes.extend(std::iter::repeat_n(b'1', len));
                if end {
                    bytes.push(b'\n');
                    bytes.extend(PUZZLE.as_bytes());
                }
                for max in [1, 2, 64] {
                    let [whole, batched] = both(&bytes, max);
                    assert_eq!(whole, batched, "{len} {end}");
                    let kind = &whole[1].2;
                    let is_too_long = matches!(kind, Some(PuzzleErrorKind::LineTooLong));
                    // Without a line end, a line of the limit is kept.
                    let expected = too_long && (end || len > MAX_LINE);
                    assert_eq!(is_too_long, expected, "{len} {end}: {kind:?}");
                    assert_eq!(whole.len(), if end { 3 } else { 2 });
                    assert!(whole.iter().enumerate().all(|(i, r)| r.0 == i + 1));
                }
            }
        }
    }
}
