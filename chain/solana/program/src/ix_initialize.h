// ix_initialize.h: initialize: a pool of two mints (token_0_mint's key below token_1_mint's) under
// an AmmConfig, with CPMM's 20 accounts in CPMM's order: the LP mint (9 decimals, the pool
// authority minting) at ["pool_lp_mint", pool], the creator's LP associated token account, the
// vaults at ["pool_vault", pool, mint], the pool state at ["pool", amm_config, mint_0, mint_1]
// (or a fresh keypair that signs), the observation at ["observation", pool]. The initial
// liquidity is isqrt(vault_0 * vault_1) (after any transfer fee), of which 100 stay locked.
#ifndef CPMM_IX_INITIALIZE_H
#define CPMM_IX_INITIALIZE_H

#include "pool.h"

typedef struct {
  AccountInfo *creator, *amm_config, *authority, *pool, *mint_0, *mint_1, *lp_mint, *creator_0, *creator_1, *creator_lp,
      *vault_0, *vault_1, *create_pool_fee, *observation, *token_program, *token_0_program, *token_1_program, *ata_program,
      *system_program, *rent;
  u8 auth_bump, lp_bump, vault_0_bump, vault_1_bump, observation_bump;
  u64 init_amount_0, init_amount_1, open_time;
} Init;

// pda_of_pool: [seed, pool] or [seed, pool, mint], with its bump.
typedef struct {
  Bytes seeds[4];
  SignerSeeds signer;
  u8 bump;
  Pubkey addr;
} PoolSeeds;

static NOINLINE void pool_seeds(Ctx *c, PoolSeeds *s, const char *seed, const AccountInfo *pool, const AccountInfo *mint) {
  u64 n = 0;
  while (seed[n]) n++;
  s->seeds[0].addr = (const u8 *)seed;
  s->seeds[0].len = n;
  s->seeds[1].addr = pool->key->x;
  s->seeds[1].len = 32;
  u64 k = 2;
  if (mint) {
    s->seeds[2].addr = mint->key->x;
    s->seeds[2].len = 32;
    k = 3;
  }
  find_pda(c, s->seeds, k, &s->addr, &s->bump);
  s->seeds[k].addr = &s->bump;
  s->seeds[k].len = 1;
  s->signer.addr = s->seeds;
  s->signer.len = k + 1;
}

static NOINLINE u64 init_check(Ctx *c, Init *in) {
  AccountInfo **f = (AccountInfo **)in;
  for (u64 i = 0; i < 20; i++)
    if (!(f[i] = account(c, i))) return fail(A_ACCOUNT_NOT_ENOUGH_KEYS);
  TRY(need_signer(in->creator, "creator"));
  TRY(need_state(c, in->amm_config, DISC_AMM_CONFIG, "amm_config"));
  TRY(need_mint(in->mint_0, "token_0_mint"));
  TRY(need_mint(in->mint_1, "token_1_mint"));
  TRY(need_token_account(in->creator_0, "creator_token_0"));
  TRY(need_token_account(in->creator_1, "creator_token_1"));
  TRY(need_token_account(in->create_pool_fee, "create_pool_fee"));
  TRY(need_program(in->token_program, &PROGRAM_TOKEN, "token_program"));
  TRY(need_token_interface(in->token_0_program, "token_0_program"));
  TRY(need_token_interface(in->token_1_program, "token_1_program"));
  TRY(need_program(in->ata_program, &PROGRAM_ATA, "associated_token_program"));
  TRY(need_program(in->system_program, &PROGRAM_SYSTEM, "system_program"));
  TRY(need_address(in->rent, &SYSVAR_RENT, A_ACCOUNT_SYSVAR_MISMATCH, "rent"));
  TRY(need_mut(in->creator, "creator"));
  TRY(need_authority(c, in->authority, &in->auth_bump));
  TRY(need_mut(in->pool, "pool_state"));
  if (!key_lt(in->mint_0->key, in->mint_1->key)) return fail_at(A_CONSTRAINT_RAW, "token_0_mint");
  if (!key_eq(in->mint_0->owner, in->token_0_program->key)) return fail_at(A_CONSTRAINT_MINT_TOKEN_PROGRAM, "token_0_mint");
  if (!key_eq(in->mint_1->owner, in->token_1_program->key)) return fail_at(A_CONSTRAINT_MINT_TOKEN_PROGRAM, "token_1_mint");
  TRY(need_mut(in->creator_0, "creator_token_0"));
  if (!key_eq(tok_mint(in->creator_0), in->mint_0->key)) return fail_at(A_CONSTRAINT_TOKEN_MINT, "creator_token_0");
  if (!key_eq(tok_owner(in->creator_0), in->creator->key)) return fail_at(A_CONSTRAINT_TOKEN_OWNER, "creator_token_0");
  TRY(need_mut(in->creator_1, "creator_token_1"));
  if (!key_eq(tok_mint(in->creator_1), in->mint_1->key)) return fail_at(A_CONSTRAINT_TOKEN_MINT, "creator_token_1");
  if (!key_eq(tok_owner(in->creator_1), in->creator->key)) return fail_at(A_CONSTRAINT_TOKEN_OWNER, "creator_token_1");
  TRY(need_mut(in->create_pool_fee, "create_pool_fee"));
  return need_address(in->create_pool_fee, &CREATE_POOL_FEE_RECEIVER, A_CONSTRAINT_ADDRESS, "create_pool_fee");
}

// init_lp_mint creates the LP mint (Anchor's init: the account, then InitializeMint2).
static NOINLINE u64 init_lp_mint(Ctx *c, Init *in) {
  PoolSeeds s;
  pool_seeds(c, &s, SEED_LP_MINT, in->pool, 0);
  if (!key_eq(in->lp_mint->key, &s.addr)) return fail_at(A_CONSTRAINT_SEEDS, "lp_mint");
  TRY(need_mut(in->lp_mint, "lp_mint"));
  NewAccount na = {in->token_program->key, in->creator, in->lp_mint, &s.signer, MINT_LEN};
  TRY(create_or_allocate(c, &na));
  Cpi x = {in->token_program->key};
  cpi_meta(&x, in->lp_mint->key, true, false);
  x.data[0] = 20;
  x.data[1] = LP_MINT_DECIMALS;
  sol_memcpy_(x.data + 2, in->authority->key, 32);
  x.data[34] = 0; // no freeze authority
  x.len = 35;
  return cpi_run(c, &x);
}

// init_creator_lp creates the creator's LP associated token account.
static NOINLINE u64 init_creator_lp(Ctx *c, Init *in) {
  TRY(need_mut(in->creator_lp, "creator_lp_token"));
  Cpi x = {&PROGRAM_ATA};
  cpi_meta(&x, in->creator->key, true, true);
  cpi_meta(&x, in->creator_lp->key, true, false);
  cpi_meta(&x, in->creator->key, false, false);
  cpi_meta(&x, in->lp_mint->key, false, false);
  cpi_meta(&x, &PROGRAM_SYSTEM, false, false);
  cpi_meta(&x, in->token_program->key, false, false);
  x.data[0] = 0; // Create
  x.len = 1;
  return cpi_run(c, &x);
}

static NOINLINE u64 init_vault_seeds(Ctx *c, Init *in) {
  PoolSeeds s;
  pool_seeds(c, &s, SEED_VAULT, in->pool, in->mint_0);
  if (!key_eq(in->vault_0->key, &s.addr)) return fail_at(A_CONSTRAINT_SEEDS, "token_0_vault");
  TRY(need_mut(in->vault_0, "token_0_vault"));
  in->vault_0_bump = s.bump;
  pool_seeds(c, &s, SEED_VAULT, in->pool, in->mint_1);
  if (!key_eq(in->vault_1->key, &s.addr)) return fail_at(A_CONSTRAINT_SEEDS, "token_1_vault");
  TRY(need_mut(in->vault_1, "token_1_vault"));
  in->vault_1_bump = s.bump;
  return 0;
}

// init_observation creates the observation account (Anchor's init) and writes its discriminator.
static NOINLINE u64 init_observation(Ctx *c, Init *in) {
  PoolSeeds s;
  pool_seeds(c, &s, SEED_OBSERVATION, in->pool, 0);
  if (!key_eq(in->observation->key, &s.addr)) return fail_at(A_CONSTRAINT_SEEDS, "observation_state");
  TRY(need_mut(in->observation, "observation_state"));
  NewAccount na = {c->program_id, in->creator, in->observation, &s.signer, OBSERVATION_LEN};
  TRY(create_or_allocate(c, &na));
  sol_memcpy_(in->observation->data, DISC_OBSERVATION, 8);
  return 0;
}

static NOINLINE u64 init_vault(Ctx *c, Init *in, bool second) {
  PoolSeeds s;
  pool_seeds(c, &s, SEED_VAULT, in->pool, second ? in->mint_1 : in->mint_0);
  TokenOp t = {second ? in->token_1_program : in->token_0_program, 0, second ? in->mint_1 : in->mint_0,
               second ? in->vault_1 : in->vault_0, in->authority, 0, &s.signer};
  return create_token_account(c, &t, in->creator);
}

// init_pool is CPMM's create_pool: the pool state at its program address, or at a keypair that signs.
static NOINLINE u64 init_pool(Ctx *c, Init *in) {
  if (!key_eq(in->pool->owner, &PROGRAM_SYSTEM)) return fail(E_NOT_APPROVED);
  Bytes seeds[5] = {{(const u8 *)SEED_POOL, sizeof(SEED_POOL) - 1}, {in->amm_config->key->x, 32}, {in->mint_0->key->x, 32}, {in->mint_1->key->x, 32}};
  u8 bump;
  Pubkey pda;
  find_pda(c, seeds, 4, &pda, &bump);
  seeds[4].addr = &bump;
  seeds[4].len = 1;
  if (!key_eq(in->pool->key, &pda) && !in->pool->is_signer) return fail(A_REQUIRE_EQ_VIOLATED);
  SignerSeeds signer = {seeds, 5};
  NewAccount na = {c->program_id, in->creator, in->pool, &signer, POOL_STATE_LEN};
  TRY(create_or_allocate(c, &na));
  if (rd64(in->pool->data) != 0) PANIC("discriminator already set");
  sol_memcpy_(in->pool->data, DISC_POOL_STATE, 8);
  return 0;
}

// is_supported_mint: SPL Token, a whitelisted mint, or Token-2022 with only the extensions CPMM accepts.
static bool is_supported_mint(const AccountInfo *mint) {
  if (key_eq(mint->owner, &PROGRAM_TOKEN)) return true;
  for (int i = 0; i < 4; i++)
    if (key_eq(mint->key, &MINT_WHITELIST[i])) return true;
  if (mint->data_len <= TOKEN_ACCOUNT_LEN) return true;
  u64 at = TOKEN_ACCOUNT_LEN + 1;
  while (at + 4 <= mint->data_len) {
    u16 t = rd16(mint->data + at), l = rd16(mint->data + at + 2);
    if (t == 0) break;
    if (t != EXT_TRANSFER_FEE_CONFIG && t != EXT_METADATA_POINTER && t != EXT_TOKEN_METADATA && t != EXT_INTEREST_BEARING &&
        t != EXT_SCALED_UI_AMOUNT)
      return false;
    at += 4 + (u64)l;
  }
  return true;
}

static NOINLINE void log_liquidity(u64 liquidity, u64 v0, u64 v1) {
  char buf[128];
  char *p = fmt_str(buf, "liquidity:");
  p = fmt_u64(p, liquidity);
  p = fmt_str(p, ", lock_lp_amount:");
  p = fmt_u64(p, LOCK_LP_AMOUNT);
  p = fmt_str(p, ", vault_0_amount:");
  p = fmt_u64(p, v0);
  p = fmt_str(p, ",vault_1_amount:");
  p = fmt_u64(p, v1);
  sol_log_(buf, (u64)(p - buf));
}

// init_pool_fee charges the config's pool creation fee in lamports into the fee receiver's wrapped
// SOL account, then syncs it.
static NOINLINE u64 init_pool_fee(Ctx *c, Init *in) {
  u64 fee = rd64(in->amm_config->data + CFG_CREATE_POOL_FEE);
  if (fee == 0) return 0;
  Cpi x = {0};
  system_ix(&x, 2);
  cpi_meta(&x, in->creator->key, true, true);
  cpi_meta(&x, in->create_pool_fee->key, true, false);
  wr64(x.data + 4, fee);
  x.len = 12;
  TRY(cpi_run(c, &x));
  Cpi y = {in->token_program->key};
  cpi_meta(&y, in->create_pool_fee->key, true, false);
  y.data[0] = 17; // SyncNative
  y.len = 1;
  return cpi_run(c, &y);
}

// init_fund moves the initial amounts in, mints the LP tokens and charges the creation fee.
static NOINLINE u64 init_fund(Ctx *c, Init *in, u64 *liquidity) {
  TokenOp t0 = {in->token_0_program, in->creator_0, in->mint_0, in->vault_0, in->creator, in->init_amount_0, 0};
  TRY(token_transfer_checked(c, &t0));
  TokenOp t1 = {in->token_1_program, in->creator_1, in->mint_1, in->vault_1, in->creator, in->init_amount_1, 0};
  TRY(token_transfer_checked(c, &t1));
  u64 v0 = tok_amount(in->vault_0), v1 = tok_amount(in->vault_1);
  if (v0 == 0 || v1 == 0) return fail(E_EMPTY_SUPPLY);
  u128 k;
  u128_mul64x64(&k, v0, v1);
  *liquidity = u128_isqrt(&k);
  log_liquidity(*liquidity, v0, v1);
  if (*liquidity < LOCK_LP_AMOUNT) return fail(E_INIT_LP_AMOUNT_TOO_LESS);
  AuthSigner auth;
  auth_signer(&auth, in->auth_bump);
  TokenOp m = {in->token_program, 0, in->lp_mint, in->creator_lp, in->authority, *liquidity - LOCK_LP_AMOUNT, &auth.signer};
  TRY(token_mint_to(c, &m));
  return init_pool_fee(c, in);
}

// init_write is PoolState::initialize.
static NOINLINE void init_write(Ctx *c, Init *in, u64 liquidity) {
  u8 *d = in->pool->data;
  sol_memcpy_(d + POOL_AMM_CONFIG, in->amm_config->key, 32);
  sol_memcpy_(d + POOL_CREATOR, in->creator->key, 32);
  sol_memcpy_(d + POOL_TOKEN_0_VAULT, in->vault_0->key, 32);
  sol_memcpy_(d + POOL_TOKEN_1_VAULT, in->vault_1->key, 32);
  sol_memcpy_(d + POOL_LP_MINT, in->lp_mint->key, 32);
  sol_memcpy_(d + POOL_TOKEN_0_MINT, in->mint_0->key, 32);
  sol_memcpy_(d + POOL_TOKEN_1_MINT, in->mint_1->key, 32);
  sol_memcpy_(d + POOL_TOKEN_0_PROGRAM, in->mint_0->owner, 32);
  sol_memcpy_(d + POOL_TOKEN_1_PROGRAM, in->mint_1->owner, 32);
  sol_memcpy_(d + POOL_OBSERVATION_KEY, in->observation->key, 32);
  d[POOL_AUTH_BUMP] = in->auth_bump;
  d[POOL_LP_MINT_DECIMALS] = mint_decimals(in->lp_mint);
  d[POOL_MINT_0_DECIMALS] = mint_decimals(in->mint_0);
  d[POOL_MINT_1_DECIMALS] = mint_decimals(in->mint_1);
  wr64(d + POOL_LP_SUPPLY, liquidity);
  wr64(d + POOL_OPEN_TIME, in->open_time);
  wr64(d + POOL_RECENT_EPOCH, c->clock.epoch);
  d[POOL_CREATOR_FEE_ON] = 0; // BothToken
  d[POOL_ENABLE_CREATOR_FEE] = 0;
}

static NOINLINE u64 initialize(Ctx *c, u64 init_amount_0, u64 init_amount_1, u64 open_time) {
  Init *in = alloc(c, sizeof(Init));
  in->init_amount_0 = init_amount_0;
  in->init_amount_1 = init_amount_1;
  TRY(init_check(c, in));
  TRY(init_lp_mint(c, in));
  TRY(init_creator_lp(c, in));
  TRY(init_vault_seeds(c, in));
  TRY(init_observation(c, in));
  if (!is_supported_mint(in->mint_0) || !is_supported_mint(in->mint_1)) return fail(E_NOT_SUPPORT_MINT);
  if (in->amm_config->data[CFG_DISABLE_CREATE_POOL]) return fail(E_NOT_APPROVED);
  u64 now = (u64)c->clock.unix_timestamp;
  in->open_time = open_time <= now ? now + 1 : open_time;
  TRY(init_vault(c, in, false));
  TRY(init_vault(c, in, true));
  TRY(init_pool(c, in));
  sol_memcpy_(in->observation->data + OBS_POOL_ID, in->pool->key, 32);
  u64 liquidity;
  TRY(init_fund(c, in, &liquidity));
  init_write(c, in, liquidity);
  return 0;
}

#endif
