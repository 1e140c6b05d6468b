//! Benchmarks printed by `pbrain-sente bench…` subcommands (figures belong here, never
//! in timed tests).

use crate::board::Board;
use crate::types::{Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Make+undo throughput on random mid-game 15×15 positions with full incremental
/// pattern updates. Returns the report lines; the last is
/// `Board: <pairs/s median> make+undo pairs/s`.
#[must_use]
pub fn board_bench(rule: Rule) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(20_261_122);
    let mut out = Vec::new();
    // 32 positions of 20..40 random stones near each other, with their candidate moves.
    let mut setups: Vec<(Vec<Pos>, Vec<Pos>)> = Vec::new();
    let mut cands = Vec::new();
    while setups.len() < 32 {
        let mut b = Board::new(15, 15, rule).expect("15x15");
        let n = rng.gen_range(20..40);
        let mut moves = Vec::new();
        while moves.len() < n {
            b.candidates(&mut cands);
            let p = cands[rng.gen_range(0..cands.len())];
            if b.pattern4(p, b.side_to_move()) == crate::pattern::Pattern4::Five {
                continue;
            }
            b.make(p);
            moves.push(p);
        }
        b.candidates(&mut cands);
        setups.push((moves, cands.clone()));
    }
    let mut rates = Vec::new();
    for round in 0..5 {
        let mut pairs = 0u64;
        let start = Instant::now();
        for (moves, cand) in &setups {
            let mut b = Board::new(15, 15, rule).expect("15x15");
            for &m in moves {
                b.make(m);
            }
            for _ in 0..200 {
                for &c in cand {
                    b.make(c);
                    b.unmake();
                    pairs += 1;
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let rate = pairs as f64 / secs;
        out.push(format!(
            "round {round}: {pairs} pairs in {:.1} ms = {:.0} pairs/s",
            secs * 1e3,
            rate
        ));
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    out.push(format!(
        "Board: {:.0} make+undo pairs/s (median of 5, {})",
        rates[2],
        rule.name()
    ));
    out
}
