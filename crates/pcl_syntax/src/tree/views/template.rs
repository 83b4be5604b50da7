//! Views of templates: [`TemplateRef`], its parts and directives.

use pcl_diagnostics::TextRange;

use super::*;

// ----------------------------------------------------------------------
// Templates
// ----------------------------------------------------------------------

/// Which kind of template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TemplateKind<'t> {
    Quoted,
    /// `<<MARKER` or, with `flush`, `<<-MARKER`.
    Heredoc {
        marker: &'t str,
        flush: bool,
    },
    /// A whole input parsed with [`crate::parse_template`].
    Bare,
}

/// A template: literal text, interpolations and directives.
#[derive(Clone, Copy, Debug)]
pub struct TemplateRef<'t> {
    pub(crate) src: Src<'t>,
    pub(crate) node: TemplateNode,
}

impl<'t> TemplateRef<'t> {
    /// The plain string stored as a leaf at `range` (see `store.rs`): a
    /// quoted template of one literal part, everything between its first
    /// and last byte, when there is anything between them. Its part is
    /// made by [`PartRef`]'s `at` from a run marked with [`LEAF`].
    pub(crate) fn plain(src: Src<'t>, range: TextRange) -> TemplateRef<'t> {
        let parts = if range.len() > 2 {
            Run {
                start: LEAF | range.start,
                len: 1,
            }
        } else {
            Run::default()
        };
        TemplateRef {
            src,
            node: TemplateNode {
                kind: TemplateNodeKind::Quoted,
                parts,
            },
        }
    }
    pub fn kind(self) -> TemplateKind<'t> {
        match self.node.kind {
            TemplateNodeKind::Quoted => TemplateKind::Quoted,
            TemplateNodeKind::Heredoc { marker, flush } => TemplateKind::Heredoc {
                marker: self.src.slice(marker),
                flush,
            },
            TemplateNodeKind::Bare => TemplateKind::Bare,
        }
    }
    pub fn parts(self) -> List<'t, PartRef<'t>> {
        List::new(self.src, self.node.parts)
    }
    /// The expression of a template that is exactly one interpolation
    /// (`"${x}"`), which HCL evaluates to the expression's own value.
    pub fn wrapped_expr(self) -> Option<ExprRef<'t>> {
        let parts = self.parts();
        match (parts.len(), parts.first().map(PartRef::kind)) {
            (1, Some(Part::Interpolation(i))) => Some(i.expr()),
            _ => None,
        }
    }
    /// The text of a template without sequences (`""` when empty).
    pub fn literal_value(self) -> Option<&'t str> {
        let parts = self.parts();
        match (parts.len(), parts.first().map(PartRef::kind)) {
            (0, _) => Some(""),
            (1, Some(Part::Literal(lit))) => Some(lit.value()),
            _ => None,
        }
    }
    pub(crate) fn for_each_expr(self, f: &mut impl FnMut(ExprRef<'t>)) {
        parts_exprs(self.parts(), f);
    }
}

fn parts_exprs<'t>(parts: List<'t, PartRef<'t>>, f: &mut impl FnMut(ExprRef<'t>)) {
    // Directive nesting is bounded by the parser's depth limit.
    for part in parts {
        match part.kind() {
            Part::Literal(_) => {}
            Part::Interpolation(i) => f(i.expr()),
            Part::If(dir) => {
                f(dir.condition());
                parts_exprs(dir.then_parts(), f);
                if let Some(else_parts) = dir.else_parts() {
                    parts_exprs(else_parts, f);
                }
            }
            Part::For(dir) => {
                f(dir.collection());
                parts_exprs(dir.body(), f);
            }
        }
    }
}

/// One part of a template.
#[derive(Clone, Copy, Debug)]
pub struct PartRef<'t> {
    src: Src<'t>,
    node: PartNode,
}

impl<'t> Element<'t> for PartRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        let leaf = u32::try_from(index).ok().filter(|i| i & LEAF != 0);
        let node = match leaf {
            // The one part of a plain string stored as a leaf.
            Some(i) => {
                let range = src.tree.leaf_range(i & !LEAF);
                let inner = TextRange::new(range.start + 1, range.end.max(range.start + 2) - 1);
                PartNode {
                    kind: PartNodeKind::Literal(Text::Source(inner)),
                    range: inner,
                }
            }
            None => src.tree.parts.get(index)?.get(src.tree),
        };
        Some(PartRef { src, node })
    }
}

/// What a template part is.
#[derive(Clone, Copy, Debug)]
pub enum Part<'t> {
    Literal(TemplateLiteralRef<'t>),
    Interpolation(InterpolationRef<'t>),
    If(TemplateIfRef<'t>),
    For(TemplateForRef<'t>),
}

impl<'t> PartRef<'t> {
    pub fn range(self) -> TextRange {
        self.node.range
    }
    pub fn kind(self) -> Part<'t> {
        let src = self.src;
        let range = self.node.range;
        match self.node.kind {
            PartNodeKind::Literal(text) => Part::Literal(TemplateLiteralRef { src, text, range }),
            PartNodeKind::Interpolation { expr, strip } => Part::Interpolation(InterpolationRef {
                src,
                expr,
                strip,
                range,
            }),
            PartNodeKind::If(i) => match src.tree.template_ifs.get(i as usize) {
                Some(node) => Part::If(TemplateIfRef { src, node, range }),
                None => Part::Literal(TemplateLiteralRef {
                    src,
                    text: Text::Decoded { start: 0, len: 0 },
                    range,
                }),
            },
            PartNodeKind::For(i) => match src.tree.template_fors.get(i as usize) {
                Some(node) => Part::For(TemplateForRef { src, node, range }),
                None => Part::Literal(TemplateLiteralRef {
                    src,
                    text: Text::Decoded { start: 0, len: 0 },
                    range,
                }),
            },
        }
    }
}

/// Literal text of a template: escapes resolved, strip markers and `<<-`
/// indentation applied, NFC-normalised.
#[derive(Clone, Copy, Debug)]
pub struct TemplateLiteralRef<'t> {
    src: Src<'t>,
    text: Text,
    range: TextRange,
}

impl<'t> TemplateLiteralRef<'t> {
    pub fn value(self) -> &'t str {
        self.src.text_of(self.text)
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}

/// `${ expr }`.
#[derive(Clone, Copy, Debug)]
pub struct InterpolationRef<'t> {
    src: Src<'t>,
    expr: ExprId,
    strip: Strip,
    range: TextRange,
}

impl<'t> InterpolationRef<'t> {
    pub fn expr(self) -> ExprRef<'t> {
        self.src.expr(self.expr)
    }
    pub fn strip(self) -> Strip {
        self.strip
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}

/// `%{ if cond }…%{ else }…%{ endif }`.
#[derive(Clone, Copy, Debug)]
pub struct TemplateIfRef<'t> {
    src: Src<'t>,
    node: &'t TemplateIfNode,
    range: TextRange,
}

impl<'t> TemplateIfRef<'t> {
    pub fn condition(self) -> ExprRef<'t> {
        self.src.expr(self.node.condition)
    }
    pub fn then_parts(self) -> List<'t, PartRef<'t>> {
        List::new(self.src, self.node.then_parts)
    }
    pub fn else_parts(self) -> Option<List<'t, PartRef<'t>>> {
        self.node.else_parts.map(|run| List::new(self.src, run))
    }
    pub fn if_strip(self) -> Strip {
        self.node.if_strip
    }
    pub fn else_strip(self) -> Strip {
        self.node.else_strip
    }
    pub fn endif_strip(self) -> Strip {
        self.node.endif_strip
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}

/// `%{ for k, v in coll }…%{ endfor }`.
#[derive(Clone, Copy, Debug)]
pub struct TemplateForRef<'t> {
    src: Src<'t>,
    node: &'t TemplateForNode,
    range: TextRange,
}

impl<'t> TemplateForRef<'t> {
    pub fn key_var(self) -> Option<Ident<'t>> {
        self.node.key_var.map(|r| Ident::new(self.src, r))
    }
    pub fn value_var(self) -> Ident<'t> {
        Ident::new(self.src, self.node.value_var)
    }
    pub fn collection(self) -> ExprRef<'t> {
        self.src.expr(self.node.collection)
    }
    pub fn body(self) -> List<'t, PartRef<'t>> {
        List::new(self.src, self.node.body)
    }
    pub fn for_strip(self) -> Strip {
        self.node.for_strip
    }
    pub fn endfor_strip(self) -> Strip {
        self.node.endfor_strip
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}
