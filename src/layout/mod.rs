//! The linear-layout algebra over GF(2).
