//! A log-linear histogram of durations: bounded memory whatever the dataset size, percentiles within 1.6%.
//!
//! Bucket layout (values in nanoseconds):
//!
//! ```text
//! v < 64              -> bucket v (exact)
//! v in [2^e, 2^(e+1)) -> bucket (e - 5) * 64 + (the 6 bits of v after its leading one),  e = 6..=63
//! ```
//!
//! so each power of two is split into 64 equal buckets (relative width 1/64). Mean, minimum and maximum are kept
//! exactly beside the buckets. Keeping every per-puzzle time instead would cost 8 bytes per puzzle and solver:
//! 640 MB for a 10-million-line file and eight solvers.

use std::time::Duration;

use serde::{Deserialize, Serialize};

const SUB_BITS: u32 = 6;
const SUB: usize = 1 << SUB_BITS;
const BUCKETS: usize = (64 - SUB_BITS as usize + 1) * SUB;

/// Counts of durations in log-linear buckets, with exact count, sum, minimum and maximum.
///
/// Serialized sparsely (non-empty buckets only, see [`HistogramData`]) so that `bench-runner merge` can add the
/// histograms of shards run on other machines and get the percentiles of the whole run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "HistogramData", try_from = "HistogramData")]
pub struct Histogram {
    buckets: Vec<u64>,
    count: u64,
    sum_nanos: u128,
    min_nanos: u64,
    max_nanos: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: vec![0; BUCKETS],
            count: 0,
            sum_nanos: 0,
            min_nanos: u64::MAX,
            max_nanos: 0,
        }
    }
}

fn bucket_of(v: u64) -> usize {
    if v < SUB as u64 {
        return v as usize;
    }
    let e = 63 - v.leading_zeros();
    let mantissa = (v >> (e - SUB_BITS)) as usize & (SUB - 1);
    (e - SUB_BITS + 1) as usize * SUB + mantissa
}

/// Lowest and one-past-highest value of a bucket.
fn bucket_range(i: usize) -> (u64, u64) {
    if i < SUB {
        return (i as u64, i as u64 + 1);
    }
    let e = (i / SUB) as u32 + SUB_BITS - 1;
    let m = (i % SUB) as u64;
    let lo = (SUB as u64 + m) << (e - SUB_BITS);
    (lo, lo.saturating_add(1 << (e - SUB_BITS)))
}

/// The serialized form of a [`Histogram`]: its non-empty buckets as `[index, count]` pairs plus the exact figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HistogramData {
    /// `[bucket index, count]` for every non-empty bucket, in increasing index order.
    buckets: Vec<(usize, u64)>,
    /// Number of recorded values (the sum of the bucket counts).
    count: u64,
    /// Exact sum in nanoseconds.
    sum_nanos: u128,
    /// Exact minimum in nanoseconds (`u64::MAX` when empty).
    min_nanos: u64,
    /// Exact maximum in nanoseconds (0 when empty).
    max_nanos: u64,
}

impl From<Histogram> for HistogramData {
    fn from(h: Histogram) -> Self {
        HistogramData {
            buckets: h
                .buckets
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(i, &c)| (i, c))
                .collect(),
            count: h.count,
            sum_nanos: h.sum_nanos,
            min_nanos: h.min_nanos,
            max_nanos: h.max_nanos,
        }
    }
}

impl TryFrom<HistogramData> for Histogram {
    type Error = String;

    /// Rebuilds a histogram, checking that bucket indices exist, their counts add up to `count`, and the minimum is
    /// not above the maximum.
    fn try_from(d: HistogramData) -> Result<Self, String> {
        let mut h = Histogram::default();
        let mut total: u64 = 0;
        for (i, c) in d.buckets {
            let slot = h.buckets.get_mut(i).ok_or_else(|| {
                format!("histogram bucket {i} does not exist (at most {BUCKETS})")
            })?;
            *slot += c;
            total = total
                .checked_add(c)
                .ok_or_else(|| "histogram counts overflow".to_string())?;
        }
        if total != d.count {
            return Err(format!(
                "histogram buckets hold {total} values but its count says {}",
                d.count
            ));
        }
        // Quantiles clamp into [min, max]: a file claiming min > max must be refused, not reach that clamp.
        if d.count > 0 && d.min_nanos > d.max_nanos {
            return Err(format!(
                "histogram minimum {} ns is above its maximum {} ns",
                d.min_nanos, d.max_nanos
            ));
        }
        h.count = d.count;
        h.sum_nanos = d.sum_nanos;
        h.min_nanos = d.min_nanos;
        h.max_nanos = d.max_nanos;
        Ok(h)
    }
}

impl Histogram {
    /// Records one duration.
    pub fn record(&mut self, d: Duration) {
        let v = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.buckets[bucket_of(v)] += 1;
        self.count += 1;
        self.sum_nanos += u128::from(v);
        self.min_nanos = self.min_nanos.min(v);
        self.max_nanos = self.max_nanos.max(v);
    }

    /// Adds every value of `other` into `self`.
    pub fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.buckets.iter_mut().zip(&other.buckets) {
            *a += b;
        }
        self.count += other.count;
        self.sum_nanos += other.sum_nanos;
        self.min_nanos = self.min_nanos.min(other.min_nanos);
        self.max_nanos = self.max_nanos.max(other.max_nanos);
    }

    /// Number of recorded values.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Exact sum of the recorded values.
    pub fn sum(&self) -> Duration {
        Duration::from_nanos(u64::try_from(self.sum_nanos).unwrap_or(u64::MAX))
    }

    /// Exact mean in microseconds (0 when empty).
    pub fn mean_micros(&self) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        self.sum_nanos as f64 / self.count as f64 / 1e3
    }

    /// Exact maximum in microseconds (0 when empty).
    pub fn max_micros(&self) -> f64 {
        self.max_nanos as f64 / 1e3
    }

    /// The `q`-quantile (0 < q <= 1) in microseconds: the value at rank ceil(q * count), as the middle of its
    /// bucket clamped to the exact minimum and maximum (0 when empty).
    pub fn quantile_micros(&self, q: f64) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (i, &c) in self.buckets.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let (lo, hi) = bucket_range(i);
                let mid = lo + (hi - 1 - lo) / 2;
                return mid.clamp(self.min_nanos, self.max_nanos) as f64 / 1e3;
            }
        }
        self.max_micros()
    }

    /// Non-empty buckets as (upper bound in microseconds, count), in increasing order: the steps of a cactus
    /// plot or the bars of a histogram.
    pub fn steps_micros(&self) -> Vec<(f64, u64)> {
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| {
                let hi = bucket_range(i).1.min(self.max_nanos.saturating_add(1));
                (hi as f64 / 1e3, c)
            })
            .collect()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_value_falls_inside_its_bucket() {
        for v in (0..5000u64).chain([1 << 20, (1 << 40) + 12345, u64::MAX]) {
            let (lo, hi) = bucket_range(bucket_of(v));
            assert!(
                lo <= v && (v < hi || hi == u64::MAX),
                "{v} outside [{lo}, {hi})"
            );
        }
    }

    #[test]
    fn quantiles_are_within_two_percent_of_the_exact_ones() {
        let mut h = Histogram::default();
        let values: Vec<u64> = (1..=10_000u64)
            .map(|i| i * i * 37 % 1_000_003 + 100)
            .collect();
        for &v in &values {
            h.record(Duration::from_nanos(v));
        }
        let mut sorted = values.clone();
        sorted.sort_unstable();
        for q in [0.5, 0.9, 0.99] {
            let exact = sorted[(q * sorted.len() as f64).ceil() as usize - 1] as f64 / 1e3;
            let approx = h.quantile_micros(q);
            assert!(
                (approx - exact).abs() <= exact * 0.02,
                "q{q}: {approx} vs {exact}"
            );
        }
        assert_eq!(h.max_micros(), *sorted.last().unwrap() as f64 / 1e3);
        assert_eq!(h.count(), 10_000);
    }

    #[test]
    fn merging_equals_recording_everything_in_one() {
        let (mut a, mut b, mut all) = (
            Histogram::default(),
            Histogram::default(),
            Histogram::default(),
        );
        for v in 0..1000u64 {
            let d = Duration::from_nanos(v * 977);
            if v % 3 == 0 {
                a.record(d)
            } else {
                b.record(d)
            }
            all.record(d);
        }
        a.merge(&b);
        assert_eq!(a.steps_micros(), all.steps_micros());
        assert_eq!(a.mean_micros(), all.mean_micros());
    }

    #[test]
    fn a_histogram_survives_a_json_round_trip_and_bad_data_is_refused() {
        let mut h = Histogram::default();
        for v in [3u64, 70, 70, 12_345, 9_999_999] {
            h.record(Duration::from_nanos(v));
        }
        let text = serde_json::to_string(&h).unwrap();
        let back: Histogram = serde_json::from_str(&text).unwrap();
        assert_eq!(back, h);
        assert_eq!(back.quantile_micros(0.5), h.quantile_micros(0.5));
        let lying = text.replace("\"count\":5", "\"count\":6");
        assert!(serde_json::from_str::<Histogram>(&lying).is_err());
        let inverted = text.replace("\"min_nanos\":3", "\"min_nanos\":99999999");
        assert_ne!(inverted, text);
        assert!(serde_json::from_str::<Histogram>(&inverted).is_err());
        let empty: Histogram =
            serde_json::from_str(&serde_json::to_string(&Histogram::default()).unwrap()).unwrap();
        assert_eq!(empty, Histogram::default());
    }
}
