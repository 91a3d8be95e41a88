//! Stock locations (CONTRACT 5.9).
