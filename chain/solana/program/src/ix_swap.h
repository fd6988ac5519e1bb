// ix_swap.h: swap_base_input and swap_base_output, with CPMM's accounts (payer, authority,
// amm_config, pool_state, input/output token accounts, input/output vaults, input/output token
// programs, input/output mints, observation_state), checks, transfer fees, fee accounting,
// SwapEvent, the invariant check and the oracle observation.
#ifndef CPMM_IX_SWAP_H
#define CPMM_IX_SWAP_H

#include "curve.h"
#include "pool.h"
#include "token.h"

// Swap is a swap's accounts, checked.
typedef struct {
  AccountInfo *payer, *authority, *amm_config, *pool, *input_account, *output_account, *input_vault, *output_vault,
      *input_program, *output_program, *input_mint, *output_mint, *observation;
} Swap;

static NOINLINE u64 swap_accounts(Ctx *c, Swap *s) {
  AccountInfo **f = (AccountInfo **)s;
  for (u64 i = 0; i < 13; i++)
    if (!(f[i] = account(c, i))) return fail(A_ACCOUNT_NOT_ENOUGH_KEYS);
  TRY(need_signer(s->payer, "payer"));
  TRY(need_state(c, s->amm_config, DISC_AMM_CONFIG, "amm_config"));
  TRY(need_state(c, s->pool, DISC_POOL_STATE, "pool_state"));
  TRY(need_token_account(s->input_account, "input_token_account"));
  TRY(need_token_account(s->output_account, "output_token_account"));
  TRY(need_token_account(s->input_vault, "input_vault"));
  TRY(need_token_account(s->output_vault, "output_vault"));
  TRY(need_token_interface(s->input_program, "input_token_program"));
  TRY(need_token_interface(s->output_program, "output_token_program"));
  TRY(need_mint(s->input_mint, "input_token_mint"));
  TRY(need_mint(s->output_mint, "output_token_mint"));
  TRY(need_state(c, s->observation, DISC_OBSERVATION, "observation_state"));
  // constraints, in field order
  TRY(need_authority(c, s->authority, 0));
  TRY(need_address(s->amm_config, pool_key(s->pool, POOL_AMM_CONFIG), A_CONSTRAINT_ADDRESS, "amm_config"));
  TRY(need_mut(s->pool, "pool_state"));
  TRY(need_mut(s->input_account, "input_token_account"));
  TRY(need_mut(s->output_account, "output_token_account"));
  TRY(need_mut(s->input_vault, "input_vault"));
  if (!is_pool_vault(s->pool, s->input_vault)) return fail_at(A_CONSTRAINT_RAW, "input_vault");
  TRY(need_mut(s->output_vault, "output_vault"));
  if (!is_pool_vault(s->pool, s->output_vault)) return fail_at(A_CONSTRAINT_RAW, "output_vault");
  TRY(need_address(s->input_mint, tok_mint(s->input_vault), A_CONSTRAINT_ADDRESS, "input_token_mint"));
  TRY(need_address(s->output_mint, tok_mint(s->output_vault), A_CONSTRAINT_ADDRESS, "output_token_mint"));
  TRY(need_mut(s->observation, "observation_state"));
  return need_address(s->observation, pool_key(s->pool, POOL_OBSERVATION_KEY), A_CONSTRAINT_ADDRESS, "observation_state");
}

// SwapCalc is what both swaps compute before moving tokens.
typedef struct {
  SwapParams p;
  SwapResult r;
  u64 input_transfer_amount, input_transfer_fee, output_transfer_amount, output_transfer_fee;
  bool base_input;
} SwapCalc;

static NOINLINE void emit_swap(const Swap *s, const SwapCalc *k) {
  u8 ev[170];
  u8 *p = ev;
  sol_memcpy_(p, EVENT_SWAP, 8), p += 8;
  sol_memcpy_(p, s->pool->key, 32), p += 32;
  wr64(p, k->p.total_input), p += 8;
  wr64(p, k->p.total_output), p += 8;
  wr64(p, k->r.input_amount.lo), p += 8;
  wr64(p, k->r.output_amount.lo), p += 8;
  wr64(p, k->input_transfer_fee), p += 8;
  wr64(p, k->output_transfer_fee), p += 8;
  *p++ = k->base_input;
  sol_memcpy_(p, s->input_mint->key, 32), p += 32;
  sol_memcpy_(p, s->output_mint->key, 32), p += 32;
  wr64(p, k->r.trade_fee.lo), p += 8;
  wr64(p, k->r.creator_fee.lo), p += 8;
  *p++ = k->p.creator_fee_on_input;
  Bytes b = {ev, (u64)(p - ev)};
  sol_log_data(&b, 1);
}

// swap_finish is what both swaps do once the amounts are known: fees into the pool state, the
// event, the invariant, the two transfers, the observation and the epoch.
static NOINLINE u64 swap_finish(Ctx *c, Swap *s, SwapCalc *k) {
  u128 before, after;
  u128 ti = u128_of(k->p.total_input), to = u128_of(k->p.total_output);
  u128_mul(&before, &ti, &to);
  if (!u128_mul(&after, &k->r.new_input_vault, &k->r.new_output_vault)) PANIC("constant_after overflow");
  if (!u128_fits_u64(&k->r.protocol_fee) || !u128_fits_u64(&k->r.fund_fee) || !u128_fits_u64(&k->r.creator_fee)) PANIC("fee overflow");
  TRY(pool_update_fees(s->pool, &k->r, &k->p));
  emit_swap(s, k);
  if (u128_cmp(&after, &before) < 0) return fail(A_REQUIRE_GTE_VIOLATED);
  TokenOp in = {s->input_program, s->input_account, s->input_mint, s->input_vault, s->payer, k->input_transfer_amount, 0};
  TRY(token_transfer_checked(c, &in));
  AuthSigner auth;
  auth_signer(&auth, s->pool->data[POOL_AUTH_BUMP]);
  TokenOp out = {s->output_program, s->output_vault, s->output_mint, s->output_account, s->authority, k->output_transfer_amount, &auth.signer};
  TRY(token_transfer_checked(c, &out));
  TRY(observation_update(s->observation, (u64)c->clock.unix_timestamp, &k->p));
  wr64(s->pool->data + POOL_RECENT_EPOCH, c->clock.epoch);
  return 0;
}

static u64 swap_open(Ctx *c, const Swap *s) {
  u8 status = s->pool->data[POOL_STATUS];
  if ((status & STATUS_SWAP) || (u64)c->clock.unix_timestamp < rd64(s->pool->data + POOL_OPEN_TIME)) return fail(E_NOT_APPROVED);
  return 0;
}

// swap_rates reads the config's rates; the creator fee only where the pool enables it.
static void swap_rates(Rates *rt, const Swap *s, const SwapParams *p) {
  const u8 *cfg = s->amm_config->data;
  rt->trade_fee_rate = rd64(cfg + CFG_TRADE_FEE_RATE);
  rt->creator_fee_rate = s->pool->data[POOL_ENABLE_CREATOR_FEE] ? rd64(cfg + CFG_CREATOR_FEE_RATE) : 0;
  rt->protocol_fee_rate = rd64(cfg + CFG_PROTOCOL_FEE_RATE);
  rt->fund_fee_rate = rd64(cfg + CFG_FUND_FEE_RATE);
  rt->creator_fee_on_input = p->creator_fee_on_input;
}

static NOINLINE u64 swap_base_input(Ctx *c, u64 amount_in, u64 minimum_amount_out) {
  Swap s;
  TRY(swap_accounts(c, &s));
  TRY(swap_open(c, &s));
  SwapCalc *k = alloc(c, sizeof(SwapCalc));
  k->base_input = true;
  u64 fee = transfer_fee(c, s.input_mint, amount_in);
  u64 actual_in = amount_in > fee ? amount_in - fee : 0;
  if (actual_in == 0) return fail(A_REQUIRE_GT_VIOLATED);
  TRY(pool_swap_params(&k->p, s.pool, s.input_vault, s.output_vault));
  Rates rt;
  swap_rates(&rt, &s, &k->p);
  int e = curve_swap_base_input(&k->r, actual_in, k->p.total_input, k->p.total_output, &rt);
  if (e == CURVE_PANIC) PANIC("swap_base_input");
  if (e) return fail(E_ZERO_TRADING_TOKENS);
  if (!u128_fits_u64(&k->r.output_amount)) PANIC("output_amount overflow");
  u64 amount_out = k->r.output_amount.lo;
  u64 out_fee = transfer_fee(c, s.output_mint, amount_out);
  u64 received = amount_out - out_fee;
  if (received == 0) return fail(A_REQUIRE_GT_VIOLATED);
  if (received < minimum_amount_out) return fail(E_EXCEEDED_SLIPPAGE);
  k->input_transfer_amount = amount_in;
  k->input_transfer_fee = fee;
  k->output_transfer_amount = amount_out;
  k->output_transfer_fee = out_fee;
  return swap_finish(c, &s, k);
}

static NOINLINE u64 swap_base_output(Ctx *c, u64 max_amount_in, u64 amount_out_received) {
  if (amount_out_received == 0) return fail(A_REQUIRE_GT_VIOLATED);
  Swap s;
  TRY(swap_accounts(c, &s));
  TRY(swap_open(c, &s));
  SwapCalc *k = alloc(c, sizeof(SwapCalc));
  k->base_input = false;
  u64 out_fee;
  TRY(transfer_inverse_fee(c, s.output_mint, amount_out_received, &out_fee));
  u64 amount_out = amount_out_received + out_fee;
  if (amount_out < out_fee) PANIC("checked_add");
  TRY(pool_swap_params(&k->p, s.pool, s.input_vault, s.output_vault));
  Rates rt;
  swap_rates(&rt, &s, &k->p);
  int e = curve_swap_base_output(&k->r, amount_out, k->p.total_input, k->p.total_output, &rt);
  if (e == CURVE_PANIC) PANIC("swap_base_output");
  if (e) return fail(E_ZERO_TRADING_TOKENS);
  if (!u128_fits_u64(&k->r.input_amount)) PANIC("input_amount overflow");
  u64 input_amount = k->r.input_amount.lo;
  if (input_amount == 0) return fail(A_REQUIRE_GT_VIOLATED);
  u64 in_fee;
  TRY(transfer_inverse_fee(c, s.input_mint, input_amount, &in_fee));
  u64 transfer_in = input_amount + in_fee;
  if (transfer_in < in_fee) PANIC("checked_add");
  if (max_amount_in < transfer_in) return fail(E_EXCEEDED_SLIPPAGE);
  k->input_transfer_amount = transfer_in;
  k->input_transfer_fee = in_fee;
  k->output_transfer_amount = amount_out;
  k->output_transfer_fee = out_fee;
  return swap_finish(c, &s, k);
}

#endif
