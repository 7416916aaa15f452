//! The games kibitz serves, one line each: the only place that lists them.
//! The match engine, the store and the arena get them handed down as
//! values ([`MATCH_GAMES`], [`ARENA_GAMES`]); the routes, the catalog,
//! `/analyze` and the review endpoints are made by visiting them
//! ([`each_game`]). A game implements `TurnGame`, `ArenaGame` and
//! [`ServedGame`] in its own folder and joins here.

use crate::arena::ArenaGames;
use crate::catalog::GameEntry;
use crate::config::{Config, GameCommands, GameConfigs};
use crate::games::{
    backgammon, chess, connect_four, ishitori, kalah, nine_square, number_square, othello, pig, shogi, tictactoe,
    xiangqi,
};
use crate::matches::turns::TurnGame;
use crate::matches::{Adapter, MatchGames};
use crate::serve::{Perft, ServedGame, Services};
use crate::solve::solvers::Solvers;

/// Something done once for each served game, with the game as a type (so
/// that what is made for it, a route's handler, is monomorphised).
pub trait Visitor {
    fn visit<G: ServedGame>(&mut self);
}

/// Writes, from the one list below, the games handed down to the generic
/// layers ([`MATCH_GAMES`], [`ARENA_GAMES`]) and [`each_game`]. Each line is
/// a game's match adapter (`matches`: a `TurnGame`, also its `ArenaGame`;
/// a game not yet played as a match has none) and what it serves (its
/// `ServedGame`); the two must share an id, which is checked when the
/// crate is compiled. Then its settings and commands, when it has some.
macro_rules! games {
    ($($(matches $adapter:ty,)? served $served:ty $(, settings $settings:ty)? $(, commands $commands:ty)?;)*) => {
        /// The games played as matches, in menu order.
        pub const MATCH_GAMES: MatchGames = MatchGames::new(&[$($(Adapter::<$adapter>::KIND,)?)*]);
        /// The games the arena plays, in menu order.
        pub const ARENA_GAMES: ArenaGames = ArenaGames::new(&[$($(Adapter::<$adapter>::ARENA,)?)*], MATCH_GAMES);

        $($(const _: () = assert!(
            same_id(<$adapter as TurnGame>::ID, <$served as ServedGame>::ID),
            "a registry line's match adapter and served game have different ids"
        );)?)*

        /// Every game's settings are flags of `kibitz serve`.
        impl clap::Args for GameConfigs {
            fn augment_args(command: clap::Command) -> clap::Command {
                $($(let command = <$settings as clap::Args>::augment_args(command);)?)*
                command
            }

            fn augment_args_for_update(command: clap::Command) -> clap::Command {
                Self::augment_args(command)
            }
        }

        impl clap::FromArgMatches for GameConfigs {
            fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
                #[allow(unused_mut)]
                let mut configs = GameConfigs::default();
                $($(configs.insert(<$settings as clap::FromArgMatches>::from_arg_matches(matches)?);)?)*
                Ok(configs)
            }

            fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }

        /// Every game's commands are commands of `kibitz`.
        impl clap::Subcommand for GameCommands {
            fn augment_subcommands(command: clap::Command) -> clap::Command {
                $($(let command = <$commands as clap::Subcommand>::augment_subcommands(command);)?)*
                command
            }

            fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
                Self::augment_subcommands(command)
            }

            fn has_subcommand(name: &str) -> bool {
                false $($(|| <$commands as clap::Subcommand>::has_subcommand(name))?)*
            }
        }

        impl clap::FromArgMatches for GameCommands {
            fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
                let name = matches.subcommand_name().unwrap_or_default();
                $($(if <$commands as clap::Subcommand>::has_subcommand(name) {
                    let command = <$commands as clap::FromArgMatches>::from_arg_matches(matches)?;
                    return Ok(GameCommands(Box::new(command)));
                })?)*
                Err(clap::Error::raw(
                    clap::error::ErrorKind::InvalidSubcommand,
                    format!("no game has the command {name:?}"),
                ))
            }

            fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }

        /// Visits every served game, in the order menus show them.
        pub fn each_game(visitor: &mut impl Visitor) {
            $(visitor.visit::<$served>();)*
        }

        /// Every served game's row, in the order menus show them.
        const ROWS: &[Row] = &[$(Row::of::<$served>(),)*];

        /// Visits every match adapter, with the adapter as a type.
        #[cfg(test)]
        fn each_match_adapter(visitor: &mut impl AdapterVisitor) {
            $($(visitor.visit::<$adapter>();)?)*
        }
    };
}

games!(
    matches pig::matches::PigMatch, served pig::PigGame, settings pig::settings::PigSettings, commands pig::cli::PigCommand;
    matches tictactoe::matches::TicTacToeMatch, served tictactoe::TicTacToeGame;
    matches ishitori::matches::IshitoriMatch, served ishitori::IshitoriGame;
    matches number_square::matches::NumberSquareMatch, served number_square::NumberSquareGame;
    matches nine_square::matches::NineSquareMatch, served nine_square::NineSquareGame;
    matches connect_four::matches::ConnectFourMatch, served connect_four::ConnectFourGame, commands connect_four::cli::ConnectFourCommand;
    matches othello::matches::OthelloMatch, served othello::OthelloGame;
    matches chess::matches::ChessMatch, served chess::ChessGame, settings chess::settings::ChessSettings;
    matches kalah::matches::KalahMatch, served kalah::KalahGame, commands kalah::book::KalahCommand;
    matches xiangqi::matches::XiangqiMatch, served xiangqi::XiangqiGame, settings xiangqi::settings::XiangqiSettings;
    matches shogi::matches::ShogiMatch, served shogi::ShogiGame, settings shogi::settings::ShogiSettings;
    matches backgammon::matches::BackgammonMatch, served backgammon::served::BackgammonGame, settings backgammon::settings::BackgammonSettings;
);

/// Whether two ids are the same (`str`'s `==` is not usable in a const).
const fn same_id(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Something done once for each match adapter, with the adapter as a type
/// (the tests that play every game through its rules alone).
#[cfg(test)]
trait AdapterVisitor {
    fn visit<T: TurnGame>(&mut self);
}

/// What the registry keeps of a served game, its type erased: one row a
/// game, made from its `ServedGame` ([`Row::of`]). What needs the game as
/// a type (a route's handler, `/analyze`'s dispatch) visits it instead
/// ([`each_game`]).
struct Row {
    id: &'static str,
    catalog: fn(&Config) -> GameEntry,
    memos: usize,
    tables: usize,
    record_metrics: fn(&Services),
    prepare: fn(&Config, &Solvers),
    start: fn(&Services),
    not_ready: fn(&Services) -> Option<String>,
    drawing: &'static str,
    rules_script: Option<&'static str>,
    style: &'static str,
    perft: Option<Perft>,
}

impl Row {
    const fn of<G: ServedGame>() -> Row {
        Row {
            id: G::ID,
            catalog: G::catalog,
            memos: G::MEMOS,
            tables: G::TABLES,
            record_metrics: G::record_metrics,
            prepare: G::prepare,
            start: G::start,
            not_ready: G::not_ready,
            drawing: G::DRAWING,
            rules_script: G::RULES_SCRIPT,
            style: G::STYLE,
            perft: G::PERFT,
        }
    }
}

/// Every game's catalog entry, in menu order.
pub fn catalog(config: &Config) -> Vec<GameEntry> {
    ROWS.iter().map(|row| (row.catalog)(config)).collect()
}

/// How many search memos of `--memo-capacity` entries the games keep
/// together (each game says how many it keeps: `ServedGame::MEMOS`).
pub fn memo_count() -> usize {
    ROWS.iter().map(|row| row.memos).sum()
}

/// How many transposition tables of `--table-entries` the games keep
/// together (each game says how many: `ServedGame::TABLES`).
pub fn table_count() -> usize {
    ROWS.iter().map(|row| row.tables).sum()
}

/// Every game's cache and memo gauges, just before `/metrics` renders.
pub fn record_metrics(services: &Services) {
    ROWS.iter().for_each(|row| (row.record_metrics)(services));
}

/// Every game's solvers built ahead from the settings, handed to `solvers`.
pub fn prepare(config: &Config, solvers: &Solvers) {
    ROWS.iter().for_each(|row| (row.prepare)(config, solvers));
}

/// Starts every game's background preparation (at server start).
pub fn start(services: &Services) {
    ROWS.iter().for_each(|row| (row.start)(services));
}

/// Why the games that cannot answer yet cannot, one reason each.
pub fn not_ready(services: &Services) -> Vec<String> {
    ROWS.iter().filter_map(|row| (row.not_ready)(services)).collect()
}

/// The playground's file of a game called `file`, if a game has it: its
/// drawing (`{id}.js`) or its analysis board's rules (`{id}-rules.js`).
pub fn drawing(file: &str) -> Option<&'static str> {
    let name = file.strip_suffix(".js")?;
    ROWS.iter().find_map(|row| {
        if name == row.id {
            Some(row.drawing)
        } else if name.strip_suffix("-rules") == Some(row.id) {
            row.rules_script
        } else {
            None
        }
    })
}

/// The perft of the game `id`, if it has one (`Err`: the games that do).
pub fn perft(id: &str) -> Result<Perft, Vec<&'static str>> {
    let with_perft = || ROWS.iter().filter_map(|row| row.perft.map(|perft| (row.id, perft)));
    with_perft()
        .find(|&(game, _)| game == id)
        .map(|(_, perft)| perft)
        .ok_or_else(|| with_perft().map(|(game, _)| game).collect())
}

/// Every game's own style rules, in menu order.
pub fn styles() -> Vec<&'static str> {
    ROWS.iter().map(|row| row.style).collect()
}

/// Every game's id, in menu order.
pub fn ids() -> Vec<&'static str> {
    ROWS.iter().map(|row| row.id).collect()
}

/// Every registered match game played at random through its `Game`
/// implementation alone (no HTTP, no AI), as OpenSpiel's suite does: the
/// rules' promises checked at every step.
#[cfg(test)]
mod random_games {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use crate::core::game::{Game, Turn};
    use crate::matches::turns::TurnGame;
    use crate::matches::{AiContext, MatchLimits};
    use crate::solve::solvers::{MemoSizes, Solvers};

    const GAMES: u64 = 20;
    const MOVE_LIMIT: usize = 10_000;

    /// One random game of `T` at its default options; the number of moves.
    fn play<T: TurnGame>(ctx: &AiContext, rng: &mut StdRng) -> usize {
        let options = crate::matches::turns::read_rules::<T>(None, ctx.solvers).expect("the defaults are valid");
        let options = T::settle(options, rng).expect("the defaults settle");
        // The rules' opening: the AI is not asked here (chess's would want
        // Stockfish installed).
        let mut game = T::opening(&options).expect("a game starts from the defaults");
        for moves in 0..MOVE_LIMIT {
            match game.turn() {
                Turn::Over => {
                    let outcome = game.result().expect("over without a result");
                    assert!(game.legal_moves().is_empty(), "legal moves after the end");
                    let reason = T::end_reason(&game, outcome);
                    assert!(
                        T::END_REASONS.contains(&reason),
                        "{}: the end reason {reason} is not among the game's END_REASONS",
                        T::ID
                    );
                    return moves;
                }
                Turn::Player(_) => {
                    assert!(game.result().is_none(), "a result before the end");
                    let legal = game.legal_moves();
                    assert!(!legal.is_empty(), "a player to move without a legal move");
                    let mv = legal[rng.gen_range(0..legal.len())];
                    game.play(mv);
                }
                Turn::Chance => {
                    let outcomes = game.chance_outcomes();
                    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                    assert!((total - 1.0).abs() < 1e-9, "chance outcomes sum to {total}");
                    assert!(
                        outcomes.iter().all(|&(_, p)| p > 0.0),
                        "an impossible outcome is listed"
                    );
                    let mv = outcomes[rng.gen_range(0..outcomes.len())].0;
                    game.play(mv);
                }
            }
        }
        panic!("no end after {MOVE_LIMIT} moves");
    }

    #[test]
    fn every_match_game_plays_random_games_to_a_result_keeping_its_rules_promises() {
        let solvers = Solvers::new(MemoSizes {
            positions: 1 << 10,
            sequence_bytes: 1 << 20,
            table_entries: 1 << 10,
            answers: 0,
            search_helpers: 0,
        });
        let ctx = AiContext {
            solvers: &solvers,
            limits: MatchLimits::default(),
        };
        struct Play<'a> {
            ctx: &'a AiContext<'a>,
            rng: StdRng,
            games: usize,
        }
        impl super::AdapterVisitor for Play<'_> {
            fn visit<T: TurnGame>(&mut self) {
                let moves: usize = (0..GAMES).map(|_| play::<T>(self.ctx, &mut self.rng)).sum();
                assert!(moves as u64 >= GAMES, "{}: games without a move", T::ID);
                self.games += 1;
            }
        }
        let mut visit = Play {
            ctx: &ctx,
            rng: StdRng::seed_from_u64(27),
            games: 0,
        };
        super::each_match_adapter(&mut visit);
        assert_eq!(visit.games, super::MATCH_GAMES.all().len());
    }
}
