//! pcl_yaml: converts a bound PCL program to a Pulumi YAML program, the
//! way pulumi-yaml's Go generator (`pkg/pulumiyaml/codegen/gen_program.go`)
//! does, byte for byte where it can (`pcl convert --to yaml`).
//!
//! It is a client of the `pcl` façade only (a test checks that its
//! manifest depends on no other workspace crate): it walks
//! [`pcl::Program::nodes`] (Go's `program.Nodes`, declaration order) and
//! each node's bound expressions, and builds a YAML document that
//! [`emit`] lays out as Go's yaml.v3 encoder does.
//!
//! What the YAML has, in this order: `configuration` (config blocks),
//! `resources`, `variables` (locals, invokes as `fn::invoke`), `outputs`,
//! `pulumi` (`requiredVersion`). Resource types are written in their short
//! form (`aws:s3/bucket:Bucket` → `aws:s3:Bucket`), templates as `${…}`
//! strings (or `fn::join` when a part is not a string), builtins as
//! `fn::<name>`, and comments before a declaration or an input, or after
//! it on its line, as YAML comments on its key.
//!
//! What YAML cannot express is an error naming the feature and where it
//! is, as Go's generator reports it: `for` and splat expressions, binary
//! and conditional operators, functions Pulumi YAML lacks, components,
//! hooks and `range`. [`convert`] still returns the document (with a
//! placeholder where the feature was), so that a caller may show it.

pub mod emit;

use pcl::{
    BoundExprKind, BoundRef, BoundScopeTraversal, BoundStep, BoundStepKind, BoundTree, Checked,
    Code, ConfigNode, Diagnostic, FileId, Node, NodeKind, Program, ResourceNode, ResourceOptions,
    Span, TextRange, Type, TypeKind, UnaryOp, Value,
};

use emit::{Entry, Yaml};
use pcl::go_quote;

/// The code of a PCL feature Pulumi YAML cannot express (an error).
pub const UNSUPPORTED: Code = Code("yaml-unsupported");

/// The result of a conversion: the YAML text and what could not be
/// converted.
#[derive(Debug)]
pub struct Converted {
    /// `Main.yaml`'s text (complete even with errors, with placeholders).
    pub yaml: String,
    /// Errors for the features YAML cannot express, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Converted {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Converts a checked program. Comments are read from the checked sources
/// (Go copies a comment's raw text, indentation included, so the text
/// between the comments of a group matters).
pub fn convert(checked: &Checked<Program>) -> Converted {
    let mut g = Generator {
        sources: checked.sources(),
        file: FileId(0),
        diagnostics: Vec::new(),
        config: Vec::new(),
        resources: Vec::new(),
        variables: Vec::new(),
        outputs: Vec::new(),
        pulumi: Vec::new(),
        carried: Vec::new(),
    };
    // Go's trivia gives a comment at the end of a line to the next
    // token: a declaration's trailing comment leads the next declaration
    // of its file (in source order), and is lost after the last one.
    let nodes = checked.value().nodes();
    let mut by_position: Vec<&Node> = nodes.iter().collect();
    by_position.sort_by_key(|n| (n.file().0, n.span.range.start));
    g.carried = vec![Vec::new(); nodes.len()];
    for pair in by_position.windows(2) {
        if let [before, after] = pair {
            if before.file() == after.file() {
                if let Some(slot) = g.carried.get_mut(after.id.0 as usize) {
                    *slot = before.trailing_comments().iter().map(|c| c.range).collect();
                }
            }
        }
    }
    for node in nodes {
        g.node(node);
    }
    let mut top = Vec::new();
    for (name, entries) in [
        ("configuration", std::mem::take(&mut g.config)),
        ("resources", std::mem::take(&mut g.resources)),
        ("variables", std::mem::take(&mut g.variables)),
        ("outputs", std::mem::take(&mut g.outputs)),
        ("pulumi", std::mem::take(&mut g.pulumi)),
    ] {
        if !entries.is_empty() {
            top.push(Entry::new(name, Yaml::Map(entries)));
        }
    }
    Converted {
        yaml: emit::to_string(&Yaml::Map(top)),
        diagnostics: g.diagnostics,
    }
}

/// Go's `collapseToken`: `fizz:index/buzz:Buzz` → `fizz:Buzz`,
/// `fizz:mod/buzz:Buzz` → `fizz:mod:Buzz`, `foo:index:Bar` and `foo::Bar`
/// → `foo:Bar`; anything else unchanged.
pub fn collapse_token(token: &str) -> String {
    let mut parts: Vec<&str> = token.split(':').collect();
    if let [pkg, module, member] = parts[..] {
        let mut module = module;
        if let Some((head, tail)) = module.split_once('/') {
            if !tail.contains('/') && title(tail) == member {
                module = head;
            }
        }
        parts = if module == "index" || module.is_empty() {
            vec![pkg, member]
        } else {
            vec![pkg, module, member]
        };
    }
    parts.join(":")
}

/// The first character upper-cased (Go's `strings.ToTitle` of it).
fn title(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// pulumi-yaml's property name rule for traversal roots and attributes.
fn is_property_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Go's `quoteIndex`: a bracket key in double quotes, `"` and `\`
/// escaped.
fn quote_index(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Go's `asEscapedString`: quotes `s`, escaping each `"` not already
/// escaped.
fn as_escaped_string(s: &str) -> String {
    let s = s.strip_suffix('"').unwrap_or(s);
    let s = s.strip_prefix('"').unwrap_or(s);
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut escaped = false;
    for c in s.chars() {
        match c {
            '\\' => escaped = !escaped,
            '"' => {
                if !escaped {
                    out.push('\\');
                }
                escaped = false;
            }
            _ => escaped = false,
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Go's `convertTrivia` of a comment group's raw text: trimmed, one
/// leading `//` removed, trimmed again.
fn convert_trivia(raw: &str) -> String {
    let c = raw.trim();
    let c = c.strip_prefix("//").unwrap_or(c);
    c.trim().to_string()
}

struct Generator<'p> {
    sources: &'p pcl::SourceMap,
    /// The file of the node being converted (expression ranges are in it).
    file: FileId,
    diagnostics: Vec<Diagnostic>,
    config: Vec<Entry>,
    resources: Vec<Entry>,
    variables: Vec<Entry>,
    outputs: Vec<Entry>,
    pulumi: Vec<Entry>,
    /// Per node (by id): the trailing comments of the declaration before
    /// it in its file, which Go reads as the start of its own comments.
    carried: Vec<Vec<TextRange>>,
}

impl Generator<'_> {
    fn error(&mut self, range: TextRange, kind: &str, detail: impl Into<String>) {
        let summary = format!("Failed to generate YAML program: {kind}");
        self.diagnostics.push(
            Diagnostic::error(UNSUPPORTED, Span::new(self.file, range), summary)
                .with_detail(detail),
        );
    }

    /// The raw text of a run of comments (from the first's start to the
    /// last's end), as Go's trivia list prints it, then trimmed as Go's
    /// `convertTrivia` trims it.
    fn comment_text(&self, ranges: &[TextRange]) -> String {
        let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
            return String::new();
        };
        let raw = self
            .sources
            .get(self.file)
            .and_then(|f| f.text().get(first.start as usize..last.end as usize));
        convert_trivia(raw.unwrap_or(""))
    }

    /// An entry whose key carries `comments` as its head comment (Go
    /// writes no line comments: a comment at the end of a line belongs to
    /// the next token).
    fn keyed(&self, key: &str, comments: &[TextRange], value: Yaml) -> Entry {
        Entry {
            key: key.to_string(),
            head_comment: self.comment_text(comments),
            line_comment: String::new(),
            value,
        }
    }

    fn node_entry(&self, node: &Node, key: &str, value: Yaml) -> Entry {
        let mut comments = self
            .carried
            .get(node.id.0 as usize)
            .cloned()
            .unwrap_or_default();
        comments.extend(node.leading_comments().iter().map(|c| c.range));
        self.keyed(key, &comments, value)
    }

    fn node(&mut self, node: &Node) {
        self.file = node.file();
        match &node.kind {
            NodeKind::Resource(resource) => self.resource(node, resource),
            NodeKind::Config(config) => self.config(node, config),
            NodeKind::Local(local) => {
                let value = match &local.value {
                    Some(tree) => self.tree(tree),
                    None => Yaml::Null,
                };
                let entry = self.node_entry(node, &node.name, value);
                self.variables.push(entry);
            }
            NodeKind::Output(output) => {
                let value = match &output.value {
                    Some(tree) => self.tree(tree),
                    None => Yaml::Null,
                };
                let entry = self.node_entry(node, node.logical_name(), value);
                self.outputs.push(entry);
            }
            NodeKind::Pulumi(pulumi) => {
                if let Some(attr) = pulumi.attributes.iter().find(|a| a.name == "requiredVersionRange") {
                    let value = self.tree(&attr.value);
                    self.pulumi.push(Entry::new("requiredVersion", value));
                }
            }
            NodeKind::Component(_) => self.error(
                node.span.range,
                "Component",
                "Pulumi YAML cannot express components: a component block's program would have to be a separate YAML component package.",
            ),
            NodeKind::Hook(_) => self.error(
                node.span.range,
                "Hook",
                "Pulumi YAML cannot express resource hooks.",
            ),
        }
    }

    fn resource(&mut self, node: &Node, resource: &ResourceNode) {
        let mut properties = Vec::with_capacity(resource.inputs.len());
        let mut carried: Vec<TextRange> = Vec::new();
        for input in &resource.inputs {
            // A top-level `secret(x)` is dropped: YAML marks secrets by schema.
            let value = match input.value.strip_parens().kind() {
                BoundExprKind::Call(call) if call.name == "secret" && call.args.len() == 1 => {
                    match call.args.first() {
                        Some(arg) => self.expr(arg),
                        None => Yaml::Null,
                    }
                }
                _ => self.tree(&input.value),
            };
            let mut comments = std::mem::take(&mut carried);
            comments.extend(input.leading_comments.iter().map(|c| c.range));
            properties.push(self.keyed(&input.name, &comments, value));
            carried = input.trailing_comments.iter().map(|c| c.range).collect();
        }
        let mut token = resource.written_token();
        if token == "pulumi::StackReference" {
            token = "pulumi:pulumi:StackReference";
        }
        let mut entries = vec![Entry::new("type", Yaml::String(collapse_token(token)))];
        if node.logical_name() != node.name {
            entries.push(Entry::new(
                "name",
                Yaml::String(node.logical_name().to_string()),
            ));
        }
        if !properties.is_empty() {
            entries.push(Entry::new("properties", Yaml::Map(properties)));
        }
        if resource.range.is_some() {
            let range = resource
                .options
                .as_ref()
                .and_then(|o| o.attributes.iter().find(|a| a.name == "range"))
                .map_or(node.name_span.range, |a| a.name_span.range);
            self.error(
                range,
                "Range",
                "Pulumi YAML cannot create a resource per item of a collection (`range`); unroll the resources by hand or use a more expressive language.",
            );
        }
        if let Some(options) = &resource.options {
            let options = self.options(options);
            entries.push(Entry::new("options", Yaml::Map(options)));
        }
        let entry = self.node_entry(node, &node.name, Yaml::Map(entries));
        self.resources.push(entry);
    }

    /// The options in the order Go's generator writes them
    /// ([`ResourceOptions::set_options`]); `hooks`, which YAML cannot
    /// express, is an error.
    fn options(&mut self, options: &ResourceOptions) -> Vec<Entry> {
        let mut out = Vec::new();
        for attribute in options.set_options() {
            let name = attribute.name.as_str();
            let tree = &attribute.value;
            let value = match name {
                "hooks" => {
                    self.error(
                        attribute.name_span.range,
                        "Hooks",
                        "Pulumi YAML cannot express resource hooks.",
                    );
                    continue;
                }
                "providers" => match tree.strip_parens().kind() {
                    BoundExprKind::Object(pairs) => {
                        Yaml::List(pairs.iter().map(|(_, v)| self.expr(v)).collect())
                    }
                    _ => self.tree(tree),
                },
                "ignoreChanges" | "hideDiffs" | "additionalSecretOutputs" | "replaceOnChanges" => {
                    match self.tree(tree) {
                        Yaml::List(items) => {
                            Yaml::List(items.into_iter().map(unquote_interpolation).collect())
                        }
                        other => other,
                    }
                }
                "protect" | "retainOnDelete" | "deleteBeforeReplace" => match self.tree(tree) {
                    Yaml::String(s) => Yaml::Bool(s == "true"),
                    other => other,
                },
                _ => self.tree(tree),
            };
            out.push(Entry::new(name, value));
        }
        out
    }

    fn config(&mut self, node: &Node, config: &ConfigNode) {
        let (ty, secret) = config_type(&node.ty);
        let mut entries = vec![Entry::new("type", Yaml::String(ty))];
        if node.logical_name() != node.name {
            entries.push(Entry::new(
                "name",
                Yaml::String(node.logical_name().to_string()),
            ));
        }
        if let Some(default) = &config.default {
            let value = self.tree(default);
            entries.push(Entry::new("default", value));
        }
        if secret || config.secret {
            entries.push(Entry::new("secret", Yaml::Bool(true)));
        }
        let entry = self.node_entry(node, &node.name, Yaml::Map(entries));
        self.config.push(entry);
    }

    fn tree(&mut self, tree: &BoundTree) -> Yaml {
        self.expr(tree.root())
    }

    fn expr(&mut self, e: BoundRef<'_>) -> Yaml {
        match e.kind() {
            BoundExprKind::Literal(value) => literal(value),
            BoundExprKind::Unary { op, operand } => {
                if op == UnaryOp::Negate {
                    if let BoundExprKind::Literal(Value::Number(n)) = operand.strip_parens().kind()
                    {
                        return Yaml::Number(-n.to_f64());
                    }
                }
                self.error(
                    e.range(),
                    "Unsupported unary operation",
                    "Invalid unary application encountered (only negation of numeric literals is supported at present)",
                );
                Yaml::String("Unimplemented".into())
            }
            BoundExprKind::Call(_) => self.function(e, None),
            BoundExprKind::RelativeTraversal { source, steps } => {
                let source = source.strip_parens();
                if let BoundExprKind::Call(call) = source.kind() {
                    if call.name == "invoke" {
                        let ret = self.steps_text(None, steps);
                        return self.function(source, Some(ret));
                    }
                    if !steps.is_empty() {
                        self.error(
                            source.range(),
                            "Traversal not allowed on function result",
                            format!("Cannot traverse the return value of fn::{}", call.name),
                        );
                    }
                    return self.function(source, None);
                }
                self.error(
                    e.range(),
                    "Unsupported Expression",
                    "This use of a relative traversal is not supported in YAML: YAML may not be expressive enough to support this expression.",
                );
                Yaml::String("Unimplemented Expression".into())
            }
            BoundExprKind::ScopeTraversal(traversal) => {
                Yaml::String(format!("${{{}}}", self.traversal_text(traversal)))
            }
            BoundExprKind::Template(parts) => {
                let values: Vec<Yaml> = parts.iter().map(|p| self.expr(p)).collect();
                if values.iter().all(|v| matches!(v, Yaml::String(_))) {
                    let mut s = String::new();
                    for v in &values {
                        if let Yaml::String(part) = v {
                            s.push_str(part);
                        }
                    }
                    Yaml::String(s)
                } else {
                    wrap_fn(
                        "join",
                        Yaml::List(vec![Yaml::String(String::new()), Yaml::List(values)]),
                    )
                }
            }
            BoundExprKind::Tuple(items) => Yaml::List(items.iter().map(|i| self.expr(i)).collect()),
            BoundExprKind::Object(pairs) => {
                let mut entries = Vec::with_capacity(pairs.len());
                for (key, value) in pairs.iter() {
                    let key = self.key(key);
                    let value = self.expr(value);
                    entries.push(Entry::new(key, value));
                }
                Yaml::Map(entries)
            }
            BoundExprKind::Parens(inner) => self.expr(inner),
            BoundExprKind::Splat { .. } | BoundExprKind::SplatItem => {
                self.error(
                    e.range(),
                    "Splat",
                    "A 'Splat' expression is equivalent in expressive power to a 'for loop', and is not representable in YAML. If the values of the function are known, you can manually unroll the loop, otherwise it is necessary to switch to a more expressive language.",
                );
                Yaml::String("Splat not implemented".into())
            }
            BoundExprKind::For(_) | BoundExprKind::TemplateJoin(_) => {
                self.error(
                    e.range(),
                    "For",
                    "Pulumi YAML cannot represent for loops. If the values of the for loop are known, you can manually unroll the loop, otherwise it is necessary to switch to a more expressive language.",
                );
                Yaml::String("For not implemented".into())
            }
            BoundExprKind::Binary { .. } => self.unimplemented(e, "binary operation"),
            BoundExprKind::Conditional { .. } => self.unimplemented(e, "conditional expression"),
            BoundExprKind::Index { .. } => self.unimplemented(e, "index expression"),
            BoundExprKind::Error => self.unimplemented(e, "erroneous expression"),
        }
    }

    fn unimplemented(&mut self, e: BoundRef<'_>, what: &str) -> Yaml {
        self.error(
            e.range(),
            what,
            format!("Pulumi YAML cannot express this {what}."),
        );
        Yaml::String("Unimplemented".into())
    }

    /// An object key: a string, or the text of what is not one.
    fn key(&mut self, key: BoundRef<'_>) -> String {
        match self.expr(key) {
            Yaml::String(s) => s,
            Yaml::Number(v) => emit::format_number(v),
            Yaml::Bool(b) => b.to_string(),
            Yaml::Null => "null".into(),
            other => format!("{other:?}"),
        }
    }

    fn traversal_text(&mut self, traversal: &BoundScopeTraversal) -> String {
        let root = traversal.root.as_str();
        let root = if is_property_name(root) {
            root.to_string()
        } else {
            format!("[{}]", as_escaped_string(root))
        };
        let root_type = traversal.root_type().clone();
        self.steps_text(Some((root, Some(root_type))), &traversal.steps)
    }

    /// Go's `Traversal.String()`: `root.a["k"][0]`, or without a root the
    /// steps with the leading `.` removed.
    fn steps_text(&mut self, root: Option<(String, Option<Type>)>, steps: &[BoundStep]) -> String {
        let (mut s, mut source) = match root {
            Some((name, ty)) => (name, ty),
            None => (String::new(), None),
        };
        let has_root = !s.is_empty();
        for step in steps {
            match &step.kind {
                BoundStepKind::Attr(name) => {
                    if is_property_name(name) {
                        s.push('.');
                        s.push_str(name);
                    } else {
                        s.push_str(&format!("[{}]", as_escaped_string(name)));
                    }
                }
                BoundStepKind::Index(Value::String(key)) => {
                    let object_like = source
                        .as_ref()
                        .is_some_and(|t| !matches!(t.kind(), TypeKind::Map(_) | TypeKind::Dynamic));
                    if object_like && is_property_name(key) {
                        s.push('.');
                        s.push_str(key);
                    } else if object_like {
                        s.push_str(&format!("[{}]", as_escaped_string(key)));
                    } else {
                        s.push_str(&format!("[{}]", quote_index(key)));
                    }
                }
                BoundStepKind::Index(Value::Number(n)) => {
                    let index = n.to_i64().unwrap_or_else(|| n.to_f64().trunc() as i64);
                    s.push_str(&format!("[{index}]"));
                }
                BoundStepKind::Index(other) => {
                    s.push_str(&format!("[{}]", as_escaped_string(&other.notation())));
                }
            }
            source = Some(step.ty.clone());
        }
        if has_root {
            s
        } else {
            s.strip_prefix('.').map(str::to_string).unwrap_or(s)
        }
    }

    /// A function call; `ret` is the traversal after an invoke.
    fn function(&mut self, e: BoundRef<'_>, ret: Option<String>) -> Yaml {
        let BoundExprKind::Call(call) = e.kind() else {
            return self.expr(e);
        };
        let args: Vec<BoundRef<'_>> = call.args.iter().collect();
        let name = call.name;
        let range = e.range();
        let arg = |g: &mut Self, i: usize| match args.get(i) {
            Some(a) => g.expr(*a),
            None => Yaml::Null,
        };
        match name {
            "stack" | "project" | "organization" | "rootDirectory" => {
                Yaml::String(format!("${{pulumi.{name}}}"))
            }
            "cwd" => Yaml::String("${pulumi.cwd}".into()),
            "invoke" => self.invoke(e, &args, ret),
            "fileArchive" | "remoteArchive" | "assetArchive" | "fileAsset" | "stringAsset"
            | "remoteAsset" | "toBase64" | "fromBase64" | "toJSON" | "readFile" | "filebase64"
            | "filebase64sha256" | "secret" | "unsecret" | "sha1" | "length" | "singleOrNone"
            | "pulumiResourceName" | "pulumiResourceType" => {
                let body = arg(self, 0);
                wrap_fn(name, body)
            }
            "join" => {
                let items = (0..args.len()).map(|i| arg(self, i)).collect();
                wrap_fn("join", Yaml::List(items))
            }
            "split" => {
                let a = arg(self, 0);
                let b = arg(self, 1);
                wrap_fn("split", Yaml::List(vec![a, b]))
            }
            "element" => {
                let a = arg(self, 0);
                let b = arg(self, 1);
                wrap_fn("select", Yaml::List(vec![b, a]))
            }
            "getOutput" => {
                let root = match arg(self, 0) {
                    Yaml::String(s) => s,
                    other => format!("{other:?}"),
                };
                let root = root
                    .strip_prefix("${")
                    .and_then(|r| r.strip_suffix('}'))
                    .unwrap_or(&root)
                    .to_string();
                let key = match arg(self, 1) {
                    Yaml::String(s) => go_quote(&s),
                    Yaml::Number(v) => emit::format_number(v),
                    other => format!("{other:?}"),
                };
                Yaml::String(format!("${{{root}.outputs[{key}]}}"))
            }
            "__convert" => match args.first() {
                Some(a) => self.expr(*a),
                None => {
                    self.error(range, "Malformed Convert Intrinsic", "Missing arguments");
                    wrap_fn(name, Yaml::Null)
                }
            },
            _ => {
                self.error(
                    call.name_range,
                    "Unknown Function",
                    format!("YAML does not support fn::{name}."),
                );
                wrap_fn(name, Yaml::Null)
            }
        }
    }

    fn invoke(&mut self, e: BoundRef<'_>, args: &[BoundRef<'_>], ret: Option<String>) -> Yaml {
        // Go's binder rewrites a resolved token to its canonical form.
        let written = args.first().map(|a| self.expr(*a));
        let canonical = match e.kind() {
            BoundExprKind::Call(call) => call
                .invoke()
                .filter(|t| t.is_resolved())
                .map(|t| t.canonical_token()),
            _ => None,
        };
        let token = match (canonical, written) {
            (Some(token), _) => collapse_token(token),
            (None, Some(Yaml::String(s))) => collapse_token(&s),
            _ => {
                self.error(
                    e.range(),
                    "Invoke",
                    "The first argument of invoke must be a token string.",
                );
                String::new()
            }
        };
        let arguments = match args.get(1) {
            Some(a) => {
                if !matches!(a.strip_parens().kind(), BoundExprKind::Object(_)) {
                    self.error(
                        a.range(),
                        "Invoke",
                        "The arguments of invoke must be an object.",
                    );
                }
                self.expr(*a)
            }
            None => Yaml::Null,
        };
        let mut options = Vec::new();
        if let Some(opts) = args.get(2) {
            if let BoundExprKind::Object(pairs) = opts.strip_parens().kind() {
                for (key, value) in pairs.iter() {
                    let key = match key.literal_string() {
                        Some("pluginDownloadUrl") => "pluginDownloadURL".to_string(),
                        _ => self.key(key),
                    };
                    let value = self.expr(value);
                    options.push(Entry::new(key, value));
                }
            }
        }
        let mut body = vec![
            Entry::new("function", Yaml::String(token)),
            Entry::new("arguments", arguments),
        ];
        if !options.is_empty() {
            body.push(Entry::new("options", Yaml::Map(options)));
        }
        if let Some(ret) = ret.filter(|r| !r.is_empty()) {
            body.push(Entry::new("return", Yaml::String(ret)));
        }
        wrap_fn("invoke", Yaml::Map(body))
    }
}

fn literal(value: &Value) -> Yaml {
    match value {
        Value::Null | Value::Unknown => Yaml::Null,
        Value::Bool(b) => Yaml::Bool(*b),
        Value::Number(n) => Yaml::Number(n.to_f64()),
        Value::String(s) => Yaml::String(s.replace("${", "$${")),
        Value::List(items) => Yaml::List(items.iter().map(literal).collect()),
    }
}

fn wrap_fn(name: &str, body: Yaml) -> Yaml {
    Yaml::Map(vec![Entry::new(format!("fn::{name}"), body)])
}

/// Go's `unquoteInterpolation`: `${x}` → `x`.
fn unquote_interpolation(item: Yaml) -> Yaml {
    match item {
        Yaml::String(s) => {
            let v = s.strip_prefix("${").unwrap_or(&s);
            let v = v.strip_suffix('}').unwrap_or(v);
            Yaml::String(v.to_string())
        }
        other => other,
    }
}

/// Go's `pclTypeToYAMLConfigType`: the YAML config type and whether the
/// type made it secret.
fn config_type(ty: &Type) -> (String, bool) {
    match ty.kind() {
        TypeKind::Output(inner) => (config_type(inner).0, true),
        TypeKind::List(inner) => {
            let (elem, secret) = config_type(inner);
            (format!("list<{elem}>"), secret)
        }
        TypeKind::Object(_) | TypeKind::Map(_) | TypeKind::Dynamic => ("object".into(), false),
        _ => (ty.to_string(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_collapse_as_go_collapses_them() {
        assert_eq!(collapse_token("aws:s3/bucket:Bucket"), "aws:s3:Bucket");
        assert_eq!(collapse_token("foo:index:Bar"), "foo:Bar");
        assert_eq!(collapse_token("foo::Bar"), "foo:Bar");
        assert_eq!(collapse_token("fizz:mod:buzz"), "fizz:mod:buzz");
        assert_eq!(collapse_token("fizz:index/buzz:Buzz"), "fizz:Buzz");
        assert_eq!(
            collapse_token("kubernetes:apps/v1:Deployment"),
            "kubernetes:apps/v1:Deployment"
        );
        assert_eq!(
            collapse_token("pulumi:providers:aws"),
            "pulumi:providers:aws"
        );
        assert_eq!(collapse_token("a:b"), "a:b");
    }

    #[test]
    fn escaped_strings_match_go() {
        assert_eq!(as_escaped_string(r#""foo"bar""#), r#""foo\"bar""#);
        assert_eq!(as_escaped_string("foo"), r#""foo""#);
        assert_eq!(quote_index(r#"a"b\c"#), r#""a\"b\\c""#);
    }

    #[test]
    fn go_quote_escapes_as_strconv_quote() {
        assert_eq!(go_quote("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\x01\"");
    }

    #[test]
    fn trivia_loses_one_leading_slashes() {
        assert_eq!(convert_trivia("  // a\n  // b\n"), "a\n  // b");
        assert_eq!(convert_trivia("# a"), "# a");
    }
}
