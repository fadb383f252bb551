//! The serde forms of layouts and the JSON of design.md (feature `serde`).
//!
//! A layout is `{"in_dims": [[name, bases], …], "out_dims": [[name, size], …]}`, Triton's own field order:
//! `bases[i]` lists the output coordinates of input bit i, one integer per out dim. A [`Dim`] is its name.
//! Deserialising goes through the checked constructor ([`LinearLayout::from_bases`], out sizes explicit, so
//! the layout need not be surjective): input that breaks a layout rule is a serde error naming the rule,
//! never a panic. [`to_line`] prints any of weft's values as one line in design.md's style.

#![forbid(unsafe_code)]

use std::io;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::error::{LayoutError, Result};
use super::{Bases, Dim, LinearLayout};

/// A layout as design.md writes it, before the checked constructor has seen it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutJson {
    in_dims: Vec<(Dim, Bases)>,
    out_dims: Vec<(Dim, u64)>,
}

impl LayoutJson {
    fn of(l: &LinearLayout) -> LayoutJson {
        LayoutJson {
            in_dims: l.all_bases(),
            out_dims: l.out_dims().map(|(d, s)| (*d, s)).collect(),
        }
    }

    fn into_layout(self) -> Result<LinearLayout> {
        LinearLayout::from_bases(self.in_dims, self.out_dims, false)
    }
}

impl Serialize for LinearLayout {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        LayoutJson::of(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for LinearLayout {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<LinearLayout, D::Error> {
        LayoutJson::deserialize(d)?
            .into_layout()
            .map_err(de::Error::custom)
    }
}

impl Serialize for Dim {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Dim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Dim, D::Error> {
        Ok(Dim::new(&String::deserialize(d)?))
    }
}

/// serde_json's compact output with a space after every `,` and `:`: the one-line style of design.md.
struct OneLine;

impl serde_json::ser::Formatter for OneLine {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.begin_array_value(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// `value` as one line of JSON in design.md's style (`{"a": [1, 2]}`), strings escaped by serde_json.
/// Fails only for values JSON cannot hold (a map with non-string keys); weft's own types always print.
pub fn to_line<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out, OneLine,
    ))?;
    // serde_json writes UTF-8 only.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// A serde_json error as [`LayoutError::Parse`], its position in the fields rather than in the message.
fn parse_error(e: serde_json::Error) -> LayoutError {
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    LayoutError::Parse {
        format: "json",
        line: e.line(),
        column: e.column(),
        message: text.strip_suffix(&at).unwrap_or(&text).to_string(),
    }
}

impl LinearLayout {
    /// The layout as one line of JSON (design.md): in dims with their bases, then out dims with their sizes.
    ///
    /// ```
    /// # use weft::layout::LinearLayout;
    /// let l = LinearLayout::identity_1d(4, "lane", "dim0")?;
    /// assert_eq!(l.to_json(), r#"{"in_dims": [["lane", [[1], [2]]]], "out_dims": [["dim0", 4]]}"#);
    /// assert_eq!(LinearLayout::from_json(&l.to_json())?, l);
    /// # Ok::<(), weft::layout::LayoutError>(())
    /// ```
    pub fn to_json(&self) -> String {
        to_line(self).expect("a layout is names and integers, which JSON always holds")
    }

    /// Parses the JSON of [`to_json`](Self::to_json) (any whitespace and key order; unknown keys are an
    /// error). Malformed JSON is a [`LayoutError::Parse`] with line and column; well-formed JSON that breaks a
    /// layout rule gets that rule's error (e.g. [`LayoutError::BasisOutOfRange`]).
    pub fn from_json(text: &str) -> Result<LinearLayout> {
        serde_json::from_str::<LayoutJson>(text)
            .map_err(parse_error)?
            .into_layout()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> (usize, usize, String) {
        match LinearLayout::from_json(text) {
            Err(LayoutError::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("expected a parse error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn prints_and_parses_a_2d_layout() {
        // register bit 0 -> (0, 1), bit 1 -> (8, 0); a size-1 lane; a 16 x 2 tensor.
        let l = LinearLayout::from_bases(
            [("register", vec![vec![0, 1], vec![8, 0]]), ("lane", vec![])],
            [("dim0", 16), ("dim1", 2)],
            false,
        )
        .unwrap();
        let j = l.to_json();
        assert_eq!(
            j,
            r#"{"in_dims": [["register", [[0, 1], [8, 0]]], ["lane", []]], "out_dims": [["dim0", 16], ["dim1", 2]]}"#
        );
        assert_eq!(LinearLayout::from_json(&j).unwrap(), l);
        // Whitespace, key order and escapes do not matter.
        let k = "{ \"out_dims\" : [[\"dim\\u0030\", 16], [\"dim1\", 2]],\n  \"in_dims\": [[\"register\", [[0,1],[8,0]]], [\"lane\", [ ]]] }";
        assert_eq!(LinearLayout::from_json(k).unwrap(), l);
        // serde_json sees the same value as the one-line text.
        assert_eq!(serde_json::from_str::<LinearLayout>(k).unwrap(), l);
        assert_eq!(
            serde_json::to_value(&l).unwrap(),
            serde_json::from_str::<serde_json::Value>(&j).unwrap()
        );
    }

    #[test]
    fn empty_layout_round_trips() {
        let e = LinearLayout::empty();
        assert_eq!(e.to_json(), r#"{"in_dims": [], "out_dims": []}"#);
        assert_eq!(LinearLayout::from_json(&e.to_json()).unwrap(), e);
    }

    #[test]
    fn odd_names_are_escaped() {
        let l = LinearLayout::identity_1d(2, "a \"quoted\"\n\\name", "ü").unwrap();
        assert!(
            l.to_json().contains(r#""a \"quoted\"\n\\name""#),
            "{}",
            l.to_json()
        );
        assert_eq!(LinearLayout::from_json(&l.to_json()).unwrap(), l);
    }

    #[test]
    fn errors_carry_positions() {
        assert_eq!(parse_err("").0, 1);
        let (line, _, msg) = parse_err("{\"in_dims\": [],\n \"out_dims\": [[\"dim0\", -4]]}");
        assert_eq!(line, 2);
        assert!(msg.contains("-4"), "{msg}");
        assert!(!msg.contains("at line"), "{msg}");
        let (line, _, msg) = parse_err("{\"in_dims\": [], \"out_dimz\": []}");
        assert_eq!(line, 1);
        assert!(msg.contains("out_dimz"), "{msg}");
        let (_, _, msg) = parse_err("{\"in_dims\": []}");
        assert!(msg.contains("missing field `out_dims`"), "{msg}");
        let (_, _, msg) = parse_err("{\"in_dims\": [], \"in_dims\": [], \"out_dims\": []}");
        assert!(msg.contains("duplicate field `in_dims`"), "{msg}");
        let (_, column, _) = parse_err("{\"in_dims\": [], \"out_dims\": []} x");
        assert_eq!(column, 33);
        let (_, _, msg) =
            parse_err("{\"in_dims\": [[\"r\", [[1.5]]]], \"out_dims\": [[\"o\", 2]]}");
        assert!(msg.contains("1.5"), "{msg}");
        // Deep nesting is an error, not a stack overflow.
        let (line, _, _) = parse_err(&"[".repeat(10_000));
        assert_eq!(line, 1);
        let (_, _, msg) = parse_err(&format!("{{\"in_dims\": {}", "[".repeat(10_000)));
        assert!(msg.contains("expected a string"), "{msg}");
    }

    #[test]
    fn rule_errors_pass_through() {
        let r = LinearLayout::from_json(r#"{"in_dims": [["r", [[4]]]], "out_dims": [["o", 4]]}"#);
        assert!(
            matches!(r, Err(LayoutError::BasisOutOfRange { value: 4, .. })),
            "{r:?}"
        );
        let r = LinearLayout::from_json(r#"{"in_dims": [["r", [[1]]]], "out_dims": [["o", 3]]}"#);
        assert!(
            matches!(r, Err(LayoutError::NotPowerOfTwo { size: 3, .. })),
            "{r:?}"
        );
        let r =
            LinearLayout::from_json(r#"{"in_dims": [["r", [[1, 0]]]], "out_dims": [["o", 2]]}"#);
        assert!(matches!(r, Err(LayoutError::BasisArity { .. })), "{r:?}");
    }

    #[test]
    fn serde_errors_name_the_broken_rule() {
        // Through plain serde_json (no from_json): the checked constructor's message, not a panic.
        let e = serde_json::from_str::<LinearLayout>(
            r#"{"in_dims": [["r", [[4]]]], "out_dims": [["o", 4]]}"#,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("maps to 4 in out dim `o` of size 4"),
            "{e}"
        );
        let e = serde_json::from_str::<LinearLayout>(
            r#"{"in_dims": [["r", [[1]]], ["r", []]], "out_dims": [["o", 2]]}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("duplicate input dim `r`"), "{e}");
    }

    #[test]
    fn encodings_round_trip_through_serde() {
        use crate::layout::encoding::Encoding;
        use crate::layout::text::parse_any;
        for (text, shape) in [
            ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>", [64u64, 64]),
            ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>", [64, 64]),
            ("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", [64, 64]),
        ] {
            let enc = parse_any(text).unwrap();
            let json = serde_json::to_string(&enc).unwrap();
            let back: Encoding = serde_json::from_str(&json).unwrap();
            assert_eq!(back, enc, "{json}");
            assert_eq!(back.to_linear_layout(&shape).unwrap(), enc.to_linear_layout(&shape).unwrap());
        }
    }
}
