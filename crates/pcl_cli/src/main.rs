//! The `pcl` binary: argument handling lives in the `pcl_cli` library; this
//! file only turns its result into a process exit status and makes sure a
//! panic anywhere below becomes a one-line "internal error" and status 2.

use std::io::Write;
use std::panic;
use std::process::ExitCode;

/// The binary allocates and frees many small tree and type nodes; mimalloc
/// does that markedly faster than the system allocator (a full check of the
/// check bench's generated program takes about 0.85x the time). The
/// libraries do not choose an allocator; the benches use this one too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    match panic::catch_unwind(|| pcl_cli::run(&args)) {
        Ok(status) => ExitCode::from(status.code()),
        Err(_) => ExitCode::from(pcl_cli::Status::Usage.code()),
    }
}
