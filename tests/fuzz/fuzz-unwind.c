// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for perf's libdw DWARF unwinder of a sample's user stack
 * (util/unwind-libdw.c, the unwinder's per-dso ELF state of util/libdw.c).
 *
 * Each input is a sample and the ELF file it was taken in:
 *
 *   offset 0   u8  flags		FUZZ_F_* below
 *          1   u8  reserved
 *          2   u16 stack_len	of the user stack copy, at most 8 KiB
 *          4   u32 ip_off		with FUZZ_F_IP: IP = FUZZ_MAP_START + ip_off
 *          8   u64 regs[20]	the x86_64 user registers of PERF_REGS_MASK,
 *				in perf_event's order (AX BX CX DX SI DI BP SP
 *				IP FLAGS CS SS R8..R15)
 *        168   stack_len bytes	the user stack copy, from SP up
 *          …   the rest		an ELF file
 *
 * All little endian; a short input is padded with zeroes. The ELF file is
 * written to a file of this process and mapped at FUZZ_MAP_START (0x400000,
 * where a non-PIE x86_64 executable is linked; a shared library is at that
 * base) by a PERF_RECORD_MMAP2 event given to machine__process_mmap2_event(),
 * as perf report does, whole, executable, at offset 0, in a thread of a
 * fresh host machine. The sample gets the registers (PERF_SAMPLE_REGS_USER)
 * and the stack copy (PERF_SAMPLE_STACK_USER), and unwind__get_entries()
 * unwinds it with the libdw unwinder (unwind.style=libdw; libunwind is not
 * built), 64 frames at most. The machine is then torn down: thread, maps,
 * the address space's Dwfl and symbol cache, the dso and its ELF state, so
 * that nothing is kept from one input to the next.
 *
 * Build and run: scripts/fuzz.sh in the project (make fuzz).
 * FUZZ_UNWIND_VERBOSE=1: print the frames found, to check the harness.
 *
 * Findings: perf's ELF symbol loading (dso__load_sym_internal() and
 * dso__synthesize_plt_symbols() in util/symbol-elf.c), which the unwinder
 * reaches through thread__find_symbol(): the harness's first runs found five ways a crafted file's
 * symbol, string and PLT tables made that read out of bounds, divide by
 * zero or make 2^44 symbols (util/symbol-elf.c, fixed in "perf symbol:
 * Read an ELF file's symbol, string and PLT tables only within them").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/bitops.h>
#include <linux/zalloc.h>

#include "perf_regs.h"
#include "util/build-id.h"
#include "util/callchain.h"
#include "util/debug.h"
#include "util/env.h"
#include "util/event.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/sample.h"
#include "util/symbol.h"
#include "util/symbol_conf.h"
#include "fuzz-common.h"
#include "util/thread.h"
#include "util/unwind.h"

#define FUZZ_MAP_START	0x400000ULL
#define FUZZ_STACK_MAX	8192
#define FUZZ_MAX_STACK	64
#define FUZZ_HDR_SIZE	8

/* flags */
#define FUZZ_F_CALLER	0x01	/* callchain order caller first */
#define FUZZ_F_BEST	0x02	/* best_effort, as perf top */
#define FUZZ_F_IP	0x04	/* IP from ip_off, not from regs[] */
#define FUZZ_F_FEWREGS	0x08	/* only IP, SP and BP sampled */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct perf_env fuzz_env;
static unsigned int fuzz_nregs;

int LLVMFuzzerInitialize(int *argc __maybe_unused, char ***argv __maybe_unused)
{
	fuzz_setup("unwind", "FUZZ_UNWIND_VERBOSE");
	/* The libdw unwinder, whatever else is built. */
	unwind__configure("unwind.style", "libdw", NULL);
	perf_env__init(&fuzz_env);
	fuzz_nregs = hweight64(PERF_REGS_MASK);
	return 0;
}

static int fuzz_entry(struct unwind_entry *entry, void *arg)
{
	unsigned long *cnt = arg;

	if (fuzz_verbose)
		fprintf(stderr, "  #%lu %#" PRIx64 " %s\n", *cnt, entry->ip,
			entry->ms.sym ? entry->ms.sym->name : "??");
	(*cnt)++;
	return 0;
}

/* The ELF file as a PERF_RECORD_MMAP2 of thread pid, as perf report reads it. */
static int fuzz_mmap(struct machine *machine, pid_t pid, u64 len)
{
	size_t fsize = sizeof(struct perf_record_mmap2) - PATH_MAX + strlen(fuzz_file) + 1;
	union perf_event *event = zalloc(sizeof(struct perf_record_mmap2));
	struct perf_sample sample;
	int err;

	if (!event)
		return -1;
	event->mmap2.header.type = PERF_RECORD_MMAP2;
	event->mmap2.header.misc = PERF_RECORD_MISC_USER;
	event->mmap2.header.size = PERF_ALIGN(fsize, sizeof(u64));
	event->mmap2.pid = pid;
	event->mmap2.tid = pid;
	event->mmap2.start = FUZZ_MAP_START;
	event->mmap2.len = PERF_ALIGN(len, 4096);
	event->mmap2.pgoff = 0;
	event->mmap2.prot = PROT_READ | PROT_EXEC;
	event->mmap2.flags = MAP_PRIVATE;
	strcpy(event->mmap2.filename, fuzz_file);

	perf_sample__init(&sample, /*all=*/true);
	sample.cpumode = PERF_RECORD_MISC_USER;
	sample.pid = sample.tid = pid;
	err = machine__process_mmap2_event(machine, event, &sample);
	perf_sample__exit(&sample);
	free(event);
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t regs_size = fuzz_nregs * sizeof(u64);
	u8 hdr[FUZZ_HDR_SIZE] = { 0 };
	size_t stack_len, off, elf_size;
	struct perf_sample sample;
	struct regs_dump *regs;
	struct machine machine;
	struct thread *thread;
	unsigned long cnt = 0;
	/* Our own: a dso e_machine can't tell is taken from /proc/pid/exe. */
	pid_t pid = getpid();
	u32 ip_off;
	u64 *rv;
	int ret;

	memcpy(hdr, data, size < sizeof(hdr) ? size : sizeof(hdr));
	off = size < sizeof(hdr) ? size : sizeof(hdr);
	stack_len = (hdr[2] | hdr[3] << 8) % (FUZZ_STACK_MAX + 1);
	ip_off = hdr[4] | hdr[5] << 8 | hdr[6] << 16 | (u32)hdr[7] << 24;

	rv = calloc(fuzz_nregs, sizeof(u64));
	if (!rv)
		return 0;
	memcpy(rv, data + off, size - off < regs_size ? size - off : regs_size);
	off += size - off < regs_size ? size - off : regs_size;

	perf_sample__init(&sample, /*all=*/true);
	sample.user_stack.data = calloc(1, stack_len ?: 1);
	if (!sample.user_stack.data)
		goto out_regs;
	memcpy(sample.user_stack.data, data + off, size - off < stack_len ? size - off : stack_len);
	off += size - off < stack_len ? size - off : stack_len;
	sample.user_stack.size = stack_len;

	elf_size = size - off;
	if (fuzz_write(data + off, elf_size))
		goto out_stack;

	regs = perf_sample__user_regs(&sample);
	if (!regs)
		goto out_stack;
	regs->abi = PERF_SAMPLE_REGS_ABI;
	regs->mask = PERF_REGS_MASK;
	regs->regs = rv;
	if (hdr[0] & FUZZ_F_IP)
		rv[PERF_REG_X86_IP] = FUZZ_MAP_START + ip_off;
	if (hdr[0] & FUZZ_F_FEWREGS) {
		/* The regs in mask order: BP, SP, IP are the 7th, 8th and 9th. */
		regs->mask = (1ULL << PERF_REG_X86_BP) | (1ULL << PERF_REG_X86_SP) |
			     (1ULL << PERF_REG_X86_IP);
		rv[0] = rv[PERF_REG_X86_BP];
		rv[1] = rv[PERF_REG_X86_SP];
		rv[2] = rv[PERF_REG_X86_IP];
	}
	sample.cpumode = PERF_RECORD_MISC_USER;
	sample.pid = sample.tid = pid;
	sample.ip = rv[(hdr[0] & FUZZ_F_FEWREGS) ? 2 : PERF_REG_X86_IP];

	if (machine__init(&machine, "", HOST_KERNEL_ID))
		goto out_stack;
	machine.env = &fuzz_env;
	fuzz_mmap(&machine, pid, elf_size ?: 1);
	thread = machine__findnew_thread(&machine, pid, pid);
	if (thread) {
		callchain_param.order = (hdr[0] & FUZZ_F_CALLER) ? ORDER_CALLER : ORDER_CALLEE;
		ret = unwind__get_entries(fuzz_entry, &cnt, thread, &sample, FUZZ_MAX_STACK,
					  hdr[0] & FUZZ_F_BEST);
		if (fuzz_verbose)
			fprintf(stderr, "fuzz-unwind: %lu frames, ret %d (ip %#" PRIx64
				", sp %#" PRIx64 ", stack %zu, elf %zu)\n", cnt, ret, sample.ip,
				rv[(hdr[0] & FUZZ_F_FEWREGS) ? 1 : PERF_REG_X86_SP], stack_len,
				elf_size);
		thread__put(thread);
	}
	machine__exit(&machine);
out_stack:
	zfree(&sample.user_stack.data);
out_regs:
	/* perf_sample__exit() frees user_regs, not its regs. */
	free(rv);
	perf_sample__exit(&sample);
	return 0;
}
