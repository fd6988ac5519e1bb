// token.h: SPL Token and Token-2022 as the program needs them: reading token accounts and mints
// (with Token-2022's extensions), the transfer fee as Token-2022 computes it and CPMM takes it,
// and the cross-program calls (System and token instructions, the associated token account).
#ifndef CPMM_TOKEN_H
#define CPMM_TOKEN_H

#include "cpmm.h"

#define TOKEN_ACCOUNT_LEN 165
#define MINT_LEN 82
#define ACCOUNT_TYPE_MINT 1
#define ACCOUNT_TYPE_ACCOUNT 2
#define EXT_TRANSFER_FEE_CONFIG 1
#define EXT_NON_TRANSFERABLE 9
#define EXT_INTEREST_BEARING 10
#define EXT_TRANSFER_HOOK 14
#define EXT_METADATA_POINTER 18
#define EXT_TOKEN_METADATA 19
#define EXT_SCALED_UI_AMOUNT 25
#define EXT_PAUSABLE 26
#define MAX_FEE_BASIS_POINTS 10000

// Token account fields.
static inline const Pubkey *tok_mint(const AccountInfo *a) { return (const Pubkey *)a->data; }
static inline const Pubkey *tok_owner(const AccountInfo *a) { return (const Pubkey *)(a->data + 32); }
static inline u64 tok_amount(const AccountInfo *a) { return rd64(a->data + 64); }
// Mint fields.
static inline u8 mint_decimals(const AccountInfo *a) { return a->data[44]; }

// need_token_account checks an InterfaceAccount<TokenAccount>: owned by a token program, an
// initialized account (with Token-2022's extensions, its account type).
static u64 need_token_account(const AccountInfo *a, const char *name) {
  if (!is_token_program(a->owner)) return fail_at(A_ACCOUNT_OWNED_BY_WRONG_PROGRAM, name);
  bool t22 = key_eq(a->owner, &PROGRAM_TOKEN_2022);
  bool ok = a->data_len == TOKEN_ACCOUNT_LEN || (t22 && a->data_len > TOKEN_ACCOUNT_LEN && a->data[TOKEN_ACCOUNT_LEN] == ACCOUNT_TYPE_ACCOUNT);
  if (!ok || a->data[108] == 0) return fail_at(A_ACCOUNT_DID_NOT_DESERIALIZE, name);
  return 0;
}

// need_mint checks an InterfaceAccount<Mint>.
static u64 need_mint(const AccountInfo *a, const char *name) {
  if (!is_token_program(a->owner)) return fail_at(A_ACCOUNT_OWNED_BY_WRONG_PROGRAM, name);
  bool t22 = key_eq(a->owner, &PROGRAM_TOKEN_2022);
  bool ok = a->data_len == MINT_LEN || (t22 && a->data_len > TOKEN_ACCOUNT_LEN && a->data[TOKEN_ACCOUNT_LEN] == ACCOUNT_TYPE_MINT);
  if (!ok || a->data[45] == 0) return fail_at(A_ACCOUNT_DID_NOT_DESERIALIZE, name);
  return 0;
}

// mint_extension finds a Token-2022 mint's extension by type: its value and length, or null.
static const u8 *mint_extension(const AccountInfo *mint, u16 type, u64 *len) {
  if (mint->data_len <= TOKEN_ACCOUNT_LEN) return 0;
  u64 at = TOKEN_ACCOUNT_LEN + 1;
  while (at + 4 <= mint->data_len) {
    u16 t = rd16(mint->data + at), l = rd16(mint->data + at + 2);
    if (t == 0) break;
    if (t == type) {
      if (len) *len = l;
      return mint->data + at + 4;
    }
    at += 4 + (u64)l;
  }
  return 0;
}

// TransferFee is one of TransferFeeConfig's two fees (older, newer).
typedef struct {
  u64 epoch, maximum_fee;
  u16 bps;
} TransferFee;

// epoch_fee reads the transfer fee in force at epoch, false when the mint has none.
static bool epoch_fee(const AccountInfo *mint, u64 epoch, TransferFee *f) {
  u64 len = 0;
  const u8 *v = mint_extension(mint, EXT_TRANSFER_FEE_CONFIG, &len);
  if (!v || len < 108) return false;
  const u8 *newer = v + 90, *older = v + 72;
  const u8 *p = epoch >= rd64(newer) ? newer : older;
  f->epoch = rd64(p);
  f->maximum_fee = rd64(p + 8);
  f->bps = rd16(p + 16);
  return true;
}

// fee_of is Token-2022's calculate_fee: ceil(amount * bps / 10000), at most maximum_fee.
static u64 fee_of(const TransferFee *f, u64 amount) {
  if (f->bps == 0 || amount == 0) return 0;
  u128 num;
  u128_mul64x64(&num, amount, f->bps);
  u128 add = u128_of(MAX_FEE_BASIS_POINTS - 1), den = u128_of(MAX_FEE_BASIS_POINTS), q;
  u128_add(&num, &num, &add);
  u128_divmod(&q, 0, &num, &den);
  u64 fee = q.lo; // < 2^64: amount * 10000 / 10000
  return fee < f->maximum_fee ? fee : f->maximum_fee;
}

// pre_fee_amount is Token-2022's calculate_pre_fee_amount; false where it returns None.
static bool pre_fee_amount(const TransferFee *f, u64 post, u64 *pre) {
  if (f->bps == 0) {
    *pre = post;
    return true;
  }
  if (post == 0) {
    *pre = 0;
    return true;
  }
  if (f->bps == MAX_FEE_BASIS_POINTS) {
    *pre = post + f->maximum_fee;
    return *pre >= post;
  }
  u128 num, den = u128_of(MAX_FEE_BASIS_POINTS - f->bps), raw, r, one = u128_of(1);
  u128_mul64x64(&num, post, MAX_FEE_BASIS_POINTS);
  u128_divmod(&raw, &r, &num, &den);
  if (!u128_is_zero(&r)) u128_add(&raw, &raw, &one);
  u128 postv = u128_of(post), implied;
  u128_sub(&implied, &raw, &postv);
  u128 maxfee = u128_of(f->maximum_fee);
  if (u128_cmp(&implied, &maxfee) >= 0) {
    *pre = post + f->maximum_fee;
    return *pre >= post;
  }
  if (!u128_fits_u64(&raw)) return false;
  *pre = raw.lo;
  return true;
}

// transfer_fee is CPMM's get_transfer_fee: the fee withheld when amount is sent.
static u64 transfer_fee(Ctx *c, const AccountInfo *mint, u64 amount) {
  if (key_eq(mint->owner, &PROGRAM_TOKEN)) return 0;
  TransferFee f;
  if (!epoch_fee(mint, c->clock.epoch, &f)) return 0;
  return fee_of(&f, amount);
}

// transfer_inverse_fee is CPMM's get_transfer_inverse_fee: the fee to add so that post arrives.
static u64 transfer_inverse_fee(Ctx *c, const AccountInfo *mint, u64 post, u64 *fee) {
  *fee = 0;
  if (key_eq(mint->owner, &PROGRAM_TOKEN)) return 0;
  if (post == 0) return fail(E_INVALID_INPUT);
  TransferFee f;
  if (!epoch_fee(mint, c->clock.epoch, &f)) return 0;
  if (f.bps == MAX_FEE_BASIS_POINTS) {
    *fee = f.maximum_fee;
    return 0;
  }
  u64 pre;
  if (!pre_fee_amount(&f, post, &pre)) PANIC("calculate_inverse_epoch_fee");
  u64 inverse = fee_of(&f, pre);
  if (post + inverse < post) PANIC("checked_add");
  if (inverse != fee_of(&f, post + inverse)) return fail(E_TRANSFER_FEE_CALCULATE_NOT_MATCH);
  *fee = inverse;
  return 0;
}

// ---- cross-program calls ----

// Cpi is one cross-program instruction being built (BPF passes at most five arguments).
typedef struct {
  const Pubkey *program;
  AccountMeta metas[6];
  u64 n;
  u8 data[64];
  u64 len;
  const SignerSeeds *signer; // one signer's seeds, or null
} Cpi;

static NOINLINE u64 cpi_run(Ctx *c, const Cpi *x) {
  Instruction ix = {x->program, x->metas, x->n, x->data, x->len};
  return sol_invoke_signed_c(&ix, c->accs, c->n, x->signer, x->signer ? 1 : 0);
}

static inline void cpi_meta(Cpi *x, const Pubkey *k, bool writable, bool signer) {
  x->metas[x->n].pubkey = k;
  x->metas[x->n].is_writable = writable;
  x->metas[x->n].is_signer = signer;
  x->n++;
}

// AuthSigner signs as a program address of one seed and a bump, such as the pool authority
// [SEED_AUTH, [bump]].
typedef struct {
  Bytes seeds[2];
  SignerSeeds signer;
  u8 bump;
} AuthSigner;

static void auth_signer(AuthSigner *s, u8 bump) {
  s->bump = bump;
  s->seeds[0].addr = (const u8 *)SEED_AUTH;
  s->seeds[0].len = sizeof(SEED_AUTH) - 1;
  s->seeds[1].addr = &s->bump;
  s->seeds[1].len = 1;
  s->signer.addr = s->seeds;
  s->signer.len = 2;
}

// TokenOp is a token instruction's accounts and amount.
typedef struct {
  const AccountInfo *program, *from, *mint, *to, *authority;
  u64 amount;
  const SignerSeeds *signer;
} TokenOp;

// token_transfer_checked moves amount from -> to (TransferChecked); nothing for 0, as CPMM does.
static NOINLINE u64 token_transfer_checked(Ctx *c, const TokenOp *t) {
  if (t->amount == 0) return 0;
  Cpi x = {t->program->key};
  cpi_meta(&x, t->from->key, true, false);
  cpi_meta(&x, t->mint->key, false, false);
  cpi_meta(&x, t->to->key, true, false);
  cpi_meta(&x, t->authority->key, false, true);
  x.data[0] = 12;
  wr64(x.data + 1, t->amount);
  x.data[9] = mint_decimals(t->mint);
  x.len = 10;
  x.signer = t->signer;
  return cpi_run(c, &x);
}

// token_mint_to mints amount of mint to t->to (MintTo).
static NOINLINE u64 token_mint_to(Ctx *c, const TokenOp *t) {
  Cpi x = {t->program->key};
  cpi_meta(&x, t->mint->key, true, false);
  cpi_meta(&x, t->to->key, true, false);
  cpi_meta(&x, t->authority->key, false, true);
  x.data[0] = 7;
  wr64(x.data + 1, t->amount);
  x.len = 9;
  x.signer = t->signer;
  return cpi_run(c, &x);
}

// token_burn burns amount of mint from t->from (Burn).
static NOINLINE u64 token_burn(Ctx *c, const TokenOp *t) {
  Cpi x = {t->program->key};
  cpi_meta(&x, t->from->key, true, false);
  cpi_meta(&x, t->mint->key, true, false);
  cpi_meta(&x, t->authority->key, false, true);
  x.data[0] = 8;
  wr64(x.data + 1, t->amount);
  x.len = 9;
  x.signer = t->signer;
  return cpi_run(c, &x);
}

// rent_minimum is Rent::minimum_balance(len) for the cluster's rent (an integral exemption threshold).
static u64 rent_minimum(u64 len) {
  Rent r;
  sol_get_rent_sysvar(&r);
  u64 bits = rd64(r.exemption_threshold);
  u64 exp = (bits >> 52) & 0x7ff, mant = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
  if (bits == 0) return 0;
  if (exp < 1023 || exp > 1023 + 52 || (mant & ((1ULL << (52 - (exp - 1023))) - 1)) != 0) PANIC("non-integral rent exemption threshold");
  u64 threshold = mant >> (52 - (exp - 1023));
  return (128 + len) * r.lamports_per_byte_year * threshold;
}

// NewAccount is an account to create: at target, space bytes, owned by owner, paid by payer,
// signed by the target's seeds.
typedef struct {
  const Pubkey *owner;
  const AccountInfo *payer, *target;
  const SignerSeeds *signer;
  u64 space;
} NewAccount;

static void system_ix(Cpi *x, u8 kind) {
  x->program = &PROGRAM_SYSTEM;
  x->data[0] = kind, x->data[1] = x->data[2] = x->data[3] = 0; // u32 instruction index
}

// create_or_allocate is CPMM's create_or_allocate_account (and Anchor's init): create the account,
// or, when it already holds lamports, top it up to the rent minimum, allocate and assign it.
static NOINLINE u64 create_or_allocate(Ctx *c, const NewAccount *a) {
  u64 need = rent_minimum(a->space);
  if (*a->target->lamports == 0) {
    Cpi x = {0};
    system_ix(&x, 0);
    cpi_meta(&x, a->payer->key, true, true);
    cpi_meta(&x, a->target->key, true, true);
    wr64(x.data + 4, need);
    wr64(x.data + 12, a->space);
    sol_memcpy_(x.data + 20, a->owner, 32);
    x.len = 52;
    x.signer = a->signer;
    return cpi_run(c, &x);
  }
  if (need == 0) need = 1;
  if (need > *a->target->lamports) {
    Cpi x = {0};
    system_ix(&x, 2);
    cpi_meta(&x, a->payer->key, true, true);
    cpi_meta(&x, a->target->key, true, false);
    wr64(x.data + 4, need - *a->target->lamports);
    x.len = 12;
    TRY(cpi_run(c, &x));
  }
  Cpi x = {0};
  system_ix(&x, 8);
  cpi_meta(&x, a->target->key, true, true);
  wr64(x.data + 4, a->space);
  x.len = 12;
  x.signer = a->signer;
  TRY(cpi_run(c, &x));
  Cpi y = {0};
  system_ix(&y, 1);
  cpi_meta(&y, a->target->key, true, true);
  sol_memcpy_(y.data + 4, a->owner, 32);
  y.len = 36;
  y.signer = a->signer;
  return cpi_run(c, &y);
}

// token_account_space is the size of a token account of mint (Token-2022: with the account
// extensions its mint's extensions require).
static u64 token_account_space(const AccountInfo *mint) {
  if (!key_eq(mint->owner, &PROGRAM_TOKEN_2022)) return TOKEN_ACCOUNT_LEN;
  u64 tlv = 0;
  bool any = false;
  if (mint_extension(mint, EXT_TRANSFER_FEE_CONFIG, 0)) tlv += 4 + 8, any = true; // TransferFeeAmount
  if (mint_extension(mint, EXT_NON_TRANSFERABLE, 0)) tlv += 4 + 4, any = true;    // NonTransferableAccount, ImmutableOwner
  if (mint_extension(mint, EXT_TRANSFER_HOOK, 0)) tlv += 4 + 1, any = true;       // TransferHookAccount
  if (mint_extension(mint, EXT_PAUSABLE, 0)) tlv += 4, any = true;                // PausableAccount
  if (!any) return TOKEN_ACCOUNT_LEN;
  u64 len = TOKEN_ACCOUNT_LEN + 1 + tlv;
  return len == 355 ? len + 4 : len; // never the multisig size
}

// create_token_account is CPMM's: the vault at its address (signed by its seeds), then
// InitializeAccount3 with the pool authority as owner. t: program, to (the vault), mint, authority;
// a: payer and signer.
static NOINLINE u64 create_token_account(Ctx *c, const TokenOp *t, const AccountInfo *payer) {
  NewAccount a = {t->program->key, payer, t->to, t->signer, token_account_space(t->mint)};
  TRY(create_or_allocate(c, &a));
  Cpi x = {t->program->key};
  cpi_meta(&x, t->to->key, true, false);
  cpi_meta(&x, t->mint->key, false, false);
  x.data[0] = 18;
  sol_memcpy_(x.data + 1, t->authority->key, 32);
  x.len = 33;
  return cpi_run(c, &x);
}

#endif
