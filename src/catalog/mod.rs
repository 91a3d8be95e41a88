//! The catalog: items, item categories, units of measure, item files and product imports.
