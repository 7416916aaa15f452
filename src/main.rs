use std::process::ExitCode;

use clap::Parser;
use kibitz::config::{Cli, Command, Config};

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
