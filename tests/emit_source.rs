//! `pcl parse --emit source` writes the file back byte for byte, also when
//! it is not valid UTF-8 (#18 finding 8: the bad bytes came back as
//! U+FFFD).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

#[test]
fn emit_source_keeps_invalid_utf8_bytes() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("emit-source-utf8");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Bad bytes in a string, a comment, an identifier position and at the
    // very end (a truncated sequence), plus a valid multi-byte character.
    let bytes: &[u8] = b"a = \"x\xff\xfey\" # \xc0 comment\nb\x80 = \"\xc3\xa9\"\nc = 1\xe2\x82";
    std::fs::write(dir.join("bad.pp"), bytes).unwrap();
    let out = Command::new(pcl_tests::pcl_binary())
        .args(["parse", "--emit", "source", "bad.pp"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.stdout, bytes);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid-utf8"), "{err}");
    assert_eq!(out.status.code(), Some(1));

    // Two files: the plain concatenation, each with its own bytes.
    std::fs::write(dir.join("good.pp"), "d = \"é\"\n").unwrap();
    let out = Command::new(pcl_tests::pcl_binary())
        .args(["parse", "--emit", "source", "bad.pp", "good.pp"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let mut expected = bytes.to_vec();
    expected.extend_from_slice("d = \"é\"\n".as_bytes());
    assert_eq!(out.stdout, expected);
}
