//! `--format human`: ariadne reports with source excerpts, related
//! locations and help lines, then the omitted count and the summary line.
//! Written to stderr by the caller.

use std::io::{self, Write};

use pcl_diagnostics::{render, RenderOptions};

use super::Report;

/// Writes every shown diagnostic, the omitted note and the summary.
pub fn write(report: &Report, out: &mut dyn Write, color: bool) -> io::Result<()> {
    let options = RenderOptions { color };
    for item in report.items() {
        write!(out, "{}", render(item.diagnostic, item.sources, options))?;
    }
    if let Some(note) = report.omitted_note() {
        writeln!(out, "note: {note}")?;
    }
    let mut summary = report.summary();
    if report.deny_warnings && report.warnings > 0 {
        summary.push_str(" (warnings denied)");
    }
    writeln!(out, "{summary}")
}
