// cpmm.c: our constant-product AMM program, whose instruction interface and account layouts follow
// Raydium CPMM (raydium-cp-swap): create_amm_config, initialize, deposit, withdraw,
// swap_base_input and swap_base_output, dispatched on Anchor's 8-byte discriminators
// (sha256("global:<name>")[..8]) with Borsh arguments. One translation unit: the modules are
// headers of static functions. Built by `make program` (clang -target bpfel -mcpu=v1 -O2, then
// our linker, chain/solana/program/link).
#include "ix_config.h"
#include "ix_initialize.h"
#include "ix_lp.h"
#include "ix_swap.h"

// parse reads the serialized input (accounts, instruction data, program id) into c.
static NOINLINE void parse(Ctx *c, u8 *in) {
  u64 n = rd64(in);
  in += 8;
  c->n = n;
  c->accs = alloc(c, n * sizeof(AccountInfo));
  for (u64 i = 0; i < n; i++) {
    AccountInfo *a = &c->accs[i];
    u8 dup = in[0];
    if (dup != 0xff) {
      *a = c->accs[dup];
      in += 8;
      continue;
    }
    a->is_signer = in[1];
    a->is_writable = in[2];
    a->executable = in[3];
    in += 8;
    a->key = (Pubkey *)in;
    in += 32;
    a->owner = (Pubkey *)in;
    in += 32;
    a->lamports = (u64 *)in;
    in += 8;
    a->data_len = rd64(in);
    in += 8;
    a->data = in;
    in += a->data_len + 10 * 1024;
    in = (u8 *)(((u64)in + 7) & ~7ULL);
    a->rent_epoch = rd64(in);
    in += 8;
  }
  c->ix_len = rd64(in);
  in += 8;
  c->ix = in;
  c->program_id = (const Pubkey *)(in + c->ix_len);
}

static bool is_ix(const Ctx *c, const u8 disc[8]) {
  for (int i = 0; i < 8; i++)
    if (c->ix[i] != disc[i]) return false;
  return true;
}

// arg reads the i-th u64 after the discriminator and the first skip bytes.
static u64 arg(const Ctx *c, u64 skip, u64 i) { return rd64(c->ix + 8 + skip + 8 * i); }

static NOINLINE u64 dispatch(Ctx *c) {
  if (c->ix_len < 8) return fail(A_INSTRUCTION_MISSING);
  if (is_ix(c, IX_SWAP_BASE_INPUT)) {
    log_str("Instruction: SwapBaseInput");
    if (c->ix_len < 8 + 16) return fail(A_INSTRUCTION_DID_NOT_DESERIALIZE);
    return swap_base_input(c, arg(c, 0, 0), arg(c, 0, 1));
  }
  if (is_ix(c, IX_SWAP_BASE_OUTPUT)) {
    log_str("Instruction: SwapBaseOutput");
    if (c->ix_len < 8 + 16) return fail(A_INSTRUCTION_DID_NOT_DESERIALIZE);
    return swap_base_output(c, arg(c, 0, 0), arg(c, 0, 1));
  }
  if (is_ix(c, IX_DEPOSIT)) {
    log_str("Instruction: Deposit");
    if (c->ix_len < 8 + 24) return fail(A_INSTRUCTION_DID_NOT_DESERIALIZE);
    return deposit(c, arg(c, 0, 0), arg(c, 0, 1), arg(c, 0, 2));
  }
  if (is_ix(c, IX_WITHDRAW)) {
    log_str("Instruction: Withdraw");
    if (c->ix_len < 8 + 24) return fail(A_INSTRUCTION_DID_NOT_DESERIALIZE);
    return withdraw(c, arg(c, 0, 0), arg(c, 0, 1), arg(c, 0, 2));
  }
  if (is_ix(c, IX_INITIALIZE)) {
    log_str("Instruction: Initialize");
    if (c->ix_len < 8 + 24) return fail(A_INSTRUCTION_DID_NOT_DESERIALIZE);
    return initialize(c, arg(c, 0, 0), arg(c, 0, 1), arg(c, 0, 2));
  }
  if (is_ix(c, IX_CREATE_AMM_CONFIG)) {
    log_str("Instruction: CreateAmmConfig");
    if (c->ix_len < 8 + 2 + 40) return fail(A_INSTRUCTION_DID_NOT_DESERIALIZE);
    ConfigArgs a = {rd16(c->ix + 8), arg(c, 2, 0), arg(c, 2, 1), arg(c, 2, 2), arg(c, 2, 3), arg(c, 2, 4)};
    return create_amm_config(c, &a);
  }
  return fail(A_INSTRUCTION_FALLBACK_NOT_FOUND);
}

u64 entrypoint(u8 *input) {
  Ctx *c = (Ctx *)HEAP_START;
  c->heap_next = HEAP_START + ((sizeof(Ctx) + 7) & ~7ULL);
  parse(c, input);
  sol_get_clock_sysvar(&c->clock);
  return dispatch(c);
}
