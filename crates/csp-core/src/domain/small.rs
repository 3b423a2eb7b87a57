//! One-word domains: a `u64` or `u128` is its own single slot.

use super::{Domain, PerRepresentation, Word};

macro_rules! impl_small {
    ($t:ty, $view:ident) => {
        impl Domain for $t {
            type W = $t;
            const MAX_WIDTH: usize = <$t>::BITS as usize;
            #[inline]
            fn full(width: usize) -> Self {
                <$t as Word>::low_mask(width as u32)
            }
            #[inline(always)]
            fn slots(&self) -> usize {
                1
            }
            #[inline(always)]
            fn word(&self, _s: usize) -> $t {
                *self
            }
            #[inline(always)]
            fn set_word(&mut self, _s: usize, w: $t) {
                *self = w;
            }
            #[inline(always)]
            fn view<T: PerRepresentation + ?Sized>(x: &T) -> &T::View<Self> {
                x.$view()
            }
            #[inline]
            fn count(&self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn contains(&self, i: usize) -> bool {
                i < <$t>::BITS as usize && (*self >> i) & 1 == 1
            }
        }
    };
}
impl_small!(u64, w64);
impl_small!(u128, w128);
