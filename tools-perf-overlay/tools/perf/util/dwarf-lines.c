// SPDX-License-Identifier: GPL-2.0
/*
 * A CU's line table for source line lookups, decoded from .debug_line.
 *
 * libdw decodes a CU's whole line program into rows of 40 bytes
 * (dwarf_getsrclines()), with a list node malloc()ed per row on the way,
 * and keeps them for the life of the Dwarf: on broad C++ code, where the
 * sampled addresses fall in a few hundred CUs of tens of thousands of rows
 * each, that is hundreds of MB no caller can give back. A lookup needs
 * much less: of the rows at one address only the last in libdw's sorted
 * order answers (dwarf_getsrc_die()), and a row that follows one with the
 * same file and line answers as that one does. So perf decodes the
 * program itself, with the same rules as libdw, sorts the rows as libdw
 * does and keeps those that answer, 8 bytes each where they fit.
 *
 * Only libelf's public API reads the sections (an Elf's section data, as
 * libdw has inflated it); a line program perf does not decode (a form or an
 * opcode it doesn't know, a split or dwz unit, corrupt data) is left to
 * libdw: dwarf_lines__new() returns NULL.
 */
#include <dwarf.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include <linux/compiler.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "dwarf-lines.h"

struct dwarf_line_row {
	Dwarf_Addr	addr;
	int		line;
	unsigned int	file;		/* DWARF_LINE_END: the end of a sequence */
};

#define DWARF_LINE_END	UINT_MAX
/* Larger file indexes have no entry either: they answer as this one. */
#define DWARF_LINE_FILE_MAX (UINT_MAX - 1)

/*
 * A row in 8 bytes, as most CUs' rows fit: its address as an offset from
 * the table's lowest, its file in the table's file_bits low bits of
 * file_line (all ones: the end of a sequence) and its line above them.
 */
struct dwarf_line_row8 {
	uint32_t	addr;
	uint32_t	file_line;
};

struct dwarf_line_file {
	const char	*dir;		/* NULL: none (no DW_AT_comp_dir) */
	const char	*name;
	char		*path;		/* dir/name, made on first use */
};

/*
 * One CU's line table (dwarf_lines__new()). Key: the CU, as the caller
 * keeps it (struct dso_libdw's cu_lines). Bound: 8 bytes per row kept (16
 * where the CU's addresses span more than 4 GiB or its file indexes and
 * lines need more than 32 bits together), at most one row per byte of the
 * CU's line program, and 24 bytes per file, plus the names joined on first
 * use. Invalidation: none, the DWARF doesn't
 * change; the caller frees it before the Dwarf its names point into.
 * Locking: the caller's (dwarf_lines__file() joins names in place).
 *
 * Each CU's comp_dir is used for its own table; libdw caches one table
 * per line program offset, with the comp_dir of the unit that read it
 * first, which only a type unit sharing the program could make differ.
 */
struct dwarf_lines {
	size_t			nr_rows;	/* sorted by address, in one of: */
	struct dwarf_line_row	*rows;		/*   NULL when they are in rows8 */
	struct dwarf_line_row8	*rows8;
	Dwarf_Addr		base;		/* rows8's addresses are from here */
	unsigned int		file_bits;	/* of rows8's file_line */
	size_t			nr_files, alloc_files;
	struct dwarf_line_file	*files;
};

struct lines_section {
	const unsigned char	*start, *end;
};

struct lines_reader {
	const unsigned char	*p, *end;
	bool			big_endian;
	bool			bad;
};

/*
 * LEB128 numbers of at most 10 bytes, as libdw reads them; a longer one,
 * or one that runs past the end, libdw reads as another number: refused.
 */
#define LEB128_MAX_BYTES 10

static uint64_t reader__uleb(struct lines_reader *r)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < LEB128_MAX_BYTES && r->p < r->end; i++) {
		unsigned char b = *r->p++;

		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static int64_t reader__sleb(struct lines_reader *r)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < LEB128_MAX_BYTES && r->p < r->end; i++) {
		unsigned char b = *r->p++;

		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			if (i < LEB128_MAX_BYTES - 1 && (b & 0x40))
				v |= ~0ULL << (7 * (i + 1));
			return (int64_t)v;
		}
	}
	r->bad = true;
	return 0;
}

static uint64_t reader__fixed(struct lines_reader *r, unsigned int size)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < size) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	for (unsigned int i = 0; i < size; i++) {
		unsigned int shift = r->big_endian ? 8 * (size - 1 - i) : 8 * i;

		v |= (uint64_t)r->p[i] << shift;
	}
	r->p += size;
	return v;
}

static const char *reader__string(struct lines_reader *r)
{
	const unsigned char *nul = memchr(r->p, '\0', r->end - r->p);
	const char *s = (const char *)r->p;

	if (!nul) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	r->p = nul + 1;
	return s;
}

static const char *section__string(const struct lines_section *sec, uint64_t off)
{
	if (!sec->start || off >= (uint64_t)(sec->end - sec->start) ||
	    !memchr(sec->start + off, '\0', sec->end - sec->start - off))
		return NULL;
	return (const char *)sec->start + off;
}

/*
 * The data of the section libdw reads by that name (the first outside a
 * section group), unless libdw left it compressed: then none, and the CU's
 * lines are left to libdw.
 */
static void elf__lines_section(Elf *elf, size_t shstrndx, const char *name,
			       struct lines_section *sec)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		const char *scn_name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || (shdr.sh_flags & SHF_GROUP))
			continue;
		scn_name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (!scn_name || strcmp(scn_name, name))
			continue;
		if (shdr.sh_type == SHT_NOBITS)
			return;
		if (shdr.sh_flags & SHF_COMPRESSED) {
			pr_debug2("%s is still compressed: libdw decodes its line tables\n", name);
			return;
		}
		data = elf_getdata(scn, NULL);
		if (data && data->d_buf) {
			sec->start = data->d_buf;
			sec->end = sec->start + data->d_size;
		}
		return;
	}
}

static int dwarf_lines__add_file(struct dwarf_lines *lines, const char *dir, const char *name)
{
	if (lines->nr_files == lines->alloc_files) {
		size_t alloc = lines->alloc_files ? lines->alloc_files * 2 : 64;
		struct dwarf_line_file *files;

		if (alloc > SIZE_MAX / sizeof(*files))
			return -ENOMEM;
		files = realloc(lines->files, alloc * sizeof(*files));
		if (!files)
			return -ENOMEM;
		lines->files = files;
		lines->alloc_files = alloc;
	}
	lines->files[lines->nr_files++] = (struct dwarf_line_file){ .dir = dir, .name = name, };
	return 0;
}

/* A DWARF 5 directory or file entry format: content type and form. */
struct entry_format {
	uint64_t	type, form;
};

/*
 * Reads one DWARF 5 entry of the directory or file table: its path and
 * directory index. Only the forms compilers use are known.
 */
static int read_entry(struct lines_reader *r, const struct entry_format *fmt, unsigned int nfmt,
		      unsigned int offset_size, const struct lines_section *str,
		      const struct lines_section *line_str, const char **path, uint64_t *dir)
{
	*path = NULL;
	*dir = UINT64_MAX;
	for (unsigned int i = 0; i < nfmt; i++) {
		const char *s = NULL;
		uint64_t v = 0;
		bool is_string = false, is_value = true;

		switch (fmt[i].form) {
		case DW_FORM_string:
			s = reader__string(r);
			is_string = true;
			break;
		case DW_FORM_line_strp:
		case DW_FORM_strp:
			v = reader__fixed(r, offset_size);
			s = section__string(fmt[i].form == DW_FORM_strp ? str : line_str, v);
			is_string = true;
			if (!s)
				return -EINVAL;
			break;
		case DW_FORM_udata:
			v = reader__uleb(r);
			break;
		case DW_FORM_data1:
			v = reader__fixed(r, 1);
			break;
		case DW_FORM_data2:
			v = reader__fixed(r, 2);
			break;
		case DW_FORM_data4:
			v = reader__fixed(r, 4);
			break;
		case DW_FORM_data8:
			v = reader__fixed(r, 8);
			break;
		case DW_FORM_data16:	/* DW_LNCT_MD5 */
			if (r->end - r->p < 16)
				return -EINVAL;
			r->p += 16;
			is_value = false;
			break;
		case DW_FORM_block: {
			uint64_t len = reader__uleb(r);

			if (len > (uint64_t)(r->end - r->p))
				return -EINVAL;
			r->p += len;
			is_value = false;
			break;
		}
		default:	/* strx, strp_sup, ...: left to libdw */
			return -EINVAL;
		}
		if (r->bad)
			return -EINVAL;
		if (fmt[i].type == DW_LNCT_path) {
			if (!is_string)
				return -EINVAL;
			*path = s;
		} else if (fmt[i].type == DW_LNCT_directory_index) {
			/* dwarf_formudata() reads it: data1/2/4/8 and udata */
			if (is_string || !is_value)
				return -EINVAL;
			*dir = v;
		}
	}
	return 0;
}

/*
 * Reads a DWARF 5 entry format list. libdw checks each form before it
 * reads an entry and keeps types and forms in 16 bits: a form read_entry()
 * doesn't know, or a larger number, is refused here.
 */
static int read_formats(struct lines_reader *r, struct entry_format *fmt, unsigned int *nfmt)
{
	*nfmt = reader__fixed(r, 1);
	for (unsigned int i = 0; i < *nfmt; i++) {
		fmt[i].type = reader__uleb(r);
		fmt[i].form = reader__uleb(r);
		if (r->bad || fmt[i].type > 0xffff)
			return -EINVAL;
		switch (fmt[i].form) {
		case DW_FORM_string:
		case DW_FORM_line_strp:
		case DW_FORM_strp:
		case DW_FORM_udata:
		case DW_FORM_data1:
		case DW_FORM_data2:
		case DW_FORM_data4:
		case DW_FORM_data8:
		case DW_FORM_data16:
		case DW_FORM_block:
			break;
		default:
			return -EINVAL;
		}
	}
	return r->bad ? -EINVAL : 0;
}

static bool has_type(const struct entry_format *fmt, unsigned int nfmt, uint64_t type)
{
	for (unsigned int i = 0; i < nfmt; i++) {
		if (fmt[i].type == type)
			return true;
	}
	return false;
}

/*
 * Whether row a sorts after row b in libdw's order: by address, the end of
 * a sequence before a row at the same address, otherwise in the order of
 * the program (the sort is stable).
 */
static bool row__after(const struct dwarf_line_row *a, const struct dwarf_line_row *b)
{
	if (a->addr != b->addr)
		return a->addr > b->addr;
	return a->file != DWARF_LINE_END && b->file == DWARF_LINE_END;
}

/*
 * Stable sort of the rows: a merge of the runs already in order, the
 * sequences of the program, most often few and long.
 */
static int rows__sort(struct dwarf_line_row *rows, size_t nr)
{
	struct dwarf_line_row *tmp, *src = rows, *dst;
	size_t *runs, nr_runs = 0;

	runs = malloc((nr + 1) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		if (i == 0 || row__after(&rows[i - 1], &rows[i]))
			runs[nr_runs++] = i;
	}
	if (nr_runs <= 1) {
		free(runs);
		return 0;
	}
	tmp = malloc(nr * sizeof(*tmp));
	if (!tmp) {
		free(runs);
		return -ENOMEM;
	}
	runs[nr_runs] = nr;
	dst = tmp;
	while (nr_runs > 1) {
		size_t n = 0;

		for (size_t i = 0; i < nr_runs; i += 2) {
			size_t a = runs[i], a_end = runs[i + 1], b = a_end;
			size_t b_end = i + 2 <= nr_runs ? runs[i + 2] : a_end, o = a;

			while (a < a_end && b < b_end)
				dst[o++] = row__after(&src[a], &src[b]) ? src[b++] : src[a++];
			while (a < a_end)
				dst[o++] = src[a++];
			while (b < b_end)
				dst[o++] = src[b++];
			runs[n++] = runs[i];
		}
		runs[n] = nr;
		nr_runs = n;
		dst = src;
		src = src == rows ? tmp : rows;
	}
	if (src != rows)
		memcpy(rows, src, nr * sizeof(*rows));
	free(tmp);
	free(runs);
	return 0;
}

/*
 * Keeps the rows a lookup can find: the last of each address, and of those
 * the first of a run with the same file and line (or ends of sequences).
 * libdw marks the last row as the end of a sequence, as the spec wants: so
 * does this, before rows of the same line are merged into the first.
 */
static size_t rows__compact(struct dwarf_line_row *rows, size_t nr)
{
	size_t n = 0;

	if (nr)
		rows[nr - 1].file = DWARF_LINE_END;
	for (size_t i = 0; i < nr; i++) {
		if (i + 1 < nr && rows[i + 1].addr == rows[i].addr)
			continue;
		if (n && rows[n - 1].file == rows[i].file &&
		    (rows[i].file == DWARF_LINE_END || rows[n - 1].line == rows[i].line))
			continue;
		rows[n++] = rows[i];
	}
	return n;
}

/*
 * The compacted rows in 8 bytes each in lines->rows8, if they fit: the
 * file indexes and the END mark in the fewest bits that hold them, the
 * lines in the rest (a negative line keeps the rows in 16 bytes).
 */
static void rows__pack(struct dwarf_lines *lines)
{
	const struct dwarf_line_row *rows = lines->rows;
	size_t nr = lines->nr_rows;
	unsigned int max_file = 0, bits = 1, end;
	struct dwarf_line_row8 *rows8;

	if (!nr || rows[nr - 1].addr - rows[0].addr > UINT32_MAX)
		return;
	for (size_t i = 0; i < nr; i++) {
		if (rows[i].file != DWARF_LINE_END && rows[i].file > max_file)
			max_file = rows[i].file;
	}
	/* The END mark is all ones: one more than the largest file. */
	while (bits < 32 && (max_file + 1) >> bits)
		bits++;
	if (bits >= 32 || (max_file + 1) >> bits)
		return;
	end = (1U << bits) - 1;
	for (size_t i = 0; i < nr; i++) {
		if (rows[i].file != DWARF_LINE_END &&
		    (rows[i].line < 0 || (uint32_t)rows[i].line >> (32 - bits)))
			return;
	}
	rows8 = malloc(nr * sizeof(*rows8));
	if (!rows8)
		return;
	for (size_t i = 0; i < nr; i++) {
		rows8[i].addr = rows[i].addr - rows[0].addr;
		rows8[i].file_line = rows[i].file == DWARF_LINE_END ? end :
				     (uint32_t)rows[i].line << bits | rows[i].file;
	}
	lines->base = rows[0].addr;
	lines->file_bits = bits;
	lines->rows8 = rows8;
	zfree(&lines->rows);
}

struct line_state {
	uint64_t	addr;
	unsigned int	op_index;
	unsigned int	file;
	int64_t		line;
	uint64_t	column;
	uint64_t	isa;
	uint64_t	discriminator;
};

/*
 * Runs the line program from r->p to r->end into lines->rows, as libdw's
 * read_srclines() does, with its checks (rows libdw would refuse make the
 * whole program refused).
 */
static int run_program(struct lines_reader *r, struct dwarf_lines *lines,
		       const unsigned char *std_lengths, unsigned int opcode_base,
		       unsigned int min_insn_len, unsigned int max_ops, int line_base,
		       unsigned int line_range, unsigned int address_size)
{
	struct line_state st = { .file = 1, .line = 1, };
	size_t alloc = 0;

	/* In unsigned int, as libdw computes it. */
#define ADVANCE_PC(adv) do {							\
		unsigned int __adv = (adv);					\
		st.addr += min_insn_len * ((st.op_index + __adv) / max_ops);	\
		st.op_index = (st.op_index + __adv) % max_ops;			\
	} while (0)

	while (r->p < r->end) {
		unsigned int opcode = *r->p++;
		bool row = false, end = false;

		if (opcode >= opcode_base) {
			if (line_range == 0)
				return -EINVAL;
			st.line += line_base + (int)((opcode - opcode_base) % line_range);
			ADVANCE_PC((opcode - opcode_base) / line_range);
			row = true;
		} else if (opcode == 0) {
			const unsigned char *next;
			unsigned int len;

			if (r->end - r->p < 2)
				return -EINVAL;
			len = *r->p++;
			if ((size_t)(r->end - r->p) < len)
				return -EINVAL;
			next = r->p + len;
			opcode = *r->p++;
			switch (opcode) {
			case DW_LNE_end_sequence:
				row = true;
				end = true;
				break;
			case DW_LNE_set_address:
				if (address_size != 4 && address_size != 8)
					return -EINVAL;
				st.op_index = 0;
				st.addr = reader__fixed(r, address_size);
				break;
			case DW_LNE_set_discriminator:
				/* libdw checks the length of the standard opcode 4 */
				if (opcode_base <= opcode || std_lengths[opcode] != 1)
					return -EINVAL;
				st.discriminator = reader__uleb(r);
				break;
			case DW_LNE_define_file:	/* left to libdw */
			case 0x90:	/* DW_LNE_NVIDIA_inlined_call and */
			case 0x91:	/* _set_function_name: libdw reads them its way */
				return -EINVAL;
			default:	/* unknown: skipped, as libdw does */
				r->p = next;
				break;
			}
		} else if (opcode <= DW_LNS_set_isa) {
			static const unsigned char nargs[] = {
				[DW_LNS_copy] = 0, [DW_LNS_advance_pc] = 1,
				[DW_LNS_advance_line] = 1, [DW_LNS_set_file] = 1,
				[DW_LNS_set_column] = 1, [DW_LNS_negate_stmt] = 0,
				[DW_LNS_set_basic_block] = 0, [DW_LNS_const_add_pc] = 0,
				[DW_LNS_fixed_advance_pc] = 1, [DW_LNS_set_prologue_end] = 0,
				[DW_LNS_set_epilogue_begin] = 0, [DW_LNS_set_isa] = 1,
			};

			if (std_lengths[opcode] != nargs[opcode])
				return -EINVAL;
			switch (opcode) {
			case DW_LNS_copy:
				row = true;
				break;
			case DW_LNS_advance_pc:
				/* libdw reads the operand into an unsigned int */
				ADVANCE_PC((unsigned int)reader__uleb(r));
				break;
			case DW_LNS_advance_line:
				st.line += (int)reader__sleb(r);
				break;
			case DW_LNS_set_file:
				st.file = (unsigned int)reader__uleb(r);
				break;
			case DW_LNS_set_column:
				st.column = (unsigned int)reader__uleb(r);
				break;
			case DW_LNS_const_add_pc:
				if (line_range == 0)
					return -EINVAL;
				ADVANCE_PC((255 - opcode_base) / line_range);
				break;
			case DW_LNS_fixed_advance_pc:
				st.addr += reader__fixed(r, 2);
				st.op_index = 0;
				break;
			case DW_LNS_set_isa:
				st.isa = reader__uleb(r);
				break;
			default:	/* flags that don't change a lookup */
				break;
			}
		} else {
			/* An opcode this reader doesn't know: skip its operands. */
			for (unsigned int n = std_lengths[opcode]; n > 0; n--)
				reader__uleb(r);
		}
		if (r->bad)
			return -EINVAL;
		if (!row)
			continue;

		/* libdw's row keeps these in bit fields and refuses what doesn't fit. */
		if (st.line != (int)st.line || st.column > USHRT_MAX || st.isa > 0xff ||
		    st.discriminator >= (1U << 24))
			return -EINVAL;
		if (lines->nr_rows == alloc) {
			struct dwarf_line_row *rows;

			alloc = alloc ? alloc * 2 : 1024;
			if (alloc > SIZE_MAX / sizeof(*rows))
				return -ENOMEM;
			rows = realloc(lines->rows, alloc * sizeof(*rows));
			if (!rows)
				return -ENOMEM;
			lines->rows = rows;
		}
		lines->rows[lines->nr_rows++] = (struct dwarf_line_row){
			.addr = st.addr, .line = (int)st.line,
			.file = end ? DWARF_LINE_END :
				st.file > DWARF_LINE_FILE_MAX ? DWARF_LINE_FILE_MAX : st.file,
		};
		st.discriminator = 0;
		if (end)
			st = (struct line_state){ .file = 1, .line = 1, };
	}
#undef ADVANCE_PC
	return 0;
}

/* Decodes the line program at offset off of .debug_line, as read_srclines() does. */
static int dwarf_lines__read(struct dwarf_lines *lines, Elf *elf, uint64_t off,
			     const char *comp_dir, unsigned int address_size)
{
	struct lines_section line = { NULL, NULL }, str = { NULL, NULL }, line_str = { NULL, NULL };
	struct entry_format fmt[256];
	unsigned int version, offset_size = 4, nfmt, min_insn_len, max_ops = 1;
	unsigned int line_range, opcode_base;
	const unsigned char *std_lengths, *prog;
	const char **dirs = NULL;
	uint64_t unit_length, header_length, ndirs, nfiles;
	struct lines_reader r;
	int line_base, err = -EINVAL;
	GElf_Ehdr ehdr;
	size_t shstrndx;

	/* libdwfl relocates the sections of an ET_REL file: left to libdw. */
	if (!gelf_getehdr(elf, &ehdr) || ehdr.e_type == ET_REL ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return -EINVAL;
	elf__lines_section(elf, shstrndx, ".debug_line", &line);
	if (!line.start || off >= (uint64_t)(line.end - line.start))
		return -EINVAL;
	r = (struct lines_reader){
		.p = line.start + off, .end = line.end,
		.big_endian = ehdr.e_ident[EI_DATA] == ELFDATA2MSB,
	};

	unit_length = reader__fixed(&r, 4);
	if (unit_length == 0xffffffff) {
		unit_length = reader__fixed(&r, 8);
		offset_size = 8;
	}
	if (r.bad || unit_length > (uint64_t)(r.end - r.p))
		return -EINVAL;
	r.end = r.p + unit_length;
	version = reader__fixed(&r, 2);
	if (r.bad || version < 2 || version > 5)
		return -EINVAL;
	if (version >= 5) {
		if (reader__fixed(&r, 1) != address_size || reader__fixed(&r, 1) != 0)
			return -EINVAL;
	}
	header_length = reader__fixed(&r, offset_size);
	if (r.bad || header_length > (uint64_t)(r.end - r.p))
		return -EINVAL;
	prog = r.p + header_length;
	min_insn_len = reader__fixed(&r, 1);
	if (version >= 4) {
		max_ops = reader__fixed(&r, 1);
		if (max_ops == 0)
			return -EINVAL;
	}
	/* libdw keeps is_stmt in one bit: it refuses rows of any other value. */
	if (reader__fixed(&r, 1) > 1)
		return -EINVAL;
	line_base = (int8_t)reader__fixed(&r, 1);
	line_range = reader__fixed(&r, 1);
	opcode_base = reader__fixed(&r, 1);
	if (r.bad || opcode_base == 0 || (size_t)(r.end - r.p) < opcode_base - 1)
		return -EINVAL;
	std_lengths = r.p - 1;	/* std_lengths[opcode], from 1 */
	r.p += opcode_base - 1;

	if (version >= 5) {
		elf__lines_section(elf, shstrndx, ".debug_str", &str);
		elf__lines_section(elf, shstrndx, ".debug_line_str", &line_str);

		/* The directories, the first one the compilation's. */
		if (read_formats(&r, fmt, &nfmt))
			return -EINVAL;
		ndirs = reader__uleb(&r);
		if (r.bad || (nfmt && !has_type(fmt, nfmt, DW_LNCT_path)) || (!nfmt && ndirs) ||
		    (nfmt && ndirs > (uint64_t)(r.end - r.p) / nfmt))
			return -EINVAL;
		dirs = calloc(ndirs + 1, sizeof(*dirs));
		if (!dirs)
			return -ENOMEM;
		for (uint64_t i = 0; i < ndirs; i++) {
			uint64_t unused;

			if (read_entry(&r, fmt, nfmt, offset_size, &str, &line_str,
				       &dirs[i], &unused) || !dirs[i])
				goto out;
		}

		/* The files: the first one replaces libdw's "???" at index 0. */
		if (read_formats(&r, fmt, &nfmt))
			goto out;
		nfiles = reader__uleb(&r);
		if (r.bad || (nfmt && (!has_type(fmt, nfmt, DW_LNCT_path) ||
				       !has_type(fmt, nfmt, DW_LNCT_directory_index))) ||
		    (!nfmt && nfiles) || (nfmt && nfiles > (uint64_t)(r.end - r.p) / nfmt))
			goto out;
		if (!nfiles && dwarf_lines__add_file(lines, NULL, "???"))
			goto out_enomem;
		for (uint64_t i = 0; i < nfiles; i++) {
			const char *name;
			uint64_t dir;

			if (read_entry(&r, fmt, nfmt, offset_size, &str, &line_str, &name, &dir) ||
			    !name || dir >= ndirs)
				goto out;
			if (dwarf_lines__add_file(lines, dirs[dir], name))
				goto out_enomem;
		}
	} else {
		const unsigned char *p;

		/* The directories, after the compilation's at index 0. */
		for (ndirs = 1, p = r.p; p < r.end && *p; ndirs++) {
			const unsigned char *nul = memchr(p, '\0', r.end - p);

			if (!nul)
				return -EINVAL;
			p = nul + 1;
		}
		if (p >= r.end)
			return -EINVAL;
		dirs = calloc(ndirs, sizeof(*dirs));
		if (!dirs)
			return -ENOMEM;
		dirs[0] = comp_dir;
		for (uint64_t i = 1; i < ndirs; i++)
			dirs[i] = reader__string(&r);
		r.p++;

		/* The files, from index 1. */
		if (r.p >= r.end)
			goto out;
		if (dwarf_lines__add_file(lines, NULL, "???"))
			goto out_enomem;
		while (r.p < r.end && *r.p) {
			const char *name = reader__string(&r);
			uint64_t dir = reader__uleb(&r);

			reader__uleb(&r);	/* mtime */
			reader__uleb(&r);	/* length */
			if (r.bad || dir >= ndirs)
				goto out;
			if (dwarf_lines__add_file(lines, dirs[dir], name))
				goto out_enomem;
		}
		if (r.p >= r.end)
			goto out;
		r.p++;
	}
	if (r.p != prog)	/* libdw refuses it too (the 4 bytes of a CUBIN: left to it) */
		goto out;

	err = run_program(&r, lines, std_lengths, opcode_base, min_insn_len, max_ops,
			  line_base, line_range, address_size);
	if (!err)
		err = rows__sort(lines->rows, lines->nr_rows);
	goto out;

out_enomem:
	err = -ENOMEM;
out:
	free(dirs);
	return err;
}

struct dwarf_lines *dwarf_lines__new(Dwarf_Die *cu_die)
{
	Dwarf_Attribute attr;
	Dwarf_Word stmt_list;
	uint8_t address_size, offset_size;
	Dwarf_Half version;
	Dwarf_Off abbrev_off;
	struct dwarf_lines *lines;
	Dwarf_Die unit;
	size_t nr;

	/*
	 * A split unit's or a dwz partial unit's lines: left to libdw. So is
	 * a DW_AT_stmt_list of a form libdw would not take as an offset.
	 */
	if (dwarf_tag(cu_die) != DW_TAG_compile_unit ||
	    dwarf_hasattr(cu_die, DW_AT_dwo_name) || dwarf_hasattr(cu_die, DW_AT_GNU_dwo_name) ||
	    !dwarf_cu_die(cu_die->cu, &unit, &version, &abbrev_off, &address_size,
			  &offset_size, NULL, NULL) ||
	    !dwarf_attr(cu_die, DW_AT_stmt_list, &attr))
		return NULL;
	switch (dwarf_whatform(&attr)) {
	case DW_FORM_sec_offset:
		break;
	case DW_FORM_data4:
	case DW_FORM_data8:
		if (version < 4)
			break;
		fallthrough;
	default:
		return NULL;
	}
	if (dwarf_formudata(&attr, &stmt_list))
		return NULL;

	lines = zalloc(sizeof(*lines));
	if (!lines)
		return NULL;
	if (dwarf_lines__read(lines, dwarf_getelf(dwarf_cu_getdwarf(cu_die->cu)), stmt_list,
			      dwarf_formstring(dwarf_attr(cu_die, DW_AT_comp_dir, &attr)),
			      address_size)) {
		dwarf_lines__delete(lines);
		return NULL;
	}
	nr = rows__compact(lines->rows, lines->nr_rows);
	lines->nr_rows = nr;
	rows__pack(lines);
	if (nr && lines->rows) {
		struct dwarf_line_row *rows = realloc(lines->rows, nr * sizeof(*rows));

		if (rows)
			lines->rows = rows;
	} else {
		zfree(&lines->rows);
	}
	if (lines->nr_files && lines->nr_files < lines->alloc_files) {
		struct dwarf_line_file *files;

		files = realloc(lines->files, lines->nr_files * sizeof(*files));
		if (files) {
			lines->files = files;
			lines->alloc_files = lines->nr_files;
		}
	}
	return lines;
}

void dwarf_lines__delete(struct dwarf_lines *lines)
{
	if (!lines)
		return;
	for (size_t i = 0; i < lines->nr_files; i++)
		free(lines->files[i].path);
	free(lines->files);
	free(lines->rows);
	free(lines->rows8);
	free(lines);
}

const char *dwarf_lines__file(struct dwarf_lines *lines, Dwarf_Word idx)
{
	struct dwarf_line_file *f;

	if (idx >= lines->nr_files)
		return NULL;
	f = &lines->files[idx];
	if (f->name[0] == '/' || !f->dir)
		return f->name;
	if (!f->path && asprintf(&f->path, "%s/%s", f->dir, f->name) < 0) {
		f->path = NULL;
		return NULL;
	}
	return f->path;
}

static int dwarf_lines__find8(struct dwarf_lines *lines, Dwarf_Addr addr,
			      const char **file, int *lineno)
{
	size_t lo = 0, hi = lines->nr_rows;
	uint32_t file_line, end = (1U << lines->file_bits) - 1;
	uint64_t off;

	if (addr < lines->base)
		return 0;
	off = addr - lines->base;
	/* The last row at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lines->rows8[mid].addr <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	file_line = lines->rows8[lo - 1].file_line;
	if ((file_line & end) == end)
		return 0;
	*lineno = file_line >> lines->file_bits;
	*file = dwarf_lines__file(lines, file_line & end);
	return 1;
}

int dwarf_lines__find(struct dwarf_lines *lines, Dwarf_Addr addr,
		      const char **file, int *lineno)
{
	size_t lo = 0, hi = lines->nr_rows;
	const struct dwarf_line_row *row;

	if (lines->rows8)
		return dwarf_lines__find8(lines, addr, file, lineno);

	/* The last row at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lines->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	row = &lines->rows[lo - 1];
	if (row->file == DWARF_LINE_END)
		return 0;
	*lineno = row->line;
	*file = dwarf_lines__file(lines, row->file);
	return 1;
}

size_t dwarf_lines__nr_rows(const struct dwarf_lines *lines)
{
	return lines->nr_rows;
}

size_t dwarf_lines__row_size(const struct dwarf_lines *lines)
{
	return lines->rows8 ? sizeof(*lines->rows8) : sizeof(*lines->rows);
}

/* Without the names joined on first use. */
size_t dwarf_lines__size(const struct dwarf_lines *lines)
{
	return sizeof(*lines) +
	       lines->nr_rows * dwarf_lines__row_size(lines) +
	       lines->alloc_files * sizeof(*lines->files);
}
