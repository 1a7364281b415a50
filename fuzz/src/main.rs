//! `toklab-fuzz`: runs the targets for a time budget (or a number of iterations) and prints
//! the iterations and failures per target. See the "Fuzzing" section of CONTRIBUTING.md.
//!
//! ```text
//! cargo run -p toklab-fuzz --release -- [--seconds N] [--iterations N] [--seed S]
//!     [--target NAME]... [--hang-seconds N] [--list]
//! ```

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use toklab_fuzz::{Input, Prepared, Target, keep_failure, quiet_panics};

struct Options {
    seconds: f64,
    iterations: Option<u64>,
    seed: u64,
    targets: Vec<Target>,
    hang_seconds: u64,
}

fn parse_args() -> Result<Option<Options>, String> {
    let mut options = Options {
        seconds: 60.0,
        iterations: None,
        seed: 16,
        targets: Vec::new(),
        hang_seconds: 20,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--seconds" => options.seconds = value()?.parse().map_err(|e| format!("{e}"))?,
            "--iterations" => {
                options.iterations = Some(value()?.parse().map_err(|e| format!("{e}"))?)
            }
            "--seed" => options.seed = value()?.parse().map_err(|e| format!("{e}"))?,
            "--hang-seconds" => {
                options.hang_seconds = value()?.parse().map_err(|e| format!("{e}"))?
            }
            "--target" => {
                let name = value()?;
                options
                    .targets
                    .push(Target::named(&name).ok_or(format!("no target called {name}"))?);
            }
            "--list" => {
                for t in Target::all() {
                    println!("{}", t.name());
                }
                return Ok(None);
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.targets.is_empty() {
        options.targets = Target::all();
    }
    Ok(Some(options))
}

/// What the watchdog sees: the iteration under way and when it started.
struct Current {
    started_ms: AtomicU64,
    input: Mutex<Option<(Target, Input)>>,
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(Some(o)) => o,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("toklab-fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    quiet_panics();
    let clock = Instant::now();
    let current = Arc::new(Current {
        started_ms: AtomicU64::new(u64::MAX),
        input: Mutex::new(None),
    });
    spawn_watchdog(Arc::clone(&current), clock, options.hang_seconds);

    let per_target = options.seconds / options.targets.len() as f64;
    let scratch = std::env::temp_dir().join(format!("toklab-fuzz-{}", std::process::id()));
    println!(
        "{:<22} {:>10} {:>9} {:>8}",
        "target", "iterations", "failures", "seconds"
    );
    let mut total_failures = 0;
    for &target in &options.targets {
        let dir = scratch.join(target.name());
        std::fs::create_dir_all(&dir).expect("scratch folder");
        let prepared = match Prepared::new(target, &dir) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("toklab-fuzz: {}: cannot prepare: {e}", target.name());
                total_failures += 1;
                continue;
            }
        };
        let start = Instant::now();
        let budget = Duration::from_secs_f64(per_target);
        let (mut n, mut failures) = (0u64, 0u64);
        loop {
            match options.iterations {
                Some(limit) if n >= limit => break,
                None if start.elapsed() >= budget => break,
                _ => {}
            }
            let input = prepared.input(options.seed, n);
            *current.input.lock().unwrap() = Some((target, input.clone()));
            current
                .started_ms
                .store(clock.elapsed().as_millis() as u64, Ordering::Release);
            let outcome = prepared.check(&input);
            current.started_ms.store(u64::MAX, Ordering::Release);
            if let Err(e) = outcome {
                failures += 1;
                match keep_failure(target, &input, "crash") {
                    Ok(path) => eprintln!(
                        "toklab-fuzz: {} iteration {n}: {e}\n  kept as {}",
                        target.name(),
                        path.display()
                    ),
                    Err(io) => eprintln!("toklab-fuzz: {}: {e} (not kept: {io})", target.name()),
                }
            }
            n += 1;
        }
        println!(
            "{:<22} {:>10} {:>9} {:>8.1}",
            target.name(),
            n,
            failures,
            start.elapsed().as_secs_f64()
        );
        total_failures += failures;
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    if total_failures > 0 {
        eprintln!("toklab-fuzz: {total_failures} failure(s); inputs kept under fuzz/regressions/");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Ends the run when one iteration takes longer than `limit` seconds, keeping its input as a
/// regression (`hang-…`): a hang cannot be caught like a panic.
fn spawn_watchdog(current: Arc<Current>, clock: Instant, limit: u64) {
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(250));
            let started = current.started_ms.load(Ordering::Acquire);
            if started == u64::MAX {
                continue;
            }
            let now = clock.elapsed().as_millis() as u64;
            if now.saturating_sub(started) > limit * 1000 {
                if let Some((target, input)) = current.input.lock().unwrap().clone() {
                    match keep_failure(target, &input, "hang") {
                        Ok(path) => eprintln!(
                            "toklab-fuzz: {}: an iteration ran over {limit} s; kept as {}",
                            target.name(),
                            path.display()
                        ),
                        Err(e) => eprintln!("toklab-fuzz: {}: hang not kept: {e}", target.name()),
                    }
                }
                std::process::exit(3);
            }
        }
    });
}
