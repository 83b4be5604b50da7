//! The catalogue of every diagnostic code: what it means, a minimal
//! program that triggers it, how to fix it, its default severity and how
//! it differs from the reference (Pulumi's Go implementation).
//!
//! It is the single source of `pcl explain`, of `docs/codes.md` (generated
//! by [`markdown`]; a test fails when the file is stale) and of the SARIF
//! rules' descriptions. The codes themselves come from each crate's own
//! constant list ([`all_codes`]); a test fails when one has no entry here,
//! and another checks that each example really triggers its code.

use pcl_diagnostics::{Code, Severity};

/// One code's entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub code: &'static str,
    /// The severity under the default (strict) options.
    pub severity: Severity,
    /// What the code means, one or two sentences.
    pub meaning: &'static str,
    /// A minimal program that triggers it, checked with the schemas of
    /// `testdata/schemas`; empty when no program can (then [`Entry::trigger`]
    /// says what does).
    pub example: &'static str,
    /// What triggers the code when no program can; empty otherwise.
    pub trigger: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// Whether and how it differs from the reference.
    pub reference: &'static str,
}

/// Every diagnostic code, from each crate's own list, without repeats.
pub fn all_codes() -> Vec<Code> {
    let lists: [&[Code]; 7] = [
        pcl_syntax::codes::ALL,
        pcl_types::codes::ALL,
        pcl_expr::codes::ALL,
        pcl_binder::codes::ALL,
        pcl_schema::error::ALL,
        CLI_CODES,
        &[],
    ];
    let mut out: Vec<Code> = Vec::new();
    for code in lists.into_iter().flatten() {
        if !out.contains(code) {
            out.push(*code);
        }
    }
    out
}

/// The codes the command line itself reports.
pub const CLI_CODES: &[Code] = &[
    crate::inputs::INVALID_UTF8,
    crate::inputs::UNREADABLE_FILE,
    crate::ignore::UNUSED_IGNORE,
];

/// Whether `code` is a diagnostic code.
pub fn is_code(code: &str) -> bool {
    all_codes().iter().any(|c| c.as_str() == code)
}

/// The entry for `code`.
pub fn lookup(code: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.code == code)
}

/// Same as the reference.
const SAME: &str = "Same as the reference.";
/// Only pcl reports it.
const PCL_ONLY: &str = "pcl only: the reference has no such check or code.";

const fn entry(
    code: &'static str,
    severity: Severity,
    meaning: &'static str,
    example: &'static str,
    fix: &'static str,
    reference: &'static str,
) -> Entry {
    Entry {
        code,
        severity,
        meaning,
        example,
        trigger: "",
        fix,
        reference,
    }
}

const fn untriggerable(
    code: &'static str,
    severity: Severity,
    meaning: &'static str,
    trigger: &'static str,
    fix: &'static str,
    reference: &'static str,
) -> Entry {
    Entry {
        code,
        severity,
        meaning,
        example: "",
        trigger,
        fix,
        reference,
    }
}

use Severity::{Error as E, Warning as W};

/// Every entry, sorted by code.
pub static ENTRIES: &[Entry] = &[
    untriggerable(
        "invalid-utf8",
        E,
        "A source file is not valid UTF-8. It is still checked, with each bad byte read as U+FFFD.",
        "a file holding a byte sequence that is not UTF-8, such as a Latin-1 `é` (byte 0xE9).",
        "Re-save the file as UTF-8.",
        PCL_ONLY,
    ),
    entry(
        "unused-ignore",
        W,
        "A `pcl-ignore` comment names a code that it silences nothing of: no diagnostic with that code is on the line it covers.",
        "# pcl-ignore: undefined-variable\nconfig x int {}\n",
        "Remove the code (or the whole comment) once the problem it silenced is fixed.",
        PCL_ONLY,
    ),
    entry(
        "undefined-variable",
        E,
        "A name that is not declared anywhere in the program.",
        "output o {\n  value = nope\n}\n",
        "Declare the name (config, local, resource…) or fix its spelling.",
        SAME,
    ),
];

/// `docs/codes.md`: every entry, by code.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         <!-- Generated from crates/pcl_cli/src/catalogue.rs by \
         `UPDATE_EXPECT=1 cargo test -p pcl_cli --lib catalogue`; do not edit. -->\n\n\
         Every code `pcl` reports, with its default severity (under the default, \
         strict options), a minimal program that triggers it, how to fix it, and \
         how it differs from the reference (Pulumi's Go implementation). \
         `pcl explain CODE` prints the same text.\n",
    );
    let mut entries: Vec<&Entry> = ENTRIES.iter().collect();
    entries.sort_by_key(|e| e.code);
    for e in entries {
        out.push_str(&format!("\n## `{}`\n\n", e.code));
        out.push_str(&format!("Default severity: {}.\n\n", e.severity.as_str()));
        out.push_str(e.meaning);
        out.push_str("\n\n");
        if e.example.is_empty() {
            out.push_str(&format!("No program triggers it alone: {}\n\n", e.trigger));
        } else {
            out.push_str("```hcl\n");
            out.push_str(e.example);
            out.push_str("```\n\n");
        }
        out.push_str(&format!("**Fix:** {}\n\n", e.fix));
        out.push_str(&format!("**Reference:** {}\n", e.reference));
    }
    out
}
