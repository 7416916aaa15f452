//! A bounded cache of chess answers, so that a repeated question (the same
//! position under the same limits) costs no engine time.
//!
//! Keyed by the position's FEN after the moves (as lichess's cloud
//! evaluations are) plus every limit that changes the answer. Only
//! full-strength answers are kept: a weakened level is meant to vary.
//! Eviction is first-in first-out: cheap, and an analysis service's hot
//! positions (openings, a position being streamed to several viewers) are
//! asked again soon after they are first asked.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::analysis::ChessAnalysis;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CacheKey {
    /// The position (FEN after the moves).
    pub fen: String,
    /// The time budget asked for (a longer search may answer differently).
    pub max_ms: u64,
    pub depth: Option<u32>,
    pub multi_pv: u32,
}

/// The answers, and their keys oldest first (the eviction order).
type Entries = (HashMap<CacheKey, Arc<ChessAnalysis>>, VecDeque<CacheKey>);

pub struct AnalysisCache {
    capacity: usize,
    entries: Mutex<Entries>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl AnalysisCache {
    /// A cache of at most `capacity` answers (0 turns it off). An answer
    /// is about 1-2 KiB with its lines.
    pub fn new(capacity: usize) -> Self {
        AnalysisCache {
            capacity,
            entries: Mutex::new((HashMap::new(), VecDeque::new())),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    pub fn get(&self, key: &CacheKey) -> Option<Arc<ChessAnalysis>> {
        let found = self.entries.lock().ok().and_then(|e| e.0.get(key).cloned());
        let counter = if found.is_some() { &self.hits } else { &self.misses };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    pub fn insert(&self, key: CacheKey, analysis: ChessAnalysis) {
        if self.capacity == 0 {
            return;
        }
        let Ok(mut guard) = self.entries.lock() else {
            return;
        };
        let (map, order) = &mut *guard;
        if map.insert(key.clone(), Arc::new(analysis)).is_none() {
            order.push_back(key);
        }
        while map.len() > self.capacity {
            match order.pop_front() {
                Some(old) => {
                    map.remove(&old);
                }
                None => break,
            }
        }
    }

    pub fn len(&self) -> usize {
        self.entries.lock().map(|e| e.0.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (hits, misses) so far.
    pub fn stats(&self) -> (u64, u64) {
        (self.hits.load(Ordering::Relaxed), self.misses.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::analysis::EvalScore;
    use crate::games::chess::rules::SanMove;

    fn answer(depth: u32) -> ChessAnalysis {
        ChessAnalysis {
            player: "white".into(),
            best: SanMove {
                uci: "e2e4".into(),
                san: "e4".into(),
            },
            score: EvalScore::Cp(20),
            white_score: EvalScore::Cp(20),
            win_percent: 51.8,
            depth,
            nodes: 1,
            pvs: Vec::new(),
            solved: false,
            evaluation: EvalScore::Cp(20).evaluation(),
        }
    }

    fn key(fen: &str) -> CacheKey {
        CacheKey {
            fen: fen.into(),
            max_ms: 100,
            depth: None,
            multi_pv: 1,
        }
    }

    #[test]
    fn the_cache_stays_within_its_capacity_dropping_the_oldest() {
        let cache = AnalysisCache::new(2);
        cache.insert(key("a"), answer(1));
        cache.insert(key("b"), answer(2));
        cache.insert(key("c"), answer(3));
        assert_eq!(cache.len(), 2);
        assert!(cache.get(&key("a")).is_none());
        assert_eq!(cache.get(&key("c")).map(|a| a.depth), Some(3));
        assert_eq!(cache.stats(), (1, 1));
        let off = AnalysisCache::new(0);
        off.insert(key("a"), answer(1));
        assert!(off.is_empty());
    }
}
