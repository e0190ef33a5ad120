// SPDX-License-Identifier: GPL-2.0
/*
 * Seeds of tests/fuzz/fuzz-unwind.c (see its input layout), made by
 * tests/fuzz/seeds.sh; x86_64 only. Built as C or C++, non-PIE (linked at
 * 0x400000, where the harness maps its ELF file):
 *
 *   unwind-seed OUT		a real sample: its own registers and 8 KiB
 *				of its stack, taken four calls deep
 *				(main, outer, middle, inner), then its own ELF
 *				file (/proc/self/exe)
 *   unwind-seed OUT ELF IP_OFF	a made-up one for another ELF file: IP at
 *				IP_OFF (hex) past 0x400000, a stack of frame
 *				pointer frames whose return addresses go back
 *				to IP_OFF
 *   FEWREGS=1: the harness' "IP, SP and BP only" flag.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NREGS		20	/* PERF_REGS_MASK of x86_64 */
#define R_BP		6
#define R_SP		7
#define R_IP		8
#define STACK_LEN	8192
#define MAP_START	0x400000ULL

/*
 * As perf's perf_regs_load(): the caller's registers just after the call,
 * IP the return address, SP above it; in the order of PERF_REGS_MASK
 * (AX BX CX DX SI DI BP SP IP FLAGS CS SS R8..R15).
 */
#ifdef __cplusplus
extern "C"
#endif
void seed_regs_load(uint64_t *regs);
__asm__(".text\n"
	".globl seed_regs_load\n"
	".type seed_regs_load, @function\n"
	"seed_regs_load:\n"
	".cfi_startproc\n"
	"movq %rax, 0(%rdi)\n"
	"movq %rbx, 8(%rdi)\n"
	"movq %rcx, 16(%rdi)\n"
	"movq %rdx, 24(%rdi)\n"
	"movq %rsi, 32(%rdi)\n"
	"movq %rdi, 40(%rdi)\n"
	"movq %rbp, 48(%rdi)\n"
	"leaq 8(%rsp), %rax\n"
	"movq %rax, 56(%rdi)\n"
	"movq 0(%rsp), %rax\n"
	"movq %rax, 64(%rdi)\n"
	"movq $0, 72(%rdi)\n"
	"movq $0x33, 80(%rdi)\n"
	"movq $0x2b, 88(%rdi)\n"
	"movq %r8, 96(%rdi)\n"
	"movq %r9, 104(%rdi)\n"
	"movq %r10, 112(%rdi)\n"
	"movq %r11, 120(%rdi)\n"
	"movq %r12, 128(%rdi)\n"
	"movq %r13, 136(%rdi)\n"
	"movq %r14, 144(%rdi)\n"
	"movq %r15, 152(%rdi)\n"
	"ret\n"
	".cfi_endproc\n"
	".size seed_regs_load, .-seed_regs_load\n");

static uint64_t regs[NREGS];
static unsigned char stack[STACK_LEN];
static const char *out;

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

static int emit(const char *elf, uint32_t ip_off, int flags)
{
	unsigned char hdr[8] = { 0 };
	FILE *o = fopen(out, "wb"), *e = fopen(elf, "rb");
	char buf[65536];
	size_t n;

	if (!o || !e)
		return 1;
	if (getenv("FEWREGS"))
		flags |= 0x08;
	hdr[0] = flags;
	put_le(hdr + 2, STACK_LEN, 2);
	put_le(hdr + 4, ip_off, 4);
	fwrite(hdr, 1, sizeof(hdr), o);
	for (int i = 0; i < NREGS; i++) {
		unsigned char r[8];

		put_le(r, regs[i], 8);
		fwrite(r, 1, 8, o);
	}
	fwrite(stack, 1, STACK_LEN, o);
	while ((n = fread(buf, 1, sizeof(buf), e)) > 0)
		fwrite(buf, 1, n, o);
	fclose(e);
	return fclose(o) != 0;
}

static volatile int sink;
static char *volatile keep;
static int failed;

#ifdef __cplusplus
template <int N> struct deep {
	static __attribute__((noinline)) int go(int x)
	{
		int r = deep<N - 1>::go(x + N);

		sink += r;
		return r + 1;
	}
};
#endif

static __attribute__((noinline)) int inner(int x)
{
	int r;

	seed_regs_load(regs);
	/* The stack above SP is the callers' frames: copied as it is. */
	memcpy(stack, (void *)(uintptr_t)regs[R_SP], STACK_LEN);
	r = emit("/proc/self/exe", (uint32_t)(regs[R_IP] - MAP_START), 0);
	failed |= r;
	sink += x;
	return r;
}

#ifdef __cplusplus
template <> struct deep<0> {
	static __attribute__((noinline)) int go(int x)
	{
		auto f = [](int y) __attribute__((noinline)) { return inner(y); };
		int r = f(x);

		sink += r;
		return r;
	}
};
#endif

static __attribute__((noinline)) int middle(int x)
{
#ifdef __cplusplus
	int r = deep<3>::go(x * 3);
#else
	int r = inner(x * 3);
#endif

	sink += r;
	return r;
}

static __attribute__((noinline)) int outer(int x)
{
	int r = middle(x + 1);

	sink += r;
	return r;
}

int main(int argc, char **argv)
{
	/* Room above the frames, so that 8 KiB from SP stay on the stack. */
	char pad[16384];

	memset(pad, 0, sizeof(pad));
	keep = pad;
	if (argc < 2)
		return 2;
	out = argv[1];
	if (argc == 4) {
		uint32_t ip_off = strtoul(argv[3], NULL, 16);
		uint64_t sp = 0x7ffc00001000ULL, ra = MAP_START + ip_off;

		/* Frames of push %rbp; mov %rsp,%rbp: [bp] = the caller's bp, [bp+8] = ra. */
		for (int i = 0; i < STACK_LEN / 16; i++) {
			put_le(stack + 16 * i, sp + 16 * (i + 1), 8);
			put_le(stack + 16 * i + 8, ra, 8);
		}
		regs[R_SP] = sp;
		regs[R_BP] = sp;
		regs[R_IP] = ra;
		return emit(argv[2], ip_off, 0x04);
	}
	outer(argc);
	return failed;
}
