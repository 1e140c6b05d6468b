//! `pbrain-sente bench-firstmove`: the first move of fresh engine processes against
//! their second move.
//!
//! Every manager starts a new process per game, and the first request usually carries
//! the opening, so the first search runs on freshly allocated tables. This benchmark
//! starts `runs` processes per rule, sends what a manager sends (`START`, the time and
//! memory `INFO`s, a five-stone `BOARD`), answers with one `TURN`, and reads each
//! move's last `MESSAGE` line (depth and node rate). It prints, per rule, the first and
//! second moves' medians and the worst ratio of a first move's node rate to its own
//! process's second move.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The opening every process gets (Sente, with two stones against three, is white).
const OPENING: [(u32, u32, u32); 5] = [(5, 1, 2), (4, 1, 1), (4, 2, 2), (6, 3, 1), (7, 4, 2)];

/// Depth and node rate of one move, from its last `MESSAGE depth …` line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveStat {
    /// Nominal depth of the last completed iteration.
    pub depth: u32,
    /// Nodes per millisecond the engine reported.
    pub nps: u64,
    /// Milliseconds from sending the request to reading the move.
    pub ms: u64,
}

/// Parse `MESSAGE depth D-S ev E n N n/ms R tm T …` into (depth, n/ms).
#[must_use]
pub fn parse_message(line: &str) -> Option<(u32, u64)> {
    let mut it = line.split_whitespace();
    if it.next()? != "MESSAGE" || it.next()? != "depth" {
        return None;
    }
    let depth = it.next()?.split('-').next()?.parse().ok()?;
    let mut nps = None;
    while let Some(w) = it.next() {
        if w == "n/ms" {
            nps = it.next()?.parse().ok();
        }
    }
    Some((depth, nps?))
}

/// Read lines until a move (`x,y`), keeping the last `MESSAGE depth` figures.
fn read_move(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    sent: Instant,
) -> Result<(String, MoveStat), String> {
    let mut stat = MoveStat::default();
    for line in lines {
        let line = line.map_err(|e| e.to_string())?;
        let line = line.trim();
        if let Some((d, n)) = parse_message(line) {
            stat.depth = d;
            stat.nps = n;
        } else if line.contains(',') && !line.starts_with("MESSAGE") {
            stat.ms = sent.elapsed().as_millis() as u64;
            return Ok((line.to_string(), stat));
        } else if line.starts_with("ERROR") || line.starts_with("UNKNOWN") {
            return Err(line.to_string());
        }
    }
    Err("engine closed its output".into())
}

/// One fresh process: its first and second move.
fn one_process(exe: &str, rule: u32, size: u32, turn_ms: u32) -> Result<[MoveStat; 2], String> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{exe}: {e}"))?;
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let out = child.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(out).lines();
    let mut req = format!(
        "START {size}\nINFO rule {rule}\nINFO timeout_turn {turn_ms}\nINFO timeout_match 30000\n\
         INFO max_memory 367001600\nINFO time_left 30000\nBOARD\n"
    );
    for (x, y, f) in OPENING {
        req += &format!("{x},{y},{f}\n");
    }
    req += "DONE\n";
    let sent = Instant::now();
    input.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    input.flush().map_err(|e| e.to_string())?;
    let (first_move, first) = read_move(&mut lines, sent)?;
    // The opponent's reply: the first free square of a few far from the opening.
    let reply = ["9,9", "10,10", "11,9", "9,11"]
        .into_iter()
        .find(|m| *m != first_move)
        .unwrap_or("12,12");
    // Like a manager, the next request comes a while after the move.
    std::thread::sleep(Duration::from_millis(u64::from(turn_ms)));
    let sent = Instant::now();
    writeln!(input, "INFO time_left 29000\nTURN {reply}").map_err(|e| e.to_string())?;
    input.flush().map_err(|e| e.to_string())?;
    let (_, second) = read_move(&mut lines, sent)?;
    let _ = writeln!(input, "END");
    drop(input);
    let _ = child.wait();
    Ok([first, second])
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// Run the benchmark with the engine `exe`: `runs` processes for each of freestyle,
/// standard and renju on 15×15 and freestyle on 20×20, `turn_ms` per move. Returns the
/// report lines (one per process, then one summary per rule).
#[must_use]
pub fn firstmove_bench(exe: &str, runs: usize, turn_ms: u32) -> Vec<String> {
    let mut out = Vec::new();
    for (name, rule, size) in [
        ("freestyle15", 0, 15),
        ("standard15", 1, 15),
        ("renju15", 4, 15),
        ("freestyle20", 0, 20),
    ] {
        let mut stats = Vec::new();
        for run in 0..runs {
            match one_process(exe, rule, size, turn_ms) {
                Ok([a, b]) => {
                    out.push(format!(
                        "{name} run {run}: first depth {} n/ms {} ({} ms), second depth {} n/ms {} ({} ms)",
                        a.depth, a.nps, a.ms, b.depth, b.nps, b.ms
                    ));
                    stats.push((a, b));
                }
                Err(e) => out.push(format!("{name} run {run}: failed: {e}")),
            }
        }
        if stats.is_empty() {
            continue;
        }
        let worst = stats
            .iter()
            .map(|(a, b)| a.nps as f64 / b.nps.max(1) as f64)
            .fold(f64::INFINITY, f64::min);
        let slow = stats.iter().filter(|(a, b)| 2 * a.nps < b.nps).count();
        out.push(format!(
            "{name}: {} processes; first move median depth {} n/ms {}, second move median depth {} n/ms {}; \
             worst first/second n/ms ratio {worst:.2}; first moves below half the second's rate: {slow}",
            stats.len(),
            median(stats.iter().map(|s| u64::from(s.0.depth)).collect()),
            median(stats.iter().map(|s| s.0.nps).collect()),
            median(stats.iter().map(|s| u64::from(s.1.depth)).collect()),
            median(stats.iter().map(|s| s.1.nps).collect()),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_lines_give_depth_and_node_rate() {
        assert_eq!(
            parse_message("MESSAGE depth 13-17 ev -125 n 174852 n/ms 675 tm 259 pv 6,4 6,2"),
            Some((13, 675))
        );
        assert_eq!(parse_message("MESSAGE hello"), None);
        assert_eq!(parse_message("6,4"), None);
    }
}
