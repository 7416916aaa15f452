//! Headers every answer, or a kind of answer, carries (issue 45): `Allow`
//! on a 405.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};

use crate::helpers::spawn_app;

fn request(method: &str, path: &str) -> Request<Body> {
    Request::builder().method(method).uri(path).body(Body::empty()).unwrap()
}

#[tokio::test]
async fn a_405_lists_the_methods_served_at_its_path_in_allow() {
    let app = spawn_app().await;
    for (method, path, allowed) in [
        ("POST", "/", "GET, HEAD"),
        ("DELETE", "/healthz", "GET, HEAD"),
        ("INVENTED", "/healthz", "GET, HEAD"),
        ("GET", "/pig/decision", "POST"),
        ("DELETE", "/matches/0123", "GET, HEAD"),
        ("GET", "/matches/0123/moves", "POST"),
        ("POST", "/playground/pig.js", "GET, HEAD"),
    ] {
        let r = app.send(request(method, path)).await;
        let detail = r.assert_problem(StatusCode::METHOD_NOT_ALLOWED);
        let allow = r.headers.get(header::ALLOW).map(|v| v.to_str().unwrap());
        assert_eq!(allow, Some(allowed), "{method} {path}: {detail}");
        assert!(detail.contains(allowed), "{method} {path}: {detail}");
    }
    // What Allow lists is served.
    assert_eq!(app.send(request("HEAD", "/healthz")).await.status, StatusCode::OK);
    assert_eq!(app.send(request("HEAD", "/")).await.status, StatusCode::OK);
}
