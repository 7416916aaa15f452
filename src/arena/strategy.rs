//! Strategy names, parsed per game: the names every game shares here, each
//! game's own in its `ArenaGame` (`super::games`).

use std::fmt;

use crate::matches::levels::{MAX_LEVEL, MIN_LEVEL};

use super::games::ArenaGame;
use super::kind::ArenaKind;
use super::ArenaError;

/// A named way to play. Every game has `best` (its strongest player, also
/// under its own name: `optimal`, `perfect`), which is the match AI at level
/// 10, `level:N` and `random`; the names of its own players, and the players
/// themselves, are its `ArenaGame`'s.
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

/// Every name `game`'s players answer to, as error messages show them: a
/// name with a number says its range in parentheses.
fn shown_names(best: &'static str, own: &'static [&'static str]) -> Vec<&'static str> {
    [&[best], own, &["random", "level:N (1..10)"]].concat()
}

/// The names `game` accepts, as shown in error messages.
pub fn known_names(game: ArenaKind) -> String {
    shown_names(game.play().best_name(), game.play().own_names()).join(", ")
}

/// The names the game `T` accepts, as the catalog lists them (`N` stands
/// for a number).
#[allow(private_bounds)]
pub fn names<T: ArenaGame>() -> Vec<&'static str> {
    shown_names(T::BEST_NAME, T::OWN_NAMES)
        .into_iter()
        .map(|name| name.split_once(" (").map_or(name, |(bare, _)| bare))
        .collect()
}

/// A strategy's number (`level:N`, `hold_at:N`): digits only, no sign, no
/// spaces, no "+5".
pub(crate) fn number(text: &str) -> Option<u32> {
    (!text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

impl Strategy {
    /// Reads `name` for `game`; `seat` ("a" or "b") names the field in errors.
    pub fn parse(game: ArenaKind, seat: &'static str, name: &str) -> Result<Strategy, ArenaError> {
        let unknown = || ArenaError::UnknownStrategy {
            seat,
            game: game.as_str(),
            name: name.chars().take(40).collect(),
            known: known_names(game),
        };
        let best_name = game.play().best_name();
        let strategy = match name.split_once(':') {
            Some(("level", n)) => {
                let level = number(n)
                    .and_then(|n| u8::try_from(n).ok())
                    .filter(|l| (MIN_LEVEL..=MAX_LEVEL).contains(l))
                    .ok_or_else(unknown)?;
                Strategy::Level(level)
            }
            _ if name == "best" || name == best_name => Strategy::Best,
            _ if name == "random" => Strategy::Random,
            _ => game.play().own_strategy(name).ok_or_else(unknown)?,
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
    pub fn name(self, game: ArenaKind) -> String {
        match self {
            Strategy::Best => game.play().best_name().to_string(),
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
