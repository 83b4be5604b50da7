//! `textDocument/signatureHelp`: the signature of the builtin or `invoke`
//! the cursor is in the arguments of, with the argument it is in.
//!
//! Builtins are described by `pcl_expr`'s usage strings (the text the
//! `builtin-*` diagnostics show); `invoke` by the function its first
//! argument names, when that is a token of a loaded schema.

use lsp_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp,
    SignatureInformation,
};
use pcl_schema::SchemaLoader;

use crate::completion::{lookup, type_label, Found, Section};
use crate::context::Cursor;

/// `invoke` when its token is not known.
pub(crate) const INVOKE_USAGE: &str =
    "invoke(token: string, args?: object, options?: { provider, parent, version, pluginDownloadUrl, dependsOn })";

/// The options parameter of an `invoke`, as its signature shows it.
const INVOKE_OPTIONS: &str =
    "options?: { provider, parent, version, pluginDownloadUrl, dependsOn }";

/// The signature help at `cursor`, when it is in the arguments of a
/// builtin or `invoke`.
pub(crate) fn help(cursor: &Cursor, schemas: &dyn SchemaLoader) -> Option<SignatureHelp> {
    let call = cursor.call.as_ref()?;
    let (label, documentation) = if call.name == "invoke" {
        invoke_label(call.first_string.as_deref(), schemas)
    } else {
        let builtin = pcl_expr::Builtin::from_name(&call.name)?;
        (builtin.usage().to_string(), None)
    };
    let params = parameter_ranges(&label);
    let last = params.len().checked_sub(1);
    // Beyond the last parameter (a variadic one, or too many arguments):
    // the last.
    let active = last.map(|l| call.argument.min(l));
    let parameters = params
        .into_iter()
        .map(|(start, end)| ParameterInformation {
            label: ParameterLabel::LabelOffsets([utf16_len(&label, start), utf16_len(&label, end)]),
            documentation: None,
        })
        .collect();
    let active = active.and_then(|a| u32::try_from(a).ok());
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label,
            documentation,
            parameters: Some(parameters),
            active_parameter: active,
        }],
        active_signature: Some(0),
        active_parameter: active,
    })
}

/// The label of `invoke("token", …)`: the function's inputs when `token`
/// is known, with its description.
fn invoke_label(
    token: Option<&str>,
    schemas: &dyn SchemaLoader,
) -> (String, Option<Documentation>) {
    let function = token.and_then(|t| match lookup(schemas, t, Section::Functions)? {
        Found::Function(f) => Some((t, f)),
        Found::Resource(_) => None,
    });
    let Some((token, function)) = function else {
        return (INVOKE_USAGE.to_string(), None);
    };
    let mut args = String::new();
    if let Some(inputs) = &function.inputs {
        for (i, p) in inputs.properties.values().enumerate() {
            args.push_str(if i == 0 { " " } else { ", " });
            args.push_str(&p.name);
            if !p.required {
                args.push('?');
            }
            args.push_str(": ");
            args.push_str(&type_label(&p.ty));
        }
    }
    let args = if args.is_empty() {
        "{}".to_string()
    } else {
        format!("{{{args} }}")
    };
    let label = format!("invoke(token: \"{token}\", args: {args}, {INVOKE_OPTIONS})");
    let documentation = function.description.as_ref().map(|d| {
        Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: d.clone(),
        })
    });
    (label, documentation)
}

/// The byte ranges of the parameters in `name(p1: T, p2?: U, ...rest: V)`.
/// A parameter starts after a top-level `, ` that is followed by its name
/// and `:` (usage strings also use `, ` inside a type: `list, map or
/// object`).
fn parameter_ranges(label: &str) -> Vec<(usize, usize)> {
    let Some(open) = label.find('(') else {
        return Vec::new();
    };
    let Some(close) = label.rfind(')') else {
        return Vec::new();
    };
    let inner = label.get(open + 1..close).unwrap_or("");
    if inner.trim().is_empty() {
        return Vec::new();
    }
    let base = open + 1;
    let mut starts = vec![0usize];
    let mut depth = 0usize;
    let mut in_string = false;
    for (i, c) in inner.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '(' | '{' | '[' if !in_string => depth += 1,
            ')' | '}' | ']' if !in_string => depth = depth.saturating_sub(1),
            ',' if depth == 0 && !in_string => {
                let rest = inner.get(i + 1..).unwrap_or("");
                if starts_parameter(rest) {
                    starts.push(i + 1);
                }
            }
            _ => {}
        }
    }
    let mut ranges = Vec::new();
    for (k, start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(inner.len(), |next| next - 1);
        let text = inner.get(*start..end).unwrap_or("");
        let lead = text.len() - text.trim_start().len();
        ranges.push((base + start + lead, base + start + text.trim_end().len()));
    }
    ranges
}

/// Whether `rest` (after a comma) starts with ` name:`, ` name?:` or
/// ` ...name:`.
fn starts_parameter(rest: &str) -> bool {
    let rest = rest.trim_start();
    let rest = rest.strip_prefix("...").unwrap_or(rest);
    let name_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if name_len == 0 {
        return false;
    }
    let after = rest.get(name_len..).unwrap_or("");
    let after = after.strip_prefix('?').unwrap_or(after);
    after.starts_with(':')
}

fn utf16_len(text: &str, byte: usize) -> u32 {
    let n: usize = text.get(..byte).map_or(0, |t| t.encode_utf16().count());
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(label: &str) -> Vec<&str> {
        parameter_ranges(label)
            .into_iter()
            .map(|(a, b)| label.get(a..b).unwrap_or("?"))
            .collect()
    }

    #[test]
    fn parameters_of_usage_strings() {
        assert_eq!(
            params("join(separator: string, strings: list(string))"),
            ["separator: string", "strings: list(string)"]
        );
        assert_eq!(
            params("length(value: list, map, object, tuple or string)"),
            ["value: list, map, object, tuple or string"]
        );
        assert_eq!(
            params("lookup(map: map or object, key: string, default?: element type)"),
            [
                "map: map or object",
                "key: string",
                "default?: element type"
            ]
        );
        assert_eq!(
            params("try(value: any, ...fallbacks: any)"),
            ["value: any", "...fallbacks: any"]
        );
        assert!(params("stack()").is_empty());
    }

    #[test]
    fn every_builtin_usage_splits_into_named_parameters() {
        for b in pcl_expr::Builtin::ALL {
            for p in params(b.usage()) {
                assert!(starts_parameter(p), "{}: {p}", b.name());
            }
        }
        assert_eq!(params(INVOKE_USAGE).len(), 3);
    }
}
