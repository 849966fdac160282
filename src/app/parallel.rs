//! Many captures on every core: `detect` over many nodes, `check` over
//! many cases.
//!
//! Contract: the answers come back in argument order, whatever order the
//! threads finish in, and what a thread writes to stderr (a capture's
//! summary, a warning) is held and written in that order too: the output
//! is the output of one thread. At most a few answers wait for a slower
//! earlier one (a window of twice the threads), so memory stays that of
//! the captures being read plus the answers already given.

use std::cell::RefCell;
use std::io::{self, Write};
use std::sync::{Condvar, Mutex, PoisonError};

thread_local! {
    /// What this thread would have written to stderr, while it is held.
    static HELD: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// Writes to stderr, or where this thread's stderr is held (see
/// [`ordered`]).
pub(crate) fn stderr(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    HELD.with(|held| match held.borrow_mut().as_mut() {
        Some(buf) => write(buf),
        None => {
            let err = io::stderr();
            let mut err = err.lock();
            write(&mut err)?;
            err.flush()
        }
    })
}

/// Runs `f` with this thread's stderr held; returns what it wrote there.
fn holding_stderr<R>(f: impl FnOnce() -> R) -> (R, Vec<u8>) {
    HELD.with(|held| *held.borrow_mut() = Some(Vec::new()));
    let r = f();
    let buf = HELD.with(|held| held.borrow_mut().take()).unwrap_or_default();
    (r, buf)
}

/// How many threads to use: `jobs` when given, else every core the
/// process may run on; never more than there are items, at least one.
pub fn threads(jobs: Option<usize>, items: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    jobs.unwrap_or(cores).min(items).max(1)
}

/// Where the threads are: the next item to take, how many answers were
/// given.
struct Progress {
    next: usize,
    given: usize,
}

/// Calls `work` on every item on `threads` threads and `done` (on the
/// calling thread) with each answer in item order, as soon as the answers
/// before it are given, with what `work` wrote to stderr written first.
/// Once `done` returns false no more answers are given (nor their stderr
/// written), as if the items after it had never been read. One thread: no
/// thread is started, `work` writes straight to stderr.
pub fn ordered<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    mut done: impl FnMut(R) -> bool,
) {
    if threads <= 1 {
        for i in items {
            if !done(work(i)) {
                return;
            }
        }
        return;
    }
    let window = 2 * threads;
    let state = Mutex::new(Progress { next: 0, given: 0 });
    let turn = Condvar::new();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, R, Vec<u8>)>();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (state, turn, work) = (&state, &turn, &work);
            s.spawn(move || {
                loop {
                    let i = {
                        let mut p = state.lock().unwrap_or_else(PoisonError::into_inner);
                        while p.next < items.len() && p.next >= p.given + window {
                            p = turn.wait(p).unwrap_or_else(PoisonError::into_inner);
                        }
                        if p.next >= items.len() {
                            return;
                        }
                        p.next += 1;
                        p.next - 1
                    };
                    let Some(item) = items.get(i) else { return };
                    let (r, err) = holding_stderr(|| work(item));
                    if tx.send((i, r, err)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting: std::collections::BTreeMap<usize, (R, Vec<u8>)> = std::collections::BTreeMap::new();
        let (mut given, mut going) = (0, true);
        for (i, r, err) in rx {
            if !going {
                continue;
            }
            waiting.insert(i, (r, err));
            while let Some((r, err)) = waiting.remove(&given) {
                if !err.is_empty() {
                    let _ = io::stderr().lock().write_all(&err);
                }
                going = done(r);
                given += 1;
                let mut p = state.lock().unwrap_or_else(PoisonError::into_inner);
                p.given = given;
                if !going {
                    // no more items are taken; those under way are dropped
                    p.next = items.len();
                    waiting.clear();
                    turn.notify_all();
                    break;
                }
                drop(p);
                turn.notify_all();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_come_in_item_order() {
        // Earlier items take longer: they finish last on any number of threads.
        let items: Vec<u64> = (0..40).collect();
        for threads in [1, 2, 3, 8] {
            let mut got = Vec::new();
            ordered(
                &items,
                threads,
                |&i| {
                    std::thread::sleep(std::time::Duration::from_millis((40 - i) / 8));
                    i * 10
                },
                |r| {
                    got.push(r);
                    true
                },
            );
            assert_eq!(
                got,
                items.iter().map(|i| i * 10).collect::<Vec<_>>(),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn stderr_is_held_per_item() {
        let items = [1, 2, 3];
        let mut got = Vec::new();
        ordered(
            &items,
            2,
            |&i| {
                let (_, held) = holding_stderr(|| stderr(|w| write!(w, "item {i}")));
                String::from_utf8_lossy(&held).into_owned()
            },
            |r| {
                got.push(r);
                true
            },
        );
        assert_eq!(got, ["item 1", "item 2", "item 3"]);
    }

    #[test]
    fn nothing_is_given_after_a_stop() {
        let items: Vec<u32> = (0..30).collect();
        for threads in [1, 4] {
            let mut got = Vec::new();
            ordered(
                &items,
                threads,
                |&i| i,
                |r| {
                    got.push(r);
                    r < 5
                },
            );
            assert_eq!(got, [0, 1, 2, 3, 4, 5], "{threads} threads");
        }
    }

    #[test]
    fn threads_never_exceed_items() {
        assert_eq!(threads(Some(8), 3), 3);
        assert_eq!(threads(Some(0), 3), 1);
        assert_eq!(threads(Some(2), 0), 1);
    }
}
