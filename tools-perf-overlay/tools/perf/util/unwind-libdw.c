// SPDX-License-Identifier: GPL-2.0
#include <assert.h>
#include <linux/compiler.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <errno.h>
#include "debug.h"
#include "dso.h"
#include <dwarf-regs.h>
#include "unwind.h"
#include "unwind-libdw.h"
#include "libdw.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "symbol.h"
#include "thread.h"
#include <linux/types.h>
#include <linux/hash.h>
#include <linux/zalloc.h>
#include "event.h"
#include "perf_regs.h"
#include "callchain.h"
#include "util/env.h"

/*
 * Symbol cache of an address space: the map and the symbol of a pc.
 * Frames mostly come back to the same addresses: a hit skips
 * thread__find_symbol(), and fills only al->thread, al->map and al->sym,
 * what the unwinders read.
 *
 * Key: the pc and maps__generation() of the address space: an entry of
 * another generation is stale, as the maps changed since. An entry holds a
 * reference to its map, put when the entry is replaced and with the cache;
 * the map's dso holds the symbol. Bound: SYMCACHE_SETS sets of SYMCACHE_WAYS
 * entries (32 KiB), picked by a hash of the pc, allocated on the first miss
 * (a failed allocation is not retried), freed with the address space's
 * state; round-robin replacement within a set. Thread safety: that of the
 * address space's state, one unwind at a time (dwfl_ui_thread_info.ui).
 */
#define SYMCACHE_SETS	256
#define SYMCACHE_WAYS	4

struct symcache_entry {
	u64		 pc;
	struct map	*map;		/* NULL: the way is empty */
	struct symbol	*sym;		/* may be NULL */
	unsigned int	 generation;	/* maps__generation() when found */
};

struct symcache {
	struct symcache_entry	entries[SYMCACHE_SETS][SYMCACHE_WAYS];
	unsigned char		next[SYMCACHE_SETS];	/* the way to replace */
	u64			hits, misses;
};

/*
 * The libdw unwinder's state of an address space (maps__libdw_addr_space_dwfl()),
 * also the dwfl thread argument passed to functions like memory_read.
 * Dropped when the code of the address space changes (unwind__flush_access()).
 */
struct dwfl_ui_thread_info {
	/*
	 * libdwfl's state of the address space, its modules reported: made
	 * for the first sample perf's own step hands to libdwfl (step_unwind()),
	 * or with unwind.style=libdwfl. NULL until then.
	 */
	Dwfl *dwfl;
	/* The current unwind info, only 1 is supported. */
	struct unwind_info *ui;
	/* See struct symcache; NULL until the first miss. */
	struct symcache *symcache;
	bool symcache_failed;	/* its allocation failed */
	u64 stepped, fallbacks;	/* samples unwound by step_unwind(), by libdwfl */
};

static struct symcache_entry *symcache__find(struct dwfl_ui_thread_info *ti,
					     struct maps *maps, u64 pc)
{
	struct symcache *sc = ti->symcache;
	struct symcache_entry *set;

	if (!sc)
		return NULL;
	set = sc->entries[hash_64(pc, 32) % SYMCACHE_SETS];
	for (int i = 0; i < SYMCACHE_WAYS; i++) {
		if (set[i].map && set[i].pc == pc &&
		    set[i].generation == maps__generation(maps)) {
			sc->hits++;
			return &set[i];
		}
	}
	sc->misses++;
	return NULL;
}

static void symcache__insert(struct dwfl_ui_thread_info *ti, struct maps *maps, u64 pc,
			     struct map *map, struct symbol *sym)
{
	unsigned int idx = hash_64(pc, 32) % SYMCACHE_SETS;
	struct symcache *sc = ti->symcache;

	if (!sc && !ti->symcache_failed) {
		sc = zalloc(sizeof(*sc));
		ti->symcache = sc;
		ti->symcache_failed = !sc;
	}
	if (!sc)
		return;

	map__put(sc->entries[idx][sc->next[idx]].map);
	sc->entries[idx][sc->next[idx]] = (struct symcache_entry){
		.pc = pc, .map = map__get(map), .sym = sym,
		.generation = maps__generation(maps),
	};
	sc->next[idx] = (sc->next[idx] + 1) % SYMCACHE_WAYS;
}

static void symcache__delete(struct dwfl_ui_thread_info *ti)
{
	struct symcache *sc = ti->symcache;

	if (!sc)
		return;
	pr_debug("unwind: symbol cache: %" PRIu64 " hits, %" PRIu64 " misses\n",
		 sc->hits, sc->misses);
	for (int i = 0; i < SYMCACHE_SETS; i++) {
		for (int j = 0; j < SYMCACHE_WAYS; j++)
			map__put(sc->entries[i][j].map);
	}
	zfree(&ti->symcache);
}

void libdw__unwind_symcache_stats(struct maps *maps, u64 *hits, u64 *misses)
{
	struct dwfl_ui_thread_info *ti = maps__libdw_addr_space_dwfl(maps);

	*hits = ti && ti->symcache ? ti->symcache->hits : 0;
	*misses = ti && ti->symcache ? ti->symcache->misses : 0;
}

static char *debuginfo_path;

static int __find_debuginfo(Dwfl_Module *mod __maybe_unused, void **userdata,
			    const char *modname __maybe_unused, Dwarf_Addr base __maybe_unused,
			    const char *file_name, const char *debuglink_file __maybe_unused,
			    GElf_Word debuglink_crc __maybe_unused, char **debuginfo_file_name)
{
	struct dso *dso = *userdata;

	assert(dso);
	/*
	 * libdwfl wants the debug file for .debug_frame, where .eh_frame has
	 * no FDE for a pc: its DWARF all loaded for it, for every address
	 * space. Not for objects unwound from their .eh_frame_hdr table.
	 */
	if (libdw__dso_unwinds_from_eh_frame_hdr(dso))
		return -1;
	if (dso__symsrc_filename(dso) && strcmp(file_name, dso__symsrc_filename(dso)))
		*debuginfo_file_name = strdup(dso__symsrc_filename(dso));
	return -1;
}

void libdw__invalidate_dwfl(struct maps *maps, void *arg)
{
	struct dwfl_ui_thread_info *dwfl_ui_ti = arg;

	if (!dwfl_ui_ti)
		return;

	assert(dwfl_ui_ti->ui == NULL);
	maps__set_libdw_addr_space_dwfl(maps, NULL);
	if (dwfl_ui_ti->stepped || dwfl_ui_ti->fallbacks)
		pr_debug("unwind: %" PRIu64 " samples unwound with the dsos' CFI, %" PRIu64
			 " by libdwfl\n", dwfl_ui_ti->stepped, dwfl_ui_ti->fallbacks);
	symcache__delete(dwfl_ui_ti);
	if (dwfl_ui_ti->dwfl)
		libdw__end_dwfl(dwfl_ui_ti->dwfl);
	free(dwfl_ui_ti);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf		= libdw__find_elf,
	.find_debuginfo		= __find_debuginfo,
	.debuginfo_path		= &debuginfo_path,
	.section_address	= dwfl_offline_section_address,
};

/* The map and symbol of @ip in al->map and al->sym, through the symbol cache. */
static void unwind__find_symbol(struct unwind_info *ui, u64 ip, struct addr_location *al)
{
	struct maps *maps = thread__maps(ui->thread);
	struct symcache_entry *ce = symcache__find(ui->dwfl_ui_ti, maps, ip);

	if (ce) {
		al->thread = thread__get(ui->thread);
		al->map = map__get(ce->map);
		al->sym = ce->sym;
		return;
	}
	/*
	 * Some callers will use al->sym, so we can't just use the
	 * cheaper thread__find_map() here.
	 */
	thread__find_symbol(ui->thread, PERF_RECORD_MISC_USER, ip, al);
	if (al->map)
		symcache__insert(ui->dwfl_ui_ti, maps, ip, al->map, al->sym);
}

static int __report_module(struct addr_location *al, u64 ip, struct unwind_info *ui)
{
	Dwfl_Module *mod;
	struct dso *dso = NULL;
	Dwarf_Addr base;

	unwind__find_symbol(ui, ip, al);

	if (al->map)
		dso = map__dso(al->map);

	if (!dso)
		return 0;

	/*
	 * The generated JIT DSO files only map the code segment without
	 * ELF headers.  Since JIT codes used to be packed in a memory
	 * segment, calculating the base address using pgoff falls into
	 * a different code in another DSO.  So just use the map->start
	 * directly to pick the correct one.
	 */
	if (!strncmp(dso__long_name(dso), "/tmp/jitted-", 12))
		base = map__start(al->map);
	else
		base = map__start(al->map) - map__pgoff(al->map);

	mod = dwfl_addrmodule(ui->dwfl, ip);
	if (mod) {
		Dwarf_Addr s;

		dwfl_module_info(mod, NULL, &s, NULL, NULL, NULL, NULL, NULL);
		if (s != base)
			mod = NULL;
	}

	if (!mod)
		mod = libdw__report_dso(ui->dwfl, dso, base);
	if (!mod) {
		char filename[PATH_MAX];

		__symbol__join_symfs(filename, sizeof(filename), dso__long_name(dso));
		/* Don't hang up on device files like /dev/dri/renderD128. */
		if (is_regular_file(filename)) {
			mod = dwfl_report_elf(ui->dwfl, dso__short_name(dso), filename, -1,
					      base, false);
		}
	}
	if (!mod) {
		char filename[PATH_MAX];

		if (dso__build_id_filename(dso, filename, sizeof(filename), false))
			mod = dwfl_report_elf(ui->dwfl, dso__short_name(dso), filename, -1,
					      base, false);
	}

	if (mod) {
		void **userdatap;

		/* As libdw__report_dso(): a reference, see libdw__end_dwfl(). */
		dwfl_module_info(mod, &userdatap, NULL, NULL, NULL, NULL, NULL, NULL);
		if (!*userdatap)
			*userdatap = dso__get(dso);
	}

	if (!mod || dwfl_addrmodule(ui->dwfl, ip) != mod)
		return -1;
	return 0;
}

static int report_module(u64 ip, struct unwind_info *ui)
{
	struct addr_location al;
	int res;

	addr_location__init(&al);
	res = __report_module(&al, ip, ui);
	addr_location__exit(&al);
	return res;
}

/*
 * Store all entries within entries array,
 * we will process it after we finish unwind.
 */
/* Adds the frame of @ip, in @al's map (may be NULL), to the chain. */
static void unwind__add_entry(struct unwind_info *ui, u64 ip, struct addr_location *al)
{
	struct unwind_entry *e = &ui->entries[ui->idx++];

	e->ip	  = ip;
	e->ms.thread = thread__get(al->thread);
	e->ms.map = map__get(al->map);
	e->ms.sym = al->sym;

	pr_debug("unwind: %s:ip = 0x%" PRIx64 " (0x%" PRIx64 ")\n",
		 al->sym ? al->sym->name : "''",
		 ip,
		 al->map ? map__map_ip(al->map, ip) : (u64)0);
}

static int entry(u64 ip, struct unwind_info *ui)
{
	struct addr_location al;
	int ret;

	addr_location__init(&al);
	ret = __report_module(&al, ip, ui);
	if (!ret)
		unwind__add_entry(ui, ip, &al);
	addr_location__exit(&al);
	return ret;
}

static pid_t next_thread(Dwfl *dwfl __maybe_unused, void *arg, void **thread_argp)
{
	struct dwfl_ui_thread_info *dwfl_ui_ti = arg;

	/* We want only single thread to be processed. */
	if (*thread_argp != NULL)
		return 0;

	assert(dwfl_ui_ti->ui != NULL);
	*thread_argp = arg;
	return thread__tid(dwfl_ui_ti->ui->thread);
}

static bool get_thread(Dwfl *dwfl __maybe_unused, pid_t tid, void *arg,
		       void **thread_argp)
{
	struct dwfl_ui_thread_info *dwfl_ui_ti = arg;

	assert(dwfl_ui_ti->ui != NULL);
	if (tid != thread__tid(dwfl_ui_ti->ui->thread))
		return false;

	*thread_argp = arg;
	return true;
}

static int access_dso_mem(struct unwind_info *ui, Dwarf_Addr addr,
			  Dwarf_Word *data)
{
	struct addr_location al;
	ssize_t size;
	struct dso *dso;

	addr_location__init(&al);
	if (!thread__find_map(ui->thread, PERF_RECORD_MISC_USER, addr, &al)) {
		pr_debug("unwind: no map for %lx\n", (unsigned long)addr);
		goto out_fail;
	}
	dso = map__dso(al.map);
	if (!dso)
		goto out_fail;

	size = dso__data_read_addr(dso, al.map, ui->machine, addr, (u8 *) data, sizeof(*data));

	addr_location__exit(&al);
	return !(size == sizeof(*data));
out_fail:
	addr_location__exit(&al);
	return -1;
}

/* A word of the sample's stack dump, else of the file mapped at @addr. */
static bool unwind__read_word(struct unwind_info *ui, Dwarf_Addr addr, Dwarf_Word *result)
{
	struct stack_dump *stack = &ui->sample->user_stack;
	u64 start, end;
	int offset;
	int ret;

	if (!ui->sample->user_regs)
		return false;

	ret = perf_reg_value(&start, ui->sample->user_regs,
			     perf_arch_reg_sp(ui->e_machine));
	if (ret)
		return false;

	end = start + stack->size;

	/* Check overflow. */
	if (addr + sizeof(Dwarf_Word) < addr)
		return false;

	if (addr < start || addr + sizeof(Dwarf_Word) > end) {
		ret = access_dso_mem(ui, addr, result);
		if (ret) {
			pr_debug("unwind: access_mem 0x%" PRIx64 " not inside range"
				 " 0x%" PRIx64 "-0x%" PRIx64 "\n",
				addr, start, end);
			return false;
		}
		return true;
	}

	offset  = addr - start;
	memcpy(result, &stack->data[offset], sizeof(*result));
	pr_debug("unwind: access_mem addr 0x%" PRIx64 ", val %lx, offset %d\n",
		 addr, (unsigned long)*result, offset);
	return true;
}

static bool memory_read(Dwfl *dwfl __maybe_unused, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct dwfl_ui_thread_info *dwfl_ui_ti = arg;

	return unwind__read_word(dwfl_ui_ti->ui, addr, result);
}

static bool libdw_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct dwfl_ui_thread_info *dwfl_ui_ti = arg;
	struct unwind_info *ui = dwfl_ui_ti->ui;
	struct regs_dump *user_regs = perf_sample__user_regs(ui->sample);
	Dwarf_Word *dwarf_regs;
	int max_dwarf_reg = 0;
	bool ret;
	uint16_t e_machine = ui->e_machine;
	int e_flags = ui->e_flags;
	uint64_t ip_perf_reg = perf_arch_reg_ip(e_machine);
	Dwarf_Word val = 0;


	/*
	 * For every possible perf register in the bitmap determine the dwarf
	 * register and use to compute the max.
	 */
	for (int perf_reg = 0; perf_reg < 64; perf_reg++) {
		if (user_regs->mask & (1ULL << perf_reg)) {
			int dwarf_reg =
				get_dwarf_regnum_for_perf_regnum(perf_reg, e_machine,
								 e_flags,
								 /*only_libdw_supported=*/true);
			if (dwarf_reg > max_dwarf_reg)
				max_dwarf_reg = dwarf_reg;
		}
	}

	dwarf_regs = calloc(max_dwarf_reg + 1, sizeof(*dwarf_regs));
	if (!dwarf_regs)
		return false;

	for (int perf_reg = 0; perf_reg < 64; perf_reg++) {
		if (user_regs->mask & (1ULL << perf_reg)) {
			int dwarf_reg =
				get_dwarf_regnum_for_perf_regnum(perf_reg, e_machine,
								 e_flags,
								 /*only_libdw_supported=*/true);
			if (dwarf_reg >= 0) {
				val = 0;
				if (perf_reg_value(&val, user_regs, perf_reg) == 0)
					dwarf_regs[dwarf_reg] = val;
			}
		}
	}
	if (perf_reg_value(&val, user_regs, ip_perf_reg) == 0)
		dwfl_thread_state_register_pc(thread, val);

	ret = dwfl_thread_state_registers(thread, 0, max_dwarf_reg + 1, dwarf_regs);
	free(dwarf_regs);
	return ret;
}

/*
 * perf's own unwinding step, for x86-64: the rules of each frame come from
 * the CFI of the frame's dso (libdw__dso_cfi_frame()), parsed once per run
 * for every address space that maps the dso, and perf evaluates them
 * against the sample's registers and stack as libdwfl's frame_unwind.c
 * does. The address space then needs no Dwfl and no modules reported, and
 * a process's exit drops only its symbol cache.
 *
 * Where libdwfl would look further than the dso's .eh_frame (a pc without
 * an FDE: .debug_frame, then the frame pointer; a pc in no dso with an ELF
 * file), the step gives the sample up and libdwfl unwinds all of it, so
 * the chains are libdwfl's.
 */
#define STEP_NREGS		LIBDW_CFI_NREGS
#define STEP_FP_REG		6	/* %rbp */
/* libdwfl's bounds on a DWARF expression's stack and operations. */
#define STEP_EXPR_STACK_MAX	256
#define STEP_EXPR_STEPS_MAX	4096

/* The registers of a frame, DWARF numbering. */
struct step_regs {
	Dwarf_Word	val[STEP_NREGS];
	u32		set;		/* a bit per register that is known */
};

static bool step_regs__get(const struct step_regs *regs, Dwarf_Word regno, Dwarf_Word *val)
{
	if (regno >= STEP_NREGS || !(regs->set & (1U << regno)))
		return false;
	*val = regs->val[regno];
	return true;
}

static int step_op__cmp(const void *key, const void *elem)
{
	Dwarf_Word offset = *(const Dwarf_Word *)key;
	const Dwarf_Op *op = elem;

	return (offset > op->offset) - (offset < op->offset);
}

/* The stack of step_eval(). */
struct step_stack {
	Dwarf_Word	val[STEP_EXPR_STACK_MAX];
	size_t		nr;
};

static bool step_push(struct step_stack *st, Dwarf_Word v)
{
	if (st->nr == STEP_EXPR_STACK_MAX)
		return false;
	st->val[st->nr++] = v;
	return true;
}

static bool step_pop(struct step_stack *st, Dwarf_Word *v)
{
	if (!st->nr)
		return false;
	*v = st->val[--st->nr];
	return true;
}

/*
 * The binary operations of step_eval(), on the second entry and the top of
 * the stack. C's undefined behaviour in libdwfl's is defined here as
 * x86-64 computes it (shift counts modulo 64) or as a failure (the one
 * division that overflows, which traps).
 */
static bool step_binop(unsigned int atom, Dwarf_Word v1, Dwarf_Word v2, Dwarf_Word *res)
{
	switch (atom) {
	case DW_OP_and:
		*res = v1 & v2;
		break;
	case DW_OP_div:
		if (v2 == 0 || ((int64_t)v1 == INT64_MIN && (int64_t)v2 == -1))
			return false;
		*res = (int64_t)v1 / (int64_t)v2;
		break;
	case DW_OP_minus:
		*res = v1 - v2;
		break;
	case DW_OP_mod:
		if (v2 == 0)
			return false;
		*res = v1 % v2;
		break;
	case DW_OP_mul:
		*res = v1 * v2;
		break;
	case DW_OP_or:
		*res = v1 | v2;
		break;
	case DW_OP_plus:
		*res = v1 + v2;
		break;
	case DW_OP_shl:
		*res = v1 << (v2 & 63);
		break;
	case DW_OP_shr:
		*res = v1 >> (v2 & 63);
		break;
	case DW_OP_shra:
		*res = (int64_t)v1 >> (v2 & 63);
		break;
	case DW_OP_xor:
		*res = v1 ^ v2;
		break;
	case DW_OP_le:
		*res = (int64_t)v1 <= (int64_t)v2;
		break;
	case DW_OP_ge:
		*res = (int64_t)v1 >= (int64_t)v2;
		break;
	case DW_OP_eq:
		*res = (int64_t)v1 == (int64_t)v2;
		break;
	case DW_OP_lt:
		*res = (int64_t)v1 < (int64_t)v2;
		break;
	case DW_OP_gt:
		*res = (int64_t)v1 > (int64_t)v2;
		break;
	case DW_OP_ne:
		*res = (int64_t)v1 != (int64_t)v2;
		break;
	default:
		return false;
	}
	return true;
}

/*
 * Evaluates a DWARF expression of the frame's CFI with the callee's
 * registers: the operations and the semantics of libdwfl's expr_eval().
 * @cfa is NULL while evaluating the CFA itself.
 */
static bool step_eval(struct unwind_info *ui, const struct step_regs *regs,
		      const struct libdw_cfi_frame *f, const Dwarf_Word *cfa,
		      const Dwarf_Op *ops, size_t nops, Dwarf_Word *result)
{
	struct step_stack st = { .nr = 0 };
	bool is_location = false;
	Dwarf_Word v1, v2, v3;
	size_t steps = 0;

	if (nops == 0)
		return false;
	for (const Dwarf_Op *op = ops; op < ops + nops; op++) {
		bool ok;

		if (++steps > STEP_EXPR_STEPS_MAX)
			return false;
		switch (op->atom) {
		case DW_OP_lit0 ... DW_OP_lit31:
			ok = step_push(&st, op->atom - DW_OP_lit0);
			break;
		case DW_OP_addr:
			ok = step_push(&st, op->number + f->bias);
			break;
		case DW_OP_const1u:
		case DW_OP_const1s:
		case DW_OP_const2u:
		case DW_OP_const2s:
		case DW_OP_const4u:
		case DW_OP_const4s:
		case DW_OP_const8u:
		case DW_OP_const8s:
		case DW_OP_constu:
		case DW_OP_consts:
			ok = step_push(&st, op->number);
			break;
		case DW_OP_reg0 ... DW_OP_reg31:
			ok = step_regs__get(regs, op->atom - DW_OP_reg0, &v1) &&
			     step_push(&st, v1);
			break;
		case DW_OP_regx:
			ok = step_regs__get(regs, op->number, &v1) && step_push(&st, v1);
			break;
		case DW_OP_breg0 ... DW_OP_breg31:
			ok = step_regs__get(regs, op->atom - DW_OP_breg0, &v1) &&
			     step_push(&st, v1 + op->number);
			break;
		case DW_OP_bregx:
			ok = step_regs__get(regs, op->number, &v1) &&
			     step_push(&st, v1 + op->number2);
			break;
		case DW_OP_dup:
			ok = step_pop(&st, &v1) && step_push(&st, v1) && step_push(&st, v1);
			break;
		case DW_OP_drop:
			ok = step_pop(&st, &v1);
			break;
		case DW_OP_pick:
			ok = st.nr > op->number &&
			     step_push(&st, st.val[st.nr - 1 - op->number]);
			break;
		case DW_OP_over:
			ok = step_pop(&st, &v1) && step_pop(&st, &v2) &&
			     step_push(&st, v2) && step_push(&st, v1) && step_push(&st, v2);
			break;
		case DW_OP_swap:
			ok = step_pop(&st, &v1) && step_pop(&st, &v2) &&
			     step_push(&st, v1) && step_push(&st, v2);
			break;
		case DW_OP_rot:
			ok = step_pop(&st, &v1) && step_pop(&st, &v2) && step_pop(&st, &v3) &&
			     step_push(&st, v1) && step_push(&st, v3) && step_push(&st, v2);
			break;
		case DW_OP_deref:
			ok = step_pop(&st, &v1) && unwind__read_word(ui, v1, &v1) &&
			     step_push(&st, v1);
			break;
		case DW_OP_deref_size:
			ok = op->number <= sizeof(Dwarf_Word) && step_pop(&st, &v1) &&
			     unwind__read_word(ui, v1, &v1);
			if (ok && op->number < sizeof(Dwarf_Word))
				v1 &= (1ULL << (op->number * 8)) - 1;
			ok = ok && step_push(&st, v1);
			break;
		case DW_OP_abs:
			ok = step_pop(&st, &v1) && step_push(&st, (int64_t)v1 < 0 ? -v1 : v1);
			break;
		case DW_OP_neg:
			ok = step_pop(&st, &v1) && step_push(&st, -v1);
			break;
		case DW_OP_not:
			ok = step_pop(&st, &v1) && step_push(&st, ~v1);
			break;
		case DW_OP_plus_uconst:
			ok = step_pop(&st, &v1) && step_push(&st, v1 + op->number);
			break;
		case DW_OP_and:
		case DW_OP_div:
		case DW_OP_minus:
		case DW_OP_mod:
		case DW_OP_mul:
		case DW_OP_or:
		case DW_OP_plus:
		case DW_OP_shl:
		case DW_OP_shr:
		case DW_OP_shra:
		case DW_OP_xor:
		case DW_OP_le:
		case DW_OP_ge:
		case DW_OP_eq:
		case DW_OP_lt:
		case DW_OP_gt:
		case DW_OP_ne:
			ok = step_pop(&st, &v2) && step_pop(&st, &v1) &&
			     step_binop(op->atom, v1, v2, &v1) && step_push(&st, v1);
			break;
		case DW_OP_bra:
			ok = step_pop(&st, &v1);
			if (!ok || v1 == 0)
				break;
			fallthrough;
		case DW_OP_skip: {
			/* The target's offset: after this op's 1 + 2 bytes. */
			Dwarf_Word target = op->offset + 3 + (int16_t)op->number;
			const Dwarf_Op *found = bsearch(&target, ops, nops, sizeof(*ops),
							step_op__cmp);

			ok = found;
			if (ok)
				op = found - 1;
			break;
		}
		case DW_OP_nop:
			ok = true;
			break;
		case DW_OP_call_frame_cfa:
			/* libdw's form of the rules offset(N), val_offset(N), expression. */
			ok = cfa && step_push(&st, *cfa);
			is_location = true;
			break;
		case DW_OP_stack_value:
			ok = true;
			is_location = false;
			break;
		default:
			ok = false;
			break;
		}
		if (!ok)
			return false;
	}
	if (!step_pop(&st, result))
		return false;
	return !is_location || unwind__read_word(ui, *result, result);
}

/*
 * The value of a register of the caller (or the CFA) by its rule, from the
 * callee's registers: false where it is not known.
 */
static bool step_rule(struct unwind_info *ui, const struct step_regs *regs,
		      const struct libdw_cfi_frame *f, const struct libdw_cfi_reg *r,
		      const Dwarf_Word *cfa, Dwarf_Word *val)
{
	unsigned int regno = r - f->rules.regs;

	switch (r->rule) {
	case LIBDW_CFI_SAME:
		return step_regs__get(regs, regno, val);
	case LIBDW_CFI_OFFSET:
		return cfa && unwind__read_word(ui, *cfa + r->offset, val);
	case LIBDW_CFI_VAL_OFFSET:
		if (!cfa)
			return false;
		*val = *cfa + r->offset;
		return true;
	case LIBDW_CFI_REGISTER:
		return step_regs__get(regs, r->reg, val);
	case LIBDW_CFI_REG_OFFSET:
		if (!step_regs__get(regs, r->reg, val))
			return false;
		*val += r->offset;
		return true;
	case LIBDW_CFI_EXPR:
		return step_eval(ui, regs, f, cfa, r == &f->rules.cfa ? f->cfa_expr : r->ops,
				 r->nops, val);
	case LIBDW_CFI_UNDEFINED:
	case LIBDW_CFI_ERROR:
	default:
		return false;
	}
}

enum step_result {
	STEP_DONE,		/* the chain ended where libdwfl's ends */
	STEP_FALLBACK,		/* libdwfl would look further: let it unwind the sample */
	STEP_ENOMEM,
};

/*
 * The map of @ip and the rules of its frame, see libdw__dso_cfi_frame(): 0,
 * -ENOENT where the dso's file has no rules for @ip and libdwfl would
 * only try the frame pointer, -1 where libdwfl would do more.
 */
static int step_find(struct unwind_info *ui, u64 ip, struct addr_location *al,
		     struct libdw_cfi_frame *f)
{
	struct dso *dso;

	unwind__find_symbol(ui, ip, al);
	dso = al->map ? map__dso(al->map) : NULL;
	/* JIT code: libdwfl has its module at the map's start, not its file's. */
	if (!dso || !strncmp(dso__long_name(dso), "/tmp/jitted-", 12))
		return -1;
	return libdw__dso_cfi_frame(dso, map__start(al->map) - map__pgoff(al->map), ip, f);
}

/*
 * Unwinds the sample from @regs, frame by frame as libdwfl's
 * dwfl_thread_getframes() and frame_callback() would: the frames of the
 * chain in ui->entries[], each with its map and symbol.
 */
static enum step_result step_unwind(struct unwind_info *ui, struct step_regs *regs, u64 pc)
{
	/* Big: the rules of every register. */
	struct libdw_cfi_frame *f = malloc(sizeof(*f));
	bool initial = true, signal = false;
	enum step_result ret = STEP_FALLBACK;

	if (!f)
		return STEP_ENOMEM;
	for (;;) {
		/* A return address is after the call: its frame is before it. */
		u64 lookup = initial || signal ? pc : pc - 1, ip;
		struct step_regs caller = { .set = 0 };
		struct addr_location al;
		Dwarf_Word cfa, val, ra = 0;
		bool has_cfa, has_ra;
		int found;

		addr_location__init(&al);
		found = step_find(ui, lookup, &al, f);
		if (found == -ENOENT && step_regs__get(regs, STEP_FP_REG, &val) && val == 0) {
			/*
			 * libdwfl's last resort, the frame pointer (elfutils'
			 * x86_64_unwind()), has none to follow, as at the
			 * dynamic loader's _start: the chain ends with this
			 * frame, at the call's address.
			 */
			ip = initial || signal ? pc : pc - 1;
			if (ip != lookup) {
				addr_location__exit(&al);
				addr_location__init(&al);
				unwind__find_symbol(ui, ip, &al);
			}
			if (al.map) {
				unwind__add_entry(ui, ip, &al);
				addr_location__exit(&al);
				break;
			}
		}
		if (found) {
			pr_debug("unwind: no .eh_frame rules for 0x%" PRIx64
				 " in %s, unwinding with libdwfl\n",
				 lookup, al.map ? dso__short_name(map__dso(al.map)) : "no map");
			addr_location__exit(&al);
			goto out;
		}

		/* The caller's registers, as handle_cfi() computes them. */
		has_cfa = step_rule(ui, regs, f, &f->rules.cfa, /*cfa=*/NULL, &cfa);
		for (int regno = 0; regno < STEP_NREGS; regno++) {
			if (step_rule(ui, regs, f, &f->rules.regs[regno],
				      has_cfa ? &cfa : NULL, &val)) {
				caller.val[regno] = val;
				caller.set |= 1U << regno;
			}
		}
		/*
		 * A return address that is undefined (the outermost frame), can't
		 * be read (the end of the stack dump) or is 0 ends the chain.
		 */
		has_ra = f->rules.regs[f->rules.ra].rule != LIBDW_CFI_UNDEFINED &&
			 step_regs__get(&caller, f->rules.ra, &ra) && ra != 0;

		/*
		 * dwfl_frame_pc()'s isactivation: no call instruction before pc,
		 * in the first frame and where a signal interrupted the code.
		 */
		ip = initial || signal || (f->rules.signal && has_ra) ? pc : pc - 1;
		if (ip != lookup) {
			addr_location__exit(&al);
			addr_location__init(&al);
			unwind__find_symbol(ui, ip, &al);
			if (!al.map) {
				addr_location__exit(&al);
				goto out;
			}
		}
		unwind__add_entry(ui, ip, &al);
		addr_location__exit(&al);
		if (!--ui->max_stack || !has_ra)
			break;

		*regs = caller;
		pc = ra;
		signal = f->rules.signal;
		initial = false;
	}
	ret = STEP_DONE;
out:
	free(f);
	return ret;
}

/* The sample's registers, as libdw_set_initial_registers() gives them to libdwfl. */
static void step_regs__init(struct step_regs *regs, struct unwind_info *ui)
{
	struct regs_dump *user_regs = perf_sample__user_regs(ui->sample);
	int max_dwarf_reg = 0;

	memset(regs, 0, sizeof(*regs));
	for (int perf_reg = 0; perf_reg < 64; perf_reg++) {
		int dwarf_reg;
		u64 val;

		if (!(user_regs->mask & (1ULL << perf_reg)))
			continue;
		dwarf_reg = get_dwarf_regnum_for_perf_regnum(perf_reg, ui->e_machine, ui->e_flags,
							     /*only_libdw_supported=*/true);
		if (dwarf_reg < 0 || dwarf_reg >= STEP_NREGS)
			continue;
		if (dwarf_reg > max_dwarf_reg)
			max_dwarf_reg = dwarf_reg;
		if (perf_reg_value(&val, user_regs, perf_reg) == 0)
			regs->val[dwarf_reg] = val;
	}
	/* libdwfl has the registers up to the highest, those not sampled as 0. */
	regs->set = (1U << (max_dwarf_reg + 1)) - 1;
}

static const Dwfl_Thread_Callbacks callbacks = {
	.next_thread           = next_thread,
	.get_thread            = get_thread,
	.memory_read           = memory_read,
	.set_initial_registers = libdw_set_initial_registers,
};

static int
frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unwind_info *ui = arg;
	Dwarf_Addr pc;
	bool isactivation;

	if (!dwfl_frame_pc(state, &pc, NULL)) {
		if (!ui->best_effort)
			pr_err("%s", dwfl_errmsg(-1));
		return DWARF_CB_ABORT;
	}

	// report the module before we query for isactivation
	report_module(pc, ui);

	if (!dwfl_frame_pc(state, &pc, &isactivation)) {
		if (!ui->best_effort)
			pr_err("%s", dwfl_errmsg(-1));
		return DWARF_CB_ABORT;
	}

	if (!isactivation)
		--pc;

	return entry(pc, ui) || !(--ui->max_stack) ?
	       DWARF_CB_ABORT : DWARF_CB_OK;
}

/*
 * @step: perf's own step where it can (step_unwind()), else libdwfl's
 * unwinder for every sample (unwind.style=libdwfl).
 */
static int __libdw__get_entries(unwind_entry_cb_t cb, void *arg,
				struct thread *thread,
				struct perf_sample *data,
				int max_stack,
				bool best_effort, bool step)
{
	struct maps *maps = thread__maps(thread);
	struct machine *machine = maps__machine(maps);
	uint32_t e_flags = 0;
	uint16_t e_machine = thread__e_machine(thread, machine, &e_flags);
	struct dwfl_ui_thread_info *dwfl_ui_ti;
	static struct unwind_info *ui;
	Dwfl *dwfl;
	Dwarf_Word ip;
	int err = -EINVAL, i, entries;

	if (!data->user_regs || !data->user_regs->regs)
		return 0;

	ui = zalloc(sizeof(*ui) + sizeof(ui->entries[0]) * max_stack);
	if (!ui)
		return -ENOMEM;

	*ui = (struct unwind_info){
		.sample		= data,
		.thread		= thread,
		.machine	= machine,
		.cb		= cb,
		.arg		= arg,
		.max_stack	= max_stack,
		.e_machine	= e_machine,
		.e_flags	= e_flags,
		.best_effort    = best_effort
	};

	dwfl_ui_ti = maps__libdw_addr_space_dwfl(maps);
	if (!dwfl_ui_ti) {
		dwfl_ui_ti = zalloc(sizeof(*dwfl_ui_ti));
		if (!dwfl_ui_ti) {
			free(ui);
			return -ENOMEM;
		}
		maps__set_libdw_addr_space_dwfl(maps, dwfl_ui_ti);
	}
	assert(dwfl_ui_ti->ui == NULL);
	assert(dwfl_ui_ti == maps__libdw_addr_space_dwfl(maps));
	dwfl_ui_ti->ui = ui;
	ui->dwfl_ui_ti = dwfl_ui_ti;

	err = perf_reg_value(&ip, data->user_regs, perf_arch_reg_ip(e_machine));
	if (err)
		goto out;

	if (step && e_machine == EM_X86_64) {
		struct step_regs regs;

		step_regs__init(&regs, ui);
		switch (step_unwind(ui, &regs, ip)) {
		case STEP_DONE:
			dwfl_ui_ti->stepped++;
			goto deliver;
		case STEP_ENOMEM:
			err = -ENOMEM;
			goto out;
		case STEP_FALLBACK:
		default:
			/* libdwfl unwinds the sample from the start. */
			for (i = 0; i < ui->idx; i++)
				map_symbol__exit(&ui->entries[i].ms);
			memset(ui->entries, 0, sizeof(ui->entries[0]) * ui->idx);
			ui->idx = 0;
			ui->max_stack = max_stack;
			break;
		}
	}
	dwfl_ui_ti->fallbacks++;

	if (!dwfl_ui_ti->dwfl) {
		dwfl_ui_ti->dwfl = dwfl_begin(&offline_callbacks);
		if (!dwfl_ui_ti->dwfl) {
			pr_debug("unwind: dwfl_begin() failed: %s\n", dwfl_errmsg(-1));
			goto out;
		}
	}
	dwfl = dwfl_ui_ti->dwfl;
	ui->dwfl = dwfl;

	err = report_module(ip, ui);
	if (err)
		goto out;

	dwfl_attach_state(dwfl, /*elf=*/NULL, thread__pid(thread), &callbacks,
			  /* Dwfl thread function argument*/dwfl_ui_ti);
	// Ignore thread already attached error.

	err = dwfl_getthread_frames(dwfl, thread__tid(thread), frame_callback,
				    /* Dwfl frame function argument*/ui);

	if (err && ui->max_stack != max_stack)
		err = 0;

deliver:
	/*
	 * Display what we got based on the order setup.
	 */
	for (i = 0; i < ui->idx && !err; i++) {
		int j = i;

		if (callchain_param.order == ORDER_CALLER)
			j = ui->idx - i - 1;

		err = ui->entries[j].ip ? ui->cb(&ui->entries[j], ui->arg) : 0;
	}

 out:
	if (err)
		pr_debug("unwind: failed with '%s'\n", dwfl_errmsg(-1));

	for (i = 0; i < ui->idx; i++)
		map_symbol__exit(&ui->entries[i].ms);

	dwfl_ui_ti->ui = NULL;
	entries = (int)ui->idx;
	free(ui);
	/*
	 * Unwinder return contract:
	 *  > 0 : unwinding succeeded (stops fallback). If we found frames but hit an error
	 *        (e.g. truncated stack), report success to preserve existing frames.
	 *    0 : unwinding failed without yielding frames. Ignore non-fatal errors
	 *        (e.g. missing debug info, DWARF corruption) to allow fallback unwinder or
	 *        kernel callchain resolution to proceed.
	 *  < 0 : fatal error (e.g. -ENOMEM). Aborts unwinding entirely.
	 */
	if (err)
		return (err == -ENOMEM) ? -ENOMEM : (entries > 0 ? 1 : 0);
	return entries;
}

int libdw__get_entries(unwind_entry_cb_t cb, void *arg, struct thread *thread,
		       struct perf_sample *data, int max_stack, bool best_effort)
{
	return __libdw__get_entries(cb, arg, thread, data, max_stack, best_effort,
				    /*step=*/true);
}

int libdwfl__get_entries(unwind_entry_cb_t cb, void *arg, struct thread *thread,
			 struct perf_sample *data, int max_stack, bool best_effort)
{
	return __libdw__get_entries(cb, arg, thread, data, max_stack, best_effort,
				    /*step=*/false);
}
