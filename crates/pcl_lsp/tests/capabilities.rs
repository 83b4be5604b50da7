//! The server driven through real JSON-RPC messages, in memory: settings
//! (`pcl.toml` and the editor's), semantic tokens, going to a component's
//! directory, cancellation and the lifecycle's edge cases.

mod common;

use common::{pos, program, started, url, Client};
use serde_json::{json, Value};

/// The (code, severity) of each diagnostic.
fn codes(diags: &[Value]) -> Vec<(String, i64)> {
    diags
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["severity"].as_i64().unwrap_or_default(),
            )
        })
        .collect()
}

fn watched(client: &Client, path: &std::path::Path) {
    let uri = lsp_types::Url::from_file_path(path).unwrap_or_else(|()| panic!("path"));
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    );
}

#[test]
fn pcl_toml_code_levels_take_effect_and_are_re_read() {
    let text = "x = nope\n";
    let dir = program(&[
        ("main.pp", text),
        ("pcl.toml", "[codes]\nwarn = [\"undefined-variable\"]\n"),
    ]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // An error by default; the file makes it a warning.
    assert_eq!(
        codes(&client.diagnostics(&uri)),
        [("undefined-variable".to_string(), 2)]
    );
    // The file changes to `allow`: re-read on the watched-files notice.
    let toml = dir.join("pcl.toml");
    std::fs::write(&toml, "[codes]\nallow = [\"undefined-variable\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    watched(&client, &toml);
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    // The file goes away: the default level is back.
    std::fs::remove_file(&toml).unwrap_or_else(|e| panic!("{e}"));
    watched(&client, &toml);
    assert_eq!(
        codes(&client.diagnostics(&uri)),
        [("undefined-variable".to_string(), 1)]
    );
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn pcl_toml_schema_dirs_are_relative_to_the_file() {
    let text = "resource s \"shop:index:Store\" {\n  title = [1]\n}\n";
    let schema = r#"{"name": "shop", "version": "1.0.0", "resources": {"shop:index:Store": {"inputProperties": {"title": {"type": "string"}}}}}"#;
    let dir = program(&[("main.pp", text)]);
    std::fs::create_dir_all(dir.join("sub/schemas")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("sub/schemas/shop.json"), schema).unwrap_or_else(|e| panic!("{e}"));
    // The program lives in sub/prog, the pcl.toml in sub.
    let prog = dir.join("sub/prog");
    std::fs::create_dir_all(&prog).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(prog.join("main.pp"), text).unwrap_or_else(|e| panic!("{e}"));
    let mut client = started(&dir);
    let uri = url(&prog, "main.pp");
    client.open(&uri, text);
    // No schema for `shop`: one diagnostic about the package.
    let before = codes(&client.diagnostics(&uri));
    assert_eq!(before.len(), 1, "{before:?}");
    assert_ne!(before[0].0, "type-mismatch", "{before:?}");
    let toml = dir.join("sub/pcl.toml");
    std::fs::write(&toml, "schema-dirs = [\"schemas\"]\n").unwrap_or_else(|e| panic!("{e}"));
    watched(&client, &toml);
    // Now the schema is found: `title = [1]` is checked against `string`.
    let after = client.diagnostics(&uri);
    assert_eq!(after.len(), 1, "{after:?}");
    let message = after[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("string"), "{after:?}");
    assert_ne!(codes(&after), before);
    assert_eq!(client.stop(), Ok(()));
}

/// The editor's relative `schema-dirs` are relative to the program's
/// project root, whatever the client's root: the directory of the
/// program's `pcl.toml` (which names no schemas itself), else the nearest
/// directory holding `Pulumi.yaml`. The client's root is the file's own
/// directory, as the guide's Neovim set-up makes it.
#[test]
fn editor_schema_dirs_are_relative_to_the_project_root() {
    let text = "resource s \"shop:index:Store\" {\n  title = [1]\n}\n";
    let schema = r#"{"name": "shop", "version": "1.0.0", "resources": {"shop:index:Store": {"inputProperties": {"title": {"type": "string"}}}}}"#;
    for marker in ["pcl.toml", "Pulumi.yaml"] {
        let dir = program(&[(marker, "")]);
        std::fs::create_dir_all(dir.join("schemas")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join("schemas/shop.json"), schema).unwrap_or_else(|e| panic!("{e}"));
        let prog = dir.join("app");
        std::fs::create_dir_all(&prog).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(prog.join("main.pp"), text).unwrap_or_else(|e| panic!("{e}"));
        let mut client = Client::start();
        let root = lsp_types::Url::from_directory_path(&prog).unwrap_or_else(|()| panic!("path"));
        client.initialize(json!({
            "capabilities": {},
            "rootUri": root,
            "initializationOptions": {"schema-dirs": ["schemas"], "schema-cache": false},
        }));
        let uri = url(&prog, "main.pp");
        client.open(&uri, text);
        // The schema is found: `title = [1]` is checked against `string`.
        let diags = client.diagnostics(&uri);
        assert_eq!(diags.len(), 1, "{marker}: {diags:?}");
        let message = diags[0]["message"].as_str().unwrap_or_default();
        assert!(message.contains("string"), "{marker}: {diags:?}");
        assert!(!message.contains("unknown package"), "{marker}: {diags:?}");
        assert_eq!(client.stop(), Ok(()));
    }
}

#[test]
fn did_change_configuration_re_reads_the_editor_settings() {
    let text = "x = nope\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    assert_eq!(client.diagnostics(&uri).len(), 1);
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pcl": {"check": {"allow-missing-variables": true}}}}),
    );
    assert_eq!(
        codes(&client.diagnostics(&uri)),
        [("undefined-variable".to_string(), 2)]
    );
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"codes": {"allow": ["undefined-variable"]}}}),
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn a_bad_pcl_toml_is_shown_and_the_program_still_checked() {
    let text = "x = nope\n";
    let dir = program(&[("main.pp", text), ("pcl.toml", "[check]\nlenent = true\n")]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    assert_eq!(client.diagnostics(&uri).len(), 1);
    let shown: Vec<&str> = client
        .notifications
        .iter()
        .filter(|n| n.method == "window/showMessage")
        .filter_map(|n| n.params["message"].as_str())
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].contains("pcl.toml:2: unknown key `lenent`"),
        "{shown:?}"
    );
    assert_eq!(client.stop(), Ok(()));
}

/// One decoded semantic token.
#[derive(Debug, PartialEq)]
struct Tok {
    line: u32,
    col: u32,
    len: u32,
    ty: String,
    mods: Vec<String>,
    text: String,
}

/// Decodes a semantic tokens answer against the legend of `init`.
fn decode(init: &Value, answer: &Value, text: &str, utf16: bool) -> Vec<Tok> {
    let legend = &init["capabilities"]["semanticTokensProvider"]["legend"];
    let types: Vec<String> =
        serde_json::from_value(legend["tokenTypes"].clone()).unwrap_or_default();
    let mods: Vec<String> =
        serde_json::from_value(legend["tokenModifiers"].clone()).unwrap_or_default();
    let data: Vec<u32> = serde_json::from_value(answer["data"].clone()).unwrap_or_default();
    assert_eq!(data.len() % 5, 0, "{data:?}");
    let lines: Vec<&str> = text.split('\n').collect();
    let (mut line, mut col) = (0, 0);
    let mut out = Vec::new();
    for t in data.chunks(5) {
        let (dl, ds, len, ty, bits) = (t[0], t[1], t[2], t[3], t[4]);
        if dl > 0 {
            col = 0;
        }
        line += dl;
        col += ds;
        // The token's text, counting columns in the encoding's units.
        let units: Vec<(u32, char)> = lines
            .get(line as usize)
            .unwrap_or(&"")
            .chars()
            .scan(0u32, |at, c| {
                let here = *at;
                *at += if utf16 { c.len_utf16() } else { c.len_utf8() } as u32;
                Some((here, c))
            })
            .collect();
        let text: String = units
            .iter()
            .filter(|(u, _)| *u >= col && *u < col + len)
            .map(|(_, c)| *c)
            .collect();
        out.push(Tok {
            line,
            col,
            len,
            ty: types.get(ty as usize).cloned().unwrap_or_default(),
            mods: (0..mods.len())
                .filter(|i| bits & (1 << i) != 0)
                .filter_map(|i| mods.get(i).cloned())
                .collect(),
            text,
        });
    }
    out
}

/// The type and modifiers of the token with `text` on `line`.
fn kind_of(toks: &[Tok], line: u32, text: &str) -> (String, Vec<String>) {
    let t = toks
        .iter()
        .find(|t| t.line == line && t.text == text)
        .unwrap_or_else(|| panic!("no token `{text}` on line {line}: {toks:#?}"));
    (t.ty.clone(), t.mods.clone())
}

const SEMANTIC: &str = r#"# a comment
config name string {
  default = "x"
}
resource bucket "aws:s3/bucket:Bucket" {
  bucket = "${name}-site"
}
xs = [for s in ["a"] : s]
n = length(xs) + 1
output out {
  value = bucket.id
}
"#;

#[test]
fn semantic_tokens_from_the_lexer_and_the_binder() {
    let dir = program(&[("main.pp", SEMANTIC)]);
    let mut client = Client::start();
    let root = lsp_types::Url::from_directory_path(&dir).unwrap_or_else(|()| panic!("path"));
    let init = client.initialize(json!({
        "capabilities": {}, "rootUri": root,
        "initializationOptions": {"schema-dirs": [common::schemas()], "schema-cache": false},
    }));
    let uri = url(&dir, "main.pp");
    client.open(&uri, SEMANTIC);
    let answer = client.ok(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri}}),
    );
    let toks = decode(&init, &answer, SEMANTIC, true);
    let k = |line, text| kind_of(&toks, line, text);
    let plain = |ty: &str| (ty.to_string(), Vec::<String>::new());
    let with = |ty: &str, mods: &[&str]| {
        (
            ty.to_string(),
            mods.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(k(0, "# a comment"), plain("comment"));
    assert_eq!(k(1, "config"), plain("keyword"));
    assert_eq!(
        k(1, "name"),
        with("parameter", &["declaration", "readonly"])
    );
    assert_eq!(k(2, "default"), plain("property"));
    assert_eq!(k(2, "x"), plain("string"));
    assert_eq!(k(4, "resource"), plain("keyword"));
    assert_eq!(k(4, "bucket"), with("class", &["declaration"]));
    assert_eq!(k(5, "bucket"), plain("property"));
    assert_eq!(k(5, "name"), with("parameter", &["readonly"]));
    assert_eq!(k(5, "-site"), plain("string"));
    assert_eq!(k(7, "xs"), with("variable", &["declaration"]));
    assert_eq!(k(7, "for"), plain("keyword"));
    assert_eq!(k(7, "in"), plain("keyword"));
    // The `s` after `for` declares; the one after `:` uses it.
    let s: Vec<&Tok> = toks
        .iter()
        .filter(|t| t.line == 7 && t.text == "s")
        .collect();
    assert_eq!(s.len(), 2, "{s:?}");
    assert_eq!(s[0].mods, ["declaration"]);
    assert!(s[1].mods.is_empty() && s[1].ty == "variable", "{s:?}");
    assert_eq!(k(8, "length"), with("function", &["defaultLibrary"]));
    assert_eq!(k(8, "xs"), plain("variable"));
    assert_eq!(k(8, "+"), plain("operator"));
    assert_eq!(k(8, "1"), plain("number"));
    assert_eq!(k(9, "output"), plain("keyword"));
    assert_eq!(k(10, "bucket"), plain("class"));
    assert_eq!(k(10, "id"), plain("property"));

    // A range: only the tokens of lines 7 to 8.
    let answer = client.ok(
        "textDocument/semanticTokens/range",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 7, "character": 0}, "end": {"line": 8, "character": 0}}}),
    );
    let ranged = decode(&init, &answer, SEMANTIC, true);
    assert!(!ranged.is_empty());
    assert!(
        ranged.iter().all(|t| t.line == 7 || t.line == 8),
        "{ranged:?}"
    );
    assert_eq!(ranged.first().map(|t| t.text.as_str()), Some("xs"));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn semantic_tokens_follow_the_encoding_and_split_lines() {
    let text = "z = [\"é𝄞\", 12]\nh = <<EOT\none\ntwo\nEOT\n";
    for utf16 in [true, false] {
        let dir = program(&[("main.pp", text)]);
        let mut client = Client::start();
        let encodings = if utf16 {
            json!(["utf-16"])
        } else {
            json!(["utf-8"])
        };
        let init = client.initialize(json!({
            "capabilities": {"general": {"positionEncodings": encodings}}
        }));
        let uri = url(&dir, "main.pp");
        client.open(&uri, text);
        let answer = client.ok(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri}}),
        );
        let toks = decode(&init, &answer, text, utf16);
        let lit = toks
            .iter()
            .find(|t| t.text == "é𝄞")
            .unwrap_or_else(|| panic!("{toks:#?}"));
        assert_eq!(lit.len, if utf16 { 3 } else { 6 });
        let number = toks
            .iter()
            .find(|t| t.text == "12")
            .unwrap_or_else(|| panic!("{toks:#?}"));
        assert_eq!(number.col, if utf16 { 12 } else { 15 });
        assert_eq!(number.ty, "number");
        // The heredoc's text is one token per line, without line breaks.
        assert_eq!(kind_of(&toks, 2, "one").0, "string");
        assert_eq!(kind_of(&toks, 3, "two").0, "string");
        assert!(toks.iter().all(|t| t.len > 0 && !t.text.contains('\n')));
        assert_eq!(client.stop(), Ok(()));
    }
}

#[test]
fn definition_on_a_components_source_goes_to_its_files() {
    let main = "component web \"./web\" {\n  port = 80\n}\n";
    let dir = program(&[("main.pp", main)]);
    std::fs::create_dir_all(dir.join("web")).unwrap_or_else(|e| panic!("{e}"));
    for (name, text) in [
        ("a.pp", "config port int {}\n"),
        ("main.pp", "output url {\n  value = \"x\"\n}\n"),
    ] {
        std::fs::write(dir.join("web").join(name), text).unwrap_or_else(|e| panic!("{e}"));
    }
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, main);
    // On the string: links to main.pp first, then a.pp, at their start.
    let links = client.ok("textDocument/definition", pos(&uri, 0, 17));
    let targets: Vec<&str> = links
        .as_array()
        .unwrap_or_else(|| panic!("not links: {links}"))
        .iter()
        .filter_map(|l| l["targetUri"].as_str())
        .collect();
    assert_eq!(
        targets,
        [
            url(&dir.join("web"), "main.pp").as_str(),
            url(&dir.join("web"), "a.pp").as_str()
        ]
    );
    assert_eq!(
        links[0]["originSelectionRange"],
        json!({"start": {"line": 0, "character": 14}, "end": {"line": 0, "character": 21}})
    );
    assert_eq!(
        links[0]["targetRange"]["start"],
        json!({"line": 0, "character": 0})
    );
    // On the component's name: nothing to go to (it is the declaration).
    let other = client.ok("textDocument/definition", pos(&uri, 0, 11));
    assert!(
        other.get(0).and_then(|l| l.get("targetUri")).is_none(),
        "{other}"
    );
    assert_eq!(client.stop(), Ok(()));
}

/// A program whose check takes a while in a debug build, to keep the
/// server busy while messages queue up behind it.
fn big_program() -> String {
    let mut text = String::from("l0 = \"v\"\n");
    for i in 1..4000u32 {
        text.push_str(&format!("l{i} = \"v${{l{}}}\"\n", i - 1));
    }
    text
}

#[test]
fn cancelled_requests_get_request_cancelled_and_the_server_goes_on() {
    let text = "x = 1\n";
    let dir = program(&[("main.pp", text), ("big.pp", "")]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // The server checks the big buffer while the three requests and the
    // cancellation of the second arrive.
    client.open(&url(&dir, "big.pp"), &big_program());
    let first = client.send("textDocument/hover", pos(&uri, 0, 0));
    let second = client.send("textDocument/hover", pos(&uri, 0, 0));
    let third = client.send("textDocument/hover", pos(&uri, 0, 4));
    client.notify("$/cancelRequest", json!({"id": second}));
    let a = client.wait(&first, "first hover");
    assert!(a.error.is_none() && a.result.is_some(), "{a:?}");
    let b = client.wait(&second, "second hover");
    assert_eq!(b.error.map(|e| e.code), Some(-32800));
    let c = client.wait(&third, "third hover");
    assert!(c.error.is_none(), "{c:?}");
    assert!(
        c.result
            .clone()
            .is_some_and(|r| r["contents"]["value"] == "```pcl\n1\n```"),
        "{c:?}"
    );
    // A cancellation of an answered request changes nothing.
    client.notify("$/cancelRequest", json!({"id": first}));
    let d = client.request("textDocument/hover", pos(&uri, 0, 4));
    assert!(d.error.is_none(), "{d:?}");
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn a_panicking_notification_is_logged_and_the_server_goes_on() {
    let text = "x = nope\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    client.notify("pcl/testPanic", Value::Null);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    assert_eq!(client.diagnostics(&uri).len(), 1);
    let logged = client.notifications.iter().any(|n| {
        n.method == "window/logMessage"
            && n.params["message"] == "internal error while handling pcl/testPanic"
    });
    assert!(logged, "{:?}", client.notifications);
    // After shutdown, notifications are dropped and requests refused.
    assert!(client.request("shutdown", Value::Null).error.is_none());
    client.open(&uri, "y = nope\n");
    let refused = client.request("textDocument/hover", pos(&uri, 0, 0));
    assert_eq!(refused.error.map(|e| e.code), Some(-32600));
    let published = client
        .notifications
        .iter()
        .filter(|n| n.method == "textDocument/publishDiagnostics")
        .count();
    assert_eq!(published, 1, "nothing checked after shutdown");
    client.notify("exit", Value::Null);
    assert_eq!(client.join(), Ok(()));
}
