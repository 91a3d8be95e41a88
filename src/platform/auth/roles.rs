//! The closed sets a staff account is judged by: its role and whether it may sign in. They
//! live with the guards that read them; the identity area stores and edits them.

crate::text_enum! {
    /// A staff account's role.
    pub enum AccountType {
        /// Everything, including the admin-only sections of spec 4.5.
        Admin,
        /// Day-to-day work; no admin sections.
        Operator,
    }
}

crate::text_enum! {
    /// Whether an account may sign in.
    pub enum UserStatus {
        /// May sign in.
        Active,
        /// Deactivated by an admin.
        Inactive,
        /// Suspended by an admin.
        Suspended,
    }
}
