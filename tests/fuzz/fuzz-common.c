// SPDX-License-Identifier: GPL-2.0
/* What the libFuzzer harnesses of tests/fuzz share, see fuzz-common.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <internal/lib.h>
#include <linux/zalloc.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/srcline.h"
#include "util/symbol.h"
#include "util/symbol_conf.h"
#include "fuzz-common.h"

static char fuzz_dir[64];
char fuzz_file[96];
bool fuzz_verbose;

static void fuzz_cleanup(void)
{
	unlink(fuzz_file);
	rmdir(fuzz_dir);
}

void fuzz_setup(const char *name, const char *verbose_env)
{
	char cache[128];

	snprintf(fuzz_dir, sizeof(fuzz_dir), "/tmp/fuzz-%s.%d", name, getpid());
	if (mkdir(fuzz_dir, 0700) && errno != EEXIST) {
		perror(fuzz_dir);
		exit(1);
	}
	/* Not a kernel, /tmp/perf-*.map nor /tmp/jitted-*: a plain library. */
	snprintf(fuzz_file, sizeof(fuzz_file), "%s/libfuzz.so", fuzz_dir);
	atexit(fuzz_cleanup);
	/* A build-id cache of our own, and nothing kept in it. */
	snprintf(cache, sizeof(cache), "%s/debug", fuzz_dir);
	set_buildid_dir(cache);
	buildid_uncompressed_debug = 0;
	/* libdwfl asks debuginfod for a missing debug file: not the network. */
	unsetenv("DEBUGINFOD_URLS");

	fuzz_verbose = getenv(verbose_env) != NULL;
	verbose = fuzz_verbose ? 1 : -1;
	symbol_conf.try_vmlinux_path = false;
	symbol_conf.demangle = true;
	if (symbol__init(NULL) < 0) {
		fprintf(stderr, "symbol__init failed\n");
		exit(1);
	}
}

int fuzz_write_file(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = writen(fd, data, size);
	close(fd);
	return n == (ssize_t)size ? 0 : -1;
}

int fuzz_write(const uint8_t *data, size_t size)
{
	return fuzz_write_file(fuzz_file, data, size);
}

/* The entry point and the first function symbols of the input, with libelf. */
int fuzz_syms(const uint8_t *data, size_t size, u64 *entry, struct fuzz_sym *syms)
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

void fuzz_lookup(struct dso *dso, u64 addr, struct symbol *sym)
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

void fuzz_lookup_syms(struct dso *dso, const struct fuzz_sym *syms, int nr)
{
	for (int i = 0; i < nr; i++) {
		struct symbol *sym = symbol__new(syms[i].start, syms[i].len,
						 syms[i].binding, syms[i].type,
						 syms[i].name);

		if (!sym)
			continue;
		fuzz_lookup(dso, sym->start, sym);
		fuzz_lookup(dso, sym->start + (syms[i].len / 2), sym);
		symbol__delete(sym);
	}
}
