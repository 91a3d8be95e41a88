//! Pages of objects resolved without a future per field.
//!
//! async-graphql resolves an object by boxing one future per selected field and driving them
//! through a `FuturesUnordered`, and a list by doing that for every element. For a page of
//! fifty items with twenty fields that is a thousand boxed futures, most of which only copy a
//! value out of a struct; it was the larger half of the CPU an item page cost.
//!
//! [`FlatList`] (every connection's `nodes`) and [`Flat`] (single objects on hot paths)
//! resolve the same selection with the same resolvers, in two passes:
//!
//! 1. every selected field of every element is started and polled once, in selection order.
//!    A leaf field (no sub-selection) is polled where it stands, without a box; an object
//!    field is boxed first, because it may be a whole sub-tree.
//! 2. what did not finish in that one poll (a field waiting on a DataLoader) is awaited
//!    together. A waiting leaf field is dropped and started again: its first poll has already
//!    put its key in the loader's pending batch, so starting it again joins the same batch and
//!    costs no statement. Leaf resolvers are reads, so starting one twice is safe.
//!
//! Every element's fields are started before anything waits, as with async-graphql's own
//! path, so DataLoaders still see every key of a page in one batch. The answer is the same
//! value, keys in selection order (as the spec asks). Selections this does not handle (custom
//! directives, fragments on other types, one response key twice) go through async-graphql's
//! own path unchanged. Like that path without extensions, this runs no extension hooks: the
//! schemas register none (see the module documentation of [`crate::platform::graphql`]).

use std::borrow::Cow;
use std::future::Future;
use std::pin::{Pin, pin};
use std::task::Poll;

use async_graphql::indexmap::IndexMap;
use async_graphql::parser::types::{Field, Selection, SelectionSet};
use async_graphql::registry::Registry;
use async_graphql::{
    ContainerType, ContextSelectionSet, Name, OutputType, Positioned, ServerResult, Value,
};
use futures_util::StreamExt as _;
use futures_util::stream::FuturesUnordered;

/// A list of objects resolved in two passes (see the module documentation). It is `[T!]!` in
/// the schema, exactly as `Vec<T>` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatList<T>(pub Vec<T>);

impl<T> Default for FlatList<T> {
    fn default() -> Self {
        FlatList(Vec::new())
    }
}

impl<T> From<Vec<T>> for FlatList<T> {
    fn from(items: Vec<T>) -> Self {
        FlatList(items)
    }
}

impl<T> FromIterator<T> for FlatList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        FlatList(iter.into_iter().collect())
    }
}

impl<T> std::ops::Deref for FlatList<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> IntoIterator for FlatList<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<T: ContainerType + Sync> OutputType for FlatList<T> {
    fn type_name() -> Cow<'static, str> {
        <Vec<T> as OutputType>::type_name()
    }

    fn qualified_type_name() -> String {
        <Vec<T> as OutputType>::qualified_type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        <Vec<T> as OutputType>::create_type_info(registry)
    }

    async fn resolve(
        &self,
        ctx: &ContextSelectionSet<'_>,
        field: &Positioned<Field>,
    ) -> ServerResult<Value> {
        match plan::<T>(ctx) {
            Some(fields) => Ok(Value::List(resolve_flat(ctx, &self.0, &fields, true).await)),
            None => OutputType::resolve(&self.0, ctx, field).await,
        }
    }
}

/// One object resolved in two passes (see the module documentation); `T!` in the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flat<T>(pub T);

impl<T: ContainerType + Sync> OutputType for Flat<T> {
    fn type_name() -> Cow<'static, str> {
        T::type_name()
    }

    fn qualified_type_name() -> String {
        T::qualified_type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        T::create_type_info(registry)
    }

    async fn resolve(
        &self,
        ctx: &ContextSelectionSet<'_>,
        field: &Positioned<Field>,
    ) -> ServerResult<Value> {
        match plan::<T>(ctx) {
            Some(fields) => Ok(
                resolve_flat(ctx, std::slice::from_ref(&self.0), &fields, false)
                    .await
                    .pop()
                    .unwrap_or_default(),
            ),
            None => T::resolve(&self.0, ctx, field).await,
        }
    }
}

/// The selected fields of `T`, fragments spread in, or `None` when the selection needs
/// async-graphql's own path.
fn plan<'a, T: OutputType>(ctx: &ContextSelectionSet<'a>) -> Option<Vec<&'a Positioned<Field>>> {
    let mut fields = Vec::with_capacity(ctx.item.node.items.len());
    collect::<T>(ctx, ctx.item, &mut fields).then_some(fields)
}

fn collect<'a, T: OutputType>(
    ctx: &ContextSelectionSet<'a>,
    set: &'a Positioned<SelectionSet>,
    fields: &mut Vec<&'a Positioned<Field>>,
) -> bool {
    let applies = |condition: Option<&str>| condition.is_none_or(|c| c == T::type_name());
    set.node
        .items
        .iter()
        .all(|selection| match &selection.node {
            Selection::Field(field) => {
                let key = field.node.response_key();
                // Two selections of one key are merged by async-graphql's own path.
                let fresh = !fields
                    .iter()
                    .any(|f| f.node.response_key().node == key.node);
                fresh && field.node.directives.is_empty() && {
                    fields.push(field);
                    true
                }
            }
            Selection::FragmentSpread(spread) => {
                spread.node.directives.is_empty()
                    && ctx
                        .query_env
                        .fragments
                        .get(&spread.node.fragment_name.node)
                        .is_some_and(|fragment| {
                            applies(Some(fragment.node.type_condition.node.on.node.as_str()))
                                && collect::<T>(ctx, &fragment.node.selection_set, fields)
                        })
            }
            Selection::InlineFragment(fragment) => {
                fragment.node.directives.is_empty()
                    && applies(
                        fragment
                            .node
                            .type_condition
                            .as_ref()
                            .map(|c| c.node.on.node.as_str()),
                    )
                    && collect::<T>(ctx, &fragment.node.selection_set, fields)
            }
        })
}

/// A field that did not finish in its first poll: (element, field, its result).
type Waiting<'a> =
    Pin<Box<dyn Future<Output = (usize, usize, ServerResult<Option<Value>>)> + Send + 'a>>;

/// Resolves `fields` on every element; `indexed` adds the element's index to error paths (a
/// list) or not (a single object).
async fn resolve_flat<'a, T: ContainerType + Sync>(
    ctx: &ContextSelectionSet<'a>,
    items: &'a [T],
    fields: &[&'a Positioned<Field>],
    indexed: bool,
) -> Vec<Value> {
    let start = |i: usize, f: usize| -> Waiting<'_> {
        let (item, field) = (&items[i], fields[f]);
        Box::pin(async move {
            let result = if indexed {
                let ctx_idx = ctx.with_index(i);
                item.resolve_field(&ctx_idx.with_field(field)).await
            } else {
                item.resolve_field(&ctx.with_field(field)).await
            };
            (i, f, result)
        })
    };

    let mut rows: Vec<IndexMap<Name, Value>> = Vec::with_capacity(items.len());
    let mut waiting: Vec<Waiting<'_>> = Vec::new();
    // Pass 1: everything polled once, in order; nothing waits yet.
    std::future::poll_fn(|cx| {
        for (i, item) in items.iter().enumerate() {
            let mut row = IndexMap::with_capacity(fields.len());
            for (f, field) in fields.iter().enumerate() {
                let key = field.node.response_key().node.clone();
                if field.node.name.node == "__typename" {
                    row.insert(
                        key,
                        Value::String(item.introspection_type_name().into_owned()),
                    );
                    continue;
                }
                let polled = if field.node.selection_set.node.items.is_empty() {
                    let ctx_idx = ctx.with_index(i);
                    let ctx_field = if indexed {
                        ctx_idx.with_field(field)
                    } else {
                        ctx.with_field(field)
                    };
                    match pin!(item.resolve_field(&ctx_field)).poll(cx) {
                        Poll::Ready(result) => Some(result),
                        Poll::Pending => {
                            waiting.push(start(i, f));
                            None
                        }
                    }
                } else {
                    let mut boxed = start(i, f);
                    match boxed.as_mut().poll(cx) {
                        Poll::Ready((_, _, result)) => Some(result),
                        Poll::Pending => {
                            waiting.push(boxed);
                            None
                        }
                    }
                };
                match polled {
                    Some(Ok(value)) => {
                        row.insert(key, value.unwrap_or_default());
                    }
                    Some(Err(error)) => ctx.add_error(error),
                    // Its place in the answer is kept, so keys stay in selection order.
                    None => {
                        row.insert(key, Value::Null);
                    }
                }
            }
            rows.push(row);
        }
        Poll::Ready(())
    })
    .await;

    // Pass 2: what waits (DataLoaders), awaited together.
    if !waiting.is_empty() {
        let mut pending: FuturesUnordered<Waiting<'_>> = waiting.into_iter().collect();
        while let Some((i, f, result)) = pending.next().await {
            let key = &fields[f].node.response_key().node;
            match result {
                Ok(value) => {
                    if let Some(slot) = rows[i].get_mut(key) {
                        *slot = value.unwrap_or_default();
                    }
                }
                Err(error) => {
                    rows[i].shift_remove(key);
                    ctx.add_error(error);
                }
            }
        }
    }

    rows.into_iter()
        .map(|row| {
            if row.is_empty() {
                Value::Null
            } else {
                Value::Object(row)
            }
        })
        .collect()
}
