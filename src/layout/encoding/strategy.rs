//! proptest strategies for valid encodings of every kind (feature `proptest`).
