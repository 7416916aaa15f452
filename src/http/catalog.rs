//! GET /games: the catalog (see crate::catalog).

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::state::AppState;
use crate::catalog::GameEntry;
use crate::registry;

#[derive(Serialize)]
pub struct Catalog {
    games: Vec<GameEntry>,
}

pub async fn games(State(state): State<AppState>) -> Json<Catalog> {
    Json(Catalog {
        games: registry::catalog(&state.config),
    })
}
