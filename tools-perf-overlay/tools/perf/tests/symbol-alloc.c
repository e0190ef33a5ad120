// SPDX-License-Identifier: GPL-2.0
/*
 * symbol__new() and symbol__delete() of many symbols at once: names of
 * many lengths, some too long to share memory with other symbols, deleted
 * out of order and made again; every symbol must keep what it was given.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include "debug.h"
#include "symbol.h"
#include "tests.h"

#define NR_SYMS		20000
#define LONG_NAME	5000

static size_t name_len(int i)
{
	/* Every 1000th name longer than a shared chunk takes. */
	return i % 1000 == 999 ? LONG_NAME + i % 7 : 1 + (i * 37) % 300;
}

static void make_name(char *buf, int i, int round)
{
	size_t len = name_len(i);

	memset(buf, 'a' + (i + round) % 26, len);
	buf[len] = '\0';
}

static int check_symbol(struct symbol *sym, int i, int round, char *buf)
{
	make_name(buf, i, round);
	if (sym->start != (u64)i * 16 || sym->end != (u64)i * 16 + 16 ||
	    symbol__type(sym) != STT_FUNC || symbol__binding(sym) != STB_GLOBAL ||
	    sym->namelen != strlen(buf) || strcmp(sym->name, buf)) {
		pr_debug("symbol %d (round %d) changed: %#" PRIx64 "-%#" PRIx64 " %.20s\n",
			 i, round, sym->start, sym->end, sym->name);
		return -1;
	}
	return 0;
}

static int test__symbol_alloc(struct test_suite *test __maybe_unused,
			      int subtest __maybe_unused)
{
	struct symbol **syms = calloc(NR_SYMS, sizeof(*syms));
	int *round = calloc(NR_SYMS, sizeof(*round));
	char *buf = malloc(LONG_NAME + 16);
	int i, ret = TEST_FAIL;

	if (!syms || !round || !buf)
		goto out;

	for (i = 0; i < NR_SYMS; i++) {
		make_name(buf, i, 0);
		syms[i] = symbol__new((u64)i * 16, 16, STB_GLOBAL, STT_FUNC, buf);
		if (!syms[i])
			goto out;
	}
	for (i = 0; i < NR_SYMS; i++)
		if (check_symbol(syms[i], i, 0, buf))
			goto out;

	/* Every third one goes and comes back with another name. */
	for (i = 0; i < NR_SYMS; i += 3) {
		symbol__delete(syms[i]);
		syms[i] = NULL;
	}
	for (i = 0; i < NR_SYMS; i += 3) {
		make_name(buf, i, 1);
		syms[i] = symbol__new((u64)i * 16, 16, STB_GLOBAL, STT_FUNC, buf);
		if (!syms[i])
			goto out;
		round[i] = 1;
	}
	for (i = 0; i < NR_SYMS; i++)
		if (check_symbol(syms[i], i, round[i], buf))
			goto out;
	ret = TEST_OK;
out:
	/* Newest first, as a dso may outlive the symbols made after its own. */
	for (i = NR_SYMS - 1; syms && i >= 0; i--)
		if (syms[i])
			symbol__delete(syms[i]);
	free(syms);
	free(round);
	free(buf);
	return ret;
}

DEFINE_SUITE("Symbol allocation", symbol_alloc);
