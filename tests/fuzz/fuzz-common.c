// SPDX-License-Identifier: GPL-2.0
/* What the libFuzzer harnesses of tests/fuzz share, see fuzz-common.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <internal/lib.h>

#include "util/build-id.h"
#include "util/debug.h"
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

int fuzz_write(const uint8_t *data, size_t size)
{
	int fd = open(fuzz_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = writen(fd, data, size);
	close(fd);
	return n == (ssize_t)size ? 0 : -1;
}
