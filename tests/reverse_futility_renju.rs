//! Reverse futility reads its own keys in renju (`rfp_renju`, `rfp_margin_renju`: 8 plies,
//! 40 a ply since the forty-fourth session) and `rfp`, `rfp_margin` in every other rule (the
//! same 8 and 40 since the forty-fifth, 2 and 80 before). No timing assertions.

mod common;

use common::{bench_boards, fixed_limits as limits, search_spec};
use sente::board::Board;
use sente::search::params::SearchParams;
use sente::types::Rule;

fn nodes(b: &mut Board, spec: &str) -> u64 {
    search_spec(b, spec, &limits(8, None)).nodes
}

#[test]
fn renju_reads_its_own_reverse_futility_keys() {
    let d = SearchParams::default();
    assert_eq!((d.rfp_depth, d.rfp_margin), (8, 40));
    assert_eq!((d.rfp_depth_renju, d.rfp_margin_renju), (8, 40));
    let (mut renju, mut other) = (0, 0);
    for (name, mut b) in bench_boards() {
        let default = nodes(&mut b, "");
        let shared_changed = nodes(&mut b, "rfp=2,rfp_margin=80") != default;
        let renju_changed = nodes(&mut b, "rfp_renju=2,rfp_margin_renju=80") != default;
        if b.rule() == Rule::Renju {
            renju += 1;
            assert!(!shared_changed, "{name}: renju read `rfp`");
            assert!(renju_changed, "{name}: renju ignored `rfp_renju`");
        } else {
            other += 1;
            assert!(!renju_changed, "{name}: {:?} read `rfp_renju`", b.rule());
            assert!(shared_changed, "{name}: {:?} ignored `rfp`", b.rule());
        }
    }
    assert!(
        renju >= 2 && other >= 2,
        "{renju} renju and {other} other positions"
    );
}
