//! Reading the JSON parts of a match request (`options`, `ai`, `move`) and
//! of a stored match (`state`) into the game's own serde types, with errors
//! that name the field by its path (`options.rows`,
//! `move.placements[2].row`).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::engine::MatchError;

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
    fn absent_or_null_is_the_default() {
        assert_eq!(optional::<Shape>(None, "options"), Ok(Shape::default()));
        assert_eq!(optional::<Shape>(Some(&Value::Null), "options"), Ok(Shape::default()));
        assert_eq!(
            optional::<Shape>(Some(&json!({"rows": 2})), "options"),
            Ok(Shape { rows: 2, cells: vec![] })
        );
    }
}
