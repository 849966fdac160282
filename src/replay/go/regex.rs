//! Go RE2 patterns, matched the way Go's `regexp.MatchString` matches them.
//!
//! Contract: [`GoRegex::new`] accepts what Go's `regexp.Compile` accepts
//! (and rejects what it rejects, for the differences that matter here) and
//! matches unanchored, on interface names as raw bytes. The `regex` crate
//! is RE2-like, but differs from Go in a few places, rewritten here:
//! `\d \w \s \b` are ASCII in Go and Unicode in Rust; `\Q…\E` and octal
//! escapes exist only in Go; Go's `\s` lacks `\v`; inside a class Rust reads `[`, `&&`, `--` and
//! `~~` as set operations where Go reads literals; Go rejects repeat counts
//! above 1000.

use regex::bytes::{Regex, RegexBuilder};

/// A pattern Go's regexp would not compile either, or that nlorder cannot
/// translate (and says so rather than matching something else).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid pattern {pattern:?}: {reason}")]
pub struct PatternError {
    /// The pattern, as given.
    pub pattern: String,
    /// Why it does not compile.
    pub reason: String,
}

/// A pattern as Go's `regexp` compiles it (RE2 syntax, ASCII classes,
/// `\Q..\E`), translated to the `regex` crate's syntax.
#[derive(Debug, Clone)]
pub struct GoRegex {
    /// The pattern, as given.
    pub pattern: String,
    re: Regex,
}

impl GoRegex {
    /// Compiles `pattern` as Go would; an error where Go would refuse it, or
    /// where nlorder cannot translate it.
    pub fn new(pattern: &str) -> Result<Self, PatternError> {
        let bad = |reason: String| PatternError {
            pattern: pattern.to_owned(),
            reason,
        };
        let translated = translate(pattern).map_err(bad)?;
        let re = RegexBuilder::new(&translated)
            .build()
            .map_err(|e| bad(first_line(&e.to_string())))?;
        Ok(GoRegex {
            pattern: pattern.to_owned(),
            re,
        })
    }

    /// Unanchored search, like Go's `MatchString`.
    pub fn is_match(&self, name: &[u8]) -> bool {
        self.re.is_match(name)
    }
}

/// The last non-empty line of the regex crate's multi-line error.
fn first_line(s: &str) -> String {
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .to_owned()
}

const ASCII_DIGIT: &str = "0-9";
const ASCII_WORD: &str = "0-9A-Za-z_";
const ASCII_SPACE: &str = "\\t\\n\\x0C\\r ";

fn translate(p: &str) -> Result<String, String> {
    let chars: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() + 16);
    let mut i = 0;
    let mut in_class = false;
    let mut class_start = 0;
    while let Some(&c) = chars.get(i) {
        if c == '\\' {
            let Some(&n) = chars.get(i + 1) else {
                return Err("trailing backslash".into());
            };
            i += 2;
            match n {
                'Q' => {
                    let mut lit = String::new();
                    while let Some(&ch) = chars.get(i) {
                        if ch == '\\' && chars.get(i + 1) == Some(&'E') {
                            i += 2;
                            break;
                        }
                        lit.push(ch);
                        i += 1;
                    }
                    if in_class {
                        for ch in lit.chars() {
                            out.push_str(&regex::escape(&ch.to_string()));
                        }
                    } else {
                        out.push_str(&regex::escape(&lit));
                    }
                }
                'd' | 'w' | 's' | 'D' | 'W' | 'S' if in_class => {
                    let set = match n.to_ascii_lowercase() {
                        'd' => ASCII_DIGIT,
                        'w' => ASCII_WORD,
                        _ => ASCII_SPACE,
                    };
                    if n.is_ascii_uppercase() {
                        out.push_str(&format!("[^{set}]"));
                    } else {
                        out.push_str(set);
                    }
                }
                // Go's \s is [\t\n\f\r ]; the regex crate's ASCII \s adds \v.
                's' => out.push_str(&format!("[{ASCII_SPACE}]")),
                'S' => out.push_str(&format!("[^{ASCII_SPACE}]")),
                'd' | 'w' | 'D' | 'W' | 'b' | 'B' => out.push_str(&format!("(?-u:\\{n})")),
                '0'..='7' => {
                    let mut digits = n.to_string();
                    while digits.len() < 3 {
                        let Some(&d) = chars.get(i).filter(|d| ('0'..='7').contains(*d)) else {
                            break;
                        };
                        digits.push(d);
                        i += 1;
                    }
                    if n != '0' && digits.len() == 1 {
                        return Err("backreferences are not supported".into());
                    }
                    let code = u32::from_str_radix(&digits, 8).unwrap_or(0);
                    out.push_str(&format!("\\x{{{code:x}}}"));
                }
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
            continue;
        }
        if in_class {
            match c {
                ']' if i > class_start => {
                    in_class = false;
                    out.push(c);
                }
                '[' if chars.get(i + 1) == Some(&':') => {
                    // POSIX class [:alpha:]: copy through to its closing ":]"
                    let class = chars
                        .get(i + 2..)
                        .and_then(|name| name.windows(2).position(|w| w == [':', ']']))
                        .and_then(|n| chars.get(i..i + 2 + n + 2));
                    if let Some(class) = class {
                        out.extend(class);
                        i += class.len();
                        continue;
                    }
                    out.push_str("\\[");
                }
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                '-' if chars.get(i + 1) == Some(&'-') => out.push_str("-\\"),
                _ => out.push(c),
            }
            i += 1;
            continue;
        }
        match c {
            '[' => {
                in_class = true;
                out.push('[');
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                // A ']' right after '[' or '[^' is a literal.
                class_start = i + 1;
                continue;
            }
            '{' => {
                let after = chars.get(i + 1..).unwrap_or_default();
                let body = after.iter().position(|&x| x == '}').and_then(|e| after.get(..e));
                let counts: Vec<String> = body
                    .map(|b| b.iter().collect::<String>())
                    .filter(|inner| !inner.is_empty())
                    .map(|inner| inner.split(',').map(str::to_owned).collect())
                    .unwrap_or_default();
                let is_repeat = (1..=2).contains(&counts.len())
                    && counts.first().is_some_and(|min| !min.is_empty())
                    && counts.iter().all(|c| c.chars().all(|d| d.is_ascii_digit()));
                if is_repeat && counts.iter().any(|c| c.parse::<u32>().is_ok_and(|n| n > 1000)) {
                    return Err("invalid repeat count".into());
                }
                if !is_repeat {
                    // Go reads a '{' that opens no repeat (or no '}' at
                    // all) as a literal.
                    out.push_str("\\{");
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
#[path = "regex_tests.rs"]
mod tests;
