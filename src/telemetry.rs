//! Logs (tracing) and metrics (Prometheus exposition).

use std::io::IsTerminal;
use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tracing_subscriber::EnvFilter;

/// Installs the global tracing subscriber once; later calls do nothing.
/// Colours (ANSI escapes) only when the log goes to a terminal, never into
/// files, pipes or a container's log (nor with NO_COLOR set).
pub fn init_tracing(filter: &str) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_ansi(std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()))
        .try_init();
}

static PROMETHEUS: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process-wide metrics recorder (installed on first use; every app in
/// one process, as in the tests, shares it).
pub fn prometheus() -> Option<PrometheusHandle> {
    PROMETHEUS
        .get_or_init(|| {
            let seconds = [
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &seconds)
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            Some(handle)
        })
        .clone()
}
