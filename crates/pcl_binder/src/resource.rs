//! Binding `resource` and `read` blocks (binder.md §5.6): token resolution
//! against the schema, the `range` rule, body binding, input checking and
//! the options block.
//!
//! Decision on the QUIRK of §5.6.4 (mismatches reported only on
//! properties that are also outputs, with an empty summary): every input
//! property is checked, and the message names the resource, the property
//! and the first mismatching path with compact types. The corpus binds
//! cleanly with this rule (see `tests/corpus.rs`).

use std::sync::{Arc, OnceLock};

use pcl_diagnostics::{Diagnostic, FileId, Span, TextRange};
use pcl_expr::fit::{fit_diagnostics, Subject};
use pcl_expr::{suggest, BoundTree, Definition, Scope, Unresolved};
use pcl_schema::suggest::suggest_resources;
use pcl_schema::{decompose, Package};
use pcl_syntax::tree::{AttributeRef, BlockRef, Item};
use pcl_types::{
    collection_types, conversion_from, is_optional, resolve_outputs, unwrap_option,
    wrap_iterable_result_type, ConversionKind, Type, TypeKind,
};

use crate::blocks::bound_attribute;
use crate::codes;
use crate::model::{NodeKind, RangeKind, ResourceNode, ResourceOptions, SchemaResourceRef};
use crate::packages::string_literal;
use crate::program::{downgrade, ProgramBinder};

/// A resolved resource type.
struct Resolved {
    package: Arc<Package>,
    token: String,
    resource: Arc<pcl_schema::Resource>,
    schema_token: String,
}

/// What the `range` option makes of a resource or component.
pub(crate) struct RangeResult {
    pub var_type: Type,
    pub range_var: Option<Type>,
    pub kind: Option<RangeKind>,
}

pub(crate) fn first_options_block(block: BlockRef<'_>) -> Option<BlockRef<'_>> {
    block.body().blocks().find(|b| b.type_name() == "options")
}

pub(crate) fn range_attr(block: BlockRef<'_>) -> Option<AttributeRef<'_>> {
    first_options_block(block).and_then(|o| o.body().attributes().find(|a| a.name() == "range"))
}

/// The version the `version` option of a resource's (first) options block
/// pins, when it is a string literal holding a semantic version (the
/// reference reads it with `modelExprToString` in `getPkgOpts`). Anything
/// else pins nothing: the option's own check reports a non-string.
pub(crate) fn version_pin(block: BlockRef<'_>) -> Option<(semver::Version, TextRange)> {
    let attr = first_options_block(block)?
        .body()
        .attributes()
        .find(|a| a.name() == "version")?;
    let version = semver::Version::parse(string_literal(attr.expr())?).ok()?;
    Some((version, attr.expr().range()))
}

impl ProgramBinder<'_, '_> {
    fn resolve_resource(
        &mut self,
        file: FileId,
        token: &str,
        token_range: TextRange,
        read: bool,
        pinned: Option<&(semver::Version, TextRange)>,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Resolved, Box<Unresolved>> {
        let pin = pinned.map(|(v, _)| v);
        let span = Span::new(file, token_range);
        let skip = self.policy().skip_resource_typecheck;
        // Why the type did not resolve: reported (unless the policy
        // silences it) and kept on the node, with the severity it is
        // reported with (every resource problem is a warning under
        // SkipResourceTypechecking).
        let fail = |d: Diagnostic, report: bool, diags: &mut Vec<Diagnostic>| {
            let mut kept = d.clone();
            if skip {
                downgrade(std::slice::from_mut(&mut kept));
            }
            if report {
                diags.push(d);
            }
            Box::new(Unresolved::new(kept, report))
        };
        let parts = match decompose(token) {
            Ok(parts) => parts,
            Err(e) => {
                let d = Diagnostic::error(codes::MALFORMED_TOKEN, span, e.to_string());
                return Err(fail(d, true, diags));
            }
        };
        let is_provider = parts.package == "pulumi" && parts.module == "providers";
        if is_provider && read {
            let d = Diagnostic::error(
                codes::CANNOT_READ,
                span,
                format!("provider resources cannot be read: `{token}`"),
            );
            return Err(fail(d, true, diags));
        }
        let package_name = if is_provider {
            parts.member
        } else {
            parts.package
        };
        let package = match self.shared.schemas.load_pinned(package_name, pin) {
            Ok(p) => p,
            Err(e) => {
                let d = Diagnostic::new(
                    if skip {
                        pcl_diagnostics::Severity::Warning
                    } else {
                        pcl_diagnostics::Severity::Error
                    },
                    codes::UNKNOWN_PACKAGE,
                    span,
                    format!("unknown package `{package_name}`"),
                )
                .with_detail(e.to_string());
                let suggestions = self.shared.schemas.suggest_packages(package_name);
                let d = match (suggestions.as_slice(), e.help()) {
                    ([first, ..], _) => {
                        let list: Vec<String> =
                            suggestions.iter().map(|s| format!("`{s}`")).collect();
                        let d = d.with_help(format!("did you mean {}?", list.join(" or ")));
                        // The package's place in the token, when the label
                        // is the token as written, quoted.
                        let offset = if is_provider {
                            "pulumi:providers:".len()
                        } else {
                            0
                        };
                        let verbatim =
                            usize::try_from(token_range.len()).is_ok_and(|n| n == token.len() + 2);
                        if verbatim {
                            let start = token_range.start as usize + 1 + offset;
                            let range = TextRange::from_usize(start..start + package_name.len());
                            d.with_fix(Span::new(file, range), first.clone())
                        } else {
                            d
                        }
                    }
                    ([], Some(h)) => d.with_help(h),
                    ([], None) => d,
                };
                return Err(fail(d, true, diags));
            }
        };
        if let (Some((_, at)), Some(e)) =
            (pinned, self.shared.schemas.missing_pin(package_name, pin))
        {
            let mut d = Diagnostic::warning(
                codes::PINNED_VERSION_MISSING,
                Span::new(file, *at),
                format!(
                    "no schema for version {} of package `{package_name}`",
                    pin.map(ToString::to_string).unwrap_or_default()
                ),
            )
            .with_detail(format!(
                "{e}; the resource is checked against version {}",
                package
                    .version_text()
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            ));
            if let Some(help) = e.help() {
                d = d.with_help(help);
            }
            diags.push(d);
        }
        let found = match self.shared.schemas.lookup_resource(&package, token) {
            Ok(Some(found)) => found,
            Ok(None) => {
                let mut d = Diagnostic::error(
                    codes::UNKNOWN_RESOURCE_TYPE,
                    span,
                    format!("unknown resource type `{token}`"),
                );
                let candidates = suggest_resources(&package, token);
                let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
                d = suggest::attach_quoted(d, span, &refs);
                return Err(fail(d, !skip, diags));
            }
            Err(e) => {
                let d = Diagnostic::error(
                    codes::SCHEMA_ERROR,
                    span,
                    format!("error loading resource type `{token}`: {e}"),
                );
                return Err(fail(d, !skip, diags));
            }
        };
        if read && found.item.is_component {
            let d = Diagnostic::error(
                codes::CANNOT_READ,
                span,
                format!("component resources cannot be read: `{token}`"),
            );
            return Err(fail(d, true, diags));
        }
        // A provider keeps its token whole, as Pulumi's binder keeps it:
        // `pulumi:providers:<package>`, not the canonical form of that.
        let token = if is_provider {
            found.schema_token.clone()
        } else {
            found.bound_token.clone()
        };
        Ok(Resolved {
            package,
            token,
            schema_token: found.schema_token.clone(),
            resource: found.item,
        })
    }

    /// The `range` rule of §5.6.3 for a resource whose instance type is `r`.
    pub(crate) fn resource_range(
        &mut self,
        file: FileId,
        attr: Option<AttributeRef<'_>>,
        r: &Type,
        diags: &mut Vec<Diagnostic>,
    ) -> RangeResult {
        let Some(attr) = attr else {
            return RangeResult {
                var_type: r.clone(),
                range_var: None,
                kind: None,
            };
        };
        let scope = self.scope.clone();
        let (bound, _discarded) = self.bind(file, attr.expr(), &scope);
        let mut typ = resolve_outputs(bound.ty());
        if is_optional(&typ) {
            typ = unwrap_option(&typ);
        }
        if conversion_from(&self.input_type(&Type::bool()), &typ) == ConversionKind::Safe {
            let t = pcl_types::lift_operation_type(&Type::optional(r.clone()), [bound.ty()]);
            return RangeResult {
                var_type: t,
                range_var: None,
                kind: Some(RangeKind::Bool),
            };
        }
        if conversion_from(&self.input_type(&Type::number()), &typ) == ConversionKind::Safe {
            return RangeResult {
                var_type: Type::list(r.clone()),
                range_var: Some(Type::object([("value", Type::int())])),
                kind: Some(RangeKind::Count),
            };
        }
        let strict = !self.policy().skip_range_typecheck;
        let c = collection_types(&typ, strict);
        for d in c.diagnostics {
            diags.push(d.into_diagnostic(Span::new(file, attr.range())));
        }
        let range_var = Some(Type::object([
            ("key", c.key.clone()),
            ("value", c.value.clone()),
        ]));
        if c.key == Type::string() {
            RangeResult {
                var_type: wrap_iterable_result_type(bound.ty(), &Type::map(r.clone())),
                range_var,
                kind: Some(RangeKind::Map {
                    key: c.key,
                    value: c.value,
                }),
            }
        } else {
            RangeResult {
                var_type: wrap_iterable_result_type(bound.ty(), &Type::list(r.clone())),
                range_var,
                kind: Some(RangeKind::List {
                    key: c.key,
                    value: c.value,
                }),
            }
        }
    }

    /// `package.version()` as text (the package formats it once).
    fn package_version(&self, package: &Arc<Package>) -> Option<String> {
        package.version_text().map(|v| v.to_string())
    }

    pub(crate) fn bind_resource(
        &mut self,
        idx: usize,
        file: FileId,
        block: BlockRef<'_>,
        read: bool,
    ) {
        let skip = self.policy().skip_resource_typecheck;
        let mut diags = Vec::new();
        // Without a type token (a `block-labels` error already) the
        // resource is dynamic: its body is still bound, nothing is checked
        // against a schema.
        let (written, resolved) = match block.labels().get(1) {
            Some(token_label) => {
                let written = token_label.value().to_owned();
                let pin = version_pin(block);
                let resolved = self.resolve_resource(
                    file,
                    &written,
                    token_label.range(),
                    read,
                    pin.as_ref(),
                    &mut diags,
                );
                (written, Some(resolved))
            }
            None => (String::new(), None),
        };
        let had_schema = matches!(resolved, Some(Ok(_)));
        let mut unresolved = None;
        let (input_type_, output_type, schema, token) = match resolved {
            Some(Ok(r)) => {
                let types = self
                    .shared
                    .schemas
                    .resource_types(&r.package, &r.resource, read);
                let schema = SchemaResourceRef {
                    package: r.package.name().to_string(),
                    package_version: self.package_version(&r.package),
                    schema_token: r.schema_token,
                    is_provider: r.resource.is_provider,
                    is_component: r.resource.is_component,
                };
                (types.input, types.output, Some(schema), r.token)
            }
            Some(Err(why)) => {
                unresolved = Some(why);
                (Type::dynamic(), Type::dynamic(), None, written.clone())
            }
            None => (Type::dynamic(), Type::dynamic(), None, written.clone()),
        };
        let range = self.resource_range(file, range_attr(block), &output_type, &mut diags);
        self.set_type(idx, range.var_type.clone());
        let mut scope = self.scope.clone();
        if let Some(rv) = &range.range_var {
            scope = scope.child();
            let _ = scope.define("range", Definition::variable("range", rv.clone()), false);
        }
        // Body.
        let mut body_diags = Vec::new();
        let mut structural = Vec::new();
        // Sized for the body's items (attributes, mostly), not grown.
        let mut inputs = Vec::with_capacity(block.body().items().len());
        let mut logical_name = None;
        let mut options_block: Option<BlockRef<'_>> = None;
        for item in block.body().items() {
            match item.kind() {
                Item::Attribute(attr) => {
                    let (value, d) = self.bind(file, attr.expr(), &scope);
                    body_diags.extend(d);
                    if attr.name() == "__logicalName" {
                        match string_literal(attr.expr()) {
                            Some(s) => logical_name = Some(s.to_string()),
                            None => structural.push(Diagnostic::error(
                                codes::LITERAL_REQUIRED,
                                Span::new(file, attr.expr().range()),
                                "attribute __logicalName must be a string literal",
                            )),
                        }
                        continue;
                    }
                    inputs.push((attr, value));
                }
                Item::Block(b) if b.type_name() == "options" => {
                    if options_block.is_some() {
                        structural.push(Diagnostic::error(
                            codes::DUPLICATE_BLOCK,
                            Span::new(file, b.type_range()),
                            "duplicate block of type `options`",
                        ));
                    } else {
                        options_block = Some(b);
                    }
                }
                Item::Block(b) => structural.push(Diagnostic::error(
                    codes::UNSUPPORTED_BLOCK,
                    Span::new(file, b.type_range()),
                    format!("unsupported block of type `{}`", b.type_name()),
                )),
            }
        }
        if skip {
            downgrade(&mut body_diags);
        }
        diags.extend(body_diags);
        diags.extend(structural);
        // Attribute checks.
        let name = self.node_name(idx);
        let mut checks = Vec::new();
        let mut bound_inputs = Vec::with_capacity(inputs.len());
        let props = input_type_.as_object().map(|o| o.properties());
        let set_names: Vec<&str> = inputs.iter().map(|(a, _)| a.name()).collect();
        // Required properties an unsupported attribute stands for.
        let mut accounted: Vec<String> = Vec::new();
        for (attr, value) in inputs {
            let mut expected = None;
            if let Some(props) = &props {
                match props.get(attr.name()) {
                    None => {
                        let names: Vec<&str> = props.keys().map(|k| k.as_ref()).collect();
                        let mut d = Diagnostic::error(
                            codes::UNSUPPORTED_ATTRIBUTE,
                            Span::new(file, attr.name_range()),
                            format!("unsupported attribute `{}`", attr.name()),
                        );
                        if had_schema {
                            d = d.with_detail(format!(
                                "resource type `{written}` has no input property `{}`",
                                attr.name()
                            ));
                        }
                        let hits = suggest::candidates(attr.name(), names.iter().copied());
                        // A misspelling of a required property that is not
                        // written: this diagnostic says so, and the
                        // property is not reported missing as well.
                        let stands_for = hits.first().copied().filter(|b| {
                            !set_names.contains(b) && props.get(*b).is_some_and(required_input)
                        });
                        if let Some(b) = stands_for {
                            d = d.with_help(format!(
                                "did you mean `{b}`? `{b}` is required and not set"
                            ));
                            accounted.push(b.to_string());
                            for hit in &hits {
                                d = d.with_fix(Span::new(file, attr.name_range()), *hit);
                            }
                        } else {
                            d = suggest::attach(d, Span::new(file, attr.name_range()), &hits);
                        }
                        checks.push(d);
                    }
                    Some(prop_ty) => {
                        let fit = fit_diagnostics(
                            prop_ty,
                            value.root(),
                            Subject {
                                noun: "property",
                                name: attr.name(),
                                mismatch: codes::ATTRIBUTE_TYPE_MISMATCH,
                            },
                            &|r| Span::new(file, r),
                        );
                        // A constant that converts only unsafely may still
                        // never convert (a warning).
                        if !fit.iter().any(Diagnostic::is_error) {
                            checks.extend(pcl_expr::constant::never_converts(
                                codes::CONSTANT_NEVER_CONVERTS,
                                value.root(),
                                prop_ty,
                                "property",
                                attr.name(),
                                &|r| Span::new(file, r),
                            ));
                        }
                        checks.extend(fit);
                        expected = Some(prop_ty.clone());
                    }
                }
            }
            bound_inputs.push(bound_attribute(file, attr, value, expected));
        }
        if let Some(props) = props {
            for (prop, ty) in props.iter() {
                let provided = bound_inputs.iter().any(|a| a.name == prop.as_ref());
                if provided || !required_input(ty) || accounted.iter().any(|a| a == prop.as_ref()) {
                    continue;
                }
                checks.push(
                    Diagnostic::error(
                        codes::MISSING_REQUIRED_ATTRIBUTE,
                        Span::new(file, block.open_brace_range()),
                        format!("missing required attribute `{prop}`"),
                    )
                    .with_detail(format!(
                        "resource `{name}` (`{written}`) requires `{prop}` of type {}",
                        pcl_types::expected_text(ty)
                    )),
                );
            }
        }
        if skip {
            downgrade(&mut checks);
        }
        diags.extend(checks);
        let options =
            options_block.map(|b| self.bind_options(file, b, Some(&input_type_), &mut diags));
        if skip {
            // Every error from binding the block, its `options` and `range`
            // included, is a warning under SkipResourceTypechecking.
            downgrade(&mut diags);
        }
        self.diags.extend(diags);
        let node = ResourceNode {
            read,
            written_token: written,
            token,
            schema,
            input_type: input_type_,
            output_type,
            inputs: bound_inputs,
            options,
            range: range.kind,
            unresolved,
        };
        self.finish_node(idx, NodeKind::Resource(Box::new(node)), logical_name);
    }

    /// Binds an `options` block (§5.8). `inputs` is the resource's input
    /// type (for the property-list options); `None` for components.
    pub(crate) fn bind_options(
        &mut self,
        file: FileId,
        block: BlockRef<'_>,
        inputs: Option<&Type>,
        diags: &mut Vec<Diagnostic>,
    ) -> ResourceOptions {
        let scope = self.scope.clone();
        // The scope of the property-list options (`ignoreChanges`, …): the
        // resource's input properties, built when such an option is met.
        let mut property_scope: Option<Scope> = None;
        let make_property_scope = || {
            let mut property_scope = Scope::empty();
            if let Some(props) = inputs.and_then(|t| t.as_object()) {
                for (name, ty) in props.properties().iter() {
                    let _ = property_scope.define(
                        name.to_string(),
                        Definition::resource_property(name.to_string(), ty.clone()),
                        false,
                    );
                }
            }
            property_scope
        };
        let mut out = ResourceOptions {
            span: Some(Span::new(file, block.range())),
            attributes: Vec::new(),
        };
        for item in block.body().items() {
            let attr = match item.kind() {
                Item::Attribute(a) => a,
                Item::Block(b) => {
                    diags.push(Diagnostic::error(
                        codes::UNSUPPORTED_BLOCK,
                        Span::new(file, b.type_range()),
                        format!("unsupported block of type `{}`", b.type_name()),
                    ));
                    continue;
                }
            };
            let is_property_list = crate::deps::PROPERTY_LIST_OPTIONS.contains(&attr.name());
            let bind_scope = if is_property_list && inputs.is_some() {
                &*property_scope.get_or_insert_with(make_property_scope)
            } else {
                &scope
            };
            let (value, d) = self.bind(file, attr.expr(), bind_scope);
            diags.extend(d);
            let dest = match option_type(attr.name()) {
                Some(t) => t,
                None if attr.name() == "hooks" => {
                    self.check_hooks(file, attr, &value, diags);
                    out.attributes
                        .push(bound_attribute(file, attr, value, None));
                    continue;
                }
                None => {
                    let known = OPTION_NAMES;
                    let mut d = Diagnostic::error(
                        codes::UNSUPPORTED_ATTRIBUTE,
                        Span::new(file, attr.name_range()),
                        format!("unsupported attribute `{}`", attr.name()),
                    );
                    d = suggest::attach(
                        d,
                        Span::new(file, attr.name_range()),
                        &suggest::candidates(attr.name(), known.iter().copied()),
                    );
                    diags.push(d);
                    out.attributes
                        .push(bound_attribute(file, attr, value, None));
                    continue;
                }
            };
            let mut found = self.check_assignment(file, &value, &dest, "option", attr.name());
            if is_property_list {
                // `ignoreChanges = ["name"]`: the property is named, not quoted.
                for d in &mut found {
                    let quoted = match value.strip_parens().kind() {
                        pcl_expr::BoundExprKind::Tuple(items) => items
                            .iter()
                            .find(|i| i.range() == d.span.range)
                            .and_then(|i| i.literal_string()),
                        _ => None,
                    };
                    if let Some(name) = quoted {
                        d.add_help(format!("name the input property without quotes: `{name}`"));
                    }
                }
            }
            diags.extend(found);
            let dest = self.input_type(&dest);
            out.attributes
                .push(bound_attribute(file, attr, value, Some(dest)));
        }
        out
    }

    fn check_hooks(
        &self,
        file: FileId,
        attr: AttributeRef<'_>,
        value: &BoundTree,
        diags: &mut Vec<Diagnostic>,
    ) {
        use pcl_expr::BoundExprKind;
        use pcl_syntax::tree::ExprKind;
        let bad = |range: TextRange| {
            Diagnostic::error(
                codes::INVALID_HOOKS_OPTION,
                Span::new(file, range),
                "hooks option must be an object mapping hook names to lists of hook references",
            )
        };
        let ExprKind::Object(items) = attr.expr().kind() else {
            diags.push(bad(attr.expr().range()));
            return;
        };
        let bound_items = match value.strip_parens().kind() {
            BoundExprKind::Object(items) => Some(items),
            _ => None,
        };
        const HOOK_NAMES: [&str; 7] = [
            "beforeCreate",
            "afterCreate",
            "beforeUpdate",
            "afterUpdate",
            "beforeDelete",
            "afterDelete",
            "onError",
        ];
        for (i, item) in items.iter().enumerate() {
            let key = item.bare_key().or_else(|| string_literal(item.key()));
            let Some(key) = key else { continue };
            if !HOOK_NAMES.contains(&key) {
                let mut d = Diagnostic::error(
                    codes::UNKNOWN_HOOK_NAME,
                    Span::new(file, item.key().range()),
                    format!("unknown hook name `{key}`"),
                );
                let found = suggest::candidates(key, HOOK_NAMES.iter().copied());
                let at = Span::new(file, item.key().range());
                d = if item.bare_key().is_some() {
                    suggest::attach(d, at, &found)
                } else {
                    suggest::attach_quoted(d, at, &found)
                };
                diags.push(d);
                continue;
            }
            let ExprKind::Tuple(_) = item.value().kind() else {
                diags.push(bad(item.value().range()));
                continue;
            };
            let Some((_, bound_value)) = bound_items.and_then(|items| items.get(i)) else {
                continue;
            };
            let BoundExprKind::Tuple(elements) = bound_value.strip_parens().kind() else {
                continue;
            };
            for element in elements {
                let BoundExprKind::ScopeTraversal(traversal) = element.strip_parens().kind() else {
                    continue;
                };
                let (Some(Definition::Node(id)), root) = (&traversal.definition, &traversal.root)
                else {
                    continue;
                };
                let Some(decl) = self.decls.get(id.0 as usize) else {
                    continue;
                };
                let crate::program::DeclKind::Hook(kind) = decl.kind else {
                    continue;
                };
                let wanted = if key == "onError" {
                    crate::model::HookKind::Error
                } else {
                    crate::model::HookKind::Resource
                };
                if kind != wanted {
                    let kind_name = match kind {
                        crate::model::HookKind::Resource => "resource",
                        crate::model::HookKind::Error => "error",
                    };
                    diags.push(Diagnostic::error(
                        codes::HOOK_KIND_MISMATCH,
                        Span::new(file, element.range()),
                        format!("cannot bind {kind_name} hook `{root}` to `{key}`"),
                    ));
                }
            }
        }
    }
}

/// The names a resource's `options { }` block accepts.
pub const OPTION_NAMES: &[&str] = &[
    "aliases",
    "range",
    "parent",
    "provider",
    "deletedWith",
    "providers",
    "dependsOn",
    "replaceWith",
    "protect",
    "retainOnDelete",
    "deleteBeforeReplace",
    "ignoreChanges",
    "hideDiffs",
    "replaceOnChanges",
    "additionalSecretOutputs",
    "version",
    "pluginDownloadURL",
    "import",
    "customTimeouts",
    "replacementTrigger",
    "envVarMappings",
    "hooks",
];

/// The type an option's value must convert to (§5.8); `None` for `hooks`
/// (checked structurally) and unknown options. Built once per process, so
/// that each option's type is one node whose input type the check's
/// [`pcl_types::InputTypeMemo`] computes once.
fn option_type(name: &str) -> Option<Type> {
    static TYPES: OnceLock<Vec<(&'static str, Option<Type>)>> = OnceLock::new();
    let types = TYPES.get_or_init(|| {
        OPTION_NAMES
            .iter()
            .map(|n| (*n, build_option_type(n)))
            .collect()
    });
    match types.iter().find(|(n, _)| *n == name) {
        Some((_, t)) => t.clone(),
        None => build_option_type(name),
    }
}

fn build_option_type(name: &str) -> Option<Type> {
    let opt_str = || Type::optional(Type::string());
    Some(match name {
        "aliases" => Type::list(Type::union([
            Type::string(),
            Type::object([
                ("name", opt_str()),
                ("type", opt_str()),
                ("noParent", Type::optional(Type::bool())),
                ("parent", Type::optional(Type::dynamic())),
            ]),
        ])),
        "range" => Type::union([
            Type::bool(),
            Type::number(),
            Type::list(Type::dynamic()),
            Type::map(Type::dynamic()),
        ]),
        "parent" | "provider" | "deletedWith" | "replacementTrigger" => Type::dynamic(),
        "providers" => Type::union([Type::map(Type::dynamic()), Type::list(Type::dynamic())]),
        "dependsOn" | "replaceWith" => Type::list(Type::dynamic()),
        "protect" | "retainOnDelete" | "deleteBeforeReplace" => Type::bool(),
        "ignoreChanges" | "hideDiffs" | "replaceOnChanges" | "additionalSecretOutputs" => {
            Type::list(Type::opaque("Property"))
        }
        "version" | "pluginDownloadURL" | "import" => Type::string(),
        "customTimeouts" => Type::object([
            ("create", opt_str()),
            ("update", opt_str()),
            ("delete", opt_str()),
            ("read", opt_str()),
        ]),
        "envVarMappings" => Type::map(Type::string()),
        _ => return None,
    })
}

/// True for an input property a resource must set: not optional, not a
/// constant, not `dynamic`.
fn required_input(ty: &Type) -> bool {
    !(is_optional(ty) || matches!(ty.kind(), TypeKind::Const(_)) || ty.is_dynamic())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use pcl_diagnostics::Diagnostic;
    use pcl_schema::DirLoader;

    use crate::{check_program, BindPolicy};

    /// The diagnostics of a one-file program against the fixture schemas.
    fn check(text: &str) -> Vec<Diagnostic> {
        let schemas =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/schemas");
        let loader = DirLoader::new([schemas]);
        let sources = vec![("main.pp".to_string(), text.to_string())];
        check_program(&sources, &loader, &BindPolicy::strict())
            .diagnostics()
            .to_vec()
    }

    /// `(code, replaced text, replacement)` of every fix.
    fn fixes<'a>(text: &'a str, ds: &'a [Diagnostic]) -> Vec<(&'a str, &'a str, &'a str)> {
        ds.iter()
            .flat_map(|d| {
                d.fixes().iter().map(move |f| {
                    let r = f.span.range;
                    (
                        d.code.as_str(),
                        text.get(r.start as usize..r.end as usize).unwrap_or("?"),
                        f.replacement.as_str(),
                    )
                })
            })
            .collect()
    }

    #[test]
    fn did_you_means_carry_fixes() {
        let text = r#"resource w "tiny:index:Widgte" {}
resource g "tiny:index:Widget" {
  nmae = "x"
  kind = "widget"
  options {
    protekt = true
  }
}
hook resource h {
  command = ["true"]
}
resource k "tiny:index:Widget" {
  name = "k"
  kind = "widget"
  options {
    hooks = { beforeCreat = [h], "afterCreat" = [h] }
  }
}
got = invoke("tiny:index:getWidgte", { name = "x" })
n = lenght([1])
m = lenght(regoin)
region = "x"
d = call(k, "describ", {})
v = k.arnn
v2 = k["nmae"]
hook resource h2 {
  command = ["true"]
  comand = ["true"]
}
"#;
        let ds = check(text);
        let got = fixes(text, &ds);
        for want in [
            (
                "unknown-resource-type",
                "\"tiny:index:Widgte\"",
                "\"tiny:index:Widget\"",
            ),
            ("unsupported-attribute", "nmae", "name"),
            ("unsupported-attribute", "protekt", "protect"),
            ("unknown-hook-name", "beforeCreat", "beforeCreate"),
            ("unknown-hook-name", "\"afterCreat\"", "\"afterCreate\""),
            ("unknown-function", "lenght", "length"),
            ("undefined-variable", "regoin", "region"),
            (
                "unknown-function",
                "\"tiny:index:getWidgte\"",
                "\"tiny:index:getWidget\"",
            ),
            ("unknown-method", "\"describ\"", "\"describe\""),
            ("unknown-property", "arnn", "arn"),
            ("unknown-property", "[\"nmae\"]", "[\"name\"]"),
            ("unknown-hook-attribute", "comand", "command"),
        ] {
            assert!(got.contains(&want), "no fix {want:?} in {got:?}");
        }
        // `nmae` stands for the required `name`: one diagnostic, not two.
        assert!(
            !ds.iter()
                .any(|d| d.summary == "missing required attribute `name`"),
            "{ds:?}"
        );
    }
}
