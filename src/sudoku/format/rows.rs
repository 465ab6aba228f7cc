//! Grids written as n rows: `poj2676` (a count T first, digit rows, `0`
//! empty), `poj3076` (symbol rows, `-` empty, an empty line between grids)
//! and `hdu1426` (rows of space-separated tokens, `?` empty, a blank line
//! between grids).
//!
//! The grid's side comes from its first row (n symbols, n = b²). A grid cut
//! short by the end of the input, and a POJ 2676 count that disagrees with
//! the grids, are reported as errors of the puzzle where they show.

use std::io::BufRead;

use super::{parse_cells, Format, PuzzleErrorKind, Reader, Record};
use crate::sudoku::grid::{Alphabet, Grid, BOX_SIDES};

/// The symbols of one row: characters, or tokens for `hdu1426`.
fn row_symbols(text: &str, format: Format) -> (Vec<char>, Vec<usize>) {
    let mut symbols = Vec::new();
    let mut columns = Vec::new();
    if format == Format::Hdu1426 {
        let mut pos = 0;
        for token in text.split([' ', '\t']) {
            if !token.is_empty() {
                let mut chars = token.chars();
                let first = chars.next().unwrap_or(' ');
                // A token of more than one symbol is one bad symbol.
                symbols.push(if chars.next().is_some() {
                    '\u{fffd}'
                } else {
                    first
                });
                columns.push(pos + 1);
            }
            pos += token.len() + 1;
        }
    } else {
        for (i, ch) in text.trim_end().chars().enumerate() {
            if ch != ' ' && ch != '\t' {
                symbols.push(ch);
                columns.push(i + 1);
            }
        }
    }
    (symbols, columns)
}

pub(super) fn read<R: BufRead>(r: &mut Reader<R>, format: Format) -> Option<Record> {
    if matches!(format, Format::Poj2676 | Format::Poj2918) && r.declared.is_none() {
        let (line_no, text) = r.next_data_line()?;
        match text.as_deref().map(str::trim).map(str::parse::<usize>) {
            Ok(Ok(t)) => {
                r.declared = Some(t);
                r.count_line = line_no;
            }
            _ => {
                r.declared = Some(usize::MAX);
                let raw = text.unwrap_or_default();
                let kind = PuzzleErrorKind::Malformed(format!(
                    "expected the number of puzzles, found {raw:?}"
                ));
                return Some(r.error(line_no, raw, format, kind));
            }
        }
    }
    // POJ 2676: every grid is read, whatever the count says; a count that
    // disagrees with them is one more error, at the end, naming the count's
    // line (no grid is lost to it).
    let Some((start, first)) = r.next_data_line() else {
        if let Some(t) = r.declared.filter(|&t| t != usize::MAX && r.index != t) {
            let found = r.index;
            r.declared = Some(usize::MAX);
            let line = r.count_line;
            return Some(r.error(
                line,
                String::new(),
                format,
                PuzzleErrorKind::CountMismatch { declared: t, found },
            ));
        }
        return None;
    };
    let first = match first {
        Ok(t) => t,
        Err(kind) => {
            skip_to_blank(r);
            return Some(r.error(start, String::new(), format, kind));
        }
    };
    let (symbols, columns) = row_symbols(&first, format);
    let n = symbols.len();
    if !BOX_SIDES.into_iter().any(|b| b * b == n) {
        skip_to_blank(r);
        let kind = PuzzleErrorKind::WrongLength {
            found: n,
            expected: None,
        };
        return Some(r.error(start, first, format, kind));
    }
    let mut all = symbols;
    let mut lines = vec![start; n];
    let mut cols = columns;
    let mut raw = first;
    for row in 1..n {
        let Some((line_no, text)) = r.next_grid_row() else {
            let line = r.line_no;
            let kind = PuzzleErrorKind::CutShort {
                expected: n,
                found: row,
            };
            return Some(r.error(line, raw, format, kind));
        };
        let text = match text {
            Ok(t) => t,
            Err(kind) => {
                skip_to_blank(r);
                return Some(r.error(line_no, raw, format, kind));
            }
        };
        let (symbols, columns) = row_symbols(&text, format);
        raw.push('\n');
        raw.push_str(&text);
        if symbols.len() != n {
            skip_to_blank(r);
            let kind = PuzzleErrorKind::WrongLength {
                found: symbols.len(),
                expected: Some(n),
            };
            return Some(r.error(line_no, raw, format, kind));
        }
        all.extend(symbols);
        cols.extend(columns);
        lines.resize(all.len(), line_no);
    }
    let (alphabet, grid) = parse_cells(&all, n, r.options.alphabet, |i| lines[i], |i| cols[i]);
    Some(r.record(start, raw, format, alphabet, grid))
}

/// After a bad row, skips the rest of its grid (up to a blank line), so the
/// next grid is read from its start. POJ 2676 has no blank lines: there the
/// rest of the grid is read as its own (bad) puzzles, which is all one can do.
fn skip_to_blank<R: BufRead>(r: &mut Reader<R>) {
    if r.format != Some(Format::Poj2676) {
        r.skip_grid();
    }
}

pub(super) fn write(out: &mut String, format: Format, grid: &Grid, alphabet: Alphabet) {
    let n = grid.side();
    // POJ 2676 and 2918 are digits with `0` empty, whatever the input's
    // alphabet (hex's `0` would read back as an empty cell).
    let alphabet = match format {
        Format::Poj2676 | Format::Poj2918 => Alphabet::Digits,
        _ => alphabet,
    };
    let empty = match format {
        Format::Poj2676 | Format::Poj2918 => '0',
        Format::Hdu1426 => '?',
        _ => '-',
    };
    for r in 0..n {
        for c in 0..n {
            if format == Format::Hdu1426 && c > 0 {
                out.push(' ');
            }
            let d = grid.get(r, c);
            out.push(if d == 0 { empty } else { alphabet.symbol(d) });
        }
        out.push('\n');
    }
}
