//! End-to-end tests of `pcl check` on the built binary: every output
//! format, exit statuses, colour, standard input, directories, the Pulumi
//! schema cache, `--deny warnings`, `--max-diagnostics`, `--jobs`,
//! `--emit model` and the internal-error path.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

fn workspace() -> PathBuf {
    pcl_tests::repo()
}

/// A `pcl` command in `cwd` with a hermetic environment: no colour
/// variables, and a `PULUMI_HOME` with no schema cache.
fn command(args: &[&str], cwd: &Path) -> Command {
    let mut cmd = Command::new(pcl_tests::pcl_binary());
    cmd.args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("PCL_INTERNAL_TEST_PANIC")
        .env(
            "PULUMI_HOME",
            std::env::temp_dir().join("pcl-test-no-pulumi-home"),
        );
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().expect("run pcl")
}

fn pcl(args: &[&str]) -> Output {
    run(&mut command(args, &workspace()))
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", stdout(output)))
}

/// A fresh directory under the system temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pcl-check-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MISTAKES: [&str; 4] = [
    "check",
    "--schema-dir",
    "examples/schemas",
    "examples/mistakes",
];

fn with(base: &[&'static str], extra: &[&'static str]) -> Vec<&'static str> {
    base.iter().chain(extra).copied().collect()
}

#[test]
fn json_format_is_one_document_with_positions() {
    let out = pcl(&with(&MISTAKES, &["--format", "json"]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "", "json writes to stdout only");
    let doc = json(&out);
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["summary"]["programs"], 1);
    assert_eq!(doc["summary"]["errors"], 8);
    assert_eq!(doc["summary"]["warnings"], 0);
    let programs = doc["programs"].as_array().unwrap();
    assert_eq!(programs.len(), 1);
    assert_eq!(programs[0]["path"], "examples/mistakes");
    let diags = programs[0]["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 8);
    let text = std::fs::read_to_string(workspace().join("examples/mistakes/main.pp")).unwrap();
    for d in diags {
        for field in ["severity", "code", "summary", "file", "range"] {
            assert!(d.get(field).is_some(), "{field} missing in {d}");
        }
        assert_eq!(d["severity"], "error");
        assert_eq!(d["file"], "examples/mistakes/main.pp");
        let start = &d["range"]["start"];
        let end = &d["range"]["end"];
        assert!(start["line"].as_u64().unwrap() >= 1);
        assert!(start["column"].as_u64().unwrap() >= 1);
        assert!(start["byte"].as_u64().unwrap() <= end["byte"].as_u64().unwrap());
        // The byte offset and the line agree with the file.
        let byte = start["byte"].as_u64().unwrap() as usize;
        let line = text[..byte].matches('\n').count() + 1;
        assert_eq!(start["line"].as_u64().unwrap() as usize, line, "{d}");
    }
    let bukcet = diags
        .iter()
        .find(|d| d["code"] == "unsupported-attribute")
        .unwrap();
    let byte = bukcet["range"]["start"]["byte"].as_u64().unwrap() as usize;
    assert!(text[byte..].starts_with("bukcet"));
    assert_eq!(bukcet["range"]["start"]["line"], 15);
    assert_eq!(bukcet["range"]["start"]["column"], 3);
    assert_eq!(bukcet["help"][0], "did you mean `bucket`?");
    assert!(bukcet["detail"].is_string());
    // Related locations carry message, file and range.
    let related: Vec<&Value> = diags
        .iter()
        .filter_map(|d| d.get("related"))
        .flat_map(|r| r.as_array().unwrap())
        .collect();
    assert!(!related.is_empty(), "no related locations in {doc}");
    for r in related {
        assert!(r["message"].is_string() && r["file"].is_string());
        assert!(r["range"]["start"]["line"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn sarif_format_is_what_code_scanning_accepts() {
    let out = pcl(&with(&MISTAKES, &["--format=sarif"]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "");
    let doc = json(&out);
    assert!(doc["$schema"].as_str().unwrap().contains("sarif"));
    assert_eq!(doc["version"], "2.1.0");
    let run = &doc["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "pcl");
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"unsupported-attribute"), "{rules:?}");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 8);
    for r in results {
        let rule = r["ruleId"].as_str().unwrap();
        assert!(rules.contains(&rule));
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index], rule);
        assert_eq!(r["level"], "error");
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "examples/mistakes/main.pp");
        let region = &loc["region"];
        for key in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(region[key].as_u64().unwrap() >= 1, "{key} in {region}");
        }
    }
    let bukcet = results
        .iter()
        .find(|r| r["ruleId"] == "unsupported-attribute")
        .unwrap();
    let region = &bukcet["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (&region["startLine"], &region["startColumn"]),
        (&Value::from(15), &Value::from(3))
    );
    assert!(results.iter().any(|r| r.get("relatedLocations").is_some()));
    // Stable across runs.
    assert_eq!(
        pcl(&with(&MISTAKES, &["--format=sarif"])).stdout,
        out.stdout
    );
}

#[test]
fn github_format_prints_escaped_workflow_commands() {
    let out = pcl(&with(&MISTAKES, &["--format", "github"]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "one line per diagnostic:\n{text}");
    assert!(lines[0].starts_with(
        "::error file=examples/mistakes/main.pp,line=10,col=13,endLine=10,endColumn=15,\
         title=type-not-convertible::config `ports`: expected list(int), found number 80"
    ));
    let bukcet = lines
        .iter()
        .find(|l| l.contains("title=unsupported-attribute::"))
        .unwrap();
    assert!(bukcet.contains("line=15,col=3,"), "{bukcet}");
    assert!(
        bukcet.contains("%0Ahelp: did you mean `bucket`?"),
        "{bukcet}"
    );
    // Warnings are `::warning`.
    let dir = temp_dir("github-warning");
    std::fs::write(dir.join("main.pp"), "a = nope\n").unwrap();
    let out = run(&mut command(
        &["check", "--lenient", "--format", "github", "main.pp"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).starts_with("::warning file=main.pp,line=1,col=5,"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn short_and_human_formats_use_their_streams() {
    let out = pcl(&with(&MISTAKES, &["--format", "short"]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "");
    assert_eq!(stdout(&out).lines().count(), 8);
    assert!(stdout(&out).contains(
        "examples/mistakes/main.pp:15:3: error[unsupported-attribute]: unsupported attribute `bukcet`; did you mean `bucket`?\n"
    ));
    let out = pcl(&MISTAKES);
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.contains("examples/mistakes/main.pp:15:3"), "{err}");
    assert!(err.contains("Help: did you mean `bucket`?"), "{err}");
    assert!(
        err.ends_with("8 errors, 0 warnings in 1 program\n"),
        "{err}"
    );
}

#[test]
fn exit_statuses() {
    let clean = pcl(&[
        "check",
        "--schema-dir",
        "examples/schemas",
        "examples/webapp",
    ]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert_eq!(pcl(&MISTAKES).status.code(), Some(1));
    assert_eq!(
        pcl(&["check", "--format", "xml", "x.pp"]).status.code(),
        Some(2)
    );
    assert_eq!(pcl(&["check", "no-such-file.pp"]).status.code(), Some(2));
}

#[test]
fn color_follows_flag_and_no_color() {
    let escape = '\u{1b}';
    // Not a terminal: no colour by default.
    let out = pcl(&MISTAKES);
    assert!(!stderr(&out).contains(escape));
    // `--color always` wins over NO_COLOR.
    let out =
        run(command(&with(&MISTAKES, &["--color", "always"]), &workspace()).env("NO_COLOR", "1"));
    assert!(stderr(&out).contains(escape), "{}", stderr(&out));
    let out = pcl(&with(&MISTAKES, &["--color=never"]));
    assert!(!stderr(&out).contains(escape));
    let out =
        run(command(&with(&MISTAKES, &["--color", "auto"]), &workspace()).env("NO_COLOR", "1"));
    assert!(!stderr(&out).contains(escape));
    // Machine formats never colour.
    let out = pcl(&with(
        &MISTAKES,
        &["--color", "always", "--format", "short"],
    ));
    assert!(!stdout(&out).contains(escape));
}

#[test]
fn stdin_with_a_file_name() {
    let check = |args: &[&str]| {
        let mut child = command(args, &workspace())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"a = 1\nb = nope\n")
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = check(&[
        "check",
        "--format",
        "short",
        "--stdin-filename",
        "infra/main.pp",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "infra/main.pp:2:5: error[undefined-variable]: undefined variable `nope`\n"
    );
    let out = check(&["check", "--format", "short", "-"]);
    assert!(
        stdout(&out).starts_with("<stdin>:2:5: "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn directories_and_pulumi_yaml() {
    let dir = temp_dir("dirs");
    std::fs::create_dir_all(dir.join("proj/src")).unwrap();
    std::fs::write(
        dir.join("proj/Pulumi.yaml"),
        "name: p\nruntime: pcl\nmain: src\n",
    )
    .unwrap();
    std::fs::write(dir.join("proj/src/b.pp"), "b = nope\n").unwrap();
    std::fs::write(dir.join("proj/src/a.pp"), "a = b\n").unwrap();
    std::fs::create_dir_all(dir.join("plain")).unwrap();
    std::fs::write(dir.join("plain/x.pp"), "x = y\n").unwrap();
    let out = run(&mut command(
        &["check", "--format", "json", "proj", "plain"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    let paths: Vec<&str> = doc["programs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["plain", "proj/src"]);
    assert_eq!(
        doc["programs"][1]["diagnostics"][0]["file"],
        "proj/src/b.pp"
    );
}

#[test]
fn schema_cache_is_read_unless_turned_off() {
    let home = temp_dir("pulumi-home");
    std::fs::create_dir_all(home.join("schemas")).unwrap();
    // Pulumi's cache names carry hash suffixes.
    std::fs::copy(
        workspace().join("examples/schemas/aws-6.0.0.json"),
        home.join("schemas/aws-6.0.0-0123456789ab.json"),
    )
    .unwrap();
    let args = ["check", "examples/webapp"];
    let out = run(command(&args, &workspace()).env("PULUMI_HOME", &home));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let off =
        run(command(&with(&args, &["--no-schema-cache"]), &workspace()).env("PULUMI_HOME", &home));
    assert_eq!(off.status.code(), Some(1));
    let err = stderr(&off);
    assert!(err.contains("unknown package `aws`"), "{err}");
    assert!(
        err.contains("pulumi package get-schema aws > DIR/aws.json"),
        "the remedy is spelled out: {err}"
    );
}

#[test]
fn missing_versioned_schema_says_how_to_get_it() {
    let dir = temp_dir("missing-schema");
    std::fs::write(
        dir.join("main.pp"),
        "package nosuch {\n  baseProviderName = \"nosuch\"\n  baseProviderVersion = \"1.2.3\"\n}\n\nresource r \"nosuch:index:Thing\" {}\n",
    )
    .unwrap();
    let out = run(&mut command(
        &["check", "--format", "json", "main.pp"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("pulumi package get-schema nosuch"), "{text}");
}

#[test]
fn deny_warnings_fails_the_run() {
    let dir = temp_dir("deny");
    std::fs::write(dir.join("main.pp"), "a = nope\n").unwrap();
    let out = run(&mut command(&["check", "--lenient", "main.pp"], &dir));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("0 errors, 1 warning in 1 program"));
    let out = run(&mut command(
        &["check", "--lenient", "--deny", "warnings", "main.pp"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = run(&mut command(
        &[
            "check",
            "--lenient",
            "-D",
            "warnings",
            "--format=json",
            "main.pp",
        ],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn max_diagnostics_caps_and_counts() {
    let out = pcl(&with(
        &MISTAKES,
        &["--format", "short", "--max-diagnostics", "3"],
    ));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).lines().count(), 3);
    assert!(
        stderr(&out).contains("5 more diagnostics not shown"),
        "{}",
        stderr(&out)
    );
    let out = pcl(&with(
        &MISTAKES,
        &["--format", "json", "--max-diagnostics=2"],
    ));
    let doc = json(&out);
    assert_eq!(
        doc["programs"][0]["diagnostics"].as_array().unwrap().len(),
        2
    );
    assert_eq!(doc["summary"]["omitted"], 6);
    assert_eq!(doc["summary"]["errors"], 8);
    let out = pcl(&with(&MISTAKES, &["--max-diagnostics", "0"]));
    let err = stderr(&out);
    assert!(
        err.starts_with("note: 8 more diagnostics not shown"),
        "{err}"
    );
}

#[test]
fn output_does_not_depend_on_jobs() {
    let dir = temp_dir("jobs");
    let mut args: Vec<String> = vec!["check".into()];
    for i in 0..6 {
        let name = format!("p{i}");
        std::fs::create_dir_all(dir.join(&name)).unwrap();
        let text =
            format!("a{i} = nope{i}\nb = c{i}\n\noutput o {{\n  value = a{i} + missing\n}}\n");
        std::fs::write(dir.join(&name).join("main.pp"), text).unwrap();
        args.push(name);
    }
    // Reverse the argument order too: output is sorted by path.
    args[1..].reverse();
    for format in ["short", "json", "sarif", "github", "human"] {
        let mut outputs = Vec::new();
        for jobs in ["1", "2", "4"] {
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            a.extend(["--jobs", jobs, "--format", format]);
            let out = run(&mut command(&a, &dir));
            assert_eq!(out.status.code(), Some(1));
            outputs.push((out.stdout, out.stderr));
        }
        assert_eq!(outputs[0], outputs[1], "{format}");
        assert_eq!(outputs[0], outputs[2], "{format}");
    }
    let out = run(&mut command(
        &["check", "--format=short", "p3", "p0", "p5"],
        &dir,
    ));
    let text = stdout(&out);
    let files: Vec<&str> = text.lines().map(|l| l.split(':').next().unwrap()).collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted, "{text}");
}

#[test]
fn emit_model_describes_the_bound_program() {
    let out = pcl(&[
        "check",
        "--schema-dir",
        "examples/schemas",
        "--emit",
        "model",
        "examples/webapp",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["version"], 2);
    // Types are indices into the document's table of type strings.
    let ty = |t: &Value| doc["types"][t.as_u64().unwrap() as usize].as_str().unwrap();
    let program = &doc["programs"][0];
    assert_eq!(program["path"], "examples/webapp");
    assert_eq!(program["packages"][0]["name"], "aws");
    let nodes = program["nodes"].as_array().unwrap();
    for (i, node) in nodes.iter().enumerate() {
        assert_eq!(node["id"], i);
        for field in ["kind", "name", "type", "range"] {
            assert!(node.get(field).is_some(), "{field} missing in {node}");
        }
        assert!(node["range"]["start"]["line"].as_u64().unwrap() >= 1);
    }
    let count = nodes.iter().find(|n| n["name"] == "instanceCount").unwrap();
    assert_eq!(count["kind"], "config");
    assert_eq!(ty(&count["type"]), "int");
    assert_eq!(count["default"]["kind"], "LiteralValueExpression");
    assert_eq!(count["default"]["value"], 2);
    let web = nodes.iter().find(|n| n["name"] == "web").unwrap();
    assert_eq!(web["kind"], "resource");
    assert_eq!(web["schema"]["token"], "aws:ec2/instance:Instance");
    let ami = web["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "ami")
        .unwrap();
    assert_eq!(ami["property"]["resource"], "aws:ec2/instance:Instance");
    let value = &ami["value"];
    assert_eq!(value["kind"], "ScopeTraversalExpression");
    assert_eq!(value["root"], "ami");
    assert_eq!(value["reference"]["kind"], "node");
    let ami_id = value["reference"]["id"].as_u64().unwrap() as usize;
    assert_eq!(nodes[ami_id]["name"], "ami");
    assert!(ty(&value["type"]).contains("string"), "{value}");
    // An invoke names its function token.
    let invoke = &nodes[ami_id]["value"];
    assert_eq!(invoke["kind"], "FunctionCallExpression");
    assert_eq!(invoke["function"]["kind"], "invoke");
    // The canonical token the call was rewritten to.
    assert_eq!(invoke["function"]["token"], "aws:ec2:getAmi");
    let order = program["order"].as_array().unwrap();
    assert_eq!(order.len(), nodes.len());
    // The model and a machine format both want stdout.
    let out = pcl(&[
        "check",
        "--emit",
        "model",
        "--format",
        "json",
        "examples/webapp",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn invalid_utf8_is_a_diagnostic() {
    let dir = temp_dir("utf8");
    std::fs::write(dir.join("bad.pp"), b"a = \"x\xffy\"\n").unwrap();
    let out = run(&mut command(
        &["check", "--format", "short", "bad.pp"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "bad.pp:1:7: error[invalid-utf8]: Invalid character encoding\n"
    );
    std::fs::create_dir_all(dir.join("prog")).unwrap();
    std::fs::write(dir.join("prog/a.pp"), b"b = \"\xfe\"\n").unwrap();
    let out = run(&mut command(&["check", "--format", "short", "prog"], &dir));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("prog/a.pp:1:6: error[invalid-utf8]"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_panic_is_an_internal_error_with_status_two() {
    let out = run(command(&MISTAKES, &workspace()).env("PCL_INTERNAL_TEST_PANIC", "1"));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("internal error:"), "{err}");
    assert!(err.contains("please report"), "{err}");
}

/// `--emit model` on a 100 000-term operator chain: the binary writes it
/// (nothing recurses per level), the output is JSON whose `value` is a
/// left-leaning `BinaryOpExpression` chain 99 999 deep, indented near the
/// top and compact below (so it stays linear in size).
#[test]
fn emit_model_writes_a_long_operator_chain() {
    let dir = temp_dir("chain");
    let text = format!(
        "x = 1{}\noutput y {{\n  value = x\n}}\n",
        " + 1".repeat(99_999)
    );
    std::fs::write(dir.join("main.pp"), &text).unwrap();
    let out = run(&mut command(&["check", "--emit", "model", "main.pp"], &dir));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.len() < 64 << 20, "{} bytes", out.stdout.len());
    assert!(out.stdout.starts_with(b"{\n  \"version\": 2,\n"));
    // serde_json reads (and drops) nested values recursively: a big stack.
    let checked = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut reader = serde_json::Deserializer::from_slice(&out.stdout);
            reader.disable_recursion_limit();
            let mut docs = reader.into_iter::<Value>();
            let doc = docs
                .next()
                .expect("a document")
                .unwrap_or_else(|e| panic!("stdout is not JSON: {e}"));
            assert!(docs.next().is_none(), "one document");
            let node = &doc["programs"][0]["nodes"][0];
            assert_eq!(node["name"], "x");
            let number = doc["types"]
                .as_array()
                .unwrap()
                .iter()
                .position(|t| t == "number")
                .unwrap();
            let mut e = &node["value"];
            let mut depth = 0;
            while e["kind"] == "BinaryOpExpression" {
                assert_eq!(e["op"], "+");
                assert_eq!(e["type"], number);
                let rhs = &e["rhs"];
                assert_eq!(rhs["kind"], "LiteralValueExpression");
                assert_eq!(rhs["value"], 1);
                // The i-th operand from the right starts at byte 4 + 4i.
                let byte = rhs["range"]["start"]["byte"].as_u64().unwrap();
                assert_eq!(byte, 4 + 4 * (99_999 - depth));
                assert_eq!(rhs["range"]["start"]["column"].as_u64().unwrap(), byte + 1);
                assert_eq!(e["range"]["start"]["byte"], 4);
                e = &e["lhs"];
                depth += 1;
            }
            assert_eq!(e["kind"], "LiteralValueExpression");
            assert_eq!(e["range"]["start"]["byte"], 4);
            depth
        })
        .unwrap()
        .join()
        .expect("reading the model overflowed the test's stack");
    assert_eq!(checked, 99_999);
}

/// A file reports at most 1,000 problems, then one `too-many-diagnostics`
/// summary, printed last, whose severity is the highest it counts: the
/// exit status is the one the whole list would give (#18 finding 7).
#[test]
fn a_file_of_many_problems_ends_with_a_summary() {
    let dir = temp_dir("limit");
    // 1,000 warnings (unknown block types), then an error the limit drops.
    let warnings: String = (0..1_000).map(|i| format!("zz{i} {{\n}}\n")).collect();
    std::fs::write(dir.join("main.pp"), format!("{warnings}x = nope\n")).unwrap();
    let out = run(&mut command(
        &["check", "--format", "short", "main.pp"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1_001);
    assert!(
        text.ends_with(
            ": error[too-many-diagnostics]: 1 more problem in this file is not shown \
             (pcl reports at most 1,000 per file); fix the ones above and check again\n"
        ),
        "{}",
        text.lines().last().unwrap_or("")
    );
    // Only warnings dropped: the summary is a warning, and the check passes.
    std::fs::write(dir.join("main.pp"), format!("{warnings}zz {{\n}}\n")).unwrap();
    let out = run(&mut command(
        &["check", "--format", "short", "main.pp"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(": warning[too-many-diagnostics]: 1 more problem"));
    // A parse likewise.
    std::fs::write(dir.join("errors.pp"), "=\n".repeat(1_500)).unwrap();
    let out = run(&mut command(
        &["parse", "--format", "short", "errors.pp"],
        &dir,
    ));
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1_001);
    assert!(text.ends_with(
        ": error[too-many-diagnostics]: 500 more problems in this file are not shown \
         (pcl reports at most 1,000 per file); fix the ones above and check again\n"
    ));
    let _ = std::fs::remove_dir_all(&dir);
}
