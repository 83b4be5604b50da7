//! Edits the server re-checks by re-binding only the edited declaration
//! (`pcl/stats` counts them as `incremental`) answer as a full check of
//! the same text does: after each edit of a sequence, the diagnostics of
//! both files, hover, definition and semantic tokens after the edit are
//! compared with those of a fresh server that opens the edited text.

mod common;

use common::{pos, program, started, url, Client};
use lsp_types::Url;
use serde_json::{json, Value};

const MAIN: &str = r#"config prefix string {
  default = "pcl"
}
config count int {
  default = 3
  description = "how many"
}
first = "${prefix}-first" # the first
resource bucket "aws:s3/bucket:Bucket" {
  bucket = first
  tags = {
    Name = "b"
  }
}
second = [for i in [1, 2, 3] : "${first}-${i}"]
output arn {
  value = bucket.arn
}
third = "${first}-${second[0]}"
fourth = length(second) + count
"#;

const OTHER: &str = "fifth = \"${third}-${fourth}\"\n";

/// What a client sees of the program: diagnostics of both files, and
/// hover, definition and semantic tokens of `main.pp`.
fn view(client: &mut Client, main: &Url, other: &Url, text: &str) -> Vec<Value> {
    let mut out = vec![
        Value::from(client.diagnostics(main)),
        Value::from(client.diagnostics(other)),
    ];
    let lines: Vec<&str> = text.lines().collect();
    for name in ["first", "second", "count", "bucket"] {
        // The last use of the name: after most edits.
        let Some((line, col)) = lines
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, l)| Some((i, l.rfind(name)?)))
        else {
            continue;
        };
        let at = pos(main, line as u32, col as u32 + 1);
        out.push(client.ok("textDocument/hover", at.clone()));
        out.push(client.ok("textDocument/definition", at));
    }
    out.push(client.ok(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": main}}),
    ));
    out
}

fn incremental_count(client: &mut Client) -> u64 {
    let stats = client.ok("pcl/stats", Value::Null);
    stats["incremental"]
        .as_u64()
        .unwrap_or_else(|| panic!("no incremental in {stats}"))
}

#[test]
fn edits_answer_as_a_full_check_and_are_counted() {
    // Each edit from the text before it; `true` when the fast path must
    // take it.
    let edits: Vec<(&str, &str, bool)> = vec![
        // A literal of a local: same type.
        ("-first\"", "-the-first-one\"", true),
        // A config default that does not convert: a diagnostic appears.
        ("default = 3", "default = \"three\"", true),
        // ... and goes again.
        ("default = \"three\"", "default = 4", true),
        // A resource input (the same package used).
        ("Name = \"b\"", "Name = \"bb\"", true),
        // A resource's type: its header, checked in full.
        ("s3/bucket:Bucket", "s3/bucket:Bucket2", false),
        ("s3/bucket:Bucket2", "s3/bucket:Bucket", false),
        // A syntax error, then its fix: both checked in full.
        ("third = \"${first}", "third = \"${first", false),
        ("third = \"${first", "third = \"${first}", false),
        // A for expression's body, shorter.
        ("-${i}\"]", "\"]", true),
        // A comment inside a declaration, moved text after it.
        ("count int {\n", "count int {\n  # the count\n", true),
        // An item added: checked in full.
        ("fourth =", "extra = 1\nfourth =", false),
    ];
    let dir = program(&[("main.pp", MAIN), ("other.pp", OTHER)]);
    let main = url(&dir, "main.pp");
    let other = url(&dir, "other.pp");
    let mut client = started(&dir);
    client.open(&main, MAIN);
    let _ = client.diagnostics(&main);
    let mut text = MAIN.to_string();
    let mut expected_fast = 0;
    for (version, (from, to, fast)) in edits.into_iter().enumerate() {
        assert!(
            text.contains(from),
            "edit {version}: no {from:?} in\n{text}"
        );
        text = text.replacen(from, to, 1);
        let before = incremental_count(&mut client);
        client.change(&main, version as i32 + 2, &text);
        let seen = view(&mut client, &main, &other, &text);
        let taken = incremental_count(&mut client) - before;
        assert_eq!(taken, u64::from(fast), "edit {version} ({from:?} → {to:?})");
        expected_fast += u64::from(fast);

        let mut fresh = started(&dir);
        fresh.open(&main, &text);
        let full = view(&mut fresh, &main, &other, &text);
        assert_eq!(incremental_count(&mut fresh), 0);
        assert_eq!(fresh.stop(), Ok(()));
        assert_eq!(
            seen, full,
            "edit {version} ({from:?} → {to:?}) answers differently from a full check of\n{text}"
        );
    }
    assert_eq!(incremental_count(&mut client), expected_fast);
    assert_eq!(client.stop(), Ok(()));
}
