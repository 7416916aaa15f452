//! GET /games: the catalog (see crate::catalog).

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::state::AppState;
use crate::catalog::GameEntry;
use crate::matches::EndReason;
use crate::registry;

#[derive(Serialize)]
pub struct Catalog {
    games: Vec<CatalogEntry>,
}

/// A game's entry with what its match adapter says of itself.
#[derive(Serialize)]
struct CatalogEntry {
    #[serde(flatten)]
    game: GameEntry,
    /// The reasons a match of the game can end with, in its own words
    /// (empty for a game not played as a match).
    end_reasons: &'static [EndReason],
}

pub async fn games(State(state): State<AppState>) -> Json<Catalog> {
    let games = registry::catalog(&state.config)
        .into_iter()
        .map(|game| CatalogEntry {
            end_reasons: registry::MATCH_GAMES
                .find(game.id)
                .map_or(&[], |kind| kind.end_reasons()),
            game,
        })
        .collect();
    Json(Catalog { games })
}
