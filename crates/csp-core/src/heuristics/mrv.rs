//! `Mrv`: smallest domain first (Gecode's "merit: size, pick the minimum"); ties by lowest id or at random.

use super::Merit;
use crate::domain::Domain;
use crate::state::State;

/// Merit = domain size (popcount); nothing beats 2.
#[derive(Clone, Copy, Debug)]
pub struct Size;

impl Merit for Size {
    type Score = u32;
    #[inline(always)]
    fn score<D: Domain>(&mut self, _st: &State<D>, _v: u32, size: u32) -> u32 {
        size
    }
    #[inline(always)]
    fn floor(&self) -> Option<u32> {
        Some(2)
    }
}
