//! One refereed game between two engine processes.
//!
//! Protocol, as real managers drive it (see `shared/reference/protocol.md` §2–§4):
//! `START n`, wait for `OK`; then `INFO timeout_turn` (when non-zero), `timeout_match`,
//! `max_memory`, `game_type 1`, `rule` and the user's extra INFO keys. Before every move
//! `INFO time_left`; an engine's first move request is `BOARD` (the whole position, fields 1 =
//! own stone, 2 = opponent's, in play order) or `BEGIN` on an empty board, later ones
//! `TURN x,y`. Every move is checked with the crate's rules core ([`Board::play`]).
//!
//! Time: the limit for a move is min(timeout_turn, time_left); a reply later than the limit
//! plus the tolerance loses. Thinking time is charged to the match clock (time_left may go
//! negative within the tolerance). START handling is not charged (as in Piskvork).

use super::engine_proc::{EngineProcess, ReadError};
use super::openings::Opening;
use super::record::{GameRecord, Outcome, Reason, TimedMove};
use crate::board::{Board, MoveOutcome, PlayError};
use crate::types::{Color, Rule};
use std::time::{Duration, Instant};

/// `INFO time_left` value meaning "no match limit" (INT32_MAX, as c-gomoku-cli sends).
pub const TIME_UNLIMITED: i64 = 2_147_483_647;

// How to run one engine: the command, a display name and extra INFO keys. Exists because
// both engines of a match are described the same way and each game spawns fresh processes.
/// How to start one engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Display name (records, progress lines).
    pub name: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Extra `INFO key value` pairs sent after the standard ones.
    pub info: Vec<(String, String)>,
}

// The conditions every game of a match is played under. Exists so that the CLI, the match
// runner and the tests configure games in one place.
/// Rules and limits of a game.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Rule set.
    pub rule: Rule,
    /// Board side (square boards).
    pub size: usize,
    /// Per-move limit in ms; 0 = none (then `INFO timeout_turn` is not sent).
    pub turn_ms: u64,
    /// Per-game limit per engine in ms; 0 = none.
    pub match_ms: u64,
    /// Grace added to every limit before a reply counts as late.
    pub tolerance_ms: u64,
    /// Time allowed to start the process and answer `START` (not charged to the clock).
    pub start_ms: u64,
    /// Peak memory limit in bytes; 0 = none.
    pub max_memory: u64,
    /// Draw when this many stones are on the board (opening included); 0 = never.
    pub draw_after: usize,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            rule: Rule::Freestyle,
            size: 15,
            turn_ms: 5000,
            match_ms: 0,
            tolerance_ms: 1000,
            start_ms: 3000,
            max_memory: 0,
            draw_after: 0,
        }
    }
}

/// Play the opening on a fresh board; an error when a move is off the board, repeats a
/// square or ends the game (such an opening cannot start a game).
pub fn opening_board(cfg: &GameConfig, opening: &Opening) -> anyhow::Result<Board> {
    let mut board = Board::new(cfg.size, cfg.size, cfg.rule)
        .map_err(|e| anyhow::anyhow!("board {}x{}: {e}", cfg.size, cfg.size))?;
    for (i, &(x, y)) in opening.moves.iter().enumerate() {
        let p = board
            .pos(x, y)
            .ok_or_else(|| anyhow::anyhow!("{}: move {} off the board", opening.source, i + 1))?;
        match board.play(p) {
            Ok(MoveOutcome::Continue) => {}
            Ok(o) => anyhow::bail!("{}: move {} ends the game ({o:?})", opening.source, i + 1),
            Err(e) => anyhow::bail!("{}: move {} ({x},{y}): {e}", opening.source, i + 1),
        }
    }
    Ok(board)
}

/// True for lines managers skip: `MESSAGE `/`DEBUG ` lines (with the space, as Piskvork
/// does) and blank lines.
fn is_chatter(line: &str) -> bool {
    line.starts_with("MESSAGE ") || line.starts_with("DEBUG ") || line.trim().is_empty()
}

/// A move reply `x,y` (integers, optional spaces around them), or `None`.
#[must_use]
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.trim().split_once(',')?;
    let num = |s: &str| -> Option<i64> {
        let s = s.trim();
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    Some((num(a)?, num(b)?))
}

// One side of a game: its process, its clock and whether it has seen the position yet.
struct Player {
    proc: EngineProcess,
    used_ms: u64,
    has_position: bool,
}

/// Describe how a process ended, for a crash reason.
fn exit_text(proc: &mut EngineProcess) -> String {
    match proc.wait_exit(Duration::from_millis(300)) {
        Some(status) => match status.code() {
            Some(c) => format!("exited with code {c}"),
            None => format!("terminated ({status})"),
        },
        None => "closed its output".to_string(),
    }
}

/// Start an engine, wait for `OK` to `START`, send the INFO burst.
fn start_engine(spec: &EngineSpec, cfg: &GameConfig) -> Result<EngineProcess, String> {
    let mut proc = EngineProcess::spawn(&spec.argv).map_err(|e| {
        format!(
            "cannot run {:?}: {e}",
            spec.argv.first().cloned().unwrap_or_default()
        )
    })?;
    proc.send(&format!("START {}", cfg.size))
        .map_err(|e| format!("START not delivered: {e}"))?;
    let deadline = Instant::now() + Duration::from_millis(cfg.start_ms.max(cfg.tolerance_ms));
    loop {
        match proc.recv_line(deadline) {
            Ok(line) if is_chatter(&line) => {}
            Ok(line) if line.trim() == "OK" => break,
            Ok(line) => return Err(format!("answered START with {line:?}")),
            Err(ReadError::Timeout) => {
                return Err(format!(
                    "no OK to START within {} ms",
                    cfg.start_ms.max(cfg.tolerance_ms)
                ))
            }
            Err(ReadError::Closed) => return Err(format!("{} during START", exit_text(&mut proc))),
        }
    }
    let mut info = Vec::new();
    if cfg.turn_ms > 0 {
        info.push(format!("INFO timeout_turn {}", cfg.turn_ms));
    }
    info.push(format!("INFO timeout_match {}", cfg.match_ms));
    info.push(format!("INFO max_memory {}", cfg.max_memory));
    info.push("INFO game_type 1".to_string());
    info.push(format!("INFO rule {}", cfg.rule.to_piskvork()));
    for (k, v) in &spec.info {
        info.push(format!("INFO {k} {v}"));
    }
    for line in info {
        proc.send(&line)
            .map_err(|e| format!("INFO not delivered: {e}"))?;
    }
    Ok(proc)
}

/// Ask `player` (colour `me`) for a move on `board`. Returns the raw coordinates and the
/// time taken, or the reason the player loses.
fn request_move(
    player: &mut Player,
    me: Color,
    board: &Board,
    cfg: &GameConfig,
) -> Result<((i64, i64), u64), Reason> {
    // Output that arrived while it was not this engine's turn is a protocol error, unless
    // it is chatter.
    while let Ok(line) = player.proc.recv_line(Instant::now()) {
        if !is_chatter(&line) {
            return Err(Reason::Malformed(format!("unsolicited output: {line}")));
        }
    }
    let time_left = if cfg.match_ms > 0 {
        cfg.match_ms as i64 - player.used_ms as i64
    } else {
        TIME_UNLIMITED
    };
    let mut cmds = vec![format!("INFO time_left {time_left}")];
    if player.has_position {
        let last = board.last_move().expect("the opponent has moved");
        cmds.push(format!("TURN {last}"));
    } else if board.history().is_empty() {
        cmds.push("BEGIN".to_string());
    } else {
        cmds.push("BOARD".to_string());
        for (i, p) in board.history().iter().enumerate() {
            let colour = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            cmds.push(format!("{p},{}", if colour == me { 1 } else { 2 }));
        }
        cmds.push("DONE".to_string());
    }
    for c in &cmds {
        if let Err(e) = player.proc.send(c) {
            return Err(Reason::Crash(format!(
                "{} (write failed: {e})",
                exit_text(&mut player.proc)
            )));
        }
    }
    player.has_position = true;
    let start = Instant::now();
    let mut allowed: i64 = if cfg.turn_ms > 0 {
        cfg.turn_ms as i64
    } else {
        i64::MAX / 4
    };
    if cfg.match_ms > 0 {
        allowed = allowed.min(time_left);
    }
    let limit_ms = allowed.max(0) as u64 + cfg.tolerance_ms;
    let deadline = start + Duration::from_millis(limit_ms);
    loop {
        match player.proc.recv_line(deadline) {
            Ok(line) if is_chatter(&line) => {}
            Ok(line) => {
                let ms = start.elapsed().as_millis() as u64;
                player.used_ms += ms;
                return match parse_move(&line) {
                    Some(m) => Ok((m, ms)),
                    None => Err(Reason::Malformed(line)),
                };
            }
            Err(ReadError::Timeout) => {
                return Err(Reason::Timeout {
                    elapsed_ms: start.elapsed().as_millis() as u64,
                    limit_ms,
                })
            }
            Err(ReadError::Closed) => return Err(Reason::Crash(exit_text(&mut player.proc))),
        }
    }
}

/// Play one game. `engine1_black` only labels the record; `black` moves first.
/// The opening must be valid for `cfg` (see [`opening_board`]); the game never hangs: every
/// wait has a deadline and both processes are killed at the end.
pub fn play_game(
    cfg: &GameConfig,
    black: &EngineSpec,
    white: &EngineSpec,
    opening: &Opening,
    number: usize,
    engine1_black: bool,
) -> anyhow::Result<GameRecord> {
    let mut board = opening_board(cfg, opening)?;
    let mut record = GameRecord {
        number,
        black: black.name.clone(),
        white: white.name.clone(),
        engine1_black,
        rule: cfg.rule,
        size: cfg.size,
        opening_source: opening.source.clone(),
        opening_len: board.history().len(),
        moves: board
            .history()
            .iter()
            .map(|&pos| TimedMove { pos, ms: 0 })
            .collect(),
        outcome: Outcome::Draw,
        reason: Reason::BoardFull,
    };
    let win_for = |c: Color| {
        if c == Color::Black {
            Outcome::BlackWins
        } else {
            Outcome::WhiteWins
        }
    };

    let started = [start_engine(black, cfg), start_engine(white, cfg)];
    let mut players: Vec<Player> = Vec::with_capacity(2);
    match started {
        [Ok(b), Ok(w)] => {
            for proc in [b, w] {
                players.push(Player {
                    proc,
                    used_ms: 0,
                    has_position: false,
                });
            }
        }
        [Err(eb), Err(ew)] => {
            record.outcome = Outcome::Draw;
            record.reason = Reason::StartFailed(format!("both engines: black {eb}; white {ew}"));
            return Ok(record);
        }
        [Err(e), _] => {
            record.outcome = Outcome::WhiteWins;
            record.reason = Reason::StartFailed(e);
            return Ok(record);
        }
        [_, Err(e)] => {
            record.outcome = Outcome::BlackWins;
            record.reason = Reason::StartFailed(e);
            return Ok(record);
        }
    }

    let (outcome, reason) = loop {
        let me = board.side_to_move();
        let player = &mut players[me.idx()];
        let ((x, y), ms) = match request_move(player, me, &board, cfg) {
            Ok(m) => m,
            Err(reason) => break (win_for(me.opp()), reason),
        };
        if cfg.max_memory > 0 {
            if let Some(peak) = player.proc.peak_memory() {
                if peak > cfg.max_memory {
                    break (
                        win_for(me.opp()),
                        Reason::Memory {
                            peak,
                            limit: cfg.max_memory,
                        },
                    );
                }
            }
        }
        let Some(p) = board.pos(x, y) else {
            break (win_for(me.opp()), Reason::OffBoard { x, y });
        };
        match board.play(p) {
            Err(PlayError::OffBoard) => break (win_for(me.opp()), Reason::OffBoard { x, y }),
            Err(PlayError::Occupied | PlayError::Blocked) => {
                break (win_for(me.opp()), Reason::Occupied { at: p })
            }
            Err(PlayError::GameOver) => unreachable!("the loop stops when the game ends"),
            Ok(result) => {
                record.moves.push(TimedMove { pos: p, ms });
                match result {
                    MoveOutcome::Win => break (win_for(me), Reason::Five),
                    MoveOutcome::Foul => break (win_for(me.opp()), Reason::Foul { at: p }),
                    MoveOutcome::Draw => break (Outcome::Draw, Reason::BoardFull),
                    MoveOutcome::Continue => {
                        if cfg.draw_after > 0 && board.move_count() >= cfg.draw_after {
                            break (Outcome::Draw, Reason::MoveLimit(board.move_count()));
                        }
                    }
                }
            }
        }
    };
    record.outcome = outcome;
    record.reason = reason;
    for p in players {
        p.proc.shutdown();
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_replies_are_two_integers() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move(" 7 , 8 \r"), Some((7, 8)));
        assert_eq!(parse_move("-1,3"), Some((-1, 3)));
        assert_eq!(parse_move("7,8,9"), None);
        assert_eq!(parse_move("7 8"), None);
        assert_eq!(parse_move("OK"), None);
        assert_eq!(parse_move("+7,8"), None);
        assert_eq!(parse_move("7,"), None);
    }

    #[test]
    fn message_and_debug_lines_are_chatter_but_bare_message_is_not() {
        assert!(is_chatter("MESSAGE thinking"));
        assert!(is_chatter("DEBUG x"));
        assert!(is_chatter("   "));
        assert!(!is_chatter("MESSAGE"));
        assert!(!is_chatter("message hi"));
        assert!(!is_chatter("7,7"));
    }

    #[test]
    fn openings_that_end_the_game_or_repeat_are_rejected() {
        let cfg = GameConfig {
            rule: Rule::Freestyle,
            size: 15,
            ..GameConfig::default()
        };
        let five = Opening {
            moves: vec![
                (0, 0),
                (0, 5),
                (1, 0),
                (1, 5),
                (2, 0),
                (2, 5),
                (3, 0),
                (3, 5),
                (4, 0),
            ],
            source: "t:1".into(),
        };
        assert!(opening_board(&cfg, &five).is_err());
        let ok = Opening {
            moves: five.moves[..8].to_vec(),
            source: "t:2".into(),
        };
        let b = opening_board(&cfg, &ok).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let dup = Opening {
            moves: vec![(3, 3), (3, 3)],
            source: "t:3".into(),
        };
        assert!(opening_board(&cfg, &dup).is_err());
    }
}
