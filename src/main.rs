//! `spot-the-ships`: turns the arguments and standard streams into a call to the
//! library's command runner, and its result into output and an exit status.
#![forbid(unsafe_code)]

use spot_the_ships::cli::{self, Streams};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let (stdin, stdout, stderr) = (io::stdin(), io::stdout(), io::stderr());
    let (stdin_tty, stdout_tty, stderr_tty) = (stdin.is_terminal(), stdout.is_terminal(), stderr.is_terminal());
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    // Not locked for the whole run, unlike stdout (buffered for speed): a line written
    // to stderr from a worker thread (a debugging print) would otherwise wait forever.
    let mut err = stderr;
    let mut streams =
        Streams { stdin: &mut stdin.lock(), stdout: &mut out, stderr: &mut err, stdin_tty, stdout_tty, stderr_tty };
    let result = cli::run(&args, &mut streams).and_then(|status| {
        out.flush().map(|()| status).map_err(|e| cli::CliError::Io(cli::stream_error("writing standard output", e)))
    });
    match result {
        // check: 1 when a case was not accepted.
        Ok(status) => ExitCode::from(status.code()),
        // The reader went away (`| head`): stop quietly, as command-line tools do.
        // Checked through every wrapping (`CliError::In` names the command).
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "{}", cli::error_line(&e));
            ExitCode::from(2)
        }
    }
}
