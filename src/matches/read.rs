//! Reading the JSON parts of a match request (`options`, `ai`, `move`) and
//! of a stored match (`state`) into the game's own serde types, with errors
//! that name the field by its path (`options.rows`,
//! `move.placements[2].row`).

use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Number, Value};

use super::engine::MatchError;

/// A JSON value of a request body, read as `serde_json::Value` reads one
/// except that an object naming a key twice, at any depth, is refused:
/// `Value` would keep the last, while serde refuses a struct's duplicate
/// field. The parts of a body kept as JSON (`options`, `ai`, `move`, a
/// record's moves) are held to the same rule as the body's own fields,
/// with the same message (the body is then a 400 naming the key).
pub(crate) struct UniqueKeys(pub Value);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueKeysVisitor).map(UniqueKeys)
    }
}

struct UniqueKeysVisitor;

impl<'de> Visitor<'de> for UniqueKeysVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        UniqueKeys::deserialize(deserializer).map(|v| v.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(UniqueKeys(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            let UniqueKeys(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// `#[serde(default, deserialize_with = "...::not_null")]` of an `Option`
/// field that may be absent but, where the spec gives it no null, may not
/// be `null` either (a move's alternative fields: `{"declare": null,
/// "usi": "7g7f"}` is refused, not read as the USI move alone).
pub fn not_null<'de, D: Deserializer<'de>, T: serde::Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// `#[serde(deserialize_with)]` of a `Value` field: see [`UniqueKeys`].
pub(crate) fn unique_keys<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    UniqueKeys::deserialize(deserializer).map(|v| v.0)
}

/// The same for an `Option<Value>` field (null is None, as before); give
/// it `#[serde(default)]` too, so that the field may be absent.
pub(crate) fn optional_unique_keys<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Option::<UniqueKeys>::deserialize(deserializer).map(|v| v.map(|v| v.0))
}

/// The same for a `Vec<Value>` field.
pub(crate) fn unique_keys_each<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Value>, D::Error> {
    Vec::<UniqueKeys>::deserialize(deserializer).map(|items| items.into_iter().map(|v| v.0).collect())
}

/// `value` read as a `T`; absent or null is `T`'s default (an object whose
/// every field is optional).
pub(crate) fn optional<T: DeserializeOwned + Default>(value: Option<&Value>, path: &str) -> Result<T, MatchError> {
    match value {
        None | Some(Value::Null) => Ok(T::default()),
        Some(value) => required(value, path),
    }
}

/// `value`, an object, read as a `T`. (serde would also read a struct
/// from an array of its fields in order; a client's array is a mistake.)
pub(crate) fn required<T: DeserializeOwned>(value: &Value, path: &str) -> Result<T, MatchError> {
    if !value.is_object() {
        return Err(MatchError::Field {
            field: path.to_string(),
            expected: "must be an object".to_string(),
        });
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        let inner = error.path().to_string();
        let field = match inner.as_str() {
            "." => path.to_string(),
            _ if inner.starts_with('[') => format!("{path}{inner}"),
            _ => format!("{path}.{inner}"),
        };
        field_error(field, &error.into_inner().to_string())
    })
}

/// serde's message as the match's error: an unknown field is named with
/// its path, as the other fields are.
fn field_error(field: String, message: &str) -> MatchError {
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((name, expected)) = rest.split_once('`') {
            let known = expected
                .trim_start_matches(", expected ")
                .trim_start_matches("one of ")
                .replace(" or ", ", ")
                .replace('`', "");
            // The path may end at the unknown key already.
            let field = if field.ends_with(&format!(".{name}")) {
                field
            } else {
                format!("{field}.{name}")
            };
            return MatchError::UnknownField { field, known };
        }
    }
    if let Some((name, _)) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
    {
        return MatchError::Field {
            field: format!("{field}.{name}"),
            expected: "is required".to_string(),
        };
    }
    MatchError::Field {
        field,
        expected: format!("is not valid: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    struct Shape {
        rows: u8,
        cells: Vec<Cell>,
    }

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Cell {
        row: u8,
    }

    #[test]
    fn errors_name_the_field_by_its_path() {
        let error = |value: Value| optional::<Shape>(Some(&value), "options").unwrap_err().to_string();
        assert!(error(json!({"rows": "3"})).starts_with("options.rows is not valid: invalid type"));
        assert!(error(json!({"cells": [{"row": 1}, {"row": -1}]})).starts_with("options.cells[1].row is not valid"));
        assert_eq!(
            error(json!({"rows": 3, "sides": 4})),
            "options.sides is not a known field; expected rows, cells"
        );
        assert_eq!(error(json!([1])), "options must be an object");
        assert_eq!(error(json!("3x3")), "options must be an object");
        let move_error = required::<Cell>(&json!({"row": 1, "col": 2}), "move").unwrap_err();
        assert_eq!(move_error.to_string(), "move.col is not a known field; expected row");
        let missing = required::<Cell>(&json!({}), "move").unwrap_err();
        assert_eq!(missing.to_string(), "move.row is required");
    }

    #[test]
    fn unique_keys_refuse_a_key_named_twice_at_any_depth() {
        #[derive(Deserialize)]
        struct Body {
            #[serde(deserialize_with = "unique_keys")]
            mv: Value,
        }
        let read = |text: &str| {
            serde_json::from_str::<Body>(text)
                .map(|b| b.mv)
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            read(r#"{"mv": {"row": 1, "col": [2, {"a": null}], "x": -1.5, "s": "t", "b": true}}"#),
            Ok(json!({"row": 1, "col": [2, {"a": null}], "x": -1.5, "s": "t", "b": true}))
        );
        let error = read(r#"{"mv": {"row": 1, "row": 2}}"#).unwrap_err();
        assert!(error.starts_with("duplicate field `row`"), "{error}");
        let error = read(r#"{"mv": {"placements": [{"row": 1, "col": 2, "col": 3}]}}"#).unwrap_err();
        assert!(error.starts_with("duplicate field `col`"), "{error}");
        assert_eq!(read(r#"{"mv": 18446744073709551615}"#), Ok(json!(u64::MAX)));
    }

    #[test]
    fn absent_or_null_is_the_default() {
        assert_eq!(optional::<Shape>(None, "options"), Ok(Shape::default()));
        assert_eq!(optional::<Shape>(Some(&Value::Null), "options"), Ok(Shape::default()));
        assert_eq!(
            optional::<Shape>(Some(&json!({"rows": 2})), "options"),
            Ok(Shape { rows: 2, cells: vec![] })
        );
    }
}
