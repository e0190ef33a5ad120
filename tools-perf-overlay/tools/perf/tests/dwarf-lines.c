// SPDX-License-Identifier: GPL-2.0
/*
 * perf's decoding of line tables (util/dwarf-lines.c) against libdw's: for
 * every CU, the file table entry by entry, and the line and file found at
 * every address of a row of libdw's table, one byte below and one above.
 * On the DWARF of the perf binary, and on line programs made here: rows
 * out of order, at one address, ends of sequences where the next starts,
 * files without an entry; and programs perf must leave to libdw.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <gelf.h>
#include <elfutils/libdw.h>
#include "tests.h"
#include "util/debug.h"
#include "util/dwarf-lines.h"

static bool same_name(const char *a, const char *b)
{
	return (a && b) ? !strcmp(a, b) : a == b;
}

/* Whether perf's answer for addr differs from libdw's. */
static int addr__compare(Dwarf_Die *cu_die, struct dwarf_lines *lines, Dwarf_Addr addr)
{
	Dwarf_Line *line = dwarf_getsrc_die(cu_die, addr);
	const char *dw_file = NULL, *file = NULL;
	int dw_lineno = 0, lineno = 0, found;

	if (line) {
		dw_file = dwarf_linesrc(line, NULL, NULL);
		dwarf_lineno(line, &dw_lineno);
	}
	found = dwarf_lines__find(lines, addr, &file, &lineno);
	if (found == !!line && (!found || (lineno == dw_lineno && same_name(file, dw_file))))
		return 0;
	pr_debug("CU %#" PRIx64 " at %#" PRIx64 ": libdw %s:%d, perf %s:%d\n",
		 dwarf_dieoffset(cu_die), addr, line ? dw_file : "(none)", dw_lineno,
		 found ? file : "(none)", lineno);
	return 1;
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
		pr_debug("CU %#" PRIx64 ": decoded, libdw refuses it\n", dwarf_dieoffset(cu_die));
		return 1;
	}
	for (size_t i = 0; i < nr_files + 2; i++, (*checks)++) {
		const char *dw = dwarf_filesrc(files, i, NULL, NULL);
		const char *perf = dwarf_lines__file(lines, i);

		if (!same_name(dw, perf)) {
			pr_debug("CU %#" PRIx64 " file %zu: libdw %s, perf %s\n",
				 dwarf_dieoffset(cu_die), i, dw, perf);
			bad++;
		}
	}
	for (size_t i = 0; i < nr_lines; i++) {
		Dwarf_Addr row_addr;

		if (dwarf_lineaddr(dwarf_onesrcline(dw_lines, i), &row_addr))
			return bad + 1;
		for (Dwarf_Addr addr = row_addr - 1; addr != row_addr + 2; addr++, (*checks)++)
			bad += addr__compare(cu_die, lines, addr);
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
		return TEST_SKIP;
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

/* A growing byte buffer, in the host's byte order. */
struct buf {
	unsigned char	b[4096];
	size_t		len;
};

static void put(struct buf *b, const void *p, size_t len)
{
	if (b->len + len <= sizeof(b->b))
		memcpy(b->b + b->len, p, len);
	b->len += len;
}

static void put_u8(struct buf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put_u16(struct buf *b, uint16_t v)
{
	put(b, &v, 2);
}

static void put_u32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void put_str(struct buf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

static void put_uleb(struct buf *b, uint64_t v)
{
	do {
		put_u8(b, (v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void put_sleb(struct buf *b, int64_t v)
{
	bool more;

	do {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		more = !((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40)));
		put_u8(b, byte | (more ? 0x80 : 0));
	} while (more);
}

/* Line program operations (DWARF 4, line_base -5, line_range 14, opcode_base 13). */
static void op_extended(struct buf *b, uint8_t len, uint8_t opcode)
{
	put_u8(b, 0);
	put_u8(b, len);
	put_u8(b, opcode);
}

static void op_set_address(struct buf *b, uint64_t a)
{
	op_extended(b, 9, DW_LNE_set_address);
	put_u64(b, a);
}

static void op_end_sequence(struct buf *b)
{
	op_extended(b, 1, DW_LNE_end_sequence);
}

static void op_copy(struct buf *b)
{
	put_u8(b, DW_LNS_copy);
}

static void op_advance_pc(struct buf *b, uint64_t n)
{
	put_u8(b, DW_LNS_advance_pc);
	put_uleb(b, n);
}

static void op_advance_line(struct buf *b, int64_t n)
{
	put_u8(b, DW_LNS_advance_line);
	put_sleb(b, n);
}

static void op_set_file(struct buf *b, uint64_t n)
{
	put_u8(b, DW_LNS_set_file);
	put_uleb(b, n);
}

/* A special opcode: a row after advancing the address and the line. */
static void op_special(struct buf *b, unsigned int addr_adv, int line_adv)
{
	put_u8(b, (line_adv + 5) + 14 * addr_adv + 13);
}

enum program {
	PROG_ROWS,		/* decoded, equal to libdw's, rows of 8 bytes */
	PROG_FAR,		/* and a sequence 4 GiB above: rows of 16 bytes */
	PROG_LINE_2G,		/* and a line of 2^30: rows of 16 bytes */
	PROG_IS_STMT_2,		/* default_is_stmt 2: libdw refuses every row */
	PROG_NVIDIA,		/* DW_LNE_NVIDIA_inlined_call: libdw's own reading */
	PROG_LONG_ULEB,		/* an operand of 11 bytes */
	PROG_DEFINE_FILE,	/* DW_LNE_define_file */
};

/* A DWARF 4 .debug_line unit with three files and the given program. */
static void make_debug_line(struct buf *b, enum program prog)
{
	static const uint8_t std_lengths[] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	size_t unit_start, header_start;
	uint32_t len;

	put_u32(b, 0);			/* unit_length, below */
	unit_start = b->len;
	put_u16(b, 4);
	put_u32(b, 0);			/* header_length, below */
	header_start = b->len;
	put_u8(b, 1);			/* minimum_instruction_length */
	put_u8(b, 1);			/* maximum_operations_per_instruction */
	put_u8(b, prog == PROG_IS_STMT_2 ? 2 : 1);
	put_u8(b, (uint8_t)-5);		/* line_base */
	put_u8(b, 14);			/* line_range */
	put_u8(b, 13);			/* opcode_base */
	put(b, std_lengths, sizeof(std_lengths));
	put_str(b, "/inc");
	put_u8(b, 0);
	for (int i = 0; i < 3; i++) {
		static const char * const names[] = { "a.c", "b.h", "/abs/c.h", };

		put_str(b, names[i]);
		put_uleb(b, i == 1);	/* the directory: "/inc" for b.h */
		put_uleb(b, 0);		/* mtime */
		put_uleb(b, 0);		/* length */
	}
	put_u8(b, 0);
	len = b->len - header_start;
	memcpy(b->b + header_start - 4, &len, 4);

	switch (prog) {
	case PROG_NVIDIA:
		op_extended(b, 1, 0x90);
		op_copy(b);
		break;
	case PROG_LONG_ULEB:
		put_u8(b, DW_LNS_advance_pc);
		for (int i = 0; i < 10; i++)
			put_u8(b, 0x80);
		put_u8(b, 1);
		op_copy(b);
		break;
	case PROG_DEFINE_FILE:
		op_extended(b, 8, DW_LNE_define_file);
		put_str(b, "d.h");
		put_uleb(b, 1);
		put_uleb(b, 0);
		put_uleb(b, 0);
		op_set_file(b, 4);
		op_copy(b);
		break;
	case PROG_FAR:
		op_set_address(b, 0x100002000ULL);
		op_copy(b);
		op_advance_pc(b, 4);
		op_end_sequence(b);
		break;
	case PROG_LINE_2G:
		op_set_address(b, 0x2000);
		op_advance_line(b, (1 << 30) - 1);
		op_copy(b);
		op_advance_pc(b, 4);
		op_end_sequence(b);
		break;
	case PROG_ROWS:
	case PROG_IS_STMT_2:
	default:
		break;
	}
	/* A sequence at 0x1040, rows twice at one address, a file switch. */
	op_set_address(b, 0x1040);
	op_set_file(b, 2);
	op_advance_line(b, 9);
	op_copy(b);
	op_special(b, 4, 1);
	op_copy(b);
	op_advance_pc(b, 4);
	op_set_file(b, 3);
	op_copy(b);
	op_advance_pc(b, 4);
	op_end_sequence(b);
	/* One below it, rows of one line in a run, a row at its end address. */
	op_set_address(b, 0x1000);
	op_advance_line(b, 19);
	op_copy(b);
	op_special(b, 2, 1);
	op_special(b, 0, 0);
	op_special(b, 3, 0);
	op_special(b, 3, 0);
	op_advance_pc(b, 8);
	op_copy(b);
	op_end_sequence(b);
	/* An empty sequence where the one before ended. */
	op_set_address(b, 0x1010);
	op_copy(b);
	op_end_sequence(b);
	/* One where the first ended, with a file that has no entry. */
	op_set_address(b, 0x104c);
	op_advance_line(b, 99);
	op_copy(b);
	op_set_file(b, 9);
	op_special(b, 2, 0);
	op_advance_pc(b, 2);
	op_end_sequence(b);

	len = b->len - unit_start;
	memcpy(b->b + unit_start - 4, &len, 4);
}

/* A CU with DW_AT_stmt_list 0, DW_AT_comp_dir and DW_AT_name. */
static void make_debug_info(struct buf *abbrev, struct buf *info)
{
	uint32_t len;

	put_uleb(abbrev, 1);
	put_uleb(abbrev, DW_TAG_compile_unit);
	put_u8(abbrev, DW_CHILDREN_no);
	put_uleb(abbrev, DW_AT_stmt_list);
	put_uleb(abbrev, DW_FORM_sec_offset);
	put_uleb(abbrev, DW_AT_comp_dir);
	put_uleb(abbrev, DW_FORM_string);
	put_uleb(abbrev, DW_AT_name);
	put_uleb(abbrev, DW_FORM_string);
	put_uleb(abbrev, 0);
	put_uleb(abbrev, 0);
	put_uleb(abbrev, 0);	/* the end of the abbreviations */

	put_u32(info, 0);
	put_u16(info, 4);
	put_u32(info, 0);		/* debug_abbrev_offset */
	put_u8(info, 8);
	put_uleb(info, 1);
	put_u32(info, 0);
	put_str(info, "/comp");
	put_str(info, "a.c");
	len = info->len - 4;
	memcpy(info->b, &len, 4);
}

/* An ELF image in memory with the three sections, for elf_memory(). */
static char *make_elf(const struct buf *abbrev, const struct buf *info, const struct buf *line,
		      size_t *size)
{
	static const char shstrtab[] = "\0.debug_abbrev\0.debug_info\0.debug_line\0.shstrtab";
	const struct buf *secs[] = { abbrev, info, line, };
	const unsigned int names[] = { 1, 15, 27, 39, };
	size_t off = sizeof(Elf64_Ehdr), shoff;
	Elf64_Shdr *shdr;
	Elf64_Ehdr *ehdr;
	char *img;

	shoff = off + abbrev->len + info->len + line->len + sizeof(shstrtab);
	shoff = (shoff + 7) & ~(size_t)7;
	*size = shoff + 5 * sizeof(Elf64_Shdr);
	img = calloc(1, *size);
	if (!img)
		return NULL;
	ehdr = (Elf64_Ehdr *)img;
	memcpy(ehdr->e_ident, ELFMAG, SELFMAG);
	ehdr->e_ident[EI_CLASS] = ELFCLASS64;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	ehdr->e_ident[EI_DATA] = ELFDATA2LSB;
#else
	ehdr->e_ident[EI_DATA] = ELFDATA2MSB;
#endif
	ehdr->e_ident[EI_VERSION] = EV_CURRENT;
	ehdr->e_type = ET_EXEC;
	ehdr->e_machine = EM_X86_64;
	ehdr->e_version = EV_CURRENT;
	ehdr->e_ehsize = sizeof(Elf64_Ehdr);
	ehdr->e_shoff = shoff;
	ehdr->e_shentsize = sizeof(Elf64_Shdr);
	ehdr->e_shnum = 5;
	ehdr->e_shstrndx = 4;
	shdr = (Elf64_Shdr *)(img + shoff);
	for (int i = 0; i < 4; i++) {
		const void *data = i < 3 ? (const void *)secs[i]->b : shstrtab;
		size_t len = i < 3 ? secs[i]->len : sizeof(shstrtab);

		memcpy(img + off, data, len);
		shdr[i + 1] = (Elf64_Shdr){
			.sh_name = names[i], .sh_type = i < 3 ? SHT_PROGBITS : SHT_STRTAB,
			.sh_offset = off, .sh_size = len, .sh_addralign = 1,
		};
		off += len;
	}
	return img;
}

static int test__dwarf_lines_made(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	static const char * const what[] = {
		[PROG_ROWS]		= "rows out of order",
		[PROG_FAR]		= "rows 4 GiB apart",
		[PROG_LINE_2G]		= "a line of 2^30",
		[PROG_IS_STMT_2]	= "default_is_stmt 2",
		[PROG_NVIDIA]		= "an NVIDIA extended opcode",
		[PROG_LONG_ULEB]	= "an 11-byte operand",
		[PROG_DEFINE_FILE]	= "DW_LNE_define_file",
	};
	unsigned long checks = 0;
	int bad = 0;

	elf_version(EV_CURRENT);
	for (enum program prog = PROG_ROWS; prog <= PROG_DEFINE_FILE; prog++) {
		struct buf abbrev = { .len = 0 }, info = { .len = 0 }, line = { .len = 0 };
		struct dwarf_lines *lines;
		Dwarf_Die cu_die;
		Dwarf *dwarf;
		size_t size;
		char *img;
		Elf *elf;

		make_debug_info(&abbrev, &info);
		make_debug_line(&line, prog);
		if (line.len > sizeof(line.b))
			return TEST_FAIL;
		img = make_elf(&abbrev, &info, &line, &size);
		elf = img ? elf_memory(img, size) : NULL;
		dwarf = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
		if (!dwarf || !dwarf_offdie(dwarf, 11, &cu_die)) {
			pr_debug("%s: libdw reads no CU\n", what[prog]);
			bad++;
			goto next;
		}
		lines = dwarf_lines__new(&cu_die);
		if (prog <= PROG_LINE_2G && (!lines || dwarf_lines__nr_rows(lines) == 0)) {
			pr_debug("%s: not decoded\n", what[prog]);
			bad++;
		} else if (prog > PROG_LINE_2G && lines) {
			pr_debug("%s: decoded, not left to libdw\n", what[prog]);
			bad++;
		} else if (lines && dwarf_lines__row_size(lines) != (prog == PROG_ROWS ? 8 : 16)) {
			pr_debug("%s: rows of %zu bytes\n", what[prog],
				 dwarf_lines__row_size(lines));
			bad++;
		}
		if (lines) {
			pr_debug("%s: %zu rows\n", what[prog], dwarf_lines__nr_rows(lines));
			bad += cu__compare(&cu_die, lines, &checks);
			dwarf_lines__delete(lines);
		}
next:
		dwarf_end(dwarf);
		elf_end(elf);
		free(img);
	}
	pr_debug("%lu checks, %d differ\n", checks, bad);
	return bad ? TEST_FAIL : TEST_OK;
}

static struct test_case tests__dwarf_lines[] = {
	TEST_CASE("of perf's own DWARF", dwarf_lines),
	TEST_CASE("of line programs made to differ", dwarf_lines_made),
	{ .name = NULL, }
};

struct test_suite suite__dwarf_lines = {
	.desc = "Line tables decoded by perf match libdw",
	.test_cases = tests__dwarf_lines,
};
