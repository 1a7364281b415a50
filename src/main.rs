fn main() -> std::process::ExitCode {
    toklab::cli::main()
}
