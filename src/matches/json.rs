//! Reading the JSON-shaped parts of a match (options, moves, stored states)
//! with errors that name the field.

use serde_json::{Map, Value};

use super::engine::MatchError;

/// An object being read, with the path of its fields for error messages
/// (`"options"`, `"move"`, `"move.placements[2]"`).
pub(crate) struct Obj<'a> {
    map: Option<&'a Map<String, Value>>,
    path: String,
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn field_error(field: &str, expected: impl Into<String>, got: &Value) -> MatchError {
    MatchError::Field {
        field: field.to_string(),
        expected: format!("{} (got {})", expected.into(), describe(got)),
    }
}

/// A short description of a value for messages: small scalars verbatim.
fn describe(value: &Value) -> String {
    match value {
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) if s.chars().count() <= 40 => format!("{s:?}"),
        other => kind(other).to_string(),
    }
}

impl<'a> Obj<'a> {
    /// `value` must be an object; a missing value or null reads as empty
    /// when `optional`.
    pub(crate) fn new(value: Option<&'a Value>, path: &str, optional: bool) -> Result<Obj<'a>, MatchError> {
        match value {
            Some(Value::Object(map)) => Ok(Obj {
                map: Some(map),
                path: path.to_string(),
            }),
            None | Some(Value::Null) if optional => Ok(Obj {
                map: None,
                path: path.to_string(),
            }),
            Some(other) => Err(field_error(path, "must be an object", other)),
            None => Err(MatchError::Field {
                field: path.to_string(),
                expected: "is required".to_string(),
            }),
        }
    }

    pub(crate) fn path(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    /// Refuses fields outside `known`.
    pub(crate) fn only(&self, known: &[&str]) -> Result<(), MatchError> {
        let Some(map) = self.map else { return Ok(()) };
        // Sorted order, so the error does not depend on the map's order.
        let mut unknown: Vec<&String> = map.keys().filter(|k| !known.contains(&k.as_str())).collect();
        unknown.sort();
        match unknown.first() {
            None => Ok(()),
            Some(key) => Err(MatchError::UnknownField {
                field: self.path(key),
                known: if known.is_empty() {
                    "no fields".to_string()
                } else {
                    known.join(", ")
                },
            }),
        }
    }

    /// The value of `key`; null counts as absent.
    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.and_then(|m| m.get(key)).filter(|v| !v.is_null())
    }

    pub(crate) fn required(&self, key: &str) -> Result<&'a Value, MatchError> {
        self.get(key).ok_or_else(|| MatchError::Field {
            field: self.path(key),
            expected: "is required".to_string(),
        })
    }

    /// A required row or column number.
    pub(crate) fn index(&self, key: &str) -> Result<usize, MatchError> {
        let field = self.path(key);
        let value = self.required(key)?;
        let n = int_value(value, &field)?;
        usize::try_from(n).map_err(|_| field_error(&field, "must be an integer >= 0", value))
    }

    pub(crate) fn int(&self, key: &str) -> Result<Option<i64>, MatchError> {
        self.get(key).map(|v| int_value(v, &self.path(key))).transpose()
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, MatchError> {
        self.get(key)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| field_error(&self.path(key), "must be true or false", v))
            })
            .transpose()
    }

    pub(crate) fn str(&self, key: &str) -> Result<Option<&'a str>, MatchError> {
        self.get(key)
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| field_error(&self.path(key), "must be a string", v))
            })
            .transpose()
    }

    pub(crate) fn array(&self, key: &str) -> Result<Option<&'a Vec<Value>>, MatchError> {
        self.get(key)
            .map(|v| {
                v.as_array()
                    .ok_or_else(|| field_error(&self.path(key), "must be an array", v))
            })
            .transpose()
    }
}

/// An integer (a JSON number without a fraction that fits in i64).
pub(crate) fn int_value(value: &Value, field: &str) -> Result<i64, MatchError> {
    value
        .as_i64()
        .ok_or_else(|| field_error(field, "must be an integer", value))
}

/// A whole number >= 0 up to 2^64-1, as a JSON integer (heap sizes, which
/// may also be strings, are read by `games::ishitori::HeapSize`).
pub(crate) fn u64_value(value: &Value, field: &str) -> Result<u64, MatchError> {
    value
        .as_u64()
        .ok_or_else(|| field_error(field, "must be a whole number >= 0 up to 18446744073709551615", value))
}

/// Row strings (a board).
pub(crate) fn strings(value: &Value, field: &str) -> Result<Vec<String>, MatchError> {
    let rows = value
        .as_array()
        .ok_or_else(|| field_error(field, "must be an array of row strings", value))?;
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            row.as_str()
                .map(str::to_string)
                .ok_or_else(|| field_error(&format!("{field}[{i}]"), "must be a string", row))
        })
        .collect()
}
