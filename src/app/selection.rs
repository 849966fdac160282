//! What a listing (`decode`, `timeline`, `who`) shows: the records a display
//! filter keeps, of the first `count` packets (as tshark's `-c` counts:
//! packets read, not records shown), as whole lines or as field columns.
//!
//! Contract: [`Selection::parse`] checks the filter and field names against
//! the fields the listing has, so a typo is a usage error before any input
//! is read; [`Gate`] counts what was shown and says when to stop.

use super::Error;
use crate::filter::{Field, Fields, Filter, Value, parse_fields};

/// The filter, the field columns and the count of one listing.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Only records the filter keeps (all without one).
    pub filter: Option<Filter>,
    /// Tab-separated columns of these fields instead of whole lines.
    pub fields: Option<Vec<Field>>,
    /// Only records of the first this many packets (capture records).
    pub count: Option<u64>,
}

impl Selection {
    /// Checks `filter` and `fields` (comma-separated names, repeatable)
    /// against the fields the listing offers.
    pub fn parse(
        filter: Option<&str>,
        fields: &[String],
        count: Option<u64>,
        offered: &'static [Field],
    ) -> Result<Selection, Error> {
        let filter = filter
            .map(|f| Filter::parse(f, offered))
            .transpose()
            .map_err(|e| Error::Usage(format!("--filter: {e}")))?;
        let fields = if fields.is_empty() {
            None
        } else {
            Some(parse_fields(fields, offered).map_err(|e| Error::Usage(format!("--fields: {e}")))?)
        };
        Ok(Selection { filter, fields, count })
    }

    /// A gate counting what this selection shows.
    pub fn gate(&self) -> Gate<'_> {
        Gate {
            selection: self,
            shown: 0,
        }
    }
}

/// Whether one record is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Show it.
    Show,
    /// The filter drops it.
    Skip,
    /// The record is past the first `count` packets: nothing after it is
    /// shown either.
    Full,
}

/// Applies a [`Selection`] record by record.
#[derive(Debug)]
pub struct Gate<'s> {
    selection: &'s Selection,
    shown: u64,
}

impl Gate<'_> {
    /// Whether `record` is shown; counts it when it is.
    pub fn admit(&mut self, record: &dyn Fields) -> Admit {
        if let Some(count) = self.selection.count {
            let packet = match record.field(Field::Packet) {
                Some(Value::Number(n)) => n,
                _ => 0.0,
            };
            if packet > count as f64 {
                return Admit::Full;
            }
        }
        if self.selection.filter.as_ref().is_some_and(|f| !f.matches(record)) {
            return Admit::Skip;
        }
        self.shown += 1;
        Admit::Show
    }

    /// Whether nothing more can be shown (a count of 0).
    pub fn full(&self) -> bool {
        self.selection.count == Some(0)
    }

    /// The field columns, when the listing prints columns.
    pub fn fields(&self) -> Option<&[Field]> {
        self.selection.fields.as_deref()
    }
}
