//! The df-pn search proper: the most-proving-node loop ([`Dfpn::mid`]), the table
//! access and the questions to the inner VCF solver.

use super::table::Entry;
use super::{Child, Dfpn, Expanded, Value, DEFENDER_VCF_KEY, INF, UNIT, VCF_KEY, WEAK_PN_STEP};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::threat::vcf::VcfSolver;
use crate::threat::{ThreatResult, HASH};
use crate::types::{Color, Pos};
use std::sync::atomic::{AtomicBool, Ordering};

impl Dfpn {
    #[inline]
    pub(super) fn place(&mut self, board: &mut Board, p: Pos, c: Color) {
        board.place(p, c);
        self.key ^= HASH.stone(c, p);
    }

    #[inline]
    pub(super) fn lift(&mut self, board: &mut Board, p: Pos, c: Color) {
        board.lift(p);
        self.key ^= HASH.stone(c, p);
    }

    /// Ask the inner VCF solver about `a` on the current position, within `plies`.
    pub(super) fn vcf(
        &mut self,
        board: &mut Board,
        a: Color,
        plies: i32,
        budget: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> ThreatResult {
        let r = self.vcf_look(board, a, plies, budget, VCF_KEY, stop, vcf);
        if r == ThreatResult::Unknown {
            self.inexact = true;
            if self.stats.nodes >= self.node_limit || stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        r
    }

    /// One question to the inner VCF solver: can `c` win by VCF within `plies`, in at
    /// most `budget` nodes (and what is left of the search's own limit), cached under
    /// the position's key XOR `salt`; the nodes it used count as the search's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn vcf_look(
        &mut self,
        board: &mut Board,
        c: Color,
        plies: i32,
        budget: u64,
        salt: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> ThreatResult {
        let left = self
            .node_limit
            .saturating_sub(self.stats.nodes)
            .clamp(1, budget);
        let r = vcf.solve_keyed(board, c, plies, left, stop, self.key ^ salt);
        self.stats.nodes += vcf.stats().nodes;
        r
    }

    /// Proven value with `plies`.
    pub(super) fn proven(plies: i32) -> Value {
        Value {
            pn: 0,
            dn: INF,
            plies: plies as i16,
        }
    }

    pub(super) const DISPROVEN: Value = Value {
        pn: INF,
        dn: 0,
        plies: 0,
    };

    /// The stored value of the current position for a node with `rem` plies left, if
    /// the table knows something that applies.
    #[inline]
    pub(super) fn lookup(&self, rem: i32) -> Option<(Value, Entry)> {
        self.lookup_key(self.key, rem)
    }

    /// [`Dfpn::lookup`] for the position with hash `key`.
    #[inline]
    pub(super) fn lookup_key(&self, key: u64, rem: i32) -> Option<(Value, Entry)> {
        let e = self.tt.probe(key)?;
        let v = if e.pn == 0 {
            if i32::from(e.plies) > rem {
                return None;
            }
            Self::proven(i32::from(e.plies))
        } else if e.dn == 0 {
            if i32::from(e.rem) < rem {
                return None;
            }
            Self::DISPROVEN
        } else {
            Value {
                pn: e.pn,
                dn: e.dn,
                plies: 0,
            }
        };
        Some((v, e))
    }

    pub(super) fn store(
        &mut self,
        v: Value,
        rem: i32,
        best: u16,
        work: u64,
        vcf_rem: i16,
        pass_lvl: u8,
    ) {
        self.tt.store(Entry {
            vcf_rem,
            pass_lvl,
            key: self.key,
            pn: v.pn,
            dn: v.dn,
            work: work.min(u64::from(u32::MAX)) as u32,
            plies: v.plies,
            rem: rem as i16,
            best,
            // Set by the table.
            gen: 0,
        });
    }

    /// Search the current position (OR node if `or`: attacker `a` to move; else the
    /// defender to move) until its proof number reaches `th_pn` or its disproof number
    /// `th_dn`, or it is solved. `rem`: plies left, counting this node's move.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mid(
        &mut self,
        board: &mut Board,
        a: Color,
        or: bool,
        rem: i32,
        th_pn: u32,
        th_dn: u32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Value {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.node_limit
            || (self.stats.nodes & 63 == 0 && stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.aborted {
            return Value {
                pn: 1,
                dn: 1,
                plies: 0,
            };
        }
        let start_nodes = self.stats.nodes;
        let base = self.children.len();
        let line_base = self.lines.len();
        self.sib_hint = (Pos::NONE, 0);
        let expanded = if or {
            self.expand_or(board, a, rem, stop, vcf)
        } else {
            self.expand_and(board, a, rem, stop, vcf)
        };
        let (mut worst, worst_pos, vcf_rem, lvl) = match expanded {
            Expanded::Known(v) => {
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return v;
            }
            Expanded::Done(v, best) => {
                if !self.aborted {
                    let w = self.stats.nodes - start_nodes;
                    self.store(v, rem, best, w, 0, 0);
                }
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return v;
            }
            Expanded::Retry(v, lvl) => {
                if !self.aborted {
                    let w = self.stats.nodes - start_nodes;
                    let prev = self.tt.probe(self.key).map_or(0, |e| u64::from(e.work));
                    self.store(v, rem, 0, w + prev, 0, lvl);
                }
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return v;
            }
            Expanded::Children {
                worst,
                worst_pos,
                vcf_rem,
                lvl,
            } => (worst, worst_pos, vcf_rem, lvl),
        };
        if self.aborted {
            // A partial expansion proves nothing (the root answers Unknown).
            self.children.truncate(base);
            self.lines.truncate(line_base);
            return Value {
                pn: 1,
                dn: 1,
                plies: 0,
            };
        }
        let end = self.children.len();
        let c = a.opp();
        let mover = if or { a } else { c };
        // AND node: the last child proven, whose proof the next ones try to follow; at
        // first the one the expansion found proven by a move in the table.
        let mut sib = if or { Pos::NONE } else { self.sib_hint.0 };
        let result = loop {
            // Combine the children: OR takes the smallest proof number and sums the
            // disproof numbers; AND takes the smallest disproof number and the weak
            // proof number below.
            let (mut pn, mut dn) = if or { (INF, 0u32) } else { (0u32, INF) };
            let mut best = base;
            let mut second = INF;
            let mut proven_plies = -1i16;
            let mut stub = 0u16;
            // AND node: the largest proof number of an open child and their count.
            let (mut pn_max, mut open) = (0u32, 0u32);
            for i in base..end {
                let ch = self.children[i];
                if or {
                    if ch.pn < pn {
                        second = pn;
                        pn = ch.pn;
                        best = i;
                    } else if ch.pn < second {
                        second = ch.pn;
                    }
                    dn = (dn + ch.dn).min(INF - 1);
                } else {
                    if ch.dn < dn {
                        second = dn;
                        dn = ch.dn;
                        best = i;
                    } else if ch.dn < second {
                        second = ch.dn;
                    }
                    pn = (pn + ch.pn).min(INF - 1);
                    if ch.pn > 0 {
                        pn_max = pn_max.max(ch.pn);
                        open += 1;
                    }
                    if ch.pn == 0 && ch.plies > proven_plies {
                        proven_plies = ch.plies;
                        stub = ch.pos.0;
                    }
                }
            }
            if !or && open > 0 {
                // Weak proof number: the hardest open defence plus a little for each
                // other one, instead of the sum (see `WEAK_PN_STEP`).
                pn = pn_max
                    .saturating_add((open - 1) * WEAK_PN_STEP)
                    .min(INF - 1);
            }
            if or && pn == 0 {
                let ch = self.children[best];
                break (Self::proven(i32::from(ch.plies) + 1), ch.pos.0);
            }
            if !or && pn == 0 {
                // The most stubborn defence is kept for the principal line.
                let (plies, stub) = if proven_plies > worst {
                    (proven_plies, stub)
                } else {
                    (worst, worst_pos)
                };
                worst = plies;
                break (Self::proven(i32::from(worst) + 1), stub);
            }
            if dn == 0 {
                break (Self::DISPROVEN, 0);
            }
            if pn >= th_pn || dn >= th_dn || self.aborted {
                break (Value { pn, dn, plies: 0 }, 0);
            }
            let ch = self.children[best];
            let (cth_pn, cth_dn) = if or {
                let eps = second.saturating_add(second / 4).saturating_add(1);
                (
                    th_pn.min(eps).min(INF),
                    if th_dn >= INF {
                        INF
                    } else {
                        th_dn - dn + ch.dn
                    },
                )
            } else {
                let eps = second.saturating_add(second / 4).saturating_add(1);
                (
                    if th_pn >= INF {
                        INF
                    } else {
                        th_pn - pn + ch.pn
                    },
                    th_dn.min(eps).min(INF),
                )
            };
            // The child's first probes (its table entry, its side table slot and the VCF
            // questions it asks first) miss the cache one after the other: issued here,
            // the misses overlap each other and the move.
            let child = self.key ^ HASH.stone(mover, ch.pos);
            self.tt.prefetch(child);
            vcf.prefetch(child ^ VCF_KEY);
            if or {
                self.and_cache.prefetch(child);
                vcf.prefetch(child ^ DEFENDER_VCF_KEY);
            } else {
                self.or_cache.prefetch(child);
            }
            self.place(board, ch.pos, mover);
            let (delta, pending) = (self.delta, self.pending);
            if or {
                self.path.push(ch.pos);
                if pending != 0 {
                    self.delta = pending ^ HASH.stone(a, ch.pos);
                }
                self.pending = 0;
            } else {
                if sib.is_some() {
                    self.delta = HASH.stone(c, ch.pos) ^ HASH.stone(c, sib);
                }
                self.pending = if board.count(c, Pattern4::Five) > 0 {
                    HASH.stone(c, ch.pos)
                } else {
                    0
                };
            }
            let v = self.mid(board, a, !or, rem - 1, cth_pn, cth_dn, stop, vcf);
            (self.delta, self.pending) = (delta, pending);
            if or {
                self.path.pop();
            }
            self.lift(board, ch.pos, mover);
            if !or && v.pn == 0 {
                sib = ch.pos;
            }
            let slot = &mut self.children[best];
            slot.pn = v.pn;
            slot.dn = v.dn;
            slot.plies = v.plies;
            if self.aborted {
                break (Value { pn, dn, plies: 0 }, 0);
            }
        };
        let (v, best) = result;
        if !self.aborted {
            let w = self.stats.nodes - start_nodes;
            // Keep the work of earlier visits in the priority.
            let prev = self.tt.probe(self.key).map_or(0, |e| u64::from(e.work));
            self.store(v, rem, best, w + prev, vcf_rem, lvl);
        }
        self.children.truncate(base);
        self.lines.truncate(line_base);
        v
    }

    /// Push the child reached by a stone of `c` on `p` at the top of the child stack,
    /// reading the table for its value (`rem`: the child's ply budget).
    pub(super) fn push_child(&mut self, p: Pos, c: Color, rem: i32, init_pn: u32) {
        let v = self.lookup_key(self.key ^ HASH.stone(c, p), rem).map_or(
            Value {
                pn: init_pn,
                dn: UNIT,
                plies: 0,
            },
            |(v, _)| v,
        );
        let ch = Child {
            pos: p,
            pn: v.pn,
            dn: v.dn,
            plies: v.plies,
        };
        self.children.push(ch);
    }
}
