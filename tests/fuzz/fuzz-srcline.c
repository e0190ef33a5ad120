// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for perf's libdw source line and inline frame lookups
 * (util/srcline.c, util/libdw.c, the decompression bomb check of
 * util/symbol-elf.c).
 *
 * Each input is an ELF file with its DWARF. It is written to a file of
 * this process, a dso is made for it, and a few addresses of it are looked
 * up as perf report, script and annotate do: get_srcline_split(),
 * __get_srcline() with inline frames, dso__parse_addr_inlines(). The
 * addresses are 8 spread over the first 64 KiB, the entry point, and the
 * start and middle of the first function symbols of the input's .symtab or
 * .dynsym (found with libelf here: perf's symbol loading is not what is
 * tested). Only the libdw addr2line style is used: nothing is forked.
 *
 * Build and run: scripts/fuzz.sh in the project (make fuzz).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/zalloc.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/srcline.h"
#include "util/symbol.h"
#include "util/symbol_conf.h"
#include "fuzz-common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc __maybe_unused, char ***argv __maybe_unused)
{
	fuzz_setup("srcline", "FUZZ_SRCLINE_VERBOSE");
	/* libdw only: never fork addr2line, never LLVM or libbfd. */
	addr2line_configure("addr2line.style", "libdw", NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_sym syms[FUZZ_MAX_SYMS];
	struct dso *dso;
	u64 entry;
	int i, nr;

	if (size < 64 || fuzz_write(data, size))
		return 0;

	nr = fuzz_syms(data, size, &entry, syms);

	dso = dso__new(fuzz_file);
	if (!dso)
		return 0;

	for (i = 0; i < 8; i++)
		fuzz_lookup(dso, i * 0x2000 + 0x40, NULL);
	fuzz_lookup(dso, entry, NULL);

	fuzz_lookup_syms(dso, syms, nr);

	dso__put(dso);
	return 0;
}
