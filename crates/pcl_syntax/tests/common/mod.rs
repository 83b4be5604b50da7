//! Helpers shared by the integration tests: fixture and corpus discovery,
//! the structural invariants every parse must satisfy, and two renderings
//! of a tree that ignore byte ranges: a compact S-expression ([`shape_body`])
//! and a block/attribute outline ([`outline`]) for comparing with hcl-edit.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pcl_diagnostics::{Diagnostic, TextRange};
use pcl_syntax::tree::{
    BodyRef, ExprKind, ExprRef, ForKind, Item, List, Literal, NumberValue, Part, PartRef,
    SplatKind, StepKind, Strip, TemplateKind, TemplateRef,
};
use pcl_syntax::Token;

/// `testdata/syntax` at the workspace root.
pub fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/syntax")
}

/// The corpus's 337 `.pp` files, less a margin: fewer means it was
/// truncated.
#[allow(dead_code)]
pub const MIN_CORPUS_FILES: usize = 330;

/// `../shared/corpus` next to the workspace, if present; absent, `test`
/// is skipped locally and fails under `PCL_REQUIRE_CORPUS=1`.
pub fn corpus_dir(test: &str) -> Option<PathBuf> {
    pcl_testkit::shared("corpus/programs", test)?;
    Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// Every `*.pp` file under `dir`, recursively, sorted.
pub fn pp_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "pp") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The `.pp` files of the corpus (empty when the corpus is absent and not
/// required); at least [`MIN_CORPUS_FILES`] when it is there.
pub fn corpus_files(test: &str) -> Vec<PathBuf> {
    let files = corpus_dir(test)
        .map(|dir| pp_files(&dir.join("programs")))
        .unwrap_or_default();
    if !files.is_empty() || pcl_testkit::required() {
        pcl_testkit::at_least("corpus .pp files", files.len(), MIN_CORPUS_FILES);
    }
    files
}

/// The valid golden inputs (`testdata/syntax/ok/*.pp`).
pub fn ok_fixtures() -> Vec<PathBuf> {
    pp_files(&golden_dir().join("ok"))
}

/// Every golden input, valid or not.
pub fn all_fixtures() -> Vec<PathBuf> {
    let mut files = pp_files(&golden_dir().join("ok"));
    files.extend(pp_files(&golden_dir().join("err")));
    files
}

pub fn read(path: &Path) -> String {
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => panic!("{} is not UTF-8: {err}", path.display()),
        },
        Err(err) => panic!("cannot read {}: {err}", path.display()),
    }
}

/// Tokens are non-empty, contiguous, in order, and cover `text` exactly.
pub fn check_tokens(text: &str, tokens: &[Token]) -> Result<(), String> {
    let mut expected_start = 0u32;
    for (idx, token) in tokens.iter().enumerate() {
        if token.range.start != expected_start {
            return Err(format!(
                "token #{idx} {:?} starts at {} but the previous token ended at {expected_start}",
                token.kind, token.range.start
            ));
        }
        if token.range.end <= token.range.start {
            return Err(format!(
                "token #{idx} {:?} is empty ({})",
                token.kind, token.range
            ));
        }
        if text.get(token.range.to_usize()).is_none() {
            return Err(format!(
                "token #{idx} {:?} {} does not lie on char boundaries",
                token.kind, token.range
            ));
        }
        expected_start = token.range.end;
    }
    if expected_start as usize != text.len() {
        return Err(format!(
            "tokens end at {expected_start}, input is {} bytes",
            text.len()
        ));
    }
    Ok(())
}

/// Every diagnostic range lies within the input.
pub fn check_diagnostic_ranges(text: &str, diagnostics: &[Diagnostic]) -> Result<(), String> {
    for diag in diagnostics {
        let range = diag.span.range;
        if range.end as usize > text.len() || range.start > range.end {
            return Err(format!(
                "diagnostic `{}` has range {} outside the {}-byte input",
                diag.summary,
                range,
                text.len()
            ));
        }
        for related in diag.related() {
            if related.span.range.end as usize > text.len() {
                return Err(format!(
                    "related label of `{}` has range {} outside the input",
                    diag.summary, related.span.range
                ));
            }
        }
    }
    Ok(())
}

/// Every node's range lies inside its parent's, and the body inside the input.
pub fn check_tree_ranges(text: &str, body: BodyRef<'_>) -> Result<(), String> {
    let whole = TextRange::from_usize(0..text.len());
    let mut errors = Vec::new();
    ranges_body(body, whole, &mut errors);
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(format!("{} range errors; first: {first}", errors.len())),
    }
}

fn within(what: &str, child: TextRange, parent: TextRange, errors: &mut Vec<String>) {
    if !parent.contains_range(child) {
        errors.push(format!("{what} {child} is not inside its parent {parent}"));
    }
}

fn ranges_body(body: BodyRef<'_>, parent: TextRange, errors: &mut Vec<String>) {
    within("body", body.range(), parent, errors);
    for item in body.items() {
        within("item", item.range(), body.range(), errors);
        match item.kind() {
            Item::Attribute(attr) => {
                within("attribute name", attr.name_range(), attr.range(), errors);
                ranges_expr(attr.expr(), attr.range(), errors);
            }
            Item::Block(block) => {
                within("block type", block.type_range(), block.range(), errors);
                for label in block.labels() {
                    within("label", label.range(), block.range(), errors);
                }
                ranges_body(block.body(), block.range(), errors);
            }
        }
    }
}

fn ranges_expr(expr: ExprRef<'_>, parent: TextRange, errors: &mut Vec<String>) {
    // The splat placeholder has an empty range by design; it sits wherever
    // the parser put it, so only its parent's range is checked.
    if matches!(expr.kind(), ExprKind::SplatItem) {
        return;
    }
    within("expression", expr.range(), parent, errors);
    let here = expr.range();
    match expr.kind() {
        ExprKind::Literal(_) | ExprKind::Variable(_) | ExprKind::SplatItem | ExprKind::Error => {}
        ExprKind::Template(template) => ranges_parts(template.parts(), here, errors),
        ExprKind::Traversal(trav) => {
            ranges_expr(trav.source(), here, errors);
            for step in trav.steps() {
                within("step", step.range(), here, errors);
                if let StepKind::Index(index) = step.kind() {
                    ranges_expr(index, step.range(), errors);
                }
            }
        }
        ExprKind::Splat(splat) => {
            ranges_expr(splat.source(), here, errors);
            within("splat marker", splat.marker_range(), here, errors);
            ranges_expr(splat.each(), here, errors);
        }
        ExprKind::Call(call) => {
            within("call name", call.name_range(), here, errors);
            for arg in call.args() {
                ranges_expr(arg, here, errors);
            }
        }
        ExprKind::For(for_expr) => {
            ranges_expr(for_expr.collection(), here, errors);
            if let Some(key) = for_expr.key_expr() {
                ranges_expr(key, here, errors);
            }
            ranges_expr(for_expr.value_expr(), here, errors);
            if let Some(cond) = for_expr.condition() {
                ranges_expr(cond, here, errors);
            }
        }
        ExprKind::Conditional(cond) => {
            ranges_expr(cond.condition, here, errors);
            ranges_expr(cond.then_expr, here, errors);
            ranges_expr(cond.else_expr, here, errors);
        }
        ExprKind::Binary(bin) => {
            ranges_expr(bin.lhs, here, errors);
            within("operator", bin.op_range, here, errors);
            ranges_expr(bin.rhs, here, errors);
        }
        ExprKind::Unary(un) => {
            within("operator", un.op_range, here, errors);
            ranges_expr(un.operand, here, errors);
        }
        ExprKind::Tuple(items) => {
            for item in items {
                ranges_expr(item, here, errors);
            }
        }
        ExprKind::Object(items) => {
            for item in items {
                within("object item", item.range(), here, errors);
                ranges_expr(item.key(), item.range(), errors);
                ranges_expr(item.value(), item.range(), errors);
            }
        }
        ExprKind::Parens(inner) => ranges_expr(inner, here, errors),
    }
}

fn ranges_parts(parts: List<'_, PartRef<'_>>, parent: TextRange, errors: &mut Vec<String>) {
    for part in parts {
        within("template part", part.range(), parent, errors);
        match part.kind() {
            Part::Literal(_) => {}
            Part::Interpolation(interp) => ranges_expr(interp.expr(), interp.range(), errors),
            Part::If(dir) => {
                ranges_expr(dir.condition(), dir.range(), errors);
                ranges_parts(dir.then_parts(), dir.range(), errors);
                if let Some(else_parts) = dir.else_parts() {
                    ranges_parts(else_parts, dir.range(), errors);
                }
            }
            Part::For(dir) => {
                ranges_expr(dir.collection(), dir.range(), errors);
                ranges_parts(dir.body(), dir.range(), errors);
            }
        }
    }
}

/// A compact S-expression of a body that ignores byte ranges and trivia.
pub fn shape_body(body: BodyRef<'_>) -> String {
    let mut out = String::new();
    shape_body_into(body, 0, &mut out);
    out
}

fn shape_body_into(body: BodyRef<'_>, indent: usize, out: &mut String) {
    for item in body.items() {
        let pad = "  ".repeat(indent);
        match item.kind() {
            Item::Attribute(attr) => {
                let _ = writeln!(
                    out,
                    "{pad}attr {} = {}",
                    attr.name(),
                    shape_expr(attr.expr())
                );
            }
            Item::Block(block) => {
                let labels: Vec<String> = block
                    .labels()
                    .iter()
                    .map(|l| format!("{:?}", l.value()))
                    .collect();
                let _ = writeln!(
                    out,
                    "{pad}block {} [{}] {{",
                    block.type_name(),
                    labels.join(" ")
                );
                shape_body_into(block.body(), indent + 1, out);
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }
}

/// A compact S-expression of an expression (see the module docs of the
/// golden test for the notation).
pub fn shape_expr(expr: ExprRef<'_>) -> String {
    match expr.kind() {
        ExprKind::Literal(Literal::Bool(value)) => format!("lit({value})"),
        ExprKind::Literal(Literal::Null) => "lit(null)".to_string(),
        ExprKind::Literal(Literal::Number(number)) => match number.value {
            NumberValue::Int(value) => format!("lit({value})"),
            NumberValue::Big(value) => format!("lit({value})"),
            NumberValue::Fraction(_) => format!("lit({})", number.text),
            NumberValue::Invalid => format!("badnum({})", number.text),
        },
        ExprKind::Template(template) => shape_template(template),
        ExprKind::Variable(ident) => format!("var({})", ident.name),
        ExprKind::Traversal(trav) => {
            let mut out = shape_expr(trav.source());
            for step in trav.steps() {
                match step.kind() {
                    StepKind::Attr(name) => {
                        let _ = write!(out, ".{}", name.name);
                    }
                    StepKind::Index(index) => {
                        let _ = write!(out, "[{}]", shape_expr(index));
                    }
                    StepKind::LegacyIndex { value, .. } => {
                        let _ = write!(out, ".{value}");
                    }
                }
            }
            out
        }
        ExprKind::Splat(splat) => {
            let marker = match splat.kind() {
                SplatKind::Attr => ".*",
                SplatKind::Full => "[*]",
            };
            format!(
                "splat({}{marker}, each={})",
                shape_expr(splat.source()),
                shape_expr(splat.each())
            )
        }
        ExprKind::SplatItem => "@".to_string(),
        ExprKind::Call(call) => {
            let args: Vec<String> = call.args().iter().map(shape_expr).collect();
            let dots = if call.expand_final() { "..." } else { "" };
            format!("call {}({}{dots})", call.name(), args.join(", "))
        }
        ExprKind::For(for_expr) => {
            let vars = match for_expr.key_var() {
                Some(key) => format!("{}, {}", key.name, for_expr.value_var().name),
                None => for_expr.value_var().name.to_string(),
            };
            let key = for_expr
                .key_expr()
                .map(|k| format!("{} => ", shape_expr(k)))
                .unwrap_or_default();
            let group = if for_expr.grouping() { "..." } else { "" };
            let cond = for_expr
                .condition()
                .map(|c| format!(" if {}", shape_expr(c)))
                .unwrap_or_default();
            let body = format!(
                "for {vars} in {}: {key}{}{group}{cond}",
                shape_expr(for_expr.collection()),
                shape_expr(for_expr.value_expr())
            );
            match for_expr.kind() {
                ForKind::Tuple => format!("[{body}]"),
                ForKind::Object => format!("{{{body}}}"),
            }
        }
        ExprKind::Conditional(cond) => format!(
            "cond({} ? {} : {})",
            shape_expr(cond.condition),
            shape_expr(cond.then_expr),
            shape_expr(cond.else_expr)
        ),
        ExprKind::Binary(bin) => format!(
            "({} {} {})",
            shape_expr(bin.lhs),
            bin.op.as_str(),
            shape_expr(bin.rhs)
        ),
        ExprKind::Unary(un) => format!("{}({})", un.op.as_str(), shape_expr(un.operand)),
        ExprKind::Tuple(items) => {
            let items: Vec<String> = items.iter().map(shape_expr).collect();
            format!("tuple[{}]", items.join(", "))
        }
        ExprKind::Object(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| format!("{} = {}", shape_expr(item.key()), shape_expr(item.value())))
                .collect();
            format!("object{{{}}}", items.join(", "))
        }
        ExprKind::Parens(inner) => format!("paren({})", shape_expr(inner)),
        ExprKind::Error => "ERR".to_string(),
    }
}

pub fn shape_template(template: TemplateRef<'_>) -> String {
    let kind = match template.kind() {
        TemplateKind::Quoted => "tmpl".to_string(),
        TemplateKind::Heredoc { marker, flush } => {
            format!("heredoc{}{}", if flush { "-" } else { "" }, marker)
        }
        TemplateKind::Bare => "bare".to_string(),
    };
    format!("{kind}({})", shape_parts(template.parts()))
}

fn strip_marks(strip: Strip) -> (&'static str, &'static str) {
    (
        if strip.left { "~" } else { "" },
        if strip.right { "~" } else { "" },
    )
}

fn shape_parts(parts: List<'_, PartRef<'_>>) -> String {
    let parts: Vec<String> = parts
        .iter()
        .map(|part| match part.kind() {
            Part::Literal(lit) => format!("{:?}", lit.value()),
            Part::Interpolation(interp) => {
                let (l, r) = strip_marks(interp.strip());
                format!("${{{l}{}{r}}}", shape_expr(interp.expr()))
            }
            Part::If(dir) => {
                let else_part = dir
                    .else_parts()
                    .map(|parts| format!(" else {}", shape_parts(parts)))
                    .unwrap_or_default();
                format!(
                    "%if {} then {}{else_part} endif",
                    shape_expr(dir.condition()),
                    shape_parts(dir.then_parts())
                )
            }
            Part::For(dir) => {
                let vars = match dir.key_var() {
                    Some(key) => format!("{}, {}", key.name, dir.value_var().name),
                    None => dir.value_var().name.to_string(),
                };
                format!(
                    "%for {vars} in {} do {} endfor",
                    shape_expr(dir.collection()),
                    shape_parts(dir.body())
                )
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// The attribute/block structure of a body, one line per item:
/// `attr a.b.name` or `block a.b.type ["label", …]`, where the prefix is
/// the path of enclosing block types.
pub fn outline(body: BodyRef<'_>) -> Vec<String> {
    let mut out = Vec::new();
    outline_into(body, "", &mut out);
    out
}

fn outline_into(body: BodyRef<'_>, prefix: &str, out: &mut Vec<String>) {
    for item in body.items() {
        match item.kind() {
            Item::Attribute(attr) => out.push(format!("attr {prefix}{}", attr.name())),
            Item::Block(block) => {
                let labels: Vec<String> = block
                    .labels()
                    .iter()
                    .map(|l| format!("{:?}", l.value()))
                    .collect();
                out.push(format!(
                    "block {prefix}{} [{}]",
                    block.type_name(),
                    labels.join(", ")
                ));
                outline_into(
                    block.body(),
                    &format!("{prefix}{}.", block.type_name()),
                    out,
                );
            }
        }
    }
}
