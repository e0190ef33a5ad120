/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_LIBDW_H
#define PERF_LIBDW_H

#include <linux/types.h>
#include <stdint.h>

struct dso;
struct inline_node;
struct symbol;
struct Elf;
struct Dwfl;
struct Dwfl_Module;

#ifdef HAVE_LIBDW_SUPPORT
/*
 * libdw__addr2line - Convert address to source location using libdw
 * @addr: Address to resolve
 * @file: Pointer to return filename (caller must free)
 * @line_nr: Pointer to return line number
 * @dso: The dso struct
 * @unwind_inlines: Whether to unwind inline function calls
 * @node: Inline node list to append to
 * @sym: The symbol associated with the address
 *
 * This function initializes a Dwfl context for the DSO if not already present,
 * finds the source line information for the given address, and optionally
 * resolves inline function call chains.
 *
 * Returns 1 on success (found), 0 when libdw cannot tell (no DWARF for the
 * DSO), and -1 when the DSO's DWARF has no line for the address (a PLT
 * entry, code built without -g): other addr2line styles, reading the same
 * DWARF, would not find one either.
 */
int libdw__addr2line(u64 addr, char **file,
		     unsigned int *line_nr, struct dso *dso,
		     bool unwind_inlines, struct inline_node *node,
		     struct symbol *sym);

/*
 * dso__free_libdw - Free libdw resources associated with the DSO
 * @dso: The dso to free resources for
 *
 * This function cleans up the Dwfl context used for addr2line lookups.
 */
void dso__free_libdw(struct dso *dso);

/*
 * dso__libdw_elf - The dso's ELF file, opened once and shared
 * @dso: The dso
 * @path: Where to return the file's path (owned by the dso), may be NULL
 *
 * Returns a new reference to the libelf handle of the dso's file (release
 * it with elf_end()), or NULL when the dso has no usable ELF file.
 */
struct Elf *dso__libdw_elf(struct dso *dso, const char **path);

/*
 * libdw__report_dso - Report the dso to a Dwfl with its shared ELF file
 * @dwfl: The Dwfl
 * @dso: The dso, the module's userdata
 * @base: Where the dso is mapped, minus the map's file offset
 * @link_addresses: Place the module at the addresses it was linked at instead
 *
 * The module's address range is computed as dwfl_report_elf() does; its ELF
 * comes from dso__libdw_elf() when libdwfl first needs it: the Dwfl's
 * callbacks must have libdw__find_elf as find_elf (the unwinder's:
 * libdw__find_unwind_elf, see libdw__make_unwind_cfi()). Returns NULL when
 * the dso has no ELF file of its own, and for ET_REL files, laid out by
 * dwfl_report_elf() and dwfl_report_offline().
 */
struct Dwfl_Module *libdw__report_dso(struct Dwfl *dwfl, struct dso *dso, u64 base,
				      bool link_addresses);

/* libdwfl's find_elf callback for modules reported by libdw__report_dso(). */
int libdw__find_elf(struct Dwfl_Module *mod, void **userdata, const char *modname,
		    uint64_t base, char **file_name, struct Elf **elfp);

/* The same for the unwinder, whose modules' CFI comes from libdw__make_unwind_cfi(). */
int libdw__find_unwind_elf(struct Dwfl_Module *mod, void **userdata, const char *modname,
			   uint64_t base, char **file_name, struct Elf **elfp);

/*
 * libdw__make_unwind_cfi - Make the .eh_frame CFI of a module the unwinder reported
 * @mod: The module, reported by libdw__report_dso() to a Dwfl whose find_elf
 *       is libdw__find_unwind_elf
 * @dso: The module's dso
 *
 * Does nothing unless libdw would not use the module's .eh_frame_hdr (old
 * elfutils, .eh_frame_hdr after .eh_frame in the section headers).
 */
void libdw__make_unwind_cfi(struct Dwfl_Module *mod, struct dso *dso);

#else /* HAVE_LIBDW_SUPPORT */

static inline int libdw__addr2line(u64 addr __maybe_unused, char **file __maybe_unused,
				   unsigned int *line_nr __maybe_unused,
				   struct dso *dso __maybe_unused,
				   bool unwind_inlines __maybe_unused,
				   struct inline_node *node __maybe_unused,
				   struct symbol *sym __maybe_unused)
{
	return 0;
}

static inline void dso__free_libdw(struct dso *dso __maybe_unused)
{
}
#endif /* HAVE_LIBDW_SUPPORT */

#endif /* PERF_LIBDW_H */
