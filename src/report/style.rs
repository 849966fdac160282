//! Terminal styling: colour only when asked for, never in pipes.
//!
//! Contract: [`Style`] wraps text in ANSI colours when enabled and returns it
//! untouched otherwise; the CLI decides (terminal, `NO_COLOR`, `--quiet`).

use owo_colors::OwoColorize;
use std::fmt::Display;

/// How the printers dress their text.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Wrap text in ANSI colour codes.
    pub color: bool,
}

impl Style {
    /// No colour: text as it is.
    pub fn plain() -> Self {
        Style { color: false }
    }

    /// Message type names.
    pub fn kind(&self, s: impl Display) -> String {
        if self.color {
            s.cyan().bold().to_string()
        } else {
            s.to_string()
        }
    }

    /// Addresses and other values a reader looks for.
    pub fn value(&self, s: impl Display) -> String {
        if self.color {
            s.green().to_string()
        } else {
            s.to_string()
        }
    }

    /// Secondary details (packet numbers, sequence numbers).
    pub fn dim(&self, s: impl Display) -> String {
        if self.color {
            s.dimmed().to_string()
        } else {
            s.to_string()
        }
    }

    /// Errors and warnings.
    pub fn bad(&self, s: impl Display) -> String {
        if self.color {
            s.red().bold().to_string()
        } else {
            s.to_string()
        }
    }
}
