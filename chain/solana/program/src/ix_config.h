// ix_config.h: create_amm_config: the admin (Raydium's mainnet admin key) creates the AmmConfig
// at the program address ["amm_config", index as big-endian u16] with its fee rates.
#ifndef CPMM_IX_CONFIG_H
#define CPMM_IX_CONFIG_H

#include "pool.h"

typedef struct {
  u16 index;
  u64 trade_fee_rate, protocol_fee_rate, fund_fee_rate, create_pool_fee, creator_fee_rate;
} ConfigArgs;

static NOINLINE u64 create_amm_config(Ctx *c, const ConfigArgs *a) {
  AccountInfo *owner = account(c, 0), *cfg = account(c, 1), *system = account(c, 2);
  if (!system) return fail(A_ACCOUNT_NOT_ENOUGH_KEYS);
  TRY(need_signer(owner, "owner"));
  TRY(need_program(system, &PROGRAM_SYSTEM, "system_program"));
  TRY(need_mut(owner, "owner"));
  TRY(need_address(owner, &ADMIN, E_INVALID_OWNER, "owner"));
  // init amm_config at its program address
  u8 index_be[2] = {(u8)(a->index >> 8), (u8)a->index};
  u8 bump;
  Bytes seeds[3] = {{(const u8 *)SEED_AMM_CONFIG, sizeof(SEED_AMM_CONFIG) - 1}, {index_be, 2}, {&bump, 1}};
  Pubkey want;
  find_pda(c, seeds, 2, &want, &bump);
  if (!key_eq(cfg->key, &want)) return fail_at(A_CONSTRAINT_SEEDS, "amm_config");
  TRY(need_mut(cfg, "amm_config"));
  SignerSeeds signer = {seeds, 3};
  NewAccount na = {c->program_id, owner, cfg, &signer, AMM_CONFIG_LEN};
  TRY(create_or_allocate(c, &na));
  // the handler's asserts
  if (a->trade_fee_rate + a->creator_fee_rate >= FEE_RATE_DENOMINATOR || a->protocol_fee_rate > FEE_RATE_DENOMINATOR ||
      a->fund_fee_rate > FEE_RATE_DENOMINATOR || a->fund_fee_rate + a->protocol_fee_rate > FEE_RATE_DENOMINATOR)
    PANIC("assertion failed: fee rates");
  u8 *d = cfg->data;
  sol_memset_(d, 0, AMM_CONFIG_LEN);
  sol_memcpy_(d, DISC_AMM_CONFIG, 8);
  d[CFG_BUMP] = bump;
  d[CFG_DISABLE_CREATE_POOL] = 0;
  wr16(d + CFG_INDEX, a->index);
  wr64(d + CFG_TRADE_FEE_RATE, a->trade_fee_rate);
  wr64(d + CFG_PROTOCOL_FEE_RATE, a->protocol_fee_rate);
  wr64(d + CFG_FUND_FEE_RATE, a->fund_fee_rate);
  wr64(d + CFG_CREATE_POOL_FEE, a->create_pool_fee);
  sol_memcpy_(d + CFG_PROTOCOL_OWNER, owner->key, 32);
  sol_memcpy_(d + CFG_FUND_OWNER, owner->key, 32);
  wr64(d + CFG_CREATOR_FEE_RATE, a->creator_fee_rate);
  return 0;
}

#endif
