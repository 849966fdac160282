//! `nlorder check --update`: write the values computed now into the
//! manifest, like snapshot testing, keeping its comments and layout.
//!
//! Contract: [`skeleton`] adds default expectations to cases that have
//! none (link order, warnings, Calico first-found, kubelet); [`apply`]
//! sets each expectation's expected value to the actual one. Both work on
//! the manifest text through toml_edit and return the new text.

use crate::replay::program::Method;
use toml_edit::{Array, ArrayOfTables, DocumentMut, Item, Table, value};

/// A value `--update` writes back: `kind` #`index` of case `case`, `key`.
#[derive(Debug, Clone)]
pub struct NewValue {
    pub(crate) case: Option<usize>,
    pub(crate) kind: &'static str,
    pub(crate) index: usize,
    pub(crate) key: &'static str,
    pub(crate) value: Value,
}

/// An expected value as `--update` writes it: a string or a list of them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Text(String),
    List(Vec<String>),
}

impl Value {
    pub(super) fn show(&self) -> String {
        match self {
            Value::Text(t) => t.clone(),
            Value::List(l) => format!("[{}]", l.join(", ")),
        }
    }
}

fn parse(text: &str) -> Result<DocumentMut, toml_edit::TomlError> {
    text.parse::<DocumentMut>()
}

fn case_table(doc: &mut DocumentMut, case: Option<usize>) -> Option<&mut Table> {
    match case {
        None => Some(doc.as_table_mut()),
        Some(c) => doc.get_mut("case")?.as_array_of_tables_mut()?.get_mut(c),
    }
}

fn to_item(v: &Value) -> Item {
    match v {
        Value::Text(t) => value(t.as_str()),
        Value::List(l) => {
            let mut a = Array::new();
            for s in l {
                a.push(s.as_str());
            }
            value(a)
        }
    }
}

/// Adds default expectations to every case that has none.
pub fn skeleton(text: &str, empty_cases: &[Option<usize>]) -> Result<String, toml_edit::TomlError> {
    let mut doc = parse(text)?;
    for &c in empty_cases {
        let Some(t) = case_table(&mut doc, c) else { continue };
        t.insert("warnings", value("none"));
        let mut lo = ArrayOfTables::new();
        lo.push(Table::new());
        t.insert("link_order", Item::ArrayOfTables(lo));
        let mut det = ArrayOfTables::new();
        for m in [
            Method::default(),
            Method::from(<crate::replay::kubelet::Kubelet as crate::replay::chooser::Chooser>::PROGRAM),
        ] {
            let mut d = Table::new();
            d.insert("method", value(m.to_string()));
            det.push(d);
        }
        t.insert("detect", Item::ArrayOfTables(det));
    }
    Ok(doc.to_string())
}

/// Whether two TOML values say the same (strings, booleans, lists of
/// strings), whatever their layout and comments.
fn same(a: &toml_edit::Value, b: &toml_edit::Value) -> bool {
    let strings = |v: &toml_edit::Value| {
        v.as_array()
            .map(|a| a.iter().map(|x| x.as_str().map(str::to_owned)).collect::<Vec<_>>())
    };
    match (a, b) {
        (toml_edit::Value::String(x), toml_edit::Value::String(y)) => x.value() == y.value(),
        (toml_edit::Value::Boolean(x), toml_edit::Value::Boolean(y)) => x.value() == y.value(),
        (toml_edit::Value::Array(_), toml_edit::Value::Array(_)) => strings(a) == strings(b),
        _ => false,
    }
}

/// Sets `key` to `new`: a value that already says the same is left as it
/// is written; a changed one keeps the old one's comments and spacing.
fn set(t: &mut Table, key: &str, new: Item) {
    if let Some(old) = t.get_mut(key)
        && let (Some(o), Item::Value(mut n)) = (old.as_value(), new.clone())
    {
        if same(o, &n) {
            return;
        }
        *n.decor_mut() = o.decor().clone();
        *old = Item::Value(n);
        return;
    }
    t.insert(key, new);
}

/// Sets every expected value to the one computed now.
pub fn apply(text: &str, values: &[NewValue]) -> Result<String, toml_edit::TomlError> {
    let mut doc = parse(text)?;
    for v in values {
        let Some(t) = case_table(&mut doc, v.case) else {
            continue;
        };
        if v.kind == "warnings" {
            set(t, "warnings", to_item(&v.value));
            continue;
        }
        let Some(entry) = t
            .get_mut(v.kind)
            .and_then(|i| i.as_array_of_tables_mut())
            .and_then(|a| a.get_mut(v.index))
        else {
            continue;
        };
        if v.key == "present" {
            set(
                entry,
                "present",
                value(matches!(&v.value, Value::Text(t) if t == "present")),
            );
        } else {
            set(entry, v.key, to_item(&v.value));
        }
    }
    Ok(doc.to_string())
}
