//! LZString's `decompressFromBase64` and `compressToBase64`, the
//! compression f-puzzles and SudokuPad put in their links (`?load=…`): an
//! LZW variant over UTF-16 code units, with a dictionary that grows one bit
//! of code width at a time, written from the format's description
//! (lz-string 1.4). The compressor writes what lz-string writes, unit for
//! unit (the tests compare with its output), so a link made here is the
//! link f-puzzles would make.
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

/// The bit writer into 6-bit values, lowest bit of each code first.
struct Sink {
    out: String,
    value: u32,
    position: u32,
}

impl Sink {
    fn bit(&mut self, bit: u32) {
        self.value = (self.value << 1) | bit;
        if self.position == 5 {
            self.out.push(ALPHABET[self.value as usize] as char);
            self.position = 0;
            self.value = 0;
        } else {
            self.position += 1;
        }
    }

    fn code(&mut self, mut value: u32, bits: u32) {
        for _ in 0..bits {
            self.bit(value & 1);
            value >>= 1;
        }
    }
}

/// Compresses `input` as lz-string's `compressToBase64` does.
pub fn compress_to_base64(input: &str) -> String {
    use std::collections::{HashMap, HashSet};
    let units: Vec<u16> = input.encode_utf16().collect();
    let mut dictionary: HashMap<&[u16], u32> = HashMap::new();
    let mut to_create: HashSet<&[u16]> = HashSet::new();
    let (mut size, mut bits, mut enlarge_in) = (3u32, 2u32, 2u32);
    let mut sink = Sink {
        out: String::new(),
        value: 0,
        position: 0,
    };
    // Writes the code of `w`: a new character (0 or 1, then its 8 or 16
    // bits) the first time, its dictionary code after.
    let mut emit = |w: &[u16],
                    dictionary: &HashMap<&[u16], u32>,
                    to_create: &mut HashSet<&[u16]>,
                    bits: &mut u32,
                    enlarge_in: &mut u32| {
        let widen = |bits: &mut u32, enlarge_in: &mut u32| {
            *enlarge_in -= 1;
            if *enlarge_in == 0 {
                *enlarge_in = 1 << *bits;
                *bits += 1;
            }
        };
        if to_create.remove(w) {
            let unit = u32::from(w[0]);
            if unit < 256 {
                sink.code(0, *bits);
                sink.code(unit, 8);
            } else {
                sink.code(1, *bits);
                sink.code(unit, 16);
            }
            widen(bits, enlarge_in);
        } else {
            sink.code(dictionary[w], *bits);
        }
        widen(bits, enlarge_in);
    };
    let mut start = 0;
    let mut end = 0;
    for k in 0..units.len() {
        let c = &units[k..k + 1];
        if !dictionary.contains_key(c) {
            dictionary.insert(c, size);
            size += 1;
            to_create.insert(c);
        }
        // w is units[start..end]; wc is w followed by c.
        if dictionary.contains_key(&units[start..k + 1]) {
            end = k + 1;
        } else {
            emit(
                &units[start..end],
                &dictionary,
                &mut to_create,
                &mut bits,
                &mut enlarge_in,
            );
            dictionary.insert(&units[start..k + 1], size);
            size += 1;
            start = k;
            end = k + 1;
        }
    }
    if end > start {
        emit(
            &units[start..end],
            &dictionary,
            &mut to_create,
            &mut bits,
            &mut enlarge_in,
        );
    }
    sink.code(2, bits);
    // Pad the last character with zero bits.
    loop {
        let last = sink.position == 5;
        sink.bit(0);
        if last {
            break;
        }
    }
    let mut out = sink.out;
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{compress_to_base64, decompress_from_base64};

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
            assert_eq!(compress_to_base64(plain), packed, "{plain}");
        }
        let long = "abc".repeat(240);
        let packed = "IYIwxqHpPXUNo+TUvczase33BOR+xhJ5Zlp1FNVtD9TdLjrzbnH37vXfPfkMEiEQA===";
        assert_eq!(compress_to_base64(&long), packed);
        assert_eq!(decompress_from_base64(packed), Some(long));
    }

    #[test]
    fn what_is_compressed_decompresses_to_itself() {
        let texts = [
            String::new(),
            "\u{1F600} astral \u{1F600}\u{1F600}".to_string(),
            "abababababababababab".repeat(37),
            (0..3000)
                .map(|k| char::from(b'a' + (k * k % 23) as u8))
                .collect(),
        ];
        for t in texts {
            assert_eq!(
                decompress_from_base64(&compress_to_base64(&t)).as_deref(),
                Some(&*t),
                "{t}"
            );
        }
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
