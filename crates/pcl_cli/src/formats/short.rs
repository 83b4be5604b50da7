//! `--format short`: one `path:line:col: severity[code]: message` line per
//! diagnostic, the form editors, problem matchers and `grep` parse. The
//! file name, code and summary are [`escape`]d: one diagnostic is always
//! one line, and no control or bidi character reaches the terminal. A
//! did-you-mean follows the summary (`…; did you mean `a`?`): it is the
//! part of the help a one-line reader needs most.

use std::io::{self, Write};

use pcl_diagnostics::escape;

use super::Report;

/// Writes one line per shown diagnostic.
pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for item in report.items() {
        let d = item.diagnostic;
        writeln!(
            out,
            "{}:{}:{}: {}[{}]: {}",
            escape(&item.loc.file),
            item.loc.start.line,
            item.loc.start.column,
            d.severity,
            escape(d.code.as_str()),
            escape(&d.summary_with_suggestion())
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{tests::program, Report};

    #[test]
    fn one_line_per_diagnostic() {
        let report = Report::new(vec![program("p", "p.pp", "ab\ncd\n", &[4])], None, false);
        let mut out = Vec::new();
        super::write(&report, &mut out).unwrap_or_default();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "p.pp:2:2: warning[w]: at 4\n"
        );
    }
}
