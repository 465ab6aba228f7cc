//! LZString's `decompressFromBase64`, the compression f-puzzles and
//! SudokuPad put in their links (`?load=…`): an LZW variant over UTF-16 code
//! units, with a dictionary that grows one bit of code width at a time,
//! written from the format's description (lz-string 1.4).
//!
//! Codes 0 and 1 bring a new 8- or 16-bit character, 2 ends the stream,
//! 3 and up name dictionary entries; a code one past the dictionary is the
//! LZW special case (the last entry plus its own first unit). Input that
//! does not decode — a character outside the alphabet, a code past the
//! dictionary, a stream that ends without its end code, units that are not
//! UTF-16 — is `None`, never a panic.

/// The base-64 alphabet of `compressToBase64`; `=` pads.
const ALPHABET: &[u8; 65] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

/// The bit reader over 6-bit values, highest bit first.
struct Bits<'a> {
    input: &'a [u8],
    index: usize,
    value: u32,
    position: u32,
}

impl Bits<'_> {
    /// The value of `ch` in the alphabet.
    fn value_of(ch: u8) -> Option<u32> {
        ALPHABET.iter().position(|&a| a == ch).map(|v| v as u32)
    }

    /// Reads `n` bits, lowest first; `None` past the input.
    fn read(&mut self, n: u32) -> Option<u32> {
        let mut bits = 0;
        for k in 0..n {
            let bit = u32::from(self.value & self.position != 0);
            self.position >>= 1;
            if self.position == 0 {
                self.position = 32;
                self.value = match self.input.get(self.index) {
                    Some(&ch) => Self::value_of(ch)?,
                    None if self.index > self.input.len() => return None,
                    None => 0,
                };
                self.index += 1;
            }
            bits |= bit << k;
        }
        Some(bits)
    }
}

/// Decompresses `input` as lz-string's `decompressFromBase64` does.
pub fn decompress_from_base64(input: &str) -> Option<String> {
    let input = input.trim().as_bytes();
    let first = Bits::value_of(*input.first()?)?;
    let mut bits = Bits {
        input,
        index: 1,
        value: first,
        position: 32,
    };
    let mut dictionary: Vec<Vec<u16>> = vec![Vec::new(); 3];
    let (mut enlarge_in, mut num_bits) = (4u32, 3u32);
    let c = match bits.read(2)? {
        0 => bits.read(8)? as u16,
        1 => bits.read(16)? as u16,
        _ => return Some(String::new()),
    };
    dictionary.push(vec![c]);
    let mut w = vec![c];
    let mut result = w.clone();
    loop {
        if bits.index > input.len() + 1 {
            return None;
        }
        let mut code = bits.read(num_bits)? as usize;
        match code {
            0 | 1 => {
                let width = if code == 0 { 8 } else { 16 };
                dictionary.push(vec![bits.read(width)? as u16]);
                code = dictionary.len() - 1;
                enlarge_in -= 1;
            }
            2 => return String::from_utf16(&result).ok(),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        let entry = if code < dictionary.len() {
            dictionary[code].clone()
        } else if code == dictionary.len() {
            let mut e = w.clone();
            e.push(*w.first()?);
            e
        } else {
            return None;
        };
        result.extend_from_slice(&entry);
        let mut next = w;
        next.push(entry[0]);
        dictionary.push(next);
        enlarge_in -= 1;
        w = entry;
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        if num_bits > 31 {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decompress_from_base64;

    #[test]
    fn decodes_what_lz_string_encodes() {
        // Pairs made with the lz-string port on PyPI (`lzstring`,
        // `compressToBase64`).
        let cases = [
            ("{\"size\":4,\"grid\":[[{}]]}", "N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF8BdEooA"),
            ("a", "IZA="),
            ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "IY18ZXeQ"),
            (
                "h\u{e9}llo w\u{f6}rld \u{2014} \u{fc}n\u{ef}c\u{f6}d\u{e9} \u{2713} \u{2713} \u{2713}",
                "BYS4NmD2AEDuBvAnMATagUAmgH4HYHuBjeFEaQZHJzyg",
            ),
        ];
        for (plain, packed) in cases {
            assert_eq!(
                decompress_from_base64(packed).as_deref(),
                Some(plain),
                "{packed}"
            );
        }
        let long = "abc".repeat(240);
        let packed = "IYIwxqHpPXUNo+TUvczase33BOR+xhJ5Zlp1FNVtD9TdLjrzbnH37vXfPfkMEiEQA===";
        assert_eq!(decompress_from_base64(packed), Some(long));
    }

    #[test]
    fn garbage_is_none_not_a_panic() {
        for bad in ["", "!!!!", "N4Igzg", "////////////////", "A", "IY18ZXe"] {
            let _ = decompress_from_base64(bad);
        }
        assert_eq!(decompress_from_base64("!!!!"), None);
        assert_eq!(decompress_from_base64(""), None);
    }
}
