// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "tests.h"
#include "thread_map.h"
#include "debug.h"
#include "event.h"
#include "util/synthetic-events.h"
#include <perf/event.h>
#include <internal/threadmap.h>

struct perf_sample;
struct perf_tool;
struct machine;

#define NAME	(const char *) "perf"
#define NAMEUL	(unsigned long) NAME

static int test__thread_map(struct test_suite *test __maybe_unused, int subtest __maybe_unused)
{
	struct perf_thread_map *map;

	TEST_ASSERT_VAL("failed to set process name",
			!prctl(PR_SET_NAME, NAMEUL, 0, 0, 0));

	/* test map on current pid */
	map = thread_map__new_by_pid(getpid());
	TEST_ASSERT_VAL("failed to alloc map", map);

	thread_map__read_comms(map);

	TEST_ASSERT_VAL("wrong nr", map->nr == 1);
	TEST_ASSERT_VAL("wrong pid",
			perf_thread_map__pid(map, 0) == getpid());
	TEST_ASSERT_VAL("wrong comm",
			perf_thread_map__comm(map, 0) &&
			!strcmp(perf_thread_map__comm(map, 0), NAME));
	TEST_ASSERT_VAL("wrong refcnt",
			refcount_read(&map->refcnt) == 1);
	perf_thread_map__put(map);

	/* test dummy pid */
	map = perf_thread_map__new_dummy();
	TEST_ASSERT_VAL("failed to alloc map", map);

	thread_map__read_comms(map);

	TEST_ASSERT_VAL("wrong nr", map->nr == 1);
	TEST_ASSERT_VAL("wrong pid", perf_thread_map__pid(map, 0) == -1);
	TEST_ASSERT_VAL("wrong comm",
			perf_thread_map__comm(map, 0) &&
			!strcmp(perf_thread_map__comm(map, 0), "dummy"));
	TEST_ASSERT_VAL("wrong refcnt",
			refcount_read(&map->refcnt) == 1);
	perf_thread_map__put(map);
	return 0;
}

static int process_event(const struct perf_tool *tool __maybe_unused,
			 union perf_event *event,
			 struct perf_sample *sample __maybe_unused,
			 struct machine *machine __maybe_unused)
{
	struct perf_record_thread_map *map = &event->thread_map;
	struct perf_thread_map *threads;

	TEST_ASSERT_VAL("wrong nr",   map->nr == 1);
	TEST_ASSERT_VAL("wrong pid",  map->entries[0].pid == (u64) getpid());
	TEST_ASSERT_VAL("wrong comm", !strcmp(map->entries[0].comm, NAME));

	threads = thread_map__new_event(&event->thread_map);
	TEST_ASSERT_VAL("failed to alloc map", threads);

	TEST_ASSERT_VAL("wrong nr", threads->nr == 1);
	TEST_ASSERT_VAL("wrong pid",
			perf_thread_map__pid(threads, 0) == getpid());
	TEST_ASSERT_VAL("wrong comm",
			perf_thread_map__comm(threads, 0) &&
			!strcmp(perf_thread_map__comm(threads, 0), NAME));
	TEST_ASSERT_VAL("wrong refcnt",
			refcount_read(&threads->refcnt) == 1);
	perf_thread_map__put(threads);
	return 0;
}

static int test__thread_map_synthesize(struct test_suite *test __maybe_unused, int subtest __maybe_unused)
{
	struct perf_thread_map *threads;

	TEST_ASSERT_VAL("failed to set process name",
			!prctl(PR_SET_NAME, NAMEUL, 0, 0, 0));

	/* test map on current pid */
	threads = thread_map__new_by_pid(getpid());
	TEST_ASSERT_VAL("failed to alloc map", threads);

	thread_map__read_comms(threads);

	TEST_ASSERT_VAL("failed to synthesize map",
		!perf_event__synthesize_thread_map2(NULL, threads, process_event, NULL));

	perf_thread_map__put(threads);
	return 0;
}

static int test__thread_map_remove(struct test_suite *test __maybe_unused, int subtest __maybe_unused)
{
	struct perf_thread_map *threads;
	char *str;

	TEST_ASSERT_VAL("failed to allocate map string",
			asprintf(&str, "%d,%d", getpid(), getppid()) >= 0);

	threads = thread_map__new_str(str, /*tid=*/NULL, /*all_threads=*/false);
	free(str);

	TEST_ASSERT_VAL("failed to allocate thread_map",
			threads);

	if (verbose > 0)
		thread_map__fprintf(threads, stderr);

	TEST_ASSERT_VAL("failed to remove thread",
			!thread_map__remove(threads, 0));

	TEST_ASSERT_VAL("thread_map count != 1", threads->nr == 1);

	if (verbose > 0)
		thread_map__fprintf(threads, stderr);

	TEST_ASSERT_VAL("failed to remove thread",
			!thread_map__remove(threads, 0));

	TEST_ASSERT_VAL("thread_map count != 0", threads->nr == 0);

	if (verbose > 0)
		thread_map__fprintf(threads, stderr);

	TEST_ASSERT_VAL("failed to not remove thread",
			thread_map__remove(threads, 0));

	perf_thread_map__put(threads);
	return 0;
}

#define NR_THREADS	70	/* more than the first allocation of a thread map */

static void *wait_for_close(void *arg)
{
	char c;

	/* Returns when the test closes the pipe's write end. */
	while (read(*(int *)arg, &c, 1) > 0)
		;
	return NULL;
}

static int pid__cmp(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

/* The tids of this process as readdir() lists /proc/self/task, sorted. */
static int read_tasks(pid_t *tids, int max)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	if (!dir)
		return -1;
	while ((de = readdir(dir)) != NULL && n < max) {
		if (de->d_name[0] != '.')
			tids[n++] = atoi(de->d_name);
	}
	closedir(dir);
	qsort(tids, n, sizeof(*tids), pid__cmp);
	return n;
}

/* @map holds exactly the @nr tids in @tids. */
static bool thread_map__equal(struct perf_thread_map *map, const pid_t *tids, int nr)
{
	pid_t got[NR_THREADS + 2];
	int i;

	if (!map || map->nr != nr || nr > (int)ARRAY_SIZE(got))
		return false;
	for (i = 0; i < nr; i++)
		got[i] = perf_thread_map__pid(map, i);
	qsort(got, nr, sizeof(*got), pid__cmp);
	return !memcmp(got, tids, nr * sizeof(*got));
}

/* @map holds every one of the @nr tids in @tids. */
static bool thread_map__has_all(struct perf_thread_map *map, const pid_t *tids, int nr)
{
	int i, j;

	for (i = 0; map && i < nr; i++) {
		for (j = 0; j < map->nr; j++)
			if (perf_thread_map__pid(map, j) == tids[i])
				break;
		if (j == map->nr)
			return false;
	}
	return map;
}

/*
 * A process of many threads: the thread maps read from /proc/<pid>/task
 * (-p PID, several PIDs, all threads of the machine) hold exactly the
 * threads that readdir() lists.
 */
static int test__thread_map_tasks(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	pid_t tids[NR_THREADS + 2];
	pthread_t threads[NR_THREADS];
	struct perf_thread_map *map;
	int fds[2], nr_started, nr, i, ret = TEST_FAIL;
	char pids[64];

	if (pipe(fds))
		return TEST_FAIL;
	for (nr_started = 0; nr_started < NR_THREADS; nr_started++) {
		if (pthread_create(&threads[nr_started], NULL, wait_for_close, &fds[0]))
			goto out_join;
	}

	nr = read_tasks(tids, ARRAY_SIZE(tids));
	if (nr != NR_THREADS + 1) {
		pr_debug("/proc/self/task lists %d tasks\n", nr);
		goto out_join;
	}

	map = thread_map__new_by_pid(getpid());
	if (!thread_map__equal(map, tids, nr)) {
		pr_debug("thread_map__new_by_pid() differs from readdir()\n");
		goto out_put;
	}
	perf_thread_map__put(map);

	/* This process and its parent: all threads of both. */
	snprintf(pids, sizeof(pids), "%d,%d", getpid(), getppid());
	map = thread_map__new_str(pids, /*tid=*/NULL, /*all_threads=*/false);
	if (!map || map->nr <= nr || !thread_map__has_all(map, tids, nr) ||
	    !thread_map__has_all(map, &(pid_t){ getppid() }, 1)) {
		pr_debug("thread_map__new_str(\"%s\") has %d threads, want %d and more\n",
			 pids, map ? map->nr : -1, nr);
		goto out_put;
	}
	perf_thread_map__put(map);

	map = thread_map__new_str(/*pid=*/NULL, /*tid=*/NULL, /*all_threads=*/true);
	if (!thread_map__has_all(map, tids, nr)) {
		pr_debug("the map of all threads misses some of this process\n");
		goto out_put;
	}
	ret = TEST_OK;
out_put:
	perf_thread_map__put(map);
out_join:
	close(fds[1]);
	for (i = 0; i < nr_started; i++)
		pthread_join(threads[i], NULL);
	close(fds[0]);
	return ret;
}

DEFINE_SUITE("Thread map", thread_map);
DEFINE_SUITE("Synthesize thread map", thread_map_synthesize);
DEFINE_SUITE("Remove thread map", thread_map_remove);
DEFINE_SUITE("Thread maps of a process of many threads", thread_map_tasks);
