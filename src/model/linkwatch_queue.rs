//! linkwatch's queue (`lweventlist`) and the times of its rate limit, as
//! the model keeps them.
//!
//! Contract: bookkeeping only: when an event is queued and when the work
//! runs, and what it does, are `linkwatch`'s. Kept apart from it so that
//! the model's state can hold the queue below the rules that use it.

/// The kernel's linkwatch queue (`lweventlist`) and its rate limit.
///
/// The queue is kept in two parts, in order: events a run for urgent ones
/// left for the next full run (`held`), then those queued since (`queue`).
/// A run for urgent events looks at `held` only when one of its devices
/// may have become urgent, so its cost is that of the events queued since
/// the last run. An entry carries the ticket its device got when queued;
/// one whose device was synced, handled or gone since is skipped.
#[derive(Debug, Default)]
pub(super) struct Linkwatch {
    pub(super) held: Vec<(u32, u64)>,
    pub(super) queue: Vec<(u32, u64)>,
    /// A device of `held` came up: it may be urgent now.
    pub(super) recheck: bool,
    pub(super) tickets: u64,
    /// `linkwatch_nextevent`, in nanoseconds since the epoch: before it a
    /// run handles urgent events only. None before the first full run.
    pub(super) next_event: Option<i128>,
    /// An urgent event asked for the work to run at once.
    pub(super) urgent: bool,
    /// While the delayed work runs for its timer: when it ran (what it
    /// starts, such as duplicate address detection, begins then, not at
    /// the message that shows the time has passed).
    pub(super) ran_at: Option<i128>,
    /// When the delayed work will run (`linkwatch_schedule_work(0)`: not
    /// before `next_event`), while events wait for it.
    pub(super) due: Option<i128>,
    /// The time of the message being applied.
    pub clock: Option<i128>,
    /// A veth announced before its other end (IFLA_LINK 0): the request
    /// that makes the pair still holds the kernel's rtnl lock.
    pub pair_under_way: Option<u32>,
    /// A run under way, paced by a link listener's notifications: the
    /// device whose RTM_NEWLINK (`netdev_state_change`, the last thing its
    /// event does) has not come yet, and the events the run takes after it.
    pub awaiting: Option<u32>,
    pub rest: Vec<(u32, u64)>,
    /// Devices a message showed up with carrier but not yet oper up after
    /// the model had run their event: the kernel had not, so what the
    /// model's run made of them is undone (`Model::undo_early_runs`).
    pub early: Vec<u32>,
    /// Devices whose events the delayed work ran as the model times it
    /// (the once-a-second limit) that no message has shown since: the
    /// limit is one for the whole host, so the kernel may have run them
    /// later.
    pub timed: rustc_hash::FxHashSet<u32>,
}

impl Linkwatch {
    pub(super) fn is_empty(&self) -> bool {
        self.held.is_empty() && self.queue.is_empty() && self.rest.is_empty()
    }

    /// A device the model numbered itself got its real index.
    pub fn reindex(&mut self, from: u32, to: u32) {
        if self.awaiting == Some(from) {
            self.awaiting = Some(to);
        }
        for (i, _) in self
            .held
            .iter_mut()
            .chain(self.queue.iter_mut())
            .chain(self.rest.iter_mut())
        {
            if *i == from {
                *i = to;
            }
        }
    }

    /// A device that was down came up: if its event is held, it may be
    /// urgent now.
    pub fn came_up(&mut self) {
        self.recheck = true;
    }
}
