//! `pbrain-sente train-order`: fit the learned move-ordering scores ([`crate::order`])
//! to the moves one player chose in recorded games.
//!
//! Input: the `--out-dir` folders of `sente-arbiter` matches (each game as
//! `game_NNNN.psq` with its `game_NNNN.sgf`, whose `PB[…]`/`PW[…]` name the players and
//! whose `GC[… (N stones)]` gives the opening's length). Every position after the
//! opening where the chosen player moved and the move generator is in its unforced
//! stage becomes a sample: the candidate cells the generator lists and the one the
//! player chose. The model scores a cell `own[combination of the mover] +
//! opp[combination of the opponent] + near[distance buckets]` and is fitted by softmax
//! cross-entropy over the candidates (full-batch Adam), from the hand-set ordering
//! (class weights mapped to combinations, `near` zero) at the temperature that fits the
//! hand-set ordering best. Every 10th game is held back; the loss and how often the
//! chosen move ranks in the first 3 and first 10 (top-N keeps 10) are printed for both.

use super::datagen::game_from_psq;
use crate::board::Board;
use crate::eval::features::{combo_of_index, combos, COMBOS};
use crate::movegen::{generate, BBox, MoveList, OrderInfo, Stage};
use crate::order::{bucket, OrderWeights};
use crate::pattern::RuleTables;
use crate::search::params::SearchParams;
use crate::types::{Color, Pos, Rule, NUM_CELLS};

/// Parameters: own combinations, opponent combinations, distance buckets; with scores
/// per colour, white's own and opponent combinations follow (`WHITE` on).
const PARAMS: usize = 2 * COMBOS + 16;
/// Where white's own scores start in a per-colour vector.
const WHITE: usize = PARAMS;

/// One position: its candidates' feature indices and the chosen one.
struct Sample {
    /// Per candidate: own combination, `COMBOS` + opponent combination, `2 * COMBOS` +
    /// distance bucket.
    cands: Vec<[u16; 3]>,
    target: usize,
}

/// The samples of one game: the moves of `player` (0 black, 1 white) after `opening`
/// (`colours` 2: white's combinations index white's own scores).
fn samples_of(
    moves: &[Pos],
    rule: Rule,
    size: usize,
    opening: usize,
    player: usize,
    colours: usize,
) -> Vec<Sample> {
    let Ok(mut b) = Board::new(size, size, rule) else {
        return Vec::new();
    };
    let p = SearchParams::default();
    let hist = [0i32; NUM_CELLS];
    let t = combo_of_index();
    let mut out = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if i >= opening.max(2) && i % 2 == player {
            let bbox = BBox::of_board(&b);
            let mut list = MoveList::default();
            let info = OrderInfo::plain(&hist, &p.order_own, &p.order_opp);
            if generate(&mut b, &bbox, &mut list, &info, 0) == Stage::All {
                let me = b.side_to_move();
                let base = if colours == 2 && me == Color::White {
                    WHITE as u16
                } else {
                    0
                };
                let (last, prev) = (moves[i - 1], moves[i - 2]);
                let cands: Vec<[u16; 3]> = list
                    .as_slice()
                    .iter()
                    .map(|s| {
                        [
                            base + t[b.value_index(s.pos, me)],
                            base + COMBOS as u16 + t[b.value_index(s.pos, me.opp())],
                            (2 * COMBOS + bucket(s.pos, last) * 4 + bucket(s.pos, prev)) as u16,
                        ]
                    })
                    .collect();
                if let Some(target) = list.as_slice().iter().position(|s| s.pos == m) {
                    out.push(Sample { cands, target });
                }
            }
        }
        b.make(m);
    }
    out
}

/// Softmax loss, top-3 and top-10 rates of `set` under `w` at temperature `temp`;
/// with `grad`, the loss gradient is added to it.
fn evaluate(set: &[Sample], w: &[f32], temp: f32, mut grad: Option<&mut [f32]>) -> (f32, f32, f32) {
    let (mut ce, mut top3, mut top10) = (0f32, 0usize, 0usize);
    let mut sc = Vec::new();
    for s in set {
        sc.clear();
        sc.extend(
            s.cands
                .iter()
                .map(|c| c.iter().map(|&k| w[usize::from(k)]).sum::<f32>()),
        );
        let mx = sc.iter().copied().fold(f32::MIN, f32::max);
        let z: f32 = sc.iter().map(|x| ((x - mx) / temp).exp()).sum();
        ce -= (sc[s.target] - mx) / temp - z.ln();
        let target = sc[s.target];
        // Ties rank by list order, as the generator's picking does by square.
        let above = sc
            .iter()
            .enumerate()
            .filter(|&(i, &x)| x > target || (x == target && i < s.target))
            .count();
        top3 += usize::from(above < 3);
        top10 += usize::from(above < 10);
        if let Some(g) = grad.as_deref_mut() {
            for (i, c) in s.cands.iter().enumerate() {
                let d =
                    (((sc[i] - mx) / temp).exp() / z - f32::from(u8::from(i == s.target))) / temp;
                for &k in c {
                    g[usize::from(k)] += d;
                }
            }
        }
    }
    let n = set.len().max(1) as f32;
    (ce / n, top3 as f32 / n, top10 as f32 / n)
}

/// The hand-set ordering as initial weights: each combination gets its class's weight
/// (for both colours alike).
fn initial(rule: Rule, colours: usize) -> Vec<f32> {
    let p = SearchParams::default();
    let rt = RuleTables::get(rule);
    let mut w = vec![0f32; PARAMS];
    for (k, codes) in combos().iter().enumerate() {
        let packed = codes
            .iter()
            .enumerate()
            .fold(0u32, |a, (d, &c)| a | u32::from(c) << (3 * d));
        let class = rt.combo(Color::Black.idx(), packed) as usize;
        w[k] = p.order_own[class] as f32;
        w[COMBOS + k] = p.order_opp[class] as f32;
    }
    split_colours(w, colours)
}

/// `w` with white's scores a copy of black's when `colours` is 2 and it has none.
fn split_colours(mut w: Vec<f32>, colours: usize) -> Vec<f32> {
    if colours == 2 && w.len() == PARAMS {
        w.extend_from_within(..2 * COMBOS);
    }
    w
}

/// The fitted vector as a weight file's scores, rounded.
fn file_of(rule: Rule, w: &[f32]) -> OrderWeights {
    let round =
        |r: std::ops::Range<usize>| -> Vec<i32> { w[r].iter().map(|x| x.round() as i32).collect() };
    OrderWeights {
        rule,
        own: round(0..COMBOS),
        opp: round(COMBOS..2 * COMBOS),
        near: std::array::from_fn(|i| w[2 * COMBOS + i].round() as i32),
        white: (w.len() > PARAMS).then(|| {
            (
                round(WHITE..WHITE + COMBOS),
                round(WHITE + COMBOS..WHITE + 2 * COMBOS),
            )
        }),
    }
}

/// A weight file's scores as the fitted vector (`own`, `opp`, `near`, then white's own
/// and opponent scores if the file has them), the inverse of the rounding that writes it.
fn weights_of(ow: &OrderWeights) -> Vec<f32> {
    let white = ow.white.iter().flat_map(|(o, p)| o.iter().chain(p));
    ow.own
        .iter()
        .chain(&ow.opp)
        .chain(&ow.near)
        .chain(white)
        .map(|&x| x as f32)
        .collect()
}

/// The players' names and the opening length of an arbiter `.sgf` record.
fn sgf_header(text: &str) -> Option<(String, String, usize)> {
    let tag = |t: &str| -> Option<String> {
        let at = text.find(&format!("{t}["))? + t.len() + 1;
        Some(text[at..].split(']').next()?.to_string())
    };
    let gc = tag("GC").unwrap_or_default();
    let stones = gc
        .rsplit_once('(')
        .and_then(|(_, r)| r.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    Some((tag("PB")?, tag("PW")?, stones))
}

/// `train-order --rule R --games DIR[,DIR…] --player NAME --out FILE [--epochs N]
/// [--lr X] [--init FILE] [--colours 1|2]` (`--init`: start from a weight file instead
/// of the hand-set ordering; with `--epochs 0` it reports that file's losses;
/// `--colours 2`: separate scores for white to move). Returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    let (mut rule, mut dirs, mut player, mut out) = (Rule::Freestyle, None, None, None);
    let (mut epochs, mut lr, mut init, mut colours) = (100usize, 50f32, None, 1usize);
    for pair in args.chunks(2) {
        let v = pair.get(1).cloned().unwrap_or_default();
        let ok = match pair[0].as_str() {
            "--rule" => Rule::parse(&v).map(|r| rule = r).is_some(),
            "--games" => {
                dirs = Some(v);
                true
            }
            "--player" => {
                player = Some(v);
                true
            }
            "--out" => {
                out = Some(v);
                true
            }
            "--epochs" => v.parse().map(|n| epochs = n).is_ok(),
            "--lr" => v.parse().map(|n| lr = n).is_ok(),
            "--init" => {
                init = Some(v);
                true
            }
            "--colours" => {
                matches!(v.as_str(), "1" | "2") && v.parse().map(|n| colours = n).is_ok()
            }
            _ => false,
        };
        if !ok {
            eprintln!("train-order: bad argument {}", pair.join(" "));
            return 2;
        }
    }
    let (Some(dirs), Some(player), Some(out)) = (dirs, player, out) else {
        eprintln!("train-order: --games DIR, --player NAME and --out FILE are required");
        return 2;
    };
    let (mut train, mut val) = (Vec::new(), Vec::new());
    let mut games = 0usize;
    for dir in dirs.split(',') {
        let Ok(entries) = std::fs::read_dir(dir) else {
            eprintln!("train-order: cannot read {dir}");
            return 1;
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "psq"))
            .collect();
        paths.sort();
        for path in paths {
            let (Ok(psq), Ok(sgf)) = (
                std::fs::read_to_string(&path),
                std::fs::read_to_string(path.with_extension("sgf")),
            ) else {
                continue;
            };
            let Some((pb, pw, stones)) = sgf_header(&sgf) else {
                continue;
            };
            let side = if pb == player {
                0
            } else if pw == player {
                1
            } else {
                continue;
            };
            let Some(g) = game_from_psq(&psq, rule, stones) else {
                continue;
            };
            if g.width != g.height {
                continue;
            }
            games += 1;
            let s = samples_of(&g.moves, rule, g.width, stones, side, colours);
            if games.is_multiple_of(10) {
                val.extend(s);
            } else {
                train.extend(s);
            }
        }
    }
    if train.is_empty() || val.is_empty() {
        eprintln!("train-order: no positions of {player} found in {dirs}");
        return 1;
    }
    let mut w = match &init {
        None => initial(rule, colours),
        Some(path) => {
            let parsed = std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|t| OrderWeights::parse(&t));
            match parsed {
                Ok(ow) if ow.rule == rule && (colours == 2 || ow.white.is_none()) => {
                    split_colours(weights_of(&ow), colours)
                }
                Ok(ow) if ow.rule == rule => {
                    eprintln!("train-order: {path} has scores per colour: add --colours 2");
                    return 1;
                }
                Ok(ow) => {
                    eprintln!("train-order: {path} is for {}", ow.rule.name());
                    return 1;
                }
                Err(e) => {
                    eprintln!("train-order: {path}: {e}");
                    return 1;
                }
            }
        }
    };
    // The temperature at which the hand-set ordering fits best (a scan).
    let mut temp = (10.0f32, f32::INFINITY);
    let mut t = 10.0f32;
    while t < 100_000.0 {
        let ce = evaluate(&train, &w, t, None).0;
        if ce < temp.1 {
            temp = (t, ce);
        }
        t *= 1.2;
    }
    let temp = temp.0;
    let line = |tag: &str, w: &[f32]| {
        let (tc, t3, t10) = evaluate(&train, w, temp, None);
        let (vc, v3, v10) = evaluate(&val, w, temp, None);
        eprintln!(
            "{tag}: training loss {tc:.4} (top 3 {:.1} %, top 10 {:.1} %), validation loss {vc:.4} \
             (top 3 {:.1} %, top 10 {:.1} %)",
            100.0 * t3,
            100.0 * t10,
            100.0 * v3,
            100.0 * v10
        );
    };
    eprintln!(
        "train-order: {games} games, {} training and {} validation positions of {player}; \
         temperature {temp:.0}",
        train.len(),
        val.len()
    );
    line(
        if init.is_some() {
            "initial ordering"
        } else {
            "hand-set ordering"
        },
        &w,
    );
    let n_params = w.len();
    let (mut m, mut v) = (vec![0f32; n_params], vec![0f32; n_params]);
    let mut g = vec![0f32; n_params];
    for epoch in 1..=epochs {
        g.fill(0.0);
        evaluate(&train, &w, temp, Some(&mut g));
        let n = train.len() as f32;
        for i in 0..n_params {
            let gi = g[i] / n;
            m[i] = 0.9 * m[i] + 0.1 * gi;
            v[i] = 0.999 * v[i] + 0.001 * gi * gi;
            let mh = m[i] / (1.0 - 0.9f32.powi(epoch as i32));
            let vh = v[i] / (1.0 - 0.999f32.powi(epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        // No pattern at all is not a candidate's combination: keep it at 0.
        w[0] = 0.0;
        w[COMBOS] = 0.0;
        if colours == 2 {
            w[WHITE] = 0.0;
            w[WHITE + COMBOS] = 0.0;
        }
        if epoch % 25 == 0 || epoch == epochs {
            line(&format!("epoch {epoch}"), &w);
        }
    }
    let weights = file_of(rule, &w);
    let text = format!(
        "# Learned move-ordering scores (src/order.rs): pbrain-sente train-order, {games} games \
         of {player}, {} positions.\n{}",
        train.len() + val.len(),
        weights.to_text()
    );
    if let Err(e) = std::fs::write(&out, text) {
        eprintln!("train-order: {out}: {e}");
        return 1;
    }
    eprintln!("train-order: wrote {out}");
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sgf_header_gives_the_players_and_the_opening_length() {
        let sgf = "(;GM[4]FF[4]SZ[15]RU[freestyle]PB[rapfi]PW[sente]RE[B+]GN[game 2]\
                   GC[opening freestyle15.txt:2 (5 stones)]C[five];B[ii])";
        assert_eq!(
            sgf_header(sgf),
            Some(("rapfi".to_string(), "sente".to_string(), 5))
        );
    }

    /// A game whose white player always answers next to the last move.
    fn answers_next_to_the_last_move() -> Vec<Pos> {
        [
            (7, 7),
            (8, 8),
            (7, 9),
            (6, 8),
            (9, 7),
            (9, 9),
            (5, 7),
            (5, 6),
            (10, 10),
            (11, 11),
            (4, 4),
            (4, 3),
            (11, 4),
            (12, 4),
            (3, 11),
            (3, 12),
        ]
        .iter()
        .map(|&(x, y)| Pos::new(x, y))
        .collect()
    }

    #[test]
    fn fitting_raises_the_probability_of_the_chosen_moves() {
        // The distance term must learn that the player answers next to the last move,
        // and the loss must fall.
        let moves = answers_next_to_the_last_move();
        let set = samples_of(&moves, Rule::Freestyle, 15, 2, 1, 1);
        assert!(set.len() >= 4, "{} samples", set.len());
        let mut w = initial(Rule::Freestyle, 1);
        let before = evaluate(&set, &w, 500.0, None).0;
        for _ in 0..50 {
            let mut g = vec![0f32; PARAMS];
            evaluate(&set, &w, 500.0, Some(&mut g));
            for (x, d) in w.iter_mut().zip(&g) {
                *x -= 2000.0 * d / set.len() as f32;
            }
        }
        let after = evaluate(&set, &w, 500.0, None).0;
        assert!(after < before, "loss {before} -> {after}");
    }

    #[test]
    fn a_weight_file_given_as_init_is_the_vector_that_writes_it_back() {
        let text = include_str!("../order_weights.txt");
        let ow = OrderWeights::parse(text).expect("the shipped table parses");
        let w = weights_of(&ow);
        assert_eq!(w.len(), PARAMS);
        assert_eq!(file_of(ow.rule, &w).to_text(), ow.to_text());
        // The parts keep their places: the shipped own and opponent scores differ.
        let swapped: Vec<f32> = w[COMBOS..2 * COMBOS]
            .iter()
            .chain(&w[..COMBOS])
            .chain(&w[2 * COMBOS..])
            .copied()
            .collect();
        assert_ne!(file_of(ow.rule, &swapped).to_text(), ow.to_text());
    }

    #[test]
    fn with_two_colours_white_moves_read_and_train_only_white_scores() {
        let moves = &answers_next_to_the_last_move()[..8];
        let white = samples_of(moves, Rule::Renju, 15, 2, 1, 2);
        let black = samples_of(moves, Rule::Renju, 15, 2, 0, 2);
        assert!(!white.is_empty() && !black.is_empty());
        let parts = |set: &[Sample]| -> Vec<usize> {
            set.iter()
                .flat_map(|s| s.cands.iter().flat_map(|c| [c[0], c[1]]))
                .map(|k| usize::from(k) / WHITE)
                .collect()
        };
        assert!(parts(&white).iter().all(|&p| p == 1));
        assert!(parts(&black).iter().all(|&p| p == 0));
        let w = initial(Rule::Renju, 2);
        assert_eq!(w.len(), PARAMS + 2 * COMBOS);
        assert_eq!(w[WHITE..], w[..2 * COMBOS]);
        let mut g = vec![0f32; w.len()];
        evaluate(&white, &w, 500.0, Some(&mut g));
        assert!(g[..2 * COMBOS].iter().all(|&x| x == 0.0));
        assert!(g[WHITE..].iter().any(|&x| x != 0.0));
        let ow = file_of(Rule::Renju, &w);
        assert!(ow.white.is_some());
        assert_eq!(weights_of(&ow), w);
    }
}
