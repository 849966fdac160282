//! Reports: printers that turn results into text for people or JSON for
//! machines. Printers only format; they decide nothing.

pub mod assumption;
pub mod check;
pub mod decode;
pub mod detect;
pub mod failure;
pub mod gai;
pub mod gai_reason;
pub mod moment;
pub mod note;
pub mod reason;
pub mod semantics;
pub mod source;
pub mod style;
pub mod summary;
pub mod table;
pub mod timeline;
pub mod who;
