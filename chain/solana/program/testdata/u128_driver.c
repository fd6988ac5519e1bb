// u128_driver.c: runs src/u128.h natively for u128_test.go. Each input line is an operation and
// two operands as hex limbs ("mul AHI ALO BHI BLO"); each output line is the result: "ok HI LO"
// (and for div, the remainder "ok QHI QLO RHI RLO"), or "none" where the checked operation fails.
#include <stdio.h>
#include <string.h>
#include "../src/u128.h"

int main(void) {
  char op[16];
  unsigned long long ahi, alo, bhi, blo;
  while (scanf("%15s %llx %llx %llx %llx", op, &ahi, &alo, &bhi, &blo) == 5) {
    u128 a = {alo, ahi}, b = {blo, bhi}, r = {0, 0}, m = {0, 0};
    int ok = 1;
    if (!strcmp(op, "add")) ok = u128_add(&r, &a, &b);
    else if (!strcmp(op, "sub")) ok = u128_sub(&r, &a, &b);
    else if (!strcmp(op, "mul")) ok = u128_mul(&r, &a, &b);
    else if (!strcmp(op, "mul64")) u128_mul64x64(&r, alo, blo);
    else if (!strcmp(op, "div")) ok = u128_divmod(&r, &m, &a, &b);
    else if (!strcmp(op, "sqrt")) r = u128_of(u128_isqrt(&a));
    else if (!strcmp(op, "cmp")) r = u128_of((unsigned long long)(long long)u128_cmp(&a, &b));
    else return 2;
    if (!ok) printf("none\n");
    else if (!strcmp(op, "div")) printf("ok %llx %llx %llx %llx\n", (unsigned long long)r.hi, (unsigned long long)r.lo, (unsigned long long)m.hi, (unsigned long long)m.lo);
    else printf("ok %llx %llx\n", (unsigned long long)r.hi, (unsigned long long)r.lo);
  }
  return 0;
}
