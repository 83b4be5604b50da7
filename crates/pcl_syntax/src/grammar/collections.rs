//! Collections: the productions `tuple_or_for`, `object_or_for`,
//! `object_items`, `object_item` and `for_body` of `grammar/pcl.ebnf`
//! (with `for_head`, shared with the template `for` directive).

use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::expressions::{expr, PExpr};
use super::input::SyntaxError;
use super::recovery::recover_to;
use super::{bump, is_keyword, peek_kind, peek_range, st, Expr, Inp};
use crate::codes;
use crate::newlines::Sig;
use crate::token::TokenKind as K;
use crate::tree::{ExprNodeKind, ForKind, ForNode};

/// `tuple_or_for = "[" ( for_body | tuple_items ) "]"`.
pub(super) fn tuple_or_for<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    let for_expr = for_body(expression.clone(), ForKind::Tuple);
    custom(move |inp: &mut Inp<'s, '_>| {
        let save = inp.save();
        let open = bump(inp).ok_or(SyntaxError::default())?;
        if is_keyword(inp, "for") {
            inp.rewind(save);
            return inp.parse(&for_expr);
        }
        let mark = st(inp).b.mark_exprs();
        let result = tuple_items_onto_scratch(inp, &expression, open);
        let s = st(inp);
        let items = s.b.finish_exprs(mark);
        result?;
        let range = s.range_from(open.range.start);
        Ok(s.mk(ExprNodeKind::Tuple(items), range))
    })
    .boxed()
}

/// A tuple's elements and its `]` (after `open`), the elements pushed
/// onto the scratch stack.
fn tuple_items_onto_scratch<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
    open: Sig,
) -> Result<(), SyntaxError> {
    loop {
        match peek_kind(inp) {
            Some(K::CBrack) => {
                bump(inp);
                break;
            }
            None | Some(K::Newline) => {
                st(inp).error_r(
                    codes::UNCLOSED_TUPLE,
                    open.range,
                    "this `[` has no matching `]`",
                );
                break;
            }
            _ => {}
        }
        let before = inp.cursor();
        let item = expr(inp, expression)?;
        st(inp).b.push_list_expr(item.id);
        match peek_kind(inp) {
            Some(K::Comma) => {
                bump(inp);
            }
            Some(K::CBrack) | None | Some(K::Newline) => {}
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::MISSING_COMMA,
                    range,
                    "expected `,` between tuple elements, or `]`",
                );
                recover_to(inp, K::CBrack);
                break;
            }
        }
        if inp.cursor() == before {
            bump(inp);
        }
    }
    Ok(())
}

/// `object_or_for = "{" ( for_body | object_items ) "}"`.
pub(super) fn object_or_for<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    let for_expr = for_body(expression.clone(), ForKind::Object);
    let items = object_items(expression);
    custom(move |inp: &mut Inp<'s, '_>| {
        let save = inp.save();
        bump(inp);
        let is_for = is_keyword(inp, "for");
        inp.rewind(save);
        if is_for {
            inp.parse(&for_expr)
        } else {
            inp.parse(&items)
        }
    })
    .boxed()
}

/// `object_items`: items separated by `,` or a newline, then `}`.
fn object_items<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(SyntaxError::default())?;
        let mark = st(inp).b.mark_object_items();
        let result = object_items_onto_scratch(inp, &expression, open);
        let s = st(inp);
        let items = s.b.finish_object_items(mark);
        result?;
        let range = s.range_from(open.range.start);
        Ok(s.mk(ExprNodeKind::Object(items), range))
    })
    .boxed()
}

/// An object's items and its `}` (after `open`), the items pushed onto
/// the scratch stack.
fn object_items_onto_scratch<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
    open: Sig,
) -> Result<(), SyntaxError> {
    loop {
        while peek_kind(inp) == Some(K::Newline) {
            bump(inp);
        }
        match peek_kind(inp) {
            Some(K::CBrace) => {
                bump(inp);
                break;
            }
            None => {
                st(inp).error_r(
                    codes::UNCLOSED_OBJECT,
                    open.range,
                    "this `{` has no matching `}`",
                );
                break;
            }
            _ => {}
        }
        let before = inp.cursor();
        let key = expr(inp, expression)?;
        let value = match peek_kind(inp) {
            Some(K::Equal | K::Colon) => {
                bump(inp);
                match peek_kind(inp) {
                    Some(K::Newline) | Some(K::Comma) | Some(K::CBrace) | None => {
                        let range = peek_range(inp);
                        let s = st(inp);
                        s.error_r(
                            codes::MISSING_ATTRIBUTE_VALUE,
                            range,
                            "expected a value after `=` on the same line",
                        );
                        s.error_node(TextRange::empty(s.last_end))
                    }
                    _ => expr(inp, expression)?,
                }
            }
            other => {
                // At the end of the input, point at the `{` left open.
                let range = match other {
                    None => open.range,
                    Some(_) => peek_range(inp),
                };
                let message = match other {
                    Some(K::Newline) | Some(K::Comma) => {
                        "expected `=` and a value after the object key".to_string()
                    }
                    None => "this `{` has no matching `}`".to_string(),
                    Some(K::Ident) => {
                        "expected `=` after the object key; quote keys that contain dots or spaces"
                            .to_string()
                    }
                    Some(kind) => format!(
                        "expected `=` after the object key, found {}",
                        kind.describe()
                    ),
                };
                let code = if other.is_none() {
                    codes::UNCLOSED_OBJECT
                } else {
                    codes::MISSING_KEY_VALUE_SEPARATOR
                };
                st(inp).error_r(code, range, message);
                recover_to(inp, K::CBrace);
                let s = st(inp);
                let item_range = s.range_from(key.range.start);
                let value = s.error_node(TextRange::empty(s.last_end));
                let item = s.b.object_item(key.id, value.id, item_range);
                s.b.push_object_item(item);
                return Ok(());
            }
        };
        let range = TextRange::new(key.range.start, value.range.end.max(key.range.end));
        let s = st(inp);
        let item = s.b.object_item(key.id, value.id, range);
        s.b.push_object_item(item);
        match peek_kind(inp) {
            Some(K::Comma | K::Newline) => {
                bump(inp);
            }
            Some(K::CBrace) | None => {}
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::MISSING_ITEM_SEPARATOR,
                    range,
                    "expected a newline or `,` before the next object item",
                );
                recover_to(inp, K::CBrace);
                break;
            }
        }
        if inp.cursor() == before {
            bump(inp);
        }
    }
    Ok(())
}

/// `IDENT [ "," IDENT ] "in" expression`, after the `for` of a `for`
/// expression or a `%{ for }` directive: the key variable (when two are
/// named), the value variable and the collection. `Ok(Err(message))` when
/// the next token does not fit, with nothing after the last good token
/// consumed, so the caller reports `message` there and recovers.
pub(super) type ForHead = (Option<TextRange>, TextRange, Expr);

pub(super) fn for_head<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
) -> Result<Result<ForHead, &'static str>, SyntaxError> {
    if peek_kind(inp) != Some(K::Ident) {
        return Ok(Err("expected a variable name after `for`"));
    }
    let first = bump(inp).ok_or(SyntaxError::default())?;
    let mut key_var = None;
    let mut value_var = first.range;
    if peek_kind(inp) == Some(K::Comma) {
        bump(inp);
        if peek_kind(inp) != Some(K::Ident) {
            return Ok(Err("expected a value variable name after `,`"));
        }
        let second = bump(inp).ok_or(SyntaxError::default())?;
        key_var = Some(value_var);
        value_var = second.range;
    }
    if !is_keyword(inp, "in") {
        return Ok(Err("expected `in` after the `for` variable names"));
    }
    bump(inp);
    let collection = expr(inp, expression)?;
    Ok(Ok((key_var, value_var, collection)))
}

/// `for_body = "for" IDENT [ "," IDENT ] "in" expression ":" expression
/// [ "=>" expression ] [ "..." ] [ "if" expression ]`, then the closer.
fn for_body<'s>(expression: PExpr<'s>, kind: ForKind) -> PExpr<'s> {
    let close = if kind == ForKind::Tuple {
        K::CBrack
    } else {
        K::CBrace
    };
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(SyntaxError::default())?;
        let for_token = bump(inp).ok_or(SyntaxError::default())?;
        let fail = |inp: &mut Inp<'s, '_>, message: &str| {
            let range = peek_range(inp);
            st(inp).error_r(codes::INVALID_FOR, range, message.to_string());
            recover_to(inp, close);
            let s = st(inp);
            let range = s.range_from(open.range.start);
            Ok(s.error_node(range))
        };
        let (key_var, value_var, collection) = match for_head(inp, &expression)? {
            Ok(head) => head,
            Err(message) => return fail(inp, message),
        };
        if peek_kind(inp) != Some(K::Colon) {
            return fail(inp, "expected `:` after the `for` collection expression");
        }
        bump(inp);
        let first_expr = expr(inp, &expression)?;
        let (key_expr, value_expr) = if peek_kind(inp) == Some(K::FatArrow) {
            bump(inp);
            (Some(first_expr), expr(inp, &expression)?)
        } else {
            (None, first_expr)
        };
        let grouping = if peek_kind(inp) == Some(K::Ellipsis) {
            bump(inp)
        } else {
            None
        };
        let condition = if is_keyword(inp, "if") {
            bump(inp);
            Some(expr(inp, &expression)?)
        } else {
            None
        };
        if peek_kind(inp) == Some(close) {
            bump(inp);
        } else {
            let range = peek_range(inp);
            st(inp).error_r(
                codes::INVALID_FOR,
                range,
                format!("expected {} to end the `for` expression", close.describe()),
            );
            recover_to(inp, close);
        }
        let s = st(inp);
        if kind == ForKind::Tuple {
            if let Some(key) = &key_expr {
                s.error(
                    codes::INVALID_FOR,
                    key.range,
                    "a tuple `for` expression cannot have a key (`=>`)",
                );
            }
            if let Some(dots) = grouping {
                s.error(
                    codes::INVALID_FOR,
                    dots.range,
                    "grouping (`...`) is only allowed in an object `for` expression",
                );
            }
        } else if key_expr.is_none() {
            s.error(
                codes::INVALID_FOR,
                for_token.range,
                "an object `for` expression needs a key: `for k, v in coll : key => value`",
            );
        }
        let range = s.range_from(open.range.start);
        let id = s.b.for_expr(
            ForNode {
                kind,
                key_var,
                value_var,
                collection: collection.id,
                key_expr: key_expr.map(|e| e.id),
                value_expr: value_expr.id,
                grouping: grouping.is_some(),
                condition: condition.map(|e| e.id),
            },
            range,
        );
        Ok(s.handle(id))
    })
    .boxed()
}

// ----------------------------------------------------------------------
// Templates
// ----------------------------------------------------------------------
