//! The one "did you mean" mechanism for every unknown name the binder
//! reports (variables, functions, properties, attributes, options, methods,
//! hook names): the `…Output` twin of the name first (`vpcIdOutput` for
//! `vpcId` and back), then candidates close by edit distance
//! ([`pcl_diagnostics::suggest::did_you_mean`]), then candidates that are a
//! prefix of the name or have it as a prefix (`publicIp` for
//! `publicIpAddress`; both at least [`MIN_PREFIX`] characters), at most
//! [`MAX_SUGGESTIONS`] in all. Schema tokens (resource types, invoke
//! functions) are matched by `pcl_schema::suggest`, which canonicalises
//! them first and then uses the same edit distance and limit.

pub use pcl_diagnostics::suggest::MAX_SUGGESTIONS;
use pcl_diagnostics::suggest::{did_you_mean, help_line};

/// The names among `candidates` that `name` was probably meant to be,
/// best first, at most [`MAX_SUGGESTIONS`].
pub fn candidates<'a, I>(name: &str, candidates: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let all: Vec<&'a str> = candidates.into_iter().collect();
    let with_suffix = format!("{name}Output");
    let without_suffix = name.strip_suffix("Output");
    let mut out: Vec<&'a str> = Vec::new();
    for c in &all {
        if (*c == with_suffix || Some(*c) == without_suffix) && !out.contains(c) {
            out.push(c);
        }
    }
    for hit in did_you_mean(name, all.iter().copied()) {
        if !out.contains(&hit) {
            out.push(hit);
        }
    }
    let lower = name.to_lowercase();
    for c in &all {
        let other = c.to_lowercase();
        let (short, long) = if other.len() < lower.len() {
            (&other, &lower)
        } else {
            (&lower, &other)
        };
        if short.chars().count() >= MIN_PREFIX
            && short != long
            && long.starts_with(short.as_str())
            && !out.contains(c)
        {
            out.push(c);
        }
    }
    out.truncate(MAX_SUGGESTIONS);
    out
}

/// The shortest name the prefix rule considers.
pub const MIN_PREFIX: usize = 4;

/// The help line for [`candidates`] (`did you mean `x`?`), or `None`.
pub fn help<'a, I>(name: &str, names: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    help_line(&candidates(name, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_twin_first_then_edit_distance_capped() {
        assert_eq!(
            candidates("vpcId", ["vpcIdOutput", "vpcIds", "subnetId"]),
            ["vpcIdOutput", "vpcIds"]
        );
        assert_eq!(
            candidates("getAmiOutput", ["getAmis", "getAmi"]),
            ["getAmi"]
        );
        let many = ["aa", "ab", "ac", "ad", "ae", "af", "ag"];
        assert_eq!(candidates("a", many).len(), MAX_SUGGESTIONS);
        assert_eq!(help("zzzzzz", ["publicIp"]), None);
        assert_eq!(
            candidates("publicIpAddress", ["ami", "publicIp", "publicDns"]),
            ["publicIp"]
        );
        assert_eq!(candidates("tag", ["tags2x"]), Vec::<&str>::new());
        assert_eq!(
            help("publicIpAddress", ["ami", "publicIp", "publicDns"]).as_deref(),
            Some("did you mean `publicIp`?")
        );
        assert_eq!(
            help("instance", ["instanceType", "ami"]).as_deref(),
            Some("did you mean `instanceType`?")
        );
    }
}
