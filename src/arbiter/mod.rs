//! `sente-arbiter`: a referee and match runner for pbrain (Piskvork/Gomocup) engines.
//!
//! Layers: [`engine_proc`] (one process, line I/O with deadlines), [`game`] (one refereed
//! game, adjudicated with [`crate::board::Board`]), [`runner`] (a match of many games),
//! [`openings`] (opening files), [`record`] (results, `.psq` and SGF), [`stats`] (Elo, LOS,
//! SPRT) and [`cli`] (the command line).

pub mod cli;
pub mod engine_proc;
pub mod game;
pub mod openings;
pub mod record;
pub mod runner;
pub mod stats;
