//! The AI's levels 1..10 for chess, mapped onto Stockfish's own strength
//! settings.
//!
//! Levels 1..9 set `UCI_LimitStrength` and `UCI_Elo`, Stockfish's
//! calibrated strength limit (15.1 accepts 1350..2850; its authors
//! calibrated it against other engines at about one minute per game, so
//! the figure is an engine-list Elo, higher than the same number on a
//! human rating list). The nine levels step evenly over that range, 187.5
//! Elo apart. Level 10 is full strength (above 3500 on the same lists).
//!
//! | level | settings | approximate Elo |
//! |---|---|---|
//! | 1 | UCI_Elo 1350 | 1350 |
//! | 2 | UCI_Elo 1538 | 1540 |
//! | 3 | UCI_Elo 1725 | 1725 |
//! | 4 | UCI_Elo 1913 | 1910 |
//! | 5 | UCI_Elo 2100 | 2100 |
//! | 6 | UCI_Elo 2288 | 2290 |
//! | 7 | UCI_Elo 2475 | 2475 |
//! | 8 | UCI_Elo 2663 | 2660 |
//! | 9 | UCI_Elo 2850 | 2850 |
//! | 10 | no limit | 3500+ |
//!
//! Even level 1 is a strong club player's strength: Stockfish 15.1 has no
//! setting below 1350. A weaker opponent (the arena's `random`, or a very
//! short `max_ms`) is the way under it.

/// The lowest and highest levels.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// The Elo of level 1 and level 9 (Stockfish 15.1's `UCI_Elo` range).
const ELO_MIN: u32 = 1350;
const ELO_MAX: u32 = 2850;

/// What a level asks of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    pub level: u8,
    /// UCI options for the search (none at full strength).
    pub options: Vec<(String, String)>,
    /// Approximate Elo on engine rating lists; None at full strength.
    pub approx_elo: Option<u32>,
}

/// The settings of a level, or None outside 1..=10.
pub fn level_settings(level: u8) -> Option<LevelSettings> {
    if !LEVELS.contains(&level) {
        return None;
    }
    if level == 10 {
        return Some(LevelSettings {
            level,
            options: Vec::new(),
            approx_elo: None,
        });
    }
    // Even steps, rounded to the nearest whole Elo.
    let elo = ELO_MIN + ((ELO_MAX - ELO_MIN) * u32::from(level - 1) + 4) / 8;
    Some(LevelSettings {
        level,
        options: vec![
            ("UCI_LimitStrength".to_string(), "true".to_string()),
            ("UCI_Elo".to_string(), elo.to_string()),
        ],
        approx_elo: Some(elo),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_step_over_stockfish_elo_range() {
        let elos: Vec<Option<u32>> = LEVELS.map(|l| level_settings(l).and_then(|s| s.approx_elo)).collect();
        assert_eq!(
            elos,
            vec![
                Some(1350),
                Some(1538),
                Some(1725),
                Some(1913),
                Some(2100),
                Some(2288),
                Some(2475),
                Some(2663),
                Some(2850),
                None
            ]
        );
        assert_eq!(level_settings(0), None);
        assert_eq!(level_settings(11), None);
        assert_eq!(level_settings(10).map(|s| s.options.len()), Some(0));
    }
}
