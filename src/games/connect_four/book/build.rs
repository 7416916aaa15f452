//! `kibitz connect-four-book build`: every position of the book's ply,
//! solved and written in chunks. Resumable: a chunk whose file already
//! holds its positions is kept, so a run stopped at any point (or by
//! `--minutes`) goes on where it stopped. Deterministic: the positions, their
//! order and their cut into chunks depend only on the grid and the ply.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{Book, Chunk, CHUNK_POSITIONS};
use crate::games::connect_four::board::{Board, Dims, Geometry, Standard};
use crate::games::connect_four::search::{canonical_key, Search};
use crate::games::connect_four::table::Table;
use crate::games::connect_four::Shape;
use crate::solve::limits::SearchLimits;

/// The depth of the 7x6 book: every position of 7 stones (25,718 of them,
/// one of each mirror pair, about 2.5 hours of one core to build).
pub const DEFAULT_PLY: u32 = 7;

/// No limit a person would wait out: every position is solved to the end.
const UNBOUNDED: Duration = Duration::from_secs(30 * 24 * 3600);

#[derive(Debug, Clone, clap::Subcommand)]
pub enum BookCommand {
    /// Solve the book's positions not yet in its chunk files and write them,
    /// with the list the build compiles in.
    Build(BuildArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub struct BuildArgs {
    #[arg(long, default_value_t = 7)]
    pub cols: i64,
    #[arg(long, default_value_t = 6)]
    pub rows: i64,
    /// The book's depth: positions with this many stones.
    #[arg(long, default_value_t = DEFAULT_PLY)]
    pub ply: u32,
    /// The book's folder: chunk files go to its `data/`, their list to its
    /// `chunks.rs`.
    #[arg(long, default_value = "src/games/connect_four/book")]
    pub dir: PathBuf,
    /// Chunks solved at once, each by its own thread with its own table.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table entries per thread (16 bytes each).
    #[arg(long, default_value_t = 1 << 22)]
    pub table_entries: usize,
    /// Take no new chunk after this many minutes (chunks begun are
    /// finished).
    #[arg(long)]
    pub minutes: Option<u64>,
}

impl BookCommand {
    pub fn run(&self) -> Result<(), String> {
        match self {
            BookCommand::Build(args) => build(args),
        }
    }
}

/// A position to solve, by its book key.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    pub key: u64,
    pub current: u64,
    pub mask: u64,
}

/// Every position of `ply` stones that a game reaches (nobody has won) and
/// whose mover cannot win at once, one of each mirror pair, in key order.
pub fn positions<D: Dims>(geo: &Geometry<u64, D>, ply: u32) -> Vec<Position> {
    let board = |(current, mask): (u64, u64), moves: u32| Board {
        geo,
        current,
        mask,
        moves,
    };
    let mut level = vec![(0u64, 0u64)];
    for moves in 0..ply {
        let mut next = Vec::with_capacity(level.len() * geo.cols as usize);
        for &stones in &level {
            let parent = board(stones, moves);
            for col in 0..geo.cols {
                if parent.can_play(col) && !parent.wins_with(col) {
                    let mut child = parent;
                    child.play_column(col);
                    if !child.is_full() {
                        next.push((child.current, child.mask));
                    }
                }
            }
        }
        next.sort_unstable_by_key(|&(current, mask)| current + mask);
        next.dedup_by_key(|&mut (current, mask)| current + mask);
        level = next;
    }
    let mut found: Vec<Position> = level
        .into_iter()
        .map(|stones| board(stones, ply))
        .filter(|b| !b.can_win_next())
        .map(|b| Position {
            key: canonical_key(&b),
            current: b.current,
            mask: b.mask,
        })
        .collect();
    found.sort_unstable_by_key(|p| p.key);
    found.dedup_by_key(|p| p.key);
    found
}

/// The values of `positions` (of `ply` stones), searched with `table`.
/// `parents`: books of one stone fewer, whose values bound each position
/// from below (see [`Search::cap_from_parents`]).
pub fn solve_chunk<D: Dims>(
    geo: &Geometry<u64, D>,
    ply: u32,
    table: &Table,
    positions: &[Position],
    parents: &[Book],
    mut solved: impl FnMut(),
) -> Result<Chunk, String> {
    let limits = SearchLimits::within(UNBOUNDED);
    let mut values = Vec::with_capacity(positions.len());
    // Positions next to each other in key order often share their value:
    // each search first asks the value of the one before (5% fewer nodes).
    let mut last_value = None;
    for p in positions {
        let board = Board {
            geo,
            current: p.current,
            mask: p.mask,
            moves: ply,
        };
        // The search never reaches the parents' ply: their book serves
        // only this bound, often the value itself (the position is then
        // the best move of one of its parents).
        let mut search = Search::new(table, &limits).with_books(parents);
        let floor = search.cap_from_parents(&board).map(|cap| -cap);
        let value = search
            .solve_above(board, floor.or(last_value), floor)
            .ok_or_else(|| format!("position {:#x} was not solved within {UNBOUNDED:?}", p.key))?;
        last_value = Some(value);
        values.push(i8::try_from(value).map_err(|_| format!("score {value} does not fit the book"))?);
        solved();
    }
    Ok(Chunk {
        cols: geo.cols,
        rows: geo.rows,
        ply,
        keys: positions.iter().map(|p| p.key).collect(),
        values,
    })
}

/// The whole book of `ply` on `geo`, in memory (for small grids), with
/// `parents` (see [`solve_chunk`]).
pub fn build_in_memory<D: Dims>(
    geo: &Geometry<u64, D>,
    ply: u32,
    table_entries: usize,
    parents: &[Book],
) -> Result<Book, String> {
    let table = Table::new(table_entries);
    let chunk = solve_chunk(geo, ply, &table, &positions(geo, ply), parents, || ())?;
    Book::from_chunks(vec![chunk]).map_err(|e| e.to_string())
}

/// `kibitz connect-four-book build`.
pub fn build(args: &BuildArgs) -> Result<(), String> {
    let shape = Shape::new(Some(args.cols), Some(args.rows), None).map_err(|e| e.to_string())?;
    if !shape.fits_u64() {
        return Err(format!("{}x{} does not fit a 64-bit board", shape.cols, shape.rows));
    }
    if args.ply >= shape.cols * shape.rows {
        return Err(format!(
            "ply {} leaves no move on a {}x{} grid",
            args.ply, shape.cols, shape.rows
        ));
    }
    if shape.is_standard() {
        build_on(&Geometry::<u64, _>::new(Standard), args)
    } else {
        build_on(&Geometry::<u64, _>::new(shape.dims()), args)
    }
}

fn build_on<D: Dims>(geo: &Geometry<u64, D>, args: &BuildArgs) -> Result<(), String> {
    let started = Instant::now();
    let data = args.dir.join("data");
    std::fs::create_dir_all(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let all = positions(geo, args.ply);
    // The compiled book of one stone fewer, if there is one.
    let parents = Book::for_grid(Book::compiled(), geo.cols, geo.rows, geo.k)
        .iter()
        .find(|book| book.ply() + 1 == args.ply)
        .map_or(&[][..], std::slice::from_ref);
    let chunks: Vec<&[Position]> = all.chunks(CHUNK_POSITIONS).collect();
    let name = |index: usize| data.join(format!("{}x{}-ply{}-{index:04}.bin", geo.cols, geo.rows, args.ply));
    let todo: Vec<usize> = (0..chunks.len()).filter(|&i| !holds(&name(i), chunks[i])).collect();
    let remaining: usize = todo.iter().map(|&i| chunks[i].len()).sum();
    eprintln!(
        "{} positions of {} stones in {} chunks; {} chunks already built, {} to build",
        all.len(),
        args.ply,
        chunks.len(),
        chunks.len() - todo.len(),
        todo.len()
    );
    let bar = ProgressBar::with_draw_target(Some(remaining as u64), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} spent, about {eta} left")
            .map_err(|e| e.to_string())?,
    );
    let deadline = args.minutes.map(|m| started + Duration::from_secs(60 * m));
    let next = AtomicUsize::new(0);
    let index_lock = Mutex::new(());
    let worker = || -> Result<usize, String> {
        let table = Table::new(args.table_entries);
        let mut built = 0;
        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(built);
            }
            let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return Ok(built);
            };
            let chunk_started = Instant::now();
            let chunk = solve_chunk(geo, args.ply, &table, chunks[index], parents, || bar.inc(1))?;
            write_atomically(&name(index), &chunk.encode())?;
            let _guard = index_lock.lock().map_err(|_| "a builder thread failed".to_string())?;
            write_index(&args.dir, &data)?;
            bar.suspend(|| {
                eprintln!(
                    "chunk {index} of {} written: {} positions in {:.0} s",
                    chunks.len(),
                    chunk.keys.len(),
                    chunk_started.elapsed().as_secs_f64()
                )
            });
            built += 1;
        }
    };
    let results: Vec<Result<usize, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads.max(1)).map(|_| scope.spawn(worker)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a builder thread panicked".into())))
            .collect()
    });
    bar.finish_and_clear();
    let mut built = 0;
    for result in results {
        built += result?;
    }
    write_index(&args.dir, &data)?;
    let present = (0..chunks.len()).filter(|&i| name(i).exists()).count();
    eprintln!(
        "built {built} chunks in {:.0} s; {present} of {} chunks present{}",
        started.elapsed().as_secs_f64(),
        chunks.len(),
        if present == chunks.len() {
            ": the book is complete"
        } else {
            ""
        }
    );
    Ok(())
}

/// True if the chunk file at `path` holds exactly `positions`' keys.
fn holds(path: &Path, positions: &[Position]) -> bool {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| Chunk::decode(0, &bytes).ok())
        .is_some_and(|chunk| chunk.keys.iter().copied().eq(positions.iter().map(|p| p.key)))
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes).map_err(|e| format!("{}: {e}", partial.display()))?;
    std::fs::rename(&partial, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Rewrites `chunks.rs`: every chunk file present in `data`, in order
/// (each book's chunks together, in their order).
fn write_index(dir: &Path, data: &Path) -> Result<(), String> {
    let mut names: Vec<String> = std::fs::read_dir(data)
        .map_err(|e| format!("{}: {e}", data.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".bin"))
        .collect();
    names.sort();
    let mut source = String::from(
        "// Generated by `kibitz connect-four-book build`: the book's chunk files, in\n// order. Do not edit.\npub const CHUNKS: &[&[u8]] = &[\n",
    );
    for name in names {
        source.push_str(&format!("    include_bytes!(\"data/{name}\"),\n"));
    }
    source.push_str("];\n");
    write_atomically(&dir.join("chunks.rs"), source.as_bytes())
}
