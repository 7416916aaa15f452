//! The command line: the top-level parser (`kibitz [serve] | arena | a
//! game's command`) and the offline subcommands.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;

use crate::arena::{Arena, ArenaSpec, Budget, Record, Report};
use crate::config::{Config, GameCommands};
use crate::solve::limits::SearchLimits;
use crate::solve::solvers::{MemoSizes, Solvers};

#[derive(Debug, Parser)]
#[command(
    name = "kibitz",
    version,
    about = "Best moves and evaluations for board and dice games, over HTTP"
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// With no subcommand, kibitz serves.
    #[command(flatten)]
    pub serve: Config,
}

// Parsed once at start-up: the size of the serve variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve(Config),
    /// Play named strategies against each other and report how strong each is.
    Arena(ArenaArgs),
    /// Count the leaf positions D plies from a position of a game whose
    /// move generator is held to published counts; the count is the last
    /// line printed.
    Perft(PerftArgs),
    /// The commands games add (each written in its game's folder; the
    /// registry lists them).
    #[command(flatten)]
    Game(GameCommands),
}

/// `kibitz arena`: a series between two named strategies.
#[derive(Debug, Clone, clap::Args)]
pub struct ArenaArgs {
    /// A game's id, as `GET /games` lists them (an unknown one is refused
    /// with the list).
    #[arg(long)]
    pub game: String,
    /// A's strategy, one of the game's `strategies` in `GET /games` (an
    /// unknown one is refused with the game's list); random and level:N for
    /// every game.
    #[arg(long)]
    pub a: String,
    /// B's strategy (as for --a).
    #[arg(long)]
    pub b: String,
    /// Games to play; A moves first in games 1, 3, 5, ...
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Every die and random choice comes from this seed: same seed, same result.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Wall-clock cap per searched move. Searches end by node count without it;
    /// with it, results depend on the machine's speed.
    #[arg(long)]
    pub max_ms: Option<u64>,
    /// The game's options as a JSON object, as for matches (e.g. '{"goal": 50}').
    #[arg(long)]
    pub options: Option<String>,
    /// Pig: also compute A's win probabilities exactly (policy evaluation).
    #[arg(long)]
    pub exact: bool,
    /// Print the JSON that POST /arena returns instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Where Pig tables are kept (as for the server).
    #[arg(long, env = "KIBITZ_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
}

/// A run with no time bound but the node budgets (30 days: never reached).
const ARENA_UNBOUNDED: Duration = Duration::from_secs(30 * 24 * 3600);

/// `kibitz arena`: plays the series (a progress bar with ETA on stderr when
/// it is a terminal) and returns the report, as a table or as JSON.
pub fn arena(args: &ArenaArgs) -> Result<String, String> {
    let options: Option<Value> = match &args.options {
        Some(text) => Some(serde_json::from_str(text).map_err(|e| format!("--options is not JSON: {e}"))?),
        None => None,
    };
    let spec = ArenaSpec {
        game: &args.game,
        a: &args.a,
        b: &args.b,
        options: options.as_ref(),
    };
    // What the games prepare from settings (tables), from the defaults
    // with this data directory.
    let mut config = Config::defaults();
    config.data_dir = args.data_dir.clone();
    let shared = Solvers::new(MemoSizes::of(&config));
    crate::registry::prepare(&config, &shared);
    let budget = Budget {
        per_move: args.max_ms.map(Duration::from_millis),
    };
    let arena = Arena::new(crate::registry::ARENA_GAMES, spec, &shared, budget).map_err(|e| e.to_string())?;
    if args.games == 0 && !args.exact {
        return Err("--games must be at least 1 (or give --exact, for a game evaluated exactly)".to_string());
    }
    let exact = if args.exact {
        Some(arena.exact().map_err(|e| e.to_string())?)
    } else {
        None
    };
    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}")
            .map_err(|e| e.to_string())?,
    );
    let limits = SearchLimits::within(ARENA_UNBOUNDED);
    let tally = arena
        .run(args.games, args.seed, &limits, &mut |done| bar.set_position(done))
        .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let report = arena.report(args.seed, &tally, exact);
    if args.json {
        serde_json::to_string_pretty(&report).map_err(|e| e.to_string())
    } else {
        Ok(render(&report))
    }
}

fn record_line(label: &str, strategy: &str, r: &Record) -> String {
    format!(
        "{label:<3}{strategy:<14}{:>8}{:>8}{:>8}{:>10.1}",
        r.wins, r.draws, r.losses, r.points
    )
}

/// The report as a small table.
pub fn render(report: &Report) -> String {
    let mut out = vec![
        format!(
            "{}: {} games, seed {} (a moves first in games 1, 3, 5, ...)",
            report.game, report.games, report.seed
        ),
        format!("{:<17}{:>8}{:>8}{:>8}{:>10}", "", "wins", "draws", "losses", "points"),
        record_line("a", &report.a.strategy, &report.a.record),
        record_line("b", &report.b.strategy, &report.b.record),
    ];
    let seat = |label: &str, r: &Record| {
        format!(
            "a moving {label}: {} games, {} wins, {} draws, {} losses",
            r.games(),
            r.wins,
            r.draws,
            r.losses
        )
    };
    if report.games > 0 {
        out.push(seat("first", &report.seats.a_first));
        out.push(seat("second", &report.seats.a_second));
    }
    if let (Some(share), Some([low, high])) = (report.a_share, report.a_share_ci95) {
        out.push(format!(
            "a's share of the points: {share:.4} (95% CI {low:.4} to {high:.4}, Wilson)"
        ));
    }
    if let Some(margin) = report.mean_margin {
        out.push(format!("mean margin (a - b): {margin:+.2} points per game"));
    }
    if let Some(exact) = report.exact {
        out.push(format!(
            "exact (policy evaluation): a wins {:.4} moving first, {:.4} moving second; share {:.4}",
            exact.a_first, exact.a_second, exact.a_share
        ));
    }
    out.join("\n")
}

#[derive(Debug, Clone, clap::Args)]
pub struct PerftArgs {
    /// The game's id (`kibitz perft --game x` lists those that have one).
    #[arg(long)]
    pub game: String,
    /// Plies.
    #[arg(long)]
    pub depth: u32,
    /// The position, as the game writes it (default the start).
    #[arg(long)]
    pub position: Option<String>,
}

/// `kibitz perft`: the count `args` asks for, or what is wrong with them.
pub fn perft(args: &PerftArgs) -> Result<u64, String> {
    let perft = crate::registry::perft(&args.game)
        .map_err(|games| format!("--game must be one of {}, not {:?}", games.join(", "), args.game))?;
    perft(args.position.as_deref(), args.depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(game: &str, depth: u32, position: Option<&str>) -> PerftArgs {
        PerftArgs {
            game: game.to_string(),
            depth,
            position: position.map(str::to_string),
        }
    }

    #[test]
    fn perft_names_the_games_that_have_one_when_asked_for_another() {
        let Err(message) = perft(&args("nosuchgame", 1, None)) else {
            panic!("an unknown game counted");
        };
        assert!(message.starts_with("--game must be one of "), "{message}");
        let listed = message.trim_start_matches("--game must be one of ");
        let listed = listed.split(", not").next().unwrap_or_default();
        for game in listed.split(", ") {
            // Every game listed counts its start: one ply from it is its
            // legal moves, at least one.
            let count = perft(&args(game, 1, None)).unwrap_or(0);
            assert!(count > 0, "{game}");
            let bad = perft(&args(game, 1, Some("not a position")));
            assert!(bad.is_err_and(|e| e.starts_with("--position")), "{game}");
        }
    }
}
