//! SudokuPad links (`sudokupad.app`, the Cracking the Cryptic app): what
//! their puzzle id carries, told apart before anything is read.
//!
//! A link names its puzzle in its path (`https://sudokupad.app/<id>`) or
//! in a `?puzzleid=<id>` query, percent-encoded or not. The id's prefix
//! says what follows: `fpuz` or `fpuzzles`, f-puzzles' JSON compressed as
//! f-puzzles compresses it (read by the f-puzzles reader, its drawn lines,
//! circles, rectangles, cosmetic cages and texts, whose meaning lives in
//! the rules text, read as SudokuPad's drawing is);
//! `scl` or `ctc`, SudokuPad's own JSON (lz-string, base 64), plain or in
//! SudokuPad's compact form (keys shortened, `cs` for `cellSize`, quotes
//! left out, empty array entries left blank), a drawing rather than a
//! rule list: read here are its size, givens, regions and the anti-knight
//! and anti-king flags, and by the drawing reader its cages, lines, arrows,
//! overlays and underlays, by SudokuPad's conventions and the rules text
//! (what cannot be read is refused by name and place; a background image
//! is refused); anything else is a short id whose data lives on
//! SudokuPad's server, which an offline reader cannot fetch (refused,
//! telling the user to copy the long link). [`link`] writes a link
//! SudokuPad opens.
//!
//! A link's `metadata.solution` becomes the puzzle's expected solution
//! ([`Puzzle::expecting`]): a reading that admits another answer is
//! reported as misread, never answered. Without one, a puzzle is read only
//! when its rules text says normal Sudoku rules and nothing more.
//!
//! Invariant: nothing here guesses. A link is read whole or refused with
//! the reason; never half read.

use std::fmt;

use serde_json::{Map, Value};

use super::constraints::{self, Geometry};
use super::fpuzzles::{Document, FpuzzlesError};
use super::rules::Rules;
use super::Puzzle;

mod drawing;

/// Hosts whose links are SudokuPad's.
const HOSTS: [&str; 4] = [
    "sudokupad.app",
    "www.sudokupad.app",
    "cracking-the-cryptic.web.app",
    "app.crackingthecryptic.com",
];

/// Why a SudokuPad link was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SudokuPadError {
    /// A short id (`sudokupad.app/<id>`, `/sudoku/<id>`, `<user>/<slug>`):
    /// the puzzle's data is on SudokuPad's server. The id.
    ShortId(String),
    /// A link without a puzzle id.
    NoId,
    /// The id's data does not decompress to a puzzle.
    Undecodable,
    /// An element of SudokuPad's format this reader does not take: what
    /// and where.
    Unread(String),
}

impl fmt::Display for SudokuPadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SudokuPadError::ShortId(id) => write!(
                f,
                "SudokuPad short id `{id}`: the puzzle's data is on SudokuPad's server, which \
                 this reader does not fetch; open the link, choose Share, and copy the long \
                 link (…/fpuzzles…, …/scl…) instead"
            ),
            SudokuPadError::NoId => f.write_str("a SudokuPad link without a puzzle id"),
            SudokuPadError::Undecodable => {
                f.write_str("a SudokuPad link whose data does not decompress to a puzzle")
            }
            SudokuPadError::Unread(what) => write!(
                f,
                "SudokuPad: {what}; solving without it could give wrong answers"
            ),
        }
    }
}

impl std::error::Error for SudokuPadError {}

/// Whether `link` (a URL, scheme first) is a SudokuPad link.
pub(crate) fn is_link(link: &str) -> bool {
    host_and_rest(link).is_some()
}

/// The host of `link` when it is SudokuPad's, and what follows it.
fn host_and_rest(link: &str) -> Option<&str> {
    let link = link.split_whitespace().next()?;
    let (_, after) = link.split_once("://")?;
    let end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let host = after[..end].to_ascii_lowercase();
    HOSTS.contains(&host.as_str()).then_some(&after[end..])
}

/// What a SudokuPad link's id carries, percent-escapes undone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Payload {
    /// f-puzzles' compressed string.
    Fpuzzles(String),
    /// SudokuPad's own compressed JSON.
    Own(String),
}

/// What a SudokuPad link carries, or why it carries nothing to read.
pub(crate) fn payload(link: &str) -> Result<Payload, SudokuPadError> {
    let rest = host_and_rest(link).ok_or(SudokuPadError::NoId)?;
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let from_query = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("puzzleid="));
    let id = match from_query {
        Some(id) => id.split('#').next().unwrap_or(""),
        None => path.split('#').next().unwrap_or("").trim_start_matches('/'),
    };
    let id = super::fpuzzles::percent_decoded(id);
    if id.is_empty() {
        return Err(SudokuPadError::NoId);
    }
    for prefix in ["fpuzzles", "fpuz"] {
        if let Some(packed) = id.strip_prefix(prefix) {
            return Ok(Payload::Fpuzzles(packed.to_string()));
        }
    }
    for prefix in ["scl", "ctc"] {
        if let Some(packed) = id.strip_prefix(prefix).filter(|p| p.len() > 16) {
            return Ok(Payload::Own(packed.to_string()));
        }
    }
    Err(SudokuPadError::ShortId(id))
}

/// Reads SudokuPad's own compressed JSON (see the module documentation).
pub(crate) fn read_own(packed: &str) -> Result<Puzzle, SudokuPadError> {
    let text =
        super::lzstring::decompress_from_base64(packed).ok_or(SudokuPadError::Undecodable)?;
    let value = match serde_json::from_str::<Value>(&text) {
        Ok(v) => v,
        Err(_) => Relaxed::new(&text)
            .document()
            .ok_or(SudokuPadError::Undecodable)?,
    };
    let Value::Object(json) = value else {
        return Err(SudokuPadError::Undecodable);
    };
    puzzle_of(&metadata_cages(expanded(json)))
}

/// A link SudokuPad opens: f-puzzles JSON `json` (as
/// [`write_rules`](super::fpuzzles::write_rules) writes it) carrying
/// `solution` when one is given (SudokuPad checks a solve against it),
/// compressed as f-puzzles compresses it, after
/// `https://sudokupad.app/fpuzzles`, its `+`, `/` and `=` percent-escaped.
pub fn link(json: &str, solution: Option<&[u8]>) -> String {
    let json = match (serde_json::from_str::<Value>(json), solution) {
        (Ok(Value::Object(mut m)), Some(digits)) => {
            let digits = digits.iter().map(|&d| Value::from(d)).collect();
            m.insert("solution".into(), Value::Array(digits));
            Value::Object(m).to_string()
        }
        _ => json.to_string(),
    };
    let packed = super::lzstring::compress_to_base64(&json)
        .replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D");
    format!("https://sudokupad.app/fpuzzles{packed}")
}

/// Reads the f-puzzles data of a SudokuPad link (`…/fpuzzles…`) as
/// f-puzzles is read, but its drawn elements (`line`, `circle`,
/// `rectangle`, `cage`, `text`, whose meaning SudokuPad setters give in
/// the rules text, `ruleset`) by the conventions of SudokuPad's own
/// drawing ([`drawing`]), and the rules the text tells alone (anti-knight,
/// anti-king). A line that draws a constraint the data already has (the
/// same cells) is passed over.
pub(crate) fn read_fpuzzles(packed: &str) -> Result<Document, FpuzzlesError> {
    let packed = packed.trim().replace(' ', "+");
    let text = super::lzstring::decompress_from_base64(&packed)
        .ok_or_else(|| FpuzzlesError::Json("the link's data does not decompress".into()))?;
    let Ok(Value::Object(mut json)) = serde_json::from_str::<Value>(&text) else {
        // Not an object: the f-puzzles reader says why.
        return super::fpuzzles::read(&text);
    };
    let Some(n) = json
        .get("size")
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .filter(|n| (1..=super::rules::MAX_SIDE).contains(n))
    else {
        return super::fpuzzles::read(&text);
    };
    let rules = json
        .get("ruleset")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let picture = fpuzzles_drawing(&mut json);
    let read = drawing::read(&picture, n, &rules).map_err(|why| {
        FpuzzlesError::Field(format!(
            "drawn for SudokuPad: {why}; solving without it could give wrong answers"
        ))
    })?;
    for (key, v) in read {
        match (v, json.get_mut(&key)) {
            (Value::Array(more), Some(Value::Array(have))) => have.extend(more),
            (v, _) => {
                json.insert(key, v);
            }
        }
    }
    super::fpuzzles::read(&Value::Object(json).to_string())
}

/// f-puzzles' drawn elements taken out of `json` and written as
/// SudokuPad draws them (`lines`, `overlays`, `cages`; points in cells,
/// a cell's centre at `r + 0.5`), the lines that repeat a constraint's
/// own cells left out.
fn fpuzzles_drawing(json: &mut Map<String, Value>) -> Map<String, Value> {
    let rc = |name: &Value| -> Option<(f64, f64)> {
        let (r, c) = name
            .as_str()?
            .strip_prefix(['R', 'r'])?
            .split_once(['C', 'c'])?;
        Some((r.parse::<f64>().ok()? - 1.0, c.parse::<f64>().ok()? - 1.0))
    };
    let cells_of = |entry: &Value| -> Vec<(f64, f64)> {
        entry
            .get("cells")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(&rc)
            .collect()
    };
    let point = |(r, c): (f64, f64)| Value::from(vec![r + 0.5, c + 0.5]);
    // The lines the constraints already hold, as lists of cell names.
    let held: Vec<Vec<Value>> = json
        .iter()
        .filter(|(k, _)| constraints::reads_fpuzzles_key(k))
        .filter_map(|(_, v)| v.as_array())
        .flatten()
        .filter_map(|e| e.get("lines").and_then(Value::as_array))
        .flatten()
        .filter_map(|l| l.as_array().cloned())
        .collect();
    let mut picture = Map::new();
    let mut lines = Vec::new();
    for entry in remove_list(json, "line") {
        for line in entry
            .get("lines")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(names) = line.as_array() else {
                continue;
            };
            let backwards: Vec<Value> = names.iter().rev().cloned().collect();
            if held.iter().any(|h| h == names || *h == backwards) {
                continue;
            }
            let points: Vec<Value> = names.iter().filter_map(&rc).map(point).collect();
            let mut l = Map::new();
            l.insert("wayPoints".into(), Value::Array(points));
            if let Some(colour) = entry.get("outlineC") {
                l.insert("color".into(), colour.clone());
            }
            lines.push(Value::Object(l));
        }
    }
    let mut overlays = Vec::new();
    for key in ["circle", "rectangle", "text"] {
        for entry in remove_list(json, key) {
            let cells = cells_of(&entry);
            if cells.is_empty() {
                continue;
            }
            let k = cells.len() as f64;
            let centre = cells
                .iter()
                .fold((0.0, 0.0), |(r, c), &(a, b)| (r + a / k, c + b / k));
            let mut o = Map::new();
            o.insert("center".into(), point(centre));
            for (from, to) in [
                ("width", "width"),
                ("height", "height"),
                ("baseC", "backgroundColor"),
                ("outlineC", "borderColor"),
                ("value", "text"),
            ] {
                if let Some(v) = entry.get(from) {
                    o.insert(to.into(), v.clone());
                }
            }
            o.insert("rounded".into(), Value::Bool(key == "circle"));
            overlays.push(Value::Object(o));
        }
    }
    let mut cages = Vec::new();
    for entry in remove_list(json, "cage") {
        let cells: Vec<Value> = cells_of(&entry)
            .into_iter()
            .map(|(r, c)| Value::from(vec![r, c]))
            .collect();
        let mut cage = Map::new();
        cage.insert("cells".into(), Value::Array(cells));
        if let Some(v) = entry.get("value") {
            cage.insert("value".into(), v.clone());
        }
        cages.push(Value::Object(cage));
    }
    picture.insert("lines".into(), Value::Array(lines));
    picture.insert("overlays".into(), Value::Array(overlays));
    picture.insert("cages".into(), Value::Array(cages));
    picture
}

/// The array under `key`, taken out of `json` (empty when none).
fn remove_list(json: &mut Map<String, Value>, key: &str) -> Vec<Value> {
    match json.remove(key) {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    }
}

/// SudokuPad's short keys, and the names they stand for.
const SHORT_KEYS: [(&str, &str); 27] = [
    ("a", "arrows"),
    ("o", "overlays"),
    ("u", "underlays"),
    ("vd", "videos"),
    ("ce", "cells"),
    ("re", "regions"),
    ("cs", "cellSize"),
    ("ca", "cages"),
    ("l", "lines"),
    ("li", "lines"),
    ("ov", "overlays"),
    ("un", "underlays"),
    ("ar", "arrows"),
    ("v", "value"),
    ("t", "title"),
    ("wp", "wayPoints"),
    ("c", "color"),
    ("th", "thickness"),
    ("hl", "headLength"),
    ("ct", "center"),
    ("w", "width"),
    ("h", "height"),
    ("r", "rounded"),
    ("c1", "borderColor"),
    ("c2", "backgroundColor"),
    ("te", "text"),
    ("fs", "fontSize"),
];

/// `json` with its short keys written out, at every depth.
fn expanded(json: Map<String, Value>) -> Map<String, Value> {
    fn value(v: Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(expanded(m)),
            Value::Array(a) => Value::Array(a.into_iter().map(value).collect()),
            v => v,
        }
    }
    json.into_iter()
        .map(|(k, v)| {
            let k = SHORT_KEYS
                .iter()
                .find(|(short, _)| *short == k)
                .map_or(k, |(_, long)| long.to_string());
            (k, value(v))
        })
        .collect()
}

/// Top-level elements read here or without meaning for the solve.
const READ: [&str; 6] = ["id", "cells", "regions", "metadata", "cellSize", "videos"];

/// Top-level elements of the drawing, read by [`drawing`].
const DRAWN: [&str; 5] = ["cages", "lines", "arrows", "overlays", "underlays"];

/// Metadata without meaning for the solve.
const METADATA: [&str; 7] = [
    "title",
    "author",
    "rules",
    "source",
    "msgcorrect",
    "solution",
    "antiknight",
];

/// `json` with the metadata older links put in cages (a cage without
/// cells whose value is `title: …`, `rules: …`, `solution: …`) moved into
/// `metadata`.
fn metadata_cages(mut json: Map<String, Value>) -> Map<String, Value> {
    let Some(Value::Array(cages)) = json.remove("cages") else {
        return json;
    };
    let mut kept = Vec::new();
    let mut found = Map::new();
    for cage in cages {
        let cells = cage.get("cells").and_then(Value::as_array);
        let text = cage.get("value").and_then(Value::as_str);
        match (
            cells.is_none_or(Vec::is_empty),
            text.and_then(|t| t.split_once(':')),
        ) {
            (true, Some((key, value))) if METADATA.contains(&key.trim()) => {
                found.insert(key.trim().to_string(), Value::from(value.trim()));
            }
            _ => kept.push(cage),
        }
    }
    if !kept.is_empty() {
        json.insert("cages".into(), Value::Array(kept));
    }
    if !found.is_empty() {
        let metadata = json
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = metadata {
            for (k, v) in found {
                m.entry(k).or_insert(v);
            }
        }
    }
    json
}

/// The regions a grid without `regions` gives as cages: `n` hidden cages
/// of `n` cells each whose digits are unique, every cell in one (as the
/// cells' `[row, column]` lists `regions` takes), with the other cages;
/// `None` when the cages are not such a partition.
fn regions_in_cages(json: &Map<String, Value>, n: usize) -> Option<(Vec<Value>, Vec<Value>)> {
    let cages = json.get("cages")?.as_array()?;
    let is_region = |cage: &Value| {
        let flag = |key: &str| cage.get(key).and_then(Value::as_bool) == Some(true);
        flag("hidden") && flag("unique")
    };
    let (regions, left): (Vec<Value>, Vec<Value>) = cages.iter().cloned().partition(is_region);
    let mut seen = vec![false; n * n];
    if regions.len() != n {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for cage in &regions {
        let cells = cage.get("cells")?.as_array()?;
        if cells.len() != n {
            return None;
        }
        for cell in cells {
            let at = |i: usize| cell.get(i).and_then(Value::as_u64).map(|x| x as usize);
            let (r, c) = (at(0)?, at(1)?);
            if r >= n || c >= n || std::mem::replace(&mut seen[r * n + c], true) {
                return None;
            }
        }
        out.push(Value::Array(cells.clone()));
    }
    Some((out, left))
}

/// Whether line `l` only traces borders between regions (or the grid's
/// edge): every way point a corner of cells, every segment along a row or
/// column edge with different regions (or the outside) on its two sides.
fn on_region_borders(l: &Value, region_of: &[usize], n: usize) -> bool {
    let Some(points) = l.get("wayPoints").and_then(Value::as_array) else {
        return false;
    };
    let corner = |p: &Value| -> Option<(i64, i64)> {
        let at = |i: usize| {
            let x = p.get(i)?.as_f64()?;
            (x.fract() == 0.0 && (0.0..=n as f64).contains(&x)).then_some(x as i64)
        };
        Some((at(0)?, at(1)?))
    };
    let Some(corners) = points.iter().map(corner).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let region = |r: i64, c: i64| {
        (0..n as i64)
            .contains(&r)
            .then_some(())
            .filter(|_| (0..n as i64).contains(&c))
            .map(|_| region_of[r as usize * n + c as usize])
    };
    corners.len() >= 2
        && corners.windows(2).all(|w| {
            let ((r0, c0), (r1, c1)) = (w[0], w[1]);
            if r0 == r1 {
                // Along the edge above row r0, cell by cell.
                (c0.min(c1)..c0.max(c1)).all(|c| region(r0 - 1, c) != region(r0, c))
            } else if c0 == c1 {
                (r0.min(r1)..r0.max(r1)).all(|r| region(r, c0 - 1) != region(r, c0))
            } else {
                false
            }
        })
}

fn puzzle_of(json: &Map<String, Value>) -> Result<Puzzle, SudokuPadError> {
    let unread = |what: String| Err(SudokuPadError::Unread(what));
    for (key, v) in json {
        let empty = matches!(v, Value::Null | Value::Bool(false))
            || v.as_array().is_some_and(Vec::is_empty)
            || v.as_object().is_some_and(Map::is_empty);
        if !READ.contains(&key.as_str()) && !DRAWN.contains(&key.as_str()) && !empty {
            let count = v.as_array().map_or(1, Vec::len);
            return unread(format!("`{key}` ({count} drawn) is not read yet"));
        }
    }
    let empty = Map::new();
    let metadata = json
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (key, v) in metadata {
        let meaningful = !matches!(v, Value::Null | Value::Bool(false));
        if meaningful && key != "antiking" && !METADATA.contains(&key.as_str()) {
            return unread(format!("the metadata `{key}` is not read yet"));
        }
    }
    let rows = json
        .get("cells")
        .and_then(Value::as_array)
        .ok_or_else(|| SudokuPadError::Unread("no `cells`".into()))?;
    let n = rows.len();
    if n == 0 || n > super::rules::MAX_SIDE {
        return unread(format!("a grid of {n} rows"));
    }
    let mut givens = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row = row.as_array().filter(|c| c.len() == n).ok_or_else(|| {
            SudokuPadError::Unread(format!(
                "row {} is not {n} cells (only square grids are read)",
                r + 1
            ))
        })?;
        for (c, cell) in row.iter().enumerate() {
            // Anything else a cell carries (pencil marks given, a colour)
            // may be a rule: refused by name, never passed over.
            let other = cell.as_object().into_iter().flatten().find(|(k, v)| {
                k.as_str() != "value"
                    && !matches!(v, Value::Null | Value::Bool(false))
                    && !v.as_array().is_some_and(Vec::is_empty)
                    && !v.as_str().is_some_and(str::is_empty)
            });
            if let Some((key, v)) = other {
                return unread(format!(
                    "R{}C{}: the cell's `{key}` ({v}) is not read yet",
                    r + 1,
                    c + 1
                ));
            }
            let digit = match cell.get("value") {
                None | Some(Value::Null) => 0,
                Some(v) => v
                    .as_u64()
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                    .filter(|&d| d >= 1 && d as usize <= n)
                    .ok_or_else(|| {
                        SudokuPadError::Unread(format!(
                            "R{}C{}: the given {v} is no digit 1 to {n}",
                            r + 1,
                            c + 1
                        ))
                    })? as u8,
            };
            givens.push(digit);
        }
    }
    // The regions: `regions`, or, where it is empty, n hidden cages of n
    // cells whose digits are unique (as some tools export a jigsaw), which
    // are then no cages, and the lines along their borders no rule.
    let from_cages = regions_in_cages(json, n);
    let mut json = std::borrow::Cow::Borrowed(json);
    let regions = match json.get("regions").and_then(Value::as_array) {
        Some(r) if !r.is_empty() => r.clone(),
        _ => {
            let (regions, left) = from_cages.ok_or_else(|| {
                SudokuPadError::Unread(
                    "a grid without regions (or with regions drawn otherwise)".into(),
                )
            })?;
            json.to_mut().insert("cages".into(), Value::Array(left));
            regions
        }
    };
    let regions = &regions;
    let mut region_of = vec![usize::MAX; n * n];
    for (g, region) in regions.iter().enumerate() {
        for cell in region.as_array().into_iter().flatten() {
            let at = |i: usize| cell.get(i).and_then(Value::as_u64).map(|x| x as usize);
            match (at(0), at(1)) {
                (Some(r), Some(c)) if r < n && c < n && region_of[r * n + c] == usize::MAX => {
                    region_of[r * n + c] = g;
                }
                _ => {
                    return unread(format!(
                        "region {}: the cell {cell} is not a cell of the grid once",
                        g + 1
                    ))
                }
            }
        }
    }
    let mut rules = Rules::jigsaw(&region_of)
        .map_err(|e| SudokuPadError::Unread(format!("the regions: {e}")))?;
    let text = metadata.get("rules").and_then(Value::as_str).unwrap_or("");
    if let Some(Value::Array(lines)) = json.get("lines") {
        let kept: Vec<Value> = lines
            .iter()
            .filter(|l| !on_region_borders(l, &region_of, n))
            .cloned()
            .collect();
        if kept.len() < lines.len() {
            json.to_mut().insert("lines".into(), Value::Array(kept));
        }
    }
    let json: &Map<String, Value> = &json;
    let mut drawn = drawing::read(json, n, text).map_err(SudokuPadError::Unread)?;
    for key in ["antiknight", "antiking"] {
        if metadata
            .get(key)
            .is_some_and(|v| !matches!(v, Value::Null | Value::Bool(false)))
        {
            drawn.insert(key.into(), Value::Bool(true));
        }
    }
    // The regions, as f-puzzles gives them, for the lines that sum by
    // region.
    let grid = (0..n)
        .map(|r| {
            let row = (0..n).map(|c| {
                let mut cell = Map::new();
                cell.insert("region".into(), Value::from(region_of[r * n + c]));
                Value::Object(cell)
            });
            Value::Array(row.collect())
        })
        .collect();
    drawn.insert("grid".into(), Value::Array(grid));
    let h = super::fpuzzles::default_box_rows(n);
    let g = Geometry {
        side: n,
        box_rows: h,
        box_cols: n / h,
    };
    let refused = |e: super::rules::RulesError| SudokuPadError::Unread(e.to_string());
    for kind in constraints::KINDS {
        let read = (kind.read_fpuzzles)(&drawn, &g).map_err(SudokuPadError::Unread)?;
        for c in read {
            rules = rules.with_shared(c).map_err(refused)?;
        }
    }
    let puzzle = Puzzle::new(rules, givens).map_err(|e| SudokuPadError::Unread(e.to_string()))?;
    let solution = metadata.get("solution").and_then(Value::as_str).map(|s| {
        s.chars()
            .map(|c| {
                c.to_digit(36)
                    .filter(|&d| d >= 1 && d as usize <= n)
                    .map(|d| d as u8)
            })
            .collect::<Option<Vec<u8>>>()
    });
    match solution {
        Some(Some(digits)) if digits.len() == n * n => {
            if let Err(broken) = super::rules::check(puzzle.rules(), puzzle.givens(), &digits) {
                return unread(format!(
                    "the solution the link carries breaks its rules as read ({broken}: a rule \
                     told in the rules text is misread or not read yet)"
                ));
            }
            puzzle
                .expecting(digits)
                .ok_or_else(|| SudokuPadError::Unread("the solution does not fit".into()))
        }
        _ => {
            // No solution to check the reading against: only a puzzle whose
            // rules text says normal Sudoku rules, and no more, is read.
            let plain = text.to_ascii_lowercase();
            if plain.contains("normal") && plain.contains("rules apply") && text.len() <= 60 {
                Ok(puzzle)
            } else {
                unread("rules told in words, and no solution to check a reading against".into())
            }
        }
    }
}

/// A reader of SudokuPad's compact JSON: keys without quotes, strings in
/// single or double quotes, blank array entries (an empty cell), into
/// serde's values. `None` on anything else.
struct Relaxed<'t> {
    text: &'t [u8],
    at: usize,
    depth: usize,
}

impl<'t> Relaxed<'t> {
    fn new(text: &'t str) -> Relaxed<'t> {
        Relaxed {
            text: text.as_bytes(),
            at: 0,
            depth: 0,
        }
    }

    fn document(mut self) -> Option<Value> {
        let v = self.value()?;
        self.blank();
        (self.at == self.text.len()).then_some(v)
    }

    fn blank(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.blank();
        self.text.get(self.at).copied()
    }

    fn value(&mut self) -> Option<Value> {
        // Deep nesting is no puzzle: refused rather than overflowing.
        if self.depth > 64 {
            return None;
        }
        match self.peek()? {
            b'{' => {
                self.depth += 1;
                let v = self.object();
                self.depth -= 1;
                v
            }
            b'[' => {
                self.depth += 1;
                let v = self.array();
                self.depth -= 1;
                v
            }
            b'\'' | b'"' => self.string().map(Value::String),
            _ => self.word(),
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            match self.peek()? {
                b'}' => {
                    self.at += 1;
                    return Some(Value::Object(map));
                }
                b',' => self.at += 1,
                b'\'' | b'"' => {
                    let key = self.string()?;
                    map.insert(key, self.after_colon()?);
                }
                _ => {
                    let start = self.at;
                    while self
                        .text
                        .get(self.at)
                        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
                    {
                        self.at += 1;
                    }
                    if start == self.at {
                        return None;
                    }
                    let key = std::str::from_utf8(&self.text[start..self.at])
                        .ok()?
                        .to_string();
                    map.insert(key, self.after_colon()?);
                }
            }
        }
    }

    fn after_colon(&mut self) -> Option<Value> {
        (self.peek()? == b':').then_some(())?;
        self.at += 1;
        self.value()
    }

    /// Entries split by commas, a blank one null: `[,,x]` is three.
    fn array(&mut self) -> Option<Value> {
        self.at += 1;
        let mut items = Vec::new();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Value::Array(items));
        }
        loop {
            match self.peek()? {
                b',' => {
                    self.at += 1;
                    items.push(Value::Null);
                }
                b']' => {
                    self.at += 1;
                    items.push(Value::Null);
                    return Some(Value::Array(items));
                }
                _ => {
                    items.push(self.value()?);
                    match self.peek()? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(Value::Array(items));
                        }
                        _ => return None,
                    }
                    // After a comma, a closing bracket ends a blank entry.
                    if self.peek()? == b']' {
                        self.at += 1;
                        items.push(Value::Null);
                        return Some(Value::Array(items));
                    }
                }
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let quote = self.text[self.at];
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let b = *self.text.get(self.at)?;
            self.at += 1;
            match b {
                b'\\' => {
                    let e = *self.text.get(self.at)?;
                    self.at += 1;
                    bytes.push(match e {
                        b'n' => b'\n',
                        b't' => b'\t',
                        other => other,
                    });
                }
                b if b == quote => return String::from_utf8(bytes).ok(),
                b => bytes.push(b),
            }
        }
    }

    /// A number; `true` or `t`, `false` or `f`, `null` or `undefined`;
    /// else an unquoted string (a colour, `34BBE6`).
    fn word(&mut self) -> Option<Value> {
        let start = self.at;
        while self.text.get(self.at).is_some_and(|&b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'#' | b'_')
        }) {
            self.at += 1;
        }
        let word = std::str::from_utf8(&self.text[start..self.at]).ok()?;
        match word {
            "" => None,
            "true" | "t" => Some(Value::Bool(true)),
            "false" | "f" => Some(Value::Bool(false)),
            "null" | "undefined" => Some(Value::Null),
            _ => {
                // A whole number (`5`, `5.0`) as an integer, as JSON reads it.
                match word.parse::<f64>() {
                    Ok(n) if n.fract() == 0.0 && n.abs() < 1e15 => Some(Value::from(n as i64)),
                    Ok(n) => serde_json::Number::from_f64(n).map(Value::Number),
                    Err(_) => Some(Value::String(word.to_string())),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fpuzzles_payload_of(link: &str) -> Option<String> {
        match payload(link) {
            Ok(Payload::Fpuzzles(p)) => Some(p),
            _ => None,
        }
    }

    #[test]
    fn ids_are_told_apart_by_their_prefix_wherever_the_link_puts_them() {
        let packed = "N4IgzglgXgpiBcBOANCALhNAbO8QGkIscAnAAgGUBXAEwHsBrKgOlZFQEMq0ALOkhCAocAnvwjsQJKjjAw0ggHL8AthyxkwtRlTLTZZDgAcjWEczIAdAHY2AIhADmmMGQjXDZAMYdHMbxzW1nRoejBGMBxoyIbWNGQqVGChWipkaHTpPP7WVCoARjDk7ln%2BGUZkOABmoV781kVkdFWlAX5kABTBaGU8UVYgADyWIAmR1q6yrryBMYHxIwB8I2OBro4kkT3kM9YAlBYAg";
        let decoded = packed.replace("%2B", "+");
        for link in [
            format!("https://sudokupad.app/fpuz{packed}"),
            format!("https://sudokupad.app/fpuzzles{packed}"),
            format!("https://sudokupad.app/?puzzleid=fpuzzles{packed}"),
            format!(
                "https://sudokupad.app/?puzzleid=fpuz{}",
                packed.replace('+', "%2B")
            ),
            format!("https://cracking-the-cryptic.web.app/sudoku/?puzzleid=fpuzzles{packed}#x"),
        ] {
            assert_eq!(fpuzzles_payload_of(&link), Some(decoded.clone()), "{link}");
        }
        let own = "https://sudokupad.app/sclN4SwJgXA5AdgFgawEwGYCMa5qgGgLYCmAL";
        assert_eq!(
            payload(own),
            Ok(Payload::Own("N4SwJgXA5AdgFgawEwGYCMa5qgGgLYCmAL".into()))
        );
        for (link, id) in [
            ("https://sudokupad.app/wsj7iunsg6", "wsj7iunsg6"),
            (
                "https://sudokupad.app/sudoku/DGT6HQ46FN",
                "sudoku/DGT6HQ46FN",
            ),
            (
                "https://sudokupad.app/clover/nov-16-2023-numbered-rooms",
                "clover/nov-16-2023-numbered-rooms",
            ),
            ("https://sudokupad.app/scl", "scl"),
        ] {
            assert_eq!(payload(link), Err(SudokuPadError::ShortId(id.into())));
            assert!(payload(link)
                .unwrap_err()
                .to_string()
                .contains("copy the long link"));
        }
        assert_eq!(payload("https://sudokupad.app/"), Err(SudokuPadError::NoId));
        assert!(!is_link("https://f-puzzles.com/?load=N4Ig"));
        assert!(!is_link("https://example.com/sudokupad.app/fpuzN4Ig"));
        assert!(is_link("HTTPS://SudokuPad.app/abc"));
    }

    /// A 4×4 in SudokuPad's compact form, its givens R1C1 = 1 and
    /// R4C4 = 1 (blank cells left out), boxes of 2×2, and `extra` inside.
    fn compact(extra: &str) -> String {
        let box_ = |r: usize, c: usize| {
            let cells: Vec<String> = [(0, 0), (0, 1), (1, 0), (1, 1)]
                .iter()
                .map(|(dr, dc)| format!("[{},{}]", r + dr, c + dc))
                .collect();
            format!("[{}]", cells.join(","))
        };
        let regions = [box_(0, 0), box_(0, 2), box_(2, 0), box_(2, 2)].join(",");
        format!("{{id:'x',cs:50,ce:[[{{v:1}},,,],[,,,],[,,,],[,,,{{v:1}}]],re:[{regions}]{extra}}}")
    }

    fn link(text: &str) -> String {
        format!(
            "https://sudokupad.app/scl{}",
            super::super::lzstring::compress_to_base64(text)
        )
    }

    const SOLUTION: &str = "1234341221434321";

    fn read_link(text: &str) -> Result<Puzzle, SudokuPadError> {
        match payload(&link(text))? {
            Payload::Own(packed) => read_own(&packed),
            Payload::Fpuzzles(_) => Err(SudokuPadError::NoId),
        }
    }

    #[test]
    fn compact_json_reads_blank_entries_and_bare_words() {
        let v = Relaxed::new("{a:[,,{v:3},,],b:'x\\'y',c:34BBE6,d:t,e:-1.5,f:[]}")
            .document()
            .unwrap();
        assert_eq!(v["a"].as_array().unwrap().len(), 5);
        assert_eq!(v["a"][2]["v"], 3);
        assert_eq!(
            (v["b"].as_str(), v["c"].as_str()),
            (Some("x'y"), Some("34BBE6"))
        );
        assert_eq!(
            (v["d"].as_bool(), v["e"].as_f64()),
            (Some(true), Some(-1.5))
        );
        assert_eq!(v["f"].as_array().map(Vec::len), Some(0));
        for bad in ["{a:[1,,", "{a 1}", "{a:'x}", "[1] 2"] {
            assert_eq!(Relaxed::new(bad).document(), None, "{bad}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(Relaxed::new(&deep).document(), None);
    }

    #[test]
    fn own_links_read_givens_regions_and_the_solution_they_carry() {
        let with_solution = compact(&format!(
            ",metadata:{{rules:'Find the 4x4.',solution:'{SOLUTION}'}}"
        ));
        let puzzle = read_link(&with_solution).unwrap();
        let solution: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        assert_eq!(puzzle.expected(), Some(&solution[..]));
        let mut givens = [0u8; 16];
        (givens[0], givens[15]) = (1, 1);
        assert_eq!(puzzle.givens(), &givens[..]);
        assert_eq!(puzzle.rules(), &Rules::boxes(2, 2).unwrap());
        // The older form: metadata in cages without cells; plain JSON too.
        let in_cages = compact(&format!(
            ",cages:[{{v:'title: T'}},{{v:'solution: {SOLUTION}'}}]"
        ));
        assert_eq!(read_link(&in_cages).unwrap(), puzzle);
        let plain = r#"{"cells":[[{"value":1},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{"value":1}]],"regions":[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],"metadata":{"solution":"1234341221434321"}}"#;
        assert_eq!(read_link(plain).unwrap(), puzzle);
        // Normal rules said in words, no solution: read as they say.
        let normal = compact(",metadata:{rules:'Normal sudoku rules apply.'}");
        assert_eq!(read_link(&normal).unwrap().expected(), None);
        // Anti-knight from the metadata flag.
        let knight = compact(&format!(",metadata:{{antiknight:t,solution:'{SOLUTION}'}}"));
        assert!(
            read_link(&knight).is_err(),
            "this solution has knights' moves apart equal"
        );
    }

    #[test]
    fn what_an_own_link_draws_beyond_that_is_refused_by_name() {
        let solved = format!(",metadata:{{solution:'{SOLUTION}'}}");
        for (extra, want) in [
            (
                ",l:[{wp:[[0.5,0.5],[1.5,1.5]],c:34BBE6,th:10}]",
                "`lines` 1 (from (0.5, 0.5) to (1.5, 1.5)): a #34bbe6 line whose rule is not read",
            ),
            (
                ",ca:[{ce:[[0,0],[0,1]],v:3}]",
                "`cages` 1: a cage, and the rules text says nothing of cages",
            ),
            (
                ",ov:[{ct:[1,1],w:0.3,h:0.3,c2:'#F00',r:t}]",
                "`overlays` 1 at (1, 1): a mark whose rule is not read",
            ),
            (",metadata:{bgimage:'x.png'}", "the metadata `bgimage`"),
            (
                ",metadata:{rules:'Cells a knight move apart differ.'}",
                "rules told in words",
            ),
            (
                ",metadata:{solution:'1234123412341234'}",
                "breaks its rules as read",
            ),
        ] {
            let text = compact(&format!(
                "{extra}{}",
                if extra.contains("metadata") {
                    ""
                } else {
                    &solved
                }
            ));
            let err = read_link(&text).unwrap_err().to_string();
            assert!(err.contains(want), "{extra}: {err}");
        }
        // A cell carrying more than its value.
        let text = "{ce:[[{v:1,pm:[2,3]},,,],[,,,],[,,,],[,,,]],re:[]}";
        assert!(read_link(text)
            .unwrap_err()
            .to_string()
            .contains("R1C1: the cell's `pm` ([2,3]) is not read yet"));
        // Regions absent, a cell twice, a row too short.
        let text = "{ce:[[{v:1},,,],[,,,],[,,,],[,,,]]}";
        assert!(read_link(text)
            .unwrap_err()
            .to_string()
            .contains("without regions"));
        let text = "{ce:[[,,,],[,,,],[,,,],[,,,]],re:[[[0,0],[0,0]]]}";
        assert!(read_link(text)
            .unwrap_err()
            .to_string()
            .contains("not a cell of the grid once"));
        let text = "{ce:[[,,],[,,,],[,,,],[,,,]],re:[]}";
        assert!(read_link(text)
            .unwrap_err()
            .to_string()
            .contains("row 1 is not 4 cells"));
        assert_eq!(read_own("not lz-string"), Err(SudokuPadError::Undecodable));
    }

    #[test]
    fn an_answer_other_than_the_one_the_link_gives_is_refused_as_misread() {
        use crate::sudoku::{Limits, Settings, SolveError, Sudoku};
        // No givens: many solutions, the first found is one of them.
        let empty = "{ce:[[,,,],[,,,],[,,,],[,,,]],re:[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]]";
        let mut sudoku = Sudoku::new(Settings::default());
        let first = {
            let puzzle = read_link(&format!(
                "{empty},metadata:{{rules:'Normal sudoku rules apply.'}}}}"
            ))
            .unwrap();
            sudoku
                .solve(&puzzle, &Limits::count_to(1))
                .unwrap()
                .solution
                .unwrap()
        };
        let as_text = |g: &[u8]| g.iter().map(|d| char::from(b'0' + d)).collect::<String>();
        // Digits 1 and 2 swapped: another solution of the empty grid.
        let other: Vec<u8> = first
            .iter()
            .map(|&d| match d {
                1 => 2,
                2 => 1,
                d => d,
            })
            .collect();
        for (expected, misread) in [(&first, false), (&other, true)] {
            let text = format!("{empty},metadata:{{solution:'{}'}}}}", as_text(expected));
            let puzzle = read_link(&text).unwrap();
            match sudoku.solve(&puzzle, &Limits::count_to(1)) {
                Err(SolveError::Misread(found)) => assert!(misread && found == first),
                Ok(solved) => assert!(!misread && solved.solution.as_ref() == Some(&first)),
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn fpuzzles_data_in_a_link_is_read_strictly_and_checked_against_its_solution() {
        use crate::sudoku::input::{read, Form};
        let row = |a: &str| format!("[{a},{{}},{{}},{{}}]");
        let given = r#"{"value":1,"given":true}"#;
        let grid = [row(given), row("{}"), row("{}"), row("{}")].join(",");
        let solution: Vec<String> = SOLUTION.chars().map(String::from).collect();
        let fpuz = |extra: &str| {
            let json = format!(r#"{{"size":4,"grid":[{grid}]{extra}}}"#);
            format!(
                "https://sudokupad.app/fpuz{}",
                super::super::lzstring::compress_to_base64(&json)
            )
        };
        let with = format!(
            r#","solution":{}"#,
            serde_json::to_string(&solution).unwrap()
        );
        let pasted = read(&fpuz(&with)).unwrap();
        assert_eq!(pasted.form, Form::Fpuzzles);
        let want: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        assert_eq!(pasted.puzzle.expected(), Some(&want[..]));
        let err = read(&fpuz(r#","line":[{"lines":[["R1C1","R1C2"]]}]"#)).unwrap_err();
        assert!(
            err.to_string().contains(
                "drawn for SudokuPad: `lines` 1 (from (0.5, 0.5) to (0.5, 1.5)): a plain line"
            ),
            "{err}"
        );
        // Drawn elements read by SudokuPad's conventions and the ruleset:
        // a green line of whispers, a cage with its sum; a line that
        // repeats a constraint's cells is passed over.
        let drawn = |extra: &str| read(&fpuz(&format!("{extra}{with}")));
        let kinds = |extra: &str| -> Vec<&'static str> {
            let pasted = drawn(extra).unwrap_or_else(|e| panic!("{extra}: {e}"));
            pasted
                .puzzle
                .rules()
                .constraints()
                .iter()
                .map(|c| c.kind())
                .collect()
        };
        let green = r##","ruleset":"Digits on a green line differ by at least 1.","line":[{"lines":[["R4C1","R4C2"]],"outlineC":"#67F067"}]"##;
        assert_eq!(kinds(green), ["whispers"]);
        let cage = r##","ruleset":"Digits in cages sum to the clue.","cage":[{"cells":["R1C1","R1C2"],"value":"3"}]"##;
        assert_eq!(kinds(cage), ["killer cage"]);
        let wrong = cage.replace(r#""value":"3""#, r#""value":"4""#);
        assert!(drawn(&wrong).is_err());
        let repeated = r##","renban":[{"lines":[["R4C1","R4C2"]]}],"line":[{"lines":[["R4C2","R4C1"]],"outlineC":"#F067F0"}]"##;
        assert_eq!(kinds(repeated), ["renban"]);
        // A rule the text alone tells: R1C1 and R2C3 both hold 1.
        let knight = r#","ruleset":"Digits a knight move apart cannot repeat.""#;
        let err = drawn(knight).unwrap_err();
        assert!(err.to_string().contains("anti-knight"), "{err}");
        let broken = r#","solution":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"#;
        let err = read(&fpuz(broken)).unwrap_err();
        assert!(
            err.to_string().contains("breaks its rules as read"),
            "{err}"
        );
        // As plain f-puzzles JSON too: the solution is checked.
        let err = read(&format!(r#"{{"size":4,"grid":[{grid}]{broken}}}"#)).unwrap_err();
        assert!(
            err.to_string().contains("breaks its rules as read"),
            "{err}"
        );
    }

    /// The words of the variant text form a puzzle's constraints read as.
    fn words(p: &Puzzle) -> Vec<String> {
        let n = p.rules().side();
        p.rules()
            .constraints()
            .iter()
            .flat_map(|c| c.words(n))
            .collect()
    }

    /// The 4×4 of [`compact`] with `drawn` (elements, a leading comma)
    /// and the rules text `rules`, carrying [`SOLUTION`].
    fn drawn(drawn: &str, rules: &str) -> Result<Puzzle, SudokuPadError> {
        read_link(&compact(&format!(
            "{drawn},metadata:{{rules:'{rules}',solution:'{SOLUTION}'}}"
        )))
    }

    // The solution:  1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1.
    const RULES: &str = "Digits in cages sum to the clue and cannot repeat. \
        Digits along a thermometer increase from the bulb. \
        Digits along an arrow sum to the digit in its circle. \
        Clues outside the grid give the sum along the indicated diagonal. \
        A white dot joins consecutive digits, a black dot digits one double the other. \
        Digits separated by a V sum to 5. \
        Digits on a purple line are consecutive. \
        Digits in circles are odd. \
        Digits on a blue line sum to the same total in each box it passes through.";

    /// Each element of SudokuPad's drawing, as it draws it, with a value
    /// the solution keeps and one it breaks.
    const ELEMENTS: [(&str, &str, &str); 9] = [
        (
            "killer cage",
            ",ca:[{ce:[[0,0],[0,1]],v:3}]",
            ",ca:[{ce:[[0,0],[0,1]],v:4}]",
        ),
        (
            "thermometer",
            ",l:[{wp:[[2.5,1.5],[1.5,1.5]],c:CFCFCF,th:21}],u:[{ct:[2.5,1.5],w:0.85,h:0.85,c1:CFCFCF,c2:CFCFCF,r:t}]",
            ",l:[{wp:[[2.5,1.5],[1.5,1.5]],c:CFCFCF,th:21}],u:[{ct:[1.5,1.5],w:0.85,h:0.85,c1:CFCFCF,c2:CFCFCF,r:t}]",
        ),
        (
            "arrow",
            ",a:[{wp:[[1.5,1.9],[1.5,2.5],[0.5,2.5]],c:aaa,th:3,hl:0.3}],o:[{ct:[1.5,1.5],w:0.82,h:0.82,c1:aaa,c2:'#F',r:t}]",
            ",a:[{wp:[[1.5,1.9],[1.5,2.5],[0.5,2.5],[0.5,3.5]],c:aaa,th:3,hl:0.3}],o:[{ct:[1.5,1.5],w:0.82,h:0.82,c1:aaa,c2:'#F',r:t}]",
        ),
        (
            "little killer",
            ",a:[{wp:[[-0.3,-0.3],[-0.1,-0.1]],c:'#0',th:3,hl:0.2}],o:[{ct:[-0.5,-0.5],w:1,h:1,te:'10'}]",
            ",a:[{wp:[[-0.3,-0.3],[-0.1,-0.1]],c:'#0',th:3,hl:0.2}],o:[{ct:[-0.5,-0.5],w:1,h:1,te:'9'}]",
        ),
        (
            "kropki",
            ",o:[{ct:[0.5,1],w:0.3,h:0.3,c1:'#0',c2:'#F',r:t},{ct:[1,1.5],w:0.3,h:0.3,c2:'#0',r:t}]",
            ",o:[{ct:[1,0.5],w:0.3,h:0.3,c2:'#0',r:t}]",
        ),
        (
            "xv",
            ",o:[{ct:[0.5,2],w:0.35,h:0.35,te:'V',c2:'#F',r:t}]",
            ",o:[{ct:[0.5,1],w:0.35,h:0.35,te:'V',c2:'#F',r:t}]",
        ),
        (
            "renban",
            ",l:[{wp:[[3.5,0.5],[3.5,1.5]],c:f067f0,th:10}]",
            ",l:[{wp:[[3.5,0.5],[2.5,0.5]],c:f067f0,th:10}]",
        ),
        (
            "odd",
            ",u:[{ct:[3.5,3.5],w:0.8,h:0.8,c2:'#ccc',r:t}]",
            ",u:[{ct:[3.5,2.5],w:0.8,h:0.8,c2:'#ccc',r:t}]",
        ),
        (
            "region sum line",
            ",l:[{wp:[[1.5,1.5],[0.5,2.5],[1.5,2.5]],c:2ecbff,th:10}]",
            ",l:[{wp:[[1.5,1.5],[0.5,2.5]],c:2ecbff,th:10}]",
        ),
    ];

    #[test]
    fn each_drawn_element_reads_as_the_rule_its_convention_and_the_text_give() {
        for (kind, kept, broken) in ELEMENTS {
            let puzzle = drawn(kept, RULES).unwrap_or_else(|e| panic!("{kind}: {e}"));
            let kinds: Vec<&str> = puzzle
                .rules()
                .constraints()
                .iter()
                .map(|c| c.kind())
                .collect();
            assert_eq!(kinds.len(), if kind == "kropki" { 2 } else { 1 }, "{kind}");
            let err = drawn(broken, RULES).unwrap_err().to_string();
            assert!(err.contains("breaks its rules as read"), "{kind}: {err}");
        }
        // All at once, as one drawing (the shapes' lists joined).
        let all = ",ca:[{ce:[[0,0],[0,1]],v:3}],l:[{wp:[[2.5,1.5],[1.5,1.5]],c:CFCFCF,th:21},\
            {wp:[[3.5,0.5],[3.5,1.5]],c:f067f0,th:10}],a:[{wp:[[1.5,1.9],[1.5,2.5],[0.5,2.5]],c:aaa,th:3},\
            {wp:[[-0.3,-0.3],[-0.1,-0.1]],c:'#0',th:3}],u:[{ct:[2.5,1.5],w:0.85,h:0.85,c2:CFCFCF,r:t},\
            {ct:[3.5,3.5],w:0.8,h:0.8,c2:'#ccc',r:t}],o:[{ct:[1.5,1.5],w:0.82,h:0.82,c1:aaa,c2:'#F',r:t},\
            {ct:[-0.5,-0.5],w:1,h:1,te:'10'},{ct:[0.5,1],w:0.3,h:0.3,c1:'#0',c2:'#F',r:t},\
            {ct:[1,1.5],w:0.3,h:0.3,c2:'#0',r:t},{ct:[0.5,2],w:0.35,h:0.35,te:'V',c2:'#F',r:t}]";
        let puzzle = drawn(all, RULES).unwrap();
        assert_eq!(puzzle.rules().constraints().len(), 9);
        // A thermometer's bulb may be at either end; an arrow may be a line
        // from its circle, its head drawn as short strokes.
        let reversed = ",l:[{wp:[[1.5,1.5],[2.5,1.5]],c:CFCFCF,th:21}],u:[{ct:[2.5,1.5],w:0.85,h:0.85,c2:CFCFCF,r:t}]";
        assert_eq!(
            drawn(reversed, RULES).unwrap(),
            drawn(ELEMENTS[1].1, RULES).unwrap()
        );
        let line_arrow = ",l:[{wp:[[1.5,1.5],[1.5,2.5],[0.5,2.5]],c:aaa,th:3},\
            {wp:[[0.8,2.3],[0.5,2.5],[0.8,2.7]],c:aaa,th:3}],o:[{ct:[1.5,1.5],w:0.82,h:0.82,c1:aaa,c2:'#F',r:t}]";
        assert_eq!(
            drawn(line_arrow, RULES).unwrap(),
            drawn(ELEMENTS[2].1, RULES).unwrap()
        );
        // Negative dots when the text says all are given: R2C1-R3C1 (3, 2)
        // are consecutive without a dot.
        let dots = ELEMENTS[4].1;
        drawn(
            dots,
            "A white dot joins consecutive digits. Not all dots are given.",
        )
        .unwrap();
        let err = drawn(
            dots,
            "A white dot joins consecutive digits. All dots are given.",
        )
        .unwrap_err();
        assert!(err.to_string().contains("negative"), "{err}");
        // Anti-knight from the text: R1C1 and R2C3 both hold 1.
        let err = drawn("", "Cells a knight move apart cannot hold the same digit.").unwrap_err();
        assert!(err.to_string().contains("anti-knight"), "{err}");
        // Counting circles: R1C1 holds 1, R1C2 and R2C4 hold 2.
        let circles = |cells: &[(f64, f64)]| {
            let shapes: Vec<String> = cells
                .iter()
                .map(|(r, c)| format!("{{ct:[{r},{c}],w:0.8,h:0.8,c1:'#0',c2:'#F',r:t}}"))
                .collect();
            format!(",u:[{}]", shapes.join(","))
        };
        let counting = "A digit in a circle says how many circles hold it.";
        let kept = drawn(&circles(&[(0.5, 0.5), (0.5, 1.5), (1.5, 3.5)]), counting).unwrap();
        assert_eq!(kept.rules().constraints()[0].kind(), "counting circles");
        let err = drawn(&circles(&[(0.5, 0.5), (0.5, 1.5)]), counting).unwrap_err();
        assert!(err.to_string().contains("counting circles"), "{err}");
        // Whispers take their gap from the text: 4 and 3 differ by 1.
        let whisper = ",l:[{wp:[[3.5,0.5],[3.5,1.5]],c:67f067,th:10}]";
        drawn(
            whisper,
            "Adjacent digits on a green line differ by at least 1.",
        )
        .unwrap();
        let err = drawn(
            whisper,
            "Adjacent digits on a green line differ by at least 2.",
        )
        .unwrap_err();
        assert!(err.to_string().contains("whispers"), "{err}");
    }

    #[test]
    fn lines_drawn_in_pieces_loops_and_the_later_kinds_read_as_one_rule_each() {
        // A renban in two strokes of one colour that meet is one renban:
        // R4C1, R4C2, R4C3 hold 4, 3, 2.
        let pieces = ",l:[{wp:[[3.5,0.5],[3.5,1.5]],c:f067f0,th:10},{wp:[[3.5,1.5],[3.5,2.5]],c:f067f0,th:10}]";
        let one = drawn(pieces, "Digits on a purple line are consecutive.").unwrap();
        assert_eq!(words(&one), ["renban=R4C1,R4C2,R4C3"]);
        // A loop cut into segments by the boxes: its first and last runs
        // (R2C2, R1C2: 4 + 2) are one segment, against R1C3 and R2C3 (3 + 1).
        let lap = ",l:[{wp:[[0.5,1.5],[0.5,2.5],[1.5,2.5],[1.5,1.5],[0.5,1.5]],c:2ecbff,th:10}]";
        let err = drawn(
            lap,
            "Box borders divide blue lines into segments. Digits on each segment of the same line sum to the same value.",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("add up to [4, 6]"), "{err}");
        // "All such pairs are given" after a sentence naming V alone: only
        // unmarked pairs adding up to 5 are refused (R1C2 and R1C3 do).
        let v = ",o:[{ct:[0.5,2],w:0.35,h:0.35,te:'V',c2:'#F',r:t}]";
        let err = drawn(
            v,
            "Digits joined by a V sum to 5. All such pairs are given.",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("negative v:"), "{err}");
        // A differences count line of a colour no sentence names, the
        // text speaking of "a coloured line": R1C1, R1C2 (1, 2) differ by
        // 1 once; R1C1, R2C1 (1, 3) differ by 2 once only.
        let counted = "The difference between two adjacent digits on a coloured line indicates \
            exactly how many pairs of adjacent digits along that line have that exact difference.";
        let kept = drawn(",l:[{wp:[[0.5,0.5],[0.5,1.5]],c:b7f68c,th:10}]", counted).unwrap();
        assert_eq!(words(&kept), ["diffcount=R1C1,R1C2"]);
        let err = drawn(",l:[{wp:[[0.5,0.5],[1.5,0.5]],c:b7f68c,th:10}]", counted)
            .unwrap_err()
            .to_string();
        assert!(err.contains("differences count line"), "{err}");
        // Fibonacci lines: 1, 2, 3 along row 1 (read from either end);
        // 2, 3, 4 is none.
        let fibonacci = "Fibonacci lines: blue lines strictly increase from one end to the other, \
            each digit past the lowest two the sum of the two before it.";
        let kept = drawn(",l:[{wp:[[0.5,2.5],[0.5,0.5]],c:2ecbff,th:10}]", fibonacci).unwrap();
        assert_eq!(words(&kept), ["fibonacci=R1C3,R1C2,R1C1"]);
        let err = drawn(",l:[{wp:[[0.5,1.5],[0.5,3.5]],c:2ecbff,th:10}]", fibonacci)
            .unwrap_err()
            .to_string();
        assert!(err.contains("fibonacci line"), "{err}");
        // An index line counts from its diamond's end: from R1C2 it reads
        // 2, 1 (2 in place 1 puts 1 in place 2: kept); from R2C1 it reads
        // 3, 1 (3 is no place on two cells).
        let index = "Each turquoise line is an index line: the digit in the Nth cell along it \
            (starting from the diamond) is the position along the line of the digit N.";
        let line = |from: &str, to: &str, diamond: &str| {
            format!(
                ",l:[{{wp:[[{from}],[{to}]],c:71ded2,th:10}}],u:[{{ct:[{diamond}],w:0.42,h:0.42,c1:71ded2,c2:71ded2}}]"
            )
        };
        let kept = drawn(&line("0.5,0.5", "0.5,1.5", "0.5,1.5"), index).unwrap();
        assert_eq!(words(&kept), ["index=R1C2,R1C1"]);
        let err = drawn(&line("0.5,0.5", "1.5,0.5", "1.5,0.5"), index)
            .unwrap_err()
            .to_string();
        assert!(err.contains("index line"), "{err}");
        let err = drawn(",l:[{wp:[[0.5,0.5],[0.5,1.5]],c:71ded2,th:10}]", index)
            .unwrap_err()
            .to_string();
        assert!(err.contains("without a mark"), "{err}");
        // A sun (☀) counts the smaller digits around it: R1C2 holds 2, and
        // R1C1 and R2C3 hold 1 (kept); R2C2 holds 4 with seven smaller
        // around it, R1C1 holds 1 with none.
        let sun = "Sunburn: a digit on a sun is how many surrounding cells hold smaller digits.";
        let at =
            |r: f64, c: f64| format!(",u:[{{ct:[{r},{c}],w:0,h:1.05,te:'\u{2600}\u{fe0f}',r:t}}]");
        let kept = drawn(&at(0.5, 1.5), sun).unwrap();
        assert_eq!(words(&kept), ["sun=R1C2"]);
        let err = drawn(&at(1.5, 1.5), sun).unwrap_err().to_string();
        assert!(err.contains("sunburn R2C2"), "{err}");
        let err = drawn(&at(0.5, 0.5), sun).unwrap_err().to_string();
        assert!(err.contains("sunburn R1C1: holds 1, and 0"), "{err}");
        // Strings of one parity, from the text: rows alternate 1 2 3 4, so
        // no two cells side by side in a row share a parity; in columns
        // R1C1, R2C1 hold 1 and 3.
        let err = drawn(
            "",
            "In every row and column, strings of 2 digits are never all even nor all odd.",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("parity strings of 2: R1C1 to R2C1 are all odd"),
            "{err}"
        );
        let kept = drawn(
            "",
            "In every row and column, strings of 3 digits are never all even nor all odd.",
        )
        .unwrap();
        assert_eq!(words(&kept), ["paritystrings=3"]);
        // Diagonals marked by arrows without numbers, one product: the
        // long diagonals multiply to 16 (1·4·4·1, 4·1·1·4); R1C2, R2C3,
        // R3C4 to 6.
        let product = "Every indicated diagonal has the same product.";
        let arrows = |extra: &str| {
            format!(
                ",a:[{{wp:[[-0.3,-0.3],[-0.1,-0.1]],c:'#0',th:3}},{{wp:[[-0.3,4.3],[-0.1,4.1]],c:'#0',th:3}}{extra}]"
            )
        };
        let kept = drawn(&arrows(""), product).unwrap();
        assert_eq!(
            words(&kept),
            ["products=R1C1,R2C2,R3C3,R4C4:R1C4,R2C3,R3C2,R4C1"]
        );
        let err = drawn(
            &arrows(",{wp:[[-0.3,0.7],[-0.1,0.9]],c:'#0',th:3}"),
            product,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("multiply to [16, 16, 6]"), "{err}");
        // Coloured marks whose sentence gives their sums: a green dot
        // either X or V, R3C2 and R3C3 (1 + 4 = 5); a blue square of 5
        // with every one given breaks where R1C2 and R1C3 (2 + 3) have
        // none.
        let mark =
            |colour: &str| format!(",o:[{{ct:[2.5,2],w:0.3,h:0.3,c1:'#0',c2:{colour},r:t}}]");
        let kept = drawn(&mark("38de00"), "The green dots are either X or V.").unwrap();
        assert_eq!(words(&kept), ["summark=5/10:R3C2,R3C3"]);
        let err = drawn(
            &mark("00e1ff"),
            "Cells joined by a blue square sum to 5. All blue squares are given.",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("negative sum 5: R1C2 and R1C3"), "{err}");
    }

    #[test]
    fn regions_given_as_hidden_cages_with_their_borders_drawn() {
        // No `regions`: four hidden cages of unique digits (the boxes), the
        // lines along their borders, every cell tinted white.
        let cage = |r: usize, c: usize| {
            format!(
                r#"{{"cells":[[{r},{c}],[{r},{}],[{},{c}],[{},{}]],"unique":true,"hidden":true}}"#,
                c + 1,
                r + 1,
                r + 1,
                c + 1
            )
        };
        let cages = [cage(0, 0), cage(0, 2), cage(2, 0), cage(2, 2)].join(",");
        let doc = |lines: &str| {
            format!(
                r##"{{"cells":[[{{"value":1}},{{}},{{}},{{}}],[{{}},{{}},{{}},{{}}],[{{}},{{}},{{}},{{}}],[{{}},{{}},{{}},{{"value":1}}]],"regions":[],"cages":[{cages}],"lines":[{lines}],"underlays":[{{"center":[0.5,0.5],"width":0.8,"height":0.8,"backgroundColor":"#fff3"}}],"metadata":{{"rules":"Normal sudoku rules apply.","solution":"{SOLUTION}"}}}}"##
            )
        };
        let borders = r##"{"wayPoints":[[0,2],[4,2]],"color":"#000000","thickness":3},{"wayPoints":[[2,0],[2,4]],"color":"#000000","thickness":3}"##;
        let p = read_link(&doc(borders)).unwrap();
        assert_eq!(p.rules().regions(), Rules::boxes(2, 2).unwrap().regions());
        assert!(p.rules().constraints().is_empty());
        // A line inside a region is no border: refused, not passed over.
        let inside = r##"{"wayPoints":[[0,1],[2,1]],"color":"#000000","thickness":3}"##;
        assert!(read_link(&doc(inside)).is_err());
        // Three hidden cages are no regions.
        let three = doc(borders).replacen(r#","hidden":true"#, "", 1);
        assert!(read_link(&three)
            .unwrap_err()
            .to_string()
            .contains("without regions"));
    }

    #[test]
    fn lines_whose_first_digits_add_up_to_their_last_read_by_the_text() {
        let line = |from: &str, to: &str| format!(",l:[{{wp:[[{from}],[{to}]],c:6bab4c,th:10}}]");
        let rules = "In each line of four cells the sum of the first two digits equals \
            the sum of the last two digits.";
        // The diagonal holds 1, 4, 4, 1 (kept), its ends drawn short of the
        // corner cells' centres, well inside them; row 1 holds 1, 2, 3, 4.
        let kept = drawn(&line("0.75,0.75", "3.25,3.25"), rules).unwrap();
        assert_eq!(words(&kept), ["regionsum=R1C1,R2C2:R3C3,R4C4"]);
        let err = drawn(&line("0.5,0.5", "0.5,3.5"), rules)
            .unwrap_err()
            .to_string();
        assert!(err.contains("region sum line R1C1,R1C2,R1C3,R1C4"), "{err}");
        // An end on an edge between cells is not snapped to either.
        let err = drawn(&line("0.5,0.5", "0.5,3.0"), rules)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a line through cells"), "{err}");
    }

    #[test]
    fn product_cages_read_by_their_mark_or_the_text() {
        // R1C1, R1C2 hold 1 and 2: a product of 2 is kept, 3 broken.
        let cage = |v: &str| format!(",ca:[{{ce:[[0,0],[0,1]],v:'{v}'}}]");
        let products = "Digits in cages multiply to the clue and cannot repeat.";
        let kept = drawn(&cage("2"), products).unwrap();
        assert_eq!(words(&kept), ["productcage=2:R1C1,R1C2"]);
        let err = drawn(&cage("3"), products).unwrap_err().to_string();
        assert!(err.contains("product cage 3:R1C1,R1C2"), "{err}");
        // Marked: a product whatever the text; unmarked, a sum.
        let both = "Digits in cages sum to the clue, or multiply to it where it is marked x. \
            Digits cannot repeat in cages.";
        let kept = drawn(&cage("x2"), both).unwrap();
        assert_eq!(words(&kept), ["productcage=2:R1C1,R1C2"]);
        let err = drawn(&cage("3"), both).unwrap_err().to_string();
        assert!(err.contains("sums and products"), "{err}");
        let sums = "Digits in cages sum to the clue and cannot repeat.";
        assert_eq!(
            words(&drawn(&cage("3"), sums).unwrap()),
            ["cage=3:R1C1,R1C2"]
        );
        assert_eq!(
            words(&drawn(&cage("×2"), sums).unwrap()),
            ["productcage=2:R1C1,R1C2"]
        );
    }

    #[test]
    fn nabner_and_parity_lines_and_clues_outside_the_grid_read_by_the_text() {
        let line = |from: &str, to: &str| format!(",l:[{{wp:[[{from}],[{to}]],c:2ecbff,th:10}}]");
        // A Nabner line: R1C1, R2C2 hold 1, 4 (kept); R1C1, R1C2 hold 1, 2.
        let nabner = "Digits on a blue Nabner line may not repeat and no two are consecutive.";
        let kept = drawn(&line("0.5,0.5", "1.5,1.5"), nabner).unwrap();
        assert_eq!(words(&kept), ["nabner=R1C1,R2C2"]);
        let err = drawn(&line("0.5,0.5", "0.5,1.5"), nabner)
            .unwrap_err()
            .to_string();
        assert!(err.contains("nabner line R1C1,R1C2: 1 and 2"), "{err}");
        // A parity line: R1C1, R1C2 hold 1, 2 (kept); R1C1, R2C1 hold 1, 3.
        let parity = "Digits along a blue line alternate between odd and even.";
        let kept = drawn(&line("0.5,0.5", "0.5,1.5"), parity).unwrap();
        assert_eq!(words(&kept), ["parityline=R1C1,R1C2"]);
        let err = drawn(&line("0.5,0.5", "1.5,0.5"), parity)
            .unwrap_err()
            .to_string();
        assert!(err.contains("parity line R1C1,R2C1: 1 next to 3"), "{err}");
        // Numbers outside the grid, by the one kind the text names: above
        // column 1 (1, 3, 2, 4) three skyscrapers are seen; left of row 2
        // (3, 4, 1, 2) the first three add up to 8; right of row 1 (4, 3,
        // 2, 1) the fourth is 1; left of row 3 (2, 1, 4, 3) nothing is
        // between the 1 and the 4.
        let clue = |r: f64, c: f64, v: u32| format!(",o:[{{ct:[{r},{c}],w:1,h:1,te:'{v}'}}]");
        for (rules, (r, c), kept, broken, word) in [
            (
                "Skyscrapers: a clue outside the grid is how many digits are seen from it, taller digits hiding smaller ones.",
                (-0.5, 0.5),
                3,
                2,
                "skyscraper=3:R0C1",
            ),
            (
                "X-sums: a clue outside the grid is the sum of the first X digits from it, X the first digit.",
                (1.5, -0.5),
                8,
                7,
                "xsum=8:R2C0",
            ),
            (
                "Numbered rooms: a clue outside the grid is the digit in the Xth cell from it, X the first digit.",
                (0.5, 4.5),
                1,
                2,
                "numberedroom=1:R1C5",
            ),
            (
                "Clues outside the grid give the sum of the digits sandwiched between the 1 and the 4.",
                (2.5, -0.5),
                0,
                1,
                "sandwich=0:R3",
            ),
        ] {
            let read = drawn(&clue(r, c, kept), rules).unwrap();
            assert_eq!(words(&read), [word]);
            let err = drawn(&clue(r, c, broken), rules).unwrap_err().to_string();
            assert!(err.contains("breaks its rules as read"), "{word}: {err}");
        }
        // Crusts other than the 1 and the n, or several kinds named: refused
        // where the clue is.
        let err = drawn(
            &clue(2.5, -0.5, 0),
            "Clues outside the grid give the sum of the digits sandwiched between the 2 and the 4.",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("(2.5, -0.5): a sandwich clue whose crusts"),
            "{err}"
        );
        let err = drawn(
            &clue(2.5, -0.5, 0),
            "Clues outside the grid are both sandwich and skyscraper clues.",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("several kinds"), "{err}");
    }

    #[test]
    fn circles_that_share_a_third_with_their_knights_read_on_a_six_by_six() {
        // 6×6, boxes of 2×3: 1 2 3 4 5 6 / 4 5 6 1 2 3 / 2 3 1 5 6 4 /
        // 5 6 4 2 3 1 / 3 1 2 6 4 5 / 6 4 5 3 1 2. Thirds: 1–2, 3–4, 5–6.
        let solution = "123456456123231564564231312645645312";
        let regions: Vec<String> = (0..6)
            .map(|b| {
                let (r0, c0) = (b / 2 * 2, b % 2 * 3);
                let cells: Vec<String> = (0..6)
                    .map(|i| format!("[{},{}]", r0 + i / 3, c0 + i % 3))
                    .collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        let puzzle = |circle: &str| {
            let text = format!(
                "{{id:'x',cs:50,ce:[[{{v:1}},,,,,],[,,,,,],[,,,,,],[,,,,,],[,,,,,],[,,,,,]],\
                 re:[{}],u:[{{ct:[{circle}],w:0.85,h:0.85,c1:'#0',r:t}}],\
                 metadata:{{rules:'A digit in a circle is in the same entropic group as every \
                 cell a knight move away from it.',solution:'{solution}'}}}}",
                regions.join(",")
            );
            read_link(&text)
        };
        // R1C1 holds 1; a knight's move away R2C3 holds 6: another third.
        let err = puzzle("0.5,0.5").unwrap_err().to_string();
        assert!(err.contains("knight circle R1C1"), "{err}");
        // R1C2 holds 2, and its knights R2C4, R3C3, R3C1 hold 1, 1, 2: kept.
        let kept = puzzle("0.5,1.5").unwrap();
        assert_eq!(
            kept.rules().constraints()[0].words(6),
            ["knightcircles=R1C2"]
        );
    }

    #[test]
    fn a_drawing_the_text_does_not_explain_is_refused_where_it_is() {
        for (extra, rules, want) in [
            (
                ELEMENTS[1].1,
                "Normal rules.",
                "a #cfcfcf line whose rule is not read",
            ),
            (
                ",a:[{wp:[[1.5,1.9],[1.5,2.5]],c:aaa,th:3}]",
                RULES,
                "an arrow that leaves no circle",
            ),
            (
                ELEMENTS[2].1,
                "Arrows point.",
                "does not say its digits sum",
            ),
            (
                ",o:[{ct:[0.5,1],w:0.3,h:0.3,c2:'#f00',r:t}]",
                RULES,
                "a dot neither white nor black",
            ),
            (
                ",l:[{wp:[[3.5,0.5],[3.5,1.5]],c:f067f0,th:10}]",
                "Purple lines are renban lines and palindromes.",
                "several kinds",
            ),
            (
                ",l:[{wp:[[3.5,0.5],[2.5,2.5]],c:f067f0,th:10}]",
                RULES,
                "not a line through cells",
            ),
            (
                ",u:[{ct:[3.5,3.5],w:0.8,h:0.8,c2:'#ccc'}]",
                RULES,
                "a square whose rule the text does not tell (odd, even, counting)",
            ),
            (
                ",ca:[{ce:[[0,0],[0,1]]}]",
                "Digits in cages may repeat.",
                "may repeat are not read",
            ),
        ] {
            let err = drawn(extra, rules).unwrap_err().to_string();
            assert!(err.contains(want), "{extra}: {err}");
        }
    }
}
