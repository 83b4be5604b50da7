//! Parse time stays linear in hostile inputs (#18 finding 6: comment
//! attachment was quadratic: 320,000 `# c` lines before an item took
//! 4.7 s, and one line of block comments was quadratic too).
//!
//! Wall-clock ratios between small and large inputs are distorted by
//! caches and page faults (a 16× larger input can take 60× the time on a
//! linear path), so this test does not compare ratios: it parses each
//! comment shape of `common::shapes::SCALING` at 200,000 repetitions and
//! requires each parse to take under a bound that a linear parse meets
//! many times over even in a debug build on a loaded machine (about 1 s),
//! while a quadratic one needs 2·10^10 steps (minutes). The bench
//! (`cargo bench -p pcl_syntax --bench parse -- --shapes`) prints the
//! 1×/4×/16× table of every shape.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/shapes.rs"]
mod shapes;

use std::time::{Duration, Instant};

use pcl_diagnostics::FileId;

const REPETITIONS: usize = 200_000;
const BOUND: Duration = Duration::from_secs(20);

#[test]
fn comment_shapes_parse_in_linear_time() {
    let mut failures = Vec::new();
    for (name, generate) in shapes::SCALING
        .iter()
        .filter(|(name, _)| name.contains("comment"))
    {
        let text = generate(REPETITIONS);
        let start = Instant::now();
        let parse = pcl_syntax::parse(FileId(0), &text);
        let elapsed = start.elapsed();
        assert_eq!(parse.print(), text, "{name}");
        eprintln!("{name:<32} {} bytes  {elapsed:>10.2?}", text.len());
        if elapsed > BOUND {
            failures.push(format!("{name}: {elapsed:?} for {} bytes", text.len()));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The comments of the shapes are attached as the rule says: all leading
/// comments of the one item, or all dangling.
#[test]
fn comment_shapes_attach_every_comment() {
    let n = 1_000;
    let leading = shapes::SCALING[0].1(n);
    let parse = pcl_syntax::parse(FileId(0), &leading);
    assert_eq!(
        parse
            .body()
            .items()
            .first()
            .map_or(0, |i| i.leading_comments().len()),
        n
    );
    let one_line = shapes::SCALING[1].1(n);
    let parse = pcl_syntax::parse(FileId(0), &one_line);
    assert_eq!(
        parse
            .body()
            .items()
            .first()
            .map_or(0, |i| i.leading_comments().len()),
        n
    );
    let trailing = shapes::SCALING[2].1(n);
    let parse = pcl_syntax::parse(FileId(0), &trailing);
    assert_eq!(
        parse
            .body()
            .items()
            .first()
            .map_or(0, |i| i.trailing_comments().len()),
        n
    );
}
