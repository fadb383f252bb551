//! `weft algebra OP A [B]`: compose, invert, invert-and-compose, pseudoinvert, product on JSON layouts.

use clap::{Args as ClapArgs, ValueEnum};
use weft::layout::LinearLayout;

use crate::{read_arg, Failure};

/// Arguments of `weft algebra`.
#[derive(ClapArgs, Debug)]
pub(crate) struct Args {
    /// The operation.
    op: Op,
    /// First layout: JSON text or @file.
    a: String,
    /// Second layout (compose, invert-and-compose, product): JSON text or @file.
    b: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// `B ∘ A` (Triton's `A.compose(B)`).
    Compose,
    /// `A⁻¹`.
    Invert,
    /// `C` with `A = B ∘ C` (Triton's `A.invertAndCompose(B)`).
    InvertAndCompose,
    /// A right inverse of `A`.
    Pseudoinvert,
    /// `A * B`.
    Product,
}

fn layout(which: &str, text: &str) -> Result<LinearLayout, Failure> {
    let t = read_arg(text)?;
    LinearLayout::from_json(&t).map_err(|e| Failure(format!("layout {which}: {e}")))
}

pub(crate) fn run(args: Args) -> Result<String, Failure> {
    let a = layout("A", &args.a)?;
    let two = matches!(args.op, Op::Compose | Op::InvertAndCompose | Op::Product);
    let b = match (&args.b, two) {
        (Some(b), true) => Some(layout("B", b)?),
        (None, true) => {
            return Err(Failure(
                format!("{:?} needs a second layout B", args.op).to_lowercase(),
            ))
        }
        (Some(_), false) => return Err(Failure("this operation takes one layout; B given".into())),
        (None, false) => None,
    };
    let out = match (args.op, b) {
        (Op::Compose, Some(b)) => a.compose(&b),
        (Op::InvertAndCompose, Some(b)) => a.invert_and_compose(&b),
        (Op::Product, Some(b)) => a.product(&b),
        (Op::Invert, _) => a.invert(),
        (Op::Pseudoinvert, _) => a.pseudo_invert(),
        _ => unreachable_failure()?,
    }
    .map_err(|e| Failure(e.to_string()))?;
    Ok(out.to_json() + "\n")
}

fn unreachable_failure() -> Result<weft::layout::Result<LinearLayout>, Failure> {
    Err(Failure("internal: operation without its operands".into()))
}
