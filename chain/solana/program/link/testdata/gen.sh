#!/bin/sh
# Rebuilds the linker's test objects with Debian's clang (the .o files are committed so that the
# linker's tests need no compiler).
set -e
cd "$(dirname "$0")"
for f in hello bad_data bad_call; do
  clang -target bpfel -mcpu=v1 -O2 -ffreestanding -fno-builtin -c "$f.c" -o "$f.o"
done
