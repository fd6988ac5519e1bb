// pool.h: PoolState and ObservationState as CPMM reads and writes them: the authority check,
// vault amounts net of the fees owed, swap direction and prices, fee accounting and the oracle.
#ifndef CPMM_POOL_H
#define CPMM_POOL_H

#include "curve.h"
#include "token.h"

static inline const Pubkey *pool_key(const AccountInfo *pool, u64 off) { return (const Pubkey *)(pool->data + off); }

static bool is_pool_vault(const AccountInfo *pool, const AccountInfo *vault) {
  return key_eq(vault->key, pool_key(pool, POOL_TOKEN_0_VAULT)) || key_eq(vault->key, pool_key(pool, POOL_TOKEN_1_VAULT));
}

// find_pda is find_program_address of this program; bump may be null.
static NOINLINE void find_pda(Ctx *c, const Bytes *seeds, u64 n, Pubkey *out, u8 *bump) {
  u8 b;
  if (sol_try_find_program_address(seeds, n, c->program_id, out, &b)) PANIC("find_program_address");
  if (bump) *bump = b;
}

// need_authority checks the pool authority account: the program address of [SEED_AUTH].
static NOINLINE u64 need_authority(Ctx *c, const AccountInfo *authority, u8 *bump) {
  Bytes seed = {(const u8 *)SEED_AUTH, sizeof(SEED_AUTH) - 1};
  Pubkey want;
  find_pda(c, &seed, 1, &want, bump);
  return key_eq(authority->key, &want) ? 0 : fail_at(A_CONSTRAINT_SEEDS, "authority");
}

// pool_vault_amounts is vault_amount_without_fee: each vault less the protocol, fund and creator
// fees it holds for others.
static u64 pool_vault_amounts(const AccountInfo *pool, u64 vault_0, u64 vault_1, u64 *net_0, u64 *net_1) {
  const u8 *d = pool->data;
  u64 f0 = rd64(d + POOL_PROTOCOL_FEES_0), f1 = rd64(d + POOL_PROTOCOL_FEES_1), t;
  if (__builtin_add_overflow(f0, rd64(d + POOL_FUND_FEES_0), &t) || __builtin_add_overflow(t, rd64(d + POOL_CREATOR_FEES_0), &f0)) return fail(E_MATH_OVERFLOW);
  if (__builtin_add_overflow(f1, rd64(d + POOL_FUND_FEES_1), &t) || __builtin_add_overflow(t, rd64(d + POOL_CREATOR_FEES_1), &f1)) return fail(E_MATH_OVERFLOW);
  if (vault_0 < f0 || vault_1 < f1) return fail(E_INSUFFICIENT_VAULT);
  *net_0 = vault_0 - f0;
  *net_1 = vault_1 - f1;
  return 0;
}

// SwapParams is get_swap_params's result.
typedef struct {
  bool zero_for_one, creator_fee_on_input;
  u64 total_input, total_output;
  u128 price_0_x32, price_1_x32;
} SwapParams;

static u64 creator_fee_on_input(const AccountInfo *pool, bool zero_for_one, bool *on_input) {
  switch (pool->data[POOL_CREATOR_FEE_ON]) {
  case 0: *on_input = true; return 0;
  case 1: *on_input = zero_for_one; return 0;
  case 2: *on_input = !zero_for_one; return 0;
  default: return fail(E_INVALID_FEE_MODEL);
  }
}

static NOINLINE u64 pool_swap_params(SwapParams *p, const AccountInfo *pool, const AccountInfo *in_vault, const AccountInfo *out_vault) {
  u64 net_0, net_1;
  u64 in = tok_amount(in_vault), out = tok_amount(out_vault);
  if (key_eq(in_vault->key, pool_key(pool, POOL_TOKEN_0_VAULT)) && key_eq(out_vault->key, pool_key(pool, POOL_TOKEN_1_VAULT))) {
    p->zero_for_one = true;
    TRY(pool_vault_amounts(pool, in, out, &net_0, &net_1));
    p->total_input = net_0, p->total_output = net_1;
  } else if (key_eq(in_vault->key, pool_key(pool, POOL_TOKEN_1_VAULT)) && key_eq(out_vault->key, pool_key(pool, POOL_TOKEN_0_VAULT))) {
    p->zero_for_one = false;
    TRY(pool_vault_amounts(pool, out, in, &net_0, &net_1));
    p->total_input = net_1, p->total_output = net_0;
  } else {
    return fail(E_INVALID_VAULT);
  }
  // token_price_x32: each side over the other, in Q32.32
  if (net_0 == 0 || net_1 == 0) PANIC("attempt to divide by zero");
  u128 a = u128_of(net_1), b = u128_of(net_0), d0 = u128_of(net_0), d1 = u128_of(net_1);
  u128_shl(&a, &a, 32);
  u128_shl(&b, &b, 32);
  u128_divmod(&p->price_0_x32, 0, &a, &d0);
  u128_divmod(&p->price_1_x32, 0, &b, &d1);
  return creator_fee_on_input(pool, p->zero_for_one, &p->creator_fee_on_input);
}

static void add_fee(u8 *at, u64 v) {
  u64 s;
  if (__builtin_add_overflow(rd64(at), v, &s)) PANIC("fee overflow");
  wr64(at, s);
}

// pool_update_fees is PoolState::update_fees.
static NOINLINE u64 pool_update_fees(AccountInfo *pool, const SwapResult *r, const SwapParams *p) {
  u8 *d = pool->data;
  if (!d[POOL_ENABLE_CREATOR_FEE] && !u128_is_zero(&r->creator_fee)) return fail(A_REQUIRE_EQ_VIOLATED);
  bool on_input;
  TRY(creator_fee_on_input(pool, p->zero_for_one, &on_input));
  add_fee(d + (p->zero_for_one ? POOL_PROTOCOL_FEES_0 : POOL_PROTOCOL_FEES_1), r->protocol_fee.lo);
  add_fee(d + (p->zero_for_one ? POOL_FUND_FEES_0 : POOL_FUND_FEES_1), r->fund_fee.lo);
  bool side_0 = p->zero_for_one == on_input;
  add_fee(d + (side_0 ? POOL_CREATOR_FEES_0 : POOL_CREATOR_FEES_1), r->creator_fee.lo);
  return 0;
}

// observation_update is ObservationState::update: accumulate the previous prices over the time
// since the last update; a new observation every 15 seconds, in a ring of 100.
static NOINLINE u64 observation_update(AccountInfo *obs, u64 ts, const SwapParams *p) {
  u8 *d = obs->data;
  u16 idx = rd16(d + OBS_INDEX);
  u8 *last = d + OBS_OBSERVATIONS + (u64)idx * OBS_ENTRY_LEN;
  if (!d[OBS_INITIALIZED]) {
    d[OBS_INITIALIZED] = 1;
    wr64(last, ts);
    sol_memset_(last + 8, 0, 32);
    wr64(d + OBS_LAST_UPDATE, ts);
    return 0;
  }
  u16 next = idx == OBS_NUM - 1 ? 0 : idx + 1;
  u64 last_ts = rd64(last);
  if (rd64(d + OBS_LAST_UPDATE) == 0) wr64(d + OBS_LAST_UPDATE, last_ts);
  u64 since_obs = ts > last_ts ? ts - last_ts : 0;
  u64 last_update = rd64(d + OBS_LAST_UPDATE);
  u64 since_update = ts > last_update ? ts - last_update : 0;
  if (since_update == 0 || since_obs == 0) return 0;
  u128 dt = u128_of(since_update), d0, d1, c0, c1;
  if (!u128_mul(&d0, &p->price_0_x32, &dt) || !u128_mul(&d1, &p->price_1_x32, &dt)) return fail(E_MATH_OVERFLOW);
  c0.lo = rd64(last + 8), c0.hi = rd64(last + 16);
  c1.lo = rd64(last + 24), c1.hi = rd64(last + 32);
  u128_add(&c0, &c0, &d0); // wrapping
  u128_add(&c1, &c1, &d1);
  u8 *to = last;
  if (since_obs >= OBS_UPDATE_DURATION) {
    to = d + OBS_OBSERVATIONS + (u64)next * OBS_ENTRY_LEN;
    wr64(to, ts);
    wr16(d + OBS_INDEX, next);
  }
  wr64(to + 8, c0.lo), wr64(to + 16, c0.hi);
  wr64(to + 24, c1.lo), wr64(to + 32, c1.hi);
  wr64(d + OBS_LAST_UPDATE, ts);
  return 0;
}

#endif
