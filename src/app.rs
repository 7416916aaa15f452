//! Builds the service from a Config and runs it until a shutdown signal.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use thiserror::Error;
use tokio::net::TcpListener;
use tokio::sync::Notify;

use crate::config::{Config, ConfigError};
use crate::http::{self, AppState};
use crate::store::{Store, StoreError};

#[derive(Debug, Error)]
pub enum StartupError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir { path: String, source: std::io::Error },
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("server error: {0}")]
    Serve(std::io::Error),
}

/// The state and router, before anything is loaded or bound. Settings
/// that contradict each other are refused here (`Config::validate`), and
/// those reconciled are logged.
pub fn build(config: Config) -> Result<(AppState, Router), StartupError> {
    config.validate()?;
    for note in config.notes() {
        tracing::warn!("{note}");
    }
    let config = config.with_memory_budget(crate::registry::memo_count(), crate::registry::table_count());
    std::fs::create_dir_all(&config.data_dir).map_err(|source| StartupError::DataDir {
        path: config.data_dir.display().to_string(),
        source,
    })?;
    let _ = crate::telemetry::prometheus();
    let store = Store::connect_lazy(&config.database_url(), crate::registry::MATCH_GAMES)?;
    let state = AppState::new(config, store);
    let router = http::router(state.clone());
    Ok((state, router))
}

/// Loads the tables and prepares the database in the background, so the
/// server answers /healthz (and /readyz with 503) at once.
pub fn start_background_work(state: &AppState) {
    crate::registry::start(state);
    let store = state.store.clone();
    let config = Arc::clone(&state.config);
    let solvers = state.solvers.clone();
    tokio::spawn(async move {
        store.migrate_until_ready().await;
        if let Err(error) = crate::records::rewrite_unrecorded(&store, &solvers).await {
            tracing::error!(%error, "stored matches without records were not rewritten; each is when next played");
        }
        store
            .purge_matches_forever(
                Duration::from_secs(config.match_retention_secs),
                Duration::from_secs(config.match_idle_secs),
                Duration::from_secs(config.purge_interval_secs),
            )
            .await
    });
}

/// A server running in this process (tests and `serve` use it).
pub struct RunningServer {
    pub addr: SocketAddr,
    pub state: AppState,
    shutdown: Arc<Notify>,
    task: tokio::task::JoinHandle<Result<(), StartupError>>,
}

impl RunningServer {
    /// Starts draining, lets requests in flight finish, and waits.
    pub async fn shutdown(self) -> Result<(), StartupError> {
        self.shutdown.notify_one();
        self.task
            .await
            .map_err(|e| StartupError::Serve(std::io::Error::other(e)))?
    }
}

pub async fn spawn(config: Config) -> Result<RunningServer, StartupError> {
    let addr = config.bind;
    let grace = Duration::from_secs(config.shutdown_grace_secs);
    let (state, router) = build(config)?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| StartupError::Bind { addr, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| StartupError::Bind { addr, source })?;
    // Before the background work starts, so that it is the first line.
    let base = base_url(addr);
    tracing::info!("kibitz listening on {base} — playground {base}/ — spec {base}/openapi.yaml");
    let metrics_listener = match state.config.metrics_bind {
        Some(addr) => {
            let listener = TcpListener::bind(addr)
                .await
                .map_err(|source| StartupError::Bind { addr, source })?;
            tracing::info!("metrics on {}/metrics", base_url(listener.local_addr().unwrap_or(addr)));
            Some(listener)
        }
        None => None,
    };
    start_background_work(&state);
    let shutdown = Arc::new(Notify::new());
    let task = tokio::spawn(serve_until_shutdown(
        listener,
        metrics_listener,
        router,
        state.clone(),
        Arc::clone(&shutdown),
        grace,
    ));
    Ok(RunningServer {
        addr,
        state,
        shutdown,
        task,
    })
}

async fn serve_until_shutdown(
    listener: TcpListener,
    metrics_listener: Option<TcpListener>,
    router: Router,
    state: AppState,
    shutdown: Arc<Notify>,
    grace: Duration,
) -> Result<(), StartupError> {
    let drain_started = Arc::new(Notify::new());
    let signal = {
        let state = state.clone();
        let drain_started = Arc::clone(&drain_started);
        async move {
            shutdown.notified().await;
            state.start_draining();
            tracing::info!("draining: finishing requests in flight");
            drain_started.notify_one();
        }
    };
    let limits = http::serve::ConnectionLimits::from_config(&state.config);
    // The metrics port needs no draining: it stops with the main server.
    let metrics_server = metrics_listener.map(|listener| {
        tokio::spawn(http::serve::serve(
            listener,
            http::metrics_router(state.clone()),
            limits,
            std::future::pending(),
        ))
    });
    let server = http::serve::serve(listener, router, limits, signal);
    let outcome = tokio::select! {
        () = server => Ok(()),
        _ = async { drain_started.notified().await; tokio::time::sleep(grace).await } => {
            tracing::warn!(grace_secs = grace.as_secs(), "grace period over; closing with requests still in flight");
            Ok(())
        }
    };
    if let Some(task) = metrics_server {
        task.abort();
    }
    state.store.close().await;
    outcome
}

/// The URL a browser on this machine reaches the server at: an unspecified
/// bind address (0.0.0.0, ::) becomes the loopback address.
pub fn base_url(addr: SocketAddr) -> String {
    let mut addr = addr;
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        });
    }
    format!("http://{addr}")
}

/// `kibitz serve`: runs until SIGINT or SIGTERM.
pub async fn run(config: Config) -> Result<(), StartupError> {
    let server = spawn(config).await?;
    wait_for_signal().await;
    server.shutdown().await?;
    tracing::info!("stopped");
    Ok(())
}

async fn wait_for_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}
