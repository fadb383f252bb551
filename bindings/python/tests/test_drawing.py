"""Notebook pictures: `_repr_svg_` / `_repr_html_` of linear layouts and layout objects, and `draw(shape)`,
all from the renderer the `weft layout --format svg` command uses."""

import re

import weft


def cells(svg):
    """The labelled cells of a drawing: the first text line of each (e.g. 'W0 L3')."""
    return re.findall(r'<rect x="\d+" y="\d+" width="58" height="34"', svg)


def title(svg):
    return re.search(r"shape ([0-9x]+)", svg).group(1)


def test_linear_layout_draws_one_cell_per_element():
    ll = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]).to_linear_layout([32, 16])
    svg = ll._repr_svg_()
    assert svg.startswith("<svg") and len(cells(svg)) == 32 * 16
    assert title(svg) == "32x16"
    # Element (0, 4) is lane 1's register 0; element (1, 0) lane 4's.
    assert ">W0 L1<" in svg and ">W3 L31<" in svg
    assert ll._repr_html_() == f'<div class="weft-layout">{svg}</div>'


def test_shared_layout_colours_banks():
    ll = weft.SwizzledSharedLayout(1, 1, 1, [1, 0]).to_linear_layout([8, 8])
    svg = ll._repr_svg_()
    assert "colour: bank" in svg and len(cells(svg)) == 64


def test_layout_objects_draw_their_tile():
    blocked = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    assert title(blocked._repr_svg_()) == "32x16"
    mma = weft.NVMMADistributedLayout([2, 0], [4, 1], [16, 8])
    assert title(mma._repr_svg_()) == "64x8"
    assert title(weft.NVMMASharedLayout(128, 16)._repr_svg_()) == "8x64"
    lin = weft.DistributedLinearLayout([[0, 1]], [[1, 0], [2, 0]], [], [], [4, 2])
    assert title(lin._repr_svg_()) == "4x2"
    drawing = blocked.draw([8, 8])
    assert isinstance(drawing, weft.Drawing) and title(drawing.svg) == "8x8"
    assert drawing._repr_svg_() == drawing.svg == str(drawing)
    assert repr(blocked) in drawing.svg


def test_too_large_to_draw_gives_none_or_an_error():
    huge = weft.LinearLayout.identity_1d(1 << 30, "register", "dim0")
    assert huge._repr_svg_() is None and huge._repr_html_() is None
    try:
        huge.draw()
    except weft.LayoutError as e:
        assert "too large" in str(e)
    else:
        raise AssertionError("a 2^30-element drawing should be refused")
    # Past 4096 elements a notebook shows the text; draw() still draws.
    big = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]).to_linear_layout([64, 128])
    assert big._repr_svg_() is None
    assert len(cells(big.draw().svg)) == 64 * 128
    try:
        weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]).draw([1024, 1024])
    except weft.LayoutError as e:
        assert "too many" in str(e) or "too large" in str(e)
    else:
        raise AssertionError("a 1024x1024 drawing should be refused")
