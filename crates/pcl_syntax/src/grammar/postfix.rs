//! Postfix chains: the productions `postfix_expr`, `postfix_chain`,
//! `legacy_index`, `attr_splat` and `full_splat` of `grammar/pcl.ebnf`,
//! and the folding of a parsed chain into traversals and splats.

use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::expressions::{expr, Operand, PExpr};
use super::input::SyntaxError;
use super::recovery::{enter, leave, recover_line_in_expr, recover_to, skip_group};
use super::{bump, peek, peek_kind, peek_range, st, Ex, Expr, In, Inp, St};
use crate::codes;
use crate::literal::{self, NumberError};
use crate::newlines::Sig;
use crate::token::TokenKind as K;
use crate::tree::builder::{slice, Mark, NumberLit};
use crate::tree::{ExprNodeKind, SplatKind, SplatNode, StepNode, StepNodeKind};

/// One postfix operation, before folding into traversals and splats.
enum Op {
    Attr(StepNode),
    Index(StepNode),
    AttrSplat(TextRange, Vec<StepNode>),
    FullSplat(TextRange),
    /// A `[*]` past the nesting limit (reported): its per-element
    /// expression is an error covering the skipped rest of the line.
    TooDeepSplat(TextRange, TextRange),
    /// A broken step (reported); the whole chain becomes an error.
    Broken,
}

fn legacy_index(st: &mut St<'_>, dot: Sig, token: Sig, in_splat: bool) -> StepNode {
    let text = st.slice(token.range);
    let range = TextRange::new(dot.range.start, token.range.end);
    if text.contains('.') {
        let hint = if in_splat {
            "chained legacy indexes are not allowed; use a full splat with brackets, like [*][0][1]"
        } else {
            "chained legacy indexes are not allowed; use brackets, like [0][1]"
        };
        st.error(codes::INVALID_LEGACY_INDEX, token.range, hint);
    }
    let value = match literal::parse_number(text) {
        Ok(NumberLit::Int(v)) => v,
        Ok(NumberLit::Small(v)) => num_bigint::BigInt::from(v),
        Err(NumberError::TooLong) => {
            st.error(
                codes::NUMBER_TOO_LONG,
                token.range,
                literal::too_long_message(text),
            );
            num_bigint::BigInt::default()
        }
        _ => num_bigint::BigInt::default(),
    };
    st.b.legacy_index_step(token.range, value, range)
}

/// `postfix_expr = term postfix_chain`. The chain parser only runs when a
/// step can start (`.` or `[`), as `repeated` would find nothing else.
pub(super) fn postfix_expr<'s>(
    inp: &mut Inp<'s, '_>,
    parts: &Operand<'s>,
) -> Result<Expr, SyntaxError> {
    let term = inp.parse(&parts.term)?;
    if !matches!(peek_kind(inp), Some(K::Dot | K::OBrack)) {
        return Ok(term);
    }
    let mark = st(inp).b.mark_steps();
    let chain = match inp.parse(&parts.chain) {
        Ok(chain) => chain,
        Err(err) => {
            st(inp).b.discard_steps(mark);
            return Err(err);
        }
    };
    let s = st(inp);
    if s.is_error(term) {
        s.b.discard_steps(chain.base);
        return Ok(term);
    }
    if chain.ops.is_empty() {
        return Ok(finish_traversal_run(s, term, chain.base));
    }
    s.b.discard_steps(chain.base);
    Ok(fold_chain(s, term, chain.ops))
}

/// `postfix_chain = { "." IDENT | legacy_index | "[" expression "]" |
/// attr_splat | full_splat }`.
pub(super) fn postfix_chain<'s>(
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Chain, Ex<'s>> + Clone {
    let dot_step = custom(|inp: &mut Inp<'s, '_>| {
        let dot = bump(inp).ok_or(SyntaxError::default())?;
        match peek_kind(inp) {
            Some(K::Ident) => {
                let token = bump(inp).ok_or(SyntaxError::default())?;
                Ok(Op::Attr(st(inp).b.step(
                    StepNodeKind::Attr(token.range),
                    TextRange::new(dot.range.start, token.range.end),
                )))
            }
            Some(K::NumberLit) => {
                let token = bump(inp).ok_or(SyntaxError::default())?;
                Ok(Op::Attr(legacy_index(st(inp), dot, token, false)))
            }
            Some(K::Star) => {
                let star = bump(inp).ok_or(SyntaxError::default())?;
                let marker = TextRange::new(dot.range.start, star.range.end);
                Ok(Op::AttrSplat(marker, attr_splat(inp)))
            }
            _ => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::INVALID_ATTRIBUTE_NAME,
                    TextRange::new(dot.range.start, range.end),
                    "expected an attribute name, a number or `*` after `.`",
                );
                Ok(Op::Broken)
            }
        }
    });
    let bracket_step = custom(move |inp: &mut Inp<'s, '_>| {
        let before_open = inp.save();
        let open = bump(inp).ok_or(SyntaxError::default())?;
        if peek_kind(inp) == Some(K::Star) {
            bump(inp);
            let marker = if peek_kind(inp) == Some(K::CBrack) {
                let close = bump(inp).ok_or(SyntaxError::default())?;
                TextRange::new(open.range.start, close.range.end)
            } else {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::UNCLOSED_INDEX,
                    range,
                    "expected `]` right after `[*`",
                );
                st(inp).range_from(open.range.start)
            };
            return Ok(Op::FullSplat(marker));
        }
        if !enter(inp) {
            inp.rewind(before_open);
            skip_group(inp);
            return Ok(Op::Broken);
        }
        let key = expr(inp, &expression)?;
        match peek_kind(inp) {
            Some(K::CBrack) => {
                bump(inp);
            }
            // At the end of the input, point at the `[` left open.
            None => st(inp).error_r(
                codes::UNCLOSED_INDEX,
                open.range,
                "this `[` has no matching `]`",
            ),
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::UNCLOSED_INDEX,
                    range,
                    "expected `]` to close the index",
                );
                recover_to(inp, K::CBrack);
            }
        }
        leave(inp);
        let range = st(inp).range_from(open.range.start);
        Ok(Op::Index(
            st(inp).b.step(StepNodeKind::Index(key.id), range),
        ))
    });
    // Steps are chosen by the next token's kind (no look-ahead parsers);
    // a failing step is rewound and ends the chain, like `repeated`.
    custom(move |inp: &mut Inp<'s, '_>| {
        let mut chain = Chain {
            base: st(inp).b.mark_steps(),
            ops: Vec::new(),
        };
        // Each `[*]` nests the rest of the chain one level deeper.
        let mut entered = 0;
        loop {
            let before = inp.save();
            let step = match peek_kind(inp) {
                Some(K::Dot) => inp.parse(dot_step),
                Some(K::OBrack) => inp.parse(&bracket_step),
                _ => break,
            };
            match step {
                Ok(Op::FullSplat(marker)) => {
                    if enter(inp) {
                        entered += 1;
                        chain.push(st(inp), Op::FullSplat(marker));
                    } else {
                        recover_line_in_expr(inp);
                        let range = st(inp).range_from(marker.end);
                        chain.push(st(inp), Op::TooDeepSplat(marker, range));
                        break;
                    }
                }
                Ok(op) => chain.push(st(inp), op),
                Err(_) => {
                    inp.rewind(before);
                    break;
                }
            }
        }
        for _ in 0..entered {
            leave(inp);
        }
        Ok(chain)
    })
}

/// A parsed postfix chain: while it is only `.name`, `.0` and `[i]`
/// steps (nearly always) they are pushed onto the builder's step stack
/// above `base` (moved into the arena as the traversal's steps by
/// `postfix_expr`); from its first splat or broken step on, they are moved
/// into `ops`, with the rest of the chain, for [`fold_chain`].
pub(super) struct Chain {
    base: Mark,
    ops: Vec<Op>,
}

impl Chain {
    fn push(&mut self, s: &mut St<'_>, op: Op) {
        match op {
            Op::Attr(step) | Op::Index(step) if self.ops.is_empty() => s.b.push_step(step),
            op => {
                if self.ops.is_empty() {
                    // `fold_chain` treats both simple kinds alike.
                    self.ops
                        .extend(s.b.take_steps(self.base).into_iter().map(Op::Attr));
                }
                self.ops.push(op);
            }
        }
    }
}

/// `attr_splat = ".*" { "." IDENT | legacy_index }`.
fn attr_splat(inp: &mut Inp<'_, '_>) -> Vec<StepNode> {
    let mut steps = Vec::new();
    loop {
        let save = inp.save();
        if peek_kind(inp) != Some(K::Dot) {
            break;
        }
        inp.skip();
        let second = peek(inp);
        inp.rewind(save);
        match second.map(|s| s.kind) {
            Some(K::Ident) => {
                let (Some(dot), Some(token)) = (bump(inp), bump(inp)) else {
                    break;
                };
                steps.push(st(inp).b.step(
                    StepNodeKind::Attr(token.range),
                    TextRange::new(dot.range.start, token.range.end),
                ));
            }
            Some(K::NumberLit) => {
                let (Some(dot), Some(token)) = (bump(inp), bump(inp)) else {
                    break;
                };
                steps.push(legacy_index(st(inp), dot, token, true));
            }
            Some(K::Star) => {
                let (Some(dot), Some(star)) = (bump(inp), bump(inp)) else {
                    break;
                };
                st(inp).error_r(
                    codes::NESTED_SPLAT,
                    TextRange::new(dot.range.start, star.range.end),
                    "a `.*` splat cannot follow another `.*` splat; use `[*]` instead",
                );
            }
            _ => break,
        }
    }
    steps
}

/// Wraps `source` in a traversal of the steps pushed above `mark`, when
/// there are any.
pub(super) fn finish_traversal_run(s: &mut St<'_>, source: Expr, mark: Mark) -> Expr {
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

/// Wraps `source` in a traversal when there are steps.
fn finish_traversal(s: &mut St<'_>, source: Expr, steps: Vec<StepNode>) -> Expr {
    let mark = s.b.mark_steps();
    for step in steps {
        s.b.push_step(step);
    }
    finish_traversal_run(s, source, mark)
}

/// Folds postfix operations into traversals and splats, without
/// recursion: a `[*]` applies the whole rest of the chain to each element,
/// so the chain is folded from the last full splat backwards.
fn fold_chain(s: &mut St<'_>, source: Expr, ops: Vec<Op>) -> Expr {
    if ops.is_empty() {
        return source;
    }
    if ops
        .iter()
        .all(|op| matches!(op, Op::Attr(_) | Op::Index(_)))
    {
        // The common case: a plain traversal.
        let mut steps = Vec::with_capacity(ops.len());
        for op in ops {
            if let Op::Attr(step) | Op::Index(step) = op {
                steps.push(step);
            }
        }
        return finish_traversal(s, source, steps);
    }
    if ops.iter().any(|op| matches!(op, Op::Broken)) {
        let range = s.range_from(source.range.start);
        return s.error_node(range);
    }
    // Split at full splats: segments[0] applies to `source`, each later
    // segment to the splat item of the splat before it.
    let mut segments: Vec<(Option<TextRange>, Vec<Op>)> = vec![(None, Vec::new())];
    for op in ops {
        match op {
            Op::FullSplat(marker) => segments.push((Some(marker), Vec::new())),
            Op::TooDeepSplat(marker, range) => {
                segments.push((Some(marker), vec![Op::TooDeepSplat(marker, range)]))
            }
            other => {
                if let Some(last) = segments.last_mut() {
                    last.1.push(other);
                }
            }
        }
    }
    // Fold the innermost (last) segment first.
    let mut inner: Option<(TextRange, Expr)> = None;
    while segments.len() > 1 {
        let Some((marker, ops)) = segments.pop() else {
            break;
        };
        let marker = marker.unwrap_or_default();
        let item = s.mk(ExprNodeKind::SplatItem, TextRange::empty(marker.end));
        let mut each = fold_segment(s, item, ops);
        if let Some((inner_marker, inner_each)) = inner.take() {
            each = splat(s, SplatKind::Full, each, inner_marker, inner_each);
        }
        inner = Some((marker, each));
    }
    let (_, first_ops) = segments.pop().unwrap_or((None, Vec::new()));
    let mut out = fold_segment(s, source, first_ops);
    if let Some((marker, each)) = inner {
        out = splat(s, SplatKind::Full, out, marker, each);
    }
    out
}

/// Folds one segment of a chain (no full splats) over `source`.
fn fold_segment(s: &mut St<'_>, mut source: Expr, ops: Vec<Op>) -> Expr {
    let mut steps = Vec::new();
    for op in ops {
        match op {
            Op::Attr(step) | Op::Index(step) => steps.push(step),
            Op::AttrSplat(marker, each_steps) => {
                source = finish_traversal(s, source, std::mem::take(&mut steps));
                let item = s.mk(ExprNodeKind::SplatItem, TextRange::empty(marker.end));
                let each = finish_traversal(s, item, each_steps);
                source = splat(s, SplatKind::Attr, source, marker, each);
            }
            Op::TooDeepSplat(_, range) => source = s.error_node(range),
            Op::FullSplat(_) | Op::Broken => {}
        }
    }
    finish_traversal(s, source, steps)
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
