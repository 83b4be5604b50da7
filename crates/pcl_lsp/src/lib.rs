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
//! [`transport::serve`] drives it over any byte stream (the framing is
//! this crate's own: see [`transport`]), and [`run_stdio`], which is
//! `pcl lsp`, over stdin/stdout.
//!
//! A program is the directory of the open file: its `.pp` files, open
//! buffers overriding the disk, read as `pcl check` reads them (`files`:
//! the same root, canonical directories, regular files only). Every change
//! re-checks that program and publishes diagnostics for each of its files;
//! a program whose last open document closes is forgotten.
//!
//! Completion and signature help read where the cursor is from the tokens
//! around it (`context`: the block, the path of keys down to a nested
//! object, the traversal before a `.`), so they answer while the text does
//! not parse, and rank what they offer with a fuzzy matcher of their own
//! (`fuzzy`). Nested keys and enum values are looked up in the schemas
//! along that path (`schema_path`, which hover uses too); the properties
//! after a `.` come from the types of the last analysis (`members`).
//! Hover on a diagnostic shows its code's explanation from
//! `pcl_diagnostics::catalogue`, the text of `pcl explain`.

mod completion;
mod component;
mod context;
mod files;
mod fuzzy;
mod inbox;
mod members;
mod position;
mod schema_path;
mod semantic;
mod server;
mod settings;
mod signature;
pub mod transport;
mod walk;

pub use position::{Encoding, Lines};
pub use settings::Settings;

use lsp_server::Connection;

/// Runs the server on stdin/stdout until the client says `exit` or the
/// input ends (see [`transport`]). `Err` when `exit` came before
/// `shutdown` or the output could not be written (the caller exits with
/// status 1 then); the input ending, between messages or inside one,
/// ends the server with `Ok` after a line on standard error that says
/// how. The error's text may quote what the client sent, with control
/// characters escaped so that it can be printed on a terminal.
pub fn run_stdio() -> Result<(), String> {
    let input = std::io::BufReader::new(std::io::stdin());
    let ending = transport::serve(input, std::io::stdout(), transport::Limits::default());
    let escaped = |e: &str| pcl_diagnostics::escape(e).into_owned();
    match ending {
        transport::Ending::Exit => Ok(()),
        transport::Ending::ExitBeforeShutdown => Err("exit before shutdown".to_string()),
        transport::Ending::InputClosed(why) => {
            eprintln!("pcl lsp: {}; stopping", escaped(&why));
            Ok(())
        }
        transport::Ending::Failed(e) => Err(escaped(&e)),
    }
}

/// Runs the server over `connection`: the `initialize` handshake, then
/// every message until `exit`. `Err` when `exit` came before `shutdown`
/// or the connection closed without `exit`.
pub fn run(connection: Connection) -> Result<(), String> {
    match server::run_to_stop(&connection)? {
        server::Stop::Exit => Ok(()),
        server::Stop::ExitBeforeShutdown => Err("exit before shutdown".to_string()),
        server::Stop::Closed => Err("the client closed the connection without exit".to_string()),
    }
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
