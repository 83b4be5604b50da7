//! Templates: the productions `template_expr`, `bare_template`,
//! `template_parts`, `interpolation`, `directive` and `directive_head` of
//! `grammar/pcl.ebnf`, as chumsky combinators.
//!
//! A template's parts are pushed, in order, onto the parser state's stack
//! of flat parts (`St::flats`) as they are parsed: each part ends in a
//! `validate`, which chumsky runs even where the output is discarded (as
//! `repeated` discards it). A template takes its run off the stack when it
//! is complete, and [`finish`] (with `crate::template`) strips, merges and
//! structures it into the tree's template parts; `%{if}`/`%{for}` are
//! matched there with an explicit stack, not by the grammar.
//!
//! Nesting: a `${` or `%{` sequence goes one level deeper (its opener
//! counts the level, the part's `validate` gives it back); at
//! [`MAX_NESTING_DEPTH`] the opener fails and [`too_deep`] reports
//! `nesting-too-deep` once and skips the sequence as a balanced group.
//!
//! Errors: a sequence that does not end where it should is reported with
//! its own code and message (see [`SeqEnd`]), and recovery skips to the
//! sequence's `}`; a directive head that is not one of the five is
//! reported by [`broken_head`]. Both skip with the skipping parsers of
//! `recovery.rs`.

use std::borrow::Cow;

use chumsky::input::MapExtra;
use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::expressions::PExpr;
use super::input::SyntaxError;
use super::recovery::{skip_one_group, skip_to_close};
use super::{keyword, range_of, token, Ex, Expr, In, St};
use crate::codes;
use crate::lexer::ByteSet;
use crate::literal;
pub(super) use crate::template::Flat;
use crate::template::{finish_parts, finish_plain, FlatFor, LitText, Sink};
use crate::token::TokenKind as K;
use crate::tree::{PartNode, PartNodeKind, Run, Strip, TemplateNodeKind};
use crate::MAX_NESTING_DEPTH;

/// What a combinator's closure sees of the parse.
type Extra<'s, 'b> = MapExtra<'s, 'b, In<'s>, Ex<'s>>;

/// The parser state, from a combinator's closure.
fn state<'a, 's>(e: &'a mut Extra<'s, '_>) -> &'a mut St<'s> {
    &mut e.state().0
}

/// `template_expr = O_QUOTE template_parts C_QUOTE | O_HEREDOC
/// template_parts C_HEREDOC ;`
///
/// A quoted string may not span lines: the line break that ends an
/// unterminated one is reported (and left for the enclosing production);
/// any other missing closer is reported at the opener.
pub(super) fn template_expr<'s>(
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    // The most common template, `"text"` or `""` with plain text (see
    // [`plain_string`]): built at once, without flat parts. Any other quoted
    // string fails it after at most three tokens.
    let plain = just(K::OQuote)
        .ignore_then(token(K::QuotedLit).or_not())
        .then_ignore(just(K::CQuote))
        .try_map_with(|lit, e| {
            let span = e.span();
            let range = range_of(span);
            let s = state(e);
            let expr =
                plain_string(s, lit, range).ok_or(SyntaxError::unexpected(span, K::OQuote))?;
            s.last_end = range.end;
            Ok(expr)
        });
    let quoted = token(K::OQuote)
        .then(template_parts(expression.clone(), true))
        .then(choice((
            just(K::CQuote).to(Close::Closed),
            token(K::Newline).rewind().map(Close::LineBreak),
            empty().to(Close::Missing),
        )))
        .try_map_with(|((open, base), close), e| {
            let range = range_of(e.span());
            let s = state(e);
            Ok(build_template(
                s,
                TemplateNodeKind::Quoted,
                open,
                base,
                close,
                range,
            ))
        });
    let heredoc = token(K::OHeredoc)
        .then(template_parts(expression, false))
        .then(choice((
            just(K::CHeredoc).to(Close::Closed),
            empty().to(Close::Missing),
        )))
        .try_map_with(|((open, base), close), e| {
            let range = range_of(e.span());
            let s = state(e);
            let kind = heredoc_kind(s, open);
            Ok(build_template(s, kind, open, base, close, range))
        });
    choice((plain, quoted, heredoc))
}

/// How a template ended.
#[derive(Clone, Copy)]
enum Close {
    Closed,
    /// At a line break (a quoted string), not consumed.
    LineBreak(TextRange),
    /// Without its closer: the end of the input, or a token no part starts
    /// with.
    Missing,
}

/// A heredoc's kind, from its opener (`<<EOT` or `<<-EOT`, then the line
/// break).
fn heredoc_kind(s: &St<'_>, open: TextRange) -> TemplateNodeKind {
    let intro = s.slice(open);
    let flush = intro.starts_with("<<-");
    let marker = intro
        .trim_start_matches("<<")
        .trim_start_matches('-')
        .trim_end_matches(['\r', '\n']);
    let at = open.start + if flush { 3 } else { 2 };
    TemplateNodeKind::Heredoc {
        marker: TextRange::new(at, at + marker.len() as u32),
        flush,
    }
}

/// Reports how a template failed to close (if it did) and builds it from
/// the parts pushed above `base`; `range` covers its tokens.
fn build_template(
    s: &mut St<'_>,
    kind: TemplateNodeKind,
    open: TextRange,
    base: usize,
    close: Close,
    range: TextRange,
) -> Expr {
    let quoted = matches!(kind, TemplateNodeKind::Quoted);
    match close {
        Close::Closed => {}
        Close::LineBreak(at) => s.error_r(
            codes::MULTILINE_STRING,
            at,
            "quoted strings cannot span lines; use `\\n` or a heredoc (<<EOT)",
        ),
        Close::Missing => {
            let message = if quoted {
                "this string has no closing `\"` on its line"
            } else {
                "this heredoc has no closing marker line (the marker must be followed by a newline)"
            };
            s.error_r(codes::UNTERMINATED_TEMPLATE, open, message);
        }
    }
    let flush = matches!(kind, TemplateNodeKind::Heredoc { flush: true, .. });
    s.last_end = range.end;
    let parts = finish(s, base, flush);
    let id = s.b.template(kind, parts, range);
    s.handle(id)
}

/// `bare_template = template_parts EOF ;`
///
/// A token no part starts with (a stray `}`, …) is reported, once, and
/// skipped with the rest of the input. The output is where the parts
/// start on `St::flats` (for [`finish`]).
pub(super) fn bare_template<'s>(expression: PExpr<'s>) -> Boxed<'s, 's, In<'s>, usize, Ex<'s>> {
    let stray = any().validate(|kind: K, e, _| {
        let range = range_of(e.span());
        let s = state(e);
        s.last_end = range.end;
        s.error_r(
            codes::UNBALANCED_TEMPLATE_DIRECTIVE,
            range,
            format!("unexpected {}", kind.describe()),
        );
    });
    template_parts(expression, false)
        .then_ignore(stray.repeated())
        .then_ignore(end())
        .boxed()
}

/// `template_parts = { QUOTED_LIT | STRING_LIT | interpolation | directive
/// } ;`
///
/// `quoted` says whether the template is a quoted string (where a lone
/// backslash is an error token, reported here). Each part is pushed onto
/// `St::flats`; the output is where they start there (for [`finish`]).
pub(super) fn template_parts<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, usize, Ex<'s>> + Clone {
    // The literal tokens, told apart in one token test.
    let literal = select! {
        K::QuotedLit => Literal::Quoted,
        K::StringLit => Literal::Heredoc,
        K::Invalid if quoted => Literal::LoneBackslash,
    }
    .validate(|literal, e, _| {
        let range = range_of(e.span());
        let s = state(e);
        match literal {
            Literal::Quoted => {
                let mut errors = Vec::new();
                let value = literal::decode_quoted(s.slice(range), &mut errors);
                for err in errors {
                    let start = range.start as usize;
                    s.error(
                        codes::INVALID_ESCAPE,
                        TextRange::from_usize(start + err.start..start + err.end),
                        err.message,
                    );
                }
                push_quoted_literal(s, value, range);
            }
            Literal::Heredoc => {
                let value = literal::decode_heredoc(s.slice(range));
                let value = LitText::new(s.text, value, range);
                s.flats.push(Flat::Lit { value, range });
            }
            Literal::LoneBackslash => s.error(
                codes::INVALID_ESCAPE,
                range,
                "a backslash must be followed by an escape character",
            ),
        }
    });
    // A sequence is told by its opener before either is tried.
    let sequence = one_of([K::TemplateInterp, K::TemplateControl])
        .rewind()
        .ignore_then(choice((
            interpolation(expression.clone(), quoted),
            directive(expression, quoted),
        )));
    let part = choice((literal, sequence));
    empty()
        .try_map_with(|(), e| {
            // A new template: its first literal merges with none below.
            let s = state(e);
            s.solid_literal_end = None;
            Ok(s.flats.len())
        })
        .then_ignore(part.repeated())
        .try_map_with(|base, e| {
            let span = e.span();
            if span.end > span.start {
                state(e).last_end = span.end;
            }
            Ok(base)
        })
}

/// A literal token of a template.
#[derive(Clone, Copy)]
enum Literal {
    /// `QUOTED_LIT`: decoded, its escapes checked.
    Quoted,
    /// `STRING_LIT`: a heredoc's or bare template's text.
    Heredoc,
    /// A backslash at the end of a quoted string's line (an error token).
    LoneBackslash,
}

/// Pushes a quoted literal token's decoded text onto `st.flats`, merged at
/// once into the literal on top when both have a non-whitespace character
/// and that literal is this template's (`solid_literal_end` is cleared
/// when a template starts, and any other part pushed in between is on
/// top). Merging then is what [`finish`] would do later anyway, and the
/// strip markers of the neighbouring sequences, which trim only the
/// adjacent *token*, trim the same text: trimming stops inside the first
/// or last token either way. A string of many escapes (`$${` lexes as one
/// token each) thus costs one growing string, not one flat part per
/// token.
fn push_quoted_literal<'s>(st: &mut St<'s>, value: Cow<'s, str>, range: TextRange) {
    let solid = value.chars().any(|c| !crate::lexer::is_unicode_space(c));
    let text = st.text;
    if solid {
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
    let value = LitText::new(text, value, range);
    st.flats.push(Flat::Lit { value, range });
    st.solid_literal_end = solid.then_some(range.end);
}

/// `interpolation = TEMPLATE_INTERP @nl(off) expression TEMPLATE_SEQ_END ;`
fn interpolation<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    let sequence = opener(K::TemplateInterp)
        .then(expression)
        .then(sequence_end(quoted))
        .validate(|((open, expr), end), e, _| {
            let range = range_of(e.span());
            let s = state(e);
            let right = end.report(s, open.range, "interpolation");
            s.depth = s.depth.saturating_sub(1);
            let strip = Strip {
                left: open.left,
                right,
            };
            let part = s.b.interpolation(expr.id, strip, range);
            s.flats.push(Flat::Interp(part));
        });
    choice((sequence, too_deep(K::TemplateInterp)))
}

/// `directive = TEMPLATE_CONTROL @nl(off) directive_head TEMPLATE_SEQ_END ;`
///
/// Pushes the directive's marker (`crate::template` matches them); a
/// broken head pushes a broken marker, or nothing for a broken `for` head.
fn directive<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    let sequence = opener(K::TemplateControl)
        .then(choice((
            directive_head(expression)
                .then(sequence_end(quoted))
                .map(|(head, end)| (head, Some(end))),
            broken_head().map(|head| (head, None)),
        )))
        .validate(|(open, (head, end)), e, _| {
            let range = range_of(e.span());
            let s = state(e);
            let what = match head {
                Head::If(_) => "if directive",
                Head::For { .. } => "for directive",
                _ => "directive",
            };
            let right = end.is_some_and(|end| end.report(s, open.range, what));
            s.depth = s.depth.saturating_sub(1);
            let strip = Strip {
                left: open.left,
                right,
            };
            let flat = match head {
                Head::If(condition) => Flat::If {
                    condition: condition.id,
                    strip,
                    range,
                },
                Head::Else => Flat::Else { strip, range },
                Head::EndIf => Flat::EndIf { strip, range },
                Head::For {
                    key_var,
                    value_var,
                    collection,
                } => Flat::For(Box::new(FlatFor {
                    key_var,
                    value_var,
                    collection: collection.id,
                    strip,
                    range,
                })),
                Head::EndFor => Flat::EndFor { strip, range },
                Head::Broken => Flat::Broken,
                Head::Dropped => return,
            };
            s.flats.push(flat);
        });
    choice((sequence, too_deep(K::TemplateControl)))
}

/// What a directive's head says.
#[derive(Clone, Copy)]
enum Head {
    If(Expr),
    Else,
    EndIf,
    For {
        key_var: Option<TextRange>,
        value_var: TextRange,
        collection: Expr,
    },
    EndFor,
    /// Not a directive keyword (reported).
    Broken,
    /// A `for` head that went wrong (reported); it leaves no marker.
    Dropped,
}

/// `directive_head = "if" expression | "else" | "endif" | "for" IDENT [
/// "," IDENT ] "in" expression | "endfor" ;`
fn directive_head<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, Head, Ex<'s>> + Clone {
    let for_head = keyword("for")
        .ignore_then(token(K::Ident))
        .then(just(K::Comma).ignore_then(token(K::Ident)).or_not())
        .then_ignore(keyword("in"))
        .then(expression.clone())
        .map(|((first, second), collection)| match second {
            Some(value_var) => Head::For {
                key_var: Some(first),
                value_var,
                collection,
            },
            None => Head::For {
                key_var: None,
                value_var: first,
                collection,
            },
        });
    choice((
        keyword("if").ignore_then(expression).map(Head::If),
        keyword("else").to(Head::Else),
        keyword("endif").to(Head::EndIf),
        for_head,
        keyword("endfor").to(Head::EndFor),
    ))
}

/// Where `directive_head` does not match: reports why (a `for` head at the
/// token where it goes wrong, another word with a suggestion, anything
/// else as a missing keyword), then skips to the sequence's `}`.
fn broken_head<'s>() -> impl Parser<'s, In<'s>, Head, Ex<'s>> + Clone {
    // The message for the first token a `for` head cannot take.
    let names = "expected `in` after the `for` variable names";
    let for_error = just(K::Ident)
        .ignore_then(
            just(K::Comma)
                .ignore_then(
                    just(K::Ident)
                        .to(names)
                        .or_not()
                        .map(|m| m.unwrap_or("expected a value variable name after `,`")),
                )
                .or_not()
                .map(move |m| m.unwrap_or(names)),
        )
        .or_not()
        .map(|m| m.unwrap_or("expected a variable name after `for`"));
    let bad_for = keyword("for")
        .ignore_then(for_error)
        .then(next_range())
        .validate(|(message, at), e, _| {
            let s = state(e);
            let at = at.unwrap_or(s.eof());
            s.error_r(codes::INVALID_FOR, at, message);
            Head::Dropped
        });
    let unknown = token(K::Ident).validate(|range, e, _| {
        let s = state(e);
        let word = s.slice(range);
        let suggestion =
            pcl_diagnostics::suggest::did_you_mean(word, ["if", "for", "else", "endif", "endfor"]);
        let mut message = format!("`{word}` is not a template directive keyword");
        if let Some(first) = suggestion.first() {
            message.push_str(&format!("; did you mean `{first}`?"));
        }
        s.error_r(codes::INVALID_TEMPLATE_DIRECTIVE, range, message);
        Head::Broken
    });
    let missing = next_range().validate(|at, e, _| {
        let s = state(e);
        let at = at.unwrap_or(s.eof());
        s.error_r(
            codes::INVALID_TEMPLATE_DIRECTIVE,
            at,
            "expected `if`, `else`, `endif`, `for` or `endfor` after `%{`",
        );
        Head::Broken
    });
    choice((bad_for, unknown, missing))
        .then_ignore(skip_to_close())
        .then_ignore(just(K::TemplateSeqEnd).or_not())
}

/// The range of the next token (`None` at the end), not consumed.
fn next_range<'s>() -> impl Parser<'s, In<'s>, Option<TextRange>, Ex<'s>> + Clone {
    any().map_with(|_, e| range_of(e.span())).or_not().rewind()
}

/// A sequence's opener.
#[derive(Clone, Copy)]
struct Open {
    range: TextRange,
    /// `${~` / `%{~`: strips the whitespace before it.
    left: bool,
}

/// The opener `kind` (`${` or `%{`) of a sequence, one nesting level
/// deeper; fails at the limit (where [`too_deep`] takes over).
fn opener<'s>(kind: K) -> impl Parser<'s, In<'s>, Open, Ex<'s>> + Clone {
    token(kind).try_map_with(move |range, e| {
        let s = state(e);
        if s.depth >= MAX_NESTING_DEPTH {
            return Err(SyntaxError::unexpected(e.span(), kind));
        }
        s.depth += 1;
        Ok(Open {
            range,
            left: s.slice(range).ends_with('~'),
        })
    })
}

/// A sequence opened by `kind` at the nesting limit: reports
/// `nesting-too-deep` (once per parse, at the token after the opener) and
/// skips the sequence as a balanced group, without recursion. Pushes a
/// broken part.
fn too_deep<'s>(kind: K) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    just(kind)
        .ignore_then(next_range())
        .rewind()
        .try_map_with(move |at, e| {
            let span = e.span();
            let s = state(e);
            if s.depth < MAX_NESTING_DEPTH {
                return Err(SyntaxError::unexpected(span, kind));
            }
            if !s.depth_reported {
                s.depth_reported = true;
                let at = at.unwrap_or(s.eof());
                s.error(
                    codes::NESTING_TOO_DEEP,
                    at,
                    format!("nesting is deeper than the limit of {MAX_NESTING_DEPTH} levels"),
                );
            }
            s.recovering = true;
            Ok(())
        })
        .then_ignore(skip_one_group())
        .validate(|(), e, _| state(e).flats.push(Flat::Broken))
}

/// How a sequence (`${ … }`, `%{ … }`) ended.
#[derive(Clone, Copy)]
enum SeqEnd {
    /// At its `}` or `~}` (`strip`: the latter).
    Closed { strip: bool },
    /// At the end of the input.
    Missing,
    /// At the closing quote of the string it is in (not consumed).
    Quote,
    /// At a token that cannot end it (`found` at `at`), skipped with what
    /// follows up to the `}`, if any (`strip`: a `~}`).
    Extra {
        found: K,
        at: TextRange,
        strip: bool,
    },
}

impl SeqEnd {
    /// Reports how the sequence opened at `open` failed to end (if it
    /// did); whether its end strips the whitespace after it.
    fn report(self, s: &mut St<'_>, open: TextRange, what: &str) -> bool {
        match self {
            SeqEnd::Closed { strip } => strip,
            SeqEnd::Missing => {
                s.error_r(
                    codes::UNCLOSED_TEMPLATE_SEQUENCE,
                    open,
                    format!("this {what} sequence has no closing `}}`"),
                );
                false
            }
            SeqEnd::Quote => {
                s.error_r(
                    codes::UNCLOSED_TEMPLATE_SEQUENCE,
                    open,
                    format!(
                        "this {what} sequence has no closing `}}` before the end of the string"
                    ),
                );
                false
            }
            SeqEnd::Extra { found, at, strip } => {
                let message = if found == K::Colon {
                    "unexpected `:` in an interpolation; to write a literal `${`, escape it as `$${`"
                        .to_string()
                } else {
                    format!(
                        "expected `}}` to end the {what}, found {}; to write a literal `${{`, escape it as `$${{`",
                        found.describe()
                    )
                };
                s.error_r(codes::EXTRA_IN_TEMPLATE_SEQUENCE, at, message);
                strip
            }
        }
    }
}

/// `TEMPLATE_SEQ_END`, or how a sequence failed to end (see [`SeqEnd`]);
/// `quoted`: the sequence is in a quoted string.
fn sequence_end<'s>(quoted: bool) -> impl Parser<'s, In<'s>, SeqEnd, Ex<'s>> + Clone {
    let strips = |s: &St<'_>, range| s.slice(range).starts_with('~');
    let closed = token(K::TemplateSeqEnd).try_map_with(move |range, e| {
        Ok(SeqEnd::Closed {
            strip: strips(state(e), range),
        })
    });
    let quote = select! { K::CQuote if quoted => SeqEnd::Quote }.rewind();
    let extra = any()
        .map_with(|found, e| (found, range_of(e.span())))
        .rewind()
        .then_ignore(skip_to_close())
        .then(token(K::TemplateSeqEnd).or_not())
        .try_map_with(move |((found, at), close), e| {
            let strip = close.is_some_and(|range| strips(state(e), range));
            Ok(SeqEnd::Extra { found, at, strip })
        });
    choice((closed, end().to(SeqEnd::Missing), quote, extra))
}

/// A plain quoted string spanning `range`, whose only literal token (if
/// any) is at `lit`: `None` unless its text is ASCII without escapes or
/// sequences (`\`, `$`, `%`), which is what makes it plain. Builds
/// exactly what `template_parts`, [`finish`] and the builder's template
/// would, without their flat parts: a leaf where one fits (see
/// `tree/store.rs`), decided before any part is pushed (the part was
/// pushed, then popped again: about 80 instructions per string), else
/// the template node with its one literal part.
fn plain_string(s: &mut St<'_>, lit: Option<TextRange>, range: TextRange) -> Option<Expr> {
    if let Some(lit) = lit {
        let raw = s.slice(lit);
        // One pass over the bytes (a `char` pattern decodes UTF-8).
        static NOT_PLAIN: ByteSet<3> = ByteSet::new([b'\\', b'$', b'%'], true);
        if NOT_PLAIN.find(raw.as_bytes()) < raw.len() {
            return None;
        }
    }
    if let Some(id) = s.b.leaf(range) {
        return Some(s.handle(id));
    }
    let mark = s.b.mark_parts();
    if let Some(lit) = lit {
        s.b.push_part(PartNode {
            kind: PartNodeKind::Literal(crate::tree::Text::Source(lit)),
            range: lit,
        });
    }
    let parts = s.b.finish_parts(mark);
    let id = s.b.template(TemplateNodeKind::Quoted, parts, range);
    Some(s.handle(id))
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
