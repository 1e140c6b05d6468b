//! Optional protocol log for debugging tournament games.
//!
//! Set the environment variable `SENTE_LOG=<path>`: every received line (`>`) and every
//! reply (`<`) is appended to that file with a UNIX timestamp in milliseconds. Without the
//! variable nothing is written anywhere. Log failures are ignored (the game matters more).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

static LOG: OnceLock<Option<Mutex<File>>> = OnceLock::new();

fn log_file() -> Option<&'static Mutex<File>> {
    LOG.get_or_init(|| {
        let path = std::env::var_os("SENTE_LOG")?;
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
            .map(Mutex::new)
    })
    .as_ref()
}

/// Append one line to the log, if logging is enabled. `dir` is `'>'` for input,
/// `'<'` for output and `'#'` for notes.
pub fn record(dir: char, text: &str) {
    if let Some(m) = log_file() {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        if let Ok(mut f) = m.lock() {
            let _ = writeln!(f, "{ms} {dir} {text}");
        }
    }
    if dir == '#' {
        log::debug!("{text}");
    } else {
        log::trace!("{dir} {text}");
    }
}
