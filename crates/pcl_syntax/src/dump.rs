//! A deterministic, indented, human-readable dump of a syntax tree, for
//! golden files: one node per line with its kind, byte range and decoded
//! values, attached comments, then the diagnostics.
//!
//! Size: indentation stops at [`MAX_INDENT`] levels, past every construct
//! the parser nests; only left-nested operator chains (`a + a + …`, which
//! the parser accepts at any length) go deeper, and their lines start with
//! `@DEPTH ` instead of being indented, so the dump of a 100 000-term chain
//! is linear in its length (indented, it would be gigabytes).

use std::fmt::Write;

use pcl_diagnostics::{Diagnostic, TextRange};

use crate::tree::*;
use crate::MAX_NESTING_DEPTH;

pub(crate) fn dump_body(body: BodyRef<'_>, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    body_node(&mut out, 0, body);
    diagnostics(&mut out, diags);
    out
}

pub(crate) fn dump_expr(expr: ExprRef<'_>, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    expr_node(&mut out, 0, "", expr);
    diagnostics(&mut out, diags);
    out
}

pub(crate) fn dump_template(
    template: TemplateRef<'_>,
    range: TextRange,
    diags: &[Diagnostic],
) -> String {
    let mut out = String::new();
    line(
        &mut out,
        0,
        format_args!("Template {:?} {}", template.kind(), range),
    );
    parts(&mut out, 1, template.parts());
    diagnostics(&mut out, diags);
    out
}

/// The deepest level that is indented: deeper than any nesting the
/// parser accepts ([`MAX_NESTING_DEPTH`] levels; a block takes two, its
/// line and its body's).
const MAX_INDENT: usize = 2 * MAX_NESTING_DEPTH + 4;

fn line(out: &mut String, depth: usize, args: std::fmt::Arguments<'_>) {
    if depth > MAX_INDENT {
        let _ = write!(out, "@{depth} ");
    } else {
        for _ in 0..depth {
            out.push_str("  ");
        }
    }
    let _ = out.write_fmt(args);
    out.push('\n');
}

fn diagnostics(out: &mut String, diags: &[Diagnostic]) {
    for diag in diags {
        line(
            out,
            0,
            format_args!(
                "{}[{}] {}: {}",
                diag.severity, diag.code, diag.span.range, diag.summary
            ),
        );
    }
}

fn comments(out: &mut String, depth: usize, what: &str, list: List<'_, CommentRef<'_>>) {
    for c in list {
        line(
            out,
            depth,
            format_args!("{what} {:?} {}", c.text(), c.range()),
        );
    }
}

fn body_node(out: &mut String, depth: usize, body: BodyRef<'_>) {
    line(out, depth, format_args!("Body {}", body.range()));
    for item in body.items() {
        match item.kind() {
            Item::Attribute(attr) => {
                line(
                    out,
                    depth + 1,
                    format_args!("Attribute {:?} {}", attr.name(), attr.range()),
                );
                comments(out, depth + 2, "leading", attr.leading_comments());
                comments(out, depth + 2, "trailing", attr.trailing_comments());
                expr_node(out, depth + 2, "", attr.expr());
            }
            Item::Block(block) => {
                let labels: Vec<String> = block
                    .labels()
                    .iter()
                    .map(|l| format!("{:?}", l.value()))
                    .collect();
                line(
                    out,
                    depth + 1,
                    format_args!(
                        "Block {:?} [{}] {}",
                        block.type_name(),
                        labels.join(", "),
                        block.range()
                    ),
                );
                comments(out, depth + 2, "leading", block.leading_comments());
                comments(out, depth + 2, "trailing", block.trailing_comments());
                body_node(out, depth + 2, block.body());
            }
        }
    }
    comments(out, depth + 1, "dangling", body.dangling_comments());
}

/// One pending piece of output; expressions are dumped with an explicit
/// stack because operator chains can be arbitrarily deep.
enum Work<'a> {
    Expr(usize, &'static str, ExprRef<'a>),
    Line(usize, String),
    Parts(usize, List<'a, PartRef<'a>>),
}

fn expr_node(out: &mut String, depth: usize, role: &'static str, expr: ExprRef<'_>) {
    let mut stack = vec![Work::Expr(depth, role, expr)];
    while let Some(work) = stack.pop() {
        match work {
            Work::Line(depth, text) => line(out, depth, format_args!("{text}")),
            Work::Parts(depth, list) => parts(out, depth, list),
            Work::Expr(depth, role, expr) => {
                let mut children = Vec::new();
                expr_line(out, depth, role, expr, &mut children);
                stack.extend(children.into_iter().rev());
            }
        }
    }
}

/// Prints one expression's line and lists its children in order.
fn expr_line<'a>(
    out: &mut String,
    depth: usize,
    role: &str,
    expr: ExprRef<'a>,
    children: &mut Vec<Work<'a>>,
) {
    let r = expr.range();
    let d = depth + 1;
    match expr.kind() {
        ExprKind::Literal(Literal::Number(n)) => {
            let value = match n.value {
                NumberValue::Int(v) => v.to_string(),
                NumberValue::Big(v) => v.to_string(),
                NumberValue::Fraction(f) => format!("{f:?}"),
                NumberValue::Invalid => "invalid".to_string(),
            };
            line(
                out,
                depth,
                format_args!("{role}Number {} = {value} {r}", n.text),
            );
        }
        ExprKind::Literal(Literal::Bool(b)) => line(out, depth, format_args!("{role}Bool {b} {r}")),
        ExprKind::Literal(Literal::Null) => line(out, depth, format_args!("{role}Null {r}")),
        ExprKind::Template(t) => {
            line(
                out,
                depth,
                format_args!("{role}Template {:?} {r}", t.kind()),
            );
            children.push(Work::Parts(d, t.parts()));
        }
        ExprKind::Variable(v) => line(out, depth, format_args!("{role}Variable {:?} {r}", v.name)),
        ExprKind::Traversal(t) => {
            line(out, depth, format_args!("{role}Traversal {r}"));
            children.push(Work::Expr(d, "source: ", t.source()));
            for step in t.steps() {
                match step.kind() {
                    StepKind::Attr(name) => children.push(Work::Line(
                        d,
                        format!("Attr {:?} {}", name.name, step.range()),
                    )),
                    StepKind::LegacyIndex { text, value } => children.push(Work::Line(
                        d,
                        format!("LegacyIndex {text} = {value} {}", step.range()),
                    )),
                    StepKind::Index(key) => {
                        children.push(Work::Line(d, format!("Index {}", step.range())));
                        children.push(Work::Expr(d + 1, "", key));
                    }
                }
            }
        }
        ExprKind::Splat(s) => {
            line(out, depth, format_args!("{role}Splat {:?} {r}", s.kind()));
            children.push(Work::Expr(d, "source: ", s.source()));
            children.push(Work::Expr(d, "each: ", s.each()));
        }
        ExprKind::SplatItem => line(out, depth, format_args!("{role}SplatItem {r}")),
        ExprKind::Call(c) => {
            let expand = if c.expand_final() { " expand" } else { "" };
            line(
                out,
                depth,
                format_args!("{role}Call {:?}{expand} {r}", c.name()),
            );
            children.extend(c.args().iter().map(|arg| Work::Expr(d, "", arg)));
        }
        ExprKind::For(f) => {
            let key = f
                .key_var()
                .map_or(String::new(), |k| format!("{:?}, ", k.name));
            let group = if f.grouping() { " grouping" } else { "" };
            line(
                out,
                depth,
                format_args!(
                    "{role}For {:?} {key}{:?}{group} {r}",
                    f.kind(),
                    f.value_var().name
                ),
            );
            children.push(Work::Expr(d, "collection: ", f.collection()));
            if let Some(k) = f.key_expr() {
                children.push(Work::Expr(d, "key: ", k));
            }
            children.push(Work::Expr(d, "value: ", f.value_expr()));
            if let Some(c) = f.condition() {
                children.push(Work::Expr(d, "if: ", c));
            }
        }
        ExprKind::Conditional(c) => {
            line(out, depth, format_args!("{role}Conditional {r}"));
            children.push(Work::Expr(d, "cond: ", c.condition));
            children.push(Work::Expr(d, "then: ", c.then_expr));
            children.push(Work::Expr(d, "else: ", c.else_expr));
        }
        ExprKind::Binary(b) => {
            line(
                out,
                depth,
                format_args!("{role}Binary {} {r}", b.op.as_str()),
            );
            children.push(Work::Expr(d, "", b.lhs));
            children.push(Work::Expr(d, "", b.rhs));
        }
        ExprKind::Unary(u) => {
            line(
                out,
                depth,
                format_args!("{role}Unary {} {r}", u.op.as_str()),
            );
            children.push(Work::Expr(d, "", u.operand));
        }
        ExprKind::Tuple(items) => {
            line(out, depth, format_args!("{role}Tuple {r}"));
            children.extend(items.iter().map(|item| Work::Expr(d, "", item)));
        }
        ExprKind::Object(items) => {
            line(out, depth, format_args!("{role}Object {r}"));
            for item in items {
                children.push(Work::Line(d, format!("Item {}", item.range())));
                children.push(Work::Expr(d + 1, "key: ", item.key()));
                children.push(Work::Expr(d + 1, "value: ", item.value()));
            }
        }
        ExprKind::Parens(inner) => {
            line(out, depth, format_args!("{role}Parens {r}"));
            children.push(Work::Expr(d, "", inner));
        }
        ExprKind::Error => line(out, depth, format_args!("{role}Error {r}")),
    }
}

fn strip(s: Strip) -> &'static str {
    match (s.left, s.right) {
        (false, false) => "",
        (true, false) => " ~left",
        (false, true) => " ~right",
        (true, true) => " ~both",
    }
}

fn parts(out: &mut String, depth: usize, list: List<'_, PartRef<'_>>) {
    for part in list {
        match part.kind() {
            Part::Literal(lit) => line(
                out,
                depth,
                format_args!("Literal {:?} {}", lit.value(), lit.range()),
            ),
            Part::Interpolation(i) => {
                line(
                    out,
                    depth,
                    format_args!("Interpolation{} {}", strip(i.strip()), i.range()),
                );
                expr_node(out, depth + 1, "", i.expr());
            }
            Part::If(dir) => {
                line(
                    out,
                    depth,
                    format_args!("If{} {}", strip(dir.if_strip()), dir.range()),
                );
                expr_node(out, depth + 1, "cond: ", dir.condition());
                line(out, depth + 1, format_args!("then:"));
                parts(out, depth + 2, dir.then_parts());
                if let Some(else_parts) = dir.else_parts() {
                    line(out, depth + 1, format_args!("else:"));
                    parts(out, depth + 2, else_parts);
                }
            }
            Part::For(dir) => {
                let key = dir
                    .key_var()
                    .map_or(String::new(), |k| format!("{:?}, ", k.name));
                line(
                    out,
                    depth,
                    format_args!(
                        "For{} {key}{:?} {}",
                        strip(dir.for_strip()),
                        dir.value_var().name,
                        dir.range()
                    ),
                );
                expr_node(out, depth + 1, "collection: ", dir.collection());
                line(out, depth + 1, format_args!("body:"));
                parts(out, depth + 2, dir.body());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use pcl_diagnostics::FileId;

    /// The dump of a left-nested operator chain grows linearly with it
    /// (indenting every level made it quadratic); the levels past
    /// `MAX_INDENT` carry their depth.
    #[test]
    fn long_chains_dump_in_linear_size() {
        let dump = |n: usize| {
            let text = format!("a = x{}\n", " + x".repeat(n - 1));
            crate::parse(FileId(0), &text).dump()
        };
        let (small, large) = (dump(4_000), dump(8_000));
        assert!(
            large.len() * 10 < small.len() * 22,
            "{} bytes for 4 000 terms, {} for 8 000",
            small.len(),
            large.len()
        );
        assert!(small.lines().any(|l| l.starts_with("@3000 Binary + ")));
        let deepest = "  ".repeat(super::MAX_INDENT);
        assert!(small
            .lines()
            .any(|l| l.starts_with(&format!("{deepest}Binary"))));
    }
}
