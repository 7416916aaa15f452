//! openapi.yaml parses and documents exactly the routes the router serves.

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use kibitz::http::routes;

use crate::helpers::spawn_app;

fn documented() -> BTreeSet<(String, String)> {
    let spec: serde_yaml::Value =
        serde_yaml::from_str(kibitz::http::health::OPENAPI_YAML).expect("openapi.yaml parses");
    assert_eq!(spec["openapi"].as_str().map(|v| v.starts_with("3.")), Some(true));
    let paths = spec["paths"].as_mapping().expect("paths");
    let mut out = BTreeSet::new();
    for (path, item) in paths {
        for (method, _) in item.as_mapping().expect("path item") {
            let method = method.as_str().unwrap();
            if ["get", "post", "put", "patch", "delete"].contains(&method) {
                out.insert((method.to_uppercase(), path.as_str().unwrap().to_string()));
            }
        }
    }
    out
}

#[test]
fn the_spec_documents_exactly_the_routes_the_router_declares() {
    let served: BTreeSet<(String, String)> = routes()
        .into_iter()
        .map(|(m, p, _)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(documented(), served);
}

#[tokio::test]
async fn every_documented_route_is_really_served() {
    let app = spawn_app().await;
    for (method, path) in documented() {
        let uri = path.replace("{id}", "00000000");
        let request = Request::builder()
            .method(method.as_str())
            .uri(&uri)
            .body(Body::empty())
            .unwrap();
        let r = app.send(request).await;
        assert_ne!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        let unmatched =
            r.status == StatusCode::NOT_FOUND && String::from_utf8_lossy(&r.body).contains("no resource at");
        assert!(!unmatched, "{method} {path} is not routed");
    }
}

#[tokio::test]
async fn the_spec_is_served() {
    let app = spawn_app().await;
    let r = app.get("/openapi.yaml").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body, kibitz::http::health::OPENAPI_YAML.as_bytes());
}
