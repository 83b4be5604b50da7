//! Templates: the productions `template_expr`, `template_parts`,
//! `interpolation`, `directive` and `directive_head` of
//! `grammar/pcl.ebnf`. They push flat parts (see `crate::template`, which
//! strips, merges and structures them into the tree's template parts).

use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::collections::for_head;
use super::expressions::{expr, PExpr};
use super::input::SyntaxError;
use super::recovery::{enter, recover_to, skip_group};
use super::{bump, peek, peek_kind, peek_range, st, Ex, In, Inp, St};
use crate::codes;
use crate::lexer::ByteSet;
use crate::literal;
use crate::newlines::Sig;
pub(super) use crate::template::Flat;
use crate::template::{finish_parts, finish_plain, FlatFor, Sink};
use crate::token::TokenKind as K;
use crate::tree::{PartNode, PartNodeKind, Run, Strip, TemplateNodeKind};

/// `template_expr = O_QUOTE template_parts C_QUOTE | O_HEREDOC
/// template_parts C_HEREDOC`.
pub(super) fn template_expr<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    let quoted_parts = template_parts(expression.clone(), true).boxed();
    let heredoc_parts = template_parts(expression, false).boxed();
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(SyntaxError::default())?;
        let (kind, end_kind) = if open.kind == K::OQuote {
            (TemplateNodeKind::Quoted, K::CQuote)
        } else {
            let intro = st(inp).slice(open.range);
            let flush = intro.starts_with("<<-");
            let marker = intro
                .trim_start_matches("<<")
                .trim_start_matches('-')
                .trim_end_matches(['\r', '\n']);
            let at = open.range.start + if flush { 3 } else { 2 };
            (
                TemplateNodeKind::Heredoc {
                    marker: TextRange::new(at, at + marker.len() as u32),
                    flush,
                },
                K::CHeredoc,
            )
        };
        let quoted = end_kind == K::CQuote;
        if quoted {
            if let Some(parts) = plain_quoted(inp) {
                let s = st(inp);
                let range = s.range_from(open.range.start);
                let id = s.b.template(kind, parts, range);
                return Ok(s.handle(id));
            }
        }
        let base = if quoted {
            inp.parse(&quoted_parts)?
        } else {
            inp.parse(&heredoc_parts)?
        };
        match peek(inp) {
            Some(sig) if sig.kind == end_kind => {
                bump(inp);
            }
            Some(sig) if sig.kind == K::Newline && quoted => {
                st(inp).error_r(
                    codes::MULTILINE_STRING,
                    sig.range,
                    "quoted strings cannot span lines; use `\\n` or a heredoc (<<EOT)",
                );
            }
            _ => {
                let message = if quoted {
                    "this string has no closing `\"` on its line"
                } else {
                    "this heredoc has no closing marker line (the marker must be followed by a newline)"
                };
                st(inp).error_r(codes::UNTERMINATED_TEMPLATE, open.range, message);
            }
        }
        let flush = matches!(kind, TemplateNodeKind::Heredoc { flush: true, .. });
        let s = st(inp);
        let parts = finish(s, base, flush);
        let range = s.range_from(open.range.start);
        let id = s.b.template(kind, parts, range);
        Ok(s.handle(id))
    })
    .boxed()
}

/// The most common template, `"text"` (or `""`) with ASCII text and no
/// escapes or sequences, with its closing quote consumed; `None` (nothing
/// consumed) for anything else. Builds exactly what `template_parts` and
/// [`finish`] would, without their intermediate list.
fn plain_quoted(inp: &mut Inp<'_, '_>) -> Option<Run> {
    let save = inp.save();
    let lit = match peek(inp) {
        Some(sig) if sig.kind == K::QuotedLit => {
            bump(inp);
            Some(sig)
        }
        Some(sig) if sig.kind == K::CQuote => None,
        _ => return None,
    };
    if peek_kind(inp) != Some(K::CQuote) {
        inp.rewind(save);
        return None;
    }
    let Some(parts) = plain_parts(st(inp), lit) else {
        inp.rewind(save);
        return None;
    };
    bump(inp);
    Some(parts)
}

/// The parts of a plain quoted string whose only literal token (if any) is
/// `lit`: `None` unless its text is ASCII without escapes or sequences
/// (`\`, `$`, `%`), which is what makes it plain.
pub(super) fn plain_parts(s: &mut St<'_>, lit: Option<Sig>) -> Option<Run> {
    let mark = s.b.mark_parts();
    let Some(sig) = lit else {
        return Some(s.b.finish_parts(mark));
    };
    let raw = s.slice(sig.range);
    // One pass over the bytes (a `char` pattern decodes UTF-8).
    static NOT_PLAIN: ByteSet<3> = ByteSet::new([b'\\', b'$', b'%'], true);
    if NOT_PLAIN.find(raw.as_bytes()) < raw.len() {
        return None;
    }
    s.b.push_part(PartNode {
        kind: PartNodeKind::Literal(crate::tree::Text::Source(sig.range)),
        range: sig.range,
    });
    Some(s.b.finish_parts(mark))
}

/// Turns the flat parts `template_parts` pushed above `base` into the
/// template's parts, taking them off the stack.
pub(super) fn finish(s: &mut St<'_>, base: usize, flush: bool) -> Run {
    if let Some(parts) = finish_plain(s.text, &mut s.b, &mut s.flats, base, flush) {
        return parts;
    }
    let base = base.min(s.flats.len());
    let flat: Vec<Flat<'_>> = s.flats.drain(base..).collect();
    let mut sink = Sink {
        file: s.file,
        last_end: s.last_end,
        diags: std::mem::take(&mut s.diags),
    };
    let parts = finish_parts(&mut sink, s.text, &mut s.b, flat, flush);
    s.diags = sink.diags;
    parts
}

/// `template_parts = { QUOTED_LIT | STRING_LIT | interpolation | directive }`;
/// the context is whether the template is quoted. The parts are pushed
/// onto `St::flats`; the output is where they start there (for
/// [`finish`]).
pub(super) fn template_parts<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, usize, Ex<'s>> + Clone {
    let interp = interpolation(expression.clone(), quoted);
    let direct = directive(expression, quoted);
    // One part at a time, chosen by the next token's kind; a failing
    // sequence is rewound and ends the parts, like `repeated`.
    custom(move |inp: &mut Inp<'s, '_>| {
        let base = st(inp).flats.len();
        while let Some(sig) = peek(inp) {
            match sig.kind {
                K::QuotedLit => {
                    bump(inp);
                    let st = st(inp);
                    let mut errors = Vec::new();
                    let value = literal::decode_quoted(st.slice(sig.range), &mut errors);
                    for err in errors {
                        let start = sig.range.start as usize;
                        st.error(
                            codes::INVALID_ESCAPE,
                            TextRange::from_usize(start + err.start..start + err.end),
                            err.message,
                        );
                    }
                    push_quoted_literal(st, base, value, sig.range);
                }
                K::StringLit => {
                    bump(inp);
                    let st = st(inp);
                    let value = literal::decode_heredoc(st.slice(sig.range));
                    st.flats.push(Flat::Lit {
                        value,
                        range: sig.range,
                    });
                }
                K::Invalid if quoted => {
                    bump(inp);
                    st(inp).error(
                        codes::INVALID_ESCAPE,
                        sig.range,
                        "a backslash must be followed by an escape character",
                    );
                }
                K::TemplateInterp | K::TemplateControl => {
                    let before = inp.save();
                    let part = if sig.kind == K::TemplateInterp {
                        inp.parse(&interp)
                    } else {
                        inp.parse(&direct)
                    };
                    match part {
                        Ok(Some(part)) => st(inp).flats.push(part),
                        Ok(None) => {}
                        Err(_) => {
                            inp.rewind(before);
                            break;
                        }
                    }
                }
                _ => break,
            }
        }
        Ok(base)
    })
}

/// Pushes a quoted literal token's decoded text onto `st.flats`, merged at
/// once into the literal on top (above `base`) when both have a
/// non-whitespace character. Merging then is what [`finish`] would do
/// later anyway, and the strip markers of the neighbouring sequences,
/// which trim only the adjacent *token*, trim the same text: trimming
/// stops inside the first or last token either way. A string of many
/// escapes (`$${` lexes as one token each) thus costs one growing string,
/// not one flat part per token.
fn push_quoted_literal<'s>(
    st: &mut St<'s>,
    base: usize,
    value: std::borrow::Cow<'s, str>,
    range: TextRange,
) {
    let solid = value.chars().any(|c| !crate::lexer::is_unicode_space(c));
    let text = st.text;
    if solid && st.flats.len() > base {
        if let Some(Flat::Lit {
            value: prev,
            range: prev_range,
        }) = st.flats.last_mut()
        {
            if st.solid_literal_end == Some(prev_range.end) {
                crate::template::merge_literal(text, prev, prev_range, &value, range);
                st.solid_literal_end = Some(range.end);
                return;
            }
        }
    }
    st.flats.push(Flat::Lit { value, range });
    st.solid_literal_end = solid.then_some(range.end);
}

/// Expects the `}` / `~}` closing a sequence; returns its strip flag.
fn sequence_end(inp: &mut Inp<'_, '_>, open: TextRange, quoted: bool, what: &str) -> bool {
    match peek_kind(inp) {
        Some(K::TemplateSeqEnd) => match bump(inp) {
            Some(sig) => st(inp).slice(sig.range).starts_with('~'),
            None => false,
        },
        None => {
            st(inp).error_r(
                codes::UNCLOSED_TEMPLATE_SEQUENCE,
                open,
                format!("this {what} sequence has no closing `}}`"),
            );
            false
        }
        Some(K::CQuote) if quoted => {
            st(inp).error_r(
                codes::UNCLOSED_TEMPLATE_SEQUENCE,
                open,
                format!("this {what} sequence has no closing `}}` before the end of the string"),
            );
            false
        }
        Some(kind) => {
            let range = peek_range(inp);
            let message = if kind == K::Colon {
                "unexpected `:` in an interpolation; to write a literal `${`, escape it as `$${`"
                    .to_string()
            } else {
                format!(
                    "expected `}}` to end the {what}, found {}; to write a literal `${{`, escape it as `$${{`",
                    kind.describe()
                )
            };
            st(inp).error_r(codes::EXTRA_IN_TEMPLATE_SEQUENCE, range, message);
            if recover_to(inp, K::TemplateSeqEnd) {
                let s = st(inp);
                let end = s.last_end;
                return s
                    .text
                    .get(end.saturating_sub(2) as usize..end as usize)
                    .is_some_and(|t| t == "~}");
            }
            false
        }
    }
}

/// `interpolation = "${" expression "}"`.
fn interpolation<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, Option<Flat<'s>>, Ex<'s>> + Clone {
    custom(move |inp: &mut Inp<'s, '_>| {
        if peek_kind(inp) != Some(K::TemplateInterp) {
            return Err(SyntaxError::default());
        }
        let save = inp.save();
        let open = bump(inp).ok_or(SyntaxError::default())?;
        if !enter(inp) {
            inp.rewind(save);
            skip_group(inp);
            return Ok(Some(Flat::Broken));
        }
        let left = inp.state().0.slice(open.range).ends_with('~');
        let expr = expr(inp, &expression)?;
        let right = sequence_end(inp, open.range, quoted, "interpolation");
        let s = &mut inp.state().0;
        s.depth = s.depth.saturating_sub(1);
        let range = s.range_from(open.range.start);
        Ok(Some(Flat::Interp(s.b.interpolation(
            expr.id,
            Strip { left, right },
            range,
        ))))
    })
}

/// `directive = "%{" directive_head "}"`.
fn directive<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, Option<Flat<'s>>, Ex<'s>> + Clone {
    let head = directive_head(expression, quoted);
    custom(move |inp: &mut Inp<'s, '_>| {
        if peek_kind(inp) != Some(K::TemplateControl) {
            return Err(SyntaxError::default());
        }
        let save = inp.save();
        bump(inp);
        let ok = enter(inp);
        inp.rewind(save);
        if !ok {
            skip_group(inp);
            return Ok(Some(Flat::Broken));
        }
        let flat = inp.parse(&head)?;
        let s = &mut inp.state().0;
        s.depth = s.depth.saturating_sub(1);
        Ok(flat)
    })
}

/// `directive_head = "if" expression | "else" | "endif" | "for" IDENT
/// [ "," IDENT ] "in" expression | "endfor"`.
fn directive_head<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, Option<Flat<'s>>, Ex<'s>> + Clone {
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(SyntaxError::default())?;
        let left = st(inp).slice(open.range).ends_with('~');
        let open = open.range;
        if peek_kind(inp) != Some(K::Ident) {
            let range = peek_range(inp);
            st(inp).error_r(
                codes::INVALID_TEMPLATE_DIRECTIVE,
                range,
                "expected `if`, `else`, `endif`, `for` or `endfor` after `%{`",
            );
            recover_to(inp, K::TemplateSeqEnd);
            return Ok(Some(Flat::Broken));
        }
        let keyword_sig = bump(inp).ok_or(SyntaxError::default())?;
        let keyword = st(inp).slice(keyword_sig.range);
        let strip = |right| Strip { left, right };
        Ok(Some(match keyword {
            "if" => {
                let condition = expr(inp, &expression)?;
                let right = sequence_end(inp, open, quoted, "if directive");
                Flat::If {
                    condition: condition.id,
                    strip: strip(right),
                    range: st(inp).range_from(open.start),
                }
            }
            "else" | "endif" | "endfor" => {
                let right = sequence_end(inp, open, quoted, "directive");
                let range = st(inp).range_from(open.start);
                let strip = strip(right);
                match keyword {
                    "else" => Flat::Else { strip, range },
                    "endif" => Flat::EndIf { strip, range },
                    _ => Flat::EndFor { strip, range },
                }
            }
            "for" => {
                let fail = |inp: &mut Inp<'s, '_>, message: &str| {
                    let range = peek_range(inp);
                    st(inp).error_r(codes::INVALID_FOR, range, message.to_string());
                    recover_to(inp, K::TemplateSeqEnd);
                    Ok(None)
                };
                let (key_var, value_var, collection) = match for_head(inp, &expression)? {
                    Ok(head) => head,
                    Err(message) => return fail(inp, message),
                };
                let right = sequence_end(inp, open, quoted, "for directive");
                Flat::For(Box::new(FlatFor {
                    key_var,
                    value_var,
                    collection: collection.id,
                    strip: strip(right),
                    range: st(inp).range_from(open.start),
                }))
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
                st(inp).error_r(
                    codes::INVALID_TEMPLATE_DIRECTIVE,
                    keyword_sig.range,
                    message,
                );
                recover_to(inp, K::TemplateSeqEnd);
                return Ok(Some(Flat::Broken));
            }
        }))
    })
}

// ----------------------------------------------------------------------
// Bodies
