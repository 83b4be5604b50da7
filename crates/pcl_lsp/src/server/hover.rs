//! Hover: what the cursor is on, in Markdown. A resource input's name (or
//! a key of an object nested in one, at any depth) shows the property as
//! the schema declares it (`crate::schema_path`: its type in PCL's words,
//! required or optional, its description); another attribute name the
//! type it is checked against; an `invoke` its function; an expression
//! its type (and a referenced config's description); a declaration's name
//! its kind, type or resource token. Within a diagnostic's range the
//! hover adds the code's explanation (`pcl explain`'s text).

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};
use pcl_binder::{BoundAttribute, NodeKind};
use pcl_diagnostics::Span;
use pcl_expr::BoundExprKind;
use pcl_schema::SchemaLoader;

use super::analysis::Analysis;
use super::navigation::Target;
use super::Server;
use crate::walk::{contains, for_each_expr, innermost_expr, innermost_node, node_attributes};

impl Server {
    /// Hover at the cursor: what it is on (below), then the explanation
    /// (`pcl explain`) of each diagnostic whose range holds the cursor.
    pub(super) fn hover(&self, p: &lsp_types::HoverParams) -> Option<Hover> {
        let tdp = &p.text_document_position_params;
        let (a, file) = self.find(&tdp.text_document.uri)?;
        let offset = a.offset(file, tdp.position, self.encoding);
        let found = self.hover_at(p, a, file, offset);
        let mut codes: Vec<&str> = Vec::new();
        for d in &a.diagnostics {
            if d.span.file == file
                && contains(d.span.range, offset)
                && !codes.contains(&d.code.as_str())
            {
                codes.push(d.code.as_str());
            }
        }
        let explained: Vec<String> = codes
            .iter()
            .filter_map(|c| pcl_diagnostics::catalogue::lookup(c))
            .map(|e| {
                format!(
                    "`pcl explain {}`\n\n{}",
                    e.code,
                    pcl_diagnostics::catalogue::explain(e)
                )
            })
            .collect();
        let (mut markdown, range) = match found {
            Some((text, range)) => (text, Some(range)),
            None if !explained.is_empty() => (String::new(), None),
            None => return None,
        };
        for e in explained {
            if !markdown.is_empty() {
                markdown.push_str("\n\n---\n\n");
            }
            markdown.push_str(&e);
        }
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }),
            range,
        })
    }

    /// What the cursor is on, and the range it covers.
    fn hover_at(
        &self,
        p: &lsp_types::HoverParams,
        a: &Analysis,
        file: pcl_diagnostics::FileId,
        offset: usize,
    ) -> Option<(String, lsp_types::Range)> {
        let tdp = &p.text_document_position_params;
        let program = a.checked.value();
        let node = innermost_node(program, file, offset)?;
        let schema = match &node.kind {
            NodeKind::Resource(r) => r.schema.as_ref().and_then(|s| Self::schema_resource(a, s)),
            _ => None,
        };
        let inputs: &[BoundAttribute] = match &node.kind {
            NodeKind::Resource(r) => &r.inputs,
            _ => &[],
        };
        let mut markdown = None;
        let mut range = None;
        if let NodeKind::Component(c) = &node.kind {
            if let Some((text, r)) = component_input_hover(c, offset) {
                return Some((text, a.range(Span::new(file, r), self.encoding)));
            }
        }
        // An attribute name: the property it sets, its expected type and,
        // for a resource input, what the schema says of it.
        for attr in node_attributes(&node.kind) {
            if contains(attr.name_span.range, offset) {
                let is_input = inputs.iter().any(|i| std::ptr::eq(i, attr));
                let prop = schema
                    .as_ref()
                    .filter(|_| is_input)
                    .and_then(|r| r.input(&attr.name));
                let text = match prop {
                    // The schema's type, in its plain shape: `int`, not
                    // the input's `union(int, output(int))`.
                    Some(prop) => crate::schema_path::describe(&attr.name, &prop.ty, Some(prop)),
                    None => {
                        let ty = attr.expected.as_ref().unwrap_or(attr.value.ty());
                        format!("```pcl\n{}: {}\n```", attr.name, ty)
                    }
                };
                markdown = Some(text);
                range = Some(a.range(attr.name_span, self.encoding));
            }
        }
        // A key of an object written for a resource input, at any depth:
        // the nested property it sets, as the schema describes it.
        if markdown.is_none() {
            if let NodeKind::Resource(r) = &node.kind {
                if let Some((text, key_range)) = r
                    .schema
                    .as_ref()
                    .and_then(|s| nested_property_hover(a, s, inputs, offset))
                {
                    markdown = Some(text);
                    range = Some(a.range(Span::new(file, key_range), self.encoding));
                }
            }
        }
        if markdown.is_none() {
            if let Some((text, r)) = invoke_key_hover(a, node, offset) {
                markdown = Some(text);
                range = Some(a.range(Span::new(file, r), self.encoding));
            }
        }
        if markdown.is_none() {
            if let Some((text, r)) = Self::invoke_hover(a, node, offset) {
                markdown = Some(text);
                range = Some(a.range(Span::new(file, r), self.encoding));
            }
        }
        if markdown.is_none() {
            if let Some((ty, r)) = innermost_expr(node, offset) {
                let mut text = format!("```pcl\n{ty}\n```");
                // A reference to a config: what its declaration says.
                let referenced = self
                    .target(tdp)
                    .and_then(|(_, target)| match target {
                        Target::Node(id) => program.node(id),
                        _ => None,
                    })
                    .filter(|n| n.id != node.id);
                if let Some(described) = referenced.and_then(|n| config_description(&n.kind)) {
                    text.push_str("\n\n");
                    text.push_str(described);
                }
                markdown = Some(text);
                range = Some(a.range(Span::new(file, r), self.encoding));
            }
        }
        if markdown.is_none() {
            let mut text = format!(
                "```pcl\n{} {}: {}\n```",
                node.kind_name(),
                node.name,
                node.ty
            );
            if let NodeKind::Resource(r) = &node.kind {
                text = format!(
                    "```pcl\n{} {} \"{}\"\n```",
                    node.kind_name(),
                    node.name,
                    r.token
                );
                if let Some(s) = &r.schema {
                    let version = s.package_version.as_deref().unwrap_or("unversioned");
                    text.push_str(&format!(
                        "\n\nschema token `{}` (package `{}` {version})",
                        s.schema_token, s.package
                    ));
                }
                if let Some(d) = schema.as_ref().and_then(|r| r.description.as_ref()) {
                    text.push_str("\n\n");
                    text.push_str(d);
                }
            }
            if let Some(described) = config_description(&node.kind) {
                text.push_str("\n\n");
                text.push_str(described);
            }
            markdown = Some(text);
            range = Some(a.range(node.name_span, self.encoding));
        }
        Some((markdown?, range?))
    }

    /// On an `invoke` call's name or token: the function's token, its
    /// signature as checked, its description and its inputs with required
    /// markers and descriptions.
    fn invoke_hover(
        a: &Analysis,
        node: &pcl_binder::Node,
        offset: usize,
    ) -> Option<(String, pcl_diagnostics::TextRange)> {
        let mut found = None;
        for_each_expr(node, |e| {
            if let BoundExprKind::Call(call) = e.kind() {
                let on_token = call
                    .args
                    .first()
                    .is_some_and(|t| contains(t.range(), offset));
                if call.name == "invoke" && (contains(call.name_range, offset) || on_token) {
                    found = Some(call);
                }
            }
        });
        let call = found?;
        let token = call.invoke_token?;
        let range = match call.args.first() {
            Some(t) if contains(t.range(), offset) => t.range(),
            _ => call.name_range,
        };
        let mut text = format!("```pcl\ninvoke(\"{token}\")\n{}\n```", call.signature);
        let package = token.split(':').next().unwrap_or("");
        let request = pcl_schema::PackageDescriptor::new(package.to_string());
        let function = a
            .profile
            .schemas
            .load(&request)
            .ok()
            .and_then(|p| p.lookup_function(token).ok().flatten());
        if let Some(found) = function {
            let f = &found.item;
            text.push_str(&format!("\n\nschema token `{}`", found.schema_token));
            if let Some(d) = &f.description {
                text.push_str("\n\n");
                text.push_str(d);
            }
            if let Some(inputs) = &f.inputs {
                text.push_str("\n\ninputs:");
                for prop in inputs.properties.values() {
                    let need = if prop.required {
                        "required"
                    } else {
                        "optional"
                    };
                    text.push_str(&format!("\n- `{}` ({need})", prop.name));
                    if let Some(d) = prop.description.as_deref().and_then(|d| d.lines().next()) {
                        text.push_str(": ");
                        text.push_str(d);
                    }
                }
            }
        }
        Some((text, range))
    }

    /// The schema of a resolved resource (loaded already by the check).
    fn schema_resource(
        a: &Analysis,
        s: &pcl_binder::SchemaResourceRef,
    ) -> Option<std::sync::Arc<pcl_schema::Resource>> {
        let request = pcl_schema::PackageDescriptor::new(s.package.clone());
        let package = a.profile.schemas.load(&request).ok()?;
        package.resource(&s.schema_token)?.ok()
    }
}

/// The object key under `offset` inside the value of one of `inputs`, with
/// the path of keys from the input's name down to it (list elements are
/// passed through).
fn key_path(
    inputs: &[BoundAttribute],
    offset: usize,
) -> Option<(Vec<String>, pcl_diagnostics::TextRange)> {
    let attr = inputs.iter().find(|a| contains(a.value.range(), offset))?;
    let (mut path, range) = keys_to(attr.value.root(), offset)?;
    path.insert(0, attr.name.to_string());
    Some((path, range))
}

/// The path of keys from `root` down to the object key under `offset`,
/// and that key's range; the walk follows the one child containing
/// `offset` at each level, so it is as deep as the expression, without
/// recursion.
fn keys_to(
    root: pcl_expr::BoundRef<'_>,
    offset: usize,
) -> Option<(Vec<String>, pcl_diagnostics::TextRange)> {
    let mut path = Vec::new();
    let mut here = root;
    loop {
        match here.kind() {
            BoundExprKind::Object(items) => {
                let (key, value) = items
                    .iter()
                    .find(|(k, v)| contains(k.range(), offset) || contains(v.range(), offset))?;
                path.push(object_key(key)?);
                if contains(key.range(), offset) {
                    return Some((path, key.range()));
                }
                here = value;
            }
            BoundExprKind::Tuple(elements) => {
                here = elements.iter().find(|e| contains(e.range(), offset))?;
            }
            _ => return None,
        }
    }
}

/// A key of the argument object of an `invoke` under `offset`, at any
/// depth: the function input it sets, as the schema describes it.
fn invoke_key_hover(
    a: &Analysis,
    node: &pcl_binder::Node,
    offset: usize,
) -> Option<(String, pcl_diagnostics::TextRange)> {
    // The innermost invoke whose argument object holds the cursor.
    let mut found: Option<(String, pcl_expr::BoundRef<'_>)> = None;
    for_each_expr(node, |e| {
        if let BoundExprKind::Call(call) = e.kind() {
            let arg = call.args.iter().nth(1);
            if let (Some(token), Some(arg)) = (call.invoke_token, arg) {
                let inner = found
                    .as_ref()
                    .is_none_or(|(_, f)| arg.range().len() < f.range().len());
                if call.name == "invoke" && contains(arg.range(), offset) && inner {
                    found = Some((token.to_string(), arg));
                }
            }
        }
    });
    let (token, arg) = found?;
    let (path, key_range) = keys_to(arg, offset)?;
    let (package, _) = token.split_once(':')?;
    let loader: &dyn SchemaLoader = &a.profile.schemas;
    let loaded = loader
        .load(&pcl_schema::PackageDescriptor::new(package))
        .ok()?;
    let function = loaded.lookup_function(&token).ok()??.item;
    let inputs = function.inputs.as_ref()?;
    let found = crate::schema_path::property_at(&loaded, |k| inputs.property(k), &path, loader)?;
    let name = path.last()?;
    Some((
        crate::schema_path::describe(name, &found.ty, found.property.as_ref()),
        key_range,
    ))
}

/// A component input's name, or a key of an object written for one at
/// any depth: the type its config declares (or the type at that key, in
/// PCL's words) and the config's description.
fn component_input_hover(
    c: &pcl_binder::ComponentNode,
    offset: usize,
) -> Option<(String, pcl_diagnostics::TextRange)> {
    let program = c.program.as_ref()?;
    let config = |name: &str| {
        program.nodes().iter().find_map(|n| match &n.kind {
            NodeKind::Config(config) if n.name.as_str() == name => Some((n, config)),
            _ => None,
        })
    };
    if let Some(attr) = c
        .inputs
        .iter()
        .find(|a| contains(a.name_span.range, offset))
    {
        let (n, config) = config(&attr.name)?;
        let ty = config
            .type_label
            .clone()
            .unwrap_or_else(|| crate::members::plain_type(&n.ty));
        let mut text = format!("```pcl\n{}: {ty}\n```\n\ncomponent input", attr.name);
        if let Some(d) = &config.description {
            text.push_str("\n\n");
            text.push_str(d);
        }
        return Some((text, attr.name_span.range));
    }
    let (path, key_range) = key_path(&c.inputs, offset)?;
    let (first, rest) = path.split_first()?;
    let (n, _) = config(first)?;
    let steps: Vec<crate::context::Step> = rest
        .iter()
        .map(|k| crate::context::Step::Attr(k.clone()))
        .collect();
    let ty = crate::members::walk(&n.ty, &steps, true)?;
    let name = path.last()?;
    Some((
        format!("```pcl\n{name}: {}\n```", crate::members::plain_type(&ty)),
        key_range,
    ))
}

/// The text of a literal object key (`name` or `"name"`).
fn object_key(key: pcl_expr::BoundRef<'_>) -> Option<String> {
    match key.kind() {
        BoundExprKind::Literal(pcl_types::Value::String(s)) => Some(s.to_string()),
        BoundExprKind::Template(parts) => object_key(parts.only()?),
        _ => None,
    }
}

/// Hover for a nested key: the schema property it names, found by
/// following `path` from the resource input through objects (named
/// types, also in other packages), lists, maps and unions.
fn nested_property_hover(
    a: &Analysis,
    s: &pcl_binder::SchemaResourceRef,
    inputs: &[BoundAttribute],
    offset: usize,
) -> Option<(String, pcl_diagnostics::TextRange)> {
    let (path, key_range) = key_path(inputs, offset)?;
    let request = pcl_schema::PackageDescriptor::new(s.package.clone());
    let package = a.profile.schemas.load(&request).ok()?;
    let resource = package.resource(&s.schema_token)?.ok()?;
    let loader: &dyn SchemaLoader = &a.profile.schemas;
    let found = crate::schema_path::property_at(&package, |k| resource.input(k), &path, loader)?;
    let name = path.last()?;
    let text = crate::schema_path::describe(name, &found.ty, found.property.as_ref());
    Some((text, key_range))
}

/// The `description` of a config.
fn config_description(kind: &NodeKind) -> Option<&str> {
    match kind {
        NodeKind::Config(c) => c.description.as_deref(),
        _ => None,
    }
}
