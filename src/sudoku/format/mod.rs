//! Reading and writing puzzles in the judges' formats and the collections'.
//!
//! | format | input | answer |
//! |---|---|---|
//! | `line` | one puzzle a line, n² symbols, `.` `0` `-` `_` empty, text after a TAB or space ignored, `#` comments | the same |
//! | `poj3074` | `line` closed by a line `end` | `line`, no `end` |
//! | `poj2676` | a count T, then T grids of 9 lines of 9 digits, `0` empty | 9 lines a grid |
//! | `poj2918` | the same, each grid closed by an empty line | `Scenario #i:`, 9 lines, an empty line |
//! | `poj3076` | grids of n lines of n symbols (`A`–`P`, `-` empty), an empty line between | the same |
//! | `hdu1426` | grids of n lines of n space-separated tokens, `?` empty, a blank line between | the same |
//! | `leetcode` | LeetCode 37's board `[["5","3",".",…],…]` | the filled board |
//! | `grid` | the printed block layout, `\|` between boxes, `--+--` between bands | the same |
//!
//! [`Reader`] detects the format from the first line that holds data (unless
//! told), streams the input line by line, and yields one [`Record`] per
//! puzzle: its number, its first line, its text, and the grid or a
//! [`PuzzleError`] that names the line and the problem. A bad puzzle never
//! stops the reader: the next record starts after it. [`write_answer`]
//! answers a record in its own format (or another).

use std::collections::VecDeque;
use std::fmt;
use std::io::BufRead;

use super::grid::{Alphabet, Conflict, Grid, BOX_SIDES};

mod batch;
mod layout;
mod leetcode;
mod line;
mod rows;

pub use batch::{Batch, Records};
pub use line::parse_line;

/// The longest line read; longer ones are an error (binary garbage must not
/// exhaust memory).
pub const MAX_LINE: usize = 1 << 16;

/// An input or output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One puzzle a line.
    Line,
    /// One puzzle a line, closed by `end`.
    Poj3074,
    /// A count, then grids of digit rows.
    Poj2676,
    /// POJ 2918 ("Tudoku"): a count, then grids of digit rows, each closed
    /// by an empty line; answered with a `Scenario #i:` line before each.
    Poj2918,
    /// Grids of symbol rows separated by empty lines.
    Poj3076,
    /// Grids of space-separated tokens, `?` empty.
    Hdu1426,
    /// LeetCode 37's JSON board.
    Leetcode,
    /// The printed block layout.
    Grid,
}

impl Format {
    /// Every format, in documentation order.
    pub const ALL: [Format; 8] = [
        Format::Line,
        Format::Poj3074,
        Format::Poj2676,
        Format::Poj2918,
        Format::Poj3076,
        Format::Hdu1426,
        Format::Leetcode,
        Format::Grid,
    ];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Poj3074 => "poj3074",
            Format::Poj2676 => "poj2676",
            Format::Poj2918 => "poj2918",
            Format::Poj3076 => "poj3076",
            Format::Hdu1426 => "hdu1426",
            Format::Leetcode => "leetcode",
            Format::Grid => "grid",
        }
    }

    /// The format with this name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// What is wrong with one puzzle of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError {
    /// The 1-based line where the problem is.
    pub line: usize,
    /// What the problem is.
    pub kind: PuzzleErrorKind,
}

/// The kinds of [`PuzzleError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PuzzleErrorKind {
    /// A puzzle line whose length is not that of any grid.
    WrongLength {
        /// Symbols found.
        found: usize,
        /// Symbols expected, when the format fixes it.
        expected: Option<usize>,
    },
    /// A symbol that is neither a digit of the grid nor an empty mark.
    BadSymbol {
        /// The symbol.
        symbol: char,
        /// 1-based position on its line.
        column: usize,
    },
    /// Givens that break a rule.
    Conflict(Conflict),
    /// The input ended inside a grid.
    CutShort {
        /// Rows expected.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// POJ 2676's count disagrees with the grids that follow.
    CountMismatch {
        /// The count T.
        declared: usize,
        /// Grids found.
        found: usize,
    },
    /// Symbols that two alphabets read as two different puzzles (a 16×16
    /// puzzle with `0` and without `G`: hex `0-9A-F`, or `1-9A-G` with `0`
    /// empty): the alphabet must be named.
    AmbiguousAlphabet {
        /// The grid's side.
        side: usize,
    },
    /// The alphabet named has fewer symbols than the grid has digits.
    AlphabetTooSmall {
        /// The alphabet.
        alphabet: Alphabet,
        /// The grid's side.
        side: usize,
    },
    /// Bytes that are not text.
    NotText,
    /// An input whose first line is not text: a binary file, reported once
    /// for the whole input.
    Binary,
    /// A line longer than [`MAX_LINE`].
    LineTooLong,
    /// Anything else malformed, described.
    Malformed(String),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

/// The problem alone, without its line (`check` prints it after `invalid: `).
impl fmt::Display for PuzzleErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleErrorKind::WrongLength {
                found,
                expected: Some(e),
            } => {
                write!(f, "{found} symbols where {e} were expected")
            }
            PuzzleErrorKind::WrongLength {
                found,
                expected: None,
            } => write!(
                f,
                "{found} symbols: a puzzle has 16, 81, 256, 625 (b⁴) symbols"
            ),
            PuzzleErrorKind::BadSymbol { symbol, column } => {
                write!(f, "unknown symbol {symbol:?} at column {column}")
            }
            PuzzleErrorKind::Conflict(c) => write!(f, "conflicting givens: {c}"),
            PuzzleErrorKind::CutShort { expected, found } => {
                write!(
                    f,
                    "the input ends inside a grid ({found} of {expected} rows)"
                )
            }
            PuzzleErrorKind::CountMismatch { declared, found } => {
                let puzzles = |n: &usize| match n {
                    1 => "1 puzzle".to_string(),
                    n => format!("{n} puzzles"),
                };
                write!(
                    f,
                    "the count says {} but the input has {}",
                    puzzles(declared),
                    puzzles(found)
                )
            }
            PuzzleErrorKind::AmbiguousAlphabet { side } => {
                let digits = Alphabet::Digits.symbol(*side as u8);
                let hex = Alphabet::Hex.symbol(*side as u8);
                write!(
                    f,
                    "a {side}×{side} puzzle with `0` and no `{digits}` reads two ways: \
                     0-9A-{hex} (--alphabet hex) or 1-9A-{digits} with `0` empty \
                     (--alphabet digits); name the alphabet"
                )
            }
            PuzzleErrorKind::AlphabetTooSmall { alphabet, side } => write!(
                f,
                "the {} alphabet writes up to {}×{}, not {side}×{side} (letters go to 64×64)",
                alphabet.name(),
                alphabet.max_side(),
                alphabet.max_side()
            ),
            PuzzleErrorKind::NotText => write!(f, "not text (invalid UTF-8 or control bytes)"),
            PuzzleErrorKind::Binary => write!(
                f,
                "not a text file (its first line holds invalid UTF-8 or control bytes); nothing read"
            ),
            PuzzleErrorKind::LineTooLong => write!(f, "line longer than {MAX_LINE} bytes"),
            PuzzleErrorKind::Malformed(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// One puzzle of the input, read.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based number of the puzzle in its input.
    pub index: usize,
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle's text as read (its lines joined by `\n`).
    pub raw: String,
    /// The format it was read in.
    pub format: Format,
    /// The alphabet its symbols were read with.
    pub alphabet: Alphabet,
    /// The grid, or what is wrong with it.
    pub grid: Result<Grid, PuzzleError>,
}

/// How to read: a forced format and alphabet, or detection.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// The format; detected from the first data line when `None`.
    pub format: Option<Format>,
    /// The alphabet; chosen per puzzle by its size and symbols when `None`.
    pub alphabet: Option<Alphabet>,
}

/// A line of input: its number and its text (or why it is not text).
type Line = (usize, Result<String, PuzzleErrorKind>);

/// Streams puzzles out of a `BufRead`. See the module documentation.
pub struct Reader<R> {
    input: R,
    line_no: usize,
    lookahead: VecDeque<Line>,
    eof: bool,
    options: ReadOptions,
    format: Option<Format>,
    index: usize,
    finished: bool,
    /// POJ 2676: the count, and the line it is on.
    declared: Option<usize>,
    count_line: usize,
    buf: Vec<u8>,
}

impl<R> std::fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("line_no", &self.line_no)
            .field("index", &self.index)
            .field("format", &self.format)
            .field("eof", &self.eof)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> Reader<R> {
    /// A reader over `input`.
    pub fn new(input: R, options: ReadOptions) -> Self {
        Reader {
            input,
            line_no: 0,
            lookahead: VecDeque::new(),
            eof: false,
            options,
            format: options.format,
            index: 0,
            finished: false,
            declared: None,
            count_line: 0,
            buf: Vec::new(),
        }
    }

    /// The format in use (once detected).
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// Reads one physical line, at most [`MAX_LINE`] bytes kept.
    fn read_physical(&mut self) -> Option<Line> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let line = self
            .read_bytes(&mut buf)
            .map(|read| (self.line_no, read.and_then(|()| text_of(&buf))));
        self.buf = buf;
        line
    }

    /// Appends one physical line's bytes to `buf`, its line end and a
    /// byte-order mark on line 1 left out: `None` at the end of the input,
    /// an error (and nothing appended) when the line cannot be read or is
    /// longer than [`MAX_LINE`].
    fn read_bytes(&mut self, buf: &mut Vec<u8>) -> Option<Result<(), PuzzleErrorKind>> {
        use std::io::Read;
        if self.eof {
            return None;
        }
        let start = buf.len();
        // One byte past the limit tells a line too long; `read_until`
        // finds the line's end a word at a time.
        let limit = MAX_LINE as u64 + 1;
        let read = (&mut self.input).take(limit).read_until(b'\n', buf);
        let too_long = match read {
            Ok(0) => {
                self.eof = true;
                return None;
            }
            Ok(n) if n as u64 == limit => {
                let ended = buf.last() == Some(&b'\n');
                buf.truncate(start);
                if !ended {
                    self.skip_line();
                }
                true
            }
            Ok(_) => false,
            Err(e) => {
                self.eof = true;
                self.line_no += 1;
                buf.truncate(start);
                return Some(Err(PuzzleErrorKind::Malformed(format!("read error: {e}"))));
            }
        };
        self.line_no += 1;
        if too_long {
            return Some(Err(PuzzleErrorKind::LineTooLong));
        }
        while buf.len() > start && matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        // A byte-order mark (Windows editors write one) is not a symbol.
        if self.line_no == 1 && buf[start..].starts_with(b"\xef\xbb\xbf") {
            buf.drain(start..start + 3);
        }
        Some(Ok(()))
    }

    /// Reads past the rest of a line too long to keep.
    fn skip_line(&mut self) {
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    self.eof = true;
                    return;
                }
            };
            if chunk.is_empty() {
                self.eof = true;
                return;
            }
            let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            self.input.consume(used);
            if done {
                return;
            }
        }
    }

    /// The next line, from the lookahead first.
    fn next_line(&mut self) -> Option<Line> {
        self.lookahead.pop_front().or_else(|| self.read_physical())
    }

    /// Looks at the `k`-th line ahead without taking it.
    fn peek(&mut self, k: usize) -> Option<&Line> {
        while self.lookahead.len() <= k {
            let line = self.read_physical()?;
            self.lookahead.push_back(line);
        }
        self.lookahead.get(k)
    }

    /// The next row of a grid being read: `None` at a blank line (left
    /// unread) or at the end of the input.
    fn next_grid_row(&mut self) -> Option<Line> {
        match self.peek(0) {
            Some((_, Ok(t))) if t.trim().is_empty() => None,
            None => None,
            Some(_) => self.next_line(),
        }
    }

    /// Skips the rest of a bad grid, up to its blank line, so the next grid
    /// is read from its start.
    fn skip_grid(&mut self) {
        while let Some((_, Ok(t))) = self.peek(0) {
            if t.trim().is_empty() {
                break;
            }
            self.next_line();
        }
    }

    /// The next line that holds data: blank lines and `#` comments skipped.
    fn next_data_line(&mut self) -> Option<Line> {
        loop {
            let line = self.next_line()?;
            match &line.1 {
                Ok(t) if is_blank_or_comment(t) => continue,
                _ => return Some(line),
            }
        }
    }

    /// After a count: POJ 2918 when the first grid (9 rows) is closed by an
    /// empty line and another grid follows it, else POJ 2676 (a file of one
    /// scenario reads the same in both: `--format poj2918` names it).
    fn count_and_grids(&mut self) -> Format {
        let row = |l: Option<&Line>| matches!(l, Some((_, Ok(t))) if t.trim().len() == 9);
        let grid = (1..=9).all(|k| row(self.peek(k)));
        let closed = matches!(self.peek(10), Some((_, Ok(t))) if t.trim().is_empty());
        if grid && closed && row(self.peek(11)) {
            Format::Poj2918
        } else {
            Format::Poj2676
        }
    }

    /// Decides the format from the first record's shape: its first data
    /// line, and where that is ambiguous the lines after it. Blank and
    /// comment lines before it are dropped (they belong to no record), so
    /// nothing but the record itself is held however many there are.
    fn detect(&mut self) -> Format {
        let first = loop {
            match self.peek(0) {
                None => return Format::Line,
                Some((_, Ok(t))) if is_blank_or_comment(t) => {
                    self.next_line();
                }
                Some((_, Ok(t))) => break t.trim().to_string(),
                Some((_, Err(_))) => return Format::Line,
            }
        };
        if first.starts_with('[') {
            return Format::Leetcode;
        }
        let rule = first
            .chars()
            .all(|c| matches!(c, '-' | '+' | '=' | '|' | ' '));
        // A line of b² or b⁴ dashes is an empty row or an empty puzzle, not
        // a rule between bands.
        let empty = first.chars().all(|c| c == '-')
            && BOX_SIDES
                .into_iter()
                .any(|b| b * b == first.len() || b.pow(4) == first.len());
        if first.contains('|') || (rule && !empty) {
            return Format::Grid;
        }
        if !first.is_empty() && first.len() < 10 && first.bytes().all(|b| b.is_ascii_digit()) {
            // A short number: POJ 2676's count, unless it is a grid row.
            let next_is_row =
                matches!(self.peek(1), Some((_, Ok(t))) if t.trim().len() == first.len());
            if !(next_is_row && first.len() == 9) {
                return self.count_and_grids();
            }
        }
        let tokens: Vec<&str> = first.split_whitespace().collect();
        if tokens.len() > 1 && tokens.iter().all(|t| t.chars().count() == 1) {
            return Format::Hdu1426;
        }
        let token = tokens.first().copied().unwrap_or("");
        let len = token.chars().count();
        let is_row_len = BOX_SIDES.into_iter().any(|b| b * b == len);
        let is_line_len = BOX_SIDES.into_iter().any(|b| b * b * b * b == len);
        if is_row_len && !is_line_len {
            return Format::Poj3076;
        }
        if len == 16 {
            // 4×4 on one line, or a row of a 16×16 grid: the grid's rows
            // (this one and up to 15 more, to a blank line) hold a symbol
            // past 4 somewhere, lines of 4×4 puzzles do not.
            let small = |t: &str| t.trim().chars().all(|c| "1234.0-_".contains(c));
            let mut rows = 1;
            while rows < 16 {
                match self.peek(rows) {
                    Some((_, Ok(t))) if !t.trim().is_empty() => {
                        if !small(t) {
                            return Format::Poj3076;
                        }
                    }
                    _ => break,
                }
                rows += 1;
            }
            return if small(token) {
                Format::Line
            } else {
                Format::Poj3076
            };
        }
        Format::Line
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        if self.finished {
            return None;
        }
        if self.index == 0 && self.line_no <= 1 {
            // A binary file: one error for the input, not one per line.
            let binary = match self.peek(0) {
                Some((line, Err(PuzzleErrorKind::NotText))) => Some(*line),
                _ => None,
            };
            if let Some(line) = binary {
                self.finished = true;
                let format = self.format.unwrap_or(Format::Line);
                return Some(self.error(line, String::new(), format, PuzzleErrorKind::Binary));
            }
        }
        let format = match self.format {
            Some(f) => f,
            None => {
                let f = self.detect();
                self.format = Some(f);
                f
            }
        };
        let record = match format {
            Format::Line | Format::Poj3074 => line::read(self, format),
            Format::Poj2676 | Format::Poj2918 | Format::Poj3076 | Format::Hdu1426 => {
                rows::read(self, format)
            }
            Format::Leetcode => leetcode::read(self),
            Format::Grid => layout::read(self),
        };
        if record.is_none() {
            self.finished = true;
        }
        record
    }
}

impl<R: BufRead> Reader<R> {
    /// A record for puzzle `raw` starting at `line`, numbered next.
    fn record(
        &mut self,
        line: usize,
        raw: String,
        format: Format,
        alphabet: Alphabet,
        grid: Result<Grid, PuzzleError>,
    ) -> Record {
        self.index += 1;
        make_record(self.index, line, raw, format, alphabet, grid)
    }

    fn error(&mut self, line: usize, raw: String, format: Format, kind: PuzzleErrorKind) -> Record {
        let alphabet = self.options.alphabet.unwrap_or(Alphabet::Digits);
        self.record(line, raw, format, alphabet, Err(PuzzleError { line, kind }))
    }
}

/// A line's text, or why it is not text: control characters (but TAB) make
/// a line binary; ASCII is looked at byte by byte, the rest char by char (C1
/// controls too).
fn text_of(bytes: &[u8]) -> Result<String, PuzzleErrorKind> {
    match std::str::from_utf8(bytes) {
        Ok(s) if s.is_ascii() && !s.bytes().any(|b| b.is_ascii_control() && b != b'\t') => {
            Ok(s.to_string())
        }
        Ok(s) if !s.is_ascii() && !s.chars().any(|c| c.is_control() && c != '\t') => {
            Ok(s.to_string())
        }
        _ => Err(PuzzleErrorKind::NotText),
    }
}

/// Record number `index`: puzzle `raw` starting at `line`, whose grid is
/// checked for a conflict among its givens.
fn make_record(
    index: usize,
    line: usize,
    raw: String,
    format: Format,
    alphabet: Alphabet,
    grid: Result<Grid, PuzzleError>,
) -> Record {
    let grid = grid.and_then(|g| match g.conflict() {
        Some(c) => Err(PuzzleError {
            line,
            kind: PuzzleErrorKind::Conflict(c),
        }),
        None => Ok(g),
    });
    Record {
        index,
        line,
        raw,
        format,
        alphabet,
        grid,
    }
}

fn is_blank_or_comment(t: &str) -> bool {
    let t = t.trim();
    t.is_empty() || t.starts_with('#')
}

/// Whether `ch` marks an empty cell in `alphabet`.
fn is_empty_mark(ch: char, alphabet: Alphabet) -> bool {
    matches!(ch, '.' | '-' | '_' | '?' | '*') || (ch == '0' && alphabet != Alphabet::Hex)
}

/// The alphabet for a puzzle of side `n` with these symbols, unless forced;
/// an error where two alphabets would read two different puzzles, or the
/// alphabet named cannot write `n` digits.
///
/// Up to 9×9, digits. Beyond: letters, unless the puzzle uses `1`–`9`; then
/// digits (`1-9A-…`, `0` empty) up to 35×35 and hex at 36×36 (the only
/// alphabets with those symbols). A puzzle with `0` and without the digits
/// alphabet's last symbol (`G` for 16×16) is also a hex puzzle of the
/// same symbols: that is the ambiguity, and it is refused. Letters past
/// 36×36, and whenever a lowercase letter shows past 26×26.
fn choose_alphabet(
    forced: Option<Alphabet>,
    n: usize,
    symbols: impl Iterator<Item = char>,
) -> Result<Alphabet, PuzzleErrorKind> {
    if let Some(a) = forced {
        return if n <= a.max_side() {
            Ok(a)
        } else {
            Err(PuzzleErrorKind::AlphabetTooSmall {
                alphabet: a,
                side: n,
            })
        };
    }
    if n <= 9 {
        return Ok(Alphabet::Digits);
    }
    let last = Alphabet::Digits.symbol(n.min(35) as u8);
    let (mut digit, mut zero, mut lower, mut has_last) = (false, false, false, false);
    for c in symbols {
        digit |= matches!(c, '1'..='9');
        zero |= c == '0';
        lower |= c.is_ascii_lowercase();
        has_last |= c.to_ascii_uppercase() == last;
    }
    if n > 36 || !digit || (lower && n > 26) {
        return Ok(Alphabet::Letters);
    }
    if n == 36 {
        return Ok(Alphabet::Hex);
    }
    if zero && !has_last {
        return Err(PuzzleErrorKind::AmbiguousAlphabet { side: n });
    }
    Ok(Alphabet::Digits)
}

/// Parses `n²` symbols (already split into cells) into a grid of side `n`.
/// `column_of(i)` gives the 1-based column of symbol `i` for messages.
fn parse_cells(
    symbols: &[char],
    n: usize,
    forced: Option<Alphabet>,
    line_of: impl Fn(usize) -> usize,
    column_of: impl Fn(usize) -> usize,
) -> (Alphabet, Result<Grid, PuzzleError>) {
    let alphabet = match choose_alphabet(forced, n, symbols.iter().copied()) {
        Ok(a) => a,
        Err(kind) => {
            let err = PuzzleError {
                line: line_of(0),
                kind,
            };
            return (forced.unwrap_or(Alphabet::Digits), Err(err));
        }
    };
    let mut cells = Vec::with_capacity(symbols.len());
    if alphabet == Alphabet::Digits && n <= 9 {
        // The usual case, without the general mapping: '0' (empty) to n.
        for &ch in symbols {
            match (ch as u32).wrapping_sub('0' as u32) {
                d if d <= n as u32 => cells.push(d as u8),
                _ if is_empty_mark(ch, alphabet) => cells.push(0),
                _ => break,
            }
        }
        if cells.len() < symbols.len() {
            // A bad symbol: the general loop names it.
            cells.clear();
        } else {
            return finish_cells(cells, symbols.len(), alphabet, &line_of);
        }
    }
    for (i, &ch) in symbols.iter().enumerate() {
        if let Some(d) = alphabet.digit(ch, n) {
            cells.push(d);
        } else if is_empty_mark(ch, alphabet) {
            cells.push(0);
        } else {
            let err = PuzzleError {
                line: line_of(i),
                kind: PuzzleErrorKind::BadSymbol {
                    symbol: ch,
                    column: column_of(i),
                },
            };
            return (alphabet, Err(err));
        }
    }
    finish_cells(cells, symbols.len(), alphabet, &line_of)
}

/// The grid of `cells` (read from `found` symbols).
fn finish_cells(
    cells: Vec<u8>,
    found: usize,
    alphabet: Alphabet,
    line_of: &impl Fn(usize) -> usize,
) -> (Alphabet, Result<Grid, PuzzleError>) {
    match Grid::from_cells(cells) {
        Some(g) => (alphabet, Ok(g)),
        None => (
            alphabet,
            Err(PuzzleError {
                line: line_of(0),
                kind: PuzzleErrorKind::WrongLength {
                    found,
                    expected: None,
                },
            }),
        ),
    }
}

/// What to write for one puzzle: its solution, or its text back unchanged.
#[derive(Clone, Copy, Debug)]
pub enum Answer<'a> {
    /// A grid, in the given alphabet.
    Grid(&'a Grid, Alphabet),
    /// The puzzle's own text (for a puzzle with no answer).
    Raw(&'a str),
}

/// What `format` writes between two answers (before every answer but the
/// first).
pub fn separator(format: Format) -> &'static str {
    match format {
        Format::Poj3076 | Format::Hdu1426 | Format::Grid => "\n",
        _ => "",
    }
}

/// Appends one answer in `format` to `out`. `first` is whether it is the
/// first answer of the output (formats with separators put one before every
/// other answer); `number` is the puzzle's number in its input, from 1
/// (POJ 2918 heads each answer with `Scenario #number:`).
pub fn write_answer(
    out: &mut String,
    format: Format,
    first: bool,
    number: usize,
    answer: Answer<'_>,
) {
    if !first {
        out.push_str(separator(format));
    }
    if format == Format::Poj2918 {
        out.push_str(&format!("Scenario #{number}:\n"));
    }
    match answer {
        Answer::Raw(raw) => {
            out.push_str(raw);
            out.push('\n');
        }
        Answer::Grid(grid, alphabet) => match format {
            Format::Line | Format::Poj3074 => line::write(out, grid, alphabet),
            Format::Poj2676 | Format::Poj2918 | Format::Poj3076 | Format::Hdu1426 => {
                rows::write(out, format, grid, alphabet)
            }
            Format::Leetcode => leetcode::write(out, grid, alphabet),
            Format::Grid => layout::write(out, grid, alphabet),
        },
    }
    if format == Format::Poj2918 {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> Vec<Record> {
        Reader::new(text.as_bytes(), ReadOptions::default()).collect()
    }

    #[test]
    fn detects_each_format() {
        let cases = [
            ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n", Format::Line),
            ("1\n103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n", Format::Poj2676),
            ("[[\"5\",\".\"]]\n", Format::Leetcode),
            ("5 3 . | . 7 .\n", Format::Grid),
            ("7 1 2 ? 6 ? 3 5 8\n", Format::Hdu1426),
            ("--A----C-----O-I\n", Format::Poj3076),
            ("12.4..........3.\n", Format::Line),
        ];
        for (text, want) in cases {
            let mut r = Reader::new(text.as_bytes(), ReadOptions::default());
            r.next();
            assert_eq!(r.format(), Some(want), "{text}");
        }
    }

    #[test]
    fn garbage_and_long_lines_are_errors_not_panics() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
        let mut bytes = line.as_bytes().to_vec();
        bytes.extend([0xffu8, 0xfe, b'\n']);
        bytes.extend(std::iter::repeat_n(b'1', MAX_LINE + 10));
        bytes.push(b'\n');
        let records: Vec<Record> = Reader::new(&bytes[..], ReadOptions::default()).collect();
        assert_eq!(records.len(), 3);
        assert!(records[0].grid.is_ok());
        assert!(matches!(
            records[1].grid.as_ref().unwrap_err().kind,
            PuzzleErrorKind::NotText
        ));
        assert!(matches!(
            records[2].grid.as_ref().unwrap_err().kind,
            PuzzleErrorKind::LineTooLong
        ));
        assert!(read_all("").is_empty());
        // A binary file: one error for all of it.
        let mut binary = vec![0x7fu8, b'E', b'L', b'F', 0, 1, b'\n'];
        binary.extend(bytes);
        let records: Vec<Record> = Reader::new(&binary[..], ReadOptions::default()).collect();
        assert_eq!(records.len(), 1);
        assert!(matches!(
            records[0].grid.as_ref().unwrap_err().kind,
            PuzzleErrorKind::Binary
        ));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = "\u{feff}4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
        let records = read_all(text);
        assert_eq!(records.len(), 1);
        assert!(records[0].grid.is_ok());
        let rows = "\u{feff}--A----C-----O-I\n";
        let mut r = Reader::new(rows.as_bytes(), ReadOptions::default());
        r.next();
        assert_eq!(r.format(), Some(Format::Poj3076));
    }

    #[test]
    fn detection_reads_the_whole_record() {
        // Empty first rows: of a 16×16 grid, of a 9×9 grid, of a 4×4 grid
        // in rows; and many blank lines before a puzzle.
        // Row r holds the r-th symbol at column r: no conflict.
        let rows = |n: usize, symbols: &str| -> String {
            let mut text = "-".repeat(n) + "\n";
            for (r, s) in symbols.chars().enumerate().skip(1).take(n - 1) {
                let mut row = vec!['-'; n];
                row[r] = s;
                text.extend(row);
                text.push('\n');
            }
            text
        };
        let sixteen = rows(16, "ABCDEFGHIJKLMNOP");
        let nine = rows(9, "123456789");
        let four = "----\n1---\n--2-\n---3\n";
        for (text, want) in [
            (sixteen.as_str(), Format::Poj3076),
            (nine.as_str(), Format::Poj3076),
            (four, Format::Poj3076),
            ("1234............\n................\n", Format::Line),
            ("-- | -- \n", Format::Grid),
        ] {
            let mut r = Reader::new(text.as_bytes(), ReadOptions::default());
            let first = r.next();
            assert_eq!(r.format(), Some(want), "{text}");
            if want == Format::Poj3076 {
                let grid = first.map(|f| f.grid);
                assert!(matches!(grid, Some(Ok(_))), "{text}: {grid:?}");
            }
        }
        let blank = "\n".repeat(100_000)
            + "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
        let mut r = Reader::new(blank.as_bytes(), ReadOptions::default());
        let record = r.next().unwrap();
        assert_eq!(record.line, 100_001);
        assert!(record.grid.is_ok());
        assert!(r.lookahead.len() <= 1);
    }
}
