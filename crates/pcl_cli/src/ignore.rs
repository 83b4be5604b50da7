//! `# pcl-ignore: code-a, code-b`: silencing diagnostics line by line.
//!
//! A comment (`#`, `//` or `/* */`) holding `pcl-ignore:` and a
//! comma-separated list of codes silences those codes on its own line when
//! it trails code, and on the next line when it stands alone on its line.
//! It works after checking, over the diagnostics, like `[codes]`. A code
//! in such a comment that silences nothing is itself a warning,
//! `unused-ignore`, so that stale comments do not pile up; these warnings
//! count towards the file's limit of diagnostics like any other.

use std::collections::HashMap;

use pcl_diagnostics::{Code, Diagnostic, FileId, SourceMap, Span, TextRange};
use pcl_syntax::TokenKind;

/// An `pcl-ignore` code that silenced nothing.
pub const UNUSED_IGNORE: Code = Code("unused-ignore");

/// The marker a comment must hold.
pub const MARKER: &str = "pcl-ignore:";

/// One `pcl-ignore` comment.
struct Ignore {
    file: FileId,
    /// The comment's range.
    range: TextRange,
    /// The 1-based line it silences.
    line: u32,
    /// The codes, where each is written, and whether it silenced something.
    codes: Vec<(String, TextRange, bool)>,
}

/// The (comment, code) pairs one (file, line, code) matches, and whether
/// they have been marked used.
type Matches = (Vec<(usize, usize)>, bool);

/// Drops the diagnostics a `pcl-ignore` comment silences and adds an
/// `unused-ignore` warning for every code that silenced nothing.
pub fn apply(sources: &SourceMap, diagnostics: &mut Vec<Diagnostic>) {
    let mut ignores = Vec::new();
    for (file, source) in sources.iter() {
        if source.text().contains(MARKER) {
            collect(file, source.text(), &mut ignores);
        }
    }
    if ignores.is_empty() {
        return;
    }
    // (file, line, code) -> the comments' codes it matches, and whether
    // they are already marked used: each is marked once, so N diagnostics
    // and M comments on one line cost N + M, not N × M.
    let mut by_code: HashMap<(FileId, u32, &str), Matches> = HashMap::new();
    for (i, ignore) in ignores.iter().enumerate() {
        for (j, (code, _, _)) in ignore.codes.iter().enumerate() {
            by_code
                .entry((ignore.file, ignore.line, code.as_str()))
                .or_default()
                .0
                .push((i, j));
        }
    }
    let mut used: Vec<(usize, usize)> = Vec::new();
    diagnostics.retain(|d| {
        let Some(file) = sources.get(d.span.file) else {
            return true;
        };
        let line = file.position(d.span.range.start).line;
        match by_code.get_mut(&(d.span.file, line, d.code.as_str())) {
            Some((matches, marked)) => {
                if !*marked {
                    used.extend(matches.iter().copied());
                    *marked = true;
                }
                false
            }
            None => true,
        }
    });
    drop(by_code);
    for (i, j) in used {
        if let Some((_, _, flag)) = ignores.get_mut(i).and_then(|ig| ig.codes.get_mut(j)) {
            *flag = true;
        }
    }
    // The warnings join each file's limit of diagnostics and its summary,
    // so that stale comments cannot flood the output.
    let mut unused = Vec::new();
    for ignore in &ignores {
        let span = Span::new(ignore.file, ignore.range);
        if ignore.codes.is_empty() {
            unused.push(
                Diagnostic::warning(UNUSED_IGNORE, span, "`pcl-ignore:` names no code")
                    .with_help("list the codes to silence: `# pcl-ignore: code-a, code-b`"),
            );
        }
        for (code, at, _) in ignore.codes.iter().filter(|(_, _, used)| !used) {
            let escaped = code.escape_debug().to_string();
            let shown = pcl_diagnostics::elide_quoted(&escaped);
            let mut d = Diagnostic::warning(
                UNUSED_IGNORE,
                span,
                format!(
                    "`pcl-ignore: {shown}` silences nothing on line {}",
                    ignore.line
                ),
            );
            if !crate::catalogue::is_code(code) {
                let all = crate::catalogue::all_codes();
                let suggestions =
                    pcl_diagnostics::suggest::did_you_mean(code, all.iter().map(|c| c.as_str()));
                d = d.with_detail(format!("`{shown}` is not a diagnostic code"));
                if let Some(help) = pcl_diagnostics::suggest::help_line(&suggestions) {
                    d = d.with_help(help);
                }
                for suggestion in suggestions {
                    d = d.with_fix(Span::new(ignore.file, *at), suggestion);
                }
            } else {
                d = d.with_help("remove the code from the comment");
            }
            unused.push(d);
        }
    }
    pcl_diagnostics::extend_capped(
        diagnostics,
        unused,
        pcl_diagnostics::MAX_DIAGNOSTICS_PER_FILE,
    );
}

/// The `pcl-ignore` comments of one file, in one pass over its tokens.
fn collect(file: FileId, text: &str, out: &mut Vec<Ignore>) {
    let mut line: u32 = 1;
    let mut code_on_line = false;
    for token in pcl_syntax::lex(text) {
        let lexeme = text.get(token.range.to_usize()).unwrap_or("");
        let is_comment = matches!(
            token.kind,
            TokenKind::HashComment | TokenKind::SlashComment | TokenKind::BlockComment
        );
        let newlines = u32::try_from(memchr_count(lexeme)).unwrap_or(u32::MAX);
        if is_comment {
            if let Some(codes) = codes_in(lexeme) {
                let content_lines = if lexeme.ends_with('\n') {
                    newlines.saturating_sub(1)
                } else {
                    newlines
                };
                let target = if code_on_line {
                    line
                } else {
                    line.saturating_add(content_lines).saturating_add(1)
                };
                let start = token.range.start;
                out.push(Ignore {
                    file,
                    range: token.range,
                    line: target,
                    codes: codes
                        .into_iter()
                        .map(|(code, offset)| {
                            let from = start.saturating_add(offset);
                            let len = u32::try_from(code.len()).unwrap_or(u32::MAX);
                            (code, TextRange::new(from, from.saturating_add(len)), false)
                        })
                        .collect(),
                });
            }
        } else if !token.kind.is_trivia() && token.kind != TokenKind::Newline {
            code_on_line = true;
        }
        if newlines > 0 {
            line = line.saturating_add(newlines);
            code_on_line = !token.kind.is_trivia() && token.kind != TokenKind::Newline;
        }
    }
}

fn memchr_count(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

/// The codes of a comment holding the marker, each with its byte offset
/// in the comment; `None` for other comments.
fn codes_in(comment: &str) -> Option<Vec<(String, u32)>> {
    let start = comment.find(MARKER)? + MARKER.len();
    let rest = comment.get(start..)?;
    let rest = rest.trim_end();
    let rest = rest.strip_suffix("*/").unwrap_or(rest);
    let mut codes = Vec::new();
    let mut offset = start;
    for part in rest.split(',') {
        let trimmed = part.trim_start();
        let code = trimmed.trim_end();
        let at = offset + (part.len() - trimmed.len());
        if !code.is_empty() {
            codes.push((code.to_string(), u32::try_from(at).unwrap_or(u32::MAX)));
        }
        offset += part.len() + 1;
    }
    Some(codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning_at(
        sources: &SourceMap,
        file: FileId,
        needle: &str,
        code: &'static str,
    ) -> Diagnostic {
        let text = sources.get(file).map(|f| f.text()).unwrap_or("");
        let at = u32::try_from(text.find(needle).unwrap_or(0)).unwrap_or(0);
        Diagnostic::warning(
            Code(code),
            Span::new(file, TextRange::new(at, at + 1)),
            needle.to_string(),
        )
    }

    #[test]
    fn trailing_and_preceding_comments_silence_their_line() {
        let text = "a = x # pcl-ignore: undefined-variable\n\
                    # pcl-ignore: unknown-function, undefined-variable\n\
                    b = y\n\
                    c = z\n\
                    d = \"# pcl-ignore: undefined-variable\"\n";
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text);
        let mut diagnostics = vec![
            warning_at(&sources, file, "x #", "undefined-variable"),
            warning_at(&sources, file, "y\n", "undefined-variable"),
            warning_at(&sources, file, "z\n", "undefined-variable"),
        ];
        apply(&sources, &mut diagnostics);
        let got: Vec<(String, String)> = diagnostics
            .iter()
            .map(|d| (d.code.as_str().to_string(), d.summary.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("undefined-variable".to_string(), "z\n".to_string()),
                (
                    "unused-ignore".to_string(),
                    "`pcl-ignore: unknown-function` silences nothing on line 3".to_string()
                ),
            ]
        );
    }

    #[test]
    fn unknown_codes_and_empty_lists_are_reported() {
        let text = "// pcl-ignore: undefined-variabel\na = x\n/* pcl-ignore: */\nb = 1\n";
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text);
        let mut diagnostics = vec![warning_at(&sources, file, "x\n", "undefined-variable")];
        apply(&sources, &mut diagnostics);
        assert_eq!(diagnostics.len(), 3);
        let unused: Vec<&Diagnostic> = diagnostics
            .iter()
            .filter(|d| d.code == UNUSED_IGNORE)
            .collect();
        assert_eq!(unused.len(), 2);
        assert!(unused
            .iter()
            .any(|d| d.help().iter().any(|h| h.contains("undefined-variable"))));
        // The did-you-mean is a fix replacing the misspelt code.
        let fix = unused.iter().flat_map(|d| d.fixes()).next();
        let fixed = fix.and_then(|f| {
            let range = f.span.range.to_usize();
            let mut text = text.to_string();
            text.get(range.clone())?;
            text.replace_range(range, &f.replacement);
            Some(text)
        });
        assert_eq!(
            fixed.as_deref(),
            Some("// pcl-ignore: undefined-variable\na = x\n/* pcl-ignore: */\nb = 1\n")
        );
    }

    /// 50 000 comments and 50 000 diagnostics on one line: linear (a
    /// quadratic match would take minutes).
    #[test]
    fn many_comments_on_one_line_stay_linear() {
        let n = 50_000;
        let text = format!(
            "a = x {}\n",
            "/* pcl-ignore: undefined-variable */ ".repeat(n)
        );
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text.as_str());
        let mut diagnostics: Vec<Diagnostic> = (0..n)
            .map(|_| warning_at(&sources, file, "x ", "undefined-variable"))
            .collect();
        apply(&sources, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{}", diagnostics.len());
    }
}
