// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for tests/t-robust.sh: recursion through the main binary and a
 * shared library (built from this same file with -DROBUST_LIB), an inlined
 * helper, and an optional very deep recursion.
 *   robust <seconds> [depth [dlopen|fork]]
 * depth defaults to 12; with depth > 1000 the chain is deeper than any
 * stack dump perf takes. "dlopen" loads and unloads, in turns,
 * librobust-a.so and librobust-b.so (this file with -DROBUST_LIB and
 * -DROBUST_LIB_B for b: other function names, other addresses) found next
 * to the executable: one is mapped where the other was. Both have their
 * own function names (liba_*, libb_*), so that their code runs, not
 * librobust.so's, which the executable loaded first. "fork" runs the
 * work in short-lived child processes, one after the other.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef ROBUST_LIB
#ifdef ROBUST_LIB_A
#define lib_spin	liba_spin
#define lib_recurse	liba_recurse
#endif
#ifdef ROBUST_LIB_B
#define lib_spin	libb_spin
#define lib_recurse	libb_recurse
/* moves the functions below to other addresses than in library a */
__attribute__((noinline)) unsigned long libb_pad(unsigned long x)
{
	volatile unsigned long v = x;

	for (int i = 0; i < 64; i++)
		v = v * 3 + i;
	return v + (v >> 3) * 7 + (v >> 5) * 11 + (v >> 7) * 13;
}
#endif
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

__attribute__((noinline)) unsigned long lib_spin(unsigned long seed, int n)
{
	volatile unsigned long acc = seed;

	for (int i = 0; i < n; i++)
		acc = mix(acc + i);
	return acc;
}

__attribute__((noinline)) unsigned long lib_recurse(unsigned long seed, int depth,
						    unsigned long (*cb)(unsigned long, int))
{
	unsigned long r;

	if (depth <= 0)
		return cb(lib_spin(seed, 2000), depth);
	r = lib_recurse(seed * 31 + depth, depth - 1, cb);
	return r ^ (r >> 7) ^ seed;	/* not a tail call */
}

unsigned long lib_entry(unsigned long seed, int depth,
			unsigned long (*cb)(unsigned long, int))
{
	return lib_recurse(seed, depth, cb);
}
#else
unsigned long lib_recurse(unsigned long seed, int depth,
			  unsigned long (*cb)(unsigned long, int));
unsigned long lib_spin(unsigned long seed, int n);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long callback(unsigned long v, int d)
{
	volatile unsigned long acc = v;

	for (int i = 0; i < 500; i++)
		acc = acc * 6364136223846793005UL + 1442695040888963407UL + d;
	return acc;
}

__attribute__((noinline)) static unsigned long recurse(unsigned long seed, int depth)
{
	unsigned long r;

	if (depth <= 0)
		return lib_recurse(seed, 3, callback);
	r = recurse(seed + depth, depth - 1);
	return r ^ (seed << 1);	/* not a tail call */
}

__attribute__((noinline)) static unsigned long deep(unsigned long seed, int depth)
{
	volatile char pad[64];	/* a real frame, so the stack grows */
	unsigned long r;

	pad[depth & 63] = (char)seed;
	if (depth <= 0)
		return lib_spin(seed, 20000);
	r = deep(seed + pad[depth & 63], depth - 1);
	return r ^ (r >> 3);
}

typedef unsigned long (*entry_fn)(unsigned long, int, unsigned long (*)(unsigned long, int));

/* Load a or b, run in it for a while, unload it. */
static unsigned long dl_turns(const char *self, double end)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	unsigned long sum = 0;

	snprintf(dir, sizeof(dir), "%s", self);
	for (int turn = 0; now() < end; turn++) {
		void *h;
		entry_fn fn;
		double stop = now() + 0.01;

		snprintf(path, sizeof(path), "%s/librobust-%c.so", dirname(dir), turn & 1 ? 'b' : 'a');
		snprintf(dir, sizeof(dir), "%s", self);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			exit(1);
		}
		fn = (entry_fn)dlsym(h, "lib_entry");
		while (fn && now() < stop)
			sum += fn(sum, 4, callback);
		dlclose(h);
	}
	return sum;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	int depth = argc > 2 ? atoi(argv[2]) : 12;
	const char *mode = argc > 3 ? argv[3] : "";
	double end = now() + secs;
	unsigned long sum = 0;

	if (!strcmp(mode, "dlopen")) {
		sum = dl_turns(argv[0], end);
	} else if (!strcmp(mode, "fork")) {
		while (now() < end) {
			pid_t pid = fork();

			if (pid == 0) {
				double stop = now() + 0.03;

				while (now() < stop)
					sum += recurse(sum, depth);
				_exit(sum & 1);
			}
			if (pid < 0 || waitpid(pid, NULL, 0) < 0)
				return 1;
		}
	} else {
		while (now() < end)
			sum += depth > 1000 ? deep(sum, depth) : recurse(sum, depth);
	}
	printf("%lu\n", sum & 0xff);
	return 0;
}
#endif
