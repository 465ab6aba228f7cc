//! The core's unchecked slice access (an element, a span, a split), and its
//! one SAFETY argument.
//!
//! Every kernel's hot loop indexes arrays by values it computed itself: link
//! fields (dancing links), option numbers from mask bits, item numbers from
//! option tables, word numbers below a const width. Each kernel states, in
//! its module documentation, the invariants that keep those values in range
//! (`links/dance.rs`, `dense/mod.rs`, `bits/mod.rs`, `masks/mod.rs`), and
//! only its own code, fed by tables that the matrix builder and its constructor made, computes
//! them. Bounds checks cost the links engine a third of its speed
//! (pentominoes 5×12: 136M updates/s checked, 203M unchecked), so the reads
//! and writes below skip them.
//!
//! The argument, made once for all callers: a caller passes only an index
//! that its module's invariants put below `s.len()`. Debug builds check it
//! (`debug_assert!`), and CI runs the core's unit tests, which reach every
//! kernel's paths, under Miri.

/// `s[i]`, unchecked.
#[inline(always)]
pub(crate) fn at<T: Copy>(s: &[T], i: usize) -> T {
    *get(s, i)
}

/// `&s[i]`, unchecked.
#[inline(always)]
pub(crate) fn get<T>(s: &[T], i: usize) -> &T {
    debug_assert!(i < s.len());
    // SAFETY: `i < s.len()` by the caller's invariants (module docs).
    #[allow(unsafe_code)]
    unsafe {
        s.get_unchecked(i)
    }
}

/// `&mut s[i]`, unchecked.
#[inline(always)]
pub(crate) fn at_mut<T>(s: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < s.len());
    // SAFETY: `i < s.len()` by the caller's invariants (module docs).
    #[allow(unsafe_code)]
    unsafe {
        s.get_unchecked_mut(i)
    }
}

/// `s[i] = v`, unchecked.
#[inline(always)]
pub(crate) fn set<T>(s: &mut [T], i: usize, v: T) {
    *at_mut(s, i) = v;
}

/// `&s[from..from + n]`, unchecked.
#[inline(always)]
pub(crate) fn span<T>(s: &[T], from: usize, n: usize) -> &[T] {
    debug_assert!(from.checked_add(n).is_some_and(|end| end <= s.len()));
    // SAFETY: `from + n <= s.len()` by the caller's invariants (module docs).
    #[allow(unsafe_code)]
    unsafe {
        s.get_unchecked(from..from + n)
    }
}

/// `&mut s[from..from + n]`, unchecked.
#[inline(always)]
pub(crate) fn span_mut<T>(s: &mut [T], from: usize, n: usize) -> &mut [T] {
    debug_assert!(from.checked_add(n).is_some_and(|end| end <= s.len()));
    // SAFETY: `from + n <= s.len()` by the caller's invariants (module docs).
    #[allow(unsafe_code)]
    unsafe {
        s.get_unchecked_mut(from..from + n)
    }
}

/// `s.split_at_mut(mid)`, unchecked.
#[inline(always)]
pub(crate) fn split_mut<T>(s: &mut [T], mid: usize) -> (&mut [T], &mut [T]) {
    debug_assert!(mid <= s.len());
    // SAFETY: `mid <= s.len()` by the caller's invariants (module docs).
    #[allow(unsafe_code)]
    unsafe {
        s.split_at_mut_unchecked(mid)
    }
}

/// Copies state slot `from` (of `size` words) onto slot `to`, a later one,
/// in `states`; returns the latter (the engines that copy their states:
/// dense, bits). With `size` a constant the copy is a few moves.
#[inline(always)]
pub(crate) fn copy_slot<T: Copy>(
    states: &mut [T],
    size: usize,
    from: usize,
    to: usize,
) -> &mut [T] {
    debug_assert!(from < to);
    let (lo, hi) = split_mut(states, to * size);
    let dst = span_mut(hi, 0, size);
    dst.copy_from_slice(span(lo, from * size, size));
    dst
}
