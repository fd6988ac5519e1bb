// cpmm.h: Raydium CPMM's constants, error codes and account layouts as our program uses them,
// the per-call context on the heap, and the account checks Anchor makes (with Anchor's error
// numbers). Layouts: AmmConfig (Borsh, 236 bytes), PoolState (packed, 637), ObservationState
// (packed, 4075), each after its 8-byte Anchor discriminator sha256("account:<Name>")[..8].
#ifndef CPMM_CPMM_H
#define CPMM_CPMM_H

#include "sbf.h"
#include "u128.h"

// ---- keys ----
static const Pubkey PROGRAM_TOKEN = {{6, 221, 246, 225, 215, 101, 161, 147, 217, 203, 225, 70, 206, 235, 121, 172, 28, 180, 133, 237, 95, 91, 55, 145, 58, 140, 245, 133, 126, 255, 0, 169}};
static const Pubkey PROGRAM_TOKEN_2022 = {{6, 221, 246, 225, 238, 117, 143, 222, 24, 66, 93, 188, 228, 108, 205, 218, 182, 26, 252, 77, 131, 185, 13, 39, 254, 189, 249, 40, 216, 161, 139, 252}};
static const Pubkey PROGRAM_ATA = {{140, 151, 37, 143, 78, 36, 137, 241, 187, 61, 16, 41, 20, 142, 13, 131, 11, 90, 19, 153, 218, 255, 16, 132, 4, 142, 123, 216, 219, 233, 248, 89}};
static const Pubkey PROGRAM_MEMO = {{5, 74, 83, 90, 153, 41, 33, 6, 77, 36, 232, 113, 96, 218, 56, 124, 124, 53, 181, 221, 188, 146, 187, 129, 228, 31, 168, 64, 65, 5, 68, 141}};
static const Pubkey PROGRAM_SYSTEM = {{0}};
static const Pubkey SYSVAR_RENT = {{6, 167, 213, 23, 25, 44, 92, 81, 33, 140, 201, 76, 61, 74, 241, 127, 88, 218, 238, 8, 155, 161, 253, 68, 227, 219, 217, 138, 0, 0, 0, 0}};
// Raydium's mainnet admin (GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ): the only key that may create configs.
static const Pubkey ADMIN = {{229, 182, 43, 101, 203, 59, 189, 166, 245, 104, 136, 230, 111, 238, 142, 100, 220, 85, 96, 25, 156, 15, 136, 177, 31, 226, 115, 189, 5, 158, 138, 161}};
// The pool creation fee receiver (DNXgeM9EiiaAbaWvwjHj9fQQLAX5ZsfHyvmYUNRAdNC8), a token account.
static const Pubkey CREATE_POOL_FEE_RECEIVER = {{183, 208, 34, 82, 84, 172, 7, 227, 178, 189, 63, 134, 193, 240, 241, 16, 63, 192, 112, 140, 193, 90, 239, 20, 7, 58, 166, 69, 63, 85, 234, 105}};
// Token-2022 mints accepted whatever their extensions.
static const Pubkey MINT_WHITELIST[4] = {
    {{245, 14, 158, 146, 190, 44, 37, 71, 234, 84, 111, 26, 125, 204, 110, 85, 116, 171, 124, 43, 204, 239, 202, 70, 54, 59, 104, 16, 133, 66, 247, 230}},
    {{176, 48, 249, 118, 239, 155, 33, 192, 225, 98, 32, 176, 246, 51, 231, 96, 155, 14, 171, 244, 63, 152, 11, 182, 200, 67, 125, 165, 180, 11, 231, 15}},
    {{220, 157, 34, 97, 154, 134, 123, 230, 166, 6, 191, 3, 197, 72, 73, 48, 26, 93, 31, 170, 5, 202, 196, 140, 123, 231, 76, 95, 40, 218, 70, 19}},
    {{23, 146, 72, 59, 108, 138, 42, 135, 183, 71, 29, 129, 79, 149, 145, 249, 57, 92, 132, 10, 156, 227, 217, 244, 213, 186, 125, 58, 75, 138, 116, 158}},
};

// ---- discriminators ----
static const u8 IX_CREATE_AMM_CONFIG[8] = {137, 52, 237, 212, 215, 117, 108, 104};
static const u8 IX_INITIALIZE[8] = {175, 175, 109, 31, 13, 152, 155, 237};
static const u8 IX_DEPOSIT[8] = {242, 35, 198, 137, 82, 225, 242, 182};
static const u8 IX_WITHDRAW[8] = {183, 18, 70, 156, 148, 109, 161, 34};
static const u8 IX_SWAP_BASE_INPUT[8] = {143, 190, 90, 218, 196, 30, 51, 222};
static const u8 IX_SWAP_BASE_OUTPUT[8] = {55, 217, 98, 86, 163, 74, 180, 173};
static const u8 DISC_AMM_CONFIG[8] = {218, 244, 33, 104, 203, 203, 43, 111};
static const u8 DISC_POOL_STATE[8] = {247, 237, 227, 245, 215, 195, 222, 70};
static const u8 DISC_OBSERVATION[8] = {122, 174, 197, 53, 129, 9, 165, 132};
static const u8 EVENT_SWAP[8] = {64, 198, 205, 232, 38, 8, 113, 226};
static const u8 EVENT_LP_CHANGE[8] = {121, 163, 205, 201, 57, 218, 117, 60};

// ---- seeds ----
#define SEED_AUTH "vault_and_lp_mint_auth_seed"
#define SEED_AMM_CONFIG "amm_config"
#define SEED_POOL "pool"
#define SEED_LP_MINT "pool_lp_mint"
#define SEED_VAULT "pool_vault"
#define SEED_OBSERVATION "observation"

#define FEE_RATE_DENOMINATOR 1000000ULL
#define LOCK_LP_AMOUNT 100ULL
#define LP_MINT_DECIMALS 9

// ---- AmmConfig ----
#define AMM_CONFIG_LEN 236
#define CFG_BUMP 8
#define CFG_DISABLE_CREATE_POOL 9
#define CFG_INDEX 10
#define CFG_TRADE_FEE_RATE 12
#define CFG_PROTOCOL_FEE_RATE 20
#define CFG_FUND_FEE_RATE 28
#define CFG_CREATE_POOL_FEE 36
#define CFG_PROTOCOL_OWNER 44
#define CFG_FUND_OWNER 76
#define CFG_CREATOR_FEE_RATE 108

// ---- PoolState ----
#define POOL_STATE_LEN 637
#define POOL_AMM_CONFIG 8
#define POOL_CREATOR 40
#define POOL_TOKEN_0_VAULT 72
#define POOL_TOKEN_1_VAULT 104
#define POOL_LP_MINT 136
#define POOL_TOKEN_0_MINT 168
#define POOL_TOKEN_1_MINT 200
#define POOL_TOKEN_0_PROGRAM 232
#define POOL_TOKEN_1_PROGRAM 264
#define POOL_OBSERVATION_KEY 296
#define POOL_AUTH_BUMP 328
#define POOL_STATUS 329
#define POOL_LP_MINT_DECIMALS 330
#define POOL_MINT_0_DECIMALS 331
#define POOL_MINT_1_DECIMALS 332
#define POOL_LP_SUPPLY 333
#define POOL_PROTOCOL_FEES_0 341
#define POOL_PROTOCOL_FEES_1 349
#define POOL_FUND_FEES_0 357
#define POOL_FUND_FEES_1 365
#define POOL_OPEN_TIME 373
#define POOL_RECENT_EPOCH 381
#define POOL_CREATOR_FEE_ON 389
#define POOL_ENABLE_CREATOR_FEE 390
#define POOL_CREATOR_FEES_0 397
#define POOL_CREATOR_FEES_1 405

#define STATUS_DEPOSIT 1
#define STATUS_WITHDRAW 2
#define STATUS_SWAP 4

// ---- ObservationState ----
#define OBSERVATION_LEN 4075
#define OBS_INITIALIZED 8
#define OBS_INDEX 9
#define OBS_POOL_ID 11
#define OBS_OBSERVATIONS 43
#define OBS_ENTRY_LEN 40
#define OBS_NUM 100
#define OBS_LAST_UPDATE 4043
#define OBS_UPDATE_DURATION 15

// ---- errors: the program's (6000 + index) and Anchor's ----
enum {
  E_NOT_APPROVED = 6000,
  E_INVALID_OWNER = 6001,
  E_EMPTY_SUPPLY = 6002,
  E_INVALID_INPUT = 6003,
  E_INCORRECT_LP_MINT = 6004,
  E_EXCEEDED_SLIPPAGE = 6005,
  E_ZERO_TRADING_TOKENS = 6006,
  E_NOT_SUPPORT_MINT = 6007,
  E_INVALID_VAULT = 6008,
  E_INIT_LP_AMOUNT_TOO_LESS = 6009,
  E_TRANSFER_FEE_CALCULATE_NOT_MATCH = 6010,
  E_MATH_OVERFLOW = 6011,
  E_INSUFFICIENT_VAULT = 6012,
  E_INVALID_FEE_MODEL = 6013,

  A_INSTRUCTION_MISSING = 100,
  A_INSTRUCTION_FALLBACK_NOT_FOUND = 101,
  A_INSTRUCTION_DID_NOT_DESERIALIZE = 102,
  A_CONSTRAINT_MUT = 2000,
  A_CONSTRAINT_RAW = 2003,
  A_CONSTRAINT_SEEDS = 2006,
  A_CONSTRAINT_ADDRESS = 2012,
  A_CONSTRAINT_TOKEN_MINT = 2014,
  A_CONSTRAINT_TOKEN_OWNER = 2015,
  A_CONSTRAINT_MINT_TOKEN_PROGRAM = 2022,
  A_REQUIRE_EQ_VIOLATED = 2501,
  A_REQUIRE_GT_VIOLATED = 2505,
  A_REQUIRE_GTE_VIOLATED = 2506,
  A_ACCOUNT_DISCRIMINATOR_NOT_FOUND = 3001,
  A_ACCOUNT_DISCRIMINATOR_MISMATCH = 3002,
  A_ACCOUNT_DID_NOT_DESERIALIZE = 3003,
  A_ACCOUNT_NOT_ENOUGH_KEYS = 3005,
  A_ACCOUNT_OWNED_BY_WRONG_PROGRAM = 3007,
  A_INVALID_PROGRAM_ID = 3008,
  A_INVALID_PROGRAM_EXECUTABLE = 3009,
  A_ACCOUNT_NOT_SIGNER = 3010,
  A_ACCOUNT_NOT_INITIALIZED = 3012,
  A_ACCOUNT_SYSVAR_MISMATCH = 3015,
};

static const char *error_name(u64 code) {
  switch (code) {
  case E_NOT_APPROVED: return "NotApproved. Error Number: 6000. Error Message: Not approved";
  case E_INVALID_OWNER: return "InvalidOwner. Error Number: 6001. Error Message: Input account owner is not the program address";
  case E_EMPTY_SUPPLY: return "EmptySupply. Error Number: 6002. Error Message: Input token account empty";
  case E_INVALID_INPUT: return "InvalidInput. Error Number: 6003. Error Message: InvalidInput";
  case E_INCORRECT_LP_MINT: return "IncorrectLpMint. Error Number: 6004. Error Message: Address of the provided lp token mint is incorrect";
  case E_EXCEEDED_SLIPPAGE: return "ExceededSlippage. Error Number: 6005. Error Message: Exceeds desired slippage limit";
  case E_ZERO_TRADING_TOKENS: return "ZeroTradingTokens. Error Number: 6006. Error Message: Given pool token amount results in zero trading tokens";
  case E_NOT_SUPPORT_MINT: return "NotSupportMint. Error Number: 6007. Error Message: Not support token_2022 mint extension";
  case E_INVALID_VAULT: return "InvalidVault. Error Number: 6008. Error Message: invaild vault";
  case E_INIT_LP_AMOUNT_TOO_LESS: return "InitLpAmountTooLess. Error Number: 6009. Error Message: Init lp amount is too less(Because 100 amount lp will be locked)";
  case E_TRANSFER_FEE_CALCULATE_NOT_MATCH: return "TransferFeeCalculateNotMatch. Error Number: 6010. Error Message: TransferFee calculate not match";
  case E_MATH_OVERFLOW: return "MathOverflow. Error Number: 6011. Error Message: Math overflow";
  case E_INSUFFICIENT_VAULT: return "InsufficientVault. Error Number: 6012. Error Message: Insufficient vault";
  case E_INVALID_FEE_MODEL: return "InvalidFeeModel. Error Number: 6013. Error Message: Invalid fee model";
  case A_INSTRUCTION_MISSING: return "InstructionMissing. Error Number: 100. Error Message: 8 byte instruction identifier not provided";
  case A_INSTRUCTION_FALLBACK_NOT_FOUND: return "InstructionFallbackNotFound. Error Number: 101. Error Message: Fallback functions are not supported";
  case A_INSTRUCTION_DID_NOT_DESERIALIZE: return "InstructionDidNotDeserialize. Error Number: 102. Error Message: The program could not deserialize the given instruction";
  case A_CONSTRAINT_MUT: return "ConstraintMut. Error Number: 2000. Error Message: A mut constraint was violated";
  case A_CONSTRAINT_RAW: return "ConstraintRaw. Error Number: 2003. Error Message: A raw constraint was violated";
  case A_CONSTRAINT_SEEDS: return "ConstraintSeeds. Error Number: 2006. Error Message: A seeds constraint was violated";
  case A_CONSTRAINT_ADDRESS: return "ConstraintAddress. Error Number: 2012. Error Message: An address constraint was violated";
  case A_CONSTRAINT_TOKEN_MINT: return "ConstraintTokenMint. Error Number: 2014. Error Message: A token mint constraint was violated";
  case A_CONSTRAINT_TOKEN_OWNER: return "ConstraintTokenOwner. Error Number: 2015. Error Message: A token owner constraint was violated";
  case A_CONSTRAINT_MINT_TOKEN_PROGRAM: return "ConstraintMintTokenProgram. Error Number: 2022. Error Message: A mint token program constraint was violated";
  case A_REQUIRE_EQ_VIOLATED: return "RequireEqViolated. Error Number: 2501. Error Message: A require_eq expression was violated";
  case A_REQUIRE_GT_VIOLATED: return "RequireGtViolated. Error Number: 2505. Error Message: A require_gt expression was violated";
  case A_REQUIRE_GTE_VIOLATED: return "RequireGteViolated. Error Number: 2506. Error Message: A require_gte expression was violated";
  case A_ACCOUNT_DISCRIMINATOR_NOT_FOUND: return "AccountDiscriminatorNotFound. Error Number: 3001. Error Message: No discriminator was found on the account";
  case A_ACCOUNT_DISCRIMINATOR_MISMATCH: return "AccountDiscriminatorMismatch. Error Number: 3002. Error Message: Discriminator did not match what was expected";
  case A_ACCOUNT_DID_NOT_DESERIALIZE: return "AccountDidNotDeserialize. Error Number: 3003. Error Message: Failed to deserialize the account";
  case A_ACCOUNT_NOT_ENOUGH_KEYS: return "AccountNotEnoughKeys. Error Number: 3005. Error Message: Not enough account keys given to the instruction";
  case A_ACCOUNT_OWNED_BY_WRONG_PROGRAM: return "AccountOwnedByWrongProgram. Error Number: 3007. Error Message: The given account is owned by a different program than expected";
  case A_INVALID_PROGRAM_ID: return "InvalidProgramId. Error Number: 3008. Error Message: Program ID was not as expected";
  case A_INVALID_PROGRAM_EXECUTABLE: return "InvalidProgramExecutable. Error Number: 3009. Error Message: Program account is not executable";
  case A_ACCOUNT_NOT_SIGNER: return "AccountNotSigner. Error Number: 3010. Error Message: The given account did not sign";
  case A_ACCOUNT_NOT_INITIALIZED: return "AccountNotInitialized. Error Number: 3012. Error Message: The program expected this account to be already initialized";
  case A_ACCOUNT_SYSVAR_MISMATCH: return "AccountSysvarMismatch. Error Number: 3015. Error Message: The given public key does not match the required sysvar";
  default: return "Unknown. Error Number: ?. Error Message: ?";
  }
}

// Ctx is the call's state, at the start of the heap.
typedef struct {
  AccountInfo *accs;
  u64 n;
  const u8 *ix;
  u64 ix_len;
  const Pubkey *program_id;
  u8 *heap_next;
  Clock clock;
} Ctx;

static void *alloc(Ctx *c, u64 n) {
  u8 *p = c->heap_next;
  c->heap_next += (n + 7) & ~7ULL;
  if (c->heap_next > HEAP_START + HEAP_SIZE) PANIC("out of heap");
  return p;
}

// fail logs an Anchor-style error line (naming the account when there is one) and returns code.
static NOINLINE u64 fail_at(u64 code, const char *account) {
  char buf[240];
  char *p = buf;
  if (account) {
    p = fmt_str(p, "AnchorError caused by account: ");
    p = fmt_str(p, account);
    p = fmt_str(p, ". Error Code: ");
  } else {
    p = fmt_str(p, "AnchorError occurred. Error Code: ");
  }
  p = fmt_str(p, error_name(code));
  *p++ = '.';
  sol_log_(buf, (u64)(p - buf));
  return code;
}
#define fail(code) fail_at(code, 0)

#define TRY(expr)                                                                                                      \
  do {                                                                                                                 \
    u64 err_ = (expr);                                                                                                 \
    if (err_) return err_;                                                                                             \
  } while (0)

// ---- account checks (Anchor's, in Anchor's numbers) ----

static AccountInfo *account(Ctx *c, u64 i) { return i < c->n ? &c->accs[i] : 0; }

static u64 need_signer(const AccountInfo *a, const char *name) {
  return a->is_signer ? 0 : fail_at(A_ACCOUNT_NOT_SIGNER, name);
}

static u64 need_mut(const AccountInfo *a, const char *name) {
  return a->is_writable ? 0 : fail_at(A_CONSTRAINT_MUT, name);
}

static u64 need_address(const AccountInfo *a, const Pubkey *want, u64 code, const char *name) {
  return key_eq(a->key, want) ? 0 : fail_at(code, name);
}

// need_state checks an account of this program: owner, then discriminator.
static u64 need_state(Ctx *c, const AccountInfo *a, const u8 disc[8], const char *name) {
  if (!key_eq(a->owner, c->program_id)) {
    if (key_eq(a->owner, &PROGRAM_SYSTEM) && *a->lamports == 0) return fail_at(A_ACCOUNT_NOT_INITIALIZED, name);
    return fail_at(A_ACCOUNT_OWNED_BY_WRONG_PROGRAM, name);
  }
  if (a->data_len < 8) return fail_at(A_ACCOUNT_DISCRIMINATOR_NOT_FOUND, name);
  for (int i = 0; i < 8; i++)
    if (a->data[i] != disc[i]) return fail_at(A_ACCOUNT_DISCRIMINATOR_MISMATCH, name);
  return 0;
}

static bool is_token_program(const Pubkey *k) { return key_eq(k, &PROGRAM_TOKEN) || key_eq(k, &PROGRAM_TOKEN_2022); }

// need_program checks a Program<...> account: this program id, executable.
static u64 need_program(const AccountInfo *a, const Pubkey *id, const char *name) {
  if (!key_eq(a->key, id)) return fail_at(A_INVALID_PROGRAM_ID, name);
  if (!a->executable) return fail_at(A_INVALID_PROGRAM_EXECUTABLE, name);
  return 0;
}

// need_token_interface checks an Interface<TokenInterface>: SPL Token or Token-2022, executable.
static u64 need_token_interface(const AccountInfo *a, const char *name) {
  if (!is_token_program(a->key)) return fail_at(A_INVALID_PROGRAM_ID, name);
  if (!a->executable) return fail_at(A_INVALID_PROGRAM_EXECUTABLE, name);
  return 0;
}

#endif
