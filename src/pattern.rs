//! Table-driven line patterns.
//!
//! For every cell, every direction and both colours there is a [`Pattern`] that a stone
//! of that colour would make on that line. The pattern depends only on the 10 cells at
//! distance 1..=5 on either side (the line key, 2 bits per cell: empty, black, white,
//! wall), and is computed once per rule for all 4^10 keys by a memoised recursion over
//! "what does one more stone make". Since nothing behind the first blocker on each side
//! matters, the lookup goes through the two half lines' canonical states into tables that
//! fit the first-level cache ([`RuleTables`]). The board keeps, per direction and colour,
//! only the 3-bit [`combo_code`] of the pattern (what combining cares about; one table
//! access gives both colours' codes), and the four codes of a cell index a second table
//! that gives its [`Pattern4`] class.
//!
//! [`classify_line`] is the slow reference definition used to build and to test the
//! tables.

use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// What a stone of one colour placed on an empty cell makes on one line through it.
///
/// Ordered from weakest to strongest. "F" = flexible (open), "B" = blocked (closed).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing can ever come of this line through the cell.
    Dead = 0,
    /// A run of six or more that is not a win under the rule (renju black: forbidden).
    Overline = 1,
    /// One stone that can still become a closed two.
    B1 = 2,
    /// One stone that can become an open two.
    F1 = 3,
    /// A closed two: one more stone makes a closed three.
    B2 = 4,
    /// An open two: one more stone makes an open three.
    F2 = 5,
    /// A closed three: one more stone makes a four.
    B3 = 6,
    /// An open three: one more stone makes a straight four.
    F3 = 7,
    /// A four with one point that makes five.
    B4 = 8,
    /// A straight four: two points, one on each side of four stones, make five.
    F4 = 9,
    /// Two fours on one line (e.g. `XXX.X.XXX` filling the middle): two distinct five
    /// points that do not belong to one straight four.
    B44 = 10,
    /// A five by the rule (exact five where the rule needs it, unblocked for caro).
    F5 = 11,
}

impl Pattern {
    /// All patterns, weakest first.
    pub const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::B44,
        Pattern::F5,
    ];

    /// The pattern with discriminant `v & 15` (values above 11 read as [`Pattern::Dead`]).
    #[inline]
    #[must_use]
    pub const fn from_u8(v: u8) -> Pattern {
        match v & 15 {
            1 => Pattern::Overline,
            2 => Pattern::B1,
            3 => Pattern::F1,
            4 => Pattern::B2,
            5 => Pattern::F2,
            6 => Pattern::B3,
            7 => Pattern::F3,
            8 => Pattern::B4,
            9 => Pattern::F4,
            10 => Pattern::B44,
            11 => Pattern::F5,
            _ => Pattern::Dead,
        }
    }

    /// True for the patterns that make a four (one or more five points).
    #[inline]
    #[must_use]
    pub const fn is_four(self) -> bool {
        matches!(self, Pattern::B4 | Pattern::F4 | Pattern::B44)
    }
}

/// The combined class of an empty cell for one colour: what a stone there makes over
/// all four lines. Ordered from weakest to strongest.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[repr(u8)]
pub enum Pattern4 {
    /// Nothing notable (also: every non-empty cell).
    #[default]
    None = 0,
    /// Renju black only: an overline, a double four, or two open threes. The first two
    /// are always forbidden; two threes are forbidden unless one is a false three, which
    /// `Board::is_forbidden` decides exactly.
    Forbid = 1,
    /// One open two.
    Flex2 = 2,
    /// One closed three.
    Block3 = 3,
    /// Two open twos.
    Flex2x2 = 4,
    /// Closed three plus another closed three or open two.
    Block3Plus = 5,
    /// One open three.
    Flex3 = 6,
    /// Open three plus a closed three or open two.
    Flex3Plus = 7,
    /// Two open threes (a winning double threat unless answered by fours).
    Flex3x2 = 8,
    /// One four.
    Block4 = 9,
    /// A four plus a closed three or open two.
    Block4Plus = 10,
    /// A four plus an open three (four-three).
    Block4Flex3 = 11,
    /// A straight four or a double four: wins next move.
    Flex4 = 12,
    /// Makes five now.
    Five = 13,
}

impl Pattern4 {
    /// Number of classes.
    pub const COUNT: usize = 14;

    /// All classes, weakest first.
    pub const ALL: [Pattern4; 14] = [
        Pattern4::None,
        Pattern4::Forbid,
        Pattern4::Flex2,
        Pattern4::Block3,
        Pattern4::Flex2x2,
        Pattern4::Block3Plus,
        Pattern4::Flex3,
        Pattern4::Flex3Plus,
        Pattern4::Flex3x2,
        Pattern4::Block4,
        Pattern4::Block4Plus,
        Pattern4::Block4Flex3,
        Pattern4::Flex4,
        Pattern4::Five,
    ];

    /// The class with discriminant `v` (out of range reads as [`Pattern4::None`]).
    #[inline]
    #[must_use]
    pub const fn from_u8(v: u8) -> Pattern4 {
        if (v as usize) < Self::COUNT {
            Self::ALL[v as usize]
        } else {
            Pattern4::None
        }
    }

    /// True when the move makes at least a four.
    #[inline]
    #[must_use]
    pub const fn is_four_or_better(self) -> bool {
        self as u8 >= Pattern4::Block4 as u8
    }

    /// True when the move makes at least an open three (but maybe no four).
    #[inline]
    #[must_use]
    pub const fn is_three_or_better(self) -> bool {
        self as u8 >= Pattern4::Flex3 as u8
    }
}

/// Cell codes inside a line key.
pub const EMPTY: u8 = 0;
/// Black stone code.
pub const BLACK: u8 = 1;
/// White stone code.
pub const WHITE: u8 = 2;
/// Wall / blocked code.
pub const WALL: u8 = 3;

/// Half length of the window a pattern looks at.
pub const HALF: i32 = 5;
/// Number of distinct line keys (10 cells, 2 bits each).
pub const KEY_COUNT: usize = 1 << 20;

/// Bit shift of the cell at offset `k` (|k| in 1..=5) from the centre in a line key.
#[inline]
#[must_use]
pub const fn key_shift(k: i32) -> u32 {
    if k < 0 {
        (2 * (k + 5)) as u32
    } else {
        (2 * (k + 4)) as u32
    }
}

/// The cell code at offset `k` from the centre in a line key.
#[inline]
#[must_use]
pub const fn key_cell(key: u32, k: i32) -> u8 {
    ((key >> key_shift(k)) & 3) as u8
}

/// Pack an 11-cell line (index 5 = centre, ignored) into a key.
#[must_use]
pub fn key_from_line(line: &[u8; 11]) -> u32 {
    let mut key = 0u32;
    for k in -HALF..=HALF {
        if k != 0 {
            key |= u32::from(line[(k + HALF) as usize] & 3) << key_shift(k);
        }
    }
    key
}

/// Whether a maximal run of `len` stones of `color`, whose outer neighbours hold the
/// cell codes `left` and `right`, is a winning five under `rule`.
///
/// - freestyle: five or more;
/// - standard: exactly five, for both colours;
/// - renju: black exactly five, white five or more;
/// - caro (8): a five not blocked at both ends by opponent stones, or an overline;
/// - caro (9): an exact five not blocked at both ends. The board edge never blocks.
#[must_use]
pub fn run_wins(rule: Rule, color: Color, len: usize, left: u8, right: u8) -> bool {
    let opp = if color == Color::Black { WHITE } else { BLACK };
    let blocked_both = left == opp && right == opp;
    match rule {
        Rule::Freestyle => len >= 5,
        Rule::Standard => len == 5,
        Rule::Renju => {
            if color == Color::Black {
                len == 5
            } else {
                len >= 5
            }
        }
        Rule::Caro8 => len >= 6 || (len == 5 && !blocked_both),
        Rule::Caro9 => len == 5 && !blocked_both,
    }
}

/// Reference classification (slow, recursive): the pattern `color` makes by playing
/// the centre of `line` (index 5; its content is ignored). Cells hold [`EMPTY`],
/// [`BLACK`], [`WHITE`] or [`WALL`].
#[must_use]
pub fn classify_line(line: &[u8; 11], color: Color, rule: Rule) -> Pattern {
    let mut l = *line;
    l[5] = if color == Color::Black { BLACK } else { WHITE };
    classify_filled(&l, color, rule)
}

/// Classification of a line whose centre already holds `color`.
fn classify_filled(line: &[u8; 11], color: Color, rule: Rule) -> Pattern {
    let own = line[5];
    let mut lo = 5;
    while lo > 0 && line[lo - 1] == own {
        lo -= 1;
    }
    let mut hi = 5;
    while hi < 10 && line[hi + 1] == own {
        hi += 1;
    }
    let len = hi - lo + 1;
    let left = if lo > 0 { line[lo - 1] } else { EMPTY };
    let right = if hi < 10 { line[hi + 1] } else { EMPTY };
    if run_wins(rule, color, len, left, right) {
        return Pattern::F5;
    }
    if len >= 6 {
        return Pattern::Overline;
    }
    let mut child = [Pattern::Dead; 11];
    for i in 1..=9 {
        if i != 5 && line[i] == EMPTY {
            let mut next = *line;
            next[i] = own;
            child[i] = classify_filled(&next, color, rule);
        }
    }
    combine_children(&child, color, rule)
}

/// Given the pattern after each possible extra stone (index = cell, `Dead` where no stone
/// can go), the pattern of the line now.
fn combine_children(child: &[Pattern; 11], color: Color, rule: Rule) -> Pattern {
    let mut five_points = [false; 11];
    let mut n5 = 0;
    for i in 1..=9 {
        if child[i] == Pattern::F5 {
            five_points[i] = true;
            n5 += 1;
        }
    }
    if n5 >= 2 {
        for a in 1..=4 {
            if five_points[a] && five_points[a + 5] {
                return Pattern::F4;
            }
        }
        return Pattern::B44;
    }
    if n5 == 1 {
        return Pattern::B4;
    }
    let strict = rule == Rule::Renju && color == Color::Black;
    let mut best = Pattern::Dead;
    for &c in child.iter() {
        let p = match c {
            Pattern::F4 => Pattern::F3,
            Pattern::B44 if !strict => Pattern::F3,
            Pattern::B4 | Pattern::B44 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            _ => Pattern::Dead,
        };
        best = best.max(p);
    }
    best
}

/// Marks a key not yet classified in a memo of [`rank_key`].
const UNRANKED: u8 = 0xFF;

/// The pattern `color` (stones coded `own`) makes on the line `key` by playing its centre,
/// memoised in `memo` (one byte per key, [`UNRANKED`] = not yet known). Children are the
/// keys with one more own stone, so a call only visits keys above `key`.
fn rank_key(key: u32, own: u8, color: Color, rule: Rule, memo: &mut [u8]) -> Pattern {
    let m = memo[key as usize];
    if m != UNRANKED {
        return Pattern::from_u8(m);
    }
    let mut line = [EMPTY; 11];
    for k in -HALF..=HALF {
        if k != 0 {
            line[(k + HALF) as usize] = key_cell(key, k);
        }
    }
    line[5] = own;
    let mut lo = 5;
    while lo > 0 && line[lo - 1] == own {
        lo -= 1;
    }
    let mut hi = 5;
    while hi < 10 && line[hi + 1] == own {
        hi += 1;
    }
    let len = hi - lo + 1;
    let left = if lo > 0 { line[lo - 1] } else { EMPTY };
    let right = if hi < 10 { line[hi + 1] } else { EMPTY };
    let result = if run_wins(rule, color, len, left, right) {
        Pattern::F5
    } else if len >= 6 {
        Pattern::Overline
    } else {
        let mut child = [Pattern::Dead; 11];
        for i in 1..=9usize {
            if i != 5 && line[i] == EMPTY {
                let k = i as i32 - HALF;
                let next = key | (u32::from(own) << key_shift(k));
                child[i] = rank_key(next, own, color, rule, memo);
            }
        }
        combine_children(&child, color, rule)
    };
    memo[key as usize] = result as u8;
    result
}

/// Build the directional table of one colour under one rule over every key: entry =
/// [`Pattern`] as u8 (the reference the half-state tables are tested against).
#[cfg(test)]
fn build_color_table(rule: Rule, color: Color) -> Vec<u8> {
    let own = if color == Color::Black { BLACK } else { WHITE };
    let mut memo = vec![UNRANKED; KEY_COUNT];
    for key in 0..KEY_COUNT as u32 {
        rank_key(key, own, color, rule, &mut memo);
    }
    memo
}

/// One half line (5 cells, nearest first) whose [`half_state`] for the colour with
/// stones `own` is `state`: the inverse of `half_state` up to the cells it ignores
/// (those behind the blocker are filled with the blocker).
fn half_cells(state: u32, own: u8) -> [u8; 5] {
    let opp = if own == BLACK { WHITE } else { BLACK };
    let mut cells = [EMPTY; 5];
    if state >= 62 {
        let bits = state - 62;
        for (k, c) in cells.iter_mut().enumerate() {
            *c = if bits >> k & 1 == 1 { own } else { EMPTY };
        }
        return cells;
    }
    // States ending at a blocker at index k start at 2 * (2^k - 1).
    let mut k = 0;
    while 2 * ((1u32 << (k + 1)) - 1) <= state {
        k += 1;
    }
    let rem = state - 2 * ((1 << k) - 1);
    let blocker = if rem >> k & 1 == 1 { WALL } else { opp };
    for (j, c) in cells.iter_mut().enumerate() {
        *c = match j.cmp(&k) {
            std::cmp::Ordering::Less if rem >> j & 1 == 1 => own,
            std::cmp::Ordering::Less => EMPTY,
            _ => blocker,
        };
    }
    cells
}

/// A line key whose left half (offsets -1..-5) is `left` and right half (+1..+5) is
/// `right`, both nearest first.
fn key_of_halves(left: [u8; 5], right: [u8; 5]) -> u32 {
    let mut key = 0;
    for k in 1..=HALF {
        key |= u32::from(left[k as usize - 1]) << key_shift(-k);
        key |= u32::from(right[k as usize - 1]) << key_shift(k);
    }
    key
}

/// The half-pair pattern table of one colour: entry `a * HALF_STATES + b` = the pattern
/// of a line whose left half has state `a` and right half state `b`. Only one key per
/// pair is classified (with a memo shared by the recursion), not all 2^20 keys.
fn build_pair_patterns(rule: Rule, color: Color) -> Vec<u8> {
    let own = if color == Color::Black { BLACK } else { WHITE };
    let mut memo = vec![UNRANKED; KEY_COUNT];
    let n = HALF_STATES as u32;
    let mut out = vec![0u8; HALF_STATES * HALF_STATES];
    for a in 0..n {
        let left = half_cells(a, own);
        for b in 0..n {
            let key = key_of_halves(left, half_cells(b, own));
            out[(a * n + b) as usize] = rank_key(key, own, color, rule, &mut memo) as u8;
        }
    }
    out
}

/// Combine the four directional patterns of one colour into a [`Pattern4`].
#[must_use]
pub fn combine4(pats: [Pattern; 4], color: Color, rule: Rule) -> Pattern4 {
    let strict = rule == Rule::Renju && color == Color::Black;
    let mut n = [0u32; 12];
    for p in pats {
        n[p as usize] += 1;
    }
    let c = |p: Pattern| n[p as usize];
    if c(Pattern::F5) > 0 {
        return Pattern4::Five;
    }
    if strict {
        let fours = c(Pattern::B4) + c(Pattern::F4) + 2 * c(Pattern::B44);
        if c(Pattern::Overline) > 0 || fours >= 2 || c(Pattern::F3) >= 2 {
            return Pattern4::Forbid;
        }
        if c(Pattern::F4) > 0 {
            return Pattern4::Flex4;
        }
    } else if c(Pattern::F4) > 0 || c(Pattern::B44) > 0 || c(Pattern::B4) >= 2 {
        return Pattern4::Flex4;
    }
    let b4 = c(Pattern::B4);
    let f3 = c(Pattern::F3);
    let b3 = c(Pattern::B3);
    let f2 = c(Pattern::F2);
    if b4 >= 1 {
        if f3 >= 1 {
            return Pattern4::Block4Flex3;
        }
        if b3 >= 1 || f2 >= 1 {
            return Pattern4::Block4Plus;
        }
        return Pattern4::Block4;
    }
    if f3 >= 2 {
        return Pattern4::Flex3x2;
    }
    if f3 == 1 {
        if b3 >= 1 || f2 >= 1 {
            return Pattern4::Flex3Plus;
        }
        return Pattern4::Flex3;
    }
    if b3 >= 2 || (b3 >= 1 && f2 >= 1) {
        return Pattern4::Block3Plus;
    }
    if f2 >= 2 {
        return Pattern4::Flex2x2;
    }
    if b3 == 1 {
        return Pattern4::Block3;
    }
    if f2 == 1 {
        return Pattern4::Flex2;
    }
    Pattern4::None
}
/// Number of canonical half-line states for one colour (see [`RuleTables`]).
pub const HALF_STATES: usize = 94;
/// Size of the half-pair pattern table (power of two, so an index can be masked).
const PAT_SIZE: usize = 1 << 15;
/// Bits of one colour's combination index: a 3-bit [`combo_code`] per direction.
pub const CODE_BITS: u32 = 12;

/// The canonical state, for the colour whose stones have code `own`, of one half line
/// given as its 5 cell codes nearest first. Only the cells before the first blocker
/// (opponent stone or wall) matter: the own/empty cells up to it, and whether it is an
/// opponent stone or a wall (caro tells them apart). 0..62 end at a blocker, 62..94 do not.
fn half_state(cells: [u8; 5], own: u8) -> u32 {
    let mut bits = 0u32;
    for (k, &v) in cells.iter().enumerate() {
        if v == EMPTY || v == own {
            bits |= u32::from(v == own) << k;
        } else {
            let wall = u32::from(v == WALL);
            // 2 * (2^k - 1) states end earlier; each length has 2 blocker kinds.
            return 2 * ((1 << k) - 1) + (wall << k) + bits;
        }
    }
    62 + bits
}

/// The 3-bit code under which [`combine4`] sees a directional pattern: the patterns it
/// never tells apart share a code, so that four directions index a 4096-entry table.
///
/// Combining ignores Dead, B1, F1 and B2. For renju black (`strict`) an overline and a
/// one-line double four both make the cell forbidden (code 1), and Dead, B1, F1, B2 share
/// code 0; for everybody else an overline is ignored (code 0), a one-line double four
/// wins like a straight four (code 6), and code 1 (which combining reads as an overline,
/// i.e. ignores) marks F1 and B2: a line with room where one more stone makes a two.
/// The learned evaluation ([`crate::eval`]) tells those cells from dead ones.
#[must_use]
pub const fn combo_code(p: Pattern, strict: bool) -> u8 {
    match p {
        Pattern::Dead | Pattern::B1 => 0,
        Pattern::F1 | Pattern::B2 if strict => 0,
        Pattern::F1 | Pattern::B2 => 1,
        Pattern::Overline if strict => 1,
        Pattern::Overline => 0,
        Pattern::F2 => 2,
        Pattern::B3 => 3,
        Pattern::F3 => 4,
        Pattern::B4 => 5,
        Pattern::F4 => 6,
        Pattern::B44 if strict => 1,
        Pattern::B44 => 6,
        Pattern::F5 => 7,
    }
}

/// A pattern with combination code `code` (an inverse of [`combo_code`]).
const CODE_PATTERN: [Pattern; 8] = [
    Pattern::Dead,
    Pattern::Overline,
    Pattern::F2,
    Pattern::B3,
    Pattern::F3,
    Pattern::B4,
    Pattern::F4,
    Pattern::F5,
];

/// Size of the joint code table: every sum of two 16-bit half entries, so that a move
/// needs no mask (the largest rule, caro, uses the first 101 × 100 entries; the rest
/// stay zero and are never touched).
const JOINT_SIZE: usize = 1 << 16;
/// Entries of the joint half table: left halves with the centre cell (12 bits), then
/// right halves (10 bits).
const JOINT_HALVES: usize = 4096 + 1024;
/// Values of a colour's class field (16 bits): the four direction codes spread over
/// bits 1..13 (direction d's code is [`spread`] of it shifted by [`DIR_SHIFT`]`[d]`),
/// the other bits clear. A non-empty cell's field is zero (class `None`).
///
/// The field times 8 is the byte offset of the class's one-hot vector
/// ([`HotTables::onehot`]). The bits are spread so that the few hundred fields a
/// position uses fall into many different sets of the L1 cache: with the codes of each
/// direction in 3 adjacent bits, the fields with codes in one direction only (the
/// commonest) crowded into a few sets and evicted each other.
pub const FIELD_SIZE: usize = 1 << 16;
/// Shift of the colour's codes within the joint table's entries (and of the class field
/// within a packed pair of fields): black's field at bit 0, white's at bit 16.
pub const FIELD_SHIFT: [u32; 2] = [0, 16];
/// The bits of a class field that can be set.
pub const FIELD_BITS: u32 = 0x1FFE;
/// Per direction, the shift of its [`spread`] code within a class field.
pub const DIR_SHIFT: [u32; 4] = [0, 1, 3, 2];

/// A direction's 3-bit combination code as bits of a class field (before its
/// [`DIR_SHIFT`]): code bit 1 at bit 1, bit 2 at bit 5, bit 0 at bit 9.
#[must_use]
pub const fn spread(code: u32) -> u32 {
    ((code >> 1) & 1) << 1 | ((code >> 2) & 1) << 5 | (code & 1) << 9
}

/// The class field of four direction codes (direction d in bits 3d..3d+3).
#[must_use]
pub const fn field_of_codes(codes: u32) -> u32 {
    let mut field = 0;
    let mut d = 0;
    while d < 4 {
        field |= spread((codes >> (3 * d)) & 7) << DIR_SHIFT[d];
        d += 1;
    }
    field
}

/// The code [`spread`] into `bits` (other bits ignored).
const fn unspread(bits: u32) -> u32 {
    ((bits >> 1) & 1) << 1 | ((bits >> 5) & 1) << 2 | ((bits >> 9) & 1)
}

const _: () = assert!(field_of_codes(0xFFF) == FIELD_BITS);

/// Where white's one-hot vectors start in `HotTables::onehot`, in 8-byte units: after
/// black's, and 2 KiB further, so that a field's two vectors fall into different cache
/// sets.
const WHITE_BASE: usize = FIELD_SIZE + 256;
/// Entries of `HotTables::onehot`: both colours, and one more so that any 16-bit field
/// reads inside the table.
const ONEHOT_LEN: usize = (WHITE_BASE + FIELD_SIZE) / 2 + 1;

/// The entry of `HotTables::onehot` for colour index `c` and the even class `field`.
const fn onehot_entry(c: usize, field: usize) -> usize {
    ((c & 1) * WHITE_BASE + field) / 2
}

/// Sixteen byte lanes with a one in the lane of a class ([`HotTables::onehot`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(16))]
pub struct OneHot(pub [u8; 16]);

/// All lookup tables of one rule.
///
/// Directional patterns (for [`RuleTables::line`]): a line key is split into its left
/// and right half (5 cells each); `halves[key & 0x3FF] + halves[1024 + (key >> 10)]`
/// packs, for black in the low 16 bits and for white in the high 16 bits, an index into
/// `pat` formed from the two halves' canonical states ([`half_state`]: cells behind the
/// first blocker never matter).
///
/// Combination codes (the hot path of a move): the half lines are further merged into
/// classes that give the same codes for both colours with every other half
/// (56 to 100 per half, depending on the rule), so that
/// `joint[joint_halves[left] + joint_halves[4096 + right]]` gives both colours' codes at
/// once, each at the place of direction 0 in its class field. The left index also holds
/// the centre cell (bits 10..12): if it is not empty, the left half belongs to one more
/// class whose codes are all zero, so that a stone's codes stay zero.
///
/// Combined classes: each colour's class field (its four direction codes) indexes that
/// colour's part of `class` and of `onehot`.
pub struct RuleTables {
    /// Rule these tables are for.
    pub rule: Rule,
    halves: Box<[u32; 2048]>,
    pat: Box<[u8; PAT_SIZE]>,
    /// The tables a move reads, in one allocation (one base register).
    hot: Box<HotTables>,
}

/// The tables a move reads (see [`RuleTables`]).
pub struct HotTables {
    /// Left half and centre: its class times the number of right classes; then right
    /// half: its class.
    joint_halves: [u32; JOINT_HALVES],
    /// Per pair of half classes: black's code in bits 1..4, white's in bits 17..20.
    joint: [u32; JOINT_SIZE],
    /// Per colour and even class field: the class as a one-hot vector. One more entry at
    /// the end, so that any 16-bit field reads inside the table. Only the first eighth
    /// of each colour's half is ever written or read (fields below 0x2000): the rest
    /// stays zero and untouched.
    onehot: [OneHot; ONEHOT_LEN],
    /// Black's table, then white's: the class of each class field (stored as the enum,
    /// so that reading a class needs no range check).
    class: [Pattern4; 2 * FIELD_SIZE],
    /// Freestyle only (zero, and never touched, under the other rules): the codes of a
    /// [`NEAR_KEY_BITS`]-bit near key, as [`HotTables::codes`] gives them, in one look-up
    /// (see [`HotTables::codes_near`]).
    near: [u32; NEAR_KEYS],
}

/// Bits of a near key: the 9 cells from 4 before a cell to 4 after it along a line, 2
/// bits each, the first at bits 0..2 and the cell itself at bits 8..10. Freestyle
/// patterns ignore the cells 5 steps away, so that the key holds everything that decides
/// a freestyle cell's codes, and a move reads it off the line with one shift and mask.
pub const NEAR_KEY_BITS: u32 = 18;
/// Entries of [`HotTables::codes_near`]'s table (1 MiB; only the quarter with an empty
/// centre holds non-zero codes).
const NEAR_KEYS: usize = 1 << NEAR_KEY_BITS;

/// The line key (see [`key_shift`]) of the near key `near` (see [`NEAR_KEY_BITS`]), with
/// the cells 5 steps away empty; the centre is dropped.
#[must_use]
pub const fn key_of_near(near: u32) -> u32 {
    // Cells -4..-1 sit 2 bits higher in a line key, cells 1..4 at the same bits.
    (near & 0xFF) << 2 | (near & 0x3FC00)
}

impl HotTables {
    /// Combination codes ([`combo_code`]) of a line key around an empty cell, at the place
    /// of direction 0 of each class field: black's [`spread`] in bits 1, 5 and 9, white's
    /// in bits 17, 21 and 25. No other bit is ever set (every entry of the code tables is
    /// built so): the board's packed cell states rely on it to keep bits 0 and 16 clear
    /// for the unchecked one-hot look-ups (`HotTables::onehot_b`, `onehot_w`).
    #[inline(always)]
    #[must_use]
    pub fn codes(&self, key: u32) -> u32 {
        self.codes_of_halves(u64::from(key & 0x3FF), u64::from(key >> 10))
    }

    /// [`HotTables::codes`] of the key whose left half (low 10 bits of a key) is the low
    /// 10 bits of `left` and whose right half is the low 10 bits of `right`, for a
    /// centre cell given by bits 10..12 of `left`: zero unless it is empty.
    #[inline(always)]
    #[must_use]
    pub fn codes_of_halves(&self, left: u64, right: u64) -> u32 {
        let l = self.joint_halves[left as usize & 0xFFF];
        let r = self.joint_halves[4096 | right as usize & 0x3FF];
        let i = l.wrapping_add(r) as usize;
        debug_assert!(i < JOINT_SIZE);
        // SAFETY: `build_joint` fills `joint_halves` (and nothing else writes it) with a
        // left class times the number of right classes (at most `nl * nr`) and a right
        // class (below `nr`), having checked `(nl + 1) * nr <= JOINT_SIZE`; so every sum
        // of a left and a right entry indexes `joint`. (Entries of 32 bits, so that the
        // sum needs no zero-extension; a mask instead of the unchecked read costs one:
        // +30 instructions per make+undo pair in renju, see benches/RESULTS.md.)
        unsafe { *self.joint.get_unchecked(i) }
    }

    /// Freestyle only: [`HotTables::codes`] of the line key around the centre cell of the
    /// near key in the low [`NEAR_KEY_BITS`] bits of `near` (higher bits are ignored): zero
    /// unless the centre is empty.
    #[inline(always)]
    #[must_use]
    pub fn codes_near(&self, near: u64) -> u32 {
        self.near[near as usize & (NEAR_KEYS - 1)]
    }

    /// The combined class of colour index `c` (0 black, 1 white) from its class field
    /// (the four direction codes; higher bits are ignored).
    #[inline(always)]
    #[must_use]
    pub fn class(&self, c: usize, field: u32) -> Pattern4 {
        let i = ((c & 1) * FIELD_SIZE) | (field as usize & (FIELD_SIZE - 1));
        self.class[i]
    }

    /// Black's one-hot class vector of the class fields `fields` (black's in bits 0..16;
    /// higher bits ignored). Unchecked: [`HotTables::onehot`] is the checked form.
    ///
    /// # Safety
    /// Bit 0 of `fields` must be clear, as in every packed cell state of the board (an odd
    /// field would give a reference 8 bytes into an entry: misaligned). Masking the bit
    /// instead would cost an instruction per look-up, four per cell a move updates.
    #[inline(always)]
    #[must_use]
    pub(crate) unsafe fn onehot_b(&self, fields: u64) -> &OneHot {
        // SAFETY: a 16-bit field is below `FIELD_SIZE`, and the caller guarantees that it
        // is even.
        unsafe { self.onehot_at(u32::from(fields as u16)) }
    }

    /// White's one-hot class vector of the class fields `fields` (white's in bits
    /// 16..32; higher bits ignored). Unchecked: [`HotTables::onehot`] is the checked form.
    ///
    /// # Safety
    /// Bit 16 of `fields` must be clear (see [`HotTables::onehot_b`]).
    #[inline(always)]
    #[must_use]
    pub(crate) unsafe fn onehot_w(&self, fields: u64) -> &OneHot {
        // SAFETY: the 16-bit field is below `FIELD_SIZE`, and the caller guarantees that
        // it is even.
        unsafe { self.onehot_at(WHITE_BASE as u32 + (fields as u32 >> FIELD_SHIFT[1])) }
    }

    /// The entry at byte `8 * index` of `onehot` (black's table for the 16-bit fields,
    /// white's for [`WHITE_BASE`] plus the field).
    ///
    /// # Safety
    /// `index` must be even and below `WHITE_BASE + FIELD_SIZE`.
    #[inline(always)]
    unsafe fn onehot_at(&self, index: u32) -> &OneHot {
        let index = index as usize;
        debug_assert!(
            index < WHITE_BASE + FIELD_SIZE && index.is_multiple_of(2),
            "{index:#x}"
        );
        // SAFETY: `index` < WHITE_BASE + FIELD_SIZE, so the 16 bytes at byte `8 * index`
        // lie inside the table (it has an extra entry); `index` is even (the caller's
        // contract), so that is one of the entries, aligned.
        unsafe {
            &*self
                .onehot
                .as_ptr()
                .cast::<u8>()
                .add(8 * index)
                .cast::<OneHot>()
        }
    }

    /// The class of colour index `c` as a one-hot vector, from a class field with only
    /// [`FIELD_BITS`] set (as `HotTables::onehot_b`, for either colour; checked).
    ///
    /// This is the only one-hot look-up outside the crate: the unchecked ones are
    /// `pub(crate) unsafe`, so that no safe code can pass them an odd field.
    /// ```compile_fail,E0624
    /// use sente::{pattern::RuleTables, types::Rule};
    /// let misaligned = RuleTables::get(Rule::Freestyle).hot().onehot_b(1);
    /// ```
    #[must_use]
    pub fn onehot(&self, c: usize, field: u32) -> &OneHot {
        assert_eq!(field & !FIELD_BITS, 0, "field {field:#x}");
        &self.onehot[onehot_entry(c, field as usize)]
    }
}

impl RuleTables {
    /// Build the tables of `rule` from scratch (a few ms; [`RuleTables::get`] caches
    /// them — call this directly only to measure or test the build).
    #[must_use]
    pub fn build(rule: Rule) -> RuleTables {
        // Symmetric rules share one half-pair table between the colours (the states are
        // relative to the colour); renju keeps white's apart, after black's.
        let white_base = if rule == Rule::Renju {
            (HALF_STATES * HALF_STATES) as u32
        } else {
            0
        };
        let mut halves: Box<[u32; 2048]> = vec![0u32; 2048].try_into().expect("size");
        let (left, right) = halves.split_at_mut(1024);
        for half in 0..1024u32 {
            // Left half: offset -k sits at bits 2(5-k); right half (key >> 10): 2(k-1).
            let l: [u8; 5] = std::array::from_fn(|j| ((half >> (2 * (4 - j))) & 3) as u8);
            let r: [u8; 5] = std::array::from_fn(|j| ((half >> (2 * j)) & 3) as u8);
            let n = HALF_STATES as u32;
            left[half as usize] =
                (half_state(l, BLACK) * n) | ((half_state(l, WHITE) * n + white_base) << 16);
            right[half as usize] = half_state(r, BLACK) | half_state(r, WHITE) << 16;
        }
        let mut pat: Box<[u8; PAT_SIZE]> = vec![0u8; PAT_SIZE].try_into().expect("size");
        let black = build_pair_patterns(rule, Color::Black);
        pat[..black.len()].copy_from_slice(&black);
        if rule == Rule::Renju {
            // Renju white plays by freestyle rules: five or more wins, nothing forbidden.
            let white = build_pair_patterns(Rule::Freestyle, Color::White);
            let base = white_base as usize;
            pat[base..base + white.len()].copy_from_slice(&white);
        }
        // SAFETY: every field of `HotTables` is an array of integers, of `OneHot` (an
        // array of bytes) or of `Pattern4` (`repr(u8)`, zero is `Pattern4::None`), for
        // which all zero bits are a valid value. (Built on the heap:
        // the tables are too large for a thread's stack in debug builds.)
        let mut hot: Box<HotTables> = unsafe { Box::new_zeroed().assume_init() };
        build_joint(rule, &halves, &pat, &mut hot);
        if rule == Rule::Freestyle {
            // Only the keys with an empty centre: the others stay zero.
            for near in (0..NEAR_KEYS as u32).filter(|n| (n >> 8) & 3 == 0) {
                hot.near[near as usize] = hot.codes(key_of_near(near));
            }
        }
        for (ci, color) in [Color::Black, Color::White].into_iter().enumerate() {
            for codes in 0..1usize << CODE_BITS {
                let pats: [Pattern; 4] =
                    std::array::from_fn(|d| CODE_PATTERN[(codes >> (3 * d)) & 7]);
                let class = combine4(pats, color, rule);
                let field = field_of_codes(codes as u32) as usize;
                // Also the odd field of these codes, which the board never stores.
                for low in 0..2 {
                    hot.class[ci * FIELD_SIZE + (field | low)] = class;
                }
                hot.onehot[onehot_entry(ci, field)].0[class as usize] = 1;
            }
        }
        RuleTables {
            rule,
            halves,
            pat,
            hot,
        }
    }

    /// The tables of `rule`, built on first use (tens of milliseconds) and shared.
    #[must_use]
    pub fn get(rule: Rule) -> &'static RuleTables {
        static TABLES: [OnceLock<RuleTables>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        TABLES[rule.idx()].get_or_init(|| RuleTables::build(rule))
    }

    /// The tables a move reads.
    #[inline(always)]
    #[must_use]
    pub fn hot(&self) -> &HotTables {
        &self.hot
    }

    /// Directional patterns of a line key: black's in bits 0..4, white's in bits 16..20.
    #[inline]
    #[must_use]
    pub fn line(&self, key: u32) -> u32 {
        pair_patterns(&self.halves, &self.pat, key)
    }

    /// Combination codes ([`combo_code`]) of a line key: black's in bits 0..3, white's
    /// in bits 16..19.
    #[inline]
    #[must_use]
    pub fn codes(&self, key: u32) -> u32 {
        let j = self.hot().codes(key);
        unspread(j >> FIELD_SHIFT[0]) | unspread(j >> FIELD_SHIFT[1]) << 16
    }

    /// Directional pattern of `color` for a line key.
    #[inline]
    #[must_use]
    pub fn pattern(&self, key: u32, color: Color) -> Pattern {
        Pattern::from_u8((self.line(key) >> (16 * color.idx())) as u8)
    }

    /// Combined class of colour index `c` (0 black, 1 white) from its four direction
    /// codes (direction d in bits 3d..3d+3; higher bits are ignored).
    #[inline]
    #[must_use]
    pub fn combo(&self, c: usize, codes: u32) -> Pattern4 {
        self.hot()
            .class(c, field_of_codes(codes & ((1 << CODE_BITS) - 1)))
    }
}

/// Both colours' patterns of a line key through the half-state tables: black's in
/// bits 0..4, white's in bits 16..20.
#[inline(always)]
fn pair_patterns(halves: &[u32; 2048], pat: &[u8; PAT_SIZE], key: u32) -> u32 {
    let idx = halves[key as usize & 0x3FF] + halves[1024 | (key >> 10) as usize & 0x3FF];
    let b = pat[idx as usize & (PAT_SIZE - 1)];
    let w = pat[(idx >> 16) as usize & (PAT_SIZE - 1)];
    u32::from(b) | u32::from(w) << 16
}

/// The joint code tables of `rule` (see [`RuleTables`]) from its half-state tables.
///
/// Half lines with the same pair of half states are alike; of those, two left halves
/// (or two right halves) are merged when they give the same codes for both colours
/// with every right (left) half.
fn build_joint(rule: Rule, halves: &[u32; 2048], pat: &[u8; PAT_SIZE], hot: &mut HotTables) {
    let strict = rule == Rule::Renju;
    let codes_of = |l: u32, r: u32| {
        let p = pair_patterns(halves, pat, l | r << 10);
        spread(u32::from(combo_code(Pattern::from_u8(p as u8), strict))) << FIELD_SHIFT[0]
            | spread(u32::from(combo_code(
                Pattern::from_u8((p >> 16) as u8),
                false,
            ))) << FIELD_SHIFT[1]
    };
    // One representative half key per distinct pair of half states, per side.
    let reps = |side: usize| {
        let mut seen: Vec<u32> = Vec::new();
        let mut rep: Vec<u32> = Vec::new();
        let mut of = [0usize; 1024];
        for h in 0..1024u32 {
            let v = halves[side * 1024 + h as usize];
            of[h as usize] = match seen.iter().position(|&s| s == v) {
                Some(i) => i,
                None => {
                    seen.push(v);
                    rep.push(h);
                    seen.len() - 1
                }
            };
        }
        (rep, of)
    };
    let (lrep, lof) = reps(0);
    let (rrep, rof) = reps(1);
    // Merge the states whose rows (columns) of codes are equal.
    let classes = |rows: Vec<Vec<u32>>| {
        let mut distinct: Vec<Vec<u32>> = Vec::new();
        let class: Vec<usize> = rows
            .into_iter()
            .map(|row| match distinct.iter().position(|d| *d == row) {
                Some(i) => i,
                None => {
                    distinct.push(row);
                    distinct.len() - 1
                }
            })
            .collect();
        (class, distinct.len())
    };
    let (lclass, nl) = classes(
        lrep.iter()
            .map(|&l| rrep.iter().map(|&r| codes_of(l, r)).collect())
            .collect(),
    );
    let (rclass, nr) = classes(
        rrep.iter()
            .map(|&r| lrep.iter().map(|&l| codes_of(l, r)).collect())
            .collect(),
    );
    let HotTables {
        joint_halves,
        joint,
        ..
    } = hot;
    // With a stone (or wall) in the centre, every left half is of class `nl`, whose
    // entries stay zero.
    assert!(
        (nl + 1) * nr <= JOINT_SIZE,
        "joint table too small for {rule:?}"
    );
    for h in 0..4096 {
        let lc = if h >> 10 == 0 { lclass[lof[h]] } else { nl };
        joint_halves[h] = u32::try_from(lc * nr).expect("classes fit");
    }
    for h in 0..1024 {
        joint_halves[4096 + h] = u32::try_from(rclass[rof[h]]).expect("classes fit");
    }
    for &l in &lrep {
        for &r in &rrep {
            let idx = (joint_halves[l as usize] + joint_halves[4096 + r as usize]) as usize;
            joint[idx] = codes_of(l, r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parse a compact line like `"..XX_XX..."` (11 chars, centre at index 5):
    /// `X` black, `O` white, `#` wall, anything else empty.
    fn line(s: &str) -> [u8; 11] {
        let b = s.as_bytes();
        assert_eq!(b.len(), 11, "line must have 11 cells: {s}");
        let mut l = [EMPTY; 11];
        for i in 0..11 {
            l[i] = match b[i] {
                b'X' => BLACK,
                b'O' => WHITE,
                b'#' => WALL,
                _ => EMPTY,
            };
        }
        l
    }

    fn black(s: &str, rule: Rule) -> Pattern {
        classify_line(&line(s), Color::Black, rule)
    }

    #[test]
    fn five_patterns_per_rule() {
        // Centre (index 5) completes XXXXX.
        assert_eq!(black("...XX_XX...", Rule::Freestyle), Pattern::F5);
        assert_eq!(black("...XX_XX...", Rule::Standard), Pattern::F5);
        // Overline: six in a row.
        assert_eq!(black("..XXX_XX...", Rule::Freestyle), Pattern::F5);
        assert_eq!(black("..XXX_XX...", Rule::Standard), Pattern::Overline);
        assert_eq!(black("..XXX_XX...", Rule::Renju), Pattern::Overline);
        assert_eq!(black("..XXX_XX...", Rule::Caro9), Pattern::Overline);
        assert_eq!(black("..XXX_XX...", Rule::Caro8), Pattern::F5);
        let white = classify_line(&line("..OOO_OO..."), Color::White, Rule::Renju);
        assert_eq!(white, Pattern::F5);
    }

    #[test]
    fn caro_five_blocked_at_both_ends_is_no_win() {
        assert_eq!(black("..OXX_XXO..", Rule::Caro9), Pattern::Dead);
        assert_eq!(black("..OXX_XXO..", Rule::Caro8), Pattern::Dead);
        assert_eq!(black("..OXX_XXO..", Rule::Freestyle), Pattern::F5);
        // One open end is enough; the wall (board edge) does not block.
        assert_eq!(black("..OXX_XX...", Rule::Caro9), Pattern::F5);
        assert_eq!(black("..#XX_XXO..", Rule::Caro9), Pattern::F5);
    }

    #[test]
    fn fours_threes_and_one_line_double_four() {
        assert_eq!(black("....X_XX...", Rule::Freestyle), Pattern::F4);
        assert_eq!(black("...OX_XX...", Rule::Freestyle), Pattern::B4);
        assert_eq!(black("...X._XX...", Rule::Freestyle), Pattern::B4);
        // XXX.X.XXX with the stone in the middle: two fours on one line.
        assert_eq!(black(".XXX._.XXX.", Rule::Renju), Pattern::B44);
        assert_eq!(black(".XXX._.XXX.", Rule::Freestyle), Pattern::B44);
        // XX.XX.XX filling a gap: two fours on one line.
        assert_eq!(black(".XX.X_.XX..", Rule::Renju), Pattern::B44);
        // XX.XXX: the gap makes six, a five only where overlines count.
        assert_eq!(black("..XX._XX...", Rule::Freestyle), Pattern::B4);
        assert_eq!(black("..XX._XX...", Rule::Renju), Pattern::B3);
        assert_eq!(black("....._XX...", Rule::Freestyle), Pattern::F3);
        assert_eq!(black("....O_XX...", Rule::Freestyle), Pattern::B3);
        assert_eq!(black("....._.X...", Rule::Freestyle), Pattern::F2);
    }

    #[test]
    fn three_blocked_by_the_edge_is_not_open() {
        assert_eq!(black("....._XX#..", Rule::Freestyle), Pattern::B3);
        assert_eq!(black("....#_XX...", Rule::Renju), Pattern::B3);
        // One empty cell before the wall still allows a straight four on the other side.
        assert_eq!(black("...#._XX...", Rule::Renju), Pattern::F3);
    }

    #[test]
    fn renju_black_three_that_only_extends_to_overline_is_not_open() {
        // X..XXX..X : each straight-four try makes a six on one side.
        assert_eq!(black("..X.._XX..X", Rule::Renju), Pattern::B3);
        assert_eq!(black("..X.._XX..X", Rule::Freestyle), Pattern::F3);
    }

    #[test]
    fn tables_match_reference_classification() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for rule in Rule::ALL {
            let t = RuleTables::get(rule);
            for _ in 0..20_000 {
                let mut l = [EMPTY; 11];
                for (i, c) in l.iter_mut().enumerate() {
                    if i != 5 {
                        *c = match rng.gen_range(0..10) {
                            0..=3 => EMPTY,
                            4..=6 => BLACK,
                            7..=8 => WHITE,
                            _ => WALL,
                        };
                    }
                }
                let key = key_from_line(&l);
                for color in [Color::Black, Color::White] {
                    assert_eq!(
                        t.pattern(key, color),
                        classify_line(&l, color, rule),
                        "{rule:?} {color:?} {l:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn half_line_lookup_equals_the_full_key_table_for_every_key() {
        for rule in Rule::ALL {
            let t = RuleTables::get(rule);
            let black = build_color_table(rule, Color::Black);
            let white_rule = if rule == Rule::Renju {
                Rule::Freestyle
            } else {
                rule
            };
            let white = build_color_table(white_rule, Color::White);
            for key in 0..KEY_COUNT as u32 {
                let want = u32::from(black[key as usize]) | u32::from(white[key as usize]) << 16;
                assert_eq!(t.line(key), want, "{rule:?} key {key:#07x}");
                let strict = rule == Rule::Renju;
                let codes = u32::from(combo_code(Pattern::from_u8(black[key as usize]), strict))
                    | u32::from(combo_code(Pattern::from_u8(white[key as usize]), false)) << 16;
                assert_eq!(t.codes(key), codes, "{rule:?} key {key:#07x}");
            }
        }
    }

    #[test]
    fn freestyle_patterns_ignore_the_cells_five_steps_away() {
        // Under freestyle the board leaves the codes of those cells alone (`Board::far`).
        let t = RuleTables::get(Rule::Freestyle);
        let far = 3 << key_shift(-HALF) | 3 << key_shift(HALF);
        for key in 0..KEY_COUNT as u32 {
            for v in [0, far & 0x5_5555, far & 0xA_AAAA, far] {
                assert_eq!(t.line(key), t.line((key & !far) | v), "key {key:#07x}");
            }
        }
        // Under the other rules they matter (exact five, caro's blocked ends).
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro8, Rule::Caro9] {
            let t = RuleTables::get(rule);
            assert!(
                (0..KEY_COUNT as u32).any(|key| t.line(key) != t.line(key & !far)),
                "{rule:?}"
            );
        }
    }

    #[test]
    fn combination_table_of_codes_equals_combine4_for_every_pattern_quadruple() {
        for rule in Rule::ALL {
            let t = RuleTables::get(rule);
            for (ci, color) in [Color::Black, Color::White].into_iter().enumerate() {
                let strict = rule == Rule::Renju && color == Color::Black;
                for n in 0..12u32.pow(4) {
                    let pats: [Pattern; 4] = std::array::from_fn(|d| {
                        Pattern::ALL[(n / 12u32.pow(d as u32)) as usize % 12]
                    });
                    let codes = (0..4).fold(0, |acc, d| {
                        acc | u32::from(combo_code(pats[d], strict)) << (3 * d)
                    });
                    assert_eq!(t.combo(ci, codes), combine4(pats, color, rule), "{pats:?}");
                }
            }
        }
    }

    #[test]
    fn codes_around_a_non_empty_centre_are_zero_and_give_class_none() {
        for rule in Rule::ALL {
            let hot = RuleTables::get(rule).hot();
            for c in 0..2 {
                // Some codes do give a class (a five in one direction)...
                assert_ne!(hot.class(c, 7 << 1), Pattern4::None, "{rule:?}");
                // ...but the zero field of a stone gives none.
                assert_eq!(hot.class(c, 0), Pattern4::None, "{rule:?}");
                assert_eq!(hot.onehot(c, 0).0, one_hot(0), "{rule:?}");
            }
            for centre in 1..4u64 {
                for left in 0..1024 {
                    for right in 0..1024 {
                        let codes = hot.codes_of_halves(left | centre << 10, right);
                        assert_eq!(codes, 0, "{rule:?} {left:#x} {centre} {right:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn freestyle_near_key_codes_equal_the_line_key_codes_for_every_key() {
        let t = RuleTables::get(Rule::Freestyle);
        let hot = t.hot();
        for near in 0..NEAR_KEYS as u32 {
            let centre = (near >> 8) & 3;
            // The cells 5 steps away, whatever they hold, do not matter.
            let far = (near.count_ones() % 4) | ((near % 4) << 18);
            let want = if centre == 0 {
                hot.codes(key_of_near(near) | far)
            } else {
                0
            };
            assert_eq!(
                hot.codes_near(u64::from(near)),
                want,
                "near key {near:#07x}"
            );
            // Higher bits are ignored.
            assert_eq!(
                hot.codes_near(u64::from(near) | 0xFF << NEAR_KEY_BITS),
                want
            );
        }
        // The key of a near key puts every cell where `key_shift` says.
        for k in (-4..=4).filter(|&k| k != 0) {
            let near = 3 << (2 * (k + 4));
            assert_eq!(key_of_near(near as u32), 3 << key_shift(k), "cell {k}");
        }
    }

    /// Lane `class` at one, the others at zero.
    fn one_hot(class: usize) -> [u8; 16] {
        std::array::from_fn(|i| u8::from(i == class))
    }

    /// The code tables set no bit but the codes' (bits 1, 5, 9 and 17, 21, 25): the
    /// board's packed states, built from them, rely on bits 0 and 16 staying clear for the
    /// unchecked one-hot look-ups (an odd field would read a misaligned entry).
    #[test]
    fn code_tables_set_only_the_code_bits() {
        let code_bits = spread(7) << FIELD_SHIFT[0] | spread(7) << FIELD_SHIFT[1];
        for rule in Rule::ALL {
            let hot = RuleTables::get(rule).hot();
            let stray = (hot.joint.iter().chain(hot.near.iter()))
                .map(|&codes| codes & !code_bits)
                .find(|&bits| bits != 0);
            assert_eq!(stray, None, "{rule:?}");
        }
    }

    #[test]
    fn one_hot_class_vectors_agree_with_the_class_table() {
        for rule in Rule::ALL {
            let hot = RuleTables::get(rule).hot();
            for c in 0..2 {
                // Every field the board can store.
                for field in (0..FIELD_SIZE as u32).filter(|f| f & !FIELD_BITS == 0) {
                    let want = one_hot(hot.class(c, field) as usize);
                    assert_eq!(hot.onehot(c, field).0, want, "{rule:?} {field:#x}");
                    // The hot-path readers of packed fields give the same vectors.
                    let packed = u64::from(field) << FIELD_SHIFT[c] | 0xAB << 32;
                    // SAFETY: `field` has only `FIELD_BITS` set: bit 0 is clear.
                    let fast = unsafe {
                        if c == 0 {
                            hot.onehot_b(packed)
                        } else {
                            hot.onehot_w(packed)
                        }
                    };
                    assert_eq!(fast.0, want, "{rule:?} {field:#x}");
                    // An aligned entry (its reference was created from a cast pointer).
                    assert!(std::ptr::from_ref(fast).is_aligned());
                }
            }
        }
    }

    #[test]
    fn joint_table_of_the_main_rules_fits_18_kib() {
        // The point of the joint table: one lookup for both colours, small enough for
        // the L1 cache (caro needs more half classes; standard needs 4489 entries since
        // code 1 tells F1 and B2 from dead lines). Not counted: the row of a
        // non-empty centre (all zero, one cache line or two).
        for rule in Rule::ALL {
            let hot = RuleTables::get(rule).hot();
            let right = hot.joint_halves[4096..].iter().max().copied().unwrap_or(0);
            let left = hot.joint_halves[..1024].iter().max().copied().unwrap_or(0);
            let used = (left + right) as usize + 1;
            assert!(used <= JOINT_SIZE, "{rule:?}: {used} entries");
            if matches!(rule, Rule::Freestyle | Rule::Standard | Rule::Renju) {
                assert!(used * 4 <= 18 << 10, "{rule:?}: {used} entries");
            }
        }
    }

    #[test]
    fn double_four_and_double_three_are_forbid_only_for_renju_black() {
        let pats = [Pattern::B4, Pattern::B4, Pattern::Dead, Pattern::Dead];
        assert_eq!(combine4(pats, Color::Black, Rule::Renju), Pattern4::Forbid);
        assert_eq!(combine4(pats, Color::White, Rule::Renju), Pattern4::Flex4);
        assert_eq!(
            combine4(pats, Color::Black, Rule::Freestyle),
            Pattern4::Flex4
        );
        let threes = [Pattern::F3, Pattern::F3, Pattern::Dead, Pattern::Dead];
        assert_eq!(
            combine4(threes, Color::Black, Rule::Renju),
            Pattern4::Forbid
        );
        assert_eq!(
            combine4(threes, Color::Black, Rule::Standard),
            Pattern4::Flex3x2
        );
        let five_and_fours = [Pattern::F5, Pattern::B4, Pattern::B4, Pattern::Overline];
        assert_eq!(
            combine4(five_and_fours, Color::Black, Rule::Renju),
            Pattern4::Five
        );
        let four_three = [Pattern::B4, Pattern::F3, Pattern::Dead, Pattern::Dead];
        assert_eq!(
            combine4(four_three, Color::Black, Rule::Renju),
            Pattern4::Block4Flex3
        );
    }
}
