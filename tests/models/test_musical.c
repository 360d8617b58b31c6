/* SPDX-License-Identifier: ISC */
/*
 * The musician's controls and outputs (docs/GUIDE.md, "Pendula as a chaotic
 * sequencer"), against ground truth computed here:
 *
 *   - the chaos knob (energy_target, energy_rate): from several starts and
 *     damping values the normalised energy reaches its target within 5
 *     time constants and stays within +-2 % of it for 10 minutes of
 *     simulated time; the approach follows dE/dt = rate (target - E) (the
 *     feedback force's power is what docs/GUIDE.md says); with a target below
 *     the flip level (computed here from the potential) no arm flips, above
 *     it arms flip; from rest a target above 0 starts the motion;
 *   - the continuous outputs: omega{k} = theta-dot_k / omega_ref_k with
 *     omega_ref_k = sqrt(2 D / R_kk) computed here from the masses and
 *     lengths, x{k} = sin theta_k, y{k} = -cos theta_k; the spherical
 *     pendulum moving in the x-y plane gives the double pendulum's
 *     omega{k}; the bead's vx, vy, vz are its velocity over sqrt(2 D / m);
 *     the audio-rate outputs (pendula_engine_run) agree with the
 *     double-precision frames and never jump;
 *   - events: every flip and swing the engine reports lands on the frame
 *     where a scan of the double-precision frames (theta_k unwrapped; for
 *     the spherical pendulum and the bead the front-view angle
 *     atan2(x, -y)) sees the crossing, in its direction, with blocks of 1,
 *     37, 256 and random sizes, for double, chain, spherical and bead.
 */
#include "pendula_engine.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static pendula_params double_params(double th1, double th2, double lambda)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_DOUBLE);
	p.theta_init[0] = th1 * PI / 180.0;
	p.theta_init[1] = th2 * PI / 180.0;
	p.lambda[0] = p.lambda[1] = lambda;
	return p;
}

/* The double pendulum's potential range D and flip level (the lowest
 * energy at which some arm can pass over the top), from U(theta1, theta2) =
 * -(m1 + m2) g l1 cos theta1 - m2 g l2 cos theta2. */
static void double_levels(const pendula_params *p, double *range, double *flip)
{
	const double m1 = p->m[0], m2 = p->m[1], l1 = p->l[0], l2 = p->l[1], g = p->gravity;
	const double u_min = -(m1 + m2) * g * l1 - m2 * g * l2;
	const double u_arm2_up = -(m1 + m2) * g * l1 + m2 * g * l2; /* theta2 = pi */
	const double u_arm1_up = (m1 + m2) * g * l1 - m2 * g * l2;  /* theta1 = pi, arm 2 down */
	*range = -2.0 * u_min;
	*flip = (fmin(u_arm2_up, u_arm1_up) - u_min) / *range;
}

/* Counts the flips of the first n arms (a wrapped angle jumping by more
 * than pi between frames went over the top) from frame `from` on. */
typedef struct {
	double prev[PENDULA_MAX_BODIES];
	long flips;
	int started;
} flip_counter;

static void count_flips(flip_counter *c, const pendula_frame *f, int n)
{
	for (int k = 0; k < n; ++k) {
		if (c->started && fabs(f->theta[k] - c->prev[k]) > PI)
			c->flips++;
		c->prev[k] = f->theta[k];
	}
	c->started = 1;
}

/* ---------------------------------------------------------------------- */
/* The chaos knob                                                          */

static void check_hold(const char *label, pendula_params p, double target, double rate,
                       double seconds)
{
	p.energy_target = target;
	p.energy_rate = rate;
	/* 1 kHz frames at time_scale 10: 100 frames per simulated second */
	const double sample_rate = 1000.0, ts = 10.0;
	p.time_scale = ts;
	pendula_engine *e = pendula_engine_new(sample_rate, &p);
	const long frames = (long)(seconds * sample_rate / ts);
	const double settle = 5.0 / rate;
	double worst = 0.0, t_worst = 0.0;
	pendula_frame f;
	for (long i = 0; i < frames; ++i) {
		pendula_engine_tick(e, &f);
		if (f.t >= settle) {
			const double err = fabs(f.energy - target) / target;
			if (err > worst) {
				worst = err;
				t_worst = f.t;
			}
		}
	}
	printf("  %s: target %.2f, worst error after %.0f s: %.3f %% (t = %.1f s), final %.4f\n",
	       label, target, settle, 100.0 * worst, t_worst, f.energy);
	CU_ASSERT(worst <= 0.02);
	pendula_engine_free(e);
}

static void test_knob_holds(void)
{
	const double starts[3][2] = {{120, -60}, {10, 0}, {170, 170}};
	const double damping[3] = {0.0, 0.05, 0.5};
	const double targets[3] = {0.3, 0.8, 2.0};
	for (int i = 0; i < 3; ++i) {
		char label[64];
		snprintf(label, sizeof label, "double from (%g, %g), lambda %g", starts[i][0],
		         starts[i][1], damping[i]);
		check_hold(label, double_params(starts[i][0], starts[i][1], damping[i]), targets[i],
		           0.5, 600.0);
	}
	/* the other models */
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_PARALLEL);
	check_hold("parallel (defaults)", p, 1.5, 1.0, 120.0);
	pendula_params_default(&p, PENDULA_MODEL_CHAIN);
	p.lambda[0] = 0.1;
	check_hold("chain (defaults, lambda1 0.1)", p, 0.6, 1.0, 120.0);
	pendula_params_default(&p, PENDULA_MODEL_SPHERICAL);
	check_hold("spherical (defaults)", p, 0.7, 1.0, 120.0);
	pendula_params_default(&p, PENDULA_MODEL_BEAD);
	check_hold("bead (defaults)", p, 0.4, 1.0, 120.0);
}

/* The approach: dE/dt = rate (target - E), so E - target decays as
 * exp(-rate t) (no damping: the feedback is the only power).  From t0 = 1 s
 * on (the pendulum starts at rest, where there is no motion to push along
 * and the force is clamped). */
static void test_knob_rate(void)
{
	pendula_params p = double_params(120, -60, 0.0);
	const double rate = 0.5, target = 1.4, t0 = 1.0;
	p.energy_target = target;
	p.energy_rate = rate;
	pendula_engine *e = pendula_engine_new(1000.0, &p);
	pendula_frame f;
	do
		pendula_engine_tick(e, &f);
	while (f.t < t0);
	const double e0 = f.energy, start = f.t;
	double worst = 0.0;
	while (f.t < start + 3.0 / rate) {
		pendula_engine_tick(e, &f);
		const double want = target + (e0 - target) * exp(-rate * (f.t - start));
		worst = fmax(worst, fabs(f.energy - want));
	}
	printf("  E(%.0f s) = %.4f, worst deviation from target + (E0 - target) exp(-rate t): "
	       "%.2e\n",
	       start, e0, worst);
	CU_ASSERT(worst < 0.03 * fabs(e0 - target));
	pendula_engine_free(e);
}

static long flips_at(double target, double seconds, double *energy_max)
{
	pendula_params p = double_params(20, 10, 0.02);
	p.energy_target = target;
	p.energy_rate = 1.0;
	p.time_scale = 4.0;
	pendula_engine *e = pendula_engine_new(2000.0, &p);
	flip_counter c = {{0}, 0, 0};
	pendula_frame f;
	*energy_max = 0.0;
	const long frames = (long)(seconds * 2000.0 / 4.0);
	for (long i = 0; i < frames; ++i) {
		pendula_engine_tick(e, &f);
		count_flips(&c, &f, 2);
		*energy_max = fmax(*energy_max, f.energy);
	}
	pendula_engine_free(e);
	return c.flips;
}

static void test_knob_flips(void)
{
	pendula_params p = double_params(20, 10, 0.02);
	double range, flip;
	double_levels(&p, &range, &flip);
	double e_low, e_high;
	const long low = flips_at(0.75 * flip, 300.0, &e_low);
	const long high = flips_at(3.0 * flip, 300.0, &e_high);
	printf("  flip level %.4f: target %.3f -> %ld flips (E max %.4f), target %.3f -> %ld "
	       "flips\n",
	       flip, 0.75 * flip, low, e_low, 3.0 * flip, high);
	CU_ASSERT(low == 0);
	CU_ASSERT(e_low < flip);
	CU_ASSERT(high > 10);
}

/* At rest (hanging still) a target above 0 starts the motion. */
static void test_knob_from_rest(void)
{
	pendula_params p = double_params(0, 0, 0.0);
	p.energy_target = 0.5;
	p.energy_rate = 1.0;
	p.time_scale = 10.0;
	pendula_engine *e = pendula_engine_new(1000.0, &p);
	pendula_frame f;
	double worst = 0.0;
	for (long i = 0; i < 60000; ++i) {
		pendula_engine_tick(e, &f);
		if (f.t > 30.0)
			worst = fmax(worst, fabs(f.energy - 0.5));
	}
	printf("  from rest: energy %.4f at %.0f s, worst error after 30 s %.4f\n", f.energy, f.t,
	       worst);
	CU_ASSERT(worst < 0.01);
	pendula_engine_free(e);
	/* off (the default): at rest it stays at rest */
	p.energy_target = -1.0;
	e = pendula_engine_new(1000.0, &p);
	for (long i = 0; i < 10000; ++i)
		pendula_engine_tick(e, &f);
	CU_ASSERT(f.energy == 0.0);
	pendula_engine_free(e);
}

/* ---------------------------------------------------------------------- */
/* Continuous outputs                                                      */

static void test_angle_outputs(void)
{
	pendula_params p = double_params(120, -60, 0.0);
	const double m1 = p.m[0], m2 = p.m[1], l1 = p.l[0], l2 = p.l[1];
	double range, flip;
	double_levels(&p, &range, &flip);
	/* R at rest: R11 = (m1 + m2) l1^2, R22 = m2 l2^2 */
	const double ref[2] = {sqrt(2.0 * range / ((m1 + m2) * l1 * l1)),
	                       sqrt(2.0 * range / (m2 * l2 * l2))};
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	pendula_engine *r = pendula_engine_new(48000.0, &p);
	enum { N = 48000 };
	static float out[PENDULA_N_CHANNELS][N];
	pendula_outputs o;
	memset(&o, 0, sizeof o);
	for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch)
		o.ch[ch] = out[ch];
	pendula_engine_run(r, N, &o);
	double err_w = 0.0, err_xy = 0.0, err_run = 0.0, jump = 0.0, peak = 0.0;
	for (int i = 0; i < N; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 2; ++k) {
			double want = f.omega[k] / ref[k];
			want = want > 1.0 ? 1.0 : want < -1.0 ? -1.0 : want;
			const double w = pendula_frame_channel(&f, PENDULA_CH_W + k);
			err_w = fmax(err_w, fabs(w - want));
			err_xy = fmax(err_xy, fabs(pendula_frame_channel(&f, PENDULA_CH_X + k) -
			                           sin(f.theta[k])));
			err_xy = fmax(err_xy, fabs(pendula_frame_channel(&f, PENDULA_CH_Y + k) +
			                           cos(f.theta[k])));
			err_run = fmax(err_run, fabs(out[PENDULA_CH_W + k][i] - w));
			err_run = fmax(err_run, fabs(out[PENDULA_CH_X + k][i] - sin(f.theta[k])));
			if (i > 0)
				jump = fmax(jump, fabs(out[PENDULA_CH_W + k][i] -
				                       out[PENDULA_CH_W + k][i - 1]));
			peak = fmax(peak, fabs(f.omega[k] / ref[k]));
		}
	}
	printf("  omega vs theta-dot / ref: %.2e; x, y vs sin, -cos: %.2e; run vs tick %.2e; "
	       "largest frame-to-frame change %.2e; peak |omega / ref| %.3f (E = %.3f)\n",
	       err_w, err_xy, err_run, jump, peak, 1.0);
	CU_ASSERT(err_w < 1e-6);
	CU_ASSERT(err_xy < 1e-5);
	CU_ASSERT(err_run < 1e-3);
	CU_ASSERT(jump < 5e-3);
	/* a motion at energy 1 (this one) stays within about +-1: the
	 * reference is the rate at rest; elsewhere the coupling of the arms
	 * lets one turn a little faster (the output is clamped to +-1) */
	CU_ASSERT(peak > 0.5 && peak < 1.25);
	pendula_engine_free(e);
	pendula_engine_free(r);
}

/* The spherical pendulum in the x-y plane is the double pendulum: its
 * omega{k} ((u x u')_z over the same reference) are the double's. */
static void test_spherical_in_plane(void)
{
	pendula_params d = double_params(60, -30, 0.0), s;
	pendula_params_default(&s, PENDULA_MODEL_SPHERICAL);
	s.n_bodies = 2;
	for (int k = 0; k < 2; ++k) {
		s.m[k] = d.m[k];
		s.l[k] = d.l[k];
		s.theta_init[k] = d.theta_init[k];
		s.phi_init[k] = 0.0;
		s.lambda[k] = s.sigma[k] = 0.0;
	}
	s.spin_init = 0.0;
	pendula_engine *a = pendula_engine_new(48000.0, &d), *b = pendula_engine_new(48000.0, &s);
	double worst = 0.0, peak = 0.0;
	for (int i = 0; i < 48000; ++i) {
		pendula_frame fa, fb;
		pendula_engine_tick(a, &fa);
		pendula_engine_tick(b, &fb);
		for (int k = 0; k < 2; ++k) {
			const double wa = pendula_frame_channel(&fa, PENDULA_CH_W + k);
			const double wb = pendula_frame_channel(&fb, PENDULA_CH_W + k);
			worst = fmax(worst, fabs(wa - wb));
			peak = fmax(peak, fabs(wa));
		}
	}
	printf("  spherical in plane vs double: omega differs by %.2e (peak %.3f)\n", worst, peak);
	CU_ASSERT(peak > 0.2);
	CU_ASSERT(worst < 1e-3);
	pendula_engine_free(a);
	pendula_engine_free(b);
}

/* The bead on the ellipsoid: v{x,y,z} = velocity / sqrt(2 D / m), the
 * velocity from the position outputs (times the semi-axes) by central
 * differences. */
static void test_bead_velocity(void)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_BEAD);
	p.spin_init = 0.3;
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	const pendula_system *sys = pendula_engine_system(e);
	const double m = p.m[0];
	/* D on the ellipsoid: U from -m g b to m g b */
	const double range = 2.0 * m * p.gravity * p.axis[1];
	const double v_ref = sqrt(2.0 * range / m);
	CU_ASSERT(fabs(sys->energy_range - range) < 1e-9 * range);
	const double dt = 1.0 / 48000.0;
	pendula_frame f[3];
	pendula_engine_tick(e, &f[0]);
	pendula_engine_tick(e, &f[1]);
	double worst = 0.0, peak = 0.0;
	for (int i = 0; i < 24000; ++i) {
		pendula_engine_tick(e, &f[2]);
		const double *pos[3] = {f[0].x, f[0].y, f[0].z}, *nxt[3] = {f[2].x, f[2].y, f[2].z};
		for (int a = 0; a < 3; ++a) {
			const double v = (nxt[a][0] - pos[a][0]) * p.axis[a] / (2.0 * dt);
			const double w = pendula_frame_channel(&f[1], PENDULA_CH_W + a);
			worst = fmax(worst, fabs(w - v / v_ref));
			peak = fmax(peak, fabs(w));
		}
		f[0] = f[1];
		f[1] = f[2];
	}
	printf("  bead: v / v_ref vs differences of the position: %.2e (peak %.3f)\n", worst, peak);
	CU_ASSERT(peak > 0.05);
	CU_ASSERT(worst < 1e-3);
	pendula_engine_free(e);
}

/* ---------------------------------------------------------------------- */
/* Events                                                                  */

#define MAX_EVENTS 20000

typedef struct {
	long frame;
	int body, kind, dir;
} event_rec;

typedef struct {
	event_rec ev[MAX_EVENTS];
	int n;
	int ambiguous; /* scan_ticks: crossings into the opposite quadrant */
	long base;     /* frame of the current run() call */
} event_list;

static void collect(void *user, const pendula_event *ev)
{
	event_list *l = user;
	if (l->n < MAX_EVENTS) {
		l->ev[l->n].frame = l->base + (long)ev->frame;
		l->ev[l->n].body = ev->body;
		l->ev[l->n].kind = ev->kind;
		l->ev[l->n].dir = ev->dir;
		l->n++;
	}
}

/* Ground truth from the double-precision frames: the angle unwrapped from
 * frame to frame; an event where floor(angle / pi) changes (an even
 * multiple of pi crossed: a swing, odd: a flip), at the first frame past
 * the crossing, in the direction of the change.  The angle: theta_k for
 * the planar models; for the 3-D ones the front-view angle docs/GUIDE.md
 * gives, atan2(x{k}, -y{k}) of the direction (spherical) or the position
 * (bead) outputs.  A crossing whose frame lands in the opposite quadrant
 * of the one before (the angle's sign and half, |angle| > pi/2, both
 * changed: a spherical link seen end-on, its front view passing next to
 * the centre) has no event: which way round it went is not defined
 * (docs/GUIDE.md); the scan counts those in l->ambiguous.  A crossing
 * counts only if the body was more than EVENT_BAND from the lines it
 * crosses (the angle from 0 and +-pi; the 3-D models' x from 0) at some
 * frame since its last event or the start (docs/GUIDE.md, "Events"): a
 * crossing inside the band is none, and one from clear of it keeps the
 * body armed. */
#define EVENT_BAND 1e-4
static double event_angle(const pendula_params *p, const pendula_frame *f, int k)
{
	if (p->model == PENDULA_MODEL_SPHERICAL || p->model == PENDULA_MODEL_BEAD)
		return atan2(f->x[k], -f->y[k]);
	return f->theta[k];
}

/* The bodies with events: the bead is one body (whatever n_bodies says). */
static int event_bodies(const pendula_params *p)
{
	return p->model == PENDULA_MODEL_BEAD ? 1 : p->n_bodies;
}

/* Whether body k of the frame is clear of the lines it can cross. */
static int event_clear(const pendula_params *p, const pendula_frame *f, int k)
{
	if (p->model == PENDULA_MODEL_SPHERICAL || p->model == PENDULA_MODEL_BEAD)
		return fabs(f->x[k]) > EVENT_BAND;
	const double a = fabs(remainder(f->theta[k], 2.0 * PI));
	return a > EVENT_BAND && a < PI - EVENT_BAND;
}

static void scan_ticks(const pendula_params *p, double rate, long frames, event_list *l)
{
	pendula_engine *e = pendula_engine_new(rate, p);
	double unwrapped[PENDULA_MAX_BODIES] = {0}, prev[PENDULA_MAX_BODIES] = {0};
	int armed[PENDULA_MAX_BODIES] = {0};
	l->n = 0;
	l->ambiguous = 0;
	for (long i = 0; i < frames; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		for (int k = 0; k < event_bodies(p); ++k) {
			const double th = event_angle(p, &f, k);
			const int clear = event_clear(p, &f, k), was_armed = armed[k] || clear;
			armed[k] = was_armed;
			if (i == 0) {
				unwrapped[k] = prev[k] = th;
				continue;
			}
			double d = th - prev[k];
			d -= 2.0 * PI * floor((d + PI) / (2.0 * PI));
			const int opposite = (th >= 0.0) != (prev[k] >= 0.0) &&
			                     (fabs(th) > 0.5 * PI) != (fabs(prev[k]) > 0.5 * PI);
			prev[k] = th;
			const double was = floor(unwrapped[k] / PI);
			unwrapped[k] += d;
			const double now = floor(unwrapped[k] / PI);
			if (now == was || l->n >= MAX_EVENTS)
				continue;
			if (opposite) {
				l->ambiguous++;
				continue;
			}
			armed[k] = clear;
			if (!was_armed)
				continue;
			const double crossed = now > was ? now : was; /* the multiple of pi */
			l->ev[l->n].frame = i;
			l->ev[l->n].body = k;
			l->ev[l->n].kind = fmod(fabs(crossed), 2.0) == 1.0 ? PENDULA_EVENT_FLIP
			                                                   : PENDULA_EVENT_SWING;
			l->ev[l->n].dir = now > was ? 1 : -1;
			l->n++;
		}
	}
	pendula_engine_free(e);
}

/* The same settings through pendula_engine_run_events in blocks of
 * `block` frames (0: pseudo-random sizes, some empty). */
static void run_blocks(const pendula_params *p, double rate, long frames, uint32_t block,
                       event_list *l)
{
	pendula_engine *e = pendula_engine_new(rate, p);
	static float buf[4096];
	pendula_outputs o;
	memset(&o, 0, sizeof o);
	o.ch[PENDULA_CH_THETA] = buf;
	l->n = 0;
	l->base = 0;
	uint32_t state = 12345;
	while (l->base < frames) {
		uint32_t n = block;
		if (!n) {
			state ^= state << 13;
			state ^= state >> 17;
			state ^= state << 5;
			n = state % 7 == 0 ? 0 : 1 + state % 4000;
		}
		if ((long)n > frames - l->base)
			n = (uint32_t)(frames - l->base);
		pendula_engine_run_events(e, n, &o, collect, l);
		l->base += n;
	}
	pendula_engine_free(e);
}

static int same_events(const event_list *a, const event_list *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; ++i)
		if (a->ev[i].frame != b->ev[i].frame || a->ev[i].body != b->ev[i].body ||
		    a->ev[i].kind != b->ev[i].kind || a->ev[i].dir != b->ev[i].dir)
			return 0;
	return 1;
}

static event_list truth, got;

static void check_events(const char *label, const pendula_params *p, double rate, long frames)
{
	scan_ticks(p, rate, frames, &truth);
	/* every body, both kinds, both directions */
	int seen[PENDULA_MAX_BODIES][2][2] = {{{0}}};
	for (int i = 0; i < truth.n; ++i)
		seen[truth.ev[i].body][truth.ev[i].kind][truth.ev[i].dir > 0] = 1;
	int all = 1;
	for (int k = 0; k < event_bodies(p); ++k)
		all &= seen[k][0][0] && seen[k][0][1] && seen[k][1][0] && seen[k][1][1];
	const uint32_t blocks[4] = {1, 37, 256, 0};
	int ok = 1;
	for (int b = 0; b < 4; ++b) {
		run_blocks(p, rate, frames, blocks[b], &got);
		ok &= same_events(&truth, &got);
		if (!same_events(&truth, &got))
			printf("  %s: blocks of %u: %d events, the frames say %d\n", label,
			       blocks[b], got.n, truth.n);
	}
	printf("  %s: %d events (every body flips and swings both ways: %s), the same for "
	       "blocks of 1, 37, 256 and random: %s; %d crossings seen end-on\n",
	       label, truth.n, all ? "yes" : "no", ok ? "yes" : "no", truth.ambiguous);
	CU_ASSERT(truth.n > 0);
	CU_ASSERT(truth.ambiguous * 100 <= truth.n); /* a rare case, not the test's bulk */
	CU_ASSERT(all);
	CU_ASSERT(ok);
}

/* A model's defaults with the chaos knob at `target` (rate 1/s). */
static pendula_params knob_at(pendula_model model, double target)
{
	pendula_params p;
	pendula_params_default(&p, model);
	p.energy_target = target;
	p.energy_rate = 1.0;
	return p;
}

static void test_events_exact(void)
{
	pendula_params p = double_params(170, 170, 0.0);
	p.energy_target = 1.0;
	p.energy_rate = 1.0;
	check_events("double, chaos knob 1", &p, 8000.0, 8000L * 60);
	p = knob_at(PENDULA_MODEL_CHAIN, 1.5);
	p.time_scale = 2.0;
	check_events("chain (3 links), chaos knob 1.5", &p, 4000.0, 4000L * 60);
	p = knob_at(PENDULA_MODEL_SPHERICAL, 1.5);
	check_events("spherical (2 links), chaos knob 1.5", &p, 4000.0, 4000L * 60);
	p = knob_at(PENDULA_MODEL_BEAD, 1.5);
	check_events("bead (ellipsoid), chaos knob 1.5", &p, 4000.0, 4000L * 60);
}

/* A damped motion decaying to rest: its swings shrink through the dead
 * band (docs/GUIDE.md, "Events") and stop there; the engine's events are
 * the frames' (the band rule included) whatever the block sizes, and none
 * come from the last seconds, at rest. */
static void test_events_decay(void)
{
	const pendula_model models[3] = {PENDULA_MODEL_DOUBLE, PENDULA_MODEL_CHAIN,
	                                 PENDULA_MODEL_SPHERICAL};
	const double rate = 4000.0;
	const long frames = 4000L * 40;
	for (int m = 0; m < 3; ++m) {
		pendula_params p;
		pendula_params_default(&p, models[m]);
		p.time_scale = 4.0;
		for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
			p.lambda[k] = 1.0;
		scan_ticks(&p, rate, frames, &truth);
		int ok = 1;
		const uint32_t blocks[3] = {1, 37, 0};
		for (int b = 0; b < 3; ++b) {
			run_blocks(&p, rate, frames, blocks[b], &got);
			ok &= same_events(&truth, &got);
		}
		const long last = truth.n ? truth.ev[truth.n - 1].frame : 0;
		printf(
		    "  %s, damped: %d events, the last at %.1f s of %.0f; the same for blocks of "
		    "1, 37 and random: %s\n",
		    pendula_variant_names[2 * (int)models[m]], truth.n, (double)last / rate,
		    (double)frames / rate, ok ? "yes" : "no");
		CU_ASSERT(truth.n > 10);
		CU_ASSERT(last < frames / 2); /* and none since */
		CU_ASSERT(ok);
	}
}

/* The bead on its floor has no top: every crossing of x = 0 is a swing
 * (+1 from x < 0 to x >= 0), and there are no flips, however high the
 * energy.  Truth from the sign of x in the double-precision frames. */
static void test_events_floor(void)
{
	pendula_params p = knob_at(PENDULA_MODEL_BEAD, 1.5);
	p.surface = PENDULA_SURFACE_KIND_FLOOR;
	const double rate = 4000.0;
	const long frames = 4000L * 60;
	pendula_engine *e = pendula_engine_new(rate, &p);
	truth.n = 0;
	int was = 0;
	for (long i = 0; i < frames; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		const int side = f.x[0] >= 0.0;
		if (i > 0 && side != was && truth.n < MAX_EVENTS) {
			truth.ev[truth.n].frame = i;
			truth.ev[truth.n].body = 0;
			truth.ev[truth.n].kind = PENDULA_EVENT_SWING;
			truth.ev[truth.n].dir = side ? 1 : -1;
			truth.n++;
		}
		was = side;
	}
	pendula_engine_free(e);
	int ok = 1;
	const uint32_t blocks[3] = {1, 256, 0};
	for (int b = 0; b < 3; ++b) {
		run_blocks(&p, rate, frames, blocks[b], &got);
		ok &= same_events(&truth, &got);
	}
	printf("  bead on the floor, chaos knob 1.5: %d swings and no flips by the sign of x; "
	       "the engine's events the same for blocks of 1, 256 and random: %s\n",
	       truth.n, ok ? "yes" : "no");
	CU_ASSERT(truth.n > 10);
	CU_ASSERT(ok);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("musical", NULL, NULL);
	CU_add_test(s, "chaos knob holds the energy (10 min, starts, damping)", test_knob_holds);
	CU_add_test(s, "chaos knob approach: dE/dt = rate (target - E)", test_knob_rate);
	CU_add_test(s, "chaos knob: below the flip level no flips, above flips", test_knob_flips);
	CU_add_test(s, "chaos knob starts the motion from rest", test_knob_from_rest);
	CU_add_test(s, "omega, x, y of the angle models", test_angle_outputs);
	CU_add_test(s, "spherical omega in the plane = double", test_spherical_in_plane);
	CU_add_test(s, "bead velocity outputs", test_bead_velocity);
	CU_add_test(s, "events on the exact frame, any block split", test_events_exact);
	CU_add_test(s, "events of the bead on its floor: swings only", test_events_floor);
	CU_add_test(s, "events of a decay to rest, any block split", test_events_decay);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	const unsigned failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
