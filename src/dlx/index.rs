//! Small `u32` index newtypes for items, options and colors.
//!
//! Every arena in the core is a `Vec` addressed by a 32-bit index, as in
//! Knuth's DLX1, where "pointers" are array subscripts. The newtypes keep the
//! three index spaces apart in the public API: an [`ItemId`] cannot be passed
//! where an [`OptionId`] is wanted.
//!
//! All three are zero-based as the user sees them. Inside the matrix, item `k`
//! lives at slot `k + 1` of the item and node arrays, because slot 0 is Knuth's
//! root; that shift never leaks out of [`crate::dlx::matrix`].
//!
//! Each type has a checked constructor (`new`, `None` past the 32-bit limit) and
//! a panicking one (`must`) for indices the caller has already validated.

use std::fmt;

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl $name {
            /// The largest index this type can hold.
            pub const MAX: usize = (u32::MAX - 2) as usize;

            /// The index `i`, or `None` when `i` is past [`Self::MAX`].
            #[inline]
            pub fn new(i: usize) -> Option<Self> {
                if i <= Self::MAX {
                    Some($name(i as u32))
                } else {
                    None
                }
            }

            /// The index `i`; panics when `i` is past [`Self::MAX`].
            ///
            /// For indices that were already validated, such as those handed
            /// out by a builder.
            #[inline]
            pub fn must(i: usize) -> Self {
                match Self::new(i) {
                    Some(id) => id,
                    None => panic!(concat!($what, " index {} does not fit in 32 bits"), i),
                }
            }

            /// The index as a `usize`, for indexing slices.
            #[inline]
            pub fn as_usize(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

index_type!(
    /// An item (a column of the exact-cover matrix), zero-based in the order
    /// the items were declared: primary items first, then secondary ones.
    ItemId,
    "item"
);
index_type!(
    /// An option (a row of the matrix), zero-based in the order the options
    /// were added, counting ignored options too.
    OptionId,
    "option"
);
index_type!(
    /// A color of a secondary item, zero-based in the order colors were first
    /// named. Color 0 here is a real color; "no color" is `None`.
    ColorId,
    "color"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_constructor_rejects_too_large() {
        assert_eq!(ItemId::new(5).map(ItemId::as_usize), Some(5));
        assert!(OptionId::new(OptionId::MAX + 1).is_none());
        assert_eq!(ColorId::must(0).to_string(), "0");
    }

    #[test]
    #[should_panic(expected = "item index")]
    fn must_panics_past_the_limit() {
        ItemId::must(ItemId::MAX + 1);
    }
}
