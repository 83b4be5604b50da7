//! [`BindPolicy`]: the one options object of a check (binder.md §7).
//!
//! Strict by default; each lenient option can be turned on alone, and
//! [`BindPolicy::lenient`] turns on all five (the reference's
//! `NonStrictBindOptions`). Component sub-programs are bound with the same
//! policy as their parent.

use pcl_expr::ExprOptions;

/// How strictly a program is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindPolicy {
    /// Undefined names are warnings instead of errors.
    pub allow_missing_variables: bool,
    /// Every schema-derived object property is optional; schema objects are
    /// non-strict (unknown properties are warnings).
    pub allow_missing_properties: bool,
    /// Resource problems (unknown packages and types, attribute checks) are
    /// warnings; unresolvable resources become `dynamic`.
    pub skip_resource_typecheck: bool,
    /// `invoke` problems (unknown packages and functions) are silent.
    pub skip_invoke_typecheck: bool,
    /// `cannot iterate over …` is a warning.
    pub skip_range_typecheck: bool,
    /// `invoke` always picks the output-versioned form when it can.
    pub prefer_output_versioned_invokes: bool,
    /// How deeply components may nest (a guard against runaway recursion).
    pub max_component_depth: usize,
}

/// The default nesting limit for components.
pub const DEFAULT_MAX_COMPONENT_DEPTH: usize = 16;

/// The name the style guide uses for the same thing.
pub type CheckOptions = BindPolicy;

impl BindPolicy {
    /// Everything checked; this is also `Default`.
    pub fn strict() -> BindPolicy {
        BindPolicy {
            allow_missing_variables: false,
            allow_missing_properties: false,
            skip_resource_typecheck: false,
            skip_invoke_typecheck: false,
            skip_range_typecheck: false,
            prefer_output_versioned_invokes: false,
            max_component_depth: DEFAULT_MAX_COMPONENT_DEPTH,
        }
    }

    /// All five lenient options on.
    pub fn lenient() -> BindPolicy {
        BindPolicy {
            allow_missing_variables: true,
            allow_missing_properties: true,
            skip_resource_typecheck: true,
            skip_invoke_typecheck: true,
            skip_range_typecheck: true,
            ..BindPolicy::strict()
        }
    }

    /// Turns on the option that `pcl check`'s flag `flag` names
    /// (`--lenient`, `--allow-missing-variables`, …, as in `manifest.tsv`
    /// and golden `// flags:` lines); false when `flag` names none.
    pub fn apply_flag(&mut self, flag: &str) -> bool {
        let option = match flag {
            "--lenient" => {
                *self = BindPolicy {
                    prefer_output_versioned_invokes: self.prefer_output_versioned_invokes,
                    max_component_depth: self.max_component_depth,
                    ..BindPolicy::lenient()
                };
                return true;
            }
            "--allow-missing-variables" => &mut self.allow_missing_variables,
            "--allow-missing-properties" => &mut self.allow_missing_properties,
            "--skip-resource-typecheck" => &mut self.skip_resource_typecheck,
            "--skip-invoke-typecheck" => &mut self.skip_invoke_typecheck,
            "--skip-range-typecheck" => &mut self.skip_range_typecheck,
            "--prefer-output-versioned-invokes" => &mut self.prefer_output_versioned_invokes,
            _ => return false,
        };
        *option = true;
        true
    }

    /// The strict policy with the whitespace-separated `flags` applied; the
    /// first flag that names no option is the error.
    pub fn from_flags(flags: &str) -> Result<BindPolicy, String> {
        let mut policy = BindPolicy::strict();
        for flag in flags.split_whitespace() {
            if !policy.apply_flag(flag) {
                return Err(format!("unknown flag {flag}"));
            }
        }
        Ok(policy)
    }

    /// Whether any lenient option is on.
    pub fn is_lenient(&self) -> bool {
        self.allow_missing_variables
            || self.allow_missing_properties
            || self.skip_resource_typecheck
            || self.skip_invoke_typecheck
            || self.skip_range_typecheck
    }

    /// Schema object types are non-strict under these options.
    pub(crate) fn non_strict_objects(&self) -> bool {
        self.allow_missing_properties || self.skip_resource_typecheck
    }

    /// The expression-level part of the policy.
    pub fn expr_options(&self) -> ExprOptions {
        ExprOptions {
            skip_invoke_typecheck: self.skip_invoke_typecheck,
            skip_range_typecheck: self.skip_range_typecheck,
            allow_missing_variables: self.allow_missing_variables,
            prefer_output_versioned_invokes: self.prefer_output_versioned_invokes,
        }
    }
}

impl Default for BindPolicy {
    fn default() -> Self {
        BindPolicy::strict()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_name_the_options() {
        let p = BindPolicy::from_flags("--prefer-output-versioned-invokes --lenient");
        assert_eq!(
            p,
            Ok(BindPolicy {
                prefer_output_versioned_invokes: true,
                ..BindPolicy::lenient()
            })
        );
        let p = BindPolicy::from_flags("--skip-range-typecheck");
        assert_eq!(
            p,
            Ok(BindPolicy {
                skip_range_typecheck: true,
                ..BindPolicy::strict()
            })
        );
        assert_eq!(BindPolicy::from_flags(""), Ok(BindPolicy::strict()));
        assert_eq!(
            BindPolicy::from_flags("--lenient --strict"),
            Err("unknown flag --strict".to_string())
        );
    }
}
