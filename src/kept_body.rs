//! A JSON answer kept written out, with its gzip form made once when it
//! was written (see `crate::http::precompressed`, which sends it): a Pig
//! policy is 1.2 MB of JSON, and compressing it again per request on the
//! async threads starved every other request (issue 45). No HTTP here, so
//! the games and the caches that keep such bodies need not import `http`.

use std::io::Write;
use std::sync::Arc;

use bytes::Bytes;
use flate2::write::GzEncoder;

/// Bodies at least this long are worth compressing once and keeping
/// compressed; below it, compressing per request costs less than a
/// millisecond.
pub const COMPRESS_ONCE_FROM: usize = 64 * 1024;

/// A JSON answer, with its gzip form when it was made ahead.
#[derive(Clone, Debug)]
pub struct KeptBody {
    json: Bytes,
    /// Shared by every clone, so that a cache and the answers in flight
    /// hold one copy.
    gzip: Option<Arc<Bytes>>,
}

impl From<Bytes> for KeptBody {
    /// A body sent as it is (the compression layer compresses it per
    /// request where that is worth it).
    fn from(json: Bytes) -> Self {
        KeptBody { json, gzip: None }
    }
}

impl KeptBody {
    /// `json` with its gzip form made now, when it is long enough to be
    /// worth it. CPU-bound (about 20 ms for a megabyte): call it off the
    /// async threads, where the body was written.
    pub fn compressed(json: Bytes) -> Self {
        let gzip = (json.len() >= COMPRESS_ONCE_FROM)
            .then(|| gzip(&json))
            .flatten()
            .map(Arc::new);
        KeptBody { json, gzip }
    }

    pub fn json(&self) -> &Bytes {
        &self.json
    }

    /// The bytes it holds: its JSON and its gzip form.
    pub fn len(&self) -> usize {
        self.json.len() + self.gzip.as_ref().map_or(0, |g| g.len())
    }

    pub fn is_empty(&self) -> bool {
        self.json.is_empty()
    }

    /// The gzip form made ahead, if there is one.
    pub fn gzip_form(&self) -> Option<&Bytes> {
        self.gzip.as_deref()
    }

    /// The JSON, consumed.
    pub fn into_json(self) -> Bytes {
        self.json
    }
}

/// `json` compressed with gzip at the compression layer's level, or None
/// when that would not make it smaller.
fn gzip(json: &[u8]) -> Option<Bytes> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(json.len() / 4), flate2::Compression::default());
    encoder.write_all(json).ok()?;
    let mut compressed = encoder.finish().ok()?;
    compressed.shrink_to_fit();
    (compressed.len() < json.len()).then(|| Bytes::from(compressed))
}
