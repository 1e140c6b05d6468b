//! The arbiter against scripted misbehaving engines (tests/arbiter_engines/scripted_engine.py):
//! every way of losing is adjudicated with the right result and reason, and rule results
//! come from the crate's rules core.

use sente::arbiter::game::{play_game, EngineSpec, GameConfig};
use sente::arbiter::openings::Opening;
use sente::arbiter::record::{GameRecord, Outcome, Reason};
use sente::arbiter::runner::{run_match, MatchConfig, SprtModel};
use sente::arbiter::stats::{Sprt, SprtDecision, Wld};
use sente::types::{Pos, Rule};

const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/arbiter_engines/scripted_engine.py"
);

fn engine(name: &str, args: &[&str]) -> EngineSpec {
    let mut argv = vec!["python3".to_string(), SCRIPT.to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    EngineSpec {
        name: name.to_string(),
        argv,
        info: vec![],
    }
}

fn cfg(rule: Rule) -> GameConfig {
    GameConfig {
        rule,
        size: 15,
        turn_ms: 2000,
        match_ms: 0,
        tolerance_ms: 1000,
        // Generous: under a loaded CI machine (tests run side by side on two cores) a
        // test engine once took over 10 s to answer START. Only a broken engine waits
        // this long; refusals are tested with an explicit refusal, not a timeout.
        start_ms: 60_000,
        max_memory: 0,
        draw_after: 0,
    }
}

fn opening(moves: &[(i64, i64)]) -> Opening {
    Opening {
        moves: moves.to_vec(),
        source: "test".to_string(),
    }
}

fn play(cfg: &GameConfig, black: &EngineSpec, white: &EngineSpec, o: &Opening) -> GameRecord {
    play_game(cfg, black, white, o, 1, true).expect("valid opening")
}

/// Engine moves after the opening.
fn engine_moves(r: &GameRecord) -> Vec<Pos> {
    r.moves[r.opening_len..].iter().map(|m| m.pos).collect()
}

#[test]
fn late_reply_beyond_tolerance_loses_on_time() {
    let mut c = cfg(Rule::Freestyle);
    c.turn_ms = 200;
    c.tolerance_ms = 300;
    let r = play(
        &c,
        &engine("b", &[]),
        &engine("w", &["--late", "1", "4000"]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert!(
        matches!(r.reason, Reason::Timeout { limit_ms: 500, .. }),
        "{:?}",
        r.reason
    );
    assert_eq!(engine_moves(&r), vec![Pos::new(0, 0)]);
}

#[test]
fn match_clock_runs_out_when_time_left_is_spent() {
    // No per-move limit, 400 ms for the whole game: a 3 s pause is over time_left + tolerance.
    let mut c = cfg(Rule::Freestyle);
    c.turn_ms = 0;
    c.match_ms = 400;
    c.tolerance_ms = 300;
    let r = play(
        &c,
        &engine("b", &["--late", "2", "3000"]),
        &engine("w", &[]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::WhiteWins);
    assert_eq!(r.reason.code(), "timeout");
}

#[test]
fn crashing_engine_loses() {
    let r = play(
        &cfg(Rule::Freestyle),
        &engine("b", &[]),
        &engine("w", &["--crash", "2"]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert_eq!(r.reason, Reason::Crash("exited with code 3".to_string()));
    assert_eq!(engine_moves(&r).len(), 3); // b, w, b, then white crashed
}

#[test]
fn move_on_an_occupied_square_loses() {
    let r = play(
        &cfg(Rule::Freestyle),
        &engine("b", &[]),
        &engine("w", &["--occupied", "1"]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert_eq!(r.reason, Reason::Occupied { at: Pos::new(0, 0) });
}

#[test]
fn move_off_the_board_loses() {
    let r = play(
        &cfg(Rule::Freestyle),
        &engine("b", &["--offboard", "1"]),
        &engine("w", &[]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::WhiteWins);
    assert_eq!(r.reason, Reason::OffBoard { x: 99, y: 99 });
}

#[test]
fn garbage_reply_is_malformed_and_loses() {
    let r = play(
        &cfg(Rule::Freestyle),
        &engine("b", &[]),
        &engine("w", &["--garbage", "1"]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert_eq!(r.reason, Reason::Malformed("hello world".to_string()));
}

#[test]
fn unasked_output_between_moves_is_malformed() {
    // White sends its first move twice; black thinks 300 ms before its second move, so the
    // extra line is surely waiting when white is asked again.
    let r = play(
        &cfg(Rule::Freestyle),
        &engine("b", &["--late", "2", "300"]),
        &engine("w", &["--double", "1"]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert_eq!(
        r.reason,
        Reason::Malformed("unsolicited output: 1,0".to_string())
    );
    assert_eq!(engine_moves(&r).len(), 3);
}

#[test]
fn refusing_start_loses_before_any_move() {
    let r = play(
        &cfg(Rule::Freestyle),
        &engine("b", &["--refuse-start"]),
        &engine("w", &[]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::WhiteWins);
    assert_eq!(r.reason.code(), "start-failed");
    assert!(engine_moves(&r).is_empty());
}

#[test]
fn peak_memory_over_the_limit_loses() {
    // 150 MB limit: a python engine idles far below it; touching 250 MB goes over.
    // A long turn, so that the allocation answers in time on a loaded machine (at 2 s
    // it once ran out of time first, beside two matches).
    let mut c = cfg(Rule::Freestyle);
    c.max_memory = 150 * 1024 * 1024;
    c.turn_ms = 10_000;
    let r = play(
        &c,
        &engine("b", &[]),
        &engine("w", &["--memory", "2", "250"]),
        &opening(&[]),
    );
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert!(matches!(r.reason, Reason::Memory { .. }), "{:?}", r.reason);
    assert_eq!(
        engine_moves(&r).len(),
        3,
        "white's first move was within the limit"
    );
}

/// Black (6,7),(7,7) across and (8,5),(8,6) down: black at (8,7) makes two open threes.
/// White's stones sit in the corners. 8 stones: black to move.
fn double_three_opening() -> Opening {
    opening(&[
        (6, 7),
        (0, 0),
        (7, 7),
        (0, 14),
        (8, 5),
        (14, 0),
        (8, 6),
        (14, 14),
    ])
}

#[test]
fn renju_double_three_by_black_is_a_foul_and_loses() {
    let r = play(
        &cfg(Rule::Renju),
        &engine("b", &["--moves", "8,7"]),
        &engine("w", &[]),
        &double_three_opening(),
    );
    assert_eq!(r.outcome, Outcome::WhiteWins);
    assert_eq!(r.reason, Reason::Foul { at: Pos::new(8, 7) });
    assert_eq!(engine_moves(&r), vec![Pos::new(8, 7)]);
}

#[test]
fn double_three_is_no_foul_in_freestyle() {
    let mut c = cfg(Rule::Freestyle);
    c.draw_after = 20;
    let r = play(
        &c,
        &engine("b", &["--moves", "8,7"]),
        &engine("w", &[]),
        &double_three_opening(),
    );
    assert_eq!(engine_moves(&r)[0], Pos::new(8, 7));
    assert_eq!(r.reason, Reason::MoveLimit(20));
    assert_eq!(r.outcome, Outcome::Draw);
}

/// Black: row 7 x = 2,3,4,6,7 (filling 5 makes six) and row 10 x = 3..6 (7,10 makes an exact
/// five). White: spaced stones on rows 0 and 14. 18 stones: black to move.
fn overline_opening() -> Opening {
    let black = [
        (2, 7),
        (3, 7),
        (4, 7),
        (6, 7),
        (7, 7),
        (3, 10),
        (4, 10),
        (5, 10),
        (6, 10),
    ];
    let white = [
        (0, 0),
        (2, 0),
        (4, 0),
        (6, 0),
        (8, 0),
        (0, 14),
        (2, 14),
        (4, 14),
        (6, 14),
    ];
    let moves: Vec<(i64, i64)> = black
        .iter()
        .zip(white.iter())
        .flat_map(|(b, w)| [*b, *w])
        .collect();
    opening(&moves)
}

#[test]
fn overline_is_not_five_in_standard_and_play_continues() {
    let black = engine("b", &["--moves", "5,7;7,10"]);
    let white = engine("w", &["--moves", "14,14"]);
    let r = play(&cfg(Rule::Standard), &black, &white, &overline_opening());
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert_eq!(r.reason, Reason::Five);
    // The overline (5,7) did not end the game; the exact five at (7,10) did.
    assert_eq!(
        engine_moves(&r),
        vec![Pos::new(5, 7), Pos::new(14, 14), Pos::new(7, 10)]
    );
}

#[test]
fn overline_wins_in_freestyle_and_is_a_foul_in_renju() {
    let black = engine("b", &["--moves", "5,7;7,10"]);
    let white = engine("w", &["--moves", "14,14"]);
    let r = play(&cfg(Rule::Freestyle), &black, &white, &overline_opening());
    assert_eq!(
        (r.outcome, r.reason.clone()),
        (Outcome::BlackWins, Reason::Five)
    );
    assert_eq!(engine_moves(&r), vec![Pos::new(5, 7)]);
    let r = play(&cfg(Rule::Renju), &black, &white, &overline_opening());
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::WhiteWins, Reason::Foul { at: Pos::new(5, 7) })
    );
}

#[test]
fn engines_see_start_info_board_and_turn_like_under_real_managers() {
    let dir = std::env::temp_dir().join(format!("sente-arbiter-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("white.log");
    let _ = std::fs::remove_file(&log);
    let mut c = cfg(Rule::Renju);
    c.match_ms = 60_000;
    c.max_memory = 350 * 1024 * 1024;
    c.draw_after = 6;
    let mut white = engine("w", &["--log", log.to_str().unwrap()]);
    white.info.push(("max_depth".to_string(), "3".to_string()));
    let o = opening(&[(7, 7), (8, 8), (9, 9)]);
    let r = play(&c, &engine("b", &[]), &white, &o);
    assert_eq!(r.reason, Reason::MoveLimit(6));
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let expected_start = [
        "START 15",
        "INFO timeout_turn 2000",
        "INFO timeout_match 60000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 4",
        "INFO max_depth 3",
        "INFO time_left 60000",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "9,9,2",
        "DONE",
    ];
    assert_eq!(
        &lines[..expected_start.len()],
        &expected_start[..],
        "{text}"
    );
    // Then black's reply comes as TURN after a time_left update.
    assert!(
        lines[expected_start.len()].starts_with("INFO time_left "),
        "{text}"
    );
    assert_eq!(lines[expected_start.len() + 1], "TURN 1,0", "{text}");
    assert_eq!(lines.last(), Some(&"END"), "{text}");
}

#[test]
fn match_alternates_colours_writes_records_and_ignores_chatter() {
    let dir = std::env::temp_dir().join(format!("sente-arbiter-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let c = MatchConfig {
        game: cfg(Rule::Freestyle),
        engines: [engine("one", &["--chatter"]), engine("two", &["--chatter"])],
        openings: vec![opening(&[(7, 7)]), opening(&[(3, 3), (4, 4)])],
        games: 4,
        concurrency: 2,
        out_dir: Some(dir.clone()),
        sprt: None,
        sprt_model: SprtModel::Pentanomial,
    };
    let mut out = Vec::new();
    let sum = run_match(&c, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert_eq!(sum.wld.games(), 4);
    assert_eq!(sum.failures, 0, "{text}");
    let mut recs = sum.records.clone();
    recs.sort_by_key(|r| r.number);
    for r in &recs {
        // Row-major filling gives black a diagonal five: every game ends on the board.
        assert_eq!(r.reason, Reason::Five, "{text}");
        assert_eq!(r.engine1_black, r.number % 2 == 1);
        let psq = std::fs::read_to_string(dir.join(format!("game_{:04}.psq", r.number))).unwrap();
        assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n"));
        assert_eq!(psq.lines().count(), 1 + r.moves.len() + 3);
        let sgf = std::fs::read_to_string(dir.join(format!("game_{:04}.sgf", r.number))).unwrap();
        assert!(sgf.contains("RE[B+]") || sgf.contains("RE[W+]"), "{sgf}");
    }
    assert_eq!(recs[0].black, "one");
    assert_eq!(recs[1].black, "two");
    assert_eq!(recs[0].opening_source, recs[1].opening_source);
    // Two pairs; in each the same colour wins both games, so engine 1 scores 1 of 2.
    assert_eq!(sum.penta.iter().sum::<u32>(), 2);
    let tsv = std::fs::read_to_string(dir.join("games.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), 4);
}

#[test]
fn sprt_stops_the_match_once_it_decides() {
    // Engine 2 answers garbage and loses every game: the pentanomial SPRT accepts H1 after
    // the first pair (LLR 3.8 > 2.94 with the zero-variance regularisation), so 2 of 20 games run.
    let c = MatchConfig {
        game: cfg(Rule::Freestyle),
        engines: [engine("good", &[]), engine("bad", &["--garbage", "1"])],
        openings: vec![opening(&[(7, 7)])],
        games: 20,
        concurrency: 1,
        out_dir: None,
        sprt: Some(Sprt::parse("0,10,0.05,0.05").unwrap()),
        sprt_model: SprtModel::Pentanomial,
    };
    let sum = run_match(&c, &mut Vec::new()).unwrap();
    assert_eq!(
        sum.wld,
        Wld {
            wins: 2,
            losses: 0,
            draws: 0
        }
    );
    assert_eq!(sum.penta, [0, 0, 0, 0, 1]);
    let (llr, decision) = sum.sprt.unwrap();
    assert_eq!(decision, SprtDecision::H1, "LLR {llr}");
    assert_eq!(sum.failures, 2);
    assert_eq!(sum.reasons.get("malformed"), Some(&2));
}

#[test]
fn cli_runs_a_match_and_prints_the_summary() {
    let bin = env!("CARGO_BIN_EXE_sente-arbiter");
    let e = format!("python3 {SCRIPT}");
    let out = std::process::Command::new(bin)
        .args([
            "--engine1",
            &e,
            "--engine2",
            &e,
            "--games",
            "2",
            "--turn-ms",
            "2000",
            "--start-ms",
            "60000",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(out.stderr.is_empty());
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("W-L-D 1-1-0"), "{text}");
    assert!(text.contains("Elo difference +0.0"), "{text}");
    assert!(text.contains("LOS 50.0%"), "{text}");
}
