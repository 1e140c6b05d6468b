//! VCF: victory by continuous fours.
//!
//! The attacker plays only moves that make a four (or five); the defender's reply is
//! forced (the single five point; two five points or a forbidden block lose for it).
//! When the defender's block makes a four of its own, the attacker must block that five
//! point, and may go on only if the block is itself a four. Depth-first search to the
//! full depth (the line found need not be the shortest) with a table of proven and
//! disproven positions.

use super::self_check::{SelfCheckCounts, SelfChecks, ON};
use super::tt::Tt;
use super::{block_stays_legal, reply_to_fives, Placed, Reply, MAX_PLACED};
use super::{
    find_five, fives_near, four_count, is_four_move, root_key, squares, SolveStats, ThreatResult,
    HASH,
};
use crate::board::Board;
use crate::pattern::{Pattern4, HALF};
use crate::types::{Color, Dir, Pos};
use std::sync::atomic::{AtomicBool, Ordering};

/// Longest attack the solver follows (attacking moves).
pub const MAX_ATTACKS: i32 = 100;

/// Result of one node of the search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Node {
    Win(i32),
    Fail,
    Abort,
}

/// Reusable VCF solver: owns its table and buffers so that calls do not allocate.
///
/// Why it exists: the search asks "does this side have a VCF?" at many leaves; keeping
/// the table between calls lets later calls reuse earlier proofs and disproofs.
pub struct VcfSolver {
    tt: Tt,
    squares: Vec<Pos>,
    size: (usize, usize),
    moves: Vec<(u8, Pos)>,
    /// Per entry of `moves` (once its node reads them): the four's number of five points
    /// (2 standing for more) and the first.
    fives: Vec<(u8, Pos)>,
    line_rev: Vec<Pos>,
    line: Vec<Pos>,
    key: u64,
    node_limit: u64,
    aborted: bool,
    stats: SolveStats,
    /// The self-checks this solver runs (only with the `self-check` feature).
    checks: SelfChecks,
    /// The verdicts they checked.
    checked: SelfCheckCounts,
}

impl VcfSolver {
    /// A solver whose table uses about `tt_bytes` bytes.
    #[must_use]
    pub fn new(tt_bytes: usize) -> VcfSolver {
        VcfSolver {
            tt: Tt::new(tt_bytes),
            squares: Vec::with_capacity(1024),
            size: (0, 0),
            moves: Vec::with_capacity(4096),
            fives: Vec::with_capacity(4096),
            line_rev: Vec::with_capacity(256),
            line: Vec::with_capacity(256),
            key: 0,
            node_limit: 0,
            aborted: false,
            stats: SolveStats::default(),
            checks: SelfChecks::default(),
            checked: SelfCheckCounts::default(),
        }
    }

    /// Run the self-checks `checks` from now on (see [`super::self_check`]).
    #[cfg(feature = "self-check")]
    pub fn set_self_checks(&mut self, checks: SelfChecks) {
        self.checks = checks;
    }

    /// The verdicts that this solver's self-checks verified so far.
    #[cfg(feature = "self-check")]
    #[must_use]
    pub fn self_check_counts(&self) -> SelfCheckCounts {
        self.checked
    }

    /// Forget all stored results. Not needed when the rule or board size changes (both
    /// are part of the hash); useful to time calls from scratch.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Counters of the last call.
    #[must_use]
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// The winning line of the last call that returned a win: attacker and defender
    /// moves alternating, starting with the first attacking move and ending with the
    /// attacker's last move (a five, or a four the defender cannot stop).
    #[must_use]
    pub fn principal_line(&self) -> &[Pos] {
        &self.line
    }

    /// Can `attacker` win by continuous fours with a five within `max_plies` plies
    /// (counting from `attacker`'s first move, which is played now whoever is to move on
    /// the board)? Visits at most `node_limit` nodes; `stop` aborts. The board is left
    /// unchanged.
    pub fn solve(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
    ) -> ThreatResult {
        let key = root_key(board, attacker, 0x5CF);
        self.solve_keyed(board, attacker, max_plies, node_limit, stop, key)
    }

    /// Prefetch the table slot of the position `key` (as given to
    /// [`VcfSolver::solve_keyed`]) ahead of a call.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        self.tt.prefetch(key);
    }

    /// The plies of the win that [`VcfSolver::solve_keyed`] with these arguments would
    /// return at once from its table (one node, before any move), if it would.
    pub(crate) fn table_win(
        &self,
        board: &Board,
        attacker: Color,
        max_plies: i32,
        key: u64,
    ) -> Option<i32> {
        if max_plies < 1 || board.count(attacker, Pattern4::Five) > 0 {
            return None;
        }
        let depth = ((max_plies - 1) / 2).clamp(0, MAX_ATTACKS);
        let e = self.tt.probe(key)?;
        (e.is_win() && i32::from(e.plies) <= 2 * depth + 1).then_some(i32::from(e.plies))
    }

    /// [`VcfSolver::solve`] for a board carrying look-ahead stones placed by another
    /// solver: `key` must identify the position (stones and attacker), since the board's
    /// own key does not see such stones.
    pub(crate) fn solve_keyed(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
        key: u64,
    ) -> ThreatResult {
        self.begin(board, node_limit, key);
        if max_plies < 1 {
            return ThreatResult::NoWin;
        }
        let max_attacks = ((max_plies - 1) / 2).clamp(0, MAX_ATTACKS);
        let r = self.deepen(board, attacker, max_attacks, stop);
        self.finish(board, attacker, r)
    }

    /// Reset the per-call state.
    fn begin(&mut self, board: &Board, node_limit: u64, key: u64) {
        if self.size != (board.width(), board.height()) || self.squares.is_empty() {
            self.squares = squares(board);
            self.size = (board.width(), board.height());
        }
        self.key = key;
        self.node_limit = node_limit.max(1);
        self.aborted = false;
        self.stats = SolveStats::default();
        self.moves.clear();
        self.line_rev.clear();
        self.line.clear();
    }

    /// Search with up to `max_attacks` fours.
    fn deepen(&mut self, board: &mut Board, a: Color, max_attacks: i32, stop: &AtomicBool) -> Node {
        // No iterative deepening: fours are few, so one full-depth pass is cheaper than
        // repeated shallow ones, above all for the many "no VCF" answers the VCT and the
        // search ask for (measured with solve-bench and the VCT sets).
        self.attack(board, a, max_attacks, Pos::NONE, None, stop)
    }

    fn finish(&mut self, board: &mut Board, a: Color, r: Node) -> ThreatResult {
        match r {
            Node::Win(plies) => {
                self.line.clear();
                self.line.extend(self.line_rev.iter().rev());
                complete_line(board, a, &self.tt, &self.squares, self.key, &mut self.line);
                match self.line.first() {
                    Some(&first) => ThreatResult::Win { first, plies },
                    None => ThreatResult::Unknown,
                }
            }
            Node::Fail => ThreatResult::NoWin,
            Node::Abort => ThreatResult::Unknown,
        }
    }

    /// Attacker to move with `depth` fours left (a win may take `2 * depth + 1` plies:
    /// the fours, the replies and the five). `last_a` is the attacker's
    /// previous move (for move ordering).
    ///
    /// `parent`: the range of `moves` that holds every four square of the attacker two
    /// plies up, when that node listed them all (not when it only blocked a five).
    fn attack(
        &mut self,
        board: &mut Board,
        a: Color,
        depth: i32,
        last_a: Pos,
        parent: Option<(usize, usize)>,
        stop: &AtomicBool,
    ) -> Node {
        if !self.count_node(stop) {
            return Node::Abort;
        }
        let d = a.opp();
        if let Some(p) = find_five(board, &self.squares, a) {
            self.line_rev.clear();
            self.line_rev.push(p);
            return Node::Win(1);
        }
        if let Some(e) = self.tt.probe(self.key) {
            if e.is_win() && i32::from(e.plies) <= 2 * depth + 1 {
                self.line_rev.clear();
                return Node::Win(i32::from(e.plies));
            }
            if !e.is_win() && i32::from(e.depth) >= depth {
                return Node::Fail;
            }
        }
        if depth <= 0 {
            return Node::Fail;
        }
        let start = self.moves.len();
        let mut listed = true;
        if board.count(d, Pattern4::Five) > 0 {
            listed = false;
            // The defender threatens five: block it, and only go on if the block is a four.
            if board.count(d, Pattern4::Five) >= 2 {
                return self.lost(depth);
            }
            let p = find_five(board, &self.squares, d).expect("counted five");
            if !is_four_move(board, p, a) {
                return self.lost(depth);
            }
            self.moves.push((0, p));
        } else {
            let total = four_count(board, a);
            if total == 0 {
                return self.lost(depth);
            }
            if !self.derive_fours(board, a, last_a, parent, total) {
                self.scan_fours(board, a, last_a, total);
            } else if ON && self.checks.derived_fours {
                let derived = self.moves.len();
                self.scan_fours(board, a, last_a, total);
                let mut fresh = self.moves.split_off(derived);
                fresh.sort_unstable();
                let mut listed: Vec<(u8, Pos)> = self.moves[start..].to_vec();
                listed.sort_unstable();
                assert_eq!(listed, fresh, "derived four list differs\n{board}");
                self.checked.derived_fours += 1;
            }
            self.moves[start..].sort_unstable();
        }
        let end = self.moves.len();
        // Each four's five points, and the table slot of its child prefetched when the
        // block is single (the probes would miss the cache one after the other).
        self.fives.resize(end, (0, Pos::NONE));
        if depth > 1 {
            for i in start..end {
                let m = self.moves[i].1;
                let mut f = [Pos::NONE; 8];
                let n = board.fives_after(m, a, &mut f);
                self.fives[i] = (n.min(2) as u8, f[0]);
                if n == 1 {
                    self.tt
                        .prefetch(self.key ^ HASH.stone(a, m) ^ HASH.stone(d, f[0]));
                }
            }
        }
        let mut result = Node::Fail;
        let list = listed.then_some((start, end));
        for i in start..end {
            let r = self.try_four(board, a, i, depth, list, stop);
            if r != Node::Fail {
                result = r;
                break;
            }
        }
        self.moves.truncate(start);
        match result {
            Node::Win(plies) => {
                let best = *self.line_rev.last().unwrap_or(&Pos::NONE);
                self.tt.store_win(self.key, plies, best.0);
            }
            Node::Fail => self.tt.store_loss(self.key, depth),
            Node::Abort => {}
        }
        result
    }

    /// Push the attacker's four squares onto `moves` by their order key, from the
    /// squares of the list two plies up that are still fours and the fours the last
    /// attacking move `last_a` made along its lines (a stone makes fours only there, and
    /// the defender's stones make none). Done (true) only if that gives all `total` of
    /// them (with no forbid-class square, whose exact status any stone may change);
    /// otherwise nothing is pushed.
    fn derive_fours(
        &mut self,
        board: &Board,
        a: Color,
        last_a: Pos,
        parent: Option<(usize, usize)>,
        total: u32,
    ) -> bool {
        let Some((from, to)) = parent else {
            return false;
        };
        if a == Color::Black && board.count(a, Pattern4::Forbid) > 0 {
            return false;
        }
        let start = self.moves.len();
        for i in from..to {
            let q = self.moves[i].1;
            if let Some(rank) = four_rank(board.pattern4(q, a)) {
                self.moves.push((rank * 16 + order_distance(q, last_a), q));
            }
        }
        let kept = self.moves.len();
        for d in Dir::ALL {
            for k in 1..HALF {
                for q in [last_a.step(d, k), last_a.step(d, -k)] {
                    if let Some(rank) = four_rank(board.pattern4(q, a)) {
                        if !self.moves[start..kept].iter().any(|&(_, p)| p == q) {
                            self.moves.push((rank * 16 + order_distance(q, last_a), q));
                        }
                    }
                }
            }
        }
        if self.moves.len() - start == total as usize {
            true
        } else {
            self.moves.truncate(start);
            false
        }
    }

    /// Push the attacker's four squares (legal ones of the forbid class included) onto
    /// `moves` by their order key, scanning the board until all `total` counted four and
    /// forbid-class squares are seen.
    fn scan_fours(&mut self, board: &mut Board, a: Color, last_a: Pos, total: u32) {
        let mut left = total;
        for i in 0..self.squares.len() {
            let p = self.squares[i];
            let x = board.pattern4(p, a);
            let rank = match four_rank(x) {
                Some(rank) => rank,
                None if x == Pattern4::Forbid => {
                    left -= 1;
                    if !is_four_move(board, p, a) {
                        if left == 0 {
                            break;
                        }
                        continue;
                    }
                    left += 1;
                    3
                }
                None => continue,
            };
            self.moves.push((rank * 16 + order_distance(p, last_a), p));
            left -= 1;
            if left == 0 {
                break;
            }
        }
    }

    /// Count one node; false (and the search aborted) once the node limit is reached or,
    /// checked every 1024 nodes, the stop flag is set.
    #[inline]
    fn count_node(&mut self, stop: &AtomicBool) -> bool {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.node_limit
            || (self.stats.nodes & 1023 == 0 && stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        !self.aborted
    }

    fn lost(&mut self, depth: i32) -> Node {
        self.tt.store_loss(self.key, depth);
        Node::Fail
    }

    /// Play the four `moves[i]`, the forced reply, and search on.
    fn try_four(
        &mut self,
        board: &mut Board,
        a: Color,
        i: usize,
        depth: i32,
        list: Option<(usize, usize)>,
        stop: &AtomicBool,
    ) -> Node {
        let d = a.opp();
        let m = self.moves[i].1;
        // The four's five points, read from the lines before it is placed (the attacker
        // has no other: `attack` returns at a five point first); `attack` has read their
        // number (2 for two or more) and the first below the last depth.
        let mut fives = [Pos::NONE; 8];
        let n5 = match self.fives[i] {
            (n, f) if depth > 1 && n < 2 => {
                fives[0] = f;
                usize::from(n)
            }
            _ => board.fives_after(m, a, &mut fives),
        };
        debug_assert!(find_five(board, &self.squares, a).is_none());
        // A single five point that the defender may take whatever the four does: the
        // block is forced, and the child's table entry can be read before any stone is
        // placed. Half the children end at a loss there, at positions reached by the
        // same fours in another order.
        let forced = n5 == 1 && block_stays_legal(board, fives[0], d);
        if forced {
            if depth <= 1 {
                // The block leaves the attacker no five point and no depth.
                return Node::Fail;
            }
            if self.child_lost(a, m, fives[0], depth) {
                return self.lost_child(stop);
            }
        }
        board.place(m, a);
        self.key ^= HASH.stone(a, m);
        debug_assert_eq!(&fives[..n5], {
            let mut near = [Pos::NONE; 8];
            let k = fives_near(board, m, a, &mut near);
            near[..k].to_vec()
        });
        let r = match reply_to_fives(board, a, &fives[..n5]) {
            Reply::Free => Node::Fail,
            Reply::Lost => {
                self.line_rev.clear();
                Node::Win(3)
            }
            // Without a four square left (the forbid class counted as one) after the
            // four, the block leaves the attacker no four either (a defender stone
            // takes squares away, it makes no attacker four), so the child would fail
            // at once: skip its placement, node and table entry.
            Reply::Forced(_) if depth <= 1 || four_count(board, a) == 0 => Node::Fail,
            // Not looked up above (a renju black block that may have become forbidden):
            // the same table test, now that the four is placed.
            Reply::Forced(f) if !forced && self.child_lost(a, Pos::NONE, f, depth) => {
                self.lost_child(stop)
            }
            Reply::Forced(f) => {
                self.key ^= HASH.stone(d, f);
                board.place(f, d);
                let r = self.attack(board, a, depth - 1, m, list, stop);
                board.lift(f);
                self.key ^= HASH.stone(d, f);
                match r {
                    Node::Win(p) => {
                        self.line_rev.push(f);
                        Node::Win(p + 2)
                    }
                    other => other,
                }
            }
        };
        board.lift(m);
        self.key ^= HASH.stone(a, m);
        if let Node::Win(_) = r {
            self.line_rev.push(m);
        }
        r
    }

    /// True if the table holds a loss, deep enough for `depth - 1` fours, for the
    /// position after the four `m` (`Pos::NONE` if already placed and in the key) and
    /// the defender's block `f`.
    #[inline]
    fn child_lost(&self, a: Color, m: Pos, f: Pos, depth: i32) -> bool {
        let mut key = self.key ^ HASH.stone(a.opp(), f);
        if m.is_some() {
            key ^= HASH.stone(a, m);
        }
        matches!(self.tt.probe(key), Some(e) if !e.is_win() && i32::from(e.depth) >= depth - 1)
    }

    /// A child that [`VcfSolver::child_lost`] settles: it still counts its node (it would
    /// have stopped at the table entry: the block leaves the attacker no five point).
    #[inline]
    fn lost_child(&mut self, stop: &AtomicBool) -> Node {
        if self.count_node(stop) {
            Node::Fail
        } else {
            Node::Abort
        }
    }
}

/// The move-order rank of a four class (straight fours first; `None` for the other
/// classes, the forbid class included).
#[inline]
fn four_rank(x: Pattern4) -> Option<u8> {
    match x {
        Pattern4::Flex4 => Some(0),
        Pattern4::Block4Flex3 => Some(1),
        Pattern4::Block4Plus => Some(2),
        Pattern4::Block4 => Some(3),
        _ => None,
    }
}

/// The distance part of a four's order key: from the attacker's last move, if any.
#[inline]
fn order_distance(p: Pos, last_a: Pos) -> u8 {
    if last_a.is_some() {
        p.distance(last_a).min(15) as u8
    } else {
        0
    }
}

/// Extend a winning line that stopped at a table hit: replay it, then follow the table's
/// best moves and the forced replies until the attack ends. The board is restored.
fn complete_line(
    board: &mut Board,
    a: Color,
    tt: &Tt,
    squares: &[Pos],
    root: u64,
    line: &mut Vec<Pos>,
) {
    let d = a.opp();
    // The line grows to at most `4 * MAX_ATTACKS` moves and one more pair (the loop
    // below stops there); a longer one than any search writes is dropped.
    if line.len() + 2 > MAX_PLACED {
        line.clear();
        return;
    }
    let mut placed = Placed::new();
    let mut key = root;
    let mut finished = false;
    for (i, &p) in line.iter().enumerate() {
        let c = if i % 2 == 0 { a } else { d };
        placed.place(board, p, c);
        key ^= HASH.stone(c, p);
    }
    // The replayed line ends after a defender reply (even length) unless it is complete.
    if line.len() % 2 == 1 {
        finished = true;
    }
    while !finished && line.len() < 4 * MAX_ATTACKS as usize {
        let m = if let Some(p) = find_five(board, squares, a) {
            line.push(p);
            break;
        } else if let Some(p) = find_five(board, squares, d) {
            p
        } else {
            match tt.probe(key) {
                Some(e) if e.is_win() && e.best != 0 => Pos(e.best),
                _ => break,
            }
        };
        if !board.is_empty(m) {
            break;
        }
        line.push(m);
        placed.place(board, m, a);
        key ^= HASH.stone(a, m);
        let mut fives = [Pos::NONE; 8];
        let n5 = fives_near(board, m, a, &mut fives);
        let Reply::Forced(f) = reply_to_fives(board, a, &fives[..n5]) else {
            break;
        };
        line.push(f);
        placed.place(board, f, d);
        key ^= HASH.stone(d, f);
    }
    placed.undo(board);
}
