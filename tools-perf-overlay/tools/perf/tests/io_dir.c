// SPDX-License-Identifier: GPL-2.0
/*
 * io_dir (getdents64) against readdir() on a generated tree: the same
 * entries with the same types, long names, many entries, and the fstatat()
 * fallback of io_dir__is_dir() for file systems that report DT_UNKNOWN.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <api/io_dir.h>
#include <linux/kernel.h>
#include "tests.h"
#include "util/debug.h"
#include "util/util.h"

#define NR_FILES	600	/* more than one getdents64 call of io_dir's buffer */
#define NR_DIRS		20

struct dir_entry {
	char name[NAME_MAX + 1];
	unsigned char type;
};

static int dir_entry__cmp(const void *a, const void *b)
{
	return strcmp(((const struct dir_entry *)a)->name,
		      ((const struct dir_entry *)b)->name);
}

/* Names of every length from 1 to NAME_MAX, unique by their prefix. */
static void entry_name(char *buf, int i)
{
	int len = 1 + i % NAME_MAX, n;

	n = snprintf(buf, NAME_MAX + 1, "%d-", i);
	if (n < len)
		memset(buf + n, 'a' + i % 26, len - n);
	buf[len > n ? len : n] = '\0';
}

static int make_tree(const char *top)
{
	char path[PATH_MAX], name[NAME_MAX + 1];
	int i, fd;

	for (i = 0; i < NR_FILES; i++) {
		entry_name(name, i);
		snprintf(path, sizeof(path), "%s/%s", top, name);
		fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0600);
		if (fd < 0)
			return -1;
		close(fd);
	}
	for (i = 0; i < NR_DIRS; i++) {
		snprintf(path, sizeof(path), "%s/dir%d", top, i);
		if (mkdir(path, 0700))
			return -1;
		snprintf(path, sizeof(path), "%s/dir%d/nested", top, i);
		if (mkdir(path, 0700))
			return -1;
	}
	snprintf(path, sizeof(path), "%s/link-to-dir", top);
	if (symlink("dir0", path))
		return -1;
	snprintf(path, sizeof(path), "%s/link-to-file", top);
	if (symlink("0-", path))
		return -1;
	snprintf(path, sizeof(path), "%s/dangling", top);
	if (symlink("nowhere", path))
		return -1;
	snprintf(path, sizeof(path), "%s/fifo", top);
	return mkfifo(path, 0600);
}

/* Entries of @dir without "." and "..", sorted by name. */
static int read_with_readdir(const char *dir, struct dir_entry *e, int max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == max)
			break;
		strcpy(e[n].name, de->d_name);
		e[n++].type = de->d_type;
	}
	closedir(d);
	qsort(e, n, sizeof(*e), dir_entry__cmp);
	return n;
}

static int read_with_io_dir(struct io_dir *iod, struct dir_entry *e, int max)
{
	struct io_dirent64 *de;
	int n = 0;

	while ((de = io_dir__readdir(iod)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == max)
			break;
		strcpy(e[n].name, de->d_name);
		e[n++].type = de->d_type;
	}
	qsort(e, n, sizeof(*e), dir_entry__cmp);
	return n;
}

static int compare(const struct dir_entry *a, int na, const struct dir_entry *b, int nb)
{
	int i;

	if (na != nb) {
		pr_debug("readdir read %d entries, io_dir %d\n", na, nb);
		return TEST_FAIL;
	}
	for (i = 0; i < na; i++) {
		if (strcmp(a[i].name, b[i].name) || a[i].type != b[i].type) {
			pr_debug("entry %d: readdir '%s' %d, io_dir '%s' %d\n", i,
				 a[i].name, a[i].type, b[i].name, b[i].type);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

static int test__io_dir_readdir(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	int max = NR_FILES + NR_DIRS + 8, nr, n, ret = TEST_FAIL;
	char top[] = "/tmp/perf-test-io_dir.XXXXXX", path[PATH_MAX];
	struct dir_entry *want, *got;
	struct io_dir iod;

	want = calloc(max, sizeof(*want));
	got = calloc(max, sizeof(*got));
	if (!want || !got || !mkdtemp(top))
		goto out_free;
	if (make_tree(top)) {
		pr_debug("making the tree in %s: %m\n", top);
		goto out_rm;
	}

	nr = read_with_readdir(top, want, max);
	if (nr != NR_FILES + NR_DIRS + 4) {
		pr_debug("readdir found %d entries, made %d\n", nr, NR_FILES + NR_DIRS + 4);
		goto out_rm;
	}

	io_dir__init(&iod, open(top, O_CLOEXEC | O_DIRECTORY | O_RDONLY));
	if (iod.dirfd < 0)
		goto out_rm;
	n = read_with_io_dir(&iod, got, max);
	if (compare(want, nr, got, n) != TEST_OK)
		goto out_close;

	/* A second pass after io_dir__rewinddir() reads the same. */
	io_dir__rewinddir(&iod);
	memset(got, 0, max * sizeof(*got));
	n = read_with_io_dir(&iod, got, max);
	if (compare(want, nr, got, n) != TEST_OK)
		goto out_close;
	close(iod.dirfd);

	/* A nested directory. */
	snprintf(path, sizeof(path), "%s/dir%d", top, NR_DIRS - 1);
	nr = read_with_readdir(path, want, max);
	io_dir__init(&iod, open(path, O_CLOEXEC | O_DIRECTORY | O_RDONLY));
	if (iod.dirfd < 0)
		goto out_rm;
	n = read_with_io_dir(&iod, got, max);
	if (nr != 1 || compare(want, nr, got, n) != TEST_OK)
		goto out_close;
	ret = TEST_OK;
out_close:
	close(iod.dirfd);
out_rm:
	rm_rf(top);
out_free:
	free(want);
	free(got);
	return ret;
}

/*
 * File systems that don't fill d_type (DT_UNKNOWN): io_dir__is_dir() must
 * ask fstatat(), which follows symbolic links like stat() does.
 */
static int test__io_dir_dt_unknown(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	char top[] = "/tmp/perf-test-io_dir.XXXXXX", path[PATH_MAX];
	int ret = TEST_FAIL, checked = 0, dirs = 0;
	struct io_dirent64 *de;
	struct io_dir iod;
	struct stat st;

	if (!mkdtemp(top))
		return TEST_FAIL;
	if (make_tree(top))
		goto out_rm;

	io_dir__init(&iod, open(top, O_CLOEXEC | O_DIRECTORY | O_RDONLY));
	if (iod.dirfd < 0)
		goto out_rm;
	while ((de = io_dir__readdir(&iod)) != NULL) {
		bool is_dir, want;

		/* The test hook: make it look like a file system without d_type. */
		de->d_type = DT_UNKNOWN;
		is_dir = io_dir__is_dir(&iod, de);
		snprintf(path, sizeof(path), "%s/%s", top, de->d_name);
		want = !stat(path, &st) && S_ISDIR(st.st_mode);
		if (is_dir != want) {
			pr_debug("%s: io_dir__is_dir %d, stat %d\n", de->d_name, is_dir, want);
			goto out_close;
		}
		if (is_dir && de->d_type != DT_DIR) {
			pr_debug("%s: d_type not set to DT_DIR\n", de->d_name);
			goto out_close;
		}
		dirs += is_dir;
		checked++;
	}
	/* ., .., dir0..dir19 and link-to-dir */
	if (dirs != NR_DIRS + 3 || checked != NR_FILES + NR_DIRS + 6)
		pr_debug("%d directories in %d entries\n", dirs, checked);
	else
		ret = TEST_OK;
out_close:
	close(iod.dirfd);
out_rm:
	rm_rf(top);
	return ret;
}

static struct test_case tests__io_dir[] = {
	TEST_CASE("io_dir reads the entries readdir reads", io_dir_readdir),
	TEST_CASE("io_dir__is_dir with DT_UNKNOWN", io_dir_dt_unknown),
	{ .name = NULL, }
};

struct test_suite suite__io_dir = {
	.desc = "io_dir directory reading",
	.test_cases = tests__io_dir,
};
