//! `pbrain-sente datagen`: self-play games at a fixed node budget, written as training
//! data for the learned evaluation (see [`crate::learn::train`]).
//!
//! Each game starts from a random opening (a first stone near the centre, then a few
//! random moves next to the stones), then Sente searches every move at the node budget.
//! A game ends with a five, a renju foul, a full board, or as soon as a search proves a
//! win or a loss (the result is then known; that position and its move are the last
//! ones recorded). Game `i` depends only on the seed and `i`,
//! so a run is reproducible whatever the thread count.
//!
//! # File format (little-endian)
//!
//! A file is the 8-byte header `SNTDATA1` followed by game records:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | rule ([`Rule::idx`]: 0 freestyle, 1 standard, 2 renju, 3 caro8, 4 caro9) |
//! | 1, 1 | board width, height |
//! | 1 | plies of the opening (random moves, no value) |
//! | 2 | plies in all (`n`) |
//! | 1 | result: 1 black won, 2 white won, 0 draw |
//! | 1 | 0: the values below are search values; 1: there are none (imported games, whose values are written as 0) |
//! | 2 × `n` | moves, `y * 32 + x` |
//! | 2 × (`n` − opening) | the search value of each searched move, before it, from the side to move's view (i16; mate values as the search reports them) |
//!
//! About 4 bytes per position.

use crate::board::{Board, MoveOutcome};
use crate::search::params::SearchParams;
use crate::search::Searcher;
use crate::time::SearchLimits;
use crate::types::{Pos, Rule, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// The header of a data file.
pub const MAGIC: &[u8; 8] = b"SNTDATA1";

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Rule.
    pub rule: Rule,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Plies of the random opening.
    pub opening: usize,
    /// Every move, black first.
    pub moves: Vec<Pos>,
    /// 1 black won, -1 white won, 0 draw.
    pub result: i8,
    /// Search value (side to move's view) before each move after the opening (zeros
    /// when `has_values` is false).
    pub values: Vec<i16>,
    /// Whether `values` holds search values (false for imported game records).
    pub has_values: bool,
}

impl Game {
    /// Append the record to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.push(self.rule.idx() as u8);
        out.push(self.width as u8);
        out.push(self.height as u8);
        out.push(self.opening as u8);
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        out.push(match self.result {
            1 => 1,
            -1 => 2,
            _ => 0,
        });
        out.push(u8::from(!self.has_values));
        for m in &self.moves {
            out.extend_from_slice(&((m.y() * 32 + m.x()) as u16).to_le_bytes());
        }
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// Read one record from the front of `data`; returns it and the bytes used.
    ///
    /// # Errors
    /// A message when the record is truncated or its fields are out of range.
    pub fn read(data: &[u8]) -> Result<(Game, usize), String> {
        if data.len() < 8 {
            return Err("truncated game header".into());
        }
        let rule = *Rule::ALL
            .get(usize::from(data[0]))
            .ok_or_else(|| format!("bad rule {}", data[0]))?;
        let (width, height, opening) = (
            usize::from(data[1]),
            usize::from(data[2]),
            usize::from(data[3]),
        );
        let n = usize::from(u16::from_le_bytes([data[4], data[5]]));
        let result = match data[6] {
            0 => 0,
            1 => 1,
            2 => -1,
            r => return Err(format!("bad result {r}")),
        };
        if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&width)
            || !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&height)
            || opening > n
            || n > width * height
        {
            return Err(format!("bad game header {:?}", &data[..8]));
        }
        let len = 8 + 2 * n + 2 * (n - opening);
        if data.len() < len {
            return Err("truncated game".into());
        }
        let word = |i: usize| u16::from_le_bytes([data[8 + 2 * i], data[9 + 2 * i]]);
        let mut moves = Vec::with_capacity(n);
        for i in 0..n {
            let w = usize::from(word(i));
            let (x, y) = (w % 32, w / 32);
            if x >= width || y >= height {
                return Err(format!("move {x},{y} off the board"));
            }
            moves.push(Pos::new(x, y));
        }
        let values = (n..2 * n - opening).map(|i| word(i) as i16).collect();
        Ok((
            Game {
                rule,
                width,
                height,
                opening,
                moves,
                result,
                values,
                has_values: data[7] == 0,
            },
            len,
        ))
    }
}

/// Read every game of a data file.
///
/// # Errors
/// The file cannot be read, has no header, or holds a bad record.
pub fn read_file(path: &str) -> Result<Vec<Game>, String> {
    let mut data = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut data))
        .map_err(|e| format!("{path}: {e}"))?;
    parse_games(&data).map_err(|e| format!("{path}: {e}"))
}

/// The games of a data file's bytes (header included).
///
/// # Errors
/// A message when the header is wrong or a record is malformed.
pub fn parse_games(data: &[u8]) -> Result<Vec<Game>, String> {
    if data.len() < 8 || &data[..8] != MAGIC {
        return Err("not a Sente data file".into());
    }
    let mut games = Vec::new();
    let mut at = 8;
    while at < data.len() {
        let (g, used) = Game::read(&data[at..])?;
        games.push(g);
        at += used;
    }
    Ok(games)
}

/// The games of every file of a comma-separated list, in order.
///
/// # Errors
/// The first file that cannot be read, with its name.
pub fn read_files(list: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for f in list.split(',').filter(|f| !f.is_empty()) {
        games.extend(read_file(f)?);
    }
    Ok(games)
}

/// Settings of a datagen run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Games to play.
    pub games: usize,
    /// Node budget per move.
    pub nodes: u64,
    /// Seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Search parameters.
    pub params: SearchParams,
    /// Most random plies of the opening (at least 1 more than the first stone).
    pub random_plies: usize,
    /// Percentage of games whose opening may lie anywhere on the board (the first stone
    /// on any cell, edges and corners included), as tournament openings often do; the
    /// others start within 2 of the centre.
    pub anywhere: u32,
}

/// A random opening for game `index`: a first stone within 2 of the centre, then
/// random empty cells within 2 of a stone (and within 5 of the centre), none of which
/// leaves a five or straight-four point on the board. With `anywhere` the first stone
/// may stand on any cell of the board, and the others within 5 of it.
fn opening(board: &mut Board, rng: &mut StdRng, plies: usize, anywhere: bool) {
    // The first stone and the centre the others keep within 5 of.
    let (w, h) = (board.width() as i64, board.height() as i64);
    let ((fx, fy), (cx, cy)) = if anywhere {
        let p = (rng.gen_range(0..w), rng.gen_range(0..h));
        (p, p)
    } else {
        let c = (w / 2, h / 2);
        (
            (c.0 + rng.gen_range(-2..=2), c.1 + rng.gen_range(-2..=2)),
            c,
        )
    };
    let first = board.pos(fx, fy).expect("on the board");
    board.make(first);
    let mut cands = Vec::new();
    let mut tries = 0;
    while board.move_count() < plies && tries < 1000 {
        tries += 1;
        cands.clear();
        for p in board.all_squares() {
            let near_centre = (p.x() as i64 - cx).abs() <= 5 && (p.y() as i64 - cy).abs() <= 5;
            let near_stone = board.history().iter().any(|q| {
                (q.x() as i64 - p.x() as i64).abs() <= 2 && (q.y() as i64 - p.y() as i64).abs() <= 2
            });
            if board.is_empty(p) && near_centre && near_stone {
                cands.push(p);
            }
        }
        if cands.is_empty() {
            break;
        }
        let p = cands[rng.gen_range(0..cands.len())];
        if !board.is_legal(p) {
            continue;
        }
        board.make(p);
        let quiet = [crate::types::Color::Black, crate::types::Color::White]
            .iter()
            .all(|&c| {
                board.count(c, crate::pattern::Pattern4::Five) == 0
                    && board.count(c, crate::pattern::Pattern4::Flex4) == 0
            });
        if !quiet {
            board.unmake();
        }
    }
}

/// Play game `index` of the run.
#[must_use]
pub fn play_game(cfg: &DatagenConfig, index: usize, searcher: &mut Searcher) -> Game {
    let mut rng =
        StdRng::seed_from_u64(cfg.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut board = Board::new(cfg.size, cfg.size, cfg.rule).expect("board size");
    let plies = rng.gen_range(2..=cfg.random_plies.max(2));
    let anywhere = cfg.anywhere > 0 && rng.gen_range(0..100) < cfg.anywhere;
    opening(&mut board, &mut rng, plies, anywhere);
    let opening_len = board.move_count();
    searcher.clear();
    let mut values = Vec::new();
    let mut result = 0i8;
    loop {
        let mut limits = SearchLimits::fixed(Duration::from_secs(3600), Instant::now());
        limits.max_nodes = Some(cfg.nodes);
        let r = searcher.go(&mut board, &limits, None, &mut |_| {});
        let me = board.side_to_move();
        let sign: i8 = if me == crate::types::Color::Black {
            1
        } else {
            -1
        };
        values.push(r.value.clamp(-32_000, 32_000) as i16);
        let mv = if r.best.is_some() && board.is_legal(r.best) {
            r.best
        } else {
            crate::fallback::fallback_move(&mut board)
        };
        if crate::types::is_mate(r.value) && r.depth > 0 {
            // Proven: the winner is known; the rest would be the forced line. The
            // position is kept (with its mate value) and its move recorded.
            result = if r.value > 0 { sign } else { -sign };
            board.make(mv);
            break;
        }
        match board.play(mv) {
            Ok(MoveOutcome::Continue) => {}
            Ok(MoveOutcome::Win) => {
                result = sign;
                break;
            }
            Ok(MoveOutcome::Foul) | Err(_) => {
                result = -sign;
                board.undo();
                values.pop();
                break;
            }
            Ok(MoveOutcome::Draw) => break,
        }
    }
    let moves = board.history().to_vec();
    values.truncate(moves.len() - opening_len);
    Game {
        rule: cfg.rule,
        width: cfg.size,
        height: cfg.size,
        opening: opening_len,
        moves,
        result,
        values,
        has_values: true,
    }
}

/// A game record in Piskvork's `.psq` format (header `Piskvorky WxH, …`, then one move
/// per line as 1-based `x,y,ms`) as a [`Game`] under `rule` whose first `opening` moves
/// were the opening; the result is read off the board (a five or a renju foul ends it;
/// anything else is a draw). `None` when the record is not a legal game.
#[must_use]
pub fn game_from_psq(text: &str, rule: Rule, opening: usize) -> Option<Game> {
    let mut lines = text.lines();
    let head = lines.next()?;
    let dims = head.strip_prefix("Piskvorky ")?.split(',').next()?;
    let (w, h) = dims.split_once('x')?;
    let (width, height) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    let mut board = Board::new(width, height, rule).ok()?;
    let mut result = 0i8;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 3 {
            continue;
        }
        let (x, y): (i64, i64) = (f[0].trim().parse().ok()?, f[1].trim().parse().ok()?);
        let p = board.pos(x - 1, y - 1)?;
        let sign: i8 = if board.side_to_move() == crate::types::Color::Black {
            1
        } else {
            -1
        };
        match board.play(p).ok()? {
            MoveOutcome::Continue => {}
            MoveOutcome::Win => result = sign,
            MoveOutcome::Foul => result = -sign,
            MoveOutcome::Draw => {}
        }
        if board.outcome().is_some() {
            break;
        }
    }
    let moves = board.history().to_vec();
    if moves.len() <= opening {
        return None;
    }
    Some(Game {
        rule,
        width,
        height,
        opening,
        values: vec![0; moves.len() - opening],
        moves,
        result,
        has_values: false,
    })
}

/// `datagen-import --rule R --opening N --out FILE FILE.psq…`: game records (for example
/// a `sente-arbiter --out-dir` folder's `game_*.psq`) as a data file without search values.
/// Returns the exit code.
pub fn import_cli(args: &[String]) -> i32 {
    let (mut rule, mut opening, mut out) = (Rule::Freestyle, 3usize, None);
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--rule" => match args.get(i + 1).and_then(|r| Rule::parse(r)) {
                Some(r) => rule = r,
                None => {
                    eprintln!("datagen-import: bad --rule");
                    return 2;
                }
            },
            "--opening" => match args.get(i + 1).and_then(|n| n.parse().ok()) {
                Some(n) => opening = n,
                None => {
                    eprintln!("datagen-import: bad --opening");
                    return 2;
                }
            },
            "--out" => out = args.get(i + 1).cloned(),
            f => {
                files.push(f.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let Some(out) = out else {
        eprintln!("datagen-import: --out FILE is required");
        return 2;
    };
    let mut buf = MAGIC.to_vec();
    let (mut n, mut skipped) = (0, 0);
    for f in &files {
        match std::fs::read_to_string(f)
            .ok()
            .and_then(|t| game_from_psq(&t, rule, opening))
        {
            Some(g) => {
                g.write(&mut buf);
                n += 1;
            }
            None => skipped += 1,
        }
    }
    if let Err(e) = std::fs::write(&out, &buf) {
        eprintln!("datagen-import: {out}: {e}");
        return 1;
    }
    eprintln!("datagen-import: {n} games to {out} ({skipped} files skipped)");
    0
}

/// Run the games on `cfg.threads` threads and write them, in game order, to `out`;
/// `progress` gets a line every few seconds. Returns (games, positions).
///
/// # Errors
/// Writing fails.
pub fn run(
    cfg: &DatagenConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&str),
) -> std::io::Result<(usize, usize)> {
    out.write_all(MAGIC)?;
    let threads = cfg.threads.max(1);
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Vec<u8>, usize)>();
    let mut written = (0usize, 0usize);
    std::thread::scope(|s| -> std::io::Result<()> {
        for t in 0..threads {
            let tx = tx.clone();
            s.spawn(move || {
                let mut searcher = Searcher::new(16 << 20, cfg.params.clone());
                let mut i = t;
                while i < cfg.games {
                    let g = play_game(cfg, i, &mut searcher);
                    let mut buf = Vec::new();
                    g.write(&mut buf);
                    if tx.send((i, buf, g.values.len())).is_err() {
                        return;
                    }
                    i += threads;
                }
            });
        }
        drop(tx);
        // Write in game order: hold back games that finish early.
        let mut pending = std::collections::BTreeMap::new();
        let mut next = 0;
        let mut last_report = Instant::now();
        for (i, buf, n) in rx {
            pending.insert(i, (buf, n));
            while let Some((buf, n)) = pending.remove(&next) {
                out.write_all(&buf)?;
                written.0 += 1;
                written.1 += n;
                next += 1;
            }
            if last_report.elapsed() >= Duration::from_secs(10) || next == cfg.games {
                last_report = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                progress(&format!(
                    "datagen {} {}x{}: {}/{} games, {} positions, {:.1} games/s",
                    cfg.rule.name(),
                    cfg.size,
                    cfg.size,
                    written.0,
                    cfg.games,
                    written.1,
                    written.0 as f64 / secs.max(1e-3)
                ));
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(written)
}

/// `datagen --rule R --size S --games N --nodes K --seed X --threads T --out FILE
/// [--plies P] [--anywhere PERCENT] [--params SPEC]`. Returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    let mut cfg = DatagenConfig {
        rule: Rule::Freestyle,
        size: 15,
        games: 100,
        nodes: 20_000,
        seed: 1,
        threads: 1,
        params: SearchParams::default(),
        random_plies: 6,
        anywhere: 0,
    };
    let mut path = None;
    let mut i = 0;
    while i < args.len() {
        let (k, v) = (
            args[i].as_str(),
            args.get(i + 1).cloned().unwrap_or_default(),
        );
        let num = |v: &str| v.parse::<u64>().map_err(|e| e.to_string());
        let r: Result<(), String> = match k {
            "--rule" => Rule::parse(&v)
                .map(|r| cfg.rule = r)
                .ok_or_else(|| "bad rule".into()),
            "--size" => num(&v).map(|n| cfg.size = n as usize),
            "--games" => num(&v).map(|n| cfg.games = n as usize),
            "--nodes" => num(&v).map(|n| cfg.nodes = n),
            "--seed" => num(&v).map(|n| cfg.seed = n),
            "--threads" => num(&v).map(|n| cfg.threads = n as usize),
            "--plies" => num(&v).map(|n| cfg.random_plies = n as usize),
            "--anywhere" => num(&v).and_then(|n| {
                (n <= 100)
                    .then(|| cfg.anywhere = n as u32)
                    .ok_or_else(|| "a percentage, 0 to 100".to_string())
            }),
            "--params" => cfg.params.apply(&v),
            "--out" => {
                path = Some(v);
                Ok(())
            }
            other => Err(format!("unknown option {other}")),
        };
        if let Err(e) = r {
            eprintln!("datagen: {k}: {e}");
            return 2;
        }
        i += 2;
    }
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&cfg.size) {
        eprintln!("datagen: bad size {}", cfg.size);
        return 2;
    }
    let Some(path) = path else {
        eprintln!("datagen: --out FILE is required");
        return 2;
    };
    let file = match std::fs::File::create(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("datagen: {path}: {e}");
            return 1;
        }
    };
    let mut w = std::io::BufWriter::new(file);
    match run(&cfg, &mut w, &mut |l| eprintln!("{l}")) {
        Ok((g, p)) => {
            eprintln!("datagen: wrote {g} games, {p} positions to {path}");
            0
        }
        Err(e) => {
            eprintln!("datagen: {path}: {e}");
            1
        }
    }
}

/// The value of a data file's search value, for tests and training.
#[must_use]
pub fn value_of(v: i16) -> Value {
    Value::from(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_psq_record_imports_with_its_result_and_no_values() {
        // Black (1-based) 1..5 on row 8 against white on row 1: black's fifth stone wins.
        let mut text = String::from("Piskvorky 15x15, 11:11, 0\n");
        for i in 1..=5 {
            text += &format!("{i},8,10\n");
            if i < 5 {
                text += &format!("{},1,10\n", 2 * i + 3);
            }
        }
        text += "a\nb\n0\n";
        let g = game_from_psq(&text, Rule::Freestyle, 3).unwrap();
        assert_eq!((g.moves.len(), g.result, g.opening), (9, 1, 3));
        assert_eq!(g.moves[0], Pos::new(0, 7));
        assert!(!g.has_values && g.values.len() == 6);
        let mut buf = Vec::new();
        g.write(&mut buf);
        let (back, used) = Game::read(&buf).unwrap();
        assert_eq!((back, used), (g, buf.len()));
        // Not a game: a stone twice.
        assert!(game_from_psq(
            "Piskvorky 15x15, 1:1, 0\n3,3,0\n3,3,0\n4,4,0\n5,5,0\n",
            Rule::Freestyle,
            1
        )
        .is_none());
    }

    #[test]
    fn openings_anywhere_reach_the_edges_and_centre_openings_do_not() {
        // Over many seeds, the stones of `anywhere` openings stand on edge rows or
        // columns, those of the default openings never within 2 of an edge (a 20 × 20
        // board: the centre openings keep within 5 of the centre).
        let edge_stones = |anywhere: bool| {
            let mut n = 0;
            for seed in 0..200u64 {
                let mut rng = StdRng::seed_from_u64(seed);
                let mut board = Board::new(20, 20, Rule::Freestyle).unwrap();
                opening(&mut board, &mut rng, 6, anywhere);
                assert!(board.move_count() >= 2, "an opening has stones");
                n += board
                    .history()
                    .iter()
                    .filter(|p| p.x().min(p.y()) <= 1 || p.x().max(p.y()) >= 18)
                    .count();
            }
            n
        };
        assert_eq!(edge_stones(false), 0);
        assert!(edge_stones(true) > 20, "{}", edge_stones(true));
    }

    #[test]
    fn a_datagen_run_is_reproducible_and_its_records_read_back() {
        let cfg = DatagenConfig {
            rule: Rule::Standard,
            size: 15,
            games: 3,
            nodes: 300,
            seed: 7,
            threads: 2,
            params: SearchParams::default(),
            random_plies: 6,
            anywhere: 0,
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        run(&cfg, &mut a, &mut |_| {}).unwrap();
        let one = DatagenConfig { threads: 1, ..cfg };
        run(&one, &mut b, &mut |_| {}).unwrap();
        assert_eq!(a, b, "same seed, other thread count: same bytes");
        let path = std::env::temp_dir().join(format!("sente-datagen-{}.bin", std::process::id()));
        std::fs::write(&path, &a).unwrap();
        let games = read_file(path.to_str().unwrap()).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(games.len(), 3);
        for g in &games {
            assert_eq!(g.values.len(), g.moves.len() - g.opening);
            assert!(g.opening >= 2 && g.moves.len() > g.opening);
            // The moves replay legally on a fresh board.
            let mut board = Board::new(15, 15, Rule::Standard).unwrap();
            let (last, rest) = g.moves.split_last().unwrap();
            for &m in rest {
                assert_eq!(board.play(m), Ok(MoveOutcome::Continue));
            }
            let end = board.play(*last).unwrap();
            assert!(end == MoveOutcome::Continue || (end == MoveOutcome::Win && g.result != 0));
        }
        // A truncated file is refused.
        let cut =
            std::env::temp_dir().join(format!("sente-datagen-cut-{}.bin", std::process::id()));
        std::fs::write(&cut, &a[..a.len() - 1]).unwrap();
        let r = read_file(cut.to_str().unwrap());
        let _ = std::fs::remove_file(&cut);
        assert!(r.is_err());
    }
}
