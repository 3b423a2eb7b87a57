//! Replays the saved fuzz inputs of `parse_fzn` (fuzz/corpus, fuzz/regressions) through the target's body (the
//! harness: [`test_support::replay`]), every prefix of the seeds, and seeded mutations of them, on stable.

use csp_core::rng::Rng;

#[test]
fn saved_fuzz_inputs_keep_their_properties() {
    let ran = test_support::replay("parse_fzn", |data| {
        flatzinc::fuzz_targets::fuzz_fzn(data);
    });
    assert!(ran >= 3, "expected the seed corpus, found {ran} inputs");
}

#[test]
fn every_prefix_of_the_seed_inputs_keeps_the_properties() {
    let seeds = seeds();
    assert!(seeds.len() >= 3, "expected the seed corpus");
    for data in &seeds {
        for cut in (0..data.len()).step_by(7) {
            flatzinc::fuzz_targets::fuzz_fzn(&data[..cut]);
        }
    }
}

/// The hand-written `seed_*` inputs of the corpus.
fn seeds() -> Vec<Vec<u8>> {
    test_support::fuzz_inputs("parse_fzn")
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("seed_"))
        })
        .map(|p| std::fs::read(&p).expect("read a seed input"))
        .collect()
}

/// A stable stand-in for a fuzzing session: seeded mutations of the seed inputs (byte replaced by a FlatZinc
/// token character, byte deleted, chunk duplicated) through the target's body.
#[test]
fn mutated_seed_inputs_keep_their_properties() {
    let alphabet = b"0123456789-.:;,()[]{}=% \nabxyz_\"";
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut rnd = |n: usize| rng.below_usize(n.max(1));
    let mut runs = 0;
    for seed in seeds() {
        for _ in 0..400 {
            let mut data = seed.clone();
            for _ in 0..1 + rnd(4) {
                if data.is_empty() {
                    break;
                }
                let at = rnd(data.len());
                match rnd(3) {
                    0 => data[at] = alphabet[rnd(alphabet.len())],
                    1 => {
                        data.remove(at);
                    }
                    _ => {
                        let end = (at + rnd(12)).min(data.len());
                        let chunk = data[at..end].to_vec();
                        data.splice(at..at, chunk);
                    }
                }
            }
            flatzinc::fuzz_targets::fuzz_fzn(&data);
            runs += 1;
        }
    }
    assert!(runs >= 1200);
}
