//! `sente-arbiter`: referees matches between two pbrain engines (see `docs/arbiter.md`).

// Every `unsafe` block and impl (there is none today) says why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(sente::arbiter::cli::main_with_args(&args));
}
