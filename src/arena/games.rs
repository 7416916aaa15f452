//! What the arena needs of a game beyond its match adapter: the moves of
//! the strategies that are the game's own (the seed papers' players, Pig's
//! policies). The match AI (`best`, `level:N`) and `random` are the same for
//! every game and are played by the runner.

use rand::rngs::StdRng;

use crate::games::game::Game;
use crate::games::nine_square::NineSquareMove;
use crate::games::pig::PigMove;
use crate::matches::players::{
    nine_square_position, ConnectFourMatch, IshitoriMatch, NineSquareMatch, NumberSquareMatch, PigMatch,
    TicTacToeMatch, TurnGame,
};
use crate::strategies::nine_square::greedy_placements;
use crate::strategies::number_square::lookahead2;

use super::pig::PigPolicy;
use super::strategy::Strategy;
use super::ArenaError;

/// One side of a run: its strategy, and (Pig) the policy it plays by.
#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub strategy: Strategy,
    pub pig: Option<PigPolicy>,
}

pub(crate) type Moves<T> = Vec<<<T as TurnGame>::Game as Game>::Move>;

pub(crate) trait ArenaGame: TurnGame {
    /// The node cap of a searched move in a run, when it differs from the
    /// match's (runs play many games).
    const ARENA_NODES: Option<u64> = None;

    /// The moves `player` plays in a row now when its strategy is this
    /// game's own; None for the match AI and `random`.
    fn own_turn(_game: &Self::Game, _player: &Player, _rng: &mut StdRng) -> Result<Option<Moves<Self>>, ArenaError> {
        Ok(None)
    }
}

impl ArenaGame for TicTacToeMatch {}
impl ArenaGame for IshitoriMatch {}
impl ArenaGame for ConnectFourMatch {
    /// Tens of milliseconds a move; exact from the middle game on.
    const ARENA_NODES: Option<u64> = Some(300_000);
}

impl ArenaGame for NumberSquareMatch {
    fn own_turn(game: &Self::Game, player: &Player, _rng: &mut StdRng) -> Result<Option<Moves<Self>>, ArenaError> {
        if player.strategy != Strategy::Lookahead2 {
            return Ok(None);
        }
        let tile = lookahead2(game.board())
            .ok_or_else(|| ArenaError::Internal("number square: lookahead2 found no tile in play".to_string()))?;
        Ok(Some(vec![tile]))
    }
}

impl ArenaGame for NineSquareMatch {
    fn own_turn(game: &Self::Game, player: &Player, _rng: &mut StdRng) -> Result<Option<Moves<Self>>, ArenaError> {
        if player.strategy != Strategy::Greedy {
            return Ok(None);
        }
        let position = nine_square_position(game)
            .ok_or_else(|| ArenaError::Internal("nine square: greedy asked with no placement due".to_string()))?;
        Ok(Some(
            greedy_placements(&position)
                .into_iter()
                .map(NineSquareMove::Place)
                .collect(),
        ))
    }
}

/// Every Pig player, `level:N` and `random` included, is a policy over the
/// exact table: the same policy the exact evaluation reads.
impl ArenaGame for PigMatch {
    fn own_turn(game: &Self::Game, player: &Player, rng: &mut StdRng) -> Result<Option<Moves<Self>>, ArenaError> {
        let policy = player
            .pig
            .as_ref()
            .ok_or_else(|| ArenaError::Internal("pig: a player without its policy".to_string()))?;
        let mover = game.to_move();
        let rolls = policy.rolls(game.score(mover), game.score(1 - mover), game.turn_total(), rng);
        let mv = if rolls && game.legal_moves().contains(&PigMove::Roll) {
            PigMove::Roll
        } else {
            PigMove::Hold
        };
        Ok(Some(vec![mv]))
    }
}
