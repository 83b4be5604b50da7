//! `pcl explain CODE`: what a diagnostic code means, a minimal program
//! that triggers it, how to fix it, its default severity and how it
//! differs from the reference, all from the code catalogue (`pcl_diagnostics::catalogue`). `pcl
//! explain --list` lists every code with its one-line summary.

use std::io::{self, Write};

use crate::args::ExplainArgs;
use crate::catalogue::{self, Entry};
use crate::Status;

/// Runs `pcl explain`.
pub fn run(args: &ExplainArgs) -> Status {
    let code = match &args.code {
        Some(code) if !args.list => code,
        _ => {
            let mut out = io::stdout().lock();
            return match write_list(&mut out).and_then(|()| out.flush()) {
                Ok(()) => Status::Success,
                Err(_) => Status::Usage,
            };
        }
    };
    let Some(entry) = catalogue::lookup(code) else {
        let escaped = code.escape_debug().to_string();
        let shown = pcl_diagnostics::elide_quoted(&escaped);
        let mut message = format!("error: no diagnostic code `{shown}`");
        let names = catalogue::ENTRIES.iter().map(|e| e.code);
        let suggestions = pcl_diagnostics::suggest::did_you_mean(code, names);
        if let Some(help) = pcl_diagnostics::suggest::help_line(&suggestions) {
            message.push_str("; ");
            message.push_str(&help);
        }
        eprintln!("{message}\nevery code is listed in docs/codes.md");
        return Status::Usage;
    };
    let mut out = io::stdout().lock();
    match write(entry, &mut out).and_then(|()| out.flush()) {
        Ok(()) => Status::Success,
        Err(_) => Status::Usage,
    }
}

/// The text `pcl explain --list` prints: one line per code, in catalogue
/// order, `code  severity  summary` in aligned columns.
pub fn write_list(out: &mut impl Write) -> io::Result<()> {
    let width = catalogue::ENTRIES
        .iter()
        .map(|e| e.code.len())
        .max()
        .unwrap_or(0);
    for e in catalogue::ENTRIES {
        writeln!(
            out,
            "{:width$}  {:7}  {}",
            e.code,
            e.severity.as_str(),
            e.summary()
        )?;
    }
    Ok(())
}

/// Writes the text `pcl explain` prints for `entry`
/// ([`pcl_diagnostics::catalogue::explain`]).
pub fn write(entry: &Entry, out: &mut impl Write) -> io::Result<()> {
    out.write_all(pcl_diagnostics::catalogue::explain(entry).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--list` names every code once, each with the first sentence of its
    /// meaning.
    #[test]
    fn list_names_every_code_with_its_summary() {
        let mut out = Vec::new();
        assert!(write_list(&mut out).is_ok());
        let text = String::from_utf8_lossy(&out);
        assert_eq!(text.lines().count(), catalogue::ENTRIES.len());
        for (line, e) in text.lines().zip(catalogue::ENTRIES) {
            assert!(line.starts_with(&format!("{} ", e.code)), "{line}");
            assert!(line.ends_with(e.summary()), "{line}");
            assert!(!e.summary().is_empty(), "{line}");
            assert!(!e.summary().contains('\n'), "{line}");
        }
        assert!(text.contains("undefined-variable"), "{text}");
    }
}
