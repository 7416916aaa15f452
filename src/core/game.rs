//! The interface a game's rules implement, after OpenSpiel's `State`: whose
//! turn it is (a player, a chance event, or nobody because the game is
//! over), the legal moves, the chance outcomes with their probabilities,
//! applying a move, and the result.
//!
//! Rules only: no search, no JSON, no SQL. Solvers, the match engine, the
//! arena and reviews are written against this, so a new game is one
//! implementation. A game keeps whatever state representation is fastest
//! for it (bitboards, arrays); searches are generic over `G: Game` and
//! monomorphised, so nothing is boxed on the hot path.

/// The seat of a player: 0 moves first, 1 second.
pub type Seat = usize;

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// That seat chooses a move among [`Game::legal_moves`].
    Player(Seat),
    /// A die is rolled: the move is drawn from [`Game::chance_outcomes`].
    Chance,
    /// The game is over: [`Game::result`] says how it ended.
    Over,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    Won(Seat),
    Draw,
}

pub trait Game: Clone {
    /// Plain data, so that a game can be stored as the moves that led to it.
    type Move: Copy + Eq + std::fmt::Debug + serde::Serialize + serde::de::DeserializeOwned;

    fn turn(&self) -> Turn;

    /// The moves of the player whose turn it is, in a fixed order; empty
    /// unless [`Turn::Player`].
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// The outcomes of the chance event and their probabilities (summing to
    /// 1); empty unless [`Turn::Chance`]. Games without dice keep the default.
    fn chance_outcomes(&self) -> Vec<(Self::Move, f64)> {
        Vec::new()
    }

    /// Applies a move that [`Game::legal_moves`] or
    /// [`Game::chance_outcomes`] offered; anything else is a logic error.
    fn play(&mut self, mv: Self::Move);

    /// How the game ended; None while it goes on.
    fn result(&self) -> Option<GameOutcome>;
}
