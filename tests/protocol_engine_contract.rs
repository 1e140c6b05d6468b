//! The facade contract the protocol relies on: `Engine::go` always returns a legal move
//! (never occupied, never a renju-forbidden point while a legal one exists), takes an
//! immediate five and blocks the opponent's immediate five. Checked over random games in
//! every rule, with short searches.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sente::board::MoveOutcome;
use sente::engine::Engine;
use sente::fallback::attack_weight;
use sente::pattern::Pattern4;
use sente::time::SearchLimits;
use sente::types::{Pos, Rule};

fn limits() -> SearchLimits {
    let mut l = SearchLimits::fixed(Duration::from_millis(60), Instant::now());
    l.max_depth = Some(3);
    l
}

/// The opponent: a greedy attacker that ignores defence (so it makes fours the engine
/// must block), with some random moves. Never plays a five (the game would end first).
fn opponent_move(e: &Engine, rng: &mut StdRng) -> Option<Pos> {
    let mut b = e.board().duplicate();
    let me = b.side_to_move();
    let mut cands = Vec::new();
    b.candidates(&mut cands);
    let legal: Vec<Pos> = cands
        .into_iter()
        .filter(|&p| b.is_legal(p) && b.pattern4(p, me) != Pattern4::Five)
        .collect();
    if legal.is_empty() {
        return None;
    }
    if rng.gen_bool(0.3) {
        return Some(legal[rng.gen_range(0..legal.len())]);
    }
    let best = legal
        .iter()
        .map(|&p| attack_weight(b.pattern4(p, me)))
        .max()?;
    let top: Vec<Pos> = legal
        .into_iter()
        .filter(|&p| attack_weight(b.pattern4(p, me)) == best)
        .collect();
    Some(top[rng.gen_range(0..top.len())])
}

#[test]
fn go_returns_legal_moves_takes_fives_and_blocks_fives_in_every_rule() {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut checked_win = 0;
    let mut checked_block = 0;
    // At least 25 games, more (up to 200) until both a five and a block were checked:
    // how often the engine must block depends on how it plays, which search changes
    // alter.
    for game in 0..200 {
        if game >= 25 && checked_win > 0 && checked_block > 0 {
            break;
        }
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let mut e = Engine::new();
        e.new_game(15, 15, rule).unwrap();
        for ply in 0..80 {
            // Alternate: a random move, then the engine's move.
            let engine_turn = ply % 2 == 1;
            if !engine_turn {
                let Some(p) = opponent_move(&e, &mut rng) else {
                    break;
                };
                if e.play(p) != Ok(MoveOutcome::Continue) {
                    break;
                }
                continue;
            }
            let mut b = e.board().duplicate();
            let me = b.side_to_move();
            let my_five = b.winning_move(me);
            let their_five = b.winning_move(me.opp());
            let squares: Vec<Pos> = b.all_squares().collect();
            let any_legal = squares.iter().any(|&p| b.is_empty(p) && b.is_legal(p));
            let mv = e.go(&limits(), &mut |_| {});
            assert!(mv.is_some(), "{rule:?} game {game}: no move");
            assert!(b.is_empty(mv), "{rule:?} game {game}: occupied {mv}");
            if any_legal {
                assert!(
                    b.is_legal(mv),
                    "{rule:?} game {game}: illegal (forbidden) {mv}\n{b}"
                );
            }
            let outcome = e.play(mv).unwrap();
            if my_five.is_some() {
                assert_eq!(
                    outcome,
                    MoveOutcome::Win,
                    "{rule:?} game {game}: missed a five at {my_five:?}\n{b}"
                );
                checked_win += 1;
                break;
            }
            if let Some(t) = their_five {
                // If some legal move stops every five of the opponent, the engine must
                // have played one.
                let blockable = squares.iter().any(|&p| {
                    let mut c = b.duplicate();
                    c.is_empty(p)
                        && c.is_legal(p)
                        && c.play(p).is_ok()
                        && c.winning_move(me.opp()).is_none()
                });
                if blockable {
                    let after = e.board();
                    assert!(
                        after.winning_move(me.opp()).is_none(),
                        "{rule:?} game {game}: did not block {t}\n{b}"
                    );
                    checked_block += 1;
                }
            }
            if outcome != MoveOutcome::Continue {
                break;
            }
        }
    }
    assert!(
        checked_win > 0 && checked_block > 0,
        "wins {checked_win}, blocks {checked_block}: test did not exercise"
    );
}
