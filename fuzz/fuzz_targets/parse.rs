//! Fuzz target `parse`: see `fuzz/README.md` and `pcl_fuzz::parse_nonempty`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(message) = pcl_fuzz::parse_nonempty(data) {
        panic!("invariant violated: {message}");
    }
});
