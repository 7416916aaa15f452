//! The AI's levels 1..10 on a Stockfish-family engine's `Skill Level`
//! (Fairy-Stockfish's; 11.1 accepts -20..20, 20 being full strength). At
//! a skill below 20 the engine picks among its MultiPV candidates with a
//! random weakness that grows as the skill falls (Stockfish's `Skill`),
//! and negative skills weaken it further; unlike `UCI_Elo` (calibrated on
//! chess only) it means the same in every variant.
//!
//! | level | Skill Level |
//! |---|---|
//! | 1 | -20 |
//! | 2 | -15 |
//! | 3 | -10 |
//! | 4 | -6 |
//! | 5 | -1 |
//! | 6 | 4 |
//! | 7 | 9 |
//! | 8 | 13 |
//! | 9 | 18 |
//! | 10 | no limit (20) |
//!
//! Levels 1..9 step evenly over -20..18. Their strength, measured in the
//! arena for xiangqi and shogi (each level beats the one below it, level
//! 10 every other), is in README's "Xiangqi and shogi". The weakened move
//! is the engine's `bestmove`, not its best printed line (see
//! [`crate::engines::analysis::EngineAnswer`]).

/// The lowest and highest levels.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// The skill of level 1 and of level 9.
const SKILL_MIN: i32 = -20;
const SKILL_MAX: i32 = 18;

/// The engine options of a level (none at full strength), or None outside
/// 1..=10.
pub fn skill_options(level: u8) -> Option<Vec<(String, String)>> {
    if !LEVELS.contains(&level) {
        return None;
    }
    if level == 10 {
        return Some(Vec::new());
    }
    let step = i32::from(level - 1);
    // Even steps over the range, rounded to the nearest whole skill.
    let skill = SKILL_MIN + ((SKILL_MAX - SKILL_MIN) * step + 4).div_euclid(8);
    Some(vec![("Skill Level".to_string(), skill.to_string())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_step_over_the_skill_range() {
        let skills: Vec<String> = (1..=9).filter_map(skill_options).map(|o| o[0].1.clone()).collect();
        assert_eq!(skills, ["-20", "-15", "-10", "-6", "-1", "4", "9", "13", "18"]);
        assert_eq!(skill_options(10), Some(Vec::new()));
        assert_eq!(skill_options(0), None);
        assert_eq!(skill_options(11), None);
    }
}
