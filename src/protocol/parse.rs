//! Parsing of protocol input lines into typed commands ("parse, don't validate").
//!
//! Every function here is pure and total: any `&str` gives a `Command` or a
//! [`ParseError`], never a panic. Coordinates are parsed as `i64` and checked against the
//! board later, by the session.

use std::fmt;

use crate::types::{MAX_SIZE, MIN_SIZE};

// A coordinate pair exactly as sent: the board decides later whether it is on the board.
/// Coordinates `x,y` as received (not yet checked against a board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// Column, 0-based.
    pub x: i64,
    /// Row, 0-based.
    pub y: i64,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

// The three commands that are followed by stone lines up to DONE share their reading.
/// The kind of multi-line block a command opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: lines `x,y,f`, then search.
    Board,
    /// `YXBOARD`: lines `x,y,f`, set the position without searching.
    YxBoard,
    /// `SWAP2BOARD`: lines `x,y` (stones in play order), then a swap2 decision.
    Swap2Board,
}

impl BlockKind {
    /// The command word that opens this block.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
        }
    }
}

// INFO lines carry one typed setting each; a bad value is kept as `Invalid` because INFO
// is never answered (the session only logs it).
/// One `INFO key value` setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn` (ms; 0 = play fast).
    TimeoutTurn(i64),
    /// `timeout_match` (ms; 0 = unlimited).
    TimeoutMatch(i64),
    /// `time_left` (ms; may be negative; 2147483647 = unlimited).
    TimeLeft(i64),
    /// `max_memory` (bytes; 0 = no limit).
    MaxMemory(i64),
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament).
    GameType(i64),
    /// `rule` (Piskvork bitmask).
    Rule(i64),
    /// `evaluate x,y` (debug only; never answered).
    Evaluate,
    /// `folder` (path for persistent files; may contain spaces).
    Folder(String),
    /// `thread_num` (Yixin-Board).
    ThreadNum(i64),
    /// `hash_size` in KiB (Yixin-Board).
    HashSize(i64),
    /// `max_depth` (Yixin-Board).
    MaxDepth(i64),
    /// `max_node` (Yixin-Board; -1 = unlimited).
    MaxNode(i64),
    /// `pondering` (Yixin-Board; accepted, no pondering is done).
    Pondering(i64),
    /// `caution_factor` (Yixin-Board; accepted, ignored).
    CautionFactor(i64),
    /// `show_detail` (0 = no MESSAGE lines, anything else = MESSAGE lines).
    ShowDetail(i64),
    /// Any other key, upper-cased, with its raw value: a search parameter when it names
    /// one (`INFO sente.top_n 8`, or without the prefix `INFO top_n 8`; see
    /// `SearchParams::apply`), else ignored silently.
    Unknown(String, String),
    /// A known key with a bad or missing value (ignored silently; INFO is never answered).
    Invalid(String),
}

// The typed form of every command line the engine understands.
/// One parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` / `start W H` (first integer) / `RECTSTART w,h`.
    Start {
        /// Board width (x range).
        width: usize,
        /// Board height (y range).
        height: usize,
    },
    /// `RESTART`.
    Restart,
    /// `BEGIN`.
    Begin,
    /// `TURN x,y`.
    Turn(Coord),
    /// `BOARD`, `YXBOARD` or `SWAP2BOARD`: stone lines follow up to `DONE`.
    Block(BlockKind),
    /// `INFO key value`.
    Info(Info),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`.
    Takeback(Coord),
    /// `PLAY x,y`.
    Play(Coord),
    /// `YXNBEST n`.
    YxNbest(usize),
    /// `STOP` or `YXSTOP`.
    Stop,
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `YXHASHCLEAR`.
    YxHashClear,
    /// `YXSHOWINFO`.
    YxShowInfo,
}

// The two ways a line can fail; each maps to one reply keyword.
/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a command this engine knows: reply `UNKNOWN <text>`.
    Unknown(String),
    /// A known command with bad arguments: reply `ERROR <reason>`.
    Invalid(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(t) => write!(f, "UNKNOWN {t}"),
            ParseError::Invalid(t) => write!(f, "ERROR {t}"),
        }
    }
}

// A line inside a BOARD/YXBOARD/SWAP2BOARD block.
/// One line of a stone block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockLine {
    /// `DONE`: the block is complete.
    Done,
    /// A stone: coordinates and field (1 own, 2 opponent, 3 blocked; 0 for SWAP2BOARD,
    /// whose stones carry no field).
    Stone(Coord, u8),
}

/// Longest text echoed back in an `UNKNOWN`/`ERROR` reply (the rest is cut).
pub const MAX_ECHO: usize = 80;

/// Shorten `s` for echoing in a reply (keeps replies one short line; control characters
/// are dropped, and text with nothing printable left becomes `(unprintable)`).
#[must_use]
pub fn echo(s: &str) -> String {
    let mut out: String = s
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_ECHO)
        .collect();
    if out.trim().is_empty() {
        return "(unprintable)".to_string();
    }
    if s.chars().count() > MAX_ECHO {
        out.push_str("...");
    }
    out
}

/// Split a trimmed line into its upper-cased command word and the rest (trimmed).
#[must_use]
pub fn split_command(line: &str) -> (String, &str) {
    let line = line.trim();
    match line.find(|c: char| c.is_ascii_whitespace()) {
        Some(i) => (line[..i].to_ascii_uppercase(), line[i..].trim()),
        None => (line.to_ascii_uppercase(), ""),
    }
}

fn int(s: &str, what: &str) -> Result<i64, ParseError> {
    let t = s.trim();
    t.parse::<i64>().map_err(|_| {
        if !t.is_empty()
            && t.trim_start_matches(['-', '+'])
                .bytes()
                .all(|b| b.is_ascii_digit())
        {
            ParseError::Invalid(format!("{what}: number out of range: {}", echo(t)))
        } else {
            ParseError::Invalid(format!("{what}: not a number: {}", echo(t)))
        }
    })
}

/// Parse `x,y` (spaces around the numbers allowed).
pub fn parse_coord(s: &str) -> Result<Coord, ParseError> {
    let mut parts = s.split(',');
    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(ParseError::Invalid(format!(
            "expected x,y, got '{}'",
            echo(s)
        )));
    };
    Ok(Coord {
        x: int(a, "x")?,
        y: int(b, "y")?,
    })
}

fn board_size(v: i64) -> Result<usize, ParseError> {
    if (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&v) {
        Ok(v as usize)
    } else {
        Err(ParseError::Invalid(format!(
            "unsupported board size {v} (supported {MIN_SIZE}..{MAX_SIZE})"
        )))
    }
}

/// Parse one input line (already trimmed of CR/LF) into a command.
///
/// Trailing words after an argument-less command are ignored, as the C skeleton does.
/// Empty lines are the caller's business (they are skipped, not parsed).
pub fn parse_line(line: &str) -> Result<Command, ParseError> {
    let (word, rest) = split_command(line);
    match word.as_str() {
        "START" => {
            // `START n`, old Yixin-Board `start W H`, also tolerate `START n,n`: first int.
            let first = rest
                .split(|c: char| c == ',' || c.is_ascii_whitespace())
                .next()
                .unwrap_or("");
            if first.is_empty() {
                return Err(ParseError::Invalid("START needs a board size".into()));
            }
            let n = board_size(int(first, "board size")?)?;
            Ok(Command::Start {
                width: n,
                height: n,
            })
        }
        "RECTSTART" => {
            let c = parse_coord(rest)?;
            Ok(Command::Start {
                width: board_size(c.x)?,
                height: board_size(c.y)?,
            })
        }
        "RESTART" => Ok(Command::Restart),
        "BEGIN" => Ok(Command::Begin),
        "TURN" => Ok(Command::Turn(parse_coord(rest)?)),
        "BOARD" => Ok(Command::Block(BlockKind::Board)),
        "YXBOARD" => Ok(Command::Block(BlockKind::YxBoard)),
        "SWAP2BOARD" => Ok(Command::Block(BlockKind::Swap2Board)),
        "INFO" => Ok(Command::Info(parse_info(rest))),
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "TAKEBACK" => Ok(Command::Takeback(parse_coord(rest)?)),
        "PLAY" => Ok(Command::Play(parse_coord(rest)?)),
        "YXNBEST" => {
            let n = if rest.is_empty() {
                1
            } else {
                int(rest, "YXNBEST count")?
            };
            if n < 1 {
                return Err(ParseError::Invalid(format!(
                    "YXNBEST count must be positive, got {n}"
                )));
            }
            Ok(Command::YxNbest(usize::try_from(n.min(1024)).unwrap_or(1)))
        }
        "STOP" | "YXSTOP" => Ok(Command::Stop),
        "YXSHOWFORBID" => Ok(Command::YxShowForbid),
        "YXHASHCLEAR" => Ok(Command::YxHashClear),
        "YXSHOWINFO" => Ok(Command::YxShowInfo),
        _ => Err(ParseError::Unknown(echo(line.trim()))),
    }
}

/// Parse the `key value` part of an INFO line (never fails: bad values become
/// [`Info::Invalid`]).
#[must_use]
pub fn parse_info(rest: &str) -> Info {
    let (key, value) = split_command(rest);
    let num = |make: fn(i64) -> Info| -> Info {
        match int(value, &key) {
            Ok(v) => make(v),
            Err(e) => Info::Invalid(match e {
                ParseError::Invalid(t) | ParseError::Unknown(t) => t,
            }),
        }
    };
    match key.as_str() {
        "" => Info::Invalid("INFO without a key".into()),
        "TIMEOUT_TURN" => num(Info::TimeoutTurn),
        "TIMEOUT_MATCH" => num(Info::TimeoutMatch),
        "TIME_LEFT" => num(Info::TimeLeft),
        "MAX_MEMORY" => num(Info::MaxMemory),
        "GAME_TYPE" => num(Info::GameType),
        "RULE" => num(Info::Rule),
        "EVALUATE" => Info::Evaluate,
        "FOLDER" => Info::Folder(value.to_string()),
        "THREAD_NUM" => num(Info::ThreadNum),
        "HASH_SIZE" => num(Info::HashSize),
        "MAX_DEPTH" => num(Info::MaxDepth),
        "MAX_NODE" => num(Info::MaxNode),
        "PONDERING" => num(Info::Pondering),
        "CAUTION_FACTOR" => num(Info::CautionFactor),
        "SHOW_DETAIL" => num(Info::ShowDetail),
        _ => Info::Unknown(echo(&key), echo(value)),
    }
}

/// Parse one line inside a block opened by `kind`.
pub fn parse_block_line(line: &str, kind: BlockKind) -> Result<BlockLine, ParseError> {
    let t = line.trim();
    if t.eq_ignore_ascii_case("DONE") {
        return Ok(BlockLine::Done);
    }
    let parts: Vec<&str> = t.split(',').collect();
    match (kind, parts.len()) {
        (BlockKind::Swap2Board, 2) => Ok(BlockLine::Stone(
            Coord {
                x: int(parts[0], "x")?,
                y: int(parts[1], "y")?,
            },
            0,
        )),
        (BlockKind::Board | BlockKind::YxBoard, 3) => {
            let c = Coord {
                x: int(parts[0], "x")?,
                y: int(parts[1], "y")?,
            };
            match int(parts[2], "field")? {
                f @ 1..=3 => Ok(BlockLine::Stone(c, f as u8)),
                f => Err(ParseError::Invalid(format!(
                    "field must be 1, 2 or 3, got {f}"
                ))),
            }
        }
        (BlockKind::Swap2Board, _) => Err(ParseError::Invalid(format!(
            "expected x,y or DONE in SWAP2BOARD, got '{}'",
            echo(t)
        ))),
        _ => Err(ParseError::Invalid(format!(
            "expected x,y,field or DONE in {}, got '{}'",
            kind.name(),
            echo(t)
        ))),
    }
}

/// True when the line's command word is one this engine knows (used to abandon an
/// unterminated block when a new command arrives).
#[must_use]
pub fn is_command_word(line: &str) -> bool {
    let (word, _) = split_command(line);
    matches!(
        word.as_str(),
        "START"
            | "RECTSTART"
            | "RESTART"
            | "BEGIN"
            | "TURN"
            | "BOARD"
            | "YXBOARD"
            | "SWAP2BOARD"
            | "INFO"
            | "END"
            | "ABOUT"
            | "TAKEBACK"
            | "PLAY"
            | "YXNBEST"
            | "STOP"
            | "YXSTOP"
            | "YXSHOWFORBID"
            | "YXHASHCLEAR"
            | "YXSHOWINFO"
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn commands_are_case_insensitive() {
        assert_eq!(
            parse_line("start 15"),
            Ok(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(parse_line("Turn 3,4"), Ok(Command::Turn(c(3, 4))));
        assert_eq!(parse_line("yxStop"), Ok(Command::Stop));
        assert_eq!(parse_line("board"), Ok(Command::Block(BlockKind::Board)));
        assert_eq!(
            parse_line("info TIMEOUT_TURN 1000"),
            Ok(Command::Info(Info::TimeoutTurn(1000)))
        );
    }

    #[test]
    fn start_takes_the_first_integer_and_checks_the_size() {
        assert_eq!(
            parse_line("START 20"),
            Ok(Command::Start {
                width: 20,
                height: 20
            })
        );
        assert_eq!(
            parse_line("start 15 15"),
            Ok(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            parse_line("RECTSTART 20,10"),
            Ok(Command::Start {
                width: 20,
                height: 10
            })
        );
        for bad in [
            "START 0",
            "START 999",
            "START 4",
            "START 33",
            "START",
            "START x",
            "START -15",
        ] {
            assert!(
                matches!(parse_line(bad), Err(ParseError::Invalid(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_line("RECTSTART 20"),
            Err(ParseError::Invalid(_))
        ));
    }

    #[test]
    fn coordinates_accept_spaces_and_reject_garbage() {
        assert_eq!(parse_line("TURN 7, 8"), Ok(Command::Turn(c(7, 8))));
        assert_eq!(parse_line("TURN -1,5"), Ok(Command::Turn(c(-1, 5))));
        for bad in [
            "TURN",
            "TURN 7",
            "TURN 7,8,9",
            "TURN a,b",
            "TURN 7 8",
            "TURN 99999999999999999999,1",
        ] {
            assert!(
                matches!(parse_line(bad), Err(ParseError::Invalid(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn unknown_words_are_unknown_not_errors() {
        assert_eq!(
            parse_line("HELLO world"),
            Err(ParseError::Unknown("HELLO world".into()))
        );
        assert!(matches!(
            parse_line("TURNX 1,2"),
            Err(ParseError::Unknown(_))
        ));
        assert_eq!(parse_line("FOO").unwrap_err().to_string(), "UNKNOWN FOO");
    }

    #[test]
    fn info_keys_are_typed_and_never_fail() {
        assert_eq!(
            parse_info("max_memory 367001600"),
            Info::MaxMemory(367_001_600)
        );
        assert_eq!(
            parse_info("MAX_MEMORY 8589934592"),
            Info::MaxMemory(8_589_934_592)
        );
        assert_eq!(parse_info("time_left -25"), Info::TimeLeft(-25));
        assert_eq!(
            parse_info("folder C:\\My Documents\\x"),
            Info::Folder("C:\\My Documents\\x".into())
        );
        assert_eq!(parse_info("max_node -1"), Info::MaxNode(-1));
        assert_eq!(parse_info("evaluate 3,4"), Info::Evaluate);
        assert_eq!(
            parse_info("usedatabase 1"),
            Info::Unknown("USEDATABASE".into(), "1".into())
        );
        assert!(matches!(parse_info("timeout_turn"), Info::Invalid(_)));
        assert!(matches!(parse_info("timeout_turn 1e3"), Info::Invalid(_)));
        assert!(matches!(parse_info(""), Info::Invalid(_)));
    }

    #[test]
    fn block_lines_need_the_right_number_of_fields() {
        assert_eq!(
            parse_block_line("7,7,1", BlockKind::Board),
            Ok(BlockLine::Stone(c(7, 7), 1))
        );
        assert_eq!(
            parse_block_line("done", BlockKind::Board),
            Ok(BlockLine::Done)
        );
        assert_eq!(
            parse_block_line("7,7", BlockKind::Swap2Board),
            Ok(BlockLine::Stone(c(7, 7), 0))
        );
        assert!(parse_block_line("7,7", BlockKind::Board).is_err());
        assert!(parse_block_line("7,7,4", BlockKind::YxBoard).is_err());
        assert!(parse_block_line("7,7,1", BlockKind::Swap2Board).is_err());
        assert!(parse_block_line("", BlockKind::Board).is_err());
    }

    #[test]
    fn yxnbest_needs_a_positive_count() {
        assert_eq!(parse_line("YXNBEST 3"), Ok(Command::YxNbest(3)));
        assert!(parse_line("YXNBEST 0").is_err());
        assert!(parse_line("YXNBEST x").is_err());
    }

    #[test]
    fn echo_cuts_long_text_and_control_characters() {
        let long = "A".repeat(500);
        assert_eq!(echo(&long).len(), MAX_ECHO + 3);
        assert_eq!(echo("a\u{7}b"), "ab");
        assert_eq!(echo("\u{8}"), "(unprintable)");
    }

    #[test]
    fn arbitrary_text_never_panics() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let alphabet: Vec<char> = "TURNSTARTBOARDINFO ,-0123456789\u{e9}\t\u{0}x"
            .chars()
            .collect();
        for _ in 0..20_000 {
            let len = rng.gen_range(0..30);
            let s: String = (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect();
            let _ = parse_line(&s);
            let _ = parse_block_line(&s, BlockKind::Board);
            let _ = parse_block_line(&s, BlockKind::Swap2Board);
        }
    }
}
