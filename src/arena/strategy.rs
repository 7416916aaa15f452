//! Strategy names, parsed per game.

use std::fmt;

use crate::matches::levels::{MAX_LEVEL, MIN_LEVEL};
use crate::matches::GameKind;

use super::ArenaError;

/// A named way to play. Which names a game accepts is [`Strategy::parse`]'s
/// business; `best` is every game's strongest player under its own name
/// (`optimal`, `perfect` or `best`), and is the match AI at level 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Best,
    /// The match AI at this level (1..=10; 10 is `Best`).
    Level(u8),
    /// Pig: roll until the turn total reaches N (or holding wins).
    HoldAt(u32),
    /// Pig: "keep pace and end race".
    Kper,
    /// Number Square: the seed paper's two-ply greedy AI.
    Lookahead2,
    /// Nine Square: the seed paper's greedy by line.
    Greedy,
    /// Uniform among the legal moves (Pig: a fair coin between roll and hold).
    Random,
}

/// The names each game accepts, as shown in error messages.
pub fn known_names(game: GameKind) -> &'static str {
    match game {
        GameKind::Pig => "optimal, hold_at:N (N >= 1), kper, random, level:N (1..10)",
        GameKind::Tictactoe => "perfect, random, level:N (1..10)",
        GameKind::Ishitori => "optimal, random, level:N (1..10)",
        GameKind::NumberSquare => "best, lookahead2, random, level:N (1..10)",
        GameKind::NineSquare => "best, greedy, random, level:N (1..10)",
        // Games without strategies of their own (Connect Four, and a new
        // game until it brings some).
        _ => "best, random, level:N (1..10)",
    }
}

fn best_name(game: GameKind) -> &'static str {
    match game {
        GameKind::Pig | GameKind::Ishitori => "optimal",
        GameKind::Tictactoe => "perfect",
        _ => "best",
    }
}

impl Strategy {
    /// Reads `name` for `game`; `seat` ("a" or "b") names the field in errors.
    pub fn parse(game: GameKind, seat: &'static str, name: &str) -> Result<Strategy, ArenaError> {
        let unknown = || ArenaError::UnknownStrategy {
            seat,
            game: game.as_str(),
            name: name.chars().take(40).collect(),
            known: known_names(game),
        };
        let number = |text: &str| -> Option<u32> {
            // Digits only: no sign, no spaces, no "+5".
            (!text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse().ok())
                .flatten()
        };
        let strategy = match name.split_once(':') {
            Some(("level", n)) => {
                let level = number(n)
                    .and_then(|n| u8::try_from(n).ok())
                    .filter(|l| (MIN_LEVEL..=MAX_LEVEL).contains(l))
                    .ok_or_else(unknown)?;
                Strategy::Level(level)
            }
            Some(("hold_at", n)) if game == GameKind::Pig => {
                // hold_at:0 would pass every turn and never finish a game.
                Strategy::HoldAt(number(n).filter(|&n| n >= 1).ok_or_else(unknown)?)
            }
            Some(_) => return Err(unknown()),
            None if name == "best" || name == best_name(game) => Strategy::Best,
            None => match (game, name) {
                (_, "random") => Strategy::Random,
                (GameKind::Pig, "kper") => Strategy::Kper,
                (GameKind::NumberSquare, "lookahead2") => Strategy::Lookahead2,
                (GameKind::NineSquare, "greedy") => Strategy::Greedy,
                _ => return Err(unknown()),
            },
        };
        Ok(strategy)
    }

    /// The level the match AI plays at, for the strategies that are it.
    pub fn ai_level(self) -> Option<u8> {
        match self {
            Strategy::Best => Some(MAX_LEVEL),
            Strategy::Level(level) => Some(level),
            _ => None,
        }
    }

    /// The canonical name in `game` (`best` is spelled as the game spells it).
    pub fn name(self, game: GameKind) -> String {
        match self {
            Strategy::Best => best_name(game).to_string(),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Best => f.write_str("best"),
            Strategy::Level(level) => write!(f, "level:{level}"),
            Strategy::HoldAt(n) => write!(f, "hold_at:{n}"),
            Strategy::Kper => f.write_str("kper"),
            Strategy::Lookahead2 => f.write_str("lookahead2"),
            Strategy::Greedy => f.write_str("greedy"),
            Strategy::Random => f.write_str("random"),
        }
    }
}
