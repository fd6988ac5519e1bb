// hello.c: the linker's test program. It uses what the linker relocates: read-only strings and a
// table (ld_imm64 with an addend), a static call (resolved by clang), a call of a global function
// (relocated by the linker) and syscalls (relocated by name). Built by gen.sh.
typedef unsigned long u64;

extern void sol_log_(const char *, u64);
extern void sol_log_64_(u64, u64, u64, u64, u64);
extern void *sol_memcpy_(void *, const void *, u64);

struct pair {
  u64 a, b;
};
static const struct pair table[4] = {{1, 10}, {2, 20}, {3, 30}, {4, 40}};

__attribute__((noinline)) static u64 pick(u64 i) { return table[i & 3].b; }

__attribute__((noinline)) u64 twice(u64 x) {
  sol_log_("twice", 5);
  return 2 * pick(x);
}

u64 log_name(u64 i);

u64 entrypoint(const unsigned char *input) {
  static const char hello[] = "hello from C";
  sol_log_(hello, sizeof hello - 1);
  u64 n;
  sol_memcpy_(&n, input, 8); // the number of accounts
  sol_log_64_(twice(2), table[3].a, n, 0, 0x5eed);
  log_name(1);
  return 0;
}

// A table of pointers in read-only data (R_BPF_64_ABS64 in .rel.rodata): the linker writes each
// string's address in the program region.
static const char *const names[] = {"first", "second"};
__attribute__((noinline)) u64 log_name(u64 i) {
  const char *s = names[i & 1];
  u64 n = 0;
  while (s[n]) n++;
  sol_log_(s, n);
  return n;
}
