//! What the facade knows about the schema's input types, read from the SDL once: enough to
//! coerce query strings and JSON bodies onto an operation's variables and to say, field by
//! field, what is wrong with them (CONTRACT 8's 422 shape) before the operation runs.

use std::collections::HashMap;

use async_graphql::parser::types::{BaseType, Type, TypeKind, TypeSystemDefinition};
use serde_json::{Map, Value};

use crate::platform::error::FieldError;

/// One field of an input object.
#[derive(Debug, Clone)]
pub struct InputField {
    /// The camelCase name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Whether it has a default (then it may be omitted even when non-null).
    pub has_default: bool,
    /// The limits its `@length` and `@range` directives state (`graphql::limits`).
    pub limits: Limits,
    /// Other body keys that bind to it (its `@restAlias` directives).
    pub aliases: Vec<String>,
}

/// The limits the schema states for an input field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// `@length(max:)`: the most characters.
    pub max_length: Option<i64>,
    /// `@range(min:)`: the smallest number.
    pub minimum: Option<i64>,
    /// `@range(max:)`: the largest number.
    pub maximum: Option<i64>,
    /// `@email`: the text is an e-mail address.
    pub email: bool,
    /// `@requires(fields:)` on an input argument: the input's fields (camelCase) this
    /// operation needs although the input type leaves them optional.
    pub required_fields: Vec<String>,
}

impl Limits {
    fn of(
        directives: &[async_graphql::Positioned<async_graphql::parser::types::ConstDirective>],
    ) -> Limits {
        let mut limits = Limits::default();
        for directive in directives {
            let int = |name: &str| {
                directive
                    .node
                    .get_argument(name)
                    .and_then(|v| match &v.node {
                        async_graphql::Value::Number(n) => n.as_i64(),
                        _ => None,
                    })
            };
            match directive.node.name.node.as_str() {
                "length" => limits.max_length = int("max"),
                "email" => limits.email = true,
                "requires" => {
                    if let Some(async_graphql::Value::List(names)) =
                        directive.node.get_argument("fields").map(|v| &v.node)
                    {
                        limits.required_fields = names
                            .iter()
                            .filter_map(|n| match n {
                                async_graphql::Value::String(s) => Some(s.clone()),
                                _ => None,
                            })
                            .collect();
                    }
                }
                "range" => {
                    limits.minimum = int("min");
                    limits.maximum = int("max");
                }
                _ => {}
            }
        }
        limits
    }

    /// Adds the limits to a JSON schema (`maxLength`, `minimum`, `maximum`).
    pub fn annotate(&self, schema: &mut Map<String, Value>) {
        for (key, value) in [
            ("maxLength", self.max_length),
            ("minimum", self.minimum),
            ("maximum", self.maximum),
        ] {
            if let Some(value) = value {
                schema.insert(key.to_string(), Value::from(value));
            }
        }
        if self.email {
            // The address's own syntax replaces the text pattern.
            schema.remove("pattern");
            schema.insert("format".into(), Value::from("email"));
        }
    }
}

/// One field of an output object.
#[derive(Debug, Clone)]
pub struct OutputField {
    /// The camelCase name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Its documentation.
    pub description: Option<String>,
    /// The limits its arguments' `@length` and `@range` directives state, by argument name.
    pub argument_limits: HashMap<String, Limits>,
}

/// The input objects, output objects and enums of the schema.
#[derive(Debug, Default)]
pub struct TypeInfo {
    inputs: HashMap<String, Vec<InputField>>,
    enums: HashMap<String, Vec<String>>,
    objects: HashMap<String, Vec<OutputField>>,
}

/// Where a value came from: strings from a URL or form need parsing, JSON is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A query string, path segment or form field.
    Text,
    /// A JSON body.
    Json,
}

impl TypeInfo {
    /// Reads the input objects and enums of an SDL document.
    pub fn from_sdl(sdl: &str) -> anyhow::Result<TypeInfo> {
        let doc = async_graphql::parser::parse_schema(sdl)?;
        let mut info = TypeInfo::default();
        for def in doc.definitions {
            let TypeSystemDefinition::Type(t) = def else {
                continue;
            };
            let name = t.node.name.node.to_string();
            match t.node.kind {
                TypeKind::InputObject(obj) => {
                    let fields = obj
                        .fields
                        .into_iter()
                        .map(|f| InputField {
                            name: f.node.name.node.to_string(),
                            ty: f.node.ty.node,
                            has_default: f.node.default_value.is_some(),
                            limits: Limits::of(&f.node.directives),
                            aliases: rest_aliases(&f.node.directives),
                        })
                        .collect();
                    info.inputs.insert(name, fields);
                }
                TypeKind::Object(obj) => {
                    let fields = obj
                        .fields
                        .into_iter()
                        .map(|f| OutputField {
                            name: f.node.name.node.to_string(),
                            ty: f.node.ty.node,
                            description: f.node.description.map(|d| d.node),
                            argument_limits: f
                                .node
                                .arguments
                                .iter()
                                .map(|a| {
                                    (a.node.name.node.to_string(), Limits::of(&a.node.directives))
                                })
                                .filter(|(_, limits)| *limits != Limits::default())
                                .collect(),
                        })
                        .collect();
                    info.objects.insert(name, fields);
                }
                TypeKind::Enum(e) => {
                    let values = e
                        .values
                        .into_iter()
                        .map(|v| v.node.value.node.to_string())
                        .collect();
                    info.enums.insert(name, values);
                }
                _ => {}
            }
        }
        Ok(info)
    }

    /// The fields of an input object type.
    pub fn input_fields(&self, name: &str) -> Option<&[InputField]> {
        self.inputs.get(name).map(Vec::as_slice)
    }

    /// The fields of an output object type.
    pub fn object_fields(&self, name: &str) -> Option<&[OutputField]> {
        self.objects.get(name).map(Vec::as_slice)
    }

    /// The named type (lists and non-null unwrapped) of `object.field`.
    pub fn field_type(&self, object: &str, field: &str) -> Option<&str> {
        self.object_fields(object)?
            .iter()
            .find(|f| f.name == field)
            .map(|f| named_type(&f.ty))
    }

    /// The limits an argument of `object.field` states, when it states any.
    pub fn argument_limits(&self, object: &str, field: &str, argument: &str) -> Option<&Limits> {
        self.object_fields(object)?
            .iter()
            .find(|f| f.name == field)?
            .argument_limits
            .get(argument)
    }

    /// Whether an object type has a field of this name.
    pub fn has_field(&self, object: &str, field: &str) -> bool {
        self.object_fields(object)
            .is_some_and(|fields| fields.iter().any(|f| f.name == field))
    }

    /// The values of an enum type.
    pub fn enum_values(&self, name: &str) -> Option<&[String]> {
        self.enums.get(name).map(Vec::as_slice)
    }

    /// Coerces `value` (`None` when absent) to `ty`. `field` is the REST name reported in
    /// errors (snake_case, dotted). Returns the GraphQL variable value, or `None` to leave the
    /// variable unset.
    pub fn coerce(
        &self,
        value: Option<&Value>,
        ty: &Type,
        source: Source,
        field: &str,
        errors: &mut Vec<FieldError>,
    ) -> Option<Value> {
        let value = match value {
            None | Some(Value::Null) if !ty.nullable => {
                errors.push(FieldError::new(field, "Field required").with_kind("missing"));
                return None;
            }
            None => return None,
            Some(Value::Null) => return Some(Value::Null),
            // A form's "none" option: FilaOps's client sends `""` for an unset choice
            // (`reference_type: ""`); for an optional closed set it means not given.
            Some(Value::String(s))
                if ty.nullable
                    && s.is_empty()
                    && matches!(&ty.base, BaseType::Named(n) if self.enums.contains_key(n.as_str())) =>
            {
                return Some(Value::Null);
            }
            Some(v) => v,
        };
        match &ty.base {
            BaseType::List(inner) => {
                // A query string lists values by repeating the parameter or, as FilaOps's
                // client also writes them, separated by commas (`status=draft,ordered`).
                let split: Vec<Value>;
                let items: Vec<&Value> = match value {
                    Value::Array(items) if source == Source::Text => {
                        split = items.iter().flat_map(comma_separated).collect();
                        split.iter().collect()
                    }
                    Value::Array(items) => items.iter().collect(),
                    other if source == Source::Text => {
                        split = comma_separated(other);
                        split.iter().collect()
                    }
                    _ => {
                        errors.push(
                            FieldError::new(field, "Input should be a valid list")
                                .with_kind("list_type"),
                        );
                        return None;
                    }
                };
                let out = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| {
                        self.coerce(Some(item), inner, source, &format!("{field}.{i}"), errors)
                            .unwrap_or(Value::Null)
                    })
                    .collect();
                Some(Value::Array(out))
            }
            BaseType::Named(name) => self.coerce_named(value, name.as_str(), source, field, errors),
        }
    }

    fn coerce_named(
        &self,
        value: &Value,
        name: &str,
        source: Source,
        field: &str,
        errors: &mut Vec<FieldError>,
    ) -> Option<Value> {
        let mut fail = |message: String, kind: &str| {
            errors.push(FieldError::new(field, message).with_kind(kind));
            None
        };
        if let Some(fields) = self.input_fields(name) {
            let Value::Object(map) = value else {
                return fail(
                    "Input should be a valid dictionary or object to extract fields from".into(),
                    "model_attributes_type",
                );
            };
            return Some(Value::Object(
                self.coerce_object(map, fields, source, field, errors),
            ));
        }
        if let Some(values) = self.enum_values(name) {
            return match value.as_str() {
                Some(s) if values.iter().any(|v| v == s) => Some(Value::String(s.to_string())),
                _ => fail(format!("Input should be {}", quoted_list(values)), "enum"),
            };
        }
        // Every text has a limit; a field with a shorter one of its own (`@length`) is
        // checked by its rule, with the contract's message.
        if let ("String" | "ID", Value::String(s)) = (name, value)
            && let Some(message) = crate::platform::graphql::limits::over_default_length(s)
        {
            return fail(message, "string_too_long");
        }
        match (name, value) {
            // GraphQL's Int is 32 bits: the document says so (`minimum`, `maximum`), and a
            // larger number is refused here, naming the field, rather than by GraphQL.
            ("Int", Value::Number(n)) if n.as_i64().is_some_and(fits_int) => Some(value.clone()),
            ("Int", Value::Number(n)) if n.is_i64() || n.is_u64() => fail(
                format!("Input should be between {} and {}", i32::MIN, i32::MAX),
                "int_range",
            ),
            ("Int", Value::String(s)) => match s.trim().parse::<i64>() {
                Ok(n) if !fits_int(n) => fail(
                    format!("Input should be between {} and {}", i32::MIN, i32::MAX),
                    "int_range",
                ),
                Ok(n) => Some(Value::from(n)),
                Err(_) => fail(
                    "Input should be a valid integer, unable to parse string as an integer".into(),
                    "int_parsing",
                ),
            },
            ("Int", _) => fail("Input should be a valid integer".into(), "int_type"),
            ("Float", Value::Number(_)) => Some(value.clone()),
            ("Float", Value::String(s)) => match s.trim().parse::<f64>() {
                Ok(n) if n.is_finite() => Some(Value::from(n)),
                _ => fail(
                    "Input should be a valid number, unable to parse string as a number".into(),
                    "float_parsing",
                ),
            },
            ("Float", _) => fail("Input should be a valid number".into(), "float_type"),
            ("Boolean", Value::Bool(_)) => Some(value.clone()),
            // Strict: a JSON body says `true` or `false`; text (a query string or a form)
            // spells them, or as 1 and 0. "yes" is not a boolean anywhere.
            ("Boolean", Value::String(s)) if source == Source::Text => {
                match s.trim().to_ascii_lowercase().as_str() {
                    "true" | "1" => Some(Value::Bool(true)),
                    "false" | "0" => Some(Value::Bool(false)),
                    _ => fail(
                        "Input should be a valid boolean, unable to interpret input".into(),
                        "bool_parsing",
                    ),
                }
            }
            ("Boolean", _) => fail("Input should be a valid boolean".into(), "bool_type"),
            // PostgreSQL cannot store a NUL character: refused here, naming the field.
            ("String" | "ID", Value::String(s)) if s.contains('\0') => {
                fail("Text must not contain a NUL character".into(), "string_nul")
            }
            ("String", Value::String(_)) => Some(value.clone()),
            ("String", _) => fail("Input should be a valid string".into(), "string_type"),
            // Ids and decimals are written either way by clients; both mean the same.
            ("Decimal", Value::String(s)) => {
                match crate::platform::graphql::scalars::parse_decimal(s) {
                    Ok(_) => Some(value.clone()),
                    Err(message) => fail(message, "decimal_parsing"),
                }
            }
            ("Decimal", Value::Number(n)) => {
                match crate::platform::graphql::scalars::parse_decimal(&n.to_string()) {
                    Ok(_) => Some(Value::String(n.to_string())),
                    Err(message) => fail(message, "decimal_parsing"),
                }
            }
            ("ID", Value::String(_)) => Some(value.clone()),
            ("ID", Value::Number(n)) => Some(Value::String(n.to_string())),
            ("ID", _) => fail("Input should be a valid string".into(), "string_type"),
            ("Decimal", _) => fail("Input should be a valid decimal".into(), "decimal_type"),
            // Dates and instants are checked here so a bad one names its field (GraphQL's own
            // message names only the input object).
            ("DateTime", Value::String(s)) => {
                // The scalar's own parser, so the two checks cannot drift apart.
                let text = async_graphql::Value::String(s.trim().to_string());
                match <crate::platform::graphql::scalars::Timestamp as async_graphql::ScalarType>::parse(text)
                {
                    Ok(_) => Some(Value::String(s.trim().to_string())),
                    Err(_) => fail(
                        "Input should be a valid datetime (RFC 3339, with a time zone)".into(),
                        "datetime_parsing",
                    ),
                }
            }
            ("DateTime", _) => fail("Input should be a valid datetime".into(), "datetime_type"),
            ("NaiveDate", Value::String(s)) => {
                let text = async_graphql::Value::String(s.trim().to_string());
                match <chrono::NaiveDate as async_graphql::ScalarType>::parse(text) {
                    Ok(_) => Some(Value::String(s.trim().to_string())),
                    Err(_) => fail(
                        "Input should be a valid date (YYYY-MM-DD)".into(),
                        "date_parsing",
                    ),
                }
            }
            ("NaiveDate", _) => fail("Input should be a valid date".into(), "date_type"),
            // Other custom scalars check their own syntax in GraphQL; text is passed through.
            _ => Some(value.clone()),
        }
    }

    fn coerce_object(
        &self,
        map: &Map<String, Value>,
        fields: &[InputField],
        source: Source,
        prefix: &str,
        errors: &mut Vec<FieldError>,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        for f in fields {
            let rest_name = snake_case(&f.name);
            let path = if prefix.is_empty() {
                rest_name.clone()
            } else {
                format!("{prefix}.{rest_name}")
            };
            let given = map
                .get(&rest_name)
                .or_else(|| map.get(&f.name))
                .or_else(|| f.aliases.iter().find_map(|a| map.get(a)));
            if not_given(given, &f.ty, f.has_default) {
                continue;
            }
            if let Some(v) = self.coerce(given, &f.ty, source, &path, errors) {
                out.insert(f.name.clone(), v);
            }
        }
        out
    }
}

impl Limits {
    /// Refuses an input object bound from a request that lacks (or nulls) a field the
    /// argument `@requires`; `prefix` is the REST path of the object ("" for a whole body).
    pub fn check_required(
        &self,
        bound: Option<&Value>,
        prefix: &str,
        errors: &mut Vec<FieldError>,
    ) {
        let Some(Value::Object(map)) = bound else {
            return;
        };
        for name in &self.required_fields {
            if map.get(name).is_none_or(Value::is_null) {
                let rest_name = snake_case(name);
                let path = if prefix.is_empty() {
                    rest_name
                } else {
                    format!("{prefix}.{rest_name}")
                };
                errors.push(FieldError::new(path, "Field required").with_kind("missing"));
            }
        }
    }
}

/// Whether a whole number fits GraphQL's `Int` (32 bits).
fn fits_int(n: i64) -> bool {
    i32::try_from(n).is_ok()
}

/// The names an input field's `@restAlias` directives give.
fn rest_aliases(
    directives: &[async_graphql::Positioned<async_graphql::parser::types::ConstDirective>],
) -> Vec<String> {
    directives
        .iter()
        .filter(|d| d.node.name.node == "restAlias")
        .filter_map(|d| match &d.node.get_argument("name")?.node {
            async_graphql::Value::String(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// A text value split at its commas (blank parts dropped); other values as they are.
fn comma_separated(value: &Value) -> Vec<Value> {
    match value {
        Value::String(text) => text
            .split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| Value::String(part.to_string()))
            .collect(),
        other => vec![other.clone()],
    }
}

/// Whether a field counts as not given: absent, or an explicit `null` where the field has a
/// default and cannot hold null (FilaOps's client sends `"spools": null` for "none"; its
/// server reads that as the default, and so do we).
pub fn not_given(given: Option<&Value>, ty: &Type, has_default: bool) -> bool {
    has_default && matches!(given, None | Some(Value::Null)) && (given.is_none() || !ty.nullable)
}

/// The named type under any list and non-null wrappers.
pub fn named_type(ty: &Type) -> &str {
    match &ty.base {
        BaseType::Named(name) => name.as_str(),
        BaseType::List(inner) => named_type(inner),
    }
}

fn quoted_list(values: &[String]) -> String {
    match values {
        [] => String::new(),
        [one] => format!("'{one}'"),
        [init @ .., last] => format!(
            "{} or '{last}'",
            init.iter()
                .map(|v| format!("'{v}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `firstName` -> `first_name`.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `first_name` -> `firstName`.
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SDL: &str = r#"
        enum Role { admin operator }
        input NewUser { email: String! firstName: String role: Role! tags: [String!] age: Int = 3 }
        type Query { x: Int }
    "#;

    fn ty(text: &str) -> Type {
        Type::new(text).expect("type")
    }

    #[test]
    fn names_convert_both_ways() {
        assert_eq!(snake_case("firstName"), "first_name");
        assert_eq!(camel_case("first_name"), "firstName");
        assert_eq!(camel_case("email"), "email");
    }

    #[test]
    fn objects_are_checked_field_by_field() {
        let info = TypeInfo::from_sdl(SDL).expect("sdl");
        let mut errors = Vec::new();
        let v = info.coerce(
            Some(&json!({"first_name": 5, "role": "boss"})),
            &ty("NewUser!"),
            Source::Json,
            "",
            &mut errors,
        );
        assert!(v.is_some());
        let fields: Vec<_> = errors
            .iter()
            .map(|e| (e.field.as_str(), e.kind.as_str()))
            .collect();
        assert_eq!(
            fields,
            vec![
                ("email", "missing"),
                ("first_name", "string_type"),
                ("role", "enum")
            ]
        );
        assert_eq!(errors[2].message, "Input should be 'admin' or 'operator'");

        let mut errors = Vec::new();
        let v = info.coerce(
            Some(&json!({"email": "a@b.co", "first_name": "Ann", "role": "admin"})),
            &ty("NewUser!"),
            Source::Json,
            "",
            &mut errors,
        );
        assert!(errors.is_empty());
        assert_eq!(
            v,
            Some(json!({"email": "a@b.co", "firstName": "Ann", "role": "admin"}))
        );
    }

    #[test]
    fn text_is_parsed_to_the_declared_scalar() {
        let info = TypeInfo::default();
        let mut errors = Vec::new();
        let int = info.coerce(
            Some(&json!("25")),
            &ty("Int"),
            Source::Text,
            "query.limit",
            &mut errors,
        );
        assert_eq!(int, Some(json!(25)));
        let bad = info.coerce(
            Some(&json!("ten")),
            &ty("Int"),
            Source::Text,
            "query.limit",
            &mut errors,
        );
        assert_eq!(bad, None);
        assert_eq!(errors[0].field, "query.limit");
        assert_eq!(errors[0].kind, "int_parsing");
        let b = info.coerce(
            Some(&json!("true")),
            &ty("Boolean"),
            Source::Text,
            "q",
            &mut errors,
        );
        assert_eq!(b, Some(json!(true)));
        let list = info.coerce(
            Some(&json!("a")),
            &ty("[String!]"),
            Source::Text,
            "q",
            &mut errors,
        );
        assert_eq!(list, Some(json!(["a"])));
    }
}
