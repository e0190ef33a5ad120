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

#define FUZZ_MAX_SYMS	8

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


struct fuzz_sym {
	u64	start;
	u64	len;
	u8	binding;
	u8	type;
	char	name[64];
};

int LLVMFuzzerInitialize(int *argc __maybe_unused, char ***argv __maybe_unused)
{
	fuzz_setup("srcline", "FUZZ_SRCLINE_VERBOSE");
	/* libdw only: never fork addr2line, never LLVM or libbfd. */
	addr2line_configure("addr2line.style", "libdw", NULL);
	return 0;
}

/* The entry point and the first function symbols of the input, with libelf. */
static int fuzz_syms(const uint8_t *data, size_t size, u64 *entry,
		     struct fuzz_sym *syms)
{
	Elf *elf = elf_memory((char *)data, size);
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	int nr = 0;

	*entry = 0;
	if (!elf)
		return 0;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr))
		goto out;
	*entry = ehdr.e_entry;

	while (nr < FUZZ_MAX_SYMS && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM) ||
		    !shdr.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		n = shdr.sh_size / shdr.sh_entsize;
		for (i = 0; i < n && nr < FUZZ_MAX_SYMS; i++) {
			const char *name;
			GElf_Sym sym;

			if (!gelf_getsym(d, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_value)
				continue;
			name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			syms[nr].start = sym.st_value;
			syms[nr].len = sym.st_size;
			syms[nr].binding = GELF_ST_BIND(sym.st_info);
			syms[nr].type = STT_FUNC;
			snprintf(syms[nr].name, sizeof(syms[nr].name), "%s", name ?: "");
			nr++;
		}
	}
out:
	elf_end(elf);
	return nr;
}

static void fuzz_lookup(struct dso *dso, u64 addr, struct symbol *sym)
{
	struct inline_node *node;
	unsigned int line = 0;
	char *file, *srcline;

	file = get_srcline_split(dso, addr, &line);
	if (fuzz_verbose)
		fprintf(stderr, "%#" PRIx64 " %s: %s:%u\n", addr, sym ? sym->name : "",
			file ?: "??", line);
	free(file);

	srcline = __get_srcline(dso, addr, sym, /*show_sym=*/true, /*show_addr=*/true,
				/*unwind_inlines=*/true, addr);
	zfree_srcline(&srcline);

	node = dso__parse_addr_inlines(dso, addr, sym);
	if (fuzz_verbose && node) {
		struct inline_list *ilist;

		list_for_each_entry(ilist, &node->val, list)
			fprintf(stderr, "\t%s %s\n", ilist->symbol ? ilist->symbol->name : "??",
				ilist->srcline ?: "");
	}
	inline_node__delete(node);
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

	for (i = 0; i < nr; i++) {
		struct symbol *sym = symbol__new(syms[i].start, syms[i].len,
						 syms[i].binding, syms[i].type,
						 syms[i].name);

		if (!sym)
			continue;
		fuzz_lookup(dso, sym->start, sym);
		fuzz_lookup(dso, sym->start + (syms[i].len / 2), sym);
		symbol__delete(sym);
	}

	dso__put(dso);
	return 0;
}
