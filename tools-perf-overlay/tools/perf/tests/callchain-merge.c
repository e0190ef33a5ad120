// SPDX-License-Identifier: GPL-2.0
/*
 * Chains through two maps of one dso must merge into one path of the call
 * graph: the same addresses of the same dso, whichever reference to the dso
 * each map holds. The references differ only with reference count checking
 * (ASan, LSan builds): elsewhere this passes with or without the fix.
 */
#include <elf.h>
#include <inttypes.h>
#include <linux/compiler.h>
#include <linux/rbtree.h>
#include "callchain.h"
#include "debug.h"
#include "dso.h"
#include "map.h"
#include "map_symbol.h"
#include "symbol.h"
#include "symbol_conf.h"
#include "tests.h"

#define MAP_START	0x400000ULL

/* Two chains of two frames, one through each map: how many paths result. */
static int merge_chains(struct map *map1, struct map *map2, struct symbol *sym,
			enum chain_key key, size_t *nr_paths, u64 *hits)
{
	struct callchain_cursor cursor = { .last = &cursor.first };
	struct map *maps[] = { map1, map2 };
	struct callchain_root root = {};
	struct rb_node *nd;
	enum chain_key saved_key = callchain_param.key;
	bool saved_use = symbol_conf.use_callchain;
	int ret = 0;

	callchain_param.key = key;
	symbol_conf.use_callchain = true;
	callchain_init(&root);
	for (size_t i = 0; i < ARRAY_SIZE(maps) && !ret; i++) {
		struct map_symbol ms = { .map = maps[i], .sym = sym };

		callchain_cursor_reset(&cursor);
		if (callchain_cursor_append(&cursor, MAP_START + 0x10, &ms, false, NULL,
					    0, 0, 0, NULL) ||
		    callchain_cursor_append(&cursor, MAP_START + 0x20, &ms, false, NULL,
					    0, 0, 0, NULL) ||
		    callchain_append(&root, &cursor, /*period=*/1))
			ret = -1;
	}
	*nr_paths = 0;
	*hits = 0;
	for (nd = rb_first(&root.node.rb_root_in); nd; nd = rb_next(nd)) {
		struct callchain_node *child = rb_entry(nd, struct callchain_node, rb_node_in);

		(*nr_paths)++;
		*hits += child->hit;
	}
	free_callchain(&root);
	callchain_cursor_cleanup(&cursor);
	callchain_param.key = saved_key;
	symbol_conf.use_callchain = saved_use;
	return ret;
}

static int test__callchain_merge(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	static const enum chain_key keys[] = { CCKEY_ADDRESS, CCKEY_FUNCTION };
	struct dso *dso = dso__new("/callchain-merge-test");
	struct map *map1 = NULL, *map2 = NULL;
	struct symbol *sym = NULL;
	int ret = TEST_FAIL;

	if (!dso)
		return TEST_FAIL;
	map1 = map__new2(MAP_START, dso);
	map2 = map__new2(MAP_START, dso);
	sym = symbol__new(/*start=*/0, /*len=*/0x100, STB_GLOBAL, STT_FUNC, "func");
	if (!map1 || !map2 || !sym)
		goto out;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		size_t nr_paths;
		u64 hits;

		if (merge_chains(map1, map2, sym, keys[i], &nr_paths, &hits))
			goto out;
		pr_debug("key %d: %zu paths, %" PRIu64 " hits\n", keys[i], nr_paths, hits);
		if (nr_paths != 1 || hits != 2) {
			pr_debug("chains of one dso through two maps not merged\n");
			goto out;
		}
	}
	ret = TEST_OK;
out:
	if (sym)
		symbol__delete(sym);
	map__put(map1);
	map__put(map2);
	dso__put(dso);
	return ret;
}

DEFINE_SUITE("Callchains of one dso through two maps", callchain_merge);
