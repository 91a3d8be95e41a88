//! Company settings, a singleton (CONTRACT 5.16).
