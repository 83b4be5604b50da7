//! `--format short`: one `path:line:col: severity[code]: message` line per
//! diagnostic, the form editors, problem matchers and `grep` parse.

use std::io::{self, Write};

use super::Report;

/// Writes one line per shown diagnostic.
pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for item in report.items() {
        let d = item.diagnostic;
        writeln!(
            out,
            "{}:{}:{}: {}[{}]: {}",
            item.loc.file,
            item.loc.start.line,
            item.loc.start.column,
            d.severity,
            d.code,
            one_line(&d.summary)
        )?;
    }
    Ok(())
}

/// The message with line breaks turned into spaces, so one diagnostic is
/// always one line.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
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
