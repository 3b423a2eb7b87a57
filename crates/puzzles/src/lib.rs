//! puzzles (being built).
