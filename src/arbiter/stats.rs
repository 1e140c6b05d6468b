//! Match statistics: Elo difference with a 95 % interval, likelihood of superiority, and a
//! generalised SPRT (GSPRT) on the logistic Elo scale with a trinomial (per game) or
//! pentanomial (per game pair) model.
//!
//! All figures are from the first engine's point of view.

/// Two-sided 95 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Complementary error function, Numerical Recipes' Chebyshev fit (`erfcc`), relative error
/// below 1.2e-7 everywhere: enough for percentages printed with one decimal.
#[must_use]
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let ans = t * poly.exp();
    if x >= 0.0 {
        ans
    } else {
        2.0 - ans
    }
}

/// Error function, from [`erfc`].
#[must_use]
pub fn erf(x: f64) -> f64 {
    1.0 - erfc(x)
}

/// Expected score of a player `elo` points stronger (logistic model).
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference that gives expected score `score` (logistic model); ±infinity at 1 and 0.
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

// Win/loss/draw counts of the first engine, with the derived estimates. Exists so that the
// runner, the tests and the final report all compute the figures the same way.
/// Game results of engine 1 against engine 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Games engine 1 won.
    pub wins: u32,
    /// Games engine 1 lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

// The Elo estimate and its 95 % confidence interval, as the final report prints it.
/// Elo difference with its 95 % interval (the interval is not symmetric in Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval: the "±" figure.
    #[must_use]
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

impl Wld {
    /// Number of games.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game (win 1, draw ½), 0.5 when no game was played.
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Per-game variance of the score.
    #[must_use]
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / f64::from(n)
    }

    /// Elo difference with the 95 % interval from the normal approximation of the mean score.
    #[must_use]
    pub fn elo(&self) -> EloEstimate {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let se = (self.variance() / n).sqrt();
        EloEstimate {
            elo: elo_from_score(s),
            lower: elo_from_score(s - Z95 * se),
            upper: elo_from_score(s + Z95 * se),
        }
    }

    /// Likelihood of superiority: the probability that engine 1 is the stronger, from wins
    /// and losses only (draws carry no information about who is stronger).
    #[must_use]
    pub fn los(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if self.wins == self.losses {
            return 0.5;
        }
        let d = f64::from(self.wins) - f64::from(self.losses);
        0.5 * (1.0 + erf(d / (2.0 * decisive).sqrt()))
    }
}

/// Score of a game pair (two games on one opening with colours swapped), in half points:
/// index 0 = both lost … 4 = both won. The pentanomial model counts pairs by this score.
pub type Penta = [u32; 5];

/// Elo difference with its 95 % interval from game pairs: the mean pair score (0, ¼, ½, ¾, 1)
/// and its per-pair variance. Narrower than [`Wld::elo`] when the opening decides much of a
/// game, because the two games of a pair are not independent. `None` without pairs.
#[must_use]
pub fn penta_elo(penta: &Penta) -> Option<EloEstimate> {
    let n: f64 = penta.iter().map(|&c| f64::from(c)).sum();
    if n == 0.0 {
        return None;
    }
    let value = |i: usize| i as f64 / 4.0;
    let mean = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| value(i) * f64::from(c))
        .sum::<f64>()
        / n;
    let var = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| f64::from(c) * (value(i) - mean).powi(2))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mean),
        lower: elo_from_score(mean - Z95 * se),
        upper: elo_from_score(mean + Z95 * se),
    })
}

// The parameters of a sequential probability ratio test. Exists so the CLI can parse
// `--sprt elo0,elo1,alpha,beta` once and the runner can ask "decided yet?" after every game.
/// A GSPRT of H0: elo = elo0 against H1: elo = elo1 (logistic Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// What an SPRT concludes at a given LLR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// LLR at or below the lower bound: H0 (elo ≤ elo0) accepted.
    H0,
    /// LLR at or above the upper bound: H1 (elo ≥ elo1) accepted.
    H1,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Parse `elo0,elo1,alpha,beta`.
    pub fn parse(s: &str) -> anyhow::Result<Sprt> {
        let v: Vec<f64> = s
            .split(',')
            .map(|t| t.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("--sprt expects elo0,elo1,alpha,beta: {e}"))?;
        if v.len() != 4 {
            anyhow::bail!(
                "--sprt expects 4 numbers elo0,elo1,alpha,beta, got {}",
                v.len()
            );
        }
        let sprt = Sprt {
            elo0: v[0],
            elo1: v[1],
            alpha: v[2],
            beta: v[3],
        };
        if sprt.elo0 >= sprt.elo1 || sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            anyhow::bail!("--sprt needs elo0 < elo1");
        }
        if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
            anyhow::bail!("--sprt needs 0 < alpha, beta < 0.5");
        }
        Ok(sprt)
    }

    /// Lower LLR bound, ln(β / (1 − α)).
    #[must_use]
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper LLR bound, ln((1 − β) / α).
    #[must_use]
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Decision for a log-likelihood ratio.
    #[must_use]
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::H1
        } else if llr <= self.lower_bound() {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }

    /// GSPRT log-likelihood ratio from samples: `values[i]` is an outcome's score (0..1) and
    /// `counts[i]` how often it occurred. With N samples of mean s̄ and variance σ², the
    /// normal approximation gives LLR = N (s1 − s0)(2 s̄ − s0 − s1) / (2 σ²), s0/s1 the
    /// expected scores at elo0/elo1. A zero variance (e.g. only wins) is regularised by giving
    /// every empty outcome a count of 0.001, so that such runs still end.
    fn llr_from(&self, values: &[f64], counts: &[f64]) -> f64 {
        let moments = |counts: &[f64]| {
            let n: f64 = counts.iter().sum();
            let mean = values.iter().zip(counts).map(|(v, c)| v * c).sum::<f64>() / n;
            let var = values
                .iter()
                .zip(counts)
                .map(|(v, c)| c * (v - mean).powi(2))
                .sum::<f64>()
                / n;
            (n, mean, var)
        };
        let n: f64 = counts.iter().sum();
        if n == 0.0 {
            return 0.0;
        }
        let (mut n, mut mean, mut var) = moments(counts);
        if var <= 1e-12 {
            let reg: Vec<f64> = counts
                .iter()
                .map(|&c| if c == 0.0 { 1e-3 } else { c })
                .collect();
            (n, mean, var) = moments(&reg);
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR with the trinomial model (independent games: loss, draw, win).
    #[must_use]
    pub fn llr_trinomial(&self, wld: &Wld) -> f64 {
        let counts = [
            f64::from(wld.losses),
            f64::from(wld.draws),
            f64::from(wld.wins),
        ];
        self.llr_from(&[0.0, 0.5, 1.0], &counts)
    }

    /// LLR with the pentanomial model (game pairs on the same opening, pair score 0..1 in
    /// quarter steps), which accounts for the correlation inside a pair.
    #[must_use]
    pub fn llr_pentanomial(&self, penta: &Penta) -> f64 {
        let counts: Vec<f64> = penta.iter().map(|&c| f64::from(c)).collect();
        self.llr_from(&[0.0, 0.25, 0.5, 0.75, 1.0], &counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz & Stegun table 7.1.
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(2.0), 0.995_322_265_0, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_792_9, 2e-7));
    }

    #[test]
    fn elo_of_sixty_percent_is_seventy_point_four() {
        // -400 log10(1/0.6 - 1) = -400 log10(2/3) = 70.4365...
        assert!(close(elo_from_score(0.6), 70.436_5, 1e-3));
        assert!(close(score_from_elo(70.436_5), 0.6, 1e-6));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(elo_from_score(1.0).is_infinite());
    }

    #[test]
    fn elo_interval_uses_per_game_variance() {
        // 30 wins, 20 losses, 50 draws: s = 0.55, variance = 0.1225 (sd 0.35), se = 0.035,
        // s ± 1.96 se = 0.481401 .. 0.618599 -> Elo 34.860 in [-12.930, 84.011].
        let w = Wld {
            wins: 30,
            losses: 20,
            draws: 50,
        };
        assert!(close(w.score(), 0.55, 1e-12));
        assert!(close(w.variance(), 0.1225, 1e-12));
        let e = w.elo();
        assert!(close(e.elo, 34.860_4, 1e-3), "{e:?}");
        assert!(close(e.lower, -12.929_0, 2e-3), "{e:?}");
        assert!(close(e.upper, 84.010_8, 2e-3), "{e:?}");
    }

    #[test]
    fn pair_elo_uses_pair_scores() {
        // Pairs 2, 10, 20, 14, 4 (N = 50): mean 0.54, variance 0.0584, se = 0.034176;
        // mean ± 1.96 se = 0.473016 .. 0.606984 -> Elo 27.854 in [-18.768, 75.507].
        let e = penta_elo(&[2, 10, 20, 14, 4]).unwrap();
        assert!(close(e.elo, 27.854_4, 1e-3), "{e:?}");
        assert!(close(e.lower, -18.768_5, 2e-3), "{e:?}");
        assert!(close(e.upper, 75.506_6, 2e-3), "{e:?}");
        assert_eq!(penta_elo(&[0; 5]), None);
    }

    #[test]
    fn los_is_normal_cdf_of_win_loss_difference() {
        // W=60, L=40: (W-L)/sqrt(2(W+L)) = 20/sqrt(200) = sqrt(2),
        // LOS = 0.5 (1 + erf(sqrt 2)) = Phi(2) = 0.977250.
        let w = Wld {
            wins: 60,
            losses: 40,
            draws: 7,
        };
        assert!(close(w.los(), 0.977_250, 1e-6));
        assert_eq!(
            Wld {
                wins: 5,
                losses: 5,
                draws: 0
            }
            .los(),
            0.5
        );
        assert_eq!(Wld::default().los(), 0.5);
    }

    #[test]
    fn sprt_bounds_follow_alpha_and_beta() {
        let s = Sprt::parse("0,10,0.05,0.05").unwrap();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439
        assert!(close(s.lower_bound(), -2.944_439, 1e-6));
        assert!(close(s.upper_bound(), 2.944_439, 1e-6));
        assert!(Sprt::parse("10,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,10,0.05").is_err());
    }

    #[test]
    fn trinomial_llr_matches_hand_computation() {
        // s0 = 0.5, s1 = 1/(1+10^-0.025) = 0.5143871841; W30 L20 D50: s = 0.55, var = 0.1225.
        // LLR = 100 * 0.0143871841 * (1.1 - 1.0143871841) / 0.245 = 0.502746
        let s = Sprt::parse("0,10,0.05,0.05").unwrap();
        let llr = s.llr_trinomial(&Wld {
            wins: 30,
            losses: 20,
            draws: 50,
        });
        assert!(close(llr, 0.502_746, 1e-5), "{llr}");
        assert_eq!(s.decide(llr), SprtDecision::Continue);
    }

    #[test]
    fn pentanomial_llr_matches_hand_computation() {
        // Pairs by score 0, .25, .5, .75, 1: counts 2, 10, 20, 14, 4 (N = 50).
        // mean = (2.5 + 10 + 10.5 + 4)/50 = 0.54; var = Σ c (v-mean)^2 / N = 0.0584
        // LLR = 50 * 0.0143871841 * (1.08 - 1.0143871841) / 0.1168 = 0.404103
        let s = Sprt::parse("0,10,0.05,0.05").unwrap();
        let llr = s.llr_pentanomial(&[2, 10, 20, 14, 4]);
        assert!(close(llr, 0.404_103, 1e-5), "{llr}");
    }

    #[test]
    fn sprt_accepts_h1_for_a_clearly_stronger_engine_and_h0_for_equal() {
        let s = Sprt::parse("0,20,0.05,0.05").unwrap();
        let strong = Wld {
            wins: 300,
            losses: 100,
            draws: 100,
        };
        assert_eq!(s.decide(s.llr_trinomial(&strong)), SprtDecision::H1);
        let equal = Wld {
            wins: 800,
            losses: 800,
            draws: 400,
        };
        assert_eq!(s.decide(s.llr_trinomial(&equal)), SprtDecision::H0);
        // Only wins: zero variance is regularised, the test still decides.
        let all = Wld {
            wins: 40,
            losses: 0,
            draws: 0,
        };
        assert_eq!(s.decide(s.llr_trinomial(&all)), SprtDecision::H1);
    }
}
