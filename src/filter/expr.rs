//! The filter language: parsed with nom into a raw tree, then checked
//! against the fields a listing has into a typed [`Filter`].
//!
//! ```text
//! expr    := and (("||" | "or") and)*
//! and     := unary (("&&" | "and") unary)*
//! unary   := ("!" | "not") unary | "(" expr ")" | test
//! test    := field [op literal | "in" "{" member* "}"]
//! op      := == != < <= > >= eq ne lt le gt ge contains matches ~
//! member  := literal | number ".." number
//! literal := "quoted \"text\"" | word (10.0.0.0/8, RTM_NEWADDR, eth0, 42)
//! ```

use std::fmt;
use std::net::IpAddr;

use ipnet::IpNet;
use pcap_parser::nom;

use nom::branch::alt;
use nom::bytes::complete::{escaped_transform, is_not, tag, tag_no_case, take_while1};
use nom::character::complete::{char, multispace0};
use nom::combinator::{map, not, opt, peek, value};
use nom::multi::many0;
use nom::sequence::{delimited, preceded, terminated};
use nom::{IResult, Parser};

use super::field::{Field, Fields, Kind, Value};

/// Why a filter or field list was refused. Every variant carries the
/// 1-based `column` of the mistake and what stood there.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterError {
    /// The text does not follow the grammar from `column` on.
    Syntax { column: usize, rest: String },
    /// No field has this name.
    UnknownField { column: usize, name: String },
    /// The field exists but this listing has no such value.
    NotHere {
        column: usize,
        field: Field,
        offered: &'static [Field],
    },
    /// The field has no value of this name (a misspelling: tshark refuses
    /// such a value string too); `close` holds the names nearest to it.
    UnknownValue {
        column: usize,
        field: Field,
        literal: String,
        close: Vec<String>,
    },
    /// The literal cannot be compared with the field that way.
    BadLiteral {
        column: usize,
        field: Field,
        literal: String,
        why: LiteralProblem,
    },
}

/// What is wrong with a literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiteralProblem {
    /// The field holds numbers.
    NotANumber,
    /// The field holds addresses (an address or a prefix).
    NotAnAddress,
    /// The field is true or false.
    NotABool,
    /// Only == and != compare such a field.
    NoOrder,
    /// `contains` and `matches` apply to names only.
    NotText,
    /// The regular expression does not compile.
    BadRegex,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterError::Syntax { column, rest } if rest.is_empty() => {
                write!(f, "column {column}: the filter ends too early")
            }
            FilterError::Syntax { column, rest } => write!(f, "column {column}: cannot read `{rest}`"),
            FilterError::UnknownField { column, name } => {
                write!(f, "column {column}: no field is called `{name}`; fields: ")?;
                let names: Vec<&str> = Field::ALL.iter().map(|x| x.name()).collect();
                write!(f, "{}", names.join(", "))
            }
            FilterError::NotHere { column, field, offered } => {
                let names: Vec<&str> = offered.iter().map(|x| x.name()).collect();
                write!(
                    f,
                    "column {column}: `{}` is not a field of this listing; it has {}",
                    field.name(),
                    names.join(", ")
                )
            }
            FilterError::UnknownValue {
                column,
                field,
                literal,
                close,
            } => {
                write!(f, "column {column}: `{literal}` is not a value of `{}`", field.name())?;
                let all = field.values().unwrap_or_default();
                if !close.is_empty() {
                    write!(f, "; did you mean {}?", or_list(close))?;
                } else if all.len() <= 12 {
                    let names: Vec<String> = all.iter().map(|(_, v)| v.to_string()).collect();
                    write!(f, "; it takes {}", or_list(&names))?;
                    if all.iter().any(|(n, _)| n.is_some()) {
                        write!(f, " (or a number)")?;
                    }
                    return Ok(());
                }
                write!(f, " (`nlorder -G values` lists every field's values)")
            }
            FilterError::BadLiteral {
                column,
                field,
                literal,
                why,
            } => {
                let why = match why {
                    LiteralProblem::NotANumber => "it holds numbers",
                    LiteralProblem::NotAnAddress => "it holds addresses (10.0.0.1, fe80::/64)",
                    LiteralProblem::NotABool => "it is true or false",
                    LiteralProblem::NoOrder => "only == and != compare it",
                    LiteralProblem::NotText => "contains and matches apply to names only",
                    LiteralProblem::BadRegex => "the regular expression does not compile",
                };
                write!(f, "column {column}: `{literal}` does not fit `{}`: {why}", field.name())
            }
        }
    }
}

impl std::error::Error for FilterError {}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Edit distance with adjacent swaps counted as one edit (`mian` is one
/// from `main`), ignoring case.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    // rows[i][j]: distance between a[..i] and b[..j]
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        if let Some(first) = row.first_mut() {
            *first = i;
        }
    }
    if let Some(row) = rows.first_mut() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = j;
        }
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let get = |rows: &Vec<Vec<usize>>, i: usize, j: usize| rows.get(i).and_then(|r| r.get(j)).copied();
            let same = a.get(i - 1) == b.get(j - 1);
            let mut best = [
                get(&rows, i - 1, j).map(|d| d + 1),
                get(&rows, i, j - 1).map(|d| d + 1),
                get(&rows, i - 1, j - 1).map(|d| d + usize::from(!same)),
            ]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(usize::MAX);
            let swapped = i > 1 && j > 1 && a.get(i - 1) == b.get(j - 2) && a.get(i - 2) == b.get(j - 1);
            let before = swapped
                .then(|| get(&rows, i.saturating_sub(2), j.saturating_sub(2)))
                .flatten();
            if let Some(d) = before {
                best = best.min(d + 1);
            }
            if let Some(cell) = rows.get_mut(i).and_then(|r| r.get_mut(j)) {
                *cell = best;
            }
        }
    }
    rows.get(a.len())
        .and_then(|r| r.get(b.len()))
        .copied()
        .unwrap_or(usize::MAX)
}

/// The values of `field` nearest to `literal` (at most three): a few
/// edits away, or containing it.
fn close_values(field: Field, literal: &str) -> Vec<String> {
    let allowed = (literal.chars().count() / 4).clamp(1, 3);
    let lower = literal.to_lowercase();
    let mut near: Vec<(usize, String)> = field
        .values()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(_, v)| {
            let d = distance(literal, &v);
            let contains = lower.len() >= 3 && v.to_lowercase().contains(&lower);
            (d <= allowed || contains).then(|| (d, v.into_owned()))
        })
        .collect();
    near.sort();
    let best = near.first().map_or(0, |(d, _)| *d);
    near.into_iter()
        .filter(|(d, _)| *d == best)
        .take(3)
        .map(|(_, v)| v)
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Contains,
    Matches,
}

/// A literal as written, before it is checked against its field.
#[derive(Debug, Clone)]
struct Word<'a> {
    text: String,
    at: &'a str,
}

#[derive(Debug, Clone)]
enum Raw<'a> {
    Or(Vec<Raw<'a>>),
    And(Vec<Raw<'a>>),
    Not(Box<Raw<'a>>),
    Test {
        name: &'a str,
        test: Option<(Op, Word<'a>)>,
    },
    In {
        name: &'a str,
        set: Vec<Word<'a>>,
    },
}

#[derive(Debug, Clone)]
enum Lit {
    Number(f64),
    Text(String),
    Ip(IpAddr),
    Net(IpNet),
    Bool(bool),
    Regex(regex::Regex),
    Range(f64, f64),
}

#[derive(Debug, Clone)]
enum Node {
    Or(Vec<Node>),
    And(Vec<Node>),
    Not(Box<Node>),
    Present(Field),
    Cmp(Field, Op, Lit),
    In(Field, Vec<Lit>),
}

/// A checked filter expression.
#[derive(Debug, Clone)]
pub struct Filter {
    root: Node,
}

fn ws<'a, O, P>(p: P) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>
where
    P: Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
{
    delimited(multispace0, p, multispace0)
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || "._:/-%+*".contains(c)
}

/// A keyword: the word, not the start of a longer one.
fn keyword<'a>(k: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    terminated(tag_no_case(k), not(peek(take_while1(word_char))))
}

fn literal(i: &str) -> IResult<&str, Word<'_>> {
    let start = i;
    let quoted = delimited(
        char('"'),
        map(
            opt(escaped_transform(
                is_not("\\\""),
                '\\',
                alt((value("\\", tag("\\")), value("\"", tag("\"")))),
            )),
            Option::unwrap_or_default,
        ),
        char('"'),
    );
    let bare = map(take_while1(word_char), str::to_owned);
    let (rest, text) = alt((quoted, bare)).parse(i)?;
    Ok((rest, Word { text, at: start }))
}

fn op(i: &str) -> IResult<&str, Op> {
    alt((
        value(Op::Eq, tag("==")),
        value(Op::Ne, tag("!=")),
        value(Op::Le, tag("<=")),
        value(Op::Ge, tag(">=")),
        value(Op::Lt, tag("<")),
        value(Op::Gt, tag(">")),
        value(Op::Matches, tag("~")),
        value(Op::Eq, keyword("eq")),
        value(Op::Ne, keyword("ne")),
        value(Op::Le, keyword("le")),
        value(Op::Ge, keyword("ge")),
        value(Op::Lt, keyword("lt")),
        value(Op::Gt, keyword("gt")),
        value(Op::Contains, keyword("contains")),
        value(Op::Matches, keyword("matches")),
    ))
    .parse(i)
}

fn field_name(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_alphanumeric() || c == '.' || c == '_' || c == '-')(i)
}

fn test(i: &str) -> IResult<&str, Raw<'_>> {
    let (i, name) = ws(field_name).parse(i)?;
    if let Ok((rest, set)) = preceded(
        ws(keyword("in")),
        delimited(
            ws(char('{')),
            many0(ws(terminated(literal, opt(ws(char(',')))))),
            ws(char('}')),
        ),
    )
    .parse(i)
    {
        return Ok((rest, Raw::In { name, set }));
    }
    let (i, test) = opt((ws(op), ws(literal))).parse(i)?;
    Ok((i, Raw::Test { name, test }))
}

fn unary(i: &str) -> IResult<&str, Raw<'_>> {
    alt((
        map(preceded(ws(alt((tag("!"), keyword("not")))), unary), |r| {
            Raw::Not(Box::new(r))
        }),
        delimited(ws(char('(')), or_expr, ws(char(')'))),
        test,
    ))
    .parse(i)
}

fn and_expr(i: &str) -> IResult<&str, Raw<'_>> {
    let (i, first) = unary(i)?;
    let (i, rest) = many0(preceded(ws(alt((tag("&&"), keyword("and")))), unary)).parse(i)?;
    Ok((i, join(first, rest, Raw::And)))
}

fn or_expr(i: &str) -> IResult<&str, Raw<'_>> {
    let (i, first) = and_expr(i)?;
    let (i, rest) = many0(preceded(ws(alt((tag("||"), keyword("or")))), and_expr)).parse(i)?;
    Ok((i, join(first, rest, Raw::Or)))
}

fn join<'a>(first: Raw<'a>, rest: Vec<Raw<'a>>, all: fn(Vec<Raw<'a>>) -> Raw<'a>) -> Raw<'a> {
    if rest.is_empty() {
        first
    } else {
        let mut v = vec![first];
        v.extend(rest);
        all(v)
    }
}

/// 1-based column of `at`, a slice of `text`, in `text`.
fn column(text: &str, at: &str) -> usize {
    (at.as_ptr() as usize).saturating_sub(text.as_ptr() as usize) + 1
}

/// The values of `dir`, which also stand alone as tests.
const DIRECTIONS: [&str; 3] = ["request", "reply", "notification"];

/// Resolves field names and literals, for one listing.
struct Checker<'t> {
    text: &'t str,
    offered: &'static [Field],
}

impl Checker<'_> {
    fn field(&self, name: &str) -> Result<Field, FilterError> {
        let column = column(self.text, name);
        let field = Field::from_name(name).ok_or_else(|| FilterError::UnknownField {
            column,
            name: name.to_owned(),
        })?;
        if !self.offered.contains(&field) {
            return Err(FilterError::NotHere {
                column,
                field,
                offered: self.offered,
            });
        }
        Ok(field)
    }

    fn literal(&self, field: Field, op: Op, w: &Word<'_>) -> Result<Lit, FilterError> {
        let bad = |why| FilterError::BadLiteral {
            column: column(self.text, w.at),
            field,
            literal: w.text.clone(),
            why,
        };
        let kind = field.kind();
        if matches!(op, Op::Contains | Op::Matches) {
            if kind != Kind::Text && kind != Kind::Named {
                return Err(bad(LiteralProblem::NotText));
            }
            return Ok(if op == Op::Matches {
                Lit::Regex(regex::Regex::new(&w.text).map_err(|_| bad(LiteralProblem::BadRegex))?)
            } else {
                Lit::Text(w.text.clone())
            });
        }
        let ordered = matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge);
        let number = w.text.parse::<f64>().ok().filter(|n| n.is_finite());
        match kind {
            Kind::Number => number.map(Lit::Number).ok_or_else(|| bad(LiteralProblem::NotANumber)),
            Kind::Named => match number {
                Some(n) => Ok(Lit::Number(n)),
                None if ordered => Err(bad(LiteralProblem::NotANumber)),
                None => self.known(field, w),
            },
            Kind::Text if ordered => Err(bad(LiteralProblem::NoOrder)),
            Kind::Text => self.known(field, w),
            Kind::Ip if ordered => Err(bad(LiteralProblem::NoOrder)),
            Kind::Ip => {
                if let Ok(ip) = w.text.parse::<IpAddr>() {
                    Ok(Lit::Ip(ip))
                } else {
                    w.text
                        .parse::<IpNet>()
                        .map(Lit::Net)
                        .map_err(|_| bad(LiteralProblem::NotAnAddress))
                }
            }
            Kind::Bool if ordered => Err(bad(LiteralProblem::NoOrder)),
            Kind::Bool => match w.text.to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" => Ok(Lit::Bool(true)),
                "false" | "0" | "no" => Ok(Lit::Bool(false)),
                _ => Err(bad(LiteralProblem::NotABool)),
            },
        }
    }

    /// A name compared with `==`/`!=`: one the field can have.
    fn known(&self, field: Field, w: &Word<'_>) -> Result<Lit, FilterError> {
        if field.knows_value(&w.text) {
            return Ok(Lit::Text(w.text.clone()));
        }
        Err(FilterError::UnknownValue {
            column: column(self.text, w.at),
            field,
            literal: w.text.clone(),
            close: close_values(field, &w.text),
        })
    }

    fn member(&self, field: Field, w: &Word<'_>) -> Result<Lit, FilterError> {
        if let Some((lo, hi)) = w.text.split_once("..") {
            let bad = || FilterError::BadLiteral {
                column: column(self.text, w.at),
                field,
                literal: w.text.clone(),
                why: LiteralProblem::NotANumber,
            };
            if !matches!(field.kind(), Kind::Number | Kind::Named) {
                return Err(bad());
            }
            let lo = lo.parse::<f64>().map_err(|_| bad())?;
            let hi = hi.parse::<f64>().map_err(|_| bad())?;
            return Ok(Lit::Range(lo, hi));
        }
        self.literal(field, Op::Eq, w)
    }

    fn node(&self, raw: &Raw<'_>) -> Result<Node, FilterError> {
        Ok(match raw {
            Raw::Or(v) => Node::Or(v.iter().map(|r| self.node(r)).collect::<Result<_, _>>()?),
            Raw::And(v) => Node::And(v.iter().map(|r| self.node(r)).collect::<Result<_, _>>()?),
            Raw::Not(r) => Node::Not(Box::new(self.node(r)?)),
            Raw::Test { name, test: None } => match DIRECTIONS.iter().find(|d| d.eq_ignore_ascii_case(name)) {
                // `request`, `reply`, `notification`: short for `dir == ...`
                Some(dir) if self.offered.contains(&Field::Dir) => {
                    Node::Cmp(Field::Dir, Op::Eq, Lit::Text((*dir).to_owned()))
                }
                _ => Node::Present(self.field(name)?),
            },
            Raw::Test {
                name,
                test: Some((op, w)),
            } => {
                let field = self.field(name)?;
                Node::Cmp(field, *op, self.literal(field, *op, w)?)
            }
            Raw::In { name, set } => {
                let field = self.field(name)?;
                Node::In(
                    field,
                    set.iter().map(|w| self.member(field, w)).collect::<Result<_, _>>()?,
                )
            }
        })
    }
}

impl Filter {
    /// Parses `text`, accepting only the fields in `offered`.
    pub fn parse(text: &str, offered: &'static [Field]) -> Result<Filter, FilterError> {
        let syntax = |rest: &str| FilterError::Syntax {
            column: column(text, rest),
            rest: rest.chars().take(30).collect(),
        };
        let (rest, raw) = match or_expr(text) {
            Ok(done) => done,
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => return Err(syntax(e.input)),
            Err(nom::Err::Incomplete(_)) => return Err(syntax("")),
        };
        if !rest.trim().is_empty() {
            return Err(syntax(rest.trim_start()));
        }
        let root = Checker { text, offered }.node(&raw)?;
        Ok(Filter { root })
    }

    /// Whether `record` passes the filter.
    pub fn matches(&self, record: &dyn Fields) -> bool {
        eval(&self.root, record)
    }
}

/// Parses a field list (`packet,type,dev`, names as in filters) for one
/// listing.
pub fn parse_fields(names: &[String], offered: &'static [Field]) -> Result<Vec<Field>, FilterError> {
    names
        .iter()
        .flat_map(|n| n.split(','))
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            Checker { text: n, offered }.field(n).map_err(|e| match e {
                FilterError::UnknownField { name, .. } => FilterError::UnknownField { column: 1, name },
                other => other,
            })
        })
        .collect()
}

fn eval(node: &Node, r: &dyn Fields) -> bool {
    match node {
        Node::Or(v) => v.iter().any(|n| eval(n, r)),
        Node::And(v) => v.iter().all(|n| eval(n, r)),
        Node::Not(n) => !eval(n, r),
        Node::Present(f) => match r.field(*f) {
            None | Some(Value::Bool(false)) => false,
            Some(_) => true,
        },
        Node::Cmp(f, op, lit) => r.field(*f).is_some_and(|v| compare(&v, *op, lit)),
        Node::In(f, set) => r
            .field(*f)
            .is_some_and(|v| set.iter().any(|lit| compare(&v, Op::Eq, lit))),
    }
}

fn order(a: f64, op: Op, b: f64) -> bool {
    match op {
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Gt => a > b,
        Op::Ge => a >= b,
        Op::Contains | Op::Matches => false,
    }
}

fn text_test(s: &str, op: Op, lit: &Lit) -> bool {
    match (op, lit) {
        (Op::Eq, Lit::Text(t)) => s.eq_ignore_ascii_case(t),
        (Op::Ne, Lit::Text(t)) => !s.eq_ignore_ascii_case(t),
        (Op::Contains, Lit::Text(t)) => s.to_ascii_lowercase().contains(&t.to_ascii_lowercase()),
        (Op::Matches, Lit::Regex(re)) => re.is_match(s),
        _ => false,
    }
}

fn compare(v: &Value<'_>, op: Op, lit: &Lit) -> bool {
    match (v, lit) {
        (Value::Number(a), Lit::Number(b)) => order(*a, op, *b),
        (Value::Number(a), Lit::Range(lo, hi)) => lo <= a && a <= hi,
        (Value::Named(n, _), Lit::Number(b)) => order(*n as f64, op, *b),
        (Value::Named(n, _), Lit::Range(lo, hi)) => *lo <= *n as f64 && *n as f64 <= *hi,
        (Value::Named(_, name), lit) => text_test(name, op, lit),
        (Value::Text(s), lit) => text_test(s, op, lit),
        (Value::Ip(ip), Lit::Ip(b)) => match op {
            Op::Eq => ip == b,
            Op::Ne => ip != b,
            _ => false,
        },
        (Value::Ip(ip), Lit::Net(net)) => match op {
            Op::Eq => net.contains(ip),
            Op::Ne => !net.contains(ip),
            _ => false,
        },
        (Value::Bool(a), Lit::Bool(b)) => match op {
            Op::Eq => a == b,
            Op::Ne => a != b,
            _ => false,
        },
        _ => false,
    }
}
