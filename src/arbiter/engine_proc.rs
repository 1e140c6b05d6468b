//! One engine process: spawn, line I/O with deadlines, memory readings, and teardown.
//!
//! stdout is read by a thread that forwards each line into a channel, so every read has a
//! deadline (`recv_timeout`) and a silent or hung engine can never block the arbiter. The
//! engine runs in its own process group; teardown sends `END`, waits briefly, then kills the
//! whole group. Engine stderr is discarded.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest line kept from an engine; longer output is cut into pieces of this size.
const MAX_LINE: usize = 64 * 1024;
/// How long a process gets to exit by itself after `END` before it is killed (GomocupJudge
/// uses 500 ms).
const END_GRACE: Duration = Duration::from_millis(500);

/// Split a command line into words: whitespace separates, `'…'` and `"…"` quote, and `\`
/// escapes the next character (outside single quotes).
pub fn split_command(cmd: &str) -> anyhow::Result<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => anyhow::bail!("unterminated ' in command: {cmd}"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch) => cur.push(ch),
                            None => anyhow::bail!("trailing \\ in command: {cmd}"),
                        },
                        Some(ch) => cur.push(ch),
                        None => anyhow::bail!("unterminated \" in command: {cmd}"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(ch) => cur.push(ch),
                    None => anyhow::bail!("trailing \\ in command: {cmd}"),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        anyhow::bail!("empty engine command");
    }
    Ok(words)
}

/// What a read from the engine produced.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing arrived before the deadline.
    Timeout,
    /// stdout was closed: the process exited or crashed.
    Closed,
}

// A running engine with a deadline-aware line reader. Exists so that the game loop can talk
// to any engine without ever blocking, and so that teardown (END, kill) happens exactly once,
// also on early returns (Drop).
/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    closed: bool,
}

impl EngineProcess {
    /// Start `argv` with piped stdin/stdout in a new process group.
    pub fn spawn(argv: &[String]) -> std::io::Result<EngineProcess> {
        let (prog, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty"))?;
        let mut cmd = Command::new(prog);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let n = (&mut reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut buf)
                    .unwrap_or_default();
                if n == 0 {
                    break; // EOF: dropping tx tells the receiver
                }
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            closed: false,
        })
    }

    /// Process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Send one line (a newline is appended) and flush. Fails when the process is gone.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// Next line from stdout, waiting until `deadline` at most.
    pub fn recv_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        if self.closed {
            return Err(ReadError::Closed);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(ReadError::Closed)
            }
        }
    }

    /// Exit status, waiting up to `wait` for the process to finish.
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Peak resident memory (VmHWM) of the process and its descendants, in bytes; `None`
    /// when it cannot be read (not Linux, or the process is gone).
    #[must_use]
    pub fn peak_memory(&self) -> Option<u64> {
        tree_peak_memory(self.pid())
    }

    /// Polite shutdown: `END`, a short grace period, then kill the process group.
    pub fn shutdown(mut self) {
        self.terminate();
    }

    fn terminate(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"END\n");
            let _ = stdin.flush();
            // dropping stdin closes the pipe: EOF also asks the engine to exit
        }
        let exited = self.wait_exit(END_GRACE).is_some();
        kill_group(self.child.id());
        if !exited {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() || self.stdin.is_some() {
            self.terminate();
        }
    }
}

/// SIGKILL the process group `pgid` (the engine and anything it started), if any is left.
fn kill_group(pgid: u32) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pgid}")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    #[cfg(not(unix))]
    let _ = pgid;
}

/// `VmHWM` (peak resident set) of one process from /proc, in bytes.
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Child pids of `pid` (all threads), from /proc/<pid>/task/*/children.
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(s.split_whitespace().filter_map(|w| w.parse::<u32>().ok()));
            }
        }
    }
    out
}

/// Sum of VmHWM over `pid` and its descendants (an upper bound of the tree's peak).
fn tree_peak_memory(pid: u32) -> Option<u64> {
    let mut total = vm_hwm(pid)?;
    let mut stack = children(pid);
    let mut seen = 0;
    while let Some(p) = stack.pop() {
        seen += 1;
        if seen > 1000 {
            break;
        }
        total += vm_hwm(p).unwrap_or(0);
        stack.extend(children(p));
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words_honour_quotes_and_escapes() {
        assert_eq!(split_command("a b  c").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(
            split_command(r#"python3 "my engine.py" 'x y' a\ b"#).unwrap(),
            vec!["python3", "my engine.py", "x y", "a b"]
        );
        assert_eq!(split_command(r#""""#).unwrap(), vec![""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("'open").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn lines_arrive_and_silence_times_out() {
        let argv: Vec<String> = ["sh", "-c", "read a; echo \"got $a\"; sleep 5"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut p = EngineProcess::spawn(&argv).unwrap();
        p.send("hello").unwrap();
        let line = p
            .recv_line(Instant::now() + Duration::from_secs(20))
            .unwrap();
        assert_eq!(line, "got hello");
        let r = p.recv_line(Instant::now() + Duration::from_millis(50));
        assert_eq!(r, Err(ReadError::Timeout));
        p.shutdown(); // must not wait for the sleep
    }

    #[cfg(unix)]
    #[test]
    fn exit_closes_the_stream() {
        let argv: Vec<String> = ["sh", "-c", "echo bye; exit 3"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut p = EngineProcess::spawn(&argv).unwrap();
        let far = Instant::now() + Duration::from_secs(20);
        assert_eq!(p.recv_line(far).unwrap(), "bye");
        assert_eq!(p.recv_line(far), Err(ReadError::Closed));
        assert_eq!(
            p.wait_exit(Duration::from_secs(20)).and_then(|s| s.code()),
            Some(3)
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn peak_memory_of_a_live_process_is_read() {
        let argv: Vec<String> = ["sleep", "5"].iter().map(|s| s.to_string()).collect();
        let p = EngineProcess::spawn(&argv).unwrap();
        let m = p.peak_memory().unwrap();
        assert!(m > 0);
        p.shutdown();
    }
}
