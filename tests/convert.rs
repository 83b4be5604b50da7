//! `pcl convert --to yaml`: the contract of the command (output on stdout
//! or in DIR/Main.yaml, refusal of programs with errors unless
//! `--lenient`, unsupported features named with their position, usage
//! errors). The conversion itself is tested against pulumi-yaml's goldens
//! in `crates/pcl_yaml/tests/goldens.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

fn pcl(args: &[&str], cwd: &Path) -> Output {
    pcl_tests::run_in(cwd, args, b"")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("convert-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const PROGRAM: &str = "\
config prefix string {
  default = \"web\"
}

# The site's bucket.
resource site \"aws:s3/bucket:Bucket\" {
  bucket = \"${prefix}-site\"
  tags = {
    Name = \"site\"
  }
}

output name {
  value = site.bucket
}
";

const EXPECTED: &str = "\
configuration:
  prefix:
    type: string
    default: web
resources:
  # The site's bucket.
  site:
    type: aws:s3:Bucket
    properties:
      bucket: ${prefix}-site
      tags:
        Name: site
outputs:
  name: ${site.bucket}
";

fn schemas() -> String {
    pcl_tests::repo()
        .join("examples/schemas")
        .display()
        .to_string()
}

#[test]
fn prints_the_yaml_on_stdout() {
    let dir = scratch("stdout");
    std::fs::write(dir.join("main.pp"), PROGRAM).unwrap();
    let out = pcl(
        &[
            "convert",
            "--to",
            "yaml",
            "--schema-dir",
            &schemas(),
            "main.pp",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), EXPECTED);
}

#[test]
fn output_dir_gets_main_yaml_and_an_existing_one_is_replaced() {
    let dir = scratch("output");
    std::fs::write(dir.join("main.pp"), PROGRAM).unwrap();
    let args = [
        "convert",
        "--to",
        "yaml",
        "--schema-dir",
        &schemas(),
        "-o",
        "out/yaml",
        "main.pp",
    ];
    let out = pcl(&args, &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let written = dir.join("out/yaml/Main.yaml");
    assert_eq!(std::fs::read_to_string(&written).unwrap(), EXPECTED);
    std::fs::write(&written, "stale\n").unwrap();
    let out = pcl(&args, &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&written).unwrap(), EXPECTED);
}

#[cfg(unix)]
#[test]
fn output_through_a_symbolic_link_is_refused() {
    let dir = scratch("symlink");
    std::fs::write(dir.join("main.pp"), PROGRAM).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("target.txt"), "keep\n").unwrap();
    std::os::unix::fs::symlink(dir.join("target.txt"), dir.join("out/Main.yaml")).unwrap();
    let out = pcl(
        &[
            "convert",
            "--to",
            "yaml",
            "--schema-dir",
            &schemas(),
            "-o",
            "out",
            "main.pp",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("target.txt")).unwrap(),
        "keep\n"
    );
}

#[test]
fn a_program_with_errors_is_refused_unless_lenient() {
    let dir = scratch("errors");
    std::fs::write(
        dir.join("main.pp"),
        "resource r \"nosuch:index:Thing\" {\n  a = 1\n}\n",
    )
    .unwrap();
    let strict = pcl(
        &["convert", "--to", "yaml", "--no-schema-cache", "main.pp"],
        &dir,
    );
    assert_eq!(strict.status.code(), Some(1));
    assert!(strict.stdout.is_empty());
    assert!(
        text(&strict.stderr).contains("unknown package"),
        "{}",
        text(&strict.stderr)
    );
    let lenient = pcl(
        &[
            "convert",
            "--to",
            "yaml",
            "--no-schema-cache",
            "--lenient",
            "main.pp",
        ],
        &dir,
    );
    assert_eq!(lenient.status.code(), Some(0), "{}", text(&lenient.stderr));
    assert_eq!(
        text(&lenient.stdout),
        "resources:\n  r:\n    type: nosuch:Thing\n    properties:\n      a: 1\n"
    );
}

#[test]
fn what_yaml_cannot_express_is_an_error_naming_it_and_where() {
    let dir = scratch("unsupported");
    std::fs::write(dir.join("main.pp"), "xs = [1, 2]\nys = [for x in xs : x]\n").unwrap();
    let out = pcl(
        &[
            "convert",
            "--to",
            "yaml",
            "--no-schema-cache",
            "--color",
            "never",
            "main.pp",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.contains("[yaml-unsupported] Error: Failed to generate YAML program: For"),
        "{err}"
    );
    assert!(err.contains("main.pp:2:6"), "{err}");
}

#[test]
fn an_unknown_target_is_a_usage_error_listing_the_targets() {
    let dir = scratch("target");
    let out = pcl(&["convert", "--to", "json", "main.pp"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("possible values: yaml"), "{err}");
}
