//! The closed sets of a payment: how it was made, what it is and where it stands. The
//! books and their journals read them; sales records payments with them.

crate::text_enum! {
    /// How a payment was made.
    pub enum PaymentMethod {
        /// Cash.
        Cash,
        /// Check.
        Check,
        /// Credit card.
        CreditCard,
        /// PayPal.
        Paypal,
        /// Venmo.
        Venmo,
        /// Zelle.
        Zelle,
        /// Wire transfer.
        Wire,
        /// Anything else.
        Other,
    }
}

crate::text_enum! {
    /// What a payment is.
    pub enum PaymentType {
        /// Money in.
        Payment,
        /// Money back (negative amount).
        Refund,
        /// A correction.
        Adjustment,
    }
}

crate::text_enum! {
    /// Where a payment stands.
    pub enum PaymentRecordStatus {
        /// Not settled yet.
        Pending,
        /// Settled (counts toward the order).
        Completed,
        /// Failed.
        Failed,
        /// Voided (reversed in the books).
        Voided,
    }
}
