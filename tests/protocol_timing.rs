//! Protocol latency measurements (not assertions: the machine is shared and noisy).
//!
//! Run: `cargo test --release --test protocol_timing -- --ignored --nocapture`
//! Prints: spawn → START's OK, → set-up done (ABOUT answered after INFO max_memory),
//! → first move of BEGIN (Gomocup's start-up sequence with a 1000 ms turn), and the time
//! from sending STOP / END during a long search to the move / the process exit.

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

#[test]
#[ignore = "measurement, run by hand"]
fn measure_protocol_latency() {
    println!("spawn->OK  spawn->setup  spawn->move  (START 15, INFO max_memory 367001600, INFO timeout_turn 1000, BEGIN)");
    for _ in 0..5 {
        let t0 = Instant::now();
        let mut e = Engine::spawn();
        e.send("START 15\nINFO max_memory 367001600\nINFO timeout_turn 1000\nABOUT\nBEGIN\n");
        let (t_ok, ok) = e.reply();
        let (t_about, _) = e.reply();
        let (t_move, mv) = e.reply();
        println!(
            "{:8.1} {:12.1} {:12.1}   ({ok}, {mv})",
            ms(t_ok - t0),
            ms(t_about - t0),
            ms(t_move - t0)
        );
        e.send("END\n");
        e.child.wait().unwrap();
    }

    println!("spawn->move for a BOARD opening (Gomocup: START, INFOs, BOARD; timeout_turn 1000)");
    for _ in 0..5 {
        let t0 = Instant::now();
        let mut e = Engine::spawn();
        e.send("START 15\nINFO max_memory 367001600\nINFO timeout_turn 1000\nINFO timeout_match 180000\nINFO time_left 180000\n");
        e.send(POSITION);
        let (t_ok, _) = e.reply();
        let (t_move, mv) = e.reply();
        println!("{:8.1} {:12.1}   ({mv})", ms(t_ok - t0), ms(t_move - t0));
        e.send("END\n");
        e.child.wait().unwrap();
    }

    println!("STOP during a 60 s search: send->move (ms)");
    for _ in 0..5 {
        let mut e = Engine::spawn();
        e.send("START 15\nINFO timeout_turn 60000\nINFO timeout_match 0\n");
        e.reply();
        let t_board = e.send(POSITION);
        thread::sleep(Duration::from_millis(500));
        let early = e
            .lines
            .try_iter()
            .find(|(_, l)| !l.as_deref().is_some_and(|l| l.starts_with("MESSAGE")));
        if let Some((t, l)) = early {
            println!(
                "   search ended by itself after {:.1} ms ({l:?})",
                ms(t - t_board)
            );
            e.send("END\n");
            e.child.wait().unwrap();
            continue;
        }
        let t_stop = e.send("YXSTOP\n");
        let (t_move, mv) = e.reply();
        println!("{:8.1}   ({mv})", ms(t_move - t_stop));
        e.send("END\n");
        e.child.wait().unwrap();
    }

    println!("END during a 60 s search: send->exit (ms)");
    for _ in 0..5 {
        let mut e = Engine::spawn();
        e.send("START 15\nINFO timeout_turn 60000\nINFO timeout_match 0\n");
        e.reply();
        e.send(POSITION);
        thread::sleep(Duration::from_millis(500));
        let t_end = e.send("END\n");
        let status = e.child.wait().unwrap();
        let searching = e
            .lines
            .try_iter()
            .all(|(_, l)| l.is_none_or(|l| l.starts_with("MESSAGE")));
        println!(
            "{:8.1}   (exit {status}, {})",
            ms(t_end.elapsed()),
            if searching {
                "was searching"
            } else {
                "search had already ended"
            }
        );
    }
}
