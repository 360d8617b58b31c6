/* SPDX-License-Identifier: ISC */
/*
 * Reference numerics the physics tests share: a linear solve, the
 * generalised symmetric eigenproblem K v = w^2 R v (normal modes), and a
 * frequency from zero crossings.  Plain textbook methods, independent of the
 * engine.  A "template": define REF_DIM (the matrices' declared size) before
 * including it; each test program gets its own static copy.
 */
#ifndef REF_DIM
#error "define REF_DIM before including ref_numerics.h"
#endif

#include <math.h>
#include <string.h>

static inline void solve(int n, double A[REF_DIM][REF_DIM], const double *b, double *x)
{
	double M[REF_DIM][REF_DIM + 1];
	for (int i = 0; i < n; ++i) {
		for (int j = 0; j < n; ++j)
			M[i][j] = A[i][j];
		M[i][n] = b[i];
	}
	for (int c = 0; c < n; ++c) {
		int p = c;
		for (int i = c + 1; i < n; ++i)
			if (fabs(M[i][c]) > fabs(M[p][c]))
				p = i;
		for (int j = 0; j <= n; ++j) {
			const double t = M[c][j];
			M[c][j] = M[p][j];
			M[p][j] = t;
		}
		for (int i = c + 1; i < n; ++i) {
			const double f = M[i][c] / M[c][c];
			for (int j = c; j <= n; ++j)
				M[i][j] -= f * M[c][j];
		}
	}
	for (int i = n - 1; i >= 0; --i) {
		double s = M[i][n];
		for (int j = i + 1; j < n; ++j)
			s -= M[i][j] * x[j];
		x[i] = s / M[i][i];
	}
}

/* Generalised symmetric eigenproblem K v = w2 R v (Cholesky + Jacobi). */
static inline void gen_eigen(int n, double R[REF_DIM][REF_DIM], double K[REF_DIM][REF_DIM],
                             double *w2, double V[REF_DIM][REF_DIM])
{
	double L[REF_DIM][REF_DIM] = {{0}}, Li[REF_DIM][REF_DIM] = {{0}}, A[REF_DIM][REF_DIM],
	       Q[REF_DIM][REF_DIM] = {{0}};
	for (int i = 0; i < n; ++i)
		for (int j = 0; j <= i; ++j) {
			double s = R[i][j];
			for (int k = 0; k < j; ++k)
				s -= L[i][k] * L[j][k];
			L[i][j] = i == j ? sqrt(s) : s / L[j][j];
		}
	for (int c = 0; c < n; ++c)
		for (int i = 0; i < n; ++i) {
			double s = i == c ? 1.0 : 0.0;
			for (int k = 0; k < i; ++k)
				s -= L[i][k] * Li[k][c];
			Li[i][c] = s / L[i][i];
		}
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j) {
			double s = 0.0;
			for (int a = 0; a < n; ++a)
				for (int b = 0; b < n; ++b)
					s += Li[i][a] * K[a][b] * Li[j][b];
			A[i][j] = s;
		}
	for (int i = 0; i < n; ++i)
		Q[i][i] = 1.0;
	for (int sweep = 0; sweep < 100; ++sweep) {
		double off = 0.0;
		for (int p = 0; p < n; ++p)
			for (int q = p + 1; q < n; ++q)
				off += A[p][q] * A[p][q];
		if (off < 1e-30)
			break;
		for (int p = 0; p < n; ++p)
			for (int q = p + 1; q < n; ++q) {
				if (fabs(A[p][q]) < 1e-300)
					continue;
				const double th = 0.5 * atan2(2 * A[p][q], A[q][q] - A[p][p]);
				const double c = cos(th), s = sin(th);
				for (int k = 0; k < n; ++k) {
					const double akp = A[k][p], akq = A[k][q];
					A[k][p] = c * akp - s * akq;
					A[k][q] = s * akp + c * akq;
				}
				for (int k = 0; k < n; ++k) {
					const double apk = A[p][k], aqk = A[q][k];
					A[p][k] = c * apk - s * aqk;
					A[q][k] = s * apk + c * aqk;
				}
				for (int k = 0; k < n; ++k) {
					const double qkp = Q[k][p], qkq = Q[k][q];
					Q[k][p] = c * qkp - s * qkq;
					Q[k][q] = s * qkp + c * qkq;
				}
			}
	}
	/* sorted ascending */
	int order[REF_DIM];
	for (int m = 0; m < n; ++m)
		order[m] = m;
	for (int a = 1; a < n; ++a)
		for (int b = a; b > 0 && A[order[b - 1]][order[b - 1]] > A[order[b]][order[b]];
		     --b) {
			const int t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (int m = 0; m < n; ++m) {
		const int o = order[m];
		w2[m] = A[o][o];
		for (int i = 0; i < n; ++i) {
			double s = 0.0;
			for (int k = 0; k < n; ++k)
				s += Li[k][i] * Q[k][o];
			V[i][m] = s;
		}
	}
}

typedef struct {
	double prev_x, prev_t, first, last;
	int count, started;
} crossings;

static inline void crossings_add(crossings *c, double t, double x)
{
	if (c->started && c->prev_x < 0.0 && x >= 0.0) {
		const double tc = c->prev_t + (t - c->prev_t) * (-c->prev_x) / (x - c->prev_x);
		if (c->count == 0)
			c->first = tc;
		c->last = tc;
		c->count++;
	}
	c->prev_x = x;
	c->prev_t = t;
	c->started = 1;
}

static inline double crossings_freq(const crossings *c)
{
	return c->count > 1 ? (c->count - 1) / (c->last - c->first) : 0.0;
}

/* Monodromy matrix M (one period T = 2 pi / W) of Hill's equation
 *   x'' + (a + b cos W t) x = 0
 * by RK4 with n steps: the columns are (x, x') at T from (1, 0) and (0, 1).
 * The Floquet multipliers are its eigenvalues (det M = 1); the motion is
 * bounded when |trace M| < 2. */
static inline void hill_monodromy(double a, double b, double W, int n, double M[2][2])
{
	const double h = 2.0 * 3.14159265358979323846 / W / n;
	for (int col = 0; col < 2; ++col) {
		double x = col == 0 ? 1.0 : 0.0, v = col == 1 ? 1.0 : 0.0, t = 0.0;
#define HILL_ACC(tt, xx) (-(a + b * cos(W * (tt))) * (xx))
		for (int i = 0; i < n; ++i) {
			const double k1x = v, k1v = HILL_ACC(t, x);
			const double k2x = v + 0.5 * h * k1v,
			             k2v = HILL_ACC(t + 0.5 * h, x + 0.5 * h * k1x);
			const double k3x = v + 0.5 * h * k2v,
			             k3v = HILL_ACC(t + 0.5 * h, x + 0.5 * h * k2x);
			const double k4x = v + h * k3v, k4v = HILL_ACC(t + h, x + h * k3x);
			x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
			v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
			t += h;
		}
#undef HILL_ACC
		M[0][col] = x;
		M[1][col] = v;
	}
}
