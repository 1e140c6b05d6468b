//! The developer bench commands read every parameter argument: `bench DEPTH KEY=V …`
//! as documented (docs/search-parameters.md: "a comma- or space-separated list").

use std::process::Command;

fn bench(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-sente"))
        .args(args)
        .output()
        .expect("runs pbrain-sente");
    assert!(out.status.success(), "bench exits 0");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The node count of a bench run's last line (`Bench: N nodes …`).
fn nodes(out: &str) -> u64 {
    let last = out.lines().last().expect("a line");
    last.strip_prefix("Bench: ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {last:?}"))
}

#[test]
fn bench_reads_a_bad_key_in_a_later_argument() {
    let out = bench(&["bench", "1", "top_n=8", "no_such_key=1"]);
    assert!(out.contains("bad parameters"), "{out}");
}

#[test]
fn bench_parameters_as_separate_arguments_equal_one_comma_list() {
    let separate = nodes(&bench(&["bench", "2", "top_n=6", "rfp=0"]));
    let joined = nodes(&bench(&["bench", "2", "top_n=6,rfp=0"]));
    let first_only = nodes(&bench(&["bench", "2", "top_n=6"]));
    assert_eq!(separate, joined);
    assert_ne!(separate, first_only, "rfp=0 changes the depth-2 tree");
}

#[test]
fn bench_without_a_depth_reads_its_parameters() {
    // `bench KEY=V` means the default depth with that setting: a bad key is reported
    // (it was taken for the depth and dropped with the rest).
    let out = bench(&["bench", "no_such_key=1"]);
    assert!(out.contains("bad parameters"), "{out}");
    let out = bench(&["bench-depth", "no_such_key=1"]);
    assert!(out.contains("bad parameters"), "{out}");
    let out = bench(&["bench-threads", "no_such_key=1"]);
    assert!(out.contains("bad parameters"), "{out}");
    let out = bench(&["bench-threads", "1", "no_such_key=1"]);
    assert!(out.contains("bad parameters"), "{out}");
}

#[test]
fn bench_refuses_a_depth_that_is_not_a_number() {
    // The thread count and bench-firstmove's run count and time are checked the same way:
    // `bench-threads x` had run two threads.
    for args in [
        &["bench", "abc"][..],
        &["bench-depth", "1s"],
        &["bench-threads", "1", "x"],
        &["bench-threads", "x"],
        &["bench-firstmove", "x"],
        &["bench-firstmove", "3", "half"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-sente"))
            .args(args)
            .output()
            .expect("runs pbrain-sente");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad "), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: no bench run");
    }
}
