//! `Input`: the first unassigned variable in creation order.

use super::Merit;
use crate::domain::Domain;
use crate::state::State;

/// Merit = creation index; the first candidate is the answer.
#[derive(Clone, Copy, Debug)]
pub struct Input;

impl Merit for Input {
    type Score = u32;
    #[inline(always)]
    fn score<D: Domain>(&mut self, _st: &State<D>, v: u32, _size: u32) -> u32 {
        v
    }
    #[inline(always)]
    fn floor(&self) -> Option<u32> {
        Some(u32::MAX)
    }
}
