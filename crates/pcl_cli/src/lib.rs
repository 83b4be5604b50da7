//! The `pcl` command line: argument parsing into a [`Command`], and the
//! subcommands that run it.
//!
//! Every subcommand returns a [`Status`], which `main` turns into the exit
//! code: 0 when no errors were found, 1 when the input has errors, 2 when
//! the command itself could not run (a bad argument, an unreadable file, an
//! internal error). Each subcommand is a [`Command`] variant with its own
//! module: `parse` ([`parse_cmd`]), `check` ([`check_cmd`]) and `fmt`
//! ([`fmt_cmd`], whose 1 means "would change" under `--check`/`--diff` and
//! 2 also covers syntax errors). Reading inputs is [`inputs`], printing
//! diagnostics [`formats`], and `check --emit model` is [`model`].

pub mod args;
pub mod check_cmd;
pub mod fmt_cmd;
pub mod formats;
pub mod inputs;
pub mod model;
pub mod parse_cmd;

pub use args::{CheckArgs, CheckEmit, Color, Command, Emit, Format, ParseArgs, PolicyFlags};

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
/// stdout and stderr.
pub fn run(args: &[String]) -> Status {
    match args::parse(args) {
        Ok(Command::Help) => {
            print!("{}", args::USAGE);
            Status::Success
        }
        Ok(Command::Version) => {
            println!("pcl {}", env!("CARGO_PKG_VERSION"));
            Status::Success
        }
        Ok(Command::Parse(parse_args)) => parse_cmd::run(&parse_args),
        Ok(Command::Check(check_args)) => check_cmd::run(&check_args),
        Ok(Command::Fmt(fmt_args)) => fmt_cmd::run(&fmt_args),
        // Exit status 1 when the protocol broke down or `exit` came before
        // `shutdown`, as the LSP specification asks.
        Ok(Command::Lsp) => match pcl_lsp::run_stdio() {
            Ok(()) => Status::Success,
            Err(message) => {
                eprintln!("error: pcl lsp: {message}");
                Status::Errors
            }
        },
        Err(message) => {
            eprintln!("error: {message}\n\n{}", args::USAGE);
            Status::Usage
        }
    }
}
