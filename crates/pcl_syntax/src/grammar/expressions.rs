//! Expressions: the productions `expression`, `conditional`, `binary`
//! (its operator table is `binary_op`), `unary`, `term`, `paren_expr`,
//! `function_call` and `call_args` of `grammar/pcl.ebnf`, as chumsky
//! combinators. Postfix chains (`postfix_expr` …) are in `postfix.rs`,
//! collections in `collections.rs`, templates in `templates.rs`.
//!
//! Nesting: `unary`, `conditional` and (in `postfix.rs`) indexes and full
//! splats go one level deeper with [`enter_level`] (and back with
//! [`leave`]); at [`MAX_NESTING_DEPTH`] they report `nesting-too-deep`
//! once (`recovery::at_limit`) and skip what is left without recursion
//! (`recovery::skip_rest_of_expr`, `skip_rest_of_group`). Groups
//! (`paren_expr`, calls, collections, templates) run under
//! `recovery::nested`.
//!
//! Side effects on the parser state (building nodes, reporting errors,
//! counting levels) happen in `try_map_with` closures, which chumsky runs
//! whether or not the output is used, or in the `foldl_with` folds, which
//! build the output. There is no shortcut past the productions (the
//! former `simple_atom` and `climb` are gone): every expression is parsed
//! by them. (An object key that is a name is read as one, by
//! `object_item`'s own alternative in the EBNF.)

use chumsky::input::MapExtra;
use chumsky::prelude::*;
use pcl_diagnostics::{Code, TextRange};

use super::collections::{object_or_for, tuple_or_for};
use super::dispatch::{dispatch, optional, Alt, First};
use super::input::SyntaxError;
use super::postfix::postfix_expr;
use super::recovery::{at_limit, nested, skip_rest_of_expr, skip_to};
use super::templates::template_expr;
use super::{range_of, token, Ex, Expr, In, St};
use crate::codes;
use crate::literal::{self, NumberError};
use crate::token::TokenKind as K;
use crate::tree::builder::{slice, NumberLit};
use crate::tree::{BinaryOp, CallNode, ExprNodeKind, UnaryOp};
use crate::MAX_NESTING_DEPTH;

/// The expression parser, as every production refers to it: chumsky's
/// recursive parser itself (one dynamic call), not boxed again.
pub(super) type PExpr<'s> = Recursive<chumsky::recursive::Direct<'s, 's, In<'s>, Expr, Ex<'s>>>;

/// `expression = conditional`.
pub(super) fn expression<'s>() -> PExpr<'s> {
    recursive(|expression: PExpr<'s>| conditional(unary(expression.clone()), expression))
}

/// `conditional = binary [ "?" expression ":" expression ]`
/// (right-associative: each branch is a whole expression).
///
/// The `[ "?" … ]` is handed to `binary` as what may follow it, so that
/// one look at the token after an operand decides between an operator,
/// a `?` and neither (nearly every operand): as a layer of its own
/// around `binary`, with its own look at that token, it cost 0.9 M
/// instructions more on the 1 MB generated file (104.4 M against
/// 103.5 M). The condition reaches
/// the rest through the parser state (`St::first_operand`), as the first
/// operand reaches `binary`'s fold.
fn conditional<'s>(
    unary: impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone + 's,
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    // A missing `:` branch is reported at what stands there instead.
    let else_branch = choice((
        just(K::Colon).ignore_then(expression.clone()).map(Ok),
        next_range().map(Err),
    ));
    let branches = enter_level()
        .ignore_then(expression)
        .then(else_branch)
        .try_map_with(|(then_expr, else_expr), e| {
            let s = state(e);
            leave(s);
            let else_expr = else_expr.unwrap_or_else(|at| {
                s.error_r(
                    codes::MISSING_CONDITIONAL_ELSE,
                    at,
                    "expected `:` and the false branch of the conditional",
                );
                s.error_node(TextRange::empty(then_expr.range.end))
            });
            Ok((then_expr, else_expr))
        });
    // Past the nesting limit the rest is skipped (`None`).
    let rest = empty()
        .try_map_with(|(), e| match state(e).first_operand.take() {
            Some(condition) => Ok(condition),
            None => Err(SyntaxError::default()),
        })
        .then(token(K::Question))
        .then(choice((branches.map(Some), skip_rest_of_expr().to(None))))
        .try_map_with(|((condition, question), rest), e| {
            let end = e.span().end;
            let s = state(e);
            Ok(match rest {
                None => {
                    at_limit(s, question);
                    let start = condition.range.start;
                    s.error_node(TextRange::new(start, end.max(start)))
                }
                Some((then_expr, else_expr)) => {
                    let range = TextRange::new(
                        condition.range.start,
                        else_expr.range.end.max(then_expr.range.end),
                    );
                    s.mk(
                        ExprNodeKind::Conditional {
                            condition: condition.id,
                            then_expr: then_expr.id,
                            else_expr: else_expr.id,
                        },
                        range,
                    )
                }
            })
        });
    // `[ … ]`: tried only at a `?`.
    binary(unary, (First::tokens(&[K::Question]), rest.boxed()))
}

/// `binary = unary { binary_op unary }`: the operands and operators are
/// folded left to right (`foldl_with`) into a tree by the precedence of
/// `binary_op`'s table, every level left-associative (precedence
/// climbing over a stack of at most one pending operator per level).
///
/// chumsky's `pratt` says the same with one `infix` per level, but tries
/// every level's operator after every operand: six failed token tests
/// where this fold tries one. With `pratt` a parse of the 1 MB generated
/// file took 358 M instructions, with this fold (and the first-token test
/// of `postfix_chain`) 234 M.
///
/// Nearly every operand has no operator after it, so the fold is tried
/// only at an operator (`dispatch::optional`); the first operand reaches
/// it through the parser state (`St::first_operand`), set right before.
/// `then` is what may follow the binary expression (the conditional's
/// `? …`), tried only at its first tokens, in the same look as the
/// operators; it reads the binary expression from `St::first_operand`.
fn binary<'s>(
    unary: impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone + 's,
    then: Alt<'s, Expr>,
) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    let fold = empty()
        .try_map_with(|(), e| match state(e).first_operand.take() {
            Some(first) => Ok(Climb::new(first)),
            None => Err(SyntaxError::default()),
        })
        .foldl_with(
            binary_op().then(unary.clone()).repeated(),
            |climb, (op, rhs), e| climb.push(state(e), op, rhs),
        )
        .try_map_with(|climb, e| {
            let s = state(e);
            let folded = climb.finish(s);
            s.first_operand = Some(folded);
            Ok(folded)
        })
        .then(optional(vec![then.clone()]))
        .map(|(folded, then)| then.unwrap_or(folded));
    unary
        .try_map_with(|first, e| {
            state(e).first_operand = Some(first);
            Ok(first)
        })
        .then(optional(vec![
            (First::tokens(&BINARY_OPS), fold.boxed()),
            then,
        ]))
        .map(|(first, folded)| folded.unwrap_or(first))
}

/// The tokens of `binary_op`.
const BINARY_OPS: [K; 13] = [
    K::Or,
    K::And,
    K::EqualOp,
    K::NotEqual,
    K::LessThan,
    K::LessThanEq,
    K::GreaterThan,
    K::GreaterThanEq,
    K::Plus,
    K::Minus,
    K::Star,
    K::Slash,
    K::Percent,
];

/// `binary_op = "||" | "&&" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "+"
/// | "-" | "*" | "/" | "%"`, with its range; the EBNF's precedence levels
/// (1 for `||` … 6 for `*` `/` `%`) are `BinaryOp::precedence`.
fn binary_op<'s>() -> impl Parser<'s, In<'s>, (BinaryOp, TextRange), Ex<'s>> + Clone {
    select! {
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
    }
    .map_with(|op, e| (op, range_of(e.span())))
}

/// A binary expression being folded: the operators still waiting for
/// their right operand (their precedence strictly rising, so at most one
/// per level; no allocation until the first operator), and the last
/// operand.
#[derive(Clone)]
struct Climb {
    pending: Vec<(Expr, BinaryOp, TextRange)>,
    rhs: Expr,
}

impl Climb {
    fn new(first: Expr) -> Climb {
        Climb {
            pending: Vec::new(),
            rhs: first,
        }
    }

    /// Adds `op rhs`: the pending operators that bind at least as tightly
    /// take their right operand first (left associativity).
    fn push(mut self, s: &mut St<'_>, (op, op_range): (BinaryOp, TextRange), rhs: Expr) -> Climb {
        self.reduce(s, op.precedence());
        self.pending.push((self.rhs, op, op_range));
        self.rhs = rhs;
        self
    }

    fn finish(mut self, s: &mut St<'_>) -> Expr {
        self.reduce(s, 0);
        self.rhs
    }

    /// Applies the pending operators of precedence `min` or more.
    fn reduce(&mut self, s: &mut St<'_>, min: u8) {
        while let Some(&(lhs, op, op_range)) = self.pending.last() {
            if op.precedence() < min {
                break;
            }
            self.pending.pop();
            let range = TextRange::new(lhs.range.start, self.rhs.range.end.max(op_range.end));
            self.rhs = s.mk(
                ExprNodeKind::Binary {
                    op,
                    op_start: op_range.start,
                    lhs: lhs.id,
                    rhs: self.rhs.id,
                },
                range,
            );
        }
    }
}

/// `unary = ( "-" | "!" ) unary | postfix_expr` (the operator applies to
/// the whole traversal). Each operator is one nesting level.
fn unary<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    // Tried first, as nearly every operand is one; where no term starts
    // (and no operator), an `expected-expression` error stands in for it,
    // still followed by its postfix chain.
    let operand = postfix_expr(term(expression.clone()), expression.clone());
    let missing = postfix_expr(expected().boxed(), expression);
    // The operand after an operator is parsed by the recursive parser; an
    // operand without one does not go through `recursive`.
    let after_op =
        recursive(|unary| choice((operand.clone(), prefixed(unary.boxed()), missing.clone())));
    choice((operand, prefixed(after_op.boxed()), missing))
}

/// `( "-" | "!" ) unary`, the operand one nesting level deeper (past the
/// limit the rest is skipped).
fn prefixed<'s>(
    unary: impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone,
) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    let op = select! { K::Minus => UnaryOp::Negate, K::Bang => UnaryOp::Not }
        .map_with(|op, e| (op, range_of(e.span())));
    let operand = choice((
        enter_level().ignore_then(unary).map(Some),
        skip_rest_of_expr().to(None),
    ));
    op.then(operand).try_map_with(
        |((op, op_range), operand): ((UnaryOp, TextRange), Option<Expr>), e| {
            let range = range_of(e.span());
            let s = state(e);
            let Some(operand) = operand else {
                at_limit(s, op_range);
                return Ok(s.error_node(range));
            };
            leave(s);
            let range = TextRange::new(op_range.start, operand.range.end.max(op_range.end));
            Ok(s.mk(
                ExprNodeKind::Unary {
                    op,
                    op_start: op_range.start,
                    operand: operand.id,
                },
                range,
            ))
        },
    )
}

/// `term = NUMBER_LIT | function_call | "true" | "false" | "null" | IDENT
/// | paren_expr | tuple_or_for | object_or_for | template_expr`; fails
/// where none starts (`unary` then stands an error in for it).
fn term<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    let name = token(K::Ident).try_map_with(|range, e| Ok(name_term(state(e), range)));
    // `function_call` starts `IDENT &( "(" | "::" )`, a name does not.
    let call_start = [K::OParen, K::DoubleColon];
    let number = token(K::NumberLit).try_map_with(|range, e| Ok(number(state(e), range)));
    // The nesting productions, one level deeper (at the limit `nested`
    // skips whatever comes). Each alternative is tried only at its first
    // tokens, in this order (by frequency).
    dispatch(vec![
        (
            First::tokens(&[K::Ident]).not_before(&call_start),
            name.boxed(),
        ),
        (
            First::tokens(&[K::OQuote, K::OHeredoc]),
            nested(template_expr(expression.clone())).boxed(),
        ),
        (First::tokens(&[K::NumberLit]), number.boxed()),
        (
            First::tokens(&[K::OBrace]),
            nested(object_or_for(expression.clone())).boxed(),
        ),
        (
            First::tokens(&[K::Ident]).before(&call_start),
            nested(function_call(expression.clone())).boxed(),
        ),
        (
            First::tokens(&[K::OBrack]),
            nested(tuple_or_for(expression.clone())).boxed(),
        ),
        (
            First::tokens(&[K::OParen]),
            nested(paren_expr(expression)).boxed(),
        ),
    ])
}

/// Where a term should start but none does: reports `expected-expression`
/// at the next token and stands in for the term with an error node,
/// consuming nothing.
fn expected<'s>() -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    any()
        .or_not()
        .map_with(|kind, e| (kind, range_of(e.span())))
        .rewind()
        .try_map_with(|(kind, range), e| {
            let s = state(e);
            let (range, message) = match kind {
                None => (
                    s.eof(),
                    "expected an expression, found the end of the file".to_string(),
                ),
                Some(kind) => (
                    range,
                    format!("expected an expression, found {}", kind.describe()),
                ),
            };
            s.error_r(codes::EXPECTED_EXPRESSION, range, message);
            Ok(s.error_node(range))
        })
}

/// A bare identifier as a term: a keyword literal or a variable.
#[inline]
pub(super) fn name_term(s: &mut St<'_>, range: TextRange) -> Expr {
    // Only a name of 4 or 5 bytes can be a keyword literal.
    let kind = if !matches!(range.len(), 4 | 5) {
        ExprNodeKind::Variable
    } else {
        match s.slice(range) {
            "true" => ExprNodeKind::Bool(true),
            "false" => ExprNodeKind::Bool(false),
            "null" => ExprNodeKind::Null,
            _ => ExprNodeKind::Variable,
        }
    };
    s.mk(kind, range)
}

fn number(s: &mut St<'_>, range: TextRange) -> Expr {
    let text = s.slice(range);
    if let Some(value) = literal::small_int(text) {
        let id = s.b.number(NumberLit::Small(value), range);
        return s.handle(id);
    }
    let value = match literal::parse_number(text) {
        Ok(value) => value,
        Err(NumberError::Malformed) => {
            s.error(
                codes::INVALID_NUMBER,
                range,
                format!("`{text}` is not a valid number"),
            );
            NumberLit::Invalid
        }
        Err(NumberError::OutOfRange) => {
            s.error(
                codes::NUMBER_OUT_OF_RANGE,
                range,
                literal::out_of_range_message(text),
            );
            NumberLit::Invalid
        }
        Err(NumberError::TooLong) => {
            s.error(
                codes::NUMBER_TOO_LONG,
                range,
                literal::too_long_message(text),
            );
            NumberLit::Invalid
        }
    };
    let id = s.b.number(value, range);
    s.handle(id)
}

/// How a bracketed construct ended.
#[derive(Clone, Copy)]
pub(super) enum Close {
    /// At its closer.
    Closed(TextRange),
    /// At a line break or the end of the input, the closer missing.
    Open,
    /// At something else (`at`), reported; skipped to the closer.
    Skipped { at: TextRange },
}

/// The closer `kind`, or where it is missing: a line break or the end
/// (nothing consumed), or anything else (skipped up to the closer).
pub(super) fn close<'s>(kind: K) -> impl Parser<'s, In<'s>, Close, Ex<'s>> + Clone {
    choice((
        token(kind).map(Close::Closed),
        choice((just(K::Newline).ignored(), end()))
            .rewind()
            .to(Close::Open),
        next_range()
            .then_ignore(skip_to(kind))
            .map(|at| Close::Skipped { at }),
    ))
}

/// `paren_expr = "(" @nl(off) expression ")"`.
fn paren_expr<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    token(K::OParen)
        .then(expression)
        .then(close(K::CParen))
        .try_map_with(|((open, inner), close), e| {
            let range = range_of(e.span());
            let s = state(e);
            match close {
                Close::Closed(_) => {}
                Close::Open => {
                    s.error_r(codes::UNCLOSED_PAREN, open, "this `(` has no matching `)`")
                }
                Close::Skipped { at, .. } => s.error_r(
                    codes::UNCLOSED_PAREN,
                    at,
                    "expected `)` to close the parenthesised expression",
                ),
            }
            Ok(s.mk(ExprNodeKind::Parens(inner.id), range))
        })
}

/// `function_call = IDENT { "::" IDENT } "(" @nl(off) call_args`.
fn function_call<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    // The name's segments go onto the builder's ident list: (list mark,
    // name range, segment count).
    let name = token(K::Ident)
        .try_map_with(|first, e| {
            let s = state(e);
            let mark = s.b.mark_idents();
            s.b.push_ident(first);
            Ok((mark, first, 1usize))
        })
        .foldl_with(
            just(K::DoubleColon).ignore_then(token(K::Ident)).repeated(),
            |(mark, name, n), segment, e| {
                state(e).b.push_ident(segment);
                (mark, TextRange::new(name.start, segment.end), n + 1)
            },
        );
    let open = token(K::OParen).try_map_with(|open, e| Ok((open, state(e).b.mark_exprs())));
    // After the name: `(` and the arguments, or a `::` without a name
    // after it (`Err(Some)`), or nothing (`Err(None)`).
    let rest = choice((
        open.then(call_args(expression)).map(Ok),
        token(K::DoubleColon).map(|colons| Err(Some(colons))),
        empty().to(Err(None)),
    ));
    name.then(rest)
        .try_map_with(|((mark, name_range, n_segments), rest), e| {
            let span = range_of(e.span());
            let s = state(e);
            let ((open, args), (expand_final, end)) = match rest {
                Ok(call) => call,
                Err(colons) => {
                    s.b.discard_idents(mark);
                    let (range, message, node) = match colons {
                        Some(colons) => (colons, "expected a function name after `::`", span),
                        None => (
                            name_range,
                            "expected `(` after the namespaced function name",
                            name_range,
                        ),
                    };
                    s.error(codes::INVALID_FUNCTION_NAME, range, message);
                    s.recovering = true;
                    return Ok(s.error_node(node));
                }
            };
            let segments = s.b.finish_idents(mark);
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
            let args = s.b.finish_exprs(args);
            let close_paren = match end {
                Close::Closed(close) => close,
                Close::Open => {
                    s.error_r(
                        codes::UNCLOSED_CALL,
                        open,
                        "this function call has no closing `)`",
                    );
                    TextRange::empty(span.end)
                }
                Close::Skipped { .. } => TextRange::empty(span.end),
            };
            let id = s.b.call(
                CallNode {
                    name,
                    name_range,
                    segments,
                    args,
                    expand_final,
                    open_paren: open,
                    close_paren,
                },
                span,
            );
            Ok(s.handle(id))
        })
}

/// `call_args = [ expression { "," expression } [ "," | "..." ] ] ")"`,
/// pushing the arguments onto the builder's expression list: whether the
/// last one is expanded (`...`), and how the list ended (a missing `,`
/// or a misplaced `...` is reported here).
fn call_args<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, (bool, Close), Ex<'s>> + Clone {
    // An argument starts anywhere but at `)` or a line break (the end of
    // a list left open).
    let argument = none_of([K::CParen, K::Newline])
        .rewind()
        .ignore_then(expression)
        .try_map_with(|arg, e| {
            state(e).b.push_list_expr(arg.id);
            Ok(())
        });
    // What stands after the arguments when it is neither `)` nor a `...`
    // (then a `,` was missing).
    let unexpected = |code: Code, message: &'static str| {
        next_range()
            .then_ignore(skip_to(K::CParen))
            .try_map_with(move |at, e| {
                state(e).error_r(code, at, message);
                Ok(Close::Skipped { at })
            })
    };
    let expanded = token(K::Ellipsis).ignore_then(choice((
        token(K::CParen).map(Close::Closed),
        unexpected(
            codes::INVALID_EXPANSION,
            "an argument expanded with `...` must be the last one, followed by `)`",
        ),
    )));
    let end = choice((
        token(K::CParen).map(|close| (false, Close::Closed(close))),
        expanded.map(|close| (true, close)),
        choice((just(K::Newline).ignored(), end()))
            .rewind()
            .to((false, Close::Open)),
        unexpected(
            codes::MISSING_COMMA,
            "expected `,` between function arguments, or `)`",
        )
        .map(|close| (false, close)),
    ));
    argument
        .separated_by(just(K::Comma))
        .allow_trailing()
        .collect::<()>()
        .ignore_then(end)
}

/// The range of the next token (not consumed), or the empty range at the
/// end of the input.
pub(super) fn next_range<'s>() -> impl Parser<'s, In<'s>, TextRange, Ex<'s>> + Clone {
    any()
        .map_with(|_, e| range_of(e.span()))
        .rewind()
        .or_not()
        .try_map_with(|range, e| Ok(range.unwrap_or_else(|| state(e).eof())))
}

/// Goes one nesting level deeper for what follows (undone by [`leave`]):
/// succeeds, consuming nothing, below [`MAX_NESTING_DEPTH`]; fails at it.
pub(super) fn enter_level<'s>() -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    empty().try_map_with(|(), e| {
        let s = state(e);
        if s.depth >= MAX_NESTING_DEPTH {
            return Err(SyntaxError::default());
        }
        s.depth += 1;
        Ok(())
    })
}

/// The parser state, from a `map_with`/`try_map_with` closure.
pub(super) fn state<'a, 's>(e: &'a mut MapExtra<'s, '_, In<'s>, Ex<'s>>) -> &'a mut St<'s> {
    &mut e.state().0
}

/// Leaves a level entered with [`enter_level`].
pub(super) fn leave(s: &mut St<'_>) {
    s.depth = s.depth.saturating_sub(1);
}
