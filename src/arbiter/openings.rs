//! Opening files: one opening per line, in any of the formats engine matches use.
//!
//! * Gomocup offset format (Piskvork, GomocupJudge, c-gomoku-cli `type=offset`):
//!   `dx,dy, dx,dy, …` relative to the centre, x = dx + size/2, y = dy + size/2. Separators
//!   may be any mix of commas and spaces, as long as the numbers come in x,y pairs.
//! * Tab-separated tables such as `../shared/data/*/positions.txt`: the first column whose
//!   space-separated tokens are all `x,y` pairs holds the moves (absolute, 0-based). When the
//!   second column is a board size that differs from the match's size, the line is skipped.
//! * c-gomoku-cli `pos` format: `d3e5f6`, letter = x (a = 0), number = y + 1.
//!
//! Empty lines and lines starting with `#` are ignored. Moves are in play order, black first.

use anyhow::{bail, Context, Result};

// One starting position of a game pair. Kept as raw coordinates (not `Pos`) so that a
// position off this board is reported with its line instead of being silently clipped.
/// An opening: moves in play order (black first), absolute 0-based `(x, y)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Moves, black first.
    pub moves: Vec<(i64, i64)>,
    /// Where it came from (`file:line`, or `random` for generated openings).
    pub source: String,
}

// The result of reading an opening file: the openings plus the lines that were skipped on
// purpose (another board size), which the caller reports.
/// Openings read from a file, plus notes about skipped lines.
#[derive(Clone, Debug, Default)]
pub struct OpeningBook {
    /// The usable openings, in file order.
    pub openings: Vec<Opening>,
    /// One note per skipped line.
    pub skipped: Vec<String>,
}

/// Parse `x,y` (both integers, optional spaces around the comma).
fn parse_pair(tok: &str) -> Option<(i64, i64)> {
    let (a, b) = tok.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// Moves of a column of `x,y x,y …` tokens, if every token is such a pair.
fn parse_xy_column(field: &str) -> Option<Vec<(i64, i64)>> {
    let toks: Vec<&str> = field.split_whitespace().collect();
    if toks.is_empty() {
        return None;
    }
    toks.iter().map(|t| parse_pair(t)).collect()
}

/// Moves of the c-gomoku-cli `pos` format (`d3e5f6`), if the text is in that format.
fn parse_pos_format(text: &str) -> Option<Vec<(i64, i64)>> {
    let b = text.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return None;
    }
    let mut moves = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            return None;
        }
        let x = i64::from(b[i] - b'a');
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            return None;
        }
        let row: i64 = text[start..i].parse().ok()?;
        moves.push((x, row - 1));
    }
    Some(moves)
}

/// Moves of the Gomocup offset format, relative to the centre `size / 2`.
fn parse_offset_format(text: &str, size: usize) -> Result<Vec<(i64, i64)>> {
    let nums: Vec<i64> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>()
                .with_context(|| format!("not a number: {t:?}"))
        })
        .collect::<Result<_>>()?;
    if !nums.len().is_multiple_of(2) {
        bail!(
            "odd count of numbers ({}): offsets come in dx,dy pairs",
            nums.len()
        );
    }
    let c = size as i64 / 2;
    Ok(nums.chunks(2).map(|p| (p[0] + c, p[1] + c)).collect())
}

/// Parse one line; `Ok(None)` for blank and comment lines, `Err` with a note for a line that
/// is skipped because it is for another board size.
fn parse_line(line: &str, size: usize) -> Result<Option<Vec<(i64, i64)>>, LineError> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    if text.contains('\t') {
        let fields: Vec<&str> = text.split('\t').collect();
        if let Some(n) = fields.get(1).and_then(|f| f.trim().parse::<usize>().ok()) {
            if (5..=32).contains(&n) && n != size {
                return Err(LineError::Skip(format!("board size {n}, not {size}")));
            }
        }
        return fields
            .iter()
            .find_map(|f| parse_xy_column(f))
            .map(Some)
            .ok_or_else(|| LineError::Bad("no column of x,y moves".into()));
    }
    if let Some(m) = parse_pos_format(text) {
        return Ok(Some(m));
    }
    parse_offset_format(text, size)
        .map(Some)
        .map_err(|e| LineError::Bad(format!("{e:#}")))
}

/// Why a line produced no opening.
enum LineError {
    /// Deliberately skipped (reported as a note).
    Skip(String),
    /// Not understood (an error).
    Bad(String),
}

/// Parse a whole opening file for a `size`×`size` board. `name` labels the sources.
/// Every move must lie on the board and no square may repeat; rules (e.g. an opening that
/// already holds a five) are checked when the game starts.
pub fn parse_openings(text: &str, size: usize, name: &str) -> Result<OpeningBook> {
    let mut book = OpeningBook::default();
    for (i, line) in text.lines().enumerate() {
        let source = format!("{name}:{}", i + 1);
        match parse_line(line, size) {
            Ok(None) => {}
            Ok(Some(moves)) => {
                for (k, &(x, y)) in moves.iter().enumerate() {
                    if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
                        bail!(
                            "{source}: move {} ({x},{y}) is off the {size}x{size} board",
                            k + 1
                        );
                    }
                    if moves[..k].contains(&(x, y)) {
                        bail!("{source}: move {} ({x},{y}) repeats a square", k + 1);
                    }
                }
                book.openings.push(Opening { moves, source });
            }
            Err(LineError::Skip(why)) => book.skipped.push(format!("{source}: skipped ({why})")),
            Err(LineError::Bad(why)) => bail!("{source}: {why}"),
        }
    }
    Ok(book)
}

/// Read and parse an opening file.
pub fn read_openings(path: &str, size: usize) -> Result<OpeningBook> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read openings {path}"))?;
    let name = std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
    parse_openings(&text, size, &name)
}

/// `count` random openings of `stones` stones within `radius` of the centre, from `seed`
/// (used when no opening file is given, so that games differ; each is still played with
/// both colours, which cancels most of the bias of an unbalanced start).
#[must_use]
pub fn random_openings(
    count: usize,
    stones: usize,
    size: usize,
    radius: i64,
    seed: u64,
) -> Vec<Opening> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let c = size as i64 / 2;
    let r = radius.min(c).max(1);
    let cells = ((2 * r + 1) * (2 * r + 1)) as usize;
    let stones = stones.min(cells);
    (0..count)
        .map(|i| {
            let mut moves: Vec<(i64, i64)> = Vec::with_capacity(stones);
            while moves.len() < stones {
                let m = (c + rng.gen_range(-r..=r), c + rng.gen_range(-r..=r));
                if !moves.contains(&m) {
                    moves.push(m);
                }
            }
            Opening {
                moves,
                source: format!("random#{}", i + 1),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_format_is_relative_to_the_centre() {
        let b = parse_openings("-7,-8, -6,-9, -3,-9\n", 20, "f").unwrap();
        assert_eq!(b.openings[0].moves, vec![(3, 2), (4, 1), (7, 1)]);
        assert_eq!(b.openings[0].source, "f:1");
        // Without spaces, and on 15x15 the centre is 7.
        let b = parse_openings("0,0,1,-1,2,0\n", 15, "f").unwrap();
        assert_eq!(b.openings[0].moves, vec![(7, 7), (8, 6), (9, 7)]);
    }

    #[test]
    fn positions_table_uses_the_moves_column_and_skips_other_sizes() {
        let text = "# header\tcomment\n\
            gomocup_003\t20\tfreestyle\t5\twhite\t4,1 5,4 5,3 4,5 6,3\tsrc:3\n\
            other\t15\trenju\t3\tblack\t7,7 8,8 9,9\tsrc:4\n";
        let b = parse_openings(text, 20, "p").unwrap();
        assert_eq!(b.openings.len(), 1);
        assert_eq!(
            b.openings[0].moves,
            vec![(4, 1), (5, 4), (5, 3), (4, 5), (6, 3)]
        );
        assert_eq!(b.skipped.len(), 1);
        assert!(b.skipped[0].starts_with("p:3"));
    }

    #[test]
    fn pos_format_letter_is_x_number_is_y_plus_one() {
        let b = parse_openings("d3e5f6d7\n", 20, "f").unwrap();
        assert_eq!(b.openings[0].moves, vec![(3, 2), (4, 4), (5, 5), (3, 6)]);
    }

    #[test]
    fn off_board_repeated_and_odd_openings_are_errors() {
        assert!(parse_openings("10,0\n", 15, "f").is_err()); // x = 17
        assert!(parse_openings("0,0, 0,0\n", 15, "f").is_err());
        assert!(parse_openings("0,0, 1\n", 15, "f").is_err());
        assert!(parse_openings("hello world\n", 15, "f").is_err());
    }

    #[test]
    fn offset_line_and_positions_table_line_agree() {
        // Line 2 of the Gomocup opening file (no spaces) and its row in positions.txt.
        let offset = "-9,0,-6,0,-7,0,-5,1,-7,-1,-7,-2,-6,-2,-5,-1,-5,-3,-4,-4,-9,1,-8,0,-9,2,-9,3,-8,1,-5,-2";
        let table =
            "gomocup_002\t20\tfreestyle\t16\tblack\t1,10 4,10 3,10 5,11 3,9 3,8 4,8 5,9 5,7 6,6 \
                     1,11 2,10 1,12 1,13 2,11 5,8\tego_gomocup_2013_2024_openings.txt:2";
        let a = parse_openings(offset, 20, "a").unwrap();
        let b = parse_openings(table, 20, "b").unwrap();
        assert_eq!(a.openings[0].moves.len(), 16);
        assert_eq!(a.openings[0].moves, b.openings[0].moves);
    }

    #[test]
    fn random_openings_are_reproducible_and_distinct_squares() {
        let a = random_openings(5, 3, 15, 3, 42);
        let b = random_openings(5, 3, 15, 3, 42);
        assert_eq!(a, b);
        for o in &a {
            assert_eq!(o.moves.len(), 3);
            for (i, m) in o.moves.iter().enumerate() {
                assert!(!o.moves[..i].contains(m));
                assert!((4..=10).contains(&m.0) && (4..=10).contains(&m.1));
            }
        }
        assert_ne!(random_openings(5, 3, 15, 3, 43), a);
    }
}
