//! Fuzz target `check`: see `fuzz/README.md` and `pcl_fuzz::check_program_bytes`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(message) = pcl_fuzz::check_program_bytes(data) {
        panic!("invariant violated: {message}");
    }
});
