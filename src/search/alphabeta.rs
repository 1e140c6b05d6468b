//! The negamax alpha-beta search (fail-soft; zero-window for MTD(f), PVS for the PVS
//! driver) and the quiescence search at its leaves.

use super::stack::{Frame, MAX_PLY};
use super::{whole_plies, Core, LMR_TABLE, ONE_PLY};
use crate::board::Board;
use crate::eval::{evaluate, quick_result};
use crate::movegen::{
    caro_multi_five, find_five_point, five_points, forbidden_for_mover, four_points, generate,
    OrderInfo, Stage,
};
use crate::pattern::Pattern4;
use crate::tt::{Bound, TtHit};
use crate::types::{
    is_mate, mate_in, mated_in, Pos, Value, VALUE_INFINITE, VALUE_MATE_IN_MAX, VALUE_NONE,
};

/// `mate_guard` looks again at a node only when at most this many moves were searched.
const GUARD_MAX: usize = 64;

impl Core {
    /// The move generator's ordering inputs at this node.
    fn order_info(&self, board: &Board, tt_move: Pos, killers: [Pos; 2]) -> OrderInfo<'_> {
        let me = board.side_to_move();
        OrderInfo {
            tt_move,
            killers,
            history: &self.history[me.idx()],
            own: &self.params.order_own,
            opp: &self.params.order_opp,
            killer: self.params.killer_score,
            learned: self.order,
            near: crate::order::near_moves(board),
            far: self.params.far(),
            four_three: self.params.four_three > 0,
        }
    }

    /// Search `board` to `depth` ([`ONE_PLY`] units) at distance `ply` from the root
    /// within (`alpha`, `beta`). `stack[0]` is this node's frame; its `bbox` is set by the caller.
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

        // Step 4. Leaves go to the quiescence search. With `qtt` a table entry of any
        // depth that bounds the window answers first (an earlier pass or iteration
        // searched the position deeper); with `qtt=2` a leaf without an entry stores
        // its value at depth 0, for the next MTD(f) pass that reaches it.
        if depth <= 0 {
            let mut store = false;
            if self.params.qtt > 0 && !pv && !stack[0].excluded.is_some() {
                match self.tt.probe(board.key(), ply) {
                    Some(h) => {
                        if let Some(v) = bound_cut(&h, alpha, beta) {
                            return v;
                        }
                    }
                    None => store = self.params.qtt == 2,
                }
            }
            let v = self.qsearch(board, stack, alpha, beta, ply, 0);
            if store && !self.stopped {
                let bound = Bound::of(v, alpha, beta);
                self.tt.store(board.key(), ply, v, Pos::NONE, 0, bound);
            }
            return v;
        }

        // Step 5. Transposition table (not while a move is excluded: the entry is the
        // whole node's, and its move is the excluded one).
        let key = board.key();
        let excluded = stack[0].excluded;
        let hit = if excluded.is_some() {
            None
        } else {
            self.tt.probe(key, ply)
        };
        let tt_move = hit.map_or(Pos::NONE, |h| h.best);
        if let Some(h) = hit {
            if !pv && h.depth >= depth {
                if let Some(v) = bound_cut(&h, alpha, beta) {
                    return v;
                }
            }
        }

        // Step 5a. The static value, where a pruning rule needs it (`fhr` and `rfp_imp`
        // here, reverse futility and razoring when they first read it; a node that must
        // block a five has none).
        let mut static_eval = if (self.params.fhr == 0 && !self.params.rfp_imp)
            || board.count(board.side_to_move().opp(), Pattern4::Five) > 0
        {
            VALUE_NONE
        } else {
            evaluate(board, &self.params.eval)
        };

        // Step 5b. Reverse futility: near the leaves, a static value far above beta
        // stands when the opponent has nothing that forces a reply (no five point, no
        // open three, no four-three or double-three point).
        // The depth in whole plies, for the depth-keyed tables, limits and margins.
        let plies = whole_plies(depth);
        if !pv && plies <= self.rfp.0 && !is_mate(beta) && !excluded.is_some() {
            let opp = board.side_to_move().opp();
            let quiet_opp = board.count(opp, Pattern4::Five) == 0
                && board.count(opp, Pattern4::Flex4) == 0
                && board.count(opp, Pattern4::Block4Flex3) == 0
                && board.count(opp, Pattern4::Flex3x2) == 0;
            if quiet_opp {
                if static_eval == VALUE_NONE {
                    static_eval = evaluate(board, &self.params.eval);
                }
                let v = static_eval;
                // `rfp_imp`: a ply less of margin where the value rose over two plies.
                let grand = stack[0].evals[1];
                let improving = self.params.rfp_imp && grand != VALUE_NONE && v > grand;
                let margin_depth = depth - if improving { ONE_PLY } else { 0 };
                // `rfp_cut`: less margin at an expected cut node the table knows nothing of.
                let scale = if stack[0].cut && hit.is_none() {
                    self.params.rfp_cut
                } else {
                    1000
                };
                if v - self.rfp.1 * margin_depth / ONE_PLY * scale / 1000 >= beta {
                    return v;
                }
            }
        }

        // Step 5c. Razoring: near the leaves, a static value far below alpha, where the
        // side to move has nothing forcing (no four or double-three point), goes to the
        // leaf search; its value stands when it fails low too.
        if !pv
            && plies <= self.razor
            && !is_mate(alpha)
            && !excluded.is_some()
            && board.count(board.side_to_move().opp(), Pattern4::Five) == 0
        {
            // Every class from a double three up (the fours too: the leaf search plays
            // none of the mover's, so a line of fours would go unseen).
            let mc = board.counts(board.side_to_move());
            let quiet_me = mc[Pattern4::Flex3x2 as usize..].iter().all(|&c| c == 0);
            if quiet_me {
                if static_eval == VALUE_NONE {
                    static_eval = evaluate(board, &self.params.eval);
                }
                if static_eval + self.params.razor_margin * depth / ONE_PLY <= alpha {
                    let q = self.qsearch(board, stack, alpha, beta, ply, 0);
                    if q <= alpha {
                        return q;
                    }
                }
            }
        }

        // Step 5d. Internal iterative reduction: without a TT move the ordering is a
        // guess; a shallower search is cheaper and fills the table for the next one.
        let (depth, plies) = if self.params.iir_depth > 0
            && plies >= self.params.iir_depth
            && !tt_move.is_some()
            && !excluded.is_some()
        {
            (depth - ONE_PLY, whole_plies(depth - ONE_PLY))
        } else {
            (depth, plies)
        };

        // Step 5e. Singular extension: when every other move falls clearly short of the
        // TT move's bound at half depth, the TT move is extended by one ply; when another
        // move also reaches a test bound at or above beta, the node fails high at once
        // (multi-cut). The other moves are searched in this frame with the TT move
        // excluded.
        let mut singular = false;
        if let Some(h) = hit {
            if self.singular
                && plies >= self.params.se_depth
                && ply < 2 * self.root_depth
                && tt_move.is_some()
                && h.depth >= depth - 3 * ONE_PLY
                && h.lower > -VALUE_INFINITE
                && !is_mate(h.lower)
                && tt_move_is_listed(board, tt_move, &stack[0].bbox)
            {
                let s_beta = h.lower - self.params.se_margin * depth / ONE_PLY;
                stack[0].excluded = tt_move;
                let v = self.search(
                    board,
                    stack,
                    s_beta - 1,
                    s_beta,
                    (depth - ONE_PLY) / (2 * ONE_PLY) * ONE_PLY,
                    ply,
                    false,
                );
                stack[0].excluded = Pos::NONE;
                if self.stopped {
                    return 0;
                }
                if v < s_beta {
                    singular = true;
                } else if self.params.se_multicut && s_beta >= beta {
                    return s_beta;
                }
            }
        }

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
        let mut unforced = true;
        let mut n = usize::MAX;
        let mut generated = false;
        // Moves searched before generation: the TT move or none.
        // Index of the first generated move (after the TT move searched before
        // generation; with `mate_guard`, of the first move of the list made again).
        let mut first = usize::from(early_tt);
        let mut ext = 0;
        let mut i = 0;
        // `mate_guard`: the moves listed after the TT and excluded moves were removed,
        // and whether the node's moves were listed again.
        let mut avail = 0usize;
        let mut guarded = false;
        let top_n = if self.params.wide_n > 0 && plies >= self.params.wide_depth {
            self.params.wide_n.max(self.params.top_n)
        } else {
            self.params.top_n
        };
        // Fail-high reduction: far above beta, the moves that make no four are searched
        // a ply shallower (`fhr`; not where a five or an open three must be answered).
        let fail_high = self.params.fhr > 0
            && !pv
            && static_eval != VALUE_NONE
            && !is_mate(beta)
            && board.count(me.opp(), Pattern4::Five) == 0
            && board.count(me.opp(), Pattern4::Flex4) == 0
            && static_eval >= beta + self.params.fhr * plies;
        loop {
            let m = if i < first {
                tt_move
            } else {
                if !generated {
                    generated = true;
                    let info = self.order_info(board, tt_move, cur.killers);
                    stage = generate(board, &cur.bbox, &mut cur.moves, &info, top_n);
                    if cur.moves.is_empty() {
                        return match stage {
                            // The five point is forbidden to us.
                            Stage::BlockFive => mated_in(ply + 2),
                            // Every defence of the three is forbidden to us (a
                            // four-three defence list is never empty: it falls back).
                            Stage::DefendThree | Stage::DefendFourThree => mated_in(ply + 4),
                            // Renju black with only forbidden squares left plays a foul.
                            Stage::All if board.black_must_foul() => mated_in(ply + 1),
                            Stage::All => 0,
                        };
                    }
                    let listed = cur.moves.len();
                    if early_tt {
                        cur.moves.remove(tt_move);
                    }
                    // The singular test searches the moves the node would search
                    // besides the excluded one.
                    if excluded.is_some() {
                        cur.moves.remove(excluded);
                    }
                    avail = cur.moves.len();
                    // A four-three defence with `defend43=2` is cut and reduced like an
                    // unforced node.
                    unforced = stage == Stage::All
                        || (stage == Stage::DefendFourThree && self.params.four_three == 2);
                    let keep = if unforced {
                        top_n - usize::from(excluded.is_some())
                    } else {
                        usize::MAX
                    };
                    n = keep.min(listed);
                    // `order_net`: far from the leaves, the top N (but the TT move and the
                    // killers) in the order of the leaf search's value after each move.
                    if stage == Stage::All
                        && self.params.order_net > 0
                        && plies >= self.params.order_net
                    {
                        if !self.params.order_net_all {
                            cur.moves.keep_top(0, n);
                        }
                        // The TT move's and the killers' bonuses put them far above any
                        // pattern score.
                        let fixed = self.params.killer_score / 2;
                        for k in 0..cur.moves.len() {
                            let sm = cur.moves.get(k);
                            if fixed > 0 && sm.score >= fixed {
                                continue;
                            }
                            let v = self.value_after(board, &cur.bbox, rest, sm.pos, ply);
                            if self.stopped {
                                return 0;
                            }
                            cur.moves.as_mut_slice()[k].score = v;
                        }
                    }
                    // Move-count pruning: fewer moves the nearer the leaves.
                    if unforced || (stage == Stage::DefendThree && self.params.mcp_defend) {
                        let last = LMR_TABLE - 1;
                        n = n.min(usize::from(self.move_counts[(plies as usize).min(last)]));
                    }
                    // Late-move pruning near the leaves.
                    if self.params.lmp > 0 && unforced && plies <= 4 {
                        n = n.min(self.params.lmp + (plies * plies) as usize);
                    }
                    // Extension of forced single replies.
                    ext = if stage == Stage::BlockFive && cur.moves.len() == 1 {
                        self.params.fext_quarters * ONE_PLY / 4
                    } else {
                        0
                    };
                }
                if i >= n || i - first >= cur.moves.len() {
                    // `mate_guard`: every move searched lost to a mate, and the cut left
                    // moves out; list the node's moves again without those searched
                    // and go on with them.
                    let searched = i - first;
                    if !self.params.mate_guard
                        || guarded
                        || avail <= searched
                        || searched > GUARD_MAX
                        || best > -VALUE_MATE_IN_MAX
                    {
                        break;
                    }
                    let mut done = [Pos::NONE; GUARD_MAX];
                    for (k, slot) in done[..searched].iter_mut().enumerate() {
                        *slot = cur.moves.get(k).pos;
                    }
                    let info = self.order_info(board, tt_move, cur.killers);
                    generate(board, &cur.bbox, &mut cur.moves, &info, top_n);
                    if early_tt {
                        cur.moves.remove(tt_move);
                    }
                    if excluded.is_some() {
                        cur.moves.remove(excluded);
                    }
                    for &p in &done[..searched] {
                        cur.moves.remove(p);
                    }
                    if cur.moves.is_empty() {
                        break;
                    }
                    guarded = true;
                    first = i;
                    n = i + cur.moves.len();
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
            let own = board.pattern4(m, me);
            let threat =
                own >= Pattern4::Flex3 || (own == Pattern4::Forbid && self.params.forbid_threat);
            let theirs = board.pattern4(m, me.opp());
            let quiet = !threat
                && theirs < Pattern4::Flex3
                && !(theirs == Pattern4::Forbid
                    && self.params.forbid_threat
                    && !board.is_forbidden(m));
            let threat_ext = if threat && self.three_ext > 0 && ply < 2 * self.root_depth {
                self.three_ext
            } else {
                0
            };
            let fail_high = fail_high && board.pattern4(m, me) < Pattern4::Block4;
            let new_depth = depth - ONE_PLY
                + ext
                + threat_ext
                + ONE_PLY * (i32::from(singular && m == tt_move) - i32::from(fail_high));
            rest[0].bbox = cur.bbox.with(m, w, h);
            rest[0].evals = [static_eval, cur.evals[0]];
            // The child's table bucket is fetched while the move updates the board.
            self.tt.prefetch(board.key_after(m));
            board.make(m);
            self.nodes += 1;
            let v = if i == 0 {
                rest[0].cut = !pv && !cur.cut;
                -self.search(board, rest, -beta, -alpha, new_depth, ply + 1, pv)
            } else {
                let r = if unforced {
                    let last = LMR_TABLE - 1;
                    let r = i32::from(self.reductions[(plies as usize).min(last)][i.min(last)]);
                    let r = if quiet {
                        r
                    } else {
                        r - self.params.lmr_tactical
                    };
                    // `lmr_cut`: more at an expected cut node, but for the killers.
                    let cut =
                        if cur.cut && self.params.lmr && plies >= 2 && !cur.killers.contains(&m) {
                            self.params.lmr_cut
                        } else {
                            0
                        };
                    (r * ONE_PLY + cut).clamp(0, new_depth.max(0))
                } else if matches!(stage, Stage::DefendThree | Stage::DefendFourThree)
                    && self.params.lmr_defend
                    && i >= 2
                    && plies >= 3
                {
                    ONE_PLY
                } else {
                    0
                };
                // A reduced search's child is expected to fail high; at full depth the
                // child's kind is the opposite of this node's.
                rest[0].cut = r > 0 || !cur.cut;
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
                    rest[0].cut = !cur.cut;
                    // How far the reduced search beat alpha decides the re-search depth.
                    let (deeper, shallower) = (self.params.lmr_deeper, self.params.lmr_shallower);
                    let margin = v.saturating_sub(alpha);
                    let d = if deeper > 0 && margin > deeper && v < VALUE_MATE_IN_MAX {
                        new_depth + ONE_PLY
                    } else if shallower > 0 && margin < shallower && r > ONE_PLY {
                        new_depth - ONE_PLY
                    } else {
                        new_depth
                    };
                    v = -self.search(board, rest, -alpha - 1, -alpha, d, ply + 1, false);
                }
                if pv && v > alpha && v < beta {
                    rest[0].cut = false;
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
                        let hist = &mut self.history[me.idx()][m.idx()];
                        *hist = (*hist + self.params.history_scale * plies * plies)
                            .min(self.params.history_cap);
                        break;
                    }
                }
            }
            i += 1;
        }

        // Step 9. Store the result.
        // Only a PV node's value inside the window is exact.
        let bound = match Bound::of(best, orig_alpha, beta) {
            Bound::Exact if !pv => Bound::Upper,
            b => b,
        };
        if !excluded.is_some() {
            self.tt.store(key, ply, best, best_move, depth, bound);
        }
        best
    }

    /// The leaf search's value (full window) of the position after move `m` of the side
    /// to move, from its view: the evaluation with forced five blocks played out, by
    /// which `order_net` and `root_net` order moves. `bbox` is this node's (at `ply`),
    /// `rest` the frames below it.
    pub(super) fn value_after(
        &mut self,
        board: &mut Board,
        bbox: &crate::movegen::BBox,
        rest: &mut [Frame],
        m: Pos,
        ply: i32,
    ) -> Value {
        rest[0].bbox = bbox.with(m, board.width(), board.height());
        board.make(m);
        self.nodes += 1;
        let v = -self.qsearch(board, rest, -VALUE_INFINITE, VALUE_INFINITE, ply + 1, 0);
        board.unmake();
        v
    }

    /// The leaf search (fail-soft within (`alpha`, `beta`)): decided positions from the
    /// counts, forced blocks of the opponent's five point (up to `qsearch_max_ply` of
    /// them), a VCF of the side to move (threat solver, small node budget, cached);
    /// else the static value, or better the best of the side to move's fours (up to
    /// `qsearch_fours` of them in the line, each answered by its forced block).
    pub(super) fn qsearch(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        alpha: Value,
        beta: Value,
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
                return self.caro_blocks(board, stack, alpha, beta, ply, qply);
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
                let v = -self.qsearch(board, rest, -beta, -alpha, ply + 1, qply + 1);
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
        let stand = evaluate(board, &self.params.eval);
        // Own fours: each forces its block (played by the child), so a line of fours
        // finds the VCFs and the threats that come with them.
        let me = board.side_to_move();
        let mc = board.counts(me);
        let fours = mc[Pattern4::Block4 as usize]
            + mc[Pattern4::Block4Plus as usize]
            + mc[Pattern4::Block4Flex3 as usize];
        if stand >= beta
            || fours == 0
            || qply >= 2 * self.params.qsearch_fours
            || (ply as usize) >= MAX_PLY - 4
            || board.count(opp, Pattern4::Five) > 0
        {
            return stand;
        }
        let (cur, rest) = stack.split_first_mut().expect("stack has MAX_PLY frames");
        let mut cells = [Pos::NONE; 16];
        let n = four_points(board, me, &cur.bbox, &mut cells);
        let (mut best, mut alpha) = (stand, alpha.max(stand));
        for &m in &cells[..n] {
            if forbidden_for_mover(board, m) {
                continue;
            }
            rest[0].bbox = cur.bbox.with(m, board.width(), board.height());
            board.make(m);
            self.nodes += 1;
            let v = -self.qsearch(board, rest, -beta, -alpha, ply + 1, qply + 1);
            board.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Caro leaf with several opponent five points: the best of blocking each of them
    /// (a block that leaves a five loses at the next ply through `quick_result`).
    fn caro_blocks(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        alpha: Value,
        beta: Value,
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
            let v = -self.qsearch(board, rest, -beta, -alpha.max(best), ply + 1, qply + 1);
            board.unmake();
            if self.stopped {
                return 0;
            }
            best = best.max(v);
            if best >= beta {
                break;
            }
        }
        best
    }
}

/// The value a table entry's bounds settle the window (`alpha`, `beta`) with, if they do.
#[inline]
fn bound_cut(h: &TtHit, alpha: Value, beta: Value) -> Option<Value> {
    if h.lower >= beta {
        Some(h.lower)
    } else if h.upper <= alpha {
        Some(h.upper)
    } else {
        None
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
