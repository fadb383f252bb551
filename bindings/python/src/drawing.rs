//! Notebook pictures (`_repr_svg_`, `_repr_html_`, `draw`): the SVG grid of `weft::layout::render`, the one
//! the `weft layout --format svg` command draws.

use pyo3::prelude::*;
use weft::layout::encoding::Encoding;
use weft::layout::render;
use weft::layout::LinearLayout;

use crate::errors::OrPy;

/// The notebook picture of a bare layout, or `None` past [`MAX_CELLS`] elements (the notebook then shows
/// the text; `draw()` draws larger ones).
pub fn layout_svg(ll: &LinearLayout) -> Option<String> {
    if ll.total_out_size() > MAX_CELLS {
        return None;
    }
    render::svg_of_layout(ll).ok()
}

/// The picture of a bare layout, as large as the renderer draws.
pub fn draw_layout(ll: &LinearLayout) -> PyResult<Drawing> {
    let svg = render::svg_of_layout(ll).py()?;
    Ok(Drawing { svg })
}

/// An SVG inside a `<div>`, for front ends that render HTML before SVG.
pub fn html(svg: &str) -> String {
    format!("<div class=\"weft-layout\">{svg}</div>")
}

/// The largest number of tensor elements a notebook picture shows (larger ones are drawn on request).
const MAX_CELLS: u64 = 1 << 12;

/// A shape to draw an encoding at when none is given: its own `shape` if it has one, else the smallest
/// shape past which no growth removes a copy (the layout's tile), found by doubling one dim at a time
/// (at most [`MAX_CELLS`] elements);
/// for shared layouts, 8 rows by the fewest columns the layout accepts. `None` when none fits the picture.
pub fn default_shape(enc: &Encoding) -> Option<Vec<u64>> {
    match enc {
        Encoding::Linear(l) => return Some(l.shape.clone()),
        Encoding::PaddedShared(p) => return Some(p.shape.clone()),
        _ => {}
    }
    let rank = enc.rank().ok()?;
    if rank == 0 {
        return None;
    }
    if enc.is_shared() {
        return [8u64, 16, 32, 64, 128].iter().find_map(|&cols| {
            let mut shape = vec![1; rank];
            shape[rank - 1] = cols;
            if rank > 1 {
                shape[rank - 2] = 8;
            }
            enc.to_linear_layout(&shape).ok().map(|_| shape)
        });
    }
    let copies = |shape: &[u64]| -> Option<u32> {
        let ll = enc.to_linear_layout(shape).ok()?;
        Some(
            ll.free_variable_masks()
                .iter()
                .map(|(_, m)| m.count_ones())
                .sum(),
        )
    };
    let mut shape = vec![1u64; rank];
    let mut free = copies(&shape)?;
    while free > 0 {
        // Grow the dim that removes a copy with the fewest doublings (doublings that only add registers
        // come before the lanes or warps that remove copies).
        let Some((_, s, f)) = (0..rank)
            .filter_map(|d| {
                (1..=6).find_map(|j| {
                    let mut s = shape.clone();
                    s[d] = s[d].checked_shl(j)?;
                    if s.iter().product::<u64>() > MAX_CELLS {
                        return None;
                    }
                    let f = copies(&s)?;
                    (f < free).then_some((j, s, f))
                })
            })
            .min_by_key(|(j, _, _)| *j)
        else {
            break; // what copies remain are the layout's own (a slice's dropped dim)
        };
        shape = s;
        free = f;
    }
    Some(shape)
}

/// An SVG picture, shown by notebooks (`_repr_svg_`) and printed as its text.
#[pyclass(name = "Drawing", module = "weft", frozen)]
pub struct Drawing {
    svg: String,
}

#[pymethods]
impl Drawing {
    /// The SVG text.
    #[getter]
    fn svg(&self) -> &str {
        &self.svg
    }

    fn _repr_svg_(&self) -> &str {
        &self.svg
    }

    fn _repr_html_(&self) -> String {
        html(&self.svg)
    }

    fn __str__(&self) -> &str {
        &self.svg
    }
}

impl Drawing {
    /// The SVG text.
    pub fn text(&self) -> &str {
        &self.svg
    }
}

/// The picture of `enc` laid out on `shape`.
pub fn draw(enc: &Encoding, shape: &[u64]) -> PyResult<Drawing> {
    let ll = enc.to_linear_layout(shape).py()?;
    let svg = render::svg(enc, &ll, shape).py()?;
    Ok(Drawing { svg })
}
