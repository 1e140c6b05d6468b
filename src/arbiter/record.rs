//! Game records: the result of one game with its reason, and its Piskvork `.psq` and SGF
//! renderings.

use crate::types::{Pos, Rule};
use std::fmt;

/// Final result of a game, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black (the first player) won.
    BlackWins,
    /// White won.
    WhiteWins,
    /// Draw.
    Draw,
}

/// Why a game ended. Every game ends with exactly one of these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The winner made five by the rule.
    Five,
    /// Renju: black played a forbidden point (overline, double four, double three).
    Foul {
        /// The forbidden move.
        at: Pos,
    },
    /// No empty square left.
    BoardFull,
    /// The move limit (`--draw-after`) was reached.
    MoveLimit(usize),
    /// The loser played on an occupied (or blocked) square.
    Occupied {
        /// The square.
        at: Pos,
    },
    /// The loser played outside the board.
    OffBoard {
        /// Column as sent.
        x: i64,
        /// Row as sent.
        y: i64,
    },
    /// The loser's reply was neither a move nor a MESSAGE/DEBUG line.
    Malformed(String),
    /// The loser did not answer within its time plus the tolerance.
    Timeout {
        /// Time waited, in ms.
        elapsed_ms: u64,
        /// Hard limit (time allowed + tolerance), in ms.
        limit_ms: u64,
    },
    /// The loser's process exited or closed its output.
    Crash(String),
    /// The loser's peak memory went over `max_memory`.
    Memory {
        /// Peak resident memory, bytes.
        peak: u64,
        /// The limit, bytes.
        limit: u64,
    },
    /// The loser could not be started or did not answer `START` with `OK`.
    StartFailed(String),
}

impl Reason {
    /// Short stable code, for summaries and tables.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Foul { .. } => "foul",
            Reason::BoardFull => "board-full",
            Reason::MoveLimit(_) => "move-limit",
            Reason::Occupied { .. } => "occupied",
            Reason::OffBoard { .. } => "off-board",
            Reason::Malformed(_) => "malformed",
            Reason::Timeout { .. } => "timeout",
            Reason::Crash(_) => "crash",
            Reason::Memory { .. } => "memory",
            Reason::StartFailed(_) => "start-failed",
        }
    }

    /// True when the game was decided on the board (five, foul, full board, move limit),
    /// false for protocol, clock and process failures.
    #[must_use]
    pub fn is_rules_result(&self) -> bool {
        matches!(
            self,
            Reason::Five | Reason::Foul { .. } | Reason::BoardFull | Reason::MoveLimit(_)
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Five => write!(f, "five"),
            Reason::Foul { at } => write!(f, "foul (forbidden move {at})"),
            Reason::BoardFull => write!(f, "board-full"),
            Reason::MoveLimit(n) => write!(f, "move-limit ({n} moves)"),
            Reason::Occupied { at } => write!(f, "occupied (move {at} on a taken square)"),
            Reason::OffBoard { x, y } => write!(f, "off-board (move {x},{y})"),
            Reason::Malformed(s) => write!(f, "malformed (reply {s:?})"),
            Reason::Timeout {
                elapsed_ms,
                limit_ms,
            } => {
                write!(f, "timeout ({elapsed_ms} ms, limit {limit_ms} ms)")
            }
            Reason::Crash(s) => write!(f, "crash ({s})"),
            Reason::Memory { peak, limit } => write!(f, "memory ({peak} bytes > {limit})"),
            Reason::StartFailed(s) => write!(f, "start-failed ({s})"),
        }
    }
}

/// One move with the time its engine took (0 for opening moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedMove {
    /// The square.
    pub pos: Pos,
    /// Thinking time in ms.
    pub ms: u64,
}

// Everything needed to print, score and save one finished game. Exists so that the game
// loop, the statistics and both file formats share one description of a game.
/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number, 1-based.
    pub number: usize,
    /// Name of the engine playing black.
    pub black: String,
    /// Name of the engine playing white.
    pub white: String,
    /// True when engine 1 played black.
    pub engine1_black: bool,
    /// Rule the game was played under.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Opening label (`file:line`).
    pub opening_source: String,
    /// Number of opening stones at the start of `moves`.
    pub opening_len: usize,
    /// All stones in play order: the opening, then the engines' moves.
    pub moves: Vec<TimedMove>,
    /// Result.
    pub outcome: Outcome,
    /// Why it ended.
    pub reason: Reason,
}

impl GameRecord {
    /// Engine 1's score in this game: 1, ½ or 0.
    #[must_use]
    pub fn engine1_score(&self) -> f64 {
        match (self.outcome, self.engine1_black) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::BlackWins, true) | (Outcome::WhiteWins, false) => 1.0,
            _ => 0.0,
        }
    }

    /// Result as `1-0`, `0-1` or `1/2-1/2` (black first).
    #[must_use]
    pub fn result_str(&self) -> &'static str {
        match self.outcome {
            Outcome::BlackWins => "1-0",
            Outcome::WhiteWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Piskvork `.psq` text: header `Piskvorky WxH, 11:11, 0`, then one `x,y,ms` line per
    /// stone (1-based coordinates, y from the top), then the two player names (black
    /// first) and a status line: 0 when the game was decided on the board, 15 for a
    /// timeout (Piskvork's code), 1 for any other failure.
    #[must_use]
    pub fn to_psq(&self) -> String {
        let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", self.size, self.size);
        for m in &self.moves {
            s += &format!("{},{},{}\n", m.pos.x() + 1, m.pos.y() + 1, m.ms);
        }
        s += &format!("{}\n{}\n", one_line(&self.black), one_line(&self.white));
        let code = match self.reason {
            ref r if r.is_rules_result() => 0,
            Reason::Timeout { .. } => 15,
            _ => 1,
        };
        s += &format!("{code}\n");
        s
    }

    /// SGF text (`GM[4]` = gomoku/renju): board size, rule, players, result (`B+`/`W+` for a
    /// win on the board, `+T` on time, `+F` forfeit for fouls and protocol failures, `0` for a
    /// draw), the reason as a comment, and every stone as `B[..]`/`W[..]`.
    #[must_use]
    pub fn to_sgf(&self) -> String {
        let winner = match self.outcome {
            Outcome::BlackWins => "B+",
            Outcome::WhiteWins => "W+",
            Outcome::Draw => "",
        };
        let re = if self.outcome == Outcome::Draw {
            "0".to_string()
        } else {
            let suffix = match self.reason {
                Reason::Five => "",
                Reason::Timeout { .. } => "T",
                _ => "F",
            };
            format!("{winner}{suffix}")
        };
        let mut s = format!(
            "(;GM[4]FF[4]CA[UTF-8]AP[sente-arbiter]SZ[{}]RU[{}]PB[{}]PW[{}]RE[{}]GN[game {}]\
             GC[opening {} ({} stones)]C[{}]",
            self.size,
            self.rule.name(),
            sgf_text(&self.black),
            sgf_text(&self.white),
            re,
            self.number,
            sgf_text(&self.opening_source),
            self.opening_len,
            sgf_text(&self.reason.to_string()),
        );
        for (i, m) in self.moves.iter().enumerate() {
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            s += &format!(
                ";{colour}[{}{}]",
                sgf_coord(m.pos.x()),
                sgf_coord(m.pos.y())
            );
        }
        s += ")\n";
        s
    }
}

/// SGF coordinate letter: a..z then A..Z (boards up to 52).
fn sgf_coord(v: usize) -> char {
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

/// Escape `]` and `\` for an SGF text value.
fn sgf_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A name on one line (newlines would break the psq layout).
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            number: 3,
            black: "alpha".into(),
            white: "be]ta".into(),
            engine1_black: false,
            rule: Rule::Standard,
            size: 15,
            opening_source: "book:2".into(),
            opening_len: 1,
            moves: vec![
                TimedMove {
                    pos: Pos::new(7, 7),
                    ms: 0,
                },
                TimedMove {
                    pos: Pos::new(8, 6),
                    ms: 120,
                },
                TimedMove {
                    pos: Pos::new(0, 14),
                    ms: 35,
                },
            ],
            outcome: Outcome::WhiteWins,
            reason: Reason::Timeout {
                elapsed_ms: 2100,
                limit_ms: 2000,
            },
        }
    }

    #[test]
    fn psq_is_one_based_with_names_and_status() {
        let psq = sample().to_psq();
        assert_eq!(
            psq,
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,120\n1,15,35\nalpha\nbe]ta\n15\n"
        );
    }

    #[test]
    fn sgf_has_size_rule_players_result_and_moves() {
        let sgf = sample().to_sgf();
        assert!(sgf.starts_with("(;GM[4]FF[4]"));
        assert!(
            sgf.contains("SZ[15]RU[standard]PB[alpha]PW[be\\]ta]RE[W+T]"),
            "{sgf}"
        );
        assert!(sgf.contains(";B[hh];W[ig];B[ao])"), "{sgf}");
        assert!(sgf.contains("C[timeout (2100 ms, limit 2000 ms)]"));
    }

    #[test]
    fn engine1_score_follows_colour() {
        let mut r = sample();
        assert_eq!(r.engine1_score(), 1.0); // engine 1 is white and white won
        r.engine1_black = true;
        assert_eq!(r.engine1_score(), 0.0);
        r.outcome = Outcome::Draw;
        assert_eq!(r.engine1_score(), 0.5);
        assert_eq!(r.result_str(), "1/2-1/2");
    }

    #[test]
    fn only_board_decisions_are_rules_results() {
        assert!(Reason::Five.is_rules_result());
        assert!(Reason::MoveLimit(200).is_rules_result());
        assert!(!Reason::Malformed("x".into()).is_rules_result());
        assert!(!Reason::Crash("exit 1".into()).is_rules_result());
    }
}
