//! CI-sized smoke match: Sente against Sente through the arbiter, 10 games at 50 ms per
//! move. Every game must end on the board (five, foul, full board or move limit): a protocol
//! error, timeout or crash of pbrain-sente fails the test.

use sente::arbiter::game::{EngineSpec, GameConfig};
use sente::arbiter::openings::random_openings;
use sente::arbiter::runner::{run_match, summary_text, MatchConfig, SprtModel};
use sente::types::Rule;

#[test]
fn sente_vs_sente_ten_fast_games_all_end_by_the_rules() {
    let sente = env!("CARGO_BIN_EXE_pbrain-sente").to_string();
    let spec = |name: &str| EngineSpec {
        name: name.to_string(),
        argv: vec![sente.clone()],
        info: vec![],
    };
    let cfg = MatchConfig {
        game: GameConfig {
            rule: Rule::Freestyle,
            size: 15,
            turn_ms: 50,
            match_ms: 0,
            // c-gomoku-cli's default tolerance: CI machines are shared and loaded, and the
            // test is about protocol and rules, not about latency.
            tolerance_ms: 3000,
            start_ms: 5000,
            max_memory: 0,
            // A rules result that bounds the test's run time.
            draw_after: 120,
        },
        engines: [spec("sente-a"), spec("sente-b")],
        openings: random_openings(5, 3, 15, 3, 7),
        games: 10,
        concurrency: 2,
        out_dir: None,
        sprt: None,
        sprt_model: SprtModel::Pentanomial,
    };
    let mut out = Vec::new();
    let sum = run_match(&cfg, &mut out).expect("match runs");
    let text = String::from_utf8(out).unwrap() + &summary_text(&cfg, &sum);
    assert_eq!(sum.wld.games(), 10, "{text}");
    assert_eq!(sum.failures, 0, "{text}");
    for r in &sum.records {
        assert!(
            r.reason.is_rules_result(),
            "game {}: {}\n{text}",
            r.number,
            r.reason
        );
        assert!(
            r.moves.len() > r.opening_len,
            "game {} has no engine move\n{text}",
            r.number
        );
    }
}
