//! A route's stored operation, parsed and validated once at start-up, with what the request
//! path needs precomputed: the variables, where the response body and `userErrors` sit in
//! `data` (whatever their aliases), and which REST parameter each root argument came from.

use std::collections::HashMap;

use async_graphql::parser::types::{
    DocumentOperations, ExecutableDocument, FragmentDefinition, OperationDefinition, OperationType,
    Selection, SelectionSet, Type,
};
use async_graphql::{Name, Positioned};
use futures_util::FutureExt;

use super::route::AreaRoute;
use super::route::{Body, Route};
use super::types::{TypeInfo, camel_case, snake_case};
use crate::platform::graphql::AppSchema;

/// A variable of a stored operation.
#[derive(Debug, Clone)]
pub struct Variable {
    /// The camelCase name.
    pub name: String,
    /// Its declared type.
    pub ty: Type,
    /// Whether it has a default value.
    pub has_default: bool,
    /// The limits the root field's argument it is bound to states (`@length`, `@range`).
    pub limits: super::types::Limits,
}

/// A route with its operation parsed and analysed.
#[derive(Debug)]
pub struct CompiledRoute {
    /// The declaration.
    pub route: Route,
    /// The area that declares it (its OpenAPI tag).
    pub area: &'static str,
    /// The operation's name (`Printers`), for operation ids.
    pub operation_name: Option<String>,
    /// Query or mutation.
    pub operation_type: OperationType,
    /// The parsed document, executed as it is on every request (never parsed again).
    pub document: ExecutableDocument,
    /// The operation's variables.
    pub variables: Vec<Variable>,
    /// The root fields the operation selects (what the authorization test walks).
    pub root_fields: Vec<String>,
    /// Path parameter names, in order.
    pub path_params: Vec<String>,
    /// The response keys leading from `data` to the response body.
    pub response_path: Vec<String>,
    /// The response key of the root field's `userErrors`, when the operation selects them.
    pub user_errors_key: Option<String>,
    /// Root-field argument name -> the REST parameter it was bound from (`first` ->
    /// `query.limit`), so errors name what the client sent.
    pub argument_fields: HashMap<String, String>,
}

impl CompiledRoute {
    /// True when the route's answers may be kept in the answer cache: a plain read (a query
    /// on `GET`, answered with JSON rather than a file; a streamed export never gets as far
    /// as the cache).
    pub fn answers_are_cacheable(&self) -> bool {
        self.route.method == super::route::Method::Get
            && self.operation_type == OperationType::Query
            && !self.route.download
    }

    /// The REST name of a variable, as errors report it.
    pub fn rest_field(&self, variable: &str) -> String {
        let name = snake_case(variable);
        if self.path_params.iter().any(|p| camel_case(p) == variable) {
            return format!("path.{name}");
        }
        match self.route.body {
            Body::Fields | Body::Multipart => name,
            Body::Input(input) if input == variable => String::new(),
            _ if self.route.headers.iter().any(|(_, var)| *var == variable) => {
                format!("header.{name}")
            }
            _ => format!("query.{name}"),
        }
    }
}

/// Parses a stored operation: one operation per document.
pub fn parse_operation(text: &str) -> anyhow::Result<(Vec<Variable>, Vec<String>)> {
    let doc = async_graphql::parser::parse_query(text)?;
    let (_, op) = single_operation(&doc)?;
    Ok((variables_of(op), root_fields_of(op)))
}

fn single_operation(
    doc: &ExecutableDocument,
) -> anyhow::Result<(Option<String>, &OperationDefinition)> {
    match &doc.operations {
        DocumentOperations::Single(op) => Ok((None, &op.node)),
        DocumentOperations::Multiple(ops) if ops.len() == 1 => match ops.iter().next() {
            Some((name, op)) => Ok((Some(name.to_string()), &op.node)),
            None => anyhow::bail!("no operation"),
        },
        DocumentOperations::Multiple(_) => anyhow::bail!("one operation per document"),
    }
}

fn variables_of(op: &OperationDefinition) -> Vec<Variable> {
    op.variable_definitions
        .iter()
        .map(|v| Variable {
            name: v.node.name.node.to_string(),
            ty: v.node.var_type.node.clone(),
            has_default: v.node.default_value.is_some(),
            limits: super::types::Limits::default(),
        })
        .collect()
}

fn root_fields_of(op: &OperationDefinition) -> Vec<String> {
    op.selection_set
        .node
        .items
        .iter()
        .filter_map(|s| match &s.node {
            Selection::Field(f) => Some(f.node.name.node.to_string()),
            _ => None,
        })
        .collect()
}

/// The fields a selection set selects, fragments expanded: `(name, response key, field)`.
pub(crate) fn selected_fields<'a>(
    set: &'a SelectionSet,
    fragments: &'a HashMap<Name, Positioned<FragmentDefinition>>,
    out: &mut Vec<&'a async_graphql::parser::types::Field>,
) {
    for item in &set.items {
        match &item.node {
            Selection::Field(f) => out.push(&f.node),
            Selection::FragmentSpread(spread) => {
                if let Some(fragment) = fragments.get(&spread.node.fragment_name.node) {
                    selected_fields(&fragment.node.selection_set.node, fragments, out);
                }
            }
            Selection::InlineFragment(inline) => {
                selected_fields(&inline.node.selection_set.node, fragments, out);
            }
        }
    }
}

/// Parses and analyses every route's operation (no validation against the schema: see
/// [`validate`]). The error names the route.
pub fn compile(routes: &[AreaRoute], types: &TypeInfo) -> anyhow::Result<Vec<CompiledRoute>> {
    let mut compiled = Vec::with_capacity(routes.len());
    let mut failures = Vec::new();
    for route in routes {
        match compile_one(route, types) {
            Ok(c) => compiled.push(c),
            Err(e) => failures.push(e.to_string()),
        }
    }
    if failures.is_empty() {
        Ok(compiled)
    } else {
        anyhow::bail!("invalid REST routes:\n{}", failures.join("\n"))
    }
}

fn route_name(route: &Route) -> String {
    format!("{} {}", route.method.as_str(), route.path)
}

fn compile_one(area_route: &AreaRoute, types: &TypeInfo) -> anyhow::Result<CompiledRoute> {
    let route = area_route.route;
    let name = route_name(&route);
    let document = async_graphql::parser::parse_query(route.operation)
        .map_err(|e| anyhow::anyhow!("{name}: the stored operation does not parse: {e}"))?;
    let (operation_name, op) =
        single_operation(&document).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let path_params = route
        .path
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(str::to_string)
        .collect();
    let response_path: Vec<String> = route
        .response
        .split('.')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let Some(root_key) = response_path.first() else {
        anyhow::bail!("{name}: the route names no response field");
    };
    let root = op
        .selection_set
        .node
        .items
        .iter()
        .find_map(|s| match &s.node {
            Selection::Field(f) if f.node.response_key().node.as_str() == root_key => Some(&f.node),
            _ => None,
        });
    let Some(root) = root else {
        anyhow::bail!("{name}: the operation selects no root field `{root_key}`");
    };

    let mut fields = Vec::new();
    selected_fields(&root.selection_set.node, &document.fragments, &mut fields);
    let user_errors_key = fields
        .iter()
        .find(|f| f.name.node == "userErrors")
        .map(|f| f.response_key().node.to_string());
    if op.ty == OperationType::Mutation && user_errors_key.is_none() {
        let root_type = types.field_type("Mutation", root.name.node.as_str());
        if root_type.is_some_and(|t| types.has_field(t, "userErrors")) {
            anyhow::bail!(
                "{name}: the mutation `{}` reports business errors in `userErrors`, but the stored operation does not select them",
                root.name.node
            );
        }
    }

    let mut compiled = CompiledRoute {
        route,
        area: area_route.area,
        operation_name,
        operation_type: op.ty,
        variables: variables_of(op),
        root_fields: root_fields_of(op),
        path_params,
        response_path,
        user_errors_key,
        argument_fields: HashMap::new(),
        document: document.clone(),
    };
    let mut argument_fields = HashMap::new();
    let root_type = match op.ty {
        OperationType::Mutation => "Mutation",
        _ => "Query",
    };
    for (arg, value) in &root.arguments {
        if let async_graphql_value::Value::Variable(var) = &value.node {
            argument_fields.insert(arg.node.to_string(), compiled.rest_field(var.as_str()));
            if let Some(limits) =
                types.argument_limits(root_type, root.name.node.as_str(), arg.node.as_str())
                && let Some(v) = compiled
                    .variables
                    .iter_mut()
                    .find(|v| v.name == var.as_str())
            {
                v.limits = limits.clone();
            }
        }
    }
    compiled.argument_fields = argument_fields;
    Ok(compiled)
}

/// Validates every compiled operation against the full rules and limits of `/graphql`
/// without executing anything. The error names every broken route.
pub fn validate(routes: &[CompiledRoute], schema: &AppSchema) -> anyhow::Result<()> {
    let mut failures = Vec::new();
    for route in routes {
        // The dry-run schema never awaits anything (no resolver runs), so the future
        // completes on its first poll.
        match crate::platform::graphql::validate_stored(schema, route.route.operation)
            .now_or_never()
        {
            Some(errors) if errors.is_empty() => {}
            Some(errors) => failures.push(format!(
                "{}: the stored operation does not validate: {}",
                route_name(&route.route),
                errors.join("; ")
            )),
            None => failures.push(format!(
                "{}: validation did not complete",
                route_name(&route.route)
            )),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("invalid REST routes:\n{}", failures.join("\n"))
    }
}

/// Parses, analyses and validates a route table: what start-up runs.
pub fn compile_and_validate(
    routes: &[AreaRoute],
    types: &TypeInfo,
    validator: &AppSchema,
) -> anyhow::Result<Vec<CompiledRoute>> {
    let compiled = compile(routes, types)?;
    validate(&compiled, validator)?;
    Ok(compiled)
}
