//! weft's errors as Python exceptions: one `weft.LayoutError` (a `ValueError`) with a subclass per kind of
//! rule broken, each carrying weft's own message.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use weft::layout::LayoutError as Error;

create_exception!(
    weft,
    LayoutError,
    PyValueError,
    "Bad input to weft's layout algebra; the message names the rule broken."
);
create_exception!(
    weft,
    ParseError,
    LayoutError,
    "Malformed TTGIR, Gluon, bases or JSON text (the message gives line and column)."
);
create_exception!(
    weft,
    DimError,
    LayoutError,
    "An unknown or duplicate dim name, or two layouts whose dims disagree."
);
create_exception!(
    weft,
    SizeError,
    LayoutError,
    "A size that is not a power of two, too many bits, or a basis or value outside its dim."
);
create_exception!(
    weft,
    NotInvertibleError,
    LayoutError,
    "The layout has no inverse, is not surjective, or a solve has no solution."
);
create_exception!(
    weft,
    NotDivisibleError,
    LayoutError,
    "`divide_left`/`divide_right`/`quotient`: the layout does not factor that way."
);
create_exception!(
    weft,
    InvalidLayoutError,
    LayoutError,
    "A layout parameter that breaks one of Triton's rules (named in the message)."
);

/// The Python exception of a weft error.
pub fn to_py(e: Error) -> PyErr {
    let m = e.to_string();
    match e {
        Error::Parse { .. } => ParseError::new_err(m),
        Error::UnknownDim { .. }
        | Error::DuplicateDim { .. }
        | Error::DimMismatch(_)
        | Error::MismatchedHardware { .. } => DimError::new_err(m),
        Error::NotPowerOfTwo { .. }
        | Error::TooManyBits { .. }
        | Error::BasisArity { .. }
        | Error::BasisOutOfRange { .. }
        | Error::ValueOutOfRange { .. }
        | Error::SizeMismatch(_) => SizeError::new_err(m),
        Error::NotInvertible { .. } | Error::NotSurjective { .. } | Error::NotInImage { .. } => {
            NotInvertibleError::new_err(m)
        }
        Error::NotDivisible(_) | Error::NotTrivial(_) => NotDivisibleError::new_err(m),
        Error::Invalid(_) => InvalidLayoutError::new_err(m),
        _ => LayoutError::new_err(m),
    }
}

/// `?` on a weft result inside a Python method.
pub trait OrPy<T> {
    /// The value, or the Python exception of the error.
    fn py(self) -> PyResult<T>;
}

impl<T> OrPy<T> for Result<T, Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("LayoutError", py.get_type::<LayoutError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("DimError", py.get_type::<DimError>())?;
    m.add("SizeError", py.get_type::<SizeError>())?;
    m.add("NotInvertibleError", py.get_type::<NotInvertibleError>())?;
    m.add("NotDivisibleError", py.get_type::<NotDivisibleError>())?;
    m.add("InvalidLayoutError", py.get_type::<InvalidLayoutError>())?;
    Ok(())
}
