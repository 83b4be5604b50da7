//! Parse work stays linear in hostile inputs (#18 finding 6: comment
//! attachment was quadratic: 320,000 `# c` lines before an item took
//! 4.7 s, and one line of block comments was quadratic too).
//!
//! A clock on a loaded machine cannot tell a slow linear parse from a
//! quadratic one, so this test counts instructions: each comment shape of
//! `common::shapes::SCALING` is parsed at 1×, 4× and 16× of 1,000
//! repetitions by a child test run under callgrind
//! (`pcl_testkit::assert_linear_instructions`), and 16× the input may cost
//! at most 20× the instructions (less a run at 0; a quadratic path gives
//! up to 256×). Without valgrind the
//! test says so and passes, except under `PCL_REQUIRE_VALGRIND=1`
//! (`.ci/run`). The bench (`cargo bench -p pcl_syntax --bench parse --
//! --shapes`) prints the 1×/4×/16× table of every shape with times.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/shapes.rs"]
mod shapes;

use pcl_diagnostics::FileId;

const BASE: usize = 1_000;

/// The child: parses `SCALING_SHAPE` (an index into `shapes::SCALING`) at
/// `SCALING_N` repetitions when run by the parent under callgrind; does
/// nothing in an ordinary run.
#[test]
fn parse_one_shape() {
    if !pcl_testkit::is_instruction_child() {
        return;
    }
    let (name, generate) = shapes::SCALING[pcl_testkit::child_number("SCALING_SHAPE")];
    let text = generate(pcl_testkit::child_number("SCALING_N"));
    let parse = pcl_syntax::parse(FileId(0), &text);
    assert_eq!(parse.print(), text, "{name}");
}

#[test]
fn comment_shapes_parse_in_linear_time() {
    if pcl_testkit::is_instruction_child() {
        return;
    }
    for (index, (name, _)) in shapes::SCALING.iter().enumerate() {
        if !name.contains("comment") {
            continue;
        }
        let shape = [("SCALING_SHAPE", index.to_string())];
        let measured = pcl_testkit::assert_linear_instructions(
            name,
            "parse_one_shape",
            "SCALING_N",
            BASE,
            &shape,
        );
        if measured.is_none() {
            return;
        }
    }
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
