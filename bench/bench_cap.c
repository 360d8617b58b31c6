/* SPDX-License-Identifier: ISC */
/*
 * Work-cap benchmark: how often random settings make the engine hit its work
 * cap (simulated time then runs slower than time_scale asks), and the worst
 * cost per frame, for every model of the registry, over two distributions:
 *
 *   musical     what a patch is likely to use (printed below in full);
 *   in-range    every control drawn over its whole declared range
 *               (log-uniform for logarithmic ports, uniform otherwise),
 *               forcing on in one case of three.
 *
 * Each setting runs 0.5 s of audio at 48 kHz in blocks of 256 frames from
 * its initial state; a setting "hits the cap" if any frame was capped or if
 * the simulated time at the end differs from time_scale x audio time.
 *
 *   bench_cap [--quick] [--musical] [--seconds S]
 *     --quick      50 settings per model and distribution instead of 500
 *     --musical    the musical distribution only
 *     --seconds S  S seconds of audio per setting instead of 0.5 (0 < S <=
 *                  600): a motion that needs more work later in its run
 *                  reaches the cap only in a longer window
 *
 * First, how the work cap's prices follow CPU time (print_prices).
 *
 * Prints, never asserts:
 *   bench work_price_MODEL n=N work_iteration=W ns_per_unit=X vs_double=R
 *   bench cap_MODEL_DIST settings=N capped=K fraction=F worst_ns_per_frame=X
 *         worst_steps_per_frame=S slowest_time_ratio=R
 *   #   dearest: the settings of worst_ns_per_frame
 *   #   slowest: the settings of slowest_time_ratio (when it is not 1)
 *   #   floor #I: for each musical setting at the cap, what a far cheaper
 *         integrator would need along the same motion (print_floor)
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_stats.h"
#include "pendula_engine.h"
#include "ports.h"
#include "sweep.h"
#include "test_rng.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SR      48000.0
#define BLOCK   256
#define SECONDS 0.5 /* of audio per setting, unless --seconds says */
#define DEG     (3.14159265358979323846 / 180.0)

static test_rng rng; /* seeded for each model and distribution */

static double uniform(void) /* the tests' splitmix64 (test_rng.h) -> [0, 1) */
{
	return test_rng_uniform(&rng);
}

static double lin(double lo, double hi)
{
	return lo + (hi - lo) * uniform();
}

static double logu(double lo, double hi)
{
	return lo * pow(hi / lo, uniform());
}

/* The in-range distribution: the forcing on in one case of three (its four
 * controls at their defaults, undrawn, in the others). */
static sweep_choice forcing_in_one_of_three(pendula_port_id id, int index)
{
	const bool forcing = id == P_PIVOT_X_AMP || id == P_PIVOT_X_FREQ || id == P_PIVOT_Y_AMP ||
	                     id == P_PIVOT_Y_FREQ;
	return forcing && index % 3 != 0 ? SWEEP_KEEP : SWEEP_DRAW;
}

/* In range: every control that fills a setting of the model, over its
 * whole range, as a host sends it (a float). */
static const sweep_spec in_range = {
    .source = {sweep_rng_uniform, &rng},
    .rule = forcing_in_one_of_three,
    .as_float = true,
    .bounds_in_double = true,
};

/* The musical distribution (printed by main). */
static void draw_musical(pendula_params *p, pendula_model model)
{
	pendula_params_default(p, model);
	p->time_scale = logu(0.1, 10.0);
	p->gravity = logu(1.62, 24.8); /* the Moon to Jupiter */
	const int max_n = model == PENDULA_MODEL_DOUBLE ? 2 : 4;
	p->n_bodies = model == PENDULA_MODEL_DOUBLE ? 2 : 1 + (int)(uniform() * max_n);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		p->m[k] = logu(0.01, 100.0);
		p->l[k] = logu(0.01, 10.0);
		p->c[k] = lin(0.0, 10.0);
		p->b[k] = lin(0.0, 10.0);
		p->inertia[k] = logu(1e-6, 100.0);
		p->beta[k] = lin(-180.0, 180.0) * DEG;
		p->theta_init[k] = lin(-180.0, 180.0) * DEG;
	}
	/* Light damping: a damping ratio zeta <= 0.1 of each joint on its own
	 * (lambda = 2 zeta sqrt(J K)), torque off or within half the largest
	 * gravity torque, with the joint's own inertia J and stiffness K. */
	pendula_system sys;
	pendula_system_init(&sys, p);
	for (int k = 0; k < max_n; ++k) {
		double J, K;
		if (model == PENDULA_MODEL_CHAIN) {
			/* the mass matrix's diagonal and the potential's curvature
			 * along theta_k, hanging at rest, from the model itself */
			double q[PENDULA_MAX_DOF] = {0}, v[PENDULA_MAX_DOF] = {0};
			double pm[PENDULA_MAX_DOF] = {0};
			v[k] = 1.0;
			pendula_momentum(&sys, q, v, pm);
			J = pm[k];
			const double eps = 1e-4, z[PENDULA_MAX_DOF] = {0};
			const double u0 = pendula_energy(&sys, q, z);
			q[k] = eps;
			const double up = pendula_energy(&sys, q, z);
			q[k] = -eps;
			const double um = pendula_energy(&sys, q, z);
			K = (up + um - 2.0 * u0) / (eps * eps);
		} else if (model == PENDULA_MODEL_SPHERICAL) {
			/* link k turning alone: the masses below it on its length
			 * (the damper acts on the link's angular rate, SPEC) */
			double below = 0.0;
			for (int j = k; j < p->n_bodies; ++j)
				below += p->m[j];
			J = below * p->l[k] * p->l[k];
			K = p->gravity * below * p->l[k];
		} else if (model == PENDULA_MODEL_BEAD) {
			/* the bead at the bottom of its ellipsoid: omega^2 = g b / a^2,
			 * the drag lambda1 in N s/m */
			J = p->m[0];
			K = k == 0 ? p->m[0] * p->gravity * p->axis[1] / (p->axis[0] * p->axis[0])
			           : 0.0;
		} else if (model == PENDULA_MODEL_DOUBLE) {
			J = k == 0 ? (p->m[0] + p->m[1]) * p->l[0] * p->l[0]
			           : p->m[1] * p->l[1] * p->l[1];
			K = p->gravity *
			    (k == 0 ? (p->m[0] + p->m[1]) * p->l[0] : p->m[1] * p->l[1]);
		} else {
			J = p->inertia[k] + p->m[k] * p->c[k] * p->c[k];
			K = p->gravity * p->m[k] * fmax(p->c[k], 1e-3);
		}
		p->lambda[k] = uniform() < 0.5 ? 0.0 : lin(0.0, 0.1) * 2.0 * sqrt(J * K);
		p->sigma[k] = uniform() < 0.5 ? 0.0 : lin(-0.5, 0.5) * K;
		/* The spherical pendulum's sigma is a swirl about the vertical:
		 * gravity never balances it, so with light damping it spins the
		 * pendulum up without bound (the energy grows for ever), which no
		 * step rule follows in real time.  Off in this distribution. */
		if (model == PENDULA_MODEL_SPHERICAL)
			p->sigma[k] = 0.0;
		/* A torque on an undamped joint is a motor without friction:
		 * once the joint turns over, every turn adds the same work and
		 * gravity takes none of it back, so it spins up for ever (chain
		 * #431 of this draw: normalised energy 0.14 to 7.2 in half a
		 * second, link 1 at 3 200 rad/s).  The torque is drawn (the same
		 * draws follow) and kept only where the joint is damped: the
		 * speed then levels off near sigma / lambda. */
		if (p->lambda[k] == 0.0)
			p->sigma[k] = 0.0;
		p->lambda[k] = fmin(p->lambda[k], 100.0);
		p->sigma[k] = fmax(-100.0, fmin(100.0, p->sigma[k]));
	}
	/* Forcing on each axis with probability 1/2: up to 20 Hz and a peak
	 * pivot acceleration up to 10 g (amplitude clamped to its range). */
	double *amp[2] = {&p->pivot_x_amp, &p->pivot_y_amp};
	double *freq[2] = {&p->pivot_x_freq, &p->pivot_y_freq};
	for (int a = 0; a < 2; ++a) {
		*amp[a] = *freq[a] = 0.0;
		if (uniform() < 0.5)
			continue;
		const double f = lin(0.1, 20.0), accel = lin(0.0, 10.0 * 9.81);
		const double w = 2.0 * 3.14159265358979323846 * f;
		*freq[a] = f;
		*amp[a] = fmin(accel / (w * w), 10.0);
	}
}

typedef struct {
	int settings, capped;
	double worst_ns, worst_steps, worst_ratio;
	pendula_params dearest, slowest; /* the settings of worst_ns and worst_ratio */
} tally;

/* Whole blocks of audio in so many seconds. */
static long frames_of(double seconds)
{
	return (long)(seconds * SR) / BLOCK * BLOCK;
}

/* Frames each setting runs (--seconds). */
static long run_frames;

/* A new engine with settings p, run for frames frames (every channel
 * written); ns: thread CPU ns per frame.  The caller frees it. */
static pendula_engine *run_timed(const pendula_params *p, long frames, double *ns)
{
	static float buf[PENDULA_N_CHANNELS][BLOCK];
	pendula_outputs o;
	for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch)
		o.ch[ch] = buf[ch];
	pendula_engine *e = pendula_engine_new(SR, p);
	const double t0 = bench_thread_now();
	for (long done = 0; done < frames; done += BLOCK)
		pendula_engine_run(e, BLOCK, &o);
	*ns = (bench_thread_now() - t0) * 1e9 / (double)frames;
	return e;
}

/* Whether the setting hit the cap. */
static int run_one(const pendula_params *p, tally *t)
{
	double ns;
	const long frames = run_frames;
	pendula_engine *e = run_timed(p, frames, &ns);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	/* simulated time of the next frame against time_scale x audio time */
	pendula_frame f;
	pendula_engine_tick(e, &f);
	const double expect = p->time_scale * (double)frames / SR;
	const double ratio = f.t / expect;
	pendula_engine_free(e);
	t->settings++;
	const int hit = st.capped_frames > 0 || fabs(ratio - 1.0) > 1e-9;
	t->capped += hit;
	if (ratio < t->worst_ratio) {
		t->worst_ratio = ratio;
		t->slowest = *p;
	}
	t->worst_steps = fmax(t->worst_steps, (double)st.steps / (double)st.frames);
	if (ns > t->worst_ns) {
		t->worst_ns = ns;
		t->dearest = *p;
	}
	return hit;
}

/* ------------------------------------------------------------------------ */
/* The floor under a setting's work: is the cap a limit of the physics or of */
/* the engine's accuracy?                                                    */

#define JAC_MAX (2 * PENDULA_MAX_DOF)

/* a = a^2 / max|a^2|; returns log max|a^2| (-inf for a zero matrix). */
static double square_scaled(double *a, int n)
{
	static double b[JAC_MAX * JAC_MAX];
	double top = 0.0;
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j) {
			double s = 0.0;
			for (int k = 0; k < n; ++k)
				s += a[i * n + k] * a[k * n + j];
			b[i * n + j] = s;
			top = fmax(top, fabs(s));
		}
	if (!(top > 0.0))
		return -INFINITY;
	for (int i = 0; i < n * n; ++i)
		a[i] = b[i] / top;
	return log(top);
}

/* The fastest frequency of the motion linearised at the state s, simulated
 * rad/s: the spectral radius of the Jacobian of (q, qdot) -> (qdot, qddot),
 * by central differences of pendula_accel (the 3-D models: without z
 * forcing) and 8 squarings: ||J^256||^(1/256), off the radius by a factor
 * of at most about (n cond(V))^(1/256), V the eigenvectors, whose position
 * and velocity parts differ by the frequency itself: within 1 % for
 * print_floor_check's pendulums, 5 % at 3e5 rad/s.  For the 3-D models,
 * whose coordinates are positions, the directions off the constraints add
 * eigenvalues near 0, not large ones. */
static double fastest_frequency(const pendula_system *sys, const pendula_state *s)
{
	const int d = sys->dof, n = 2 * d;
	static double jac[JAC_MAX * JAC_MAX];
	double q[PENDULA_MAX_DOF], v[PENDULA_MAX_DOF];
	memset(jac, 0, sizeof(jac));
	memcpy(q, s->q, sizeof(q));
	pendula_velocity(sys, s->q, s->p, v);
	for (int k = 0; k < d; ++k)
		jac[k * n + d + k] = 1.0;
	for (int j = 0; j < n; ++j) {
		double *x = j < d ? &q[j] : &v[j - d];
		const double x0 = *x, dx = 1e-7 * fmax(1e-3, fabs(x0));
		double up[PENDULA_MAX_DOF], down[PENDULA_MAX_DOF];
		*x = x0 + dx;
		pendula_accel(sys, q, v, s->phase_x, s->phase_y, up);
		*x = x0 - dx;
		pendula_accel(sys, q, v, s->phase_x, s->phase_y, down);
		*x = x0;
		for (int k = 0; k < d; ++k)
			jac[(d + k) * n + j] = (up[k] - down[k]) / (2.0 * dx);
	}
	double top = 0.0;
	for (int i = 0; i < n * n; ++i)
		top = fmax(top, fabs(jac[i]));
	if (!(top > 0.0))
		return 0.0;
	for (int i = 0; i < n * n; ++i)
		jac[i] /= top;
	double log_rho = log(top), weight = 1.0;
	for (int m = 0; m < 8; ++m) {
		const double l = square_scaled(jac, n);
		weight *= 0.5;
		if (isinf(l))
			return 0.0;
		log_rho += weight * l;
	}
	return exp(log_rho);
}

/* fastest_frequency against a known answer: the double pendulum (and the
 * spherical pendulum of two links, its 3-D coordinates) hanging at rest,
 * equal masses and lengths, whose fast normal mode is sqrt((2 + sqrt 2)
 * g / l). */
static void print_floor_check(void)
{
	static const pendula_model models[] = {PENDULA_MODEL_DOUBLE, PENDULA_MODEL_SPHERICAL};
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); ++m) {
		pendula_params p;
		pendula_params_default(&p, models[m]);
		p.n_bodies = 2;
		p.m[0] = p.m[1] = 1.0;
		p.l[0] = p.l[1] = 1.0;
		p.pivot_x_amp = p.pivot_y_amp = 0.0;
		for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
			p.theta_init[k] = 0.0;
		/* the state at rest, as the engine starts it */
		pendula_engine *e = pendula_engine_new(SR, &p);
		pendula_state s;
		pendula_engine_state(e, &s);
		const double rho = fastest_frequency(pendula_engine_system(e), &s),
		             mode = sqrt((2.0 + sqrt(2.0)) * p.gravity / p.l[0]);
		printf("# floor check, %s at rest: fastest linearised frequency %.6g rad/s, "
		       "fast normal mode %.6g\n",
		       pendula_model_infos[models[m]].slug, rho, mode);
		pendula_engine_free(e);
	}
}

/* Runs the setting again frame by frame and asks, at the end of the step
 * the next frame falls in, how fast its motion is (fastest_frequency): an
 * integrator that took steps of 1 rad of that frequency, each costing the
 * bookkeeping and a single iteration (far below the engine's accuracy: its
 * steps resolve the motion to 0.05-0.6 rad, with several iterations each),
 * paid from the same budget with the same carry-over, would fall behind
 * real time in the printed number of frames.  0 says the cap hit is the
 * price of the engine's accuracy, not of the physics alone. */
static void print_floor(const pendula_params *p, int index)
{
	pendula_engine *e = pendula_engine_new(SR, p);
	const pendula_system *sys = pendula_engine_system(e);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	const double per_step = PENDULA_WORK_STEP + sys->work_iteration;
	const double share = st.max_work_per_frame, cap = share + PENDULA_BURST_WORK;
	double credit = PENDULA_BURST_WORK, t_before = 0.0, fastest = 0.0, peak = 0.0,
	       short_frames = 0.0;
	for (long i = 0; i < run_frames; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		pendula_state s;
		pendula_engine_state(e, &s);
		const double dt = f.t - t_before; /* simulated time of this frame */
		t_before = f.t;
		const double rho = fastest_frequency(sys, &s);
		const double frames = dt / p->time_scale * SR; /* at full speed */
		fastest = fmax(fastest, rho);
		peak = fmax(peak, rho * p->time_scale / SR);
		credit = fmin(credit + frames * share, cap) - rho * dt * per_step;
		if (credit < 0.0)
			short_frames += frames;
	}
	pendula_engine_free(e);
	printf("#   floor #%d: fastest linearised motion %.3g rad/s; at 1 rad per step of %.0f "
	       "units it needs up to %.3g steps per frame, the budget pays %.3g: %.0f frames "
	       "behind real time\n",
	       index, fastest, per_step, peak, share / per_step, short_frames);
}

static void print_params(const char *what, const pendula_params *p)
{
	printf("#   %s: ts %.3g g %.3g n %d m %.3g %.3g %.3g %.3g l %.3g %.3g c %.3g %.3g %.3g %.3g"
	       " I %.3g %.3g %.3g %.3g b %.3g %.3g %.3g lambda %.3g %.3g sigma %.3g %.3g"
	       " x %.3g m %.3g Hz y %.3g m %.3g Hz\n",
	       what, p->time_scale, p->gravity, p->n_bodies, p->m[0], p->m[1], p->m[2], p->m[3],
	       p->l[0], p->l[1], p->c[0], p->c[1], p->c[2], p->c[3], p->inertia[0], p->inertia[1],
	       p->inertia[2], p->inertia[3], p->b[1], p->b[2], p->b[3], p->lambda[0], p->lambda[1],
	       p->sigma[0], p->sigma[1], p->pivot_x_amp, p->pivot_x_freq, p->pivot_y_amp,
	       p->pivot_y_freq);
}

/* Thread CPU ns per frame and work units per frame of SECONDS of audio
 * (whatever --seconds says). */
static void cost_of(const pendula_params *p, double *ns, double *work)
{
	const long frames = frames_of(SECONDS);
	pendula_engine *e = run_timed(p, frames, ns);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	*work = (double)st.work / (double)frames;
	pendula_engine_free(e);
}

/* How well the work cap's prices (pendula_system.work_iteration) follow
 * CPU time: each model and size at its defaults, time_scale 8 and 32; the
 * extra CPU time over the extra work is the marginal ns per work unit, which
 * should be about the same for every model and size.  The VM's speed drifts
 * by a factor of up to two within seconds, so every size is timed once per
 * round, PRICE_ROUNDS rounds, and each is printed as the median over the
 * rounds of its ns per unit and of its ratio to the double pendulum's in
 * the same round (the drift cancels in the ratio). */
#define PRICE_ROUNDS 9
#define PRICE_SIZES  (PENDULA_N_MODELS * PENDULA_MAX_BODIES)

static void print_prices(void)
{
	{ /* a run whose figures are dropped: the first one pays for cold caches */
		pendula_params p;
		pendula_params_default(&p, (pendula_model)0);
		double ns, work;
		cost_of(&p, &ns, &work);
	}
	/* the sizes: every model at every N it takes (the first is double's) */
	pendula_params size[PRICE_SIZES];
	int iteration_price[PRICE_SIZES], n_sizes = 0;
	for (int m = 0; m < PENDULA_N_MODELS; ++m) {
		int last_size = 0;
		for (int n = 1; n <= PENDULA_MAX_BODIES; ++n) {
			pendula_params p;
			pendula_params_default(&p, (pendula_model)m);
			p.n_bodies = n;
			pendula_system sys;
			pendula_system_init(&sys, &p);
			if (sys.n == last_size)
				continue; /* the model clamps n: a size already timed */
			last_size = sys.n;
			p.n_bodies = sys.n;
			iteration_price[n_sizes] = sys.work_iteration;
			size[n_sizes++] = p;
		}
	}
	static double per_unit[PRICE_SIZES][PRICE_ROUNDS], ratio[PRICE_SIZES][PRICE_ROUNDS];
	for (int r = 0; r < PRICE_ROUNDS; ++r)
		for (int c = 0; c < n_sizes; ++c) {
			pendula_params p = size[c];
			double ns[2], work[2];
			for (int i = 0; i < 2; ++i) {
				p.time_scale = i ? 32.0 : 8.0;
				cost_of(&p, &ns[i], &work[i]);
			}
			per_unit[c][r] = (ns[1] - ns[0]) / (work[1] - work[0]);
			ratio[c][r] = per_unit[c][r] / per_unit[0][r];
		}
	for (int c = 0; c < n_sizes; ++c)
		printf("bench work_price_%s n=%d work_iteration=%d ns_per_unit=%.2f "
		       "vs_double=%.2f\n",
		       pendula_model_infos[size[c].model].slug, size[c].n_bodies,
		       iteration_price[c], bench_median(per_unit[c], PRICE_ROUNDS),
		       bench_median(ratio[c], PRICE_ROUNDS));
}

static void usage(const char *why)
{
	fprintf(stderr,
	        "bench_cap: %s\n"
	        "usage: bench_cap [--quick] [--musical] [--seconds S]  (0 < S <= 600)\n",
	        why);
	exit(2);
}

int main(int argc, char **argv)
{
	int quick = 0, musical_only = 0;
	double seconds = SECONDS;
	for (int i = 1; i < argc; ++i) {
		char why[160];
		if (!strcmp(argv[i], "--quick")) {
			quick = 1;
		} else if (!strcmp(argv[i], "--musical")) {
			musical_only = 1;
		} else if (!strcmp(argv[i], "--seconds")) {
			char *end = NULL;
			const char *arg = i + 1 < argc ? argv[++i] : "";
			seconds = strtod(arg, &end);
			if (end == arg || *end || !(seconds > 0.0 && seconds <= 600.0) ||
			    frames_of(seconds) < BLOCK) {
				snprintf(
				    why, sizeof(why),
				    "--seconds wants seconds of audio, at least one block and at "
				    "most 600, not '%.60s'",
				    arg);
				usage(why);
			}
		} else {
			snprintf(why, sizeof(why), "unknown argument '%.60s'", argv[i]);
			usage(why);
		}
	}
	run_frames = frames_of(seconds);
	const int n = quick ? 50 : 500;
	printf("# Work cap: %d settings per model and distribution, %g s of audio (%ld frames) "
	       "each at "
	       "48 kHz, blocks of %d.\n"
	       "# musical: time_scale log-uniform 0.1..10; gravity log-uniform 1.62..24.8 m/s^2;\n"
	       "#   masses log-uniform 0.01..100 kg, lengths log-uniform 0.01..10 m, c and b\n"
	       "#   uniform 0..10 m, inertias log-uniform 1e-6..100 kg m^2, angles uniform;\n"
	       "#   parallel, chain, spherical: N uniform 1..4; damping off or a ratio zeta\n"
	       "#   uniform 0..0.1 per joint (lambda = 2 zeta sqrt(J K), J and K the joint's\n"
	       "#   inertia and gravity stiffness hanging at rest), torque off or uniform\n"
	       "#   within +-0.5 of the joint's gravity torque K on damped joints only (undamped,\n"
	       "#   a joint that turns over spins up without bound; spherical: swirl off, it\n"
	       "#   does so whatever the damping); the bead: drag zeta <= 0.1 at\n"
	       "#   the bottom of its ellipsoid (default axes);\n"
	       "#   each forcing axis on with p = 1/2: 0.1..20 Hz, peak acceleration 0..10 g.\n"
	       "# in-range: every setting control uniform (log-uniform if logarithmic) over its\n"
	       "#   declared range; forcing on in one case of three.\n"
	       "# A setting hits the cap if a frame was capped or simulated time != time_scale x "
	       "audio time.\n",
	       n, seconds, run_frames, BLOCK);
	print_prices();
	print_floor_check();
	for (int m = 0; m < PENDULA_N_MODELS; ++m) {
		for (int dist = 0; dist < (musical_only ? 1 : 2); ++dist) {
			rng = test_rng_seeded(0x5eed0000u + 17u * (unsigned)m + (unsigned)dist);
			tally t;
			memset(&t, 0, sizeof(t));
			t.worst_ratio = 1.0;
			for (int c = 0; c < n; ++c) {
				pendula_params p;
				if (dist == 0)
					draw_musical(&p, (pendula_model)m);
				else
					sweep_draw(&in_range, (pendula_model)m, c, &p);
				if (run_one(&p, &t) && dist == 0)
					print_floor(&p, c);
			}
			printf("bench cap_%s_%s settings=%d capped=%d fraction=%.4f "
			       "worst_ns_per_frame=%.1f worst_steps_per_frame=%.2f "
			       "slowest_time_ratio=%.4f\n",
			       pendula_model_infos[m].slug, dist ? "inrange" : "musical",
			       t.settings, t.capped, (double)t.capped / t.settings, t.worst_ns,
			       t.worst_steps, t.worst_ratio);
			print_params("dearest", &t.dearest);
			if (t.worst_ratio < 1.0 - 1e-9) /* (as a hit's time is told) */
				print_params("slowest", &t.slowest);
		}
	}
	return 0;
}
