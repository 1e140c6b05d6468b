//! The incremental board state (line keys, patterns, classes, counts, cell value sums,
//! cell vector sums, candidates, Zobrist key) must equal a from-scratch rebuild after every move and
//! every undo.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sente::board::{Board, CellValues, CellVectors, CELL_VALUE_FIELDS};
use sente::types::{Pos, Rule};
use std::sync::OnceLock;

/// Random cell values (entry 0 zero), packed like the evaluation's: a small value in
/// the low 32 bits and another above.
fn random_values() -> &'static CellValues {
    static V: OnceLock<&'static CellValues> = OnceLock::new();
    V.get_or_init(|| {
        let mut rng = StdRng::seed_from_u64(0xCE11);
        let mut v = Box::new(CellValues([[0; CELL_VALUE_FIELDS]; 2]));
        for c in 0..2 {
            for f in 1..CELL_VALUE_FIELDS {
                let (a, b) = (rng.gen_range(-5000i64..5000), rng.gen_range(-5000i64..5000));
                v.0[c][f] = a + (b << 32);
            }
        }
        Box::leak(v)
    })
}

/// Random cell vectors: 7 numbers per row, 40 rows (row 0 zero), each colour's fields
/// mapped to rows at random (field 0 to row 0).
fn random_vectors() -> &'static CellVectors {
    static V: OnceLock<&'static CellVectors> = OnceLock::new();
    V.get_or_init(|| {
        let mut rng = StdRng::seed_from_u64(0xEC7);
        let (width, rows) = (7, 40);
        let mut r: Vec<i16> = (0..width * rows)
            .map(|_| rng.gen_range(i16::MIN..=i16::MAX))
            .collect();
        r[..width].fill(0);
        let map = |rng: &mut StdRng| {
            let mut m: Vec<u16> = (0..CELL_VALUE_FIELDS)
                .map(|_| rng.gen_range(0..rows as u16))
                .collect();
            m[0] = 0;
            m
        };
        let maps = [map(&mut rng), map(&mut rng)];
        Box::leak(Box::new(
            CellVectors::new(width, maps, r).expect("valid table"),
        ))
    })
}

/// Play one random game with random undos, checking consistency at every step.
fn random_game(
    rng: &mut StdRng,
    width: usize,
    height: usize,
    rule: Rule,
    max_moves: usize,
    blocked: usize,
) -> usize {
    let mut board = Board::new(width, height, rule).unwrap();
    for _ in 0..blocked {
        let p = Pos::new(rng.gen_range(0..width), rng.gen_range(0..height));
        let _ = board.set_blocked(p);
    }
    board.assert_consistent();
    let start_key = board.key();
    let mut cands = Vec::new();
    let mut checks = 0;
    let mut played = 0;
    // Cell values from the start, from a few moves in, or never.
    let values_at = match rng.gen_range(0..3) {
        0 => Some(0),
        1 => Some(rng.gen_range(1..=max_moves.max(1))),
        _ => None,
    };
    // Cell vectors likewise, independently.
    let vectors_at = match rng.gen_range(0..3) {
        0 => Some(0),
        1 => Some(rng.gen_range(1..=max_moves.max(1))),
        _ => None,
    };
    let mut vectors_set = false;
    while played < max_moves && board.empty_count() > 0 {
        if values_at == Some(played) {
            board.set_cell_values(random_values());
            board.assert_consistent();
        }
        if vectors_at == Some(played) {
            board.set_cell_vectors(Some(random_vectors()));
            vectors_set = true;
            assert!(board.vector_sum(sente::types::Color::Black).is_some());
            board.assert_consistent();
        }
        board.candidates(&mut cands);
        // Mostly near stones (where patterns change), sometimes anywhere.
        let p = if !cands.is_empty() && rng.gen_bool(0.9) {
            cands[rng.gen_range(0..cands.len())]
        } else {
            Pos::new(rng.gen_range(0..width), rng.gen_range(0..height))
        };
        if !board.is_empty(p) {
            continue;
        }
        board.make(p);
        played += 1;
        // The vector sums are computed when asked for (an evaluation): sometimes now,
        // sometimes several moves and takebacks later.
        if rng.gen_bool(0.3) {
            board.refresh_vectors();
            assert_eq!(
                board.vector_sum(sente::types::Color::White).is_some(),
                vectors_set
            );
        }
        board.assert_consistent();
        checks += 1;
        if rng.gen_bool(0.15) {
            let n = rng.gen_range(1..=board.move_count().min(3));
            for _ in 0..n {
                board.unmake();
                played -= 1;
                board.assert_consistent();
                checks += 1;
            }
        }
    }
    while board.undo().is_some() {}
    board.assert_consistent();
    assert_eq!(board.key(), start_key, "key after undoing everything");
    checks
}

#[test]
fn incremental_state_matches_rebuild_in_10000_random_games() {
    let mut rng = StdRng::seed_from_u64(0x5E47E);
    let shapes: [(usize, usize, usize); 6] = [
        (5, 5, 25),
        (15, 15, 45),
        (20, 20, 45),
        (32, 32, 40),
        (7, 19, 40),
        (12, 9, 40),
    ];
    let mut checks = 0;
    for game in 0..10_000 {
        let (w, h, max) = shapes[game % shapes.len()];
        let rule = Rule::ALL[(game / shapes.len()) % Rule::ALL.len()];
        let blocked = if game % 3 == 0 {
            rng.gen_range(1..6)
        } else {
            0
        };
        // Most games are short so the suite stays fast; every 10th goes long.
        let len = if game % 10 == 0 {
            max
        } else {
            rng.gen_range(1..=max.min(14))
        };
        checks += random_game(&mut rng, w, h, rule, len, blocked);
    }
    assert!(checks > 100_000, "only {checks} checks");
}

#[test]
fn zobrist_key_depends_on_position_not_move_order() {
    let mut a = Board::new(15, 15, Rule::Freestyle).unwrap();
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    for p in [(7, 7), (8, 8), (6, 6), (9, 9)] {
        a.make(Pos::new(p.0, p.1));
    }
    for p in [(6, 6), (9, 9), (7, 7), (8, 8)] {
        b.make(Pos::new(p.0, p.1));
    }
    assert_eq!(a.key(), b.key());
    b.unmake();
    assert_ne!(a.key(), b.key());
}

#[test]
fn takeback_restores_zobrist_and_patterns() {
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    let k0 = b.key();
    b.play(Pos::new(7, 7)).unwrap();
    let k1 = b.key();
    b.play(Pos::new(8, 7)).unwrap();
    assert_eq!(b.undo(), Some(Pos::new(8, 7)));
    assert_eq!(b.key(), k1);
    assert_eq!(b.undo(), Some(Pos::new(7, 7)));
    assert_eq!(b.key(), k0);
    assert_eq!(b.undo(), None);
    b.assert_consistent();
}
