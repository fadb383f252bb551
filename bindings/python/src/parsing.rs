//! Text in: TTGIR attributes and Gluon constructor text (`parse_layout`), a whole TTGIR dump's layout
//! aliases (`parse_ttgir`), and `tensor<…>` / `!ttg.memdesc<…>` types (`parse_type`).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use weft::layout::encoding::Encoding;
use weft::layout::text::{self, ttgir};

use crate::errors::OrPy;
use crate::layout_base::Layout;
use crate::layouts::wrap;

/// The layout object of TTGIR attribute text (`#ttg.blocked<{…}>`, parents inline) or Gluon constructor
/// text (`BlockedLayout([1, 4], …)`, module prefixes such as `gl.` accepted).
#[pyfunction]
pub fn parse_layout(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    wrap(py, text::parse_any(text).py()?)
}

/// The layouts of a TTGIR dump: `{"#alias": layout}` for every alias that is a layout weft knows, in
/// definition order (aliases of other attributes, such as `#smem`, are left out).
#[pyfunction]
pub fn parse_ttgir<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
    let file = ttgir::parse_file(text).py()?;
    let d = PyDict::new(py);
    for (name, enc) in file.aliases {
        d.set_item(format!("#{name}"), wrap(py, enc)?)?;
    }
    Ok(d)
}

/// A `tensor<64x64xf16, #blocked>` or `!ttg.memdesc<…>` type: `(shape, element type, layout)`. `aliases`
/// maps alias names (`"#blocked"` or `"blocked"`) to layouts, as `parse_ttgir` returns them. A tensor-memory
/// type is checked as Triton checks it (at least one block, at most 32 bits per column).
#[pyfunction]
#[pyo3(signature = (text, aliases = None))]
pub fn parse_type(
    py: Python<'_>,
    text: &str,
    aliases: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Vec<u64>, String, Py<PyAny>)> {
    let mut map = ttgir::Aliases::new();
    if let Some(a) = aliases {
        for (k, v) in a.iter() {
            let k: String = k.extract()?;
            let l = v.cast::<Layout>()?;
            map.insert(k.trim_start_matches('#').to_string(), l.get().enc.clone());
        }
    }
    let t = ttgir::parse_type(text, &map).py()?;
    // Triton's memdesc verifier: a tensor-memory type must fit its layout's block and element width.
    if let Some(bits) = element_bits(&t.element) {
        match &t.encoding {
            Encoding::TensorMemory(m) => m.check_type(&t.shape, bits).py()?,
            Encoding::TensorMemoryScales(m) => m.check_type(&t.shape, bits).py()?,
            _ => {}
        }
    }
    Ok((t.shape, t.element, wrap(py, t.encoding)?))
}

/// Bits of a TTGIR scalar type: the number after its letters (`f32`, `bf16`, `i8`, `f8E4M3FN`); `None` for
/// anything else (pointers).
fn element_bits(name: &str) -> Option<u32> {
    let digits: String = name
        .trim_start_matches(|c: char| c.is_ascii_lowercase())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok().filter(|&b| b > 0)
}
