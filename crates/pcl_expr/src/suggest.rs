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
use pcl_diagnostics::{Diagnostic, Span};

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

/// The most candidates one lookup in a [`NameIndex`] compares with the
/// name (edit distances computed plus prefix entries looked at): a program
/// with 10,000 names and 10,000 undefined ones does at most this many per
/// error, so suggestions stay linear in the number of errors. Below it (every
/// real scope), the answer is exactly that of [`candidates`] over all names.
pub const MAX_COMPARED: usize = 256;

thread_local! {
    static COMPARED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many candidates [`NameIndex`] lookups on this thread have compared
/// so far (for tests that bound the work done).
pub fn compared_on_this_thread() -> u64 {
    COMPARED.with(|c| c.get())
}

fn count_compared(n: usize) {
    COMPARED.with(|c| c.set(c.get().saturating_add(n as u64)));
}

/// The names of one scope level, indexed once for "did you mean": by exact
/// text (the `…Output` twin), by lower-case text (names that are a prefix of
/// the written one, and names that have it as a prefix), by lower-case
/// length (edit distance) and by their one-character deletions (one edit
/// away). Positions are the names' insertion order, which ties are broken
/// by.
///
/// Every index is a sorted array of positions (4 or 8 bytes per entry)
/// over one string that holds each name and its lower-case form, searched
/// by bisection: a level of 100,000 names costs about 100 bytes per name
/// (most of it the deletions), where maps of owned strings cost 385.
#[derive(Debug, Default)]
pub struct NameIndex {
    /// Each name, then its lower-case form when that differs.
    text: String,
    /// Per position: where its name and its lower-case form are in `text`
    /// and the lower-case form's length in characters.
    entries: Vec<Entry>,
    /// Positions by name.
    by_name: Vec<u32>,
    /// Positions by (lower-case name, position).
    by_lower: Vec<u32>,
    /// Positions by (lower-case length, position).
    by_len: Vec<u32>,
    /// `(hash, position)` of every lower-case name of at most
    /// [`MAX_DELETION_LEN`] characters with one character deleted, sorted:
    /// names one edit from a written name are found by a few bisections,
    /// however many names there are. A hash collision only adds a
    /// candidate that the edit distance then rejects.
    deletions: Vec<(u32, u32)>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    name: (u32, u32),
    lower: (u32, u32),
    chars: u32,
}

/// The longest name [`NameIndex`] indexes by its one-character deletions
/// (the index holds about the square of the length per name).
pub const MAX_DELETION_LEN: usize = 32;

/// `s` without its character at byte `at` (a char boundary).
fn without_char_at(s: &str, at: usize) -> Option<String> {
    let c = s.get(at..)?.chars().next()?;
    let mut out = String::with_capacity(s.len());
    out.push_str(s.get(..at)?);
    out.push_str(s.get(at + c.len_utf8()..)?);
    Some(out)
}

/// The hash [`NameIndex::deletions`] is keyed by (fixed, so an index
/// answers the same in every run).
fn deletion_hash(s: &str) -> u32 {
    use std::hash::BuildHasher;
    let h = foldhash::fast::FixedState::with_seed(0x5eed).hash_one(s);
    (h >> 32) as u32
}

/// One name found by [`NameIndex::lookup`], keyed for merging the answers
/// of several levels (`level` 0 innermost).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit<'a> {
    pub stage: u8,
    pub level: usize,
    pub pos: u32,
    pub name: &'a str,
}

/// `(start, len)` of `s` appended to `text`.
fn append(text: &mut String, s: &str) -> (u32, u32) {
    let start = u32::try_from(text.len()).unwrap_or(u32::MAX);
    text.push_str(s);
    (start, u32::try_from(s.len()).unwrap_or(u32::MAX))
}

impl NameIndex {
    /// Indexes `names` (duplicates keep their first position).
    pub fn new<'a, I: IntoIterator<Item = &'a str>>(names: I) -> NameIndex {
        let mut index = NameIndex::default();
        let mut seen: std::collections::HashSet<&str, foldhash::fast::RandomState> =
            Default::default();
        for name in names {
            if !seen.insert(name) {
                continue;
            }
            let pos = u32::try_from(index.entries.len()).unwrap_or(u32::MAX);
            let lower = name.to_lowercase();
            let name_at = append(&mut index.text, name);
            let lower_at = if lower == name {
                name_at
            } else {
                append(&mut index.text, &lower)
            };
            let chars = lower.chars().count();
            index.entries.push(Entry {
                name: name_at,
                lower: lower_at,
                chars: u32::try_from(chars).unwrap_or(u32::MAX),
            });
            if chars <= MAX_DELETION_LEN {
                for (at, _) in lower.char_indices() {
                    if let Some(d) = without_char_at(&lower, at) {
                        index.deletions.push((deletion_hash(&d), pos));
                    }
                }
            }
        }
        index.deletions.sort_unstable();
        index.deletions.dedup();
        let positions = || {
            (0..index.entries.len())
                .map(|p| p as u32)
                .collect::<Vec<u32>>()
        };
        let mut by_name = positions();
        by_name.sort_by(|a, b| index.name(*a).cmp(&index.name(*b)));
        let mut by_lower = positions();
        by_lower.sort_by(|a, b| (index.lower(*a), a).cmp(&(index.lower(*b), b)));
        let mut by_len = positions();
        by_len.sort_by_key(|p| (index.chars(*p), *p));
        index.by_name = by_name;
        index.by_lower = by_lower;
        index.by_len = by_len;
        index
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn text_at(&self, (start, len): (u32, u32)) -> &str {
        let start = start as usize;
        self.text.get(start..start + len as usize).unwrap_or("")
    }

    fn name(&self, pos: u32) -> Option<&str> {
        self.entries.get(pos as usize).map(|e| self.text_at(e.name))
    }

    fn lower(&self, pos: u32) -> &str {
        self.entries
            .get(pos as usize)
            .map_or("", |e| self.text_at(e.lower))
    }

    fn chars(&self, pos: u32) -> u32 {
        self.entries.get(pos as usize).map_or(0, |e| e.chars)
    }

    /// The position of the name `name`.
    fn exact(&self, name: &str) -> Option<u32> {
        let at = self
            .by_name
            .partition_point(|p| self.name(*p).unwrap_or("") < name);
        self.by_name
            .get(at)
            .copied()
            .filter(|p| self.name(*p) == Some(name))
    }

    /// The positions whose lower-case name is `lower`, in order.
    fn with_lower(&self, lower: &str) -> &[u32] {
        let from = self.by_lower.partition_point(|p| self.lower(*p) < lower);
        let to = self.by_lower.partition_point(|p| self.lower(*p) <= lower);
        self.by_lower.get(from..to).unwrap_or_default()
    }

    /// The positions whose lower-case name has `len` characters, in order.
    fn with_len(&self, len: usize) -> &[u32] {
        let len = u32::try_from(len).unwrap_or(u32::MAX);
        let from = self.by_len.partition_point(|p| self.chars(*p) < len);
        let to = self.by_len.partition_point(|p| self.chars(*p) <= len);
        self.by_len.get(from..to).unwrap_or_default()
    }

    /// The positions with a deletion hashed as `key` is, in order.
    fn with_deletion(&self, key: &str) -> impl Iterator<Item = u32> + '_ {
        let h = deletion_hash(key);
        let from = self.deletions.partition_point(|(d, _)| *d < h);
        let to = self.deletions.partition_point(|(d, _)| *d <= h);
        self.deletions
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .map(|(_, p)| *p)
    }

    /// The names of this level that [`candidates`] could pick for `name`,
    /// with the stage that would pick them (0 the `…Output` twin, 1 edit
    /// distance, 2 prefix), comparing at most [`MAX_COMPARED`] of them.
    pub fn lookup<'a>(&'a self, name: &str, level: usize, out: &mut Vec<Hit<'a>>) {
        let hit = |stage: u8, pos: u32| {
            self.name(pos).map(|n| Hit {
                stage,
                level,
                pos,
                name: n,
            })
        };
        let with_suffix = format!("{name}Output");
        let twins = [Some(with_suffix.as_str()), name.strip_suffix("Output")];
        for twin in twins.into_iter().flatten() {
            if let Some(pos) = self.exact(twin) {
                out.extend(hit(0, pos));
            }
        }
        let lower = name.to_lowercase();
        let len = lower.chars().count();
        let mut budget = MAX_COMPARED;
        // One edit away (a deletion, an insertion, a substitution or a
        // swap of neighbours): found through the deletion index first, so
        // the likeliest typos are never cut by the budget.
        if len <= MAX_DELETION_LEN + 1 {
            let mut keys: Vec<std::borrow::Cow<'_, str>> = vec![lower.as_str().into()];
            for (at, _) in lower.char_indices() {
                keys.extend(without_char_at(&lower, at).map(Into::into));
            }
            for (i, key) in keys.iter().enumerate() {
                // The name itself against deleted names, and every
                // deletion of it against names and deleted names.
                let names: &[u32] = if i == 0 { &[] } else { self.with_lower(key) };
                for pos in names.iter().copied().chain(self.with_deletion(key)) {
                    if budget == 0 {
                        break;
                    }
                    budget -= 1;
                    out.extend(hit(1, pos));
                }
            }
        }
        // Edit distance: a candidate's length is within the distance
        // limit of the name's (at most half its length, see
        // `did_you_mean`), nearest lengths first.
        let reach = (len / 2 + 2).max(2);
        'lengths: for d in 0..=reach {
            let sides = if d == 0 {
                [Some(len), None]
            } else {
                [len.checked_sub(d), Some(len + d)]
            };
            for l in sides.into_iter().flatten() {
                for &pos in self.with_len(l) {
                    if budget == 0 {
                        break 'lengths;
                    }
                    budget -= 1;
                    out.extend(hit(1, pos));
                }
            }
        }
        // Prefix: names that are a prefix of the name …
        let mut prefix_budget = MAX_COMPARED;
        for (i, _) in lower.char_indices().skip(MIN_PREFIX) {
            if let Some(prefix) = lower.get(..i) {
                for &pos in self.with_lower(prefix).iter().take(prefix_budget) {
                    prefix_budget -= 1;
                    out.extend(hit(2, pos));
                }
            }
        }
        // … and names the name is a prefix of.
        if len >= MIN_PREFIX {
            let start = self
                .by_lower
                .partition_point(|p| self.lower(*p) < lower.as_str());
            for pos in self.by_lower.iter().skip(start).take(prefix_budget) {
                let l = self.lower(*pos);
                if !l.starts_with(lower.as_str()) {
                    break;
                }
                prefix_budget -= 1;
                if l.len() > lower.len() {
                    out.extend(hit(2, *pos));
                }
            }
        }
        count_compared(MAX_COMPARED - budget + (MAX_COMPARED - prefix_budget));
    }
}

/// [`candidates`] over the names of several levels (innermost first),
/// through their indexes: the same answer as [`candidates`] over every
/// name of the levels in order (each name once), with at most
/// [`MAX_COMPARED`] comparisons per level.
pub fn candidates_indexed<'a>(name: &str, levels: &[&'a NameIndex]) -> Vec<&'a str> {
    let mut hits: Vec<Hit<'a>> = Vec::new();
    for (level, index) in levels.iter().enumerate() {
        index.lookup(name, level, &mut hits);
    }
    hits.sort_by_key(|h| (h.level, h.pos));
    let mut out: Vec<&'a str> = Vec::new();
    for h in hits.iter().filter(|h| h.stage == 0) {
        if !out.contains(&h.name) {
            out.push(h.name);
        }
    }
    // Each name once, at its innermost place (as `Scope::visible_names`).
    let mut seen = std::collections::HashSet::new();
    let lower = name.to_lowercase();
    let len = name.chars().count();
    let edit: Vec<&'a str> = hits
        .iter()
        .filter(|h| h.stage == 1 && seen.insert(h.name))
        .map(|h| h.name)
        .filter(|c| {
            // The edit-distance limit of `did_you_mean`; the bag distance
            // is a lower bound of the edit distance, so this only skips
            // candidates it would reject, cheaply.
            let limit = (len.max(c.chars().count()) / 3).max(1);
            bag_distance(&lower, c).is_none_or(|d| d <= limit)
        })
        .collect();
    for hit in did_you_mean(name, edit) {
        if !out.contains(&hit) {
            out.push(hit);
        }
    }
    for h in hits.iter().filter(|h| h.stage == 2) {
        if out.len() >= MAX_SUGGESTIONS {
            break;
        }
        if !out.contains(&h.name) {
            out.push(h.name);
        }
    }
    out.truncate(MAX_SUGGESTIONS);
    out
}

/// The bag distance of `lower` and the lower-case `other` (the larger of
/// the counts of characters each has and the other lacks), a lower bound of
/// their Damerau–Levenshtein distance; `None` unless both are ASCII.
fn bag_distance(lower: &str, other: &str) -> Option<usize> {
    if !lower.is_ascii() || !other.is_ascii() {
        return None;
    }
    let mut counts = [0i32; 128];
    for b in lower.bytes() {
        if let Some(c) = counts.get_mut(usize::from(b)) {
            *c += 1;
        }
    }
    for b in other.bytes() {
        if let Some(c) = counts.get_mut(usize::from(b.to_ascii_lowercase())) {
            *c -= 1;
        }
    }
    let (more, fewer) = counts.iter().fold((0usize, 0usize), |(m, f), &c| {
        if c > 0 {
            (m + c as usize, f)
        } else {
            (m, f + c.unsigned_abs() as usize)
        }
    });
    Some(more.max(fewer))
}

/// Adds the did-you-mean help line for `names` to `d`, with one
/// machine-applicable fix per name (best first) replacing `span`, the
/// misspelt text.
pub fn attach(mut d: Diagnostic, span: Span, names: &[&str]) -> Diagnostic {
    if let Some(h) = help_line(names) {
        d = d.with_help(h);
    }
    for n in names {
        d = d.with_fix(span, *n);
    }
    d
}

/// [`attach`] for a misspelt string literal (`span` covers its quotes):
/// each fix writes the name quoted. Names that would need escapes get no
/// fix (never the case for tokens and property names).
pub fn attach_quoted(mut d: Diagnostic, span: Span, names: &[&str]) -> Diagnostic {
    if let Some(h) = help_line(names) {
        d = d.with_help(h);
    }
    for n in names {
        if !n.contains(['"', '\\']) && !n.contains("${") && !n.contains("%{") {
            d = d.with_fix(span, format!("\"{n}\""));
        }
    }
    d
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

    /// The index answers exactly as the plain scan while no length bucket
    /// is over the cap.
    #[test]
    fn index_agrees_with_the_scan() {
        let inner = ["vpcIdOutput", "bucket", "publicIp", "x"];
        let outer = [
            "bucket",
            "buckets",
            "publicDns",
            "instanceType",
            "ami",
            "subnetId",
        ];
        let a = NameIndex::new(inner);
        let b = NameIndex::new(outer);
        let mut all: Vec<&str> = inner.to_vec();
        all.extend(outer.iter().filter(|n| !inner.contains(n)));
        for name in [
            "vpcId",
            "bukcet",
            "publicIpAddress",
            "instance",
            "amy",
            "y",
            "zzzzzz",
            "BUCKET",
            "subnetIdOutput",
        ] {
            assert_eq!(
                candidates_indexed(name, &[&a, &b]),
                candidates(name, all.iter().copied()),
                "{name}"
            );
        }
    }

    /// 10,000 undefined names among 10,000 names of one length compare at
    /// most `MAX_COMPARED` twice (edit distance and prefixes) each.
    #[test]
    fn lookups_are_bounded() {
        let names: Vec<String> = (0..10_000).map(|i| format!("local{i:05}")).collect();
        let index = NameIndex::new(names.iter().map(String::as_str));
        let before = compared_on_this_thread();
        let mut found = 0;
        for i in 0..10_000 {
            let typo = format!("locl{i:05}");
            found += usize::from(!candidates_indexed(&typo, &[&index]).is_empty());
        }
        let compared = compared_on_this_thread() - before;
        assert!(compared <= 10_000 * 2 * MAX_COMPARED as u64, "{compared}");
        assert!(found > 0);
    }

    #[test]
    fn fixes_replace_the_name() {
        let span = Span::new(
            pcl_diagnostics::FileId(0),
            pcl_diagnostics::TextRange::new(3, 9),
        );
        let d = Diagnostic::error(pcl_diagnostics::Code("x"), span, "s");
        let d = attach(d, span, &["bucket", "buckets"]);
        assert_eq!(d.help(), ["did you mean one of `bucket`, `buckets`?"]);
        let got: Vec<&str> = d.fixes().iter().map(|f| f.replacement.as_str()).collect();
        assert_eq!(got, ["bucket", "buckets"]);
        assert!(d.fixes().iter().all(|f| f.span == span));
        let d = Diagnostic::error(pcl_diagnostics::Code("x"), span, "s");
        let d = attach_quoted(d, span, &["aws:s3:Bucket"]);
        assert_eq!(d.fixes()[0].replacement, "\"aws:s3:Bucket\"");
    }
}
