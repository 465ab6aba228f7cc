//! `grid`: the block layout people print, read and written.
//!
//! ```text
//! 5 3 . | . 7 . | . . .
//! 6 . . | 1 9 5 | . . .
//! ------+-------+------
//! ```
//!
//! Rows list the n symbols with `|` between boxes (spaces optional); lines of
//! only `-`, `+`, `=` and `|` between bands are skipped; a blank line ends a
//! puzzle.

use std::io::BufRead;

use super::{parse_cells, Format, PuzzleErrorKind, Reader, Record};
use crate::sudoku::grid::{Alphabet, Grid, BOX_SIDES};

fn is_rule(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '-' | '+' | '=' | '|' | ' '))
}

fn symbols(t: &str) -> Vec<(char, usize)> {
    t.chars()
        .enumerate()
        .filter(|(_, c)| !matches!(c, ' ' | '\t' | '|'))
        .map(|(i, c)| (c, i + 1))
        .collect()
}

pub(super) fn read<R: BufRead>(r: &mut Reader<R>) -> Option<Record> {
    let (start, first) = loop {
        let (line_no, text) = r.next_data_line()?;
        match text {
            Ok(t) if is_rule(&t) => continue,
            Ok(t) => break (line_no, t),
            Err(kind) => return Some(r.error(line_no, String::new(), Format::Grid, kind)),
        }
    };
    let row0 = symbols(&first);
    let n = row0.len();
    let mut raw = first;
    if !BOX_SIDES.into_iter().any(|b| b * b == n) {
        r.skip_grid();
        let kind = PuzzleErrorKind::WrongLength {
            found: n,
            expected: None,
        };
        return Some(r.error(start, raw, Format::Grid, kind));
    }
    let mut cells = row0;
    let mut lines = vec![start; n];
    let mut rows = 1;
    while rows < n {
        let Some((line_no, text)) = r.next_grid_row() else {
            let line = r.line_no;
            return Some(r.error(
                line,
                raw,
                Format::Grid,
                PuzzleErrorKind::CutShort {
                    expected: n,
                    found: rows,
                },
            ));
        };
        let text = match text {
            Ok(t) => t,
            Err(kind) => {
                r.skip_grid();
                return Some(r.error(line_no, raw, Format::Grid, kind));
            }
        };
        raw.push('\n');
        raw.push_str(&text);
        if is_rule(&text) {
            continue;
        }
        let row = symbols(&text);
        if row.len() != n {
            r.skip_grid();
            let kind = PuzzleErrorKind::WrongLength {
                found: row.len(),
                expected: Some(n),
            };
            return Some(r.error(line_no, raw, Format::Grid, kind));
        }
        cells.extend(row);
        lines.resize(cells.len(), line_no);
        rows += 1;
    }
    // A closing rule line belongs to this puzzle.
    while matches!(r.peek(0), Some((_, Ok(t))) if is_rule(t)) {
        if let Some((_, Ok(t))) = r.next_line() {
            raw.push('\n');
            raw.push_str(&t);
        }
    }
    let chars: Vec<char> = cells.iter().map(|&(c, _)| c).collect();
    let (alphabet, grid) = parse_cells(&chars, n, r.options.alphabet, |i| lines[i], |i| cells[i].1);
    Some(r.record(start, raw, Format::Grid, alphabet, grid))
}

pub(super) fn write(out: &mut String, grid: &Grid, alphabet: Alphabet) {
    let b = grid.box_side();
    let n = grid.side();
    let rule: Vec<String> = (0..b)
        .map(|j| "-".repeat(2 * b - 1 + usize::from(j > 0) + usize::from(j + 1 < b)))
        .collect();
    let rule = rule.join("+");
    for r in 0..n {
        if r > 0 && r % b == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        for c in 0..n {
            if c > 0 {
                out.push_str(if c % b == 0 { " | " } else { " " });
            }
            let d = grid.get(r, c);
            out.push(if d == 0 { '.' } else { alphabet.symbol(d) });
        }
        out.push('\n');
    }
}
