//! Shared by the `depth_limits` and `robustness` tests: running a check on
//! a small stack.

/// The stack size the depth and robustness cases run with (what a Rust
/// test thread gets by default, and less than a main thread): small enough
/// that unbounded recursion over user input overflows it.
pub const STACK: usize = 2 * 1024 * 1024;

/// Runs `f` on a thread with a [`STACK`]-byte stack; a stack overflow there
/// aborts the test binary, a panic fails the test.
pub fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .unwrap_or_else(|e| panic!("cannot spawn a thread: {e}"));
    match handle.join() {
        Ok(value) => value,
        Err(payload) => std::panic::resume_unwind(payload),
    }
}
