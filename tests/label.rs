//! `label`: the positions of a data file get the values another engine reports for them.
//! The engine here is Sente itself (its `MESSAGE … ev V` lines), at a small fixed depth.

use sente::learn::datagen::{parse_games, run, DatagenConfig, Game};
use sente::learn::label::{label_games, LabelEngine, Targets, MATE_LABEL};
use sente::search::params::SearchParams;
use sente::types::{Pos, Rule};

fn argv() -> Vec<String> {
    vec![env!("CARGO_BIN_EXE_pbrain-sente").to_string()]
}

/// Sente at `depth`, with `infos`.
fn engine<'a>(argv: &'a [String], depth: u32, infos: &'a [String]) -> LabelEngine<'a> {
    LabelEngine {
        argv,
        depth,
        turn_ms: 10_000,
        infos,
    }
}

fn generated(games: usize) -> Vec<Game> {
    let cfg = DatagenConfig {
        rule: Rule::Freestyle,
        size: 15,
        games,
        nodes: 300,
        seed: 11,
        threads: 1,
        params: SearchParams::default(),
        random_plies: 4,
        anywhere: 0,
    };
    let mut bytes = Vec::new();
    run(&cfg, &mut bytes, &mut |_| {}).expect("datagen");
    parse_games(&bytes).expect("records")
}

#[test]
fn labelling_keeps_games_and_gives_every_position_after_the_opening_a_value() {
    let games = generated(4);
    for threads in [1, 2] {
        let labelled = label_games(
            &games,
            Targets::Positions,
            &engine(&argv(), 3, &[]),
            threads,
            &|_| {},
        )
        .expect("label");
        assert_eq!(labelled.len(), games.len());
        for (a, b) in games.iter().zip(&labelled) {
            assert_eq!(a.moves, b.moves, "games stay in their order");
            assert_eq!(a.result, b.result);
            assert!(b.has_values);
            assert_eq!(b.opening, a.opening.max(1));
            assert_eq!(b.values.len(), a.moves.len() - b.opening);
        }
        // The labels are the engine's values, not zeros.
        assert!(labelled.iter().flat_map(|g| &g.values).any(|&v| v != 0));
    }
}

/// Black: 3,7 4,7 5,7 (an open three); white: three scattered stones on the edge; then
/// black's `last` move; the opening ends after six plies (one labelled position).
fn open_three_game(last: (usize, usize), result: i8) -> Game {
    let moves = [(3, 7), (0, 0), (4, 7), (0, 4), (5, 7), (0, 8), last]
        .map(|(x, y)| Pos::new(x, y))
        .to_vec();
    Game {
        rule: Rule::Freestyle,
        width: 15,
        height: 15,
        opening: 6,
        values: vec![0; 1],
        moves,
        result,
        has_values: true,
    }
}

#[test]
fn an_open_three_with_nothing_against_it_is_labelled_a_win_for_its_side() {
    let g = open_three_game((6, 7), 1);
    let labelled = label_games(
        &[g],
        Targets::Positions,
        &engine(&argv(), 4, &[]),
        1,
        &|_| {},
    )
    .expect("label");
    // The position after six plies: black to move makes an open four and wins.
    assert_eq!(labelled[0].values, vec![MATE_LABEL]);
}

#[test]
fn children_are_labelled_one_game_each_from_the_side_to_move_after_the_child() {
    // Black to move with an open three (3..5, 7): its best-ordered moves include the
    // straight fours at (2, 7) and (6, 7), after which white is lost.
    let g = open_three_game((9, 9), -1);
    let moves = g.moves.clone();
    let targets = Targets::Children {
        moves: 3,
        plies: (0, 0),
    };
    let labelled = label_games(&[g], targets, &engine(&argv(), 3, &[]), 1, &|_| {}).expect("label");
    assert_eq!(labelled.len(), 3, "one game per child");
    let mut children: Vec<Pos> = labelled.iter().map(|c| c.moves[6]).collect();
    for c in &labelled {
        assert_eq!(&c.moves[..6], &moves[..6], "the parent's moves first");
        assert_eq!((c.opening, c.values.len(), c.result), (7, 1, -1));
    }
    let fours = [Pos::new(2, 7), Pos::new(6, 7)];
    for (c, child) in labelled.iter().zip(&children) {
        if fours.contains(child) {
            assert_eq!(c.values, vec![-MATE_LABEL], "white is lost after {child:?}");
        }
    }
    assert!(children.iter().any(|c| fours.contains(c)));
    children.sort_by_key(|p| p.idx());
    children.dedup();
    assert_eq!(children.len(), 3, "distinct children");
}
