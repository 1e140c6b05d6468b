//! Expanding an AND node (defender to move): the defender-VCF look, the pass test and
//! the candidate defences that can spoil its VCF line, with the shortcuts that refute
//! some of them without a search.

use super::side::{AndSlot, AND_CACHE_MAX};
use super::table::Entry;
use super::{
    four_class, fours_or_fives, Child, Dfpn, Expanded, Value, BEST_VCF, DEFENCE_VCF_NODES,
    DEFENDER_VCF_KEY, DEFENDER_VCF_NODES, MAX_PASS_LVL, PASS_VCF_NODES, UNIT, VCF_KEY,
};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::threat::replay::replay;
use crate::threat::self_check::ON;
use crate::threat::vcf::VcfSolver;
use crate::threat::{
    all_fives, is_four_move, legal_for, reply_to_fives, scan_counted, Reply, ThreatResult, HASH,
};
use crate::types::{Cell, Color, Dir, Pos, Rule};
use std::sync::atomic::{AtomicBool, Ordering};

impl Dfpn {
    /// Expand an AND node (defender `a.opp()` to move after an attacking move).
    pub(super) fn expand_and(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Expanded {
        let d = a.opp();
        if board.count(d, Pattern4::Five) > 0 {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        let mut pass_lvl = 0u8;
        if let Some((v, e)) = self.lookup(rem) {
            if v.pn == 0 || v.dn == 0 {
                return Expanded::Known(v);
            }
            pass_lvl = e.pass_lvl;
        }
        let mut fives = [Pos::NONE; 8];
        let n5 = all_fives(board, &self.squares, a, &mut fives);
        match reply_to_fives(board, a, &fives[..n5]) {
            Reply::Lost => return Expanded::Done(Self::proven(2), 0),
            Reply::Forced(f) => {
                self.push_child(f, d, rem - 1, UNIT);
                return Expanded::Children {
                    worst: 0,
                    worst_pos: 0,
                    vcf_rem: 0,
                    lvl: 0,
                };
            }
            Reply::Free => {}
        }
        // A revisit whose expansion the side table holds skips the pass test's line and
        // the generation of the defences (one node, the VCF table hit it replaces).
        let cached = self.and_cache_valid(board, a, rem, vcf);
        let verify = ON && self.checks.and_cache;
        if let Some(slot) = &cached {
            if !verify {
                self.stats.nodes += 1;
                return self.expand_cached(slot, a, rem, stop);
            }
        }
        // A defender VCF refutes any move that leaves the attacker without a five point.
        if self.defender_vcf(board, d, stop, vcf) {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        // The attacker's move is a threat only if a pass by the defender loses to a VCF.
        // A test that runs out of its budget leaves the node open with a proof number
        // that grows with each try; the next visit asks again with four times the budget.
        let inexact = self.inexact;
        let budget = PASS_VCF_NODES << (2 * u32::from(pass_lvl.min(MAX_PASS_LVL)));
        let pass_plies = match self.vcf(board, a, rem - 1, budget, stop, vcf) {
            ThreatResult::Win { plies, .. } => plies,
            ThreatResult::NoWin => return Expanded::Done(Self::DISPROVEN, 0),
            ThreatResult::Unknown if self.aborted || pass_lvl >= MAX_PASS_LVL => {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            ThreatResult::Unknown => {
                self.inexact = inexact;
                let lvl = pass_lvl + 1;
                return Expanded::Retry(
                    Value {
                        pn: UNIT * (2 + 2 * u32::from(lvl)),
                        dn: UNIT,
                        plies: 0,
                    },
                    lvl,
                );
            }
        };
        let t0 = self.lines.len();
        self.lines.extend_from_slice(vcf.principal_line());
        let t1 = self.lines.len();
        // A line that does not replay here (a line completed from a table that lost an
        // entry) says nothing about where it can be spoiled: then every square is tried.
        let mut final_fives = ([Pos::NONE; 8], 0);
        let everywhere = t1 == t0
            || match replay(board, a, &self.lines[t0..t1]) {
                None => true,
                Some(f) => {
                    final_fives = (f.fives, f.n_fives);
                    board.rule() == Rule::Renju && f.relies_on_renju
                }
            };
        // Candidate defences, appended to `lines` after the threat.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.line_mark.fill(0);
            self.reply_mark.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        for i in t0..t1 {
            let q = self.lines[i];
            self.line_mark[q.idx()] = stamp;
            if (i - t0) % 2 == 1 {
                self.reply_mark[q.idx()] = stamp;
            }
            if board.is_empty(q) && self.mark[q.idx()] != stamp {
                self.mark[q.idx()] = stamp;
                self.lines.push(q);
            }
        }
        // Lines that the shortcut of `line_survives` covers: not caro (blocked ends
        // matter there), not relying on the renju forbidden-point rule.
        let shortcut = !everywhere && !matches!(board.rule(), Rule::Caro8 | Rule::Caro9);
        let (fives, n_fives) = final_fives;
        let black_renju = d == Color::Black && board.rule() == Rule::Renju;
        if everywhere {
            for i in 0..self.squares.len() {
                let p = self.squares[i];
                if board.is_empty(p) && self.mark[p.idx()] != stamp {
                    self.mark[p.idx()] = stamp;
                    self.lines.push(p);
                }
            }
        } else {
            // A defender stone can only spoil the line at its squares (taken above),
            // near the defender's replies (a reply that now makes a defender four or
            // five), near the last attacking move (its five points) or, under caro
            // rules, at the ends of any of its fives. Elsewhere it only takes away
            // from the attacker what the line does not use: renju black's forbidden
            // points never appear that way (a line that relies on them is handled
            // above), and a defender stone never turns a five into an overline.
            let caro = matches!(board.rule(), Rule::Caro8 | Rule::Caro9);
            let last = t0 + (t1 - t0 - 1) / 2 * 2;
            for i in t0..t1 {
                let q = self.lines[i];
                if !caro && (i - t0).is_multiple_of(2) && i != last {
                    continue;
                }
                for dir in Dir::ALL {
                    for k in -5..=5 {
                        let p = q.step(dir, k);
                        if board.is_empty(p) && self.mark[p.idx()] != stamp {
                            self.mark[p.idx()] = stamp;
                            self.lines.push(p);
                        }
                    }
                }
            }
            // The class counts say how many squares can be fours (the forbid class
            // included): the scan stops after the last one.
            let total = fours_or_fives(board, d) + board.count(d, Pattern4::Forbid);
            let (mark, lines) = (&mut self.mark, &mut self.lines);
            scan_counted(board, &self.squares, d, total, four_class, |board, p, _| {
                if mark[p.idx()] != stamp && is_four_move(board, p, d) {
                    mark[p.idx()] = stamp;
                    lines.push(p);
                }
            });
        }
        let t2 = self.lines.len();
        // The table probes below miss the cache; issued together, the misses overlap.
        for i in t1..t2 {
            let k = self.key ^ HASH.stone(d, self.lines[i]);
            self.tt.prefetch(k);
            vcf.prefetch(k ^ VCF_KEY);
        }
        let mut worst = pass_plies as i16;
        let mut worst_pos = 0u16;
        // The lines of the last two VCFs that quick looks found here (ranges of `lines`
        // and plies).
        let mut alt = [(0usize, 0usize, 0i32); 2];
        let mut n_alt = 0usize;
        // The legal candidates, for the side table.
        let mut legal = [0u16; AND_CACHE_MAX];
        let mut n_legal = 0usize;
        for i in t1..t2 {
            let c = self.lines[i];
            if !legal_for(board, c, d) {
                continue;
            }
            if n_legal < AND_CACHE_MAX {
                legal[n_legal] = c.0;
            }
            n_legal += 1;
            let known = self.lookup_key(self.key ^ HASH.stone(d, c), rem - 1);
            let v = match known {
                Some((v, e)) => {
                    self.note_sibling(c, v, &e);
                    v
                }
                None if shortcut && self.line_survives(board, c, a, &fives[..n_fives]) => {
                    debug_assert!({
                        self.place(board, c, d);
                        let ok = replay(board, a, &self.lines[t0..t1]).is_some();
                        self.lift(board, c, d);
                        ok
                    });
                    if ON && self.checks.line_shortcut {
                        self.place(board, c, d);
                        let ok = replay(board, a, &self.lines[t0..t1]).is_some();
                        self.lift(board, c, d);
                        assert!(ok, "line_survives: the line fails after {c:?}");
                        self.checked.line_shortcut += 1;
                    }
                    let v = Self::proven(pass_plies);
                    let key = self.key;
                    self.key ^= HASH.stone(d, c);
                    self.store(v, rem - 1, BEST_VCF, 0, 0, 0);
                    self.key = key;
                    v
                }
                None => {
                    self.place(board, c, d);
                    let four = board.count(d, Pattern4::Five) > 0;
                    // A stone on the line's own squares spoils the replay, unless it
                    // is a renju black stone that makes one of black's replies
                    // forbidden (and the line wins earlier).
                    let on_line = self.line_mark[c.idx()] == stamp && !black_renju;
                    let refuted =
                        if !four && !on_line && replay(board, a, &self.lines[t0..t1]).is_some() {
                            Some(pass_plies)
                        } else if let Some(pl) = (!four)
                            .then(|| {
                                alt.iter().take(n_alt).find_map(|&(s, e, pl)| {
                                    replay(board, a, &self.lines[s..e]).map(|_| pl)
                                })
                            })
                            .flatten()
                        {
                            // Another VCF line that an earlier candidate's quick look
                            // found still works: no look needed.
                            if ON && self.checks.alt_lines {
                                assert!(
                                    fresh_vcf_line(board, a).is_some(),
                                    "alternative line: no VCF\n{board}"
                                );
                                self.checked.alt_lines += 1;
                            }
                            Some(pl)
                        } else {
                            // A cheap look for another VCF: the proof number of this node
                            // then counts fewer defences that are no real ones.
                            // Its "unknown" is no loss of exactness: the node asks again.
                            let inexact = self.inexact;
                            let r = self.vcf(board, a, rem - 1, DEFENCE_VCF_NODES, stop, vcf);
                            self.inexact = inexact;
                            match r {
                                ThreatResult::Win { plies, .. } => {
                                    let s = self.lines.len();
                                    self.lines.extend_from_slice(vcf.principal_line());
                                    alt[1] = alt[0];
                                    alt[0] = (s, self.lines.len(), plies);
                                    n_alt = (n_alt + 1).min(2);
                                    Some(plies)
                                }
                                _ => None,
                            }
                        };
                    let v = if let Some(pl) = refuted {
                        let v = Self::proven(pl);
                        self.store(v, rem - 1, BEST_VCF, 0, 0, 0);
                        v
                    } else {
                        // A real candidate: its own expansion asks for a new VCF first.
                        // A counter-four is usually answered and the threat stands.
                        // Stored, so that revisits of this node skip the quick look.
                        let v = Value {
                            pn: if four { 1 } else { UNIT },
                            dn: UNIT,
                            plies: 0,
                        };
                        self.store(v, rem - 1, 0, 0, 0, 0);
                        v
                    };
                    self.lift(board, c, d);
                    v
                }
            };
            if !self.add_defence(c, v, &mut worst, &mut worst_pos) {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            if self.aborted || stop.load(Ordering::Relaxed) {
                self.aborted = true;
                break;
            }
        }
        if !self.aborted && n_legal <= AND_CACHE_MAX {
            if let Some(slot) = &cached {
                assert!(
                    i32::from(slot.pass_plies) == pass_plies
                        && slot.cands[..usize::from(slot.n)] == legal[..n_legal],
                    "AND cache: stored expansion differs from the fresh one"
                );
                self.checked.and_cache += 1;
            }
            self.and_cache
                .store(self.key, pass_plies as i16, &legal[..n_legal]);
        }
        Expanded::Children {
            worst,
            worst_pos,
            vcf_rem: 0,
            lvl: 0,
        }
    }

    /// True if the defender `d`, to move, has a VCF: a win whatever the attacker does,
    /// so an exact disproof of the current AND node (no attacker five point on the
    /// board). A look that runs out of its budget says false and leaves the node to the
    /// usual expansion.
    pub(super) fn defender_vcf(
        &mut self,
        board: &mut Board,
        d: Color,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> bool {
        let plies = i32::from(i16::MAX) - 1;
        let r = self.vcf_look(
            board,
            d,
            plies,
            DEFENDER_VCF_NODES,
            DEFENDER_VCF_KEY,
            stop,
            vcf,
        );
        if self.stats.nodes >= self.node_limit || stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if r.is_win() && ON && self.checks.defender_vcf {
            // A line completed from a table that lost an entry may not replay: then a
            // fresh solver must find one that does.
            let ok = replay(board, d, vcf.principal_line()).is_some()
                || fresh_vcf_line(board, d).is_some_and(|l| replay(board, d, &l).is_some());
            assert!(ok, "defender VCF does not hold\n{board}");
            self.checked.defender_vcf += 1;
        }
        r.is_win()
    }

    /// The side table's expansion of the current AND node (no five on the board), if
    /// generating it afresh would give the same: the VCF table answers the pass test at
    /// once with the stored length, every candidate has a table value that applies (so
    /// none would get a replay or a quick look), and the pass test's one node would not
    /// hit the node limit.
    pub(super) fn and_cache_valid(
        &self,
        board: &Board,
        a: Color,
        rem: i32,
        vcf: &VcfSolver,
    ) -> Option<AndSlot> {
        let slot = *self.and_cache.probe(self.key)?;
        let plies = vcf.table_win(board, a, rem - 1, self.key ^ VCF_KEY)?;
        if plies != i32::from(slot.pass_plies)
            || self.node_limit - self.stats.nodes.min(self.node_limit) <= 1
        {
            return None;
        }
        let d = a.opp();
        for &c in &slot.cands[..usize::from(slot.n)] {
            self.tt.prefetch(self.key ^ HASH.stone(d, Pos(c)));
        }
        slot.cands[..usize::from(slot.n)]
            .iter()
            .all(|&c| {
                self.lookup_key(self.key ^ HASH.stone(d, Pos(c)), rem - 1)
                    .is_some()
            })
            .then_some(slot)
    }

    /// Take the candidate defence `c`, with its table value `v` and entry `e`, as the
    /// expansion's `sib_hint` if it is proven by a move and has the most work so far.
    #[inline]
    pub(super) fn note_sibling(&mut self, c: Pos, v: Value, e: &Entry) {
        if v.pn == 0 && e.best != BEST_VCF && e.best != 0 && e.work >= self.sib_hint.1 {
            self.sib_hint = (c, e.work);
        }
    }

    /// Account one candidate defence `c` of the current AND node with its value `v`: a
    /// proven one raises the longest proof (`worst`, at `worst_pos`), an open one becomes
    /// a child. Returns false when the defence is disproven, which refutes the node.
    pub(super) fn add_defence(
        &mut self,
        c: Pos,
        v: Value,
        worst: &mut i16,
        worst_pos: &mut u16,
    ) -> bool {
        if v.dn == 0 {
            return false;
        }
        if v.pn == 0 {
            if v.plies > *worst {
                *worst = v.plies;
                *worst_pos = c.0;
            }
        } else {
            self.children.push(Child {
                pos: c,
                pn: v.pn,
                dn: v.dn,
                plies: 0,
            });
        }
        true
    }

    /// Expand the current AND node from a valid side-table entry: the candidate loop
    /// of [`Dfpn::expand_and`] where every candidate is known.
    pub(super) fn expand_cached(
        &mut self,
        slot: &AndSlot,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
    ) -> Expanded {
        let d = a.opp();
        let mut worst = slot.pass_plies;
        let mut worst_pos = 0u16;
        for &c in &slot.cands[..usize::from(slot.n)] {
            let c = Pos(c);
            let Some((v, e)) = self.lookup_key(self.key ^ HASH.stone(d, c), rem - 1) else {
                unreachable!("checked by and_cache_valid");
            };
            self.note_sibling(c, v, &e);
            if !self.add_defence(c, v, &mut worst, &mut worst_pos) {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            if self.aborted || stop.load(Ordering::Relaxed) {
                self.aborted = true;
                break;
            }
        }
        Expanded::Children {
            worst,
            worst_pos,
            vcf_rem: 0,
            lvl: 0,
        }
    }

    /// True if a defender stone on the empty square `c` certainly leaves the current AND
    /// node's VCF line of attacker `a` working, so that [`replay`] would succeed: the
    /// exact shortcut that spares most replays (they were a fifth of the solver's time).
    ///
    /// Valid only for a line that replays on the position, without the renju
    /// forbidden-point rule (`relies_on_renju` false) and not under caro rules; its
    /// squares carry `line_mark` and its defender replies `reply_mark` (current stamp).
    /// Then the stone changes the replay only if it is on the line, takes a five point
    /// of the last attacking move (the only one with several), or gives the defender a
    /// five point at some step: every window of five through `c` holds an attacker
    /// stone or the wall, or at most three defender stones counting `c` and every reply
    /// of the line. (A defender stone never adds to the attacker's patterns, so the
    /// attacker's moves stay legal and its five points stay five points; a renju black
    /// defender stone can only make a reply forbidden, which ends the line as a win.)
    /// `final_fives`: the attacker's five points after the line (from the replay).
    pub(super) fn line_survives(
        &self,
        board: &Board,
        c: Pos,
        a: Color,
        final_fives: &[Pos],
    ) -> bool {
        let stamp = self.stamp;
        if self.line_mark[c.idx()] == stamp || final_fives.contains(&c) {
            return false;
        }
        let d = a.opp();
        let own = Cell::stone(d);
        for dir in Dir::ALL {
            // 1: the defender's (or c itself), 2: blocked, 0: empty.
            let mut st = [0u8; 9];
            for (k, s) in st.iter_mut().enumerate() {
                let q = c.step(dir, k as i32 - 4);
                *s = if k == 4 || self.reply_mark[q.idx()] == stamp {
                    1
                } else {
                    match board.cell(q) {
                        Cell::Empty => 0,
                        x if x == own => 1,
                        _ => 2,
                    }
                };
            }
            for w in st.windows(5) {
                if !w.contains(&2) && w.iter().filter(|&&x| x == 1).count() >= 4 {
                    return false;
                }
            }
        }
        true
    }
}

/// For the checks only: the line of a VCF for `c` that a fresh solver (its own table, a
/// large budget, no stop, no checks) finds on `board`, if it finds one.
fn fresh_vcf_line(board: &mut Board, c: Color) -> Option<Vec<Pos>> {
    let mut fresh = VcfSolver::new(1 << 20);
    let never = AtomicBool::new(false);
    let win = fresh.solve(board, c, 199, 2_000_000, &never).is_win();
    win.then(|| fresh.principal_line().to_vec())
}
