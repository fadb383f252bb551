//! Lowering of `device_print` and `device_assert`: `vprintf` calls with their argument buffers
//! and format strings, and `__assertfail` with a trap, as methods of the lowering context.

use std::collections::HashSet;

use inkwell::module::Linkage;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{AsValueRef, BasicValueEnum, IntValue, PointerValue};
use inkwell::AddressSpace;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::PrintFormat;
use crate::codegen::ir::print_line::{Conv, Line};
use crate::codegen::ir::{Loc, Op};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::ValueData;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use crate::target::Feature;

/// The names of the strings `device_print` and `device_assert` put in the module.
const STRING_PREFIX: &str = "weft_str_";

/// For each register of `d` whose element no earlier register of the same thread holds, its
/// index (every thread holds the same pattern of registers; a scalar has register 0).
pub(crate) fn distinct_registers(d: &ValueData<'_>) -> Vec<usize> {
    let Some(l) = d.layout.as_ref().filter(|_| !d.is_scalar()) else {
        return vec![0];
    };
    let mut seen = HashSet::new();
    (0..l.num_regs())
        .filter(|&r| seen.insert(l.reg_coord(r)))
        .collect()
}

impl<'ctx> LowerCtx<'ctx> {
    /// Emits `op`, a recorded `device_print` of its operands with `prefix` in `format`.
    pub(crate) fn lower_device_print(
        &mut self,
        op: &Op,
        prefix: &str,
        format: PrintFormat,
    ) -> Result<()> {
        let data = (0..op.args.len())
            .map(|i| self.op_operand(op, i))
            .collect::<Result<Vec<_>>>()?;
        let pids = self.print_pids()?;
        if data.is_empty() {
            let line = Line::new(prefix, 0, 0, &[], None, format);
            return self.print_once(&line.c_format(), &pids);
        }
        let operands = data.len();
        for (k, d) in data.iter().enumerate() {
            let not_a_number =
                || CodegenError::arg("device_print", format!("{} is not numbers", d.describe()));
            let dtype = d.ty.dtype().ok_or_else(not_a_number)?;
            let line = Line::new(prefix, k, operands, &d.shape, Some(dtype), format);
            let conv = line.conv.ok_or_else(not_a_number)?;
            let regs = self.printf_values(d, dtype, conv)?;
            let fmt = line.c_format();
            if d.is_scalar() {
                let args: Vec<BasicValueEnum<'ctx>> =
                    pids.iter().copied().chain(regs.first().copied()).collect();
                self.print_once(&fmt, &args)?;
            } else {
                self.print_tile(&fmt, &pids, d, &regs)?;
            }
        }
        Ok(())
    }

    /// Emits `op`, a recorded `device_assert` of its operand with `message`, reporting the
    /// op's line.
    pub(crate) fn lower_device_assert(&mut self, op: &Op, message: &str) -> Result<()> {
        let d = self.op_operand(op, 0)?;
        self.assert_all(&d, message, op.loc)
    }

    /// The program ids (x, y, z) as `vprintf` arguments.
    pub(crate) fn print_pids(&mut self) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let target = self.target;
        let mut pids = Vec::with_capacity(3);
        for (axis, name) in ["x", "y", "z"].into_iter().enumerate() {
            pids.push(
                target
                    .lowering()
                    .program_id(self, axis as u32, name)?
                    .into(),
            );
        }
        Ok(pids)
    }

    /// `vprintf(fmt, args)` by the first thread (of the CTA, or of the current warp role).
    pub(crate) fn print_once(&mut self, fmt: &str, args: &[BasicValueEnum<'ctx>]) -> Result<()> {
        let buf = self.printf_buffer(args)?;
        let t0 = self.is_thread0()?;
        self.only_where(t0, "print", |lx| lx.vprintf(fmt, buf, args))
    }

    /// `vprintf(fmt, pids, index, value)` in every thread for each distinct element of tile `d`
    /// it holds; `regs` are its registers as `vprintf` takes them.
    pub(crate) fn print_tile(
        &mut self,
        fmt: &str,
        pids: &[BasicValueEnum<'ctx>],
        d: &ValueData<'ctx>,
        regs: &[BasicValueEnum<'ctx>],
    ) -> Result<()> {
        let l = d.layout.clone().expect("a tile has a layout");
        let coords = (0..l.rank())
            .map(|dim| self.dim_coords(&l, dim))
            .collect::<Result<Vec<_>>>()?;
        let mut buf = None;
        for r in distinct_registers(d) {
            let args: Vec<BasicValueEnum<'ctx>> = pids
                .iter()
                .copied()
                .chain(coords.iter().map(|c| c[r].into()))
                .chain([regs[r]])
                .collect();
            let b = match buf {
                Some(b) => b,
                None => *buf.insert(self.printf_buffer(&args)?),
            };
            self.vprintf(fmt, b, &args)?;
        }
        Ok(())
    }

    /// The registers of `v` (of element type `d`) as `vprintf` takes them under `conv`.
    pub(crate) fn printf_values(
        &mut self,
        data: &ValueData<'ctx>,
        d: DType,
        conv: Conv,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let ctx = self.em.ctx;
        let width = if conv.is_wide() {
            ctx.i64_type()
        } else {
            ctx.i32_type()
        };
        let regs = match conv {
            Conv::F64 if d != DType::F64 && d != DType::F32 => {
                self.cast_regs(&data.regs, d, DType::F32)?
            }
            _ => data.regs.clone(),
        };
        let b = &self.em.b;
        regs.iter()
            .map(|&r| {
                Ok(match conv {
                    Conv::F64 => match r {
                        BasicValueEnum::FloatValue(f) if d != DType::F64 => {
                            b.build_float_ext(f, ctx.f64_type(), "")?.into()
                        }
                        other => other,
                    },
                    _ => {
                        let bits = match r {
                            BasicValueEnum::FloatValue(f) => {
                                let it = match d.bits() {
                                    16 => ctx.i16_type(),
                                    32 => ctx.i32_type(),
                                    _ => ctx.i64_type(),
                                };
                                b.build_bit_cast(f, it, "")?.into_int_value()
                            }
                            other => other.into_int_value(),
                        };
                        let signed = matches!(conv, Conv::I32 | Conv::I64) && d != DType::I1;
                        let out = if bits.get_type().get_bit_width() == width.get_bit_width() {
                            bits
                        } else if signed {
                            b.build_int_s_extend(bits, width, "")?
                        } else {
                            b.build_int_z_extend(bits, width, "")?
                        };
                        out.into()
                    }
                })
            })
            .collect()
    }

    /// A stack buffer (made in the prologue) for `vprintf` arguments of the types of `args`, as
    /// a generic pointer: one C struct, each field at its natural alignment.
    fn printf_buffer(&mut self, args: &[BasicValueEnum<'ctx>]) -> Result<PointerValue<'ctx>> {
        let tys: Vec<BasicTypeEnum<'ctx>> = args.iter().map(|a| a.get_type()).collect();
        let st = self.em.ctx.struct_type(&tys, false);
        let generic = self.em.ctx.ptr_type(AddressSpace::default());
        self.in_prologue(|b| {
            let p = b.build_alloca(st, "printf.args")?;
            Ok(
                if p.get_type().get_address_space() == AddressSpace::default() {
                    p
                } else {
                    b.build_address_space_cast(p, generic, "")?
                },
            )
        })
    }

    /// `vprintf(fmt, buf)` with `args` stored in `buf` (from [`printf_buffer`](Self::printf_buffer)
    /// for the same types).
    fn vprintf(
        &mut self,
        fmt: &str,
        buf: PointerValue<'ctx>,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<()> {
        let ctx = self.em.ctx;
        let tys: Vec<BasicTypeEnum<'ctx>> = args.iter().map(|a| a.get_type()).collect();
        let st = ctx.struct_type(&tys, false);
        for (i, a) in args.iter().enumerate() {
            let p = self.em.b.build_struct_gep(st, buf, i as u32, "")?;
            self.em.b.build_store(p, *a)?;
        }
        let fmt = self.c_string(fmt)?;
        let generic = ctx.ptr_type(AddressSpace::default());
        let f = self.extern_fn("vprintf", || {
            ctx.i32_type()
                .fn_type(&[generic.into(), generic.into()], false)
        });
        self.em.b.build_call(f, &[fmt.into(), buf.into()], "")?;
        Ok(())
    }

    /// The declaration of the external function `name`, added with `ty()` the first time.
    fn extern_fn(
        &self,
        name: &str,
        ty: impl FnOnce() -> inkwell::types::FunctionType<'ctx>,
    ) -> inkwell::values::FunctionValue<'ctx> {
        self.em
            .module
            .get_function(name)
            .unwrap_or_else(|| self.em.module.add_function(name, ty(), None))
    }

    /// `text` as a NUL-terminated constant in global memory (one per distinct text), as a
    /// generic pointer.
    fn c_string(&mut self, text: &str) -> Result<PointerValue<'ctx>> {
        let ctx = self.em.ctx;
        let init = ctx.const_string(text.as_bytes(), true);
        // LLVM uniques constants: an equal text is the same initializer.
        let existing = self.em.module.get_globals().find(|g| {
            g.get_name()
                .to_bytes()
                .starts_with(STRING_PREFIX.as_bytes())
                && g.get_initializer()
                    .is_some_and(|i| i.as_value_ref() == init.as_value_ref())
        });
        let g = match existing {
            Some(g) => g,
            None => {
                let n = self.em.module.get_globals().count();
                let g = self.em.module.add_global(
                    init.get_type(),
                    Some(AddressSpace::from(1u16)),
                    &format!("{STRING_PREFIX}{n}"),
                );
                g.set_initializer(&init);
                g.set_constant(true);
                g.set_linkage(Linkage::Private);
                g.set_unnamed_addr(true);
                g
            }
        };
        Ok(self.em.b.build_address_space_cast(
            g.as_pointer_value(),
            ctx.ptr_type(AddressSpace::default()),
            "",
        )?)
    }

    /// Runs `f` where `cond` holds: in a block of its own, joined after.
    fn only_where(
        &mut self,
        cond: IntValue<'ctx>,
        name: &str,
        f: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let func = self.em.func();
        let then = self.em.ctx.append_basic_block(func, name);
        let end = self.em.ctx.append_basic_block(func, &format!("{name}.end"));
        self.em.b.build_conditional_branch(cond, then, end)?;
        self.em.b.position_at_end(then);
        f(self)?;
        self.em.b.build_unconditional_branch(end)?;
        self.em.b.position_at_end(end);
        Ok(())
    }

    /// Traps (after `__assertfail` with `message`, `loc` and the kernel's name where the target
    /// prints) unless every element of the `i1` value `d` holds.
    pub(crate) fn assert_all(
        &mut self,
        d: &ValueData<'ctx>,
        message: &str,
        loc: Loc,
    ) -> Result<()> {
        let mut failed: Option<IntValue<'ctx>> = None;
        for r in distinct_registers(d) {
            let not = self.em.b.build_not(d.regs[r].into_int_value(), "")?;
            failed = Some(match failed {
                Some(f) => self.em.b.build_or(f, not, "")?,
                None => not,
            });
        }
        let failed = failed.expect("a value has a register");
        let func = self.em.func();
        let fail = self.em.ctx.append_basic_block(func, "assert.fail");
        let pass = self.em.ctx.append_basic_block(func, "assert.pass");
        self.em.b.build_conditional_branch(failed, fail, pass)?;
        self.em.b.position_at_end(fail);
        if self.target.supports(Feature::Printf) {
            let ctx = self.em.ctx;
            let generic = ctx.ptr_type(AddressSpace::default());
            let f = self.extern_fn("__assertfail", || {
                ctx.void_type().fn_type(
                    &[
                        generic.into(),
                        generic.into(),
                        ctx.i32_type().into(),
                        generic.into(),
                        ctx.i64_type().into(),
                    ],
                    false,
                )
            });
            let kernel = self.name.clone();
            let args = [
                self.c_string(message)?.into(),
                self.c_string(loc.file)?.into(),
                ctx.i32_type().const_int(u64::from(loc.line), false).into(),
                self.c_string(&kernel)?.into(),
                ctx.i64_type().const_int(1, false).into(),
            ];
            self.em.b.build_call(f, &args, "")?;
        }
        let trap = self.em.intrinsic("llvm.trap", &[])?;
        self.em.b.build_call(trap, &[], "")?;
        self.em.b.build_unreachable()?;
        self.em.b.position_at_end(pass);
        Ok(())
    }
}
