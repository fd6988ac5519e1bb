// sbf.h: the runtime's interface as a C program sees it: types, the syscalls (relocated by our
// linker by the Murmur3 hash of their names), the serialized input (loader v2/v3 ABI, aligned),
// account infos and instructions for cross-program invocation in the C ABI the runtime
// translates, byte helpers and logging. An SBPF program has no writable globals: what lives
// longer than a call is on the heap (see Ctx in cpmm.h).
#ifndef CPMM_SBF_H
#define CPMM_SBF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t i32;
typedef int64_t i64;

#define NOINLINE __attribute__((noinline))
#define HEAP_START ((u8 *)0x300000000ULL)
#define HEAP_SIZE (32 * 1024)

typedef struct {
  u8 x[32];
} Pubkey;

// AccountInfo is the C ABI's SolAccountInfo: the runtime reads it in sol_invoke_signed_c and,
// after the call, writes the account's new data length back into data_len.
typedef struct {
  Pubkey *key;
  u64 *lamports;
  u64 data_len;
  u8 *data;
  Pubkey *owner;
  u64 rent_epoch;
  bool is_signer;
  bool is_writable;
  bool executable;
} AccountInfo;

typedef struct {
  const Pubkey *pubkey;
  bool is_writable;
  bool is_signer;
} AccountMeta;

typedef struct {
  const Pubkey *program_id;
  const AccountMeta *accounts;
  u64 account_len;
  const u8 *data;
  u64 data_len;
} Instruction;

// Bytes is a seed of a program address, or a slice of sol_log_data.
typedef struct {
  const u8 *addr;
  u64 len;
} Bytes;

typedef struct {
  const Bytes *addr;
  u64 len;
} SignerSeeds;

typedef struct {
  u64 slot;
  i64 epoch_start_timestamp;
  u64 epoch;
  u64 leader_schedule_epoch;
  i64 unix_timestamp;
} Clock;

typedef struct {
  u64 lamports_per_byte_year;
  u8 exemption_threshold[8]; // f64
  u8 burn_percent;
} Rent;

extern void sol_log_(const char *, u64);
extern void sol_log_data(const Bytes *, u64);
extern void sol_panic_(const char *, u64, u64, u64);
extern u64 sol_invoke_signed_c(const Instruction *, const AccountInfo *, u64, const SignerSeeds *, u64);
extern u64 sol_create_program_address(const Bytes *, u64, const Pubkey *, Pubkey *);
extern u64 sol_try_find_program_address(const Bytes *, u64, const Pubkey *, Pubkey *, u8 *);
extern void sol_memcpy_(void *, const void *, u64);
extern void sol_memset_(void *, u64, u64);
extern void sol_memcmp_(const void *, const void *, u64, i32 *);
extern u64 sol_get_clock_sysvar(Clock *);
extern u64 sol_get_rent_sysvar(Rent *);

// clang lowers large struct copies and zeroing to memcpy/memset: these are they.
void *memcpy(void *dst, const void *src, unsigned long n) {
  sol_memcpy_(dst, src, n);
  return dst;
}
void *memset(void *dst, int c, unsigned long n) {
  sol_memset_(dst, (u64)(u8)c, n);
  return dst;
}

static inline bool key_eq(const Pubkey *a, const Pubkey *b) {
  const u64 *x = (const u64 *)a->x, *y = (const u64 *)b->x;
  u64 d = 0;
  for (int i = 0; i < 4; i++) {
    u64 p, q;
    __builtin_memcpy(&p, x + i, 8);
    __builtin_memcpy(&q, y + i, 8);
    d |= p ^ q;
  }
  return d == 0;
}

// key_lt compares keys as byte strings (Pubkey's Ord).
static inline bool key_lt(const Pubkey *a, const Pubkey *b) {
  for (int i = 0; i < 32; i++) {
    if (a->x[i] != b->x[i]) return a->x[i] < b->x[i];
  }
  return false;
}

static inline u64 rd64(const u8 *p) {
  u64 v;
  __builtin_memcpy(&v, p, 8);
  return v;
}
static inline void wr64(u8 *p, u64 v) { __builtin_memcpy(p, &v, 8); }
static inline u16 rd16(const u8 *p) { return (u16)(p[0] | (u16)p[1] << 8); }
static inline void wr16(u8 *p, u16 v) {
  p[0] = (u8)v;
  p[1] = (u8)(v >> 8);
}
static inline u32 rd32(const u8 *p) { return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24; }

static inline void log_str(const char *s) {
  u64 n = 0;
  while (s[n]) n++;
  sol_log_(s, n);
}

// fmt_u64 writes v in decimal at p and returns the position after it.
static char *fmt_u64(char *p, u64 v) {
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = tmp[--n];
  return p;
}

static char *fmt_str(char *p, const char *s) {
  while (*s) *p++ = *s++;
  return p;
}

#define PANIC(msg) sol_panic_(msg, sizeof(msg) - 1, __LINE__, 0)

#endif
