//! Postfix chains: the productions `postfix_expr`, `postfix_chain`,
//! `legacy_index`, `attr_splat` and `full_splat` of `grammar/pcl.ebnf`, as
//! chumsky combinators. `postfix_expr` folds the chain's steps over its
//! term with `foldl_with`: plain steps (`.name`, `.0`, `[i]`) gather into
//! one traversal, and each splat wraps what was folded so far.

use chumsky::input::MapExtra;
use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::dispatch::{optional, First};
use super::expressions::{enter_level, leave, next_range, state, PExpr};
use super::input::SyntaxError;
use super::recovery::{at_limit, skip_rest_of_expr, skip_rest_of_group, skip_to};
use super::{range_of, token, Ex, Expr, In, St};
use crate::codes;
use crate::literal::{self, NumberError};
use crate::token::TokenKind as K;
use crate::tree::builder::{slice, Mark, NumberLit};
use crate::tree::{ExprNodeKind, SplatKind, SplatNode, StepNode, StepNodeKind};

/// One step of a postfix chain.
enum Op {
    /// `.name`, `.0` or `[i]`: a step of a traversal.
    Step(StepNode),
    /// `.*` (its range) and the steps it applies to each element.
    AttrSplat(TextRange, Vec<StepNode>),
    /// `[*]` (its range) and the rest of the chain applied to each element,
    /// built, with whether that rest held a broken step.
    FullSplat(TextRange, Expr, bool),
    /// A broken step (reported): the whole chain becomes an error.
    Broken,
}

/// A chain folded so far: `source` is the expression its next steps
/// apply to, and those steps are gathered on the builder's step list
/// above `steps`.
#[derive(Clone, Copy)]
struct Folded {
    /// The term (or, for a full splat's rest, the element).
    term: Expr,
    term_is_error: bool,
    source: Expr,
    steps: Mark,
    broken: bool,
    /// For a full splat's rest: the `[*]`, and the error standing for the
    /// rest when it was skipped past the nesting limit.
    marker: TextRange,
    too_deep: Option<TextRange>,
}

impl Folded {
    fn new(s: &mut St<'_>, term: Expr) -> Folded {
        Folded {
            term,
            term_is_error: s.is_error(term),
            source: term,
            steps: s.b.mark_steps(),
            broken: false,
            marker: TextRange::default(),
            too_deep: None,
        }
    }
}

/// `postfix_expr = term postfix_chain`: the chain's steps folded over the
/// term. A term that is an error stays one; a broken step makes the whole
/// expression an error.
///
/// Nearly every term has no chain, so the chain is tried only at its first
/// token (`.` or `[`, see `dispatch::optional`); the term reaches the fold
/// through the parser state (`St::chain_term`), set right before it
/// starts.
pub(super) fn postfix_expr<'s>(
    term: impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone + 's,
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone {
    let chain = empty()
        .try_map_with(|(), e| {
            let s = state(e);
            match s.chain_term.take() {
                Some(term) => Ok(Folded::new(s, term)),
                None => Err(SyntaxError::default()),
            }
        })
        .foldl_with(postfix_chain(expression), fold_step)
        .try_map_with(|folded, e| {
            let end = e.span().end;
            let s = state(e);
            if folded.term_is_error {
                s.b.discard_steps(folded.steps);
                return Ok(folded.term);
            }
            if folded.broken {
                s.b.discard_steps(folded.steps);
                let start = folded.term.range.start;
                return Ok(s.error_node(TextRange::new(start, end.max(start))));
            }
            Ok(finish_traversal(s, folded.source, folded.steps))
        });
    term.try_map_with(|term, e| {
        state(e).chain_term = Some(term);
        Ok(term)
    })
    .then(optional(vec![(
        First::tokens(&[K::Dot, K::OBrack]),
        chain.boxed(),
    )]))
    .map(|(term, chained)| chained.unwrap_or(term))
}

/// `postfix_chain = { "." IDENT | legacy_index | "[" @nl(off) expression
/// "]" | attr_splat } [ full_splat ]`. A full splat takes the rest of the
/// chain, so it is the last step.
fn postfix_chain<'s>(expression: PExpr<'s>) -> impl IterParser<'s, In<'s>, Op, Ex<'s>> + Clone {
    // The chain after a `[*]` is parsed by the recursive parser; a chain
    // without one (nearly all) does not go through `recursive`.
    let expr = expression.clone();
    let after_splat = recursive(move |step| postfix_step(full_splat(step.repeated()), expr));
    postfix_step(full_splat(after_splat.repeated()), expression).repeated()
}

/// One step of `postfix_chain`.
fn postfix_step<'s>(
    full_splat: impl Parser<'s, In<'s>, Op, Ex<'s>> + Clone + 's,
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Op, Ex<'s>> + Clone {
    // Every step starts with `.` or `[`: one token test ends the chain.
    one_of([K::Dot, K::OBrack]).rewind().ignore_then(choice((
        attr_name().map(Op::Step),
        full_splat,
        index(expression),
        legacy_index(false).map(Op::Step),
        attr_splat(),
        bad_attr_name(),
    )))
}

/// `"." IDENT`: an attribute step.
fn attr_name<'s>() -> impl Parser<'s, In<'s>, StepNode, Ex<'s>> + Clone {
    just(K::Dot)
        .ignore_then(token(K::Ident))
        .try_map_with(|name, e| {
            let range = range_of(e.span());
            Ok(state(e).b.step(StepNodeKind::Attr(name), range))
        })
}

/// A `.` followed by neither a name, a number nor `*` (reported).
fn bad_attr_name<'s>() -> impl Parser<'s, In<'s>, Op, Ex<'s>> + Clone {
    just(K::Dot)
        .ignore_then(next_range())
        .try_map_with(|next, e| {
            let dot = range_of(e.span());
            state(e).error_r(
                codes::INVALID_ATTRIBUTE_NAME,
                TextRange::new(dot.start, next.end.max(dot.start)),
                "expected an attribute name, a number or `*` after `.`",
            );
            Ok(Op::Broken)
        })
}

/// `"[" expression "]"`: an index step, one nesting level deeper; past the
/// limit the bracketed group is skipped and the chain is broken.
fn index<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, Op, Ex<'s>> + Clone {
    // How the index ended: at `]`, at the end of the input, or at
    // something else (its range; skipped to the `]`).
    let close = choice((
        just(K::CBrack).to(Ok(())),
        end().to(Err(None)),
        next_range()
            .then_ignore(skip_to(K::CBrack))
            .map(|at| Err(Some(at))),
    ));
    let key = choice((
        enter_level().ignore_then(expression).then(close).map(Ok),
        next_range().then_ignore(skip_rest_of_group()).map(Err),
    ));
    token(K::OBrack).then(key).try_map_with(|(open, key), e| {
        let range = range_of(e.span());
        let s = state(e);
        let (key, close) = match key {
            Ok(key) => key,
            Err(at) => {
                at_limit(s, at);
                return Ok(Op::Broken);
            }
        };
        match close {
            Ok(()) => {}
            Err(None) => s.error_r(codes::UNCLOSED_INDEX, open, "this `[` has no matching `]`"),
            Err(Some(at)) => {
                s.error_r(codes::UNCLOSED_INDEX, at, "expected `]` to close the index")
            }
        }
        leave(s);
        Ok(Op::Step(s.b.step(StepNodeKind::Index(key.id), range)))
    })
}

/// `legacy_index = "." NUMBER_LIT` (`.0`: an index written as an
/// attribute). The lexer reads `.0.1` as one number, reported as chained.
fn legacy_index<'s>(in_splat: bool) -> impl Parser<'s, In<'s>, StepNode, Ex<'s>> + Clone {
    just(K::Dot)
        .ignore_then(token(K::NumberLit))
        .try_map_with(move |digits, e| {
            let range = range_of(e.span());
            Ok(legacy_index_step(state(e), digits, range, in_splat))
        })
}

fn legacy_index_step(
    s: &mut St<'_>,
    digits: TextRange,
    range: TextRange,
    in_splat: bool,
) -> StepNode {
    let text = s.slice(digits);
    if text.contains('.') {
        let hint = if in_splat {
            "chained legacy indexes are not allowed; use a full splat with brackets, like [*][0][1]"
        } else {
            "chained legacy indexes are not allowed; use brackets, like [0][1]"
        };
        s.error(codes::INVALID_LEGACY_INDEX, digits, hint);
    }
    let value = match literal::parse_number(text) {
        Ok(NumberLit::Int(v)) => v,
        Ok(NumberLit::Small(v)) => num_bigint::BigInt::from(v),
        Err(NumberError::TooLong) => {
            s.error(
                codes::NUMBER_TOO_LONG,
                digits,
                literal::too_long_message(text),
            );
            num_bigint::BigInt::default()
        }
        _ => num_bigint::BigInt::default(),
    };
    s.b.legacy_index_step(digits, value, range)
}

/// `attr_splat = "." "*" { "." IDENT | legacy_index }`: the steps after
/// `.*` apply to each element. A second `.*` is reported and skipped.
fn attr_splat<'s>() -> impl Parser<'s, In<'s>, Op, Ex<'s>> + Clone {
    let marker = just(K::Dot)
        .then(just(K::Star))
        .map_with(|_, e| range_of(e.span()));
    let nested_splat = just(K::Dot).then(just(K::Star)).try_map_with(|_, e| {
        let range = range_of(e.span());
        state(e).error_r(
            codes::NESTED_SPLAT,
            range,
            "a `.*` splat cannot follow another `.*` splat; use `[*]` instead",
        );
        Ok(None)
    });
    let each_step = choice((
        attr_name().map(Some),
        legacy_index(true).map(Some),
        nested_splat,
    ));
    marker
        .then(each_step.repeated().collect::<Vec<_>>())
        .map(|(marker, steps)| Op::AttrSplat(marker, steps.into_iter().flatten().collect()))
}

/// `full_splat = "[" @nl(off) "*" "]" postfix_chain`: the rest of the chain applies
/// to each element (a `SplatItem`), one nesting level deeper; past the
/// limit the rest is skipped and the element is an error.
fn full_splat<'s>(
    chain: impl IterParser<'s, In<'s>, Op, Ex<'s>> + Clone + 's,
) -> impl Parser<'s, In<'s>, Op, Ex<'s>> + Clone {
    // The `]` or, missing, what stands there instead.
    let close = choice((just(K::CBrack).to(None), next_range().map(Some)));
    let marker = just(K::OBrack)
        .then(just(K::Star))
        .ignore_then(close)
        .try_map_with(|missing, e| {
            let marker = range_of(e.span());
            let s = state(e);
            if let Some(at) = missing {
                s.error_r(codes::UNCLOSED_INDEX, at, "expected `]` right after `[*`");
            }
            let item = s.mk(ExprNodeKind::SplatItem, TextRange::empty(marker.end));
            let mut each = Folded::new(s, item);
            each.marker = marker;
            Ok(each)
        });
    // Past the nesting limit: where it was reached (the rest is skipped).
    let level = choice((
        enter_level().to(None),
        next_range().then_ignore(skip_rest_of_expr()).map(Some),
    ));
    marker
        .then(level)
        .try_map_with(|(mut each, limit), e| {
            let end = e.span().end;
            if let Some(at) = limit {
                at_limit(state(e), at);
                let start = each.marker.end;
                each.too_deep = Some(TextRange::new(start, end.max(start)));
            }
            Ok(each)
        })
        .foldl_with(chain, fold_step)
        .try_map_with(|each, e| {
            let s = state(e);
            let folded = match each.too_deep {
                Some(range) => {
                    s.b.discard_steps(each.steps);
                    s.error_node(range)
                }
                None => {
                    leave(s);
                    finish_traversal(s, each.source, each.steps)
                }
            };
            Ok(Op::FullSplat(each.marker, folded, each.broken))
        })
}

/// Folds one step into the chain.
fn fold_step<'s>(mut folded: Folded, op: Op, e: &mut MapExtra<'s, '_, In<'s>, Ex<'s>>) -> Folded {
    let s = state(e);
    match op {
        Op::Step(step) => s.b.push_step(step),
        Op::AttrSplat(marker, each_steps) => {
            let source = finish_traversal(s, folded.source, folded.steps);
            let item = s.mk(ExprNodeKind::SplatItem, TextRange::empty(marker.end));
            let mark = s.b.mark_steps();
            for step in each_steps {
                s.b.push_step(step);
            }
            let each = finish_traversal(s, item, mark);
            folded.source = splat(s, SplatKind::Attr, source, marker, each);
            folded.steps = s.b.mark_steps();
        }
        Op::FullSplat(marker, each, broken) => {
            let source = finish_traversal(s, folded.source, folded.steps);
            folded.source = splat(s, SplatKind::Full, source, marker, each);
            folded.steps = s.b.mark_steps();
            folded.broken |= broken;
        }
        Op::Broken => folded.broken = true,
    }
    folded
}

/// Wraps `source` in a traversal of the steps gathered above `mark`, when
/// there are any.
fn finish_traversal(s: &mut St<'_>, source: Expr, mark: Mark) -> Expr {
    let steps = s.b.finish_steps(mark);
    match slice(&s.b.tree.steps, steps).last() {
        None => source,
        Some(last) => {
            let range = TextRange::new(source.range.start, last.range.end);
            s.mk(
                ExprNodeKind::Traversal {
                    source: source.id,
                    steps,
                },
                range,
            )
        }
    }
}

fn splat(s: &mut St<'_>, kind: SplatKind, source: Expr, marker: TextRange, each: Expr) -> Expr {
    let range = TextRange::new(source.range.start, each.range.end.max(marker.end));
    let id = s.b.splat(
        SplatNode {
            source: source.id,
            kind,
            marker,
            each: each.id,
        },
        range,
    );
    s.handle(id)
}
