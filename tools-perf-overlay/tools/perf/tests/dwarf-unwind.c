// SPDX-License-Identifier: GPL-2.0
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/zalloc.h>
#include <inttypes.h>
#include <limits.h>
#include <unistd.h>
#include "tests.h"
#include "debug.h"
#include "env.h"
#include "machine.h"
#include "event.h"
#include "../util/unwind.h"
#ifdef HAVE_LIBDW_SUPPORT
#include "../util/unwind-libdw.h"
#endif
#include "perf_regs.h"
#include "map.h"
#include "maps.h"
#include "symbol.h"
#include "thread.h"
#include "callchain.h"
#include "symbol_conf.h"
#if defined(HAVE_LIBDW_SUPPORT) && defined(__x86_64__)
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "../util/libdw.h"
#endif

/* For bsearch. We try to unwind functions in shared object. */
#include <stdlib.h>

/*
 * The test will assert frames are on the stack but tail call optimizations lose
 * the frame of the caller. Clang can disable this optimization on a called
 * function but GCC currently (11/2020) lacks this attribute. The barrier is
 * used to inhibit tail calls in these cases.
 */
#ifdef __has_attribute
#if __has_attribute(disable_tail_calls)
#define NO_TAIL_CALL_ATTRIBUTE __attribute__((disable_tail_calls))
#define NO_TAIL_CALL_BARRIER
#endif
#endif
#ifndef NO_TAIL_CALL_ATTRIBUTE
#define NO_TAIL_CALL_ATTRIBUTE
#define NO_TAIL_CALL_BARRIER __asm__ __volatile__("" : : : "memory");
#endif

/*
 * We need to keep these functions global, despite the
 * fact that they are used only locally in this object,
 * in order to keep them around even if the binary is
 * stripped. If they are gone, the unwind check for
 * symbol fails.
 */
int test_dwarf_unwind__thread(struct thread *thread);
int test_dwarf_unwind__compare(void *p1, void *p2);
int test_dwarf_unwind__krava_3(struct thread *thread);
int test_dwarf_unwind__krava_2(struct thread *thread);
int test_dwarf_unwind__krava_1(struct thread *thread);
int test__dwarf_unwind(struct test_suite *test, int subtest);

#define MAX_STACK 8

static int unwind_entry(struct unwind_entry *entry, void *arg)
{
	unsigned long *cnt = (unsigned long *) arg;
	char *symbol = entry->ms.sym ? entry->ms.sym->name : NULL;
	static const char *funcs[MAX_STACK] = {
		"test__arch_unwind_sample",
		"test_dwarf_unwind__thread",
		"test_dwarf_unwind__compare",
		"bsearch",
		"test_dwarf_unwind__krava_3",
		"test_dwarf_unwind__krava_2",
		"test_dwarf_unwind__krava_1",
		"test__dwarf_unwind"
	};
	/*
	 * The funcs[MAX_STACK] array index, based on the
	 * callchain order setup.
	 */
	int idx = callchain_param.order == ORDER_CALLER ?
		  MAX_STACK - *cnt - 1 : *cnt;

	if (*cnt >= MAX_STACK) {
		pr_debug("failed: crossed the max stack value %d\n", MAX_STACK);
		return -1;
	}

	if (!symbol) {
		pr_debug("failed: got unresolved address 0x%" PRIx64 "\n",
			 entry->ip);
		return -1;
	}

	(*cnt)++;
	pr_debug("got: %s 0x%" PRIx64 ", expecting %s\n",
		 symbol, entry->ip, funcs[idx]);
	return strcmp((const char *) symbol, funcs[idx]);
}

/*
 * With truncated_stack the sample carries no stack memory, as when the stack
 * dump of a sample is cut short: the unwinder must still report the frames
 * it got before it could not read on (the sampled function), not none.
 */
static bool truncated_stack;

NO_TAIL_CALL_ATTRIBUTE noinline int test_dwarf_unwind__thread(struct thread *thread)
{
	struct perf_sample sample;
	unsigned long cnt = 0;
	int err = -1;

	perf_sample__init(&sample, /*all=*/true);
	if (test__arch_unwind_sample(&sample, thread)) {
		pr_debug("failed to get unwind sample\n");
		goto out;
	}
	if (truncated_stack)
		sample.user_stack.size = 0;

	err = unwind__get_entries(unwind_entry, &cnt, thread,
				  &sample, MAX_STACK, false);
	if (err)
		pr_debug("unwind failed\n");
	else if (truncated_stack && (cnt < 1 || cnt >= MAX_STACK)) {
		pr_debug("got %lu stack entries from a truncated stack, expected 1 to %d\n",
			 cnt, MAX_STACK - 1);
		err = -1;
	} else if (!truncated_stack && cnt != MAX_STACK) {
		pr_debug("got wrong number of stack entries %lu != %d\n",
			 cnt, MAX_STACK);
		err = -1;
	}

 out:
	zfree(&sample.user_stack.data);
	zfree(&sample.user_regs->regs);
	perf_sample__exit(&sample);
	return err;
}

static int global_unwind_retval = -INT_MAX;

NO_TAIL_CALL_ATTRIBUTE noinline int test_dwarf_unwind__compare(void *p1, void *p2)
{
	/* Any possible value should be 'thread' */
	struct thread *thread = *(struct thread **)p1;

	if (global_unwind_retval == -INT_MAX) {
		/* Call unwinder twice for both callchain orders. */
		callchain_param.order = ORDER_CALLER;

		global_unwind_retval = test_dwarf_unwind__thread(thread);
		if (!global_unwind_retval) {
			callchain_param.order = ORDER_CALLEE;
			global_unwind_retval = test_dwarf_unwind__thread(thread);
		}
		/* A truncated chain is checked from the callee on. */
		if (!global_unwind_retval) {
			truncated_stack = true;
			global_unwind_retval = test_dwarf_unwind__thread(thread);
			truncated_stack = false;
		}
	}

	return p1 - p2;
}

NO_TAIL_CALL_ATTRIBUTE noinline int test_dwarf_unwind__krava_3(struct thread *thread)
{
	struct thread *array[2] = {thread, thread};
	void *fp = &bsearch;
	/*
	 * make _bsearch a volatile function pointer to
	 * prevent potential optimization, which may expand
	 * bsearch and call compare directly from this function,
	 * instead of libc shared object.
	 */
	void *(*volatile _bsearch)(void *, void *, size_t,
			size_t, int (*)(void *, void *));

	_bsearch = fp;
	_bsearch(array, &thread, 2, sizeof(struct thread **),
		 test_dwarf_unwind__compare);
	return global_unwind_retval;
}

NO_TAIL_CALL_ATTRIBUTE noinline int test_dwarf_unwind__krava_2(struct thread *thread)
{
	int ret;

	ret =  test_dwarf_unwind__krava_3(thread);
	NO_TAIL_CALL_BARRIER;
	return ret;
}

NO_TAIL_CALL_ATTRIBUTE noinline int test_dwarf_unwind__krava_1(struct thread *thread)
{
	int ret;

	ret =  test_dwarf_unwind__krava_2(thread);
	NO_TAIL_CALL_BARRIER;
	return ret;
}

#if defined(HAVE_LIBDW_SUPPORT) && defined(__x86_64__)
/*
 * dso__libdw_frame(), the CFI lookup of powerpc's callchain skipping, on
 * x86_64: at the first instruction of a function of perf, the CFA is the
 * stack pointer (DWARF register 7) plus 8.
 */
static int test_dwarf_unwind__libdw_frame(struct thread *thread)
{
	u64 ip = (u64)(uintptr_t)test_dwarf_unwind__krava_1;
	Dwarf_Frame *frame = NULL;
	struct addr_location al;
	Dwarf_Op *ops;
	size_t nops;
	int err = -1;

	addr_location__init(&al);
	if (thread__find_map(thread, PERF_RECORD_MISC_USER, ip, &al))
		frame = dso__libdw_frame(map__dso(al.map),
					 map__rip_2objdump(al.map, map__map_ip(al.map, ip)));
	if (frame && !dwarf_frame_cfa(frame, &ops, &nops) && nops == 1 &&
	    ops[0].atom == DW_OP_bregx && ops[0].number == 7 && ops[0].number2 == 8)
		err = 0;
	else
		pr_debug("no frame, or not CFA = rsp + 8, for %#" PRIx64 "\n", ip);
	free(frame);
	addr_location__exit(&al);
	return err;
}
#endif

#ifdef HAVE_LIBDW_SUPPORT
/*
 * The libdw unwinder's symbol cache: the unwinds of test_dwarf_unwind__krava_1()
 * come back to the same frames, the second and later from the cache, and
 * still find the same chains.
 */
static int test_dwarf_unwind__libdw_symcache(struct thread *thread)
{
	struct maps *maps = thread__maps(thread);
	u64 hits, misses;
	int err;

	memset(symbol_conf.unwind_style, 0, sizeof(symbol_conf.unwind_style));
	symbol_conf.unwind_style[0] = UNWIND_STYLE_LIBDW;
	/* A fresh Dwfl, and symbol cache. */
	libdw__invalidate_dwfl(maps, maps__libdw_addr_space_dwfl(maps));
	global_unwind_retval = -INT_MAX;
	err = test_dwarf_unwind__krava_1(thread);
	libdw__unwind_symcache_stats(maps, &hits, &misses);
	pr_debug("symbol cache: %llu hits, %llu misses\n",
		 (unsigned long long)hits, (unsigned long long)misses);
	if (!err && (hits < MAX_STACK || !misses)) {
		pr_debug("expected the repeated frames to hit the symbol cache\n");
		err = -1;
	}
	return err;
}
#endif

noinline int test__dwarf_unwind(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	struct perf_env host_env;
	struct machine *machine;
	struct thread *thread;
	static const enum unwind_style styles[] = {
#ifdef HAVE_LIBDW_SUPPORT
		UNWIND_STYLE_LIBDW,
#endif
#ifdef HAVE_LIBUNWIND_SUPPORT
		UNWIND_STYLE_LIBUNWIND,
#endif
	};
	enum unwind_style saved_styles[MAX_UNWIND_STYLE];
	int err = -1;
	pid_t pid = getpid();

	memcpy(saved_styles, symbol_conf.unwind_style, sizeof(saved_styles));
	callchain_param.record_mode = CALLCHAIN_DWARF;
	dwarf_callchain_users = true;

	perf_env__init(&host_env);
	machine = machine__new_live(&host_env, /*kernel_maps=*/true, pid);
	if (!machine) {
		pr_err("Could not get machine\n");
		goto out;
	}

	if (machine__create_kernel_maps(machine)) {
		pr_err("Failed to create kernel maps\n");
		goto out;
	}

	if (verbose > 1)
		machine__fprintf(machine, stderr);

	thread = machine__find_thread(machine, pid, pid);
	if (!thread) {
		pr_err("Could not get thread\n");
		goto out;
	}

#if defined(HAVE_LIBDW_SUPPORT) && defined(__x86_64__)
	if (test_dwarf_unwind__libdw_frame(thread)) {
		thread__put(thread);
		err = -1;
		goto out;
	}
#endif
	/* Check every unwinder built in, not only the first that succeeds. */
	err = 0;
	for (size_t i = 0; i < ARRAY_SIZE(styles) && !err; i++) {
		memset(symbol_conf.unwind_style, 0, sizeof(symbol_conf.unwind_style));
		symbol_conf.unwind_style[0] = styles[i];
		global_unwind_retval = -INT_MAX;
		pr_debug("unwind style: %s\n",
			 styles[i] == UNWIND_STYLE_LIBDW ? "libdw" : "libunwind");
		err = test_dwarf_unwind__krava_1(thread);
	}
#ifdef HAVE_LIBDW_SUPPORT
	if (!err)
		err = test_dwarf_unwind__libdw_symcache(thread);
#endif
	memcpy(symbol_conf.unwind_style, saved_styles, sizeof(saved_styles));
	thread__put(thread);

 out:
	machine__delete(machine);
	perf_env__exit(&host_env);
	return err;
}

DEFINE_SUITE("Test dwarf unwind", dwarf_unwind);
