//! The features of the learned evaluation.
//!
//! * **Cell combinations.** Every empty cell has, per colour, four direction codes
//!   ([`crate::pattern::combo_code`]: nothing, F1/B2 (or renju black's forbidden line),
//!   F2, B3, F3, B4, F4/B44, F5). Their multiset (direction order ignored) is one of
//!   [`COMBOS`] combinations; each has a learned value per colour and rule.
//! * **Threats.** Which threats each side holds, from the class counts, as an
//!   11-bit mask seen from the side to move ([`threat_mask`]); each mask has a learned
//!   value per rule (and per colour to move in renju).

use crate::board::{Board, CELL_VALUE_FIELDS};
use crate::pattern::{field_of_codes, Pattern4};
use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// Number of distinct multisets of four direction codes (8 codes): C(11, 4).
pub const COMBOS: usize = 330;
/// Number of threat masks.
pub const THREATS: usize = 1 << 11;

/// The combinations in order: the four codes sorted, highest first; index 0 is the
/// empty combination.
#[must_use]
pub fn combos() -> &'static [[u8; 4]; COMBOS] {
    static T: OnceLock<[[u8; 4]; COMBOS]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [[0u8; 4]; COMBOS];
        let mut n = 0;
        for a in 0..8u8 {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        t[n] = [a, b, c, d];
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, COMBOS);
        t
    })
}

/// The combination of each [`CellValues`](crate::board::CellValues) index (a cell's
/// class field shifted right by one, [`Board::value_index`]); indices no field has map
/// to 0.
#[must_use]
pub fn combo_of_index() -> &'static [u16; CELL_VALUE_FIELDS] {
    static T: OnceLock<[u16; CELL_VALUE_FIELDS]> = OnceLock::new();
    T.get_or_init(|| {
        let list = combos();
        let mut t = [0u16; CELL_VALUE_FIELDS];
        for codes in 0..1u32 << 12 {
            let mut c: [u8; 4] = std::array::from_fn(|d| ((codes >> (3 * d)) & 7) as u8);
            c.sort_unstable_by(|a, b| b.cmp(a));
            let id = list
                .iter()
                .position(|x| *x == c)
                .expect("every multiset is listed");
            t[(field_of_codes(codes) >> 1) as usize] = id as u16;
        }
        t
    })
}

/// The threat mask of the position for the side to move `me`, from the class counts:
/// bit 0 the opponent has a five point; bits 1 / 2 a straight-four point of me / the
/// opponent; then for me (bits 3..7) and the opponent (bits 7..11): a four-three or
/// double-three point, another four point, an open-three point with more, a plain
/// open-three point.
#[inline]
#[must_use]
pub fn threat_mask(board: &Board, me: Color) -> usize {
    let m = board.counts(me);
    let o = board.counts(me.opp());
    let any = |c: &[u16; Pattern4::COUNT], a: Pattern4, b: Pattern4| {
        usize::from(c[a as usize] + c[b as usize] > 0)
    };
    let side = |c: &[u16; Pattern4::COUNT]| {
        any(c, Pattern4::Block4Flex3, Pattern4::Flex3x2)
            | any(c, Pattern4::Block4, Pattern4::Block4Plus) << 1
            | any(c, Pattern4::Flex3Plus, Pattern4::Flex3Plus) << 2
            | any(c, Pattern4::Flex3, Pattern4::Flex3) << 3
    };
    let five = any(o, Pattern4::Five, Pattern4::Five);
    let flex4 = |c| any(c, Pattern4::Flex4, Pattern4::Flex4);
    five | flex4(m) << 1 | flex4(o) << 2 | side(m) << 3 | side(o) << 7
}

/// The side of the board the networks' inputs are measured on: most cells of an empty
/// board hold a lone-stone combination ([`size_correction`]), so their counts grow with
/// the board, and a network sees them as on a board of this side.
pub const REFERENCE_SIZE: usize = 15;

/// What to add to each combination count of a `width` × `height` board of `rule`
/// (`out[c][k]`) so that it reads as on a [`REFERENCE_SIZE`] board: the reference
/// board's empty counts less this board's. An empty cell whose four lines have room
/// but no stone is a lone-stone combination (code 1 in every open direction); a
/// 20 × 20 board has about 175 more of them than a 15 × 15 one whatever the stones do,
/// which a network trained on 15 × 15 positions would read as a very different
/// position. All zeros on a reference board.
#[must_use]
pub fn size_correction(width: usize, height: usize, rule: Rule) -> [[i32; COMBOS]; 2] {
    let mut out = [[0i32; COMBOS]; 2];
    if (width, height) == (REFERENCE_SIZE, REFERENCE_SIZE) {
        return out;
    }
    let (Ok(own), Ok(reference)) = (
        Board::new(width, height, rule),
        Board::new(REFERENCE_SIZE, REFERENCE_SIZE, rule),
    ) else {
        return out;
    };
    let (mut a, mut b) = ([[0u16; COMBOS]; 2], [[0u16; COMBOS]; 2]);
    combo_counts(&own, &mut a);
    combo_counts(&reference, &mut b);
    for c in 0..2 {
        for k in 0..COMBOS {
            out[c][k] = i32::from(b[c][k]) - i32::from(a[c][k]);
        }
    }
    out
}

/// Per colour, how many empty cells have each combination (`out[c][k]`), for training.
pub fn combo_counts(board: &Board, out: &mut [[u16; COMBOS]; 2]) {
    let t = combo_of_index();
    *out = [[0; COMBOS]; 2];
    for p in board.all_squares() {
        if board.is_empty(p) {
            for c in [Color::Black, Color::White] {
                out[c.idx()][usize::from(t[board.value_index(p, c)])] += 1;
            }
        }
    }
}

/// Test fixture (renju): black's two open twos cross at 7,7 after the 7th move, a
/// double three forbidden to black (the board's only double-three cell); white's stones
/// stand in the corners, and the last two moves (white, black) are far from it.
#[cfg(test)]
pub(crate) const DOUBLE_THREE_MOVES: [(usize, usize); 9] = [
    (8, 7),
    (0, 0),
    (9, 7),
    (0, 2),
    (7, 8),
    (14, 12),
    (7, 9),
    (2, 14),
    (3, 14),
];

/// The index of the double-three combination (two open threes) in [`combos`].
#[cfg(test)]
pub(crate) fn double_three_combo() -> usize {
    combos()
        .iter()
        .position(|c| *c == [4, 4, 0, 0])
        .expect("listed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Pos, Rule};

    #[test]
    fn every_field_maps_to_the_combination_of_its_sorted_codes() {
        let t = combo_of_index();
        let list = combos();
        assert_eq!(t[0], 0);
        assert_eq!(list[0], [0; 4]);
        // Direction order does not matter: a three and a two in any two directions.
        let a = field_of_codes(4 | 2 << 3) >> 1;
        let b = field_of_codes(2 << 6 | 4 << 9) >> 1;
        assert_eq!(t[a as usize], t[b as usize]);
        assert_eq!(list[usize::from(t[a as usize])], [4, 2, 0, 0]);
        // Every combination is reached.
        let mut seen = [false; COMBOS];
        for codes in 0..1u32 << 12 {
            seen[usize::from(t[(field_of_codes(codes) >> 1) as usize])] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn threat_mask_sees_an_open_three_from_both_sides() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(5, 7), (0, 0), (6, 7), (0, 14), (7, 7)] {
            b.make(Pos::new(x, y));
        }
        // Black has an open three (straight-four points); white to move.
        let white = threat_mask(&b, Color::White);
        let black = threat_mask(&b, Color::Black);
        assert_ne!(white & 1 << 2, 0, "opponent's straight-four point");
        assert_ne!(black & 1 << 1, 0, "own straight-four point");
        assert_eq!(white & 1 << 1, 0);
    }
}
