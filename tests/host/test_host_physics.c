/* SPDX-License-Identifier: ISC */
/*
 * Physics through the outputs: frame 0 shows the initial angles, the
 * normal-mode frequency against the linearised value, the energy constant
 * without damping, torque and forcing, physical (from the positions and
 * the angles), and falling with damping.
 * Run by test_host.c for each plugin and rate (host_fixture.h).
 */
#include "host_fixture.h"

/* ---------------------------------------------------------------------- */
/* first frame                                                             */

/* Frame 0 against the initial state, for every signal output through its
 * channel (ports.h): angle k -> theta_k / pi; direction x{k}, y{k}, z{k}
 * (and the bead's scaled position, the same formula on the ellipsoid) ->
 * (sin th cos ph, -cos th, sin th sin ph); tip -> sum l_k u_k / sum l_k. */
void test_first_frame(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, P_THETA1_INIT, 37.5f);
	host_set(h, P_THETA2_INIT, -150.0f);
	host_set(h, P_PHI1_INIT, 20.0f);
	host_set(h, P_PHI2_INIT, -70.0f);
	Rec r = {0};
	Blocking one = {1, 1, false, false};
	host_render(h, &r, 1, &one);

	double tip[3] = {0, 0, 0}, total = 0.0;
	const bool lengths = h->has[P_L1];
	for (int k = 0; k < body_count(h) && k < 6 && lengths; ++k) {
		double u[3];
		initial_direction(h, k, u);
		const double l = control_or_default(h, length_port[k]);
		for (int i = 0; i < 3; ++i)
			tip[i] += l * u[i];
		total += l;
	}
	int checked = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!h->has[id] || pendula_ports[id].kind != PK_SIGNAL_OUT)
			continue;
		const int ch = pendula_ports[id].channel;
		double want = NAN;
		if (ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + 2) {
			want =
			    control_or_default(h, theta_init_port[ch - PENDULA_CH_THETA]) / 180.0;
		} else if (ch == PENDULA_CH_X || ch == PENDULA_CH_Y || ch == PENDULA_CH_Z) {
			double u[3];
			initial_direction(h, 0, u);
			want = u[ch == PENDULA_CH_X ? 0 : ch == PENDULA_CH_Y ? 1 : 2];
		} else if ((ch == PENDULA_CH_TIP_X || ch == PENDULA_CH_TIP_Y ||
		            ch == PENDULA_CH_TIP_Z) &&
		           lengths) {
			want = tip[ch == PENDULA_CH_TIP_X   ? 0
			           : ch == PENDULA_CH_TIP_Y ? 1
			                                    : 2] /
			       total;
		}
		if (isnan(want))
			continue;
		++checked;
		CHECK(fabs(r.sig[id][0] - want) < 1e-6, "%s[0] = %.9g, want %.9g",
		      pendula_ports[id].symbol, (double)r.sig[id][0], want);
	}
	CHECK(checked >= 2, "only %d outputs checked at frame 0", checked);
	CHECK(r.sig[P_OUT_ENERGY][0] > 0.0f, "energy[0] = %g", (double)r.sig[P_OUT_ENERGY][0]);
	rec_free(&r);
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* small oscillations                                                      */

/* Frequency (Hz of audio time) of x from its upward zero crossings. */
static double crossing_frequency(const float *x, size_t n, double rate, int *crossings)
{
	double first = -1.0, last = -1.0;
	int count = 0;
	for (size_t i = 1; i < n; ++i) {
		if (x[i - 1] < 0.0f && x[i] >= 0.0f) {
			const double frac = (double)x[i - 1] / ((double)x[i - 1] - (double)x[i]);
			const double t = ((double)(i - 1) + frac) / rate;
			if (count == 0)
				first = t;
			last = t;
			++count;
		}
	}
	*crossings = count;
	return count >= 2 ? (count - 1) / (last - first) : 0.0;
}

/* One normal mode: inits theta1, theta2 (degrees), expected omega (rad/s of
 * simulated time); checks theta1's frequency. */
static void check_mode_on(const char *label, Host *h, pendula_port_id out, double omega,
                          double time_scale, double sim_seconds)
{
	Rec r = {0};
	const uint32_t frames = seconds(sim_seconds / time_scale);
	host_render(h, &r, frames, NULL);
	int crossings;
	const double f = crossing_frequency(r.sig[out], r.n, cur_rate, &crossings);
	const double want = omega / (2.0 * PI) * time_scale;
	const double rel = fabs(f - want) / want;
	printf("\n    %s @%g Hz: f = %.6f Hz, linearised %.6f Hz, rel. error %.2e (%d crossings)",
	       label, cur_rate, f, want, rel, crossings);
	CHECK(crossings >= 4, "%s: only %d zero crossings", label, crossings);
	CHECK(rel < 2e-3, "%s: frequency %.6f Hz, linearised %.6f Hz (rel. error %.2e)", label, f,
	      want, rel);
	/* A pure mode: theta1 keeps its amplitude (the other mode would beat). */
	float peak_first = 0.0f, peak_last = 0.0f;
	for (size_t i = 0; i < r.n / 4; ++i)
		peak_first = fmaxf(peak_first, fabsf(r.sig[out][i]));
	for (size_t i = r.n - r.n / 4; i < r.n; ++i)
		peak_last = fmaxf(peak_last, fabsf(r.sig[out][i]));
	CHECK(fabsf(peak_last - peak_first) < 0.02f * peak_first,
	      "%s: amplitude %g -> %g (not a pure, undamped mode)", label, (double)peak_first,
	      (double)peak_last);
	rec_free(&r);
}

static void check_mode(const char *label, Host *h, double omega, double time_scale,
                       double sim_seconds)
{
	check_mode_on(label, h, P_OUT_THETA1, omega, time_scale, sim_seconds);
}

void test_small_oscillation(void)
{
	const double g = 100.0;
	const double amp = 1.0; /* degrees */
	const double sim = opt.quick ? 1.0 : 2.0;
	if (has_port(P_OUT_X1)) {
		/* spherical, N = 2 bobs m, rods l in the plane phi = 0 (the
		 * double pendulum's modes, on x1 = sin th1), and in the plane
		 * phi = 90 degrees (the same, degenerate, on z1) */
		const double l = 0.1;
		for (int mode = 0; mode < 4; ++mode) {
			const double sign = mode % 2 ? -1.0 : 1.0;
			const bool side = mode >= 2;
			Host *h = host_new(cur_variant, cur_rate);
			host_set(h, P_N_LINKS, 2.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_L1, (float)l);
			host_set(h, P_L2, (float)l);
			host_set(h, P_M1, 1.0f);
			host_set(h, P_M2, 1.0f);
			host_set(h, P_THETA1_INIT, (float)amp);
			host_set(h, P_THETA2_INIT, (float)(sign * sqrt(2.0) * amp));
			host_set(h, P_PHI1_INIT, side ? 90.0f : 0.0f);
			host_set(h, P_PHI2_INIT, side ? 90.0f : 0.0f);
			check_mode_on(mode % 2 ? "spherical fast mode" : "spherical slow mode", h,
			              side ? P_OUT_Z1 : P_OUT_X1,
			              sqrt((2.0 - sign * sqrt(2.0)) * g / l), 1.0, sim);
			host_free(h);
		}
		return;
	}
	if (has_port(P_OUT_X)) {
		/* the bead at the bottom of the ellipsoid: omega^2 = g b / a^2
		 * along x, g b / c^2 along z */
		const double a = 0.5, b = 1.0, c = 0.8;
		for (int axis = 0; axis < 2; ++axis) {
			Host *h = host_new(cur_variant, cur_rate);
			host_set(h, P_SURFACE, 0.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_AXIS_X, (float)a);
			host_set(h, P_AXIS_Y, (float)b);
			host_set(h, P_AXIS_Z, (float)c);
			host_set(h, P_THETA1_INIT, (float)amp);
			host_set(h, P_PHI1_INIT, axis ? 90.0f : 0.0f);
			host_set(h, P_SPIN_INIT, 0.0f);
			const double semi = axis ? c : a;
			check_mode_on(axis ? "bead along z" : "bead along x", h,
			              axis ? P_OUT_Z : P_OUT_X, sqrt(g * b / (semi * semi)), 1.0,
			              sim);
			host_free(h);
		}
		return;
	}
	if (has_port(P_L1)) {
		/* Two bobs (the double pendulum; the chain with n_links = 2 and
		 * link_shape = bobs), m1 = m2, l1 = l2 = l: omega^2 = (2 -+ sqrt 2)
		 * g / l, theta2 / theta1 = +-sqrt 2 (the linearised equations). */
		const double l = 0.1;
		for (int mode = 0; mode < 2; ++mode) {
			const double sign = mode ? -1.0 : 1.0;
			Host *h = host_new(cur_variant, cur_rate);
			if (count_port() != P_NONE)
				host_set(h, (pendula_port_id)count_port(), 2.0f);
			host_set(h, P_LINK_SHAPE, 0.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_L1, (float)l);
			host_set(h, P_L2, (float)l);
			host_set(h, P_M1, 1.0f);
			host_set(h, P_M2, 1.0f);
			host_set(h, P_THETA1_INIT, (float)amp);
			host_set(h, P_THETA2_INIT, (float)(sign * sqrt(2.0) * amp));
			check_mode(mode ? "two bobs, fast mode" : "two bobs, slow mode", h,
			           sqrt((2.0 - sign * sqrt(2.0)) * g / l), 1.0, sim);
			host_free(h);
		}
		return;
	}
	/* Parallel, N = 1: a physical pendulum, omega^2 = m g c / (I_G + m c^2),
	 * run at time_scale 0.5. */
	{
		const double m = 1.0, c = 0.2, ig = 0.02, ts = 0.5;
		Host *h = host_new(cur_variant, cur_rate);
		host_set(h, P_N_BODIES, 1.0f);
		host_set(h, P_GRAVITY, (float)g);
		host_set(h, P_TIME_SCALE, (float)ts);
		host_set(h, P_M1, (float)m);
		host_set(h, P_C1, (float)c);
		host_set(h, P_INERTIA1, (float)ig);
		host_set(h, P_THETA1_INIT, (float)amp);
		check_mode("parallel N=1", h, sqrt(m * g * c / (ig + m * c * c)), ts, sim * 2.0);
		host_free(h);
	}
	/* Parallel, N = 2, beta2 = 0 (equilibrium at theta = 0): R(0) and K
	 * from the note's equations, det(K - w^2 R) = 0, both modes, at time_scale 2. */
	{
		const double m1 = 1.0, c1 = 0.2, i1 = 0.02, m2 = 0.25, b2 = 0.3, c2 = 0.25,
		             i2 = 0.005, ts = 2.0;
		const double r11 = i1 + m1 * c1 * c1 + m2 * b2 * b2, r12 = m2 * b2 * c2,
		             r22 = i2 + m2 * c2 * c2;
		const double k11 = g * (m1 * c1 + m2 * b2), k22 = g * m2 * c2;
		const double qa = r11 * r22 - r12 * r12, qb = -(k11 * r22 + k22 * r11),
		             qc = k11 * k22;
		const double disc = sqrt(qb * qb - 4.0 * qa * qc);
		const double lambda[2] = {(-qb - disc) / (2.0 * qa), (-qb + disc) / (2.0 * qa)};
		for (int mode = 0; mode < 2; ++mode) {
			/* (K11 - l R11) x1 = l R12 x2 */
			const double ratio = (k11 - lambda[mode] * r11) / (lambda[mode] * r12);
			double a1 = amp, a2 = amp * ratio;
			if (fabs(a2) > amp) {
				a1 = amp / fabs(ratio);
				a2 = amp * (ratio > 0 ? 1.0 : -1.0);
			}
			Host *h = host_new(cur_variant, cur_rate);
			host_set(h, P_N_BODIES, 2.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_TIME_SCALE, (float)ts);
			host_set(h, P_M1, (float)m1);
			host_set(h, P_C1, (float)c1);
			host_set(h, P_INERTIA1, (float)i1);
			host_set(h, P_M2, (float)m2);
			host_set(h, P_B2, (float)b2);
			host_set(h, P_BETA2, 0.0f);
			host_set(h, P_C2, (float)c2);
			host_set(h, P_INERTIA2, (float)i2);
			host_set(h, P_THETA1_INIT, (float)a1);
			host_set(h, P_THETA2_INIT, (float)a2);
			check_mode(mode ? "parallel N=2 fast mode" : "parallel N=2 slow mode", h,
			           sqrt(lambda[mode]), ts, sim * 4.0);
			host_free(h);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* energy                                                                  */

void test_energy_conserved(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	Rec r = {0};
	host_render(h, &r, seconds(opt.quick ? 0.5 : 3.0), NULL);
	const float *e = r.sig[P_OUT_ENERGY];
	double worst = 0.0;
	size_t at = 0;
	for (size_t i = 0; i < r.n; ++i) {
		const double d = fabs((double)e[i] - e[0]);
		if (d > worst) {
			worst = d;
			at = i;
		}
	}
	const double rel = worst / e[0];
	printf("\n    energy %.6f, max rel. drift %.2e (frame %zu) over %zu frames", (double)e[0],
	       rel, at, r.n);
	CHECK(e[0] > 0.05f, "energy %g: the default start should be well above rest", (double)e[0]);
	CHECK(rel <= 1e-5, "energy drift %.3e relative (frame %zu: %.9g vs %.9g)", rel, at,
	      (double)e[at], (double)e[0]);
	/* and the motion is not trivial: some output other than the energy
	 * moves (the one that moves most) */
	float lo = 1.0f, hi = -1.0f;
	pendula_port_id motion = motion_output();
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!r.sig[id] || (pendula_ports[id].flags & PF_CC_ENERGY))
			continue;
		float l = 1e30f, u = -1e30f;
		for (size_t i = 0; i < r.n; ++i) {
			l = fminf(l, r.sig[id][i]);
			u = fmaxf(u, r.sig[id][i]);
		}
		if (u - l > hi - lo) {
			lo = l;
			hi = u;
			motion = (pendula_port_id)id;
		}
	}
	CHECK(hi - lo > 0.1f, "%s hardly moves (%g..%g)", pendula_ports[motion].symbol, (double)lo,
	      (double)hi);
	rec_free(&r);
	host_free(h);
}

/* The energy output against E = T + U computed here from the angle outputs
 * (angular velocities by finite differences) with the default settings,
 * normalised as docs/MODELS.md says: checks that `energy` is the physical energy. */
static double unwrap_angle(const float *x, size_t i, double ref)
{
	double a = (double)x[i] * PI;
	while (a - ref > PI)
		a -= 2.0 * PI;
	while (a - ref < -PI)
		a += 2.0 * PI;
	return a;
}

/* Velocity of an output x at frame i by a 5-point central difference. */
static double output_rate(const float *x, size_t i, double dt)
{
	const size_t d = 8;
	return ((double)x[i - 2 * d] - 8.0 * x[i - d] + 8.0 * x[i + d] - x[i + 2 * d]) /
	       (12.0 * (double)d * dt);
}

/* The 3-D models: positions from the outputs (spherical: bob 1 = l1 (x1,
 * y1, z1), bob 2 = tip (l1 + l2), the default N = 2; bead: (x a, y b, z c)
 * on the default ellipsoid), velocities by finite differences,
 * E = sum m/2 |v|^2 + m g y, normalised as docs/MODELS.md says. */
static double energy_from_positions(const Rec *r, size_t i, double dt)
{
	const pendula_variant v = cur_variant;
	const double g = pendula_port_default(v, P_GRAVITY);
	if (has_port(P_OUT_X1)) {
		const double m1 = pendula_port_default(v, P_M1), m2 = pendula_port_default(v, P_M2);
		const double l1 = pendula_port_default(v, P_L1), l2 = pendula_port_default(v, P_L2);
		const pendula_port_id b1[3] = {P_OUT_X1, P_OUT_Y1, P_OUT_Z1},
		                      b2[3] = {P_OUT_TIP_X, P_OUT_TIP_Y, P_OUT_TIP_Z};
		double t = 0.0, y1 = r->sig[P_OUT_Y1][i] * l1,
		       y2 = r->sig[P_OUT_TIP_Y][i] * (l1 + l2);
		for (int c = 0; c < 3; ++c) {
			const double v1 = output_rate(r->sig[b1[c]], i, dt) * l1;
			const double v2 = output_rate(r->sig[b2[c]], i, dt) * (l1 + l2);
			t += 0.5 * m1 * v1 * v1 + 0.5 * m2 * v2 * v2;
		}
		const double u = g * (m1 * y1 + m2 * y2), u_min = -g * ((m1 + m2) * l1 + m2 * l2);
		return (t + u - u_min) / (2.0 * g * ((m1 + m2) * l1 + m2 * l2));
	}
	const double m = pendula_port_default(v, P_M1);
	const double ax[3] = {pendula_port_default(v, P_AXIS_X), pendula_port_default(v, P_AXIS_Y),
	                      pendula_port_default(v, P_AXIS_Z)};
	const pendula_port_id out[3] = {P_OUT_X, P_OUT_Y, P_OUT_Z};
	double t = 0.0;
	for (int c = 0; c < 3; ++c) {
		const double vc = output_rate(r->sig[out[c]], i, dt) * ax[c];
		t += 0.5 * m * vc * vc;
	}
	const double u = m * g * r->sig[P_OUT_Y][i] * ax[1];
	return (t + u + m * g * ax[1]) / (2.0 * m * g * ax[1]);
}

static double energy_from_angles(const Rec *r, size_t i, double dt)
{
	const pendula_variant v = cur_variant;
	if (!has_port(P_OUT_THETA1))
		return energy_from_positions(r, i, dt);
	const size_t d = 8;
	const double g = pendula_port_default(v, P_GRAVITY);
	const int n = default_count();
	double th[6] = {0}, w[6] = {0};
	for (int k = 0; k < n; ++k) {
		const float *x = r->sig[angle_output(k)];
		th[k] = (double)x[i] * PI;
		const double m2 = unwrap_angle(x, i - 2 * d, th[k]),
		             m1 = unwrap_angle(x, i - d, th[k]), p1 = unwrap_angle(x, i + d, th[k]),
		             p2 = unwrap_angle(x, i + 2 * d, th[k]);
		w[k] = (m2 - 8.0 * m1 + 8.0 * p1 - p2) / (12.0 * (double)d * dt);
	}
	if (has_port(P_L1)) {
		/* links in series from the positions of docs/MODELS.md: centre of
		 * mass of link k at sum_{j<k} l_j p(th_j) + c_k p(th_k) */
		double m[6], l[6], c[6], ig[6], t = 0.0, u = 0.0, u_min = 0.0;
		chain_defaults(m, l, c, ig);
		double vx = 0.0, vy = 0.0, below = 0.0;
		for (int k = 0; k < n; ++k) {
			const double gx = vx + c[k] * w[k] * cos(th[k]),
			             gy = vy + c[k] * w[k] * sin(th[k]);
			t += 0.5 * m[k] * (gx * gx + gy * gy) + 0.5 * ig[k] * w[k] * w[k];
			vx += l[k] * w[k] * cos(th[k]);
			vy += l[k] * w[k] * sin(th[k]);
		}
		double y = 0.0;
		for (int k = 0; k < n; ++k) {
			u += m[k] * g * (y - c[k] * cos(th[k]));
			y -= l[k] * cos(th[k]);
		}
		/* U_max - U_min = 2 g sum_k (m_k c_k + (sum_{j>k} m_j) l_k) */
		for (int k = n - 1; k >= 0; --k) {
			u_min -= g * (m[k] * c[k] + below * l[k]);
			below += m[k];
		}
		return (t + u - u_min) / (-2.0 * u_min);
	}
	const pendula_port_id mp[4] = {P_M1, P_M2, P_M3, P_M4}, cp[4] = {P_C1, P_C2, P_C3, P_C4},
	                      ip[4] = {P_INERTIA1, P_INERTIA2, P_INERTIA3, P_INERTIA4},
	                      bp[4] = {P_B2, P_B2, P_B3, P_B4},
	                      betap[4] = {P_BETA2, P_BETA2, P_BETA3, P_BETA4};
	double m[4], c[4], in[4], b[4], beta[4];
	for (int k = 0; k < 4; ++k) {
		m[k] = pendula_port_default(v, mp[k]);
		c[k] = pendula_port_default(v, cp[k]);
		in[k] = pendula_port_default(v, ip[k]);
		b[k] = pendula_port_default(v, bp[k]);
		beta[k] = pendula_port_default(v, betap[k]) * PI / 180.0;
	}
	/* R11 = I_O1 + sum m_k b_k^2, R1k = m_k b_k c_k cos(th1 + beta_k - thk),
	 * Rkk = I_Gk + m_k c_k^2 (the note's section 3, model B) */
	double t = 0.5 * (in[0] + m[0] * c[0] * c[0]) * w[0] * w[0];
	double u = -g * m[0] * c[0] * cos(th[0]);
	double zx = m[0] * c[0], zy = 0.0, sum_mc = 0.0;
	for (int k = 1; k < n; ++k) {
		t += 0.5 * m[k] * b[k] * b[k] * w[0] * w[0] +
		     m[k] * b[k] * c[k] * cos(th[0] + beta[k] - th[k]) * w[0] * w[k] +
		     0.5 * (in[k] + m[k] * c[k] * c[k]) * w[k] * w[k];
		u -= g * m[k] * (b[k] * cos(th[0] + beta[k]) + c[k] * cos(th[k]));
		zx += m[k] * b[k] * cos(beta[k]);
		zy += m[k] * b[k] * sin(beta[k]);
		sum_mc += m[k] * c[k];
	}
	const double lever = sqrt(zx * zx + zy * zy);
	const double u_min = -g * (lever + sum_mc);
	return (t + u - u_min) / (2.0 * g * (lever + sum_mc));
}

void test_energy_is_physical(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	Rec r = {0};
	host_render(h, &r, seconds(opt.quick ? 0.3 : 1.0), NULL);
	const double dt = 1.0 / cur_rate; /* time_scale 1 */
	double worst = 0.0;
	size_t worst_at = 0, points = 0;
	for (size_t i = 64; i + 64 < r.n; i += r.n / 97) {
		const double e = energy_from_angles(&r, i, dt);
		const double err = fabs(e - r.sig[P_OUT_ENERGY][i]) / r.sig[P_OUT_ENERGY][i];
		++points;
		if (err > worst) {
			worst = err;
			worst_at = i;
		}
	}
	printf("\n    energy output vs E from the angles: max rel. difference %.2e (%zu points)",
	       worst, points);
	CHECK(points > 50, "only %zu points", points);
	CHECK(worst < 2e-3, "energy output %.6f, energy from the angles %.6f (frame %zu)",
	      (double)r.sig[P_OUT_ENERGY][worst_at], energy_from_angles(&r, worst_at, dt),
	      worst_at);
	rec_free(&r);
	host_free(h);
}

void test_energy_damped(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	for (int k = 0; k < 6; ++k) {
		const int id = port_of_field(field_offset(offsetof(pendula_params, lambda), k));
		if (id != P_NONE) /* links in series (double, chain) or arms on a body */
			host_set(h, (pendula_port_id)id,
			         has_port(P_INERTIA1) && !has_port(P_L1) ? 0.05f : 0.5f);
	}
	Rec r = {0};
	host_render(h, &r, seconds(opt.quick ? 1.0 : 2.0), NULL);
	const float *e = r.sig[P_OUT_ENERGY];
	size_t rises = 0, worst_at = 0;
	double worst = 0.0;
	for (size_t i = 1; i < r.n; ++i) {
		const double d = (double)e[i] - e[i - 1];
		if (d > 1e-6 * e[0]) {
			++rises;
			if (d > worst) {
				worst = d;
				worst_at = i;
			}
		}
	}
	printf("\n    damped energy %.6f -> %.6f", (double)e[0], (double)e[r.n - 1]);
	CHECK(rises == 0, "energy rose %zu times with damping (worst +%.3g at frame %zu)", rises,
	      worst, worst_at);
	CHECK(e[r.n - 1] < 0.9f * e[0], "energy %g -> %g: damping does not act", (double)e[0],
	      (double)e[r.n - 1]);
	CHECK(e[r.n - 1] >= 0.0f, "energy below 0: %g", (double)e[r.n - 1]);
	rec_free(&r);
	host_free(h);
}
