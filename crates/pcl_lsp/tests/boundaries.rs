//! The server keeps `pcl check`'s boundaries (issue 26 §2), driven
//! through JSON-RPC in memory: the program root and its links (D5),
//! links that fan a program out into itself (D8), the memory of closed
//! programs (D16) and settings naming many codes (D17). Costs are counted
//! through `pcl/stats` (checks run, directories listed, code names
//! compared), never timed.

mod common;

use std::path::Path;

use common::{pos, program, started, url, Client};
use lsp_types::Url;
use serde_json::{json, Value};

fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap_or_else(|e| panic!("symlink: {e}"));
}

fn mkdir(path: &Path) {
    std::fs::create_dir_all(path).unwrap_or_else(|e| panic!("mkdir: {e}"));
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write: {e}"));
}

fn stats(client: &mut Client) -> Value {
    client.ok("pcl/stats", Value::Null)
}

fn count(stats: &Value, key: &str) -> u64 {
    stats[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no {key} in {stats}"))
}

fn codes(diags: &[Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

fn publishes(client: &Client) -> Vec<(String, Vec<Value>)> {
    client
        .notifications
        .iter()
        .filter(|n| n.method == "textDocument/publishDiagnostics")
        .map(|n| {
            (
                n.params["uri"].as_str().unwrap_or("").to_string(),
                n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default(),
            )
        })
        .collect()
}

/// D5: `p/evil.pp -> ../outside/secret.txt` and `p/mod -> ../outside/mod`
/// are `component-outside-root` errors, as `pcl check p` reports them;
/// neither file is read, so nothing of theirs is published or hovered.
#[test]
fn links_out_of_the_root_are_not_followed() {
    let base = program(&[]);
    let p = base.join("p");
    mkdir(&p.join(".git")); // p is the root
    mkdir(&base.join("outside/mod"));
    write(
        &base.join("outside/secret.txt"),
        "leak = undefined_TOPSECRET\n",
    );
    write(
        &base.join("outside/mod/m.pp"),
        "x = also_undefined_TOPSECRET\n",
    );
    write(&p.join("main.pp"), "component m \"./mod\" {}\n");
    symlink("../outside/secret.txt", &p.join("evil.pp"));
    symlink("../outside/mod", &p.join("mod"));

    let mut client = started(&p);
    let main = url(&p, "main.pp");
    let evil = url(&p, "evil.pp");
    client.open(&main, "component m \"./mod\" {}\n");
    assert_eq!(
        codes(&client.diagnostics(&main)),
        ["component-outside-root"]
    );
    assert_eq!(
        codes(&client.diagnostics(&evil)),
        ["component-outside-root"]
    );
    // Nothing of the outside files reaches the editor.
    let hover = client.ok("textDocument/hover", pos(&evil, 0, 10));
    assert!(!hover.to_string().contains("TOPSECRET"), "{hover}");
    let inside = Url::from_directory_path(&p).map_or(String::new(), |u| u.to_string());
    for (uri, diags) in publishes(&client) {
        assert!(uri.starts_with(&inside), "published outside p: {uri}");
        assert!(!uri.contains("/mod/"), "published for a linked file: {uri}");
        let text = Value::from(diags).to_string();
        assert!(!text.contains("TOPSECRET"), "{uri}: {text}");
    }
    assert_eq!(client.stop(), Ok(()));
}

/// D8: `component a "./l1"` and `component b "./l2"` with `l1 -> .` and
/// `l2 -> .` are the program itself twice: one `component-cycle` each, and
/// the check lists one directory (the program's), on every edit.
#[test]
fn links_back_to_the_program_are_one_directory() {
    let dir = program(&[]);
    mkdir(&dir.join(".git"));
    let two = "component a \"./l1\" {}\ncomponent b \"./l2\" {}\n";
    write(&dir.join("main.pp"), two);
    symlink(".", &dir.join("l1"));
    symlink(".", &dir.join("l2"));
    symlink(".", &dir.join("l3"));
    let mut client = started(&dir);
    let main = url(&dir, "main.pp");
    client.open(&main, two);
    assert_eq!(
        codes(&client.diagnostics(&main)),
        ["component-cycle", "component-cycle"]
    );
    let s = stats(&mut client);
    assert_eq!((count(&s, "checks"), count(&s, "dirReads")), (1, 1), "{s}");

    // A third link: still one directory per check.
    let three = format!("{two}component c \"./l3\" {{}}\n");
    client.change(&main, 2, &three);
    assert_eq!(codes(&client.diagnostics(&main)).len(), 3);
    let s = stats(&mut client);
    assert_eq!((count(&s, "checks"), count(&s, "dirReads")), (2, 2), "{s}");
    assert_eq!(client.stop(), Ok(()));
}

/// D16: a program whose last open document closes is forgotten (its
/// diagnostics cleared), so a settings change re-checks none of them.
#[test]
fn closed_programs_are_forgotten() {
    const PROGRAMS: usize = 100;
    let base = program(&[]);
    let mut client = started(&base);
    let mut uris = Vec::new();
    for i in 0..PROGRAMS {
        let dir = base.join(format!("p{i}"));
        mkdir(&dir);
        write(&dir.join("main.pp"), "x = nope\n");
        let uri = url(&dir, "main.pp");
        client.open(&uri, "x = nope\n");
        client.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
        uris.push(uri);
    }
    // Each file was published with its error, then cleared (after a round
    // trip: everything sent before it has been handled).
    let _ = client.request("pcl/roundTrip", Value::Null);
    let published = publishes(&client);
    for uri in &uris {
        let mine: Vec<usize> = published
            .iter()
            .filter(|(u, _)| u == uri.as_str())
            .map(|(_, d)| d.len())
            .collect();
        assert_eq!(mine, [1, 0], "{uri}");
    }
    let before = published.len();
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pcl": {"schema-cache": false}}}),
    );
    let _ = client.request("pcl/roundTrip", Value::Null);
    assert_eq!(
        publishes(&client).len(),
        before,
        "closed programs re-checked"
    );
    let s = stats(&mut client);
    assert_eq!(
        (
            count(&s, "programs"),
            count(&s, "lastGood"),
            count(&s, "documents")
        ),
        (0, 0, 0),
        "{s}"
    );
    // One check per open; a close checks nothing.
    assert_eq!(count(&s, "checks"), PROGRAMS as u64, "{s}");

    // Two documents of one program: the program lives until both close.
    let dir = base.join("two");
    mkdir(&dir);
    write(&dir.join("a.pp"), "a = 1\n");
    write(&dir.join("b.pp"), "b = a\n");
    let (a, b) = (url(&dir, "a.pp"), url(&dir, "b.pp"));
    client.open(&a, "a = 1\n");
    client.open(&b, "b = a\n");
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": a}}));
    assert_eq!(count(&stats(&mut client), "programs"), 1);
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": b}}));
    assert_eq!(count(&stats(&mut client), "programs"), 0);
    assert_eq!(client.stop(), Ok(()));
}

/// D17: settings naming 100,000 codes cost each diagnostic one lookup:
/// the code names compared follow the diagnostics, not the codes named.
#[test]
fn many_code_names_cost_a_lookup_per_diagnostic() {
    const NAMED: usize = 100_000;
    const UNDEFINED: usize = 40;
    let allow: Vec<String> = (0..NAMED).map(|i| format!("made-up-code-{i}")).collect();
    let text: String = (0..UNDEFINED)
        .map(|i| format!("v{i} = nope{i}\n"))
        .collect();
    let dir = program(&[("main.pp", &text)]);
    let mut client = Client::start();
    let settings = json!({
        "schema-cache": false,
        "codes": {"allow": allow, "warn": ["undefined-variable"]},
    });
    client.initialize(json!({
        "capabilities": {},
        "rootUri": Url::from_directory_path(&dir).ok(),
        "initializationOptions": settings,
    }));
    let main = url(&dir, "main.pp");
    client.open(&main, &text);
    let diags = client.diagnostics(&main);
    assert_eq!(diags.len(), UNDEFINED);
    assert!(diags.iter().all(|d| d["severity"] == json!(2)), "{diags:?}");
    let compared = count(&stats(&mut client), "levelComparisons");
    assert!(
        compared <= 2 * UNDEFINED as u64,
        "{compared} code names compared for {UNDEFINED} diagnostics"
    );
    // A settings change builds the map again, once.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pcl": settings}}),
    );
    let again = count(&stats(&mut client), "levelComparisons") - compared;
    assert!(again <= 2 * UNDEFINED as u64, "{again}");
    assert_eq!(client.stop(), Ok(()));
}

/// The open buffers sit on top of the files read as `pcl check` reads
/// them: a component file open in the editor, a file not saved yet, and
/// a program opened through a link to its directory (one program, its
/// diagnostics published to the documents as the editor named them).
#[test]
fn open_buffers_sit_on_top_of_the_checked_files() {
    let base = program(&[]);
    let real = base.join("real");
    mkdir(&real.join(".git"));
    mkdir(&real.join("web"));
    write(&real.join("main.pp"), "component web \"./web\" {}\n");
    write(&real.join("web/w.pp"), "x = missing\n");
    symlink("real", &base.join("alias"));
    let alias = base.join("alias");
    let mut client = started(&alias);
    let main = url(&alias, "main.pp");
    client.open(&main, "component web \"./web\" {}\n");
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new());
    // The component's file, named by its real path (it is not open).
    let web = url(&real, "web/w.pp");
    assert_eq!(codes(&client.diagnostics(&web)), ["undefined-variable"]);
    // Open (through the link) and fixed in the editor: the check reads the
    // buffer.
    let web_open = url(&alias, "web/w.pp");
    client.open(&web_open, "x = 1\n");
    client.change(&main, 2, "component web \"./web\" {}\n\n");
    assert_eq!(client.diagnostics(&web_open), Vec::<Value>::new());
    // A file not on disk yet takes part in its program.
    let new = url(&alias, "new.pp");
    client.open(&new, "y = notDeclared\n");
    assert_eq!(codes(&client.diagnostics(&new)), ["undefined-variable"]);
    // One program for both spellings of the directory.
    let other = url(&real, "main.pp");
    client.open(&other, "component web \"./web\" {}\n");
    let s = stats(&mut client);
    assert_eq!(count(&s, "programs"), 2, "{s}"); // real/ and real/web/
                                                 // Closing one name of a file open under two keeps the other's buffer.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": other}}),
    );
    client.change(&main, 3, "component web \"./web\" {}\nz = nope\n");
    assert_eq!(codes(&client.diagnostics(&main)), ["undefined-variable"]);
    assert_eq!(client.stop(), Ok(()));
}
