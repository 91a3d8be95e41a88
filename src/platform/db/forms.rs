//! One field list per writable resource: [`input_forms!`](crate::input_forms) declares each
//! column once and generates the GraphQL create input, the GraphQL update input, the diesel
//! form (Insertable + AsChangeset) and the two conversions from input to form.

use async_graphql::MaybeUndefined;

/// A PATCH value for a clearable column: omitted keeps (`None`), `null` clears (`Some(None)`),
/// a value sets (`Some(Some(v))`), which is what diesel's `AsChangeset` expects.
pub fn patch<T>(value: MaybeUndefined<T>) -> Option<Option<T>> {
    match value {
        MaybeUndefined::Undefined => None,
        MaybeUndefined::Null => Some(None),
        MaybeUndefined::Value(v) => Some(Some(v)),
    }
}

/// A value read from a file or a form for an input field that distinguishes "absent" from
/// `null`: a missing value is absent (`Undefined`), never a `null` that would clear.
pub fn given<T>(value: Option<T>) -> MaybeUndefined<T> {
    value.map_or(MaybeUndefined::Undefined, MaybeUndefined::Value)
}

/// Declares the writable columns of a table once.
///
/// `create ...;` may be left out for a table whose one row is only ever changed (the
/// company settings): then only the update input and the form are generated.
///
/// Each column is `name: kind Type` with `kind` one of
/// - `required`: the create input needs it (`T`), the update input may omit it;
/// - `optional`: a NOT NULL column with a database default: omitted means the default on
///   create and "unchanged" on update;
/// - `clearable`: a nullable column: `null` clears it on update (`MaybeUndefined<T>`).
///
/// A field's GraphQL-only attributes go in brackets after its documentation, e.g.
/// `[name = "type"]` for a column whose GraphQL name differs; they are written onto the two
/// inputs only, never onto the diesel form. Attributes for one input only follow as
/// `@create[...]` or `@update[...]`: `@update[skip]` makes a column that is set once (a code
/// other records keep), `@create[skip]` one a new row always takes from its database default.
///
/// A `null` in the update input for a `required` or `optional` column changes nothing; the
/// generated `nulls()` lists such fields so an area's rules can refuse them.
///
/// An optional `inputs { name: Type, ... }` block after the columns adds fields to both inputs
/// that are no column (a synonym, a value split over several columns, a password that is
/// stored as its hash); the conversions ignore them and the area's rules fold them into the
/// form. `@create[skip]` or `@update[skip]` keeps such a field out of one input.
///
/// The form is one struct for both statements: diesel's `Insertable` writes `DEFAULT` for a
/// `None` (so database defaults stay in the migration) and `AsChangeset` leaves `None` columns
/// as they are; `Some(None)` writes NULL in both. The area's `rules.rs` checks and normalises
/// the form (required fields on create included), so rules see one shape.
#[macro_export]
macro_rules! input_forms {
    (
        table = $table:ident;
        $(#[$cmeta:meta])* create $create:ident;
        $(#[$umeta:meta])* update $update:ident;
        $(#[$fmeta:meta])* form $form:ident;
        { $(
            $(#[$attr:meta])* $([$($gql:tt)*])? $(@create[$($cgql:tt)*])? $(@update[$($ugql:tt)*])?
            $field:ident : $kind:ident $ty:ty
        ),+ $(,)? }
        $( inputs { $(
            $(#[$xattr:meta])* $(@create[$($xcgql:tt)*])? $(@update[$($xugql:tt)*])?
            $xfield:ident : $xty:ty
        ),+ $(,)? } )?
    ) => {
        $(#[$cmeta])*
        #[derive(Debug, Clone, ::async_graphql::InputObject)]
        pub struct $create {
            $(
                $(#[$attr])* $(#[graphql($($gql)*)])? $(#[graphql($($cgql)*)])?
                pub $field: $crate::input_forms!(@create $kind $ty),
            )+
            $($( $(#[$xattr])* $(#[graphql($($xcgql)*)])? pub $xfield: $xty, )+)?
        }

        impl From<$create> for $form {
            fn from(input: $create) -> Self {
                $form { $( $field: $crate::input_forms!(@from_create $kind input.$field), )+ }
            }
        }

        $crate::input_forms! {
            table = $table;
            $(#[$umeta])* update $update;
            $(#[$fmeta])* form $form;
            { $(
                $(#[$attr])* $([$($gql)*])? $(@create[$($cgql)*])? $(@update[$($ugql)*])?
                $field : $kind $ty
            ),+ }
            $( inputs { $(
                $(#[$xattr])* $(@create[$($xcgql)*])? $(@update[$($xugql)*])?
                $xfield : $xty
            ),+ } )?
        }
    };
    (
        table = $table:ident;
        $(#[$umeta:meta])* update $update:ident;
        $(#[$fmeta:meta])* form $form:ident;
        { $(
            $(#[$attr:meta])* $([$($gql:tt)*])? $(@create[$($cgql:tt)*])? $(@update[$($ugql:tt)*])?
            $field:ident : $kind:ident $ty:ty
        ),+ $(,)? }
        $( inputs { $(
            $(#[$xattr:meta])* $(@create[$($xcgql:tt)*])? $(@update[$($xugql:tt)*])?
            $xfield:ident : $xty:ty
        ),+ $(,)? } )?
    ) => {
        $(#[$umeta])*
        #[derive(Debug, Clone, Default, ::async_graphql::InputObject)]
        pub struct $update {
            $(
                $(#[$attr])* $(#[graphql($($gql)*)])? $(#[graphql($($ugql)*)])?
                pub $field: $crate::input_forms!(@update $kind $ty),
            )+
            $($( $(#[$xattr])* $(#[graphql($($xugql)*)])? pub $xfield: $xty, )+)?
        }

        $(#[$fmeta])*
        #[derive(Debug, Clone, Default, ::diesel::Insertable, ::diesel::AsChangeset)]
        #[diesel(table_name = $table)]
        pub struct $form {
            // The outer `Option` is spelled out: diesel's derives recognise it by its tokens.
            $( $(#[$attr])* pub $field: Option<$crate::input_forms!(@form $kind $ty)>, )+
        }

        impl From<$update> for $form {
            fn from(input: $update) -> Self {
                $form { $( $field: $crate::input_forms!(@from_update $kind input.$field), )+ }
            }
        }
    };
    (@create required $ty:ty) => { $ty };
    (@create optional $ty:ty) => { Option<$ty> };
    (@create clearable $ty:ty) => { Option<$ty> };
    (@update required $ty:ty) => { ::async_graphql::MaybeUndefined<$ty> };
    (@update optional $ty:ty) => { ::async_graphql::MaybeUndefined<$ty> };
    (@update clearable $ty:ty) => { ::async_graphql::MaybeUndefined<$ty> };
    (@form required $ty:ty) => { $ty };
    (@form optional $ty:ty) => { $ty };
    (@form clearable $ty:ty) => { Option<$ty> };
    (@from_create required $v:expr) => { Some($v) };
    (@from_create optional $v:expr) => { $v };
    (@from_create clearable $v:expr) => { Some($v) };
    (@from_update required $v:expr) => { $v.take() };
    (@from_update optional $v:expr) => { $v.take() };
    (@from_update clearable $v:expr) => { $crate::platform::db::forms::patch($v) };
}
