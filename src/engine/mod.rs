//! The engine facade between the protocol and the search.
//!
//! It owns the game position, the options that outlive a game (memory, hash size,
//! threads), the search with its tables, and the stop flag. The protocol calls it; it
//! never prints. [`fallback_move`] (in [`crate::fallback`]) answers when a search is
//! stopped before its first iteration; the swap2 decisions are in [`swap2`].
//!
//! Tables and time: the search tables are allocated as soon as their size is known
//! (`START`, `INFO max_memory`, `INFO hash_size`), never inside a move, and
//! [`Engine::prefault`] faults them in while the protocol waits for input. During
//! [`Engine::go`] a [`Watchdog`] thread raises the stop flag at the hard deadline, so every
//! loop that polls the flag (the search, the threat solvers) stops in time even if it
//! never reads the clock.

// The facade must always answer a move (see `fallback_move`): no unwrap, expect or
// panic outside its tests.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use crate::board::{Board, BoardError, MoveOutcome, PlayError};
use crate::fallback::fallback_move;
use crate::search::params::SearchParams;
use crate::search::Searcher;
use crate::time::SearchLimits;
use crate::types::{Color, Pos, Rule, SearchInfo};

pub mod swap2;

/// Board side used before the first `START`.
pub const DEFAULT_SIZE: usize = 15;
/// Memory budget assumed when the manager sends none or 0 (Gomocup's 350 MiB).
pub const DEFAULT_MEMORY: u64 = 350 * 1024 * 1024;

// One object the protocol talks to: board + options + stop flag, so that the search can be
// swapped in behind `go` without touching the protocol.
/// The engine: the current game and the search settings.
pub struct Engine {
    board: Board,
    continuous: bool,
    stop: Arc<AtomicBool>,
    memory_limit: u64,
    hash_kib: Option<u64>,
    /// Search threads (`INFO thread_num`, capped at [`max_threads`]).
    threads: usize,
    search_enabled: bool,
    /// The search with its tables (created when the table size is first known).
    searcher: Option<Searcher>,
    /// Board size and rule the tables hold results for, if any search ran since the
    /// last clear: the tables are cleared when they change (keys ignore rule and size).
    searched: Option<(usize, usize, Rule)>,
    /// Raises the stop flag at the hard deadline of a running search.
    watchdog: Option<Watchdog>,
    /// The table budget and thread count `searcher` was created with (its split
    /// between tables is the search's business).
    tables_for: (usize, usize),
    /// Search parameters set by `INFO <param> <value>` (defaults otherwise); kept here so
    /// they survive a resize of the tables.
    params: SearchParams,
}

/// Memory kept outside the search tables: pattern tables (~1–2 MB per rule), search
/// frames, the threat solvers' work lists, boards, code and allocator slack. Measured peak
/// RSS without tables: ~10 MiB idle, ~22 MiB during a search.
pub const NON_TT_MEMORY: u64 = 24 << 20;

/// Memory outside the tables that each helper search thread adds: its frames (~1 MiB),
/// its copy of the board, its solvers' work lists and the part of its stack it
/// touches.
pub const HELPER_MEMORY: u64 = 4 << 20;

/// The most search threads `INFO thread_num` may ask for: the number of threads the
/// operating system lets this process run at once (`available_parallelism`, 1 if
/// unknown). The environment variable `SENTE_MAX_THREADS` replaces it (for measuring
/// many threads on a small machine).
#[must_use]
pub fn max_threads() -> usize {
    if let Some(n) = std::env::var("SENTE_MAX_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        return n.clamp(1, 256);
    }
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Total size in bytes of the search tables (the search splits it between its
/// transposition table and the threat solvers' tables of every thread) for a memory
/// budget, an optional explicit hash size and a thread count: the hash size if given
/// (capped by the budget), else the default size, capped at three quarters of what the
/// budget leaves after [`NON_TT_MEMORY`] and [`HELPER_MEMORY`] per helper thread; at
/// least 64 KiB.
#[must_use]
pub fn tt_bytes_for(memory_limit: u64, hash_kib: Option<u64>, threads: usize) -> usize {
    let helpers = u64::try_from(threads.max(1) - 1).unwrap_or(u64::MAX);
    let outside = NON_TT_MEMORY.saturating_add(helpers.saturating_mul(HELPER_MEMORY));
    let budget = memory_limit.saturating_sub(outside) / 4 * 3;
    let want = match hash_kib {
        Some(k) if k > 0 => k.saturating_mul(1024),
        _ => crate::search::DEFAULT_TT_BYTES as u64,
    };
    usize::try_from(want.min(budget))
        .unwrap_or(usize::MAX)
        .max(64 * 1024)
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A new engine with an empty 15×15 freestyle board.
    #[must_use]
    pub fn new() -> Engine {
        let board = match Board::new(DEFAULT_SIZE, DEFAULT_SIZE, Rule::Freestyle) {
            Ok(b) => b,
            Err(e) => unreachable!("default board size is valid: {e:?}"),
        };
        Engine {
            board,
            continuous: false,
            stop: Arc::new(AtomicBool::new(false)),
            memory_limit: DEFAULT_MEMORY,
            hash_kib: None,
            threads: 1,
            search_enabled: true,
            searcher: None,
            searched: None,
            watchdog: None,
            tables_for: (0, 0),
            params: SearchParams::default(),
        }
    }

    /// Start a new empty game (the rule is kept for `RESTART`/`START` by the caller).
    /// Also allocates the search tables if needed and forgets the previous game's
    /// results, so that the first move of the game pays for neither.
    pub fn new_game(&mut self, width: usize, height: usize, rule: Rule) -> Result<(), BoardError> {
        self.board = Board::new(width, height, rule)?;
        self.prepare_tables();
        self.forget_other_games();
        Ok(())
    }

    /// Bytes of the search tables the current settings ask for ([`tt_bytes_for`]).
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        tt_bytes_for(self.memory_limit, self.hash_kib, self.threads)
    }

    /// Size of the allocated transposition table in bytes (0 before the first `START`
    /// or memory setting).
    #[must_use]
    pub fn allocated_tt_bytes(&self) -> usize {
        self.searcher.as_ref().map_or(0, Searcher::tt_bytes)
    }

    /// Allocate the search tables at the size the settings ask for, or resize them if
    /// it changed (a resize starts empty). The allocation is lazily mapped: this is
    /// cheap, the pages are faulted in by [`Engine::prefault`] or by the search.
    fn prepare_tables(&mut self) {
        if !self.search_enabled {
            return;
        }
        let want = (self.table_bytes(), self.threads);
        if self.searcher.is_some() && self.tables_for == want {
            return;
        }
        // Free the old tables before mapping the new ones (peak memory).
        self.searcher = None;
        self.searched = None;
        self.searcher = Some(Searcher::with_threads(want.0, self.params.clone(), want.1));
        self.tables_for = want;
    }

    /// Clear the tables if they hold results of another board size or rule.
    fn forget_other_games(&mut self) {
        let game = (self.board.width(), self.board.height(), self.board.rule());
        if self.searched.is_some_and(|g| g != game) {
            if let Some(s) = self.searcher.as_mut() {
                s.clear();
            }
            self.searched = None;
        }
    }

    /// Fault in up to `max_bytes` more of the search tables; returns true while part of
    /// them is still cold. The protocol calls this while no input is waiting, so the
    /// first searches do not pay the page faults (0.2–0.3 s for 128 MiB here).
    pub fn prefault(&mut self, max_bytes: usize) -> bool {
        self.searcher
            .as_mut()
            .is_some_and(|s| s.prefault(max_bytes))
    }

    /// Change the rule. The moves played so far are replayed under the new rule; if that
    /// is impossible (e.g. a renju foul in the history) the game restarts empty.
    pub fn set_rule(&mut self, rule: Rule) {
        if rule == self.board.rule() {
            return;
        }
        let (w, h) = (self.board.width(), self.board.height());
        let history: Vec<Pos> = self.board.history().to_vec();
        let Ok(mut b) = Board::new(w, h, rule) else {
            return;
        };
        let mut ok = true;
        for (i, &p) in history.iter().enumerate() {
            match b.play(p) {
                Ok(MoveOutcome::Continue) => {}
                Ok(_) if i + 1 == history.len() => {}
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            if let Ok(empty) = Board::new(w, h, rule) {
                b = empty;
            }
        }
        self.board = b;
        self.forget_other_games();
    }

    /// Record the Piskvork "continuous game" flag (rule bit 2).
    pub fn set_continuous(&mut self, continuous: bool) {
        self.continuous = continuous;
    }

    /// The Piskvork "continuous game" flag.
    #[must_use]
    pub fn continuous(&self) -> bool {
        self.continuous
    }

    /// The rule of the current game.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    /// The current position.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Play a move for the side to move (checked; errors leave the position unchanged).
    pub fn play(&mut self, p: Pos) -> Result<MoveOutcome, PlayError> {
        self.board.play(p)
    }

    /// Take back the last move.
    pub fn undo(&mut self) -> Option<Pos> {
        self.board.undo()
    }

    /// Replace the position by one with these stones. Black and white stones are
    /// interleaved in the given order (black first), which is the play order whenever the
    /// manager lists moves in play order, as every manager does. `blocked` squares
    /// (continuous games) are set first. Requires `black.len()` to be `white.len()` or
    /// `white.len() + 1`. A five on the board (or a full board) is refused; renju black
    /// stones on forbidden points are accepted. On error the current position is
    /// unchanged.
    pub fn set_position(
        &mut self,
        black: &[Pos],
        white: &[Pos],
        blocked: &[Pos],
    ) -> Result<(), String> {
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return Err(format!(
                "impossible stone counts: {} black, {} white",
                black.len(),
                white.len()
            ));
        }
        let mut b = Board::new(self.board.width(), self.board.height(), self.board.rule())
            .map_err(|e| format!("{e}"))?;
        for &p in blocked {
            b.set_blocked(p)
                .map_err(|e| format!("cannot block {p}: {e}"))?;
        }
        let total = black.len() + white.len();
        for i in 0..total {
            let p = if i % 2 == 0 {
                black[i / 2]
            } else {
                white[i / 2]
            };
            match b.play(p) {
                Ok(MoveOutcome::Continue) => {}
                // A position is an arrangement of stones, not a game record: a black
                // stone on a point that would have been forbidden when played in the
                // order listed is kept (analysis boards send hand-edited positions, and
                // the order they list stones in is not the order of a game).
                Ok(MoveOutcome::Foul) => b.forget_outcome(),
                Ok(outcome) => {
                    return Err(format!("position is already decided at {p} ({outcome:?})"))
                }
                Err(e) => return Err(format!("cannot place {p}: {e}")),
            }
        }
        self.board = b;
        Ok(())
    }

    /// Memory the engine may use in bytes (`INFO max_memory`; 0 = the default budget).
    /// The search tables are resized at once if a game was started.
    pub fn set_memory_limit(&mut self, bytes: u64) {
        self.memory_limit = if bytes == 0 { DEFAULT_MEMORY } else { bytes };
        if self.searcher.is_some() {
            self.prepare_tables();
        }
    }

    /// The memory budget in bytes.
    #[must_use]
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// Hash table size in KiB (`INFO hash_size`, Yixin-Board); overrides the memory budget.
    pub fn set_hash_kib(&mut self, kib: u64) {
        self.hash_kib = Some(kib);
        if self.searcher.is_some() {
            self.prepare_tables();
        }
    }

    /// The explicit hash size in KiB, if one was set.
    #[must_use]
    pub fn hash_kib(&self) -> Option<u64> {
        self.hash_kib
    }

    /// Number of search threads (`INFO thread_num`): at least 1, at most
    /// [`max_threads`]. The tables are re-made at once (empty) if a game was started and
    /// the number changed, as for a new memory limit: the split between the threads'
    /// tables depends on it.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, max_threads());
        if self.searcher.is_some() {
            self.prepare_tables();
        }
    }

    /// Number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Apply search parameter settings (`key=value`, see [`SearchParams::apply`]) to this
    /// and every later search. On error nothing changes.
    ///
    /// # Errors
    /// The message of [`SearchParams::apply`] for an unknown key or a bad value.
    pub fn set_search_param(&mut self, spec: &str) -> Result<(), String> {
        let mut params = self.params.clone();
        params.apply(spec)?;
        if let Some(s) = self.searcher.as_mut() {
            s.set_params(params.clone());
        }
        self.params = params;
        Ok(())
    }

    /// The search parameters the next search uses.
    #[must_use]
    pub fn search_params(&self) -> &SearchParams {
        &self.params
    }

    /// [`fallback_move`] on the current position (emergency move).
    pub fn fallback_move(&mut self) -> Pos {
        fallback_move(&mut self.board)
    }

    /// Forget everything the search learned (YXHASHCLEAR).
    pub fn clear_hash(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        self.searched = None;
    }

    /// Use only [`fallback_move`] in [`Engine::go`] (fast; for protocol fuzz tests).
    /// Disabling also frees the search tables.
    pub fn set_search_enabled(&mut self, enabled: bool) {
        self.search_enabled = enabled;
        if !enabled {
            self.searcher = None;
            self.searched = None;
        }
    }

    /// The flag that stops a running search. It is created once per engine and never
    /// replaced, so another thread may keep a clone. [`Engine::go`] only reads it: the
    /// caller clears it before `go` (the protocol must be able to apply a STOP that
    /// arrived before the search started).
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// A new engine that uses `stop` as its stop flag (so a reader thread can be started
    /// with the flag before the engine's tables are built).
    #[must_use]
    pub fn with_stop_flag(stop: Arc<AtomicBool>) -> Engine {
        let mut e = Engine::new();
        e.stop = stop;
        e
    }

    /// Renju forbidden points of the side to move (empty unless renju with black to move).
    pub fn forbidden_points(&mut self) -> Vec<Pos> {
        if self.board.rule() == Rule::Renju && self.board.side_to_move() == Color::Black {
            self.board.forbidden_points()
        } else {
            Vec::new()
        }
    }

    /// Choose a move for the side to move within `limits`, reporting progress through
    /// `on_info` once per completed iteration. Does not play the move. Returns
    /// [`Pos::NONE`] only when no empty square is left. Stops early when the stop flag
    /// is set (the best move so far is returned).
    pub fn go(&mut self, limits: &SearchLimits, on_info: &mut dyn FnMut(&SearchInfo)) -> Pos {
        if !self.search_enabled {
            return fallback_move(&mut self.board);
        }
        // Normally done at START / INFO already; here only for callers that skip them.
        self.prepare_tables();
        self.forget_other_games();
        self.searched = Some((self.board.width(), self.board.height(), self.board.rule()));
        let Some(searcher) = self.searcher.as_mut() else {
            return fallback_move(&mut self.board);
        };
        let watchdog = self
            .watchdog
            .get_or_insert_with(|| Watchdog::new(Arc::clone(&self.stop)));
        let armed = limits
            .start
            .checked_add(limits.maximum)
            .map(|deadline| watchdog.arm(deadline));
        let r = searcher.go(
            &mut self.board,
            limits,
            Some(Arc::clone(&self.stop)),
            on_info,
        );
        if armed.is_some() {
            watchdog.disarm();
        }
        if r.depth == 0 || !r.best.is_some() || !self.board.is_legal(r.best) {
            // Stopped before the first iteration finished: the emergency chooser.
            return fallback_move(&mut self.board);
        }
        r.best
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(w) = self.watchdog.take() {
            w.shut_down();
        }
    }
}

// The search polls the clock itself, but the threat solvers it calls only poll the stop
// flag, and a thread that is descheduled cannot poll at all: a separate timer that raises
// the flag at the hard deadline bounds every loop that reads the flag.
/// A timer thread that raises a stop flag at the deadline of the armed search.
pub struct Watchdog {
    shared: Arc<(Mutex<WatchState>, Condvar)>,
}

// What the timer thread waits for; behind the watchdog's mutex.
struct WatchState {
    /// Deadline of the armed search, if one is running.
    deadline: Option<Instant>,
    /// Set when the engine is dropped: the thread exits.
    quit: bool,
}

impl Watchdog {
    /// Start the timer thread for `stop` (unarmed). If the thread cannot be started the
    /// watchdog does nothing (the search still polls the clock).
    #[must_use]
    pub fn new(stop: Arc<AtomicBool>) -> Watchdog {
        let shared = Arc::new((
            Mutex::new(WatchState {
                deadline: None,
                quit: false,
            }),
            Condvar::new(),
        ));
        let thread_shared = Arc::clone(&shared);
        let _ = std::thread::Builder::new()
            .name("stop-watchdog".into())
            .spawn(move || watch(&thread_shared, &stop));
        Watchdog { shared }
    }

    /// Raise the flag at `deadline` unless [`Watchdog::disarm`] comes first.
    pub fn arm(&self, deadline: Instant) {
        let (m, cv) = &*self.shared;
        if let Ok(mut st) = m.lock() {
            st.deadline = Some(deadline);
            cv.notify_one();
        }
    }

    /// Cancel the armed deadline. Once this returns the flag is not raised for it.
    pub fn disarm(&self) {
        let (m, cv) = &*self.shared;
        if let Ok(mut st) = m.lock() {
            st.deadline = None;
            cv.notify_one();
        }
    }

    /// Stop the timer thread.
    pub fn shut_down(&self) {
        let (m, cv) = &*self.shared;
        if let Ok(mut st) = m.lock() {
            st.quit = true;
            st.deadline = None;
            cv.notify_one();
        }
    }
}

/// The watchdog thread: sleep until the armed deadline, then raise `stop` (under the
/// lock, so a disarm that returned first always wins).
fn watch(shared: &(Mutex<WatchState>, Condvar), stop: &AtomicBool) {
    let (m, cv) = shared;
    let Ok(mut st) = m.lock() else { return };
    loop {
        if st.quit {
            return;
        }
        st = match st.deadline {
            None => match cv.wait(st) {
                Ok(g) => g,
                Err(_) => return,
            },
            Some(d) => {
                let now = Instant::now();
                if now >= d {
                    stop.store(true, Ordering::SeqCst);
                    st.deadline = None;
                    continue;
                }
                match cv.wait_timeout(st, d - now) {
                    Ok((g, _)) => g,
                    Err(_) => return,
                }
            }
        };
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn renju_position_with_a_black_stone_on_a_forbidden_point_is_accepted() {
        // Black (7,7) would be a double three if played last: open twos (5,7),(6,7) and
        // (7,5),(7,6). Listed first, it is not; listed last, it is. Both are the same
        // position, so both are accepted, and the game goes on from it.
        let mut e = Engine::new();
        e.new_game(15, 15, Rule::Renju).unwrap();
        let black = [(5, 7), (6, 7), (7, 5), (7, 6), (7, 7)].map(|(x, y)| Pos::new(x, y));
        let white = [(0, 0), (14, 0), (0, 14), (14, 14)].map(|(x, y)| Pos::new(x, y));
        e.set_position(&black, &white, &[]).unwrap();
        assert_eq!(e.board().outcome(), None);
        assert_eq!(e.board().move_count(), 9);
        assert_eq!(e.play(Pos::new(3, 3)), Ok(MoveOutcome::Continue));
        // A five is still refused.
        let five = [(3, 3), (4, 3), (5, 3), (6, 3), (7, 3)].map(|(x, y)| Pos::new(x, y));
        let w4 = [(0, 0), (14, 0), (0, 14), (14, 14)].map(|(x, y)| Pos::new(x, y));
        assert!(e.set_position(&five, &w4, &[]).is_err());
    }

    #[test]
    fn set_position_is_all_or_nothing() {
        let mut e = Engine::new();
        e.new_game(15, 15, Rule::Freestyle).unwrap();
        e.set_position(&[Pos::new(7, 7)], &[], &[]).unwrap();
        assert_eq!(e.board().move_count(), 1);
        assert!(e
            .set_position(&[Pos::new(1, 1), Pos::new(1, 1)], &[Pos::new(2, 2)], &[])
            .is_err());
        assert!(e
            .set_position(&[Pos::new(1, 1)], &[Pos::new(2, 2), Pos::new(3, 3)], &[])
            .is_err());
        assert_eq!(e.board().history(), &[Pos::new(7, 7)]);
    }

    #[test]
    fn search_tables_are_allocated_before_the_first_search() {
        let mut e = Engine::new();
        assert_eq!(e.allocated_tt_bytes(), 0, "nothing before START");
        e.set_memory_limit(367_001_600);
        assert_eq!(e.allocated_tt_bytes(), 0, "INFO before START only records");
        e.new_game(15, 15, Rule::Freestyle).unwrap();
        let full = e.allocated_tt_bytes();
        assert!(full > 0 && full <= tt_bytes_for(367_001_600, None, 1));
        // A smaller limit after START resizes at once, not at the next search.
        e.set_memory_limit(50_000_000);
        let small = e.allocated_tt_bytes();
        assert!(small > 0 && small < full && small <= tt_bytes_for(50_000_000, None, 1));
        e.set_hash_kib(1024);
        assert!(e.allocated_tt_bytes() <= 1 << 20);
        assert!(e.allocated_tt_bytes() > (1 << 20) - (1 << 10));
        // Faulting in is done in steps and ends.
        let mut steps = 0;
        while e.prefault(256 << 10) {
            steps += 1;
            assert!(steps < 100);
        }
        assert!(steps >= 3);
    }

    #[test]
    fn tables_stay_within_the_memory_limit() {
        for limit in [
            10_000_000u64,
            50_000_000,
            367_001_600,
            2_147_483_647,
            1 << 40,
        ] {
            let t = tt_bytes_for(limit, None, 1) as u64;
            assert!(
                t + NON_TT_MEMORY <= limit.max(NON_TT_MEMORY + 64 * 1024),
                "{limit}"
            );
            // An explicit hash size never breaks the limit either.
            let h = tt_bytes_for(limit, Some(1 << 30), 1) as u64;
            assert!(h + NON_TT_MEMORY <= limit.max(NON_TT_MEMORY + 64 * 1024));
        }
    }

    #[test]
    fn a_new_rule_clears_the_results_of_the_old_one() {
        let mut e = Engine::new();
        e.new_game(15, 15, Rule::Freestyle).unwrap();
        e.play(Pos::new(7, 7)).unwrap();
        let mut l = SearchLimits::fixed(std::time::Duration::from_secs(30), Instant::now());
        l.max_depth = Some(2);
        e.go(&l, &mut |_| {});
        assert!(e.searched.is_some());
        e.set_rule(Rule::Renju);
        assert!(e.searched.is_none());
    }

    fn quiet_position(rule: Rule) -> Engine {
        let mut e = Engine::new();
        e.set_memory_limit(50_000_000);
        e.new_game(15, 15, rule).unwrap();
        for (x, y) in [(7, 7), (8, 8), (2, 2), (12, 12), (7, 9), (9, 7)] {
            e.play(Pos::new(x, y)).unwrap();
        }
        e
    }

    #[test]
    fn a_search_stopped_by_the_flag_returns_a_legal_move() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            // Flag already raised: nothing completes, the answer is still legal.
            let mut e = quiet_position(rule);
            let stop = e.stop_flag();
            stop.store(true, Ordering::SeqCst);
            let l = SearchLimits::fixed(std::time::Duration::from_secs(60), Instant::now());
            let m = e.go(&l, &mut |_| {});
            assert!(e.board.is_legal(m), "{rule:?} {m:?}");
            // Raised from another thread during a long search.
            stop.store(false, Ordering::SeqCst);
            let raiser = {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(30));
                    stop.store(true, Ordering::SeqCst);
                })
            };
            let mut iterations = 0;
            let m = e.go(&l, &mut |_| iterations += 1);
            raiser.join().unwrap();
            assert!(e.board.is_legal(m), "{rule:?} {m:?}");
            assert!(e.board.is_empty(m));
        }
    }

    #[test]
    fn watchdog_raises_the_flag_at_the_deadline_unless_disarmed() {
        let stop = Arc::new(AtomicBool::new(false));
        let w = Watchdog::new(Arc::clone(&stop));
        w.arm(Instant::now() + std::time::Duration::from_millis(20));
        w.disarm();
        std::thread::sleep(std::time::Duration::from_millis(40));
        assert!(!stop.load(Ordering::SeqCst), "disarmed before the deadline");
        w.arm(Instant::now());
        let t = Instant::now();
        while !stop.load(Ordering::SeqCst) {
            assert!(t.elapsed() < std::time::Duration::from_secs(10));
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        w.shut_down();
    }
}
