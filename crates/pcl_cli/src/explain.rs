//! `pcl explain CODE`: what a diagnostic code means, a minimal program
//! that triggers it, how to fix it, its default severity and how it
//! differs from the reference, all from [`crate::catalogue`].

use std::io::{self, Write};

use crate::args::ExplainArgs;
use crate::catalogue::{self, Entry};
use crate::Status;

/// Runs `pcl explain`.
pub fn run(args: &ExplainArgs) -> Status {
    let Some(entry) = catalogue::lookup(&args.code) else {
        let escaped = args.code.escape_debug().to_string();
        let shown = pcl_diagnostics::elide_quoted(&escaped);
        let mut message = format!("error: no diagnostic code `{shown}`");
        let names = catalogue::ENTRIES.iter().map(|e| e.code);
        let suggestions = pcl_diagnostics::suggest::did_you_mean(&args.code, names);
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

/// The text `pcl explain` prints for `entry`.
pub fn write(entry: &Entry, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "{} ({})", entry.code, entry.severity.as_str())?;
    writeln!(out)?;
    writeln!(out, "{}", entry.meaning)?;
    writeln!(out)?;
    if entry.example.is_empty() {
        writeln!(out, "Example: none; {}", entry.trigger)?;
    } else {
        writeln!(out, "Example (packages from testdata/schemas):")?;
        writeln!(out)?;
        for line in entry.example.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    writeln!(out)?;
    writeln!(out, "How to fix: {}", entry.fix)?;
    writeln!(out)?;
    writeln!(out, "Reference: {}", entry.reference)
}
