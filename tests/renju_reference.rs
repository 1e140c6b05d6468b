//! An independent, slow renju referee written straight from the RIF definitions on a
//! plain cell grid (no pattern tables), compared with `Board::is_forbidden` and the
//! board's five detection on many dense random positions.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sente::board::Board;
use sente::pattern::Pattern4;
use sente::types::{Cell, Color, Pos, Rule};

const N: i32 = 15;
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// 0 empty, 1 black, 2 white.
struct Grid([[u8; N as usize]; N as usize]);

impl Grid {
    fn at(&self, x: i32, y: i32) -> Option<u8> {
        if (0..N).contains(&x) && (0..N).contains(&y) {
            Some(self.0[y as usize][x as usize])
        } else {
            None
        }
    }
    fn set(&mut self, x: i32, y: i32, v: u8) {
        self.0[y as usize][x as usize] = v;
    }
    /// Length of the black run through (x, y) along d (the cell itself counts as black).
    fn run(&self, x: i32, y: i32, d: (i32, i32)) -> (i32, i32) {
        let mut lo = 0;
        while self.at(x - (lo + 1) * d.0, y - (lo + 1) * d.1) == Some(1) {
            lo += 1;
        }
        let mut hi = 0;
        while self.at(x + (hi + 1) * d.0, y + (hi + 1) * d.1) == Some(1) {
            hi += 1;
        }
        (lo, hi)
    }
    /// With black on (x, y): an exact five through it along d?
    fn five_along(&self, x: i32, y: i32, d: (i32, i32)) -> bool {
        let (lo, hi) = self.run(x, y, d);
        lo + hi + 1 == 5
    }
    fn five_any(&self, x: i32, y: i32) -> bool {
        DIRS.iter().any(|&d| self.five_along(x, y, d))
    }
    /// With black on (x, y): the empty points along d that make an exact five containing (x, y).
    fn five_points(&mut self, x: i32, y: i32, d: (i32, i32)) -> Vec<i32> {
        let mut pts = Vec::new();
        for k in -4..=4 {
            if k == 0 || self.at(x + k * d.0, y + k * d.1) != Some(0) {
                continue;
            }
            self.set(x + k * d.0, y + k * d.1, 1);
            if self.five_along(x, y, d) {
                pts.push(k);
            }
            self.set(x + k * d.0, y + k * d.1, 0);
        }
        pts
    }
    /// Number of fours through (x, y) along d (black on it): a straight four counts once,
    /// two separate five points on one line twice.
    fn fours(&mut self, x: i32, y: i32, d: (i32, i32)) -> u32 {
        let pts = self.five_points(x, y, d);
        match pts.len() {
            0 => 0,
            1 => 1,
            _ => {
                let straight = pts.iter().any(|a| pts.contains(&(a + 5)));
                if straight {
                    1
                } else {
                    2
                }
            }
        }
    }
    /// With black on (x, y): is there a straight four through it along d?
    fn straight_four(&mut self, x: i32, y: i32, d: (i32, i32)) -> bool {
        let (lo, hi) = self.run(x, y, d);
        if lo + hi + 1 != 4 {
            return false;
        }
        let pts = self.five_points(x, y, d);
        pts.contains(&(-lo - 1)) && pts.contains(&(hi + 1))
    }
    /// With black on (x, y): is the line along d a real three (some point turns it into a
    /// straight four through (x, y), is not itself a five and is not forbidden)?
    fn real_three(&mut self, x: i32, y: i32, d: (i32, i32), depth: u32) -> bool {
        for k in -4..=4 {
            let (ex, ey) = (x + k * d.0, y + k * d.1);
            if k == 0 || self.at(ex, ey) != Some(0) {
                continue;
            }
            self.set(ex, ey, 1);
            // The straight four must be one run holding both (x, y) and the new stone.
            let (lo, hi) = self.run(x, y, d);
            let makes_straight = (-lo..=hi).contains(&k) && self.straight_four(x, y, d);
            let five = self.five_any(ex, ey);
            self.set(ex, ey, 0);
            if makes_straight && !five && !self.forbidden(ex, ey, depth + 1) {
                return true;
            }
        }
        false
    }
    /// RIF: is the empty point (x, y) forbidden to black?
    fn forbidden(&mut self, x: i32, y: i32, depth: u32) -> bool {
        self.set(x, y, 1);
        let result = (|| {
            if self.five_any(x, y) {
                return false;
            }
            let mut fours = 0;
            for d in DIRS {
                fours += self.fours(x, y, d);
                let (lo, hi) = self.run(x, y, d);
                if lo + hi + 1 >= 6 {
                    return true;
                }
            }
            if fours >= 2 {
                return true;
            }
            if depth > 12 {
                return false;
            }
            let mut threes = 0;
            for d in DIRS {
                if self.real_three(x, y, d, depth) {
                    threes += 1;
                }
            }
            threes >= 2
        })();
        self.set(x, y, 0);
        result
    }
}

#[test]
fn forbidden_points_match_an_independent_rif_referee() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut forbidden_seen = 0;
    let mut checked = 0;
    for _ in 0..2000 {
        let mut board = Board::new(N as usize, N as usize, Rule::Renju).unwrap();
        let mut grid = Grid([[0; N as usize]; N as usize]);
        // Dense play inside a 9x9 box makes many threes and fours.
        let stones = rng.gen_range(10..50);
        let mut placed = 0;
        while placed < stones {
            let p = Pos::new(rng.gen_range(3..12), rng.gen_range(3..12));
            if !board.is_empty(p) {
                continue;
            }
            let c = board.side_to_move();
            // Keep the game going: no fives, and black avoids fouls.
            if board.pattern4(p, c) == Pattern4::Five
                || (c == Color::Black && board.is_forbidden(p))
            {
                if rng.gen_bool(0.02) {
                    break;
                }
                continue;
            }
            board.make(p);
            grid.set(
                p.x() as i32,
                p.y() as i32,
                if c == Color::Black { 1 } else { 2 },
            );
            placed += 1;
        }
        for y in 0..N {
            for x in 0..N {
                let p = Pos::new(x as usize, y as usize);
                if board.cell(p) != Cell::Empty {
                    continue;
                }
                let expected = grid.forbidden(x, y, 0);
                assert_eq!(board.is_forbidden(p), expected, "({x},{y}) on\n{board}");
                grid.set(x, y, 1);
                let five = grid.five_any(x, y);
                grid.set(x, y, 0);
                assert_eq!(
                    board.pattern4(p, Color::Black) == Pattern4::Five,
                    five,
                    "black five at ({x},{y}) on\n{board}"
                );
                forbidden_seen += u32::from(expected);
                checked += 1;
            }
        }
    }
    assert!(
        forbidden_seen > 1000,
        "too few forbidden points to be a test: {forbidden_seen} of {checked}"
    );
}
