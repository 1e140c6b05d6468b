//! `sente-arbiter`: referees matches between two pbrain engines (see README).

fn main() {}
