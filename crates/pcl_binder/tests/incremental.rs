//! `recheck_edit` against a full check: on the corpus programs and on a
//! generated program, many edits (literals changed, characters inserted
//! and deleted, references renamed, syntax broken and fixed, items added
//! and removed) are applied one after the other, each re-checked from the
//! previous result (incremental when it can be, else in full, as the
//! language server does) and compared with a full check of the same
//! text: the same diagnostics, the same nodes (every span, type, bound
//! expression and comment), order, packages and texts. Each edit is
//! followed by its undo (a syntax error fixed, a literal changed back). The fast path
//! must be taken for a good share of the edits, so the test fails if it
//! silently never runs.

mod common;

use pcl_binder::{
    check_program_for_edits, recheck_edit, BindPolicy, Checked, Program, Recheck, SchemaCache,
};
use pcl_diagnostics::FileId;

use common::{corpus_dir, manifest};

/// A small deterministic generator (no dependency, same edits every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

#[derive(Default)]
struct Tally {
    edits: usize,
    incremental: usize,
    reasons: std::collections::BTreeMap<&'static str, usize>,
}

/// Where the differences of two checks of one text are, or `None`.
fn differences(a: &Checked<Program>, b: &Checked<Program>) -> Option<String> {
    let mut out = String::new();
    if a.diagnostics() != b.diagnostics() {
        out.push_str(&format!(
            "diagnostics:\n  incremental {:#?}\n  full {:#?}\n",
            a.diagnostics(),
            b.diagnostics()
        ));
    }
    let (pa, pb) = (a.value(), b.value());
    if pa.nodes().len() != pb.nodes().len() {
        out.push_str("node counts differ\n");
    }
    for (x, y) in pa.nodes().iter().zip(pb.nodes()) {
        let (x, y) = (format!("{x:#?}"), format!("{y:#?}"));
        if x != y {
            out.push_str(&format!("node:\n  incremental {x}\n  full {y}\n"));
            break;
        }
    }
    if pa.order() != pb.order() {
        out.push_str("order differs\n");
    }
    if pa.packages() != pb.packages() {
        out.push_str("packages differ\n");
    }
    if pa.files() != pb.files() {
        out.push_str("files differ\n");
    }
    let texts = |c: &Checked<Program>| {
        c.sources()
            .iter()
            .map(|(_, f)| (f.name().to_string(), f.text().to_string()))
            .collect::<Vec<_>>()
    };
    if texts(a) != texts(b) {
        out.push_str("texts differ\n");
    }
    (!out.is_empty()).then_some(out)
}

/// One edit of `text`: its new text, or `None` when the edit does not
/// apply (no such place).
fn edit(text: &str, program: &Program, file: FileId, rng: &mut Lcg) -> Option<String> {
    let spans: Vec<(usize, usize)> = program
        .nodes()
        .iter()
        .filter(|n| n.span.file == file)
        .map(|n| (n.span.range.start as usize, n.span.range.end as usize))
        .collect();
    let (start, end) = match spans.get(rng.below(spans.len())) {
        Some(s) if rng.below(8) != 0 => *s,
        _ => (0, text.len()),
    };
    let inside = text.get(start..end)?;
    let boundaries: Vec<usize> = inside
        .char_indices()
        .map(|(i, _)| start + i)
        .chain([end])
        .collect();
    let at = *boundaries.get(rng.below(boundaries.len()))?;
    let mut out = text.to_string();
    match rng.below(9) {
        // A literal changed: a digit, or a letter of a string.
        0..=2 => {
            let found = inside
                .char_indices()
                .map(|(i, c)| (start + i, c))
                .filter(|(_, c)| c.is_ascii_alphanumeric())
                .collect::<Vec<_>>();
            let (i, c) = *found.get(rng.below(found.len()))?;
            let new = match c {
                '0'..='8' => char::from(c as u8 + 1),
                '9' => '0',
                'a'..='y' => char::from(c as u8 + 1),
                _ => 'a',
            };
            out.replace_range(i..i + c.len_utf8(), &new.to_string());
        }
        // A string literal grown or emptied.
        3 => {
            let q = inside.find('"')? + start;
            let close = text.get(q + 1..)?.find('"')? + q + 1;
            if rng.below(2) == 0 {
                out.insert_str(close, "-edited");
            } else {
                out.replace_range(q + 1..close, "");
            }
        }
        // Characters inserted: text, syntax breaking, a line break.
        4..=5 => {
            let snippets = [
                "x", "1", " ", "\"", "{", "}", "(", "\n", "# c\n", " + 1", ".a", "[0]", "=",
            ];
            let s = snippets.get(rng.below(snippets.len()))?;
            out.insert_str(at, s);
        }
        // Characters deleted.
        6 => {
            let to = boundaries
                .iter()
                .copied()
                .filter(|b| *b > at)
                .nth(rng.below(3))?;
            out.replace_range(at..to, "");
        }
        // A reference renamed to another declared name.
        7 => {
            let names: Vec<&str> = program.nodes().iter().map(|n| n.name.as_str()).collect();
            let from = names.get(rng.below(names.len()))?;
            let to = names.get(rng.below(names.len()))?;
            let pos = inside
                .match_indices(from)
                .map(|(i, _)| start + i)
                .nth(rng.below(2))?;
            out.replace_range(pos..pos + from.len(), to);
        }
        // An item added or removed.
        _ => {
            if rng.below(2) == 0 {
                out.push_str(&format!("\nadded_{} = 1\n", rng.below(1000)));
            } else {
                out.replace_range(start..end, "");
            }
        }
    }
    Some(out)
}

/// Applies `rounds` edits to `files` one after the other, comparing each
/// re-check with a full check.
fn run<L: pcl_schema::SchemaLoader>(
    name: &str,
    mut files: Vec<(String, String)>,
    cache: &SchemaCache<L>,
    policy: &BindPolicy,
    rounds: usize,
    rng: &mut Lcg,
    tally: &mut Tally,
) {
    files.sort();
    let provider = pcl_binder::NoFiles;
    let mut current = check_program_for_edits(&files, cache, policy, &provider);
    // The text before the last edit: every other round goes back to it
    // (a syntax error fixed, a literal changed back), so errors do not
    // pile up.
    let mut undo: Option<(usize, String)> = None;
    for round in 0..rounds {
        let back = undo.take();
        let (which, new) = match back {
            Some(back) => back,
            None => {
                let which = rng.below(files.len());
                let Some((_, text)) = files.get(which) else {
                    return;
                };
                let Some(new) = edit(text, current.value(), FileId(which as u32), rng) else {
                    continue;
                };
                undo = Some((which, text.clone()));
                (which, new)
            }
        };
        let file = FileId(which as u32);
        if let Some(slot) = files.get_mut(which) {
            slot.1 = new.clone();
        }
        let full = check_program_for_edits(&files, cache, policy, &provider);
        tally.edits += 1;
        current = match recheck_edit(current, file, &new, cache, policy) {
            Recheck::Rebound(incremental) => {
                tally.incremental += 1;
                if let Some(diff) = differences(&incremental, &full) {
                    panic!("{name}, edit {round} of file {which}:\n{new}\n{diff}");
                }
                incremental
            }
            Recheck::Full(_, why) => {
                *tally.reasons.entry(why).or_default() += 1;
                full
            }
        };
    }
}

fn report(what: &str, tally: &Tally) {
    eprintln!(
        "{what}: {} edits, {} re-checked incrementally; fallbacks: {:?}",
        tally.edits, tally.incremental, tally.reasons
    );
}

#[test]
fn corpus_edits_recheck_as_a_full_check() {
    let Some(rows) = manifest() else {
        return;
    };
    let dir = corpus_dir();
    let mut rng = Lcg(27);
    let mut tally = Tally::default();
    let mut programs = 0;
    for row in rows.iter().filter(|r| r.checkable) {
        let path = dir.join(&row.program_dir);
        let Ok(entries) = std::fs::read_dir(&path) else {
            continue;
        };
        let mut files: Vec<(String, String)> = entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "pp"))
            .filter_map(|e| {
                let text = std::fs::read_to_string(e.path()).ok()?;
                Some((e.file_name().to_str()?.to_string(), text))
            })
            .collect();
        if files.is_empty() {
            continue;
        }
        files.sort();
        programs += 1;
        let cache = SchemaCache::new(row.loader());
        run(
            &row.name,
            files,
            &cache,
            &row.policy(),
            12,
            &mut rng,
            &mut tally,
        );
    }
    report("corpus", &tally);
    pcl_testkit::at_least("corpus programs edited", programs, 60);
    // The fast path must run for a good share of the edits (most of the
    // others fall outside declarations, break syntax or change headers):
    // 323 of 1,951 when written.
    assert!(
        tally.incremental >= 250,
        "only {} of {} edits re-checked incrementally",
        tally.incremental,
        tally.edits
    );
}

/// The latency bench's program, small: configs, a chain of locals,
/// resources against `examples/schemas`, outputs.
fn generated(size: usize, p: &str) -> String {
    let mut text =
        format!("config {p}prefix string {{\n  default = \"pcl\"\n}}\n{p}l0 = {p}prefix\n");
    let mut i = 0usize;
    while text.len() < size {
        i += 1;
        text.push_str(&format!("{p}l{i} = \"${{{p}l{}}}-{i}\" # {i}\n", i - 1));
        if i.is_multiple_of(10) {
            text.push_str(&format!(
                "# bucket {i}\nresource {p}b{i} \"aws:s3/bucket:Bucket\" {{\n  bucket = {p}l{i}\n  tags = {{\n    Name = \"b{i}\"\n    Index = \"{i}\"\n  }}\n}}\n"
            ));
        }
        if i.is_multiple_of(20) {
            text.push_str(&format!(
                "output {p}o{i} {{\n  value = {p}b{}.arn\n}}\n{p}n{i} = [for x in [1, 2, {i}] : x * 2 if x > 1]\n",
                i - 10
            ));
        }
        if i.is_multiple_of(25) {
            text.push_str(&format!(
                "config {p}c{i} int {{\n  default = {i}\n  description = \"the {i}th\"\n}}\n"
            ));
        }
    }
    text
}

#[test]
fn generated_program_edits_recheck_as_a_full_check() {
    let schemas = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/schemas");
    let cache = SchemaCache::new(pcl_schema::DirLoader::new([schemas]));
    let policy = BindPolicy::strict();
    let mut rng = Lcg(17);
    let mut tally = Tally::default();
    let files = vec![
        ("main.pp".to_string(), generated(6_000, "")),
        ("other.pp".to_string(), generated(1_500, "x")),
    ];
    run(
        "generated",
        files,
        &cache,
        &policy,
        300,
        &mut rng,
        &mut tally,
    );
    report("generated", &tally);
    // 88 of 286 when written.
    assert!(
        tally.incremental >= 70,
        "only {} of {} edits re-checked incrementally",
        tally.incremental,
        tally.edits
    );
}

/// Only a check made for edits can be re-checked in part: a plain check
/// keeps nothing for it.
#[test]
fn only_checks_for_edits_are_rechecked_in_part() {
    let cache = SchemaCache::new(pcl_schema::MemoryLoader::default());
    let policy = BindPolicy::strict();
    let files = vec![("main.pp".to_string(), "a = 1\nb = 2\n".to_string())];
    let provider = pcl_binder::NoFiles;
    let plain = pcl_binder::check_program_cached(&files, &cache, &policy, &provider);
    match recheck_edit(plain, FileId(0), "a = 3\nb = 2\n", &cache, &policy) {
        Recheck::Full(_, why) => assert_eq!(why, "the program cannot be re-bound in part"),
        Recheck::Rebound(_) => panic!("a plain check was re-checked in part"),
    }
    let kept = check_program_for_edits(&files, &cache, &policy, &provider);
    match recheck_edit(kept, FileId(0), "a = 3\nb = 2\n", &cache, &policy) {
        Recheck::Rebound(c) => assert_eq!(
            c.sources().get(FileId(0)).map(|f| f.text()),
            Some("a = 3\nb = 2\n")
        ),
        Recheck::Full(_, why) => panic!("not re-checked in part: {why}"),
    }
}
