//! SIGINT and SIGTERM: a request to stop cleanly, not an abrupt exit.
//!
//! [`install`] registers a handler (the `ctrlc` crate, with its `termination` feature for
//! SIGTERM) that sets [`REQUESTED`]. Long runs poll it between units of work (the
//! tournament runner between blocks of games, experiments between cells): they stop
//! scheduling work, save everything finished, mark their manifest `interrupted` and print
//! the command that resumes them; the process then exits with code 130 (128 + SIGINT, the
//! shell's convention). A second signal exits at once with code 130, leaving the
//! directory as a killed run leaves it (partial files and a manifest saying `running`,
//! nothing that looks complete).

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first SIGINT or SIGTERM after [`install`].
pub static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted command: 128 + SIGINT.
pub const EXIT_CODE: u8 = 130;

/// Installs the handler (once per process; later calls do nothing). If it cannot be
/// installed (another handler owns the signals), a warning is printed and signals keep
/// their default effect.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let r = ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::SeqCst) {
                eprintln!("\nsecond interrupt: stopping now, without saving");
                std::process::exit(i32::from(EXIT_CODE));
            }
            eprintln!(
                "\ninterrupt: finishing the games in flight and saving progress \
                 (interrupt again to stop at once)"
            );
        });
        if let Err(e) = r {
            eprintln!("warning: cannot handle SIGINT/SIGTERM ({e}); an interrupt loses the run");
        }
    });
}

/// Whether a stop was requested (by a signal, or by `flag` when given).
pub fn requested(flag: Option<&AtomicBool>) -> bool {
    flag.is_some_and(|f| f.load(Ordering::Relaxed))
}
