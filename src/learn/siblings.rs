//! `pbrain-sente siblings`: how well an engine's values at some depth choose among the
//! children of a position, scored by a reference engine's values of the same children.
//!
//! The input is a data file of child records (`label --children`, whose values are the
//! reference) and the same file labelled again by another engine or at another depth
//! (`label --data CHILDREN.bin --depth D`). For each parent, the side to move would play
//! the child the values rate lowest for the opponent (who moves next); the report gives
//! the mean expected score that choice loses against the child the reference rates
//! lowest (sigmoid(value / scale), in points), beside the loss of always playing the
//! move ordering's first child. Unlike a match or the judge, this takes the engine's
//! values alone, at a fixed depth, on thousands of parents in minutes.

use super::datagen::{read_files, Game};
use super::label::are_siblings;

/// The mean loss in points of the choice by `values` among each group of sibling
/// children of `reference` (records in the same order), the same for the first child,
/// and the number of groups (of at least two children). Only groups that `values`
/// covers completely count.
///
/// # Errors
/// A record of `values` differs from the reference's in its moves.
pub fn regret(
    reference: &[Game],
    values: &[Game],
    scale: f64,
) -> Result<(f64, f64, usize), String> {
    let n = reference.len().min(values.len());
    for i in 0..n {
        if reference[i].moves != values[i].moves || values[i].values.len() != 1 {
            return Err(format!("record {i} is not the reference's child"));
        }
    }
    let score = |v: i16| 100.0 / (1.0 + (-f64::from(v) / scale).exp());
    let (mut picked, mut first, mut groups) = (0.0, 0.0, 0usize);
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < reference.len() && are_siblings(&reference[j - 1], &reference[j]) {
            j += 1;
        }
        if j - i >= 2 && j <= n {
            let t = |k: usize| score(reference[k].values[0]);
            let best = (i..j).map(t).fold(f64::INFINITY, f64::min);
            let pick = (i..j)
                .min_by_key(|&k| values[k].values[0])
                .expect("a group");
            picked += t(pick) - best;
            first += t(i) - best;
            groups += 1;
        }
        i = j;
    }
    let g = groups.max(1) as f64;
    Ok((picked / g, first / g, groups))
}

/// `siblings --labels REF.bin --values A.bin[,B.bin…] [--scale 253]`. Returns the exit
/// code.
pub fn cli(args: &[String]) -> i32 {
    let (mut labels, mut values, mut scale) = (None, None, 253.0);
    for pair in args.chunks(2) {
        let v = pair.get(1).cloned().unwrap_or_default();
        let ok = match pair[0].as_str() {
            "--labels" => {
                labels = Some(v);
                true
            }
            "--values" => {
                values = Some(v);
                true
            }
            "--scale" => v.parse().map(|x| scale = x).is_ok(),
            _ => false,
        };
        if !ok {
            eprintln!("siblings: bad argument {}", pair.join(" "));
            return 2;
        }
    }
    let (Some(labels), Some(values)) = (labels, values) else {
        eprintln!("siblings: --labels FILE and --values FILE[,FILE…] are required");
        return 2;
    };
    let reference = match read_files(&labels) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("siblings: {e}");
            return 1;
        }
    };
    for file in values.split(',') {
        let result = read_files(file).and_then(|v| regret(&reference, &v, scale));
        match result {
            Ok((picked, first, groups)) => println!(
                "{file}: {groups} parents, the values' choice loses {picked:.2} points, \
                 the ordering's first child {first:.2}"
            ),
            Err(e) => {
                eprintln!("siblings: {file}: {e}");
                return 1;
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Pos, Rule};

    /// Children of two parents (a third stone at x = 0 or 1), values in order.
    fn children(values: &[[i16; 3]; 2]) -> Vec<Game> {
        let mut out = Vec::new();
        for (p, vals) in values.iter().enumerate() {
            for (c, &v) in vals.iter().enumerate() {
                out.push(Game {
                    rule: Rule::Freestyle,
                    width: 15,
                    height: 15,
                    opening: 4,
                    moves: vec![
                        Pos::new(7, 7),
                        Pos::new(8, 8),
                        Pos::new(p, 0),
                        Pos::new(12, 10 + c),
                        Pos::new(14, 14),
                    ],
                    result: 0,
                    values: vec![v],
                    has_values: true,
                });
            }
        }
        out
    }

    #[test]
    fn the_choice_is_scored_against_the_reference_best_child() {
        let score = |v: f64| 100.0 / (1.0 + (-v / 253.0).exp());
        let reference = children(&[[0, -300, 200], [100, 50, -50]]);
        // Parent 1: the values pick child 2 (+200 by the reference, best -300);
        // parent 2: child 3, the best.
        let values = children(&[[10, 20, -5], [0, 0, -1]]);
        let (picked, first, groups) = regret(&reference, &values, 253.0).unwrap();
        assert_eq!(groups, 2);
        let want = (score(200.0) - score(-300.0)) / 2.0;
        assert!((picked - want).abs() < 1e-9, "{picked} vs {want}");
        let want_first = (score(0.0) - score(-300.0) + score(100.0) - score(-50.0)) / 2.0;
        assert!((first - want_first).abs() < 1e-9);
        // The reference scores its own choice perfectly.
        assert!(regret(&reference, &reference, 253.0).unwrap().0.abs() < 1e-12);
        // A shorter file counts only the parents it covers whole.
        assert_eq!(regret(&reference, &values[..4], 253.0).unwrap().2, 1);
        // Other positions are refused.
        let mut other = values.clone();
        other[1].moves[3] = Pos::new(0, 14);
        assert!(regret(&reference, &other, 253.0).is_err());
    }
}
