//! Typed ids and the vector keyed by them.
//!
//! A `VarId` is only ever produced by [`crate::Model::new_var`] and friends; it carries the tag of the model that
//! created it so that handing a variable to the wrong model is an error instead of a silent mix-up.

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A decision variable of one [`crate::Model`]: its creation index plus the tag of the model that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId {
    index: u32,
    model: u32,
}

impl VarId {
    pub(crate) fn new(index: u32, model: u32) -> Self {
        Self { index, model }
    }

    /// Position of the variable in creation order; also its slot in [`crate::Solution::values`].
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }

    #[inline]
    pub(crate) fn raw(self) -> u32 {
        self.index
    }

    #[inline]
    pub(crate) fn model(self) -> u32 {
        self.model
    }
}

impl std::fmt::Display for VarId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "x{}", self.index)
    }
}

/// A posted constraint, numbered in posting order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstraintId(pub(crate) u32);

impl ConstraintId {
    /// Position of the constraint in posting order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Keys usable in a [`KeyedVec`]: a dense `u32` index.
pub trait Key: Copy {
    /// The dense index of the key.
    fn key(self) -> usize;
}

impl Key for u32 {
    #[inline]
    fn key(self) -> usize {
        self as usize
    }
}

impl Key for ConstraintId {
    #[inline]
    fn key(self) -> usize {
        self.0 as usize
    }
}

/// A vector indexed by one key type only, so a constraint index cannot be used where a variable index belongs.
#[derive(Clone, Debug)]
pub struct KeyedVec<K, T> {
    items: Vec<T>,
    _key: PhantomData<fn(K)>,
}

impl<K: Key, T> KeyedVec<K, T> {
    /// A vector of `len` copies of `value`.
    pub fn filled(len: usize, value: T) -> Self
    where
        T: Clone,
    {
        Self {
            items: vec![value; len],
            _key: PhantomData,
        }
    }

    /// Wraps an existing vector whose position `i` belongs to key `i`.
    pub fn from_vec(items: Vec<T>) -> Self {
        Self {
            items,
            _key: PhantomData,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entries as a plain slice (position = key index).
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }

    /// The entries as a mutable plain slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items
    }
}

impl<K: Key, T> Index<K> for KeyedVec<K, T> {
    type Output = T;
    #[inline]
    fn index(&self, k: K) -> &T {
        &self.items[k.key()]
    }
}

impl<K: Key, T> IndexMut<K> for KeyedVec<K, T> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut T {
        &mut self.items[k.key()]
    }
}
