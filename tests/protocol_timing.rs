//! Protocol latency measurements (not assertions: the machine is shared and noisy).
//!
//! Run: `cargo test --release --test protocol_timing -- --ignored --nocapture --test-threads 1`
//! Prints medians of: the first move of a fresh process when everything is written at
//! once (Gomocup judge) and when the manager waits for OK, per rule and timeout_turn,
//! with the margin left; the time from sending STOP / END during a long search to the
//! move / the process exit; the set-up costs (pattern tables per rule, search tables);
//! and the cost of searching on a cold (not yet faulted-in) table.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

// A running engine with timestamped output lines.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, Option<String>)>,
}

impl Engine {
    fn spawn() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-sente"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                if tx.send((Instant::now(), l.ok())).is_err() {
                    return;
                }
            }
            let _ = tx.send((Instant::now(), None));
        });
        let stdin = child.stdin.take().unwrap();
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    /// Write `s`; returns the instant just before the write.
    fn send(&mut self, s: &str) -> Instant {
        let t = Instant::now();
        self.stdin.write_all(s.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        t
    }

    /// Next non-MESSAGE line with its arrival time.
    fn reply(&mut self) -> (Instant, String) {
        loop {
            let (t, l) = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .expect("reply");
            let l = l.expect("engine closed stdout");
            if !l.starts_with("MESSAGE") {
                return (t, l);
            }
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A quiet opening position (freestyle 15×15, black to move) for long searches.
const POSITION: &str = "BOARD\n7,7,1\n8,8,2\n2,2,1\n12,12,2\nDONE\n";

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs per measured case (medians are printed; the machine is shared and noisy).
const RUNS: usize = 7;

/// The first move of a fresh process, Gomocup-judge style: START, the INFO burst and
/// the move command written at once right after spawning (nobody waits for OK), so
/// start-up, START and the table set-up all count against the first move. Prints the
/// medians of spawn → move and the margin left below timeout_turn.
#[test]
#[ignore = "measurement, run by hand"]
fn measure_first_move_after_start() {
    println!("first move of a fresh process (START, INFO max_memory 367001600, INFO rule, INFO timeout_turn, move command, all at once)");
    println!("  rule  turn  command   median spawn->move  median margin  min margin   (ms)");
    for rule in [0, 4] {
        for turn in [100, 200, 1000] {
            for (name, cmd) in [("BEGIN", "BEGIN\n"), ("BOARD", POSITION)] {
                let mut took = Vec::new();
                for _ in 0..RUNS {
                    let t0 = Instant::now();
                    let mut e = Engine::spawn();
                    e.send(&format!(
                        "START 15\nINFO max_memory 367001600\nINFO rule {rule}\nINFO timeout_turn {turn}\nINFO timeout_match 180000\nINFO time_left 180000\n{cmd}"
                    ));
                    let (_, ok) = e.reply();
                    assert_eq!(ok, "OK");
                    let (t_move, _) = e.reply();
                    took.push(ms(t_move - t0));
                    e.send("END\n");
                    e.child.wait().unwrap();
                }
                let worst = took.iter().copied().fold(0.0, f64::max);
                let med = median(&mut took);
                println!(
                    "  {rule:4}  {turn:4}  {name:7}   {med:18.1}  {:13.1}  {:10.1}",
                    turn as f64 - med,
                    turn as f64 - worst
                );
            }
        }
    }
}

/// The first move when the manager waits for OK (Piskvork, c-gomoku-cli, sente-arbiter):
/// START, wait for OK, a pause (the manager's own work), then the INFO burst and the move.
#[test]
#[ignore = "measurement, run by hand"]
fn measure_first_move_after_ok() {
    println!("first move after OK (START; OK; 50 ms pause; INFO max_memory 367001600, rule, timeout_turn, BOARD)");
    println!("  rule  turn   median send->move  median margin  min margin   (ms)");
    for rule in [0, 4] {
        for turn in [100, 200, 1000] {
            let mut took = Vec::new();
            for _ in 0..RUNS {
                let mut e = Engine::spawn();
                e.send("START 15\n");
                let (_, ok) = e.reply();
                assert_eq!(ok, "OK");
                thread::sleep(Duration::from_millis(50));
                let t = e.send(&format!(
                    "INFO max_memory 367001600\nINFO rule {rule}\nINFO timeout_turn {turn}\n{POSITION}"
                ));
                let (t_move, _) = e.reply();
                took.push(ms(t_move - t));
                e.send("END\n");
                e.child.wait().unwrap();
            }
            let worst = took.iter().copied().fold(0.0, f64::max);
            let med = median(&mut took);
            println!(
                "  {rule:4}  {turn:4}   {med:17.1}  {:13.1}  {:10.1}",
                turn as f64 - med,
                turn as f64 - worst
            );
        }
    }
}

/// Response time of STOP and END during a long search (also while it runs a deep
/// iteration 1.5 s in).
#[test]
#[ignore = "measurement, run by hand"]
fn measure_protocol_latency() {
    for wait in [500, 1500] {
        let mut stop = Vec::new();
        for _ in 0..RUNS {
            let mut e = Engine::spawn();
            e.send("START 15\nINFO max_memory 367001600\nINFO timeout_turn 60000\nINFO timeout_match 0\n");
            e.reply();
            let t_board = e.send(POSITION);
            thread::sleep(Duration::from_millis(wait));
            let early = e
                .lines
                .try_iter()
                .find(|(_, l)| !l.as_deref().is_some_and(|l| l.starts_with("MESSAGE")));
            if let Some((t, l)) = early {
                println!(
                    "   search ended by itself after {:.1} ms ({l:?})",
                    ms(t - t_board)
                );
            } else {
                let t_stop = e.send("YXSTOP\n");
                let (t_move, _) = e.reply();
                stop.push(ms(t_move - t_stop));
            }
            e.send("END\n");
            e.child.wait().unwrap();
        }
        let worst = stop.iter().copied().fold(0.0, f64::max);
        println!(
            "YXSTOP {wait} ms into a 60 s search: send->move median {:.1} ms, max {worst:.1} ms ({} runs)",
            median(&mut stop),
            stop.len()
        );

        let mut end = Vec::new();
        let mut searching = 0;
        for _ in 0..RUNS {
            let mut e = Engine::spawn();
            e.send("START 15\nINFO max_memory 367001600\nINFO timeout_turn 60000\nINFO timeout_match 0\n");
            e.reply();
            e.send(POSITION);
            thread::sleep(Duration::from_millis(wait));
            let t_end = e.send("END\n");
            let status = e.child.wait().unwrap();
            end.push(ms(t_end.elapsed()));
            assert!(status.success());
            if e.lines
                .try_iter()
                .all(|(_, l)| l.is_none_or(|l| l.starts_with("MESSAGE")))
            {
                searching += 1;
            }
        }
        let worst = end.iter().copied().fold(0.0, f64::max);
        println!(
            "END {wait} ms into a 60 s search: send->exit median {:.1} ms, max {worst:.1} ms ({searching} of {RUNS} still searching)",
            median(&mut end)
        );
    }
}

/// Cost of a cold (never touched) transposition table: the same fixed-node search on a
/// fresh engine whose table is still unmapped (pages faulted in during the search) and on
/// one whose table was faulted in first (as the protocol does while idle).
#[test]
#[ignore = "measurement, run by hand"]
fn measure_cold_table_cost() {
    use sente::engine::Engine as Facade;
    use sente::time::SearchLimits;
    use sente::types::{Pos, Rule};
    for nodes in [20_000u64, 100_000, 400_000] {
        let mut cold = Vec::new();
        let mut warm = Vec::new();
        for i in 0..2 * RUNS {
            let mut e = Facade::new();
            e.set_memory_limit(367_001_600);
            e.new_game(15, 15, Rule::Freestyle).unwrap();
            if i % 2 == 1 {
                while e.prefault(1 << 20) {}
            }
            for p in [(7, 7), (8, 8), (2, 2), (12, 12)] {
                e.play(Pos::new(p.0, p.1)).unwrap();
            }
            let mut l = SearchLimits::fixed(Duration::from_secs(60), Instant::now());
            l.max_nodes = Some(nodes);
            let t = Instant::now();
            e.go(&l, &mut |_| {});
            if i % 2 == 1 {
                warm.push(ms(t.elapsed()));
            } else {
                cold.push(ms(t.elapsed()));
            }
        }
        println!(
            "{nodes} nodes: cold table median {:.1} ms, faulted-in table median {:.1} ms",
            median(&mut cold),
            median(&mut warm)
        );
    }
}

/// First-use cost of each rule's pattern tables (paid when a game of that rule starts:
/// at `START`, or at `INFO rule` when it comes after `START`) and of the search tables.
#[test]
#[ignore = "measurement, run by hand"]
fn measure_setup_costs() {
    use sente::pattern::RuleTables;
    use sente::types::Rule;
    for rule in Rule::ALL {
        let t = Instant::now();
        let _ = RuleTables::get(rule);
        println!("pattern tables {rule:?}: {:.1} ms", ms(t.elapsed()));
    }
    let mut e = sente::engine::Engine::new();
    let t = Instant::now();
    e.set_memory_limit(367_001_600);
    e.new_game(15, 15, Rule::Freestyle).unwrap();
    println!(
        "search tables ({} MiB) allocated in {:.1} ms",
        e.allocated_tt_bytes() >> 20,
        ms(t.elapsed())
    );
    let t = Instant::now();
    while e.prefault(1 << 20) {}
    println!("faulted in in {:.1} ms", ms(t.elapsed()));
}
