//! `nlorder timeline`: every change the capture makes to the tables (or
//! those a filter keeps).

use std::io::{self, Write};

use super::selection::{Admit, Gate, Selection};
use super::{Console, Error, Format, Source, Status};
use crate::capture::Timestamp;
use crate::filter::Fields;
use crate::ingest::trace::TraceMessage;
use crate::looks::{Library, Looks};
use crate::model::{ChangeSink, Event, ModelOptions};
use crate::report::fields::{Columns, looked_fields};
use crate::report::timeline::{End, Looked, TimelineItems};
use crate::report::{Json, Print, Text};

/// Every change of `capture`, printed as the rebuild makes it.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// The capture to read.
    pub capture: Source,
    /// How the tables are rebuilt.
    pub model: ModelOptions,
    /// One line per change, or one JSON object per line.
    pub format: Format,
    /// Which items, how many, and as which columns.
    pub selection: Selection,
}

impl Timeline {
    /// Rebuilds the tables over the whole capture, printing each change
    /// (and where a program looked) to `out`.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let gate = self.selection.gate();
        let flush = self.capture.is_stream();
        match (gate.fields(), self.format) {
            (Some(fields), _) => {
                let columns = Columns {
                    fields: fields.to_vec(),
                };
                self.list(
                    console,
                    out,
                    Selected {
                        gate,
                        inner: columns,
                        flush,
                    },
                )
            }
            (None, Format::Text) => self.list(
                console,
                out,
                Selected {
                    gate,
                    inner: Text(console.style),
                    flush,
                },
            ),
            (None, Format::Json) => self.list(
                console,
                out,
                Selected {
                    gate,
                    inner: Json,
                    flush,
                },
            ),
        }
    }

    fn list(&self, console: &Console, out: &mut dyn Write, items: impl TimelineItems) -> Result<Status, Error> {
        let mut session = console.open_messages(&self.capture, "timeline")?;
        let mut printer = TimelineSink::new(&mut *out, items);
        session.rebuild(console.trace, self.model, None, &mut printer)?;
        printer.finish(&session.grounds)?;
        Ok(Status::Success)
    }
}

/// The items a selection keeps, printed by `inner` (flushed one by one when
/// the capture is read live).
struct Selected<'s, P> {
    gate: Gate<'s>,
    inner: P,
    flush: bool,
}

impl<P> Selected<'_, P> {
    fn pass<T: ?Sized>(
        &mut self,
        fields: &dyn Fields,
        item: &T,
        out: &mut dyn Write,
        print: impl FnOnce(&mut P, &T, &mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        if self.gate.admit(fields) != Admit::Show {
            return Ok(());
        }
        print(&mut self.inner, item, out)?;
        if self.flush { out.flush() } else { Ok(()) }
    }
}

impl<P: Print<Event>> Print<Event> for Selected<'_, P> {
    fn print(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        self.pass(e, e, out, |p, e, out| p.print(e, out))
    }
}

impl<P: for<'a> Print<Looked<'a>>> Print<Looked<'_>> for Selected<'_, P> {
    fn print(&mut self, l: &Looked<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.pass(&looked_fields(l), l, out, |p, l, out| p.print(l, out))
    }
}

impl<P: for<'a> Print<End<'a>>> Print<End<'_>> for Selected<'_, P> {
    fn print(&mut self, end: &End<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.inner.print(end, out)
    }
}

/// Feeds each change the model reports, and where a program looked, to
/// an item printer ([`Text`] or [`Json`]); keeps the first write error,
/// which [`TimelineSink::finish`] returns. Which requests are shown as a
/// program's look is decided here: a dump whose library `who` can name
/// (the others are listed by `who` alone).
pub struct TimelineSink<W: Write, P: TimelineItems> {
    out: W,
    items: P,
    error: Option<io::Error>,
    /// Who asked for the tables: said inline where each answer ended.
    looks: Looks,
    /// The last message seen: where the closing JSON line stands.
    last: Option<(u64, Option<Timestamp>)>,
}

impl<W: Write, P: TimelineItems> TimelineSink<W, P> {
    /// A sink writing to `out`, each item through `items`.
    pub fn new(out: W, items: P) -> Self {
        TimelineSink {
            out,
            items,
            error: None,
            looks: Looks::new(),
            last: None,
        }
    }

    /// Ends the listing (JSON closes with the `end` line).
    pub fn finish(mut self, grounds: &crate::ingest::rebuild::Grounds) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let end = End {
            last: self.last,
            grounds,
        };
        self.items.print(&end, &mut self.out)?;
        self.out.flush()
    }
}

impl<W: Write, P: TimelineItems> ChangeSink for TimelineSink<W, P> {
    fn message(&mut self, m: &TraceMessage<'_>) {
        self.last = Some((m.packet, m.ts));
        if self.error.is_some() {
            return;
        }
        if let Some(r) = self.looks.observe(m)
            && r.dump
            && r.library != Library::Unknown
            // (the recorder's own dumps are no program looking)
            && !r.library.is_recorder()
        {
            let looked = Looked {
                packet: m.packet,
                ts: m.ts,
                asked: &r,
            };
            self.error = self.items.print(&looked, &mut self.out).err();
        }
    }

    fn change(&mut self, event: Event) {
        if self.error.is_some() {
            return;
        }
        self.error = self.items.print(&event, &mut self.out).err();
    }
}
