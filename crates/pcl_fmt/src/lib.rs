//! `pcl fmt`'s formatter: one canonical layout for PCL, byte for byte the
//! one hclwrite (the formatter behind `terraform fmt`) gives.
//!
//! This crate owns the layout rules (`layout.rs`), formatting a whole file
//! ([`format`]) and a byte range of it for editors ([`format_range`]). It
//! changes nothing but the whitespace between tokens on a line: line breaks,
//! comments, template text and heredocs are printed as they are, and a file
//! with syntax errors is not formatted at all ([`FormatError::Syntax`]).
//! It must not know about binding, types, schemas, files or the command
//! line; the `pcl fmt` command (`pcl_cli`) reads and writes the files.
//!
//! Like hclwrite, the rules work on the token sequence, not on the tree:
//! indentation comes from counting the brackets each line opens and
//! closes. The only module that knows `pcl_syntax` is `tokens.rs`, which
//! parses (to refuse files with errors) and hands over the tokens.
//!
//! As a last guard, the result is lexed again and compared with the input
//! token for token (whitespace aside): a difference is reported as
//! [`FormatError::Internal`] instead of returning text that means
//! something else.

mod layout;
mod tokens;

use pcl_diagnostics::{Diagnostic, FileId, TextRange};

/// Why a text could not be formatted.
#[derive(Clone, Debug)]
pub enum FormatError {
    /// The text has syntax errors (these diagnostics); it is left as it is.
    Syntax(Vec<Diagnostic>),
    /// The formatter would have changed a token (a bug): the byte offset in
    /// the input of the first token that differs.
    Internal { offset: usize },
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(diagnostics) => {
                let n = diagnostics.iter().filter(|d| d.is_error()).count();
                write!(f, "{n} syntax error{}", if n == 1 { "" } else { "s" })
            }
            FormatError::Internal { offset } => write!(
                f,
                "internal error: formatting would change the token at byte {offset}; \
                 the file was left as it is"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// Formats a whole file. `file` names it in the diagnostics of
/// [`FormatError::Syntax`].
pub fn format(file: FileId, text: &str) -> Result<String, FormatError> {
    format_lines(file, text, 0, usize::MAX)
}

/// Formats only the lines that `range` (byte offsets into `text`) touches,
/// and returns the whole new text. The layout is the one [`format`] gives
/// the whole file (alignment takes the neighbouring lines into account),
/// applied to those lines only.
pub fn format_range(file: FileId, text: &str, range: TextRange) -> Result<String, FormatError> {
    let (start, end) = (range.start as usize, range.end as usize);
    let bytes = text.as_bytes();
    let first = bytes
        .get(..start.min(bytes.len()))
        .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
        .map_or(0, |p| p + 1);
    let last = bytes
        .get(end.min(bytes.len())..)
        .and_then(|b| b.iter().position(|&c| c == b'\n'))
        .map_or(bytes.len(), |p| end + p);
    format_lines(file, text, first, last)
}

/// Formats, changing only the whitespace that lies in `first..=last`.
fn format_lines(
    file: FileId,
    text: &str,
    first: usize,
    last: usize,
) -> Result<String, FormatError> {
    let mut lexed = tokens::lex(file, text).map_err(FormatError::Syntax)?;
    layout::layout(text, &mut lexed.toks);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let bom = text.get(..lexed.bom_len as usize).unwrap_or("");
    out.push_str(bom);
    let mut pos = lexed.bom_len as usize;
    for tok in &lexed.toks {
        let gap = tok.gap_start as usize;
        let in_range = gap >= first && gap <= last;
        if in_range {
            push_spaces(&mut out, tok.spaces);
        } else {
            // Keep the whitespace as it is.
            out.push_str(text.get(pos..tok.start as usize).unwrap_or(""));
        }
        out.push_str(text.get(tok.start as usize..tok.end as usize).unwrap_or(""));
        pos = tok.end as usize;
    }
    // Whitespace at the very end (no line break after it): hclwrite keeps
    // as many spaces as it had bytes.
    let (gap, spaces) = lexed.trailing;
    if (gap as usize) >= first && (gap as usize) <= last {
        push_spaces(&mut out, spaces);
    } else {
        out.push_str(text.get(pos..).unwrap_or(""));
    }
    tokens::same_tokens(text, &lexed.toks, &out)
        .map_err(|offset| FormatError::Internal { offset })?;
    Ok(out)
}

fn push_spaces(out: &mut String, n: u32) {
    out.extend(std::iter::repeat_n(' ', n as usize));
}
