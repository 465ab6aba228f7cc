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
//! The helpers are `unsafe fn`s: an index past the slice is undefined
//! behaviour, so no safe code can call them. A kernel's functions that index
//! with them are `unsafe fn`s too, whose `# Safety` section says what the
//! caller guarantees (a state made for the tables it is used with, a level
//! below the search's depth, a cursor the kernel named), and the search
//! driver calls the kernel's steps in `unsafe` blocks that say why those
//! hold (`search/driver.rs`). Inside a kernel's `unsafe fn` the indices come
//! from its own tables and state, under the invariants its module states.
//! Debug builds check every index (`debug_assert!`), the `checked` feature
//! makes these ordinary indexing (a panic where an invariant broke, for a
//! test run: CI runs the suite once with it), and CI runs the core's unit
//! tests, which reach every kernel's paths, under Miri.

#![allow(unsafe_code)]

/// `s[i]`, unchecked.
///
/// # Safety
/// `i < s.len()`.
#[inline(always)]
pub(crate) unsafe fn at<T: Copy>(s: &[T], i: usize) -> T {
    // SAFETY: as this function's.
    unsafe { *get(s, i) }
}

/// `&s[i]`, unchecked.
///
/// # Safety
/// `i < s.len()`.
#[inline(always)]
pub(crate) unsafe fn get<T>(s: &[T], i: usize) -> &T {
    debug_assert!(i < s.len());
    #[cfg(feature = "checked")]
    return &s[i];
    // SAFETY: `i < s.len()`, this function's contract.
    #[cfg(not(feature = "checked"))]
    unsafe {
        s.get_unchecked(i)
    }
}

/// `&mut s[i]`, unchecked.
///
/// # Safety
/// `i < s.len()`.
#[inline(always)]
pub(crate) unsafe fn at_mut<T>(s: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < s.len());
    #[cfg(feature = "checked")]
    return &mut s[i];
    // SAFETY: `i < s.len()`, this function's contract.
    #[cfg(not(feature = "checked"))]
    unsafe {
        s.get_unchecked_mut(i)
    }
}

/// `s[i] = v`, unchecked.
///
/// # Safety
/// `i < s.len()`.
#[inline(always)]
pub(crate) unsafe fn set<T>(s: &mut [T], i: usize, v: T) {
    // SAFETY: as this function's.
    unsafe { *at_mut(s, i) = v };
}

/// `&s[from..from + n]`, unchecked.
///
/// # Safety
/// `from + n <= s.len()` (without overflow).
#[inline(always)]
pub(crate) unsafe fn span<T>(s: &[T], from: usize, n: usize) -> &[T] {
    debug_assert!(from.checked_add(n).is_some_and(|end| end <= s.len()));
    #[cfg(feature = "checked")]
    return &s[from..from + n];
    // SAFETY: `from + n <= s.len()`, this function's contract.
    #[cfg(not(feature = "checked"))]
    unsafe {
        s.get_unchecked(from..from + n)
    }
}

/// `&mut s[from..from + n]`, unchecked.
///
/// # Safety
/// `from + n <= s.len()` (without overflow).
#[inline(always)]
pub(crate) unsafe fn span_mut<T>(s: &mut [T], from: usize, n: usize) -> &mut [T] {
    debug_assert!(from.checked_add(n).is_some_and(|end| end <= s.len()));
    #[cfg(feature = "checked")]
    return &mut s[from..from + n];
    // SAFETY: `from + n <= s.len()`, this function's contract.
    #[cfg(not(feature = "checked"))]
    unsafe {
        s.get_unchecked_mut(from..from + n)
    }
}

/// `s.split_at_mut(mid)`, unchecked.
///
/// # Safety
/// `mid <= s.len()`.
#[inline(always)]
pub(crate) unsafe fn split_mut<T>(s: &mut [T], mid: usize) -> (&mut [T], &mut [T]) {
    debug_assert!(mid <= s.len());
    #[cfg(feature = "checked")]
    return s.split_at_mut(mid);
    // SAFETY: `mid <= s.len()`, this function's contract.
    #[cfg(not(feature = "checked"))]
    unsafe {
        s.split_at_mut_unchecked(mid)
    }
}

/// Copies state slot `from` (of `size` words) onto slot `to`, a later one,
/// in `states`; returns the latter (the engines that copy their states:
/// dense, bits). With `size` a constant the copy is a few moves.
///
/// # Safety
/// `from < to` and `(to + 1) · size <= states.len()`.
#[inline(always)]
pub(crate) unsafe fn copy_slot<T: Copy>(
    states: &mut [T],
    size: usize,
    from: usize,
    to: usize,
) -> &mut [T] {
    debug_assert!(from < to);
    // SAFETY: slot `to` ends within `states` and slot `from` ends before
    // slot `to` begins (this function's contract).
    unsafe {
        let (lo, hi) = split_mut(states, to * size);
        let dst = span_mut(hi, 0, size);
        dst.copy_from_slice(span(lo, from * size, size));
        dst
    }
}
