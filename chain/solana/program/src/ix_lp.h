// ix_lp.h: deposit and withdraw, with CPMM's accounts (owner, authority, pool_state,
// owner_lp_token, token_0_account, token_1_account, token_0_vault, token_1_vault, token_program,
// token_program_2022, vault_0_mint, vault_1_mint, lp_mint; withdraw adds memo_program), the LP
// conversion (deposit rounds up, withdraw down), transfer fees and LpChangeEvent.
#ifndef CPMM_IX_LP_H
#define CPMM_IX_LP_H

#include "pool.h"

typedef struct {
  AccountInfo *owner, *authority, *pool, *owner_lp, *account_0, *account_1, *vault_0, *vault_1, *token_program,
      *token_program_2022, *mint_0, *mint_1, *lp_mint, *memo;
} Lp;

static NOINLINE u64 lp_accounts(Ctx *c, Lp *l, bool withdraw) {
  AccountInfo **f = (AccountInfo **)l;
  u64 n = withdraw ? 14 : 13;
  for (u64 i = 0; i < n; i++)
    if (!(f[i] = account(c, i))) return fail(A_ACCOUNT_NOT_ENOUGH_KEYS);
  TRY(need_signer(l->owner, "owner"));
  TRY(need_state(c, l->pool, DISC_POOL_STATE, "pool_state"));
  TRY(need_token_account(l->owner_lp, "owner_lp_token"));
  TRY(need_token_account(l->account_0, "token_0_account"));
  TRY(need_token_account(l->account_1, "token_1_account"));
  TRY(need_token_account(l->vault_0, "token_0_vault"));
  TRY(need_token_account(l->vault_1, "token_1_vault"));
  TRY(need_program(l->token_program, &PROGRAM_TOKEN, "token_program"));
  TRY(need_program(l->token_program_2022, &PROGRAM_TOKEN_2022, "token_program_2022"));
  TRY(need_mint(l->mint_0, "vault_0_mint"));
  TRY(need_mint(l->mint_1, "vault_1_mint"));
  TRY(need_mint(l->lp_mint, "lp_mint"));
  TRY(need_authority(c, l->authority, 0));
  TRY(need_mut(l->pool, "pool_state"));
  TRY(need_mut(l->owner_lp, "owner_lp_token"));
  if (!key_eq(tok_owner(l->owner_lp), l->owner->key)) return fail_at(A_CONSTRAINT_TOKEN_OWNER, "owner_lp_token");
  TRY(need_mut(l->account_0, "token_0_account"));
  if (!key_eq(tok_mint(l->account_0), tok_mint(l->vault_0))) return fail_at(A_CONSTRAINT_TOKEN_MINT, "token_0_account");
  if (!withdraw && !key_eq(tok_owner(l->account_0), l->owner->key)) return fail_at(A_CONSTRAINT_TOKEN_OWNER, "token_0_account");
  TRY(need_mut(l->account_1, "token_1_account"));
  if (!key_eq(tok_mint(l->account_1), tok_mint(l->vault_1))) return fail_at(A_CONSTRAINT_TOKEN_MINT, "token_1_account");
  if (!withdraw && !key_eq(tok_owner(l->account_1), l->owner->key)) return fail_at(A_CONSTRAINT_TOKEN_OWNER, "token_1_account");
  TRY(need_mut(l->vault_0, "token_0_vault"));
  if (!key_eq(l->vault_0->key, pool_key(l->pool, POOL_TOKEN_0_VAULT))) return fail_at(A_CONSTRAINT_RAW, "token_0_vault");
  TRY(need_mut(l->vault_1, "token_1_vault"));
  if (!key_eq(l->vault_1->key, pool_key(l->pool, POOL_TOKEN_1_VAULT))) return fail_at(A_CONSTRAINT_RAW, "token_1_vault");
  TRY(need_address(l->mint_0, tok_mint(l->vault_0), A_CONSTRAINT_ADDRESS, "vault_0_mint"));
  TRY(need_address(l->mint_1, tok_mint(l->vault_1), A_CONSTRAINT_ADDRESS, "vault_1_mint"));
  TRY(need_mut(l->lp_mint, "lp_mint"));
  TRY(need_address(l->lp_mint, pool_key(l->pool, POOL_LP_MINT), E_INCORRECT_LP_MINT, "lp_mint"));
  if (withdraw) TRY(need_address(l->memo, &PROGRAM_MEMO, A_CONSTRAINT_ADDRESS, "memo_program"));
  return 0;
}

// LpEvent is LpChangeEvent's fields.
typedef struct {
  u64 lp_before, vault_0_before, vault_1_before, amount_0, amount_1, fee_0, fee_1;
  u8 change_type;
} LpEvent;

static NOINLINE void emit_lp_change(const AccountInfo *pool, const LpEvent *e) {
  u8 ev[97];
  sol_memcpy_(ev, EVENT_LP_CHANGE, 8);
  sol_memcpy_(ev + 8, pool->key, 32);
  sol_memcpy_(ev + 40, e, 56); // the seven u64 fields, little-endian, in order
  ev[96] = e->change_type;
  Bytes b = {ev, 97};
  sol_log_data(&b, 1);
}

// the mint's token program: SPL Token when it owns the mint, else Token-2022.
static const AccountInfo *program_of(const Lp *l, const AccountInfo *mint) {
  return key_eq(mint->owner, l->token_program->key) ? l->token_program : l->token_program_2022;
}

static NOINLINE u64 lp_convert(Ctx *c, Lp *l, u64 lp_amount, bool withdraw, LpEvent *e) {
  e->lp_before = rd64(l->pool->data + POOL_LP_SUPPLY);
  TRY(pool_vault_amounts(l->pool, tok_amount(l->vault_0), tok_amount(l->vault_1), &e->vault_0_before, &e->vault_1_before));
  LpConversion cv = {lp_amount, e->lp_before, e->vault_0_before, e->vault_1_before, !withdraw};
  if (!curve_lp_to_tokens(&cv)) return fail(E_ZERO_TRADING_TOKENS);
  if (u128_is_zero(&cv.token_0) || u128_is_zero(&cv.token_1)) return fail(E_ZERO_TRADING_TOKENS);
  if (!u128_fits_u64(&cv.token_0) || !u128_fits_u64(&cv.token_1)) PANIC("u64::try_from");
  e->amount_0 = cv.token_0.lo;
  e->amount_1 = cv.token_1.lo;
  return 0;
}

static NOINLINE u64 deposit(Ctx *c, u64 lp_amount, u64 max_0, u64 max_1) {
  Lp l;
  TRY(lp_accounts(c, &l, false));
  if (lp_amount == 0) return fail(A_REQUIRE_GT_VIOLATED);
  if (l.pool->data[POOL_STATUS] & STATUS_DEPOSIT) return fail(E_NOT_APPROVED);
  LpEvent e = {0};
  TRY(lp_convert(c, &l, lp_amount, false, &e));
  TRY(transfer_inverse_fee(c, l.mint_0, e.amount_0, &e.fee_0));
  TRY(transfer_inverse_fee(c, l.mint_1, e.amount_1, &e.fee_1));
  u64 send_0 = e.amount_0 + e.fee_0, send_1 = e.amount_1 + e.fee_1;
  if (send_0 < e.fee_0 || send_1 < e.fee_1) PANIC("checked_add");
  e.change_type = 0;
  emit_lp_change(l.pool, &e);
  if (send_0 > max_0 || send_1 > max_1) return fail(E_EXCEEDED_SLIPPAGE);
  TokenOp t0 = {program_of(&l, l.mint_0), l.account_0, l.mint_0, l.vault_0, l.owner, send_0, 0};
  TRY(token_transfer_checked(c, &t0));
  TokenOp t1 = {program_of(&l, l.mint_1), l.account_1, l.mint_1, l.vault_1, l.owner, send_1, 0};
  TRY(token_transfer_checked(c, &t1));
  u64 supply;
  if (__builtin_add_overflow(e.lp_before, lp_amount, &supply)) PANIC("checked_add");
  wr64(l.pool->data + POOL_LP_SUPPLY, supply);
  AuthSigner auth;
  auth_signer(&auth, l.pool->data[POOL_AUTH_BUMP]);
  TokenOp m = {l.token_program, 0, l.lp_mint, l.owner_lp, l.authority, lp_amount, &auth.signer};
  TRY(token_mint_to(c, &m));
  wr64(l.pool->data + POOL_RECENT_EPOCH, c->clock.epoch);
  return 0;
}

static NOINLINE u64 withdraw(Ctx *c, u64 lp_amount, u64 min_0, u64 min_1) {
  Lp l;
  TRY(lp_accounts(c, &l, true));
  if (lp_amount == 0) return fail(A_REQUIRE_GT_VIOLATED);
  if (tok_amount(l.owner_lp) < lp_amount) return fail(A_REQUIRE_GTE_VIOLATED);
  if (l.pool->data[POOL_STATUS] & STATUS_WITHDRAW) return fail(E_NOT_APPROVED);
  LpEvent e = {0};
  TRY(lp_convert(c, &l, lp_amount, true, &e));
  u64 out_0 = e.amount_0 < e.vault_0_before ? e.amount_0 : e.vault_0_before;
  u64 out_1 = e.amount_1 < e.vault_1_before ? e.amount_1 : e.vault_1_before;
  e.fee_0 = transfer_fee(c, l.mint_0, out_0);
  e.fee_1 = transfer_fee(c, l.mint_1, out_1);
  e.amount_0 = out_0 - e.fee_0;
  e.amount_1 = out_1 - e.fee_1;
  e.change_type = 1;
  emit_lp_change(l.pool, &e);
  if (e.amount_0 < min_0 || e.amount_1 < min_1) return fail(E_EXCEEDED_SLIPPAGE);
  if (lp_amount > e.lp_before) PANIC("checked_sub");
  wr64(l.pool->data + POOL_LP_SUPPLY, e.lp_before - lp_amount);
  AuthSigner auth;
  auth_signer(&auth, l.pool->data[POOL_AUTH_BUMP]);
  TokenOp b = {l.token_program, l.owner_lp, l.lp_mint, 0, l.owner, lp_amount, &auth.signer};
  TRY(token_burn(c, &b));
  TokenOp t0 = {program_of(&l, l.mint_0), l.vault_0, l.mint_0, l.account_0, l.authority, out_0, &auth.signer};
  TRY(token_transfer_checked(c, &t0));
  TokenOp t1 = {program_of(&l, l.mint_1), l.vault_1, l.mint_1, l.account_1, l.authority, out_1, &auth.signer};
  TRY(token_transfer_checked(c, &t1));
  wr64(l.pool->data + POOL_RECENT_EPOCH, c->clock.epoch);
  return 0;
}

#endif
