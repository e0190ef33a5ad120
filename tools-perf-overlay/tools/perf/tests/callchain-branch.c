// SPDX-License-Identifier: GPL-2.0
/*
 * The branch counts of call chain entries, as perf report --branch-history
 * prints them: chains with and without branch flags merged into one call
 * graph, an entry whose first chains counted no branch, and the copies of
 * its parents' entries a node of the TUI's flat and folded call graphs
 * gets (callchain_node__make_parent_list()), freed with the graph.
 */
#include <elf.h>
#include <inttypes.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/rbtree.h>
#include <linux/perf_event.h>
#include "branch.h"
#include "callchain.h"
#include "debug.h"
#include "dso.h"
#include "map.h"
#include "map_symbol.h"
#include "symbol.h"
#include "symbol_conf.h"
#include "tests.h"

#define MAP_START	0x400000ULL

struct entry {
	u64 ip;
	bool branch;
	u64 branch_from;	/* not 0: the entry is a branch's target */
	struct branch_flags flags;
	int nr_loop_iter;
	u64 iter_cycles;
};

#define TO(_ip, _from, ...)	{ .ip = _ip, .branch = true, .branch_from = _from, \
				  .flags = { __VA_ARGS__ } }
#define FROM(_ip, _cycles, _iter, _iter_cycles) \
	{ .ip = _ip, .branch = true, .flags = { .cycles = _cycles }, \
	  .nr_loop_iter = _iter, .iter_cycles = _iter_cycles }
#define PLAIN(_ip)		{ .ip = _ip }

/* Four chains, callee first; the third splits the path after 0x10. */
static const struct entry chains[][3] = {
	{ TO(0x10, 0x120, .predicted = 1, .type = PERF_BR_CALL),
	  FROM(0x20, 10, 2, 20), PLAIN(0x30) },
	{ TO(0x10, 0x120, .abort = 1, .type = PERF_BR_COND),
	  FROM(0x20, 30, 0, 0), PLAIN(0x30) },
	{ PLAIN(0x10), TO(0x40, 0x10, .predicted = 1, .type = PERF_BR_RET), PLAIN(0x50) },
	{ PLAIN(0x10), PLAIN(0x20), FROM(0x30, 8, 1, 4) },
};

/*
 * Each entry of the graph, parents first, as perf report prints its counts;
 * a node's children as its rb-tree orders them by their first entries'
 * addresses (match_chain(): 0x40 before 0x20). The
 * entry at 0x20 prints iter:2 for two "from" samples of 2 and 0 iterations:
 * fill_node() leaves from_count at 0 for the first, as it always did.
 */
static const char * const expected[] = {
	"0x10 (COND_BWD CALL predicted:50.0% abort:50.0%)",
	"0x40 (RET)",
	"0x50 (calltrace)",
	"0x20 (cycles:20 iter:2 avg_cycles:10)",
	"0x30 (cycles:8 iter:1 avg_cycles:4)",
};

static int check_entry(struct callchain_list *chain, size_t *nr)
{
	char counts[256], line[300];
	int ret = 0;

	callchain_list_counts__printf_value(chain, NULL, counts, sizeof(counts));
	scnprintf(line, sizeof(line), "%#" PRIx64 "%s", chain->ip - MAP_START, counts);
	pr_debug("%s\n", line);
	if (*nr >= ARRAY_SIZE(expected) || strcmp(line, expected[*nr])) {
		pr_debug("expected: %s\n", *nr < ARRAY_SIZE(expected) ? expected[*nr] : "(none)");
		ret = -1;
	}
	(*nr)++;
	return ret;
}

static int check_node(struct callchain_node *node, size_t *nr)
{
	struct callchain_list *chain;
	struct rb_node *nd;
	int ret = 0;

	list_for_each_entry(chain, &node->val, list)
		ret |= check_entry(chain, nr);
	for (nd = rb_first(&node->rb_root_in); nd; nd = rb_next(nd))
		ret |= check_node(rb_entry(nd, struct callchain_node, rb_node_in), nr);
	return ret;
}

/* The entries a child's flat call graph prints above its own: its parents'. */
static int check_parent_list(struct callchain_node *child)
{
	struct callchain_list *chain;
	size_t nr = 0;

	if (callchain_node__make_parent_list(child))
		return -1;
	list_for_each_entry(chain, &child->parent_val, list) {
		if (check_entry(chain, &nr))
			return -1;
	}
	return nr == 1 ? 0 : -1;
}

static int test__callchain_branch(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	struct callchain_cursor cursor = { .last = &cursor.first };
	u64 branch_count, predicted_count, abort_count, cycles_count;
	struct dso *dso = dso__new("/callchain-branch-test");
	bool saved_use = symbol_conf.use_callchain;
	enum chain_key saved_key = callchain_param.key;
	struct callchain_root root;
	struct callchain_node *node;
	struct map *map = NULL;
	struct symbol *sym = NULL;
	int ret = TEST_FAIL;
	size_t nr = 0;

	callchain_init(&root);
	if (!dso)
		return TEST_FAIL;
	map = map__new2(MAP_START, dso);
	sym = symbol__new(/*start=*/0, /*len=*/0x100, STB_GLOBAL, STT_FUNC, "func");
	if (!map || !sym)
		goto out;

	symbol_conf.use_callchain = true;
	callchain_param.key = CCKEY_ADDRESS;
	for (size_t i = 0; i < ARRAY_SIZE(chains); i++) {
		callchain_cursor_reset(&cursor);
		for (size_t j = 0; j < ARRAY_SIZE(chains[i]); j++) {
			const struct entry *e = &chains[i][j];
			struct map_symbol ms = { .map = map, .sym = sym };
			struct branch_flags flags = e->flags;

			if (callchain_cursor_append(&cursor, MAP_START + e->ip, &ms, e->branch,
						    &flags, e->nr_loop_iter, e->iter_cycles,
						    e->branch_from ? MAP_START + e->branch_from : 0,
						    NULL))
				goto out;
		}
		if (callchain_append(&root, &cursor, /*period=*/1))
			goto out;
	}

	if (check_node(&root.node, &nr) || nr != ARRAY_SIZE(expected))
		goto out;

	/* The totals of the graph, then a path below the entry at 0x10. */
	if (callchain_branch_counts(&root, &branch_count, &predicted_count, &abort_count,
				    &cycles_count) ||
	    branch_count != 6 || predicted_count != 2 || abort_count != 1 || cycles_count != 48) {
		pr_debug("branch counts %" PRIu64 ", predicted %" PRIu64 ", abort %" PRIu64
			 ", cycles %" PRIu64 "\n",
			 branch_count, predicted_count, abort_count, cycles_count);
		goto out;
	}
	node = rb_entry(rb_first(&root.node.rb_root_in), struct callchain_node, rb_node_in);
	node = rb_entry(rb_last(&node->rb_root_in), struct callchain_node, rb_node_in);
	if (check_parent_list(node))
		goto out;
	ret = TEST_OK;
out:
	free_callchain(&root);
	callchain_cursor_cleanup(&cursor);
	callchain_param.key = saved_key;
	symbol_conf.use_callchain = saved_use;
	if (sym)
		symbol__delete(sym);
	map__put(map);
	dso__put(dso);
	return ret;
}

DEFINE_SUITE("Branch counts of call chain entries", callchain_branch);
