//! Reading stdin as bytes, one capped line at a time.
//!
//! `BufRead::read_line` would grow without bound on a line with no newline and fails on
//! bytes that are not UTF-8; here a line longer than [`MAX_LINE`] is skipped up to its
//! newline and reported as [`InputError::TooLong`], and bad bytes as
//! [`InputError::NotUtf8`], so every line gets an `ERROR` and memory stays bounded.

use std::io::{self, BufRead};

/// Longest accepted input line in bytes (a BOARD line is ~10; a folder path may be long).
pub const MAX_LINE: usize = 4096;

// A line that could not be turned into text; each case becomes an `ERROR` reply.
/// Why an input line was rejected before parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Longer than [`MAX_LINE`] bytes.
    TooLong,
    /// Contains bytes that are not UTF-8.
    NotUtf8,
}

impl InputError {
    /// The reason text of the `ERROR` reply.
    #[must_use]
    pub const fn reason(self) -> &'static str {
        match self {
            InputError::TooLong => "line too long",
            InputError::NotUtf8 => "line is not valid UTF-8",
        }
    }
}

/// Read the next line (without the line end; a trailing CR is stripped).
/// `Ok(None)` at end of input. A last line without a newline is returned as a line.
pub fn read_line<R: BufRead>(
    r: &mut R,
    cap: usize,
) -> io::Result<Option<Result<String, InputError>>> {
    let mut buf: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut saw_any = false;
    loop {
        let (consumed, done) = {
            let chunk = match r.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            if !too_long {
                if buf.len() + part.len() > cap {
                    too_long = true;
                    buf.clear();
                } else {
                    buf.extend_from_slice(part);
                }
            }
            match done {
                Some(n) => (n, true),
                None => (chunk.len(), false),
            }
        };
        r.consume(consumed);
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(InputError::TooLong)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(
        String::from_utf8(buf).map_err(|_| InputError::NotUtf8),
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Result<String, InputError>> {
        let mut r = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r, cap).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn crlf_and_lf_lines_read_the_same() {
        assert_eq!(
            lines(b"START 15\r\nBEGIN\nEND", 100),
            vec![Ok("START 15".into()), Ok("BEGIN".into()), Ok("END".into())]
        );
    }

    #[test]
    fn overlong_line_is_rejected_and_the_next_line_survives() {
        let mut input = vec![b'x'; 1000];
        input.extend_from_slice(b"\nABOUT\n");
        assert_eq!(
            lines(&input, 100),
            vec![Err(InputError::TooLong), Ok("ABOUT".into())]
        );
    }

    #[test]
    fn invalid_utf8_is_rejected_and_the_next_line_survives() {
        assert_eq!(
            lines(b"TURN \xff\xfe,1\nABOUT\n", 100),
            vec![Err(InputError::NotUtf8), Ok("ABOUT".into())]
        );
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(lines(b"", 100).is_empty());
        assert_eq!(lines(b"\n", 100), vec![Ok(String::new())]);
    }
}
