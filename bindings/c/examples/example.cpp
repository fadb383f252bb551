// weft from C++: RAII handles and exceptions over the C ABI. A dot operand of a Hopper MMA layout, the
// conversion from the accumulator to it, a product and a pseudo-inverse, and a CuTe round trip. Prints
// `key=value` lines (tests/examples.rs compares them with the Rust API) and exits non-zero on any failure.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "weft.h"

namespace {

void check(WeftStatus s, const char* what) {
  if (s != WEFT_STATUS_OK) {
    throw std::runtime_error(std::string(what) + ": " + weft_last_error());
  }
}

struct LayoutFree {
  void operator()(WeftLayout* l) const { weft_layout_free(l); }
};
struct EncodingFree {
  void operator()(WeftEncoding* e) const { weft_encoding_free(e); }
};
struct PlanFree {
  void operator()(WeftPlan* p) const { weft_plan_free(p); }
};
using Layout = std::unique_ptr<WeftLayout, LayoutFree>;
using Encoding = std::unique_ptr<WeftEncoding, EncodingFree>;
using Plan = std::unique_ptr<WeftPlan, PlanFree>;

std::string take(char* s) {
  std::string out(s);
  weft_string_free(s);
  return out;
}

Encoding parse(const std::string& text) {
  WeftEncoding* e = nullptr;
  check(weft_encoding_parse(text.c_str(), &e), "parse");
  return Encoding(e);
}

Layout linear(const Encoding& e, std::vector<uint64_t> shape) {
  WeftLayout* l = nullptr;
  check(weft_encoding_to_linear_layout(e.get(), shape.data(), shape.size(), &l), "to_linear_layout");
  return Layout(l);
}

template <typename Op>
Layout make(Op op, const char* what) {
  WeftLayout* l = nullptr;
  check(op(&l), what);
  return Layout(l);
}

}  // namespace

int main() {
  try {
    // The wgmma accumulator of 4 warps and its A operand in registers (k_width 2), for 128x64 / 128x32.
    Encoding acc = parse("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                         "instrShape = [16, 64, 16]}>");
    WeftEncoding* a_raw = nullptr;
    check(weft_encoding_dot_operand(0, acc.get(), 2, &a_raw), "dot_operand");
    Encoding a_op(a_raw);
    char* text = nullptr;
    check(weft_encoding_to_string(a_op.get(), 1, &text), "to_string");
    std::printf("a_gluon=%s\n", take(text).c_str());

    Layout acc_ll = linear(acc, {128, 64});
    Layout a_ll = linear(a_op, {128, 64});
    WeftPlan* p = nullptr;
    check(weft_plan_conversion(acc_ll.get(), a_ll.get(), 16, "sm_90a", &p), "plan_conversion");
    Plan plan(p);
    check(weft_plan_to_string(plan.get(), 1, &text), "plan json");
    std::printf("plan_json=%s\n", take(text).c_str());

    // Where each accumulator register's element lives in the operand layout.
    Layout cvt = make([&](WeftLayout** out) { return weft_layout_invert_and_compose(acc_ll.get(), a_ll.get(), out); },
                      "invert_and_compose");
    check(weft_layout_to_json(cvt.get(), &text), "to_json");
    std::printf("cvt_json=%s\n", take(text).c_str());

    // A product with a 2-CTA identity, and a right inverse of the accumulator.
    Layout blocks = make([](WeftLayout** out) { return weft_layout_identity_1d(2, "block", "dim1", out); }, "identity");
    Layout prod = make([&](WeftLayout** out) { return weft_layout_product(acc_ll.get(), blocks.get(), out); }, "product");
    size_t dims = 0;
    uint64_t size = 0;
    char* name = nullptr;
    check(weft_layout_num_dims(prod.get(), 0, &dims), "num_dims");
    check(weft_layout_dim(prod.get(), 1, 1, &name, &size), "dim");
    std::printf("product=%zu in dims, %s of size %llu\n", dims, take(name).c_str(), (unsigned long long)size);
    Layout right = make([&](WeftLayout** out) { return weft_layout_pseudo_invert(acc_ll.get(), out); }, "pseudo_invert");
    Layout round = make([&](WeftLayout** out) { return weft_layout_compose(right.get(), acc_ll.get(), out); }, "compose");
    Layout rows = make([](WeftLayout** out) { return weft_layout_identity_1d(128, "dim0", "dim0", out); }, "identity");
    Layout cols = make([](WeftLayout** out) { return weft_layout_identity_1d(64, "dim1", "dim1", out); }, "identity");
    Layout id = make([&](WeftLayout** out) { return weft_layout_product(rows.get(), cols.get(), out); }, "product");
    bool same = false;
    check(weft_layout_equal(round.get(), id.get(), &same), "equal");
    if (!same) throw std::runtime_error("acc o pseudo_invert(acc) is not the identity");
    std::printf("right_inverse=identity\n");

    // Composing layouts whose dims do not meet fails with a status and this thread's message.
    WeftLayout* bad = nullptr;
    WeftStatus s = weft_layout_compose(right.get(), right.get(), &bad);
    if (s != WEFT_STATUS_LAYOUT_ERROR || bad != nullptr) throw std::runtime_error("compose should have failed");
    std::printf("error=%d:%s\n", (int)s, weft_last_error());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
