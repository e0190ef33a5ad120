/* SPDX-License-Identifier: GPL-2.0 */
/* What the libFuzzer harnesses of tests/fuzz share (fuzz-common.c). */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The input's file: <fuzz_dir>/libfuzz.so, a plain library's name. */
extern char fuzz_file[96];
/* The harness's <NAME>_VERBOSE is set: print what it found. */
extern bool fuzz_verbose;

/*
 * A directory of this process under /tmp for the input's file and a
 * build-id cache that keeps nothing, no debuginfod, perf's symbols set
 * up; exits on failure.
 */
void fuzz_setup(const char *name, const char *verbose_env);
/* Writes the input to fuzz_file: 0, or -1. */
int fuzz_write(const uint8_t *data, size_t size);

#endif
