//! `label`: the positions of a data file get the values another engine reports for them.
//! The engine here is Sente itself (its `MESSAGE … ev V` lines), at a small fixed depth.

use sente::learn::datagen::{parse_games, run, DatagenConfig, Game};
use sente::learn::label::{label_games, MATE_LABEL};
use sente::search::params::SearchParams;
use sente::types::{Pos, Rule};

fn engine() -> Vec<String> {
    vec![env!("CARGO_BIN_EXE_pbrain-sente").to_string()]
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
    };
    let mut bytes = Vec::new();
    run(&cfg, &mut bytes, &mut |_| {}).expect("datagen");
    parse_games(&bytes).expect("records")
}

#[test]
fn labelling_keeps_games_and_gives_every_position_after_the_opening_a_value() {
    let games = generated(4);
    for threads in [1, 2] {
        let labelled = label_games(&games, &engine(), 3, 10_000, threads, &|_| {}).expect("label");
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

#[test]
fn an_open_three_with_nothing_against_it_is_labelled_a_win_for_its_side() {
    // Black: 3,7 4,7 5,7 (an open three); white: three scattered stones on the edge.
    let moves = [(3, 7), (0, 0), (4, 7), (0, 4), (5, 7), (0, 8), (6, 7)]
        .map(|(x, y)| Pos::new(x, y))
        .to_vec();
    let g = Game {
        rule: Rule::Freestyle,
        width: 15,
        height: 15,
        opening: 6,
        values: vec![0; 1],
        moves,
        result: 1,
        has_values: true,
    };
    let labelled = label_games(&[g], &engine(), 4, 10_000, 1, &|_| {}).expect("label");
    // The position after six plies: black to move makes an open four and wins.
    assert_eq!(labelled[0].values, vec![MATE_LABEL]);
}
