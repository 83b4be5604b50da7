//! Templates: quoted strings, heredocs and bare templates.
//!
//! Parsing happens in two stages, as in HCL. First the template's tokens
//! become a flat list of parts: literal tokens (decoded), interpolations
//! and directive markers (`if`, `else`, `endif`, `for`, `endfor`). Then,
//! in order: strip markers (`~`) trim the neighbouring literal *tokens*;
//! for `<<-` heredocs the common leading whitespace of the lines is
//! removed; adjacent literals are merged and NFC-normalised; and the
//! directive markers are matched into [`TemplateIf`]/[`TemplateFor`]
//! trees with an explicit stack (no recursion, so directive nesting
//! cannot overflow the stack; it is capped at [`crate::MAX_NESTING_DEPTH`]).

use pcl_diagnostics::TextRange;
use unicode_normalization::UnicodeNormalization;

use crate::ast::*;
use crate::codes;
use crate::lexer::is_unicode_space;
use crate::literal;
use crate::parser::Parser;
use crate::token::TokenKind as K;
use crate::MAX_NESTING_DEPTH;

/// One element of the flat part list.
pub(crate) enum Flat {
    Lit {
        value: String,
        range: TextRange,
    },
    Interp(Interpolation),
    If {
        condition: Expr,
        strip: Strip,
        range: TextRange,
    },
    Else {
        strip: Strip,
        range: TextRange,
    },
    EndIf {
        strip: Strip,
        range: TextRange,
    },
    For {
        key_var: Option<Ident>,
        value_var: Ident,
        collection: Expr,
        strip: Strip,
        range: TextRange,
    },
    EndFor {
        strip: Strip,
        range: TextRange,
    },
    /// A broken directive, already reported.
    Broken,
}

impl Flat {
    fn strip(&self) -> Strip {
        match self {
            Flat::Lit { .. } | Flat::Broken => Strip::default(),
            Flat::Interp(interp) => interp.strip,
            Flat::If { strip, .. }
            | Flat::Else { strip, .. }
            | Flat::EndIf { strip, .. }
            | Flat::For { strip, .. }
            | Flat::EndFor { strip, .. } => *strip,
        }
    }
}

impl Parser<'_> {
    /// `template_expr = O_QUOTE template_parts C_QUOTE | O_HEREDOC template_parts C_HEREDOC`.
    pub(crate) fn template_expr(&mut self) -> Expr {
        let open = self.bump();
        let (kind, end_kind) = if open.kind == K::OQuote {
            (TemplateKind::Quoted, K::CQuote)
        } else {
            let intro = self.slice(open.range);
            let flush = intro.starts_with("<<-");
            let marker = intro
                .trim_start_matches("<<")
                .trim_start_matches('-')
                .trim_end_matches(['\r', '\n']);
            (
                TemplateKind::Heredoc {
                    marker: marker.into(),
                    flush,
                },
                K::CHeredoc,
            )
        };
        let quoted = end_kind == K::CQuote;
        let flat = self.template_parts(quoted);
        match self.raw().map(|t| t.kind) {
            Some(kind) if kind == end_kind => {
                self.bump_raw();
            }
            Some(K::Newline) if quoted => {
                let range = self.raw().map_or(open.range, |t| t.range);
                self.error_r(
                    codes::MULTILINE_STRING,
                    range,
                    "quoted strings cannot span lines; use `\\n` or a heredoc (<<EOT)",
                );
            }
            _ => {
                let message = if quoted {
                    "this string has no closing `\"` on its line"
                } else {
                    "this heredoc has no closing marker line (the marker must be followed by a newline)"
                };
                self.error_r(codes::UNTERMINATED_TEMPLATE, open.range, message);
            }
        }
        let flush = matches!(kind, TemplateKind::Heredoc { flush: true, .. });
        let parts = self.finish_template(flat, flush);
        Expr::new(
            ExprKind::Template(Box::new(Template { kind, parts })),
            self.range_from_pub(open.range.start),
        )
    }

    /// A whole input as a bare template.
    pub(crate) fn bare_template(&mut self) -> Template {
        let flat = self.template_parts(false);
        while let Some(token) = self.bump_raw() {
            // Stray closers at the top level of a bare template.
            self.error_r(
                codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                token.range,
                format!("unexpected {}", token.kind.describe()),
            );
        }
        let parts = self.finish_template(flat, false);
        Template {
            kind: TemplateKind::Bare,
            parts,
        }
    }

    fn range_from_pub(&self, start: u32) -> TextRange {
        TextRange::new(start, self.last_end.max(start))
    }

    /// `template_parts = { template_part }`: reads raw tokens until one
    /// that does not belong to the template.
    fn template_parts(&mut self, quoted: bool) -> Vec<Flat> {
        let mut flat = Vec::new();
        while let Some(token) = self.raw() {
            match token.kind {
                K::QuotedLit => {
                    self.bump_raw();
                    let raw = self.slice(token.range);
                    let mut errors = Vec::new();
                    let value = literal::decode_quoted(raw, &mut errors);
                    for e in errors {
                        let start = token.range.start as usize;
                        self.error(
                            codes::INVALID_ESCAPE,
                            TextRange::from_usize(start + e.start..start + e.end),
                            e.message,
                        );
                    }
                    flat.push(Flat::Lit {
                        value,
                        range: token.range,
                    });
                }
                K::StringLit => {
                    self.bump_raw();
                    let value = literal::decode_heredoc(self.slice(token.range));
                    flat.push(Flat::Lit {
                        value,
                        range: token.range,
                    });
                }
                K::Invalid if quoted => {
                    // A backslash at the end of a line: reported as an escape error.
                    self.bump_raw();
                    self.error(
                        codes::INVALID_ESCAPE,
                        token.range,
                        "a backslash must be followed by an escape character",
                    );
                }
                K::TemplateInterp => flat.push(self.interpolation(quoted)),
                K::TemplateControl => flat.push(self.directive(quoted)),
                _ => break,
            }
        }
        flat
    }

    /// `interpolation = "${" expression "}"`.
    fn interpolation(&mut self, quoted: bool) -> Flat {
        let open = self.bump_raw().unwrap_or(pcl_tokens_default());
        let left = self.slice(open.range).ends_with('~');
        if !self.enter() {
            self.pos -= 1;
            self.skip_group();
            return Flat::Broken;
        }
        let (expr, right) = self.with_newlines(false, |p| {
            let expr = p.expression();
            let right = p.sequence_end(open.range, quoted, "interpolation");
            (expr, right)
        });
        self.leave();
        let range = self.range_from_pub(open.range.start).cover(expr.range);
        Flat::Interp(
            Interpolation {
                expr,
                strip: Strip { left, right },
                range,
            }
            .covered(),
        )
    }

    /// Expects the `}` / `~}` closing a sequence; returns its strip flag.
    fn sequence_end(&mut self, open: TextRange, quoted: bool, what: &str) -> bool {
        match self.peek() {
            Some(K::TemplateSeqEnd) => {
                let token = self.bump();
                self.slice(token.range).starts_with('~')
            }
            None => {
                self.error_r(
                    codes::UNCLOSED_TEMPLATE_SEQUENCE,
                    open,
                    format!("this {what} sequence has no closing `}}`"),
                );
                false
            }
            Some(K::CQuote) if quoted => {
                self.error_r(
                    codes::UNCLOSED_TEMPLATE_SEQUENCE,
                    open,
                    format!(
                        "this {what} sequence has no closing `}}` before the end of the string"
                    ),
                );
                false
            }
            Some(kind) => {
                let range = self.peek_range();
                let message = if kind == K::Colon {
                    "unexpected `:` in an interpolation; to write a literal `${`, escape it as `$${`".to_string()
                } else {
                    format!(
                        "expected `}}` to end the {what}, found {}; to write a literal `${{`, escape it as `$${{`",
                        kind.describe()
                    )
                };
                self.error_r(codes::EXTRA_IN_TEMPLATE_SEQUENCE, range, message);
                if self.recover_to(K::TemplateSeqEnd) {
                    let end = self.last_end;
                    return self
                        .text
                        .get(end.saturating_sub(2) as usize..end as usize)
                        .is_some_and(|t| t == "~}");
                }
                false
            }
        }
    }

    /// `directive_open = "%{" directive_head "}"`.
    fn directive(&mut self, quoted: bool) -> Flat {
        let open = self.bump_raw().unwrap_or(pcl_tokens_default());
        let left = self.slice(open.range).ends_with('~');
        if !self.enter() {
            self.pos -= 1;
            self.skip_group();
            return Flat::Broken;
        }
        let flat = self.with_newlines(false, |p| p.directive_head(open.range, left, quoted));
        self.leave();
        flat
    }

    fn directive_head(&mut self, open: TextRange, left: bool, quoted: bool) -> Flat {
        if self.peek() != Some(K::Ident) {
            let range = self.peek_range();
            self.error_r(
                codes::INVALID_TEMPLATE_DIRECTIVE,
                range,
                "expected `if`, `else`, `endif`, `for` or `endfor` after `%{`",
            );
            self.recover_to(K::TemplateSeqEnd);
            return Flat::Broken;
        }
        let keyword = self.peek_text();
        let keyword_range = self.peek_range();
        self.bump();
        let strip = |right| Strip { left, right };
        match keyword {
            "if" => {
                let condition = self.expression();
                let right = self.sequence_end(open, quoted, "if directive");
                Flat::If {
                    condition,
                    strip: strip(right),
                    range: self.range_from_pub(open.start),
                }
            }
            "else" | "endif" | "endfor" => {
                let right = self.sequence_end(open, quoted, "directive");
                let range = self.range_from_pub(open.start);
                let strip = strip(right);
                match keyword {
                    "else" => Flat::Else { strip, range },
                    "endif" => Flat::EndIf { strip, range },
                    _ => Flat::EndFor { strip, range },
                }
            }
            "for" => {
                let fail = |p: &mut Self, message: &str| {
                    let range = p.peek_range();
                    p.error_r(codes::INVALID_FOR, range, message.to_string());
                    p.recover_to(K::TemplateSeqEnd);
                    Flat::Broken
                };
                let Some(first) = self.eat_ident() else {
                    return fail(self, "expected a variable name after `for`");
                };
                let mut key_var = None;
                let mut value_var = first;
                if self.peek() == Some(K::Comma) {
                    self.bump();
                    let Some(second) = self.eat_ident() else {
                        return fail(self, "expected a value variable name after `,`");
                    };
                    key_var = Some(value_var);
                    value_var = second;
                }
                if !(self.peek() == Some(K::Ident) && self.peek_text() == "in") {
                    return fail(self, "expected `in` after the `for` variable names");
                }
                self.bump();
                let collection = self.expression();
                let right = self.sequence_end(open, quoted, "for directive");
                Flat::For {
                    key_var,
                    value_var,
                    collection,
                    strip: strip(right),
                    range: self.range_from_pub(open.start),
                }
            }
            other => {
                let suggestion = pcl_diagnostics::suggest::did_you_mean(
                    other,
                    ["if", "for", "else", "endif", "endfor"],
                );
                let mut message = format!("`{other}` is not a template directive keyword");
                if let Some(first) = suggestion.first() {
                    message.push_str(&format!("; did you mean `{first}`?"));
                }
                self.error_r(codes::INVALID_TEMPLATE_DIRECTIVE, keyword_range, message);
                self.recover_to(K::TemplateSeqEnd);
                Flat::Broken
            }
        }
    }

    fn eat_ident(&mut self) -> Option<Ident> {
        if self.peek() == Some(K::Ident) {
            let token = self.bump();
            Some(self.ident_of(token))
        } else {
            None
        }
    }

    /// Strip markers, flush indentation, merging, NFC, then structuring.
    fn finish_template(&mut self, flat: Vec<Flat>, flush: bool) -> Vec<TemplatePart> {
        let mut sink = Sink {
            file: self.file,
            last_end: self.last_end,
            diags: std::mem::take(&mut self.diags),
        };
        let parts = finish_parts(&mut sink, flat, flush);
        self.diags = sink.diags;
        parts
    }
}

/// Where template post-processing reports its diagnostics.
pub(crate) struct Sink {
    pub(crate) file: pcl_diagnostics::FileId,
    /// End offset of the template's last token.
    pub(crate) last_end: u32,
    pub(crate) diags: Vec<pcl_diagnostics::Diagnostic>,
}

impl Sink {
    fn error(&mut self, code: pcl_diagnostics::Code, range: TextRange, message: impl Into<String>) {
        self.diags.push(pcl_diagnostics::Diagnostic::error(
            code,
            pcl_diagnostics::Span::new(self.file, range),
            message,
        ));
    }
}

/// Strip markers, flush indentation, merging, NFC, then structuring.
pub(crate) fn finish_parts(sink: &mut Sink, mut flat: Vec<Flat>, flush: bool) -> Vec<TemplatePart> {
    apply_strip_markers(&mut flat);
    if flush {
        flush_heredoc(&mut flat);
    }
    let flat = merge_literals(flat);
    structure(sink, flat)
}

/// Matches directive markers into a tree with an explicit stack.
fn structure(sink: &mut Sink, flat: Vec<Flat>) -> Vec<TemplatePart> {
    let mut stack: Vec<Frame> = vec![Frame::root()];
    for part in flat {
        match part {
            Flat::Lit { value, range } => push_part(
                &mut stack,
                TemplatePart::Literal(TemplateLiteral { value, range }),
            ),
            Flat::Interp(interp) => push_part(&mut stack, TemplatePart::Interpolation(interp)),
            Flat::Broken => {}
            Flat::If {
                condition,
                strip,
                range,
            } => {
                if stack.len() > MAX_NESTING_DEPTH {
                    sink.error(
                        codes::NESTING_TOO_DEEP,
                        range,
                        format!("template directives nest deeper than {MAX_NESTING_DEPTH} levels"),
                    );
                    continue;
                }
                stack.push(Frame {
                    head: FrameHead::If {
                        condition,
                        strip,
                        range,
                        else_strip: Strip::default(),
                        then_parts: None,
                    },
                    parts: Vec::new(),
                });
            }
            Flat::For {
                key_var,
                value_var,
                collection,
                strip,
                range,
            } => {
                if stack.len() > MAX_NESTING_DEPTH {
                    sink.error(
                        codes::NESTING_TOO_DEEP,
                        range,
                        format!("template directives nest deeper than {MAX_NESTING_DEPTH} levels"),
                    );
                    continue;
                }
                stack.push(Frame {
                    head: FrameHead::For {
                        key_var,
                        value_var,
                        collection,
                        strip,
                        range,
                    },
                    parts: Vec::new(),
                });
            }
            Flat::Else { strip, range } => {
                let top = stack.last_mut();
                match top.map(|f| (&mut f.head, &mut f.parts)) {
                    Some((
                        FrameHead::If {
                            then_parts,
                            else_strip,
                            ..
                        },
                        parts,
                    )) if then_parts.is_none() => {
                        *then_parts = Some(std::mem::take(parts));
                        *else_strip = strip;
                    }
                    Some((
                        FrameHead::If {
                            range: if_range, ..
                        },
                        _,
                    )) => {
                        let message =
                            format!("this `if` (at bytes {if_range}) already has an `else`");
                        sink.error(codes::UNBALANCED_TEMPLATE_DIRECTIVE, range, message);
                    }
                    Some((FrameHead::For { .. }, _)) => {
                        sink.error(
                            codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                            range,
                            "a `for` directive cannot have an `else`",
                        );
                    }
                    _ => sink.error(
                        codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                        range,
                        "`else` without a matching `if` directive",
                    ),
                }
            }
            Flat::EndIf { strip, range } => match stack.last().map(|f| &f.head) {
                Some(FrameHead::If { .. }) => close_frame(&mut stack, strip, range),
                Some(FrameHead::For { .. }) => {
                    sink.error(
                        codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                        range,
                        "expected `endfor` to close the `for` directive, found `endif`",
                    );
                }
                _ => sink.error(
                    codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                    range,
                    "`endif` without a matching `if` directive",
                ),
            },
            Flat::EndFor { strip, range } => match stack.last().map(|f| &f.head) {
                Some(FrameHead::For { .. }) => close_frame(&mut stack, strip, range),
                Some(FrameHead::If { .. }) => {
                    sink.error(
                        codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                        range,
                        "expected `endif` to close the `if` directive, found `endfor`",
                    );
                }
                _ => sink.error(
                    codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                    range,
                    "`endfor` without a matching `for` directive",
                ),
            },
        }
    }
    while stack.len() > 1 {
        if let Some(frame) = stack.last() {
            let (range, word) = match &frame.head {
                FrameHead::If { range, .. } => (*range, "endif"),
                FrameHead::For { range, .. } => (*range, "endfor"),
                FrameHead::Root => (TextRange::default(), ""),
            };
            sink.error(
                codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                range,
                format!("this directive has no matching `{word}`"),
            );
        }
        let end = sink.last_end;
        close_frame(&mut stack, Strip::default(), TextRange::empty(end));
    }
    stack.pop().map(|f| f.parts).unwrap_or_default()
}

fn pcl_tokens_default() -> crate::token::Token {
    crate::token::Token {
        kind: K::Invalid,
        range: TextRange::default(),
    }
}

enum FrameHead {
    Root,
    If {
        condition: Expr,
        strip: Strip,
        range: TextRange,
        else_strip: Strip,
        then_parts: Option<Vec<TemplatePart>>,
    },
    For {
        key_var: Option<Ident>,
        value_var: Ident,
        collection: Expr,
        strip: Strip,
        range: TextRange,
    },
}

struct Frame {
    head: FrameHead,
    parts: Vec<TemplatePart>,
}

impl Frame {
    fn root() -> Frame {
        Frame {
            head: FrameHead::Root,
            parts: Vec::new(),
        }
    }
}

fn push_part(stack: &mut [Frame], part: TemplatePart) {
    if let Some(frame) = stack.last_mut() {
        frame.parts.push(part);
    }
}

/// Pops the top directive frame and adds the finished directive to its parent.
fn close_frame(stack: &mut Vec<Frame>, end_strip: Strip, end_range: TextRange) {
    let Some(frame) = stack.pop() else { return };
    let part = match frame.head {
        FrameHead::Root => {
            stack.push(frame);
            return;
        }
        FrameHead::If {
            condition,
            strip,
            range,
            else_strip,
            then_parts,
        } => {
            let (then_parts, else_parts) = match then_parts {
                Some(then_parts) => (then_parts, Some(frame.parts)),
                None => (frame.parts, None),
            };
            TemplatePart::If(Box::new(
                TemplateIf {
                    condition,
                    then_parts,
                    else_parts,
                    if_strip: strip,
                    else_strip,
                    endif_strip: end_strip,
                    range: range.cover(end_range),
                }
                .covered(),
            ))
        }
        FrameHead::For {
            key_var,
            value_var,
            collection,
            strip,
            range,
        } => TemplatePart::For(Box::new(
            TemplateFor {
                key_var,
                value_var,
                collection,
                body: frame.parts,
                for_strip: strip,
                endfor_strip: end_strip,
                range: range.cover(end_range),
            }
            .covered(),
        )),
    };
    push_part(stack, part);
}

/// `${~`/`%{~` trim the literal token just before; `~}` the one just after.
fn apply_strip_markers(flat: &mut [Flat]) {
    for idx in 0..flat.len() {
        let strip = match flat.get(idx) {
            Some(part) => part.strip(),
            None => continue,
        };
        if strip.left && idx > 0 {
            if let Some(Flat::Lit { value, .. }) = flat.get_mut(idx - 1) {
                let trimmed = value.trim_end_matches(is_unicode_space).len();
                value.truncate(trimmed);
            }
        }
        if strip.right {
            if let Some(Flat::Lit { value, .. }) = flat.get_mut(idx + 1) {
                let trimmed = value.trim_start_matches(is_unicode_space);
                *value = trimmed.to_string();
            }
        }
    }
}

/// Removes the common leading whitespace of a `<<-` heredoc's lines.
fn flush_heredoc(flat: &mut [Flat]) {
    let mut min: Option<usize> = None;
    let mut line_starts = Vec::new();
    let mut at_line_start = true;
    for (idx, part) in flat.iter().enumerate() {
        if at_line_start {
            match part {
                Flat::Lit { value, .. } => {
                    let blank = value.ends_with('\n') && value.chars().all(is_unicode_space);
                    if !blank {
                        let count = value
                            .chars()
                            .take_while(|c| is_unicode_space(*c) && *c != '\n')
                            .count();
                        min = Some(min.map_or(count, |m| m.min(count)));
                        line_starts.push(idx);
                    }
                }
                _ => min = Some(0),
            }
        }
        at_line_start = matches!(part, Flat::Lit { value, .. } if value.ends_with('\n'));
    }
    let Some(min) = min.filter(|m| *m > 0) else {
        return;
    };
    for idx in line_starts {
        if let Some(Flat::Lit { value, .. }) = flat.get_mut(idx) {
            let cut: usize = value.chars().take(min).map(char::len_utf8).sum();
            value.replace_range(..cut, "");
        }
    }
}

/// Merges adjacent literals and NFC-normalises every literal.
fn merge_literals(flat: Vec<Flat>) -> Vec<Flat> {
    let mut out: Vec<Flat> = Vec::with_capacity(flat.len());
    for part in flat {
        if let Flat::Lit { value, range } = &part {
            if let Some(Flat::Lit {
                value: prev,
                range: prev_range,
            }) = out.last_mut()
            {
                prev.push_str(value);
                *prev_range = prev_range.cover(*range);
                continue;
            }
        }
        out.push(part);
    }
    for part in &mut out {
        if let Flat::Lit { value, .. } = part {
            if !value.is_ascii() {
                *value = value.nfc().collect();
            }
        }
    }
    out
}
