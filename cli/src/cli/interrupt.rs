//! Ctrl-C (SIGINT): the first one cancels the searches under way through
//! the library's [`Cancel`] handle — they stop within a few thousand nodes,
//! and the command prints what it found and exits 130; a second one exits
//! at once. Only commands that hand the handle to their searches install
//! it ([`handle`]); elsewhere Ctrl-C ends the process as usual.

use std::sync::OnceLock;

use dlx::Cancel;

static HANDLE: OnceLock<Cancel> = OnceLock::new();

/// The handle Ctrl-C cancels, installed on first use. Where no handler can
/// be installed, a handle that nothing cancels (Ctrl-C then ends the
/// process as usual).
pub(crate) fn handle() -> Cancel {
    HANDLE
        .get_or_init(|| {
            let cancel = Cancel::new();
            let on_signal = cancel.clone();
            let _ = ctrlc::set_handler(move || {
                if on_signal.is_cancelled() {
                    std::process::exit(i32::from(super::exit::INTERRUPTED));
                }
                on_signal.cancel();
            });
            cancel
        })
        .clone()
}

/// Whether Ctrl-C was pressed (after [`handle`]).
pub(crate) fn interrupted() -> bool {
    HANDLE.get().is_some_and(Cancel::is_cancelled)
}
