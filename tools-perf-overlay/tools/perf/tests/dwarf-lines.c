// SPDX-License-Identifier: GPL-2.0
/*
 * perf's decoding of line tables (util/dwarf-lines.c) against libdw's, on
 * the DWARF of the perf binary: for every CU, the file table entry by
 * entry, and the line and file found at every address of a row of libdw's
 * table, one byte below and one above.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include "tests.h"
#include "util/debug.h"
#include "util/dwarf-lines.h"

static bool same_name(const char *a, const char *b)
{
	return (a && b) ? !strcmp(a, b) : a == b;
}

/* The differences in the CU of cu_die, counted in *checks. */
static int cu__compare(Dwarf_Die *cu_die, struct dwarf_lines *lines, unsigned long *checks)
{
	Dwarf_Lines *dw_lines;
	Dwarf_Files *files;
	size_t nr_lines, nr_files;
	int bad = 0;

	if (dwarf_getsrclines(cu_die, &dw_lines, &nr_lines) ||
	    dwarf_getsrcfiles(cu_die, &files, &nr_files)) {
		pr_debug("CU %#lx: decoded, libdw refuses it\n", (long)dwarf_dieoffset(cu_die));
		return 1;
	}
	for (size_t i = 0; i < nr_files + 2; i++, (*checks)++) {
		const char *dw = dwarf_filesrc(files, i, NULL, NULL);
		const char *perf = dwarf_lines__file(lines, i);

		if (!same_name(dw, perf)) {
			pr_debug("CU %#lx file %zu: libdw %s, perf %s\n",
				 (long)dwarf_dieoffset(cu_die), i, dw, perf);
			bad++;
		}
	}
	for (size_t i = 0; i < nr_lines; i++) {
		Dwarf_Addr row_addr;

		if (dwarf_lineaddr(dwarf_onesrcline(dw_lines, i), &row_addr))
			return bad + 1;
		for (Dwarf_Addr addr = row_addr - 1; addr != row_addr + 2; addr++, (*checks)++) {
			Dwarf_Line *line = dwarf_getsrc_die(cu_die, addr);
			const char *dw_file = NULL, *file = NULL;
			int dw_lineno = 0, lineno = 0, found;

			if (line) {
				dw_file = dwarf_linesrc(line, NULL, NULL);
				dwarf_lineno(line, &dw_lineno);
			}
			found = dwarf_lines__find(lines, addr, &file, &lineno);
			if (found != !!line || (found && (lineno != dw_lineno ||
							  !same_name(file, dw_file)))) {
				pr_debug("CU %#lx at %#lx: libdw %s:%d, perf %s:%d\n",
					 (long)dwarf_dieoffset(cu_die), (long)addr,
					 line ? dw_file : "(none)", dw_lineno,
					 found ? file : "(none)", lineno);
				bad++;
			}
		}
	}
	return bad;
}

static int test__dwarf_lines(struct test_suite *test __maybe_unused, int subtest __maybe_unused)
{
	unsigned long checks = 0, cus = 0, decoded = 0;
	size_t rows = 0, bytes = 0;
	Dwarf_Off off = 0, next;
	int fd, bad = 0;
	size_t hsize;
	Dwarf *dwarf;

	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		return TEST_FAIL;
	dwarf = dwarf_begin(fd, DWARF_C_READ);
	if (!dwarf) {
		close(fd);
		pr_debug("perf has no DWARF\n");
		return TEST_SKIP;
	}
	for (; dwarf_nextcu(dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next) {
		struct dwarf_lines *lines;
		Dwarf_Die cu_die;

		if (!dwarf_offdie(dwarf, off + hsize, &cu_die))
			continue;
		cus++;
		lines = dwarf_lines__new(&cu_die);
		if (!lines)
			continue;
		decoded++;
		rows += dwarf_lines__nr_rows(lines);
		bytes += dwarf_lines__size(lines);
		bad += cu__compare(&cu_die, lines, &checks);
		dwarf_lines__delete(lines);
	}
	dwarf_end(dwarf);
	close(fd);

	pr_debug("%lu CUs, %lu decoded by perf (%zu rows, %zu bytes), %lu checks, %d differ\n",
		 cus, decoded, rows, bytes, checks, bad);
	if (!decoded)
		return TEST_SKIP;
	return bad ? TEST_FAIL : TEST_OK;
}

DEFINE_SUITE("Line tables decoded by perf equal libdw's", dwarf_lines);
