//! Backgammon, evaluated by GNU Backgammon run as a separate process.

pub mod gnubg;
