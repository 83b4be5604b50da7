//! Fuzz target `expr_template`: see `fuzz/README.md` and `pcl_fuzz::expr_template`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(message) = pcl_fuzz::expr_template(data) {
        panic!("invariant violated: {message}");
    }
});
