//! The `strata` binary: see [`strata::application::cli`].

/// mimalloc instead of the system allocator: request handling allocates many small,
/// short-lived values, which glibc's malloc serves markedly slower under load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    strata::application::cli::main()
}
