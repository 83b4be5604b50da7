//! Full-check benchmark: `cargo bench -p pcl_binder --bench check`.
//!
//! Prints two tables.
//!
//! 1. Throughput, in MB/s of source, of hcl-edit's `parse_body` alone, pcl's
//!    `parse` alone and pcl's full check (parse, bind and type check through
//!    [`check_program_with_files`], the entry point `pcl check` uses) on
//!    (a) every corpus program whose schemas are all present
//!    (`../shared/corpus/manifest.tsv`, `checkable = yes`; skipped with a
//!    message when the corpus is absent), repeated until about 5 MB were
//!    checked, and (b) a generated program of about 10 MB. The schemas are
//!    loaded through one [`SchemaCache`] per schema folder that lives for
//!    the whole run ([`check_program_cached`], what `pcl check` does for
//!    the programs of one run), so they are loaded, and their types
//!    converted, once and then cached, as in a long-running check. The last column is full check / hcl-edit parse
//!    time (issue #4's goal: at most 0.5). Error counts are printed so that
//!    a fast but failing check is visible.
//!
//! 2. Cold checks touching a big schema: a small program that uses three
//!    resources of azure-native, kubernetes or docker (corpus schemas), checked
//!    with a fresh loader each time (so the schema is read, skimmed and the
//!    three resources decoded every time), against the time to read the
//!    schema file's bytes (`std::fs::read`), measured in the same run
//!    (goal for azure-native: under 3x). The schema crate's share is shown
//!    separately: a fresh `DirLoader` loading the schema and looking up the
//!    three resources, without converting their types or binding.
//!
//! Like the parse bench, this one runs with the system allocator, which is
//! what a Rust program using the libraries gets by default. The `pcl`
//! binary uses mimalloc instead (see `crates/pcl_cli/src/main.rs`); with it
//! in this bench, for pcl and hcl-edit alike, the generated row's
//! check / hcl-edit time fell from 2.00 to 1.76 in paired runs.
//!
//! 3. Issue #30's rows, whole processes: `pcl check` (the release binary,
//!    built by the bench) in callgrind instructions against hcl-edit 0.10's
//!    parse of the same files (`../shared/peers/rust`'s `hclpeers`, looked
//!    for in `target/peers/hclpeers` or `PCL_HCL_EDIT_PEER`): the typed
//!    1 MB program, the corpus's checkable programs, a 6-byte file checked
//!    alone beside 5 MB of siblings (against `pcl parse` of them); the
//!    release binary's size; the peak RSS of a check of 2 MB of
//!    `[1,1,…]` per source byte. Rows whose tools are missing are left out.
//!    `PCL_BENCH_PCL` names another `pcl` to measure instead of building.
//!
//! Environment: `PCL_BENCH_PASSES` (timed passes, default 3),
//! `PCL_BENCH_ONLY` (`corpus`, `generated`, `cold` or `instructions`),
//! `PCL_BENCH_GENERATED_BYTES` (size of the generated program),
//! `PCL_BENCH_COLD_RUNS` and `PCL_BENCH_SCHEMA` (runs of, and a file-name
//! filter for, the cold checks). For profiling the corpus row:
//! `PCL_BENCH_PROGRAM` (only the programs whose manifest name contains it)
//! and `PCL_BENCH_REPS` (repetitions instead of about 5 MB).
//! `--write-generated N PATH` writes the generated program, for profiling
//! with `pcl check`.
//!
//! The generated program is written for the hand-written schema in
//! `examples/schemas/aws-6.0.0.json` and is type-correct against it by
//! construction: configs, invokes, locals with templates, `for`
//! expressions, conditionals and arithmetic, resources of all four types
//! with `options` (range, dependsOn, protect), heredocs with directives,
//! outputs with splats, and comments. Unlike
//! `crates/pcl_syntax/benches/parse.rs` (a port of
//! `../shared/peers/gen_large.py`, which is not type-correct against any
//! schema) every reference points at something of the right type, so the
//! check does its full work instead of stopping at errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pcl_binder::{
    check_program_cached, check_program_with_files, BindPolicy, FsFiles, MemoryFiles, NoFiles,
    SchemaCache,
};
use pcl_diagnostics::FileId;
use pcl_schema::{CachingLoader, DirLoader, PackageDescriptor, SchemaLoader};

#[path = "../tests/common/mod.rs"]
mod common;
use common::{corpus_dir, manifest, Defaults};

const MB: f64 = 1e6;
const CORPUS_TARGET_BYTES: usize = 5_000_000;
const GENERATED_BYTES: usize = 10_000_000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(pos) = args.iter().position(|a| a == "--write-generated") {
        // For profiling: writes the generated program of about N bytes.
        let bytes = args
            .get(pos + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1_000_000);
        let path = args.get(pos + 2).map(PathBuf::from).unwrap_or_default();
        std::fs::write(&path, generate(bytes, 1)).unwrap();
        return;
    }
    let passes: usize = std::env::var("PCL_BENCH_PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let only = std::env::var("PCL_BENCH_ONLY").unwrap_or_default();

    let mut rows = Vec::new();
    if only.is_empty() || only == "corpus" {
        match corpus_programs() {
            Some(programs) if !programs.0.is_empty() => rows.push(corpus_row(&programs, passes)),
            _ => println!("corpus not found (../shared/corpus): skipping the corpus row"),
        }
    }
    if only.is_empty() || only == "generated" {
        rows.push(generated_row(passes));
    }
    if !rows.is_empty() {
        println!();
        println!("Full check throughput (best of {passes} passes; schemas loaded once and cached)");
        println!(
            "| input | MB | hcl-edit parse MB/s | pcl parse MB/s | pcl full check MB/s | check / hcl-edit time | errors |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|");
        for row in &rows {
            println!(
                "| {} | {:.2} | {:.1} | {:.1} | {:.1} | {:.2} | {} |",
                row.label,
                row.bytes as f64 / MB,
                row.mbps(row.hcl_edit),
                row.mbps(row.parse),
                row.mbps(row.check),
                row.check.as_secs_f64() / row.hcl_edit.as_secs_f64().max(1e-12),
                row.errors,
            );
        }
    }

    if only.is_empty() || only == "cold" {
        cold_checks();
    }
    if only.is_empty() || only == "instructions" {
        instruction_rows();
    }
}

// ----------------------------------------------------------------------------
// Throughput rows.

struct Row {
    label: String,
    /// Source bytes per pass.
    bytes: usize,
    hcl_edit: Duration,
    parse: Duration,
    check: Duration,
    /// Error diagnostics of one check of the whole input.
    errors: usize,
}

impl Row {
    fn mbps(&self, time: Duration) -> f64 {
        self.bytes as f64 / MB / time.as_secs_f64().max(1e-12)
    }
}

/// The best of `passes` timed passes of `f` (after one warm-up pass).
fn best(passes: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut best = Duration::MAX;
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        f();
        best = best.min(start.elapsed());
    }
    best
}

/// One corpus program, ready to check.
struct CorpusProgram {
    dir: PathBuf,
    sources: Vec<(String, String)>,
    loader: usize,
    policy: BindPolicy,
}

/// The checkable corpus programs (`None` when the corpus is absent).
fn corpus_programs() -> Option<(Vec<CorpusProgram>, Vec<Defaults>)> {
    let rows = manifest()?;
    let mut loaders: Vec<(String, Defaults)> = Vec::new();
    let mut programs = Vec::new();
    for row in rows.iter().filter(|r| r.checkable) {
        if let Ok(filter) = std::env::var("PCL_BENCH_PROGRAM") {
            if !row.name.contains(filter.as_str()) {
                continue;
            }
        }
        let loader = match loaders.iter().position(|(d, _)| *d == row.schema_dir) {
            Some(i) => i,
            None => {
                loaders.push((row.schema_dir.clone(), row.loader()));
                loaders.len() - 1
            }
        };
        let path = corpus_dir().join(&row.program_dir);
        let Ok(sources) = pcl_binder::FileProvider::read_dir(&FsFiles::new(&path), "") else {
            continue;
        };
        programs.push(CorpusProgram {
            dir: path,
            sources,
            loader,
            policy: row.policy(),
        });
    }
    Some((programs, loaders.into_iter().map(|(_, l)| l).collect()))
}

fn corpus_row((programs, loaders): &(Vec<CorpusProgram>, Vec<Defaults>), passes: usize) -> Row {
    let bytes: usize = programs
        .iter()
        .flat_map(|p| &p.sources)
        .map(|(_, t)| t.len())
        .sum();
    let reps = std::env::var("PCL_BENCH_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CORPUS_TARGET_BYTES.div_ceil(bytes.max(1)));
    let files: Vec<FsFiles> = programs.iter().map(|p| FsFiles::new(&p.dir)).collect();
    let caches: Vec<SchemaCache<&Defaults>> = loaders.iter().map(SchemaCache::new).collect();
    let check_all = || {
        let mut errors = 0;
        for (p, files) in programs.iter().zip(&files) {
            let checked = check_program_cached(&p.sources, &caches[p.loader], &p.policy, files);
            errors += checked.errors().count();
            black_box(checked);
        }
        errors
    };
    let errors = check_all();
    // Where the corpus check time goes: the slowest programs (one timed
    // check each, after the warm-up above).
    let mut slowest: Vec<(Duration, &Path)> = programs
        .iter()
        .zip(&files)
        .map(|(p, files)| {
            let start = Instant::now();
            black_box(check_program_cached(
                &p.sources,
                &caches[p.loader],
                &p.policy,
                files,
            ));
            (start.elapsed(), p.dir.as_path())
        })
        .collect();
    slowest.sort_by_key(|(d, _)| std::cmp::Reverse(*d));
    let total: Duration = slowest.iter().map(|(d, _)| *d).sum();
    println!(
        "corpus: one check of every program takes {:.1} ms; the slowest:",
        total.as_secs_f64() * 1e3
    );
    for (d, dir) in slowest.iter().take(5) {
        println!(
            "  {:>8.2} ms  {}",
            d.as_secs_f64() * 1e3,
            dir.file_name().unwrap_or_default().to_string_lossy()
        );
    }
    let texts: Vec<&str> = programs
        .iter()
        .flat_map(|p| &p.sources)
        .map(|(_, t)| t.as_str())
        .collect();
    let hcl_edit = best(passes, || {
        for _ in 0..reps {
            for t in &texts {
                let _ = black_box(hcl_edit::parser::parse_body(black_box(t)));
            }
        }
    });
    let parse = best(passes, || {
        for _ in 0..reps {
            for t in &texts {
                black_box(pcl_syntax::parse(FileId(0), *black_box(t)));
            }
        }
    });
    let check = best(passes, || {
        for _ in 0..reps {
            black_box(check_all());
        }
    });
    eprintln!("measured the corpus");
    Row {
        label: format!(
            "corpus: {} checkable programs ({} files, {bytes} B) x{reps}",
            programs.len(),
            texts.len()
        ),
        bytes: bytes * reps,
        hcl_edit,
        parse,
        check,
        errors,
    }
}

fn examples_schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/schemas")
}

fn generated_row(passes: usize) -> Row {
    let size = std::env::var("PCL_BENCH_GENERATED_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(GENERATED_BYTES);
    let text = generate(size, 1);
    let sources = vec![("main.pp".to_owned(), text)];
    let loader = SchemaCache::new(DirLoader::new([examples_schemas()]));
    let policy = BindPolicy::strict();
    let checked = check_program_cached(&sources, &loader, &policy, &NoFiles);
    let errors = checked.errors().count();
    for d in checked.errors().take(5) {
        eprintln!(
            "generated program error: {}",
            pcl_diagnostics::render_short(d, checked.sources())
        );
    }
    drop(checked);
    let text = &sources[0].1;
    let hcl_edit = best(passes, || {
        let _ = black_box(hcl_edit::parser::parse_body(black_box(text)));
    });
    let parse = best(passes, || {
        black_box(pcl_syntax::parse(FileId(0), black_box(text)));
    });
    let check = best(passes, || {
        black_box(check_program_cached(&sources, &loader, &policy, &NoFiles));
    });
    eprintln!("measured the generated program");
    Row {
        label: format!("generated (aws example schema, {} B)", text.len()),
        bytes: text.len(),
        hcl_edit,
        parse,
        check,
        errors,
    }
}

// ----------------------------------------------------------------------------
// Cold checks against big schemas.

/// Runs per schema (`PCL_BENCH_COLD_RUNS` overrides, e.g. for profilers).
fn cold_runs() -> usize {
    std::env::var("PCL_BENCH_COLD_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15)
}

/// Programs that use three resources of one big corpus schema.
const COLD: &[(&str, &str)] = &[
    (
        "azure-native-2.41.0.json",
        r#"config group string {
  default = "rg"
}

resource ns "azure-native:eventgrid:Namespace" {
  resourceGroupName = group
  location          = "westeurope"
}

resource space "azure-native:eventgrid:TopicSpace" {
  resourceGroupName = group
  namespaceName     = ns.name
  topicTemplates    = ["devices/+/telemetry"]
}

resource topic "azure-native:eventgrid:Topic" {
  resourceGroupName = group
  location          = "westeurope"
}

output endpoint {
  value = topic.endpoint
}
"#,
    ),
    (
        "kubernetes-3.7.0.json",
        r#"resource ns "kubernetes:core/v1:Namespace" {
  metadata = {
    name = "web"
  }
}

resource app "kubernetes:apps/v1:Deployment" {
  metadata = {
    namespace = ns.metadata.name
  }
  spec = {
    selector = {
      matchLabels = { app = "web" }
    }
    replicas = 2
    template = {
      metadata = {
        labels = { app = "web" }
      }
      spec = {
        containers = [{
          name  = "web"
          image = "nginx"
          ports = [{ containerPort = 80 }]
        }]
      }
    }
  }
}

resource svc "kubernetes:core/v1:Service" {
  metadata = {
    namespace = ns.metadata.name
  }
  spec = {
    selector = { app = "web" }
    ports    = [{ port = 80 }]
  }
}

output serviceName {
  value = svc.metadata.name
}
"#,
    ),
    (
        "docker-4.0.0-alpha.0.json",
        r#"resource image "docker:index/remoteImage:RemoteImage" {
  name = "nginx:latest"
}

resource net "docker:index/network:Network" {
  name = "web"
}

resource container "docker:index/container:Container" {
  name  = "web"
  image = image.imageId
  networksAdvanced = [{
    name = net.name
  }]
}

output containerName {
  value = container.name
}
"#,
    ),
];

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn cold_checks() {
    let dir = corpus_dir().join("schemas/codegen");
    let filter = std::env::var("PCL_BENCH_SCHEMA").unwrap_or_default();
    let present: Vec<&(&str, &str)> = COLD
        .iter()
        .filter(|(f, _)| dir.join(f).exists() && f.contains(filter.as_str()))
        .collect();
    if present.is_empty() {
        println!(
            "corpus schemas not found (../shared/corpus/schemas/codegen): skipping cold checks"
        );
        return;
    }
    println!();
    let runs = cold_runs();
    println!("Cold check of a small program using 3 resources of one schema (median of {runs} runs; fresh loader every run)");
    println!("| schema | MB | read bytes ms | load + 3 lookups ms | lookups / read | cold check ms | check / read | errors |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (file, program) in present {
        // A folder holding just this schema, so the loader lists one file.
        let only = std::env::temp_dir().join(format!("pcl-bench-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&only);
        std::fs::create_dir_all(&only).unwrap();
        let schema = only.join(file);
        std::fs::copy(dir.join(file), &schema).unwrap();
        let size = std::fs::metadata(&schema).unwrap().len();
        let sources = vec![("main.pp".to_owned(), (*program).to_owned())];
        let policy = BindPolicy::strict();
        let files = MemoryFiles::new();
        let check = || {
            let loader = CachingLoader::new(DirLoader::new([only.clone()]));
            check_program_with_files(&sources, &loader, &policy, &files)
        };
        let checked = check();
        let errors = checked.errors().count();
        for d in checked.errors().take(5) {
            eprintln!(
                "{file}: {}",
                pcl_diagnostics::render_short(d, checked.sources())
            );
        }
        drop(checked);
        // The schema crate's share: read, load and look up the three
        // resources the program uses (no type conversion, no binding).
        let tokens: Vec<&str> = program
            .lines()
            .filter_map(|l| l.strip_prefix("resource "))
            .filter_map(|l| l.split('"').nth(1))
            .collect();
        let lookups = || {
            let loader = DirLoader::new([only.clone()]);
            let name = tokens[0].split(':').next().unwrap();
            let pkg = loader.load(&PackageDescriptor::new(name)).unwrap();
            for t in &tokens {
                black_box(pkg.lookup_resource(t).unwrap().unwrap());
            }
            pkg
        };
        // Each measured back to back (a warm-up first), so that the three
        // see the same allocator state: a freed buffer of the file's size
        // is reused by the next read instead of being faulted in afresh.
        let timed = |f: &dyn Fn()| -> Vec<Duration> {
            f();
            (0..runs)
                .map(|_| {
                    let start = Instant::now();
                    f();
                    start.elapsed()
                })
                .collect()
        };
        let reads = timed(&|| {
            black_box(std::fs::read(&schema).unwrap());
        });
        let loads = timed(&|| {
            black_box(lookups());
        });
        let checks = timed(&|| {
            black_box(check());
        });
        let (read, load, check) = (median(reads), median(loads), median(checks));
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let ratio = |d: Duration| d.as_secs_f64() / read.as_secs_f64().max(1e-12);
        println!(
            "| {file} | {:.2} | {:.3} | {:.3} | {:.2}x | {:.3} | {:.2}x | {errors} |",
            size as f64 / 1_048_576.0,
            ms(read),
            ms(load),
            ratio(load),
            ms(check),
            ratio(check),
        );
        let _ = std::fs::remove_dir_all(&only);
    }
}

// ----------------------------------------------------------------------------
// The generator: a type-correct program for examples/schemas/aws-6.0.0.json.

const WORDS: &[&str] = &[
    "app", "web", "api", "data", "cache", "queue", "worker", "edge", "store", "log", "metric",
    "alert", "net", "vpc", "subnet", "gateway", "route", "policy", "role", "user", "group", "key",
    "secret", "bucket", "table", "stream", "topic", "cluster", "node", "pool", "service",
    "ingress", "config", "zone", "record", "cert", "domain", "image", "repo", "build", "deploy",
    "stage", "prod", "dev", "test", "primary", "replica", "backup", "archive", "shard",
];

/// SplitMix64: small, seedable, good enough for test data.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    fn random(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `lo..=hi`.
    fn randint(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next_u64() % items.len() as u64) as usize]
    }
}

/// Names defined so far, by the type of what they hold.
#[derive(Default)]
struct Scope {
    strings: Vec<String>,
    ints: Vec<String>,
    bools: Vec<String>,
    string_lists: Vec<String>,
    string_maps: Vec<String>,
    amis: Vec<String>,
    regions: Vec<String>,
    buckets: Vec<String>,
    groups: Vec<String>,
    /// Ranged instances (lists of instances).
    instances: Vec<String>,
}

struct Gen {
    r: Rng,
    n: u64,
    s: Scope,
}

impl Gen {
    fn word(&mut self) -> &'static str {
        self.r.pick(WORDS)
    }

    fn name(&mut self, kind: &str) -> String {
        self.n += 1;
        let (a, b) = (self.word(), self.word());
        let mut cap = b.to_owned();
        cap[..1].make_ascii_uppercase();
        format!("{a}{cap}{kind}{}", self.n)
    }

    fn from(&mut self, pool: fn(&Scope) -> &Vec<String>) -> Option<String> {
        let items = pool(&self.s);
        if items.is_empty() {
            return None;
        }
        let i = (self.r.next_u64() % items.len() as u64) as usize;
        Some(pool(&self.s)[i].clone())
    }

    /// A string-valued expression.
    fn string(&mut self) -> String {
        let k = self.r.random();
        let w = self.word();
        if k < 0.3 {
            return format!("\"{w}-{}\"", self.word());
        }
        if k < 0.5 {
            if let Some(s) = self.from(|s| &s.strings) {
                return format!("\"{w}-${{{s}}}\"");
            }
        } else if k < 0.6 {
            if let Some(b) = self.from(|s| &s.buckets) {
                return format!(
                    "{b}.{}",
                    self.r.pick(&["arn", "bucket", "websiteEndpoint", "id"])
                );
            }
        } else if k < 0.7 {
            if let Some(g) = self.from(|s| &s.groups) {
                return format!("\"sg-${{{g}.name}}\"");
            }
        } else if k < 0.75 {
            if let Some(a) = self.from(|s| &s.amis) {
                return format!("{a}.{}", self.r.pick(&["id", "arn", "name"]));
            }
        } else if k < 0.8 {
            if let Some(r) = self.from(|s| &s.regions) {
                return format!("\"${{{r}.name}}-{w}\"");
            }
        } else if k < 0.85 {
            if let Some(l) = self.from(|s| &s.string_lists) {
                return format!("join(\",\", {l})");
            }
        } else if k < 0.9 {
            if let (Some(b), Some(s)) = (self.from(|s| &s.bools), self.from(|s| &s.strings)) {
                return format!("{b} ? {s} : \"{w}\"");
            }
        } else if let Some(i) = self.from(|s| &s.ints) {
            return format!("\"{w}-${{{i} * 2 + 1}}\"");
        }
        format!("\"{w}\\t\\\"quoted\\\"\"")
    }

    fn int(&mut self) -> String {
        match self.from(|s| &s.ints) {
            Some(i) if self.r.random() < 0.5 => format!("{i} + {}", self.r.randint(1, 9)),
            _ => self.r.randint(1, 65535).to_string(),
        }
    }

    fn bool(&mut self) -> String {
        let k = self.r.random();
        if k < 0.3 {
            if let Some(b) = self.from(|s| &s.bools) {
                return format!("!{b}");
            }
        } else if k < 0.5 {
            if let Some(i) = self.from(|s| &s.ints) {
                return format!("{i} > {}", self.r.randint(1, 9));
            }
        } else if k < 0.6 {
            if let Some(s) = self.from(|s| &s.strings) {
                return format!("{s} == \"prod\"");
            }
        }
        self.r.pick(&["true", "false"]).to_owned()
    }

    fn string_list(&mut self) -> String {
        let k = self.r.random();
        if k < 0.3 {
            if let Some(l) = self.from(|s| &s.string_lists) {
                return format!("[for x in {l} : toBase64(x) if x != \"\"]");
            }
        } else if k < 0.45 {
            if let Some(i) = self.from(|s| &s.instances) {
                return format!("{i}[*].publicIp");
            }
        }
        let n = self.r.randint(1, 4);
        let items: Vec<String> = (0..n).map(|_| self.string()).collect();
        format!("[{}]", items.join(", "))
    }

    fn string_map(&mut self, pad: &str) -> String {
        if self.r.random() < 0.3 {
            if let Some(m) = self.from(|s| &s.string_maps) {
                return m;
            }
        }
        let n = self.r.randint(1, 4);
        let mut keys: Vec<&str> = Vec::new();
        while (keys.len() as u64) < n {
            let w = self.word();
            if !keys.contains(&w) {
                keys.push(w);
            }
        }
        let items: Vec<String> = keys
            .iter()
            .map(|k| format!("{pad}  {} = {}", capital(k), self.string()))
            .collect();
        format!("{{\n{}\n{pad}}}", items.join("\n"))
    }

    fn comment(&mut self) -> String {
        let (a, b) = (self.word(), self.word());
        match self.r.randint(0, 2) {
            0 => format!("// {a} settings for the {b} tier\n"),
            1 => format!("# {a} {b}\n"),
            _ => format!("/* {a}:\n   multi-line {b} note */\n"),
        }
    }

    fn config(&mut self) -> String {
        let name = self.name("Cfg");
        let (typ, default) = match self.r.randint(0, 4) {
            0 => {
                self.s.strings.push(name.clone());
                ("string", format!("\"{}\"", self.word()))
            }
            1 => {
                self.s.ints.push(name.clone());
                ("int", self.r.randint(1, 5).to_string())
            }
            2 => {
                self.s.bools.push(name.clone());
                ("bool", "false".to_owned())
            }
            3 => {
                self.s.string_lists.push(name.clone());
                ("\"list(string)\"", "[\"a\", \"b\", \"c\"]".to_owned())
            }
            _ => {
                self.s.string_maps.push(name.clone());
                (
                    "\"map(string)\"",
                    "{ env = \"dev\", team = \"core\" }".to_owned(),
                )
            }
        };
        let (a, b) = (self.word(), self.word());
        format!("config {name} {typ} {{\n  default     = {default}\n  description = \"The {a} {b} setting\"\n}}\n")
    }

    fn local(&mut self) -> String {
        let name = self.name("Var");
        let value = match self.r.randint(0, 4) {
            0 => {
                let v = self.string();
                self.s.strings.push(name.clone());
                v
            }
            1 => {
                let v = format!(
                    "({} + {}) * {}",
                    self.int(),
                    self.int(),
                    self.r.randint(1, 4)
                );
                self.s.ints.push(name.clone());
                v
            }
            2 => {
                let v = self.bool();
                self.s.bools.push(name.clone());
                v
            }
            3 => {
                let v = self.string_list();
                self.s.string_lists.push(name.clone());
                v
            }
            _ => {
                let v = self.string_map("");
                self.s.string_maps.push(name.clone());
                v
            }
        };
        format!("{name} = {value}\n")
    }

    fn invoke(&mut self) -> String {
        let name = self.name("Result");
        if self.r.random() < 0.3 {
            self.s.regions.push(name.clone());
            return format!("{name} = invoke(\"aws:index/getRegion:getRegion\", {{}})\n");
        }
        let (owners, values) = (self.string_list(), self.string_list());
        let (most, filter) = (self.bool(), self.string());
        self.s.amis.push(name.clone());
        format!(
            "{name} = invoke(\"aws:ec2/getAmi:getAmi\", {{\n  mostRecent = {most}\n  owners     = {owners}\n  filters = [{{\n    name   = {filter}\n    values = {values}\n  }}]\n}})\n"
        )
    }

    fn resource(&mut self) -> String {
        let name = self.name("");
        let k = self.r.random();
        let mut body = Vec::new();
        let token;
        if k < 0.3 || self.s.buckets.is_empty() {
            token = "aws:s3/bucket:Bucket";
            body.push(format!("  bucket       = {}", self.string()));
            body.push(format!("  forceDestroy = {}", self.bool()));
            body.push(format!("  tags = {}", self.string_map("  ")));
            if self.r.random() < 0.5 {
                body.push(format!(
                    "  website = {{\n    indexDocument = {}\n    errorDocument = \"error.html\"\n  }}",
                    self.string()
                ));
            }
            self.s.buckets.push(name.clone());
        } else if k < 0.5 {
            token = "aws:s3/bucketObject:BucketObject";
            let bucket = self.from(|s| &s.buckets).unwrap_or_default();
            body.push(format!("  bucket      = {bucket}.bucket"));
            body.push(format!("  key         = {}", self.string()));
            body.push("  contentType = \"text/html\"".to_owned());
            body.push(format!(
                "  source      = stringAsset(\"<h1>${{{bucket}.arn}}</h1>\")"
            ));
        } else if k < 0.7 {
            token = "aws:ec2/securityGroup:SecurityGroup";
            let cidrs = self.string_list();
            body.push(format!("  description = {}", self.string()));
            body.push(format!(
                "  ingress = [for port in [80, 443, {}] : {{\n    protocol   = \"tcp\"\n    fromPort   = port\n    toPort     = port\n    cidrBlocks = {cidrs}\n  }}]",
                self.int()
            ));
            body.push(format!("  tags = {}", self.string_map("  ")));
            self.s.groups.push(name.clone());
        } else {
            token = "aws:ec2/instance:Instance";
            let mut opts = vec![format!("    range     = {}", self.int())];
            if let Some(g) = self.from(|s| &s.groups) {
                opts.push(format!("    dependsOn = [{g}]"));
            }
            opts.push(format!("    protect   = {}", self.bool()));
            body.push(format!("  options {{\n{}\n  }}", opts.join("\n")));
            let ami = match self.from(|s| &s.amis) {
                Some(a) => format!("{a}.id"),
                None => "\"ami-0123456789\"".to_owned(),
            };
            body.push(format!("  ami          = {ami}"));
            body.push(format!(
                "  instanceType = {} ? \"t3.medium\" : \"t3.micro\"",
                self.bool()
            ));
            let groups = match self.from(|s| &s.groups) {
                Some(g) => format!("[{g}.id]"),
                None => "[]".to_owned(),
            };
            body.push(format!("  vpcSecurityGroupIds = {groups}"));
            let (flag, list) = (self.bool(), self.string_list());
            body.push(format!(
                "  userData = <<-EOT\n    #!/bin/bash\n    echo \"server ${{range.value}} of ${{{}}}\"\n    %{{ if {flag} }}enable%{{ else }}disable%{{ endif }}\n    %{{ for item in {list} ~}}\n    process ${{item}}\n    %{{ endfor ~}}\n  EOT",
                self.string()
            ));
            body.push(format!(
                "  tags = {{\n    Name = \"{}-${{range.value}}\"\n  }}",
                self.word()
            ));
            self.s.instances.push(name.clone());
        }
        format!("resource {name} \"{token}\" {{\n{}\n}}\n", body.join("\n"))
    }

    fn output(&mut self) -> String {
        let name = self.name("Out");
        let value = match self.from(|s| &s.instances) {
            Some(i) if self.r.random() < 0.5 => format!("[for s in {i} : s.publicDns]"),
            _ => self.string(),
        };
        format!("output {name} {{\n  value = {value}\n}}\n")
    }
}

fn capital(word: &str) -> String {
    let mut out = word.to_owned();
    out[..1].make_ascii_uppercase();
    out
}

/// A type-correct program of about `bytes` bytes.
fn generate(bytes: usize, seed: u64) -> String {
    let mut g = Gen {
        r: Rng(seed),
        n: 0,
        s: Scope::default(),
    };
    let mut out = String::with_capacity(bytes + 4096);
    for _ in 0..5 {
        out.push_str(&g.config());
        out.push('\n');
    }
    while out.len() < bytes {
        let k = g.r.random();
        let block = if k < 0.05 {
            g.config()
        } else if k < 0.3 {
            g.local()
        } else if k < 0.38 {
            g.invoke()
        } else if k < 0.9 {
            g.resource()
        } else {
            g.output()
        };
        if g.r.random() < 0.2 {
            out.push_str(&g.comment());
        }
        out.push_str(&block);
        out.push('\n');
    }
    out
}

// ----------------------------------------------------------------------------
// Whole processes against hcl-edit 0.10 (issue #30): instructions counted by
// callgrind, the release binary's size, peak resident memory.

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target"))
}

/// `pcl` built in the release profile, the binary `cargo install` puts on
/// a user's disk (its instruction counts are those of the `profiling`
/// profile, which adds line tables only), or `PCL_BENCH_PCL` (another
/// build to measure; the size row is then that file's).
fn release_pcl() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PCL_BENCH_PCL") {
        return Some(PathBuf::from(path));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .current_dir(repo())
        .args([
            "build",
            "--quiet",
            "--release",
            "-p",
            "pcl_cli",
            "--bin",
            "pcl",
        ])
        .status()
        .ok()?;
    let path = target_dir().join("release/pcl");
    (status.success() && path.is_file()).then_some(path)
}

/// hcl-edit 0.10 as the peers' harness builds it (`../shared/peers/rust`):
/// `PCL_HCL_EDIT_PEER`, else `target/peers/hclpeers`.
fn hcl_edit_peer() -> Option<PathBuf> {
    let path = std::env::var_os("PCL_HCL_EDIT_PEER")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir().join("peers/hclpeers"));
    path.is_file().then_some(path)
}

/// hcl-edit's parse of `files`, each once, in one process (reading them
/// included).
fn hcl_edit_instructions(peer: &Path, files: &[PathBuf]) -> Option<u64> {
    let mut args: Vec<std::ffi::OsString> = ["hcl-edit", "-n", "1", "--warmup", "0", "-q"]
        .iter()
        .map(Into::into)
        .collect();
    args.extend(files.iter().map(|f| f.as_os_str().to_owned()));
    pcl_testkit::process_instructions(peer, &args)
}

/// Peak resident set of `program args…` in KiB (GNU time's `%M`).
fn peak_rss_kib<S: AsRef<std::ffi::OsStr>>(program: &Path, args: &[S]) -> Option<u64> {
    let output = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(program)
        .args(args)
        .output()
        .ok()?;
    let stderr = String::from_utf8(output.stderr).ok()?;
    stderr.lines().last()?.trim().parse().ok()
}

fn m(n: u64) -> String {
    format!("{:.1} M", n as f64 / 1e6)
}

/// The `.pp` files of a program directory (its root files, as a check
/// reads them).
fn pp_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "pp") && p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Issue #30's table: each row's figure and goal, hcl-edit 0.10 measured
/// in the same run.
fn instruction_rows() {
    println!();
    println!("Issue #30: whole processes (instructions counted by callgrind; hcl-edit 0.10 of ../shared/peers/rust on the same bytes)");
    println!();
    let Some(pcl) = release_pcl() else {
        println!("cannot build the release `pcl`: no instruction rows");
        return;
    };
    let size = std::fs::metadata(&pcl).map(|m| m.len()).unwrap_or(0);
    let peer = hcl_edit_peer();
    if peer.is_none() {
        println!(
            "hcl-edit 0.10 peer not found: build it with `cargo build --release --manifest-path ../shared/peers/rust/Cargo.toml --target-dir target/peers/rust && cp target/peers/rust/release/hclpeers target/peers/` (or set PCL_HCL_EDIT_PEER)"
        );
    }
    if pcl_testkit::process_instructions(&pcl, &["--version"]).is_none() {
        println!("valgrind is not available: no instruction rows");
    }
    let work = std::env::temp_dir().join(format!("pcl-bench-i30-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let schemas = examples_schemas();
    let schema_arg = format!("--schema-dir={}", schemas.display());
    println!("| row | pcl | reference | ratio | goal |");
    println!("|---|---:|---:|---:|---:|");

    // A type-correct 1 MB program, checked as a directory.
    let gen = work.join("generated");
    std::fs::create_dir_all(&gen).unwrap();
    let main = gen.join("main.pp");
    std::fs::write(&main, generate(1_000_000, 1)).unwrap();
    let check = pcl_testkit::process_instructions(
        &pcl,
        &["check", schema_arg.as_str(), gen.to_str().unwrap()],
    );
    let edit = peer
        .as_deref()
        .and_then(|p| hcl_edit_instructions(p, std::slice::from_ref(&main)));
    if let (Some(check), Some(edit)) = (check, edit) {
        println!(
            "| `pcl check` of the typed 1 MB program | {} | hcl-edit parse {} | {:.2}x | ≤ 0.6x |",
            m(check),
            m(edit),
            check as f64 / edit as f64
        );
    }

    // The corpus's checkable programs: one `pcl check` per schema folder
    // and set of flags, instructions summed.
    if let Some(rows) = manifest() {
        let mut groups: Vec<((String, String), Vec<PathBuf>)> = Vec::new();
        for row in rows.iter().filter(|r| r.checkable) {
            let key = (row.schema_dir.clone(), row.flags.clone());
            let dir = corpus_dir().join(&row.program_dir);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, dirs)) => dirs.push(dir),
                None => groups.push((key, vec![dir])),
            }
        }
        let programs: usize = groups.iter().map(|(_, d)| d.len()).sum();
        let mut total = Some(0u64);
        for ((schema_dir, flags), dirs) in &groups {
            let mut args: Vec<std::ffi::OsString> = vec!["check".into()];
            args.push(format!("--schema-dir={}", corpus_dir().join(schema_dir).display()).into());
            args.extend(
                flags
                    .split_whitespace()
                    .filter(|f| *f != "-")
                    .map(Into::into),
            );
            args.extend(dirs.iter().map(|d| d.as_os_str().to_owned()));
            total = total
                .zip(pcl_testkit::process_instructions(&pcl, &args))
                .map(|(a, b)| a + b);
        }
        let files: Vec<PathBuf> = groups
            .iter()
            .flat_map(|(_, dirs)| dirs.iter().flat_map(|d| pp_files(d)))
            .collect();
        let edit = peer
            .as_deref()
            .and_then(|p| hcl_edit_instructions(p, &files));
        if let (Some(check), Some(edit)) = (total, edit) {
            println!(
                "| `pcl check` of the corpus's {programs} checkable programs ({} runs, one per schema folder and flags) | {} | hcl-edit parse of their {} files {} | {:.2}x | ≤ 1.5x |",
                groups.len(),
                m(check),
                files.len(),
                m(edit),
                check as f64 / edit as f64
            );
        }
    }

    // One 6-byte file beside 5 MB of sibling files.
    let dir = work.join("siblings");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..10 {
        std::fs::write(dir.join(format!("part{i}.pp")), generate(500_000, 100 + i)).unwrap();
    }
    let siblings = pp_files(&dir);
    std::fs::write(dir.join("tiny.pp"), "a = 1\n").unwrap();
    let alone = pcl_testkit::process_instructions(
        &pcl,
        &[
            "check",
            schema_arg.as_str(),
            dir.join("tiny.pp").to_str().unwrap(),
        ],
    );
    let mut parse_args: Vec<std::ffi::OsString> = vec!["parse".into()];
    parse_args.extend(siblings.iter().map(|f| f.as_os_str().to_owned()));
    let parse = pcl_testkit::process_instructions(&pcl, &parse_args);
    let edit = peer
        .as_deref()
        .and_then(|p| hcl_edit_instructions(p, &siblings));
    if let (Some(alone), Some(parse)) = (alone, parse) {
        println!(
            "| `pcl check` of a 6-byte file beside 5 MB of siblings | {} | `pcl parse` of the siblings {}{} | {:.2}x | ≤ 0.3x |",
            m(alone),
            m(parse),
            edit.map(|e| format!(" (hcl-edit {})", m(e))).unwrap_or_default(),
            alone as f64 / parse as f64
        );
    }

    println!(
        "| size of the release binary | {:.1} MB ({:.1} MiB) | | | ≤ 15 MB |",
        size as f64 / 1e6,
        size as f64 / (1024.0 * 1024.0)
    );

    // Peak RSS of a check of 2 MB of `[1,1,…]` less an empty check's.
    let rss = work.join("rss");
    let empty = work.join("empty");
    std::fs::create_dir_all(&rss).unwrap();
    std::fs::create_dir_all(&empty).unwrap();
    let ones = 2_000_000 / 2;
    let text = "a = [".to_string() + &"1,".repeat(ones) + "1]\n";
    std::fs::write(rss.join("main.pp"), &text).unwrap();
    std::fs::write(empty.join("main.pp"), "").unwrap();
    let full = peak_rss_kib(&pcl, &["check", rss.to_str().unwrap()]);
    let base = peak_rss_kib(&pcl, &["check", empty.to_str().unwrap()]);
    if let (Some(full), Some(base)) = (full, base) {
        println!(
            "| peak RSS of `pcl check` on 2 MB of `[1,1,…]` less an empty check's | {:.1} bytes per source byte ({} KiB - {} KiB) | | | ≤ 40 |",
            full.saturating_sub(base) as f64 * 1024.0 / text.len() as f64,
            full,
            base
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}
