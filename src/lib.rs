//! Sente: a Gomoku/Renju engine for the Piskvork/Gomocup protocol.
//!
//! Module map (one concept per file): `types` (vocabulary), `pattern` (line pattern
//! tables), `board` (incremental board), `rules` (wins and renju fouls), and the
//! engine layers built on them.

pub mod protocol;
pub mod time;
pub mod types;
pub mod engine;
