//! `pcl parse`: parse files, report syntax errors, optionally print
//! tokens, the tree, or the source rebuilt from the tree.
//!
//! Emitted text goes to stdout in the order of the PATHs. Diagnostics are
//! printed after it, sorted by file path then position (as `check` does),
//! in any of `check`'s formats: `human` on stderr (coloured under the same
//! rules as `check`'s `--color`), the machine formats on stdout, where each
//! file counts as one program. `-` is standard input, shown as `<stdin>`.
//! With several files, the `tokens` and `tree` outputs are preceded by a
//! `==> path <==` header; `source` output is the plain concatenation, like
//! `cat`.

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use pcl_diagnostics::{render, Diagnostic, RenderOptions, SourceMap};

use crate::args::{Emit, Format, ParseArgs};
use crate::formats::{ProgramResult, Report, RunError};
use crate::inputs::{self as input, Decoded};
use crate::Status;

/// The name standard input is shown under.
pub const STDIN_NAME: &str = "<stdin>";

/// Runs `pcl parse`.
pub fn run(args: &ParseArgs) -> Status {
    let mut run_errors = Vec::new();
    // `--emit source` writes invalid UTF-8 back as it was read: the bytes
    // of such a file are kept (only then) to restore them.
    let keep = |bytes: &[u8]| {
        (args.emit == Some(Emit::Source) && std::str::from_utf8(bytes).is_err())
            .then(|| bytes.to_vec())
    };
    let mut files: Vec<(String, Decoded, Option<Vec<u8>>)> = Vec::new();
    for path in &args.paths {
        if path.as_os_str() == "-" {
            match input::read_stdin() {
                Ok(bytes) => {
                    let original = keep(&bytes);
                    files.push((STDIN_NAME.to_string(), input::decode(bytes), original));
                }
                Err(e) => run_errors.push(RunError::new(
                    "-",
                    format!("cannot read standard input: {e}"),
                )),
            }
            continue;
        }
        for file in input::expand_paths(std::slice::from_ref(path)) {
            let read = match file {
                Ok(path) => read(&path),
                Err((path, err)) => {
                    let shown = pcl_diagnostics::escape_path(&path);
                    Err((shown.clone(), format!("cannot read `{shown}`: {err}")))
                }
            };
            match read {
                Ok((name, bytes)) => {
                    let original = keep(&bytes);
                    files.push((name, input::decode(bytes), original));
                }
                Err((shown, message)) => run_errors.push(RunError::new(shown, message)),
            }
        }
    }
    let show_headers = files.len() > 1 && matches!(args.emit, Some(Emit::Tokens | Emit::Tree));
    let mut stdout = io::stdout().lock();
    let mut results = Vec::with_capacity(files.len());
    for (name, decoded, original) in files {
        results.push(parse_one(
            name,
            decoded,
            original.as_deref(),
            args.emit,
            show_headers,
            &mut stdout,
        ));
    }
    let mut status = Status::Success;
    if stdout.flush().is_err() {
        status = Status::Usage;
    }
    drop(stdout);
    let report = Report::new(results, None, false).with_run_errors(run_errors);
    for e in &report.run_errors {
        eprintln!("error: {}", pcl_diagnostics::escape(&e.message));
    }
    let written = match args.format {
        Format::Human => write_human(&report, args.color),
        format => crate::check_cmd::write_machine(&report, format),
    };
    if report.errors > 0 {
        status = status.max(Status::Errors);
    }
    if written.is_err() || !report.run_errors.is_empty() {
        status = Status::Usage;
    }
    status
}

/// A file's name as shown and its bytes (a regular file of at most
/// `MAX_SOURCE_BYTES`), or its name and the message saying why not.
fn read(path: &Path) -> Result<(String, Vec<u8>), (String, String)> {
    let shown = pcl_diagnostics::escape_path(path);
    match input::read_source_file(path, &shown) {
        Ok(bytes) => Ok((shown, bytes)),
        Err(message) => Err((shown, message)),
    }
}

/// Parses one file and prints what was asked for; its diagnostics are
/// returned as a one-file program.
fn parse_one(
    name: String,
    decoded: Decoded,
    original: Option<&[u8]>,
    emit: Option<Emit>,
    show_headers: bool,
    stdout: &mut impl Write,
) -> ProgramResult {
    let mut sources = SourceMap::new();
    // One copy of the text, shared by the source map and the parse (as
    // the program binder does).
    let text: std::sync::Arc<str> = std::sync::Arc::from(decoded.text);
    let file = sources.add(name.clone(), std::sync::Arc::clone(&text));
    let first_bad_byte = decoded.first_bad_byte;
    let parse = pcl_syntax::parse(file, text);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    if let Some(offset) = first_bad_byte {
        diagnostics.push(input::invalid_utf8_diagnostic(file, offset));
    }
    diagnostics.extend(parse.diagnostics().iter().cloned());
    if show_headers {
        let _ = writeln!(stdout, "==> {name} <==");
    }
    let _ = match emit {
        None => Ok(()),
        Some(Emit::Source) => {
            let printed = parse.print();
            match original.and_then(|bytes| with_original_bytes(&printed, bytes)) {
                Some(bytes) => stdout.write_all(&bytes),
                None => stdout.write_all(printed.as_bytes()),
            }
        }
        Some(Emit::Tree) => stdout.write_all(parse.dump().as_bytes()),
        Some(Emit::Tokens) => write_tokens(stdout, parse.text(), parse.tokens()),
    };
    pcl_diagnostics::sort_and_dedup(&mut diagnostics);
    ProgramResult {
        path: name,
        program: pcl_binder::Program::default(),
        sources,
        diagnostics,
    }
}

/// Every diagnostic in order, then `N syntax errors in M files` when
/// there are errors.
fn write_human(report: &Report, color: crate::Color) -> io::Result<()> {
    let stderr = io::stderr();
    let options = RenderOptions {
        color: crate::check_cmd::use_color(color, stderr.is_terminal()),
    };
    let mut out = stderr.lock();
    let mut files_with_errors = std::collections::BTreeSet::new();
    for item in report.items() {
        write!(out, "{}", render(item.diagnostic, item.sources, options))?;
        if item.diagnostic.is_error() {
            files_with_errors.insert(item.program);
        }
    }
    if report.errors > 0 {
        let errors = if report.errors == 1 {
            "error"
        } else {
            "errors"
        };
        let n_files = files_with_errors.len();
        let files = if n_files == 1 { "file" } else { "files" };
        writeln!(
            out,
            "{} syntax {errors} in {n_files} {files}",
            report.errors
        )?;
    }
    if !report.run_errors.is_empty() {
        writeln!(out, "{}", report.summary())?;
    }
    out.flush()
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
