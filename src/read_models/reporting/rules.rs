//! How a bulk export runs its query: the checks a query must pass before it is queued (one
//! query operation, one top-level list or connection, valid against the schema, within the
//! cost limit at its page size, flat when CSV is asked) and the plan the job follows (the
//! document of each page, where the rows are in the answer).
//!
//! Paging: the export sets the root field's `first` and `offset` itself, page after page,
//! and holds one page in memory. The page size is the largest of [`PAGE_SIZES`] whose cost
//! fits the `/graphql` limit, so a deeply nested selection runs in smaller pages. A page
//! that comes back short is not taken as the end (some lists cap their page size quietly);
//! an empty page is. A root field that takes no `first`/`offset` runs once.

use async_graphql::parser::types::{
    ExecutableDocument, Field, OperationType, Selection, SelectionSet,
};
use async_graphql::{Name, Positioned, Value, Variables};

use crate::platform::graphql::AppSchema;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};
use crate::read_models::reporting::model::BulkExportFormat;

/// Page sizes tried, largest first.
pub const PAGE_SIZES: [u64; 7] = [250, 100, 50, 20, 10, 5, 1];

/// What the job follows.
#[derive(Debug, Clone)]
pub struct Plan {
    document: ExecutableDocument,
    /// The response key of the root field.
    pub root_key: String,
    /// The response key of `nodes` when the root field is a connection.
    pub nodes_key: Option<String>,
    /// Rows per page; `None` when the root field does not page.
    pub page_size: Option<u64>,
}

impl Plan {
    /// The document of the page that starts at `offset`.
    pub fn page(&self, offset: u64) -> ExecutableDocument {
        let mut document = self.document.clone();
        if let Some(size) = self.page_size {
            set_paging(&mut document, size, offset);
        }
        document
    }

    /// The rows of a page's `data`, taken out of it.
    pub fn rows(&self, data: Value) -> Vec<Value> {
        let Value::Object(mut data) = data else {
            return Vec::new();
        };
        let root = data
            .shift_remove(self.root_key.as_str())
            .unwrap_or(Value::Null);
        let list = match (&self.nodes_key, root) {
            (Some(key), Value::Object(mut connection)) => {
                connection.shift_remove(key.as_str()).unwrap_or(Value::Null)
            }
            (_, other) => other,
        };
        match list {
            Value::List(rows) => rows,
            Value::Null => Vec::new(),
            single => vec![single],
        }
    }
}

fn refuse(message: impl Into<String>) -> Vec<UserError> {
    vec![UserError::new("query", UserErrorCode::Invalid, message)]
}

/// The one operation's root field, mutable.
fn root_field(document: &mut ExecutableDocument) -> Option<&mut Field> {
    let operation = match &mut document.operations {
        async_graphql::parser::types::DocumentOperations::Single(op) => op,
        async_graphql::parser::types::DocumentOperations::Multiple(ops) => {
            ops.values_mut().next()?
        }
    };
    operation
        .node
        .selection_set
        .node
        .items
        .iter_mut()
        .find_map(|item| match &mut item.node {
            Selection::Field(f) if f.node.name.node.as_str() != "__typename" => Some(&mut f.node),
            _ => None,
        })
}

fn set_paging(document: &mut ExecutableDocument, size: u64, offset: u64) {
    let Some(field) = root_field(document) else {
        return;
    };
    for (name, value) in [("first", size), ("offset", offset)] {
        let value = async_graphql_value::Value::Number(value.into());
        match field
            .arguments
            .iter_mut()
            .find(|(n, _)| n.node.as_str() == name)
        {
            Some((_, v)) => v.node = value,
            None => field.arguments.push((
                Positioned::new(Name::new(name), field.name.pos),
                Positioned::new(value, field.name.pos),
            )),
        }
    }
}

/// Whether a selection has no nested object (fragments expanded).
fn flat(document: &ExecutableDocument, set: &SelectionSet, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    set.items.iter().all(|item| match &item.node {
        Selection::Field(f) => f.node.selection_set.node.items.is_empty(),
        Selection::InlineFragment(f) => flat(document, &f.node.selection_set.node, depth + 1),
        Selection::FragmentSpread(s) => document
            .fragments
            .get(&s.node.fragment_name.node)
            .is_some_and(|f| flat(document, &f.node.selection_set.node, depth + 1)),
    })
}

/// The validation errors of a document (empty: valid).
async fn validate(
    validator: &AppSchema,
    document: &ExecutableDocument,
    variables: &Variables,
) -> Vec<String> {
    let mut request = async_graphql::Request::new("").variables(variables.clone());
    request.set_parsed_query(document.clone());
    crate::platform::graphql::validation_errors(validator, request).await
}

/// Checks a query for a bulk export and plans its pages.
pub async fn plan(
    validator: &AppSchema,
    query: &str,
    variables: &Variables,
    format: BulkExportFormat,
) -> Result<Plan, Vec<UserError>> {
    let document = async_graphql::parser::parse_query(query)
        .map_err(|e| refuse(format!("The query does not parse: {e}")))?;
    let mut operations = document.operations.iter();
    let (Some((_, operation)), None) = (operations.next(), operations.next()) else {
        return Err(refuse(
            "A bulk export runs a document with exactly one operation",
        ));
    };
    if operation.node.ty != OperationType::Query {
        return Err(refuse(
            "A bulk export runs a query, not a mutation or subscription",
        ));
    }
    let roots: Vec<&Field> = operation
        .node
        .selection_set
        .node
        .items
        .iter()
        .filter_map(|item| match &item.node {
            Selection::Field(f) if f.node.name.node.as_str() != "__typename" => Some(&f.node),
            _ => None,
        })
        .collect();
    let [root] = roots.as_slice() else {
        return Err(refuse(
            "A bulk export's query selects exactly one top-level field (a list or a connection)",
        ));
    };
    if root.selection_set.node.items.is_empty() {
        return Err(refuse(
            "A bulk export's top-level field must be a list or a connection of objects",
        ));
    }
    let root_key = root.response_key().node.to_string();
    let nodes = root
        .selection_set
        .node
        .items
        .iter()
        .find_map(|item| match &item.node {
            Selection::Field(f) if f.node.name.node.as_str() == "nodes" => Some(&f.node),
            _ => None,
        });
    let nodes_key = nodes.map(|f| f.response_key().node.to_string());
    let row_selection = nodes.map_or(&root.selection_set.node, |f| &f.selection_set.node);
    if format == BulkExportFormat::Csv && !flat(&document, row_selection, 0) {
        return Err(refuse(
            "CSV needs a flat selection: the rows select nested objects or lists; ask for JSONL",
        ));
    }

    let original = document.clone();
    let mut plan = Plan {
        document,
        root_key,
        nodes_key,
        page_size: None,
    };
    // The largest page whose cost fits the limit.
    let mut refusal = None;
    for size in PAGE_SIZES {
        plan.page_size = Some(size);
        let analysis = crate::platform::graphql::cost::analyse(&plan.page(0), None, variables);
        match analysis.refusal() {
            None => {
                refusal = None;
                break;
            }
            Some(reason) => refusal = Some(reason),
        }
    }
    if let Some(reason) = refusal {
        return Err(refuse(reason));
    }
    if validate(validator, &plan.page(0), variables)
        .await
        .is_empty()
    {
        return Ok(plan);
    }
    // A root field that does not page runs once.
    let errors = validate(validator, &original, variables).await;
    if errors.is_empty() {
        plan.page_size = None;
        return Ok(plan);
    }
    Err(refuse(format!(
        "The query is not valid: {}",
        errors.join("; ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validator() -> AppSchema {
        crate::application::areas::schema(crate::platform::graphql::Mode::Validation, None)
    }

    #[tokio::test]
    async fn a_nested_selection_is_refused_for_csv_and_planned_for_jsonl() {
        let q = "{ items(first: 5) { nodes { sku category { name } } } }";
        let vars = Variables::default();
        let e = plan(&validator(), q, &vars, BulkExportFormat::Csv)
            .await
            .expect_err("csv");
        assert!(e[0].message.contains("CSV needs a flat selection"), "{e:?}");
        let p = plan(&validator(), q, &vars, BulkExportFormat::Jsonl)
            .await
            .expect("jsonl");
        assert_eq!(p.root_key, "items");
        assert_eq!(p.nodes_key.as_deref(), Some("nodes"));
        assert_eq!(p.page_size, Some(250));
    }

    #[tokio::test]
    async fn only_one_query_field_is_exported() {
        let vars = Variables::default();
        for q in [
            "{ items { nodes { sku } } printers { nodes { code } } }",
            "mutation { logout { success } }",
            "{ items { nodes { sku ",
            "{ nope { id } }",
        ] {
            assert!(
                plan(&validator(), q, &vars, BulkExportFormat::Jsonl)
                    .await
                    .is_err(),
                "{q}"
            );
        }
    }
}
