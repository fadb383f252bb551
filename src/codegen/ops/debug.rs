//! Debugging a kernel from inside: Gluon's `device_print`, `device_assert`, `static_print` and
//! `static_assert`.
//!
//! [`device_print`](KernelBuilder::device_print) lowers to `vprintf` on NVIDIA (one call per
//! distinct element a thread holds; the line format is `codegen::ir::print_line`'s, shared with
//! the interpreter), [`device_assert`](KernelBuilder::device_assert) to `__assertfail` and a trap;
//! both are tile-IR ops the interpreter runs (`interp/debug.rs`). AMDGPU has no printf lowering
//! here ([`Feature::Printf`]). [`static_print`](KernelBuilder::static_print) and
//! [`static_assert`](KernelBuilder::static_assert) act while the kernel is built and emit nothing.

use std::collections::HashSet;
use std::rc::Rc;

use inkwell::module::Linkage;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{AsValueRef, BasicValueEnum, IntValue, PointerValue};
use inkwell::AddressSpace;

use crate::codegen::builder::values::{Value, ValueData};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::print_line::{Conv, Line};
use crate::codegen::ir::{Arg, Loc, OpKind};
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};
use crate::target::Feature;

/// How [`device_print`](KernelBuilder::device_print_with) writes numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PrintFormat {
    /// Integers as signed decimals (`i1` as 0 or 1), floats as C's `%f` (f16, bf16 and fp8
    /// through f32).
    #[default]
    Decimal,
    /// Integers as unsigned decimals (an `i8` −1 is 255); floats as with `Decimal`.
    Unsigned,
    /// Every element's bits in hexadecimal, zero-padded to its width: `0x3c00` for an f16 1.0,
    /// `0xffffffff` for an `i32` −1.
    Hex,
}

/// The names of the strings `device_print` and `device_assert` put in the module.
const STRING_PREFIX: &str = "weft_str_";

/// Fails unless `text` can travel as a C string (no NUL byte).
fn check_text(op: &'static str, what: &str, text: &str) -> Result<()> {
    match text.find('\0') {
        Some(at) => Err(CodegenError::arg(
            op,
            format!("the {what} has a NUL byte at {at}, which would end it early on the GPU"),
        )),
        None => Ok(()),
    }
}

/// For each register of `d` whose element no earlier register of the same thread holds, its
/// index (every thread holds the same pattern of registers; a scalar has register 0).
fn distinct_registers(d: &ValueData<'_>) -> Vec<usize> {
    let Some(l) = d.layout.as_ref().filter(|_| !d.is_scalar()) else {
        return vec![0];
    };
    let mut seen = HashSet::new();
    (0..l.num_regs())
        .filter(|&r| seen.insert(l.reg_coord(r)))
        .collect()
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Prints `values` (scalars and tiles of numbers, Gluon's `device_print`) while the kernel
    /// runs, in [`PrintFormat::Decimal`] (for hex or unsigned integers use
    /// [`device_print_with`](Self::device_print_with)).
    ///
    /// An element of a tile is a line `pid (X, Y, Z) idx (I, J) PREFIX: VALUE` (indices
    /// right-aligned to their dim's width), a scalar `pid (X, Y, Z) PREFIX: VALUE`, no values
    /// `pid (X, Y, Z) PREFIX`; with several values, ` (operand K)` follows the prefix. Floats are
    /// C's `%f` (f16, bf16 and fp8 through f32), integers `%d`/`%lld`.
    ///
    /// On NVIDIA each thread calls `vprintf` once per distinct element it holds (an element
    /// several threads hold, a broadcast, prints once per holder, as in Triton); a scalar prints
    /// once per program, from its first thread (in a warp role, the role's). The driver writes
    /// the lines at the next synchronisation, and those of different threads and warps come in
    /// no promised order: compare them as a multiset. The interpreter writes the same lines to
    /// the writer of [`interp::run_with`](crate::codegen::interp::run_with) (stdout for `run`)
    /// in a fixed order: operand by operand, warp by warp, register by register, lane by lane.
    /// On AMDGPU it is [`CodegenError::Unsupported`] (weft has no printf lowering there); a
    /// pointer is an [`CodegenError::InvalidType`], a prefix with a NUL byte an
    /// [`CodegenError::InvalidArgument`].
    #[track_caller]
    pub fn device_print(&mut self, prefix: &str, values: &[Value]) -> Result<()> {
        self.device_print_with(prefix, values, PrintFormat::Decimal)
    }

    /// [`device_print`](Self::device_print) in `format`.
    #[track_caller]
    pub fn device_print_with(
        &mut self,
        prefix: &str,
        values: &[Value],
        format: PrintFormat,
    ) -> Result<()> {
        self.record(
            OpKind::DevicePrint {
                prefix: prefix.to_string(),
                format,
            },
            values.iter().map(|v| Arg::from(*v)).collect(),
            |kb| kb.device_print_impl(prefix, values, format),
        )
    }

    fn device_print_impl(
        &mut self,
        prefix: &str,
        values: &[Value],
        format: PrintFormat,
    ) -> Result<()> {
        const OP: &str = "device_print";
        check_text(OP, "prefix", prefix)?;
        self.target.require(Feature::Printf, OP)?;
        let mut data = Vec::with_capacity(values.len());
        for &v in values {
            let d = self.get(OP, v)?;
            if d.ty.dtype().is_none() {
                return Err(CodegenError::InvalidType {
                    op: OP,
                    expected: "numbers (pointers are not printed; print their offsets)".into(),
                    value: d.describe(),
                });
            }
            data.push((v, d));
        }
        let mut pids: Vec<BasicValueEnum<'ctx>> = Vec::with_capacity(3);
        for (axis, name) in ["x", "y", "z"].into_iter().enumerate() {
            pids.push(
                self.target
                    .lowering()
                    .program_id(self, axis as u32, name)?
                    .into(),
            );
        }
        if data.is_empty() {
            let line = Line::new(prefix, 0, 0, &[], None, format);
            return self.print_once(&line.c_format(), &pids);
        }
        let operands = data.len();
        for (k, (v, d)) in data.iter().enumerate() {
            let dtype = d.ty.dtype().expect("checked above");
            let line = Line::new(prefix, k, operands, &d.shape, Some(dtype), format);
            let conv = line.conv.expect("a value");
            let regs = self.printf_values(*v, d, dtype, conv)?;
            let fmt = line.c_format();
            if d.is_scalar() {
                let args: Vec<BasicValueEnum<'ctx>> =
                    pids.iter().copied().chain([regs[0]]).collect();
                self.print_once(&fmt, &args)?;
            } else {
                self.print_tile(&fmt, &pids, d, &regs)?;
            }
        }
        Ok(())
    }

    /// `vprintf(fmt, args)` by the first thread (of the CTA, or of the current warp role).
    fn print_once(&mut self, fmt: &str, args: &[BasicValueEnum<'ctx>]) -> Result<()> {
        let buf = self.printf_buffer(args)?;
        let t0 = self.is_thread0()?;
        self.only_where(t0, "print", |kb| kb.vprintf(fmt, buf, args))
    }

    /// `vprintf(fmt, pids, index, value)` in every thread for each distinct element of tile `d`
    /// it holds; `regs` are its registers as `vprintf` takes them.
    fn print_tile(
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
    fn printf_values(
        &mut self,
        v: Value,
        data: &Rc<ValueData<'ctx>>,
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
                let f32s = self.cast(v, DType::F32)?;
                self.get("device_print", f32s)?.regs.clone()
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

    /// Checks that `cond` (an `i1` scalar or tile) holds for every element (Gluon's
    /// `device_assert`).
    ///
    /// On NVIDIA a thread holding a false element calls `__assertfail`, as CUDA's `assert` does
    /// (the driver prints `message`, the caller's `file:line`, the kernel, block and thread),
    /// and traps: the launch fails at the next synchronisation with a kernel fault naming the
    /// kernel, and the context is unusable afterwards. On AMDGPU it traps without the message.
    /// The interpreter returns [`InterpError::Assert`](crate::codegen::interp::InterpError::Assert)
    /// with the message, the line, the program and the first false element's index (row-major).
    /// A condition that is not `i1` is [`CodegenError::InvalidType`].
    #[track_caller]
    pub fn device_assert(&mut self, cond: Value, message: &str) -> Result<()> {
        self.record(
            OpKind::DeviceAssert {
                message: message.to_string(),
            },
            vec![cond.into()],
            |kb| kb.device_assert_impl(cond, message),
        )
    }

    fn device_assert_impl(&mut self, cond: Value, message: &str) -> Result<()> {
        const OP: &str = "device_assert";
        check_text(OP, "message", message)?;
        let d = self.get(OP, cond)?;
        if d.ty != Type::Scalar(DType::I1) {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "an i1 condition (a comparison's result)".into(),
                value: d.describe(),
            });
        }
        let mut failed: Option<IntValue<'ctx>> = None;
        for r in distinct_registers(&d) {
            let not = self.em.b.build_not(d.regs[r].into_int_value(), "")?;
            failed = Some(match failed {
                Some(f) => self.em.b.build_or(f, not, "")?,
                None => not,
            });
        }
        let failed = failed.expect("a value has a register");
        let loc = Loc::from(self.rec.caller());
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

    /// Prints `prefix` and the types of `values` (shapes, element types, layouts written out,
    /// shared buffers' layouts and offsets) to stdout while the kernel is built: the line of
    /// [`static_text`](Self::static_text). Emits no code and records no op.
    #[track_caller]
    pub fn static_print(&mut self, prefix: &str, values: &[Value]) -> Result<()> {
        let text = self
            .static_text(prefix, values)
            .map_err(|e| e.at(Loc::caller()))?;
        println!("{text}");
        Ok(())
    }

    /// What [`static_print`](Self::static_print) prints: `prefix: type; type; …`, each type as the
    /// tile IR prints it with its layout in place of the alias
    /// (`tensor<64x64xf32, #ttg.blocked<{…}>>`, `i32`, `!shared<…>`).
    pub fn static_text(&self, prefix: &str, values: &[Value]) -> Result<String> {
        let mut tys = Vec::with_capacity(values.len());
        for &v in values {
            self.values.peek("static_print", v)?;
            let t = self.ir_type(v)?;
            tys.push(crate::codegen::ir::print::type_text(&self.rec.prog, &t));
        }
        Ok(match (prefix.is_empty(), tys.is_empty()) {
            (_, true) => prefix.to_string(),
            (true, false) => tys.join("; "),
            (false, false) => format!("{prefix}: {}", tys.join("; ")),
        })
    }

    /// Fails the build with `message` and the caller's line unless `cond` holds (a check on
    /// the kernel's configuration: shapes, tile sizes, dtypes). Emits no code.
    #[track_caller]
    pub fn static_assert(&self, cond: bool, message: &str) -> Result<()> {
        if cond {
            return Ok(());
        }
        Err(CodegenError::arg("static_assert", message.to_string()).at(Loc::caller()))
    }
}
