//! Counts of any size, for memo counting: [`BigCount`], a natural number
//! that only ever needs adding, and the fixed-width tallies the memo table
//! keeps while they suffice.
//!
//! Why not a big-integer crate: the memo adds and nothing else, and its
//! table wants counts of a fixed width (no allocation per entry) until a
//! count outgrows them; the decimal form is the only other operation. A
//! [`Tally`] reports an overflow instead of wrapping, and the counter then
//! starts again one width up (`memo::count`), so no count is ever wrong.
//!
//! Invariant: a [`BigCount`]'s limbs are little-endian 64-bit words with no
//! zero limb at the top (zero is no limb at all), so equal numbers have
//! equal limbs.

use std::fmt;

/// A natural number of any size: an exact solution count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BigCount {
    limbs: Vec<u64>,
}

impl BigCount {
    /// Zero.
    pub fn zero() -> BigCount {
        BigCount::default()
    }

    /// Whether it is zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The number as a `u64`, when it fits.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs.as_slice() {
            [] => Some(0),
            [a] => Some(*a),
            _ => None,
        }
    }

    /// The number as a `u128`, when it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match self.limbs.as_slice() {
            [] => Some(0),
            [a] => Some(u128::from(*a)),
            [a, b] => Some(u128::from(*a) | u128::from(*b) << 64),
            _ => None,
        }
    }

    /// The number of bits (0 for zero).
    pub fn bits(&self) -> u64 {
        self.limbs.last().map_or(0, |top| {
            64 * self.limbs.len() as u64 - u64::from(top.leading_zeros())
        })
    }

    /// Bit `k` (0 the lowest).
    pub fn bit(&self, k: u64) -> bool {
        self.limbs
            .get((k / 64) as usize)
            .is_some_and(|l| l >> (k % 64) & 1 == 1)
    }

    /// The number from little-endian limbs (zero limbs at the top allowed).
    pub fn from_limbs(limbs: &[u64]) -> BigCount {
        let mut limbs = limbs.to_vec();
        trim(&mut limbs);
        BigCount { limbs }
    }

    /// Adds `other`.
    pub fn add(&mut self, other: &BigCount) {
        add_limbs(&mut self.limbs, &other.limbs);
    }
}

fn trim(limbs: &mut Vec<u64>) {
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
}

/// `a += b`, growing `a` as needed (both little-endian, trimmed).
fn add_limbs(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    let mut carry = false;
    for (k, x) in a.iter_mut().enumerate() {
        let y = b.get(k).copied().unwrap_or(0);
        if k >= b.len() && !carry {
            break;
        }
        let (s, c1) = x.overflowing_add(y);
        let (s, c2) = s.overflowing_add(u64::from(carry));
        *x = s;
        carry = c1 || c2;
    }
    if carry {
        a.push(1);
    }
}

impl From<u64> for BigCount {
    fn from(n: u64) -> BigCount {
        BigCount::from_limbs(&[n])
    }
}

impl From<u128> for BigCount {
    fn from(n: u128) -> BigCount {
        BigCount::from_limbs(&[n as u64, (n >> 64) as u64])
    }
}

/// A count in JSON is a number with every digit, however large: up to 128
/// bits through the serializer's own integers, beyond them as serde_json's
/// raw number (so a reader that keeps big numbers reads it whole).
impl serde::Serialize for BigCount {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(n) = self.to_u128() {
            return serializer.serialize_u128(n);
        }
        serde_json::value::RawValue::from_string(self.to_string())
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

impl fmt::Display for BigCount {
    /// In decimal, every digit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.to_u128() {
            return f.pad(&n.to_string());
        }
        // Repeated division by 10^19, the largest power of ten in a limb.
        const BASE: u64 = 10_000_000_000_000_000_000;
        let mut rest = self.limbs.clone();
        let mut groups = Vec::new();
        while !rest.is_empty() {
            let mut rem = 0u128;
            for x in rest.iter_mut().rev() {
                let cur = rem << 64 | u128::from(*x);
                *x = (cur / u128::from(BASE)) as u64;
                rem = cur % u128::from(BASE);
            }
            groups.push(rem as u64);
            trim(&mut rest);
        }
        let mut s = String::new();
        for (k, g) in groups.iter().rev().enumerate() {
            if k == 0 {
                s += &g.to_string();
            } else {
                s += &format!("{g:019}");
            }
        }
        f.pad(&s)
    }
}

/// A count as the memo table keeps it: added to, and turned into a
/// [`BigCount`] at the end.
pub(crate) trait Tally: Clone + Default {
    /// One solution.
    fn one() -> Self;
    /// `self += other`; false when the sum does not fit (then `self` is not
    /// to be read again).
    fn add(&mut self, other: &Self) -> bool;
    /// The count, exactly.
    fn big(&self) -> BigCount;
    /// The count `n`, which fits (it came from a narrower tally).
    fn from_big(n: &BigCount) -> Self;
    /// Bytes it holds outside the table's slot (a [`BigCount`]'s limbs).
    fn heap_bytes(&self) -> usize {
        0
    }
    /// The state's node in a decision diagram, for a tally that keeps one
    /// (`zdd.rs`); the plain counts keep none (0).
    fn node(&self) -> u64 {
        0
    }
    /// Sets the state's node, for a tally that keeps one.
    fn set_node(&mut self, _node: u64) {}
}

/// `N` limbs, little-endian: a fixed-width count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> Tally for Wide<N> {
    fn one() -> Self {
        let mut w = [0; N];
        w[0] = 1;
        Wide(w)
    }

    #[inline]
    fn add(&mut self, other: &Self) -> bool {
        let mut carry = false;
        for (x, y) in self.0.iter_mut().zip(other.0) {
            let (s, c1) = x.overflowing_add(y);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            *x = s;
            carry = c1 || c2;
        }
        !carry
    }

    fn big(&self) -> BigCount {
        BigCount::from_limbs(&self.0)
    }

    fn from_big(n: &BigCount) -> Self {
        let mut w = [0; N];
        for (x, &l) in w.iter_mut().zip(&n.limbs) {
            *x = l;
        }
        Wide(w)
    }
}

impl Tally for BigCount {
    fn one() -> Self {
        BigCount::from(1u64)
    }

    fn add(&mut self, other: &Self) -> bool {
        BigCount::add(self, other);
        true
    }

    fn big(&self) -> BigCount {
        self.clone()
    }

    fn from_big(n: &BigCount) -> Self {
        n.clone()
    }

    fn heap_bytes(&self) -> usize {
        self.limbs.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_and_prints_past_u128() {
        let mut n = BigCount::from(u128::MAX);
        assert_eq!(n.to_string(), u128::MAX.to_string());
        n.add(&BigCount::from(1u64));
        assert_eq!(n.to_u128(), None);
        assert_eq!(n.to_string(), "340282366920938463463374607431768211456");
        assert_eq!(n.bits(), 129);
        // 2^200 by doubling, against its decimal form.
        let mut p = BigCount::from(1u64);
        for _ in 0..200 {
            let q = p.clone();
            p.add(&q);
        }
        assert_eq!(
            p.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert_eq!(format!("{:>5}", BigCount::zero()), "    0");
        assert!(BigCount::from_limbs(&[0, 0]).is_zero());
    }

    #[test]
    fn fixed_widths_say_when_they_overflow() {
        let mut w = Wide::<2>([u64::MAX, 0]);
        assert!(w.add(&Wide::one()));
        assert_eq!(w.big(), BigCount::from(1u128 << 64));
        let mut top = Wide::<2>([u64::MAX, u64::MAX]);
        assert!(!top.add(&Wide::one()));
        let mut big = BigCount::from(u64::MAX);
        assert!(Tally::add(&mut big, &BigCount::from(u64::MAX)));
        assert_eq!(big.to_u128(), Some(2 * u128::from(u64::MAX)));
    }
}
