//! Recursive types are freed: live allocations return to where they were
//! after each round of building, using and dropping recursive types (a
//! counting global allocator; the cases run one after another without the
//! test harness, so nothing else allocates meanwhile), and a recursive
//! type stays whole while any part of it is held.

use std::sync::{Arc, Mutex};

use pcl_types::{
    conversion_from, input_type, parse_type, resolve_outputs, to_notation, unify, ObjectOptions,
    Properties, Type, TypeGroup, WeakType,
};
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

/// Live blocks and bytes (the binary runs its cases one after another on
/// one thread, so nothing else allocates meanwhile).
fn live() -> (usize, usize) {
    let s = GLOBAL.stats();
    (
        s.allocations - s.deallocations,
        s.bytes_allocated - s.bytes_deallocated,
    )
}

/// Runs `round` a few times to warm every per-thread and per-process
/// cache, then asserts that each further round leaves exactly the blocks
/// and bytes that were live before it.
fn assert_flat(name: &str, round: impl Fn()) {
    for _ in 0..3 {
        round();
    }
    for i in 0..20 {
        let before = live();
        round();
        let after = live();
        assert_eq!(
            before, after,
            "{name}: round {i} changed the live blocks / bytes"
        );
    }
}

fn parse(text: &str) -> Type {
    parse_type(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

const SELF: &str = "rec($R, object({a = union(none, $R), b = list($R), c = int}))";
const MUTUAL: &str =
    "rec($A, object({b = rec($B, object({a = union(none, $A), self = map($B)})), n = string}))";
const EVENTUAL: &str =
    "rec($T, object({next = union($T, output(rec($U, object({next = $U, v = int})))), v = output(int)}))";

fn recursive_notation_types_are_freed() {
    assert_flat("parse", || {
        for text in [SELF, MUTUAL, EVENTUAL] {
            drop(parse(text));
        }
    });
}

fn operations_on_recursive_types_free_what_they_build() {
    assert_flat("operations", || {
        for text in [SELF, MUTUAL, EVENTUAL] {
            let (a, b) = (parse(text), parse(text));
            assert_eq!(a, b);
            assert_eq!(to_notation(&a), to_notation(&b));
            let printed = a.to_string();
            assert!(!printed.is_empty());
            let resolved = resolve_outputs(&a);
            let input = input_type(&a);
            let (unified, _) = unify(&a, &resolved);
            let _ = conversion_from(&input, &b);
            let _ = conversion_from(&unified, &a);
            drop((a, b, resolved, input, unified));
        }
    });
}

/// The union inside `$R` is all that is kept: the object it holds must
/// still have its properties, and everything is freed once it is dropped.
fn an_inner_member_keeps_the_whole_type_alive() {
    assert_flat("inner member", || {
        let r = parse(SELF);
        let notation = to_notation(&r);
        let inner = r.as_object().and_then(|o| o.properties().get("a").cloned());
        let inner = inner.unwrap_or_else(|| panic!("no property a"));
        let printed = inner.to_string();
        drop(r);
        assert_eq!(inner.to_string(), printed);
        assert!(
            printed.contains("b = list(") && printed.contains("c = int"),
            "{printed}"
        );
        let object = inner.as_union().and_then(|u| u.elements().last().cloned());
        let object = object.unwrap_or_else(|| panic!("no object in {inner}"));
        let props = object.as_object().map(|o| o.properties().len());
        assert_eq!(props, Some(3));
        let again = object
            .as_object()
            .and_then(|o| o.properties().get("a").cloned());
        assert!(again.is_some_and(|a| a.ptr_eq(&inner)), "the same cycle");
        drop(inner);
        // Only the object is held now.
        assert_eq!(to_notation(&object), notation);
    });
}

/// A recursive type built with `deferred_object` outside any scope, as a
/// host would.
fn deferred_objects_defined_by_hand_are_freed() {
    assert_flat("deferred", || {
        let o = Type::deferred_object(ObjectOptions::default());
        let list = Type::list(o.clone());
        assert!(o.define_object([("next", Type::optional(o.clone())), ("all", list)]));
        let next = o
            .as_object()
            .and_then(|d| d.properties().get("next").cloned());
        let printed = next.as_ref().map(Type::to_string);
        drop(o);
        assert_eq!(next.as_ref().map(Type::to_string), printed);
        assert!(printed.is_some_and(|p| p.contains("all = list(")));
    });
}

/// Lazy objects that find each other through a weak cache, as the binder's
/// schema converter builds them, in one `TypeGroup`.
fn lazy_recursive_objects_in_a_group_are_freed() {
    assert_flat("lazy", || {
        let group = Arc::new(TypeGroup::new());
        let cache: Arc<Mutex<Vec<(String, WeakType)>>> = Arc::default();
        fn object(
            group: &Arc<TypeGroup>,
            cache: &Arc<Mutex<Vec<(String, WeakType)>>>,
            name: &str,
        ) -> Type {
            let mut c = cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(t) = c
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, w)| w.upgrade())
            {
                return t;
            }
            let (g, k) = (Arc::clone(group), Arc::clone(cache));
            let other = if name == "a" { "b" } else { "a" };
            let t = group.scope(|| {
                Type::lazy_object(ObjectOptions::default(), move || {
                    let mut props = Properties::default();
                    let o = object(&g, &k, other);
                    props.insert("other".into(), Type::union([Type::output(o.clone()), o]));
                    props.insert("me".into(), Type::list(object(&g, &k, "a")));
                    Some(props)
                })
            });
            c.retain(|(n, _)| n != name);
            c.push((name.to_string(), t.weak()));
            t
        }
        let a = object(&group, &cache, "a");
        let printed = a.to_string();
        assert!(printed.contains("other"), "{printed}");
        let resolved = resolve_outputs(&a);
        assert!(!resolved.to_string().is_empty());
        drop((a, resolved));
        // Everything died with the last handle: the cache no longer finds it.
        let c = cache.lock().unwrap_or_else(|p| p.into_inner());
        assert!(c.iter().all(|(_, w)| w.upgrade().is_none()));
    });
}

/// A recursive type shared with another thread is freed by whichever
/// drops it last (one worker thread for all rounds, so that its own
/// thread-local state is set up once, in the warm-up rounds).
fn recursive_types_dropped_on_other_threads_are_freed() {
    let (to_worker, inbox) = std::sync::mpsc::channel::<Option<Type>>();
    let (done, dropped) = std::sync::mpsc::channel::<()>();
    let worker = std::thread::spawn(move || {
        while let Ok(t) = inbox.recv() {
            drop(t);
            if done.send(()).is_err() {
                break;
            }
        }
    });
    let send = |t: Option<Type>| {
        assert!(to_worker.send(t).is_ok());
        assert!(dropped.recv().is_ok());
    };
    assert_flat("threads", || {
        let t = parse(MUTUAL);
        let held = t.as_object().and_then(|o| o.properties().get("b").cloned());
        send(held);
        drop(t);
        let t = parse(MUTUAL);
        let held = t.as_object().and_then(|o| o.properties().get("b").cloned());
        drop(t);
        // The other thread drops the last handle this time.
        send(held);
    });
    drop(to_worker);
    assert!(worker.join().is_ok());
}

fn main() {
    let cases: [(&str, fn()); 6] = [
        (
            "recursive_notation_types_are_freed",
            recursive_notation_types_are_freed,
        ),
        (
            "operations_on_recursive_types_free_what_they_build",
            operations_on_recursive_types_free_what_they_build,
        ),
        (
            "an_inner_member_keeps_the_whole_type_alive",
            an_inner_member_keeps_the_whole_type_alive,
        ),
        (
            "deferred_objects_defined_by_hand_are_freed",
            deferred_objects_defined_by_hand_are_freed,
        ),
        (
            "lazy_recursive_objects_in_a_group_are_freed",
            lazy_recursive_objects_in_a_group_are_freed,
        ),
        (
            "recursive_types_dropped_on_other_threads_are_freed",
            recursive_types_dropped_on_other_threads_are_freed,
        ),
    ];
    let mut failed = 0;
    for (name, case) in cases {
        match std::panic::catch_unwind(case) {
            Ok(()) => println!("test {name} ... ok"),
            Err(_) => {
                println!("test {name} ... FAILED");
                failed += 1;
            }
        }
    }
    println!("{} passed, {failed} failed", cases.len() - failed);
    if failed > 0 {
        std::process::exit(1);
    }
}
