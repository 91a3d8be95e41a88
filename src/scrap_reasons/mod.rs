//! Scrap reasons (CONTRACT 5.12).
