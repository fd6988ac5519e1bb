// bad_call.c: a call of a function that is neither defined nor a syscall.
extern unsigned long helper(unsigned long);
unsigned long entrypoint(const unsigned char *input) { return helper(input[0]); }
