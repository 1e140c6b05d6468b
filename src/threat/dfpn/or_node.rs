//! Expanding an OR node (attacker to move): the threats, their classes and initial
//! proof numbers, and the defender's fours after each.

use super::side::OR_CACHE_MAX;
use super::{
    four_class, fours_or_fives, Dfpn, Expanded, BEST_VCF, COUNTER_FOUR_PN, DEPTH_PN,
    INNER_VCF_NODES, OR_VCF_LEVELS, OR_VCF_NODES, SIM_MAX_NODES, SIM_MIN_NODES, UNIT,
};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::threat::self_check::ON;
use crate::threat::vcf::VcfSolver;
use crate::threat::{
    class_count, find_five, legal_for, scan_counted, threat_rank, ThreatResult, HASH,
};
use crate::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;

impl Dfpn {
    /// Expand an OR node: a result, or its children pushed on the child stack.
    pub(super) fn expand_or(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Expanded {
        let d = a.opp();
        if board.count(a, Pattern4::Five) > 0 {
            let p = find_five(board, &self.squares, a).map_or(0, |p| p.0);
            return Expanded::Done(Self::proven(1), p);
        }
        let mut vcf_known = false;
        let mut sim_tried = 0u8;
        let mut vcf_lvl = 0u8;
        if let Some((v, e)) = self.lookup(rem) {
            if v.pn == 0 || v.dn == 0 {
                return Expanded::Known(v);
            }
            vcf_known = i32::from(e.vcf_rem) >= rem;
            sim_tried = e.pass_lvl & 1;
            vcf_lvl = e.pass_lvl >> 1;
        }
        // A win needs at least a four, its block and the five.
        if rem < 3 {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        let nd = board.count(d, Pattern4::Five);
        if nd > 0 {
            let p = find_five(board, &self.squares, d).expect("counted five");
            if nd >= 2 || !legal_for(board, p, a) {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            self.push_child(p, a, rem - 1, UNIT);
            return Expanded::Children {
                worst: 0,
                worst_pos: 0,
                vcf_rem: 0,
                lvl: 0,
            };
        }
        let mut vcf_asked = true;
        if !vcf_known {
            // A small budget on the first visit, four times more on each revisit (the
            // question almost never wins); the full one where only a VCF can win.
            let full = rem < 5 || vcf_lvl >= OR_VCF_LEVELS;
            let budget = if full {
                INNER_VCF_NODES
            } else {
                (OR_VCF_NODES << (2 * u32::from(vcf_lvl))).min(INNER_VCF_NODES)
            };
            match self.vcf(board, a, rem, budget, stop, vcf) {
                ThreatResult::Win { plies, .. } => {
                    return Expanded::Done(Self::proven(plies), BEST_VCF);
                }
                ThreatResult::Unknown if !full => {
                    vcf_asked = false;
                    vcf_lvl += 1;
                }
                _ => {}
            }
        }
        // A three, its defence, a four, its block and the five: five plies at least.
        if rem < 5 || self.aborted {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        if sim_tried == 0 && self.delta != 0 {
            let analog = self.lookup_key(self.key ^ self.delta, rem);
            if let Some((v, e)) = analog {
                if v.pn == 0 && e.best != BEST_VCF && e.best != 0 {
                    sim_tried = 1;
                    let budget = (u64::from(e.work) / 2).clamp(SIM_MIN_NODES, SIM_MAX_NODES);
                    self.sim_end = self.stats.nodes + budget;
                    let delta = self.delta;
                    if let Some(plies) = self.simulate_or(board, a, rem, delta, stop, vcf) {
                        return Expanded::Known(Self::proven(i32::from(plies)));
                    }
                    if self.aborted {
                        return Expanded::Done(Self::DISPROVEN, 0);
                    }
                }
            }
        }
        // The threats: from the side table on a revisit, else from a scan of the board.
        self.threats.clear();
        let hit = match self.or_cache.probe(self.key) {
            Some(slot) => {
                self.threats
                    .extend_from_slice(&slot.threats[..slot.n as usize]);
                true
            }
            None => false,
        };
        if hit && ON && self.checks.or_cache {
            let mut stored = std::mem::take(&mut self.threats);
            self.scan_threats(board, a);
            let mut fresh = self.threats.clone();
            fresh.sort_unstable();
            stored.sort_unstable();
            assert_eq!(fresh, stored, "OR cache: stored threats differ\n{board}");
            self.checked.or_cache += 1;
        } else if !hit {
            self.scan_threats(board, a);
            if self.threats.len() <= OR_CACHE_MAX {
                self.or_cache.store(self.key, &self.threats);
            }
        }
        // Threats near the attacker's previous move come first (the board's last move
        // is the root's, not this node's); the square breaks ties.
        let last = self.path.last().copied().or(board.last_move());
        self.ranked.clear();
        for &t in &self.threats {
            let p = Pos(t as u16);
            let dist = last.map_or(0, |q| p.distance(q).min(15) as u8);
            let r = (t >> 16) as u8 * 16 + dist;
            self.ranked
                .push(u64::from(r) << 40 | u64::from(p.0) << 8 | u64::from(t >> 24));
        }
        self.ranked.sort_unstable();
        for &x in &self.ranked {
            let p = Pos((x >> 8) as u16);
            self.tt.prefetch(self.key ^ HASH.stone(a, p));
        }
        for i in 0..self.ranked.len() {
            let x = self.ranked[i];
            let (r, p, fours) = ((x >> 40) as u8, Pos((x >> 8) as u16), (x & 0xFF) as u32);
            // Expected number of defences: one for a four, a few for a three, more for
            // the weaker threats.
            let init = match r / 16 {
                0 | 4 | 5 => UNIT,
                1..=3 => 2 * UNIT,
                6 | 7 => 4 * UNIT,
                8 => 5 * UNIT,
                _ => 6 * UNIT,
            };
            // Deeper threats and threats that leave the defender counter-fours look
            // harder (see `DEPTH_PN` and `COUNTER_FOUR_PN`); a child the table knows
            // gets its stored value anyway.
            let init = init + DEPTH_PN * self.path.len() as u32;
            let init = if self.tt.probe(self.key ^ HASH.stone(a, p)).is_none() {
                init + COUNTER_FOUR_PN * fours
            } else {
                init
            };
            self.push_child(p, a, rem - 1, init);
        }
        if self.ranked.is_empty() {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        Expanded::Children {
            worst: 0,
            worst_pos: 0,
            vcf_rem: if vcf_asked { rem as i16 } else { 0 },
            lvl: sim_tried | (vcf_lvl << 1),
        }
    }

    /// The threat moves of the attacker `a` into `threats`, packed as in [`super::side::OrSlot`]: every
    /// square of a ranked class (renju black: a forbid-class square only if legal), with
    /// its rank and the number of squares where the defender can make a four after it.
    pub(super) fn scan_threats(&mut self, board: &mut Board, a: Color) {
        // The class counts say how many squares hold a ranked class (or renju black's
        // forbid class): the scan stops after the last one.
        let total = class_count(board, a, Pattern4::Forbid, Pattern4::Block4Flex3);
        let threats = &mut self.threats;
        let in_range = |x: Pattern4| x >= Pattern4::Forbid && x <= Pattern4::Block4Flex3;
        scan_counted(board, &self.squares, a, total, in_range, |board, p, x| {
            let rank = match x {
                Pattern4::Forbid
                    if a == Color::Black
                        && board.rule() == Rule::Renju
                        && !board.is_forbidden(p) =>
                {
                    3
                }
                x => match threat_rank(x) {
                    Some(r) => r,
                    None => return,
                },
            };
            threats.push(u32::from(p.0) | u32::from(rank) << 16);
        });
        let d4_now = self.collect_defender_fours(board, a.opp());
        for i in 0..self.threats.len() {
            let t = self.threats[i];
            let n = self.defender_fours_after(board, Pos(t as u16), a, d4_now);
            self.threats[i] = t | n.min(255) << 24;
        }
    }

    /// The defender `d`'s four squares (and renju black's forbidden squares, which an
    /// attacking stone can turn into fours) into `dfours`; returns the number of squares
    /// where `d` can make a four or five now.
    pub(super) fn collect_defender_fours(&mut self, board: &mut Board, d: Color) -> u32 {
        self.dfours.clear();
        let fours = fours_or_fives(board, d);
        let total = fours + board.count(d, Pattern4::Forbid);
        let dfours = &mut self.dfours;
        scan_counted(board, &self.squares, d, total, four_class, |_, p, _| {
            dfours.push(p);
        });
        fours
    }

    /// How many squares give the defender a four or five after the attacker `a` plays
    /// on `p` (`now`: the count before; `dfours` as [`Dfpn::collect_defender_fours`]
    /// left it). A stone changes the classes of the squares at most five cells away
    /// along its lines only, so the board is asked only when one of `dfours` is there.
    pub(super) fn defender_fours_after(
        &self,
        board: &mut Board,
        p: Pos,
        a: Color,
        now: u32,
    ) -> u32 {
        let near = self.dfours.iter().any(|&q| {
            let (dx, dy) = (p.x().abs_diff(q.x()), p.y().abs_diff(q.y()));
            (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 5
        });
        if !near {
            return now;
        }
        board.place(p, a);
        let n = fours_or_fives(board, a.opp());
        board.lift(p);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::super::fours_or_fives;
    use super::Dfpn;
    use crate::board::Board;
    use crate::pattern::Pattern4;
    use crate::types::{Color, Pos, Rule};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn defender_fours_after_a_threat_equal_a_recount_on_the_board() {
        let mut rng = StdRng::seed_from_u64(0xD4);
        let mut dfpn = Dfpn::new(1 << 16);
        let (mut checked, mut changed) = (0u32, 0u32);
        for game in 0..120 {
            let rule = [Rule::Freestyle, Rule::Renju, Rule::Standard][game % 3];
            let mut board = Board::new(15, 15, rule).unwrap();
            dfpn.squares = board.all_squares().collect();
            let mut cands = Vec::new();
            for _ in 0..rng.gen_range(10..60) {
                board.candidates(&mut cands);
                if cands.is_empty() {
                    break;
                }
                let p = cands[rng.gen_range(0..cands.len())];
                board.make(p);
                if board.count(Color::Black, Pattern4::Five) > 0
                    || board.count(Color::White, Pattern4::Five) > 0
                {
                    break;
                }
                for a in [Color::Black, Color::White] {
                    let d = a.opp();
                    let now = dfpn.collect_defender_fours(&mut board, d);
                    assert_eq!(now, fours_or_fives(&board, d));
                    for p in board.all_squares().collect::<Vec<Pos>>() {
                        if !board.is_empty(p) {
                            continue;
                        }
                        let fast = dfpn.defender_fours_after(&mut board, p, a, now);
                        board.place(p, a);
                        let slow = fours_or_fives(&board, d);
                        board.lift(p);
                        assert_eq!(fast, slow, "{rule:?} {a:?} plays {p:?}");
                        checked += 1;
                        changed += u32::from(slow != now);
                    }
                }
            }
        }
        // The positions must have exercised the case the shortcut skips.
        assert!(changed > 100, "{changed} of {checked}");
    }
}
