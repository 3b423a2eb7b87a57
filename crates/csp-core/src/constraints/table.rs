//! `table`: the scope must take one of the allowed tuples. Generalised arc consistency by scanning the tuples that
//! are still valid and keeping only supported positions.

use crate::domain::Domain;
use crate::state::{Conflict, State};

/// Allowed tuples over a scope.
#[derive(Clone, Debug)]
pub struct Table {
    /// Scope.
    pub vars: Vec<u32>,
    /// The tuples as posted (values), row-major, `vars.len()` per row.
    pub tuples: Vec<i64>,
    /// Number of tuples posted (needed when the scope is empty).
    count: usize,
    /// The tuples whose every value is in its variable's initial domain, as positions, row-major.
    rows: Vec<u32>,
}

impl Table {
    /// Builds the constraint from value tuples and their translation to positions (tuples with a value outside the
    /// initial domain are already dropped from `rows`).
    pub fn new(vars: Vec<u32>, tuples: Vec<i64>, count: usize, rows: Vec<u32>) -> Self {
        Self {
            vars,
            tuples,
            count,
            rows,
        }
    }

    /// Brute force: the assignment is one of the tuples.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let n = self.vars.len();
        if n == 0 {
            return self.count > 0;
        }
        self.tuples
            .chunks(n)
            .any(|t| self.vars.iter().zip(t).all(|(&v, &x)| value_of(v) == x))
    }

    /// Keeps the positions that appear in some tuple whose positions are all still in their domains.
    pub fn propagate<D: Domain>(&self, st: &mut State<D>) -> Result<(), Conflict> {
        let n = self.vars.len();
        if n == 0 {
            return if self.count > 0 {
                Ok(())
            } else {
                Err(st.conflict())
            };
        }
        let mut support = std::mem::take(&mut st.scratch);
        for d in support.iter_mut().take(n) {
            d.clear();
        }
        let mut any = false;
        for row in self.rows.chunks(n) {
            if self
                .vars
                .iter()
                .zip(row)
                .all(|(&v, &p)| st.dom(v).contains(p as usize))
            {
                any = true;
                for (d, &p) in support.iter_mut().zip(row) {
                    d.insert(p as usize);
                }
            }
        }
        let result = if any {
            self.vars
                .iter()
                .zip(&support)
                .try_for_each(|(&v, s)| st.intersect(v, s).map(|_| ()))
        } else {
            Err(st.conflict())
        };
        st.scratch = support;
        result
    }
}
