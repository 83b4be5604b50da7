//! Binding `component` blocks (binder.md §5.7): a sub-program in a
//! directory, bound with the same policy and schema cache, whose configs
//! are the component's inputs and whose outputs are its attributes.
//!
//! Component sources are resolved by the [`crate::FileProvider`] to a
//! directory key (symbolic links resolved on disk) and must stay within the
//! root (leaving it is a `component-outside-root` error); a component whose
//! source is its own program's directory, or one of the directories being
//! bound, is a `component-cycle` error instead of an endless recursion;
//! nesting is limited by `BindPolicy::max_component_depth`. Each directory
//! is bound once per check, by key, and shared between the components that
//! use it, however they spell it. The `.pp` files of a component directory
//! that are not UTF-8, not readable regular files or outside the root are
//! reported as in the main program, and the rest is checked.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use pcl_diagnostics::suggest::did_you_mean;
use pcl_diagnostics::{Diagnostic, FileId, SourceMap, Span};
use pcl_expr::Definition;
use pcl_syntax::tree::{BlockRef, Item};
use pcl_types::{collection_types, conversion_from, ConversionKind, Type};

use crate::blocks::bound_attribute;
use crate::codes;
use crate::files::{relative_key, ResolveError, ROOT_RULE};
use crate::model::{ComponentNode, NodeKind, Program, RangeKind};
use crate::packages::string_literal;
use crate::program::{bind_program, downgrade, ProgramBinder};
use crate::resource::range_attr;

/// A config of a component's program: name, type, required.
struct ComponentInput {
    name: String,
    ty: Type,
    required: bool,
}

fn component_interface(program: &Program) -> (Vec<ComponentInput>, Type) {
    let mut inputs = Vec::new();
    let mut outputs: Vec<(String, Type)> = Vec::new();
    for node in program.nodes() {
        match &node.kind {
            NodeKind::Config(c) => inputs.push(ComponentInput {
                name: node.logical_name().to_string(),
                ty: node.ty.clone(),
                required: c.default.is_none() && !c.nullable,
            }),
            NodeKind::Output(o) => {
                if let Some(v) = &o.value {
                    outputs.push((
                        node.logical_name().to_string(),
                        Type::output(v.ty().clone()),
                    ));
                }
            }
            _ => {}
        }
    }
    (inputs, Type::object(outputs))
}

impl ProgramBinder<'_, '_> {
    /// Binds (or fetches) the program in the directory with key `dir`
    /// (see [`crate::files`]: symbolic links resolved, so every spelling of
    /// one directory shares one key and one binding); `Err` is the code and
    /// message of a component error.
    fn component_program(
        &mut self,
        sources: &mut SourceMap,
        dir: &str,
    ) -> Result<Arc<Program>, (pcl_diagnostics::Code, String)> {
        if let Some(p) = self.shared.components.borrow().get(dir) {
            return Ok(p.clone());
        }
        let shown = || {
            let rel = relative_key(&self.shared.files.program_dir(), dir);
            if rel.is_empty() {
                ".".to_string()
            } else {
                rel
            }
        };
        if dir == self.dir || self.shared.stack.borrow().iter().any(|d| d == dir) {
            return Err((
                codes::COMPONENT_CYCLE,
                format!(
                    "component source `{}` is a program that is already being bound (a component cycle)",
                    shown()
                ),
            ));
        }
        if self.depth + 1 > self.policy().max_component_depth {
            return Err((
                codes::COMPONENT_TOO_DEEP,
                format!(
                    "components nest more than {} levels deep",
                    self.policy().max_component_depth
                ),
            ));
        }
        let listing = self
            .shared
            .files
            .list_dir(dir)
            .map_err(|e| (codes::COMPONENT_ERROR, e))?;
        if listing.files.is_empty() {
            return Err((
                codes::COMPONENT_ERROR,
                format!("no files found in component directory `{}`", shown()),
            ));
        }
        self.shared.stack.borrow_mut().push(self.dir.clone());
        let (mut program, diags) =
            bind_program(self.shared, sources, &listing.files, dir, self.depth + 1);
        self.shared.stack.borrow_mut().pop();
        self.diags.append(diags);
        if !listing.problems.is_empty() {
            let ids: HashMap<&str, FileId> = program
                .files()
                .iter()
                .map(|f| (f.name.as_str(), f.id))
                .collect();
            for problem in &listing.problems {
                if let Some(id) = ids.get(problem.name.as_str()) {
                    self.diags.push(problem.diagnostic(*id));
                }
            }
        }
        program.directory = relative_key(&self.shared.files.program_dir(), dir);
        let program = Arc::new(program);
        self.shared
            .components
            .borrow_mut()
            .insert(dir.to_string(), program.clone());
        Ok(program)
    }

    pub(crate) fn bind_component(
        &mut self,
        sources: &mut SourceMap,
        idx: usize,
        file: FileId,
        block: BlockRef<'_>,
    ) {
        let name = self.node_name(idx).to_string();
        let source = block.labels().get(1).map(|l| l.value().to_owned());
        let span = Span::new(file, block.range());
        let mut diags = Vec::new();
        let mut directory = None;
        let mut program = None;
        if let Some(src) = &source {
            let label_span = block
                .labels()
                .get(1)
                .map_or(span, |l| Span::new(file, l.range()));
            match self.shared.files.resolve(&self.dir, src) {
                Err(ResolveError::OutsideRoot) => diags.push(
                    Diagnostic::error(
                        codes::COMPONENT_OUTSIDE_ROOT,
                        label_span,
                        format!("component source `{src}` is outside the program root"),
                    )
                    .with_help(ROOT_RULE),
                ),
                Err(ResolveError::Unreadable(message)) => {
                    diags.push(Diagnostic::error(codes::COMPONENT_ERROR, span, message))
                }
                Ok(dir) => {
                    directory = Some(relative_key(&self.shared.files.program_dir(), &dir));
                    match self.component_program(sources, &dir) {
                        Ok(p) => program = Some(p),
                        Err((code, message)) => diags.push(Diagnostic::error(code, span, message)),
                    }
                }
            }
        }
        let (inputs, outputs) = match &program {
            Some(p) => {
                let (i, o) = component_interface(p);
                (Some(i), o)
            }
            None => (None, Type::dynamic()),
        };
        // Range (§5.7): no optional unwrapping, no eventual wrapping.
        let mut range_kind = None;
        let mut range_var = None;
        let mut var_type = outputs.clone();
        if let Some(attr) = range_attr(block) {
            let scope = self.scope.clone();
            let (bound, _) = self.bind(file, attr.expr(), &scope);
            let typ = bound.ty();
            if conversion_from(&self.input_type(&Type::bool()), typ) == ConversionKind::Safe {
                var_type = Type::optional(outputs.clone());
                range_kind = Some(RangeKind::Bool);
            } else if conversion_from(&self.input_type(&Type::number()), typ)
                == ConversionKind::Safe
            {
                var_type = Type::list(outputs.clone());
                range_var = Some(Type::object([("value", Type::int())]));
                range_kind = Some(RangeKind::Count);
            } else {
                let c = collection_types(typ, false);
                range_var = Some(Type::object([
                    ("key", c.key.clone()),
                    ("value", c.value.clone()),
                ]));
                if c.key == Type::string() {
                    var_type = Type::map(outputs.clone());
                    range_kind = Some(RangeKind::Map {
                        key: c.key,
                        value: c.value,
                    });
                } else {
                    var_type = Type::list(outputs.clone());
                    range_kind = Some(RangeKind::List {
                        key: c.key,
                        value: c.value,
                    });
                }
            }
        }
        self.set_type(idx, var_type);
        let mut scope = self.scope.clone();
        if let Some(rv) = range_var {
            scope = scope.child();
            let _ = scope.define("range", Definition::variable("range", rv), false);
        }
        let mut node = ComponentNode {
            source: source.clone(),
            directory,
            token: None,
            program: program.clone(),
            inputs: Vec::new(),
            options: None,
            range: range_kind,
        };
        // The component's configs by name (the first of a name), so each
        // attribute is found in constant time.
        let mut input_index: HashMap<&str, usize> = HashMap::new();
        for (at, i) in inputs.iter().flatten().enumerate() {
            input_index.entry(i.name.as_str()).or_insert(at);
        }
        let mut logical_name = None;
        let mut options_block = None;
        let mut checks = Vec::new();
        for item in block.body().items() {
            match item.kind() {
                Item::Attribute(attr) => {
                    let (value, d) = self.bind(file, attr.expr(), &scope);
                    diags.extend(d);
                    match attr.name() {
                        "__logicalName" => match string_literal(attr.expr()) {
                            Some(s) => logical_name = Some(s.to_string()),
                            None => diags.push(Diagnostic::error(
                                codes::LITERAL_REQUIRED,
                                Span::new(file, attr.expr().range()),
                                "attribute __logicalName must be a string literal",
                            )),
                        },
                        "token" if source.is_some() => diags.push(Diagnostic::error(
                            codes::UNSUPPORTED_ATTRIBUTE,
                            Span::new(file, attr.name_range()),
                            "`token` may only be set on a component declared without a source",
                        )),
                        "token" => match string_literal(attr.expr()) {
                            Some(s) => node.token = Some(s.to_string()),
                            None => diags.push(Diagnostic::error(
                                codes::LITERAL_REQUIRED,
                                Span::new(file, attr.expr().range()),
                                "attribute token must be a string literal",
                            )),
                        },
                        input => {
                            let mut expected = None;
                            if let Some(inputs) = &inputs {
                                match input_index.get(input).and_then(|at| inputs.get(*at)) {
                                    None => {
                                        let names: Vec<&str> =
                                            inputs.iter().map(|i| i.name.as_str()).collect();
                                        let mut d = Diagnostic::error(
                                            codes::UNSUPPORTED_ATTRIBUTE,
                                            Span::new(file, attr.name_range()),
                                            format!("unsupported attribute `{input}`"),
                                        )
                                        .with_detail(format!(
                                            "component `{name}` has no config `{input}`"
                                        ));
                                        d = pcl_expr::suggest::attach(
                                            d,
                                            Span::new(file, attr.name_range()),
                                            &did_you_mean(input, names),
                                        );
                                        diags.push(d);
                                    }
                                    Some(i) => {
                                        let dest = self.input_type(&i.ty);
                                        // The conversion check, demoted with
                                        // `--lenient` as the reference demotes
                                        // it under SkipResourceTypechecking.
                                        let fit = pcl_expr::fit::fit_diagnostics(
                                            &dest,
                                            value.root(),
                                            pcl_expr::fit::Subject {
                                                noun: "input",
                                                name: input,
                                                mismatch: codes::ATTRIBUTE_TYPE_MISMATCH,
                                            },
                                            &|r| Span::new(file, r),
                                        );
                                        if !fit.iter().any(Diagnostic::is_error) {
                                            checks.extend(pcl_expr::constant::never_converts(
                                                codes::CONSTANT_NEVER_CONVERTS,
                                                value.root(),
                                                &dest,
                                                "input",
                                                input,
                                                &|r| Span::new(file, r),
                                            ));
                                        }
                                        checks.extend(fit);
                                        expected = Some(dest);
                                    }
                                }
                            }
                            node.inputs
                                .push(bound_attribute(file, attr, value, expected));
                        }
                    }
                }
                Item::Block(b) if b.type_name() == "options" => {
                    if options_block.is_some() {
                        diags.push(Diagnostic::error(
                            codes::DUPLICATE_BLOCK,
                            Span::new(file, b.type_range()),
                            "duplicate block of type `options`",
                        ));
                    } else {
                        options_block = Some(b);
                    }
                }
                Item::Block(b) => diags.push(Diagnostic::error(
                    codes::UNSUPPORTED_BLOCK,
                    Span::new(file, b.type_range()),
                    format!("unsupported block of type `{}`", b.type_name()),
                )),
            }
        }
        if self.policy().skip_resource_typecheck {
            downgrade(&mut checks);
        }
        diags.extend(checks);
        if let Some(inputs) = &inputs {
            let set: HashSet<&str> = node.inputs.iter().map(|a| a.name.as_str()).collect();
            for i in inputs.iter().filter(|i| i.required) {
                if !set.contains(i.name.as_str()) {
                    diags.push(
                        Diagnostic::error(
                            codes::MISSING_REQUIRED_ATTRIBUTE,
                            span,
                            format!("missing required attribute `{}`", i.name),
                        )
                        .with_help(format!(
                            "component `{name}` requires the config `{}`",
                            i.name
                        )),
                    );
                }
            }
        }
        if source.is_none() && node.token.is_none() {
            diags.push(Diagnostic::error(
                codes::MISSING_COMPONENT_TOKEN,
                span,
                "a component declared without a source must set `token` to the component's type token",
            ));
        }
        if let Some(b) = options_block {
            node.options = Some(self.bind_options(file, b, None, &mut diags));
        }
        self.diags.extend(diags);
        self.finish_node(idx, NodeKind::Component(Box::new(node)), logical_name);
    }
}
