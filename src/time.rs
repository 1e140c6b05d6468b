//! Clock settings from the protocol and the time budget of one search.
//!
//! Pure functions: no global clock is read here except through the `start` instant the
//! caller passes in (the receipt time of the command line), so every rule is unit-tested
//! with a table.
//!
//! # Budget rules (all in milliseconds)
//!
//! * `turn` = `timeout_turn`; when it was never sent, it is unlimited if the match time is
//!   limited and [`DEFAULT_TURN_MS`] otherwise. `timeout_turn 0` means "play fast":
//!   maximum [`FAST_MS`], optimum 0 (stop after the first completed iteration).
//! * `left` = `time_left` when sent and not 2147483647 (= unlimited); else `timeout_match`
//!   when it is > 0; else unlimited. It may be negative (already over time).
//! * `cap` = min(`turn`, `left` / [`MAX_SHARE_DIV`], [`MAX_BUDGET_MS`]) — one move never
//!   takes more than a seventh of the remaining match time (nor more than a day).
//! * `reserve` = `cap` / 20 clamped to [[`RESERVE_MIN_MS`], [`RESERVE_MAX_MS`]]: time for
//!   stopping the search, printing and the pipe.
//! * `maximum` = `cap` − `reserve` (never negative): the hard stop.
//! * `optimum` (the soft stop between iterations): with a limited match, `maximum` × 6/10
//!   and at most `left` / moves-to-go, where moves-to-go = max([`MIN_MOVES_TO_GO`],
//!   [`MOVES_TO_GO`] − own moves played / 2). With only a per-move limit, or a match
//!   clock so ample that `left` / moves-to-go ≥ `cap` = `turn` (every move still to come could
//!   take the whole cap: 0.5 s per move with 30 s per game), nothing is saved for later
//!   moves, so `optimum` = `maximum`; the search then uses the whole budget (the
//!   `partial` search parameter, on by default: an iteration cut at `maximum` still
//!   plays a move that failed high in it; see `search`). Against Rapfi at 0.5 s / 30 s
//!   the older rule thought 111 ms per move on average and ended games with most of
//!   the clock unused.
//!
//! Examples (turn, match, left, own moves → optimum, maximum), see the unit test table:
//!
//! | timeout_turn | timeout_match | time_left  | moves | optimum | maximum |
//! |--------------|---------------|------------|-------|---------|---------|
//! | 1000         | 0             | –          | 0     | 950     | 950     |
//! | 5000         | 120000        | 120000     | 0     | 2850    | 4750    |
//! | 5000         | 120000        | 7000       | 30    | 466     | 950     |
//! | 0            | 0             | –          | 0     | 0       | 50      |
//! | –            | –             | –          | 0     | 4750    | 4750    |
//! | 500          | 30000         | 30000      | 0     | 450     | 450     |
//! | 500          | 30000         | 4000       | 40    | 270     | 450     |
//! | 2000000      | 100000000     | 100000000  | 0     | 1999500 | 1999500 |
//! | 1000         | 100000        | -5         | 10    | 0       | 0       |

use std::time::{Duration, Instant};

/// `time_left` value that means "no match limit".
pub const UNLIMITED_LEFT_MS: i64 = 2_147_483_647;
/// Per-move time when the manager sent no time settings at all.
pub const DEFAULT_TURN_MS: i64 = 5_000;
/// Hard limit for `timeout_turn 0` ("play as fast as possible").
pub const FAST_MS: i64 = 50;
/// One move never uses more than 1/`MAX_SHARE_DIV` of the remaining match time.
pub const MAX_SHARE_DIV: i64 = 7;
/// Smallest safety reserve subtracted from the per-move cap.
pub const RESERVE_MIN_MS: i64 = 50;
/// Largest safety reserve subtracted from the per-move cap.
pub const RESERVE_MAX_MS: i64 = 500;
/// Own moves expected in a game at its start (for the match-time share).
pub const MOVES_TO_GO: i64 = 30;
/// The expected number of remaining own moves never drops below this.
pub const MIN_MOVES_TO_GO: i64 = 12;
/// No budget exceeds one day, so `start + maximum` can never overflow an `Instant`
/// whatever number a manager sends.
pub const MAX_BUDGET_MS: i64 = 86_400_000;

// The time settings a manager sends through INFO; kept apart from the budget so that the
// protocol layer can store raw values and the budget stays a pure function of them.
/// Clock settings as received through `INFO` (all milliseconds, raw protocol values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeSettings {
    /// `INFO timeout_turn`: `None` = never sent, `Some(0)` = play fast.
    pub turn_ms: Option<i64>,
    /// `INFO timeout_match`: 0 = no match limit (the default).
    pub match_ms: i64,
    /// `INFO time_left`: `None` = never sent; [`UNLIMITED_LEFT_MS`] = unlimited.
    pub left_ms: Option<i64>,
}

impl TimeSettings {
    /// The remaining match time in ms, or `None` when the match time is unlimited.
    #[must_use]
    pub fn match_left_ms(&self) -> Option<i64> {
        match self.left_ms {
            Some(v) if v != UNLIMITED_LEFT_MS => Some(v),
            Some(_) => None,
            None if self.match_ms > 0 => Some(self.match_ms),
            None => None,
        }
    }

    /// Charge `used` against `time_left` (managers that send `time_left` before every
    /// move overwrite it anyway; this keeps the budget sane for those that do not).
    pub fn charge(&mut self, used: Duration) {
        if let Some(v) = self.left_ms {
            if v != UNLIMITED_LEFT_MS {
                let used = i64::try_from(used.as_millis()).unwrap_or(i64::MAX);
                self.left_ms = Some(v.saturating_sub(used));
            }
        } else if self.match_ms > 0 {
            let used = i64::try_from(used.as_millis()).unwrap_or(i64::MAX);
            self.left_ms = Some(self.match_ms.saturating_sub(used));
        }
    }
}

// The two deadlines of one search, split from `SearchLimits` so the rule can be tested
// without instants.
/// The time budget of one move: soft and hard limits, measured from command receipt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this (extendable on instability).
    pub optimum: Duration,
    /// Stop the search at once after this.
    pub maximum: Duration,
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(u64::try_from(v.max(0)).unwrap_or(0))
}

/// The budget for a move, given the clock settings and the number of moves this engine
/// has already played in the game (see the module docs for the rules).
#[must_use]
pub fn budget(settings: &TimeSettings, own_moves: usize) -> Budget {
    let left = settings.match_left_ms();
    let turn = match settings.turn_ms {
        Some(t) if t <= 0 => {
            let max = match left {
                Some(l) => FAST_MS.min(l / MAX_SHARE_DIV),
                None => FAST_MS,
            };
            return Budget {
                optimum: Duration::ZERO,
                maximum: ms(max),
            };
        }
        Some(t) => t,
        None if left.is_some() => i64::MAX,
        None => DEFAULT_TURN_MS,
    };
    let cap = match left {
        Some(l) => turn.min(l / MAX_SHARE_DIV),
        None => turn,
    }
    .min(MAX_BUDGET_MS);
    let reserve = (cap / 20).clamp(RESERVE_MIN_MS, RESERVE_MAX_MS);
    let maximum = cap.saturating_sub(reserve).max(0);
    let optimum = match left {
        Some(l) => {
            let own = i64::try_from(own_moves).unwrap_or(i64::MAX);
            let to_go = (MOVES_TO_GO - own / 2).max(MIN_MOVES_TO_GO);
            if cap == turn && l / to_go >= cap {
                // The match clock could pay the per-move cap for every move still to
                // come: nothing is saved by stopping early.
                maximum
            } else {
                (maximum / 10 * 6 + (maximum % 10) * 6 / 10).min(l / to_go)
            }
        }
        None => maximum,
    };
    let optimum = optimum.clamp(0, maximum);
    Budget {
        optimum: ms(optimum),
        maximum: ms(maximum),
    }
}

// Everything the search needs to know about when and how far to search, built by the
// protocol from INFO settings; the search owner reads it, nobody else interprets times.
/// Typed limits of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// When the command line was received: every deadline counts from here.
    pub start: Instant,
    /// Soft limit: do not start a new iteration after `start + optimum`.
    pub optimum: Duration,
    /// Hard limit: stop at once after `start + maximum`.
    pub maximum: Duration,
    /// Deepest nominal depth to search (`INFO max_depth`), `None` = unlimited.
    pub max_depth: Option<i32>,
    /// Node limit (`INFO max_node`), `None` = unlimited.
    pub max_nodes: Option<u64>,
    /// Number of best moves to report (YXNBEST n), at least 1.
    pub multi_pv: usize,
}

impl SearchLimits {
    /// Limits for a move from the clock settings and the number of own moves played.
    #[must_use]
    pub fn from_settings(
        settings: &TimeSettings,
        own_moves: usize,
        start: Instant,
    ) -> SearchLimits {
        let b = budget(settings, own_moves);
        SearchLimits {
            start,
            optimum: b.optimum,
            maximum: b.maximum,
            max_depth: None,
            max_nodes: None,
            multi_pv: 1,
        }
    }

    /// Limits with a fixed time per move (optimum = maximum), for tools and tests.
    #[must_use]
    pub fn fixed(time: Duration, start: Instant) -> SearchLimits {
        SearchLimits {
            start,
            optimum: time,
            maximum: time,
            max_depth: None,
            max_nodes: None,
            multi_pv: 1,
        }
    }

    /// Time since `start`.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The instant of the soft stop.
    #[must_use]
    pub fn soft_deadline(&self) -> Instant {
        self.start + self.optimum
    }

    /// The instant of the hard stop.
    #[must_use]
    pub fn hard_deadline(&self) -> Instant {
        self.start + self.maximum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(turn: Option<i64>, matc: i64, left: Option<i64>) -> TimeSettings {
        TimeSettings {
            turn_ms: turn,
            match_ms: matc,
            left_ms: left,
        }
    }

    /// (timeout_turn, timeout_match, time_left, own moves, optimum ms, maximum ms)
    type Row = (Option<i64>, i64, Option<i64>, usize, u64, u64);

    #[test]
    fn budget_table_matches_the_documented_rules() {
        // (timeout_turn, timeout_match, time_left, own moves) -> (optimum ms, maximum ms)
        let table: &[Row] = &[
            (Some(1000), 0, None, 0, 950, 950),
            (Some(5000), 120_000, Some(120_000), 0, 2850, 4750),
            (Some(5000), 120_000, Some(7000), 30, 466, 950),
            (Some(0), 0, None, 0, 0, 50),
            (None, 0, None, 0, 4750, 4750),
            (
                Some(2_000_000),
                100_000_000,
                Some(100_000_000),
                0,
                1_999_500,
                1_999_500,
            ),
            // 0.5 s per move, 30 s per game: the clock pays the whole cap every move...
            (Some(500), 30_000, Some(30_000), 0, 450, 450),
            (Some(500), 30_000, Some(6000), 40, 450, 450),
            // ...until the rest of the game could no longer have it.
            (Some(500), 30_000, Some(4000), 40, 270, 450),
            (Some(500), 30_000, Some(2100), 50, 150, 250),
            (Some(1000), 100_000, Some(-5), 10, 0, 0),
            // time_left = "unlimited" ignores timeout_match
            (Some(1000), 100_000, Some(UNLIMITED_LEFT_MS), 0, 950, 950),
            // no timeout_turn but a match limit: a share of the match time
            (None, 70_000, Some(70_000), 0, 2333, 9500),
            // time_left not yet sent: timeout_match stands in for it
            (Some(300_000), 1_000_000, None, 0, 33_333, 142_357),
            // tiny time left: nearly nothing
            (Some(5000), 120_000, Some(100), 40, 0, 0),
            // play fast with little match time left
            (Some(0), 10_000, Some(70), 5, 0, 10),
            // short turns (arbiter tests): the 50 ms reserve dominates
            (Some(100), 0, None, 0, 50, 50),
            (Some(200), 0, None, 0, 150, 150),
            (Some(100), 0, Some(UNLIMITED_LEFT_MS), 20, 50, 50),
            // a turn shorter than the reserve: nothing but the emergency move
            (Some(40), 0, None, 0, 0, 0),
            // Gomocup fastgame (5 s / 120 s) late in the game: the match share binds
            (Some(5000), 120_000, Some(30_000), 40, 2442, 4071),
            // Gomocup final leagues (300 s / 1000 s), first move: a seventh of the match,
            // optimum a thirtieth of it
            (
                Some(300_000),
                1_000_000,
                Some(1_000_000),
                0,
                33_333,
                142_357,
            ),
            // time_left 0 or negative: answer at once
            (Some(5000), 120_000, Some(0), 10, 0, 0),
            (None, 120_000, Some(-300), 10, 0, 0),
            // play fast ignores a long match clock but not a short one
            (Some(0), 180_000, Some(180_000), 0, 0, 50),
            (Some(0), 0, Some(UNLIMITED_LEFT_MS), 0, 0, 50),
            // Yixin-Board's "unlimited": a huge turn and match
            (Some(2_000_000), 100_000_000, None, 0, 1_999_500, 1_999_500),
            // absurd numbers are capped at a day
            (Some(i64::MAX), 0, None, 0, 86_399_500, 86_399_500),
            (None, i64::MAX, Some(i64::MAX), 0, 51_839_700, 86_399_500),
        ];
        for &(turn, matc, left, own, opt, max) in table {
            let b = budget(&settings(turn, matc, left), own);
            assert_eq!(
                (b.optimum.as_millis() as u64, b.maximum.as_millis() as u64),
                (opt, max),
                "turn {turn:?} match {matc} left {left:?} own {own}"
            );
        }
    }

    #[test]
    fn optimum_never_exceeds_maximum_and_nothing_is_negative() {
        let values = [
            None,
            Some(i64::MIN),
            Some(-1000),
            Some(0),
            Some(1),
            Some(29),
            Some(1000),
            Some(i64::MAX),
        ];
        for &turn in &values {
            for &left in &values {
                for matc in [i64::MIN, -5, 0, 1, 1000, i64::MAX] {
                    for own in [0, 1, 50, usize::MAX] {
                        let b = budget(&settings(turn, matc, left), own);
                        assert!(b.optimum <= b.maximum, "{turn:?} {matc} {left:?} {own}");
                    }
                }
            }
        }
    }

    #[test]
    fn reply_leaves_a_margin_below_the_turn_limit() {
        for turn in [30, 100, 300, 1000, 5000, 30_000, 300_000] {
            let b = budget(&settings(Some(turn), 0, None), 0);
            assert!(
                b.maximum.as_millis() as i64 <= turn - RESERVE_MIN_MS.min(turn),
                "turn {turn}"
            );
        }
    }

    #[test]
    fn less_time_left_never_gives_a_larger_budget() {
        let mut prev = Duration::MAX;
        for left in (0..200_000).rev().step_by(997) {
            let b = budget(&settings(Some(5000), 200_000, Some(left)), 10);
            assert!(b.maximum <= prev);
            prev = b.maximum;
        }
    }

    #[test]
    fn charge_subtracts_used_time_from_a_limited_match_only() {
        let mut s = settings(Some(1000), 10_000, Some(5000));
        s.charge(Duration::from_millis(1200));
        assert_eq!(s.left_ms, Some(3800));
        let mut s = settings(Some(1000), 0, Some(UNLIMITED_LEFT_MS));
        s.charge(Duration::from_millis(1200));
        assert_eq!(s.left_ms, Some(UNLIMITED_LEFT_MS));
        let mut s = settings(Some(1000), 10_000, None);
        s.charge(Duration::from_millis(400));
        assert_eq!(s.left_ms, Some(9600));
        let mut s = settings(None, 0, None);
        s.charge(Duration::from_millis(400));
        assert_eq!(s.left_ms, None);
    }

    #[test]
    fn limits_count_from_the_given_start() {
        let t0 = Instant::now();
        let l = SearchLimits::from_settings(&settings(Some(1000), 60_000, None), 0, t0);
        assert_eq!(l.hard_deadline(), t0 + Duration::from_millis(950));
        assert_eq!(l.soft_deadline(), t0 + Duration::from_millis(950));
        let l = SearchLimits::from_settings(&settings(Some(1000), 20_000, None), 0, t0);
        assert_eq!(l.soft_deadline(), t0 + Duration::from_millis(570));
        assert_eq!(l.multi_pv, 1);
    }
}
