//! bench-runner (being built).
