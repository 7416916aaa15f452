//! Runs N requests of one kind through the real router in process, for
//! `valgrind --tool=callgrind` to count the instructions a route costs
//! (repeatable, unlike wall time on a shared machine):
//!
//! `cargo build --release --example route_cost` then
//! `valgrind --tool=callgrind target/release/examples/route_cost pig 20000`
//! and the same with 0 requests; the difference over N is the cost of one.

use axum::body::Body;
use axum::http::Request;
use kibitz::app;
use kibitz::config::Config;
use tower::ServiceExt;

fn request(kind: &str) -> Option<Request<Body>> {
    let post = |path: &str, body: &'static str| {
        Request::post(path)
            .header("content-type", "application/json")
            .body(Body::from(body))
            .ok()
    };
    match kind {
        "healthz" => Request::get("/healthz").body(Body::empty()).ok(),
        "pig" => post(
            "/pig/decision",
            r#"{"my_score": 37, "opponent_score": 54, "turn_total": 12}"#,
        ),
        "echo" => post(
            "/pig/decision",
            r#"{"my_score": 100, "opponent_score": 54, "turn_total": 12}"#,
        ),
        _ => None,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let kind = args.get(1).map_or("healthz", String::as_str);
    let count: u64 = args.get(2).map_or(Ok(1000), |n| n.parse())?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let dir = std::env::temp_dir().join("kibitz-route-cost");
    let mut config = Config::defaults();
    config.data_dir = dir.clone();
    config.database_url = Some(format!("sqlite://{}?mode=rwc", dir.join("kibitz.db").display()));
    config.log = "error".into();
    runtime.block_on(async {
        let (state, router) = app::build(config)?;
        kibitz::games::pig::tables::shared_tables(&state.solvers)
            .load_defaults()
            .await?;
        for _ in 0..count {
            let req = request(kind).ok_or("kind: healthz, pig or echo")?;
            let response = router.clone().oneshot(req).await?;
            std::hint::black_box(response);
        }
        Ok::<(), Box<dyn std::error::Error>>(())
    })
}
