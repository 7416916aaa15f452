//! The games kibitz serves, one line each. The match engine and the arena
//! (through [`GameKind`] and `with_game!`), the routes, the catalog,
//! `/analyze` and the review endpoints are made from this list; a game
//! implements [`ServedGame`] in its own folder and joins here.

use crate::catalog::GameEntry;
use crate::config::Config;
use crate::games::{chess, connect_four, ishitori, nine_square, number_square, othello, pig, tictactoe};
use crate::serve::{ServedGame, Services};
use crate::solve::solvers::Solvers;

/// Something done once for each served game, with the game as a type (so
/// that what is made for it, a route's handler, is monomorphised).
pub trait Visitor {
    fn visit<G: ServedGame>(&mut self);
}

// One line a game: its kind, its id, its match adapter and (for the games
// served through `ServedGame`) what it serves. Paths are written in full:
// `with_game!` uses the adapters wherever it is called.
crate::matches::engine::games!($
    Pig = "pig" => crate::games::pig::matches::PigMatch, served pig::Pig;
    Tictactoe = "tictactoe" => crate::games::tictactoe::matches::TicTacToeMatch, served tictactoe::TicTacToeGame;
    Ishitori = "ishitori" => crate::games::ishitori::matches::IshitoriMatch, served ishitori::IshitoriGame;
    NumberSquare = "number-square" => crate::games::number_square::matches::NumberSquareMatch, served number_square::NumberSquareGame;
    NineSquare = "nine-square" => crate::games::nine_square::matches::NineSquareMatch, served nine_square::NineSquareGame;
    ConnectFour = "connect-four" => crate::games::connect_four::matches::ConnectFourMatch, served connect_four::ConnectFourGame;
    Othello = "othello" => crate::games::othello::matches::OthelloMatch, served othello::OthelloGame;
    Chess = "chess" => crate::games::chess::matches::ChessMatch, served chess::ChessGame;
);

/// Every game's catalog entry, in menu order.
pub fn catalog(config: &Config) -> Vec<GameEntry> {
    struct Entries<'a>(&'a Config, Vec<GameEntry>);
    impl Visitor for Entries<'_> {
        fn visit<G: ServedGame>(&mut self) {
            self.1.push(G::catalog(self.0));
        }
    }
    let mut entries = Entries(config, Vec::new());
    each_game(&mut entries);
    entries.1
}

/// Every game's cache and memo gauges, just before `/metrics` renders.
pub fn record_metrics(services: &Services) {
    struct Record<'a>(&'a Services);
    impl Visitor for Record<'_> {
        fn visit<G: ServedGame>(&mut self) {
            G::record_metrics(self.0);
        }
    }
    each_game(&mut Record(services));
}

/// Every game's solvers built ahead from the settings, handed to `solvers`.
pub fn prepare(config: &Config, solvers: &Solvers) {
    struct Prepare<'a>(&'a Config, &'a Solvers);
    impl Visitor for Prepare<'_> {
        fn visit<G: ServedGame>(&mut self) {
            G::prepare(self.0, self.1);
        }
    }
    each_game(&mut Prepare(config, solvers));
}

/// Starts every game's background preparation (at server start).
pub fn start(services: &Services) {
    struct Start<'a>(&'a Services);
    impl Visitor for Start<'_> {
        fn visit<G: ServedGame>(&mut self) {
            G::start(self.0);
        }
    }
    each_game(&mut Start(services));
}

/// Why the games that cannot answer yet cannot, one reason each.
pub fn not_ready(services: &Services) -> Vec<String> {
    struct Reasons<'a>(&'a Services, Vec<String>);
    impl Visitor for Reasons<'_> {
        fn visit<G: ServedGame>(&mut self) {
            self.1.extend(G::not_ready(self.0));
        }
    }
    let mut reasons = Reasons(services, Vec::new());
    each_game(&mut reasons);
    reasons.1
}

/// The playground's drawing called `file` (`{id}.js`), if a game has it.
pub fn drawing(file: &str) -> Option<&'static str> {
    struct Find<'a>(&'a str, Option<&'static str>);
    impl Visitor for Find<'_> {
        fn visit<G: ServedGame>(&mut self) {
            if self.0.strip_suffix(".js") == Some(G::ID) {
                self.1 = Some(G::DRAWING);
            }
        }
    }
    let mut find = Find(file, None);
    each_game(&mut find);
    find.1
}

/// Every game's id, in menu order.
pub fn ids() -> Vec<&'static str> {
    struct Ids(Vec<&'static str>);
    impl Visitor for Ids {
        fn visit<G: ServedGame>(&mut self) {
            self.0.push(G::ID);
        }
    }
    let mut ids = Ids(Vec::new());
    each_game(&mut ids);
    ids.0
}

/// Every registered match game played at random through its `Game`
/// implementation alone (no HTTP, no AI), as OpenSpiel's suite does: the
/// rules' promises checked at every step.
#[cfg(test)]
mod random_games {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::GameKind;
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
                    assert!(game.result().is_some(), "over without a result");
                    assert!(game.legal_moves().is_empty(), "legal moves after the end");
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
            sequence_entries: 16,
            table_entries: 1 << 10,
            answers: 0,
            search_helpers: 0,
        });
        let ctx = AiContext {
            solvers: &solvers,
            limits: MatchLimits::default(),
        };
        let mut rng = StdRng::seed_from_u64(27);
        for kind in GameKind::ALL {
            let moves: usize = (0..GAMES)
                .map(|_| with_game!(kind, T => play::<T>(&ctx, &mut rng)))
                .sum();
            assert!(moves as u64 >= GAMES, "{}: games without a move", kind.as_str());
        }
    }
}
