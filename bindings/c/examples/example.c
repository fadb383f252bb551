/* weft from C: a layout from its bases, its inverse, Triton encodings from TTGIR text and constructors, a
 * conversion plan, bank conflicts, CuTe interop and an error. Prints `key=value` lines (tests/examples.rs
 * compares them with the Rust API) and exits non-zero on any failure. */
#include <stdio.h>
#include <string.h>

#include "weft.h"

#define CHECK(call)                                                                   \
  do {                                                                                \
    WeftStatus s_ = (call);                                                           \
    if (s_ != WEFT_STATUS_OK) {                                                       \
      fprintf(stderr, "%s failed (%d): %s\n", #call, (int)s_, weft_last_error());     \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

#define EXPECT(cond)                                              \
  do {                                                            \
    if (!(cond)) {                                                \
      fprintf(stderr, "line %d: expected %s\n", __LINE__, #cond); \
      return 1;                                                   \
    }                                                             \
  } while (0)

int main(void) {
  /* The 16x16 accumulator of one mma.m16n8k16 pair: register and lane bases, (row, col) each. */
  const uint64_t reg[] = {0, 1, 8, 0, 0, 8};
  const uint64_t lane[] = {0, 2, 0, 4, 1, 0, 2, 0, 4, 0};
  const WeftInDim ins[] = {{"register", reg, 3}, {"lane", lane, 5}};
  const WeftOutDim outs[] = {{"dim0", 16}, {"dim1", 16}};
  WeftLayout *mma = NULL;
  CHECK(weft_layout_from_bases(ins, 2, outs, 2, true, &mma));

  /* Register 3 of lane 5 holds (9, 3); the inverse says who holds (9, 3). */
  const char *hw[] = {"register", "lane"};
  const uint64_t at[] = {3, 5};
  uint64_t coords[4];
  size_t n = 0;
  CHECK(weft_layout_apply(mma, hw, at, 2, coords, 4, &n));
  EXPECT(n == 2 && coords[0] == 9 && coords[1] == 3);
  WeftLayout *inv = NULL;
  CHECK(weft_layout_invert(mma, &inv));
  const char *tensor[] = {"dim0", "dim1"};
  const uint64_t elem[] = {9, 3};
  CHECK(weft_layout_apply(inv, tensor, elem, 2, coords, 4, &n));
  EXPECT(n == 2 && coords[0] == 3 && coords[1] == 5);
  printf("who_holds_9_3=%llu,%llu\n", (unsigned long long)coords[0], (unsigned long long)coords[1]);

  /* Encodings: a blocked layout from TTGIR text, an MMA v2 layout from its constructor, both for 64x64. */
  WeftEncoding *blocked = NULL, *mma_enc = NULL;
  CHECK(weft_encoding_parse("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                            "warpsPerCTA = [4, 1], order = [1, 0]}>",
                            &blocked));
  const uint32_t warps[] = {4, 1}, instr[] = {16, 8};
  CHECK(weft_encoding_nvidia_mma(2, 0, warps, 2, instr, 2, &mma_enc));
  const uint64_t shape[] = {64, 64};
  WeftLayout *src = NULL, *dst = NULL;
  CHECK(weft_encoding_to_linear_layout(mma_enc, shape, 2, &src));
  CHECK(weft_encoding_to_linear_layout(blocked, shape, 2, &dst));
  char *text = NULL;
  CHECK(weft_encoding_to_string(mma_enc, 0, &text));
  printf("mma_ttgir=%s\n", text);
  weft_string_free(text);

  /* The conversion MMA -> blocked for f16 on sm_90. */
  WeftPlan *plan = NULL;
  CHECK(weft_plan_conversion(src, dst, 16, "sm_90", &plan));
  WeftConversionKind kind;
  uint64_t scratch = 0, shuffles = 0, reads = 0, writes = 0;
  CHECK(weft_plan_summary(plan, &kind, &scratch, &shuffles, &reads, &writes));
  printf("plan=%d,%llu,%llu,%llu,%llu\n", (int)kind, (unsigned long long)scratch,
         (unsigned long long)shuffles, (unsigned long long)reads, (unsigned long long)writes);

  /* Bank conflicts of storing the blocked layout to an unswizzled shared buffer. */
  WeftEncoding *smem = NULL;
  const uint32_t order[] = {1, 0};
  CHECK(weft_encoding_swizzled_shared(1, 1, 1, order, 2, &smem));
  WeftLayout *shared = NULL;
  CHECK(weft_encoding_to_linear_layout(smem, shape, 2, &shared));
  uint64_t conflicts = 0;
  CHECK(weft_bank_conflicts(dst, shared, 16, &conflicts));
  printf("bank_conflicts=%llu\n", (unsigned long long)conflicts);

  /* CuTe: the 128-byte swizzled f16 tile, and back. */
  WeftLayout *cute = NULL;
  CHECK(weft_layout_from_cute("Sw<3,3,3> o (8,64):(64,1)", &cute));
  const char *rc[] = {"dim0", "dim1"};
  const uint64_t row1col8[] = {1, 8};
  CHECK(weft_layout_apply(cute, rc, row1col8, 2, coords, 4, &n));
  EXPECT(n == 1 && coords[0] == 64);
  CHECK(weft_layout_to_cute(cute, &text));
  EXPECT(strcmp(text, "Sw<3,3,3> o (8,64):(64,1)") == 0);
  weft_string_free(text);
  CHECK(weft_layout_to_cute(dst, &text));
  printf("blocked_cute=%s\n", text);
  weft_string_free(text);

  /* JSON round trip. */
  CHECK(weft_layout_to_json(mma, &text));
  WeftLayout *again = NULL;
  CHECK(weft_layout_from_json(text, &again));
  bool same = false;
  CHECK(weft_layout_equal(mma, again, &same));
  EXPECT(same);
  printf("mma_json=%s\n", text);
  weft_string_free(text);

  /* Errors are a status and this thread's message. */
  WeftEncoding *bad = NULL;
  WeftStatus s = weft_encoding_parse("#ttg.blocked<{sizePerThread = [1, 4]}>", &bad);
  EXPECT(s != WEFT_STATUS_OK && bad == NULL && strlen(weft_last_error()) > 0);
  printf("error=%d:%s\n", (int)s, weft_last_error());

  weft_layout_free(again);
  weft_layout_free(cute);
  weft_layout_free(shared);
  weft_encoding_free(smem);
  weft_plan_free(plan);
  weft_layout_free(src);
  weft_layout_free(dst);
  weft_encoding_free(mma_enc);
  weft_encoding_free(blocked);
  weft_layout_free(inv);
  weft_layout_free(mma);
  return 0;
}
