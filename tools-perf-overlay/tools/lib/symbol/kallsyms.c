// SPDX-License-Identifier: GPL-2.0
#include "symbol/kallsyms.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

u8 kallsyms2elf_type(char type)
{
	type = tolower(type);
	return (type == 't' || type == 'w') ? STT_FUNC : STT_OBJECT;
}

bool kallsyms__is_function(char symbol_type)
{
	symbol_type = toupper(symbol_type);
	return symbol_type == 'T' || symbol_type == 'W';
}

/* One more than the value of each hexadecimal digit, 0 for other characters. */
static const unsigned char hex_digit_1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/*
 * One line, [line, eol), "<hex address> <type> <name>", the name followed by
 * "\t[<module>]" for a module's symbol. The name is handed over in place,
 * NUL-terminated at eol (writable), cut at KSYM_NAME_LEN characters. A line
 * of another form is skipped.
 */
static int kallsyms__parse_line(char *line, char *eol, void *arg,
				int (*process_symbol)(void *arg, const char *name,
						      char type, u64 start))
{
	char *p = line, *name;
	u64 start = 0;
	int digit;

	for (; p < eol && (digit = hex_digit_1[(unsigned char)*p]) != 0; p++)
		start = (start << 4) | (digit - 1);

	if (p == line || eol - p < 3 || p[0] != ' ' || p[2] != ' ')
		return 0;

	name = p + 3;
	if (eol - name > KSYM_NAME_LEN)
		eol = name + KSYM_NAME_LEN;
	*eol = '\0';
	return process_symbol(arg, name, p[1], start);
}

/*
 * Read size. /proc/kallsyms gives a page per read(); a regular file (a copy in
 * the build-id cache, a test's) fills the buffer.
 */
#define KALLSYMS_BUF_SIZE (64 * 1024)

/*
 * Calls process_symbol for each symbol of filename (a /proc/kallsyms), in file
 * order, until it returns non-zero: that value is returned, else 0; -1 if the
 * file can't be opened or the buffer allocated.
 *
 * Lines are parsed where they were read, without a copy: this runs on every
 * kernel symbol (100k-200k) when perf loads the kernel's symbols.
 */
int kallsyms__parse(const char *filename, void *arg,
		    int (*process_symbol)(void *arg, const char *name,
					  char type, u64 start))
{
	char *buf, *line, *eol, *end;
	bool skip = false;	/* dropping the rest of a line longer than buf */
	size_t len = 0;		/* bytes in buf, a line's start at buf */
	int fd, err = 0;
	ssize_t n;

	fd = open(filename, O_RDONLY);
	if (fd < 0)
		return -1;

	/* One more byte: a last line without a newline gets its NUL there. */
	buf = malloc(KALLSYMS_BUF_SIZE + 1);
	if (!buf) {
		close(fd);
		return -1;
	}

	for (;;) {
		n = read(fd, buf + len, KALLSYMS_BUF_SIZE - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;

		len += n;
		end = buf + len;
		for (line = buf; (eol = memchr(line, '\n', end - line)) != NULL; line = eol + 1) {
			if (!skip)
				err = kallsyms__parse_line(line, eol, arg, process_symbol);
			skip = false;
			if (err)
				goto out;
		}
		len = end - line;
		if (len == KALLSYMS_BUF_SIZE) {
			if (!skip)
				err = kallsyms__parse_line(buf, end, arg, process_symbol);
			if (err)
				goto out;
			skip = true;
			len = 0;
		} else if (len) {
			memmove(buf, line, len);
		}
	}
	if (len && !skip)
		err = kallsyms__parse_line(buf, buf + len, arg, process_symbol);
out:
	free(buf);
	close(fd);
	return err;
}
