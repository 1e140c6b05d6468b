//! Sente: a Gomoku/Renju engine for the Piskvork/Gomocup protocol.
//!
//! Module map (one concept per file), in layers, each using only those before it:
//! `types`, `mem`, `time` and `tunable` (vocabulary, table memory, time budgets, the
//! parameter lists); `pattern` (line pattern tables and what makes a five); `board`
//! (incremental board, with renju's forbidden points in `board::renju`); `eval`,
//! `movegen` and `fallback` (the one-ply emergency move chooser); `tt`; `threat` (the
//! VCF and VCT solvers); `search`; `engine` (the facade, with swap2); `protocol`. The
//! tools (`bench`, `selfplay`, `arbiter`, `firstmove`, `learn`) sit on top.
//! `tests/layers.rs` checks the order and that no modules, nor files of one folder,
//! import each other in a cycle.

// Every `unsafe` block and impl says why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]
// Index loops over fixed per-cell / per-colour arrays read better than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod arbiter;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod fallback;
pub mod firstmove;
pub mod learn;
mod mem;
pub mod movegen;
pub mod order;
pub mod pattern;
pub mod protocol;
pub mod search;
pub mod selfplay;
pub mod threat;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod types;
