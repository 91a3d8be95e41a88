//! Item variants: one product in many materials and colours. A template item's routing
//! marks some step materials *variable*; each variant is an item of its own (SKU
//! `{TEMPLATE}-{TYPE}-{COLOR}`) with a copy of the template's BOM and routing in which the
//! variable materials are swapped for the variant's material (the item linked to that
//! material type and colour). Many variants are made in one transaction: one that cannot be
//! made leaves none. Template changes are synced to the variants' routings, with a preview
//! of what changes first. An order's material can be swapped to a variant of it.

pub mod graphql;
pub mod rest;
pub mod rules;
