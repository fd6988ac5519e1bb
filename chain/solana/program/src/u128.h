// u128.h: exact unsigned 128-bit arithmetic over two 64-bit limbs. The BPF backend has no
// __int128 multiply or divide helpers, so every operation here uses 64-bit instructions only
// (BPF has 64-bit multiply, divide and remainder). Checked operations report overflow as Rust's
// checked_* do (returning false), so the program fails where Raydium's CPMM returns None or
// panics. Tested against math/big (u128_test.go compiles this file natively with a driver).
#ifndef CPMM_U128_H
#define CPMM_U128_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  uint64_t lo, hi;
} u128;

static inline u128 u128_of(uint64_t v) {
  u128 r = {v, 0};
  return r;
}

static inline bool u128_is_zero(const u128 *a) { return (a->lo | a->hi) == 0; }

static inline bool u128_fits_u64(const u128 *a) { return a->hi == 0; }

// u128_cmp returns -1, 0 or 1.
static inline int u128_cmp(const u128 *a, const u128 *b) {
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return 0;
}

// u128_add sets r = a + b; false on overflow (r then wraps).
static inline bool u128_add(u128 *r, const u128 *a, const u128 *b) {
  uint64_t lo = a->lo + b->lo;
  uint64_t carry = lo < a->lo;
  uint64_t hi = a->hi + b->hi;
  bool ok = hi >= a->hi;
  uint64_t hi2 = hi + carry;
  ok = ok && hi2 >= hi;
  r->lo = lo;
  r->hi = hi2;
  return ok;
}

// u128_sub sets r = a - b; false on underflow (r then wraps).
static inline bool u128_sub(u128 *r, const u128 *a, const u128 *b) {
  uint64_t borrow = a->lo < b->lo;
  uint64_t lo = a->lo - b->lo;
  uint64_t hi = a->hi - b->hi - borrow;
  bool ok = a->hi > b->hi || (a->hi == b->hi && !borrow);
  r->lo = lo;
  r->hi = hi;
  return ok;
}

// u128_mul64x64 sets r = a * b (exact: the product of two u64 fits).
static inline void u128_mul64x64(u128 *r, uint64_t a, uint64_t b) {
  uint64_t a0 = a & 0xffffffff, a1 = a >> 32, b0 = b & 0xffffffff, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);
  r->lo = (p00 & 0xffffffff) | (mid << 32);
  r->hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

// u128_mul sets r = a * b; false on overflow.
static inline bool u128_mul(u128 *r, const u128 *a, const u128 *b) {
  if (a->hi != 0 && b->hi != 0) return false;
  u128 lo;
  u128_mul64x64(&lo, a->lo, b->lo);
  // cross = a.hi*b.lo + a.lo*b.hi, at most one term non-zero
  u128 cross;
  if (a->hi != 0)
    u128_mul64x64(&cross, a->hi, b->lo);
  else
    u128_mul64x64(&cross, a->lo, b->hi);
  if (cross.hi != 0) return false;
  uint64_t hi = lo.hi + cross.lo;
  if (hi < lo.hi) return false;
  r->lo = lo.lo;
  r->hi = hi;
  return true;
}

static inline unsigned u128_bits(const u128 *a) {
  unsigned n = 0;
  uint64_t v = a->hi;
  if (v) n = 64;
  else v = a->lo;
  while (v) {
    n++;
    v >>= 1;
  }
  return n;
}

static inline void u128_shl1(u128 *a) {
  a->hi = a->hi << 1 | a->lo >> 63;
  a->lo <<= 1;
}

static inline void u128_shl(u128 *r, const u128 *a, unsigned s) {
  if (s == 0) {
    *r = *a;
  } else if (s >= 128) {
    r->lo = r->hi = 0;
  } else if (s >= 64) {
    r->hi = a->lo << (s - 64);
    r->lo = 0;
  } else {
    r->hi = a->hi << s | a->lo >> (64 - s);
    r->lo = a->lo << s;
  }
}

static inline void u128_shr(u128 *r, const u128 *a, unsigned s) {
  if (s == 0) {
    *r = *a;
  } else if (s >= 128) {
    r->lo = r->hi = 0;
  } else if (s >= 64) {
    r->lo = a->hi >> (s - 64);
    r->hi = 0;
  } else {
    r->lo = a->lo >> s | a->hi << (64 - s);
    r->hi = a->hi >> s;
  }
}

// u128_divmod sets q = n / d and rem = n % d (either may be null); false when d is zero.
// Shift-and-subtract from the divisor aligned under the dividend's top bit; plain 64-bit division
// when both fit.
static bool u128_divmod(u128 *q, u128 *rem, const u128 *n, const u128 *d) {
  if (u128_is_zero(d)) return false;
  if (n->hi == 0 && d->hi == 0) {
    if (q) *q = u128_of(n->lo / d->lo);
    if (rem) *rem = u128_of(n->lo % d->lo);
    return true;
  }
  u128 quot = {0, 0}, r = *n;
  if (u128_cmp(n, d) >= 0) {
    unsigned shift = u128_bits(n) - u128_bits(d);
    u128 dd;
    u128_shl(&dd, d, shift);
    for (int i = (int)shift; i >= 0; i--) {
      u128_shl1(&quot);
      if (u128_cmp(&r, &dd) >= 0) {
        u128_sub(&r, &r, &dd);
        quot.lo |= 1;
      }
      u128_shr(&dd, &dd, 1);
    }
  }
  if (q) *q = quot;
  if (rem) *rem = r;
  return true;
}

// u128_isqrt returns floor(sqrt(n)) (it fits in 64 bits).
static uint64_t u128_isqrt(const u128 *n) {
  u128 x = *n, res = {0, 0}, bit;
  unsigned b = u128_bits(n);
  if (b == 0) return 0;
  u128 one = {1, 0};
  u128_shl(&bit, &one, (b - 1) & ~1u); // the highest power of four <= n
  while (!u128_is_zero(&bit)) {
    u128 t;
    u128_add(&t, &res, &bit);
    u128_shr(&res, &res, 1);
    if (u128_cmp(&x, &t) >= 0) {
      u128_sub(&x, &x, &t);
      u128_add(&res, &res, &bit);
    }
    u128_shr(&bit, &bit, 2);
  }
  return res.lo;
}

#endif
