//! The singular extension with multi-cut (`se=1`): on by default; on, the search still
//! plays legal moves, finds the forced wins and blocks the fours it did without it, and
//! stays deterministic at a fixed node count and at a fixed depth. No timing assertions.

mod common;

use common::{
    assert_finds_the_win_of_an_open_three, assert_stops_an_open_three, bench_boards,
    fixed_limits as limits,
};
use sente::board::Board;
use sente::search::params::SearchParams;
use sente::search::{SearchResult, Searcher};
use sente::time::SearchLimits;

fn search(b: &mut Board, params: &SearchParams, l: &SearchLimits) -> SearchResult {
    let mut s = Searcher::new(4 << 20, params.clone());
    s.go(b, l, None, &mut |_| {})
}

/// Singular extension on, from a small depth so that the short searches of a test
/// reach it; `extra` adds settings.
fn se_params(extra: &str) -> SearchParams {
    let mut p = SearchParams::default();
    p.apply("se=1,se_depth=4").unwrap();
    p.apply(extra).unwrap();
    p
}

#[test]
fn singular_extension_is_on_by_default() {
    let d = SearchParams::default();
    assert!(d.singular && d.se_multicut);
    let p = se_params("se_margin=5,se_multicut=0");
    assert!(p.singular && !p.se_multicut);
    assert_eq!((p.se_depth, p.se_margin), (4, 5));
}

#[test]
fn singular_extension_changes_the_tree_and_is_deterministic_at_fixed_nodes_and_depth() {
    let mut changed = 0;
    for (name, mut b) in bench_boards() {
        let history = b.history().to_vec();
        for margin in ["se_margin=3", "se_margin=12"] {
            let on = se_params(margin);
            let what = format!("{name} {margin}");
            // A node limit far below the depth's needs: the limit stops the search.
            let nodes = limits(60, Some(20_000));
            let r1 = search(&mut b, &on, &nodes);
            let r2 = search(&mut b, &on, &nodes);
            assert_eq!(
                (r1.nodes, r1.best, r1.value, r1.depth),
                (r2.nodes, r2.best, r2.value, r2.depth),
                "{what}: two node-limited searches differ"
            );
            assert!(b.is_legal(r1.best), "{what}: {:?}", r1.best);
            assert_eq!(b.history(), history.as_slice(), "{what}: board changed");
            let fixed = limits(8, None);
            let d1 = search(&mut b, &on, &fixed);
            let d2 = search(&mut b, &on, &fixed);
            assert_eq!(
                (d1.nodes, d1.best, d1.value),
                (d2.nodes, d2.best, d2.value),
                "{what}: two depth-8 searches differ"
            );
            assert!(b.is_legal(d1.best), "{what}: {:?}", d1.best);
            let off = search(&mut b, &SearchParams::default(), &fixed);
            changed += usize::from(off.nodes != d1.nodes);
        }
    }
    // The test searches do reach the extension (it is not a no-op at these depths).
    assert!(changed >= 10, "only {changed} searches changed");
}

#[test]
fn singular_extension_still_finds_the_win_of_an_open_three() {
    for extra in ["", "se_margin=0", "se_depth=1"] {
        assert_finds_the_win_of_an_open_three(&format!("se=1,se_depth=4,{extra}"));
    }
}

#[test]
fn singular_extension_still_stops_an_open_three() {
    for extra in ["", "se_depth=1,se_margin=1"] {
        assert_stops_an_open_three(&format!("se=1,se_depth=4,{extra}"));
    }
}
