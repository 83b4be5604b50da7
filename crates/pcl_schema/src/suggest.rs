//! "Did you mean" candidates for tokens and property names.
//!
//! Edit distance comes from `pcl_diagnostics::suggest`; on top of it this
//! module knows two schema conventions: a token can be written in its
//! schema or canonical form, and SDK users often write the `…Output`
//! variant of a function (`getAmiOutput`) or the `…Output` twin of a
//! property (`url` for `urlOutput`, bridge #1145).

use pcl_diagnostics::suggest::{did_you_mean, MAX_SUGGESTIONS};

use crate::package::Package;
use crate::token::decompose;

/// Resource tokens close to `written`, in the form it is written in (see
/// [`in_written_form`]).
pub fn suggest_resources(pkg: &Package, written: &str) -> Vec<String> {
    let canonical = pkg.canonical_resource_tokens();
    suggest_tokens(pkg, written, pkg.resource_tokens().collect(), &canonical)
}

/// A suggested token (`schema`, with its `canonical` form) in the form
/// the user was writing `written` in: the schema's own token when the
/// module is written with a `/` (`aws:s3/bucket:Bucket`), the `index`
/// module spelt out when it is (`simple:index:Resource`, not
/// `simple::Resource`), the canonical form otherwise.
pub fn in_written_form(written: &str, schema: &str, canonical: &str) -> String {
    let mut parts = written.split(':');
    let module = match (parts.next(), parts.next(), parts.next()) {
        (Some(_), Some(m), Some(_)) => m,
        _ => return canonical.to_owned(),
    };
    if module.contains('/') {
        return schema.to_owned();
    }
    match canonical.split_once("::") {
        Some((package, member)) if module == "index" => format!("{package}:index:{member}"),
        _ => canonical.to_owned(),
    }
}

/// Function tokens close to `written`, in the form it is written in; a written
/// `…Output` function that exists without the suffix comes first.
pub fn suggest_functions(pkg: &Package, written: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(stripped) = written.strip_suffix("Output") {
        if let Ok(Some(found)) = pkg.lookup_function(stripped) {
            out.push(in_written_form(
                written,
                &found.schema_token,
                &found.canonical_token,
            ));
        }
    }
    let canonical = pkg.canonical_function_tokens();
    for s in suggest_tokens(pkg, written, pkg.function_tokens().collect(), &canonical) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out.truncate(MAX_SUGGESTIONS);
    out
}

/// The tokens close to `written` (in canonical form, `canonical` being
/// parallel to `schema`), each in the form `written` is in.
fn suggest_tokens(
    pkg: &Package,
    written: &str,
    schema: Vec<&str>,
    canonical: &[String],
) -> Vec<String> {
    let found = canonical_suggestions(pkg, written, &schema, canonical);
    found
        .iter()
        .map(|c| {
            let at = canonical.iter().position(|k| k == c);
            let schema_token = at.and_then(|i| schema.get(i)).copied().unwrap_or(c);
            in_written_form(written, schema_token, c)
        })
        .collect()
}

fn canonical_suggestions(
    pkg: &Package,
    written: &str,
    schema: &[&str],
    canonical: &[String],
) -> Vec<String> {
    // Compare canonical forms so that `aws:s3/bucket:Bukcet` and
    // `aws:s3:Bukcet` both find `aws:s3:Bucket`.
    let written_canonical = match decompose(written) {
        Ok(_) => pkg.canonical_token(written),
        Err(_) => written.to_owned(),
    };
    let mut out: Vec<String> = Vec::new();
    for hit in did_you_mean(&written_canonical, canonical.iter().map(String::as_str)) {
        if !out.iter().any(|o| o == hit) {
            out.push(hit.to_owned());
        }
    }
    if out.is_empty() {
        // Fall back to matching the member name alone.
        let member = decompose(written).map_or(written, |t| t.member);
        let members: Vec<&str> = schema
            .iter()
            .map(|t| decompose(t).map_or(*t, |d| d.member))
            .collect();
        for hit in did_you_mean(member, members.iter().copied()) {
            for (i, m) in members.iter().enumerate() {
                if *m == hit {
                    if let Some(c) = canonical.get(i) {
                        if !out.contains(c) {
                            out.push(c.clone());
                        }
                    }
                }
            }
        }
        out.truncate(MAX_SUGGESTIONS);
    }
    out
}

/// The packages one edit (an insertion, a deletion, a substitution or a
/// swap of adjacent characters) from `written` among `available` (the
/// packages of the schema directories and cache), in name order.
pub fn suggest_packages(written: &str, available: &[String]) -> Vec<String> {
    let mut out: Vec<String> = available
        .iter()
        .filter(|a| a.as_str() != written && one_edit_apart(written, a))
        .cloned()
        .collect();
    out.sort();
    out.dedup();
    out.truncate(MAX_SUGGESTIONS);
    out
}

/// Whether `a` becomes `b` by one insertion, deletion, substitution or
/// swap of adjacent characters (linear in their lengths).
fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (la, lb) = (a.len(), b.len());
    // The common suffix, not overlapping the common prefix.
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
        .min(la.min(lb) - prefix);
    match (la - prefix - suffix, lb - prefix - suffix) {
        (0, 1) | (1, 0) | (1, 1) => true,
        (2, 2) => {
            // A swap: `ab` for `ba` at the first difference.
            matches!(
                (a.get(prefix), a.get(prefix + 1), b.get(prefix), b.get(prefix + 1)),
                (Some(w), Some(x), Some(y), Some(z)) if w == z && x == y
            )
        }
        _ => false,
    }
}

/// Property names close to `name` among `candidates`, with the `…Output`
/// twin (either direction) first.
pub fn suggest_properties<'a>(name: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&'a str> = Vec::new();
    let with_suffix = format!("{name}Output");
    let without_suffix = name.strip_suffix("Output");
    for c in candidates {
        if *c == with_suffix || Some(*c) == without_suffix {
            out.push(c);
        }
    }
    for hit in did_you_mean(name, candidates.iter().copied()) {
        if !out.contains(&hit) {
            out.push(hit);
        }
    }
    out.truncate(MAX_SUGGESTIONS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_twins_come_first() {
        assert_eq!(
            suggest_properties("url", &["arn", "urlOutput", "uri"]),
            vec!["urlOutput", "uri"]
        );
        assert_eq!(
            suggest_properties("vpcIdOutput", &["vpcId", "subnetId"]),
            vec!["vpcId"]
        );
    }

    #[test]
    fn packages_one_edit_away() {
        let available: Vec<String> = ["aws", "awsx", "azure", "gcp", "random", "tls"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(suggest_packages("awss", &available), vec!["aws", "awsx"]);
        assert_eq!(suggest_packages("aws", &available), vec!["awsx"]);
        assert_eq!(suggest_packages("rnadom", &available), vec!["random"]);
        assert_eq!(suggest_packages("randm", &available), vec!["random"]);
        assert_eq!(suggest_packages("gcq", &available), vec!["gcp"]);
        assert!(suggest_packages("kubernetes", &available).is_empty());
        assert!(suggest_packages("azureee", &available).is_empty());
        assert!(suggest_packages("", &available).is_empty());
        for (a, b, want) in [
            ("ab", "ba", true),
            ("abc", "acb", true),
            ("abc", "cba", false),
            ("aa", "aaa", true),
            ("aa", "aaaa", false),
            ("abc", "abd", true),
            ("abc", "xbd", false),
            ("é", "e", true),
        ] {
            assert_eq!(one_edit_apart(a, b), want, "{a} {b}");
            assert_eq!(one_edit_apart(b, a), want, "{b} {a}");
        }
    }

    #[test]
    fn suggestions_take_the_written_form() {
        let pkg = Package::parse(
            r#"{"name":"simple","resources":{"simple:index:Resource":{}}}"#,
            "simple",
            None,
        )
        .unwrap();
        assert_eq!(
            suggest_resources(&pkg, "simple:index:Resourse"),
            vec!["simple:index:Resource"]
        );
        assert_eq!(
            suggest_resources(&pkg, "simple::Resourse"),
            vec!["simple::Resource"]
        );
        assert_eq!(
            in_written_form(
                "random:index/randomPe:RandomPe",
                "random:index/randomPet:RandomPet",
                "random::RandomPet"
            ),
            "random:index/randomPet:RandomPet"
        );
    }

    #[test]
    fn token_suggestions() {
        let pkg = Package::parse(
            r#"{"name":"aws","meta":{"moduleFormat":"(.*)(?:/[^/]*)"},
               "resources":{"aws:s3/bucket:Bucket":{},"aws:s3/bucketPolicy:BucketPolicy":{}},
               "functions":{"aws:ec2/getAmi:getAmi":{"outputs":{"type":"string"}}}}"#,
            "aws",
            None,
        )
        .unwrap();
        assert_eq!(
            suggest_resources(&pkg, "aws:s3:Bukcet"),
            vec!["aws:s3:Bucket"]
        );
        // Written with the schema's `/` module: the schema's token.
        assert_eq!(
            suggest_resources(&pkg, "aws:s3/bucket:Bukcet"),
            vec!["aws:s3/bucket:Bucket"]
        );
        assert_eq!(
            suggest_resources(&pkg, "aws:storage:Bucket"),
            vec!["aws:s3:Bucket"]
        );
        assert_eq!(
            suggest_functions(&pkg, "aws:ec2:getAmiOutput"),
            vec!["aws:ec2:getAmi"]
        );
    }
}
