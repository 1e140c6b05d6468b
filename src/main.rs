//! `pbrain-sente`: with no arguments, speaks the Piskvork/Gomocup protocol on
//! stdin/stdout. Subcommands are for developers (see `docs/development.md`).

// Every `unsafe` block and impl (there is none today) says why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]

/// The bench commands' search parameters: every argument from `first` on, joined (they
/// may come as one comma-separated argument or as several).
fn bench_params(args: &[String], first: usize) -> String {
    args.get(first..).unwrap_or_default().join(" ")
}

/// A bench command's optional number at `args[at]` (`default` without it) and its search
/// parameters after it: `bench 14 rfp=8`, `bench rfp=8` (the default depth) and `bench`
/// all read; anything else where the number belongs (`bench abc`) ends the program with
/// exit code 2, as a bad parameter key does not silently run the default.
fn bench_number_and_params<T: std::str::FromStr>(
    args: &[String],
    at: usize,
    default: T,
    what: &str,
) -> (T, String) {
    match args.get(at) {
        None => (default, String::new()),
        Some(a) if a.contains('=') => (default, bench_params(args, at)),
        Some(a) => (number_arg(args, a, what), bench_params(args, at + 1)),
    }
}

/// A developer command's numeric argument `a`; anything else ends the program with exit
/// code 2 rather than running with a default the user did not ask for.
fn number_arg<T: std::str::FromStr>(args: &[String], a: &str, what: &str) -> T {
    a.parse().unwrap_or_else(|_| {
        eprintln!("{}: bad {what} {a:?}", args[0]);
        std::process::exit(2);
    })
}

/// The optional number at `args[at]`, `default` without it, checked as `number_arg`.
fn optional_number<T: std::str::FromStr>(args: &[String], at: usize, default: T, what: &str) -> T {
    args.get(at).map_or(default, |a| number_arg(args, a, what))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => std::process::exit(sente::protocol::run()),
        Some("bench-board") => {
            let rule = args
                .get(1)
                .and_then(|r| sente::types::Rule::parse(r))
                .unwrap_or(sente::types::Rule::Freestyle);
            let shuffled = args.iter().any(|a| a == "shuffled");
            for line in sente::bench::board_bench(rule, shuffled) {
                println!("{line}");
            }
        }
        Some("bench") => {
            let (depth, spec) =
                bench_number_and_params(&args, 1, sente::bench::BENCH_DEPTH, "depth");
            for line in sente::bench::search_bench(depth, &spec) {
                println!("{line}");
            }
        }
        Some("bench-threads") => {
            // bench-threads [N] [depth] [params]; `bench-threads rfp=8` is 2 threads at
            // the default depth with that setting.
            let (threads, spec) = bench_number_and_params(&args, 1, 2, "thread count");
            let (depth, spec) = if args.get(1).is_some_and(|a| !a.contains('=')) {
                bench_number_and_params(&args, 2, sente::bench::BENCH_DEPTH, "depth")
            } else {
                (sente::bench::BENCH_DEPTH, spec)
            };
            for line in sente::bench::threads_bench(threads, depth, &spec) {
                println!("{line}");
            }
        }
        Some("train") => std::process::exit(sente::learn::train::cli(&args[1..])),
        Some("datagen-import") => std::process::exit(sente::learn::datagen::import_cli(&args[1..])),
        Some("train-mlp") => std::process::exit(sente::learn::mlp::cli(&args[1..])),
        Some("train-order") => std::process::exit(sente::learn::order::cli(&args[1..])),
        Some("label") => std::process::exit(sente::learn::label::cli(&args[1..])),
        Some("judge") => std::process::exit(sente::learn::judge::cli(&args[1..])),
        Some("siblings") => std::process::exit(sente::learn::siblings::cli(&args[1..])),
        Some("datagen") => std::process::exit(sente::learn::datagen::cli(&args[1..])),
        Some("params") => {
            // params [SPEC]: every search parameter key with its value (the defaults, or
            // after SPEC), as the table in docs/search-parameters.md.
            let mut p = sente::search::params::SearchParams::default();
            if let Err(e) = p.apply(args.get(1).map_or("", String::as_str)) {
                eprintln!("params: {e}");
                std::process::exit(2);
            }
            print!("{}", sente::search::params::markdown_table_of(&p));
        }
        Some("selfplay") => std::process::exit(sente::selfplay::cli(&args[1..])),
        Some("bench-depth") => {
            let (ms, spec) = bench_number_and_params(&args, 1, 1000, "time in ms");
            for line in sente::bench::depth_bench(ms, &spec) {
                println!("{line}");
            }
        }
        Some("bench-tables") => {
            for line in sente::bench::tables_bench() {
                println!("{line}");
            }
        }
        Some("bench-firstmove") => {
            // bench-firstmove [runs] [turn_ms] [engine]: fresh processes of `engine`
            // (default: this executable).
            let runs = optional_number(&args, 1, 10, "run count");
            let turn = optional_number(&args, 2, 500, "time in ms");
            let exe = args.get(3).cloned().unwrap_or_else(|| {
                std::env::current_exe()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|_| "pbrain-sente".into())
            });
            for line in sente::firstmove::firstmove_bench(&exe, runs, turn) {
                println!("{line}");
            }
        }
        Some("solve") => std::process::exit(sente::threat::cli::run(&args[1..])),
        Some("solve-bench") => std::process::exit(sente::threat::cli::bench(&args[1..])),
        Some(other) => {
            eprintln!("unknown subcommand: {other}");
            std::process::exit(2);
        }
    }
}
