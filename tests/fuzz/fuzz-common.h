/* SPDX-License-Identifier: GPL-2.0 */
/* What the libFuzzer harnesses of tests/fuzz share (fuzz-common.c). */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

struct dso;
struct symbol;

#define FUZZ_MAX_SYMS	8

/* A function symbol of the input, for symbol__new(). */
struct fuzz_sym {
	u64	start;
	u64	len;
	u8	binding;
	u8	type;
	char	name[64];
};

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
/* Writes size bytes of data to the file at path (created, or truncated): 0, or -1. */
int fuzz_write_file(const char *path, const void *data, size_t size);
/* Writes the input to fuzz_file: 0, or -1. */
int fuzz_write(const uint8_t *data, size_t size);

/*
 * The entry point and the first FUZZ_MAX_SYMS function symbols of the ELF
 * file in data, with libelf (perf's symbol loading is not what is tested):
 * how many.
 */
int fuzz_syms(const uint8_t *data, size_t size, u64 *entry, struct fuzz_sym *syms);
/*
 * Look addr of the dso up as perf report, script and annotate do:
 * get_srcline_split(), __get_srcline() with inline frames,
 * dso__parse_addr_inlines().
 */
void fuzz_lookup(struct dso *dso, u64 addr, struct symbol *sym);
/*
 * fuzz_lookup() at the start and the middle of each of the nr symbols, each
 * as the struct symbol perf's callers pass.
 */
void fuzz_lookup_syms(struct dso *dso, const struct fuzz_sym *syms, int nr);

#endif
