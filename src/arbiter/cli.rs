//! Command line of `sente-arbiter`.

use super::engine_proc::split_command;
use super::game::{EngineSpec, GameConfig};
use super::openings::{random_openings, read_openings};
use super::runner::{run_match, summary_text, MatchConfig, SprtModel};
use super::stats::Sprt;
use crate::types::Rule;
use anyhow::{bail, Context, Result};
use std::io::Write;

/// Usage text printed by `--help`.
pub const USAGE: &str = "\
sente-arbiter: referee a match between two pbrain (Piskvork/Gomocup protocol) engines

usage: sente-arbiter --engine1 CMD --engine2 CMD [options]

engines:
  --engine1 CMD, --engine2 CMD   command with arguments (quotes and \\ escapes work)
  --name1 NAME, --name2 NAME     display names (default: program name without pbrain-)
  --info1 KEY=VALUE, --info2 ... extra `INFO KEY VALUE` for one engine (repeatable)
game:
  --rule R           0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro exact (or a name); default 0
  --size N           board side, 5..32; default 15
  --turn-ms MS       per-move limit (0 = none); default 5000
  --match-ms MS      per-game limit per engine (0 = none); default 0
  --tolerance-ms MS  grace before a reply counts as late; default 1000
  --start-ms MS      time to start and answer START (not on the clock); default 3000
  --max-memory B     peak memory limit in bytes (0 = none); default 0
  --draw-after N     draw when N stones are on the board (0 = only a full board); default 0
match:
  --openings FILE    one opening per line: Gomocup offsets `dx,dy, dx,dy, ...`, a
                     tab-separated table with an `x,y x,y ...` column, or `d3e5f6`
  --games N          number of games (default: 2 per opening, or 10 with random openings)
  --rounds N         same as --games 2N
  --concurrency N    games in parallel (one process per engine per game); default 1
  --out-dir DIR      write game_NNNN.psq, game_NNNN.sgf and games.tsv into DIR
  --sprt E0,E1,A,B   stop when the SPRT of elo E0 against E1 (alpha A, beta B) decides
  --sprt-model M     penta (game pairs, default) or tri (single games)
  --seed N           seed of the random openings used without --openings; default 1
";

/// Parse the command line (without the program name) into a match.
pub fn parse_args(args: &[String]) -> Result<MatchConfig> {
    let mut cmd: [Option<String>; 2] = [None, None];
    let mut names: [Option<String>; 2] = [None, None];
    let mut infos: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    let mut game = GameConfig::default();
    let mut openings_file: Option<String> = None;
    let mut games: Option<usize> = None;
    let mut concurrency = 1usize;
    let mut out_dir = None;
    let mut sprt = None;
    let mut sprt_model = SprtModel::Pentanomial;
    let mut seed = 1u64;

    let mut it = args.iter();
    while let Some(opt) = it.next() {
        let mut value =
            || -> Result<&String> { it.next().with_context(|| format!("{opt} needs a value")) };
        fn num<T: std::str::FromStr>(opt: &str, v: &str) -> Result<T> {
            v.trim()
                .parse::<T>()
                .map_err(|_| anyhow::anyhow!("{opt}: bad number {v:?}"))
        }
        match opt.as_str() {
            "--engine1" => cmd[0] = Some(value()?.clone()),
            "--engine2" => cmd[1] = Some(value()?.clone()),
            "--name1" => names[0] = Some(value()?.clone()),
            "--name2" => names[1] = Some(value()?.clone()),
            "--info1" | "--info2" => {
                let v = value()?;
                let (k, val) = v
                    .split_once('=')
                    .with_context(|| format!("{opt} expects KEY=VALUE, got {v:?}"))?;
                let idx = usize::from(opt == "--info2");
                infos[idx].push((k.trim().to_string(), val.trim().to_string()));
            }
            "--rule" => {
                let v = value()?;
                game.rule =
                    Rule::parse(v).with_context(|| format!("--rule: unknown rule {v:?}"))?;
            }
            "--size" => game.size = num(opt, value()?)?,
            "--turn-ms" => game.turn_ms = num(opt, value()?)?,
            "--match-ms" => game.match_ms = num(opt, value()?)?,
            "--tolerance-ms" => game.tolerance_ms = num(opt, value()?)?,
            "--start-ms" => game.start_ms = num(opt, value()?)?,
            "--max-memory" => game.max_memory = num(opt, value()?)?,
            "--draw-after" => game.draw_after = num(opt, value()?)?,
            "--openings" => openings_file = Some(value()?.clone()),
            "--games" => games = Some(num(opt, value()?)?),
            "--rounds" => games = Some(2 * num::<usize>(opt, value()?)?),
            "--concurrency" => concurrency = num(opt, value()?)?,
            "--out-dir" | "--pgn" => out_dir = Some(value()?.into()),
            "--sprt" => sprt = Some(Sprt::parse(value()?)?),
            "--sprt-model" => {
                sprt_model = match value()?.as_str() {
                    "penta" | "pentanomial" => SprtModel::Pentanomial,
                    "tri" | "trinomial" => SprtModel::Trinomial,
                    other => bail!("--sprt-model: unknown model {other:?} (penta or tri)"),
                }
            }
            "--seed" => seed = num(opt, value()?)?,
            other => bail!("unknown option {other:?} (see --help)"),
        }
    }
    if !(5..=32).contains(&game.size) {
        bail!("--size must be 5..32");
    }
    if game.turn_ms == 0 && game.match_ms == 0 {
        bail!("--turn-ms and --match-ms are both 0: at least one time limit is needed");
    }
    if concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let mut argv = [Vec::new(), Vec::new()];
    for i in 0..2 {
        let c = cmd[i]
            .as_ref()
            .with_context(|| format!("--engine{} is required", i + 1))?;
        argv[i] = split_command(c)?;
    }
    let mut default_names = [default_name(&argv[0][0]), default_name(&argv[1][0])];
    if default_names[0] == default_names[1] {
        default_names[0] += "#1";
        default_names[1] += "#2";
    }
    let [n0, n1] = names;
    let [i0, i1] = infos;
    let [a0, a1] = argv;
    let [d0, d1] = default_names;
    let engines = [
        EngineSpec {
            name: n0.unwrap_or(d0),
            argv: a0,
            info: i0,
        },
        EngineSpec {
            name: n1.unwrap_or(d1),
            argv: a1,
            info: i1,
        },
    ];
    let openings = match &openings_file {
        Some(path) => {
            let book = read_openings(path, game.size)?;
            if book.openings.is_empty() {
                bail!("{path}: no opening for a {0}x{0} board", game.size);
            }
            book.openings
        }
        None => {
            let n = games.unwrap_or(10).div_ceil(2).max(1);
            random_openings(n, 3, game.size, 3, seed)
        }
    };
    let games = games.unwrap_or(2 * openings.len());
    Ok(MatchConfig {
        game,
        engines,
        openings,
        games,
        concurrency,
        out_dir,
        sprt,
        sprt_model,
    })
}

/// Program file name without directory, extension or `pbrain-` prefix.
fn default_name(prog: &str) -> String {
    let file = std::path::Path::new(prog)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| prog.to_string());
    file.strip_prefix("pbrain-")
        .map(str::to_string)
        .unwrap_or(file)
}

/// Entry point of the binary: returns the process exit code (0 done, 2 usage or setup
/// error, 1 failure during the match).
pub fn main_with_args(args: &[String]) -> i32 {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return if args.is_empty() { 2 } else { 0 };
    }
    let cfg = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sente-arbiter: {e:#}");
            return 2;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run_match(&cfg, &mut out) {
        Ok(summary) => {
            let _ = write!(out, "{}", summary_text(&cfg, &summary));
            let _ = out.flush();
            0
        }
        Err(e) => {
            eprintln!("sente-arbiter: {e:#}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn options_reach_the_match_config() {
        let c = parse_args(&args(&[
            "--engine1",
            "target/release/pbrain-sente",
            "--engine2",
            "\"my engine\" -x",
            "--info2",
            "max_depth=2",
            "--rule",
            "4",
            "--size",
            "15",
            "--turn-ms",
            "50",
            "--match-ms",
            "9000",
            "--tolerance-ms",
            "300",
            "--max-memory",
            "1000000",
            "--draw-after",
            "200",
            "--games",
            "7",
            "--concurrency",
            "2",
            "--sprt",
            "0,10,0.05,0.1",
            "--sprt-model",
            "tri",
            "--seed",
            "9",
        ]))
        .unwrap();
        assert_eq!(c.engines[0].name, "sente");
        assert_eq!(c.engines[1].argv, vec!["my engine", "-x"]);
        assert_eq!(
            c.engines[1].info,
            vec![("max_depth".to_string(), "2".to_string())]
        );
        assert_eq!(c.game.rule, Rule::Renju);
        assert_eq!(
            (c.game.turn_ms, c.game.match_ms, c.game.tolerance_ms),
            (50, 9000, 300)
        );
        assert_eq!((c.game.max_memory, c.game.draw_after), (1_000_000, 200));
        assert_eq!((c.games, c.concurrency), (7, 2));
        assert_eq!(c.openings.len(), 4); // random openings for ceil(7/2) pairs
        assert_eq!(c.sprt.unwrap().beta, 0.1);
        assert_eq!(c.sprt_model, SprtModel::Trinomial);
    }

    #[test]
    fn same_program_twice_gets_numbered_names() {
        let c = parse_args(&args(&[
            "--engine1",
            "a/pbrain-x",
            "--engine2",
            "b/pbrain-x",
        ]))
        .unwrap();
        assert_eq!(c.engines[0].name, "x#1");
        assert_eq!(c.engines[1].name, "x#2");
        assert_eq!(c.games, 10);
    }

    #[test]
    fn bad_command_lines_are_rejected() {
        assert!(parse_args(&args(&["--engine1", "a"])).is_err());
        assert!(parse_args(&args(&["--engine1", "a", "--engine2", "b", "--size", "40"])).is_err());
        assert!(parse_args(&args(&[
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--turn-ms",
            "0"
        ]))
        .is_err());
        assert!(parse_args(&args(&["--engine1", "a", "--engine2", "b", "--info1", "x"])).is_err());
        assert!(parse_args(&args(&["--engine1", "a", "--engine2", "b", "--bogus"])).is_err());
    }
}
