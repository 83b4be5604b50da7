//! Finding and reading input files.
//!
//! A path argument is either a file (taken as is, whatever its extension)
//! or a directory, which stands for its `*.pp` files in sorted order (not
//! recursive). Files are read as bytes and decoded lossily so that a file
//! with bad UTF-8 still gets parsed; the first bad byte is reported with
//! the `invalid-utf8` code.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use pcl_diagnostics::{Code, Diagnostic, FileId, Span, TextRange};

/// The diagnostic code for a file that is not valid UTF-8.
pub const INVALID_UTF8: Code = Code("invalid-utf8");

/// Expands the path arguments into the list of files to read. A path that
/// cannot be inspected is returned as an error with its message.
pub fn expand_paths(paths: &[PathBuf]) -> Vec<Result<PathBuf, (PathBuf, io::Error)>> {
    let mut files = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => match list_pp_files(path) {
                Ok(found) => files.extend(found.into_iter().map(Ok)),
                Err(err) => files.push(Err((path.clone(), err))),
            },
            Ok(_) => files.push(Ok(path.clone())),
            Err(err) => files.push(Err((path.clone(), err))),
        }
    }
    files
}

/// The `*.pp` files directly inside `dir`, sorted by name.
fn list_pp_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let is_pp = path.extension().is_some_and(|ext| ext == "pp");
        if is_pp && entry.file_type()?.is_file() {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// A file's text after lossy decoding, and the byte offset of the first
/// invalid UTF-8 sequence, if any.
pub struct Decoded {
    pub text: String,
    pub first_bad_byte: Option<usize>,
}

/// Decodes `bytes` as UTF-8, replacing bad sequences with U+FFFD.
pub fn decode(bytes: Vec<u8>) -> Decoded {
    match String::from_utf8(bytes) {
        Ok(text) => Decoded {
            text,
            first_bad_byte: None,
        },
        Err(err) => {
            let first_bad_byte = err.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(err.as_bytes()).into_owned();
            Decoded {
                text,
                first_bad_byte: Some(first_bad_byte),
            }
        }
    }
}

/// The diagnostic for a file whose first bad byte is at `offset`; the range
/// covers the replacement character in the decoded text.
pub fn invalid_utf8_diagnostic(file: FileId, offset: usize) -> Diagnostic {
    let replacement_len = char::REPLACEMENT_CHARACTER.len_utf8();
    let range = TextRange::from_usize(offset..offset + replacement_len);
    Diagnostic::error(
        INVALID_UTF8,
        Span::new(file, range),
        "Invalid character encoding",
    )
    .with_detail("All input files must be UTF-8 encoded; invalid bytes were replaced by U+FFFD.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_reports_first_bad_byte() {
        let decoded = decode(b"ab\xffc\xfe".to_vec());
        assert_eq!(decoded.first_bad_byte, Some(2));
        assert_eq!(decoded.text, "ab\u{fffd}c\u{fffd}");
        let clean = decode(b"abc".to_vec());
        assert_eq!(clean.first_bad_byte, None);
    }
}
