//! Gluon
