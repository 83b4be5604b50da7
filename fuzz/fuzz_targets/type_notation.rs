//! Fuzz target `type_notation`: see `fuzz/README.md` and `pcl_fuzz::type_notation`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(message) = pcl_fuzz::type_notation(data) {
        panic!("invariant violated: {message}");
    }
});
