//! `pbrain-sente train-mlp`: fit the experimental network evaluation
//! ([`crate::eval::mlp`]) to labelled data (the values of [`super::label`], or any data
//! file's search values): the target of a position is sigmoid(value / `K_v`) with `K_v`
//! fitted to the game results as in [`super::train`], the loss the cross-entropy of
//! sigmoid(network output), minibatch Adam (batch 128, step 0.002) from a seeded random
//! start; every 10th game is held back and the network with the best validation loss
//! is written.

use super::datagen::{read_files, Game};
use super::label::{are_siblings, is_child};
use super::train::{cross_entropy, fit_scale, sigmoid};
use crate::board::Board;
use crate::eval::features::{combo_counts, combo_of_index, size_correction, threat_mask, COMBOS};
use crate::eval::mlp::{Forbid, INPUTS, MAX_HIDDEN};
use crate::pattern::Pattern4;
use crate::types::{Color, Rule};
use rand::{Rng, SeedableRng};

/// One position: sparse inputs and the target.
struct Sample {
    inputs: Vec<(u32, f32)>,
    target: f32,
    result: f32,
    /// The index of the first game of its group: the game itself, or for a child
    /// position of `label --children` the first child of the same parent.
    group: usize,
    /// A child position of `label --children`.
    child: bool,
    /// Black is to move.
    black: bool,
}

/// The samples of `games` of `rule`, renju black's forbidden-class cells read as `forbid`
/// says (as the evaluation reads them under `mlp_forbid`).
fn samples(games: &[Game], rule: Rule, forbid: Forbid) -> (Vec<Sample>, Vec<Sample>) {
    let (mut train, mut val) = (Vec::new(), Vec::new());
    let mut counts = [[0u16; COMBOS]; 2];
    // Every 10th game is held back; the siblings of a parent go together (every 10th
    // parent).
    let (mut group, mut parents, mut held) = (0, 0usize, false);
    let (mut geometry, mut correction) = ((0, 0), [[0; COMBOS]; 2]);
    for (gi, g) in games.iter().enumerate() {
        let child = is_child(g);
        let sibling = gi > 0 && are_siblings(&games[gi - 1], g);
        if !sibling {
            group = gi;
            held = if child {
                parents += 1;
                parents % 10 == 1
            } else {
                gi % 10 == 0
            };
        }
        if g.rule != rule || !g.has_values {
            continue;
        }
        let Ok(mut b) = Board::new(g.width, g.height, g.rule) else {
            continue;
        };
        // The counts as on a 15 × 15 board, as the evaluation reads them.
        if (g.width, g.height) != geometry {
            geometry = (g.width, g.height);
            correction = size_correction(g.width, g.height, g.rule);
        }
        for (i, &m) in g.moves.iter().enumerate() {
            if i >= g.opening {
                let me = b.side_to_move();
                let (mc, oc) = (b.counts(me), b.counts(me.opp()));
                // Decided by the counts: the search never evaluates these (as in `train`).
                let decided = mc[Pattern4::Five as usize] > 0
                    || mc[Pattern4::Flex4 as usize] > 0
                    || oc[Pattern4::Five as usize] > 0;
                if !decided {
                    combo_counts(&b, &mut counts);
                    if rule == Rule::Renju && !forbid.counts(me == Color::Black) {
                        drop_forbidden(&b, &mut counts[Color::Black.idx()]);
                    }
                    let mut inputs = Vec::new();
                    for (base, c) in [(0, me), (COMBOS, me.opp())] {
                        let d = &correction[c.idx()];
                        for (k, &n) in counts[c.idx()].iter().enumerate().skip(1) {
                            let n = i32::from(n) + d[k];
                            if n != 0 {
                                inputs.push(((base + k) as u32, n as f32 / 4.0));
                            }
                        }
                    }
                    inputs.push(((2 * COMBOS + threat_mask(&b, me)) as u32, 1.0));
                    let result = match g.result {
                        0 => 0.5,
                        r if (r == 1) == (me == Color::Black) => 1.0,
                        _ => 0.0,
                    };
                    let s = Sample {
                        inputs,
                        target: f32::from(g.values[i - g.opening]),
                        result,
                        group,
                        child,
                        black: me == Color::Black,
                    };
                    if held {
                        val.push(s);
                    } else {
                        train.push(s);
                    }
                }
            }
            b.make(m);
        }
    }
    (train, val)
}

/// Take renju black's forbidden-class cells out of black's combination counts.
fn drop_forbidden(b: &Board, black: &mut [u16; COMBOS]) {
    let t = combo_of_index();
    for p in b.all_squares() {
        if b.is_empty(p) && b.pattern4(p, Color::Black) == Pattern4::Forbid {
            let k = usize::from(t[b.value_index(p, Color::Black)]);
            black[k] -= 1;
        }
    }
}

/// The network's parameters, flat: input weights, hidden biases, output weights, bias.
struct Net {
    h: usize,
    p: Vec<f32>,
}

impl Net {
    fn forward(&self, s: &Sample, hid: &mut [f32; MAX_HIDDEN]) -> f32 {
        let h = self.h;
        hid[..h].copy_from_slice(&self.p[INPUTS * h..INPUTS * h + h]);
        for &(k, c) in &s.inputs {
            let row = &self.p[k as usize * h..(k as usize + 1) * h];
            for (a, w) in hid.iter_mut().zip(row) {
                *a += c * w;
            }
        }
        let w2 = &self.p[INPUTS * h + h..INPUTS * h + 2 * h];
        let mut out = self.p[INPUTS * h + 2 * h];
        for (a, w) in hid[..h].iter().zip(w2) {
            out += w * a.clamp(0.0, 1.0);
        }
        out
    }

    fn loss(&self, set: &[Sample]) -> f32 {
        self.errors(set).1
    }

    /// Over `set`: the number of samples, the mean loss, and the mean of the expected
    /// score less the target.
    fn errors<'a>(&self, set: impl IntoIterator<Item = &'a Sample>) -> (usize, f32, f32) {
        let mut hid = [0f32; MAX_HIDDEN];
        let (mut n, mut loss, mut error) = (0usize, 0f32, 0f32);
        for s in set {
            let y = sigmoid(self.forward(s, &mut hid));
            loss += cross_entropy(y, s.target);
            error += y - s.target;
            n += 1;
        }
        let d = n.max(1) as f32;
        (n, loss / d, error / d)
    }

    /// Over the groups of sibling child positions in `set` (in order), the mean loss of
    /// expected score, in points, of choosing the child the network values lowest (for
    /// the side to move after it) against the child the targets value lowest; and the
    /// same for the first child (the move ordering's first). `None` without groups.
    fn sibling_regret(&self, set: &[Sample]) -> Option<(f32, f32, usize)> {
        let mut hid = [0f32; MAX_HIDDEN];
        let (mut net_sum, mut first_sum, mut n) = (0f32, 0f32, 0usize);
        let mut i = 0;
        while i < set.len() {
            let mut j = i + 1;
            while j < set.len() && set[j].child && set[j].group == set[i].group {
                j += 1;
            }
            let g = &set[i..j];
            if g.len() >= 2 && g[0].child {
                let best = g.iter().map(|s| s.target).fold(f32::INFINITY, f32::min);
                let pick = g
                    .iter()
                    .map(|s| (self.forward(s, &mut hid), s.target))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .map_or(best, |(_, t)| t);
                net_sum += 100.0 * (pick - best);
                first_sum += 100.0 * (g[0].target - best);
                n += 1;
            }
            i = j;
        }
        (n > 0).then(|| (net_sum / n as f32, first_sum / n as f32, n))
    }

    /// The parameters of a network file.
    ///
    /// # Errors
    /// The file does not parse as a network.
    fn from_bytes(net: &[u8]) -> Result<Net, String> {
        crate::eval::mlp::Mlp::parse(net, "network")?;
        let h = u32::from_le_bytes(net[..4].try_into().expect("parsed")) as usize;
        let p = net[4..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        Ok(Net { h, p })
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = (self.h as u32).to_le_bytes().to_vec();
        for x in &self.p {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }
}

/// How to fit ([`fit`]).
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Hidden units.
    pub hidden: usize,
    /// Passes over the training part.
    pub epochs: usize,
    /// Seed of the random start and the shuffles.
    pub seed: u64,
    /// Adam's step size at the first epoch; it falls linearly to a tenth at the last.
    pub lr: f32,
    /// The value scale of the targets; `None`: fitted to the game results.
    pub kv: Option<f32>,
    /// A network file to start from (its hidden size replaces `hidden`); `None`: a
    /// random start.
    pub init: Option<Vec<u8>>,
    /// How renju black's forbidden-class cells are read (the evaluation's `mlp_forbid`).
    pub forbid: Forbid,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            hidden: 32,
            epochs: 12,
            seed: 1,
            lr: 0.002,
            kv: None,
            init: None,
            forbid: Forbid::Off,
        }
    }
}

/// The training and validation parts of `games` with their targets (sigmoid of the
/// value over `K_v`), and `K_v`; `None` without usable data.
fn prepared(
    games: &[Game],
    rule: Rule,
    kv: Option<f32>,
    forbid: Forbid,
    report: &mut dyn FnMut(&str),
) -> Option<(Vec<Sample>, Vec<Sample>)> {
    let (mut train, mut val) = samples(games, rule, forbid);
    if train.is_empty() || val.is_empty() {
        return None;
    }
    // K_v: the scale at which the values predict the results best.
    let kv = kv.unwrap_or_else(|| {
        let values: Vec<f32> = train.iter().map(|s| s.target).collect();
        let results: Vec<f32> = train.iter().map(|s| s.result).collect();
        fit_scale(&values, &results).0
    });
    for s in train.iter_mut().chain(val.iter_mut()) {
        s.target = sigmoid(s.target / kv);
    }
    report(&format!(
        "  {} training and {} validation positions, K_v {kv:.0}",
        train.len(),
        val.len(),
    ));
    Some((train, val))
}

/// The validation loss of the network file `net` on `games` (targets as [`fit`]
/// makes them), or `None` without usable data.
///
/// # Errors
/// The network file does not parse.
pub fn check(
    games: &[Game],
    rule: Rule,
    net: &[u8],
    kv: Option<f32>,
    forbid: Forbid,
    report: &mut dyn FnMut(&str),
) -> Result<Option<f32>, String> {
    let net = Net::from_bytes(net)?;
    Ok(prepared(games, rule, kv, forbid, report).map(|(tr, val)| {
        report_regret(&net, &val, report);
        report_colours(&net, "training", &tr, report);
        report_colours(&net, "validation", &val, report);
        net.loss(&val)
    }))
}

/// Report, per side to move, the loss on the `part` `set` and the mean of the network's
/// expected score less the target's (positive: the network rates the side to move too
/// well).
fn report_colours(net: &Net, part: &str, set: &[Sample], report: &mut dyn FnMut(&str)) {
    for (name, black) in [("black", true), ("white", false)] {
        let (n, loss, error) = net.errors(set.iter().filter(|s| s.black == black));
        if n > 0 {
            report(&format!(
                "  {part}, {name} to move: {n} positions, loss {loss:.5}, mean score error {:+.2} points",
                100.0 * error
            ));
        }
    }
}

/// Report [`Net::sibling_regret`] on `val` when it holds sibling groups.
fn report_regret(net: &Net, val: &[Sample], report: &mut dyn FnMut(&str)) {
    if let Some((net_r, first_r, n)) = net.sibling_regret(val) {
        report(&format!(
            "  sibling choice over {n} held-back parents: the network's pick loses \
             {net_r:.2} points against the best child, the ordering's first {first_r:.2}"
        ));
    }
}

/// Fit a network as `cfg` says; `report` gets a line per epoch. Returns the file bytes
/// of the best network on the validation part and its loss, or `None` without usable
/// data.
///
/// # Errors
/// `cfg.init` does not parse as a network.
pub fn fit(
    games: &[Game],
    rule: Rule,
    cfg: &FitConfig,
    report: &mut dyn FnMut(&str),
) -> Result<Option<(Vec<u8>, f32)>, String> {
    let start = cfg.init.as_deref().map(Net::from_bytes).transpose()?;
    let Some((train, val)) = prepared(games, rule, cfg.kv, cfg.forbid, report) else {
        return Ok(None);
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(cfg.seed);
    let mut net = start.unwrap_or_else(|| {
        let h = cfg.hidden.clamp(1, MAX_HIDDEN);
        let n = INPUTS * h + 2 * h + 1;
        Net {
            h,
            p: (0..n)
                .map(|i| {
                    if (INPUTS * h..INPUTS * h + h).contains(&i) || i == n - 1 {
                        0.0
                    } else {
                        rng.gen_range(-0.1..0.1)
                    }
                })
                .collect(),
        }
    });
    let (h, epochs, n) = (net.h, cfg.epochs, net.p.len());
    let initial = net.loss(&val);
    report(&format!("  initial validation loss {initial:.5}"));
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut hid = [0f32; MAX_HIDDEN];
    // A given start is kept unless an epoch beats it.
    let mut best = cfg.init.is_some().then(|| (net.to_bytes(), initial));
    let mut step = 0i32;
    for epoch in 1..=epochs {
        let lr = cfg.lr * (1.0 - 0.9 * (epoch - 1) as f32 / (epochs.max(2) - 1) as f32);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.gen_range(0..=i));
        }
        for batch in order.chunks(128) {
            let mut g = vec![0f32; n];
            for &i in batch {
                let s = &train[i];
                let out = net.forward(s, &mut hid);
                let d = sigmoid(out) - s.target;
                g[n - 1] += d;
                for j in 0..h {
                    g[INPUTS * h + h + j] += d * hid[j].clamp(0.0, 1.0);
                    if hid[j] > 0.0 && hid[j] < 1.0 {
                        let dh = d * net.p[INPUTS * h + h + j];
                        g[INPUTS * h + j] += dh;
                        for &(k, c) in &s.inputs {
                            g[k as usize * h + j] += dh * c;
                        }
                    }
                }
            }
            step += 1;
            let bs = batch.len() as f32;
            for (k, gk) in g.iter().enumerate() {
                if *gk == 0.0 && m[k] == 0.0 {
                    continue;
                }
                let gk = gk / bs;
                m[k] = 0.9 * m[k] + 0.1 * gk;
                v[k] = 0.999 * v[k] + 0.001 * gk * gk;
                let mh = m[k] / (1.0 - 0.9f32.powi(step));
                let vh = v[k] / (1.0 - 0.999f32.powi(step));
                net.p[k] -= lr * mh / (vh.sqrt() + 1e-8);
            }
        }
        let (tl, vl) = (net.loss(&train), net.loss(&val));
        report(&format!(
            "  epoch {epoch}: training loss {tl:.5}, validation loss {vl:.5}"
        ));
        if best.as_ref().is_none_or(|b| vl < b.1) {
            best = Some((net.to_bytes(), vl));
            report_regret(&net, &val, report);
        }
    }
    Ok(best)
}

/// `train-mlp --data FILE[,FILE…] (--out FILE | --check NET) [--rule R] [--hidden H]
/// [--epochs N] [--seed S] [--lr X] [--kv K] [--init NET] [--forbid off|own|both]`
/// (`--init`: start from that network, e.g. one trained on another rule, instead of a
/// random one; `--forbid`: renju black's forbidden-class cells read as under the
/// evaluation's `mlp_forbid`, to train a network for that reading). Returns the exit
/// code.
pub fn cli(args: &[String]) -> i32 {
    let (mut data, mut out, mut rule) = (None, None, Rule::Freestyle);
    let mut cfg = FitConfig::default();
    let mut check_net = None;
    for pair in args.chunks(2) {
        let v = pair.get(1).cloned().unwrap_or_default();
        let ok = match pair[0].as_str() {
            "--data" => {
                data = Some(v);
                true
            }
            "--out" => {
                out = Some(v);
                true
            }
            "--rule" => Rule::parse(&v).map(|r| rule = r).is_some(),
            "--hidden" => v.parse().map(|n| cfg.hidden = n).is_ok(),
            "--epochs" => v.parse().map(|n| cfg.epochs = n).is_ok(),
            "--seed" => v.parse().map(|n| cfg.seed = n).is_ok(),
            "--lr" => v.parse().map(|x| cfg.lr = x).is_ok(),
            "--kv" => v.parse().map(|x| cfg.kv = Some(x)).is_ok(),
            "--forbid" => Forbid::parse(&v).map(|f| cfg.forbid = f).is_some(),
            "--check" => {
                check_net = Some(v);
                true
            }
            "--init" => match std::fs::read(&v) {
                Ok(b) => {
                    cfg.init = Some(b);
                    true
                }
                Err(e) => {
                    eprintln!("train-mlp: {v}: {e}");
                    return 1;
                }
            },
            _ => false,
        };
        if !ok {
            eprintln!("train-mlp: bad argument {}", pair.join(" "));
            return 2;
        }
    }
    let Some(data) = data else {
        eprintln!("train-mlp: --data FILE is required");
        return 2;
    };
    let games = match read_files(&data) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("train-mlp: {e}");
            return 1;
        }
    };
    if let Some(net) = check_net {
        let checked = std::fs::read(&net)
            .map_err(|e| e.to_string())
            .and_then(|b| {
                check(&games, rule, &b, cfg.kv, cfg.forbid, &mut |l| {
                    eprintln!("{l}");
                })
            });
        return match checked {
            Ok(Some(loss)) => {
                println!("{net}: validation loss {loss:.5}");
                0
            }
            Ok(None) => {
                eprintln!("train-mlp: no labelled {} positions in {data}", rule.name());
                1
            }
            Err(e) => {
                eprintln!("train-mlp: {net}: {e}");
                1
            }
        };
    }
    let Some(out) = out else {
        eprintln!("train-mlp: --out FILE (or --check NET) is required");
        return 2;
    };
    let (bytes, loss) = match fit(&games, rule, &cfg, &mut |l| eprintln!("{l}")) {
        Ok(Some(fitted)) => fitted,
        Ok(None) => {
            eprintln!("train-mlp: no labelled {} positions in {data}", rule.name());
            return 1;
        }
        Err(e) => {
            eprintln!("train-mlp: --init: {e}");
            return 1;
        }
    };
    if let Err(e) = std::fs::write(&out, bytes) {
        eprintln!("train-mlp: {out}: {e}");
        return 1;
    }
    eprintln!("train-mlp: best validation loss {loss:.5}, wrote {out}");
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::datagen::{parse_games, run, DatagenConfig};
    use crate::search::params::SearchParams;

    #[test]
    fn renju_blacks_forbidden_cells_leave_the_samples_the_reading_names() {
        use crate::eval::features::{double_three_combo, DOUBLE_THREE_MOVES};
        use crate::types::Pos;
        // Black's two open twos cross at 7,7 (a double three, forbidden to black); the
        // positions before the 8th and the 9th move are sampled (white, then black to
        // move). The only double-three cell is 7,7: its count is 1, its input 1/4.
        let game = Game {
            rule: Rule::Renju,
            width: 15,
            height: 15,
            opening: 7,
            moves: DOUBLE_THREE_MOVES
                .iter()
                .map(|&(x, y)| Pos::new(x, y))
                .collect(),
            result: 0,
            values: vec![0, 0],
            has_values: true,
        };
        let k = double_three_combo() as u32;
        let input = |s: &Sample, i: u32| s.inputs.iter().find(|x| x.0 == i).map_or(0.0, |x| x.1);
        // (white to move: black's cell as the opponent's, black to move: as its own)
        let read = |forbid| {
            let (train, val) = samples(std::slice::from_ref(&game), Rule::Renju, forbid);
            assert!(train.is_empty(), "the first game is held back");
            assert_eq!(val.len(), 2);
            (input(&val[0], COMBOS as u32 + k), input(&val[1], k))
        };
        assert_eq!(read(Forbid::Off), (0.25, 0.25));
        assert_eq!(read(Forbid::Own), (0.25, 0.0));
        assert_eq!(read(Forbid::Both), (0.0, 0.0));
    }

    #[test]
    fn siblings_are_held_back_together_and_their_choice_is_scored() {
        use crate::types::Pos;
        // 20 parents (a stone each side, then a third at x = 0..20 of row 1 or 3),
        // three children each; the first child is the worst by its label.
        let mut games = Vec::new();
        for p in 0..20usize {
            let parent = [
                Pos::new(7, 7),
                Pos::new(8, 8),
                Pos::new(p % 10, 1 + 2 * (p / 10)),
            ];
            for (c, value) in [(0usize, 300i16), (1, -200), (2, 100)] {
                let mut moves = parent.to_vec();
                moves.push(Pos::new(12, 10 + c));
                moves.push(Pos::new(14, 14));
                games.push(Game {
                    rule: Rule::Freestyle,
                    width: 15,
                    height: 15,
                    opening: 4,
                    moves,
                    result: 0,
                    values: vec![value],
                    has_values: true,
                });
            }
        }
        let (train, val) = samples(&games, Rule::Freestyle, Forbid::Off);
        assert_eq!(
            (train.len(), val.len()),
            (54, 6),
            "2 of 20 parents held back"
        );
        assert!(val.iter().all(|s| s.child));
        assert!(train.iter().all(|v| val.iter().all(|s| s.group != v.group)));
        // A network that ignores its inputs picks the first child of each group; the
        // targets are the raw values here (not yet scaled), the best child's -200.
        let net = Net {
            h: 1,
            p: vec![0.0; INPUTS + 3],
        };
        let (picked, first, n) = net.sibling_regret(&val).expect("groups");
        assert_eq!(n, 2);
        assert!((picked - 100.0 * 500.0).abs() < 1e-3 && (first - picked).abs() < 1e-3);
    }

    #[test]
    fn training_lowers_the_validation_loss_and_writes_a_loadable_network() {
        let cfg = DatagenConfig {
            rule: Rule::Freestyle,
            size: 15,
            games: 60,
            nodes: 300,
            seed: 5,
            threads: 2,
            params: SearchParams::default(),
            random_plies: 6,
            anywhere: 0,
        };
        let mut bytes = Vec::new();
        run(&cfg, &mut bytes, &mut |_| {}).expect("datagen");
        let games = parse_games(&bytes).expect("records");
        let mut losses = Vec::new();
        let fc = FitConfig {
            hidden: 4,
            epochs: 6,
            seed: 3,
            ..FitConfig::default()
        };
        let (net, best) = fit(&games, Rule::Freestyle, &fc, &mut |l| {
            if let Some(v) = l.split("validation loss ").nth(1) {
                losses.push(v.trim().parse::<f32>().expect("loss"));
            }
        })
        .expect("no --init to parse")
        .expect("data");
        // The initial (random) network's loss, then one per epoch.
        assert_eq!(losses.len(), 7);
        assert!(best < losses[0], "no better than the start: {losses:?}");
        let m = crate::eval::mlp::Mlp::parse(&net, "test").expect("loadable");
        assert_eq!(m.source, "test");
        // Checking the written network on the same data gives the loss it was kept for,
        // and per side to move the validation positions and losses that make it up.
        let mut lines = Vec::new();
        let checked = check(&games, Rule::Freestyle, &net, None, Forbid::Off, &mut |l| {
            lines.push(l.to_string())
        })
        .expect("parses")
        .expect("data");
        assert!((checked - best).abs() < 1e-4, "{checked} vs {best}");
        let number = |l: &str, after: &str| -> f32 {
            let rest = l.split(after).nth(1).expect("field");
            rest.split([' ', ','])
                .next()
                .unwrap()
                .parse()
                .expect("number")
        };
        let total = lines
            .iter()
            .find_map(|l| {
                l.contains("validation positions")
                    .then(|| number(l, "and "))
            })
            .expect("sizes reported");
        let colours: Vec<(f32, f32)> = lines
            .iter()
            .filter(|l| l.contains("validation, "))
            .map(|l| (number(l, "to move: "), number(l, "loss ")))
            .collect();
        assert_eq!(colours.len(), 2, "{lines:?}");
        assert_eq!(colours[0].0 + colours[1].0, total);
        let mean = colours.iter().map(|(n, l)| n * l).sum::<f32>() / total;
        assert!((mean - checked).abs() < 1e-3, "{mean} vs {checked}");
        assert!(check(
            &games,
            Rule::Freestyle,
            &net[..10],
            None,
            Forbid::Off,
            &mut |_| {}
        )
        .is_err());

        // Training from that network (`--init`) starts at its loss, keeps its hidden
        // size whatever `hidden` says, and never keeps a worse network than the start.
        let mut first = None;
        let again = FitConfig {
            hidden: 8,
            epochs: 2,
            init: Some(net.clone()),
            ..fc.clone()
        };
        let (net2, best2) = fit(&games, Rule::Freestyle, &again, &mut |l| {
            if let Some(v) = l.split("initial validation loss ").nth(1) {
                first = Some(v.trim().parse::<f32>().expect("loss"));
            }
        })
        .expect("parses")
        .expect("data");
        let first = first.expect("initial loss reported");
        assert!((first - best).abs() < 1e-4, "{first} vs {best}");
        assert_eq!(net2[..4], net[..4], "hidden size of the start");
        assert!(best2 <= first + 1e-6, "{best2} vs {first}");
        let broken = FitConfig {
            init: Some(net[..10].to_vec()),
            ..fc
        };
        assert!(fit(&games, Rule::Freestyle, &broken, &mut |_| {}).is_err());
    }
}
