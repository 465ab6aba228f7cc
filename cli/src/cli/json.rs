//! The command line's one JSON writer. Every `--json` object is a type that
//! derives serde's `Serialize`: a report of the library's (`Stats`,
//! `Answer`, `Solved`, `Candidates`, `MemoStats`, `Spread`, `Merged`, the
//! job lines) or a line of the command's own that holds them, written by
//! serde_json on one line. The fields come in the type's order; counts of
//! any size are JSON numbers with every digit; a float that is not finite
//! is `null`.

use serde::Serialize;

/// `value` as one line of JSON.
pub(crate) fn line(value: &impl Serialize) -> String {
    // Every type written derives `Serialize` with string keys, and the
    // library's counts write valid numbers: serde_json has nothing to refuse.
    serde_json::to_string(value).unwrap_or_else(|e| unreachable!("a JSON line: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Line<'a> {
        name: &'a str,
        solutions: dlx::BigCount,
        seconds: f64,
    }

    #[test]
    fn escapes_keeps_the_order_and_writes_big_counts_whole() {
        // 2^128 + 2^64 + 1: past every integer serde has.
        let big = dlx::BigCount::from_limbs(&[1, 1, 1]);
        assert_eq!(big.to_u128(), None);
        let o = line(&Line {
            name: "a\"b\\c\n\u{1}",
            solutions: big,
            seconds: f64::NAN,
        });
        assert_eq!(
            o,
            r#"{"name":"a\"b\\c\n\u0001","solutions":340282366920938463481821351505477763073,"seconds":null}"#
        );
        let small = line(&Line {
            name: "",
            solutions: dlx::BigCount::from(u128::MAX),
            seconds: 0.25,
        });
        assert_eq!(
            small,
            r#"{"name":"","solutions":340282366920938463463374607431768211455,"seconds":0.25}"#
        );
    }
}
