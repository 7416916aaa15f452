//! `kibitz perft --game xiangqi|shogi --depth D [--position P]`: the
//! number of leaf positions `D` plies from a position, printed last, so
//! that the move generators can be held to published counts and to
//! Fairy-Stockfish's own `go perft`. One command for both games (the
//! registry gives a command name to one line only: it is declared on
//! xiangqi's), each game's count from its own rules.

use std::time::Instant;

use crate::games::shogi::rules as shogi;
use crate::games::xiangqi::rules as xiangqi;

/// `kibitz perft`.
#[derive(Debug, clap::Subcommand)]
pub enum PerftCommand {
    /// Count the leaf positions D plies from a position (xiangqi or
    /// shogi); the count is the last line printed.
    Perft(PerftArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub struct PerftArgs {
    /// xiangqi or shogi.
    #[arg(long)]
    pub game: String,
    /// Plies.
    #[arg(long)]
    pub depth: u32,
    /// The position: FEN for xiangqi, SFEN for shogi (default the start).
    #[arg(long)]
    pub position: Option<String>,
}

impl crate::config::GameCommand for PerftCommand {
    fn run(&self) -> Result<(), String> {
        let PerftCommand::Perft(args) = self;
        let started = Instant::now();
        let count = perft(args)?;
        eprintln!("{} ms", started.elapsed().as_millis());
        println!("{count}");
        Ok(())
    }
}

/// The count `args` asks for, or what is wrong with them.
pub fn perft(args: &PerftArgs) -> Result<u64, String> {
    match args.game.as_str() {
        "xiangqi" => {
            let position = match &args.position {
                Some(fen) => xiangqi::Position::from_fen(fen).map_err(|e| format!("--position: {e}"))?,
                None => xiangqi::Position::default(),
            };
            Ok(xiangqi::perft(&position, args.depth))
        }
        "shogi" => {
            let position = match &args.position {
                Some(sfen) => shogi::Position::from_sfen(sfen).map_err(|e| format!("--position: {e}"))?,
                None => shogi::Position::default(),
            };
            Ok(shogi::perft(&position, args.depth))
        }
        other => Err(format!("--game must be xiangqi or shogi, not {other:?}")),
    }
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
    fn counts_the_published_start_numbers_and_names_a_bad_game_or_position() {
        assert_eq!(perft(&args("xiangqi", 2, None)), Ok(1_920));
        assert_eq!(perft(&args("shogi", 2, None)), Ok(900));
        assert!(perft(&args("go", 1, None)).is_err_and(|e| e.contains("--game")));
        assert!(perft(&args("shogi", 1, Some("9/9 b - 1"))).is_err_and(|e| e.starts_with("--position")));
    }
}
