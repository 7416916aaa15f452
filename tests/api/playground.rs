//! GET / serves the playground page, and every file it refers to is served
//! with a content type a browser will run; nothing comes from elsewhere.

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};

use crate::helpers::{spawn_app, TestApp, TestResponse};

/// Every local path the text loads: `href="/..."`, `src="/..."` and the
/// modules' relative `from "./x.js"` imports (resolved under /playground/).
fn references(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for marker in ["href=\"", "src=\"", "from \"", "import(\""] {
        for (i, _) in text.match_indices(marker) {
            let rest = &text[i + marker.len()..];
            let Some(end) = rest.find('"') else { continue };
            let target = &rest[..end];
            if let Some(relative) = target.strip_prefix("./") {
                out.insert(format!("/playground/{relative}"));
            } else if target.starts_with('/') {
                out.insert(target.to_string());
            }
        }
    }
    out
}

fn header_of(r: &TestResponse, name: header::HeaderName) -> &str {
    r.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// Follows every reference from the page and the games' drawings (which
/// app.js imports by the game's id), breadth first; returns the paths of
/// the page's files (the API links, such as /openapi.yaml, included).
async fn crawl(app: &TestApp) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut queue = vec!["/".to_string()];
    queue.extend(
        kibitz::registry::ids()
            .into_iter()
            .map(|id| format!("/playground/{id}.js")),
    );
    // ...and from the analysis board's rules of the games that have them
    // (analysis-board.js imports them by the game's id too).
    for id in kibitz::registry::ids() {
        let path = format!("/playground/{id}-rules.js");
        if app.get(&path).await.status == StatusCode::OK {
            queue.push(path);
        }
    }
    while let Some(path) = queue.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let r = app.get(&path).await;
        assert_eq!(
            r.status,
            StatusCode::OK,
            "{path} is referenced but answers {}",
            r.status
        );
        let text = String::from_utf8(r.body.clone()).expect("utf-8");
        let expected = match path.rsplit('.').next() {
            Some("js") => "text/javascript",
            Some("css") => "text/css",
            Some("yaml") => "application/yaml",
            Some("svg") => "image/svg+xml",
            _ => "text/html",
        };
        assert!(r.content_type().starts_with(expected), "{path}: {}", r.content_type());
        if !matches!(expected, "application/yaml" | "image/svg+xml") {
            queue.extend(references(&text));
        }
    }
    seen
}

#[tokio::test]
async fn the_page_references_its_modules_and_every_reference_is_served() {
    let app = spawn_app().await;
    let page = app.get("/").await;
    assert_eq!(page.status, StatusCode::OK);
    let html = String::from_utf8_lossy(&page.body);
    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.contains(r#"<script type="module" src="/playground/app.js">"#));
    assert!(html.contains(r#"href="/playground/style.css""#));
    // No external resource: the page runs offline and inside the container.
    for external in ["http://", "https://", "//cdn", "fonts.googleapis"] {
        assert!(!html.contains(external), "the page refers to {external}");
    }
    let csp = header_of(&page, header::CONTENT_SECURITY_POLICY);
    assert!(csp.contains("default-src 'self'"), "{csp}");

    let served = crawl(&app).await;
    // Every shared file the binary carries is reachable from the page
    // (none is dead weight)...
    for (name, _, _) in kibitz::http::playground::ASSETS {
        assert!(
            served.contains(&format!("/playground/{name}")),
            "{name} is never loaded: {served:?}"
        );
    }
    // ...and every game's drawing, which the page loads by the game's id,
    // is served as a JavaScript module.
    let ids = kibitz::registry::ids();
    assert!(ids.len() >= 6, "{ids:?}");
    for game in ids {
        let drawing = app.get(&format!("/playground/{game}.js")).await;
        assert_eq!(drawing.status, StatusCode::OK, "{game}");
        assert!(
            header_of(&drawing, header::CONTENT_TYPE).starts_with("text/javascript"),
            "{game}"
        );
        let body = String::from_utf8_lossy(&drawing.body);
        assert!(body.contains("export default"), "{game}: {body:.200}");
    }
    // Every game the page draws (its match games) has its analysis
    // board's rules but the ones listed here, served beside the drawing from the game's folder.
    let catalog = app.get("/games").await.json();
    let drawn: Vec<&str> = catalog["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| !g["endpoints"]["matches"].is_null())
        .filter_map(|g| g["id"].as_str())
        .collect();
    let without_rules: Vec<&str> = drawn
        .into_iter()
        .filter(|id| !served.contains(&format!("/playground/{id}-rules.js")))
        .collect();
    assert_eq!(without_rules, Vec::<&str>::new());
    assert_eq!(
        app.get("/playground/nosuchgame-rules.js").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_modules_call_only_documented_routes() {
    // The page doubles as an example client, so every API path it names
    // must be one openapi.yaml documents.
    let documented: Vec<String> = kibitz::http::routes()
        .into_iter()
        .map(|(_, path, _)| path.split('{').next().unwrap_or(path).to_string())
        .collect();
    let mut calls = 0;
    for (name, _, body) in kibitz::http::playground::ASSETS {
        for (i, _) in body.match_indices("request(\"") {
            let call = &body[i..];
            let Some(start) = call.find(", \"/").or_else(|| call.find(", `/")) else {
                continue;
            };
            let path: String = call[start + 3..]
                .chars()
                .take_while(|c| !matches!(c, '"' | '`' | '$' | '?'))
                .collect();
            assert!(
                documented
                    .iter()
                    .any(|d| d == &path || (d.ends_with('/') && path.starts_with(d.as_str()))),
                "{name} calls {path}, which openapi.yaml does not document"
            );
            calls += 1;
        }
    }
    // The catalog, a match created, read, moved in and reviewed.
    assert!(calls >= 5, "only {calls} calls found in the page's modules");
}

#[tokio::test]
async fn the_drawings_ask_only_documented_analysis_routes() {
    // Each game's drawing asks its analysis through api.js's `analyze` and
    // `analyzeStreamed`, naming the path itself.
    let app = spawn_app().await;
    let documented: Vec<&str> = kibitz::http::routes().into_iter().map(|(_, path, _)| path).collect();
    let mut asked = 0;
    for game in kibitz::registry::ids() {
        let drawing = app.get(&format!("/playground/{game}.js")).await;
        let body = String::from_utf8_lossy(&drawing.body).to_string();
        // A GET (`getJson`) builds its query in a template string.
        for call in ["analyse(\"", "analyseStreamed(\"", "getJson(`"] {
            for (i, _) in body.match_indices(call) {
                let path: String = body[i + call.len()..]
                    .chars()
                    .take_while(|&c| !matches!(c, '"' | '`' | '?' | '$'))
                    .collect();
                assert!(
                    documented.contains(&path.as_str()),
                    "{game}.js asks {path}, which is not served"
                );
                asked += 1;
            }
        }
    }
    assert!(asked >= 6, "only {asked} analysis calls found in the drawings");
}

async fn get_if_none_match(app: &TestApp, path: &str, etag: &str) -> TestResponse {
    let request = Request::get(path).header(header::IF_NONE_MATCH, etag);
    app.send(request.body(Body::empty()).unwrap()).await
}

#[tokio::test]
async fn unknown_files_are_problem_404s_and_etags_revalidate() {
    let app = spawn_app().await;
    let r = app.get("/playground/nope.js").await;
    let detail = r.assert_problem(StatusCode::NOT_FOUND);
    assert!(detail.contains("nope.js"), "{detail}");
    let r = app.get("/playground/..%2Fsrc%2Fmain.rs").await;
    r.assert_problem(StatusCode::NOT_FOUND);

    let first = app.get("/playground/app.js").await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(header_of(&first, header::CACHE_CONTROL), "no-cache");
    let etag = header_of(&first, header::ETAG).to_string();
    assert!(etag.starts_with('"') && etag.len() > 2, "{etag}");
    let again = get_if_none_match(&app, "/playground/app.js", &etag).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    // Another file's tag does not match this one.
    let other = get_if_none_match(&app, "/playground/pig.js", &etag).await;
    assert_eq!(other.status, StatusCode::OK);
}

#[tokio::test]
async fn the_style_sheet_holds_the_shared_rules_then_each_games_own_then_the_boards() {
    let app = spawn_app().await;
    let sheet = app.get("/playground/style.css").await;
    assert_eq!(sheet.status, StatusCode::OK);
    assert!(header_of(&sheet, header::CONTENT_TYPE).starts_with("text/css"));
    let sheet = String::from_utf8_lossy(&sheet.body).to_string();
    let shared_end = sheet.find("/* Dice */").expect("the shared rules");
    // The rules drawn over any board come after every game's own, so that
    // they win over a game's rule of the same specificity.
    let board_start = sheet.find(".evalbar-track").expect("the board's rules");
    let styles = kibitz::registry::styles();
    let own: Vec<&str> = styles.iter().copied().filter(|s| !s.trim().is_empty()).collect();
    assert!(own.len() >= 10, "only {} games bring a style", own.len());
    for style in own {
        let at = sheet
            .find(style)
            .unwrap_or_else(|| panic!("a game's style is missing: {style:.80}"));
        assert!(shared_end < at && at + style.len() <= board_start, "{style:.80}");
    }
}
