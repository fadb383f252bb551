//! Helpers
