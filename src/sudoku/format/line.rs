//! `line` and `poj3074`: one puzzle a line, the format of the public
//! collections. The first whitespace-separated token holds the n² symbols;
//! whatever follows (a TAB and a rating, say) is ignored. A line `end` closes
//! the input (POJ 3074); blank lines and `#` comments are skipped.

use std::io::BufRead;

use super::{make_record, parse_cells, Format, PuzzleError, PuzzleErrorKind, Reader, Record};
use crate::sudoku::grid::{Alphabet, Grid, BOX_SIDES};

pub(super) fn read<R: BufRead>(r: &mut Reader<R>, format: Format) -> Option<Record> {
    let (line_no, text) = r.next_data_line()?;
    if text.as_deref().is_ok_and(is_end) {
        return None;
    }
    r.index += 1;
    Some(record_at(
        r.index,
        line_no,
        text,
        format,
        r.options.alphabet,
    ))
}

/// Whether a data line closes the input (POJ 3074's `end`).
pub(super) fn is_end(text: &str) -> bool {
    first_token(text) == "end"
}

/// The first whitespace-separated token of a line of text (whose only
/// ASCII whitespace is space and TAB), ASCII looked at byte by byte.
fn first_token(text: &str) -> &str {
    let t = text.trim_start();
    match t
        .bytes()
        .position(|b| matches!(b, b' ' | b'\t') || !b.is_ascii())
    {
        Some(i) if !t.as_bytes()[i].is_ascii() => t.split_whitespace().next().unwrap_or(""),
        Some(i) => &t[..i],
        None => t,
    }
}

/// Record number `index`, of the data line `line_no` (or of why it is not
/// text), in the alphabet `forced` or the one its symbols choose.
pub(super) fn record_at(
    index: usize,
    line_no: usize,
    text: Result<String, PuzzleErrorKind>,
    format: Format,
    forced: Option<Alphabet>,
) -> Record {
    let text = match text {
        Ok(t) => t,
        Err(kind) => {
            let alphabet = forced.unwrap_or(Alphabet::Digits);
            let err = Err(PuzzleError {
                line: line_no,
                kind,
            });
            return make_record(index, line_no, String::new(), format, alphabet, err);
        }
    };
    let lead = text.len() - text.trim_start().len();
    let (alphabet, grid) = parse_token(first_token(&text), forced, line_no, lead);
    make_record(index, line_no, text, format, alphabet, grid)
}

fn parse_token(
    token: &str,
    forced: Option<Alphabet>,
    line_no: usize,
    lead: usize,
) -> (Alphabet, Result<Grid, PuzzleError>) {
    // On the stack up to 16×16: no allocation per puzzle of the usual sizes.
    let symbols: smallvec::SmallVec<[char; 256]> = token.chars().collect();
    let Some(b) = BOX_SIDES
        .into_iter()
        .find(|b| b * b * b * b == symbols.len())
    else {
        let err = PuzzleError {
            line: line_no,
            kind: PuzzleErrorKind::WrongLength {
                found: symbols.len(),
                expected: None,
            },
        };
        return (forced.unwrap_or(Alphabet::Digits), Err(err));
    };
    parse_cells(&symbols, b * b, forced, |_| line_no, |i| lead + i + 1)
}

/// Parses one puzzle in the `line` format (its first token), with the
/// alphabet chosen by size and symbols.
pub fn parse_line(line: &str) -> Result<Grid, PuzzleError> {
    let token = line.split_whitespace().next().unwrap_or("");
    let grid = parse_token(token, None, 1, line.len() - line.trim_start().len()).1?;
    match grid.conflict() {
        Some(c) => Err(PuzzleError {
            line: 1,
            kind: PuzzleErrorKind::Conflict(c),
        }),
        None => Ok(grid),
    }
}

pub(super) fn write(out: &mut String, grid: &Grid, alphabet: Alphabet) {
    out.push_str(&alphabet.line(grid, '.'));
    out.push('\n');
}
