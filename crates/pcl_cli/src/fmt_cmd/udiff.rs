//! The unified diff of `pcl fmt --diff`, in time linear in the files'
//! sizes, with control characters of the files escaped.
//!
//! Lines common to the start and the end of both texts are set aside
//! first. Formatting keeps the number of lines, so the differing middles
//! usually have as many lines as each other: they are then compared line
//! by line (line *i* of the old text against line *i* of the new). Only
//! when their lengths differ is a minimal diff (Myers) searched, and only
//! while its worst case, the square of the middles' length, stays within a
//! budget proportional to the whole input ([`budget`]); beyond it the
//! middle is shown as one replacement. Every line shown passes through
//! [`shown_line`]: what `pcl_diagnostics::is_unsafe_char` rejects is
//! escaped as in diagnostics (tab kept, and the carriage return of a CRLF).

use std::fmt::Write as _;
use std::hash::Hash;

use similar::udiff::UnifiedHunkHeader;
use similar::{group_diff_ops, Algorithm, DiffOp};

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The comparisons a diff of `old_lines` and `new_lines` may spend: 64 per
/// line, plus a constant so that small files always get a minimal diff.
pub fn budget(old_lines: usize, new_lines: usize) -> u64 {
    (old_lines as u64 + new_lines as u64)
        .saturating_mul(64)
        .saturating_add(1 << 22)
}

/// The operations of a diff of `old` and `new` (lines, terminators
/// included). The line comparisons are at most about three per line plus
/// `budget`.
pub fn diff_ops<T: Hash + Eq + Ord>(old: &[T], new: &[T], budget: u64) -> Vec<DiffOp> {
    let prefix = old
        .iter()
        .zip(new.iter())
        .take_while(|(a, b)| a == b)
        .count();
    let suffix = old
        .iter()
        .skip(prefix)
        .rev()
        .zip(new.iter().skip(prefix).rev())
        .take_while(|(a, b)| a == b)
        .count();
    let old_end = old.len() - suffix;
    let new_end = new.len() - suffix;
    let mut ops = Vec::new();
    if prefix > 0 {
        ops.push(DiffOp::Equal {
            old_index: 0,
            new_index: 0,
            len: prefix,
        });
    }
    let (old_len, new_len) = (old_end - prefix, new_end - prefix);
    if old_len == new_len {
        // Line by line: runs of equal lines and runs of replaced ones.
        let mut at = prefix;
        while at < old_end {
            let equal = |i: usize| old.get(i) == new.get(i);
            let start = at;
            let same = equal(at);
            while at < old_end && equal(at) == same {
                at += 1;
            }
            ops.push(if same {
                DiffOp::Equal {
                    old_index: start,
                    new_index: start,
                    len: at - start,
                }
            } else {
                DiffOp::Replace {
                    old_index: start,
                    old_len: at - start,
                    new_index: start,
                    new_len: at - start,
                }
            });
        }
    } else {
        let worst = (old_len as u64 + new_len as u64).saturating_pow(2);
        if worst <= budget {
            ops.extend(similar::capture_diff(
                Algorithm::Myers,
                old,
                prefix..old_end,
                new,
                prefix..new_end,
            ));
        } else if old_len == 0 {
            ops.push(DiffOp::Insert {
                old_index: prefix,
                new_index: prefix,
                new_len,
            });
        } else if new_len == 0 {
            ops.push(DiffOp::Delete {
                old_index: prefix,
                old_len,
                new_index: prefix,
            });
        } else {
            ops.push(DiffOp::Replace {
                old_index: prefix,
                old_len,
                new_index: prefix,
                new_len,
            });
        }
    }
    if suffix > 0 {
        ops.push(DiffOp::Equal {
            old_index: old_end,
            new_index: new_end,
            len: suffix,
        });
    }
    ops
}

/// The lines of `text`, each with its `\n` (the last may have none).
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// A unified diff of `old` and `new` headed `--- a` / `+++ b` (already
/// escaped by the caller); empty when they are equal.
pub fn unified(old: &str, new: &str, a: &str, b: &str) -> String {
    let old_lines = lines(old);
    let new_lines = lines(new);
    let ops = diff_ops(
        &old_lines,
        &new_lines,
        budget(old_lines.len(), new_lines.len()),
    );
    let mut out = String::new();
    for (i, group) in group_diff_ops(ops, CONTEXT).iter().enumerate() {
        if i == 0 {
            let _ = writeln!(out, "--- {a}\n+++ {b}");
        }
        let _ = writeln!(out, "{}", UnifiedHunkHeader::new(group));
        for op in group {
            for (tag, range, lines) in [
                (' ', equal_range(op), &old_lines),
                ('-', deleted_range(op), &old_lines),
                ('+', inserted_range(op), &new_lines),
            ] {
                for line in lines.get(range).unwrap_or_default() {
                    out.push(tag);
                    shown_line(line, &mut out);
                }
            }
        }
    }
    out
}

fn equal_range(op: &DiffOp) -> std::ops::Range<usize> {
    match *op {
        DiffOp::Equal { old_index, len, .. } => old_index..old_index + len,
        _ => 0..0,
    }
}

fn deleted_range(op: &DiffOp) -> std::ops::Range<usize> {
    match *op {
        DiffOp::Delete {
            old_index, old_len, ..
        }
        | DiffOp::Replace {
            old_index, old_len, ..
        } => old_index..old_index + old_len,
        _ => 0..0,
    }
}

fn inserted_range(op: &DiffOp) -> std::ops::Range<usize> {
    match *op {
        DiffOp::Insert {
            new_index, new_len, ..
        }
        | DiffOp::Replace {
            new_index, new_len, ..
        } => new_index..new_index + new_len,
        _ => 0..0,
    }
}

/// Appends `line` to `out` as a diff shows it: control and other unsafe
/// characters escaped (`\u{1b}`), tab and a final CRLF kept, ending with
/// a line feed, followed by `\ No newline at end of file` if it had none.
pub fn shown_line(line: &str, out: &mut String) {
    let (body, end) = if let Some(body) = line.strip_suffix("\r\n") {
        (body, "\r\n")
    } else if let Some(body) = line.strip_suffix('\n') {
        (body, "\n")
    } else {
        (line, "")
    };
    for c in body.chars() {
        if c != '\t' && pcl_diagnostics::is_unsafe_char(c) {
            let mut one = [0u8; 4];
            out.push_str(&pcl_diagnostics::escape(c.encode_utf8(&mut one)));
        } else {
            out.push(c);
        }
    }
    if end.is_empty() {
        out.push_str("\n\\ No newline at end of file\n");
    } else {
        out.push_str(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn similar_diff(old: &str, new: &str) -> String {
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(CONTEXT)
            .header("a/x", "b/x")
            .to_string()
    }

    #[test]
    fn small_diffs_are_what_similar_gives() {
        let cases = [
            ("a=1\nbb = 2\n", "a  = 1\nbb = 2\n"),
            (
                "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n",
                "a\nB\nc\nd\ne\nf\ng\nh\nI\nj\n",
            ),
            ("a\nb", "a\nc"),
            ("a\nb\n", "a\nb\nc\n"),
            ("x\n", "x\ny\nz\n"),
            ("x\ny\nz\n", "z\n"),
            ("", "a\n"),
            ("a=1\n", ""),
        ];
        for (old, new) in cases {
            assert_eq!(
                unified(old, new, "a/x", "b/x"),
                similar_diff(old, new),
                "{old:?} -> {new:?}"
            );
        }
    }

    #[test]
    fn control_characters_of_the_files_are_escaped() {
        let old = "a=\"\u{1b}[31m\"\t# \u{202e}x\r\n";
        let new = "a = \"\u{1b}[31m\"\t# \u{202e}x\r\n";
        let diff = unified(old, new, "a/x", "b/x");
        assert!(
            !diff.contains('\u{1b}') && !diff.contains('\u{202e}'),
            "{diff:?}"
        );
        assert!(
            diff.contains("-a=\"\\u{1b}[31m\"\t# \\u{202e}x\r\n"),
            "{diff:?}"
        );
    }

    /// A line that counts the comparisons made of it.
    #[derive(Debug)]
    struct Counted<'a>(&'a str, &'a std::cell::Cell<u64>);

    impl PartialEq for Counted<'_> {
        fn eq(&self, other: &Self) -> bool {
            self.1.set(self.1.get() + 1);
            self.0 == other.0
        }
    }
    impl Eq for Counted<'_> {}
    impl PartialOrd for Counted<'_> {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Counted<'_> {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.1.set(self.1.get() + 1);
            self.0.cmp(other.0)
        }
    }
    impl Hash for Counted<'_> {
        fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
            self.0.hash(state);
        }
    }

    /// Issue 26 D14: the line comparisons of a diff grow linearly with the
    /// input, whether every line changes (the formatter's case) or lines
    /// are added too (where a minimal diff is quadratic); counted, not
    /// timed.
    #[test]
    fn comparisons_are_linear_in_the_input() {
        for n in [1_000usize, 10_000, 100_000] {
            let old: String = (0..n).map(|i| format!("a{i}=1\n")).collect();
            let same_count: String = (0..n).map(|i| format!("a{i} = 1\n")).collect();
            let more: String = (0..n).map(|i| format!("a{i} = 1\n\n")).collect();
            for new in [&same_count, &more] {
                let count = std::cell::Cell::new(0);
                let o: Vec<Counted<'_>> = lines(&old)
                    .into_iter()
                    .map(|l| Counted(l, &count))
                    .collect();
                let m: Vec<Counted<'_>> =
                    lines(new).into_iter().map(|l| Counted(l, &count)).collect();
                let ops = diff_ops(&o, &m, budget(o.len(), m.len()));
                assert!(!ops.is_empty());
                let input = (o.len() + m.len()) as u64;
                assert!(
                    count.get() <= 4 * input + budget(o.len(), m.len()),
                    "{n} lines: {} comparisons",
                    count.get()
                );
                assert!(
                    count.get() <= 80 * input + (1 << 22),
                    "{n} lines: {} comparisons",
                    count.get()
                );
            }
        }
    }
}
