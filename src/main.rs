use std::process::ExitCode;

use clap::Parser;
use kibitz::cli::{Cli, Command};
use kibitz::config::Config;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => serve(cli.serve),
        Some(Command::Serve(config)) => serve(config),
        Some(Command::Arena(args)) => match kibitz::cli::arena(&args) {
            Ok(report) => {
                println!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("kibitz arena: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Perft(args)) => {
            let started = std::time::Instant::now();
            match kibitz::cli::perft(&args) {
                Ok(count) => {
                    eprintln!("{} ms", started.elapsed().as_millis());
                    println!("{count}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("kibitz perft: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Game(command)) => match command.run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("kibitz: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn serve(config: Config) -> ExitCode {
    kibitz::telemetry::init_tracing(&config.log);
    limit_malloc_arenas(config.malloc_arenas);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kibitz: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(kibitz::app::run(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "kibitz stopped");
            eprintln!("kibitz: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Bounds glibc's malloc arenas before any thread is started (see
/// `--malloc-arenas`): memory the caches free goes back to a few shared
/// arenas instead of staying in one per thread.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn limit_malloc_arenas(arenas: usize) {
    let Ok(arenas) = libc::c_int::try_from(arenas) else {
        return;
    };
    if arenas > 0 {
        // SAFETY: mallopt only sets an allocator parameter; called before
        // the runtime's threads exist.
        let done = unsafe { libc::mallopt(libc::M_ARENA_MAX, arenas) };
        if done != 1 {
            tracing::warn!(arenas, "could not bound the malloc arenas");
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn limit_malloc_arenas(_arenas: usize) {}
