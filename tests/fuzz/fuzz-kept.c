// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the source lines perf keeps in the build-id cache
 * (util/libdw.c: a2l_cache__read() and __valid(), the lookups answered from
 * the file, the file rewritten with the run's answers).
 *
 * Each input is a "srclines" file, written into the build-id cache entry of
 * one ELF file with DWARF and inline frames, FUZZ_KEPT_ELF (scripts/fuzz.sh
 * builds tests/fuzz/seeds.cpp for it). A dso is made for that file with its
 * build-id, and looked up as perf report, script and annotate do
 * (fuzz_lookup()) at the start and middle of its first function symbols and
 * at the addresses of the input's first entries; then its answers are kept
 * (dso__keep_libdw()) as when a session's dsos go, which rewrites the file
 * with the answers it lacked.
 *
 * FUZZ_KEPT_SAVE=<file>: for an empty input, copy the file kept to <file>:
 * a whole file for the ELF, the seed (scripts/fuzz.sh).
 *
 * Build and run: scripts/fuzz.sh in the project (make fuzz).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <internal/lib.h>

#include "util/build-id.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/libdw.h"
#include "util/srcline.h"
#include "util/symbol.h"
#include "util/util.h"
#include "fuzz-common.h"

/* The input's entries looked up: a2l_cache_header, then 32-byte entries. */
#define FUZZ_KEPT_HDR		64
#define FUZZ_KEPT_ENTRY		32
#define FUZZ_KEPT_ADDRS		8

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fuzz_sym syms[FUZZ_MAX_SYMS];
static int nr_syms;
static struct build_id bid;
static char entry[PATH_MAX], srclines[PATH_MAX];
static const char *save;

static void *read_file(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *buf = NULL;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0) {
		buf = malloc(st.st_size);
		if (buf && readn(fd, buf, st.st_size) != st.st_size)
			zfree(&buf);
		*size = st.st_size;
	}
	close(fd);
	return buf;
}

static void kept_cleanup(void)
{
	char *slash;

	unlink(srclines);
	/* The entry and .build-id/xx, .build-id: empty by now. */
	for (int i = 0; i < 3 && (slash = strrchr(entry, '/')); i++) {
		rmdir(entry);
		*slash = '\0';
	}
	rmdir(entry);
}

static struct dso *kept_dso(void)
{
	struct dso *dso = dso__new(fuzz_file);

	if (dso)
		dso__set_build_id(dso, &bid);
	return dso;
}

int LLVMFuzzerInitialize(int *argc __maybe_unused, char ***argv __maybe_unused)
{
	const char *elf_path = getenv("FUZZ_KEPT_ELF");
	char sbuild_id[SBUILD_ID_SIZE];
	struct dso *dso;
	size_t size = 0;
	u64 unused_entry;
	void *elf;

	fuzz_setup("kept", "FUZZ_KEPT_VERBOSE");
	addr2line_configure("addr2line.style", "libdw", NULL);
	save = getenv("FUZZ_KEPT_SAVE");

	elf = elf_path ? read_file(elf_path, &size) : NULL;
	if (!elf || fuzz_write(elf, size) || filename__read_build_id(fuzz_file, &bid) <= 0) {
		fprintf(stderr, "FUZZ_KEPT_ELF: an ELF file with a build-id and DWARF\n");
		exit(1);
	}
	nr_syms = fuzz_syms(elf, size, &unused_entry, syms);
	free(elf);

	/* The dso's build-id cache entry, where its srclines file goes. */
	build_id__snprintf(&bid, sbuild_id, sizeof(sbuild_id));
	if (!build_id_cache__linkname(sbuild_id, entry, sizeof(entry)) ||
	    mkdir_p(entry, 0700)) {
		perror(entry);
		exit(1);
	}
	atexit(kept_cleanup);
	dso = kept_dso();
	if (!dso || !dso__build_id_srclines_filename(dso, srclines, sizeof(srclines))) {
		fprintf(stderr, "no srclines file in %s\n", entry);
		exit(1);
	}
	dso__put(dso);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dso *dso;
	int i;

	if (fuzz_write_file(srclines, data, size))
		return 0;

	dso = kept_dso();
	if (!dso)
		return 0;

	for (i = 0; i < FUZZ_KEPT_ADDRS; i++) {
		size_t off = FUZZ_KEPT_HDR + i * FUZZ_KEPT_ENTRY;
		u64 addr;

		if (off + sizeof(addr) > size)
			break;
		memcpy(&addr, data + off, sizeof(addr));
		fuzz_lookup(dso, addr, NULL);
	}
	fuzz_lookup_syms(dso, syms, nr_syms);

	dso__keep_libdw(dso);
	if (save && !size) {
		size_t kept_size = 0;
		void *kept = read_file(srclines, &kept_size);

		if (!kept || fuzz_write_file(save, kept, kept_size))
			fprintf(stderr, "FUZZ_KEPT_SAVE: %s not written\n", save);
		free(kept);
	}
	dso__put(dso);
	return 0;
}
