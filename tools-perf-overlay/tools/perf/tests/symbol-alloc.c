// SPDX-License-Identifier: GPL-2.0
/*
 * symbol__new() and symbol__delete() of many symbols, as dso__load() makes
 * them (carved out of shared chunks) and outside it: names of many lengths,
 * some too long for a chunk, deleted out of order and made again, made by a
 * thread that exits before they are deleted. Every symbol must keep what it
 * was given, and the chunks must go with their last symbol.
 */
#include <elf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <internal/rc_check.h>
#include "debug.h"
#include "symbol.h"
#include "tests.h"

#define NR_SYMS		20000
/* Longer than a chunk takes (a sixteenth of 64 KiB, symbol.c). */
#define LONG_NAME	5000

/* Reference count checking (ASan, LSan builds) carves nothing: symbol.c. */
#ifdef REFCNT_CHECKING
#define CARVING false
#else
#define CARVING true
#endif

struct syms {
	struct symbol	*sym[NR_SYMS];
	int		round[NR_SYMS];
	char		buf[LONG_NAME + 16];
};

static size_t name_len(int i)
{
	/* Every 1000th name is too long for a chunk. */
	return i % 1000 == 999 ? LONG_NAME + i % 7 : 1 + (i * 37) % 300;
}

static const char *make_name(struct syms *s, int i)
{
	size_t len = name_len(i);

	memset(s->buf, 'a' + (i + s->round[i]) % 26, len);
	s->buf[len] = '\0';
	return s->buf;
}

static int make_symbol(struct syms *s, int i)
{
	s->sym[i] = symbol__new((u64)i * 16, 16, STB_GLOBAL, STT_FUNC, make_name(s, i));
	return s->sym[i] ? 0 : -1;
}

static int make_symbols(struct syms *s)
{
	int i;

	for (i = 0; i < NR_SYMS; i++)
		if (make_symbol(s, i))
			return -1;
	return 0;
}

static int check_symbols(struct syms *s)
{
	int i;

	for (i = 0; i < NR_SYMS; i++) {
		struct symbol *sym = s->sym[i];
		const char *name = make_name(s, i);

		if (sym->start != (u64)i * 16 || sym->end != (u64)i * 16 + 16 ||
		    symbol__type(sym) != STT_FUNC || symbol__binding(sym) != STB_GLOBAL ||
		    sym->namelen != strlen(name) || strcmp(sym->name, name)) {
			pr_debug("symbol %d (round %d) changed: %#" PRIx64 "-%#" PRIx64 " %.20s\n",
				 i, s->round[i], sym->start, sym->end, sym->name);
			return -1;
		}
	}
	return 0;
}

/* Made in a load: carved, but for the long names; else not. */
static int check_carved(struct syms *s, bool in_load, int chunks)
{
	int i, now = symbols__nr_chunks();

	for (i = 0; i < NR_SYMS; i++) {
		bool carved = atomic_load_explicit(&s->sym[i]->flags, memory_order_relaxed) &
			      SYMBOL_FLAG_CHUNK;

		if (carved != (CARVING && in_load && name_len(i) < LONG_NAME)) {
			pr_debug("symbol %d %scarved\n", i, carved ? "" : "not ");
			return -1;
		}
	}
	if (CARVING && in_load ? now <= chunks : now != chunks) {
		pr_debug("%d chunks, %d before\n", now, chunks);
		return -1;
	}
	return 0;
}

static void delete_symbols(struct syms *s)
{
	int i;

	for (i = NR_SYMS - 1; i >= 0; i--) {
		if (s->sym[i])
			symbol__delete(s->sym[i]);
		s->sym[i] = NULL;
	}
}

/* Made, every third one deleted and made again with another name. */
static int symbols_remade(bool in_load)
{
	struct syms *s = calloc(1, sizeof(*s));
	int i, ret = TEST_FAIL, chunks = symbols__nr_chunks();

	if (!s)
		return TEST_FAIL;
	if (in_load)
		symbols__load_begin();
	if (make_symbols(s) || check_symbols(s) || check_carved(s, in_load, chunks))
		goto out;
	for (i = 0; i < NR_SYMS; i += 3) {
		symbol__delete(s->sym[i]);
		s->round[i] = 1;
		if (make_symbol(s, i))
			goto out;
	}
	if (check_symbols(s))
		goto out;
	ret = TEST_OK;
out:
	if (in_load)
		symbols__load_end();
	delete_symbols(s);
	free(s);
	/* All gone but the one this thread carves from. */
	if (symbols__nr_chunks() > chunks + 1) {
		pr_debug("%d chunks left, %d before\n", symbols__nr_chunks(), chunks);
		ret = TEST_FAIL;
	}
	return ret;
}

static int test__symbol_alloc_load(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	return symbols_remade(/*in_load=*/true);
}

static int test__symbol_alloc_alone(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	return symbols_remade(/*in_load=*/false);
}

static void *thread_load(void *arg)
{
	struct syms *s = arg;
	int ret;

	symbols__load_begin();
	ret = make_symbols(s);
	symbols__load_end();
	return ret ? s : NULL;
}

static int test__symbol_alloc_thread(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct syms *s = calloc(1, sizeof(*s));
	int ret = TEST_FAIL, chunks = symbols__nr_chunks();
	pthread_t thread;
	void *err;

	if (!s)
		return TEST_FAIL;
	if (pthread_create(&thread, NULL, thread_load, s))
		goto out;
	if (pthread_join(thread, &err) || err)
		goto out;
	if (check_symbols(s) || check_carved(s, /*in_load=*/true, chunks))
		goto out;
	ret = TEST_OK;
out:
	delete_symbols(s);
	free(s);
	/* The thread's chunks go with its symbols, its last one at its exit. */
	if (symbols__nr_chunks() != chunks) {
		pr_debug("%d chunks left, %d before\n", symbols__nr_chunks(), chunks);
		ret = TEST_FAIL;
	}
	return ret;
}

static struct test_case tests__symbol_alloc[] = {
	TEST_CASE("made by a load, deleted out of order, made again", symbol_alloc_load),
	TEST_CASE("made outside a load", symbol_alloc_alone),
	TEST_CASE("made by a thread that exits", symbol_alloc_thread),
	{ .name = NULL, }
};

struct test_suite suite__symbol_alloc = {
	.desc = "Symbol allocation",
	.test_cases = tests__symbol_alloc,
};
