//! Wide domains (more than 128 values) on `bitvec`, read and written a `u64` word at a time.

use bitvec::prelude::{BitVec, Lsb0};

use super::{Domain, PerRepresentation};

/// A domain of up to [`crate::MAX_DOMAIN_WIDTH`] values stored in a `BitVec<u64>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WideDomain {
    bits: BitVec<u64, Lsb0>,
}

impl Domain for WideDomain {
    type W = u64;
    const MAX_WIDTH: usize = crate::MAX_DOMAIN_WIDTH;

    #[inline(always)]
    fn view<T: PerRepresentation + ?Sized>(x: &T) -> &T::View<Self> {
        x.wide()
    }

    fn full(width: usize) -> Self {
        // Round up to whole words so every slot exists; the tail bits stay clear.
        let words = width.div_ceil(64).max(1);
        let mut bits = BitVec::<u64, Lsb0>::repeat(false, words * 64);
        bits[..width].fill(true);
        Self { bits }
    }

    #[inline]
    fn slots(&self) -> usize {
        self.bits.as_raw_slice().len()
    }

    #[inline]
    fn word(&self, s: usize) -> u64 {
        self.bits.as_raw_slice()[s]
    }

    #[inline]
    fn set_word(&mut self, s: usize, w: u64) {
        self.bits.as_raw_mut_slice()[s] = w;
    }

    fn count(&self) -> u32 {
        self.bits.count_ones() as u32
    }

    #[inline]
    fn contains(&self, i: usize) -> bool {
        self.bits.get(i).is_some_and(|b| *b)
    }
}
