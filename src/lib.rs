//! Sente: a Gomoku/Renju engine for the Piskvork/Gomocup protocol.
//!
//! Module map (one concept per file): `types` (vocabulary), `pattern` (line pattern
//! tables), `board` (incremental board), `rules` (wins and renju fouls), and the
//! engine layers built on them.

// Every `unsafe` block and impl says why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]
// Index loops over fixed per-cell / per-colour arrays read better than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod arbiter;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod firstmove;
pub mod learn;
mod mem;
pub mod movegen;
pub mod pattern;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod threat;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod types;
