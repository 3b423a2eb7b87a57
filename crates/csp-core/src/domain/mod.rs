//! Bitset domains: bit `i` set = the variable may still take its `i`-th value (see [`crate::values`]).
//!
//! A domain is a row of machine words ("slots"). The engine only reads and writes whole words, so one trailing
//! function in [`crate::state`] covers every change. Three representations, chosen once per problem from the widest
//! domain and monomorphised through the whole search:
//!
//! | type          | word   | slots          | widths       |
//! |---------------|--------|----------------|--------------|
//! | `u64`         | `u64`  | 1              | 1..=64       |
//! | `u128`        | `u128` | 1              | 65..=128     |
//! | [`WideDomain`]| `u64`  | `ceil(w / 64)` | 129..=65536  |
//!
//! A 9-value Sudoku cell therefore runs on one `u64` with `count_ones` / `trailing_zeros`, the same work as a
//! hand-written `u16` mask; `bitvec` stays off that path.

mod small;
mod wide;

pub use wide::WideDomain;

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// What a domain operation did, as reported by [`crate::state::State`] (failure is reported as `Err(Conflict)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Nothing was removed.
    Unchanged,
    /// Values were removed and at least two remain.
    Reduced,
    /// Values were removed and exactly one remains.
    Assigned,
}

/// A machine word used as a slice of a domain.
pub trait Word:
    Copy
    + Eq
    + Send
    + Sync
    + std::fmt::Debug
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// No bit set.
    const ZERO: Self;
    /// Bits per word.
    const BITS: u32;
    /// The word with only bit `i` set (`i < BITS`).
    fn bit(i: u32) -> Self;
    /// The word with bits `0..n` set (`n <= BITS`).
    fn low_mask(n: u32) -> Self;
    /// Number of set bits.
    fn count(self) -> u32;
    /// Index of the lowest set bit (`BITS` if none).
    fn lowest(self) -> u32;
    /// Index of the highest set bit (the word must be non-zero).
    fn highest(self) -> u32;
    /// The word with its lowest set bit cleared.
    fn clear_lowest(self) -> Self;
    /// All bits set when `b`, none otherwise (a branch-free select mask).
    #[inline]
    fn splat(b: bool) -> Self {
        if b {
            !Self::ZERO
        } else {
            Self::ZERO
        }
    }
    /// True when no bit is set.
    #[inline]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline]
            fn low_mask(n: u32) -> Self {
                if n >= <$t>::BITS {
                    !0
                } else {
                    (1 << n) - 1
                }
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn splat(b: bool) -> Self {
                (b as $t).wrapping_neg()
            }
        }
    };
}
impl_word!(u64);
impl_word!(u128);

/// Something with one view per domain representation: a posted constraint is one object that carries its
/// propagator for `u64`, `u128` and [`WideDomain`] domains ([`crate::constraints::Posted`]). [`Domain::view`]
/// picks the right one at compile time, so the monomorphised search calls it through one vtable, no runtime test.
pub trait PerRepresentation {
    /// The view for representation `D`.
    type View<D: Domain>: ?Sized;
    /// The view on `u64` domains.
    fn w64(&self) -> &Self::View<u64>;
    /// The view on `u128` domains.
    fn w128(&self) -> &Self::View<u128>;
    /// The view on [`WideDomain`]s.
    fn wide(&self) -> &Self::View<WideDomain>;
}

/// A bitset domain made of `slots()` words of type [`Domain::W`].
///
/// Required methods only expose the words; everything else is provided on top of them, so a new representation
/// implements five methods. Invariant: bits at positions `>= width` are always clear.
pub trait Domain: Clone + Send + Sync + std::fmt::Debug + 'static {
    /// The word type.
    type W: Word;
    /// Largest width this representation holds.
    const MAX_WIDTH: usize;
    /// The full domain `{0, .., width - 1}`.
    fn full(width: usize) -> Self;
    /// Number of words.
    fn slots(&self) -> usize;
    /// Word `s` (`s < slots()`).
    fn word(&self, s: usize) -> Self::W;
    /// Overwrites word `s`. Callers outside [`crate::state`] use this only on scratch domains.
    fn set_word(&mut self, s: usize, w: Self::W);
    /// The view of `x` made for this representation (how the search, generic over `D`, reaches a constraint's
    /// propagator for `D` without knowing the three representations; see [`PerRepresentation`]).
    fn view<T: PerRepresentation + ?Sized>(x: &T) -> &T::View<Self>;

    /// Slot and bit of position `i`.
    #[inline]
    fn locate(i: usize) -> (usize, u32) {
        let b = Self::W::BITS as usize;
        (i / b, (i % b) as u32)
    }

    /// True when position `i` is in the domain.
    #[inline]
    fn contains(&self, i: usize) -> bool {
        let (s, b) = Self::locate(i);
        s < self.slots() && !(self.word(s) & Self::W::bit(b)).is_zero()
    }

    /// Number of positions in the domain (popcount).
    fn count(&self) -> u32 {
        (0..self.slots()).map(|s| self.word(s).count()).sum()
    }

    /// Lowest position, if any.
    #[inline]
    fn first(&self) -> Option<usize> {
        for s in 0..self.slots() {
            let w = self.word(s);
            if !w.is_zero() {
                return Some(s * Self::W::BITS as usize + w.lowest() as usize);
            }
        }
        None
    }

    /// Highest position, if any.
    #[inline]
    fn last(&self) -> Option<usize> {
        for s in (0..self.slots()).rev() {
            let w = self.word(s);
            if !w.is_zero() {
                return Some(s * Self::W::BITS as usize + w.highest() as usize);
            }
        }
        None
    }

    /// Lowest position `>= i`, if any.
    fn next_from(&self, i: usize) -> Option<usize> {
        let (mut s, b) = Self::locate(i);
        if s >= self.slots() {
            return None;
        }
        let mut w = self.word(s) & !Self::W::low_mask(b);
        loop {
            if !w.is_zero() {
                return Some(s * Self::W::BITS as usize + w.lowest() as usize);
            }
            s += 1;
            if s >= self.slots() {
                return None;
            }
            w = self.word(s);
        }
    }

    /// The `k`-th lowest position (0-based), if the domain has more than `k` positions.
    fn nth(&self, mut k: u32) -> Option<usize> {
        for s in 0..self.slots() {
            let mut w = self.word(s);
            let c = w.count();
            if k < c {
                for _ in 0..k {
                    w = w.clear_lowest();
                }
                return Some(s * Self::W::BITS as usize + w.lowest() as usize);
            }
            k -= c;
        }
        None
    }

    /// Iterates the positions in increasing order.
    fn iter(&self) -> DomainIter<'_, Self> {
        DomainIter {
            dom: self,
            slot: 0,
            word: if self.slots() > 0 {
                self.word(0)
            } else {
                Self::W::ZERO
            },
        }
    }

    /// Clears every bit (scratch domains only).
    fn clear(&mut self) {
        for s in 0..self.slots() {
            self.set_word(s, Self::W::ZERO);
        }
    }

    /// Sets bit `i` (scratch domains only).
    #[inline]
    fn insert(&mut self, i: usize) {
        let (s, b) = Self::locate(i);
        let w = self.word(s) | Self::W::bit(b);
        self.set_word(s, w);
    }
}

/// Iterator over the positions of a domain, lowest first.
pub struct DomainIter<'a, D: Domain> {
    dom: &'a D,
    slot: usize,
    word: D::W,
}

impl<D: Domain> Iterator for DomainIter<'_, D> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if !self.word.is_zero() {
                let b = self.word.lowest();
                self.word = self.word.clear_lowest();
                return Some(self.slot * D::W::BITS as usize + b as usize);
            }
            self.slot += 1;
            if self.slot >= self.dom.slots() {
                return None;
            }
            self.word = self.dom.word(self.slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<D: Domain>(width: usize) {
        let mut d = D::full(width);
        assert_eq!(d.count() as usize, width);
        assert_eq!(d.first(), Some(0));
        assert_eq!(d.last(), Some(width - 1));
        assert!(!d.contains(width));
        d.clear();
        assert_eq!(d.count(), 0);
        assert_eq!(d.first(), None);
        d.insert(width - 1);
        d.insert(3);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![3, width - 1]);
        assert_eq!(d.next_from(4), Some(width - 1));
        assert_eq!(d.nth(1), Some(width - 1));
        assert_eq!(d.nth(2), None);
    }

    /// A representation that implements only the required methods, so the provided ones (which `u64`, `u128`
    /// and [`WideDomain`] partly override with faster versions) are tested as a new representation would get them.
    #[derive(Clone, Debug)]
    struct Provided(Vec<u64>);

    impl Domain for Provided {
        type W = u64;
        const MAX_WIDTH: usize = 1024;
        fn full(width: usize) -> Self {
            let mut words = vec![0; width.div_ceil(64).max(1)];
            for i in 0..width {
                words[i / 64] |= 1 << (i % 64);
            }
            Self(words)
        }
        fn slots(&self) -> usize {
            self.0.len()
        }
        fn word(&self, s: usize) -> u64 {
            self.0[s]
        }
        fn set_word(&mut self, s: usize, w: u64) {
            self.0[s] = w;
        }
        fn view<T: PerRepresentation + ?Sized>(_: &T) -> &T::View<Self> {
            unreachable!("no constraint is posted on the test representation")
        }
    }

    /// Every query of `d` against the sorted positions `model` (positions below `width`).
    fn check_against_model<D: Domain>(d: &D, model: &[usize], width: usize) {
        assert_eq!(d.count() as usize, model.len(), "{model:?}");
        assert_eq!(d.first(), model.first().copied(), "{model:?}");
        assert_eq!(d.last(), model.last().copied(), "{model:?}");
        assert_eq!(d.iter().collect::<Vec<_>>(), model);
        let past = d.slots() * D::W::BITS as usize + 70;
        for i in 0..past {
            assert_eq!(d.contains(i), model.contains(&i), "contains({i}) {model:?}");
            let next = model.iter().copied().find(|&p| p >= i);
            assert_eq!(d.next_from(i), next, "next_from({i}) {model:?}");
        }
        for k in 0..=model.len() + 1 {
            assert_eq!(d.nth(k as u32), model.get(k).copied(), "nth({k}) {model:?}");
        }
        assert!(model.iter().all(|&p| p < width));
    }

    /// Random subsets of `{0, .., width - 1}` built with `insert` from an empty domain, and the same subsets
    /// carved out of the full domain with `set_word`, answer every query as the set of positions does.
    fn random_subsets_match_a_set_model<D: Domain>(width: usize, seed: u64) {
        let mut rng = crate::rng::Rng::new(seed);
        for _ in 0..40 {
            // Sparse, dense, empty and full sets, with the edges of words picked often.
            let density = rng.below(5);
            let mut model: Vec<usize> = (0..width)
                .filter(|&p| match density {
                    0 => false,
                    1 => rng.below(8) == 0,
                    2 => rng.below(2) == 0,
                    3 => p % 64 == 0 || p % 64 == 63 || p + 1 == width || rng.below(16) == 0,
                    _ => true,
                })
                .collect();
            model.dedup();
            let mut d = D::full(width);
            check_against_model(&d, &(0..width).collect::<Vec<_>>(), width);
            d.clear();
            check_against_model(&d, &[], width);
            for &p in &model {
                d.insert(p);
            }
            check_against_model(&d, &model, width);
            let mut carved = D::full(width);
            for s in 0..carved.slots() {
                carved.set_word(s, carved.word(s) & d.word(s));
            }
            check_against_model(&carved, &model, width);
        }
    }

    #[test]
    fn every_representation_matches_a_set_model_on_random_subsets() {
        for (seed, width) in [1, 2, 9, 63, 64].into_iter().enumerate() {
            random_subsets_match_a_set_model::<u64>(width, seed as u64);
        }
        for (seed, width) in [65, 100, 127, 128].into_iter().enumerate() {
            random_subsets_match_a_set_model::<u128>(width, seed as u64);
        }
        for (seed, width) in [129, 191, 192, 300].into_iter().enumerate() {
            random_subsets_match_a_set_model::<WideDomain>(width, seed as u64);
        }
        for (seed, width) in [1, 64, 65, 130, 200].into_iter().enumerate() {
            random_subsets_match_a_set_model::<Provided>(width, seed as u64);
        }
    }

    #[test]
    fn word_operations_agree_with_their_definitions() {
        fn check<W: Word + Into<u128>>() {
            let bits = W::BITS;
            assert!(W::ZERO.is_zero());
            for i in 0..bits {
                let b: u128 = W::bit(i).into();
                assert_eq!(b, 1u128 << i);
                assert!(!W::bit(i).is_zero());
                assert_eq!(W::bit(i).count(), 1);
                assert_eq!(W::bit(i).lowest(), i);
                assert_eq!(W::bit(i).highest(), i);
                assert!(W::bit(i).clear_lowest().is_zero());
                let two = W::bit(i) | W::bit(bits - 1);
                assert_eq!(two.highest(), bits - 1);
                assert_eq!(two.lowest(), i);
            }
            for n in 0..=bits {
                let m: u128 = W::low_mask(n).into();
                let expected = if n == 128 {
                    u128::MAX
                } else {
                    (1u128 << n) - 1
                };
                assert_eq!(m, expected, "low_mask({n})");
                assert_eq!(W::low_mask(n).count(), n);
            }
            assert_eq!(W::ZERO.lowest(), bits);
            assert!(W::splat(false).is_zero());
            assert_eq!(W::splat(true).count(), bits);
        }
        check::<u64>();
        check::<u128>();
    }

    #[test]
    fn every_representation_answers_the_same_queries() {
        exercise::<u64>(9);
        exercise::<u64>(64);
        exercise::<u128>(100);
        exercise::<u128>(128);
        exercise::<WideDomain>(129);
        exercise::<WideDomain>(4096);
    }
}
