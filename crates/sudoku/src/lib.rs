//! sudoku (being built).
