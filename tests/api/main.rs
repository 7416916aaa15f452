//! API tests through the real router: one binary, one module per area.

mod errors;
mod games;
mod health;
mod helpers;
mod openapi;
mod pig;
