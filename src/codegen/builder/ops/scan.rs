//! Inclusive scans along one axis of a tile in a distributed layout: `associative_scan` (sum,
//! max, min) and `associative_scan_with` (a combine closure). The result has the input's layout.
//!
//! Every basis that moves the axis ("steps along it") must move only the axis, by a power of
//! two, and no two such bases may move it by the same amount (blocked layouts qualify). The
//! axis coordinate is then a sum of those steps, and the stages follow their order:
//!
//! 1. in each thread, the registers whose axis steps lie below every lane and warp step are
//!    scanned in coordinate order;
//! 2. across lanes, Hillis–Steele with `shfl.sync.up` (`ds_bpermute` on AMD) over the lane bits
//!    that step along the axis (they must be consecutive lane bits, in increasing order): a lane
//!    whose axis position is at least `2^s` takes the partial of the lane `2^s` positions lower;
//! 3. across warps, when warp bits step along the axis: every warp's total goes to shared
//!    memory, a barrier, and each thread combines the totals of the warps below it (an
//!    exclusive prefix) into its values;
//! 4. registers whose axis steps lie above every lane and warp step repeat stages 1–3 for each
//!    block of the axis, and the block totals are carried in order.
//!
//! Other layouts are refused with [`CodegenError::BadLayout`]: convert the tile first.

pub use crate::codegen::ir::attrs::ScanOp;
use std::rc::Rc;
use std::sync::Arc;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{OpKind, ValueId};
use crate::codegen::lower::combine_body::CombineBody;
use crate::codegen::lower::scan_shape::{scan_binary, ScanPlan, ScanShape};
use crate::codegen::lower::values::ValueData;
use crate::codegen::types::{DType, Type};
use crate::codegen::Value;

const OP: &str = "associative_scan";

impl<'ctx> KernelBuilder<'ctx> {
    /// The inclusive scan of `tile` along `axis` with `op`; see the [module docs](self).
    #[track_caller]
    pub fn associative_scan(&mut self, tile: Value, axis: usize, op: ScanOp) -> Result<Value> {
        self.record_checked(OpKind::Scan { axis, op }, vec![tile.into()], |kb| {
            let (t, l, sh) = kb.scan_checked(tile, axis)?;
            let elem = scalar_dtype(t.ty);
            if sh.combines() {
                kb.check_binary_dtype(scan_binary(op), elem, &t)?;
            }
            kb.scan_result(&t, l, sh, elem, None)
        })
    }

    /// The inclusive scan of `tile` along `axis` with `combine(kb, a, b)`, which gets two
    /// scalars of the tile's element type (`a` holds the lower coordinates) and returns one; it
    /// must be associative (not necessarily commutative). `combine` runs once, recorded as the
    /// op's combine region; every combination the scan makes lowers that record (so it may use
    /// only ops lowered from their record: arithmetic, comparisons, `where`, math, casts, loads).
    #[track_caller]
    pub fn associative_scan_with(
        &mut self,
        tile: Value,
        axis: usize,
        combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let mut combine = combine;
        self.record_checked_with_regions(OpKind::ScanWith(axis), vec![tile.into()], 1, |kb, r| {
            let (t, l, sh) = kb.scan_checked(tile, axis)?;
            let elem = scalar_dtype(t.ty);
            let body = kb.record_combine(OP, r.get(0), elem, |kb, a, b| combine(kb, a, b))?;
            kb.scan_result(&t, l, sh, elem, Some(body))
        })
    }

    /// Checks a scan of `tile` along `axis` and finds its stages.
    fn scan_checked(
        &mut self,
        tile: Value,
        axis: usize,
    ) -> Result<(Rc<ValueData<'ctx>>, Arc<TileLayout>, ScanShape)> {
        let (t, l) = self.axis_operand(OP, tile, axis)?;
        if matches!(t.ty, Type::Ptr(..)) || scalar_dtype(t.ty) == DType::I1 {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "a tile of numbers".into(),
                value: t.describe(),
            });
        }
        let sh = ScanShape::new(OP, &t.describe(), &l, axis)?;
        Ok((t, l, sh))
    }

    /// The result of scanning `t` (in its layout `l`, as elements of `elem`) as `sh` says, with
    /// `body` or the op's own combine, its warps' scratch placed and its plan kept for lowering.
    fn scan_result(
        &mut self,
        t: &ValueData<'ctx>,
        l: Arc<TileLayout>,
        sh: ScanShape,
        elem: DType,
        body: Option<CombineBody>,
    ) -> Result<Value> {
        let scratch = match sh.scratch(&l, elem) {
            Some(bytes) => Some(self.place_scratch(OP, bytes, 16, true)?),
            None => None,
        };
        let info = AxisInfo::unknown(&t.shape);
        let v = self
            .lx
            .values
            .new_value(t.ty, t.shape.clone(), Some(l), vec![], info);
        let plan = ScanPlan {
            shape: sh,
            scratch,
            body,
        };
        self.lx.staged.scans.put(ValueId(v.index), plan);
        Ok(v)
    }
}
