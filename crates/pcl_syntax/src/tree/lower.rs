//! Transitional: builds the flat tree from the parser's boxed AST, so that
//! the rest of the workspace moves onto the views while the grammar is
//! rewritten to build the tree directly. Removed with `ast.rs`.
//!
//! Expressions are lowered with an explicit stack (operator chains can be
//! arbitrarily deep); template directives and block bodies nest at most
//! [`crate::MAX_NESTING_DEPTH`] levels, so those recurse.

use pcl_diagnostics::TextRange;

use super::builder::{Builder, NumberLit};
use super::*;
use crate::ast;

pub(crate) struct Lower<'s> {
    pub(crate) b: Builder,
    text: &'s str,
}

impl<'s> Lower<'s> {
    pub(crate) fn new(text: &'s str) -> Lower<'s> {
        Lower {
            b: Builder::for_source(text.len()),
            text,
        }
    }

    fn comments(&mut self, list: &[ast::Comment]) -> Run {
        let mark = self.b.mark_comments();
        for c in list {
            self.b.push_comment(CommentNode {
                kind: match c.kind {
                    ast::CommentKind::Hash => CommentKind::Hash,
                    ast::CommentKind::DoubleSlash => CommentKind::DoubleSlash,
                    ast::CommentKind::Block => CommentKind::Block,
                },
                range: c.range,
            });
        }
        self.b.finish_comments(mark)
    }

    pub(crate) fn body(&mut self, body: &ast::Body) -> BodyId {
        let mut items = Vec::with_capacity(body.items.len());
        for item in &body.items {
            let leading = self.comments(item.leading_comments());
            let trailing = self.comments(item.trailing_comments());
            let node = match item {
                ast::BodyItem::Attribute(attr) => {
                    let expr = self.expr(&attr.expr);
                    self.b.attribute(
                        attr.name.range,
                        attr.equals_range,
                        expr,
                        attr.range,
                        (leading, trailing),
                    )
                }
                ast::BodyItem::Block(block) => {
                    let body = self.body(&block.body);
                    let mark = self.b.mark_labels();
                    for label in &block.labels {
                        let value = self.b.text(self.text, label.range, &label.value);
                        self.b.push_label(LabelNode {
                            value,
                            quoted: label.quoted,
                            range: label.range,
                        });
                    }
                    let labels = self.b.finish_labels(mark);
                    self.b.block(
                        BlockNode {
                            type_name: block.type_name.range,
                            labels,
                            body,
                            open_brace: block.open_brace_range,
                            close_brace: block.close_brace_range,
                        },
                        block.range,
                        (leading, trailing),
                    )
                }
            };
            items.push(node);
        }
        let mark = self.b.mark_items();
        for item in items {
            self.b.push_item(item);
        }
        let items = self.b.finish_items(mark);
        let dangling = self.comments(&body.dangling_comments);
        self.b.body(items, body.range, dangling)
    }

    pub(crate) fn parts(&mut self, parts: &[ast::TemplatePart]) -> Run {
        let mut nodes = Vec::with_capacity(parts.len());
        for part in parts {
            let node = match part {
                ast::TemplatePart::Literal(lit) => {
                    let text = self.b.text(self.text, lit.range, &lit.value);
                    PartNode {
                        kind: PartNodeKind::Literal(text),
                        range: lit.range,
                    }
                }
                ast::TemplatePart::Interpolation(i) => {
                    let expr = self.expr(&i.expr);
                    self.b.interpolation(expr, convert_strip(i.strip), i.range)
                }
                ast::TemplatePart::If(dir) => {
                    let condition = self.expr(&dir.condition);
                    let then_parts = self.parts(&dir.then_parts);
                    let else_parts = dir.else_parts.as_ref().map(|p| self.parts(p));
                    self.b.template_if(
                        TemplateIfNode {
                            condition,
                            then_parts,
                            else_parts,
                            if_strip: convert_strip(dir.if_strip),
                            else_strip: convert_strip(dir.else_strip),
                            endif_strip: convert_strip(dir.endif_strip),
                        },
                        dir.range,
                    )
                }
                ast::TemplatePart::For(dir) => {
                    let collection = self.expr(&dir.collection);
                    let body = self.parts(&dir.body);
                    self.b.template_for(
                        TemplateForNode {
                            key_var: dir.key_var.as_ref().map(|k| k.range),
                            value_var: dir.value_var.range,
                            collection,
                            body,
                            for_strip: convert_strip(dir.for_strip),
                            endfor_strip: convert_strip(dir.endfor_strip),
                        },
                        dir.range,
                    )
                }
            };
            nodes.push(node);
        }
        let mark = self.b.mark_parts();
        for node in nodes {
            self.b.push_part(node);
        }
        self.b.finish_parts(mark)
    }

    /// Lowers `expr` and everything under it. Left operands of binary
    /// operators (the only unbounded nesting) are followed in a loop.
    pub(crate) fn expr(&mut self, expr: &ast::Expr) -> ExprId {
        let mut spine = Vec::new();
        let mut here = expr;
        while let ast::ExprKind::Binary(bin) = &here.kind {
            spine.push(here);
            here = &bin.lhs;
        }
        let mut acc = self.leaf_or_compound(here);
        while let Some(node) = spine.pop() {
            if let ast::ExprKind::Binary(bin) = &node.kind {
                let rhs = self.expr(&bin.rhs);
                acc = self.b.expr(
                    ExprNodeKind::Binary {
                        op: convert_binary(bin.op),
                        op_start: bin.op_range.start,
                        lhs: acc,
                        rhs,
                    },
                    node.range,
                );
            }
        }
        acc
    }

    fn list(&mut self, exprs: &[ast::Expr]) -> Run {
        let ids: Vec<ExprId> = exprs.iter().map(|e| self.expr(e)).collect();
        let mark = self.b.mark_exprs();
        for id in ids {
            self.b.push_list_expr(id);
        }
        self.b.finish_exprs(mark)
    }

    fn leaf_or_compound(&mut self, expr: &ast::Expr) -> ExprId {
        let range = expr.range;
        match &expr.kind {
            ast::ExprKind::Literal(ast::Literal::Number(n)) => {
                let value = match &n.value {
                    ast::NumberValue::Int(v) => NumberLit::Int(v.clone()),
                    ast::NumberValue::Fraction(f) => NumberLit::Fraction(*f),
                    ast::NumberValue::Invalid => NumberLit::Invalid,
                };
                self.b.number(value, range)
            }
            ast::ExprKind::Literal(ast::Literal::Bool(b)) => {
                self.b.expr(ExprNodeKind::Bool(*b), range)
            }
            ast::ExprKind::Literal(ast::Literal::Null) => self.b.expr(ExprNodeKind::Null, range),
            ast::ExprKind::Template(t) => {
                let parts = self.parts(&t.parts);
                let kind = match &t.kind {
                    ast::TemplateKind::Quoted => TemplateNodeKind::Quoted,
                    ast::TemplateKind::Bare => TemplateNodeKind::Bare,
                    ast::TemplateKind::Heredoc { marker, flush } => TemplateNodeKind::Heredoc {
                        marker: self.marker_range(range, marker),
                        flush: *flush,
                    },
                };
                self.b.template(kind, parts, range)
            }
            ast::ExprKind::Variable(_) => self.b.expr(ExprNodeKind::Variable, range),
            ast::ExprKind::Traversal(t) => {
                let source = self.expr(&t.source);
                let mut steps = Vec::with_capacity(t.steps.len());
                for step in t.steps.iter() {
                    let node = match &step.kind {
                        ast::StepKind::Attr(name) => {
                            self.b.step(StepNodeKind::Attr(name.range), step.range)
                        }
                        ast::StepKind::Index(e) => {
                            let e = self.expr(e);
                            self.b.step(StepNodeKind::Index(e), step.range)
                        }
                        ast::StepKind::LegacyIndex { text, value } => {
                            let digits =
                                TextRange::new(step.range.end - text.len() as u32, step.range.end);
                            self.b.legacy_index_step(digits, value.clone(), step.range)
                        }
                    };
                    steps.push(node);
                }
                let mark = self.b.mark_steps();
                for s in steps {
                    self.b.push_step(s);
                }
                let steps = self.b.finish_steps(mark);
                self.b
                    .expr(ExprNodeKind::Traversal { source, steps }, range)
            }
            ast::ExprKind::Splat(s) => {
                let source = self.expr(&s.source);
                let each = self.expr(&s.each);
                self.b.splat(
                    SplatNode {
                        source,
                        kind: match s.kind {
                            ast::SplatKind::Attr => SplatKind::Attr,
                            ast::SplatKind::Full => SplatKind::Full,
                        },
                        marker: s.marker_range,
                        each,
                    },
                    range,
                )
            }
            ast::ExprKind::SplatItem => self.b.expr(ExprNodeKind::SplatItem, range),
            ast::ExprKind::Call(c) => {
                let args = self.list(&c.args);
                let mark = self.b.mark_idents();
                for seg in &c.segments {
                    self.b.push_ident(seg.range);
                }
                let segments = self.b.finish_idents(mark);
                let name = self.b.text(self.text, c.name_range, &c.name);
                self.b.call(
                    CallNode {
                        name,
                        name_range: c.name_range,
                        segments,
                        args,
                        expand_final: c.expand_final,
                        open_paren: c.open_paren_range,
                        close_paren: c.close_paren_range,
                    },
                    range,
                )
            }
            ast::ExprKind::For(f) => {
                let collection = self.expr(&f.collection);
                let key_expr = f.key_expr.as_ref().map(|k| self.expr(k));
                let value_expr = self.expr(&f.value_expr);
                let condition = f.condition.as_ref().map(|c| self.expr(c));
                self.b.for_expr(
                    ForNode {
                        kind: match f.kind {
                            ast::ForKind::Tuple => ForKind::Tuple,
                            ast::ForKind::Object => ForKind::Object,
                        },
                        key_var: f.key_var.as_ref().map(|k| k.range),
                        value_var: f.value_var.range,
                        collection,
                        key_expr,
                        value_expr,
                        grouping: f.grouping,
                        condition,
                    },
                    range,
                )
            }
            ast::ExprKind::Conditional(c) => {
                let condition = self.expr(&c.condition);
                let then_expr = self.expr(&c.then_expr);
                let else_expr = self.expr(&c.else_expr);
                self.b.expr(
                    ExprNodeKind::Conditional {
                        condition,
                        then_expr,
                        else_expr,
                    },
                    range,
                )
            }
            ast::ExprKind::Binary(_) => self.expr(expr),
            ast::ExprKind::Unary(u) => {
                let operand = self.expr(&u.operand);
                self.b.expr(
                    ExprNodeKind::Unary {
                        op: match u.op {
                            ast::UnaryOp::Negate => UnaryOp::Negate,
                            ast::UnaryOp::Not => UnaryOp::Not,
                        },
                        op_start: u.op_range.start,
                        operand,
                    },
                    range,
                )
            }
            ast::ExprKind::Tuple(items) => {
                let run = self.list(items);
                self.b.expr(ExprNodeKind::Tuple(run), range)
            }
            ast::ExprKind::Object(items) => {
                let mut nodes = Vec::with_capacity(items.len());
                for item in items {
                    let key = self.expr(&item.key);
                    let value = self.expr(&item.value);
                    nodes.push(self.b.object_item(key, value, item.range));
                }
                let mark = self.b.mark_object_items();
                for n in nodes {
                    self.b.push_object_item(n);
                }
                let run = self.b.finish_object_items(mark);
                self.b.expr(ExprNodeKind::Object(run), range)
            }
            ast::ExprKind::Parens(inner) => {
                let inner = self.expr(inner);
                self.b.expr(ExprNodeKind::Parens(inner), range)
            }
            ast::ExprKind::Error => self.b.expr(ExprNodeKind::Error, range),
        }
    }

    /// The range of a heredoc's marker: the first occurrence of the marker
    /// text after `<<` / `<<-` at the template's start.
    fn marker_range(&self, range: TextRange, marker: &str) -> TextRange {
        let start = range.start as usize;
        let head = self.text.get(start..).unwrap_or("");
        let skip = if head.starts_with("<<-") { 3 } else { 2 };
        let at = (start + skip) as u32;
        TextRange::new(at, at + marker.len() as u32)
    }
}

fn convert_strip(s: ast::Strip) -> Strip {
    Strip {
        left: s.left,
        right: s.right,
    }
}

fn convert_binary(op: ast::BinaryOp) -> BinaryOp {
    match op {
        ast::BinaryOp::Or => BinaryOp::Or,
        ast::BinaryOp::And => BinaryOp::And,
        ast::BinaryOp::Equal => BinaryOp::Equal,
        ast::BinaryOp::NotEqual => BinaryOp::NotEqual,
        ast::BinaryOp::Less => BinaryOp::Less,
        ast::BinaryOp::LessEqual => BinaryOp::LessEqual,
        ast::BinaryOp::Greater => BinaryOp::Greater,
        ast::BinaryOp::GreaterEqual => BinaryOp::GreaterEqual,
        ast::BinaryOp::Add => BinaryOp::Add,
        ast::BinaryOp::Subtract => BinaryOp::Subtract,
        ast::BinaryOp::Multiply => BinaryOp::Multiply,
        ast::BinaryOp::Divide => BinaryOp::Divide,
        ast::BinaryOp::Modulo => BinaryOp::Modulo,
    }
}
