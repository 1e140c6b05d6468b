//! VCT: victory by continuous threats (fours and threes).
//!
//! Attacker nodes try, in order: a five; the forced block of a defender five; a VCF; every
//! move making a four, a three, two closed threes or two open twos (renju black: legal
//! ones only). A move counts as a threat only if the attacker would have a VCF were the
//! defender to pass. At a defender node
//! after a three, the defences considered are every square that can touch the attacker's
//! VCF line (within five cells along a line of any of its stones: no other square can
//! change a pattern the line relies on), every defender four, and in the renju cases where
//! the line relies on the exact forbidden-point rule, every empty square. A defence is
//! refuted at once if the VCF line still works after it (replayed move by move) or a new
//! VCF exists; the others are searched recursively (depth first, so a failing threat is
//! dropped at its first real defence). Iterative deepening on the number of threats that
//! are not part of a VCF, within a total limit on attacking moves; a table of proven and
//! disproven positions.

use super::dfpn::Dfpn;
use super::replay::replay;
#[cfg(feature = "self-check")]
use super::self_check::{SelfCheckCounts, SelfChecks};
use super::tt::Tt;
use super::vcf::VcfSolver;
use super::{all_fives, reply_to_fives, threat_rank, Reply};
use super::{
    find_five, is_four_move, legal_for, root_key, squares, SolveStats, ThreatResult, HASH,
};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::{Color, Dir, Pos, Rule, NUM_CELLS};
use std::sync::atomic::{AtomicBool, Ordering};

/// Longest attack followed (attacking moves before the five).
pub const MAX_ATTACKS: i32 = 60;
/// Node budget of the first turn of each search in [`VctSolver::solve`].
const PORTFOLIO_FIRST_ROUND: u64 = 20_000;
/// Node budget of each inner VCF question.
const INNER_VCF_NODES: u64 = 20_000;
/// Node budget of the "would the defender's pass lose to a VCF?" test of each candidate
/// threat. Most candidates are no threat and a small budget drops them quickly; a real
/// threat whose VCF needs more is missed (sound: only a "no win" becomes "unknown").
/// 100 nodes: 4.53M -> 2.10M nodes on 12 black_win_100 puzzles, 16 -> 17 of 20 Gao Fei
/// puzzles within 3 s (measured with `solve --mode vct`).
const PASS_VCF_NODES: u64 = 100;

/// What an attacker may still spend: `total` attacking moves before the five (fours of
/// a VCF included) and `threats` moves that are not part of a VCF.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Budget {
    total: i32,
    threats: i32,
}

impl Budget {
    /// Longest win (plies) this budget allows.
    fn plies(self) -> i32 {
        2 * self.total + 1
    }
    /// After one attacking move (`threat`: one that is not a VCF four).
    fn after(self, threat: bool) -> Budget {
        Budget {
            total: self.total - 1,
            threats: self.threats - i32::from(threat),
        }
    }
}

/// Result of one node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Node {
    Win(i32),
    Fail,
    Abort,
}

/// Reusable VCT solver with its own table and an inner VCF solver.
///
/// Why it exists: the root of the search asks whether either side has a forced win by
/// threats; the table persists across calls so repeated questions get cheaper.
pub struct VctSolver {
    vcf: VcfSolver,
    dfpn: Dfpn,
    tt: Tt,
    squares: Vec<Pos>,
    size: (usize, usize),
    key: u64,
    node_limit: u64,
    inexact: bool,
    cut: bool,
    /// Node budget of the current inner VCF question.
    vcf_budget: u64,
    /// Node budget of the pass test.
    pass_budget: u64,
    stats: SolveStats,
    line: Vec<Pos>,
    mark: Vec<u32>,
    stamp: u32,
}

impl VctSolver {
    /// A solver whose tables use about `tt_bytes` bytes in all.
    #[must_use]
    pub fn new(tt_bytes: usize) -> VctSolver {
        VctSolver {
            vcf: VcfSolver::new(tt_bytes / 4),
            dfpn: Dfpn::new(tt_bytes / 2),
            tt: Tt::new(tt_bytes / 4),
            squares: Vec::new(),
            size: (0, 0),
            key: 0,
            node_limit: 0,
            inexact: false,
            cut: false,
            vcf_budget: INNER_VCF_NODES,
            pass_budget: PASS_VCF_NODES,
            stats: SolveStats::default(),
            line: Vec::new(),
            mark: vec![0; NUM_CELLS],
            stamp: 0,
        }
    }

    /// Run the self-checks `checks` from now on, in the df-pn search and the inner VCF
    /// solver (see [`super::self_check`]).
    #[cfg(feature = "self-check")]
    pub fn set_self_checks(&mut self, checks: SelfChecks) {
        self.vcf.set_self_checks(checks);
        self.dfpn.checks = checks;
    }

    /// The verdicts that this solver's self-checks verified so far.
    #[cfg(feature = "self-check")]
    #[must_use]
    pub fn self_check_counts(&self) -> SelfCheckCounts {
        self.vcf.self_check_counts() + self.dfpn.checked
    }

    /// Forget all stored results.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.vcf.clear();
        self.dfpn.clear();
    }

    /// Counters of the last call (inner VCF nodes included).
    #[must_use]
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// The main line of the last win: the first attacking move, then the defender's
    /// most stubborn reply and the attack against it, and so on. Defences not on the line
    /// are refuted too (the proof covers them) but are not listed.
    #[must_use]
    pub fn principal_line(&self) -> &[Pos] {
        &self.line
    }

    /// Can `attacker`, moving now, force a five within `max_plies` plies using only fours
    /// and threes? At most `node_limit` nodes (VCF nodes included); `stop` aborts. The
    /// board is left unchanged. `NoWin` is returned only when the search was exhaustive
    /// over the threat moves this solver tries (fours, threes, two closed threes, two open
    /// twos): a quieter first move may still win (quintet's `vct_game_black_l05_3`), so
    /// treat `NoWin` as "none found", unlike the VCF solver's exact `NoWin`.
    ///
    /// Searched by df-pn ([`VctSolver::solve_dfpn`]; see [`super::dfpn`]).
    pub fn solve(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
    ) -> ThreatResult {
        self.solve_dfpn(board, attacker, max_plies, node_limit, stop)
    }

    /// [`VctSolver::solve`] by df-pn ([`VctSolver::solve_dfpn`]) and the depth-first
    /// search ([`VctSolver::solve_dfs`]) in turns with doubling node budgets (each keeps
    /// its table between turns): each solves some puzzles the other does not, at a cost of
    /// a small factor over the faster one (black_win_100 at 400k nodes a puzzle: df-pn 53
    /// of 73, depth-first 40, two of those not among df-pn's).
    pub fn solve_portfolio(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
    ) -> ThreatResult {
        let mut used = 0u64;
        let mut round = PORTFOLIO_FIRST_ROUND;
        loop {
            let mut progressed = false;
            for dfs in [false, true] {
                let left = node_limit.saturating_sub(used);
                if left == 0 || stop.load(Ordering::Relaxed) {
                    self.stats.nodes = used;
                    return ThreatResult::Unknown;
                }
                let budget = round.min(left);
                let r = if dfs {
                    self.solve_dfs(board, attacker, max_plies, budget, stop)
                } else {
                    self.solve_dfpn(board, attacker, max_plies, budget, stop)
                };
                used = used.saturating_add(self.stats.nodes);
                if r != ThreatResult::Unknown {
                    self.stats.nodes = used;
                    return r;
                }
                // Unknown without spending the budget: an inner question was cut short,
                // more nodes would not change the answer.
                progressed |= self.stats.nodes >= budget;
            }
            if !progressed {
                self.stats.nodes = used;
                return ThreatResult::Unknown;
            }
            round = round.saturating_mul(2);
        }
    }

    /// Can `attacker` win by threats? (as [`VctSolver::solve`]), by df-pn.
    pub fn solve_dfpn(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
    ) -> ThreatResult {
        let key = root_key(board, attacker, 0xDF9);
        let r = self.dfpn.solve(
            board,
            attacker,
            max_plies,
            node_limit,
            stop,
            key,
            &mut self.vcf,
        );
        self.stats = self.dfpn.stats;
        self.line.clear();
        self.line.extend_from_slice(&self.dfpn.line);
        r
    }

    /// The same question answered by the older depth-first search (iterative deepening
    /// on the number of threats that are not part of a VCF); kept for comparison.
    pub fn solve_dfs(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
    ) -> ThreatResult {
        if self.size != (board.width(), board.height()) || self.squares.is_empty() {
            self.squares = squares(board);
            self.size = (board.width(), board.height());
        }
        self.key = root_key(board, attacker, 0x7C7);
        self.node_limit = node_limit.max(1);
        self.inexact = false;
        self.stats = SolveStats::default();
        self.line.clear();
        if max_plies < 1 {
            return ThreatResult::NoWin;
        }
        let max_attacks = ((max_plies - 1) / 2).clamp(0, MAX_ATTACKS);
        // Iterative deepening on the number of non-VCF threats; VCFs may take the whole
        // remaining budget at every node.
        let mut threats = 1;
        loop {
            let t = threats.min(max_attacks);
            self.cut = false;
            let budget = Budget {
                total: max_attacks,
                threats: t,
            };
            let (r, line) = self.attack(board, attacker, budget, stop);
            match r {
                Node::Win(plies) => {
                    self.line = line;
                    return match self.line.first() {
                        Some(&first) => ThreatResult::Win { first, plies },
                        None => ThreatResult::Unknown,
                    };
                }
                Node::Abort => return ThreatResult::Unknown,
                Node::Fail if t >= max_attacks || !self.cut => {
                    return if self.inexact {
                        ThreatResult::Unknown
                    } else {
                        ThreatResult::NoWin
                    };
                }
                Node::Fail => threats += 1,
            }
        }
    }

    fn tick(&mut self, stop: &AtomicBool) -> bool {
        self.stats.nodes += 1;
        self.stats.nodes >= self.node_limit
            || (self.stats.nodes & 255 == 0 && stop.load(Ordering::Relaxed))
    }

    /// The "defender passes" VCF question, with its own node budget.
    fn pass_vcf(
        &mut self,
        board: &mut Board,
        a: Color,
        max_plies: i32,
        stop: &AtomicBool,
    ) -> ThreatResult {
        self.vcf_budget = self.pass_budget;
        let r = self.vcf(board, a, max_plies, stop);
        self.vcf_budget = INNER_VCF_NODES;
        r
    }

    /// Ask the inner VCF solver about `who` on the current (look-ahead) position.
    fn vcf(
        &mut self,
        board: &mut Board,
        who: Color,
        max_plies: i32,
        stop: &AtomicBool,
    ) -> ThreatResult {
        let left = self
            .node_limit
            .saturating_sub(self.stats.nodes)
            .max(1)
            .min(self.vcf_budget);
        let key = self.key ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(who.idx() as u64 + 3));
        let r = self
            .vcf
            .solve_keyed(board, who, max_plies, left.min(INNER_VCF_NODES), stop, key);
        self.stats.nodes += self.vcf.stats().nodes;
        if r == ThreatResult::Unknown {
            self.inexact = true;
        }
        r
    }

    /// Store a failure unless the node budget ran out during this call: a VCF question
    /// cut short by it counted as "no VCF", which must not outlive the call.
    fn store_loss(&mut self, key: u64, bud: Budget) {
        if self.stats.nodes < self.node_limit {
            self.tt.store_loss_total(key, bud.threats, bud.total);
        }
    }

    fn place(&mut self, board: &mut Board, p: Pos, c: Color) {
        board.place(p, c);
        self.key ^= HASH.stone(c, p);
    }

    fn lift(&mut self, board: &mut Board, p: Pos, c: Color) {
        board.lift(p);
        self.key ^= HASH.stone(c, p);
    }

    /// Attacker to move with budget `bud`.
    fn attack(
        &mut self,
        board: &mut Board,
        a: Color,
        bud: Budget,
        stop: &AtomicBool,
    ) -> (Node, Vec<Pos>) {
        if self.tick(stop) {
            return (Node::Abort, Vec::new());
        }
        let d = a.opp();
        if let Some(p) = find_five(board, &self.squares, a) {
            return (Node::Win(1), vec![p]);
        }
        if let Some(e) = self.tt.probe(self.key) {
            if e.is_win() && i32::from(e.plies) <= bud.plies() {
                return (Node::Win(i32::from(e.plies)), vec![Pos(e.best)]);
            }
            if !e.is_win() && i32::from(e.depth) >= bud.threats && i32::from(e.total) >= bud.total {
                // The stored failure may have been limited by a threat budget (of this
                // or an earlier call): let the deepening go on.
                self.cut = true;
                return (Node::Fail, Vec::new());
            }
        }
        if bud.total <= 0 {
            return (Node::Fail, Vec::new());
        }
        let key = self.key;
        let nd = board.count(d, Pattern4::Five);
        if nd > 0 {
            // Forced block (it need not be a threat itself; the defender node decides).
            let p = find_five(board, &self.squares, d).expect("counted five");
            if nd >= 2 || !legal_for(board, p, a) {
                self.store_loss(key, bud);
                return (Node::Fail, Vec::new());
            }
            self.place(board, p, a);
            let (r, l) = self.defend(board, a, bud.after(false), stop);
            self.lift(board, p, a);
            return self.conclude(key, bud, p, r, l);
        }
        if let ThreatResult::Win { plies, .. } = self.vcf(board, a, bud.plies(), stop) {
            let l = self.vcf.principal_line().to_vec();
            self.tt.store_win(key, plies, l[0].0);
            return (Node::Win(plies), l);
        }
        if bud.total <= 1 {
            // One attacking move left: only a VCF (checked above) can win.
            self.store_loss(key, bud);
            return (Node::Fail, Vec::new());
        }
        if bud.threats <= 0 {
            self.cut = true;
            return (Node::Fail, Vec::new());
        }
        let mut moves: Vec<(u8, Pos)> = Vec::new();
        let last = board.last_move();
        for i in 0..self.squares.len() {
            let p = self.squares[i];
            // Open twos alone are no threat for this search.
            let rank = match board.pattern4(p, a) {
                Pattern4::Forbid if is_threat_forbid(board, p, a) => 3,
                x => match threat_rank(x) {
                    Some(r) if r <= 8 => r,
                    _ => continue,
                },
            };
            let dist = last.map_or(0, |q| p.distance(q).min(15) as u8);
            moves.push((rank * 16 + dist, p));
        }
        moves.sort_unstable();
        for &(_, m) in &moves {
            self.place(board, m, a);
            let (r, l) = self.defend(board, a, bud.after(true), stop);
            self.lift(board, m, a);
            match r {
                Node::Win(_) | Node::Abort => return self.conclude(key, bud, m, r, l),
                Node::Fail => {}
            }
        }
        self.store_loss(key, bud);
        (Node::Fail, Vec::new())
    }

    /// Store and shape the result of attacker move `m` whose defender node gave `r`.
    fn conclude(
        &mut self,
        key: u64,
        bud: Budget,
        m: Pos,
        r: Node,
        l: Vec<Pos>,
    ) -> (Node, Vec<Pos>) {
        match r {
            Node::Win(p) => {
                self.tt.store_win(key, p + 1, m.0);
                let mut line = vec![m];
                line.extend(l);
                (Node::Win(p + 1), line)
            }
            Node::Fail => {
                self.store_loss(key, bud);
                (Node::Fail, Vec::new())
            }
            Node::Abort => (Node::Abort, Vec::new()),
        }
    }

    /// Defender to move after an attacking move; the attacker then has budget `bud`.
    /// Plies are counted from the defender's move.
    fn defend(
        &mut self,
        board: &mut Board,
        a: Color,
        bud: Budget,
        stop: &AtomicBool,
    ) -> (Node, Vec<Pos>) {
        if self.tick(stop) {
            return (Node::Abort, Vec::new());
        }
        let d = a.opp();
        if board.count(d, Pattern4::Five) > 0 {
            return (Node::Fail, Vec::new());
        }
        let mut fives = [Pos::NONE; 8];
        let n5 = all_fives(board, &self.squares, a, &mut fives);
        match reply_to_fives(board, a, &fives[..n5]) {
            Reply::Lost => return (Node::Win(2), Vec::new()),
            Reply::Forced(f) => {
                self.place(board, f, d);
                let (r, l) = self.attack(board, a, bud, stop);
                self.lift(board, f, d);
                return match r {
                    Node::Win(p) => {
                        let mut line = vec![f];
                        line.extend(l);
                        (Node::Win(p + 1), line)
                    }
                    other => (other, Vec::new()),
                };
            }
            // No five point, or (caro) several useful blocks: the general defence below.
            Reply::Free => {}
        }
        // A threat only if the attacker has a VCF should the defender pass.
        let max_plies = bud.plies();
        let ThreatResult::Win {
            plies: pass_plies, ..
        } = self.pass_vcf(board, a, max_plies, stop)
        else {
            return (Node::Fail, Vec::new());
        };
        let threat = self.vcf.principal_line().to_vec();
        let Some(flags) = replay(board, a, &threat) else {
            // The line did not replay (should not happen): be safe, consider everything.
            return self.defend_all(board, a, bud, &threat, pass_plies, true, stop);
        };
        let everywhere = board.rule() == Rule::Renju && flags.relies_on_renju;
        self.defend_all(board, a, bud, &threat, pass_plies, everywhere, stop)
    }

    /// Try every defence that may refute the attacker's VCF line `threat`.
    #[allow(clippy::too_many_arguments)]
    fn defend_all(
        &mut self,
        board: &mut Board,
        a: Color,
        bud: Budget,
        threat: &[Pos],
        pass_plies: i32,
        everywhere: bool,
        stop: &AtomicBool,
    ) -> (Node, Vec<Pos>) {
        let d = a.opp();
        let max_plies = bud.plies();
        // Candidate defences.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let mut cands: Vec<Pos> = Vec::new();
        // The line's own squares first: they are the likeliest refutations.
        for &q in threat {
            if board.is_empty(q) && self.mark[q.idx()] != stamp {
                self.mark[q.idx()] = stamp;
                cands.push(q);
            }
        }
        if everywhere {
            for i in 0..self.squares.len() {
                let p = self.squares[i];
                if board.is_empty(p) && self.mark[p.idx()] != stamp {
                    self.mark[p.idx()] = stamp;
                    cands.push(p);
                }
            }
        } else {
            for &q in threat {
                for dir in Dir::ALL {
                    for k in -5..=5 {
                        let p = q.step(dir, k);
                        if board.is_empty(p) && self.mark[p.idx()] != stamp {
                            self.mark[p.idx()] = stamp;
                            cands.push(p);
                        }
                    }
                }
            }
            for i in 0..self.squares.len() {
                let p = self.squares[i];
                if board.is_empty(p) && self.mark[p.idx()] != stamp && is_four_move(board, p, d) {
                    self.mark[p.idx()] = stamp;
                    cands.push(p);
                }
            }
        }
        let mut worst = pass_plies + 1;
        let mut line = Vec::new();
        for &c in &cands {
            if !legal_for(board, c, d) {
                continue;
            }
            self.place(board, c, d);
            let refuted =
                if board.count(d, Pattern4::Five) == 0 && replay(board, a, threat).is_some() {
                    Some(pass_plies)
                } else {
                    match self.vcf(board, a, max_plies, stop) {
                        ThreatResult::Win { plies, .. } => Some(plies),
                        _ => None,
                    }
                };
            let r = match refuted {
                Some(p) => (Node::Win(p), Vec::new()),
                // Not refuted by a VCF: the attacker needs another threat (depth first,
                // so a failing attack is dropped at its first real defence).
                None if bud.threats <= 0 || bud.total <= 1 => {
                    self.cut |= bud.threats <= 0;
                    (Node::Fail, Vec::new())
                }
                None => self.attack(board, a, bud, stop),
            };
            self.lift(board, c, d);
            match r {
                (Node::Win(p), l) => {
                    if p + 1 > worst || (line.is_empty() && !l.is_empty()) {
                        worst = worst.max(p + 1);
                        line = vec![c];
                        line.extend(l);
                    }
                }
                (other, _) => return (other, Vec::new()),
            }
            if self.stats.nodes >= self.node_limit || stop.load(Ordering::Relaxed) {
                return (Node::Abort, Vec::new());
            }
        }
        (Node::Win(worst), line)
    }
}

/// Renju black's forbid-class square that is a legal three or four move.
fn is_threat_forbid(board: &mut Board, p: Pos, a: Color) -> bool {
    a == Color::Black && board.rule() == Rule::Renju && !board.is_forbidden(p)
}
