//! `leetcode`: LeetCode 37's board, a JSON array of n rows of n one-symbol
//! strings, `"."` empty: `[["5","3",".",…],…]`. A board may span lines and
//! may be preceded by `board =`; several boards may follow one another.

use std::io::BufRead;

use super::{parse_cells, Format, PuzzleErrorKind, Reader, Record};
use crate::sudoku::grid::{Alphabet, Grid, BOX_SIDES};

/// The longest board text read before giving up on finding its end.
const MAX_BOARD: usize = 64 * 1024;

pub(super) fn read<R: BufRead>(r: &mut Reader<R>) -> Option<Record> {
    let (start, first) = r.next_data_line()?;
    let mut raw = match first {
        Ok(t) => t,
        Err(kind) => return Some(r.error(start, String::new(), Format::Leetcode, kind)),
    };
    // Read lines until the brackets balance (outside strings).
    loop {
        match balance(&raw) {
            Some(0) if raw.contains('[') => break,
            None => {
                let kind = PuzzleErrorKind::Malformed("unbalanced brackets".into());
                return Some(r.error(start, raw, Format::Leetcode, kind));
            }
            _ => {}
        }
        let more = match r.next_line() {
            Some((_, Ok(t))) if raw.len() < MAX_BOARD => t,
            _ => {
                let line = r.line_no;
                let kind = PuzzleErrorKind::Malformed("the board is not closed by `]`".into());
                return Some(r.error(line, raw, Format::Leetcode, kind));
            }
        };
        raw.push('\n');
        raw.push_str(&more);
    }
    let body = &raw[raw.find('[').unwrap_or(0)..];
    let rows = match parse_board(body) {
        Ok(rows) => rows,
        Err(msg) => {
            return Some(r.error(
                start,
                raw,
                Format::Leetcode,
                PuzzleErrorKind::Malformed(msg),
            ))
        }
    };
    let n = rows.len();
    if !BOX_SIDES.into_iter().any(|b| b * b == n) || rows.iter().any(|row| row.len() != n) {
        let kind = PuzzleErrorKind::Malformed(format!(
            "the board must be n rows of n cells with n = 4, 9, 16, 25, …; found {n} rows"
        ));
        return Some(r.error(start, raw, Format::Leetcode, kind));
    }
    let symbols: Vec<char> = rows.concat();
    let (alphabet, grid) = parse_cells(&symbols, n, r.options.alphabet, |_| start, |i| i + 1);
    Some(r.record(start, raw, Format::Leetcode, alphabet, grid))
}

/// Bracket depth at the end of `s`, `None` if it ever goes negative.
fn balance(s: &str) -> Option<i64> {
    let (mut depth, mut in_string, mut escaped) = (0i64, false, false);
    for ch in s.chars() {
        if in_string {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => in_string = true,
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            _ => {}
        }
    }
    Some(depth)
}

/// Parses `[[ "a", … ], …]` into rows of one-character cells.
fn parse_board(s: &str) -> Result<Vec<Vec<char>>, String> {
    let mut it = s.chars().filter(|c| !c.is_whitespace()).peekable();
    let expect = |it: &mut std::iter::Peekable<_>, want: char| -> Result<(), String> {
        match Iterator::next(it) {
            Some(c) if c == want => Ok(()),
            Some(c) => Err(format!("expected `{want}`, found `{c}`")),
            None => Err(format!("expected `{want}`, found the end")),
        }
    };
    expect(&mut it, '[')?;
    let mut rows = Vec::new();
    loop {
        if it.peek() == Some(&']') && rows.is_empty() {
            it.next();
            break;
        }
        expect(&mut it, '[')?;
        let mut row = Vec::new();
        loop {
            expect(&mut it, '"')?;
            let cell = it.next().ok_or("a string is not closed")?;
            if cell == '"' {
                return Err("an empty string where a cell was expected".into());
            }
            match it.next() {
                Some('"') => {}
                _ => return Err("a cell must be one symbol in quotes".into()),
            }
            row.push(cell);
            match it.next() {
                Some(',') => continue,
                Some(']') => break,
                Some(c) => return Err(format!("expected `,` or `]`, found `{c}`")),
                None => return Err("the board is not closed".into()),
            }
        }
        rows.push(row);
        match it.next() {
            Some(',') => continue,
            Some(']') => break,
            Some(c) => return Err(format!("expected `,` or `]`, found `{c}`")),
            None => return Err("the board is not closed".into()),
        }
    }
    if let Some(c) = it.next() {
        return Err(format!("unexpected `{c}` after the board"));
    }
    Ok(rows)
}

pub(super) fn write(out: &mut String, grid: &Grid, alphabet: Alphabet) {
    let n = grid.side();
    out.push('[');
    for r in 0..n {
        if r > 0 {
            out.push(',');
        }
        out.push('[');
        for c in 0..n {
            if c > 0 {
                out.push(',');
            }
            let d = grid.get(r, c);
            out.push('"');
            out.push(if d == 0 { '.' } else { alphabet.symbol(d) });
            out.push('"');
        }
        out.push(']');
    }
    out.push_str("]\n");
}
