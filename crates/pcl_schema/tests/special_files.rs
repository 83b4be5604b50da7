//! Schema files that are not regular files, or too big (robustness issue
//! #18, finding 3): a FIFO or a symbolic link to `/dev/zero` named like a
//! schema, in a `--schema-dir` directory or in the schema cache, is
//! refused without being read. The files are built in a temporary
//! directory. Each load runs on a thread with a generous deadline, so that
//! a regression fails the test instead of hanging the suite.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use pcl_schema::{ChainLoader, DirLoader, LoadError, SchemaLoader, MAX_SCHEMA_BYTES};

/// A fresh, empty directory under the system's temporary directory.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pcl-schema-special-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Loads package `h` with the CLI's arrangement of loaders: the
/// `--schema-dir` directories, then the schema cache.
fn load_h(schema_dir: &Path, cache: &Path) -> Result<(), LoadError> {
    let (schema_dir, cache) = (schema_dir.to_path_buf(), cache.to_path_buf());
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let loader = ChainLoader::new(vec![
            Box::new(DirLoader::new([schema_dir])),
            Box::new(DirLoader::new([cache])),
        ]);
        let _ = send.send(loader.load_package("h", None).map(|_| ()));
    });
    receive
        .recv_timeout(Duration::from_secs(60))
        .expect("loading a schema that is not a regular file must not block")
}

fn assert_refused(result: Result<(), LoadError>, want: &str) {
    match result {
        Err(e @ LoadError::Io { .. }) => {
            let text = e.to_string();
            assert!(text.contains(want), "{text}");
            assert!(text.contains("h-1.0.0.json"), "{text}");
        }
        other => panic!("expected an I/O error, got {other:?}"),
    }
}

#[test]
fn a_fifo_in_a_schema_dir_is_not_opened() {
    let root = temp_dir("fifo-dir");
    let (dir, cache) = (root.join("schemas"), root.join("cache"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&cache).unwrap();
    mkfifo(&dir.join("h-1.0.0.json"));
    assert_refused(load_h(&dir, &cache), "not a regular file");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_fifo_in_the_schema_cache_is_not_opened() {
    let root = temp_dir("fifo-cache");
    let (dir, cache) = (root.join("schemas"), root.join("cache"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&cache).unwrap();
    mkfifo(&cache.join("h-1.0.0.json"));
    assert_refused(load_h(&dir, &cache), "not a regular file");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_link_to_dev_zero_is_not_read() {
    if !Path::new("/dev/zero").exists() {
        eprintln!("no /dev/zero; skipping");
        return;
    }
    let root = temp_dir("zero");
    let (dir, cache) = (root.join("schemas"), root.join("cache"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&cache).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("h-1.0.0.json")).unwrap();
    assert_refused(load_h(&dir, &cache), "not a regular file");
    std::fs::remove_file(dir.join("h-1.0.0.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", cache.join("h-1.0.0.json")).unwrap();
    assert_refused(load_h(&dir, &cache), "not a regular file");
    let _ = std::fs::remove_dir_all(&root);
}

/// A regular file above the limit is refused from its size, unread: a
/// sparse file of the limit plus one byte costs no disk.
#[test]
fn a_file_above_the_limit_is_refused() {
    let root = temp_dir("big");
    let dir = root.join("schemas");
    std::fs::create_dir_all(&dir).unwrap();
    let file = std::fs::File::create(dir.join("h-1.0.0.json")).unwrap();
    file.set_len(MAX_SCHEMA_BYTES + 1).unwrap();
    drop(file);
    assert_refused(
        load_h(&dir, &root.join("no-cache")),
        &format!("more than the limit of {MAX_SCHEMA_BYTES} bytes"),
    );
    // A smaller limit applies to files that are read, and a file within
    // it loads.
    let small = DirLoader::new([dir.clone()]).with_max_bytes(16);
    std::fs::write(
        dir.join("h-1.0.0.json"),
        r#"{"name": "h", "version": "1.0.0"}"#,
    )
    .unwrap();
    let err = small.load_package("h", None).map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("limit of 16 bytes"), "{err}");
    let fits = DirLoader::new([dir]).with_max_bytes(64);
    assert!(fits.load_package("h", None).is_ok());
    let _ = std::fs::remove_dir_all(&root);
}

/// A symbolic link to a regular schema file is followed.
#[test]
fn a_link_to_a_regular_file_loads() {
    let root = temp_dir("link");
    let dir = root.join("schemas");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        root.join("real.json"),
        r#"{"name": "h", "version": "1.0.0"}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(root.join("real.json"), dir.join("h-1.0.0.json")).unwrap();
    assert!(load_h(&dir, &root.join("no-cache")).is_ok());
    let _ = std::fs::remove_dir_all(&root);
}
