//! The df-pn search's self-checks for the tests: switches that make it verify each of
//! its shortcuts against the slow way, and counters of the verdicts checked.

use crate::board::Board;
use crate::threat::vcf::VcfSolver;
use crate::types::{Color, Pos};
use std::sync::atomic::{AtomicBool, AtomicU64};

/// Tests set this to check every [`Dfpn::line_survives`] verdict against a replay.
pub static VERIFY_SHORTCUT: AtomicBool = AtomicBool::new(false);
/// Verdicts checked while [`VERIFY_SHORTCUT`] was set.
pub static SHORTCUTS_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Tests set this to check every [`super::side::AndCache`] hit against the candidate defences
/// generated afresh (the pass test's VCF line and the squares that can spoil it).
pub static VERIFY_AND_CACHE: AtomicBool = AtomicBool::new(false);
/// Hits checked while [`VERIFY_AND_CACHE`] was set.
pub static AND_CACHE_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Tests set this to check every defender VCF that refutes an AND node
/// ([`Dfpn::defender_vcf`]) by replaying its line, or a fresh solver's line.
pub static VERIFY_DEFENDER_VCF: AtomicBool = AtomicBool::new(false);
/// Refutations checked while [`VERIFY_DEFENDER_VCF`] was set.
pub static DEFENDER_VCFS_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Tests set this to check every candidate defence refuted by replaying the line of an
/// earlier candidate's quick look: a fresh VCF solver must find a win there.
pub static VERIFY_ALT_LINES: AtomicBool = AtomicBool::new(false);
/// Refutations checked while [`VERIFY_ALT_LINES`] was set.
pub static ALT_LINES_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Tests set this to check every [`super::side::OrCache`] hit against the threats generated afresh.
pub static VERIFY_OR_CACHE: AtomicBool = AtomicBool::new(false);
/// Hits checked while [`VERIFY_OR_CACHE`] was set.
pub static OR_CACHE_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Test checks only: the line of a VCF for `c` that a fresh solver (its own table, a
/// large budget, no stop) finds on `board`, if it finds one.
pub(super) fn fresh_vcf_line(board: &mut Board, c: Color) -> Option<Vec<Pos>> {
    let mut fresh = VcfSolver::new(1 << 20);
    let never = AtomicBool::new(false);
    let win = fresh.solve(board, c, 199, 2_000_000, &never).is_win();
    win.then(|| fresh.principal_line().to_vec())
}
