//! How `pcl check` reads `pcl.toml`: the file itself (finding, parsing,
//! validating) is `pcl_config`'s, shared with `pcl lsp`; this module puts
//! the command line on top of it ([`Settings::merge`]: flags override the
//! file) and validates code names against the catalogue.

use std::path::{Path, PathBuf};

use crate::args::CheckArgs;

pub use pcl_config::{Config, Discovery, Level, Levels};

/// Reads and validates `path`, code names checked against the catalogue.
pub fn load(path: &Path) -> Result<Config, String> {
    pcl_config::load(path, Some(crate::catalogue::all_codes()))
}

/// The settings one program is checked with: the command line on top of
/// its `pcl.toml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub schema_dirs: Vec<PathBuf>,
    pub schema_cache: bool,
    pub policy: pcl_config::PolicyFlags,
    pub deny_warnings: bool,
    /// What each named code is reported as; the command line's choice wins.
    pub levels: Levels,
}

impl Settings {
    /// `args` on top of `config`.
    pub fn merge(args: &CheckArgs, config: Option<&Config>) -> Settings {
        let empty = Config::default();
        let config = config.unwrap_or(&empty);
        let mut schema_dirs = config.schema_dirs.clone();
        schema_dirs.extend(args.schemas.schema_dirs.iter().cloned());
        let policy = config.policy.or(&args.policy.into());
        let levels = Levels::merge(&[&config.codes, &args.code_levels()]);
        Settings {
            schema_dirs,
            schema_cache: !args.schemas.no_schema_cache && config.schema_cache.unwrap_or(true),
            policy,
            deny_warnings: args.deny_warnings || config.deny_warnings,
            levels,
        }
    }

    /// The level `code` is reported at, when one was chosen.
    pub fn level(&self, code: &str) -> Option<Level> {
        self.levels.level(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_at(text: &str) -> Result<Config, String> {
        pcl_config::parse(
            text,
            Path::new("proj/pcl.toml"),
            Some(crate::catalogue::all_codes()),
        )
    }

    #[test]
    fn command_line_overrides_the_file() {
        let config =
            parse_at("[codes]\nallow = [\"undefined-variable\"]\n[check]\ndeny = [\"warnings\"]\n")
                .unwrap_or_else(|e| panic!("{e}"));
        let args = match crate::Cli::parse_args(&[
            "check".to_string(),
            "--deny".to_string(),
            "undefined-variable".to_string(),
            "--schema-dir=cli".to_string(),
            "--no-schema-cache".to_string(),
            "x".to_string(),
        ]) {
            Ok(crate::Cli {
                command: crate::Command::Check(args),
            }) => args,
            other => panic!("{other:?}"),
        };
        let settings = Settings::merge(&args, Some(&config));
        assert_eq!(settings.level("undefined-variable"), Some(Level::Deny));
        assert!(settings.deny_warnings && !settings.schema_cache);
        assert_eq!(settings.schema_dirs, [PathBuf::from("cli")]);
    }
}
