//! Every Sudoku reader: the first byte picks the format (or detection), the
//! second the alphabet (or the reader's choice), the rest is the input (also
//! read as f-puzzles: JSON, link or compressed string, and as variant
//! text). No input panics; every grid read is written back in every format that can
//! hold its size, in its alphabet, and reads back (format named) as the
//! same grid.
#![no_main]

use dlx::sudoku::format::{self, Answer, Format, ReadOptions, Reader};
use dlx::sudoku::Alphabet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [f, a, input @ ..] = data else {
        return;
    };
    // f-puzzles: JSON, links and LZString-compressed strings never panic.
    // Variant text: what reads writes back to the same rules and givens.
    if let Ok(text) = std::str::from_utf8(input) {
        let _ = dlx::sudoku::fpuzzles::read_pasted(text);
        for line in text.lines().take(8) {
            if let Ok((rules, givens)) = dlx::sudoku::rule_line::read(line) {
                let again = dlx::sudoku::rule_line::write(&rules, &givens);
                let back = dlx::sudoku::rule_line::read(&again);
                assert_eq!(back.as_ref().ok(), Some(&(rules, givens)), "{again}");
            }
        }
    }
    let formats = Format::ALL;
    let alphabets = [Alphabet::Digits, Alphabet::Letters, Alphabet::Hex];
    let options = ReadOptions {
        format: formats.get(*f as usize % (formats.len() + 1)).copied(),
        alphabet: alphabets.get(*a as usize % (alphabets.len() + 1)).copied(),
    };
    for record in Reader::new(input, options).take(64) {
        let Ok(grid) = record.grid else { continue };
        for out in formats {
            // POJ 2676 and 2918 are 9×9 digit grids.
            if matches!(out, Format::Poj2676 | Format::Poj2918) && grid.side() != 9 {
                continue;
            }
            let mut text = String::new();
            format::write_answer(
                &mut text,
                out,
                true,
                1,
                Answer::Grid(&grid, record.alphabet),
            );
            let text = match out {
                Format::Poj2676 => format!("1\n{text}"),
                Format::Poj2918 => {
                    let body: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
                    format!("1\n{body}")
                }
                _ => text,
            };
            // POJ 2676 and 2918 are written in digits whatever the alphabet.
            let alphabet = match out {
                Format::Poj2676 | Format::Poj2918 => Alphabet::Digits,
                _ => record.alphabet,
            };
            let read = ReadOptions {
                format: Some(out),
                alphabet: Some(alphabet),
            };
            let back: Vec<_> = Reader::new(text.as_bytes(), read).collect();
            assert_eq!(back.len(), 1, "{out:?}: {text}");
            assert_eq!(back[0].grid.as_ref().ok(), Some(&grid), "{out:?}: {text}");
        }
    }
});
