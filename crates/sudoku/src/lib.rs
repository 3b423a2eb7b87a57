//! sudoku (being built).

pub mod fast;
