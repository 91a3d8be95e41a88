//! The OpenAPI 3.1 document of the facade, generated from the route declarations and the
//! schema's input types (so it cannot drift from what the routes accept), and a page that
//! renders it.

use async_graphql::parser::types::{BaseType, Type};
use axum::response::Html;
use serde_json::{Map, Value, json};

use super::types::{TypeInfo, snake_case};
use super::{Body, CompiledRoute};
use crate::auth::Access;

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
    for (path, route, alias) in entries {
        let item = paths
            .entry(path.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        item.insert(
            route.route.method.as_str().to_ascii_lowercase(),
            operation(route, types, path, alias),
        );
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Strata REST API",
            "version": crate::VERSION,
            "description": "Generated from the route declarations: each route runs a stored GraphQL operation on the schema served at /graphql."
        },
        "servers": [{ "url": "/api/v1" }],
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": "access_token" }
            }
        },
        "paths": Value::Object(paths),
    })
}

fn operation(route: &CompiledRoute, types: &TypeInfo, path: &str, alias: bool) -> Value {
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
            parameters.push(json!({
                "name": name, "in": "path", "required": true, "schema": schema_of(&var.ty, types, 0)
            }));
            continue;
        }
        match r.body {
            Body::Input(input) if input == var.name => {
                body_schema = Some(schema_of(&var.ty, types, 0));
                continue;
            }
            Body::Fields => {
                let entry = body_schema.get_or_insert_with(
                    || json!({"type": "object", "properties": {}, "required": []}),
                );
                entry["properties"][&name] = schema_of(&var.ty, types, 0);
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
        parameters.push(json!({
            "name": name, "in": "query",
            "required": !var.ty.nullable && !var.has_default,
            "schema": schema_of(&var.ty, types, 0)
        }));
    }
    let access = match r.access {
        Access::Public => "public",
        Access::User => "any signed-in user",
        Access::Admin => "admins only",
    };
    let mut op = json!({
        "summary": r.summary,
        "description": format!("Access: {access}. Runs the stored GraphQL operation:\n\n```graphql\n{}\n```", r.operation.trim()),
        "operationId": format!("{}{}", r.method.as_str().to_ascii_lowercase(), r.path.replace(['/', '{', '}', '-'], "_")),
        "parameters": parameters,
        "responses": {
            r.status.to_string(): { "description": "Success" },
            "401": { "description": "Not authenticated" },
            "403": { "description": "Not allowed" },
            "422": { "description": "Request validation failed" }
        }
    });
    if alias {
        op["deprecated"] = Value::Bool(true);
        op["description"] = Value::String(format!("Alias of `{}`.", r.path));
        // Named after the alias's own path: ids must be unique across the document.
        op["operationId"] = Value::String(format!(
            "{}{}_alias",
            r.method.as_str().to_ascii_lowercase(),
            path.replace(['/', '{', '}', '-'], "_")
        ));
    }
    if r.access != Access::Public {
        op["security"] = json!([{ "bearer": [] }, { "cookie": [] }]);
    }
    if let Some(schema) = body_schema {
        op["requestBody"] = json!({
            "required": true,
            "content": { "application/json": { "schema": schema } }
        });
    }
    op
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
            properties.insert(n, schema_of(&f.ty, types, depth + 1));
        }
        return json!({ "type": "object", "title": name, "properties": properties, "required": required });
    }
    match name {
        "Int" => json!({ "type": "integer" }),
        "Float" => json!({ "type": "number" }),
        "Boolean" => json!({ "type": "boolean" }),
        "Decimal" => json!({ "type": "string", "format": "decimal" }),
        "DateTime" => json!({ "type": "string", "format": "date-time" }),
        "Date" => json!({ "type": "string", "format": "date" }),
        _ => json!({ "type": "string" }),
    }
}

/// `GET /api/v1/docs`: a dependency-free page listing the document's routes.
pub async fn docs_page() -> Html<&'static str> {
    Html(include_str!("docs.html"))
}
