/* SPDX-License-Identifier: ISC */
/*
 * No subnormal arithmetic (issue 38): a plugin's instantiate() and run()
 * never take a subnormal operand, so that a host that traps on denormal
 * operands (plugin-torture --denormals) keeps running, the per-frame cost
 * does not jump on CPUs slow at subnormals, and the outputs do not depend
 * on the host's flush-to-zero setting.
 *
 * For one plugin, as plugin-torture does, the x86 MXCSR denormal-operand
 * exception is unmasked around instantiate() and every run(), and the
 * sticky denormal (DE) and underflow (UE) flags are read after each call:
 *   (a) the defaults, a few seconds;
 *   (b) a decay to rest: every damping high, every forcing off, long
 *       enough that the motion's variables fall through 1e-30;
 * (a) with the drive input on, fed subnormal samples between small normal
 * ones;
 * a denormal operand (the trap, or the DE flag) fails; underflow (UE: a
 * tiny result, flushed before it is used) is counted and reported only;
 * then both again with FTZ and DAZ set, and the outputs (signal and control,
 * every block) must be bit-identical.  A SIGFPE reports the call and the
 * instruction's place in its shared object (for addr2line).
 *
 * usage: test_denormals BUNDLE_DIR --plugin NAME
 * Skips (exit 77) where MXCSR does not govern the arithmetic.
 */
#define _GNU_SOURCE
#include "lv2_test_host.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SSE2_MATH__)
#include <xmmintrin.h>

#define CSR_DE    0x0002u /* denormal operand (sticky) */
#define CSR_UE    0x0010u /* underflow (sticky) */
#define CSR_DAZ   0x0040u
#define CSR_DM    0x0100u /* denormal-operand exception mask */
#define CSR_UM    0x0800u /* underflow exception mask */
#define CSR_FTZ   0x8000u
#define CSR_FLAGS 0x003fu

#define MAX_BLOCK 1024u

/* TEST_DENORMALS_TRAP_UNDERFLOW=1 traps underflow too, to find where a
 * flag comes from. */
static unsigned trap_um;
static const char *phase = "setup";
static unsigned phase_block;

static void on_sigfpe(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	char msg[512];
	Dl_info info;
	int n;
	if (dladdr(si->si_addr, &info) && info.dli_fname)
		n = snprintf(
		    msg, sizeof msg,
		    "test_denormals: SIGFPE (code %d) in %s, block %u: pc %p = %s+0x%lx "
		    "(near %s)\n",
		    si->si_code, phase, phase_block, si->si_addr, info.dli_fname,
		    (unsigned long)((const char *)si->si_addr - (const char *)info.dli_fbase),
		    info.dli_sname ? info.dli_sname : "?");
	else
		n = snprintf(msg, sizeof msg,
		             "test_denormals: SIGFPE (code %d) in %s, block %u: pc %p\n",
		             si->si_code, phase, phase_block, si->si_addr);
	if (n > 0)
		(void)!write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
	_exit(1);
}

/* The plugin's part: flags cleared, the trap armed (unless ftz_daz, which
 * sets FTZ and DAZ instead); returns the flags it raised. */
static unsigned csr_enter(bool ftz_daz)
{
	unsigned csr = _mm_getcsr();
	_mm_setcsr((csr & ~CSR_FLAGS & ~CSR_DM & ~(CSR_FTZ | CSR_DAZ) & ~(ftz_daz ? 0u : trap_um)) |
	           (ftz_daz ? CSR_FTZ | CSR_DAZ | CSR_DM : 0u));
	return csr;
}

static unsigned csr_leave(unsigned saved)
{
	unsigned raised = _mm_getcsr() & (CSR_DE | CSR_UE);
	_mm_setcsr(saved);
	return raised;
}

typedef struct {
	const char *name;
	bool decay;
	double rate;
	uint32_t block;
	double seconds;
} scenario;

typedef struct {
	unsigned n_blocks;
	uint64_t *hash; /* per block, FNV-1a over the outputs */
	unsigned de_blocks, ue_blocks, first_bad;
	bool bad_init;
} result;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; ++i)
		h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

static void run_scenario(const LilvPlugin *plugin, pendula_variant v, const scenario *s,
                         bool ftz_daz, result *r)
{
	static float control[PENDULA_N_PORT_IDS];
	static float *signal[PENDULA_N_PORT_IDS];
	static uint64_t atom_in[2048], atom_out[2048];
	test_control_defaults(v, control);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_ports[id].kind == PK_SIGNAL_OUT && !signal[id])
			signal[id] = lv2th_calloc(MAX_BLOCK, sizeof(float));
		/* the drive input: subnormal samples, as plugin-torture feeds,
		 * between small normal ones, with the drive on */
		if (pendula_ports[id].kind == PK_SIGNAL_IN && !signal[id]) {
			signal[id] = lv2th_calloc(MAX_BLOCK, sizeof(float));
			for (uint32_t i = 0; i < MAX_BLOCK; ++i)
				signal[id][i] = i % 7 ? (i % 2 ? 1e-40f : -3e-39f) : 0.25f;
		}
		if (id == P_DRIVE_GAIN && !s->decay)
			control[id] = 0.5f;
		if (!s->decay || pendula_ports[id].kind != PK_CONTROL_IN)
			continue;
		const char *sym = pendula_ports[id].symbol;
		if (!strncmp(sym, "lambda", 6))
			control[id] = 5.0f;
		else if (!strncmp(sym, "sigma", 5) || !strcmp(sym, "wave_amp") ||
		         (!strncmp(sym, "pivot_", 6) && strstr(sym, "_amp")))
			control[id] = 0.0f;
	}
	lv2th_options o;
	lv2th_options_init(&o, s->rate, (int32_t)s->block, (int32_t)sizeof atom_out);
	const LV2_Feature *features[] = {&lv2th_map_feature, &lv2th_unmap_feature,
	                                 &o.options_feature, &o.bounded_feature, NULL};

	memset(r, 0, sizeof *r);
	r->n_blocks = (unsigned)(s->seconds * s->rate / s->block);
	r->hash = lv2th_calloc(r->n_blocks, sizeof(uint64_t));
	r->first_bad = r->n_blocks;

	phase = "instantiate()";
	unsigned saved = csr_enter(ftz_daz);
	LilvInstance *inst = lilv_plugin_instantiate(plugin, s->rate, features);
	r->bad_init = (csr_leave(saved) & CSR_DE) != 0;
	if (!inst) {
		fprintf(stderr, "test_denormals: cannot instantiate %s\n",
		        pendula_variant_names[v]);
		exit(2);
	}
	lv2th_connect(inst, v, control, signal, atom_in, atom_out);
	lilv_instance_activate(inst);
	phase = "run()";
	for (unsigned b = 0; b < r->n_blocks; ++b) {
		lv2th_prepare_atoms(atom_in, atom_out, (uint32_t)sizeof atom_out - 8u);
		phase_block = b;
		saved = csr_enter(ftz_daz);
		lilv_instance_run(inst, s->block);
		unsigned raised = csr_leave(saved);
		r->de_blocks += (raised & CSR_DE) != 0;
		r->ue_blocks += (raised & CSR_UE) != 0;
		if ((raised & CSR_DE) && b < r->first_bad)
			r->first_bad = b;
		uint64_t h = 14695981039346656037ull;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (signal[id] && pendula_port_index(v, (pendula_port_id)id) >= 0)
				h = fnv(h, signal[id], s->block * sizeof(float));
		r->hash[b] = fnv(h, control, sizeof control);
	}
	phase = "setup";
	lilv_instance_deactivate(inst);
	lilv_instance_free(inst);
}

static int usage(const char *why)
{
	fprintf(stderr, "test_denormals: %s\nusage: test_denormals BUNDLE_DIR --plugin NAME\n",
	        why);
	return 2;
}

int main(int argc, char **argv)
{
	const char *bundle = NULL;
	int variant = -1;
	for (int i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--plugin") && i + 1 < argc) {
			const char *name = argv[++i];
			for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
				if (!strcmp(name, pendula_variant_names[v]))
					variant = v;
			if (variant < 0)
				return usage("--plugin: unknown plugin name");
		} else if (argv[i][0] != '-' && !bundle) {
			bundle = argv[i];
		} else {
			return usage("unknown argument");
		}
	}
	if (!bundle || variant < 0)
		return usage("a bundle folder and --plugin are needed");

	LilvWorld *world;
	const LilvPlugin *plugins[PENDULA_N_VARIANTS];
	if (!lv2th_world_load("test_denormals", bundle, &world, plugins))
		return 1;

	const char *trap_env = getenv("TEST_DENORMALS_TRAP_UNDERFLOW");
	trap_um = trap_env && *trap_env == '1' ? CSR_UM : 0u;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigfpe;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGFPE, &sa, NULL);

	/* plugin-torture's rate and block, then a short odd block */
	const scenario scenarios[] = {{"defaults", false, 44100.0, 1024u, 6.0},
	                              {"defaults", false, 48000.0, 37u, 3.0},
	                              {"decay to rest", true, 44100.0, 1024u, 40.0}};
	const pendula_variant v = (pendula_variant)variant;
	int failures = 0;
	for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; ++k) {
		const scenario *s = &scenarios[k];
		result plain, flushed;
		run_scenario(plugins[v], v, s, false, &plain);
		run_scenario(plugins[v], v, s, true, &flushed);
		const bool flags_ok = !plain.bad_init && !plain.de_blocks;
		unsigned diff = plain.n_blocks;
		for (unsigned b = 0; b < plain.n_blocks && diff == plain.n_blocks; ++b)
			if (plain.hash[b] != flushed.hash[b])
				diff = b;
		printf(
		    "%s, %s (%u blocks of %u at %.0f Hz): %s%s%u blocks raised denormal-operand, "
		    "%u underflow",
		    pendula_variant_names[v], s->name, plain.n_blocks, s->block, s->rate,
		    flags_ok ? "ok" : "FAILED", plain.bad_init ? " (and instantiate()): " : ": ",
		    plain.de_blocks, plain.ue_blocks);
		if (!flags_ok && plain.first_bad < plain.n_blocks)
			printf(", the first at block %u", plain.first_bad);
		if (diff < plain.n_blocks)
			printf("; outputs differ under FTZ|DAZ from block %u: FAILED\n", diff);
		else
			printf("; outputs bit-identical under FTZ|DAZ\n");
		failures += !flags_ok + (diff < plain.n_blocks);
		free(plain.hash);
		free(flushed.hash);
	}
	lilv_world_free(world);
	lv2th_free_uris();
	return failures ? 1 : 0;
}

#else

int main(void)
{
	printf("SKIP-REASON: the denormal trap needs x86 SSE arithmetic (MXCSR)\n");
	return 77;
}

#endif
