// curve.h: CPMM's curve calculator, exactly: fees in millionths (trade fee and creator fee
// rounded up, protocol and fund fees rounded down as shares of the trade fee, a creator fee taken
// on the input split from one rounded-up total), the constant-product swap in both directions
// (base output rounds the input up), and the LP token conversion (deposit rounds up, withdraw
// down). Every step is checked 128-bit arithmetic: CURVE_NONE where CPMM's calculator returns
// None (the program's ZeroTradingTokens), CURVE_PANIC where CPMM unwraps a None (the program
// aborts).
#ifndef CPMM_CURVE_H
#define CPMM_CURVE_H

#include "u128.h"

enum { CURVE_OK = 0, CURVE_NONE = 1, CURVE_PANIC = 2 };

#define CURVE_FEE_DENOMINATOR 1000000ULL

typedef struct {
  uint64_t trade_fee_rate, creator_fee_rate, protocol_fee_rate, fund_fee_rate;
  bool creator_fee_on_input;
} Rates;

typedef struct {
  u128 new_input_vault, new_output_vault, input_amount, output_amount, trade_fee, protocol_fee, fund_fee, creator_fee;
} SwapResult;

// ceil_div: amount * num + den - 1, over den; false for None.
static bool curve_ceil_div(u128 *r, const u128 *amount, uint64_t num, uint64_t den) {
  if (den == 0) return false;
  u128 n = u128_of(num), d = u128_of(den), one = u128_of(1), t;
  if (!u128_mul(&t, amount, &n) || !u128_add(&t, &t, &d) || !u128_sub(&t, &t, &one)) return false;
  return u128_divmod(r, 0, &t, &d);
}

// floor_div: amount * num over den; false for None.
static bool curve_floor_div(u128 *r, const u128 *amount, uint64_t num, uint64_t den) {
  if (den == 0) return false;
  u128 n = u128_of(num), d = u128_of(den), t;
  if (!u128_mul(&t, amount, &n)) return false;
  return u128_divmod(r, 0, &t, &d);
}

// pre_fee: the amount before a fee of rate is taken that leaves post (rounded up); false for None.
static bool curve_pre_fee(u128 *r, const u128 *post, uint64_t rate) {
  if (rate == 0) {
    *r = *post;
    return true;
  }
  if (rate > CURVE_FEE_DENOMINATOR) return false;
  return curve_ceil_div(r, post, CURVE_FEE_DENOMINATOR, CURVE_FEE_DENOMINATOR - rate);
}

// swap_base_input_without_fees: in * y / (x + in), rounded down.
static int curve_out_given_in(u128 *out, const u128 *in, const u128 *x, const u128 *y) {
  u128 num, den;
  if (!u128_mul(&num, in, y) || !u128_add(&den, x, in)) return CURVE_PANIC;
  return u128_divmod(out, 0, &num, &den) ? CURVE_OK : CURVE_PANIC;
}

// swap_base_output_without_fees: x * out / (y - out), rounded up.
static int curve_in_given_out(u128 *in, const u128 *out, const u128 *x, const u128 *y) {
  u128 num, den, rem, one = u128_of(1);
  if (!u128_mul(&num, x, out) || !u128_sub(&den, y, out)) return CURVE_PANIC;
  if (!u128_divmod(in, &rem, &num, &den)) return CURVE_PANIC;
  if (!u128_is_zero(&rem) && !u128_add(in, in, &one)) return CURVE_PANIC;
  return CURVE_OK;
}

// curve_swap_base_input is CurveCalculator::swap_base_input.
static int curve_swap_base_input(SwapResult *r, uint64_t amount_in, uint64_t in_vault, uint64_t out_vault, const Rates *rt) {
  u128 in = u128_of(amount_in), x = u128_of(in_vault), y = u128_of(out_vault), less, swapped;
  r->creator_fee = u128_of(0);
  if (rt->creator_fee_on_input) {
    u128 total;
    if (!curve_ceil_div(&total, &in, rt->trade_fee_rate + rt->creator_fee_rate, CURVE_FEE_DENOMINATOR)) return CURVE_NONE;
    if (!curve_floor_div(&r->creator_fee, &total, rt->creator_fee_rate, rt->trade_fee_rate + rt->creator_fee_rate)) return CURVE_NONE;
    u128_sub(&r->trade_fee, &total, &r->creator_fee);
    if (!u128_sub(&less, &in, &total)) return CURVE_NONE;
  } else {
    if (!curve_ceil_div(&r->trade_fee, &in, rt->trade_fee_rate, CURVE_FEE_DENOMINATOR)) return CURVE_NONE;
    if (!u128_sub(&less, &in, &r->trade_fee)) return CURVE_NONE;
  }
  if (!curve_floor_div(&r->protocol_fee, &r->trade_fee, rt->protocol_fee_rate, CURVE_FEE_DENOMINATOR)) return CURVE_NONE;
  if (!curve_floor_div(&r->fund_fee, &r->trade_fee, rt->fund_fee_rate, CURVE_FEE_DENOMINATOR)) return CURVE_NONE;
  int e = curve_out_given_in(&swapped, &less, &x, &y);
  if (e) return e;
  if (rt->creator_fee_on_input) {
    r->output_amount = swapped;
  } else {
    if (!curve_ceil_div(&r->creator_fee, &swapped, rt->creator_fee_rate, CURVE_FEE_DENOMINATOR)) return CURVE_NONE;
    if (!u128_sub(&r->output_amount, &swapped, &r->creator_fee)) return CURVE_NONE;
  }
  if (!u128_add(&r->new_input_vault, &x, &less) || !u128_sub(&r->new_output_vault, &y, &swapped)) return CURVE_NONE;
  r->input_amount = in;
  return CURVE_OK;
}

// curve_swap_base_output is CurveCalculator::swap_base_output.
static int curve_swap_base_output(SwapResult *r, uint64_t amount_out, uint64_t in_vault, uint64_t out_vault, const Rates *rt) {
  u128 out = u128_of(amount_out), x = u128_of(in_vault), y = u128_of(out_vault), actual_out, swapped, with_fee;
  r->creator_fee = u128_of(0);
  if (rt->creator_fee_on_input) {
    actual_out = out;
  } else {
    if (!curve_pre_fee(&actual_out, &out, rt->creator_fee_rate)) return CURVE_NONE;
    u128_sub(&r->creator_fee, &actual_out, &out);
  }
  int e = curve_in_given_out(&swapped, &actual_out, &x, &y);
  if (e) return e;
  if (rt->creator_fee_on_input) {
    u128 total;
    if (!curve_pre_fee(&with_fee, &swapped, rt->trade_fee_rate + rt->creator_fee_rate)) return CURVE_PANIC;
    u128_sub(&total, &with_fee, &swapped);
    if (!curve_floor_div(&r->creator_fee, &total, rt->creator_fee_rate, rt->trade_fee_rate + rt->creator_fee_rate)) return CURVE_NONE;
    u128_sub(&r->trade_fee, &total, &r->creator_fee);
  } else {
    if (!curve_pre_fee(&with_fee, &swapped, rt->trade_fee_rate)) return CURVE_PANIC;
    u128_sub(&r->trade_fee, &with_fee, &swapped);
  }
  r->input_amount = with_fee;
  if (!curve_floor_div(&r->protocol_fee, &r->trade_fee, rt->protocol_fee_rate, CURVE_FEE_DENOMINATOR)) return CURVE_NONE;
  if (!curve_floor_div(&r->fund_fee, &r->trade_fee, rt->fund_fee_rate, CURVE_FEE_DENOMINATOR)) return CURVE_NONE;
  if (!u128_add(&r->new_input_vault, &x, &swapped) || !u128_sub(&r->new_output_vault, &y, &actual_out)) return CURVE_NONE;
  r->output_amount = out;
  return CURVE_OK;
}

// LpConversion is lp_tokens_to_trading_tokens's input and output.
typedef struct {
  uint64_t lp, supply, vault_0, vault_1;
  bool ceiling;
  u128 token_0, token_1;
} LpConversion;

static bool curve_lp_side(u128 *out, uint64_t lp, uint64_t supply, uint64_t vault, bool ceiling) {
  u128 p, rem, s = u128_of(supply), one = u128_of(1);
  u128_mul64x64(&p, lp, vault);
  if (!u128_divmod(out, &rem, &p, &s)) return false;
  if (ceiling && !u128_is_zero(&rem) && !u128_is_zero(out)) u128_add(out, out, &one);
  return true;
}

// curve_lp_to_tokens is lp_tokens_to_trading_tokens; false for None (a zero supply).
static bool curve_lp_to_tokens(LpConversion *l) {
  return curve_lp_side(&l->token_0, l->lp, l->supply, l->vault_0, l->ceiling) &&
         curve_lp_side(&l->token_1, l->lp, l->supply, l->vault_1, l->ceiling);
}

#endif
