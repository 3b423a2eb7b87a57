//! Parallel counting on a shared machine: how much extra work parallel search does and how evenly it spreads,
//! measured in CPU time per thread, which other jobs on the machine do not inflate (wall time does).
//!
//! `cargo run --release -p csp-core --example parallel_balance -- [N=12] [THREADS=2] [RUNS=5]`
//!
//! Counts all N-Queens solutions sequentially and with `parallel::count` on a pool of THREADS workers, RUNS times
//! alternating, and prints medians of:
//! - `seq cpu`: CPU time of the sequential count;
//! - `par cpu`: CPU time of the parallel count summed over the calling thread (the split) and every worker;
//! - `work ratio` = par cpu / seq cpu: extra work of going parallel (1.0 = none);
//! - `busiest`: the split plus the busiest worker's CPU time, the critical path when each worker has a core;
//! - `cpu-bound speedup` = seq cpu / busiest: the speedup the schedule allows on an idle machine (THREADS at most).
//!
//! Worker CPU times are read from `/proc/thread-self/schedstat` (Linux) when the pool's threads exit.
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};
use std::time::Instant;

use csp_core::{parallel, Model, Problem, SearchConfig, Solver, VarId};

fn queens(n: usize) -> Problem {
    let mut m = Model::new();
    let q: Vec<VarId> = (0..n)
        .map(|_| m.new_var(0, n as i64 - 1).unwrap())
        .collect();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    m.build().unwrap()
}

/// CPU time of the calling thread in seconds (`None` off Linux).
fn thread_cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(12, |s| s.parse().unwrap());
    let threads: usize = args.get(2).map_or(2, |s| s.parse().unwrap());
    let runs: usize = args.get(3).map_or(5, |s| s.parse().unwrap());
    let p = queens(n);
    let cfg = SearchConfig::default();
    let (mut seq_cpu, mut seq_wall, mut par_cpu, mut par_wall, mut busiest) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut expected = None;
    for _ in 0..runs {
        let t = Instant::now();
        let c0 = thread_cpu_secs().unwrap_or(0.0);
        let r = Solver::new(&p, cfg.clone()).count(&[], u64::MAX);
        seq_cpu.push(thread_cpu_secs().unwrap_or(0.0) - c0);
        seq_wall.push(t.elapsed().as_secs_f64());
        expected = Some(r.count);

        let workers: Arc<Mutex<Vec<f64>>> = Arc::default();
        let sink = Arc::clone(&workers);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .exit_handler(move |_| {
                sink.lock().unwrap().push(thread_cpu_secs().unwrap_or(0.0));
            })
            .build()
            .unwrap();
        let t = Instant::now();
        let c0 = thread_cpu_secs().unwrap_or(0.0);
        let r = pool.install(|| parallel::count(&p, &cfg, u64::MAX));
        let main_cpu = thread_cpu_secs().unwrap_or(0.0) - c0;
        par_wall.push(t.elapsed().as_secs_f64());
        drop(pool);
        // Exit handlers run on the workers as they shut down; wait for all of them.
        while workers.lock().unwrap().len() < threads {
            std::thread::yield_now();
        }
        let w = workers.lock().unwrap().clone();
        if std::env::var_os("BALANCE_VERBOSE").is_some() {
            eprintln!(
                "split {:.1} ms, workers {:?} ms",
                main_cpu * 1e3,
                w.iter()
                    .map(|x| (x * 1e4).round() / 10.0)
                    .collect::<Vec<_>>()
            );
        }
        assert_eq!(Some(r.count), expected, "parallel count differs");
        par_cpu.push(main_cpu + w.iter().sum::<f64>());
        busiest.push(main_cpu + w.iter().cloned().fold(0.0, f64::max));
    }
    let (sc, pc, b) = (median(seq_cpu), median(par_cpu), median(busiest));
    println!(
        "n={n} threads={threads} runs={runs}: {} solutions\n  seq cpu {:.1} ms (wall {:.1} ms)\n  par cpu {:.1} ms (wall {:.1} ms)\n  work ratio {:.3}\n  busiest {:.1} ms -> cpu-bound speedup {:.2}x (wall speedup {:.2}x)",
        expected.unwrap_or(0),
        sc * 1e3,
        median(seq_wall.clone()) * 1e3,
        pc * 1e3,
        median(par_wall.clone()) * 1e3,
        pc / sc,
        b * 1e3,
        sc / b,
        median(seq_wall) / median(par_wall),
    );
}
