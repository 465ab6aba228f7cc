//! The progress line of a long `dlx cover` run: nodes/s, solutions so far,
//! the fraction of the tree done by DLX1's estimate and the time left at
//! that pace, read from the search's [`Progress`] by a thread of its own.
//!
//! On a terminal it is an indicatif bar on stderr, redrawn in place and
//! cleared at the end; it is on by default there and off with `--quiet`.
//! `--progress` forces it on where stderr is not a terminal (a log file, a
//! cluster's job output): then it is a plain line every
//! [`LINE_EVERY`] and one at the end, which a log keeps.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use dlx::Progress;

/// How often the bar is redrawn.
const BAR_EVERY: Duration = Duration::from_millis(100);

/// How often a plain progress line is written.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// A progress display running beside a search.
pub(crate) struct Shown {
    progress: Arc<Progress>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    start: Instant,
    lines: bool,
}

/// Whether to show progress: `--progress` forces it, `--quiet` stops it,
/// else a terminal on stderr decides.
pub(crate) fn wanted(forced: bool, quiet: bool) -> bool {
    forced || (!quiet && std::io::stderr().is_terminal())
}

/// Starts showing `progress` (a bar on a terminal, plain lines elsewhere).
pub(crate) fn show(progress: Arc<Progress>) -> Shown {
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let lines = !std::io::stderr().is_terminal();
    let thread = {
        let (progress, stop) = (progress.clone(), stop.clone());
        std::thread::spawn(move || {
            if lines {
                run_lines(&progress, &stop, start)
            } else {
                run_bar(&progress, &stop, start)
            }
        })
    };
    Shown {
        progress,
        stop,
        thread: Some(thread),
        start,
        lines,
    }
}

impl Shown {
    /// Stops the display: the bar is cleared, a plain display writes its
    /// last line.
    pub(crate) fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if self.lines {
            eprintln!("progress: {}", line(&self.progress, self.start, true));
        }
    }
}

/// `42.1% · 1.23M nodes/s · 1234 solutions · 3m 12s left`, and the time
/// elapsed with `elapsed` (the plain lines; the bar keeps to one line of a
/// narrow terminal).
fn line(p: &Progress, start: Instant, elapsed_too: bool) -> String {
    let elapsed = start.elapsed().as_secs_f64().max(1e-9);
    let f = p.fraction();
    let left = if f >= 1.0 - 1e-9 {
        "done".to_string()
    } else if f > 0.0 {
        format!("{} left", clock(elapsed * (1.0 - f) / f))
    } else {
        "? left".to_string()
    };
    // A memo count's nodes are its states, and it finds some in its table.
    let (nodes, hits) = match p.hits() {
        0 => ("nodes", String::new()),
        h => ("states", format!(" · {h} hits")),
    };
    // A memo's counts outgrow a u64 (reported as its most).
    let solutions = match p.solutions() {
        u64::MAX => "2^64 or more".to_string(),
        n => n.to_string(),
    };
    let mut line = format!(
        "{:.1}% · {} {nodes}/s{hits} · {solutions} solutions · {left}",
        100.0 * f,
        rate(p.nodes() as f64 / elapsed),
    );
    if elapsed_too {
        line += &format!(" · {} elapsed", clock(elapsed));
    }
    line
}

fn rate(r: f64) -> String {
    match r {
        r if r >= 1e9 => format!("{:.2}G", r / 1e9),
        r if r >= 1e6 => format!("{:.2}M", r / 1e6),
        r if r >= 1e3 => format!("{:.1}k", r / 1e3),
        r => format!("{r:.0}"),
    }
}

/// `3m 12s`, `2h 05m`, `4d 03h`.
fn clock(seconds: f64) -> String {
    let s = seconds.min(1e12) as u64;
    match s {
        s if s < 60 => format!("{s}s"),
        s if s < 3600 => format!("{}m {:02}s", s / 60, s % 60),
        s if s < 86400 => format!("{}h {:02}m", s / 3600, s / 60 % 60),
        s => format!("{}d {:02}h", s / 86400, s / 3600 % 24),
    }
}

fn run_bar(p: &Progress, stop: &AtomicBool, start: Instant) {
    let bar = ProgressBar::with_draw_target(Some(10_000), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:20} {wide_msg}") {
        bar.set_style(style);
    }
    while !stop.load(Ordering::Relaxed) {
        bar.set_position((p.fraction() * 10_000.0) as u64);
        bar.set_message(line(p, start, false));
        std::thread::sleep(BAR_EVERY);
    }
    bar.finish_and_clear();
}

fn run_lines(p: &Progress, stop: &AtomicBool, start: Instant) {
    let mut next = start + LINE_EVERY;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if Instant::now() >= next {
            eprintln!("progress: {}", line(p, start, true));
            next += LINE_EVERY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{clock, rate};

    #[test]
    fn times_and_rates_read_as_people_write_them() {
        assert_eq!(clock(5.2), "5s");
        assert_eq!(clock(192.0), "3m 12s");
        assert_eq!(clock(2.0 * 3600.0 + 5.0 * 60.0), "2h 05m");
        assert_eq!(clock(4.0 * 86400.0 + 3.0 * 3600.0), "4d 03h");
        assert_eq!(rate(1_234_567.0), "1.23M");
        assert_eq!(rate(950.0), "950");
    }
}
