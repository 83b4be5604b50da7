//! `pcl lsp` from a real editor: Neovim, headless, configured with exactly
//! the Neovim block of `docs/editors.md` (`editors/vim` on the runtime
//! path, the client, the omni function and the mappings). On a two-file
//! program with a misspelt property it must show the server's diagnostic,
//! then answer a hover with the expression's type (`tests/nvim/driver.lua`);
//! on the repository's `examples/webapp` it must give the file type and
//! highlighting, no diagnostic (the schemas are found), a hover and
//! completion through the omni function (`tests/nvim/webapp.lua`). The
//! Lua side writes what Neovim saw to a JSON file that this test reads.
//!
//! Without `nvim` on `PATH` (or with one older than 0.7) the test says so on
//! stderr and passes; with `PCL_REQUIRE_NVIM` set, as CI sets it, it fails
//! instead, so that CI cannot skip it silently.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Waits of the Lua driver (diagnostics, attaching, the hover answer).
const STEP_TIMEOUT_MS: u32 = 10_000;
/// Neovim is killed after this, whatever it is doing.
const OVERALL_TIMEOUT: Duration = Duration::from_secs(60);

const DRIVER: &str = include_str!("nvim/driver.lua");
const WEBAPP_DRIVER: &str = include_str!("nvim/webapp.lua");

/// The file Neovim opens first: `bukcet` is a misspelt `bucket`.
const MAIN: &str = r#"config siteName string {
  default = "hello"
}

resource bucket "aws:s3/bucket:Bucket" {
  bukcet = siteName
}
"#;

/// The second file of the program, opened next: the hover is on `arn`.
const OUTPUTS: &str = r#"output arn {
  value = bucket.arn
}
"#;

/// Passes with a plain message, or fails when `PCL_REQUIRE_NVIM` is set.
/// The message goes to stderr directly, so it shows even when cargo
/// captures the output of passing tests.
fn skip(reason: &str) {
    assert!(
        std::env::var_os("PCL_REQUIRE_NVIM").is_none(),
        "PCL_REQUIRE_NVIM is set but {reason}"
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipped: the Neovim end-to-end test of `pcl lsp` did not run: {reason}"
    );
}

/// `Ok(())` when a usable `nvim` is on `PATH`, else why not.
fn nvim_usable() -> Result<(), String> {
    let out = Command::new("nvim")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            format!("`nvim` cannot be run ({e}); install Neovim (Debian: `apt-get install neovim`)")
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    let version = first.strip_prefix("NVIM v").unwrap_or_default();
    let mut parts = version.split(['.', '-']).map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) if (major, minor) >= (0, 7) => Ok(()),
        _ => Err(format!(
            "`nvim --version` says {:?}; the configuration needs Neovim 0.7 or later",
            pcl_diagnostics::escape(first)
        )),
    }
}

/// The user guide's Neovim configuration (`docs/editors.md`): the first
/// `lua` block after `## Neovim`.
fn readme_neovim_config() -> String {
    let path = pcl_tests::repo().join("docs/editors.md");
    let guide = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let after = guide
        .split_once("\n## Neovim\n")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("docs/editors.md has no `## Neovim` section"));
    let block = after
        .split_once("```lua\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(block, _)| block)
        .unwrap_or_else(|| panic!("docs/editors.md's Neovim section has no ```lua block"));
    assert!(
        block.contains(r#"cmd = { "pcl", "lsp" }"#),
        "the guide's Neovim block no longer starts `pcl lsp`:\n{block}"
    );
    block.to_string()
}

/// The zero-based line and character of the first `needle` in `text`
/// (ASCII, so UTF-16 and byte columns agree), plus `past`.
fn position_of(text: &str, needle: &str, past: usize) -> (usize, usize) {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} is not in the program"))
        + past;
    let before = text.get(..offset).unwrap_or_default();
    let line = before.matches('\n').count();
    let character = offset - before.rfind('\n').map_or(0, |i| i + 1);
    (line, character)
}

/// `PATH` with the directory of the built `pcl` first, so that the
/// guide's `cmd = { "pcl", "lsp" }` runs it.
fn path_with_pcl() -> std::ffi::OsString {
    let bin_dir = pcl_tests::pcl_binary()
        .parent()
        .unwrap_or_else(|| panic!("the pcl binary has no directory"))
        .to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(bin_dir).chain(std::env::split_paths(&rest));
    std::env::join_paths(dirs).unwrap_or_else(|e| panic!("PATH: {e}"))
}

/// Waits for `child` until the overall timeout; kills it then.
fn wait_or_kill(child: &mut Child) -> Result<(), String> {
    let deadline = Instant::now() + OVERALL_TIMEOUT;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return Ok(()),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("nvim was killed after {OVERALL_TIMEOUT:?}"));
            }
            Err(e) => return Err(format!("waiting for nvim: {e}")),
        }
    }
}

/// What Neovim and its LSP client logged (the client's log holds the
/// server's stderr), escaped, for failure messages.
fn logs(dir: &Path) -> String {
    let read = |rel: &str| {
        let text = std::fs::read_to_string(dir.join(rel)).unwrap_or_default();
        let lines: Vec<_> = text.lines().map(pcl_diagnostics::escape).collect();
        lines.join("\n")
    };
    format!(
        "nvim's stderr:\n{}\nthe LSP client's log:\n{}",
        read("nvim.stderr"),
        read("xdg/nvim/lsp.log")
    )
}

/// How Neovim is run: the scratch directory (configuration, logs, result),
/// the directory it starts in, the file it opens, the Lua driver and what
/// the driver reads from the environment.
struct Run<'a> {
    dir: &'a Path,
    cwd: &'a Path,
    file: &'a Path,
    driver: &'a str,
    env: Vec<(&'static str, String)>,
}

/// Runs Neovim configured with the guide's block, with `HOME` a scratch
/// directory whose `pcl` is a link to this repository (the block's first
/// line names `~/pcl`), and returns what the driver wrote.
fn run_neovim(run: &Run<'_>) -> Value {
    let dir = run.dir;
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap_or_else(|e| panic!("{e}"));
    let repo = std::fs::canonicalize(pcl_tests::repo()).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&repo, home.join("pcl")).unwrap_or_else(|e| panic!("{e}"));
    pcl_tests::write(dir, "init.lua", &readme_neovim_config());
    pcl_tests::write(dir, "driver.lua", run.driver);
    let out_file = dir.join("result.json");
    let log = |name: &str| {
        std::fs::File::create(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let mut command = Command::new("nvim");
    command
        .args(["--headless", "--clean", "-u"])
        .arg(dir.join("init.lua"))
        .args(["-c", "lua dofile(os.getenv('PCL_NVIM_DRIVER'))"])
        .arg(run.file)
        .current_dir(run.cwd)
        .env("HOME", &home)
        .env("PATH", path_with_pcl())
        .env("PCL_NVIM_DRIVER", dir.join("driver.lua"))
        .env("PCL_NVIM_OUT", &out_file)
        .env("PCL_NVIM_TIMEOUT_MS", STEP_TIMEOUT_MS.to_string())
        .env("PULUMI_HOME", pcl_tests::fixture("no-pulumi-home"))
        .env_remove("NVIM")
        .env_remove("NVIM_LISTEN_ADDRESS")
        .env_remove("NVIM_APPNAME")
        .env_remove("VIMINIT")
        .stdin(Stdio::null())
        .stdout(log("nvim.stdout"))
        .stderr(log("nvim.stderr"));
    for (name, value) in &run.env {
        command.env(name, value);
    }
    // Neovim's state, logs (the LSP client's included) and caches stay in
    // the scratch directory.
    for var in [
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_CACHE_HOME",
    ] {
        command.env(var, dir.join("xdg"));
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start nvim: {e}"));
    if let Err(e) = wait_or_kill(&mut child) {
        panic!("{e}; {}", logs(dir));
    }
    let text = std::fs::read_to_string(&out_file)
        .unwrap_or_else(|e| panic!("the driver wrote no result ({e}); {}", logs(dir)));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The misspelt two-file program of [`MAIN`] and [`OUTPUTS`], with its
/// schema in its own `schemas` directory, run with `tests/nvim/driver.lua`.
fn run_on_scratch_program(dir: &Path) -> Value {
    let program = dir.join("program");
    pcl_tests::write(&program, "main.pp", MAIN);
    pcl_tests::write(&program, "outputs.pp", OUTPUTS);
    let schema = pcl_tests::repo().join("examples/schemas/aws-6.0.0.json");
    std::fs::create_dir_all(program.join("schemas")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(&schema, program.join("schemas/aws-6.0.0.json"))
        .unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let (line, character) = position_of(OUTPUTS, "bucket.arn", "bucket.a".len());
    run_neovim(&Run {
        dir,
        cwd: &program,
        file: Path::new("main.pp"),
        driver: DRIVER,
        env: vec![
            (
                "PCL_NVIM_SECOND",
                program.join("outputs.pp").display().to_string(),
            ),
            ("PCL_NVIM_HOVER_LINE", line.to_string()),
            ("PCL_NVIM_HOVER_CHARACTER", character.to_string()),
        ],
    })
}

fn field<'a>(result: &'a Value, name: &str) -> &'a Value {
    result.get(name).unwrap_or(&Value::Null)
}

#[test]
fn neovim_shows_the_diagnostic_and_the_hover_type() {
    if let Err(reason) = nvim_usable() {
        skip(&reason);
        return;
    }
    let dir = pcl_tests::scratch("nvim");
    let result = run_on_scratch_program(&dir);
    let context = format!("Neovim saw: {result:#}\n{}", logs(&dir));
    assert_eq!(field(&result, "error"), &Value::Null, "{context}");
    assert_eq!(field(&result, "filetype"), "pcl", "{context}");
    assert_eq!(field(&result, "second_filetype"), "pcl", "{context}");
    assert_eq!(field(&result, "diagnostics_arrived"), true, "{context}");

    let (line, col) = position_of(MAIN, "bukcet", 0);
    let diagnostics = field(&result, "diagnostics")
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(diagnostics.len(), 1, "{context}");
    let d = &diagnostics[0];
    assert_eq!(field(d, "code"), "unsupported-attribute", "{context}");
    assert_eq!(field(d, "line"), line, "{context}");
    assert_eq!(field(d, "col"), col, "{context}");
    // vim.diagnostic.severity.ERROR
    assert_eq!(field(d, "severity"), 1, "{context}");
    let message = field(d, "message").as_str().unwrap_or_default();
    assert!(message.contains("`bukcet`"), "{context}");
    assert!(message.contains("did you mean `bucket`"), "{context}");

    assert_eq!(field(&result, "second_attached"), true, "{context}");
    let hover = field(&result, "hover")
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(hover.len(), 1, "{context}");
    assert_eq!(hover[0], "```pcl\noutput(string)\n```", "{context}");
    // Both files of the program share one server.
    assert_eq!(
        field(&result, "clients"),
        &serde_json::json!(["pcl"]),
        "{context}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The guide's set-up on the repository's own example, from Neovim
/// started in the scratch directory (not in the project): `.pp` is PCL,
/// highlighted by `editors/vim`, the server attaches and finds the `aws`
/// schema (no `unknown package`: the program is clean), the mappings and
/// the omni function are set, a hover shows a config's type and
/// description, and `<C-x><C-o>` completes a name of the program.
#[test]
fn the_documented_setup_works_on_examples_webapp() {
    if let Err(reason) = nvim_usable() {
        skip(&reason);
        return;
    }
    let dir = pcl_tests::scratch("nvim-webapp");
    let repo = std::fs::canonicalize(pcl_tests::repo()).unwrap_or_else(|e| panic!("{e}"));
    let file = repo.join("examples/webapp/network.pp");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
    let (line, character) = position_of(&text, "range     = instanceCount", 18);
    let result = run_neovim(&Run {
        dir: &dir,
        cwd: &dir,
        file: &file,
        driver: WEBAPP_DRIVER,
        env: vec![
            ("PCL_NVIM_HOVER_LINE", line.to_string()),
            ("PCL_NVIM_HOVER_CHARACTER", character.to_string()),
        ],
    });
    let context = format!("Neovim saw: {result:#}\n{}", logs(&dir));
    assert_eq!(field(&result, "error"), &Value::Null, "{context}");
    assert_eq!(field(&result, "filetype"), "pcl", "{context}");
    assert_eq!(field(&result, "syntax"), "pcl", "{context}");
    assert_eq!(field(&result, "commentstring"), "# %s", "{context}");
    assert_eq!(field(&result, "attached"), true, "{context}");
    assert_eq!(
        field(&result, "omnifunc"),
        "v:lua.vim.lsp.omnifunc",
        "{context}"
    );
    for keys in ["K", "gd", "gr", "[d", "]d"] {
        assert_eq!(field(&result, "mappings")[keys], true, "{keys}: {context}");
    }
    assert!(
        field(&result, "published").as_u64().unwrap_or(0) > 0,
        "{context}"
    );
    assert_eq!(
        field(&result, "diagnostics"),
        &serde_json::json!([]),
        "{context}"
    );
    let hover = field(&result, "hover").to_string();
    assert!(hover.contains("int"), "{context}");
    assert!(hover.contains("How many web servers to run."), "{context}");
    let completion = field(&result, "completion")
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        completion.contains(&Value::from("instanceCount")),
        "{context}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn position_of_counts_lines_and_columns() {
    assert_eq!(position_of("ab\ncd bucket.arn\n", "bucket.arn", 8), (1, 11));
    assert_eq!(position_of("xy", "y", 0), (0, 1));
}
