//! `wgmma` (sm_90a warpgroup tensor-core MMA) and its groups, as inline PTX: LLVM has no
//! intrinsic for them (Triton emits inline PTX too).

use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, IntValue};

use super::inline_ptx::{vector, InlinePtx, Operand, RegClass};
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::emitter::Emitter;
use crate::codegen::types::DType;

/// Registers tied through one empty asm statement after a wait: LLVM's handling of an asm call
/// grows with the square of its operands (matching tied operands, kill flags), so one call tying
/// all 128 registers of an accumulator cost the GEMM's compile a fifth; groups of 16 cost what
/// the registers themselves do.
const WAIT_GROUP: usize = 16;

/// The A operand of one (64-row block, k-step).
#[derive(Debug, Clone, Copy)]
pub(crate) enum AFragment<'a, 'ctx> {
    /// A shared-memory matrix descriptor.
    Desc(IntValue<'ctx>),
    /// Four 32-bit registers.
    Regs(&'a [IntValue<'ctx>]),
}

/// The instruction shape of a run of wgmmas: `m64n{n}k{k_step}`, operands of `elem`, and the
/// transpose immediates (16-bit types only): A's when A is in shared memory, then B's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WgmmaShape {
    pub n: u64,
    pub k_step: u64,
    pub elem: DType,
    pub trans_a: Option<bool>,
    pub trans_b: bool,
}

impl WgmmaShape {
    /// The PTX spelling of the operands' type.
    fn ptx_type(&self) -> &'static str {
        match self.elem {
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F8E4M3 => "e4m3",
            DType::F8E5M2 => "e5m2",
            _ => "tf32",
        }
    }

    /// The transpose immediates, each after a comma, or nothing for 8- and 32-bit types.
    fn trans(&self) -> String {
        if self.elem.mem_bytes() != 2 {
            return String::new();
        }
        match self.trans_a {
            Some(a) => format!(", {}, {}", u8::from(a), u8::from(self.trans_b)),
            None => format!(", {}", u8::from(self.trans_b)),
        }
    }
}

/// One asm statement: `wgmma.fence`, then for each 64-row block `r` (its accumulators `acc[r]`,
/// tied in and out) a wgmma per k-step `s` on `a[r · ksteps + s]` and `b[s]`; the first k-step
/// scales the old accumulator by `use_acc` (an `i1`; always 1 without it). The copies LLVM makes
/// into tied accumulator registers (a zero accumulator's, say) then all come before the fence,
/// as ptxas requires (it injects fences and waits otherwise). Returns the new accumulators, in
/// the order of `acc`.
pub(crate) fn mma_async<'ctx>(
    em: &Emitter<'ctx>,
    shape: &WgmmaShape,
    acc: &[Vec<BasicValueEnum<'ctx>>],
    a: &[AFragment<'_, 'ctx>],
    b: &[IntValue<'ctx>],
    use_acc: Option<IntValue<'ctx>>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let (n, k_step, ty, trans) = (shape.n, shape.k_step, shape.ptx_type(), shape.trans());
    let ksteps = b.len();
    let mut asm = InlinePtx::new();
    let outs: Vec<Vec<Operand>> = acc
        .iter()
        .map(|regs| asm.outputs(RegClass::F32, regs.len()))
        .collect();
    for (o, v) in outs.iter().flatten().zip(acc.iter().flatten()) {
        let v: BasicMetadataValueEnum = (*v).into();
        asm.tied(*o, v);
    }
    let mut lines = vec!["wgmma.fence.sync.aligned;".to_string()];
    let scale_d = match use_acc {
        Some(u) => {
            let u = em.b.build_int_z_extend(u, em.ctx.i32_type(), "")?;
            let o = asm.input(RegClass::B32, u.into());
            lines.push("{".to_string());
            lines.push(".reg .pred weft_scale_d;".to_string());
            lines.push(format!("setp.ne.b32 weft_scale_d, {o}, 0;"));
            "weft_scale_d"
        }
        None => "1",
    };
    for (r, outs) in outs.iter().enumerate() {
        for (s, desc_b) in b.iter().enumerate() {
            let oa = match a[r * ksteps + s] {
                AFragment::Desc(d) => asm.input(RegClass::B64, d.into()).to_string(),
                AFragment::Regs(regs) => {
                    let ops: Vec<Operand> = regs
                        .iter()
                        .map(|v| asm.input(RegClass::B32, (*v).into()))
                        .collect();
                    vector(&ops)
                }
            };
            let ob = asm.input(RegClass::B64, (*desc_b).into());
            let sd = if s == 0 { scale_d } else { "1" };
            lines.push(format!(
                "wgmma.mma_async.sync.aligned.m64n{n}k{k_step}.f32.{ty}.{ty} {}, {oa}, {ob}, {sd}, 1, 1{trans};",
                vector(outs)
            ));
        }
    }
    if use_acc.is_some() {
        lines.push("}".to_string());
    }
    for l in lines {
        asm.inst(l);
    }
    asm.call(em)
}

/// `wgmma.commit_group`: closes the group of wgmmas issued since the last one.
pub(crate) fn commit_group(em: &Emitter<'_>) -> Result<()> {
    let mut commit = InlinePtx::new();
    commit.inst("wgmma.commit_group.sync.aligned;");
    commit.call(em)?;
    Ok(())
}

/// Waits until at most `pending` wgmma groups are in flight, then passes `regs` through the wait
/// in groups (each an empty asm statement tying its registers, ordered after the wait as every
/// side-effecting asm is), so nothing reads them before it. Returns them, in order.
pub(crate) fn wait_group<'ctx>(
    em: &Emitter<'ctx>,
    pending: u32,
    regs: &[BasicValueEnum<'ctx>],
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let mut res = Vec::with_capacity(regs.len());
    let groups: Vec<&[BasicValueEnum<'ctx>]> = if regs.is_empty() {
        vec![&[]]
    } else {
        regs.chunks(WAIT_GROUP).collect()
    };
    for (i, group) in groups.into_iter().enumerate() {
        let mut asm = InlinePtx::new();
        let classes: Vec<RegClass> = group.iter().map(|r| reg_class(*r)).collect::<Result<_>>()?;
        let outs: Vec<Operand> = classes.iter().map(|c| asm.output(*c)).collect();
        for (o, r) in outs.iter().zip(group) {
            asm.tied(*o, (*r).into());
        }
        if i == 0 {
            asm.inst(format!("wgmma.wait_group.sync.aligned {pending};"));
        }
        res.extend(asm.call(em)?);
    }
    Ok(res)
}

/// The register class of an accumulator register.
fn reg_class(v: BasicValueEnum<'_>) -> Result<RegClass> {
    match v {
        BasicValueEnum::FloatValue(f) if f.get_type().get_bit_width() == 32 => Ok(RegClass::F32),
        BasicValueEnum::IntValue(i) if i.get_type().get_bit_width() == 32 => Ok(RegClass::B32),
        _ => Err(CodegenError::arg(
            "wgmma_wait",
            "accumulators are 32-bit (f32 or i32) tiles",
        )),
    }
}
