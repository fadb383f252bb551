//! Nothing to link: this package's test (`tests/header.rs`) keeps `bindings/c/include/weft.h` current.
