//! GET /games: the catalog (see crate::catalog).

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::state::AppState;
use crate::catalog::{catalog, GameEntry};

#[derive(Serialize)]
pub struct Catalog {
    games: Vec<GameEntry>,
}

pub async fn games(State(state): State<AppState>) -> Json<Catalog> {
    Json(Catalog {
        games: catalog(state.config.pig_max_goal),
    })
}
