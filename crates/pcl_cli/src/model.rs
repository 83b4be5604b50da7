//! `pcl check --emit model`: the bound programs as JSON, for code
//! generators written in other languages. The shape is documented in
//! `docs/model.md`; this module is its only producer.
//!
//! Every node has its kind, name, type and range; every expression its
//! kind (the reference's bound-expression names), its type and its range;
//! types are indices into the document's `types` table, which holds each
//! distinct type once, in the notation of the type vectors
//! (`pcl_types::to_notation`), cut at [`MAX_TYPE_CHARS`] characters (a
//! nested object's type would otherwise be printed again at every level,
//! quadratic in the depth); references
//! name the node they resolve to (id and name), and resources, resource
//! inputs and invokes name their schema tokens.
//!
//! Nothing here recurses in proportion to the depth of an expression: a
//! long operator chain binds to a left-leaning `binary` tree as deep as the
//! chain is long. The document is produced by a loop over an explicit stack
//! of `Task`s (each expression expands into its fields and its children's
//! tasks), written by `JsonWriter`, which keeps its own stack of open
//! containers; only shallow `serde_json` values (ranges, literals, …) are
//! ever built. Positions come from the source map, whose line index keeps
//! column lookups cheap on very long lines.

use std::io::{self, Write};

use pcl_binder::{BoundAttribute, NodeKind, Program, RangeKind, ResourceNode, ResourceOptions};
use pcl_diagnostics::{FileId, Position, SourceMap, Span, TextRange};
use pcl_expr::{
    BoundExprKind, BoundList, BoundRef, BoundStep, BoundStepKind, Definition, Function,
};
use pcl_types::{to_notation, Type, Value};
use serde_json::{json, Map, Value as Json};

use std::collections::HashMap;

use pcl_diagnostics::elide;

use crate::formats::json::position as position_json;
use crate::formats::safe_json::SafeFormatter;
use crate::formats::ProgramResult;

/// The model's format version (2: types are indices into `types`).
pub const VERSION: u32 = 2;

/// The longest type string the model prints, in characters; a longer one
/// is cut, ending in `…`.
pub const MAX_TYPE_CHARS: usize = 120;

/// Containers nested deeper than this are written on one line (compact
/// JSON) instead of indented: indenting every level of a 100 000-deep
/// operator chain would make the output quadratic in its length. Every
/// document `serde_json`'s default reader accepts (it stops at 128 levels)
/// is pretty-printed exactly as `serde_json::to_writer_pretty` does.
pub const PRETTY_DEPTH: usize = 128;

/// Writes `{"version": 2, "programs": [...], "types": [...]}`, streaming:
/// only the table of distinct type strings is kept until the end.
pub fn write(programs: &[ProgramResult], out: &mut dyn Write) -> io::Result<()> {
    let mut json = JsonWriter::new(io::BufWriter::new(out));
    let mut types = Types::default();
    json.begin(Container::Object)?;
    json.key("version")?;
    json.value(&json!(VERSION))?;
    json.key("programs")?;
    json.begin(Container::Array)?;
    for p in programs {
        let mut writer = Writer {
            positions: Positions::new(&p.sources),
            types: &mut types,
        };
        let tasks = vec![
            Task::Begin(Container::Object),
            Task::Key("path"),
            Task::Value(json!(p.path)),
            Task::Program(&p.program),
            Task::End,
        ];
        writer.run(tasks, &mut json)?;
    }
    json.end()?;
    json.key("types")?;
    json.begin(Container::Array)?;
    for t in &types.list {
        json.string(t)?;
    }
    json.end()?;
    json.end()?;
    let mut out = json.into_inner();
    writeln!(out)?;
    out.flush()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    Object,
    Array,
}

/// One step of writing the document. Expressions and programs expand into
/// further tasks when they are reached, so the work stack, not the call
/// stack, holds the nesting.
enum Task<'a> {
    Begin(Container),
    End,
    Key(&'static str),
    /// A shallow value written as is.
    Value(Json),
    /// A program's fields (without the braces).
    Program(&'a Program),
    /// A node of `program`: expanded when reached, so the document is
    /// streamed node by node rather than built up front.
    Node(&'a Program, &'a pcl_binder::Node),
    /// An expression of `program`, in `file`.
    Expr(&'a Program, FileId, BoundRef<'a>),
}

/// A task list under construction, in document order.
#[derive(Default)]
struct Tasks<'a>(Vec<Task<'a>>);

impl<'a> Tasks<'a> {
    fn push(&mut self, task: Task<'a>) {
        self.0.push(task);
    }

    fn field(&mut self, key: &'static str, value: Json) {
        self.0.push(Task::Key(key));
        self.0.push(Task::Value(value));
    }

    fn expr_field(
        &mut self,
        key: &'static str,
        program: &'a Program,
        file: FileId,
        e: BoundRef<'a>,
    ) {
        self.0.push(Task::Key(key));
        self.0.push(Task::Expr(program, file, e));
    }

    fn opt_expr_field(
        &mut self,
        key: &'static str,
        program: &'a Program,
        file: FileId,
        e: Option<BoundRef<'a>>,
    ) {
        match e {
            Some(e) => self.expr_field(key, program, file, e),
            None => self.field(key, Json::Null),
        }
    }

    fn expr_list(
        &mut self,
        key: &'static str,
        program: &'a Program,
        file: FileId,
        xs: BoundList<'a>,
    ) {
        self.0.push(Task::Key(key));
        self.0.push(Task::Begin(Container::Array));
        for x in xs {
            self.0.push(Task::Expr(program, file, x));
        }
        self.0.push(Task::End);
    }
}

struct Writer<'a, 't> {
    positions: Positions<'a>,
    types: &'t mut Types,
}

/// The document's `types` table: each distinct type string once, in order
/// of first use; type fields hold indices into it.
#[derive(Default)]
struct Types {
    index: HashMap<String, usize>,
    list: Vec<String>,
}

impl Types {
    /// The index of `t`'s printed form (capped at [`MAX_TYPE_CHARS`]).
    /// (`Type`'s hash ignores objects' contents, so types are keyed by
    /// their printed form.)
    fn intern(&mut self, t: &Type) -> usize {
        let text = elide(&to_notation(t), MAX_TYPE_CHARS).into_owned();
        if let Some(&i) = self.index.get(&text) {
            return i;
        }
        let i = self.list.len();
        self.list.push(text.clone());
        self.index.insert(text, i);
        i
    }
}

impl<'a> Writer<'a, '_> {
    /// Writes `tasks` in order, expanding programs and expressions.
    fn run<W: Write>(&mut self, tasks: Vec<Task<'a>>, json: &mut JsonWriter<W>) -> io::Result<()> {
        let mut stack: Vec<Task<'a>> = tasks;
        stack.reverse();
        while let Some(task) = stack.pop() {
            let expanded = match task {
                Task::Begin(c) => {
                    json.begin(c)?;
                    continue;
                }
                Task::End => {
                    json.end()?;
                    continue;
                }
                Task::Key(k) => {
                    json.key(k)?;
                    continue;
                }
                Task::Value(v) => {
                    json.value(&v)?;
                    continue;
                }
                Task::Program(p) => self.program(p),
                Task::Node(p, n) => {
                    let mut t = Tasks::default();
                    self.node(p, n, &mut t);
                    t
                }
                Task::Expr(program, file, e) => self.expr(program, file, e),
            };
            stack.extend(expanded.0.into_iter().rev());
        }
        Ok(())
    }

    fn program(&mut self, program: &'a Program) -> Tasks<'a> {
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
        let order: Vec<u32> = program.order().iter().map(|id| id.0).collect();
        let mut t = Tasks::default();
        t.field("directory", json!(program.directory()));
        t.field("files", Json::Array(files));
        t.field("packages", Json::Array(packages));
        t.push(Task::Key("nodes"));
        t.push(Task::Begin(Container::Array));
        for node in program.nodes() {
            t.push(Task::Node(program, node));
        }
        t.push(Task::End);
        t.field("order", json!(order));
        t
    }

    fn span(&mut self, span: Span) -> Json {
        let (file, start, end) = self.positions.span(span);
        json!({"file": file, "start": position_json(start), "end": position_json(end)})
    }

    fn range(&mut self, file: FileId, range: TextRange) -> Json {
        let (_, start, end) = self.positions.span(Span::new(file, range));
        json!({"start": position_json(start), "end": position_json(end)})
    }

    fn node(&mut self, program: &'a Program, node: &'a pcl_binder::Node, t: &mut Tasks<'a>) {
        let file = node.file();
        t.push(Task::Begin(Container::Object));
        t.field("id", json!(node.id.0));
        t.field("kind", json!(node.kind_name()));
        t.field("name", json!(node.name.as_str()));
        t.field("logicalName", json!(node.logical_name()));
        t.field("type", self.ty(&node.ty));
        t.field("range", self.span(node.span));
        t.field("nameRange", self.span(node.name_span));
        let deps: Vec<u32> = node.dependencies.iter().map(|d| d.0).collect();
        t.field("dependencies", json!(deps));
        match &node.kind {
            NodeKind::Local(l) => {
                t.opt_expr_field("value", program, file, l.value.as_ref().map(|e| e.root()))
            }
            NodeKind::Config(c) => {
                t.field("typeLabel", json!(c.type_label));
                t.opt_expr_field(
                    "default",
                    program,
                    file,
                    c.default.as_ref().map(|e| e.root()),
                );
                t.field("description", json!(c.description));
                t.field("nullable", json!(c.nullable));
                t.field("secret", json!(c.secret));
                t.push(Task::Key("attributes"));
                self.attributes(program, file, &c.attributes, None, t);
            }
            NodeKind::Output(o) => {
                t.field("typeLabel", json!(o.type_label));
                t.opt_expr_field("value", program, file, o.value.as_ref().map(|e| e.root()));
            }
            NodeKind::Resource(r) => self.resource(program, file, r, t),
            NodeKind::Component(c) => {
                t.field("source", json!(c.source));
                t.field("directory", json!(c.directory));
                t.field("token", json!(c.token));
                t.push(Task::Key("inputs"));
                self.attributes(program, file, &c.inputs, None, t);
                t.push(Task::Key("options"));
                self.options(program, file, c.options.as_ref(), t);
                t.field("rangeKind", self.range_kind(c.range.as_ref()));
                match &c.program {
                    Some(sub) => {
                        t.push(Task::Key("program"));
                        t.push(Task::Begin(Container::Object));
                        t.push(Task::Program(sub));
                        t.push(Task::End);
                    }
                    None => t.field("program", Json::Null),
                }
            }
            NodeKind::Hook(h) => {
                let kind = match h.hook_kind {
                    pcl_binder::HookKind::Resource => "resource",
                    pcl_binder::HookKind::Error => "error",
                };
                t.field("hookKind", json!(kind));
                t.opt_expr_field(
                    "command",
                    program,
                    file,
                    h.command.as_ref().map(|e| e.root()),
                );
                t.opt_expr_field(
                    "onDryRun",
                    program,
                    file,
                    h.on_dry_run.as_ref().map(|e| e.root()),
                );
                t.opt_expr_field(
                    "ignoreErrors",
                    program,
                    file,
                    h.ignore_errors.as_ref().map(|e| e.root()),
                );
            }
            NodeKind::Pulumi(p) => {
                t.push(Task::Key("attributes"));
                self.attributes(program, file, &p.attributes, None, t);
            }
        }
        t.push(Task::End);
    }

    fn resource(
        &mut self,
        program: &'a Program,
        file: FileId,
        r: &'a ResourceNode,
        t: &mut Tasks<'a>,
    ) {
        t.field("token", json!(r.token));
        t.field("writtenToken", json!(r.written_token));
        let schema = r.schema.as_ref().map_or(Json::Null, |s| {
            json!({
                "package": s.package,
                "packageVersion": s.package_version,
                "token": s.schema_token,
                "isProvider": s.is_provider,
                "isComponent": s.is_component,
            })
        });
        t.field("schema", schema);
        t.field("inputType", self.ty(&r.input_type));
        t.field("outputType", self.ty(&r.output_type));
        let schema_token = r.schema.as_ref().map(|s| s.schema_token.as_str());
        t.push(Task::Key("inputs"));
        self.attributes(program, file, &r.inputs, schema_token, t);
        t.push(Task::Key("options"));
        self.options(program, file, r.options.as_ref(), t);
        t.field("rangeKind", self.range_kind(r.range.as_ref()));
    }

    fn options(
        &mut self,
        program: &'a Program,
        file: FileId,
        options: Option<&'a ResourceOptions>,
        t: &mut Tasks<'a>,
    ) {
        match options {
            Some(o) => self.attributes(program, file, &o.attributes, None, t),
            None => t.push(Task::Value(Json::Null)),
        }
    }

    /// Attributes (an array value); with `resource`, each names the schema
    /// property it sets.
    fn attributes(
        &mut self,
        program: &'a Program,
        file: FileId,
        attributes: &'a [BoundAttribute],
        resource: Option<&str>,
        t: &mut Tasks<'a>,
    ) {
        t.push(Task::Begin(Container::Array));
        for a in attributes {
            t.push(Task::Begin(Container::Object));
            t.field("name", json!(a.name));
            t.field("nameRange", self.span(a.name_span));
            let expected = a.expected.as_ref().map_or(Json::Null, |e| self.ty(e));
            t.field("expected", expected);
            if let (Some(token), Some(_)) = (resource, &a.expected) {
                t.field("property", json!({"resource": token, "name": a.name}));
            }
            t.expr_field("value", program, file, a.value.root());
            t.push(Task::End);
        }
        t.push(Task::End);
    }

    /// One expression's fields; its children stay [`Task::Expr`]s.
    fn expr(&mut self, program: &'a Program, file: FileId, e: BoundRef<'a>) -> Tasks<'a> {
        let mut t = Tasks::default();
        t.push(Task::Begin(Container::Object));
        t.field("kind", json!(e.kind_name()));
        t.field("type", self.ty(e.ty()));
        t.field("range", self.range(file, e.range()));
        match e.kind() {
            BoundExprKind::Literal(v) => t.field("value", value(v)),
            BoundExprKind::Template(parts) => t.expr_list("parts", program, file, parts),
            BoundExprKind::TemplateJoin(x) | BoundExprKind::Parens(x) => {
                t.expr_field("expr", program, file, x)
            }
            BoundExprKind::Unary { op, operand } => {
                t.field("op", json!(op.as_str()));
                t.expr_field("operand", program, file, operand);
            }
            BoundExprKind::Binary { op, lhs, rhs } => {
                t.field("op", json!(op.as_str()));
                t.expr_field("lhs", program, file, lhs);
                t.expr_field("rhs", program, file, rhs);
            }
            BoundExprKind::Conditional {
                condition,
                then_expr,
                else_expr,
            } => {
                t.expr_field("condition", program, file, condition);
                t.expr_field("then", program, file, then_expr);
                t.expr_field("else", program, file, else_expr);
            }
            BoundExprKind::For(f) => {
                t.field("keyVar", json!(f.key_var));
                t.field("valueVar", json!(f.value_var));
                t.expr_field("collection", program, file, f.collection);
                t.opt_expr_field("key", program, file, f.key);
                t.expr_field("value", program, file, f.value);
                t.opt_expr_field("condition", program, file, f.condition);
                t.field("grouping", json!(f.grouping));
            }
            BoundExprKind::Splat { source, each } => {
                t.expr_field("source", program, file, source);
                t.expr_field("each", program, file, each);
            }
            BoundExprKind::SplatItem | BoundExprKind::Error => {}
            BoundExprKind::Call(c) => {
                t.field("name", json!(c.name));
                t.field("nameRange", self.range(file, c.name_range));
                let function = match c.function {
                    Some(Function::Builtin(b)) => json!({"kind": "builtin", "name": b.name()}),
                    Some(Function::Invoke) => json!({"kind": "invoke", "token": c.invoke_token}),
                    Some(Function::Call) => json!({"kind": "call"}),
                    Some(Function::Static(_)) => json!({"kind": "static"}),
                    None => Json::Null,
                };
                t.field("function", function);
                t.expr_list("args", program, file, c.args);
                t.field("expandFinal", json!(c.expand_final));
            }
            BoundExprKind::Index { collection, key } => {
                t.expr_field("collection", program, file, collection);
                t.expr_field("key", program, file, key);
            }
            BoundExprKind::Object(items) => {
                t.push(Task::Key("items"));
                t.push(Task::Begin(Container::Array));
                for (k, v) in items.iter() {
                    t.push(Task::Begin(Container::Object));
                    t.expr_field("key", program, file, k);
                    t.expr_field("value", program, file, v);
                    t.push(Task::End);
                }
                t.push(Task::End);
            }
            BoundExprKind::Tuple(items) => t.expr_list("items", program, file, items),
            BoundExprKind::ScopeTraversal(traversal) => {
                t.field("root", json!(&*traversal.root));
                t.field("rootRange", self.range(file, traversal.root_range));
                t.field(
                    "reference",
                    reference(program, traversal.definition.as_ref()),
                );
                t.field("steps", self.steps(file, &traversal.steps));
            }
            BoundExprKind::RelativeTraversal { source, steps } => {
                t.expr_field("source", program, file, source);
                t.field("steps", self.steps(file, steps));
            }
        }
        t.push(Task::End);
        t
    }

    /// A type: its index in the document's `types`.
    fn ty(&mut self, t: &Type) -> Json {
        json!(self.types.intern(t))
    }

    fn range_kind(&mut self, range: Option<&RangeKind>) -> Json {
        match range {
            None => Json::Null,
            Some(RangeKind::Bool) => json!({"kind": "bool"}),
            Some(RangeKind::Count) => json!({"kind": "count"}),
            Some(RangeKind::List { key, value }) => {
                json!({"kind": "list", "key": self.ty(key), "value": self.ty(value)})
            }
            Some(RangeKind::Map { key, value }) => {
                json!({"kind": "map", "key": self.ty(key), "value": self.ty(value)})
            }
        }
    }

    fn steps(&mut self, file: FileId, steps: &[BoundStep]) -> Json {
        let list: Vec<Json> = steps
            .iter()
            .map(|s| {
                let ty = self.ty(&s.ty);
                let (kind, key, v) = match &s.kind {
                    BoundStepKind::Attr(name) => ("attr", "name", json!(&**name)),
                    BoundStepKind::Index(v) => ("index", "key", value(v)),
                };
                let mut m = Map::new();
                m.insert("kind".into(), json!(kind));
                m.insert(key.into(), v);
                m.insert("type".into(), ty);
                m.insert("range".into(), self.range(file, s.range));
                Json::Object(m)
            })
            .collect();
        Json::Array(list)
    }
}

/// Byte offsets to [`Position`]s through the source map
/// ([`pcl_diagnostics::LineIndex`] checkpoints long lines, so a
/// 100 000-term chain written on one line is not quadratic).
struct Positions<'a> {
    sources: &'a SourceMap,
}

impl<'a> Positions<'a> {
    fn new(sources: &'a SourceMap) -> Positions<'a> {
        Positions { sources }
    }

    /// The file's display name and the span's start and end.
    fn span(&mut self, span: Span) -> (String, Position, Position) {
        match self.sources.get(span.file) {
            Some(file) => (
                file.name().to_string(),
                file.position(span.range.start),
                file.position(span.range.end),
            ),
            None => {
                let origin = Position {
                    line: 1,
                    column: 1,
                    byte: 0,
                };
                ("<unknown>".to_string(), origin, origin)
            }
        }
    }
}

/// One open container.
struct Frame {
    container: Container,
    /// Indented (the `to_writer_pretty` layout) rather than compact.
    pretty: bool,
    has_value: bool,
}

/// A JSON writer producing `serde_json::to_writer_pretty`'s layout (two
/// spaces of indentation, `": "` after keys, `[]` and `{}` when empty) up
/// to [`PRETTY_DEPTH`], compact JSON below that. It keeps the open
/// containers on its own stack, so nesting costs no call stack.
struct JsonWriter<W: Write> {
    out: W,
    frames: Vec<Frame>,
}

impl<W: Write> JsonWriter<W> {
    fn new(out: W) -> JsonWriter<W> {
        JsonWriter {
            out,
            frames: Vec::new(),
        }
    }

    fn into_inner(self) -> W {
        self.out
    }

    /// Before an array element or an object key.
    fn separator(&mut self) -> io::Result<()> {
        let depth = self.frames.len();
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        let first = !frame.has_value;
        frame.has_value = true;
        if frame.pretty {
            self.out.write_all(if first { b"\n" } else { b",\n" })?;
            for _ in 0..depth {
                self.out.write_all(b"  ")?;
            }
        } else if !first {
            self.out.write_all(b",")?;
        }
        Ok(())
    }

    fn before_value(&mut self) -> io::Result<()> {
        match self.frames.last() {
            Some(f) if f.container == Container::Array => self.separator(),
            _ => Ok(()),
        }
    }

    fn key(&mut self, key: &str) -> io::Result<()> {
        self.separator()?;
        self.scalar(key)?;
        let pretty = self.frames.last().is_some_and(|f| f.pretty);
        self.out.write_all(if pretty { b": " } else { b":" })
    }

    fn begin(&mut self, container: Container) -> io::Result<()> {
        self.before_value()?;
        let pretty =
            self.frames.len() < PRETTY_DEPTH && self.frames.last().is_none_or(|f| f.pretty);
        self.frames.push(Frame {
            container,
            pretty,
            has_value: false,
        });
        self.out.write_all(match container {
            Container::Object => b"{",
            Container::Array => b"[",
        })
    }

    fn end(&mut self) -> io::Result<()> {
        let Some(frame) = self.frames.pop() else {
            return Ok(());
        };
        if frame.pretty && frame.has_value {
            self.out.write_all(b"\n")?;
            for _ in 0..self.frames.len() {
                self.out.write_all(b"  ")?;
            }
        }
        self.out.write_all(match frame.container {
            Container::Object => b"}",
            Container::Array => b"]",
        })
    }

    /// Any value, walked with an explicit stack.
    fn value(&mut self, value: &Json) -> io::Result<()> {
        enum Step<'v> {
            Value(&'v Json),
            Key(&'v str),
            End,
        }
        let mut stack = vec![Step::Value(value)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Key(k) => self.key(k)?,
                Step::End => self.end()?,
                Step::Value(Json::Array(items)) => {
                    self.begin(Container::Array)?;
                    stack.push(Step::End);
                    stack.extend(items.iter().rev().map(Step::Value));
                }
                Step::Value(Json::Object(map)) => {
                    self.begin(Container::Object)?;
                    stack.push(Step::End);
                    for (k, v) in map.iter().rev() {
                        stack.push(Step::Value(v));
                        stack.push(Step::Key(k));
                    }
                }
                Step::Value(scalar) => {
                    self.before_value()?;
                    self.scalar(scalar)?;
                }
            }
        }
        Ok(())
    }

    /// A string value.
    fn string(&mut self, text: &str) -> io::Result<()> {
        self.before_value()?;
        self.scalar(text)
    }

    /// A scalar, compact, with unsafe characters escaped.
    fn scalar<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        let mut serializer = serde_json::Serializer::with_formatter(
            &mut self.out,
            SafeFormatter(serde_json::ser::CompactFormatter),
        );
        serde::Serialize::serialize(value, &mut serializer).map_err(io::Error::from)
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
        Some(Definition::Variable(v)) => json!({"kind": "variable", "name": v.name}),
        Some(Definition::Null) => json!({"kind": "null"}),
        Some(Definition::Keyword(k)) => json!({"kind": "keyword", "name": &**k}),
        Some(Definition::ResourceProperty(p)) => {
            json!({"kind": "resourceProperty", "name": p.name})
        }
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use pcl_binder::{check_program, BindPolicy};
    use pcl_schema::MemoryLoader;

    fn written(value: &Json) -> String {
        let mut json = JsonWriter::new(Vec::new());
        json.value(value).unwrap();
        String::from_utf8(json.into_inner()).unwrap()
    }

    /// `n` arrays around `leaf`.
    fn nested(n: usize, leaf: Json) -> Json {
        (0..n).fold(leaf, |v, _| Json::Array(vec![v]))
    }

    #[test]
    fn writer_reproduces_to_writer_pretty() {
        let value = json!({
            "version": 1,
            "empty": {"a": [], "o": {}},
            "text": "tab\there \"quoted\" \\ \u{1} é 🦀",
            "numbers": [0, -7, 1.5, 1e300, u64::MAX],
            "mixed": [null, true, false, {"k": [[], [{}], [1, [2, [3]]]]}],
            "range": {"start": {"line": 1, "column": 2, "byte": 3}},
        });
        assert_eq!(
            written(&value),
            serde_json::to_string_pretty(&value).unwrap()
        );
        // The object and its array are at depths PRETTY_DEPTH - 1 and PRETTY_DEPTH.
        let deep = nested(PRETTY_DEPTH - 2, json!({"x": [1, 2]}));
        assert_eq!(written(&deep), serde_json::to_string_pretty(&deep).unwrap());
        assert_eq!(written(&json!([])), "[]");
        assert_eq!(written(&json!("s")), "\"s\"");
    }

    /// Containers below [`PRETTY_DEPTH`] are compact; everything above
    /// them keeps the pretty layout.
    #[test]
    fn containers_deeper_than_the_pretty_depth_are_compact() {
        let leaf = json!({"a": [1, 2], "b": {}});
        let actual = written(&nested(PRETTY_DEPTH + 2, leaf.clone()));
        let placeholder = serde_json::to_string_pretty(&nested(PRETTY_DEPTH, json!("X"))).unwrap();
        let expected = placeholder.replace("\"X\"", "[[{\"a\":[1,2],\"b\":{}}]]");
        assert_eq!(actual, expected);
        let max_indent = actual
            .lines()
            .map(|l| l.len() - l.trim_start().len())
            .max()
            .unwrap();
        assert_eq!(max_indent, 2 * PRETTY_DEPTH);
    }

    /// A 100 000-term chain's model is written on a 2 MiB stack, every
    /// level present, and compact below the pretty depth.
    #[test]
    fn long_chain_model_is_written_on_a_small_stack() {
        let text = format!(
            "x = 1{}\noutput y {{\n  value = x\n}}\n",
            " + 1".repeat(99_999)
        );
        let out = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || {
                let checked = check_program(
                    &[("main.pp".to_string(), text)],
                    &MemoryLoader::new(),
                    &BindPolicy::strict(),
                );
                let (program, sources, diagnostics) = checked.into_parts();
                assert!(diagnostics.is_empty(), "{diagnostics:?}");
                let result = ProgramResult {
                    path: "main.pp".into(),
                    program,
                    sources,
                    diagnostics,
                };
                let mut out = Vec::new();
                write(&[result], &mut out).unwrap();
                out
            })
            .unwrap()
            .join()
            .expect("writing the model overflowed its stack");
        let text = String::from_utf8(out).unwrap();
        let count = |s: &str| text.matches(s).count();
        let binary = count("\"kind\": \"BinaryOpExpression\"");
        let compact = count("\"kind\":\"BinaryOpExpression\"");
        assert!(binary > 10 && compact > 90_000, "{binary} {compact}");
        assert_eq!(binary + compact, 99_999);
        assert_eq!(count("\"op\": \"+\"") + count("\"op\":\"+\""), 99_999);
        assert!(text.len() < 64 << 20, "{} bytes", text.len());
        assert!(text.starts_with("{\n  \"version\": 2,\n  \"programs\": [\n"));
        let types = text.rfind("\n  ],\n  \"types\": [\n").unwrap();
        assert!(text[types..].ends_with("\n  ]\n}\n"), "{}", &text[types..]);
        assert!(
            text[types..].contains("\n    \"number\""),
            "{}",
            &text[types..]
        );
    }
}
