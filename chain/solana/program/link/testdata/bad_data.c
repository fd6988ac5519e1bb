// bad_data.c: a writable global, which an SBPF program cannot have.
unsigned long counter;
unsigned long entrypoint(const unsigned char *input) { return ++counter + input[0]; }
