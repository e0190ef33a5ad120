/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_DWARF_LINES_H
#define PERF_DWARF_LINES_H

#include <stddef.h>
#include <elfutils/libdw.h>

/*
 * The line table of one CU, decoded by perf from the CU's line program in
 * .debug_line into the rows that answer an address lookup (see
 * dwarf-lines.c), with the CU's file table: what dwarf_getsrclines(),
 * dwarf_getsrc_die() and dwarf_getsrcfiles() give, in a fraction of the
 * memory, in memory perf owns and frees.
 */
struct dwarf_lines;

/*
 * The line table of the CU of cu_die, or NULL where perf does not decode it
 * (no line program, a split or dwz unit, a form or an opcode it doesn't
 * know, corrupt data, no memory): libdw's answers are the ones to use then.
 * Its strings point into the Dwarf's sections: free it before the Dwarf.
 */
struct dwarf_lines *dwarf_lines__new(Dwarf_Die *cu_die);
void dwarf_lines__delete(struct dwarf_lines *lines);

/*
 * The row of addr, a DWARF address, as dwarf_getsrc_die() finds it: 1 with
 * its line in *lineno and its file in *file (NULL where the row's file has
 * no entry, as dwarf_linesrc() gives), 0 when no row covers addr.
 */
int dwarf_lines__find(struct dwarf_lines *lines, Dwarf_Addr addr,
		      const char **file, int *lineno);

/* The name of file idx, as dwarf_filesrc() gives it, or NULL. */
const char *dwarf_lines__file(struct dwarf_lines *lines, Dwarf_Word idx);

/* The rows kept, the bytes of each (8 or 16) and the bytes allocated. */
size_t dwarf_lines__nr_rows(const struct dwarf_lines *lines);
size_t dwarf_lines__row_size(const struct dwarf_lines *lines);
size_t dwarf_lines__size(const struct dwarf_lines *lines);

#endif /* PERF_DWARF_LINES_H */
