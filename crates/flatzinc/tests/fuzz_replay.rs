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
