//! Knuth's DLX text format: the input of DLX1, DLX2, DLX3 and DLX5, and a
//! writer for it.
//!
//! ```text
//! | a comment: any line whose first non-blank character is `|`
//! A B C | x y        <- the item line: primary items, `|`, secondary items
//! 2|D 0:3|E          <- `u:v|name`: covered u to v times, `v|name`: v (DLX3)
//! A B x              <- each further line is one option
//! C y:red            <- `name:color` colors a secondary item (DLX2)
//! A C y:red |3       <- `|n` adds n to the option's cost (DLX5)
//! ```
//!
//! Blank lines and comment lines are skipped everywhere. Without a `|` on the
//! item line every item is primary. Everything DLX1 and DLX2 accept is
//! accepted; in addition names may be longer than 8 characters, the last line
//! may lack its newline, and CRLF line ends are fine. An option that names no
//! primary item is kept but ignored by the search, as in DLX1
//! ([`Matrix::ignored_options`]). A token `|n` in an option line (n a
//! nonnegative integer) adds n to that option's cost, as DLX5 reads it
//! (repeated tokens add up); costs change no count, only which solutions
//! are cheapest ([`Solver::best`](crate::dlx::Solver::best)). A primary
//! item written `u:v|name` is to be covered at least u and at most v times,
//! `v|name` exactly v times, as DLX3 reads them ([`Matrix::bounds`]).
//!
//! Errors are [`ParseError`]s that name the line (1-based) and the problem.

use std::fmt;
use std::io::{self, BufRead, Read, Write};

use super::matrix::{BuildError, Matrix, MatrixBuilder};

/// A problem in a DLX text file, with its line number.
#[derive(Debug)]
pub struct ParseError {
    line: usize,
    kind: ParseErrorKind,
}

/// What [`ParseError`] found.
#[derive(Debug)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Reading the input failed.
    Io(io::Error),
    /// The input has no item line.
    NoItems,
    /// The item line has two `|` separators.
    SeparatorTwice,
    /// A line that is not valid UTF-8.
    NotUtf8,
    /// A line longer than [`MAX_LINE`] bytes.
    LineTooLong,
    /// The matrix builder refused an item or option.
    Build(BuildError),
    /// An item-line token with a malformed multiplicity prefix (DLX3's
    /// `u:v|name` or `v|name`, u and v decimal numbers below 2³²), or one
    /// after the `|` that starts the secondary items: the token. Bounds that
    /// leave no room (`0|A`, `3:2|A`) are [`Build`](Self::Build) errors.
    Multiplicity(String),
    /// A `|` token in an option line that is not `|n` with n a
    /// nonnegative integer (DLX5's cost), or costs past 2⁶⁴ − 1: the token.
    Cost(String),
}

impl ParseError {
    /// The 1-based line of the problem (0 when the input is empty).
    pub fn line(&self) -> usize {
        self.line
    }

    /// What the problem is.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::Io(e) => write!(f, "line {}: read error: {e}", self.line),
            ParseErrorKind::NoItems => write!(f, "no item line: the input has no items"),
            ParseErrorKind::SeparatorTwice => {
                write!(f, "line {}: the item line contains `|` twice", self.line)
            }
            ParseErrorKind::NotUtf8 => write!(f, "line {}: not valid UTF-8", self.line),
            ParseErrorKind::LineTooLong => {
                write!(f, "line {}: longer than {MAX_LINE} bytes", self.line)
            }
            ParseErrorKind::Build(e) => write!(f, "line {}: {e}", self.line),
            ParseErrorKind::Multiplicity(token) => write!(
                f,
                "line {}: `{token}` is not an item with multiplicities `u:v|name` or `v|name` \
                 (u and v decimal numbers, primary items only)",
                self.line
            ),
            ParseErrorKind::Cost(token) => write!(
                f,
                "line {}: `{token}` is not a cost `|n` (n a nonnegative integer), or the costs \
                 add up past 18446744073709551615",
                self.line
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// The longest line read (DLX1's buffer holds about 900 KB); longer input
/// is an error rather than unbounded memory.
pub const MAX_LINE: usize = 16 << 20;

/// Reads a matrix in Knuth's format.
///
/// ```
/// let text = "A B | x\nA x:red\nB x:red\nA B\n";
/// let matrix = dlx::knuth::read(text.as_bytes()).unwrap();
/// assert_eq!(dlx::Solver::new(&matrix).count().solutions, 2);
/// ```
pub fn read(input: impl BufRead) -> Result<Matrix, ParseError> {
    let mut builder = MatrixBuilder::new();
    let mut have_items = false;
    let mut line_no = 0;
    let mut buf = Vec::new();
    let mut input = input;
    loop {
        buf.clear();
        line_no += 1;
        let err = |kind| ParseError {
            line: line_no,
            kind,
        };
        match input
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) => break,
            Ok(_) if buf.len() > MAX_LINE => return Err(err(ParseErrorKind::LineTooLong)),
            Ok(_) => {}
            Err(e) => return Err(err(ParseErrorKind::Io(e))),
        }
        let line = std::str::from_utf8(&buf).map_err(|_| err(ParseErrorKind::NotUtf8))?;
        // A byte-order mark (Windows editors write one) is not an item.
        let line = if line_no == 1 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('|') {
            continue;
        }
        let build = |e| err(ParseErrorKind::Build(e));
        if !have_items {
            have_items = true;
            let mut secondary = false;
            for token in body.split_whitespace() {
                let mut name = token;
                while let Some(rest) = name.strip_prefix('|') {
                    if secondary {
                        return Err(err(ParseErrorKind::SeparatorTwice));
                    }
                    secondary = true;
                    name = rest;
                }
                if name.is_empty() {
                    continue;
                }
                let bounds = match name.rsplit_once('|') {
                    Some((prefix, rest)) => {
                        let bad = || err(ParseErrorKind::Multiplicity(token.to_string()));
                        let bounds = parse_bounds(prefix).ok_or_else(bad)?;
                        if secondary || rest.is_empty() {
                            // DLX3 takes bounds on primary items only.
                            return Err(bad());
                        }
                        name = rest;
                        Some(bounds)
                    }
                    None => None,
                };
                if secondary {
                    builder.secondary(name).map_err(build)?;
                } else {
                    let item = builder.primary(name).map_err(build)?;
                    if let Some((lo, hi)) = bounds {
                        builder.set_bounds(item, lo, hi).map_err(build)?;
                    }
                }
            }
        } else {
            // DLX5's costs: `|n` tokens, added up.
            let mut cost = 0u64;
            for token in body.split_whitespace() {
                if let Some(n) = token.strip_prefix('|') {
                    cost = n
                        .parse::<u64>()
                        .ok()
                        .filter(|_| n.bytes().all(|b| b.is_ascii_digit()))
                        .and_then(|n| cost.checked_add(n))
                        .ok_or_else(|| err(ParseErrorKind::Cost(token.to_string())))?;
                }
            }
            let option = builder
                .option_by_names(body.split_whitespace().filter(|t| !t.starts_with('|')))
                .map_err(build)?;
            if cost > 0 {
                builder.set_cost(option, cost).map_err(build)?;
            }
        }
    }
    if !have_items {
        return Err(ParseError {
            line: 0,
            kind: ParseErrorKind::NoItems,
        });
    }
    builder.build().map_err(|e| ParseError {
        line: line_no - 1,
        kind: ParseErrorKind::Build(e),
    })
}

/// DLX3's multiplicity prefix (before the `|`): `v` (exactly v) or `u:v`.
fn parse_bounds(prefix: &str) -> Option<(u32, u32)> {
    let number = |t: &str| {
        t.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| t.parse::<u32>().ok())
            .flatten()
    };
    match prefix.split_once(':') {
        Some((lo, hi)) => Some((number(lo)?, number(hi)?)),
        None => number(prefix).map(|v| (v, v)),
    }
}

/// Writes `matrix` in Knuth's format; [`read`] gives back the same matrix.
///
/// A matrix with no primary item cannot be written: its item line would
/// start with `|` and read as a comment.
pub fn write(matrix: &Matrix, mut out: impl Write) -> io::Result<()> {
    let n = matrix.item_count();
    let np = matrix.primary_count();
    if np == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "Knuth's format cannot express a matrix with no primary item",
        ));
    }
    let mut line = String::new();
    for i in 0..n {
        if i == np && np < n {
            line.push_str(" |");
        }
        if !line.is_empty() {
            line.push(' ');
        }
        let item = super::ItemId::must(i);
        match matrix.bounds(item) {
            Some((1, 1)) | None => {}
            Some((lo, hi)) if lo == hi => line.push_str(&format!("{hi}|")),
            Some((lo, hi)) => line.push_str(&format!("{lo}:{hi}|")),
        }
        line.push_str(&matrix.item_name(item));
    }
    writeln!(out, "{line}")?;
    for k in 0..matrix.option_count() {
        writeln!(out, "{}", option_line(matrix, super::OptionId::must(k)))?;
    }
    Ok(())
}

/// An option as the line Knuth's format gives it: its items' names, each
/// with `:color` where it has one, separated by spaces, and `|n` after
/// them when its cost n is not 0.
pub fn option_line(matrix: &Matrix, option: super::OptionId) -> String {
    let mut line = String::new();
    for (item, color) in matrix.option_items(option) {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&matrix.item_name(item));
        if let Some(c) = color {
            line.push(':');
            line.push_str(matrix.color_name(c));
        }
    }
    let cost = matrix.cost(option);
    if cost > 0 {
        line.push_str(&format!(" |{cost}"));
    }
    line
}

/// A fingerprint of `matrix`: 64-bit FNV-1a of the text [`write()`] prints.
/// Matrices that print the same text have the same fingerprint, on every
/// machine and version of this crate that prints it the same; it names the
/// problem a job of a cut search belongs to (`dlx cover --split`).
pub fn fingerprint(matrix: &Matrix) -> u64 {
    /// FNV-1a over whatever is written to it.
    struct Fnv(u64);
    impl Write for Fnv {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            for &b in buf {
                self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut fnv = Fnv(0xcbf2_9ce4_8422_2325);
    // Writing into the hasher cannot fail.
    let _ = write(matrix, &mut fnv);
    fnv.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx::matrix::BuildErrorKind;
    use crate::dlx::ItemId;

    fn err(text: &str) -> ParseError {
        read(text.as_bytes()).unwrap_err()
    }

    #[test]
    fn comments_blank_lines_crlf_and_no_final_newline() {
        let m = read("| comment\n\n  A B |C\r\n| again\nA C\r\n\nB".as_bytes()).unwrap();
        assert_eq!(m.item_count(), 3);
        assert_eq!(m.primary_count(), 2);
        assert_eq!(m.option_count(), 2);
    }

    #[test]
    fn errors_name_the_line() {
        let e = err("A B\nA\nA Z\n");
        assert_eq!(e.line(), 3);
        assert!(e.to_string().contains("unknown item `Z`"), "{e}");
        assert!(matches!(
            err("A | B | C\n").kind(),
            ParseErrorKind::SeparatorTwice
        ));
        assert!(matches!(
            err("| only a comment\n\n").kind(),
            ParseErrorKind::NoItems
        ));
        assert!(matches!(err("").kind(), ParseErrorKind::NoItems));
        let e = err("A\nA A\n");
        assert_eq!(e.line(), 2);
        assert!(
            matches!(e.kind(), ParseErrorKind::Build(b) if matches!(b.kind(), BuildErrorKind::RepeatedItem { .. }))
        );
        assert!(matches!(err("A:x B\n").kind(), ParseErrorKind::Build(_)));
        assert!(matches!(
            err("A B\nA:red\n").kind(),
            ParseErrorKind::Build(_)
        ));
        assert!(matches!(err("A A\n").kind(), ParseErrorKind::Build(_)));
        assert_eq!(read(&b"A\n\xff\n"[..]).unwrap_err().line(), 2);
    }

    #[test]
    #[cfg_attr(miri, ignore = "16 MiB of input is too slow to interpret")]
    fn over_long_lines_are_an_error() {
        let long = vec![b'A'; MAX_LINE + 2];
        assert!(matches!(
            read(&long[..]).unwrap_err().kind(),
            ParseErrorKind::LineTooLong
        ));
    }

    #[test]
    fn writer_round_trips() {
        let text = "A B | x y\nA x:red\nB x:red y\nA B\nx\n";
        let m = read(text.as_bytes()).unwrap();
        let mut out = Vec::new();
        write(&m, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
        // With no primary item the item line would read as a comment.
        let mut b = MatrixBuilder::new();
        b.secondary("x").unwrap();
        assert!(write(&b.build().unwrap(), Vec::new()).is_err());
    }

    #[test]
    fn costs_are_read_added_up_and_written_back() {
        let m = read("A B | x\nA x:r |3\nB |2 |5\nA B\n".as_bytes()).unwrap();
        assert!(m.has_costs());
        let costs: Vec<u64> = (0..3)
            .map(|k| m.cost(crate::dlx::OptionId::must(k)))
            .collect();
        assert_eq!(costs, [3, 7, 0]);
        let mut out = Vec::new();
        write(&m, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "A B | x\nA x:r |3\nB |7\nA B\n"
        );
        assert!(!read("A\nA\n".as_bytes()).unwrap().has_costs());
        assert!(!read("A\nA |0\n".as_bytes()).unwrap().has_costs());
        for bad in [
            "A\nA |\n",
            "A\nA |x\n",
            "A\nA |-1\n",
            "A\nA |+1\n",
            "A\nA |18446744073709551615 |1\n",
        ] {
            let e = err(bad);
            assert_eq!(e.line(), 2, "{bad}");
            assert!(matches!(e.kind(), ParseErrorKind::Cost(_)), "{bad}: {e}");
        }
    }

    #[test]
    fn multiplicities_are_read_checked_and_written_back() {
        let m = read("2|A 0:3|B 1:1|C D | x\nA B x\nC D\n".as_bytes()).unwrap();
        assert!(m.has_bounds());
        let bounds: Vec<_> = (0..5).map(|i| m.bounds(ItemId::must(i))).collect();
        assert_eq!(
            bounds,
            [Some((2, 2)), Some((0, 3)), Some((1, 1)), Some((1, 1)), None]
        );
        let mut out = Vec::new();
        write(&m, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "2|A 0:3|B C D | x\nA B x\nC D\n"
        );
        // 1:1 everywhere is plain exact cover.
        assert!(!read("1|A 1:1|B\nA B\n".as_bytes()).unwrap().has_bounds());
        for bad in [
            "A 1:|B\nA\n",
            "A :2|B\nA\n",
            "A x|B\nA\n",
            "A 1:2:3|B\nA\n",
            "A 2|\nA\n",
            "A -1|B\nA\n",
            "A 4294967296|B\nA\n",
            "A | 2|x\nA\n",
        ] {
            let e = err(bad);
            assert_eq!(e.line(), 1, "{bad}");
            assert!(
                matches!(e.kind(), ParseErrorKind::Multiplicity(_)),
                "{bad}: {e}"
            );
        }
        for (bad, want) in [
            ("0|A\nA\n", "upper bound of zero"),
            ("3:2|A\nA\n", "lower bound above the upper"),
            ("2|A 2|A\nA\n", "duplicate item name"),
        ] {
            let e = err(bad);
            assert!(matches!(e.kind(), ParseErrorKind::Build(_)), "{bad}: {e}");
            assert!(e.to_string().contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn fingerprints_name_the_text() {
        let a = read("A B\nA\nB\n".as_bytes()).unwrap();
        let b = read("| a comment\nA B\r\nA\nB".as_bytes()).unwrap();
        let c = read("A B\nB\nA\n".as_bytes()).unwrap();
        assert_eq!(fingerprint(&a), fingerprint(&b));
        assert_ne!(fingerprint(&a), fingerprint(&c));
        // FNV-1a of "A B\nA\nB\n" (computed apart, in Python): fixed, so
        // that jobs cut by one version run on another.
        assert_eq!(fingerprint(&a), 0x11e8_445f_99fc_b1cb);
    }
}
