//! The program level of the binder is linear in the number of files,
//! dependencies and component inputs (issue 18 finding 6 found quadratic
//! scans there: 283 s for 32,000 files in linearisation alone).
//!
//! Each shape is checked at 1×, 4× and 16× its base size, counting the
//! heap allocations of the check (on this thread: the binder checks one
//! program on the calling thread) and the instructions of a child test
//! run under callgrind. A count, unlike a clock, does not depend on how
//! busy the machine is; 16× the input may cost at most 20× the count
//! (`pcl_testkit::assert_linear`; a quadratic term shows as up to 256×).

use pcl_binder::{check_program_with_files, BindPolicy, MemoryFiles};
use pcl_schema::MemoryLoader;

#[global_allocator]
static ALLOC: pcl_testkit::CountingAlloc = pcl_testkit::CountingAlloc;

type Make = fn(usize) -> (Vec<(String, String)>, MemoryFiles);

/// One one-line file per node, each using the next.
fn one_line_files(n: usize) -> (Vec<(String, String)>, MemoryFiles) {
    let sources = (0..n)
        .map(|i| {
            let value = if i + 1 < n {
                format!("a{}", i + 1)
            } else {
                "1".to_string()
            };
            (format!("f{i:06}.pp"), format!("a{i} = {value}\n"))
        })
        .collect();
    (sources, MemoryFiles::new())
}

/// One local using every other node, twice.
fn fan_in(n: usize) -> (Vec<(String, String)>, MemoryFiles) {
    let mut text = String::new();
    let mut uses = Vec::new();
    for i in 0..n {
        text.push_str(&format!("v{i} = {i}\n"));
        uses.push(format!("v{i}"));
    }
    let list = uses.join(", ");
    text.push_str(&format!("all = [{list}, {list}]\n"));
    (vec![("main.pp".to_string(), text)], MemoryFiles::new())
}

/// A component with n configs, every one set.
fn component_inputs(n: usize) -> (Vec<(String, String)>, MemoryFiles) {
    let mut module = String::new();
    let mut set = String::new();
    for i in 0..n {
        module.push_str(&format!("config c{i} int {{}}\n"));
        set.push_str(&format!("  c{i} = {i}\n"));
    }
    let files = MemoryFiles::new().with("m/main.pp", module);
    (
        vec![(
            "main.pp".to_string(),
            format!("component m \"./m\" {{\n{set}}}\n"),
        )],
        files,
    )
}

const ROWS: [(&str, Make, usize); 3] = [
    ("one-line files", one_line_files, 250),
    ("dependencies of one node", fan_in, 250),
    ("component inputs", component_inputs, 250),
];

fn check(make: Make, n: usize) -> bool {
    let (sources, files) = make(n);
    check_program_with_files(
        &sources,
        &MemoryLoader::new(),
        &BindPolicy::strict(),
        &files,
    )
    .has_errors()
}

/// The child of `program_level_instructions`: checks row `SCALING_ROW` at
/// `SCALING_N` when run under callgrind; nothing in an ordinary run.
#[test]
fn check_one_shape() {
    if !pcl_testkit::is_instruction_child() {
        return;
    }
    let (name, make, _) = ROWS[pcl_testkit::child_number("SCALING_ROW")];
    // At 0 the child measures the harness alone (the baseline).
    let n = pcl_testkit::child_number("SCALING_N");
    if n > 0 {
        assert!(!check(make, n), "{name} has errors");
    }
}

#[test]
fn program_level_instructions() {
    if pcl_testkit::is_instruction_child() {
        return;
    }
    for (index, (name, _, base)) in ROWS.iter().enumerate() {
        let row = [("SCALING_ROW", index.to_string())];
        let measured = pcl_testkit::assert_linear_instructions(
            name,
            "check_one_shape",
            "SCALING_N",
            *base,
            &row,
        );
        if measured.is_none() {
            return;
        }
    }
}

#[test]
fn program_level_allocations() {
    if pcl_testkit::is_instruction_child() {
        return;
    }
    for (name, make, base) in ROWS {
        let mut counts = [0u64; 3];
        for (slot, factor) in counts.iter_mut().zip([1, 4, 16]) {
            let (errors, allocations) = pcl_testkit::allocations(|| check(make, base * factor));
            assert!(!errors, "{name} at {factor}x has errors");
            *slot = allocations;
        }
        pcl_testkit::assert_linear(&format!("{name}: allocations"), counts);
    }
}
