//! The `pcl` command line: argument parsing into a [`Command`], and the
//! subcommands that run it.
//!
//! Every subcommand returns a [`Status`], which `main` turns into the exit
//! code: 0 when no errors were found, 1 when the input has errors, 2 when
//! the command itself could not run (a bad argument, an unreadable file, an
//! internal error). Each subcommand is a [`Command`] variant with its own
//! module: `parse` ([`parse_cmd`]), `check` ([`check_cmd`]), `fmt`
//! ([`fmt_cmd`], whose 1 means "would change" under `--check`/`--diff` and
//! 2 also covers syntax errors) and `explain` ([`explain`], from the code
//! [`catalogue`]). Reading inputs is [`inputs`], finding programs under a
//! directory [`discover`], `pcl.toml` [`config`], `pcl-ignore` comments
//! [`ignore`], printing diagnostics [`formats`], and `check --emit model`
//! is [`model`].

pub mod args;
pub mod catalogue;
pub mod check_cmd;
pub mod config;
pub mod convert_cmd;
pub mod discover;
pub mod explain;
pub mod fmt_cmd;
pub mod formats;
pub mod ignore;
pub mod inputs;
pub mod model;
pub mod parse_cmd;

pub use args::{
    CheckArgs, CheckEmit, Cli, CodeLevels, Color, Command, Emit, ExplainArgs, Format, ParseArgs,
    PolicyFlags,
};

/// The outcome of a command, ordered from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Ran, found no errors.
    Success,
    /// Ran, found errors in the input.
    Errors,
    /// Could not run: bad arguments, unreadable input, internal error.
    Usage,
}

impl Status {
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Errors => 1,
            Status::Usage => 2,
        }
    }
}

/// Runs the command line `args` (without the program name), writing to
/// stdout and stderr. An argument need not be UTF-8: paths are any bytes.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Status {
    run_with(args, false)
}

/// [`run`] for a process that exits right after it: what `pcl check`
/// built (the bound programs, their sources and diagnostics, the schema
/// caches) is not freed, since the operating system takes the whole heap
/// back at exit. Freeing it node by node cost 28 M instructions after a
/// check of 1 MB. The `pcl` binary calls this; a long-lived caller calls
/// [`run`].
pub fn run_then_exit<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Status {
    run_with(args, true)
}

fn run_with<S: AsRef<std::ffi::OsStr>>(args: &[S], exiting: bool) -> Status {
    let cli = match args::Cli::parse_args(args) {
        Ok(cli) => cli,
        Err(err) => {
            // `--help` and `--version` print on stdout and succeed; a usage
            // error is clap's short message, the usage line and a hint.
            if !err.use_stderr() {
                let _ = err.print();
                return Status::Success;
            }
            eprint!("{}", args::render_usage_error(&err, args));
            return Status::Usage;
        }
    };
    match cli.command {
        Command::Parse(parse_args) => parse_cmd::run(&parse_args),
        Command::Check(check_args) => {
            let (status, leftovers) = check_cmd::run_keeping(&check_args);
            if exiting {
                std::mem::forget(leftovers);
            }
            status
        }
        Command::Fmt(fmt_args) => fmt_cmd::run(&fmt_args.into()),
        Command::Convert(convert_args) => convert_cmd::run(&convert_args),
        Command::Explain(explain_args) => explain::run(&explain_args),
        // Exit status 1 when `exit` came before `shutdown` (as the LSP
        // specification asks), the output could not be written or the
        // handshake failed; input that ends mid-message is logged with
        // where it ended and is a clean exit (see docs/editors.md).
        Command::Lsp(_) => match pcl_lsp::run_stdio() {
            Ok(()) => Status::Success,
            Err(message) => {
                eprintln!("error: pcl lsp: {message}");
                Status::Errors
            }
        },
        // Written whole from memory: a closed pipe (`| head`) ends the
        // output quietly, with status 2, as for the other commands.
        Command::Completions(c) => {
            let mut script = Vec::new();
            args::write_completions(c.shell, &mut script);
            let mut out = std::io::stdout().lock();
            match std::io::Write::write_all(&mut out, &script)
                .and_then(|()| std::io::Write::flush(&mut out))
            {
                Ok(()) => Status::Success,
                Err(_) => Status::Usage,
            }
        }
    }
}
