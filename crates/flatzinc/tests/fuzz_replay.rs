//! Replays the saved fuzz inputs of `parse_fzn` (fuzz/corpus, fuzz/regressions) through the target's body, and
//! every prefix of the seeds, on stable.

use std::path::Path;

#[test]
fn saved_fuzz_inputs_keep_their_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut n = 0;
    for dir in ["corpus/parse_fzn", "regressions/parse_fzn"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let data = std::fs::read(e.path()).expect("read fuzz input");
            flatzinc::fuzz_targets::fuzz_fzn(&data);
            if e.file_name().to_string_lossy().starts_with("seed_") {
                for cut in (0..data.len()).step_by(7) {
                    flatzinc::fuzz_targets::fuzz_fzn(&data[..cut]);
                }
            }
            n += 1;
        }
    }
    assert!(n >= 3, "expected the seed corpus, found {n} inputs");
}

/// A stable stand-in for a fuzzing session: seeded mutations of the seed inputs (byte replaced by a FlatZinc
/// token character, byte deleted, chunk duplicated) through the target's body.
#[test]
fn mutated_seed_inputs_keep_their_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/parse_fzn");
    let alphabet = b"0123456789-.:;,()[]{}=% \nabxyz_\"";
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let mut runs = 0;
    for e in std::fs::read_dir(root).expect("seed corpus").flatten() {
        let seed = std::fs::read(e.path()).expect("read seed");
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
