// SPDX-License-Identifier: GPL-2.0
#include <linux/compiler.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <symbol/kallsyms.h>
#include "util/debug.h"
#include "tests.h"

/*
 * kallsyms__parse() hands each "<hex address> <type> <name>" line over as it
 * was: checked against a file whose lines cross its read buffer, with lines
 * of other forms, over-long names and lines, and no newline at the end; and
 * against stdio's reading of a copy of /proc/kallsyms.
 */

struct ksym {
	u64 addr;
	char type;
	char *name;
};

struct ksyms {
	struct ksym *syms;
	size_t nr, alloc;
	size_t stop_at;		/* return 1 (stop) after this many symbols */
};

static int ksyms__add(struct ksyms *ks, const char *name, char type, u64 addr)
{
	if (ks->nr == ks->alloc) {
		size_t alloc = ks->alloc ? ks->alloc * 2 : 1024;
		struct ksym *syms = realloc(ks->syms, alloc * sizeof(*syms));

		if (!syms)
			return -ENOMEM;
		ks->syms = syms;
		ks->alloc = alloc;
	}
	ks->syms[ks->nr].name = strdup(name);
	if (!ks->syms[ks->nr].name)
		return -ENOMEM;
	ks->syms[ks->nr].addr = addr;
	ks->syms[ks->nr].type = type;
	ks->nr++;
	return ks->stop_at && ks->nr == ks->stop_at ? 1 : 0;
}

static int ksyms__cb(void *arg, const char *name, char type, u64 start)
{
	return ksyms__add(arg, name, type, start);
}

static void ksyms__exit(struct ksyms *ks)
{
	for (size_t i = 0; i < ks->nr; i++)
		free(ks->syms[i].name);
	free(ks->syms);
	memset(ks, 0, sizeof(*ks));
}

static bool ksyms__equal(const struct ksyms *got, const struct ksyms *want)
{
	if (got->nr != want->nr) {
		pr_debug("%zu symbols parsed, %zu expected\n", got->nr, want->nr);
		return false;
	}
	for (size_t i = 0; i < got->nr; i++) {
		const struct ksym *a = &got->syms[i], *b = &want->syms[i];

		if (a->addr != b->addr || a->type != b->type || strcmp(a->name, b->name)) {
			pr_debug("symbol %zu: %#" PRIx64 " %c %.40s\n",
				 i, a->addr, a->type, a->name);
			pr_debug("expected: %#" PRIx64 " %c %.40s\n", b->addr, b->type, b->name);
			return false;
		}
	}
	return true;
}

/* Lines of 40 to 70 bytes: the 64 KiB read buffer ends mid-line often. */
#define NR_GENERATED 20000

static int test__kallsyms_parse_file(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	char path[] = "/tmp/perf-test-kallsyms.XXXXXX";
	struct ksyms want = { 0 }, got = { 0 };
	char *long_name = NULL;
	int ret = TEST_FAIL, fd;
	FILE *fp = NULL;
	size_t i;

	fd = mkstemp(path);
	if (fd < 0)
		return TEST_SKIP;
	fp = fdopen(fd, "w");
	if (!fp) {
		close(fd);
		goto out;
	}

	/* Longer than KSYM_NAME_LEN, then longer than the read buffer. */
	long_name = malloc(100 * 1024 + 1);
	if (!long_name)
		goto out;
	memset(long_name, 'x', 100 * 1024);
	long_name[100 * 1024] = '\0';

	for (i = 0; i < NR_GENERATED; i++) {
		u64 addr = 0xffffffff81000000ULL + i * 16;
		char name[64];

		snprintf(name, sizeof(name), "symbol_%zu%.*s", i, (int)(i % 31),
			 "_padding_padding_padding_paddin");
		if (i % 1000 == 7) {
			/* A module's symbol: its name carries the module. */
			strcat(name, "\t[mod]");
		}
		fprintf(fp, "%016" PRIx64 " %c %s\n", addr, i % 3 ? 't' : 'T', name);
		if (ksyms__add(&want, name, i % 3 ? 't' : 'T', addr) < 0)
			goto out;

		switch (i) {
		case 100:	/* lines of other forms are skipped, alone */
			fputs("\n", fp);
			fputs("not a symbol\n", fp);
			fputs("ffffffff81000000 T\n", fp);
			fputs("ffffffff81000000Tno_blank\n", fp);
			break;
		case 200:	/* a name cut at KSYM_NAME_LEN */
			long_name[KSYM_NAME_LEN + 100] = '\0';
			fprintf(fp, "ffffffff82000000 t %s\n", long_name);
			long_name[KSYM_NAME_LEN] = '\0';
			if (ksyms__add(&want, long_name, 't', 0xffffffff82000000ULL) < 0)
				goto out;
			long_name[KSYM_NAME_LEN] = 'x';
			long_name[KSYM_NAME_LEN + 100] = 'x';
			break;
		case 300:	/* a line longer than the read buffer, cut too */
			fprintf(fp, "ffffffff83000000 t %s\n", long_name);
			long_name[KSYM_NAME_LEN] = '\0';
			if (ksyms__add(&want, long_name, 't', 0xffffffff83000000ULL) < 0)
				goto out;
			long_name[KSYM_NAME_LEN] = 'x';
			break;
		default:
			break;
		}
	}
	/* The last line has no newline. */
	fputs("ffffffff84000000 T last_symbol", fp);
	if (ksyms__add(&want, "last_symbol", 'T', 0xffffffff84000000ULL) < 0)
		goto out;
	if (fclose(fp)) {
		fp = NULL;
		goto out;
	}
	fp = NULL;

	if (kallsyms__parse(path, &got, ksyms__cb) != 0) {
		pr_debug("kallsyms__parse() fails\n");
		goto out;
	}
	if (!ksyms__equal(&got, &want))
		goto out;

	/* A callback's non-zero return stops the walk and is returned. */
	ksyms__exit(&got);
	got.stop_at = NR_GENERATED / 2;
	if (kallsyms__parse(path, &got, ksyms__cb) != 1 || got.nr != NR_GENERATED / 2) {
		pr_debug("a callback's 1 did not stop the walk (%zu symbols)\n", got.nr);
		goto out;
	}

	ret = TEST_OK;
out:
	if (fp)
		fclose(fp);
	unlink(path);
	free(long_name);
	ksyms__exit(&want);
	ksyms__exit(&got);
	return ret;
}

static int test__kallsyms_parse_proc(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	char path[] = "/tmp/perf-test-kallsyms.XXXXXX";
	struct ksyms want = { 0 }, got = { 0 };
	int ret = TEST_FAIL, fd, in;
	char *line = NULL, buf[4096];
	FILE *fp = NULL;
	size_t len = 0;
	ssize_t n;

	/*
	 * One copy, read both ways: /proc/kallsyms changes as BPF programs,
	 * trampolines and modules come and go.
	 */
	in = open("/proc/kallsyms", O_RDONLY);
	if (in < 0)
		return TEST_SKIP;
	fd = mkstemp(path);
	if (fd < 0) {
		close(in);
		return TEST_SKIP;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(fd, buf, n) != n)
			break;
	}
	close(in);
	close(fd);
	if (n != 0)
		goto out;

	fp = fopen(path, "r");
	if (!fp)
		goto out;
	while (getline(&line, &len, fp) > 0) {
		char type, name[KSYM_NAME_LEN + 1];
		unsigned long long addr;
		int pos = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llx %c %n", &addr, &type, &pos) < 2 || pos == 0)
			continue;
		snprintf(name, sizeof(name), "%s", line + pos);
		if (ksyms__add(&want, name, type, addr) < 0)
			goto out;
	}

	if (kallsyms__parse(path, &got, ksyms__cb)) {
		pr_debug("kallsyms__parse() of a copy of /proc/kallsyms fails\n");
		goto out;
	}
	pr_debug("%zu symbols in /proc/kallsyms\n", got.nr);
	if (got.nr > 0 && ksyms__equal(&got, &want))
		ret = TEST_OK;
out:
	if (fp)
		fclose(fp);
	unlink(path);
	free(line);
	ksyms__exit(&want);
	ksyms__exit(&got);
	return ret;
}

static struct test_case tests__kallsyms_parse[] = {
	TEST_CASE("of a file with lines across reads and of other forms",
		  kallsyms_parse_file),
	TEST_CASE("of a copy of /proc/kallsyms, as stdio reads it", kallsyms_parse_proc),
	{ .name = NULL, }
};

struct test_suite suite__kallsyms_parse = {
	.desc = "kallsyms parsing",
	.test_cases = tests__kallsyms_parse,
};
