//! Where a search's intermediate answers go while it runs (NDJSON lines of
//! a streamed answer): a small bounded channel that drops a report rather
//! than hold the search up or grow without bound for a slow reader.

use bytes::Bytes;
use serde::Serialize;
use tokio::sync::mpsc;

/// Reports waiting to be written; later ones are dropped while it is full.
pub const LINES_BUFFERED: usize = 4;

/// Where a search's intermediate answers go. Cheap to clone.
#[derive(Clone)]
pub struct Lines {
    tx: mpsc::Sender<Bytes>,
}

impl Lines {
    pub fn new(tx: mpsc::Sender<Bytes>) -> Lines {
        Lines { tx }
    }

    /// Queues `body` (a response, serialised as a JSON object) as a line
    /// with `"final": false`; drops it if the reader is behind.
    pub fn send<T: Serialize>(&self, body: &T) {
        let Some(line) = serde_json::to_vec(body).ok().and_then(|json| line(json, false)) else {
            return;
        };
        if self.tx.try_send(line).is_err() {
            metrics::counter!("kibitz_stream_lines_dropped_total").increment(1);
        }
    }
}

/// A serialised JSON object as one NDJSON line with its `final` field.
/// None if `json` is not an object.
pub fn line(mut json: Vec<u8>, last: bool) -> Option<Bytes> {
    if json.first() != Some(&b'{') || json.last() != Some(&b'}') {
        return None;
    }
    json.pop();
    if json.len() > 1 {
        json.push(b',');
    }
    json.extend_from_slice(if last {
        b"\"final\":true}\n"
    } else {
        b"\"final\":false}\n"
    });
    Some(Bytes::from(json))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_carry_final() {
        assert_eq!(
            line(b"{\"a\":1}".to_vec(), false).unwrap(),
            &b"{\"a\":1,\"final\":false}\n"[..]
        );
        assert_eq!(line(b"{}".to_vec(), true).unwrap(), &b"{\"final\":true}\n"[..]);
        assert!(line(b"[1]".to_vec(), true).is_none());
    }
}
