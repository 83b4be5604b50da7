//! `package` blocks (binder.md §5.11): package descriptors for base
//! providers and parameterized (extension) packages.

use indexmap::IndexMap;
use pcl_diagnostics::{Diagnostic, FileId, Span, TextRange};
use pcl_schema::{PackageDescriptor, Parameterization};
use pcl_syntax::tree::{AttributeRef, BlockRef, BodyRef, ExprKind, ExprRef};

use crate::codes;

/// The string value of a plain string literal (`"text"`).
pub(crate) fn string_literal(expr: ExprRef<'_>) -> Option<&str> {
    match expr.kind() {
        ExprKind::Template(t) => t.literal_value(),
        _ => None,
    }
}

fn attr<'b>(body: BodyRef<'b>, name: &str) -> Option<AttributeRef<'b>> {
    body.attributes().find(|a| a.name() == name)
}

fn is_absolute_uri(s: &str) -> bool {
    match s.split_once(':') {
        Some((scheme, rest)) => {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
                && scheme
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
                && !rest.is_empty()
        }
        None => false,
    }
}

fn is_base64(s: &str) -> bool {
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let pad = bytes.iter().rev().take_while(|b| **b == b'=').count();
    pad <= 2
        && bytes
            .iter()
            .take(bytes.len() - pad)
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
}

/// Reads the `package` blocks of one file. Returns descriptors by package
/// name (in order) and appends diagnostics.
pub(crate) fn read_package_blocks(
    file: FileId,
    body: BodyRef<'_>,
    diags: &mut Vec<Diagnostic>,
) -> IndexMap<String, (PackageDescriptor, TextRange)> {
    let mut out: IndexMap<String, (PackageDescriptor, TextRange)> = IndexMap::new();
    for block in body.blocks().filter(|b| b.type_name() == "package") {
        if let Some(desc) = read_block(file, block, diags) {
            let name = desc.package_name().to_string();
            if out.contains_key(&name) {
                diags.push(Diagnostic::error(
                    codes::DUPLICATE_PACKAGE,
                    Span::new(file, block.range()),
                    format!("package \"{name}\" was already defined"),
                ));
                continue;
            }
            out.insert(name, (desc, block.range()));
        }
    }
    out
}

fn read_block(
    file: FileId,
    block: BlockRef<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<PackageDescriptor> {
    let span = |r: TextRange| Span::new(file, r);
    let mut label_name: Option<String> = None;
    let labels = block.labels();
    match (labels.first(), labels.last(), labels.len()) {
        (None, _, _) | (_, None, _) => {}
        (Some(one), _, 1) => {
            diags.push(
                Diagnostic::warning(
                    codes::PACKAGE_LABEL_DEPRECATED,
                    span(one.range()),
                    "package block label is deprecated",
                )
                .with_detail("Package block labels should be replaced by baseProviderName."),
            );
            label_name = Some(one.value().to_owned());
        }
        (Some(first), Some(last), _) => {
            diags.push(Diagnostic::error(
                codes::BLOCK_LABELS,
                span(first.range().cover(last.range())),
                "package blocks must have at most one label",
            ));
            return None;
        }
    }
    let body = block.body();
    crate::blocks::unknown_attributes(
        file,
        body,
        "package",
        &[
            "baseProviderName",
            "baseProviderVersion",
            "baseProviderDownloadUrl",
        ],
        diags,
    );
    let mut name = label_name;
    if let Some(a) = attr(body, "baseProviderName") {
        match string_literal(a.expr()) {
            Some(s) if !s.is_empty() => name = Some(s.to_string()),
            _ => diags.push(Diagnostic::error(
                codes::PACKAGE_BLOCK,
                span(a.expr().range()),
                "invalid base provider name for package: must be a non-empty string literal",
            )),
        }
    }
    let Some(name) = name else {
        diags.push(Diagnostic::error(
            codes::PACKAGE_BLOCK,
            span(block.type_range()),
            "package blocks must set baseProviderName",
        ));
        return None;
    };
    let mut desc = PackageDescriptor::new(name.clone());
    if let Some(a) = attr(body, "baseProviderVersion") {
        match string_literal(a.expr()).map(semver::Version::parse) {
            Some(Ok(v)) => desc.version = Some(v),
            Some(Err(e)) => diags.push(Diagnostic::error(
                codes::PACKAGE_BLOCK,
                span(a.expr().range()),
                format!(
                    "invalid baseProviderVersion \"{}\" for package: {e}",
                    string_literal(a.expr()).unwrap_or("")
                ),
            )),
            None => diags.push(Diagnostic::error(
                codes::PACKAGE_BLOCK,
                span(a.expr().range()),
                "invalid baseProviderVersion for package: must be a string literal",
            )),
        }
    }
    if let Some(a) = attr(body, "baseProviderDownloadUrl") {
        match string_literal(a.expr()) {
            Some(s) if is_absolute_uri(s) => desc.download_url = Some(s.to_string()),
            _ => diags.push(Diagnostic::error(
                codes::PACKAGE_BLOCK,
                span(a.expr().range()),
                "invalid download URL for package: must be an absolute URI string literal",
            )),
        }
    }
    if let Some(p) = body.blocks().find(|b| b.type_name() == "parameterization") {
        if let Some(param) = read_parameterization(file, &name, p, diags) {
            desc.parameterization = Some(param);
        }
    }
    Some(desc)
}

fn read_parameterization(
    file: FileId,
    pkg: &str,
    block: BlockRef<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Parameterization> {
    let span = |r: TextRange| Span::new(file, r);
    let body = block.body();
    let mut error = |range: TextRange, msg: String| {
        diags.push(Diagnostic::error(codes::PACKAGE_BLOCK, span(range), msg));
    };
    let name = match attr(body, "name") {
        Some(a) => match string_literal(a.expr()) {
            Some("") => {
                error(
                    a.expr().range(),
                    format!("name attribute of parameterization of \"{pkg}\" cannot be empty"),
                );
                return None;
            }
            Some(s) => s.to_string(),
            None => {
                error(
                    a.expr().range(),
                    format!("invalid name attribute of parameterization of \"{pkg}\": must be a string literal"),
                );
                return None;
            }
        },
        None => {
            error(
                block.type_range(),
                format!("name attribute of parameterization of \"{pkg}\" cannot be empty"),
            );
            return None;
        }
    };
    let version_attr = attr(body, "version");
    let version_text = version_attr
        .and_then(|a| string_literal(a.expr()))
        .unwrap_or("");
    let version = match semver::Version::parse(version_text) {
        Ok(v) => v,
        Err(e) => {
            let range = version_attr.map_or(block.type_range(), |a| a.expr().range());
            error(
                range,
                format!("invalid version \"{version_text}\" of parameterization for package \"{pkg}\": {e}"),
            );
            return None;
        }
    };
    let value_attr = attr(body, "value");
    let value = value_attr
        .and_then(|a| string_literal(a.expr()))
        .unwrap_or("");
    if !is_base64(value) {
        let range = value_attr.map_or(block.type_range(), |a| a.expr().range());
        error(
            range,
            format!("invalid base64 encoded value for parameterization of \"{pkg}\": illegal base64 data"),
        );
        return None;
    }
    Some(Parameterization {
        name,
        version,
        value: value.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_uris() {
        assert!(is_base64("eA=="));
        assert!(is_base64(""));
        assert!(!is_base64("e"));
        assert!(!is_base64("e!=="));
        assert!(is_absolute_uri("https://example.com/x"));
        assert!(!is_absolute_uri("example.com"));
    }
}
