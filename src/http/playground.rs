//! GET / and GET /playground/{file}: the playground page, a person playing
//! the AI in a browser. The files live in web/ and are compiled into the
//! binary, so the page works offline and from the container with nothing
//! beside the executable.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::core::problem::Problem;
use crate::registry;

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The tab's icon, also at /favicon.ico where browsers look by default.
const FAVICON: &str = include_str!("../../web/favicon.svg");

/// The page itself, served at `/` (its modules are under /playground/).
const INDEX: &str = include_str!("../../web/index.html");

/// The shared style rules, before every game's own...
const SHARED_STYLE: &str = include_str!("../../web/style.css");
/// ...and those drawn over any game's board, after them (so that they win
/// over a game's rule of the same specificity).
const BOARD_STYLE: &str = include_str!("../../web/board.css");

/// The page's one style sheet, `style.css`: the shared rules, each game's
/// own (its folder's `web/style.css`, in menu order), the board's rules.
pub fn style_sheet() -> &'static str {
    static SHEET: OnceLock<String> = OnceLock::new();
    SHEET.get_or_init(|| {
        let mut sheet = String::from(SHARED_STYLE);
        for style in registry::styles() {
            sheet.push('\n');
            sheet.push_str(style);
        }
        sheet.push('\n');
        sheet.push_str(BOARD_STYLE);
        sheet
    })
}

/// Every file the page loads but the games' own (which the registry has:
/// each game's drawing `{id}.js` and its analysis board's rules
/// `{id}-rules.js`) and the style sheet ([`style_sheet`]), by the name it
/// has under /playground/.
pub const ASSETS: &[(&str, &str, &str)] = &[
    ("app.js", JS, include_str!("../../web/app.js")),
    ("api.js", JS, include_str!("../../web/api.js")),
    ("ui.js", JS, include_str!("../../web/ui.js")),
    ("options.js", JS, include_str!("../../web/options.js")),
    ("review.js", JS, include_str!("../../web/review.js")),
    ("evalbar.js", JS, include_str!("../../web/evalbar.js")),
    ("analysis-board.js", JS, include_str!("../../web/analysis-board.js")),
    ("line.js", JS, include_str!("../../web/line.js")),
    ("share.js", JS, include_str!("../../web/share.js")),
    ("lines.js", JS, include_str!("../../web/lines.js")),
    ("engine-board.js", JS, include_str!("../../web/engine-board.js")),
    ("favicon.svg", SVG, FAVICON),
];

/// Everything the page needs comes from this server; a stray reference to a
/// CDN or an external font fails loudly in the browser instead of quietly
/// depending on the network.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

pub async fn index(headers: HeaderMap) -> Response {
    serve(&headers, HTML, INDEX)
}

/// GET /favicon.ico: the SVG icon (browsers read it by its content type).
pub async fn favicon(headers: HeaderMap) -> Response {
    serve(&headers, SVG, FAVICON)
}

pub async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Result<Response, Problem> {
    let shared = ASSETS
        .iter()
        .find(|(name, _, _)| *name == file)
        .map(|(_, content_type, body)| (*content_type, *body));
    let style = || (file == "style.css").then(|| (CSS, style_sheet()));
    let drawing = || registry::drawing(&file).map(|body| (JS, body));
    let (content_type, body) = shared.or_else(style).or_else(drawing).ok_or_else(|| {
        let shown: String = file.chars().take(60).collect();
        Problem::new(StatusCode::NOT_FOUND, format!("the playground has no file {shown:?}"))
    })?;
    Ok(serve(&headers, content_type, body))
}

/// The files change only with the binary, and their names carry no
/// version, so browsers revalidate every time (cheap: a 304 by ETag) rather
/// than run an old module against a new server.
fn serve(request: &HeaderMap, content_type: &'static str, body: &'static str) -> Response {
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(body.as_bytes())[..12]));
    let fresh = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, content_type)], body).into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if content_type == HTML {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    response
}
