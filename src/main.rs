fn main() -> std::process::ExitCode {
    toklab_cli::cli::main()
}
