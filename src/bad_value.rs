//! The one error for a text that does not read as the value an option or a
//! manifest key wants (an address, a family, a moment, a kernel release).
//!
//! Contract: [`BadValue`] keeps the text as given and says what it is
//! instead (`'banana' is not an address (ADDR, ADDR/LEN or none)`); clap
//! and the manifest reader show that line as it is.

/// A text that is not the value wanted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is {problem}")]
pub struct BadValue {
    /// The text as given.
    pub text: String,
    /// What is wrong with it, e.g. `not an address family (4 or 6)`.
    pub problem: &'static str,
}

impl BadValue {
    /// `text` (copied) is not a value because of `problem`.
    pub fn new(text: &str, problem: &'static str) -> BadValue {
        BadValue {
            text: text.to_owned(),
            problem,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn says_the_text_and_the_problem() {
        let e = super::BadValue::new("banana", "not an address family (4 or 6)");
        assert_eq!(e.to_string(), "'banana' is not an address family (4 or 6)");
    }
}
