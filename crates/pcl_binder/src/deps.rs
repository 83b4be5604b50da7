//! Syntactic dependencies of a declaration (binder.md §5.2): every root
//! name of a scope traversal and the name of every function call anywhere in
//! its syntax, in source order. The caller resolves them in the root scope;
//! names that are no node are ignored.
//!
//! For `resource`/`read` blocks the four property-list options
//! (`ignoreChanges`, `hideDiffs`, `replaceOnChanges`,
//! `additionalSecretOutputs`) are skipped: their names are input properties,
//! not references.

use pcl_syntax::tree::{BodyRef, ExprKind, ExprRef, Item, List, Part, PartRef, StepKind};

/// Options whose values name the resource's own input properties.
pub(crate) const PROPERTY_LIST_OPTIONS: [&str; 4] = [
    "ignoreChanges",
    "hideDiffs",
    "replaceOnChanges",
    "additionalSecretOutputs",
];

/// The work lists of a walk, reused for every expression and body of a
/// program (so a walk allocates only while its lists still grow).
#[derive(Default)]
pub(crate) struct Walk<'a> {
    exprs: Vec<ExprRef<'a>>,
    parts: Vec<List<'a, PartRef<'a>>>,
    bodies: Vec<(BodyRef<'a>, bool)>,
}

impl<'a> Walk<'a> {
    /// Names referenced by a body (attributes and nested blocks), borrowed
    /// from the syntax tree.
    pub(crate) fn body_names(
        &mut self,
        body: BodyRef<'a>,
        skip_property_options: bool,
        out: &mut Vec<(u32, &'a str)>,
    ) {
        let mut stack = std::mem::take(&mut self.bodies);
        stack.clear();
        stack.push((body, false));
        while let Some((body, in_options)) = stack.pop() {
            for item in body.items().iter().rev() {
                match item.kind() {
                    Item::Attribute(attr) => {
                        if in_options
                            && skip_property_options
                            && PROPERTY_LIST_OPTIONS.contains(&attr.name())
                        {
                            continue;
                        }
                        self.expr_names(attr.expr(), out);
                    }
                    Item::Block(block) => {
                        stack.push((block.body(), block.type_name() == "options"))
                    }
                }
            }
        }
        self.bodies = stack;
    }

    /// Names referenced by one expression, iteratively (deep trees are
    /// fine).
    pub(crate) fn expr_names(&mut self, expr: ExprRef<'a>, out: &mut Vec<(u32, &'a str)>) {
        let stack = &mut self.exprs;
        stack.clear();
        stack.push(expr);
        while let Some(e) = stack.pop() {
            match e.kind() {
                ExprKind::Variable(ident) => out.push((ident.range.start, ident.name)),
                ExprKind::Call(call) => {
                    out.push((call.name_range().start, call.name()));
                    stack.extend(call.args().iter());
                }
                ExprKind::Template(t) => parts(t.parts(), stack, &mut self.parts),
                ExprKind::Object(items) => {
                    for item in items {
                        // A bare identifier key is a literal name, not a reference.
                        if item.bare_key().is_none() {
                            stack.push(item.key());
                        }
                        stack.push(item.value());
                    }
                }
                // The children of the other kinds, from the kind decoded
                // above (`for_each_child` would decode it again).
                ExprKind::Literal(_) | ExprKind::SplatItem | ExprKind::Error => {}
                ExprKind::Traversal(t) => {
                    stack.push(t.source());
                    for step in t.steps() {
                        if let StepKind::Index(key) = step.kind() {
                            stack.push(key);
                        }
                    }
                }
                ExprKind::Splat(s) => {
                    stack.push(s.source());
                    stack.push(s.each());
                }
                ExprKind::For(x) => {
                    stack.push(x.collection());
                    stack.extend(x.key_expr());
                    stack.push(x.value_expr());
                    stack.extend(x.condition());
                }
                ExprKind::Conditional(c) => {
                    stack.extend([c.condition, c.then_expr, c.else_expr]);
                }
                ExprKind::Binary(b) => stack.extend([b.lhs, b.rhs]),
                ExprKind::Unary(u) => stack.push(u.operand),
                ExprKind::Tuple(items) => stack.extend(items.iter()),
                ExprKind::Parens(inner) => stack.push(inner),
            }
        }
    }
}

fn parts<'a>(
    parts_list: List<'a, PartRef<'a>>,
    stack: &mut Vec<ExprRef<'a>>,
    todo: &mut Vec<List<'a, PartRef<'a>>>,
) {
    todo.clear();
    todo.push(parts_list);
    while let Some(list) = todo.pop() {
        for part in list {
            match part.kind() {
                Part::Literal(_) => {}
                Part::Interpolation(i) => stack.push(i.expr()),
                Part::If(d) => {
                    stack.push(d.condition());
                    todo.push(d.then_parts());
                    if let Some(e) = d.else_parts() {
                        todo.push(e);
                    }
                }
                Part::For(d) => {
                    stack.push(d.collection());
                    todo.push(d.body());
                }
            }
        }
    }
}
