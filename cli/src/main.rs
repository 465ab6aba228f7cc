//! The `dlx` command line. All printing and exit codes live in [`cli`].

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
