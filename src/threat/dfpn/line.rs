//! The principal line of a proven root, read from the table.

use super::{Dfpn, BEST_VCF, INNER_VCF_NODES};
use crate::board::Board;
use crate::threat::find_five;
use crate::threat::vcf::VcfSolver;
use crate::types::{Color, Pos};
use std::sync::atomic::AtomicBool;

impl Dfpn {
    /// Follow the table from the proven root: the first attacking move, the most
    /// stubborn defence, and so on; a VCF leaf appends the VCF line.
    pub(super) fn extract_line(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) {
        let d = a.opp();
        let root_key = self.key;
        let mut placed: Vec<(Pos, Color)> = Vec::new();
        let mut rem = rem;
        let mut or = true;
        let saved_limit = self.node_limit;
        self.node_limit = u64::MAX;
        while rem > 0 {
            if or {
                if let Some(p) = find_five(board, &self.squares, a) {
                    self.line.push(p);
                    break;
                }
            }
            let Some((v, e)) = self.lookup(rem) else {
                if or {
                    self.append_vcf(board, a, rem, stop, vcf);
                }
                break;
            };
            if v.pn != 0 {
                break;
            }
            if e.best == BEST_VCF {
                if or {
                    self.append_vcf(board, a, rem, stop, vcf);
                }
                break;
            }
            if e.best == 0 || !board.is_empty(Pos(e.best)) {
                break;
            }
            let m = Pos(e.best);
            let c = if or { a } else { d };
            self.line.push(m);
            self.place(board, m, c);
            placed.push((m, c));
            or = !or;
            rem -= 1;
        }
        for &(p, c) in placed.iter().rev() {
            self.lift(board, p, c);
        }
        self.node_limit = saved_limit;
        self.key = root_key;
    }

    pub(super) fn append_vcf(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) {
        if self.vcf(board, a, rem, INNER_VCF_NODES, stop, vcf).is_win() {
            self.line.extend_from_slice(vcf.principal_line());
        }
    }
}
