//! The `pcl` binary: argument handling lives in the `pcl_cli` library; this
//! file only turns its result into a process exit status and makes sure a
//! panic anywhere below becomes a one-line "internal error" and status 2.

use std::io::Write;
use std::panic;
use std::process::ExitCode;

/// The binary allocates and frees many small tree and type nodes; mimalloc
/// does that markedly faster than the system allocator: in paired runs of
/// the check bench's generated 10 MB program with mimalloc for pcl and
/// hcl-edit alike, check / hcl-edit-parse time fell from 2.00 to 1.76. The
/// libraries do not choose an allocator, and the benches measure them with
/// the system one; peak memory of a parse is higher under mimalloc (12.2
/// rather than 9.7 bytes per source byte on the parse bench's 10 MB input).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's option number for `purge_delay` (`mi_option_purge_delay` in
/// the `mimalloc.h` of `libmimalloc-sys` 0.1.49, the same in mimalloc v2
/// and v3; the crate's bindings leave it out). Check it when upgrading.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

// Declared here, not through the bindings' `extended` feature, which would
// add a crate for one function; the symbol is in the mimalloc library that
// `mimalloc` links.
#[allow(unsafe_code)]
extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Freed memory goes back to the operating system at once. mimalloc keeps
/// the pages of a freed large block committed for `purge_delay` (1 s by
/// default) in case they are asked for again; a check runs in well under
/// a second and frees large blocks that are not (a vector grown by
/// doubling frees each smaller copy; the parse's scratch goes before the
/// binder's model is built), so they all stayed resident: the peak RSS of
/// `pcl check` on 2 MB of `[1,1,…]` was 61 bytes per source byte more than
/// an empty check's, and is 33 with immediate purging (#30; the libraries
/// measure 27 under the system allocator). Instruction counts do not
/// change (78.5 M either way for the corpus's 139 conformance programs),
/// nor did wall-clock time measurably. A user's `MIMALLOC_PURGE_DELAY`
/// still wins: the call is skipped when the variable is set.
fn purge_freed_memory_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    #[allow(unsafe_code)]
    // SAFETY: `mi_option_set` stores a value in mimalloc's option table
    // (an atomic store); it has no preconditions, takes no pointers, and
    // any delay is valid (0 = purge at once). With the declaration above,
    // the binary's only unsafe code.
    unsafe {
        mi_option_set(MI_OPTION_PURGE_DELAY, 0)
    };
}

fn main() -> ExitCode {
    purge_freed_memory_at_once();
    panic::set_hook(Box::new(|info| {
        let message = match info.payload().downcast_ref::<&str>() {
            Some(text) => (*text).to_string(),
            None => match info.payload().downcast_ref::<String>() {
                Some(text) => text.clone(),
                None => "unknown panic".to_string(),
            },
        };
        let location = info
            .location()
            .map(|loc| format!(" at {}:{}", loc.file(), loc.line()))
            .unwrap_or_default();
        let _ = writeln!(
            std::io::stderr(),
            "internal error: {message}{location}; please report this as a bug"
        );
    }));
    // `args_os`: an argument that is not UTF-8 is a path like any other.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match panic::catch_unwind(|| pcl_cli::run_then_exit(&args)) {
        Ok(status) => ExitCode::from(status.code()),
        Err(_) => ExitCode::from(pcl_cli::Status::Usage.code()),
    }
}
