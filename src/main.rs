//! The `strata` binary: see [`strata::cli`].

fn main() -> std::process::ExitCode {
    strata::cli::main()
}
