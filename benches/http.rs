//! The hot endpoints through the real router, in process (no TCP): where a
//! request's time goes, beside /healthz.
//!
//! `cargo bench --bench http`

use std::hint::black_box;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use criterion::{criterion_group, criterion_main, Criterion};
use kibitz::app;
use kibitz::config::Config;
use tower::ServiceExt;

type MakeRequest = Box<dyn Fn() -> Request<Body>>;

fn post(path: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .expect("valid request")
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let dir = std::env::temp_dir().join("kibitz-bench-http");
    let mut config = Config::defaults();
    config.data_dir = dir.clone();
    config.database_url = Some(format!("sqlite://{}?mode=rwc", dir.join("kibitz.db").display()));
    config.log = "error".into();
    let (state, router) = runtime.block_on(async { app::build(config) }).expect("app builds");
    runtime.block_on(async {
        kibitz::games::pig::tables::shared_tables(&state.solvers)
            .load_defaults()
            .await
            .expect("tables");
    });
    let cases: [(&str, MakeRequest); 4] = [
        (
            "healthz",
            Box::new(|| Request::get("/healthz").body(Body::empty()).expect("valid")),
        ),
        (
            "pig_decision",
            Box::new(|| {
                post(
                    "/pig/decision",
                    r#"{"my_score": 37, "opponent_score": 54, "turn_total": 12}"#,
                )
            }),
        ),
        (
            "tictactoe_move",
            Box::new(|| post("/tictactoe/move", r#"{"board": ["X..", ".O.", "..."]}"#)),
        ),
        (
            "ishitori_move",
            Box::new(|| {
                post(
                    "/ishitori/move",
                    r#"{"remaining": "18446744073709551615", "take": [1, 3, 4]}"#,
                )
            }),
        ),
    ];
    let mut group = c.benchmark_group("router");
    group
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    for (name, make) in &cases {
        group.bench_function(*name, |b| {
            b.to_async(&runtime).iter(|| async {
                let response = router.clone().oneshot(make()).await.expect("infallible");
                assert!(response.status().is_success(), "{name}: {}", response.status());
                black_box(response)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
