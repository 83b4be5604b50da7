//! Source files, positions and diagnostics shared by every pcl phase.
//!
//! This crate sits at the bottom of the dependency graph. It owns:
//! - [`SourceMap`], [`SourceFile`] and [`FileId`]: the files of one check;
//! - [`TextRange`] and [`Span`]: byte ranges, the only position type the
//!   phases use, and [`LineIndex`], which turns them into 1-based line and
//!   grapheme-column [`Position`]s;
//! - [`Diagnostic`]: plain data with a stable [`Code`];
//! - [`DiagnosticList`]: where a file's diagnostics are collected, at most
//!   [`MAX_DIAGNOSTICS_PER_FILE`] of them (the rest are counted in one
//!   `too-many-diagnostics` summary);
//! - [`render`]: the one place that knows about ariadne (snippets escape
//!   control characters and show long lines as windows around the labels);
//! - [`suggest`]: "did you mean" candidates by edit distance;
//! - [`elide`]: cutting long user-derived text for messages;
//! - [`catalogue`]: every diagnostic code's explanation (`pcl explain`,
//!   `docs/codes.md`, the language server's hover on a diagnostic);
//! - [`read`]: the one way pcl reads a file (regular files only, with a
//!   size bound) and whose files it trusts.
//!
//! It must not know about syntax trees, types or schemas.

pub mod catalogue;
pub mod diagnostic;
pub mod elide;
pub mod list;
pub mod read;
pub mod render;
pub mod source;
pub mod suggest;

pub use diagnostic::{count, sort_and_dedup, Code, Diagnostic, Fix, Label, Severity};
pub use elide::{elide, elide_quoted, MAX_QUOTED_CHARS};
pub use list::{extend_capped, DiagnosticList, MAX_DIAGNOSTICS_PER_FILE, TOO_MANY_DIAGNOSTICS};
pub use render::{
    escape, escape_path, is_unsafe_char, render, render_all, render_short, RenderOptions,
};
pub use source::{FileId, LineIndex, Position, SourceFile, SourceMap, Span, TextEdit, TextRange};
