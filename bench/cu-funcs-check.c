// SPDX-License-Identifier: GPL-2.0
/*
 * Checks that the scope walk of cu_funcs__walk() (tools/perf/util/libdw.c,
 * patch 31) finds the defining subprograms dwarf_getfuncs() finds, in the
 * same order, on every CU of the given files, and times both.
 *   gcc -O2 -o cu-funcs-check bench/cu-funcs-check.c -ldw
 *   ./cu-funcs-check FILE [0 both|1 getfuncs only|2 walk only]
 * Keep the walk below in step with cu_funcs__walk().
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct list { Dwarf_Off *v; size_t n, a; };
static void push(struct list *l, Dwarf_Off o)
{
	if (l->n == l->a) { l->a = l->a ? 2 * l->a : 64; l->v = realloc(l->v, l->a * sizeof(*l->v)); }
	l->v[l->n++] = o;
}
static int has_code(Dwarf_Die *d)
{
	Dwarf_Addr b, s, e;
	return dwarf_ranges(d, 0, &b, &s, &e) > 0;
}
static int cb(Dwarf_Die *d, void *arg)
{
	if (dwarf_tag(d) == DW_TAG_subprogram && has_code(d))
		push(arg, dwarf_dieoffset(d));
	return DWARF_CB_OK;
}
static void walk(Dwarf_Die *parent, struct list *l)
{
	Dwarf_Die child;

	Dwarf_Attribute attr; Dwarf_Die unit;
	if (dwarf_child(parent, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_imported_unit:
			if (dwarf_attr(&child, DW_AT_import, &attr) && dwarf_formref_die(&attr, &unit))
				walk(&unit, l);
			break;
		case DW_TAG_subprogram:
			if (!dwarf_hasattr(&child, DW_AT_declaration) && has_code(&child))
				push(l, dwarf_dieoffset(&child));
			/* fallthrough: local classes, lambdas */
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
		case DW_TAG_lexical_block:
			walk(&child, l);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv)
{
	int fd = open(argv[1], O_RDONLY), mode = argc > 2 ? atoi(argv[2]) : 0;
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	Dwarf_Off off = 0, next; size_t hsize; size_t cus = 0, diff = 0, fa = 0, fb = 0;
	double ta = 0, tb = 0;

	if (!dw) { fprintf(stderr, "no dwarf\n"); return 1; }
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		struct list a = {0}, b = {0};
		double t0;

		if (!dwarf_offdie(dw, off + hsize, &cu)) { off = next; continue; }
		cus++;
		t0 = now();
		if (mode != 2) dwarf_getfuncs(&cu, cb, &a, 0);
		ta += now() - t0; t0 = now();
		if (mode != 1) walk(&cu, &b);
		tb += now() - t0;
		fa += a.n; fb += b.n;
		if (mode == 0 && (a.n != b.n || memcmp(a.v, b.v, a.n * sizeof(*a.v)))) {
			diff++;
			if (diff < 5) {
				printf("CU %#lx: getfuncs %zu, walk %zu\n", (unsigned long)off, a.n, b.n);
				for (size_t i = 0, j = 0; i < a.n || j < b.n; ) {
					if (i < a.n && j < b.n && a.v[i] == b.v[j]) { i++; j++; continue; }
					if (i < a.n) printf("  getfuncs only/order %#lx\n", (unsigned long)a.v[i++]);
					else printf("  walk only %#lx\n", (unsigned long)b.v[j++]);
				}
			}
		}
		free(a.v); free(b.v);
		off = next;
	}
	printf("%zu CUs, %zu differ; subprograms getfuncs %zu walk %zu; time getfuncs %.2fs walk %.2fs\n", cus, diff, fa, fb, ta, tb);
	return 0;
}
