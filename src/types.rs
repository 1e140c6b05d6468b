//! The engine's vocabulary: colours, board positions, rule sets and search values.
//!
//! This module imports nothing else from the crate, so every other module can use it.

use std::fmt;

/// Largest board side supported (width and height each).
pub const MAX_SIZE: usize = 32;
/// Smallest board side supported.
pub const MIN_SIZE: usize = 5;
/// Wall cells around the playing area, so that a scan of ±`PAD` cells along a line
/// never needs a bounds check.
pub const PAD: usize = 5;
/// Distance between vertically adjacent cells in the padded layout.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Length of every per-cell array: the padded layout (`STRIDE * STRIDE` = 1764 cells)
/// rounded up to a power of two, so that [`Pos::idx`] can mask instead of bounds-check.
pub const NUM_CELLS: usize = 2048;
const _: () = assert!(STRIDE * STRIDE <= NUM_CELLS && NUM_CELLS.is_power_of_two());

/// A player colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for black, 1 for white: for indexing per-colour arrays.
    #[inline]
    #[must_use]
    pub const fn idx(self) -> usize {
        self as usize
    }
}

/// The content of one cell of the padded board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    /// Outside the board, or a blocked square of a continuous game: nobody may
    /// play there and it breaks lines.
    Wall = 3,
}

impl Cell {
    /// The cell holding a stone of colour `c`.
    #[inline]
    #[must_use]
    pub const fn stone(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// A board square, stored as an index into the padded cell array.
///
/// `Pos::new(x, y)` takes 0-based protocol coordinates (x = column). The index does not
/// depend on the board size, so a `Pos` means the same square on every board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// "No move" (index 0 is a wall cell, never a playable square).
    pub const NONE: Pos = Pos(0);

    /// The square at column `x`, row `y` (both 0-based). Callers must keep
    /// `x, y < MAX_SIZE`; use [`Pos::try_new`] for untrusted input.
    #[inline]
    #[must_use]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// The square at (x, y) if both lie in `0..MAX_SIZE`.
    #[must_use]
    pub fn try_new(x: i64, y: i64) -> Option<Pos> {
        if (0..MAX_SIZE as i64).contains(&x) && (0..MAX_SIZE as i64).contains(&y) {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    /// Column (0-based). Meaningless for wall cells.
    #[inline]
    #[must_use]
    pub const fn x(self) -> usize {
        (self.0 as usize % STRIDE).wrapping_sub(PAD)
    }

    /// Row (0-based). Meaningless for wall cells.
    #[inline]
    #[must_use]
    pub const fn y(self) -> usize {
        (self.0 as usize / STRIDE).wrapping_sub(PAD)
    }

    /// Index into per-cell arrays of length [`NUM_CELLS`] (always in range).
    #[inline]
    #[must_use]
    pub const fn idx(self) -> usize {
        self.0 as usize & (NUM_CELLS - 1)
    }

    /// The square `k` steps from here along direction `d` (may be a wall cell;
    /// stays inside the padded array for |k| ≤ `PAD`).
    #[inline]
    #[must_use]
    pub const fn step(self, d: Dir, k: i32) -> Pos {
        Pos((self.0 as i32 + d.offset() * k) as u16)
    }

    /// True for a real move (not [`Pos::NONE`]).
    #[inline]
    #[must_use]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// Chebyshev distance between two squares.
    #[must_use]
    pub fn distance(self, other: Pos) -> usize {
        let dx = self.x().abs_diff(other.x());
        let dy = self.y().abs_diff(other.y());
        dx.max(dy)
    }
}

impl fmt::Display for Pos {
    /// Protocol form `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_some() {
            write!(f, "({},{})", self.x(), self.y())
        } else {
            write!(f, "(none)")
        }
    }
}

/// One of the four line directions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    /// Along a row (x increases).
    Horizontal = 0,
    /// Along a column (y increases).
    Vertical = 1,
    /// x and y increase together.
    Diagonal = 2,
    /// x decreases while y increases.
    AntiDiagonal = 3,
}

impl Dir {
    /// All four directions, in index order.
    pub const ALL: [Dir; 4] = [
        Dir::Horizontal,
        Dir::Vertical,
        Dir::Diagonal,
        Dir::AntiDiagonal,
    ];

    /// Index offset of one step in this direction.
    #[inline]
    #[must_use]
    pub const fn offset(self) -> i32 {
        match self {
            Dir::Horizontal => 1,
            Dir::Vertical => STRIDE as i32,
            Dir::Diagonal => STRIDE as i32 + 1,
            Dir::AntiDiagonal => STRIDE as i32 - 1,
        }
    }
}

/// The rule set a game is played under.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins, for both colours; an overline is no win.
    Standard,
    /// RIF renju: black wins with exactly five and may not make an overline,
    /// double-four or double-three; white wins with five or more.
    Renju,
    /// Caro, Piskvork/Gomocup rule 8: a five not blocked at both ends by opponent
    /// stones wins, and an overline wins too. The board edge does not block.
    Caro8,
    /// Caro, rule 9: only an exact five not blocked at both ends wins.
    Caro9,
}

impl Rule {
    /// All rules, for tests and table building.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro8,
        Rule::Caro9,
    ];

    /// Map the Piskvork `INFO rule` bitmask (1 exact five, 2 continuous, 4 renju,
    /// 8 caro) to a rule set plus the continuous-game flag.
    ///
    /// Choices: caro wins over the other bits (8 → [`Rule::Caro8`], 9 → [`Rule::Caro9`]);
    /// then renju; the value 2 alone means renju, as Yixin-Board sends it (playing
    /// renju-safe moves in a continuous freestyle game costs little, while playing
    /// freestyle under renju loses by foul); then exact five → standard; else freestyle.
    /// Negative or unknown bits are ignored.
    #[must_use]
    pub fn from_piskvork(value: i64) -> (Rule, bool) {
        let v = value.max(0);
        if v == 2 {
            return (Rule::Renju, false);
        }
        let continuous = v & 2 != 0;
        let rule = if v & 8 != 0 {
            if v & 1 != 0 {
                Rule::Caro9
            } else {
                Rule::Caro8
            }
        } else if v & 4 != 0 {
            Rule::Renju
        } else if v & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        (rule, continuous)
    }

    /// The Piskvork rule value for this rule (continuous bit not set).
    #[must_use]
    pub const fn to_piskvork(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro8 => 8,
            Rule::Caro9 => 9,
        }
    }

    /// Parse a rule name (`freestyle`, `standard`, `renju`, `caro8`, `caro9`, `caro`)
    /// or a Piskvork number.
    #[must_use]
    pub fn parse(s: &str) -> Option<Rule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "gomoku" => Some(Rule::Freestyle),
            "standard" | "exact" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            "caro" | "caro8" => Some(Rule::Caro8),
            "caro9" => Some(Rule::Caro9),
            other => other.parse::<i64>().ok().map(|v| Rule::from_piskvork(v).0),
        }
    }

    /// Short lower-case name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro8 => "caro8",
            Rule::Caro9 => "caro9",
        }
    }

    /// Index 0..5 for per-rule tables.
    #[must_use]
    pub const fn idx(self) -> usize {
        self as usize
    }
}

/// A search score from the side to move's point of view.
pub type Value = i32;

/// Search depth below the root is counted in fractions of a ply: `ONE_PLY` units make a
/// ply, so that an extension can be a fraction of a ply. The transposition table stores
/// these units (clamped at 255, 63.75 plies: a deeper entry only cuts less).
pub const ONE_PLY: i32 = 4;

/// Score of a won position at the root (a five now).
pub const VALUE_MATE: Value = 30_000;
/// Any |value| at or above this is a proven win or loss.
pub const VALUE_MATE_IN_MAX: Value = VALUE_MATE - 1_000;
/// "No value" marker, outside every real score.
pub const VALUE_NONE: Value = 32_000;
/// Larger than any real score.
pub const VALUE_INFINITE: Value = 31_000;

/// Value of winning `ply` plies from the root.
#[inline]
#[must_use]
pub const fn mate_in(ply: i32) -> Value {
    VALUE_MATE - ply
}

/// Value of losing `ply` plies from the root.
#[inline]
#[must_use]
pub const fn mated_in(ply: i32) -> Value {
    -VALUE_MATE + ply
}

/// True when `v` is a proven win or loss.
#[inline]
#[must_use]
pub const fn is_mate(v: Value) -> bool {
    v >= VALUE_MATE_IN_MAX || v <= -VALUE_MATE_IN_MAX
}

/// One progress report of a search, handed to the caller's callback once per completed
/// iteration (the search never prints; `protocol` formats this as a `MESSAGE` line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth of the completed iteration.
    pub depth: i32,
    /// Deepest ply reached (selective depth).
    pub seldepth: i32,
    /// Score for the side to move (see [`VALUE_MATE`] for proven results).
    pub value: Value,
    /// Nodes searched so far in this `go`.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Principal variation, best move first.
    pub pv: Vec<Pos>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_round_trips_coordinates() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert!(p.is_some());
            }
        }
        assert_eq!(Pos::try_new(-1, 0), None);
        assert_eq!(Pos::try_new(0, 32), None);
        assert_eq!(Pos::new(3, 4).to_string(), "3,4");
    }

    #[test]
    fn walls_of_pad_width_stay_inside_the_array() {
        for &d in &Dir::ALL {
            for (x, y) in [(0, 0), (31, 31), (0, 31), (31, 0)] {
                let p = Pos::new(x, y);
                for k in -(PAD as i32)..=(PAD as i32) {
                    assert!(p.step(d, k).idx() < NUM_CELLS);
                }
            }
        }
    }

    #[test]
    fn piskvork_rule_bits_map_to_rules() {
        assert_eq!(Rule::from_piskvork(0), (Rule::Freestyle, false));
        assert_eq!(Rule::from_piskvork(1), (Rule::Standard, false));
        assert_eq!(Rule::from_piskvork(2), (Rule::Renju, false));
        assert_eq!(Rule::from_piskvork(3), (Rule::Standard, true));
        assert_eq!(Rule::from_piskvork(4), (Rule::Renju, false));
        assert_eq!(Rule::from_piskvork(5), (Rule::Renju, false));
        assert_eq!(Rule::from_piskvork(8), (Rule::Caro8, false));
        assert_eq!(Rule::from_piskvork(9), (Rule::Caro9, false));
        assert_eq!(Rule::from_piskvork(-7), (Rule::Freestyle, false));
    }

    #[test]
    fn mate_values_are_ordered_by_distance() {
        assert!(mate_in(1) > mate_in(3));
        assert!(mated_in(1) < mated_in(3));
        assert!(is_mate(mate_in(50)) && is_mate(mated_in(50)) && !is_mate(500));
    }
}
