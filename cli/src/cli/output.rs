//! Standard output for every command: buffered, and a failure to write is a
//! failure of the run, never a panic and never a silent exit 0.
//!
//! Two cases, as the exit-code table of docs/cli.md says:
//! * the pipe was closed by its reader (`dlx … | head -1`): the command
//!   stops its work at once (each write says whether to go on), prints
//!   nothing more, and exits with the code of what it did before — as
//!   ripgrep does, and as a Unix tool killed by `SIGPIPE` stops;
//! * any other error (a full disk, `> /dev/full`, a device error): one
//!   message on stderr, and exit 2, so that `dlx … > out && mv out final`
//!   never keeps a truncated file.

use std::io::{self, BufWriter, StdoutLock, Write};

use super::exit;

/// Standard output, buffered, remembering its first error.
pub(crate) struct Output {
    inner: BufWriter<StdoutLock<'static>>,
    error: Option<io::Error>,
}

impl Output {
    /// Standard output, locked for the run.
    pub(crate) fn stdout() -> Output {
        Output {
            inner: BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            error: None,
        }
    }

    /// Writes `s`. False once writing has failed: the caller stops its work
    /// (what it would write is lost anyway).
    pub(crate) fn print(&mut self, s: &str) -> bool {
        if self.error.is_none() {
            if let Err(e) = self.inner.write_all(s.as_bytes()) {
                self.error = Some(e);
            }
        }
        self.error.is_none()
    }

    /// Writes `s` and a newline.
    pub(crate) fn println(&mut self, s: &str) -> bool {
        self.print(s) && self.print("\n")
    }

    /// Keeps `result`'s error, if any, as the first; hands the caller one of
    /// its kind.
    fn keep<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|e| {
            let kind = e.kind();
            self.error.get_or_insert(e);
            kind.into()
        })
    }

    /// Whether every write so far succeeded.
    pub(crate) fn is_ok(&self) -> bool {
        self.error.is_none()
    }

    /// Flushes, and gives the run's exit code: `code` when everything was
    /// written or the reader closed the pipe; after any other error, a
    /// message on stderr (`dlx <command>: cannot write output: …`) and 2.
    pub(crate) fn finish(mut self, command: &str, code: u8) -> u8 {
        if self.error.is_none() {
            if let Err(e) = self.inner.flush() {
                self.error = Some(e);
            }
        }
        // (Dropping the writer afterwards retries the flush, quietly.)
        match self.error {
            None => code,
            Some(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
            Some(e) => {
                eprintln!("{command}: cannot write output: {e}");
                exit::BAD_INPUT
            }
        }
    }
}

/// For writers such as `knuth::write`: the first error is kept for
/// [`Output::finish`], and every later write fails at once.
impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(e) = &self.error {
            return Err(e.kind().into());
        }
        let written = self.inner.write(buf);
        self.keep(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(e) = &self.error {
            return Err(e.kind().into());
        }
        let flushed = self.inner.flush();
        self.keep(flushed)
    }
}
