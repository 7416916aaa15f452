//! One folder per game: its rules, its solver, its endpoint's shapes, its
//! match adapter, its review and what it serves (see `crate::registry`).

pub mod chess;
pub mod connect_four;
pub mod ishitori;
pub mod nine_square;
pub mod number_square;
pub mod othello;
pub mod pig;
pub mod tictactoe;

/// The `Game` trait where the games first found it (it is `crate::core`'s).
pub use crate::core::game;

/// Each game's own settings, flattened into the server's (`kibitz serve
/// --help` lists them with the rest).
#[derive(Debug, Clone, clap::Args)]
pub struct GameSettings {
    #[command(flatten)]
    pub pig: pig::settings::PigSettings,
    #[command(flatten)]
    pub chess: chess::settings::ChessSettings,
}

impl GameSettings {
    /// Each game's caches from their shares of `--memory-mib` (`share`
    /// gives a percent's bytes).
    pub fn share_memory(&mut self, share: &dyn Fn(usize) -> usize) {
        self.pig.share_memory(share);
        self.chess.share_memory(share);
    }
}

/// The commands games add to `kibitz` beside `serve`, each written in its
/// game's folder.
#[derive(Debug, clap::Subcommand)]
pub enum GameCommand {
    /// Read Connect Four games as column strings ("4453"), one per line on
    /// stdin, and print each line followed by every column's exact score, as
    /// the standard solvers' `-a` does (full columns: -1000).
    ConnectFourScores(connect_four::cli::ScoresArgs),
    /// Connect Four's opening book, built by kibitz and compiled in.
    #[command(subcommand)]
    ConnectFourBook(connect_four::book::build::BookCommand),
    /// Solve a game offline and write the result.
    #[command(subcommand)]
    Solve(SolveCommand),
}

#[derive(Debug, clap::Subcommand)]
pub enum SolveCommand {
    /// Write a Pig win-probability table file.
    Pig(pig::cli::SolveArgs),
}

impl GameCommand {
    /// Runs the command; the error is the message for stderr.
    pub fn run(&self) -> Result<(), String> {
        match self {
            GameCommand::ConnectFourScores(args) => connect_four::cli::scores(args),
            GameCommand::ConnectFourBook(command) => command.run(),
            GameCommand::Solve(SolveCommand::Pig(args)) => pig::cli::solve_table(args),
        }
    }
}
