//! `pcl parse`: parse files, report syntax errors, optionally print
//! tokens, the tree, or the source rebuilt from the tree.
//!
//! Diagnostics go to stderr (coloured only when stderr is a terminal,
//! `NO_COLOR` is unset or empty and `TERM` is not `dumb`), emitted text to
//! stdout. With several files, the `tokens` and `tree` outputs are preceded
//! by a `==> path <==` header; `source` output is the plain concatenation,
//! like `cat`.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::Path;

use pcl_diagnostics::{render, Diagnostic, RenderOptions, SourceMap};

use crate::args::{Emit, ParseArgs};
use crate::inputs::{self as input, Decoded};
use crate::Status;

/// Runs `pcl parse`.
pub fn run(args: &ParseArgs) -> Status {
    let files = input::expand_paths(&args.paths);
    let options = RenderOptions {
        color: crate::check_cmd::use_color(crate::Color::Auto, io::stderr().is_terminal()),
    };
    let show_headers = files.len() > 1 && matches!(args.emit, Emit::Tokens | Emit::Tree);
    let mut sources = SourceMap::new();
    let mut status = Status::Success;
    let mut stdout = io::stdout().lock();
    let (mut n_errors, mut n_files_with_errors) = (0usize, 0usize);
    for file in files {
        let path = match file {
            Ok(path) => path,
            Err((path, err)) => {
                eprintln!("error: cannot read `{}`: {err}", path.display());
                status = status.max(Status::Usage);
                continue;
            }
        };
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) => {
                eprintln!("error: cannot read `{}`: {err}", path.display());
                status = status.max(Status::Usage);
                continue;
            }
        };
        // `--emit source` writes invalid UTF-8 back as it was read: keep
        // the bytes of such a file (only then) to restore them.
        let original = (args.emit == Emit::Source && std::str::from_utf8(&bytes).is_err())
            .then(|| bytes.clone());
        let decoded = input::decode(bytes);
        let file_errors = parse_one(
            &path,
            decoded,
            original.as_deref(),
            args.emit,
            show_headers,
            &mut sources,
            &mut stdout,
            options,
        );
        if file_errors > 0 {
            n_errors += file_errors;
            n_files_with_errors += 1;
            status = status.max(Status::Errors);
        }
    }
    if stdout.flush().is_err() {
        status = status.max(Status::Usage);
    }
    if n_errors > 0 {
        let errors = if n_errors == 1 { "error" } else { "errors" };
        let files = if n_files_with_errors == 1 {
            "file"
        } else {
            "files"
        };
        eprintln!("{n_errors} syntax {errors} in {n_files_with_errors} {files}");
    }
    status
}

/// Parses one file, prints what was asked for, renders its diagnostics and
/// returns how many errors it had.
#[allow(clippy::too_many_arguments)]
fn parse_one(
    path: &Path,
    decoded: Decoded,
    original: Option<&[u8]>,
    emit: Emit,
    show_headers: bool,
    sources: &mut SourceMap,
    stdout: &mut impl Write,
    options: RenderOptions,
) -> usize {
    let name = path.display().to_string();
    let file = sources.add(name.clone(), decoded.text.as_str());
    let parse = pcl_syntax::parse(file, &decoded.text);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    if let Some(offset) = decoded.first_bad_byte {
        diagnostics.push(input::invalid_utf8_diagnostic(file, offset));
    }
    diagnostics.extend(parse.diagnostics().iter().cloned());
    if show_headers {
        let _ = writeln!(stdout, "==> {name} <==");
    }
    let _ = match emit {
        Emit::Nothing => Ok(()),
        Emit::Source => {
            let printed = parse.print();
            match original.and_then(|bytes| with_original_bytes(&printed, bytes)) {
                Some(bytes) => stdout.write_all(&bytes),
                None => stdout.write_all(printed.as_bytes()),
            }
        }
        Emit::Tree => stdout.write_all(parse.dump().as_bytes()),
        Emit::Tokens => write_tokens(stdout, &decoded.text, parse.tokens()),
    };
    for diagnostic in &diagnostics {
        eprint!("{}", render(diagnostic, sources, options));
    }
    diagnostics.iter().filter(|d| d.is_error()).count()
}

/// One line per token: kind, byte range and the token's text.
fn write_tokens(out: &mut impl Write, text: &str, tokens: &[pcl_syntax::Token]) -> io::Result<()> {
    for token in tokens {
        let lexeme = text.get(token.range.to_usize()).unwrap_or("");
        writeln!(out, "{:?} {} {:?}", token.kind, token.range, lexeme)?;
    }
    Ok(())
}

/// The source printed from the tree (`printed`, where every invalid UTF-8
/// sequence of the file became U+FFFD) with those sequences restored from
/// the file's `original` bytes, so `--emit source` is byte-identical. `None`
/// if `printed` is not the lossy decoding of `original` (never expected:
/// printing the tree gives back its input).
fn with_original_bytes(printed: &str, original: &[u8]) -> Option<Vec<u8>> {
    let replacement = char::REPLACEMENT_CHARACTER.len_utf8();
    let mut out = Vec::with_capacity(original.len());
    let mut pos = 0;
    for chunk in original.utf8_chunks() {
        let valid = chunk.valid();
        let end = pos + valid.len();
        if printed.get(pos..end)? != valid {
            return None;
        }
        out.extend_from_slice(valid.as_bytes());
        pos = end;
        if !chunk.invalid().is_empty() {
            if printed.get(pos..pos + replacement)? != "\u{FFFD}" {
                return None;
            }
            out.extend_from_slice(chunk.invalid());
            pos += replacement;
        }
    }
    (pos == printed.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::with_original_bytes;

    #[test]
    fn invalid_sequences_are_restored() {
        let original: &[u8] = b"a = \"\xff\xfe x\" # \xc3\n\xe2\x82";
        let printed = String::from_utf8_lossy(original);
        assert_eq!(
            with_original_bytes(&printed, original).as_deref(),
            Some(original)
        );
        assert_eq!(with_original_bytes("a = 2", b"a = 1"), None);
        assert_eq!(with_original_bytes("a = 1", b"a = 1\xff"), None);
    }
}
