//! `AntiFirstFail`: largest domain first (MiniZinc's `anti_first_fail`, Gecode's `INT_VAR_SIZE_MAX`); ties by
//! lowest id or at random.

use std::cmp::Reverse;

use super::Merit;
use crate::domain::Domain;
use crate::state::State;

/// Merit = domain size (popcount), the largest wins.
#[derive(Clone, Copy, Debug)]
pub struct LargestSize;

impl Merit for LargestSize {
    type Score = Reverse<u32>;
    #[inline(always)]
    fn score<D: Domain>(&mut self, _st: &State<D>, _v: u32, size: u32) -> Reverse<u32> {
        Reverse(size)
    }
}
