//! Formatting of reply lines (pure functions; the session writes and flushes them).

use std::fmt::Write as _;

use crate::types::{Pos, SearchInfo};

/// The `ABOUT` reply (one line).
#[must_use]
pub fn about() -> String {
    format!(
        "name=\"Sente\", version=\"{}\", author=\"Sente developers\", country=\"Internet\", www=\"https://github.com/sente-gomoku\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// A move reply `x,y`.
#[must_use]
pub fn mv(p: Pos) -> String {
    p.to_string()
}

/// Several moves on one line, space-separated (`x1,y1 x2,y2 x3,y3`, swap2 replies).
#[must_use]
pub fn moves(ps: &[Pos]) -> String {
    ps.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `YXSHOWFORBID` reply: `FORBID ` + `xxyy` (two zero-padded digits each) per point
/// + `.`.
#[must_use]
pub fn forbid(points: &[Pos]) -> String {
    let mut s = String::from("FORBID ");
    for p in points {
        let _ = write!(s, "{:02}{:02}", p.x(), p.y());
    }
    s.push('.');
    s
}

/// An `ERROR <reason>` reply.
#[must_use]
pub fn error(reason: &str) -> String {
    format!("ERROR {reason}")
}

/// A `MESSAGE <text>` line (control characters removed, so it stays one line).
#[must_use]
pub fn message(text: &str) -> String {
    let clean: String = text.chars().filter(|c| !c.is_control()).collect();
    format!("MESSAGE {clean}")
}

/// One search progress line in Rapfi's format:
/// `MESSAGE depth D-SD ev E n N n/ms S tm T pv x,y x,y …` (PV in protocol coordinates).
#[must_use]
pub fn search_info(info: &SearchInfo) -> String {
    let speed = info.nodes / info.time_ms.max(1);
    let mut s = format!(
        "MESSAGE depth {}-{} ev {} n {} n/ms {} tm {} pv",
        info.depth, info.seldepth, info.value, info.nodes, speed, info.time_ms
    );
    for p in &info.pv {
        let _ = write!(s, " {p}");
    }
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn forbid_reply_pads_each_coordinate_to_two_digits() {
        assert_eq!(forbid(&[]), "FORBID .");
        assert_eq!(
            forbid(&[Pos::new(7, 3), Pos::new(12, 10)]),
            "FORBID 07031210."
        );
    }

    #[test]
    fn search_info_uses_rapfi_field_order() {
        let info = SearchInfo {
            depth: 5,
            seldepth: 9,
            value: -31,
            nodes: 12_000,
            time_ms: 40,
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
        };
        assert_eq!(
            search_info(&info),
            "MESSAGE depth 5-9 ev -31 n 12000 n/ms 300 tm 40 pv 7,7 8,8"
        );
        let zero = SearchInfo::default();
        assert_eq!(
            search_info(&zero),
            "MESSAGE depth 0-0 ev 0 n 0 n/ms 0 tm 0 pv"
        );
    }

    #[test]
    fn about_is_one_line_with_the_crate_version() {
        let a = about();
        assert!(!a.contains('\n'));
        assert!(a.starts_with("name=\"Sente\", version=\""));
        assert!(a.contains(env!("CARGO_PKG_VERSION")));
    }

    #[test]
    fn swap2_moves_are_space_separated() {
        assert_eq!(moves(&[Pos::new(1, 2), Pos::new(3, 4)]), "1,2 3,4");
        assert_eq!(mv(Pos::new(0, 19)), "0,19");
    }

    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(message("a\nb\r"), "MESSAGE ab");
        assert_eq!(error("bad"), "ERROR bad");
    }
}
