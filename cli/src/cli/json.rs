//! A small JSON writer: the CLI's `--json` objects are flat and few, so a
//! string escaper and a builder are all that is needed.

use std::fmt::Write;

/// Appends `s` as a JSON string literal.
pub(crate) fn string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Builds one JSON object, field by field.
pub(crate) struct Object {
    buf: String,
}

impl Object {
    pub(crate) fn new() -> Self {
        Object {
            buf: String::from("{"),
        }
    }

    fn key(&mut self, key: &str) {
        if self.buf.len() > 1 {
            self.buf.push(',');
        }
        string(&mut self.buf, key);
        self.buf.push(':');
    }

    pub(crate) fn num(mut self, key: &str, v: impl std::fmt::Display) -> Self {
        self.key(key);
        let _ = write!(self.buf, "{v}");
        self
    }

    pub(crate) fn float(mut self, key: &str, v: f64) -> Self {
        self.key(key);
        if v.is_finite() {
            let _ = write!(self.buf, "{v:.6}");
        } else {
            self.buf.push_str("null");
        }
        self
    }

    pub(crate) fn boolean(self, key: &str, v: bool) -> Self {
        self.num(key, v)
    }

    pub(crate) fn str(mut self, key: &str, v: &str) -> Self {
        self.key(key);
        string(&mut self.buf, v);
        self
    }

    pub(crate) fn opt_str(mut self, key: &str, v: Option<&str>) -> Self {
        match v {
            Some(v) => self.str(key, v),
            None => {
                self.key(key);
                self.buf.push_str("null");
                self
            }
        }
    }

    /// A field whose value is already JSON.
    pub(crate) fn raw(mut self, key: &str, json: &str) -> Self {
        self.key(key);
        self.buf.push_str(json);
        self
    }

    pub(crate) fn finish(mut self) -> String {
        self.buf.push('}');
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        let mut s = String::new();
        string(&mut s, "a\"b\\c\n\u{1}");
        assert_eq!(s, r#""a\"b\\c\n\u0001""#);
        let o = Object::new().num("n", 3).boolean("ok", true).finish();
        assert_eq!(o, r#"{"n":3,"ok":true}"#);
    }
}
