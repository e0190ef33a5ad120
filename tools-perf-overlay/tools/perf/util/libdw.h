/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_LIBDW_H
#define PERF_LIBDW_H

#include <linux/types.h>
#include <stdint.h>
#ifdef HAVE_LIBDW_SUPPORT
#include <elfutils/libdw.h>
#endif

struct dso;
struct inline_node;
struct symbol;
struct Dwarf_Frame_s;
struct Dwfl;
struct Dwfl_Module;
struct Elf;

/* Why libdw__addr2line() found no line where no other addr2line style would. */
enum {
	/*
	 * No CU of the dso's DWARF covers the address (a PLT entry, code built
	 * without -g), or neither the dso nor a debug file of it has DWARF:
	 * the other styles read the same files.
	 */
	LIBDW_A2L_NO_LINE	= -1,
	/* libelf refused the debug info as a decompression bomb: no style may read it. */
	LIBDW_A2L_REFUSED	= -2,
};

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
 * resolves inline function call chains. Called with srcline__lock() held.
 *
 * Returns 1 on success (found), 0 on failure (not found: another style may
 * find it), and a negative LIBDW_A2L_ reason when no other style would.
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
 * dso__libdw_frame - The call frame information of the dso at an address
 * @dso: The dso
 * @addr: An address in the dso, as objdump shows it
 *
 * Returns the frame at @addr from the dso's .eh_frame, else from its
 * .debug_frame (in the dso or its debug file), or NULL. Free it with free().
 */
struct Dwarf_Frame_s *dso__libdw_frame(struct dso *dso, u64 addr);

/*
 * libdw__report_dso - Report a dso to an unwinder's Dwfl, with its shared ELF file
 * @dwfl: The Dwfl of an address space
 * @dso: The dso
 * @base: Where the dso is mapped, minus the map's file offset
 *
 * The module's address range is computed as dwfl_report_elf() does. libdwfl
 * gets its ELF file from libdw__find_elf(), which the Dwfl's callbacks must
 * have as find_elf: one libelf handle per dso for all address spaces. The
 * module holds a reference to the dso; end the Dwfl with libdw__end_dwfl().
 * Returns NULL when the dso has no ET_DYN or ET_EXEC file of its own.
 */
struct Dwfl_Module *libdw__report_dso(struct Dwfl *dwfl, struct dso *dso, u64 base);

/* libdwfl's find_elf callback for the modules of libdw__report_dso(). */
int libdw__find_elf(struct Dwfl_Module *mod, void **userdata, const char *modname,
		    uint64_t base, char **file_name, struct Elf **elfp);

/*
 * Whether libdw__report_dso() gave the unwinder the dso's file without its
 * section headers, unwinding from its .eh_frame_hdr table (no DWARF).
 */
bool libdw__dso_unwinds_from_eh_frame_hdr(struct dso *dso);

/* Ends an unwinder's Dwfl, and drops its modules' references to their dsos. */
void libdw__end_dwfl(struct Dwfl *dwfl);

/* The registers of a frame's rules in struct libdw_cfi_frame: x86-64's 0-16. */
#define LIBDW_CFI_NREGS	17

/*
 * How a register of the caller, or the CFA, is found: the forms of the
 * DWARF expressions dwarf_frame_register() and dwarf_frame_cfa() give.
 */
enum libdw_cfi_rule {
	LIBDW_CFI_UNDEFINED,	/* lost: call-clobbered, or the end of the stack */
	LIBDW_CFI_SAME,		/* the callee's value */
	LIBDW_CFI_OFFSET,	/* saved at CFA + offset */
	LIBDW_CFI_VAL_OFFSET,	/* CFA + offset */
	LIBDW_CFI_REGISTER,	/* in the callee's register reg */
	LIBDW_CFI_REG_OFFSET,	/* the callee's register reg + offset (the CFA) */
	LIBDW_CFI_EXPR,		/* ops, evaluated as libdwfl's expr_eval() does */
	LIBDW_CFI_ERROR,	/* libdw could not say: the register is not known */
};

struct libdw_cfi_reg {
	u8			rule;		/* enum libdw_cfi_rule */
	u8			reg;
	u32			nops;
	union {
		s64		offset;
		/*
		 * A register's: libdw's copy in the dso's CFI, which lives
		 * as long as the dso (dwarf_frame_register()).
		 */
		const Dwarf_Op	*ops;
	};
};

/* The longest CFA expression copied (a PLT's has 9 operations). */
#define LIBDW_CFI_CFA_OPS	12

/* The rules of a frame, see struct libdw_cfi_frame. */
struct libdw_cfi_rules {
	/* LIBDW_CFI_EXPR: nops operations in libdw_cfi_frame.cfa_expr */
	struct libdw_cfi_reg	cfa;
	struct libdw_cfi_reg	regs[LIBDW_CFI_NREGS];
	u8			ra;	/* the return address column */
	bool			signal;	/* the FDE of a signal frame */
};

/*
 * The unwinding rules of the frame of one address, decoded from the dso's
 * CFI by libdw__dso_cfi_frame().
 */
struct libdw_cfi_frame {
	struct libdw_cfi_rules	rules;
	u64			bias;	/* the dso's load bias, for DW_OP_addr */
	/*
	 * A CFA expression, copied: dwarf_frame_cfa()'s lives only as long
	 * as the Dwarf_Frame it came from.
	 */
	Dwarf_Op		cfa_expr[LIBDW_CFI_CFA_OPS];
};

/*
 * libdw__dso_cfi_frame - The unwinding rules at an address of a dso
 * @dso: The dso mapped at @pc
 * @base: Where the dso is mapped, minus the map's file offset
 * @pc: The address to unwind from, in the address space
 * @frame: Filled with the rules of @pc's frame
 *
 * The rules come from the .eh_frame of the dso's file (struct
 * dso_libdw_elf), parsed once per run for all address spaces. Returns 0;
 * -ENOENT where a dso that libdwfl unwinds from its .eh_frame_hdr table
 * alone (libdw__dso_unwinds_from_eh_frame_hdr()) has no rules for @pc:
 * libdwfl would then try the frame pointer; else -1 where the dso has no
 * ELF file or .eh_frame or it has no rules for @pc: libdwfl would then
 * look further (.debug_frame, the frame pointer).
 */
int libdw__dso_cfi_frame(struct dso *dso, u64 base, u64 pc, struct libdw_cfi_frame *frame);

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
