//! Simulation: following the proof of an analog position ([`Dfpn::simulate_or`]),
//! every step checked on the real position.

use super::{Dfpn, Expanded, BEST_VCF, INNER_VCF_NODES};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::threat::vcf::VcfSolver;
use crate::threat::{find_five, legal_for, ThreatResult};
use crate::types::{Color, Pos};
use std::sync::atomic::{AtomicBool, Ordering};

impl Dfpn {
    /// Prove the current OR node (attacker `a` to move, `rem` plies) by following the
    /// proof of its analog, the position whose hash differs by `delta` (a counter-four
    /// exchange the analog lacks): the analog's winning move, then every defence the
    /// real generator gives (each by its own analog), VCF leaves by the inner solver.
    /// Every step is checked on the real position, so a success is a proof like any
    /// other (stored in the table); `None` when a step fails or `sim_end` is reached.
    pub(super) fn simulate_or(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        delta: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Option<i16> {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.node_limit || stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if self.aborted || self.stats.nodes >= self.sim_end {
            return None;
        }
        if board.count(a, Pattern4::Five) > 0 {
            return Some(1);
        }
        if let Some((v, _)) = self.lookup(rem) {
            if v.pn == 0 {
                return Some(v.plies);
            }
            if v.dn == 0 {
                return None;
            }
        }
        if rem < 3 {
            return None;
        }
        let d = a.opp();
        let nd = board.count(d, Pattern4::Five);
        let m = if nd > 0 {
            let p = find_five(board, &self.squares, d)?;
            if nd >= 2 || !legal_for(board, p, a) {
                return None;
            }
            p
        } else {
            let (v, e) = self.lookup_key(self.key ^ delta, rem)?;
            if v.pn != 0 || e.best == 0 {
                return None;
            }
            if e.best == BEST_VCF {
                // An unfinished look here is no loss of exactness: the search asks again.
                let inexact = self.inexact;
                let r = self.vcf(board, a, rem, INNER_VCF_NODES, stop, vcf);
                self.inexact = inexact;
                if let ThreatResult::Win { plies, .. } = r {
                    let v = Self::proven(plies);
                    self.store(v, rem, BEST_VCF, 1, rem as i16, 1);
                    return Some(v.plies);
                }
                return None;
            }
            let m = Pos(e.best);
            if !board.is_empty(m) || !legal_for(board, m, a) {
                return None;
            }
            m
        };
        self.place(board, m, a);
        let r = self.simulate_and(board, a, rem - 1, delta, stop, vcf);
        self.lift(board, m, a);
        let plies = r? + 1;
        self.store(Self::proven(i32::from(plies)), rem, m.0, 1, 0, 1);
        Some(plies)
    }

    /// The AND-node half of [`Dfpn::simulate_or`] (defender to move after `a`'s move).
    pub(super) fn simulate_and(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        delta: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Option<i16> {
        self.stats.nodes += 1;
        let d = a.opp();
        let base = self.children.len();
        let line_base = self.lines.len();
        let expanded = self.expand_and(board, a, rem, stop, vcf);
        let (mut worst, mut stub) = match expanded {
            Expanded::Known(v) | Expanded::Done(v, _) => {
                self.children.truncate(base);
                self.lines.truncate(line_base);
                if v.pn == 0 {
                    if let Expanded::Done(v, best) = expanded {
                        self.store(v, rem, best, 1, 0, 0);
                    }
                    return Some(v.plies);
                }
                return None;
            }
            Expanded::Retry(..) => {
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return None;
            }
            Expanded::Children {
                worst, worst_pos, ..
            } => (worst, worst_pos),
        };
        let end = self.children.len();
        let mut ok = !self.aborted;
        for i in base..end {
            if !ok {
                break;
            }
            let y = self.children[i].pos;
            self.place(board, y, d);
            let r = self.simulate_or(board, a, rem - 1, delta, stop, vcf);
            self.lift(board, y, d);
            match r {
                Some(p) if p > worst => {
                    worst = p;
                    stub = y.0;
                }
                Some(_) => {}
                None => ok = false,
            }
        }
        self.children.truncate(base);
        self.lines.truncate(line_base);
        if !ok {
            return None;
        }
        let plies = worst + 1;
        self.store(Self::proven(i32::from(plies)), rem, stub, 1, 0, 0);
        Some(plies)
    }
}
