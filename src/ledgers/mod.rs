//! Layer 3, the ledgers: what is where and what it is worth. The books (accounting), the
//! inventory ledger, spools, and the materials import that opens both.

pub mod accounting;
pub mod inventory;
pub mod materials;
pub mod spools;
