//! csp-core (being built).
