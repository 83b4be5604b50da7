//! Binding locals, `config`, `output`, `hook` and `pulumi` blocks
//! (binder.md §5.3–5.5, §5.9, §5.10).

use pcl_diagnostics::{Diagnostic, FileId, Span};
use pcl_expr::{BoundTree, Definition};
use pcl_syntax::tree::{AttributeRef, BlockRef, BodyRef, ExprKind, Item, Literal};
use pcl_types::Type;

use crate::codes;
use crate::model::{
    BoundAttribute, Comment, ConfigNode, HookKind, HookNode, LocalNode, NodeKind, OutputNode,
    PulumiNode,
};
use crate::packages::string_literal;
use crate::program::ProgramBinder;

pub(crate) fn bound_attribute(
    file: FileId,
    attr: AttributeRef<'_>,
    value: BoundTree,
    expected: Option<Type>,
) -> BoundAttribute {
    BoundAttribute {
        name: attr.name().to_string(),
        name_span: Span::new(file, attr.name_range()),
        value,
        expected,
        leading_comments: attr.leading_comments().iter().map(Comment::new).collect(),
        trailing_comments: attr.trailing_comments().iter().map(Comment::new).collect(),
    }
}

/// The attributes of `config` blocks.
pub(crate) const CONFIG_ATTRIBUTES: &[&str] = &[
    "default",
    "description",
    "nullable",
    "secret",
    "__logicalName",
];
/// The attributes of `output` blocks.
pub(crate) const OUTPUT_ATTRIBUTES: &[&str] = &["value", "__logicalName"];
/// The attributes of the `pulumi` block.
pub(crate) const PULUMI_ATTRIBUTES: &[&str] = &["requiredVersionRange"];

/// Warns about every attribute of `body` that a `what` block does not have
/// (`unknown-block-attribute`, with did-you-mean and fixes): the reference
/// ignores them, so a misspelt `vaule` would silently leave an output
/// without a value. The attribute is still bound.
pub(crate) fn unknown_attributes(
    file: FileId,
    body: BodyRef<'_>,
    what: &str,
    known: &[&str],
    diags: &mut Vec<Diagnostic>,
) {
    for attr in body.attributes() {
        if known.contains(&attr.name()) {
            continue;
        }
        let span = Span::new(file, attr.name_range());
        let d = Diagnostic::warning(
            codes::UNKNOWN_BLOCK_ATTRIBUTE,
            span,
            format!("unknown attribute `{}` in {what} block", attr.name()),
        )
        .with_detail(format!(
            "{what} blocks have {}; this attribute is ignored",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let found = pcl_expr::suggest::candidates(attr.name(), known.iter().copied());
        diags.push(pcl_expr::suggest::attach(d, span, &found));
    }
}

fn bool_literal(attr: AttributeRef<'_>) -> Option<bool> {
    match attr.expr().kind() {
        ExprKind::Literal(Literal::Bool(b)) => Some(b),
        _ => None,
    }
}

impl ProgramBinder<'_, '_> {
    pub(crate) fn bind_local(&mut self, idx: usize, file: FileId, attr: AttributeRef<'_>) {
        let scope = self.scope.clone();
        let (value, diags) = self.bind(file, attr.expr(), &scope);
        self.diags.extend(diags);
        self.set_type(idx, value.ty().clone());
        self.finish_node(idx, NodeKind::Local(LocalNode { value: Some(value) }), None);
    }

    pub(crate) fn bind_config(&mut self, idx: usize, file: FileId, block: BlockRef<'_>) {
        let scope = self.scope.clone();
        let mut ty = self.node_type(idx);
        let mut node = ConfigNode {
            type_label: block.labels().get(1).map(|l| l.value().to_owned()),
            default: None,
            description: None,
            nullable: false,
            secret: false,
            attributes: Vec::new(),
        };
        let mut logical_name = None;
        let mut later: Vec<Diagnostic> = Vec::new();
        unknown_attributes(file, block.body(), "config", CONFIG_ATTRIBUTES, &mut later);
        for attr in block.body().attributes() {
            let (value, diags) = self.bind(file, attr.expr(), &scope);
            self.diags.extend(diags);
            let lit_error = |what: &str| {
                Diagnostic::error(
                    codes::LITERAL_REQUIRED,
                    Span::new(file, attr.expr().range()),
                    format!("attribute `{}` must be a {what} literal", attr.name()),
                )
            };
            match attr.name() {
                "default" => {
                    if matches!(attr.expr().kind(), ExprKind::Literal(Literal::Null))
                        && !pcl_types::is_optional(&ty)
                    {
                        ty = Type::optional(ty);
                        node.nullable = true;
                    }
                    let name = self.node_name(idx);
                    later.extend(self.check_assignment(file, &value, &ty, "config", name));
                    node.default = Some(value);
                    continue;
                }
                "__logicalName" => match string_literal(attr.expr()) {
                    Some(s) => logical_name = Some(s.to_string()),
                    None => later.push(lit_error("string")),
                },
                "description" => match string_literal(attr.expr()) {
                    Some(s) => node.description = Some(s.to_string()),
                    None => later.push(lit_error("string")),
                },
                "nullable" => match bool_literal(attr) {
                    Some(b) => node.nullable = node.nullable || b,
                    None => later.push(lit_error("boolean")),
                },
                "secret" => match bool_literal(attr) {
                    Some(b) => node.secret = b,
                    None => later.push(lit_error("boolean")),
                },
                _ => {}
            }
            node.attributes
                .push(crate::blocks::bound_attribute(file, attr, value, None));
        }
        if node.secret {
            ty = Type::output(ty);
        }
        self.diags.extend(later);
        self.set_type(idx, ty);
        self.finish_node(idx, NodeKind::Config(Box::new(node)), logical_name);
    }

    pub(crate) fn bind_output(&mut self, idx: usize, file: FileId, block: BlockRef<'_>) {
        let scope = self.scope.clone();
        let declared = self.node_type(idx);
        let mut value_expr = None;
        let mut logical_name = None;
        let mut later = Vec::new();
        unknown_attributes(file, block.body(), "output", OUTPUT_ATTRIBUTES, &mut later);
        for attr in block.body().attributes() {
            let (value, diags) = self.bind(file, attr.expr(), &scope);
            self.diags.extend(diags);
            match attr.name() {
                "value" => {
                    if block.labels().get(1).is_some() {
                        let name = self.node_name(idx);
                        later
                            .extend(self.check_assignment(file, &value, &declared, "output", name));
                    }
                    value_expr = Some(value);
                }
                "__logicalName" => match string_literal(attr.expr()) {
                    Some(s) => logical_name = Some(s.to_string()),
                    None => later.push(Diagnostic::error(
                        codes::LITERAL_REQUIRED,
                        Span::new(file, attr.expr().range()),
                        "attribute __logicalName must be a string literal",
                    )),
                },
                _ => {}
            }
        }
        self.diags.extend(later);
        let node = OutputNode {
            type_label: block.labels().get(1).map(|l| l.value().to_owned()),
            value: value_expr,
        };
        self.finish_node(idx, NodeKind::Output(Box::new(node)), logical_name);
    }

    pub(crate) fn bind_hook(
        &mut self,
        idx: usize,
        file: FileId,
        block: BlockRef<'_>,
        kind: HookKind,
    ) {
        let scope = self.scope.clone();
        let mut args = vec![
            ("urn", Type::string()),
            ("id", Type::id()),
            ("name", Type::string()),
            ("type", Type::string()),
            ("newInputs", Type::map(Type::dynamic())),
            ("oldInputs", Type::map(Type::dynamic())),
            ("oldOutputs", Type::map(Type::dynamic())),
        ];
        if kind == HookKind::Resource {
            args.push(("newOutputs", Type::map(Type::dynamic())));
        }
        let mut command_scope = scope.child();
        let _ = command_scope.define(
            "args",
            Definition::variable("args", Type::object(args)),
            false,
        );
        let valid: &[&str] = match kind {
            HookKind::Resource => &["command", "ignoreErrors", "onDryRun"],
            HookKind::Error => &["command"],
        };
        let mut node = HookNode {
            hook_kind: kind,
            command: None,
            on_dry_run: None,
            ignore_errors: None,
        };
        let mut later = Vec::new();
        for item in block.body().items() {
            match item.kind() {
                Item::Attribute(attr) if valid.contains(&attr.name()) => {
                    let s = if attr.name() == "command" {
                        &command_scope
                    } else {
                        &scope
                    };
                    let (value, diags) = self.bind(file, attr.expr(), s);
                    self.diags.extend(diags);
                    let dest = if attr.name() == "command" {
                        Type::list(Type::string())
                    } else {
                        Type::bool()
                    };
                    later.extend(self.check(file, &value, &self.input_type(&dest)));
                    match attr.name() {
                        "command" => node.command = Some(value),
                        "onDryRun" => node.on_dry_run = Some(value),
                        _ => node.ignore_errors = Some(value),
                    }
                }
                Item::Attribute(attr) => {
                    let (_, diags) = self.bind(file, attr.expr(), &scope);
                    self.diags.extend(diags);
                    later.push(unknown_hook_property(
                        file,
                        attr.name(),
                        attr.name_range(),
                        valid,
                    ));
                }
                Item::Block(b) => later.push(unknown_hook_property(
                    file,
                    b.type_name(),
                    b.type_range(),
                    valid,
                )),
            }
        }
        if node.command.is_none() {
            self.diags.push(
                Diagnostic::error(
                    codes::MISSING_HOOK_COMMAND,
                    Span::new(file, block.open_brace_range()),
                    "Missing required attribute",
                )
                .with_detail("Hook blocks must have a `command` attribute"),
            );
        }
        self.diags.extend(later);
        self.finish_node(idx, NodeKind::Hook(Box::new(node)), None);
    }

    pub(crate) fn bind_pulumi(&mut self, idx: usize, file: FileId, block: BlockRef<'_>) {
        let scope = self.scope.clone();
        let mut attributes = Vec::new();
        let mut unknown = Vec::new();
        unknown_attributes(
            file,
            block.body(),
            "pulumi",
            PULUMI_ATTRIBUTES,
            &mut unknown,
        );
        self.diags.extend(unknown);
        for attr in block.body().attributes() {
            let (value, diags) = self.bind(file, attr.expr(), &scope);
            self.diags.extend(diags);
            let mut expected = None;
            if attr.name() == "requiredVersionRange" {
                let dest = self.input_type(&Type::string());
                let diags = self.check(file, &value, &dest);
                self.diags.extend(diags);
                expected = Some(dest);
            }
            attributes.push(bound_attribute(file, attr, value, expected));
        }
        self.finish_node(idx, NodeKind::Pulumi(PulumiNode { attributes }), None);
    }
}

fn unknown_hook_property(
    file: FileId,
    name: &str,
    range: pcl_diagnostics::TextRange,
    valid: &[&str],
) -> Diagnostic {
    let mut d = Diagnostic::error(
        codes::UNKNOWN_HOOK_ATTRIBUTE,
        Span::new(file, range),
        format!("unknown property `{name}` among [{}]", valid.join(" ")),
    );
    let found = pcl_expr::suggest::candidates(name, valid.iter().copied());
    d = pcl_expr::suggest::attach(d, Span::new(file, range), &found);
    d
}
