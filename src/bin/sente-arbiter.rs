//! `sente-arbiter`: referees matches between two pbrain engines (see README).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(sente::arbiter::cli::main_with_args(&args));
}
