//! The OpenAPI 3.1 document of the facade, generated from the route declarations and the
//! schema's input types (so it cannot drift from what the routes accept), and a page that
//! renders it.

use std::collections::{BTreeSet, HashMap, HashSet};

use async_graphql::parser::types::{
    BaseType, DocumentOperations, FragmentDefinition, OperationType, SelectionSet, Type,
};
use async_graphql::{Name, Positioned};
use axum::response::Html;
use serde_json::{Map, Value, json};

use super::types::{TypeInfo, snake_case};
use super::{Body, CompiledRoute};
use crate::platform::auth::Access;

/// Builds the document.
pub fn document(routes: &[std::sync::Arc<CompiledRoute>], types: &TypeInfo) -> Value {
    let mut paths: Map<String, Value> = Map::new();
    let mut entries: Vec<(&str, &CompiledRoute, bool)> = Vec::new();
    for route in routes {
        entries.push((route.route.path, route, false));
        for alias in route.route.aliases {
            entries.push((alias, route, true));
        }
    }
    entries.sort_by(|a, b| {
        a.0.cmp(b.0)
            .then(a.1.route.method.as_str().cmp(b.1.route.method.as_str()))
    });
    let mut used_ids: HashSet<String> = HashSet::new();
    let mut tags: BTreeSet<&str> = BTreeSet::new();
    for (path, route, alias) in entries {
        let item = paths
            .entry(path.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        let mut op = operation(route, types, alias);
        // Ids stay unique when two routes run one operation (PUT and PATCH, aliases).
        let base = op["operationId"]
            .as_str()
            .unwrap_or("operation")
            .to_string();
        let mut id = base.clone();
        let mut n = 2;
        while !used_ids.insert(id.clone()) {
            id = format!("{base}_{n}");
            n += 1;
        }
        op["operationId"] = Value::String(id);
        tags.insert(route.area);
        item.insert(route.route.method.as_str().to_ascii_lowercase(), op);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Strata REST API",
            "version": crate::VERSION,
            "description": "Generated from the route declarations: each route runs a stored GraphQL operation on the schema served at /graphql."
        },
        "servers": [{ "url": "/api/v1" }],
        "tags": tags.iter().map(|t| json!({ "name": t })).collect::<Vec<_>>(),
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "description": "Most errors: `{\"detail\": \"...\"}`.",
                    "properties": { "detail": { "type": "string" } },
                    "required": ["detail"]
                },
                "ValidationError": {
                    "type": "object",
                    "description": "422: which fields failed and why (CONTRACT 8).",
                    "properties": {
                        "error": { "type": "string", "const": "VALIDATION_ERROR" },
                        "message": { "type": "string" },
                        "details": {
                            "type": "object",
                            "properties": {
                                "errors": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "field": { "type": "string" },
                                            "message": { "type": "string" },
                                            "type": { "type": "string" }
                                        },
                                        "required": ["field", "message", "type"]
                                    }
                                }
                            }
                        },
                        "timestamp": { "type": "string" }
                    },
                    "required": ["error", "message", "details"]
                }
            },
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": "access_token" }
            }
        },
        "paths": Value::Object(paths),
    })
}

fn operation(route: &CompiledRoute, types: &TypeInfo, alias: bool) -> Value {
    let r = &route.route;
    let (mut parameters, body_schema) = variable_parameters(route, types);
    extra_parameters(route, types, &mut parameters);
    let access = match r.access {
        Access::Public => "public",
        Access::User => "any signed-in user",
        Access::Admin => "admins only",
    };
    let (verb, resource) = operation_name(route);
    let mut op = json!({
        "tags": [route.area],
        "summary": r.summary,
        "description": format!("Access: {access}. Runs the stored GraphQL operation:\n\n```graphql\n{}\n```", r.operation.trim()),
        "operationId": format!("{verb}_{resource}"),
        "parameters": parameters,
        "responses": responses(route, types),
    });
    if alias {
        op["deprecated"] = Value::Bool(true);
        op["description"] = Value::String(format!("Alias of `{}`.", r.path));
        op["operationId"] = Value::String(format!("{verb}_{resource}_alias"));
    }
    if r.access != Access::Public {
        op["security"] = json!([{ "bearer": [] }, { "cookie": [] }]);
    }
    if r.body == Body::Multipart {
        multipart_body(route, types, &mut op);
    } else if let Some(schema) = body_schema {
        let mut content = Map::new();
        content.insert("application/json".into(), json!({ "schema": schema }));
        if r.accepts_form {
            content.insert(
                "application/x-www-form-urlencoded".into(),
                json!({ "schema": schema }),
            );
        }
        op["requestBody"] = json!({ "required": true, "content": content });
    }
    op
}

/// The path and query parameters of a route's variables, and the JSON body's schema
/// (a whole-input body, or the fields of a `Body::Fields` one).
fn variable_parameters(route: &CompiledRoute, types: &TypeInfo) -> (Vec<Value>, Option<Value>) {
    let r = &route.route;
    let mut parameters = Vec::new();
    let mut body_schema: Option<Value> = None;
    for var in &route.variables {
        let name = snake_case(&var.name);
        if route
            .path_params
            .iter()
            .any(|p| super::types::camel_case(p) == var.name)
        {
            let mut schema = schema_of(&var.ty, types, 0);
            with_limits(&mut schema, &var.limits);
            parameters.push(json!({
                "name": name, "in": "path", "required": true, "schema": schema
            }));
            continue;
        }
        match r.body {
            Body::Input(input) if input == var.name => {
                let mut schema = schema_of(&var.ty, types, 0);
                require_fields(&mut schema, &var.ty, &var.limits.required_fields, types);
                body_schema = Some(schema);
                continue;
            }
            Body::Fields => {
                let entry = body_schema.get_or_insert_with(
                    || json!({"type": "object", "properties": {}, "required": []}),
                );
                let mut schema = optional_schema(&var.ty, var.has_default, types, 0);
                if !var.ty.nullable && !var.has_default {
                    required_text(&mut schema);
                }
                with_limits(&mut schema, &var.limits);
                entry["properties"][&name] = schema;
                if !var.ty.nullable
                    && !var.has_default
                    && let Some(req) = entry["required"].as_array_mut()
                {
                    req.push(Value::String(name));
                }
                continue;
            }
            _ => {}
        }
        let mut schema = schema_of(&var.ty, types, 0);
        if !var.ty.nullable && !var.has_default {
            required_text(&mut schema);
        }
        with_limits(&mut schema, &var.limits);
        parameters.push(json!({
            "name": name, "in": "query",
            "required": !var.ty.nullable && !var.has_default,
            "schema": schema
        }));
    }
    (parameters, body_schema)
}

/// The declared headers, the `Idempotency-Key` and the export `format` parameter.
fn extra_parameters(route: &CompiledRoute, types: &TypeInfo, parameters: &mut Vec<Value>) {
    let r = &route.route;
    for (header, var) in r.headers {
        if let Some(v) = route.variables.iter().find(|v| v.name == *var) {
            parameters.retain(|p| p["name"] != snake_case(var).as_str());
            parameters.push(json!({
                "name": header, "in": "header", "required": !v.ty.nullable,
                "schema": schema_of(&v.ty, types, 0)
            }));
        }
    }
    if r.idempotent {
        parameters.push(json!({
            "name": "Idempotency-Key", "in": "header", "required": false,
            "description": "Repeat a write safely: the same key from the same user within 24 hours answers the first result (200) and changes nothing.",
            "schema": { "type": "string", "minLength": 1, "maxLength": 255 }
        }));
    }
    if r.export_by_default {
        parameters.push(json!({
            "name": "format", "in": "query", "required": false,
            "description": "`csv` (the default) or `ndjson` stream every matching row (all pages) as an attachment; `json` answers one JSON page.",
            "schema": { "type": "string", "enum": ["csv", "ndjson", "json"], "default": "csv" }
        }));
    } else if r.export.is_some() {
        parameters.push(json!({
            "name": "format", "in": "query", "required": false,
            "description": "`csv` or `ndjson` stream every matching row (all pages) instead of one JSON page.",
            "schema": { "type": "string", "enum": ["json", "csv", "ndjson"] }
        }));
    }
}

/// The operation id's verb and resource (`list_items`, `get_item`...).
fn operation_name(route: &CompiledRoute) -> (&'static str, String) {
    let r = &route.route;
    let verb = match (
        r.method,
        r.path.ends_with('}') || route.response_path.len() > 1,
    ) {
        (super::Method::Get, true) => "get",
        (super::Method::Get, false) => "list",
        (super::Method::Post, _) => "create",
        (super::Method::Put | super::Method::Patch, _) => "update",
        (super::Method::Delete, _) => "delete",
    };
    (verb, operation_resource(route))
}

/// An upload route's `multipart/form-data` body: its fields and files, taken out of the
/// query parameters.
fn multipart_body(route: &CompiledRoute, types: &TypeInfo, op: &mut Value) {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for var in &route.variables {
        if route
            .path_params
            .iter()
            .any(|p| super::types::camel_case(p) == var.name)
        {
            continue;
        }
        let name = snake_case(&var.name);
        let schema = if super::bind::is_upload(&var.ty) {
            json!({ "type": "string", "format": "binary", "contentMediaType": "application/octet-stream" })
        } else {
            schema_of(&var.ty, types, 0)
        };
        if !var.ty.nullable && !var.has_default {
            required.push(Value::String(name.clone()));
        }
        properties.insert(name, schema);
    }
    // Multipart fields are in the body, not the query string.
    if let Some(params) = op["parameters"].as_array_mut() {
        params.retain(|p| {
            p["in"] != "query" || !properties.contains_key(p["name"].as_str().unwrap_or_default())
        });
    }
    op["requestBody"] = json!({
        "required": true,
        "content": { "multipart/form-data": { "schema": {
            "type": "object", "properties": properties, "required": required
        } } }
    });
}

/// `PrinterCreate` -> `printer`, `Printers` -> `printers`, `ItemFileDownload` ->
/// `item_file_download`: the operation's name without a trailing verb.
fn operation_resource(route: &CompiledRoute) -> String {
    let name = route
        .operation_name
        .clone()
        .unwrap_or_else(|| route.route.path.replace(['/', '{', '}', '-'], "_"));
    let snake = snake_case(&name);
    let snake = snake.trim_start_matches('_');
    for verb in ["_create", "_update", "_delete", "_get"] {
        if let Some(resource) = snake.strip_suffix(verb) {
            return resource.to_string();
        }
    }
    snake.to_string()
}

fn error_response(description: &str, schema: &str) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": { "$ref": format!("#/components/schemas/{schema}") } } }
    })
}

/// Every status a route can answer, with the success body's schema.
fn responses(route: &CompiledRoute, types: &TypeInfo) -> Value {
    let r = &route.route;
    let mut out = Map::new();
    let success = if r.status == 204 {
        json!({ "description": "Done (no body)" })
    } else if r.download {
        json!({
            "description": "The file's bytes (`Content-Disposition: attachment`)",
            "content": { "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } }
        })
    } else if let Some(content_type) = r.raw {
        json!({ "description": "Success", "content": { content_type: { "schema": { "type": "string" } } } })
    } else if r.export_by_default {
        json!({
            "description": "Every row as a CSV file (`Content-Disposition: attachment`; a header row from the JSON keys, then one record per row)",
            "content": {
                "text/csv": { "schema": { "type": "string" } },
                "application/x-ndjson": { "schema": { "type": "string" } },
                "application/json": { "schema": response_schema(route, types).unwrap_or_else(|| json!({})) }
            }
        })
    } else {
        let mut content = Map::new();
        content.insert(
            "application/json".into(),
            json!({ "schema": response_schema(route, types).unwrap_or_else(|| json!({})) }),
        );
        if r.export.is_some() {
            content.insert("text/csv".into(), json!({ "schema": { "type": "string" } }));
            content.insert(
                "application/x-ndjson".into(),
                json!({ "schema": { "type": "string" } }),
            );
        }
        let mut success = json!({ "description": "Success", "content": content });
        if r.location.is_some() {
            success["headers"] = json!({ "Location": { "description": "The new resource", "schema": { "type": "string" } } });
        }
        success
    };
    out.insert(r.status.to_string(), success);
    if r.idempotent && r.status != 200 {
        out.insert(
            "200".into(),
            json!({ "description": "A replay of an earlier request with the same Idempotency-Key: its first answer" }),
        );
    }
    if route.operation_type == OperationType::Mutation || r.refuses {
        out.insert(
            "400".into(),
            error_response("A business rule refused the request", "Error"),
        );
    }
    // Public routes answer these too: a failed sign-in or refresh is a 401, setup once a
    // user exists a 403, an unknown reset token a 404.
    out.insert(
        "401".into(),
        error_response("Not authenticated (or bad credentials)", "Error"),
    );
    out.insert("403".into(), error_response("Not allowed", "Error"));
    out.insert("404".into(), error_response("Not found", "Error"));
    if route.operation_type == OperationType::Mutation {
        out.insert(
            "409".into(),
            error_response(
                "A conflicting change (or the same Idempotency-Key still in flight)",
                "Error",
            ),
        );
    }
    if r.body != Body::None {
        out.insert(
            "413".into(),
            error_response("The body is too large", "Error"),
        );
        out.insert(
            "415".into(),
            error_response(
                "The body's Content-Type is not one this route reads",
                "Error",
            ),
        );
    }
    out.insert(
        "422".into(),
        error_response("Request validation failed", "ValidationError"),
    );
    out.insert("429".into(), json!({
        "description": "Too many requests (`Retry-After` says when to retry)",
        "content": { "application/json": { "schema": { "type": "object", "properties": { "error": { "type": "string" } } } } }
    }));
    out.insert(
        "503".into(),
        error_response(
            "The database is unavailable or the service is overloaded (`Retry-After`)",
            "Error",
        ),
    );
    Value::Object(out)
}

type Fragments = HashMap<Name, Positioned<FragmentDefinition>>;

/// The JSON schema of a route's success body: the selection at the response path, typed by
/// the schema's output types (aliases become property names), after flatten and omit-nulls.
fn response_schema(route: &CompiledRoute, types: &TypeInfo) -> Option<Value> {
    let op = match &route.document.operations {
        DocumentOperations::Single(op) => &op.node,
        DocumentOperations::Multiple(ops) => &ops.values().next()?.node,
    };
    let fragments = &route.document.fragments;
    let mut parent = match op.ty {
        OperationType::Mutation => "Mutation".to_string(),
        _ => "Query".to_string(),
    };
    let mut selection = &op.selection_set.node;
    let mut ty: Option<Type> = None;
    for (depth, key) in route.response_path.iter().enumerate() {
        let mut fields = Vec::new();
        super::compile::selected_fields(selection, fragments, &mut fields);
        let field = fields
            .into_iter()
            .find(|f| f.response_key().node.as_str() == key)?;
        let field_ty = types
            .object_fields(&parent)?
            .iter()
            .find(|f| f.name == field.name.node.as_str())?
            .ty
            .clone();
        parent = super::types::named_type(&field_ty).to_string();
        selection = &field.selection_set.node;
        ty = Some(field_ty);
        let _ = depth;
    }
    let ty = ty?;
    let skip = if route.response_path.len() == 1 {
        route.user_errors_key.clone()
    } else {
        None
    };
    let mut schema = output_schema(
        &ty,
        selection,
        fragments,
        types,
        skip.as_deref(),
        route.route.omit_nulls,
        0,
    );
    // The body is never null for a success (a null GET is a 404).
    if let Some(any) = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .cloned()
    {
        schema = any;
    }
    if let Some(field) = route.route.keyed_by {
        let mut item = schema["items"].take();
        if let Some(props) = item.get_mut("properties").and_then(Value::as_object_mut) {
            props.remove(field);
        }
        if let Some(required) = item.get_mut("required").and_then(Value::as_array_mut) {
            required.retain(|r| r != field);
        }
        schema = json!({ "type": "object", "additionalProperties": item });
    }
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for key in route.route.flatten {
            if let Some(inner) = props.remove(*key)
                && let Some(inner_props) = inner
                    .get("properties")
                    .or_else(|| {
                        inner
                            .get("anyOf")
                            .and_then(|a| a.get(0))
                            .and_then(|o| o.get("properties"))
                    })
                    .and_then(Value::as_object)
            {
                for (k, v) in inner_props {
                    props.insert(k.clone(), v.clone());
                }
            }
        }
        let keys: Vec<Value> = props.keys().cloned().map(Value::String).collect();
        if !route.route.omit_nulls {
            schema["required"] = Value::Array(keys);
        }
    }
    if let Some(key) = route.route.wrap {
        schema = json!({ "type": "object", "properties": { key: schema }, "required": [key] });
    }
    Some(schema)
}

fn output_schema(
    ty: &Type,
    selection: &SelectionSet,
    fragments: &Fragments,
    types: &TypeInfo,
    skip: Option<&str>,
    omit_nulls: bool,
    depth: usize,
) -> Value {
    let inner = match &ty.base {
        BaseType::List(item) => json!({
            "type": "array",
            "items": output_schema(item, selection, fragments, types, None, omit_nulls, depth + 1)
        }),
        BaseType::Named(name) => match types.object_fields(name.as_str()) {
            Some(object_fields) if depth < 12 => {
                let mut fields = Vec::new();
                super::compile::selected_fields(selection, fragments, &mut fields);
                let mut properties = Map::new();
                let mut required = Vec::new();
                for f in fields {
                    let key = f.response_key().node.to_string();
                    if Some(key.as_str()) == skip || f.name.node == "__typename" {
                        continue;
                    }
                    let Some(def) = object_fields
                        .iter()
                        .find(|d| d.name == f.name.node.as_str())
                    else {
                        continue;
                    };
                    let mut schema = output_schema(
                        &def.ty,
                        &f.selection_set.node,
                        fragments,
                        types,
                        None,
                        false,
                        depth + 1,
                    );
                    if let (Some(d), Some(obj)) = (&def.description, schema.as_object_mut()) {
                        obj.insert("description".into(), Value::String(d.trim().to_string()));
                    }
                    if !(omit_nulls && depth == 0 && def.ty.nullable) {
                        required.push(Value::String(key.clone()));
                    }
                    properties.insert(key, schema);
                }
                json!({ "type": "object", "title": name.as_str(), "properties": properties, "required": required })
            }
            Some(_) => json!({ "type": "object" }),
            None => scalar_schema(name.as_str(), types),
        },
    };
    if ty.nullable {
        json!({ "anyOf": [inner, { "type": "null" }] })
    } else {
        inner
    }
}

fn scalar_schema(name: &str, types: &TypeInfo) -> Value {
    if let Some(values) = types.enum_values(name) {
        return json!({ "type": "string", "enum": values });
    }
    match name {
        "Int" => json!({ "type": "integer" }),
        "Float" => json!({ "type": "number" }),
        "Boolean" => json!({ "type": "boolean" }),
        "Decimal" => json!({ "type": "string", "format": "decimal" }),
        "Timestamp" | "DateTime" => json!({ "type": "string", "format": "date-time" }),
        "Date" | "NaiveDate" => json!({ "type": "string", "format": "date" }),
        "JSON" => json!({}),
        _ => json!({ "type": "string" }),
    }
}

/// The schema of an input field: a field with a default also takes `null`, which the facade
/// reads as "not given" (`types::not_given`).
fn optional_schema(ty: &Type, has_default: bool, types: &TypeInfo, depth: usize) -> Value {
    let schema = schema_of(ty, types, depth);
    if has_default && !ty.nullable {
        json!({ "anyOf": [schema, { "type": "null" }] })
    } else {
        schema
    }
}

fn schema_of(ty: &Type, types: &TypeInfo, depth: usize) -> Value {
    let inner = match &ty.base {
        BaseType::List(item) => {
            json!({ "type": "array", "items": schema_of(item, types, depth + 1) })
        }
        BaseType::Named(name) => named(name.as_str(), types, depth),
    };
    if ty.nullable {
        json!({ "anyOf": [inner, { "type": "null" }] })
    } else {
        inner
    }
}

/// Marks the fields an argument `@requires` as required in its input's schema: listed under
/// `required`, not nullable, and (texts) not blank.
fn require_fields(schema: &mut Value, ty: &Type, fields: &[String], types: &TypeInfo) {
    let Some(input) = types.input_fields(super::types::named_type(ty)) else {
        return;
    };
    for f in input.iter().filter(|f| fields.contains(&f.name)) {
        let name = snake_case(&f.name);
        let mut field = schema_of(
            &Type {
                nullable: false,
                base: f.ty.base.clone(),
            },
            types,
            1,
        );
        required_text(&mut field);
        with_limits(&mut field, &f.limits);
        schema["properties"][&name] = field;
        if let Some(required) = schema["required"].as_array_mut()
            && !required.iter().any(|r| r == &Value::String(name.clone()))
        {
            required.push(Value::String(name));
        }
    }
}

/// States a field's limits on its schema (on the non-null branch of a nullable one).
fn with_limits(schema: &mut Value, limits: &super::types::Limits) {
    if *limits == super::types::Limits::default() {
        return;
    }
    let target = match schema.get_mut("anyOf").and_then(Value::as_array_mut) {
        Some(branches) => branches.first_mut(),
        None => Some(schema),
    };
    if let Some(Value::Object(map)) = target {
        limits.annotate(map);
    }
}

fn named(name: &str, types: &TypeInfo, depth: usize) -> Value {
    if let Some(values) = types.enum_values(name) {
        return json!({ "type": "string", "enum": values });
    }
    if let Some(fields) = types.input_fields(name) {
        if depth > 4 {
            return json!({ "type": "object" });
        }
        let mut properties = Map::new();
        let mut required = Vec::new();
        for f in fields {
            let n = snake_case(&f.name);
            if !f.ty.nullable && !f.has_default {
                required.push(Value::String(n.clone()));
            }
            let mut schema = optional_schema(&f.ty, f.has_default, types, depth + 1);
            if !f.ty.nullable && !f.has_default {
                required_text(&mut schema);
            }
            with_limits(&mut schema, &f.limits);
            properties.insert(n, schema);
        }
        return json!({ "type": "object", "title": name, "properties": properties, "required": required });
    }
    match name {
        "Float" => json!({ "type": "number" }),
        "Boolean" => json!({ "type": "boolean" }),
        "DateTime" => json!({ "type": "string", "format": "date-time" }),
        "Date" | "NaiveDate" => json!({ "type": "string", "format": "date" }),
        "Int" => json!({ "type": "integer", "minimum": i32::MIN, "maximum": i32::MAX }),
        "Decimal" => json!({ "type": "string", "format": "decimal", "pattern": DECIMAL_PATTERN }),
        // Every text input has a limit (a field's own `@length` narrows it) and no NUL
        // character, which PostgreSQL cannot store; codes and names refuse other control and
        // text-direction characters too. All are refused with a field-level 422.
        _ => json!({
            "type": "string",
            "maxLength": crate::platform::graphql::limits::DEFAULT_TEXT_MAX,
            "pattern": format!("^[^{HIDDEN}]*$"),
        }),
    }
}

/// The characters text inputs refuse, as a regular-expression class body: NUL everywhere,
/// and in codes and names every control character but tab and line breaks, and the
/// bidirectional formatting characters (`platform::db::text::has_hidden_characters`).
const HIDDEN: &str = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069";

/// A decimal as the scalar reads it (`scalars::parse_decimal`): at most 12 digits before
/// the point and 10 after.
const DECIMAL_PATTERN: &str = "^-?[0-9]{1,12}(\\.[0-9]{1,10})?$";

/// A required text: a value with something other than blanks in it (the rules refuse a blank
/// code or name as missing).
fn required_text(schema: &mut Value) {
    if let Value::Object(map) = schema
        && map.get("type").and_then(Value::as_str) == Some("string")
        && !map.contains_key("enum")
        && !map.contains_key("format")
    {
        map.insert("minLength".into(), json!(1));
        map.insert(
            "pattern".into(),
            json!(format!("^[^{HIDDEN}]*[^\\s{HIDDEN}][^{HIDDEN}]*$")),
        );
    }
}

/// `GET /api/v1/docs`: a dependency-free page listing the document's routes.
pub async fn docs_page() -> Html<&'static str> {
    Html(include_str!("docs.html"))
}
