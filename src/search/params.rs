//! Every tunable of the search and the evaluation, in one place, so that matches can
//! compare configurations by changing values here (or through [`SearchParams::apply`]).
//!
//! The keys are declared once, with their fields and defaults ([`crate::tunable!`]):
//! [`SearchParams::apply`] reads them, [`markdown_table`] documents them (the table in
//! `docs/search-parameters.md`, printed by `pbrain-sente params`; a test checks that the
//! two agree).

pub use crate::eval::params::{EvalParams, WeightsRef};
use crate::pattern::Pattern4;
use crate::tunable::{find, Key, ParamValue};
use crate::types::Value;

/// Which root driver runs each iteration of iterative deepening.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Driver {
    /// MTD(f): a sequence of zero-window searches converging on the value.
    Mtdf,
    /// Principal-variation search inside an aspiration window.
    Pvs,
}

/// `mtdf` or `pvs`.
impl ParamValue for Driver {
    fn parse(v: &str) -> Result<Self, String> {
        match v {
            "mtdf" => Ok(Driver::Mtdf),
            "pvs" => Ok(Driver::Pvs),
            _ => Err(format!("bad driver {v:?}")),
        }
    }
    fn show(&self) -> String {
        match self {
            Driver::Mtdf => "mtdf",
            Driver::Pvs => "pvs",
        }
        .to_string()
    }
}

/// The default top-N width (20 since 2026-11-26: judged by Rapfi's search, Sente's moves
/// in freestyle games gain about one point of expected score per move from the wider
/// search at a match move's budget, see benches/RESULTS.md).
pub const TOP_N: usize = 20;

/// The default of `false_forbid` (and of `order_own`'s `Forbid` entry): an open three's
/// ordering weight, since a legal double-three cell of black's makes at least one.
pub const FALSE_FORBID: i32 = 1000;

/// A learned move-ordering table read from a file (`order_file`).
pub type OrderRef = crate::eval::params::Shared<crate::order::OrderTable>;

/// `order_file`: `-` none, else a weight file, loaded once and kept for the process.
fn parse_order_file(v: &str) -> Result<Option<OrderRef>, String> {
    match v {
        "-" => Ok(None),
        _ => Ok(Some(crate::eval::params::Shared(
            crate::order::OrderTable::load_static(v)?,
        ))),
    }
}

/// The path of the table in use, `-` for none.
fn show_order_file(t: &Option<OrderRef>) -> String {
    t.map_or_else(|| "-".to_string(), |t| t.0.source.clone())
}

/// The most a node budget key accepts (any non-negative count).
const NODES: i64 = i64::MAX;

crate::tunable! {
    // The knobs of the search; one value per engine configuration.
    /// Search parameters.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct SearchParams {
        /// Root driver.
        driver: Driver = Driver::Mtdf,
            "driver" ("`mtdf` or `pvs`")
            => "root driver: MTD(f) (zero-window searches) or PVS in an aspiration window";
        /// First aspiration half-window of the PVS driver.
        aspiration_delta: Value = 24,
            "asp" [1, 10_000] => "first half-width of the aspiration window of `driver=pvs`";
        /// MTD(f) passes that fail the same way in a row double their step away from the
        /// last value (off: the classic next test at the last value returned).
        mtd_step: bool = true,
            "mtd_step" => "MTD(f) passes that fail the same way in a row double their step \
                away from the last value (off: the classic step of one)";
        /// MTD(f) ends an iteration once a move has failed high and the bounds are at most
        /// this far apart (0: only when they meet). Mate values are always searched exactly.
        /// 16 since the twenty-eighth session: a quarter fewer nodes to depth 14.
        mtd_tol: Value = 16,
            "mtd_tol" [0, 1_000] => "an MTD(f) iteration ends once a root move has failed \
                high and the value's bounds are at most this far apart (0 = off: until they \
                meet)";
        /// Top-N pruning: at most this many moves are searched at an unforced node.
        top_n: usize = TOP_N,
            "top_n" [1, 1024] => "moves searched at an unforced node (forced stages are \
                never cut)";
        /// Top-N at nodes with at least `wide_depth` plies left (0: `top_n` everywhere).
        wide_n: usize = 0,
            "wide_n" [0, 1024] => "moves searched at an unforced node with `wide_depth` plies \
                or more left (0 = off: `top_n` everywhere)";
        /// See `wide_n`.
        wide_depth: i32 = 6,
            "wide_depth" [1, 100] => "remaining depth from which `wide_n` applies";
        /// At the root, at most this many moves (forced stages are never cut).
        root_top_n: usize = 20,
            "root_top_n" [1, 1024] => "moves searched at the root";
        /// Late-move reductions on/off.
        lmr: bool = true,
            "lmr" => "late-move reductions";
        /// Moves with an index below this are never reduced.
        lmr_min_index: usize = 3,
            "lmr_index" [1, 1024] => "moves with a smaller index are never reduced";
        /// Reductions only at this remaining depth or more.
        lmr_min_depth: i32 = 3,
            "lmr_depth" [1, 100] => "reductions only at this remaining depth or more";
        /// Logarithmic reductions: a quiet move at index `i` and depth `d` is reduced by
        /// `(lmr_c + lmr_k · ln d · ln i) / 1000` plies (0 = the older step formula: 1 ply,
        /// 2 from twice the minimum index and depth). 700 since the eighth session of
        /// 2026-11-26: 1400 won self-play at 50 k nodes but scaled worse against PentaZen
        /// at 250–500 ms per move (benches/RESULTS.md).
        lmr_k: i32 = 700,
            "lmr_k" [0, 10_000] => "reduction = (`lmr_c` + `lmr_k` · ln depth · ln index) / \
                1000 plies (0: the old steps of 1 ply, 2 from twice `lmr_index` and \
                `lmr_depth`)";
        /// Constant term of the logarithmic reduction (thousandths of a ply).
        lmr_c: i32 = 0,
            "lmr_c" [-10_000, 10_000] => "constant term of the reduction (thousandths of a ply)";
        /// A reduced move that beats alpha by more than this is re-searched one ply
        /// deeper than its full depth (0 = off).
        lmr_deeper: Value = 0,
            "lmr_deeper" [0, 100_000] => "a reduced move whose reduced search beats alpha by more \
                than this is re-searched one ply deeper than its full depth (0 = off)";
        /// A reduced move that beats alpha by less than this is re-searched one ply
        /// shallower than its full depth (0 = off; only moves reduced by more than a ply).
        lmr_shallower: Value = 0,
            "lmr_shallower" [0, 100_000] => "a reduced move (by more than one ply) whose reduced \
                search beats alpha by less than this is re-searched one ply shallower than its \
                full depth (0 = off)";
        /// Moves that make or stop a three (not quiet) are reduced by this many plies less
        /// than quiet ones (a large value: never reduced).
        lmr_tactical: i32 = 1,
            "lmr_tactical" [0, 100] => "moves that make or stop a three are reduced this many \
                plies less (100: never)";
        /// At a node expected to fail high (a cut node: the child of a node's first move
        /// at an expected all node, a reduced search's child; the root's zero-window
        /// passes count as cut nodes), unforced moves past the first that are not killers
        /// are reduced this many quarter plies more (0 = off). Rapfi reduces such moves by
        /// 1.8 plies.
        lmr_cut: i32 = 0,
            "lmr_cut" [0, 64] => "at an expected cut node, unforced moves past the first that \
                are not killers are reduced this many quarter plies more (0 = off)";
        /// At a node that must answer an open three (the defences and own fours only, no
        /// top-N cut), moves from index 2 on are first searched one ply shallower when at
        /// least 3 plies are left (re-searched at full depth if they beat alpha).
        lmr_defend: bool = true,
            "lmr_defend" => "at a node that must answer an open three (its defences and own \
                fours, no top-N cut), moves from index 2 on are searched one ply shallower \
                first when at least 3 plies are left (again at full depth if they beat alpha)";
        /// When the opponent has a four-three point (and no straight-four point), search
        /// only the moves that can stop it ([`crate::movegen::Stage::DefendFourThree`]):
        /// 0 = off, 1 = all of them (no top-N cut, like the defence of an open three),
        /// 2 = pruned and reduced like an unforced node.
        four_three: i32 = 2,
            "defend43" [0, 2] => "at a node where the opponent has a four-three point (and no \
                open three), only the moves that can stop it are searched: the point, the \
                cells that stop its four or its three, counters at the four's block point and \
                own fours (0 = off; 1: all of them, `lmr_defend` applies; 2: cut to the top N \
                and reduced like an unforced node)";
        /// Reduce late root moves like inner ones (quiet moves only).
        root_lmr: bool = true,
            "root_lmr" => "late quiet root moves are reduced too";
        /// Internal iterative reduction: a node of at least this depth without a TT move is
        /// searched one ply shallower (0 = off).
        iir_depth: i32 = 3,
            "iir" [0, 100] => "a node of this depth or more without a TT move is searched one \
                ply shallower (0 = off)";
        /// Reverse futility pruning: at a non-PV node with at most this many plies left
        /// (0 = off), where the opponent has no immediate threat, return the static value
        /// if it beats beta by `rfp_margin` per ply left; every rule but renju (renju
        /// reads `rfp_renju` and `rfp_margin_renju`). 8 (with `rfp_margin` 40) since the
        /// forty-fifth session: ahead against Rapfi on 20 × 20 over two opening sets and in
        /// standard and freestyle 15 on fresh sets (benches/RESULTS.md); it was 2 with
        /// margin 80.
        rfp_depth: i32 = 8,
            "rfp" [0, 20] => "reverse futility pruning at this many plies left or fewer, when \
                the opponent has no forcing threat (0 = off); every rule but renju (see \
                `rfp_renju`)";
        /// Reverse futility margin per ply left.
        rfp_margin: Value = 40,
            "rfp_margin" [0, 10_000] => "reverse futility: return the static value if it \
                beats beta by this much per ply left";
        /// Reverse futility at an expected cut node without a table entry: the margin in
        /// thousandths of the usual one (1000 = as elsewhere; Rapfi's is about 810).
        rfp_cut: i32 = 1000,
            "rfp_cut" [0, 1000] => "reverse futility at an expected cut node without a table \
                entry: the margin in thousandths of the usual (1000 = the same)";
        /// Reverse futility by improvement: a node whose static value is above its
        /// grandparent's (the same side to move two plies up) prunes with one ply less of
        /// margin (Rapfi's futility margin works so); the static value is then computed at
        /// every node that need not block a five.
        rfp_imp: bool = false,
            "rfp_imp" => "reverse futility: where the static value is above that of the same \
                side two plies up, the margin is one ply smaller";
        /// `rfp_depth` in renju games: the same 8 plies and margin 40 as the other rules
        /// since the forty-fifth session (renju had them first, in the forty-fourth), kept
        /// apart so that each can be tuned alone.
        rfp_depth_renju: i32 = 8,
            "rfp_renju" [0, 20] => "`rfp` in renju games";
        /// `rfp_margin` in renju games.
        rfp_margin_renju: Value = 40,
            "rfp_margin_renju" [0, 10_000] => "`rfp_margin` in renju games";
        /// Razoring, the mirror of reverse futility: at a non-PV node with at most this
        /// many plies left (0 = off), where the side to move has no four or double-three
        /// point (the leaf search plays none of its fours), a static value below alpha by
        /// `razor_margin` per ply left goes to the leaf search, whose value stands when it
        /// too is at most alpha; every rule but renju (renju reads `razor_renju`).
        razor_depth: i32 = 0,
            "razor" [0, 20] => "razoring: at this many plies left or fewer, when the side to \
                move has no four or double-three point, a static value `razor_margin` per ply below \
                alpha is checked by the leaf search, whose value stands if it fails low too (0 = \
                off); every rule but renju (see `razor_renju`)";
        /// `razor_depth` in renju games, kept apart so that each can be tuned alone.
        razor_depth_renju: i32 = 0,
            "razor_renju" [0, 20] => "`razor` in renju games";
        /// Razoring's margin per ply left.
        razor_margin: Value = 40,
            "razor_margin" [0, 10_000] => "razoring: how far below alpha, per ply left, the \
                static value must be";
        /// Ordering by the evaluation: at an unforced node with at least this many plies
        /// left (0 = off), the top-N moves (but the TT move and the killers, which stay
        /// first) are ordered by the leaf search's value of the position after each (the
        /// network's judgement, its forced blocks played out) instead of by the
        /// generator's pattern scores; move-count pruning and the reductions then follow
        /// that order. The network picks better among sibling moves than the ordering
        /// does (benches/RESULTS.md, forty-second session: 9–10 points of expected score
        /// lost against the best child, the ordering's first move 12–14).
        order_net: i32 = 0,
            "order_net" [0, 100] => "at an unforced node with at least this many plies left, \
                the top-N moves but the TT move and the killers are ordered by the leaf \
                search's value after each (the network's judgement) instead of the pattern \
                scores (0 = off)";
        /// With `order_net`: every listed move is valued so, and the top N are the best of
        /// them by that value (off: the top N by the pattern scores, then ordered so).
        order_net_all: bool = false,
            "order_net_all" => "with `order_net`, every listed move is valued by the leaf \
                search and the top N are chosen by that value (off: the top N of the pattern \
                scores are reordered)";
        /// The root moves (but the TT move, which stays first) ordered by the leaf search's
        /// value after each before the first iteration, instead of by the pattern scores
        /// (after each iteration the best move moves to the front as always).
        root_net: bool = false,
            "root_net" => "the root moves but the TT move are ordered by the leaf search's \
                value after each before the first iteration (off: by the pattern scores)";
        /// Late-move pruning: at an unforced node with `d` plies left, moves after the first
        /// `lmp + d²` are skipped (0 = off).
        lmp: usize = 0,
            "lmp" [0, 1024] => "late-move pruning: at 4 plies left or fewer only the first \
                `lmp` + depth² moves (0 = off)";
        /// Move-count pruning: at an unforced node with `d` plies left, at most
        /// `mcp + d^(mcp_pow / 1000)` moves (and never more than the top-N; 0 = off).
        /// 3 since 2026-11-27 (4 moves at 1 ply left, 9 at 4, the whole top-N from 9):
        /// against PentaZen, 1000 games (freestyle, standard and renju at 250 ms per move,
        /// freestyle and renju at 500 ms), 42.2 % against 40.0 % for 0 side by side: standard
        /// and renju gain, freestyle is level (see benches/RESULTS.md, ninth session).
        /// With `order_far` (tenth session), 6 scored above 3 in freestyle (56.2 % against
        /// 50.2 %) and below it in standard and renju (42.0 / 44.3 % against 50.7 / 52.7 %).
        mcp: usize = 3,
            "mcp" [0, 1024] => "move-count pruning: at an unforced node with d plies left \
                at most `mcp` + d^(`mcp_pow` / 1000) moves, within the top-N (0 = off)";
        /// Move-count pruning also at a node that must answer an open three (its
        /// defences and own fours, best-ordered: the defences first): at most `mcp` +
        /// d^(`mcp_pow` / 1000) of them.
        mcp_defend: bool = false,
            "mcp_defend" => "move-count pruning (`mcp`'s curve) also at a node that must \
                answer an open three (defences first, then own fours)";
        /// No mate from pruning: when every move searched at a node lost to a proven
        /// mate and the top-N cut or move-count pruning left moves out, those moves are
        /// searched too (late, reduced as any late move) before the node is called lost
        /// (off by default; a pruned-away defence otherwise makes a false mate, which a
        /// later iteration may retract).
        mate_guard: bool = false,
            "mate_guard" => "search the moves that the top-N cut and move-count pruning \
                left out when every searched move lost to a mate";
        /// Exponent of the move-count curve, in thousandths.
        mcp_pow: u32 = 1320,
            "mcp_pow" [0, 4000] => "exponent of `mcp`'s curve, in thousandths";
        /// Fail-high reduction: at a non-PV unforced node whose static value beats beta by
        /// `fhr` per ply left, moves that make no four are searched one ply shallower
        /// (0 = off). Off: `fhr=30` needs a third of the `bench` nodes and won self-play at
        /// 50 k nodes, but against Rapfi at 500 ms it scored 32.9 % to the default's 32.5 %
        /// over 500 games side by side (benches/RESULTS.md, twenty-first session).
        fhr: Value = 0,
            "fhr" [0, 10_000] => "fail-high reduction: at a non-PV unforced node whose static \
                value beats beta by this much per ply left, moves that make no four are searched \
                one ply shallower (0 = off)";
        /// Singular extension: at a node of at least `se_depth` plies whose TT move has a
        /// lower bound `v` (not a mate) from at least `depth - 3` plies, the other moves
        /// are searched to `(depth - 1) / 2` plies against `v - se_margin · depth`; if all
        /// fail low the TT move is extended by one ply, else (multi-cut, `se_multicut`)
        /// the node returns that bound when it is at least beta. On by default since the
        /// forty-second session (2026-11-30): against Rapfi at 500 ms ahead in freestyle
        /// and standard 15 × 15 as well (benches/RESULTS.md), after `se_large` had made
        /// it the 20 × 20 default.
        singular: bool = true,
            "se" => "singular extension: at a node of `se_depth` plies or more whose TT \
                move has a lower bound v (not a mate) from at least depth − 3 plies, the \
                other moves are searched to (depth − 1) / 2 plies against v − `se_margin` · \
                depth; if all fail low the TT move is extended by one ply";
        /// Singular extension (as `se`) on boards wider or taller than 15 cells, whatever
        /// `se` says: ahead against Rapfi in freestyle 20 × 20, where it was measured
        /// (benches/RESULTS.md, thirty-fifth session).
        se_large: bool = true,
            "se_large" => "singular extension (as `se`) on boards of more than 15 cells a side, \
                whatever `se` says";
        /// Singular extension from this many plies left.
        se_depth: i32 = 8,
            "se_depth" [1, 100] => "singular extension only at this many plies left or more";
        /// Singular margin per ply left.
        se_margin: Value = 3,
            "se_margin" [0, 10_000] => "singular extension: the other moves are tested \
                against the TT move's bound minus this much per ply left";
        /// Multi-cut: when the singular test fails high at or above beta, return it.
        se_multicut: bool = true,
            "se_multicut" => "singular extension's multi-cut: when another move also reaches \
                the test bound and that bound is at least beta, the node returns it";
        /// Transposition table entries keep a lower and an upper bound (see
        /// [`crate::tt::Tt::two_bounds`]).
        tt_two_bounds: bool = false,
            "tt_bounds" => "TT entries keep a lower and an upper bound, merged per depth";
        /// Search the TT move before generating the other moves.
        tt_first: bool = true,
            "tt_first" => "the TT move is searched before the other moves are generated";
        /// History bonus is depth² times this.
        history_scale: i32 = 1,
            "hist_scale" [0, 10_000] => "history bonus per depth² on a cutoff";
        /// History values are capped at this (they only break ties of pattern scores).
        history_cap: i32 = 300,
            "hist_cap" [0, 1 << 20] => "cap of the history values";
        /// Move-ordering bonus of a killer move (`1 << 20`: before every pattern score).
        killer_score: i32 = crate::movegen::KILLER_SCORE,
            "killer" [0, 1 << 24] => "ordering bonus of a killer move (the default puts \
                killers before every pattern score)";
        // None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2,
        // Block4, Block4Plus, Block4Flex3, Flex4, Five
        /// Move-ordering weight of the class the side to move makes on a cell.
        order_own: [i32; Pattern4::COUNT] =
            [0, FALSE_FORBID, 150, 120, 400, 450, 1000, 1300, 6000, 900, 1800, 8000, 20_000, 100_000];
        /// Move-ordering weight of the class the opponent would make on a cell (defence).
        order_opp: [i32; Pattern4::COUNT] =
            [0, 0, 80, 60, 200, 220, 500, 650, 3000, 450, 900, 4000, 10_000, 50_000];
        /// Order the unforced moves by the learned scores ([`crate::order`]) where a
        /// table for the rule is shipped (freestyle), instead of `order_own`/`order_opp`
        /// (and `order_far`). On since the twenty-fourth session (2026-11-28): against
        /// Rapfi at 500 ms per move, side by side with the old default on six opening
        /// sets (freestyle 15 and 20, 550 games per arm), 30.7 % against 25.0 %, ahead
        /// on five of the six (benches/RESULTS.md).
        order_learned: bool = true,
            "order_learned" => "order the unforced moves by the learned move-ordering \
                scores (the shipped table is freestyle's; other rules keep the pattern-class \
                weights unless `order_file` is set)";
        /// A learned ordering read from a file, used in every rule instead of the
        /// shipped tables while `order_learned` is on (experiments: `train-order`'s
        /// output, e.g. for a rule without a shipped table).
        order_file: Option<OrderRef> = None,
            "order_file" ("a file name, or `-` for none") with parse_order_file, show_order_file
            => "with `order_learned=on`, order the unforced moves by the learned scores of \
                this weight file (written by `pbrain-sente train-order`, see `src/order.rs`) \
                in every rule, instead of the shipped table; `-`: the shipped tables";
        /// Halve the ordering score of an unforced cell more than `far_dist` (4) squares from the
        /// last two moves, quarter it when also from the two before (the hand-set
        /// weights only; the top-N cut then keeps the moves near the fight). On since
        /// the tenth session (2026-11-27): against PentaZen at 250 ms per move, 200 games
        /// per rule, freestyle 50.2 %, standard 50.7 %, renju 52.7 % against the old
        /// default's 43.5 %, 44.0 %, 44.0 % (with `mcp=6` as well: 56.2 %, 42.0 %,
        /// 44.3 %; benches/RESULTS.md, tenth session). At 500 ms (eleventh session):
        /// freestyle 44.5 %, renju 37.5 %; `far_dist=3` was not better.
        order_far: bool = true,
            "order_far" => "order unforced moves far from the recent moves later: a cell \
                more than `far_dist` (4) squares (Chebyshev) from the last two moves has \
                its pattern score halved, from the last four quartered (with the \
                pattern-class weights only: rules without a learned ordering, or \
                `order_learned=off`)";
        /// Move-ordering weight of a renju black cell of class `Forbid` (a double three,
        /// double four or overline on the lines alone) that the exact check finds legal
        /// (a double three with a false three): written into `order_own`'s `Forbid` entry
        /// (at 0 such cells are listed only for the opponent's weight there, and rarely
        /// reach the top N). Default since the thirty-second session (2026-11-29).
        false_forbid: i32 = FALSE_FORBID,
            "false_forbid" [0, 1_000_000] => "renju: move-ordering weight of a black cell \
                that makes a double three on its lines but is legal (a false three); 0 \
                leaves such cells unlisted unless the opponent's pattern there counts";
        /// Renju: white's move-ordering weight of a cell where black would make a legal
        /// double three (with a false three: black's real threat point), written into
        /// `order_opp`'s `Forbid` entry; black's forbidden cells keep no weight (the
        /// generator takes it off them after the exact check).
        opp_forbid: i32 = 0,
            "opp_forbid" [0, 1_000_000] => "renju: white's move-ordering weight of a cell \
                where black would make a legal double three (a false three); black's \
                forbidden cells get none";
        /// Renju: a listed (legal) black move of class `Forbid` (a double three with a false
        /// three: at least an open three) counts as a threat in the search, as a three does:
        /// not quiet (milder late-move reduction, not a killer), and extended by the threat
        /// extension; a white move on such a black cell counts as a defence (not quiet).
        forbid_threat: bool = false,
            "forbid_threat" => "renju: black's legal double-three moves (with a false \
                three) count as threats in the search like threes (threat extension, milder \
                reductions), and white's moves there as defences";
        /// The distance of `order_far`: a cell more than this many squares (Chebyshev) from
        /// a recent move is far from it.
        far_dist: i32 = crate::movegen::FAR as i32,
            "far_dist" [1, 31] => "`order_far`'s distance: a cell more than this many \
                squares (Chebyshev) from a recent move is far from it";
        /// The extension of a node whose only move is a forced block, in quarter plies
        /// (0 = none; 4 = one ply, so that a four and its block cost one ply; 5 makes a
        /// line of fours cheaper than a ply per four).
        fext_quarters: i32 = 4,
            "fext_q" [0, 8] => "extension of a node whose only move is a forced block, in \
                quarter plies (0 = none, 4 = one ply)";
        /// Extension of a move that makes an open three or better for the mover (a threat
        /// the opponent must answer), in quarter plies, within twice the root depth; every
        /// rule but renju (renju reads `three_ext_renju`).
        three_ext: i32 = 0,
            "three_ext" [0, 8] => "extension of a move that makes an open three, a four or \
                better for the mover, in quarter plies (0 = none), within twice the \
                iteration's depth from the root; every rule but renju (see `three_ext_renju`)";
        /// `three_ext` in renju games (both colours). 1 since the twentieth session
        /// (2026-11-28): against Rapfi at 500 ms per move, 30.4 % over 500 games against 25.5 %
        /// over 400 for 0, ahead in five of five side-by-side pairs; in freestyle
        /// (200 games) and standard (200) the extension was level, so `three_ext` stays 0
        /// (benches/RESULTS.md, nineteenth and twentieth sessions).
        three_ext_renju: i32 = 1,
            "three_ext_renju" [0, 8] => "`three_ext` in renju games";
        /// Most plies of forced blocks the quiescence search plays.
        qsearch_max_ply: i32 = 12,
            "qply" [0, 60] => "most forced blocks in the leaf search";
        /// Most own fours in a line of the quiescence search (each followed by its forced
        /// block; 0 = the leaf takes the static value without trying fours).
        qsearch_fours: i32 = 0,
            "qfours" [0, 30] => "the leaf search also tries up to this many own fours in a \
                line, each answered by its forced block (0 = off)";
        /// Leaves and the table (`qtt`): 0 = a leaf always runs the quiescence search;
        /// 1 = a table entry of any depth whose bound settles the window answers first;
        /// 2 = as 1, and a leaf without an entry stores its value at depth 0 (the
        /// MTD(f) passes and iterations reach the same leaves again). 2 since the
        /// thirty-seventh session: ahead against Rapfi in freestyle 20 × 20
        /// (benches/RESULTS.md).
        qtt: u32 = 2,
            "qtt" [0, 2] => "leaves and the table: 1 = a table entry of any depth whose bound \
                settles the window answers before the quiescence search; 2 = also store a \
                leaf's value at depth 0 when it had no entry";
        /// Decide four-three and double-three points against an opponent without fours as
        /// wins in 5 at every node (see [`crate::eval::quick_result`]).
        quick_win5: bool = false,
            "win5" => "a four-three or double-three point of the side to move against an \
                opponent without a four point is a win in 5 (not for renju black)";
        /// Threat solvers on/off: VCF/VCT at the root (play a found win, restrict the root to
        /// the defences against the opponent's) and VCF at the leaves.
        threats: bool = true,
            "threats" => "threat solvers: VCF/VCT at the root (a found win is played, an \
                opponent's threat restricts the root to its defences) and VCF at the leaves";
        /// Root: node budget of the side to move's VCF question.
        root_vcf_nodes: u64 = 200_000,
            "root_vcf" [0, NODES] ("nodes, 0 or more") => "root: node budget of the side to move's VCF \
                question";
        /// Root: node budget of the side to move's VCT question (0 = no VCT at the root).
        root_vct_nodes: u64 = 200_000,
            "root_vct" [0, NODES] ("nodes, 0 or more") => "root: node budget of the side to move's VCT \
                question (0 = off)";
        /// Root: node budget of each VCF check while finding defences to the opponent's VCF.
        defence_vcf_nodes: u64 = 4_000,
            "def_vcf" [0, NODES] ("nodes, 0 or more") => "root: node budget of each VCF check while \
                finding the defences to the opponent's VCF";
        /// Root: node budget of the opponent's VCT question when finding the defences to it
        /// (each candidate defence gets 1/16 of it; 0 = no VCT defence).
        defence_vct_nodes: u64 = 64_000,
            "def_vct" [0, NODES] ("nodes, 0 or more") => "root: node budget of the opponent's VCT \
                question when finding the defences to it (each candidate defence gets 1/16 \
                of it; 0 = off)";
        /// Root: the defences to the opponent's VCT restrict the root moves only when at
        /// most this many squares survive (more: the budget refuted too little to say
        /// anything, and the root keeps its usual moves); 1024, every square of the
        /// largest board, is no limit. 20 (`root_top_n`): at a match move's budget most
        /// lists keep 100 squares or more, and restricting to them widened the root to 40
        /// moves (benches/RESULTS.md, twelfth session).
        defence_vct_max: usize = 20,
            "def_vct_max" [1, 1024] => "root: the defences to the \
                opponent's VCT restrict the root moves only when at most this many squares \
                survive (more: the usual root moves; 1024 = always)";
        /// Root: the threat solvers stop after this many thousandths of the soft time limit
        /// (also after half the hard limit); the rest goes to the search.
        threat_time_permille: u32 = 150,
            "threat_permille" [0, 1000] => "root: the threat solvers stop after this many \
                thousandths of the soft time limit (and after half the hard limit)";
        /// Leaves: node budget of the side to move's VCF check (0 = no leaf VCF).
        leaf_vcf_nodes: u64 = 0,
            "leaf_vcf" [0, NODES] ("nodes, 0 or more") => "leaves: node budget of the side to move's VCF \
                check (0 = off)";
        /// Leaves: longest VCF looked for (plies to the five).
        leaf_vcf_plies: i32 = 21,
            "leaf_plies" [1, 199] => "leaves: longest VCF looked for (plies to the five)";
        /// Root move verification: after an iteration of at least `verify_depth`, the best
        /// root move is checked for a VCF/VCT of the opponent with this node budget, and
        /// dropped from the root if one is found (0 = off).
        verify_nodes: u64 = 0,
            "verify" [0, NODES] ("nodes, 0 or more") => "root move verification: after each iteration \
                from `verify_depth` on, the best root move is checked for a VCF/VCT of the \
                opponent with this many solver nodes and dropped if one is found (0 = off)";
        /// Root move verification starts after an iteration of this depth.
        verify_depth: i32 = 6,
            "verify_depth" [1, 100] => "root move verification starts after an iteration of \
                this depth";
        /// At most this many different root moves are verified in one search.
        verify_moves: usize = 4,
            "verify_moves" [1, 64] => "at most this many root moves are verified in one search";
        /// Poll the clock and the stop flag every this many nodes.
        check_interval: u64 = 256;
        /// No new iteration starts after this many thousandths of the (stretched) soft
        /// limit: the next one would rarely finish, and an unfinished iteration is mostly lost.
        next_iteration_permille: u32 = 600,
            "next_iter" [100, 2000] => "no new iteration starts after this many thousandths \
                of the soft time limit";
        /// With nothing to save for later moves (a per-move limit only: optimum = maximum),
        /// use the whole budget: no soft stop (`next_iteration_permille`), and start the
        /// next iteration even when it is predicted to end past the hard limit: the time is
        /// otherwise unused, and a move that fails high in the unfinished iteration
        /// replaces the best one. With a match clock nothing changes.
        partial_iterations: bool = true,
            "partial" => "with a per-move limit only (no match clock), use the whole budget: \
                no `next_iter` soft stop, and iterations predicted to end past the hard limit \
                are started (a move that fails high in the unfinished iteration is played)";
        /// Evaluation weights (their keys: [`EvalParams::KEYS`]).
        eval: EvalParams = EvalParams::default();
    }
}

/// The prefix that marks a tuning key in `INFO`, so that no protocol key a manager may
/// send one day can be taken for one: `INFO sente.top_n 8`. The keys without it
/// (`INFO top_n 8`) keep working, unless a protocol key of that name comes to exist.
pub const PREFIX: &str = "sente.";

/// Every key: the search's, then the evaluation's (which set [`SearchParams::eval`]).
pub fn keys() -> impl Iterator<Item = KeyRef> {
    SearchParams::KEYS
        .iter()
        .map(KeyRef::Search)
        .chain(EvalParams::KEYS.iter().map(KeyRef::Eval))
}

/// One key of [`SearchParams`] or of its [`EvalParams`].
#[derive(Clone, Copy)]
pub enum KeyRef {
    /// A key of the search.
    Search(&'static Key<SearchParams>),
    /// A key of the evaluation.
    Eval(&'static Key<EvalParams>),
}

impl KeyRef {
    /// The key's name (without [`PREFIX`]).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            KeyRef::Search(k) => k.name,
            KeyRef::Eval(k) => k.name,
        }
    }

    /// What it sets.
    #[must_use]
    pub fn help(self) -> &'static str {
        match self {
            KeyRef::Search(k) => k.help,
            KeyRef::Eval(k) => k.help,
        }
    }

    /// The values it accepts.
    #[must_use]
    pub fn values(self) -> &'static str {
        match self {
            KeyRef::Search(k) => k.values,
            KeyRef::Eval(k) => k.values,
        }
    }

    /// Its value in `p`.
    #[must_use]
    pub fn show(self, p: &SearchParams) -> String {
        match self {
            KeyRef::Search(k) => (k.show)(p),
            KeyRef::Eval(k) => (k.show)(&p.eval),
        }
    }

    /// Set it in `p` from `v`.
    ///
    /// # Errors
    /// A message naming the bad value; `p` is unchanged then.
    pub fn set(self, p: &mut SearchParams, v: &str) -> Result<(), String> {
        match self {
            KeyRef::Search(k) => (k.set)(p, v),
            KeyRef::Eval(k) => (k.set)(&mut p.eval, v),
        }
    }
}

/// The key called `name`, with or without [`PREFIX`].
#[must_use]
pub fn key(name: &str) -> Option<KeyRef> {
    let name = name.strip_prefix(PREFIX).unwrap_or(name);
    find(SearchParams::KEYS, name)
        .map(KeyRef::Search)
        .or_else(|| find(EvalParams::KEYS, name).map(KeyRef::Eval))
}

/// The documentation's table of every key: name, default, accepted values, meaning
/// (`docs/search-parameters.md` holds it; `pbrain-sente params` prints it).
#[must_use]
pub fn markdown_table() -> String {
    markdown_table_of(&SearchParams::default())
}

/// [`markdown_table`] with the values of `d` in the second column.
#[must_use]
pub fn markdown_table_of(d: &SearchParams) -> String {
    let mut out = String::from("| key | default | values | meaning |\n|---|---|---|---|\n");
    for k in keys() {
        let values = match k.values() {
            "" => "`on` / `off`",
            v => v,
        };
        let help: String = k.help().split_whitespace().collect::<Vec<_>>().join(" ");
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            k.name(),
            k.show(d),
            values,
            help
        ));
    }
    out
}

impl SearchParams {
    /// The distance of the generator's far-cell scaling ([`crate::movegen::OrderInfo::far`]):
    /// `far_dist` with `order_far`, else 0 (off).
    #[must_use]
    pub fn far(&self) -> i32 {
        if self.order_far {
            self.far_dist
        } else {
            0
        }
    }

    /// Apply `key=value` settings separated by commas or spaces, e.g.
    /// `driver=pvs,top_n=6,lmr=0`. The keys ([`keys`]: the search's in [`Self::KEYS`],
    /// the evaluation's in [`EvalParams::KEYS`]) may carry [`PREFIX`] (`sente.top_n=6`);
    /// `docs/search-parameters.md` lists them all with their defaults.
    ///
    /// # Errors
    /// A message naming the first unknown key or bad value; the settings before it stay
    /// applied.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        for item in spec.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, got {item:?}"))?;
            key(k)
                .ok_or_else(|| format!("unknown parameter {k:?}"))?
                .set(self, v)?;
            self.order_own[Pattern4::Forbid as usize] = self.false_forbid;
            self.order_opp[Pattern4::Forbid as usize] = self.opp_forbid;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn false_forbid_and_opp_forbid_set_the_ordering_weights_of_the_forbid_class() {
        let mut p = SearchParams::default();
        assert_eq!(p.order_own[Pattern4::Forbid as usize], p.false_forbid);
        p.apply("false_forbid=0").expect("apply");
        assert_eq!(p.order_own[Pattern4::Forbid as usize], 0);
        p.apply("false_forbid=700").expect("apply");
        assert_eq!(p.order_own[Pattern4::Forbid as usize], 700);
        assert_eq!(p.order_opp[Pattern4::Forbid as usize], p.opp_forbid);
        p.apply("opp_forbid=500").expect("apply");
        assert_eq!(p.order_opp[Pattern4::Forbid as usize], 500);
        assert_eq!(p.order_own[Pattern4::Forbid as usize], 700);
    }

    #[test]
    fn apply_sets_evaluation_weights_and_rejects_a_wrong_count() {
        let mut p = SearchParams::default();
        p.apply("ev_own=0/0/1/2/3/4/5/6/7/8/9/10/11/12,ev_three=77,killer=5,lmr_defend=off")
            .unwrap();
        assert!(!p.lmr_defend && SearchParams::default().lmr_defend);
        assert_eq!(p.eval.own, [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(p.eval.opp, EvalParams::default().opp);
        assert_eq!(p.eval.opp_three_no_four, 77);
        assert_eq!(p.killer_score, 5);
        let before = p.clone();
        assert!(p.apply("ev_opp=1/2/3").is_err());
        assert!(p.apply("ev_opp=0/0/1/2/3/4/5/6/7/8/9/10/11/x").is_err());
        assert_eq!(p.eval, before.eval);
    }

    #[test]
    fn every_key_is_unique_and_reads_back_what_it_writes() {
        let names: Vec<&str> = keys().map(KeyRef::name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            names.len(),
            "a key is declared twice: {names:?}"
        );
        let d = SearchParams::default();
        for k in keys().filter(|k| k.name() != "weights") {
            let mut p = d.clone();
            k.set(&mut p, &k.show(&d)).unwrap();
            assert_eq!(p, d, "{} does not read back {:?}", k.name(), k.show(&d));
        }
    }

    #[test]
    fn apply_clamps_numbers_accepts_the_prefix_and_names_the_first_bad_item() {
        let mut p = SearchParams::default();
        p.apply("sente.top_n=0 root_vcf=-5,driver=pvs,sente.ev_tempo=99999,lmr=false")
            .unwrap();
        assert_eq!(p.top_n, 1);
        assert_eq!(p.root_vcf_nodes, 0);
        assert_eq!(p.driver, Driver::Pvs);
        assert_eq!(p.eval.tempo, 10_000);
        assert!(!p.lmr);
        assert_eq!(
            p.apply("nokey=1"),
            Err("unknown parameter \"nokey\"".into())
        );
        assert_eq!(p.apply("lmr=maybe"), Err("bad flag \"maybe\"".into()));
        assert_eq!(p.apply("top_n=x"), Err("bad number \"x\"".into()));
        assert_eq!(
            p.apply("top_n"),
            Err("expected key=value, got \"top_n\"".into())
        );
        assert_eq!(
            p.apply("sente.=1"),
            Err("unknown parameter \"sente.\"".into())
        );
        // A field without a key (set from code only) is no key.
        assert!(key("check_interval").is_none() && key("eval").is_some());
    }
}
