//! The negamax alpha-beta search (fail-soft; zero-window for MTD(f), PVS for the PVS
//! driver) and the quiescence search at its leaves.

use super::params::SearchParams;
use super::stack::{Frame, MAX_PLY};
use super::{Core, LMR_TABLE};
use crate::board::Board;
use crate::eval::{evaluate, quick_result};
use crate::movegen::{
    caro_multi_five, find_five_point, five_points, forbidden_for_mover, generate, OrderInfo, Stage,
    KILLER_SCORE,
};
use crate::pattern::Pattern4;
use crate::tt::Bound;
use crate::types::{is_mate, mate_in, mated_in, Pos, Value, VALUE_INFINITE};

impl Core {
    /// Search `board` to `depth` plies at distance `ply` from the root within
    /// (`alpha`, `beta`). `stack[0]` is this node's frame; its `bbox` is set by the caller.
    /// Returns 0 once the search has been stopped (callers check `self.stopped`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: i32,
        pv: bool,
    ) -> Value {
        // Step 1. Limits.
        if self.nodes >= self.next_check {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Step 2. Positions decided by the threat counts.
        if let Some(v) = quick_result(board, ply, self.params.quick_win5) {
            return v;
        }
        if ply as usize >= MAX_PLY - 2 {
            return evaluate(board, &self.params.eval);
        }

        // Step 3. Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Leaves go to the quiescence search.
        if depth <= 0 {
            return self.qsearch(board, stack, ply, 0);
        }

        // Step 5. Transposition table.
        let key = board.key();
        let hit = self.tt.probe(key, ply);
        let tt_move = hit.map_or(Pos::NONE, |h| h.best);
        if let Some(h) = hit {
            if !pv && h.depth >= depth {
                if h.lower >= beta {
                    return h.lower;
                }
                if h.upper <= alpha {
                    return h.upper;
                }
            }
        }

        // Step 5b. Reverse futility: near the leaves, a static value far above beta
        // stands when the opponent has nothing that forces a reply (no five point, no
        // open three, no four-three or double-three point).
        if !pv && depth <= self.params.rfp_depth && !is_mate(beta) {
            let opp = board.side_to_move().opp();
            let quiet_opp = board.count(opp, Pattern4::Five) == 0
                && board.count(opp, Pattern4::Flex4) == 0
                && board.count(opp, Pattern4::Block4Flex3) == 0
                && board.count(opp, Pattern4::Flex3x2) == 0;
            if quiet_opp {
                let v = evaluate(board, &self.params.eval);
                if v - self.params.rfp_margin * depth >= beta {
                    return v;
                }
            }
        }

        // Step 5c. Internal iterative reduction: without a TT move the ordering is a
        // guess; a shallower search is cheaper and fills the table for the next one.
        let depth =
            if self.params.iir_depth > 0 && depth >= self.params.iir_depth && !tt_move.is_some() {
                depth - 1
            } else {
                depth
            };

        // Step 6. The TT move first, before any generation (a cutoff there, the common
        // case, skips it): only where it is a move the generator would list first, i.e.
        // no five to block, and against an open three only a four or a defence.
        let me = board.side_to_move();
        let (cur, rest) = stack.split_first_mut().expect("stack has MAX_PLY frames");
        let early_tt = self.params.tt_first
            && tt_move.is_some()
            && tt_move_is_listed(board, tt_move, &cur.bbox);

        // Step 7. The move loop; moves are generated (forced stages first) when the TT
        // move did not cut, then picked best-first (sorting moves a cutoff never reaches
        // costs time) among the top N.
        let (w, h) = (board.width(), board.height());
        let orig_alpha = alpha;
        let mut best = -VALUE_INFINITE;
        let mut best_move = Pos::NONE;
        let mut stage = Stage::All;
        let mut n = usize::MAX;
        let mut generated = false;
        // Moves searched before generation: the TT move, then the killers.
        let mut early = [Pos::NONE; 3];
        let mut first = 0;
        if early_tt {
            early[0] = tt_move;
            first = 1;
        }
        let mut killers_done = !(self.params.killers_first
            && self.params.tt_first
            && self.params.killer_score >= KILLER_SCORE
            && self.params.counter_score < self.params.killer_score);
        let mut ext = 0;
        let mut i = 0;
        loop {
            if i == first && !killers_done {
                // Step 6b. The TT move did not cut: the killers next, still before
                // generation, in the order the generator would give them.
                killers_done = true;
                first += early_killers(
                    board,
                    &cur.bbox,
                    cur.killers,
                    tt_move,
                    &self.history[me.idx()],
                    &self.params,
                    &mut early[first..],
                );
            }
            let m = if i < first {
                early[i]
            } else {
                if !generated {
                    generated = true;
                    let info = OrderInfo {
                        tt_move,
                        killers: cur.killers,
                        history: &self.history[me.idx()],
                        own: &self.params.order_own,
                        opp: &self.params.order_opp,
                        killer: self.params.killer_score,
                        counter: board
                            .last_move()
                            .map_or(Pos::NONE, |l| self.counter[me.idx()][l.idx()]),
                        counter_bonus: self.params.counter_score,
                    };
                    stage = generate(board, &cur.bbox, &mut cur.moves, &info, self.params.top_n);
                    if cur.moves.is_empty() {
                        return match stage {
                            // The five point is forbidden to us.
                            Stage::BlockFive => mated_in(ply + 2),
                            // Every defence of the three is forbidden to us.
                            Stage::DefendThree => mated_in(ply + 4),
                            Stage::All => 0,
                        };
                    }
                    let listed = cur.moves.len();
                    for &e in &early[..first] {
                        cur.moves.remove(e);
                    }
                    let keep = if stage == Stage::All {
                        self.params.top_n
                    } else {
                        usize::MAX
                    };
                    n = keep.min(listed);
                    // Late-move pruning near the leaves.
                    if self.params.lmp > 0 && stage == Stage::All && depth <= 4 {
                        n = n.min(self.params.lmp + (depth * depth) as usize);
                    }
                    // Extension of forced single replies.
                    ext = i32::from(
                        self.params.forced_extension
                            && stage == Stage::BlockFive
                            && cur.moves.len() == 1,
                    );
                }
                if i >= n || i - first >= cur.moves.len() {
                    break;
                }
                // The first generated move is picked (a cutoff there is common); the
                // rest of the top N are sorted at once (the others are dropped).
                if i - first == 1 {
                    cur.moves.keep_top(1, n - i);
                }
                if i - first >= 1 {
                    cur.moves.get(i - first).pos
                } else {
                    cur.moves.pick(0).pos
                }
            };
            let quiet = board.pattern4(m, me) < Pattern4::Flex3
                && board.pattern4(m, me.opp()) < Pattern4::Flex3;
            let new_depth = depth - 1 + ext;
            rest[0].bbox = cur.bbox.with(m, w, h);
            board.make(m);
            self.tt.prefetch(board.key());
            self.nodes += 1;
            let v = if i == 0 {
                -self.search(board, rest, -beta, -alpha, new_depth, ply + 1, pv)
            } else {
                let r = if stage == Stage::All {
                    let last = LMR_TABLE - 1;
                    let r = i32::from(self.reductions[(depth as usize).min(last)][i.min(last)]);
                    let r = if quiet {
                        r
                    } else {
                        r - self.params.lmr_tactical
                    };
                    r.clamp(0, new_depth)
                } else if stage == Stage::DefendThree
                    && self.params.lmr_defend
                    && i >= 2
                    && depth >= 3
                {
                    1
                } else {
                    0
                };
                let mut v = -self.search(
                    board,
                    rest,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    false,
                );
                if v > alpha && r > 0 {
                    v = -self.search(board, rest, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if pv && v > alpha && v < beta {
                    v = -self.search(board, rest, -beta, -alpha, new_depth, ply + 1, true);
                }
                v
            };
            board.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        // Step 8. Remember what caused the cutoff.
                        if quiet && cur.killers[0] != m {
                            cur.killers[1] = cur.killers[0];
                            cur.killers[0] = m;
                        }
                        if quiet {
                            if let Some(l) = board.last_move() {
                                self.counter[me.idx()][l.idx()] = m;
                            }
                        }
                        let hist = &mut self.history[me.idx()][m.idx()];
                        *hist = (*hist + self.params.history_scale * depth * depth)
                            .min(self.params.history_cap);
                        break;
                    }
                }
            }
            i += 1;
        }

        // Step 9. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if pv && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, best, best_move, depth, bound);
        best
    }

    /// The leaf search: decided positions from the counts, forced blocks of the
    /// opponent's five point (up to `qsearch_max_ply` of them), a VCF of the side to
    /// move (threat solver, small node budget, cached), else the static value.
    pub(super) fn qsearch(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        ply: i32,
        qply: i32,
    ) -> Value {
        if self.nodes >= self.next_check {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = quick_result(board, ply, self.params.quick_win5) {
            return v;
        }
        let opp = board.side_to_move().opp();
        if caro_multi_five(board, opp) {
            // Caro: one of several five points may stop them all; the main search
            // tries each (a leaf here would misjudge the position either way).
            if qply < self.params.qsearch_max_ply && (ply as usize) < MAX_PLY - 2 {
                return self.caro_blocks(board, stack, ply, qply);
            }
            return evaluate(board, &self.params.eval);
        }
        if board.count(opp, Pattern4::Five) > 0
            && qply < self.params.qsearch_max_ply
            && (ply as usize) < MAX_PLY - 2
        {
            let (cur, rest) = stack.split_first_mut().expect("stack has MAX_PLY frames");
            if let Some(p) = find_five_point(board, opp, board.last_move(), &cur.bbox) {
                if forbidden_for_mover(board, p) {
                    return mated_in(ply + 2);
                }
                rest[0].bbox = cur.bbox.with(p, board.width(), board.height());
                board.make(p);
                self.nodes += 1;
                let v = -self.qsearch(board, rest, ply + 1, qply + 1);
                board.unmake();
                return v;
            }
        }
        if self.params.threats
            && self.params.leaf_vcf_nodes > 0
            && board.count(opp, Pattern4::Five) == 0
        {
            // Only with a four that also makes a three or two (or a four-three): 97 % of
            // the leaf VCFs of the bench positions, 60 % of the calls.
            let mc = board.counts(opp.opp());
            if mc[Pattern4::Block4Plus as usize] + mc[Pattern4::Block4Flex3 as usize] > 0 {
                let stop = self.stop.as_deref().unwrap_or(&self.never);
                let found = self.threats.leaf_vcf(
                    board,
                    self.params.leaf_vcf_plies,
                    self.params.leaf_vcf_nodes,
                    stop,
                );
                self.nodes += self.threats.take_nodes();
                if let Some(plies) = found {
                    return mate_in(ply + plies);
                }
            }
        }
        evaluate(board, &self.params.eval)
    }

    /// Caro leaf with several opponent five points: the best of blocking each of them
    /// (a block that leaves a five loses at the next ply through `quick_result`).
    fn caro_blocks(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        ply: i32,
        qply: i32,
    ) -> Value {
        let opp = board.side_to_move().opp();
        let (cur, rest) = stack.split_first_mut().expect("stack has MAX_PLY frames");
        let mut fives = [Pos::NONE; 8];
        let n = five_points(board, opp, &cur.bbox, &mut fives);
        let mut best = mated_in(ply + 2);
        for &p in &fives[..n] {
            rest[0].bbox = cur.bbox.with(p, board.width(), board.height());
            board.make(p);
            self.nodes += 1;
            let v = -self.qsearch(board, rest, ply + 1, qply + 1);
            board.unmake();
            if self.stopped {
                return 0;
            }
            best = best.max(v);
        }
        best
    }
}

/// True if the generator would list `m` (a TT move) first at this node: an empty
/// candidate square in `bbox`, no opponent five to block, against an open three a four
/// or a defence, and not forbidden to the side to move.
#[inline]
fn tt_move_is_listed(board: &mut Board, m: Pos, bbox: &crate::movegen::BBox) -> bool {
    let me = board.side_to_move();
    let opp = me.opp();
    if board.move_count() == 0
        || !board.in_board(m)
        || !board.is_empty(m)
        || !board.is_near(m)
        || !bbox.contains(m)
        || board.count(opp, Pattern4::Five) > 0
    {
        return false;
    }
    if board.count(opp, Pattern4::Flex4) > 0
        && board.pattern4(m, me) < Pattern4::Block4
        && board.pattern4(m, opp) < Pattern4::Block4
    {
        return false;
    }
    !forbidden_for_mover(board, m)
}

/// Write into `out` the killers the generator would list right after the TT move at
/// this node, best first in its order (ordering score, then square index), and return
/// how many: only at an unforced node (no opponent five or open three), each an empty
/// candidate square in `bbox`, not the TT move and not forbidden to the side to move.
#[inline]
fn early_killers(
    board: &mut Board,
    bbox: &crate::movegen::BBox,
    killers: [Pos; 2],
    tt_move: Pos,
    history: &[i32; crate::types::NUM_CELLS],
    params: &SearchParams,
    out: &mut [Pos],
) -> usize {
    let me = board.side_to_move();
    let opp = me.opp();
    if board.move_count() == 0
        || board.count(opp, Pattern4::Five) > 0
        || board.count(opp, Pattern4::Flex4) > 0
    {
        return 0;
    }
    let mut keys = [0i64; 2];
    let mut n = 0;
    for k in killers {
        if !k.is_some()
            || (n == 1 && k == killers[0])
            || k == tt_move
            || !board.in_board(k)
            || !board.is_empty(k)
            || !board.is_near(k)
            || !bbox.contains(k)
            || forbidden_for_mover(board, k)
        {
            continue;
        }
        // The generator's score of a killer and the key `MoveList::pick` orders by.
        let o = board.pattern4(k, me);
        let t = board.pattern4(k, opp);
        let score = params.order_own[o as usize]
            + params.order_opp[t as usize]
            + history[k.idx()]
            + params.killer_score;
        keys[n] = (i64::from(score) << 16) | i64::from(!k.0);
        n += 1;
    }
    if n == 2 && keys[1] > keys[0] {
        keys.swap(0, 1);
    }
    for (slot, &key) in out.iter_mut().zip(&keys[..n]) {
        *slot = Pos(!(key as u16));
    }
    n.min(out.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MoveOutcome;
    use crate::movegen::{BBox, MoveList};
    use crate::types::Rule;
    use crate::types::NUM_CELLS;
    use rand::{Rng, SeedableRng};

    /// Early killers must be exactly the moves the generator would pick right after the
    /// TT move (so searching them before generation only skips work): checked on random
    /// freestyle and renju positions with random killers, TT moves and history.
    #[test]
    fn early_killers_are_the_moves_generation_picks_after_the_tt_move() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let params = SearchParams::default();
        let mut list = MoveList::default();
        let (mut checked, mut found) = (0, 0);
        for game in 0..60 {
            let rule = if game % 2 == 0 {
                Rule::Freestyle
            } else {
                Rule::Renju
            };
            let mut b = Board::new(15, 15, rule).unwrap();
            for _ in 0..rng.gen_range(1..40) {
                let p = Pos::new(rng.gen_range(3..12), rng.gen_range(3..12));
                if b.is_legal(p) && b.play(p).unwrap() != MoveOutcome::Continue {
                    b.undo();
                    break;
                }
            }
            let bbox = BBox::of_board(&b);
            let mut history = [0; NUM_CELLS];
            for h in history.iter_mut() {
                *h = rng.gen_range(0..300);
            }
            let any =
                |rng: &mut rand::rngs::StdRng| Pos::new(rng.gen_range(0..15), rng.gen_range(0..15));
            for _ in 0..20 {
                let k0 = any(&mut rng);
                let mut killers = [k0, any(&mut rng)];
                if killers[1] == k0 || rng.gen_range(0..4) == 0 {
                    killers[1] = Pos::NONE;
                }
                let tt_move = match rng.gen_range(0..3) {
                    0 => Pos::NONE,
                    1 => killers[0],
                    _ => any(&mut rng),
                };
                let info = OrderInfo {
                    tt_move,
                    killers,
                    history: &history,
                    own: &params.order_own,
                    opp: &params.order_opp,
                    killer: params.killer_score,
                    counter: Pos::NONE,
                    counter_bonus: 0,
                };
                let stage = generate(&mut b, &bbox, &mut list, &info, params.top_n);
                // The generator's picking order after the TT move, while it gives killers.
                let mut expected = Vec::new();
                if stage == Stage::All {
                    for i in 0..list.len() {
                        let m = list.pick(i).pos;
                        if m == tt_move {
                            continue;
                        }
                        if !killers.contains(&m) {
                            break;
                        }
                        expected.push(m);
                    }
                    // Every listed killer comes in that run.
                    let listed = list
                        .as_slice()
                        .iter()
                        .filter(|m| killers.contains(&m.pos) && m.pos != tt_move)
                        .count();
                    assert_eq!(listed, expected.len());
                }
                let mut out = [Pos::NONE; 2];
                let n = early_killers(&mut b, &bbox, killers, tt_move, &history, &params, &mut out);
                assert_eq!(
                    &out[..n],
                    &expected[..],
                    "stage {stage:?} killers {killers:?}"
                );
                checked += 1;
                found += n;
            }
        }
        assert!(checked > 1000 && found > 300, "{checked} {found}");
    }
}
