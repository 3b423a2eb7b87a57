//! Splitting one run over N independent processes: `--shard I/N`, or the index a cluster scheduler hands out.
//!
//! A run of tens of millions of puzzles belongs on a scheduler that already exists (Slurm job arrays, Kubernetes
//! Indexed Jobs), not on one of ours. Each process takes the shard of the input whose 0-based item index `k`
//! satisfies `k % N == I` (puzzle index in a file, candidate number in the generator's stream), so N processes
//! given `0/N` .. `N-1/N` cover every item exactly once, with no coordination and balanced work.
//!
//! Where I and N come from, first match wins:
//! 1. the `--shard I/N` flag (`I` is 0-based: `0/4` .. `3/4`);
//! 2. Slurm job arrays: `SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN` (0 when unset), and
//!    `SLURM_ARRAY_TASK_COUNT`;
//! 3. Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`, with the count in `JOB_COMPLETIONS` (Kubernetes sets the
//!    index but not the count, so the manifest passes `.spec.completions` in that variable; see `docs/cluster.md`).
//!
//! ```
//! use sudoku::shard::Shard;
//! let shard: Shard = "1/4".parse().expect("a valid shard");
//! let mine: Vec<usize> = (0..10).filter(|&k| shard.contains(k)).collect();
//! assert_eq!(mine, [1, 5, 9]);
//! assert!("4/4".parse::<Shard>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Every environment variable [`Shard::resolve`] reads (tests clear them so a caller's scheduler cannot leak in).
pub const ENV_VARS: [&str; 5] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_COUNT",
    "JOB_COMPLETION_INDEX",
    "JOB_COMPLETIONS",
];

/// One shard of a split run: `index` in `0..count`. The whole run is the shard `0/1`.
///
/// Deserializing checks the invariant as [`Shard::new`] does, so a shard read from a report can never divide by 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawShard")]
pub struct Shard {
    /// 0-based shard number, below `count`.
    pub index: u64,
    /// Number of shards, at least 1.
    pub count: u64,
}

/// A shard as written in a file, before [`Shard::new`] checks it.
#[derive(Deserialize)]
struct RawShard {
    index: u64,
    count: u64,
}

impl TryFrom<RawShard> for Shard {
    type Error = ShardError;

    fn try_from(raw: RawShard) -> Result<Shard, ShardError> {
        Shard::new(raw.index, raw.count)
    }
}

/// A shard that could not be read from a flag or the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// The unsplit run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// A shard, checked: `count >= 1` and `index < count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError("the shard count must be at least 1".into()));
        }
        if index >= count {
            return Err(ShardError(format!(
                "shard index {index} is out of range: shards of {count} are numbered 0 to {} (0-based)",
                count - 1
            )));
        }
        Ok(Shard { index, count })
    }

    /// True when the item with 0-based position `k` belongs to this shard.
    pub fn contains(&self, k: usize) -> bool {
        k as u64 % self.count == self.index
    }

    /// True for the unsplit run `0/1`.
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The shard the flag gives, else the one the environment gives (Slurm job arrays, Kubernetes Indexed
    /// Jobs), else `None`. A variable that is set but malformed is an error naming it, never silently ignored.
    pub fn resolve(flag: Option<Shard>) -> Result<Option<Shard>, ShardError> {
        if flag.is_some() {
            return Ok(flag);
        }
        Shard::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Shard::resolve`]'s environment part, reading variables through `var` (tests pass a map).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, ShardError> {
        let number =
            |name: &str| -> Result<Option<u64>, ShardError> {
                match var(name) {
                    None => Ok(None),
                    Some(v) => v.trim().parse::<u64>().map(Some).map_err(|_| {
                        ShardError(format!("{name}={v:?} is not a non-negative integer"))
                    }),
                }
            };
        if let (Some(id), Some(count)) = (
            number("SLURM_ARRAY_TASK_ID")?,
            number("SLURM_ARRAY_TASK_COUNT")?,
        ) {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let index = id.checked_sub(min).ok_or_else(|| {
                ShardError(format!(
                    "SLURM_ARRAY_TASK_ID={id} is below SLURM_ARRAY_TASK_MIN={min}"
                ))
            })?;
            return Shard::new(index, count)
                .map(Some)
                .map_err(|e| ShardError(format!("from SLURM_ARRAY_TASK_*: {e}")));
        }
        match (number("JOB_COMPLETION_INDEX")?, number("JOB_COMPLETIONS")?) {
            (Some(index), Some(count)) => Shard::new(index, count)
                .map(Some)
                .map_err(|e| ShardError(format!("from JOB_COMPLETION_INDEX: {e}"))),
            (Some(_), None) => Err(ShardError(
                "JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS (the Indexed Job's completions count) is not; \
                 set it in the manifest or pass --shard I/N"
                    .into(),
            )),
            _ => Ok(None),
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || {
            ShardError(format!(
                "`{s}` is not a shard: write I/N, e.g. 0/4 (I is 0-based)"
            ))
        };
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index = i.trim().parse().map_err(|_| bad())?;
        let count = n.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn shards_of_a_split_cover_every_index_exactly_once() {
        for count in 1..6 {
            let shards: Vec<Shard> = (0..count).map(|i| Shard::new(i, count).unwrap()).collect();
            for k in 0..50 {
                assert_eq!(shards.iter().filter(|s| s.contains(k)).count(), 1);
            }
        }
    }

    #[test]
    fn malformed_shards_are_errors_that_say_how_to_write_one() {
        for bad in ["", "3", "a/4", "1/", "-1/4", "4/4", "0/0", "1/2/3"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains("shard"), "{bad}: {e}");
        }
        assert_eq!(
            " 2 / 5 ".parse::<Shard>().unwrap(),
            Shard::new(2, 5).unwrap()
        );
    }

    #[test]
    fn slurm_array_variables_give_a_zero_based_shard() {
        let s = Shard::from_vars(vars(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]))
        .unwrap();
        assert_eq!(s, Some(Shard::new(3, 4).unwrap()));
        let s = Shard::from_vars(vars(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ]))
        .unwrap();
        assert_eq!(s, Some(Shard::new(0, 2).unwrap()));
    }

    #[test]
    fn kubernetes_indexed_jobs_need_the_completions_count() {
        let s = Shard::from_vars(vars(&[
            ("JOB_COMPLETION_INDEX", "2"),
            ("JOB_COMPLETIONS", "3"),
        ]))
        .unwrap();
        assert_eq!(s, Some(Shard::new(2, 3).unwrap()));
        let e = Shard::from_vars(vars(&[("JOB_COMPLETION_INDEX", "2")])).unwrap_err();
        assert!(e.to_string().contains("JOB_COMPLETIONS"));
    }

    #[test]
    fn malformed_scheduler_variables_are_errors_naming_the_variable() {
        let e = Shard::from_vars(vars(&[
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ]))
        .unwrap_err();
        assert!(e.to_string().contains("SLURM_ARRAY_TASK_ID"));
        let e = Shard::from_vars(vars(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ]))
        .unwrap_err();
        assert!(e.to_string().contains("out of range"));
    }

    #[test]
    fn a_shard_read_from_json_is_checked_like_a_flag() {
        let s: Shard = serde_json::from_str(r#"{"index":1,"count":3}"#).unwrap();
        assert_eq!(s, Shard::new(1, 3).unwrap());
        assert!(serde_json::from_str::<Shard>(r#"{"index":0,"count":0}"#).is_err());
        assert!(serde_json::from_str::<Shard>(r#"{"index":3,"count":3}"#).is_err());
    }

    #[test]
    fn without_flag_or_variables_there_is_no_shard() {
        assert_eq!(Shard::from_vars(|_| None).unwrap(), None);
        let flag = Some(Shard::new(1, 2).unwrap());
        assert_eq!(Shard::resolve(flag).unwrap(), flag);
    }
}
