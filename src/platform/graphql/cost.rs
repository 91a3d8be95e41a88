//! What a `/graphql` document may ask for, decided over the parsed document before anything
//! executes (no async-graphql extension: see the module docs of [`crate::platform::graphql`]).
//!
//! The cost model follows Shopify's: a leaf field is free, an object field costs 1, and a
//! field with a page-size argument (`first`, `last`, `limit`, `pageSize`) multiplies the
//! cost of what it selects by that size (a variable's value, or the default page of 50
//! when a list argument is omitted on a field that has no literal). The computed cost is
//! reported in the response's `extensions.cost` (`requestedQueryCost`, `maximumAvailable`).
//! Aliases are capped too: one request cannot fan a cheap field out a thousand times.

use std::collections::HashSet;

use async_graphql::parser::types::{
    ExecutableDocument, FragmentDefinition, OperationDefinition, Selection, SelectionSet,
};
use async_graphql::{Name, Positioned, Value, Variables};
use async_graphql_value::Value as GqlValue;

/// Largest cost a query may have (Shopify allows 1,000 points per query; our pages are
/// cheaper to serve, so one full page of 250 rows with a few nested objects fits).
pub const MAX_COST: u64 = 5_000;
/// Most root fields one operation may select.
pub const MAX_ROOT_FIELDS: usize = 30;
/// Most aliased fields one document may have.
pub const MAX_ALIASES: usize = 60;
/// Page size assumed for a paginated field when the client does not say.
const DEFAULT_PAGE: u64 = 50;
/// Arguments that say how many rows a list field returns.
const PAGE_ARGUMENTS: [&str; 4] = ["first", "last", "limit", "pageSize"];

/// What the analysis found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The computed cost of the operation that will run.
    pub cost: u64,
    /// Root fields selected by that operation.
    pub root_fields: usize,
    /// Aliased fields in the whole document.
    pub aliases: usize,
    /// Whether the document asks for `__schema` or `__type`.
    pub introspection: bool,
    /// Deepest field nesting of the operation (a root field is at depth 1).
    pub depth: usize,
}

impl Analysis {
    /// Why the document is refused, if it is.
    pub fn refusal(&self) -> Option<String> {
        if self.depth > crate::platform::graphql::MAX_DEPTH {
            return Some("Query is nested too deep.".into());
        }
        if self.root_fields > MAX_ROOT_FIELDS {
            return Some(format!(
                "Query is too complex: it selects {} root fields; at most {MAX_ROOT_FIELDS} are allowed",
                self.root_fields
            ));
        }
        if self.aliases > MAX_ALIASES {
            return Some(format!(
                "Query is too complex: it uses {} aliases; at most {MAX_ALIASES} are allowed",
                self.aliases
            ));
        }
        if self.cost > MAX_COST {
            return Some(format!(
                "Query is too complex: its cost is {}; at most {MAX_COST} is allowed",
                self.cost
            ));
        }
        None
    }

    /// The `extensions.cost` value of the response.
    pub fn extension(&self) -> Value {
        let mut cost = async_graphql::indexmap::IndexMap::new();
        cost.insert(
            Name::new("requestedQueryCost"),
            Value::from(self.cost.min(i64::MAX as u64) as i64),
        );
        cost.insert(Name::new("maximumAvailable"), Value::from(MAX_COST as i64));
        Value::Object(cost)
    }
}

/// Analyses the operation `operation_name` (or every operation when none is named) of a
/// parsed document.
pub fn analyse(
    document: &ExecutableDocument,
    operation_name: Option<&str>,
    variables: &Variables,
) -> Analysis {
    let walker = Walker {
        document,
        variables,
    };
    let mut cost = 0u64;
    let mut root_fields = 0usize;
    let mut depth = 0usize;
    for (name, operation) in document.operations.iter() {
        if let (Some(wanted), Some(name)) = (operation_name, name)
            && wanted != name.as_str()
        {
            continue;
        }
        let op: &OperationDefinition = &operation.node;
        let mut seen = HashSet::new();
        cost = cost.max(walker.selection_cost(&op.selection_set.node, &mut seen, 0));
        root_fields =
            root_fields.max(walker.field_count(&op.selection_set.node, &mut HashSet::new(), 0));
        depth = depth.max(walker.depth(&op.selection_set.node, &mut HashSet::new(), 0));
    }
    let mut aliases = 0;
    let mut introspection = false;
    let mut visit = |set: &SelectionSet| {
        let (a, i) = walker.scan(set);
        aliases += a;
        introspection |= i;
    };
    for (_, operation) in document.operations.iter() {
        visit(&operation.node.selection_set.node);
    }
    for fragment in document.fragments.values() {
        visit(&fragment.node.selection_set.node);
    }
    Analysis {
        cost,
        root_fields,
        aliases,
        introspection,
        depth,
    }
}

/// Nesting deeper than this is refused by the depth limit anyway; the walk stops here so a
/// hostile document cannot make the analysis itself expensive.
const MAX_WALK_DEPTH: usize = 64;

struct Walker<'a> {
    document: &'a ExecutableDocument,
    variables: &'a Variables,
}

impl Walker<'_> {
    fn fragment(&self, name: &Name) -> Option<&FragmentDefinition> {
        self.document.fragments.get(name).map(|f| &f.node)
    }

    /// The cost of a selection set (fragments expanded; a fragment cycle, which validation
    /// refuses, counts once).
    fn selection_cost(&self, set: &SelectionSet, seen: &mut HashSet<Name>, depth: usize) -> u64 {
        if depth > MAX_WALK_DEPTH {
            return 0;
        }
        let mut total = 0u64;
        for item in &set.items {
            let cost = match &item.node {
                Selection::Field(field) => {
                    let field = &field.node;
                    if field.selection_set.node.items.is_empty() {
                        0
                    } else {
                        let children =
                            self.selection_cost(&field.selection_set.node, seen, depth + 1);
                        let multiplier = self.page_size(&field.arguments);
                        1u64.saturating_add(children.saturating_mul(multiplier))
                    }
                }
                Selection::InlineFragment(f) => {
                    self.selection_cost(&f.node.selection_set.node, seen, depth + 1)
                }
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    match self.fragment(name) {
                        Some(fragment) if seen.insert(name.clone()) => {
                            let cost =
                                self.selection_cost(&fragment.selection_set.node, seen, depth + 1);
                            seen.remove(name);
                            cost
                        }
                        _ => 0,
                    }
                }
            };
            total = total.saturating_add(cost);
        }
        total
    }

    /// The deepest field nesting below a selection set (fragments expanded).
    fn depth(&self, set: &SelectionSet, seen: &mut HashSet<Name>, level: usize) -> usize {
        if level > MAX_WALK_DEPTH {
            return level;
        }
        set.items
            .iter()
            .map(|item| match &item.node {
                Selection::Field(field) => {
                    self.depth(&field.node.selection_set.node, seen, level + 1)
                }
                Selection::InlineFragment(f) => self.depth(&f.node.selection_set.node, seen, level),
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    match self.fragment(name) {
                        Some(fragment) if seen.insert(name.clone()) => {
                            let d = self.depth(&fragment.selection_set.node, seen, level);
                            seen.remove(name);
                            d
                        }
                        _ => level,
                    }
                }
            })
            .max()
            .unwrap_or(level)
    }

    /// How many fields a selection set selects at its own level (fragments expanded).
    fn field_count(&self, set: &SelectionSet, seen: &mut HashSet<Name>, depth: usize) -> usize {
        if depth > MAX_WALK_DEPTH {
            return 0;
        }
        set.items
            .iter()
            .map(|item| match &item.node {
                Selection::Field(_) => 1,
                Selection::InlineFragment(f) => {
                    self.field_count(&f.node.selection_set.node, seen, depth + 1)
                }
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    match self.fragment(name) {
                        Some(fragment) if seen.insert(name.clone()) => {
                            let n = self.field_count(&fragment.selection_set.node, seen, depth + 1);
                            seen.remove(name);
                            n
                        }
                        _ => 0,
                    }
                }
            })
            .sum()
    }

    /// Aliased fields and introspection fields written in a selection set (fragment bodies
    /// are scanned once each by the caller).
    fn scan(&self, set: &SelectionSet) -> (usize, bool) {
        let mut aliases = 0;
        let mut introspection = false;
        let mut stack: Vec<&SelectionSet> = vec![set];
        while let Some(set) = stack.pop() {
            for item in &set.items {
                match &item.node {
                    Selection::Field(field) => {
                        let field = &field.node;
                        if field.alias.is_some() {
                            aliases += 1;
                        }
                        let name = field.name.node.as_str();
                        introspection |= name == "__schema" || name == "__type";
                        stack.push(&field.selection_set.node);
                    }
                    Selection::InlineFragment(f) => stack.push(&f.node.selection_set.node),
                    Selection::FragmentSpread(_) => {}
                }
            }
        }
        (aliases, introspection)
    }

    /// The multiplier of a field: its page-size argument (literal or variable), the default
    /// page when the argument is a variable the request does not set, else 1.
    fn page_size(&self, arguments: &[(Positioned<Name>, Positioned<GqlValue>)]) -> u64 {
        let Some((_, value)) = arguments
            .iter()
            .find(|(name, _)| PAGE_ARGUMENTS.contains(&name.node.as_str()))
        else {
            return 1;
        };
        let number = match &value.node {
            GqlValue::Number(n) => n.as_u64(),
            GqlValue::Variable(name) => match self.variables.get(name) {
                Some(Value::Number(n)) => n.as_u64(),
                Some(Value::Null) | None => Some(DEFAULT_PAGE),
                Some(_) => None,
            },
            GqlValue::Null => Some(DEFAULT_PAGE),
            _ => None,
        };
        // A negative or non-integer size is refused by the resolver; cost it as one row.
        number.unwrap_or(1).max(1)
    }
}
