//! Collections: the productions `tuple_or_for`, `object_or_for`,
//! `object_items`, `object_item` and `for_body` of `grammar/pcl.ebnf`,
//! with `for_head` (`IDENT [ "," IDENT ] "in" expression`, shared with the
//! template `for` directive) and the recovery of a broken collection.
//!
//! Each production is a chumsky combinator of the rule's shape: the items
//! of a tuple or an object are a `separated_by(…).allow_trailing()`, the
//! optional parts of a `for` are `or_not`s. A production never fails once
//! its opener is consumed: what does not fit is reported into the parser
//! state (`validate`, which chumsky always runs) and skipped by
//! `recovery::skip_to_close` (the skipping parser all areas share). Recovery is
//! written as `choice` alternatives, not `recover_with`: the error a
//! `recover_with` strategy emits would reach `report_errors` and be
//! reported a second time, as an expected-attribute error, whenever the
//! parser state silences follow-up errors.
//!
//! Tree nodes are built in `map_with` closures of outputs that are always
//! used; a list's elements go onto the builder's scratch stack as they are
//! parsed (the mark is taken by an `empty()` before the first one) and
//! are moved into the arena when the closer has been seen.

use std::cell::Cell;

use chumsky::prelude::*;
use pcl_diagnostics::{Code, TextRange};

use super::dispatch::{optional, First};
use super::expressions::{name_term, PExpr};
use super::input::SyntaxError;
use super::recovery::{skip_to, skip_to_close};
use super::{keyword, range_of, token, Ex, Expr, In, St};

/// What a `map_with`, `try_map_with` or `validate` closure gets.
type Extra<'s, 'b> = chumsky::input::MapExtra<'s, 'b, In<'s>, Ex<'s>>;
use crate::codes;
use crate::token::TokenKind as K;
use crate::tree::builder::Mark;
use crate::tree::{ExprNodeKind, ForKind, ForNode};

/// `tuple_or_for = "[" @nl(off) ( &"for" for_body | [ expression { ","
/// expression } [ "," ] ] ) "]"`. The elements are a `separated_by` of
/// `,` with a trailing one allowed; an element starts at anything but `]`
/// or a line break (which, significant here, means the `[` was left open).
pub(super) fn tuple_or_for<'s>(
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    let items = empty()
        .map_with(|(), e: &mut Extra<'s, '_>| e.state().0.b.mark_exprs())
        // `then`, not `then_ignore`: an ignored output is parsed in
        // chumsky's check mode, where the `map_with` pushing each element
        // would not run.
        .then(
            none_of([K::CBrack, K::Newline])
                .rewind()
                .ignore_then(expression.clone())
                .map_with(|item, e| e.state().0.b.push_list_expr(item.id))
                .separated_by(just(K::Comma))
                .allow_trailing()
                .collect::<()>(),
        )
        .then(tuple_close())
        .map(|((mark, ()), close)| (mark, close));
    token(K::OBrack)
        .then(choice((
            for_body(expression, ForKind::Tuple).map(Inner::For),
            items.map(|(mark, close)| Inner::Items(mark, close)),
        )))
        .map_with(|(open, inner), e| {
            let range = range_of(e.span());
            let s = &mut e.state().0;
            match inner {
                Inner::For(parts) => finish_for(s, parts, ForKind::Tuple, range),
                Inner::Items(mark, close) => {
                    let items = s.b.finish_exprs(mark);
                    if close == Close::Unclosed {
                        s.error_r(codes::UNCLOSED_TUPLE, open, "this `[` has no matching `]`");
                    }
                    s.mk(ExprNodeKind::Tuple(items), range)
                }
            }
        })
}

/// What follows a collection's opener: a `for` body (`None` when it was
/// broken and skipped) or the items (their scratch mark) and how they
/// ended.
#[derive(Clone)]
enum Inner {
    For(Option<ForParts>),
    Items(Mark, Close),
}

/// How a list of items ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Close {
    /// At its closer, consumed.
    Closed,
    /// At a line break or the end of the input: the opener is unmatched.
    Unclosed,
    /// At something else: reported, and skipped to the closer.
    Recovered,
}

/// A tuple's `]`; a line break or the end instead leaves it unclosed, and
/// anything else after an element is a missing `,`.
fn tuple_close<'s>() -> impl Parser<'s, In<'s>, Close, Ex<'s>> + Clone {
    choice((
        just(K::CBrack).to(Close::Closed),
        just(K::Newline)
            .rewind()
            .ignored()
            .or(end())
            .to(Close::Unclosed),
        report_here(
            codes::MISSING_COMMA,
            "expected `,` between tuple elements, or `]`",
        )
        .then(recover_to(K::CBrack))
        .to(Close::Recovered),
    ))
}

/// `object_or_for = "{" ( @nl(off) &"for" for_body | @nl(on) object_items
/// ) "}"`.
pub(super) fn object_or_for<'s>(
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    token(K::OBrace)
        .then(choice((
            for_body(expression.clone(), ForKind::Object).map(Inner::For),
            object_items(expression).map(|(mark, close)| Inner::Items(mark, close)),
        )))
        .map_with(|(open, inner), e| {
            let range = range_of(e.span());
            let s = &mut e.state().0;
            match inner {
                Inner::For(parts) => finish_for(s, parts, ForKind::Object, range),
                Inner::Items(mark, close) => {
                    let items = s.b.finish_object_items(mark);
                    if close == Close::Unclosed {
                        s.error_r(codes::UNCLOSED_OBJECT, open, "this `{` has no matching `}`");
                    }
                    s.mk(ExprNodeKind::Object(items), range)
                }
            }
        })
}

/// `object_items = { NEWLINE } [ object_item { ( "," | NEWLINE ) { NEWLINE }
/// object_item } [ "," | NEWLINE ] { NEWLINE } ]`, then how they ended
/// (the `}` consumed, or not there). The items are pushed onto the
/// scratch stack above the mark returned.
fn object_items<'s>(
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, (Mark, Close), Ex<'s>> + Clone {
    // `{ NEWLINE }`, tried only at a line break (between the items of a
    // one-line object there is none).
    let newlines = optional(vec![(
        First::tokens(&[K::Newline]),
        just(K::Newline).repeated().collect::<()>().boxed(),
    )]);
    // (`try_map_with`, not `try_map`: the span is computed only where an
    // item stopped.)
    let separator = one_of([K::Comma, K::Newline])
        .try_map_with(
            |kind, e: &mut Extra<'s, '_>| match ITEM_STOPPED.with(Cell::get) {
                true => Err(SyntaxError::unexpected(e.span(), kind)),
                false => Ok(()),
            },
        )
        .then(newlines.clone());
    empty()
        .map_with(|(), e: &mut Extra<'s, '_>| e.state().0.b.mark_object_items())
        .then_ignore(newlines)
        .then(
            none_of([K::CBrace])
                .rewind()
                .ignore_then(object_item(expression))
                .separated_by(separator)
                .allow_trailing()
                .collect::<()>(),
        )
        .then(object_close())
        .map(|((mark, ()), close)| (mark, close))
}

/// An object's `}`; the end of the input instead leaves it unclosed, and
/// anything else after an item is a missing separator.
fn object_close<'s>() -> impl Parser<'s, In<'s>, Close, Ex<'s>> + Clone {
    let after_items = empty().validate(|(), _, _| ITEM_STOPPED.with(|stopped| stopped.set(false)));
    after_items.ignore_then(choice((
        just(K::CBrace).to(Close::Closed),
        end().to(Close::Unclosed),
        report_here(
            codes::MISSING_ITEM_SEPARATOR,
            "expected a newline or `,` before the next object item",
        )
        .then(recover_to(K::CBrace))
        .to(Close::Recovered),
    )))
}

thread_local! {
    /// Set by an [`object_item`] that found no `=` after its key and
    /// skipped to the object's closer: the separator parser that
    /// `separated_by` tries right after it then fails, so the items end
    /// there (a separator can follow: the skip stops at a line break where
    /// a new body item starts), and the object's closer clears it. Nothing
    /// else runs in between, so nested objects never see each other's.
    static ITEM_STOPPED: Cell<bool> = const { Cell::new(false) };
}

/// What follows an object item's key.
#[derive(Clone, Copy)]
enum ItemRest {
    /// `=` or `:` (where it ends) and the value, `None` when it is missing.
    Value(u32, Option<Expr>),
    /// No `=`: reported and skipped to the closer; where the item ends
    /// (after the closer when it is the object's).
    Stopped(u32),
}

/// `object_item = ( IDENT &( "=" | ":" ) | expression ) ( "=" | ":" )
/// expression`, pushed onto the scratch stack. A key that is a name
/// before its `=` or `:` (nearly every key) is read by one token test
/// into the node the expression would build (a variable, or `true`,
/// `false`, `null`): through the expression tower it cost about 175
/// instructions more per key (1 MB generated file, 24,682 items: 102.6 M
/// -> 98.7 M). A missing value (a line break, `,` or `}` after the
/// `=`) is reported and the item gets an error value; a missing `=` is
/// reported and the rest of the object skipped.
fn object_item<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    let value = none_of([K::Newline, K::Comma, K::CBrace])
        .rewind()
        .ignore_then(expression.clone())
        .map(Some)
        .or(report_here(
            codes::MISSING_ATTRIBUTE_VALUE,
            "expected a value after `=` on the same line",
        )
        .to(None));
    let assigned = one_of([K::Equal, K::Colon])
        .map_with(|_, e: &mut Extra<'s, '_>| e.span().end)
        .then(value)
        .map(|(end, value)| ItemRest::Value(end, value));
    let stopped = peek()
        .validate(|(kind, range), e, _| {
            ITEM_STOPPED.with(|stopped| stopped.set(true));
            // At the end of the input, the closer reports the `{` left
            // open.
            let Some(kind) = kind else { return };
            let message = match kind {
                K::Newline | K::Comma => {
                    "expected `=` and a value after the object key".to_string()
                }
                K::Ident => {
                    "expected `=` after the object key; quote keys that contain dots or spaces"
                        .to_string()
                }
                kind => format!(
                    "expected `=` after the object key, found {}",
                    kind.describe()
                ),
            };
            e.state()
                .0
                .error_r(codes::MISSING_KEY_VALUE_SEPARATOR, range, message);
        })
        .ignore_then(skip_to_close())
        .then(peek())
        // The item ends with the `}` found there (which the closer
        // consumes).
        .map(|(end, closer)| match closer {
            (Some(K::CBrace), range) => ItemRest::Stopped(range.end),
            _ => ItemRest::Stopped(end),
        });
    let name_key = token(K::Ident)
        .then_ignore(one_of([K::Equal, K::Colon]).rewind())
        .try_map_with(|range, e: &mut Extra<'s, '_>| Ok(name_term(&mut e.state().0, range)));
    choice((name_key, expression))
        .then(assigned.or(stopped))
        .map_with(|(key, rest), e| {
            let s = &mut e.state().0;
            let (value, range) = match rest {
                ItemRest::Value(_, Some(value)) => (value, value.range.end),
                ItemRest::Value(eq_end, None) => {
                    let value = s.error_node(TextRange::empty(eq_end));
                    (value, value.range.end)
                }
                ItemRest::Stopped(end) => {
                    let value = s.error_node(TextRange::empty(end));
                    let range = TextRange::new(key.range.start, end.max(key.range.start));
                    let item = s.b.object_item(key.id, value.id, range);
                    s.b.push_object_item(item);
                    return;
                }
            };
            let range = TextRange::new(key.range.start, range.max(key.range.end));
            let item = s.b.object_item(key.id, value.id, range);
            s.b.push_object_item(item);
        })
}

/// `IDENT [ "," IDENT ] "in" expression`, after the `for` of a `for`
/// expression or a `%{ for }` directive: the key variable (when two are
/// named), the value variable and the collection.
pub(super) type ForHead = (Option<TextRange>, TextRange, Expr);

/// `IDENT [ "," IDENT ] "in" expression`; fails when a token does not fit.
fn for_head_parser<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, ForHead, Ex<'s>> + Clone {
    token(K::Ident)
        .then(just(K::Comma).ignore_then(token(K::Ident)).or_not())
        .then_ignore(keyword("in"))
        .then(expression)
        .map(|((first, second), collection)| match second {
            Some(value_var) => (Some(first), value_var, collection),
            None => (None, first, collection),
        })
}

const NO_FOR_VARIABLE: &str = "expected a variable name after `for`";
const NO_FOR_VALUE_VARIABLE: &str = "expected a value variable name after `,`";
const NO_FOR_IN: &str = "expected `in` after the `for` variable names";
const NO_FOR_COLON: &str = "expected `:` after the `for` collection expression";

/// Where a `for` head that [`for_head_parser`] rejected goes wrong: the
/// good tokens consumed and the message for the next one (tokens only:
/// the collection expression is never reached).
fn for_head_misfit<'s>() -> impl Parser<'s, In<'s>, &'static str, Ex<'s>> + Clone {
    choice((
        just(K::Ident)
            .then(just(K::Comma))
            .then(just(K::Ident))
            .to(NO_FOR_IN),
        just(K::Ident)
            .then(just(K::Comma))
            .to(NO_FOR_VALUE_VARIABLE),
        just(K::Ident).to(NO_FOR_IN),
        empty().to(NO_FOR_VARIABLE),
    ))
}

/// The parts of a `for` expression, for [`finish_for`].
#[derive(Clone)]
struct ForParts {
    for_token: TextRange,
    head: ForHead,
    key_expr: Option<Expr>,
    value_expr: Expr,
    grouping: Option<TextRange>,
    condition: Option<Expr>,
}

/// `for_body = "for" IDENT [ "," IDENT ] "in" expression ":" expression
/// [ "=>" expression ] [ "..." ] [ "if" expression ]`, then the closer of
/// `kind`. `None` when it is broken: reported, and skipped past the
/// closer.
fn for_body<'s>(
    expression: PExpr<'s>,
    kind: ForKind,
) -> impl Parser<'s, In<'s>, Option<ForParts>, Ex<'s>> + Clone {
    let close = if kind == ForKind::Tuple {
        K::CBrack
    } else {
        K::CBrace
    };
    let tail = just(K::Colon)
        .ignore_then(expression.clone())
        .then(just(K::FatArrow).ignore_then(expression.clone()).or_not())
        .then(token(K::Ellipsis).or_not())
        .then(keyword("if").ignore_then(expression.clone()).or_not())
        .then_ignore(for_close(close));
    let no_colon = report_here(codes::INVALID_FOR, NO_FOR_COLON)
        .then(recover_to(close))
        .to(None);
    let good_head = for_head_parser(expression).then(tail.map(Some).or(no_colon));
    let bad_head = for_head_misfit()
        .then(peek())
        .validate(|(message, (_, range)), e, _| {
            e.state().0.error_r(codes::INVALID_FOR, range, message);
        })
        .then(recover_to(close))
        .to(None);
    keyword("for")
        .then(good_head.map(Some).or(bad_head))
        .map(|(for_token, body)| {
            let (head, tail) = body?;
            let (((first, second), grouping), condition) = tail?;
            let (key_expr, value_expr) = match second {
                Some(value) => (Some(first), value),
                None => (None, first),
            };
            Some(ForParts {
                for_token,
                head,
                key_expr,
                value_expr,
                grouping,
                condition,
            })
        })
}

/// A `for` expression's closer; anything else is reported and skipped.
fn for_close<'s>(close: K) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    let message = format!("expected {} to end the `for` expression", close.describe());
    just(close).ignored().or(peek()
        .validate(move |(_, range), e, _| {
            e.state()
                .0
                .error_r(codes::INVALID_FOR, range, message.clone());
        })
        .ignore_then(recover_to(close)))
}

/// Builds a `for` expression of `kind` over `range` (an error node when
/// it was broken), reporting what its kind does not allow.
fn finish_for(s: &mut St<'_>, parts: Option<ForParts>, kind: ForKind, range: TextRange) -> Expr {
    let Some(parts) = parts else {
        return s.error_node(range);
    };
    if kind == ForKind::Tuple {
        if let Some(key) = &parts.key_expr {
            s.error(
                codes::INVALID_FOR,
                key.range,
                "a tuple `for` expression cannot have a key (`=>`)",
            );
        }
        if let Some(dots) = parts.grouping {
            s.error(
                codes::INVALID_FOR,
                dots,
                "grouping (`...`) is only allowed in an object `for` expression",
            );
        }
    } else if parts.key_expr.is_none() {
        s.error(
            codes::INVALID_FOR,
            parts.for_token,
            "an object `for` expression needs a key: `for k, v in coll : key => value`",
        );
    }
    let (key_var, value_var, collection) = parts.head;
    let id = s.b.for_expr(
        ForNode {
            kind,
            key_var,
            value_var,
            collection: collection.id,
            key_expr: parts.key_expr.map(|e| e.id),
            value_expr: parts.value_expr.id,
            grouping: parts.grouping.is_some(),
            condition: parts.condition.map(|e| e.id),
        },
        range,
    );
    s.handle(id)
}

// ----------------------------------------------------------------------
// Recovery
// ----------------------------------------------------------------------

/// The next token's kind and range, not consumed; at the end of the
/// input, `None` and the empty range there.
fn peek<'s>() -> impl Parser<'s, In<'s>, (Option<K>, TextRange), Ex<'s>> + Clone {
    any()
        .or_not()
        .map_with(|kind, e: &mut Extra<'s, '_>| {
            let range = match kind {
                Some(_) => range_of(e.span()),
                None => e.state().0.eof(),
            };
            (kind, range)
        })
        .rewind()
}

/// Reports `message` with `code` at the next token (silenced while the
/// state is recovering), consuming nothing.
fn report_here<'s>(
    code: Code,
    message: &'static str,
) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    peek().validate(move |(_, range), e, _| e.state().0.error_r(code, range, message))
}

/// Skips to the closer of the construct being parsed and consumes it when
/// it is `close`.
fn recover_to<'s>(close: K) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    skip_to(close).ignored()
}

#[cfg(test)]
mod tests {
    use pcl_diagnostics::FileId;

    /// The dump of `text` parsed as a file, then its diagnostics' codes.
    fn parsed(text: &str) -> String {
        let parse = crate::parse(FileId(0), text);
        let mut out = parse.dump();
        for diagnostic in parse.diagnostics() {
            out.push_str(diagnostic.code.as_str());
            out.push('\n');
        }
        out
    }

    #[test]
    fn an_item_without_equals_ends_the_object_where_a_body_item_starts() {
        // The skip after `a` stops at the line break before `b = 2`: the
        // object ends there (no separator may follow the stopped item) and
        // `b` is an attribute of the file.
        let out = parsed("x = {\na\nb = 2\n}\ny = 1\n");
        let expected = "\
Body 0..22
  Attribute \"x\" 0..7
    Object 4..7
      Item 6..7
        key: Variable \"a\" 6..7
        value: Error 7..7
  Attribute \"b\" 8..13
    Number 2 = 2 12..13
  Attribute \"y\" 16..21
    Number 1 = 1 20..21
";
        assert!(out.starts_with(expected), "{out}");
        assert!(
            out.ends_with("missing-key-value-separator\nunexpected-close-brace\n"),
            "{out}"
        );
    }

    #[test]
    fn a_stopped_item_in_a_nested_object_does_not_end_the_outer_one() {
        let out = parsed("x = {\n  a = { b c }\n  d = 1\n}\n");
        assert!(out.contains("key: Variable \"d\""), "{out}");
        assert!(out.ends_with("missing-key-value-separator\n"), "{out}");
    }
}
