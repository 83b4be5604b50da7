//! A deterministic topological order of a program's nodes (the reference's
//! `Linearize`, binder.md §5.2): nodes are grouped by file; the next file is
//! the one with the fewest dependencies on nodes of files not yet emitted
//! (ties by file name); within a file nodes come in source order, each
//! preceded by its not-yet-emitted dependencies. Cycles are broken where
//! they close. Iterative, so long dependency chains cannot overflow the
//! stack, and O((nodes + dependencies) · log files): the files' counts of
//! unsatisfied dependencies are kept up to date as nodes are emitted.

use std::collections::BTreeSet;

/// What linearization needs to know about one node.
pub(crate) struct OrderInput<'a> {
    /// File name (for ties) per node.
    pub file: &'a str,
    /// Source position within the file.
    pub position: u32,
    pub deps: &'a [usize],
}

/// Returns node indices in topological order.
pub(crate) fn linearize(nodes: &[OrderInput<'_>]) -> Vec<usize> {
    let n = nodes.len();
    let mut emitted = vec![false; n];
    let mut on_stack = vec![false; n];
    let mut out = Vec::with_capacity(n);
    let mut files: Vec<&str> = nodes.iter().map(|x| x.file).collect();
    files.sort_unstable();
    files.dedup();
    // Each node's file as an index into `files`, and each file's members
    // in position order: picking the next file then costs one pass over
    // the remaining files' members, not over every node per file (which
    // was quadratic in the number of files times the nodes).
    let file_of: Vec<usize> = nodes
        .iter()
        .map(|x| files.binary_search(&x.file).unwrap_or(0))
        .collect();
    let mut members_of: Vec<Vec<usize>> = vec![Vec::new(); files.len()];
    for (i, f) in file_of.iter().enumerate() {
        if let Some(m) = members_of.get_mut(*f) {
            m.push(i);
        }
    }
    for m in &mut members_of {
        m.sort_by_key(|i| nodes.get(*i).map_or(0, |x| x.position));
    }
    // Each file's count of dependencies on nodes of other files not yet
    // emitted, and for each node the files that depend on it from outside
    // (once per such dependency): emitting a node lowers those counts, so
    // each pick costs a logarithm, not a pass over every remaining file.
    let mut count = vec![0usize; files.len()];
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, x) in nodes.iter().enumerate() {
        let Some(&file) = file_of.get(i) else {
            continue;
        };
        for d in x.deps {
            if file_of.get(*d).is_some_and(|f| *f != file) {
                if let Some(c) = count.get_mut(file) {
                    *c += 1;
                }
                if let Some(list) = dependents.get_mut(*d) {
                    list.push(file);
                }
            }
        }
    }
    // Remaining files by (count, name order): the first is the next pick.
    let mut remaining: BTreeSet<(usize, usize)> = count.iter().copied().zip(0..).collect();
    // The walk's stack, shared by every start.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    while let Some((_, file)) = remaining.pop_first() {
        let members = members_of
            .get_mut(file)
            .map(std::mem::take)
            .unwrap_or_default();
        for start in members {
            let before = out.len();
            emit(
                nodes,
                start,
                &mut emitted,
                &mut on_stack,
                &mut stack,
                &mut out,
            );
            for node in out.get(before..).unwrap_or_default() {
                for f in dependents.get(*node).map_or(&[][..], Vec::as_slice) {
                    let Some(c) = count.get_mut(*f) else {
                        continue;
                    };
                    if remaining.remove(&(*c, *f)) {
                        *c -= 1;
                        remaining.insert((*c, *f));
                    } else {
                        *c = c.saturating_sub(1);
                    }
                }
            }
        }
    }
    out
}

fn emit(
    nodes: &[OrderInput<'_>],
    start: usize,
    emitted: &mut [bool],
    on_stack: &mut [bool],
    stack: &mut Vec<(usize, usize)>,
    out: &mut Vec<usize>,
) {
    if emitted.get(start).copied().unwrap_or(true) {
        return;
    }
    // (node, next dependency index)
    stack.clear();
    stack.push((start, 0));
    if let Some(s) = on_stack.get_mut(start) {
        *s = true;
    }
    while let Some((node, next)) = stack.last_mut() {
        let deps = nodes.get(*node).map_or(&[][..], |x| x.deps);
        if let Some(dep) = deps.get(*next).copied() {
            *next += 1;
            let skip = emitted.get(dep).copied().unwrap_or(true)
                || on_stack.get(dep).copied().unwrap_or(true);
            if !skip {
                if let Some(s) = on_stack.get_mut(dep) {
                    *s = true;
                }
                stack.push((dep, 0));
            }
        } else {
            let node = *node;
            stack.pop();
            if let Some(s) = on_stack.get_mut(node) {
                *s = false;
            }
            if let Some(e) = emitted.get_mut(node) {
                if !*e {
                    *e = true;
                    out.push(node);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs<'a>(spec: &'a [(&'static str, u32, Vec<usize>)]) -> Vec<OrderInput<'a>> {
        spec.iter()
            .map(|(f, p, d)| OrderInput {
                file: f,
                position: *p,
                deps: d,
            })
            .collect()
    }

    fn order(spec: &[(&'static str, u32, Vec<usize>)]) -> Vec<usize> {
        linearize(&inputs(spec))
    }

    #[test]
    fn dependencies_first_then_source_order() {
        assert_eq!(
            order(&[("a", 0, vec![1]), ("a", 1, vec![]), ("a", 2, vec![])]),
            vec![1, 0, 2]
        );
    }

    #[test]
    fn cycles_are_broken() {
        assert_eq!(order(&[("a", 0, vec![1]), ("a", 1, vec![0])]), vec![1, 0]);
    }

    #[test]
    fn files_with_fewer_foreign_dependencies_first() {
        // b.pp depends on nothing; a.pp depends on b.pp.
        assert_eq!(order(&[("a", 0, vec![1]), ("b", 0, vec![])]), vec![1, 0]);
    }

    #[test]
    fn long_chains_do_not_overflow() {
        let n = 100_000;
        let spec: Vec<(&'static str, u32, Vec<usize>)> = (0..n)
            .map(|i| ("a", i as u32, if i + 1 < n { vec![i + 1] } else { vec![] }))
            .collect();
        let out = order(&spec);
        assert_eq!(out.first(), Some(&(n - 1)));
        assert_eq!(out.len(), n);
    }

    /// The rule as the module doc states it, picking each file by a full
    /// rescan (the former implementation's cost): the reference for the
    /// incremental one.
    fn naive(nodes: &[OrderInput<'_>]) -> Vec<usize> {
        let n = nodes.len();
        let mut files: Vec<&str> = nodes.iter().map(|x| x.file).collect();
        files.sort_unstable();
        files.dedup();
        let mut emitted = vec![false; n];
        let mut on_stack = vec![false; n];
        let mut stack = Vec::new();
        let mut out = Vec::new();
        let mut remaining = files.clone();
        while !remaining.is_empty() {
            let mut best: Option<(usize, &str)> = None;
            for f in &remaining {
                let c = nodes
                    .iter()
                    .filter(|x| x.file == *f)
                    .flat_map(|x| x.deps.iter())
                    .filter(|d| nodes[**d].file != *f && !emitted[**d])
                    .count();
                if best.is_none_or(|(b, _)| c < b) {
                    best = Some((c, f));
                }
            }
            let Some((_, f)) = best else { break };
            remaining.retain(|r| *r != f);
            let mut members: Vec<usize> = (0..n).filter(|i| nodes[*i].file == f).collect();
            members.sort_by_key(|i| nodes[*i].position);
            for m in members {
                emit(nodes, m, &mut emitted, &mut on_stack, &mut stack, &mut out);
            }
        }
        out
    }

    #[test]
    fn incremental_counts_pick_as_a_rescan_does() {
        const FILES: [&str; 5] = ["a", "b", "c", "d", "e"];
        // A small deterministic generator (no dependency on `rand`).
        let mut seed = 0x2545_f491_u64;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for _ in 0..300 {
            let n = 1 + next(12);
            let spec: Vec<(&'static str, u32, Vec<usize>)> = (0..n)
                .map(|i| {
                    let deps = (0..next(4)).map(|_| next(n)).collect();
                    (FILES[next(FILES.len())], i as u32, deps)
                })
                .collect();
            let inputs = inputs(&spec);
            assert_eq!(linearize(&inputs), naive(&inputs), "{spec:?}");
        }
    }

    /// One node per file, 32,000 files, each depending on the next: the
    /// former rescan per pick took seconds here (issue 18, finding 6).
    #[test]
    fn many_files_are_linear() {
        let n = 32_000;
        let names: Vec<String> = (0..n).map(|i| format!("f{i:05}.pp")).collect();
        let deps: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        let inputs: Vec<OrderInput<'_>> = (0..n)
            .map(|i| OrderInput {
                file: names[i].as_str(),
                position: 0,
                deps: &deps[i],
            })
            .collect();
        let started = std::time::Instant::now();
        let out = linearize(&inputs);
        let took = started.elapsed();
        assert_eq!(out.len(), n);
        assert_eq!(out.first(), Some(&(n - 1)));
        assert!(
            took < std::time::Duration::from_secs(2),
            "32,000 files took {took:?}"
        );
    }
}
