//! `pcl check --emit model`: the bound programs as JSON, for code
//! generators written in other languages. The shape is documented in
//! `docs/model.md`; this module is its only producer.
//!
//! Every node has its kind, name, type and range; every expression its
//! kind (the reference's bound-expression names), its type in the notation
//! of the type vectors (`pcl_types::to_notation`) and its range; references
//! name the node they resolve to (id and name), and resources, resource
//! inputs and invokes name their schema tokens.

use std::io::{self, Write};

use pcl_binder::{BoundAttribute, NodeKind, Program, RangeKind, ResourceNode, ResourceOptions};
use pcl_diagnostics::{FileId, SourceMap, Span, TextRange};
use pcl_expr::{BoundExpr, BoundExprKind, BoundStep, BoundStepKind, Definition, Function};
use pcl_types::{to_notation, Type, Value};
use serde_json::{json, Map, Value as Json};

use crate::formats::json::range as loc_range;
use crate::formats::{Loc, ProgramResult};

/// The model's format version.
pub const VERSION: u32 = 1;

/// Writes `{"version": 1, "programs": [...]}`.
pub fn write(programs: &[ProgramResult], out: &mut dyn Write) -> io::Result<()> {
    let programs: Vec<Json> = programs
        .iter()
        .map(|p| {
            let mut m = Map::new();
            m.insert("path".into(), json!(p.path));
            let writer = Writer {
                sources: &p.sources,
            };
            writer.program_into(&p.program, &mut m);
            Json::Object(m)
        })
        .collect();
    serde_json::to_writer_pretty(
        &mut *out,
        &json!({"version": VERSION, "programs": programs}),
    )?;
    writeln!(out)
}

struct Writer<'a> {
    sources: &'a SourceMap,
}

impl Writer<'_> {
    fn program_into(&self, program: &Program, m: &mut Map<String, Json>) {
        let files: Vec<Json> = program
            .files()
            .iter()
            .map(|f| json!({"id": f.id.0, "name": f.name}))
            .collect();
        let packages: Vec<Json> = program
            .packages()
            .iter()
            .map(|p| json!({"name": p.name, "version": p.version, "loaded": p.loaded}))
            .collect();
        let nodes: Vec<Json> = program
            .nodes()
            .iter()
            .map(|n| self.node(program, n))
            .collect();
        let order: Vec<u32> = program.order().iter().map(|id| id.0).collect();
        m.insert("directory".into(), json!(program.directory()));
        m.insert("files".into(), Json::Array(files));
        m.insert("packages".into(), Json::Array(packages));
        m.insert("nodes".into(), Json::Array(nodes));
        m.insert("order".into(), json!(order));
    }

    fn span(&self, span: Span) -> Json {
        let loc = Loc::of(self.sources, span);
        let mut r = Map::new();
        r.insert("file".into(), json!(loc.file));
        if let Json::Object(inner) = loc_range(&loc) {
            r.extend(inner);
        }
        Json::Object(r)
    }

    fn range(&self, file: FileId, range: TextRange) -> Json {
        loc_range(&Loc::of(self.sources, Span::new(file, range)))
    }

    fn node(&self, program: &Program, node: &pcl_binder::Node) -> Json {
        let file = node.file();
        let mut m = Map::new();
        m.insert("id".into(), json!(node.id.0));
        m.insert("kind".into(), json!(node.kind_name()));
        m.insert("name".into(), json!(node.name));
        m.insert("logicalName".into(), json!(node.logical_name));
        m.insert("type".into(), ty(&node.ty));
        m.insert("range".into(), self.span(node.span));
        m.insert("nameRange".into(), self.span(node.name_span));
        let deps: Vec<u32> = node.dependencies.iter().map(|d| d.0).collect();
        m.insert("dependencies".into(), json!(deps));
        let ex = |e: &Option<BoundExpr>| -> Json {
            e.as_ref()
                .map_or(Json::Null, |e| self.expr(program, file, e))
        };
        match &node.kind {
            NodeKind::Local(l) => {
                m.insert("value".into(), ex(&l.value));
            }
            NodeKind::Config(c) => {
                m.insert("typeLabel".into(), json!(c.type_label));
                m.insert("default".into(), ex(&c.default));
                m.insert("description".into(), json!(c.description));
                m.insert("nullable".into(), json!(c.nullable));
                m.insert("secret".into(), json!(c.secret));
                m.insert(
                    "attributes".into(),
                    self.attributes(program, file, &c.attributes, None),
                );
            }
            NodeKind::Output(o) => {
                m.insert("typeLabel".into(), json!(o.type_label));
                m.insert("value".into(), ex(&o.value));
            }
            NodeKind::Resource(r) => self.resource(program, file, r, &mut m),
            NodeKind::Component(c) => {
                m.insert("source".into(), json!(c.source));
                m.insert("directory".into(), json!(c.directory));
                m.insert("token".into(), json!(c.token));
                m.insert(
                    "inputs".into(),
                    self.attributes(program, file, &c.inputs, None),
                );
                m.insert(
                    "options".into(),
                    self.options(program, file, c.options.as_ref()),
                );
                m.insert("rangeKind".into(), range_kind(c.range.as_ref()));
                let sub = match &c.program {
                    Some(sub) => {
                        let mut sm = Map::new();
                        self.program_into(sub, &mut sm);
                        Json::Object(sm)
                    }
                    None => Json::Null,
                };
                m.insert("program".into(), sub);
            }
            NodeKind::Hook(h) => {
                let kind = match h.hook_kind {
                    pcl_binder::HookKind::Resource => "resource",
                    pcl_binder::HookKind::Error => "error",
                };
                m.insert("hookKind".into(), json!(kind));
                m.insert("command".into(), ex(&h.command));
                m.insert("onDryRun".into(), ex(&h.on_dry_run));
                m.insert("ignoreErrors".into(), ex(&h.ignore_errors));
            }
            NodeKind::Pulumi(p) => {
                m.insert(
                    "attributes".into(),
                    self.attributes(program, file, &p.attributes, None),
                );
            }
        }
        Json::Object(m)
    }

    fn resource(
        &self,
        program: &Program,
        file: FileId,
        r: &ResourceNode,
        m: &mut Map<String, Json>,
    ) {
        m.insert("token".into(), json!(r.token));
        m.insert("writtenToken".into(), json!(r.written_token));
        let schema = r.schema.as_ref().map_or(Json::Null, |s| {
            json!({
                "package": s.package,
                "packageVersion": s.package_version,
                "token": s.schema_token,
                "isProvider": s.is_provider,
                "isComponent": s.is_component,
            })
        });
        m.insert("schema".into(), schema);
        m.insert("inputType".into(), ty(&r.input_type));
        m.insert("outputType".into(), ty(&r.output_type));
        let schema_token = r.schema.as_ref().map(|s| s.schema_token.as_str());
        m.insert(
            "inputs".into(),
            self.attributes(program, file, &r.inputs, schema_token),
        );
        m.insert(
            "options".into(),
            self.options(program, file, r.options.as_ref()),
        );
        m.insert("rangeKind".into(), range_kind(r.range.as_ref()));
    }

    fn options(&self, program: &Program, file: FileId, options: Option<&ResourceOptions>) -> Json {
        match options {
            Some(o) => self.attributes(program, file, &o.attributes, None),
            None => Json::Null,
        }
    }

    /// Attributes; with `resource`, each names the schema property it sets.
    fn attributes(
        &self,
        program: &Program,
        file: FileId,
        attributes: &[BoundAttribute],
        resource: Option<&str>,
    ) -> Json {
        let list: Vec<Json> = attributes
            .iter()
            .map(|a| {
                let mut m = Map::new();
                m.insert("name".into(), json!(a.name));
                m.insert("nameRange".into(), self.span(a.name_span));
                m.insert(
                    "expected".into(),
                    a.expected.as_ref().map_or(Json::Null, ty),
                );
                if let (Some(token), Some(_)) = (resource, &a.expected) {
                    m.insert(
                        "property".into(),
                        json!({"resource": token, "name": a.name}),
                    );
                }
                m.insert("value".into(), self.expr(program, file, &a.value));
                Json::Object(m)
            })
            .collect();
        Json::Array(list)
    }

    fn expr(&self, program: &Program, file: FileId, e: &BoundExpr) -> Json {
        let mut m = Map::new();
        m.insert("kind".into(), json!(e.kind_name()));
        m.insert("type".into(), ty(&e.ty));
        m.insert("range".into(), self.range(file, e.range));
        let sub = |x: &BoundExpr| self.expr(program, file, x);
        let list = |xs: &[BoundExpr]| Json::Array(xs.iter().map(sub).collect());
        match &e.kind {
            BoundExprKind::Literal(v) => {
                m.insert("value".into(), value(v));
            }
            BoundExprKind::Template(parts) => {
                m.insert("parts".into(), list(parts));
            }
            BoundExprKind::TemplateJoin(x) | BoundExprKind::Parens(x) => {
                m.insert("expr".into(), sub(x));
            }
            BoundExprKind::Unary { op, operand } => {
                m.insert("op".into(), json!(op.as_str()));
                m.insert("operand".into(), sub(operand));
            }
            BoundExprKind::Binary { op, lhs, rhs } => {
                m.insert("op".into(), json!(op.as_str()));
                m.insert("lhs".into(), sub(lhs));
                m.insert("rhs".into(), sub(rhs));
            }
            BoundExprKind::Conditional {
                condition,
                then_expr,
                else_expr,
            } => {
                m.insert("condition".into(), sub(condition));
                m.insert("then".into(), sub(then_expr));
                m.insert("else".into(), sub(else_expr));
            }
            BoundExprKind::For(f) => {
                m.insert("keyVar".into(), json!(f.key_var));
                m.insert("valueVar".into(), json!(f.value_var));
                m.insert("collection".into(), sub(&f.collection));
                m.insert("key".into(), f.key.as_ref().map_or(Json::Null, sub));
                m.insert("value".into(), sub(&f.value));
                m.insert(
                    "condition".into(),
                    f.condition.as_ref().map_or(Json::Null, sub),
                );
                m.insert("grouping".into(), json!(f.grouping));
            }
            BoundExprKind::Splat { source, each } => {
                m.insert("source".into(), sub(source));
                m.insert("each".into(), sub(each));
            }
            BoundExprKind::SplatItem | BoundExprKind::Error => {}
            BoundExprKind::Call(c) => {
                m.insert("name".into(), json!(c.name));
                m.insert("nameRange".into(), self.range(file, c.name_range));
                let function = match &c.function {
                    Some(Function::Builtin(b)) => json!({"kind": "builtin", "name": b.name()}),
                    Some(Function::Invoke) => json!({"kind": "invoke", "token": c.invoke_token}),
                    Some(Function::Call) => json!({"kind": "call"}),
                    Some(Function::Static(_)) => json!({"kind": "static"}),
                    None => Json::Null,
                };
                m.insert("function".into(), function);
                m.insert("args".into(), list(&c.args));
                m.insert("expandFinal".into(), json!(c.expand_final));
            }
            BoundExprKind::Index { collection, key } => {
                m.insert("collection".into(), sub(collection));
                m.insert("key".into(), sub(key));
            }
            BoundExprKind::Object(items) => {
                let items: Vec<Json> = items
                    .iter()
                    .map(|(k, v)| json!({"key": sub(k), "value": sub(v)}))
                    .collect();
                m.insert("items".into(), Json::Array(items));
            }
            BoundExprKind::Tuple(items) => {
                m.insert("items".into(), list(items));
            }
            BoundExprKind::ScopeTraversal {
                root,
                root_range,
                definition,
                steps,
            } => {
                m.insert("root".into(), json!(root));
                m.insert("rootRange".into(), self.range(file, *root_range));
                m.insert("reference".into(), reference(program, definition.as_ref()));
                m.insert("steps".into(), self.steps(file, steps));
            }
            BoundExprKind::RelativeTraversal { source, steps } => {
                m.insert("source".into(), sub(source));
                m.insert("steps".into(), self.steps(file, steps));
            }
        }
        Json::Object(m)
    }

    fn steps(&self, file: FileId, steps: &[BoundStep]) -> Json {
        let list: Vec<Json> = steps
            .iter()
            .map(|s| {
                let (kind, key, v) = match &s.kind {
                    BoundStepKind::Attr(name) => ("attr", "name", json!(name)),
                    BoundStepKind::Index(v) => ("index", "key", value(v)),
                };
                let mut m = Map::new();
                m.insert("kind".into(), json!(kind));
                m.insert(key.into(), v);
                m.insert("type".into(), ty(&s.ty));
                m.insert("range".into(), self.range(file, s.range));
                Json::Object(m)
            })
            .collect();
        Json::Array(list)
    }
}

/// What a traversal's root name resolved to; `null` when undefined.
fn reference(program: &Program, definition: Option<&Definition>) -> Json {
    match definition {
        None => Json::Null,
        Some(Definition::Node(id)) => {
            let node = program.node(*id);
            json!({
                "kind": "node",
                "id": id.0,
                "name": node.map(|n| n.name.as_str()),
                "nodeKind": node.map(|n| n.kind_name()),
            })
        }
        Some(Definition::Variable { name, .. }) => json!({"kind": "variable", "name": name}),
        Some(Definition::Null) => json!({"kind": "null"}),
        Some(Definition::Keyword(k)) => json!({"kind": "keyword", "name": k}),
        Some(Definition::ResourceProperty { name, .. }) => {
            json!({"kind": "resourceProperty", "name": name})
        }
    }
}

fn range_kind(range: Option<&RangeKind>) -> Json {
    match range {
        None => Json::Null,
        Some(RangeKind::Bool) => json!({"kind": "bool"}),
        Some(RangeKind::Count) => json!({"kind": "count"}),
        Some(RangeKind::List { key, value }) => {
            json!({"kind": "list", "key": ty(key), "value": ty(value)})
        }
        Some(RangeKind::Map { key, value }) => {
            json!({"kind": "map", "key": ty(key), "value": ty(value)})
        }
    }
}

fn ty(t: &Type) -> Json {
    json!(to_notation(t))
}

/// A literal as JSON: numbers as JSON numbers when they fit (an integer
/// when integral), else as their decimal text.
fn value(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Unknown => json!({"unknown": true}),
        Value::Bool(b) => json!(b),
        Value::String(s) => json!(s.as_ref()),
        Value::Number(n) => {
            let text = n.plain();
            if let Ok(i) = text.parse::<i64>() {
                json!(i)
            } else {
                text.parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map_or(json!(text), Json::Number)
            }
        }
        Value::List(items) => Json::Array(items.iter().map(value).collect()),
    }
}
