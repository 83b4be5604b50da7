//! pcl_lsp: `pcl lsp`, a language server for PCL over stdio.
//!
//! This crate owns the Language Server Protocol side only: the message
//! loop, documents open in the editor, the mapping of byte spans to LSP
//! positions, and the translation of what the library already knows
//! (diagnostics with their fixes, typed bound expressions, declarations)
//! into LSP answers. It must not check, type or format anything itself:
//! programs are bound by `pcl_binder`, formatted by `pcl_fmt`, and schemas
//! loaded through one `pcl_binder::SchemaCache` per server.
//!
//! The stack is synchronous (`lsp-server` + `lsp-types`, as rust-analyzer
//! and ruff use): one thread reads messages and answers them in order.
//! [`run`] drives a server over any [`lsp_server::Connection`], so tests
//! speak JSON-RPC to it in memory ([`lsp_server::Connection::memory`]);
//! [`run_stdio`] is `pcl lsp`.
//!
//! A program is the directory of the open file: its `.pp` files, open
//! buffers overriding the disk. Every change re-checks that program and
//! publishes diagnostics for each of its files.
//!
//! Completion and signature help read where the cursor is from the tokens
//! around it (`context`), so they answer while the text does not parse,
//! and rank what they offer with a fuzzy matcher of their own (`fuzzy`).

mod completion;
mod component;
mod context;
mod fuzzy;
mod inbox;
mod position;
mod semantic;
mod server;
mod settings;
mod signature;
mod walk;

pub use position::{Encoding, Lines};
pub use settings::Settings;

use lsp_server::Connection;

/// Runs the server on stdin/stdout until the client says `exit`.
/// `Err` when the protocol broke down or `exit` came before `shutdown`
/// (the caller exits with a non-zero status then); its text may quote
/// what the client sent, with control characters escaped so that it can
/// be printed on a terminal.
pub fn run_stdio() -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    let result = run(connection);
    let joined = io_threads.join().map_err(|e| e.to_string());
    result
        .and(joined)
        .map_err(|e| pcl_diagnostics::escape(&e).into_owned())
}

/// Runs the server over `connection`: the `initialize` handshake, then
/// every message until `exit`. See [`run_stdio`] for the result.
pub fn run(connection: Connection) -> Result<(), String> {
    server::Server::start(&connection)?.main_loop(&connection)
}

#[cfg(test)]
mod tests {
    #[test]
    fn errors_are_safe_to_print() {
        assert_eq!(
            pcl_diagnostics::escape("bad header \u{1b}[31m\n"),
            "bad header \\u{1b}[31m\\n"
        );
    }
}
