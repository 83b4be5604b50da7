//! A deterministic topological order of a program's nodes (the reference's
//! `Linearize`, binder.md §5.2): nodes are grouped by file; the next file is
//! the one with the fewest dependencies on nodes of files not yet emitted
//! (ties by file name); within a file nodes come in source order, each
//! preceded by its not-yet-emitted dependencies. Cycles are broken where
//! they close. Iterative, so long dependency chains cannot overflow the
//! stack.

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
    let mut remaining: Vec<usize> = (0..files.len()).collect();
    // The walk's stack, shared by every start.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    while !remaining.is_empty() {
        // Pick the file with the fewest unsatisfied cross-file dependencies
        // (ties: the first by name; `remaining` is in name order).
        let mut best: Option<(usize, usize)> = None;
        for &file in &remaining {
            let count = members_of
                .get(file)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|i| nodes.get(*i))
                .flat_map(|x| x.deps.iter())
                .filter(|d| {
                    file_of.get(**d).is_some_and(|f| *f != file)
                        && !emitted.get(**d).copied().unwrap_or(true)
                })
                .count();
            if best.is_none_or(|(c, _)| count < c) {
                best = Some((count, file));
            }
        }
        let Some((_, file)) = best else { break };
        remaining.retain(|f| *f != file);
        let members = members_of
            .get_mut(file)
            .map(std::mem::take)
            .unwrap_or_default();
        for start in members {
            emit(
                nodes,
                start,
                &mut emitted,
                &mut on_stack,
                &mut stack,
                &mut out,
            );
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

    fn order(spec: &[(&'static str, u32, Vec<usize>)]) -> Vec<usize> {
        let inputs: Vec<OrderInput<'_>> = spec
            .iter()
            .map(|(f, p, d)| OrderInput {
                file: f,
                position: *p,
                deps: d,
            })
            .collect();
        linearize(&inputs)
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
}
