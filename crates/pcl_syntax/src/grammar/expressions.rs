//! Expressions: the productions `expression`, `conditional`, `binary`
//! (with `binary_op`), `unary`, `term`, `paren_expr`, `function_call` and
//! `call_args` of `grammar/pcl.ebnf`, and the `simple_atom` shortcut.
//! Postfix chains are in `postfix.rs`, collections in `collections.rs`,
//! templates in `templates.rs`.

use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::collections::{object_or_for, tuple_or_for};
use super::input::SyntaxError;
use super::postfix::{finish_traversal_run, postfix_chain, postfix_expr, Chain};
use super::recovery::{enter, leave, nested, recover_line_in_expr, recover_to};
use super::templates::{plain_parts, template_expr};
use super::{
    bump, ends_expression, peek, peek2_kind, peek_kind, peek_nth, peek_range, range_of, st, token,
    Ex, Expr, In, Inp, St,
};
use crate::codes;
use crate::literal::{self, NumberError};
use crate::newlines::Sig;
use crate::token::TokenKind as K;
use crate::tree::builder::{slice, NumberLit};
use crate::tree::{BinaryOp, CallNode, ExprNodeKind, StepNodeKind, TemplateNodeKind, UnaryOp};
use crate::MAX_NESTING_DEPTH;

pub(super) type PExpr<'s> = Boxed<'s, 's, In<'s>, Expr, Ex<'s>>;

/// Parses an expression with `expression`, or directly when it is a
/// [`simple_atom`] (skipping the recursive parser's dispatch).
pub(super) fn expr<'s>(inp: &mut Inp<'s, '_>, expression: &PExpr<'s>) -> Result<Expr, SyntaxError> {
    match simple_atom(inp) {
        Some(atom) => Ok(atom),
        None => inp.parse(expression),
    }
}

/// An identifier, keyword literal or number followed by a token that
/// cannot continue an expression (the value of most attributes and object
/// items, most object keys): consumed and built exactly as the full
/// `conditional` → … → `term` descent would, without it. `None` (nothing
/// consumed) otherwise.
fn simple_atom(inp: &mut Inp<'_, '_>) -> Option<Expr> {
    let first = peek(inp)?;
    if first.kind == K::OQuote {
        return simple_string(inp, first);
    }
    if first.kind == K::Ident && peek2_kind(inp) == Some(K::Dot) {
        return simple_traversal(inp, first);
    }
    if !matches!(first.kind, K::Ident | K::NumberLit) || !ends_expression(peek2_kind(inp)) {
        return None;
    }
    bump(inp);
    let s = st(inp);
    Some(if first.kind == K::NumberLit {
        number(s, first)
    } else {
        ident_term(s, first)
    })
}

/// `simple_atom` for `name.attr.attr…` (attribute steps only, the most
/// common reference) followed by a token that ends an expression: built
/// as `term` and `postfix_chain` would (`finish_traversal` of the name's
/// term and its steps). `None` (nothing consumed) for anything else.
fn simple_traversal(inp: &mut Inp<'_, '_>, first: Sig) -> Option<Expr> {
    let cursor = inp.cursor().inner().idx;
    let input = st(inp).input;
    // The significant tokens after `first`, by kind.
    let mut at = cursor;
    let mut following = std::iter::from_fn(|| {
        at = input.nth_from(at, 1);
        input.kind(at)
    });
    let mut steps = 0;
    let after = loop {
        match following.next() {
            Some(K::Dot) => match following.next() {
                Some(K::Ident) => steps += 1,
                _ => return None,
            },
            other => break other,
        }
    };
    if steps == 0 || !ends_expression(after) {
        return None;
    }
    bump(inp);
    let source = ident_term(st(inp), first);
    let mark = st(inp).b.mark_steps();
    for _ in 0..steps {
        let (Some(dot), Some(name)) = (bump(inp), bump(inp)) else {
            break;
        };
        let s = st(inp);
        let step = s.b.step(
            StepNodeKind::Attr(name.range),
            TextRange::new(dot.range.start, name.range.end),
        );
        s.b.push_step(step);
    }
    Some(finish_traversal_run(st(inp), source, mark))
}

/// `simple_atom` for a plain quoted string (see [`plain_quoted`]) below
/// the nesting limit (where the template production would not stop).
fn simple_string(inp: &mut Inp<'_, '_>, open: Sig) -> Option<Expr> {
    if st(inp).depth >= MAX_NESTING_DEPTH {
        return None;
    }
    let lit = peek_nth(inp, 1)?;
    let (part, after) = match lit.kind {
        K::QuotedLit if peek_nth(inp, 2).map(|s| s.kind) == Some(K::CQuote) => (Some(lit), 3),
        K::CQuote => (None, 2),
        _ => return None,
    };
    if !ends_expression(peek_nth(inp, after).map(|s| s.kind)) {
        return None;
    }
    let parts = plain_parts(st(inp), part)?;
    for _ in 0..after {
        bump(inp);
    }
    let s = st(inp);
    let range = s.range_from(open.range.start);
    let id = s.b.template(TemplateNodeKind::Quoted, parts, range);
    Some(s.handle(id))
}

/// A bare identifier as a term: a keyword literal or a variable.
pub(super) fn ident_term(s: &mut St<'_>, sig: Sig) -> Expr {
    // Only a name of 4 or 5 bytes can be a keyword literal.
    let kind = if !matches!(sig.range.len(), 4 | 5) {
        ExprNodeKind::Variable
    } else {
        match s.slice(sig.range) {
            "true" => ExprNodeKind::Bool(true),
            "false" => ExprNodeKind::Bool(false),
            "null" => ExprNodeKind::Null,
            _ => ExprNodeKind::Variable,
        }
    };
    s.mk(kind, sig.range)
}

pub(super) fn number(st: &mut St<'_>, sig: Sig) -> Expr {
    let text = st.slice(sig.range);
    let value = match literal::parse_number(text) {
        Ok(value) => value,
        Err(NumberError::Malformed) => {
            st.error(
                codes::INVALID_NUMBER,
                sig.range,
                format!("`{text}` is not a valid number"),
            );
            NumberLit::Invalid
        }
        Err(NumberError::OutOfRange) => {
            st.error(
                codes::NUMBER_OUT_OF_RANGE,
                sig.range,
                literal::out_of_range_message(text),
            );
            NumberLit::Invalid
        }
        Err(NumberError::TooLong) => {
            st.error(
                codes::NUMBER_TOO_LONG,
                sig.range,
                literal::too_long_message(text),
            );
            NumberLit::Invalid
        }
    };
    let id = st.b.number(value, sig.range);
    st.handle(id)
}

/// `expression = conditional`, with everything it needs.
pub(super) fn expression<'s>() -> PExpr<'s> {
    recursive(|expression| {
        let expression = expression.boxed();
        let operand = Operand {
            term: term(expression.clone()),
            chain: postfix_chain(expression.clone()).boxed(),
        };
        conditional(operand, expression)
    })
    .boxed()
}

/// `conditional = binary [ "?" expression ":" expression ]`.
/// What an operand of an operator is made of. `unary` and `postfix_expr`
/// are plain functions over these parsers, called directly (two chumsky
/// dispatches fewer per operand than one boxed parser per production).
#[derive(Clone)]
pub(super) struct Operand<'s> {
    pub(super) term: PExpr<'s>,
    pub(super) chain: Boxed<'s, 's, In<'s>, Chain, Ex<'s>>,
}

fn conditional<'s>(unary: Operand<'s>, expression: PExpr<'s>) -> PExpr<'s> {
    let rest = move |inp: &mut Inp<'s, '_>| -> Result<Option<(Expr, Expr)>, SyntaxError> {
        if !enter(inp) {
            recover_line_in_expr(inp);
            return Ok(None);
        }
        bump(inp);
        let then_expr = expr(inp, &expression)?;
        let else_expr = if peek_kind(inp) == Some(K::Colon) {
            bump(inp);
            expr(inp, &expression)?
        } else {
            let range = peek_range(inp);
            st(inp).error_r(
                codes::MISSING_CONDITIONAL_ELSE,
                range,
                "expected `:` and the false branch of the conditional",
            );
            st(inp).error_node(TextRange::empty(then_expr.range.end))
        };
        leave(inp);
        Ok(Some((then_expr, else_expr)))
    };
    // Callers go through [`expr`], which has tried `simple_atom` already.
    custom(move |inp: &mut Inp<'s, '_>| {
        let condition = binary(inp, &unary)?;
        if peek_kind(inp) != Some(K::Question) {
            return Ok(condition);
        }
        let before = inp.save();
        Ok(match rest(inp) {
            Err(_) => {
                inp.rewind(before);
                condition
            }
            Ok(None) => {
                let s = st(inp);
                let range = s.range_from(condition.range.start);
                s.error_node(range)
            }
            Ok(Some((then_expr, else_expr))) => {
                let range = TextRange::new(
                    condition.range.start,
                    else_expr.range.end.max(then_expr.range.end),
                );
                st(inp).mk(
                    ExprNodeKind::Conditional {
                        condition: condition.id,
                        then_expr: then_expr.id,
                        else_expr: else_expr.id,
                    },
                    range,
                )
            }
        })
    })
    .boxed()
}

fn binary_op(kind: K) -> Option<BinaryOp> {
    Some(match kind {
        K::Or => BinaryOp::Or,
        K::And => BinaryOp::And,
        K::EqualOp => BinaryOp::Equal,
        K::NotEqual => BinaryOp::NotEqual,
        K::LessThan => BinaryOp::Less,
        K::LessThanEq => BinaryOp::LessEqual,
        K::GreaterThan => BinaryOp::Greater,
        K::GreaterThanEq => BinaryOp::GreaterEqual,
        K::Plus => BinaryOp::Add,
        K::Minus => BinaryOp::Subtract,
        K::Star => BinaryOp::Multiply,
        K::Slash => BinaryOp::Divide,
        K::Percent => BinaryOp::Modulo,
        _ => return None,
    })
}

/// `binary`: `or_expr` (1) down to `multiplicative` (6), all levels
/// left-associative, parsed by one precedence-climbing loop instead of a
/// `foldl` per level. Called directly from `conditional`'s `custom`
/// parser (one combinator layer fewer per expression).
fn binary<'s>(inp: &mut Inp<'s, '_>, unary: &Operand<'s>) -> Result<Expr, SyntaxError> {
    climb(inp, unary, 1).map(|(expr, _)| expr)
}

/// Parses operands joined by operators of precedence `min_prec` or more.
/// Returns the expression and whether an operand failed after its
/// operator (the operator is then left unconsumed and every level stops,
/// as a `foldl` of `op.then(operand).repeated()` would).
fn climb<'s>(
    inp: &mut Inp<'s, '_>,
    unary: &Operand<'s>,
    min_prec: u8,
) -> Result<(Expr, bool), SyntaxError> {
    let mut lhs = unary_expr(inp, unary)?;
    loop {
        let Some(op) = peek_kind(inp).and_then(binary_op) else {
            return Ok((lhs, false));
        };
        let prec = op.precedence();
        if prec < min_prec {
            return Ok((lhs, false));
        }
        let before = inp.save();
        let Some(op_sig) = bump(inp) else {
            return Ok((lhs, false));
        };
        let (rhs, stopped) = if prec >= 6 {
            match unary_expr(inp, unary) {
                Ok(rhs) => (rhs, false),
                Err(_) => {
                    inp.rewind(before);
                    return Ok((lhs, true));
                }
            }
        } else {
            match climb(inp, unary, prec + 1) {
                Ok(out) => out,
                Err(_) => {
                    inp.rewind(before);
                    return Ok((lhs, true));
                }
            }
        };
        let range = TextRange::new(lhs.range.start, rhs.range.end.max(op_sig.range.end));
        lhs = st(inp).mk(
            ExprNodeKind::Binary {
                op,
                op_start: op_sig.range.start,
                lhs: lhs.id,
                rhs: rhs.id,
            },
            range,
        );
        if stopped {
            return Ok((lhs, true));
        }
    }
}

/// `unary = ( "-" | "!" ) unary | postfix_expr`. The operator chain is
/// plain Rust recursion (bounded by [`MAX_NESTING_DEPTH`] through
/// `enter`), so an operand that is not a unary expression costs no parser
/// dispatch of its own.
fn unary_expr<'s>(inp: &mut Inp<'s, '_>, parts: &Operand<'s>) -> Result<Expr, SyntaxError> {
    if matches!(peek_kind(inp), Some(K::Minus | K::Bang)) {
        let before = inp.save();
        match unary_operator(inp, parts) {
            Ok(expr) => return Ok(expr),
            Err(_) => inp.rewind(before),
        }
    }
    postfix_expr(inp, parts)
}

fn unary_operator<'s>(inp: &mut Inp<'s, '_>, parts: &Operand<'s>) -> Result<Expr, SyntaxError> {
    if !enter(inp) {
        let start = peek_range(inp).start;
        while matches!(peek_kind(inp), Some(K::Minus | K::Bang)) {
            bump(inp);
        }
        recover_line_in_expr(inp);
        let s = st(inp);
        let range = s.range_from(start);
        return Ok(s.error_node(range));
    }
    let op_sig = bump(inp).ok_or(SyntaxError::default())?;
    let op = if op_sig.kind == K::Minus {
        UnaryOp::Negate
    } else {
        UnaryOp::Not
    };
    let operand = unary_expr(inp, parts)?;
    leave(inp);
    let range = TextRange::new(op_sig.range.start, operand.range.end.max(op_sig.range.end));
    Ok(st(inp).mk(
        ExprNodeKind::Unary {
            op,
            op_start: op_sig.range.start,
            operand: operand.id,
        },
        range,
    ))
}

/// `term`: a literal, variable, call, template, group or collection.
fn term<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    fn expected(inp: &mut Inp<'_, '_>) -> Expr {
        let range = peek_range(inp);
        let message = match peek_kind(inp) {
            None => "expected an expression, found the end of the file".to_string(),
            Some(kind) => format!("expected an expression, found {}", kind.describe()),
        };
        let s = st(inp);
        s.error_r(codes::EXPECTED_EXPRESSION, range, message);
        s.error_node(range)
    }
    let call = nested(function_call(expression.clone()));
    let paren = nested(paren_expr(expression.clone()));
    let tuple = nested(tuple_or_for(expression.clone()));
    let object = nested(object_or_for(expression.clone()));
    let template = nested(template_expr(expression));
    // The alternative is chosen by the next token's kind; a failing
    // alternative is rewound and the next one tried, as `choice` would.
    custom(move |inp: &mut Inp<'s, '_>| {
        let Some(sig) = peek(inp) else {
            return Ok(expected(inp));
        };
        let before = inp.save();
        let nested_term = match sig.kind {
            K::NumberLit => {
                bump(inp);
                return Ok(number(st(inp), sig));
            }
            K::Ident => {
                if matches!(peek2_kind(inp), Some(K::OParen | K::DoubleColon)) {
                    st(inp).last_end = sig.range.end;
                    match inp.parse(&call) {
                        Ok(expr) => return Ok(expr),
                        Err(_) => inp.rewind(before),
                    }
                }
                bump(inp);
                return Ok(ident_term(st(inp), sig));
            }
            K::OParen => inp.parse(&paren),
            K::OBrack => inp.parse(&tuple),
            K::OBrace => inp.parse(&object),
            K::OQuote | K::OHeredoc => inp.parse(&template),
            _ => return Ok(expected(inp)),
        };
        match nested_term {
            Ok(expr) => Ok(expr),
            Err(_) => {
                inp.rewind(before);
                Ok(expected(inp))
            }
        }
    })
    .boxed()
}

/// `paren_expr = "(" expression ")"`.
fn paren_expr<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    token(K::OParen)
        .then(expression)
        .then(custom(|inp: &mut Inp<'s, '_>| {
            match peek_kind(inp) {
                Some(K::CParen) => {
                    bump(inp);
                }
                Some(K::Newline) | None => return Ok(Some(())),
                _ => {
                    let range = peek_range(inp);
                    st(inp).error_r(
                        codes::UNCLOSED_PAREN,
                        range,
                        "expected `)` to close the parenthesised expression",
                    );
                    recover_to(inp, K::CParen);
                }
            }
            Ok(None)
        }))
        .map_with(|((open, inner), unclosed_at_newline), e| {
            let range = range_of(e.span());
            let st = &mut e.state().0;
            if unclosed_at_newline.is_some() {
                st.error_r(codes::UNCLOSED_PAREN, open, "this `(` has no matching `)`");
            }
            st.mk(ExprNodeKind::Parens(inner.id), range)
        })
        .boxed()
}

/// `function_call = IDENT { "::" IDENT } "(" call_args`.
fn function_call<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    custom(move |inp: &mut Inp<'s, '_>| {
        let first = bump(inp).ok_or(SyntaxError::default())?;
        let start = first.range.start;
        let s = st(inp);
        let segments = s.b.mark_idents();
        s.b.push_ident(first.range);
        let mut n_segments = 1;
        while peek_kind(inp) == Some(K::DoubleColon) {
            let colons = bump(inp).ok_or(SyntaxError::default())?;
            if peek_kind(inp) == Some(K::Ident) {
                let token = bump(inp).ok_or(SyntaxError::default())?;
                st(inp).b.push_ident(token.range);
                n_segments += 1;
            } else {
                let s = st(inp);
                s.b.discard_idents(segments);
                s.error(
                    codes::INVALID_FUNCTION_NAME,
                    colons.range,
                    "expected a function name after `::`",
                );
                s.recovering = true;
                let range = s.range_from(start);
                return Ok(s.error_node(range));
            }
        }
        let name_range = st(inp).range_from(start);
        if peek_kind(inp) != Some(K::OParen) {
            let s = st(inp);
            s.b.discard_idents(segments);
            s.error(
                codes::INVALID_FUNCTION_NAME,
                name_range,
                "expected `(` after the namespaced function name",
            );
            s.recovering = true;
            return Ok(s.error_node(name_range));
        }
        let open = bump(inp).ok_or(SyntaxError::default())?;
        let s = st(inp);
        let segments = s.b.finish_idents(segments);
        let text = s.text;
        let name = if n_segments == 1 {
            s.b.text(text, name_range, s.slice(name_range))
        } else {
            let joined = slice(&s.b.tree.idents, segments)
                .iter()
                .map(|r| text.get(r.to_usize()).unwrap_or(""))
                .collect::<Vec<_>>()
                .join("::");
            s.b.text(text, name_range, &joined)
        };
        let mark = s.b.mark_exprs();
        let result = call_args(inp, &expression, open.range);
        let s = st(inp);
        let args = s.b.finish_exprs(mark);
        let (expand_final, close) = result?;
        let close_paren = close.unwrap_or(TextRange::empty(s.last_end));
        let range = s.range_from(start);
        let id = s.b.call(
            CallNode {
                name,
                name_range,
                segments,
                args,
                expand_final,
                open_paren: open.range,
                close_paren,
            },
            range,
        );
        Ok(s.handle(id))
    })
    .boxed()
}

/// `call_args = [ expression { "," expression } [ "," | "..." ] ] ")"`,
/// pushing the arguments onto the builder's expression list: whether the
/// last one is expanded (`...`) and the `)`'s range.
fn call_args<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
    open: TextRange,
) -> Result<(bool, Option<TextRange>), SyntaxError> {
    let mut expand = false;
    loop {
        match peek_kind(inp) {
            Some(K::CParen) => {
                let close = bump(inp).map(|s| s.range);
                return Ok((expand, close));
            }
            None | Some(K::Newline) => {
                st(inp).error_r(
                    codes::UNCLOSED_CALL,
                    open,
                    "this function call has no closing `)`",
                );
                return Ok((expand, None));
            }
            _ => {}
        }
        let before = inp.cursor();
        let arg = expr(inp, expression)?;
        st(inp).b.push_list_expr(arg.id);
        match peek_kind(inp) {
            Some(K::Comma) => {
                bump(inp);
            }
            Some(K::Ellipsis) => {
                bump(inp);
                expand = true;
                if peek_kind(inp) == Some(K::CParen) {
                    let close = bump(inp).map(|s| s.range);
                    return Ok((expand, close));
                }
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::INVALID_EXPANSION,
                    range,
                    "an argument expanded with `...` must be the last one, followed by `)`",
                );
                let closed = recover_to(inp, K::CParen);
                let end = st(inp).last_end;
                return Ok((expand, closed.then(|| TextRange::empty(end))));
            }
            Some(K::CParen) | None | Some(K::Newline) => {}
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::MISSING_COMMA,
                    range,
                    "expected `,` between function arguments, or `)`",
                );
                let closed = recover_to(inp, K::CParen);
                let end = st(inp).last_end;
                return Ok((expand, closed.then(|| TextRange::empty(end))));
            }
        }
        if inp.cursor() == before {
            bump(inp);
        }
    }
}
