// curve_driver.c: runs src/curve.h natively for curve_test.go. Each input line:
// "in|out AMOUNT X Y TRADE CREATOR PROTOCOL FUND ONINPUT" (decimal); each output line: "none",
// "panic", or "ok INPUT OUTPUT TRADEFEE PROTOCOLFEE FUNDFEE CREATORFEE NEWX NEWY" with each u128
// as "hi:lo" in hex.
#include <stdio.h>
#include <string.h>
#include "../src/curve.h"

static void p128(const u128 *v) { printf(" %llx:%llx", (unsigned long long)v->hi, (unsigned long long)v->lo); }

int main(void) {
  char op[8];
  unsigned long long amount, x, y, trade, creator, protocol, fund, on_input;
  while (scanf("%7s %llu %llu %llu %llu %llu %llu %llu %llu", op, &amount, &x, &y, &trade, &creator, &protocol, &fund, &on_input) == 9) {
    Rates rt = {trade, creator, protocol, fund, on_input != 0};
    SwapResult r;
    int e = !strcmp(op, "in") ? curve_swap_base_input(&r, amount, x, y, &rt) : curve_swap_base_output(&r, amount, x, y, &rt);
    if (e == CURVE_NONE) { printf("none\n"); continue; }
    if (e == CURVE_PANIC) { printf("panic\n"); continue; }
    printf("ok");
    p128(&r.input_amount); p128(&r.output_amount); p128(&r.trade_fee); p128(&r.protocol_fee);
    p128(&r.fund_fee); p128(&r.creator_fee); p128(&r.new_input_vault); p128(&r.new_output_vault);
    printf("\n");
  }
  return 0;
}
