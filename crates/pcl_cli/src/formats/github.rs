//! `--format github`: GitHub Actions workflow commands,
//! `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::message`
//! (`::warning` and `::notice` for the other severities). Data is escaped
//! as the Actions runner expects: `%`, `\r` and `\n` everywhere, and also
//! `:` and `,` in property values. Before that, every field (file name,
//! code, summary, detail, help) is [`escape`]d like the other terminal
//! formats, so ESC and bidi characters from the input never reach the log;
//! the line breaks between the message's parts are the only ones left for
//! the runner's `%0A`.

use std::io::{self, Write};

use pcl_diagnostics::{escape, Severity};

use super::Report;

/// Writes one workflow command per shown diagnostic.
pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for item in report.items() {
        let d = item.diagnostic;
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let mut message = escape(&d.summary).into_owned();
        if let Some(detail) = d.detail() {
            message.push('\n');
            message.push_str(&escape(detail));
        }
        for help in d.help() {
            message.push_str("\nhelp: ");
            message.push_str(&escape(help));
        }
        let loc = item.loc;
        writeln!(
            out,
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
            escape_property(&escape(&loc.file.replace('\\', "/"))),
            loc.start.line,
            loc.start.column,
            loc.end.line,
            loc.end.column,
            escape_property(&escape(d.code.as_str())),
            escape_data(&message)
        )?;
    }
    Ok(())
}

/// Escapes a command's message.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_the_actions_toolkit() {
        assert_eq!(escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
