// SPDX-License-Identifier: GPL-2.0
/*
 * Code with hand-written call frame information for the DWARF unwinders:
 *
 *   cfi_fp       a frame pointer: its CFA is %rbp + 16
 *   cfi_regreg   keeps the caller's %rbp in %r12 (.cfi_register), %rbp 0
 *   cfi_expr     its CFA is a DWARF expression (.cfi_escape
 *                DW_CFA_def_cfa_expression), as in a PLT
 *   cfi_state    calls from code after .cfi_remember_state ... .cfi_restore_state
 *   cfi_spin     spins until the alarm
 *   cfi_nofde    a frame pointer and no CFI at all
 *
 * Three phases of the given seconds each: cfiloop_fp() calls cfi_fp() from
 * cfiloop(), then from a SIGUSR1 handler (a signal frame between the handler
 * and the interrupted code), then cfiloop_nofde() calls cfi_nofde().
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/compiler.h>
#include "../tests.h"

/* Read by the spinning code in each iteration, set by the SIGALRM handler. */
static sig_atomic_t done asm("cfiloop_done");

static void sighandler(int sig __maybe_unused)
{
	WRITE_ONCE(done, 1);
}

#if defined(__x86_64__)
asm(".pushsection .text,\"ax\",@progbits\n"
	".type cfi_spin, @function\n"
	"cfi_spin:\n"
	"	.cfi_startproc\n"
	"1:	movl	cfiloop_done(%rip), %eax\n"
	"	testl	%eax, %eax\n"
	"	je	1b\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size cfi_spin, .-cfi_spin\n"

	".type cfi_state, @function\n"
	"cfi_state:\n"
	"	.cfi_startproc\n"
	"	pushq	%rbx\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rbx, 0\n"
	"	testl	%edi, %edi\n"
	"	je	2f\n"
	"	.cfi_remember_state\n"
	"	popq	%rbx\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"2:\n"
	"	.cfi_restore_state\n"
	"	call	cfi_spin\n"
	"	popq	%rbx\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size cfi_state, .-cfi_state\n"

	/* CFA = DW_OP_breg7 (%rsp) 16, DW_OP_lit16, DW_OP_plus */
	".type cfi_expr, @function\n"
	"cfi_expr:\n"
	"	.cfi_startproc\n"
	"	subq	$24, %rsp\n"
	"	.cfi_escape 0x0f, 0x04, 0x77, 0x10, 0x40, 0x22\n"
	"	xorl	%edi, %edi\n"
	"	call	cfi_state\n"
	"	addq	$24, %rsp\n"
	"	.cfi_def_cfa %rsp, 8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size cfi_expr, .-cfi_expr\n"

	".type cfi_regreg, @function\n"
	"cfi_regreg:\n"
	"	.cfi_startproc\n"
	"	pushq	%r12\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %r12, 0\n"
	"	movq	%rbp, %r12\n"
	"	.cfi_register %rbp, %r12\n"
	"	xorl	%ebp, %ebp\n"
	"	call	cfi_expr\n"
	"	movq	%r12, %rbp\n"
	"	.cfi_restore %rbp\n"
	"	popq	%r12\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %r12\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size cfi_regreg, .-cfi_regreg\n"

	".type cfi_fp, @function\n"
	"cfi_fp:\n"
	"	.cfi_startproc\n"
	"	pushq	%rbp\n"
	"	.cfi_def_cfa_offset 16\n"
	"	.cfi_offset %rbp, -16\n"
	"	movq	%rsp, %rbp\n"
	"	.cfi_def_cfa_register %rbp\n"
	"	subq	$32, %rsp\n"
	"	call	cfi_regreg\n"
	"	leave\n"
	"	.cfi_def_cfa %rsp, 8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size cfi_fp, .-cfi_fp\n"

	".type cfi_nofde, @function\n"
	"cfi_nofde:\n"
	"	pushq	%rbp\n"
	"	movq	%rsp, %rbp\n"
	"	call	cfi_spin\n"
	"	popq	%rbp\n"
	"	ret\n"
	".size cfi_nofde, .-cfi_nofde\n"
	".popsection\n"
);

/* The C callers of the assembler functions, through a pointer from the assembler. */
static noinline void cfiloop_fp(void)
{
	void (*fn)(void);

	asm("leaq cfi_fp(%%rip), %0" : "=r" (fn));
	fn();
}

static noinline void cfiloop_nofde(void)
{
	void (*fn)(void);

	asm("leaq cfi_nofde(%%rip), %0" : "=r" (fn));
	fn();
}
#else
static noinline void cfiloop_fp(void)
{
	while (!READ_ONCE(done))
		;
}

static noinline void cfiloop_nofde(void)
{
	cfiloop_fp();
}
#endif

static void sigusr1_handler(int sig __maybe_unused)
{
	cfiloop_fp();
}

static void cfiloop__phase(int sec)
{
	WRITE_ONCE(done, 0);
	alarm(sec);
}

static int cfiloop(int argc, const char **argv)
{
	int sec = 1;

	if (argc > 0)
		sec = atoi(argv[0]);

	signal(SIGALRM, sighandler);
	signal(SIGUSR1, sigusr1_handler);

	cfiloop__phase(sec);
	cfiloop_fp();
	cfiloop__phase(sec);
	raise(SIGUSR1);
	cfiloop__phase(sec);
	cfiloop_nofde();
	return 0;
}

DEFINE_WORKLOAD(cfiloop);
