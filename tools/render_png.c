/* SPDX-License-Identifier: ISC */
/* pendula-render: the PNG page (see render.h). */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* PNG */

static const Rgb palette[] = {
    {0.122, 0.467, 0.706}, {0.851, 0.373, 0.008}, {0.173, 0.627, 0.173}, {0.839, 0.153, 0.157},
    {0.580, 0.404, 0.741}, {0.549, 0.337, 0.294}, {0.890, 0.467, 0.761}, {0.498, 0.498, 0.498},
    {0.737, 0.741, 0.133}, {0.090, 0.745, 0.812},
};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

/* The thinnest strip (its label's line) and gap between strips, px. */
#define MIN_STRIP_H   14.0
#define MIN_STRIP_GAP 4.0

void layout_png(Layout *L, const Options *o, uint32_t n_signals, int has_plane, uint64_t total)
{
	double content_h;
	memset(L, 0, sizeof(*L));
	L->w = o->png_w;
	L->h = o->png_h;
	L->margin = 18.0;
	L->title_h = 64.0;
	L->axis_h = 40.0;
	L->strip_gap = 10.0;
	L->has_plane = has_plane;
	content_h = L->h - L->title_h - L->margin;
	L->strips_y = L->title_h;
	L->strips_x = L->margin;
	if (has_plane) {
		L->plane_side = fmin(0.45 * L->w, content_h - 150.0);
		if (L->plane_side < 150.0)
			L->plane_side = fmin(0.45 * L->w, content_h);
		L->plane_x = L->w - L->margin - L->plane_side;
		L->plane_y = L->title_h;
		L->strips_w = L->plane_x - 72.0 - L->strips_x; /* room for the panel's y labels */
	} else {
		L->strips_w = L->w - 2.0 * L->margin;
	}
	L->strips_h = content_h;
	L->plot_x = L->strips_x + 64.0;
	L->plot_w = L->strips_w - 64.0;
	if (n_signals > 0) {
		/* The strips share the height; their gaps narrow (to MIN_STRIP_GAP)
		 * before a strip gets thinner than its label (MIN_STRIP_H).  A
		 * picture too low even so is refused, with the height it needs. */
		const double avail = content_h - L->axis_h;
		const uint32_t gaps = n_signals - 1;
		if (gaps > 0 && avail - L->strip_gap * gaps < MIN_STRIP_H * n_signals)
			L->strip_gap =
			    fmax(MIN_STRIP_GAP, (avail - MIN_STRIP_H * n_signals) / gaps);
		L->strip_h = (avail - L->strip_gap * gaps) / n_signals;
		if (L->strip_h < MIN_STRIP_H && o->png)
			die_usage(
			    "--png-size %dx%d: the %u output strips need a picture at least %.0f "
			    "pixels high",
			    L->w, L->h, n_signals,
			    ceil(L->title_h + L->margin + L->axis_h + MIN_STRIP_H * n_signals +
			         MIN_STRIP_GAP * gaps));
	}
	L->n_cols = (uint32_t)fmax(1.0, floor(L->plot_w));
	if ((uint64_t)L->n_cols > total)
		L->n_cols = (uint32_t)total;
}

static void set_rgb(cairo_t *cr, Rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

/* One strip's geometry: its top, its value range (widened: not the
 * declared one), its colour and its time step. */
typedef struct {
	double y0, lo, hi;
	int widened;
	Rgb colour;
	double tstep;
} Strip;

/* The y of value v in the strip. */
static double strip_y(const Layout *L, const Strip *S, double v)
{
	return S->y0 + L->strip_h - (v - S->lo) / (S->hi - S->lo) * L->strip_h;
}

/* The value range: the port's declared range where it has one, else the
 * data's, narrowed or widened to what the data did. */
static void strip_range(Strip *S, const Port *p, const Track *t)
{
	double lo = p->has_min ? p->min : t->min, hi = p->has_max ? p->max : t->max;
	int widened = 0;

	if (!(lo < hi)) {
		lo = isfinite(t->min) ? t->min - 1.0 : -1.0;
		hi = isfinite(t->max) ? t->max + 1.0 : 1.0;
	}
	/* A declared range far wider than the data (the energy's 0..1000, a
	 * bound rather than a scale): the strip shows the data, from the
	 * range's lower end up. */
	if (isfinite(t->max) && t->max > lo && 20.0 * (t->max - lo) < hi - lo) {
		hi = t->max + 0.05 * (t->max - lo);
		widened = 1;
	}
	if (isfinite(t->min) && isfinite(t->max) && (t->min < lo || t->max > hi)) {
		double dlo = fmin(lo, t->min), dhi = fmax(hi, t->max), pad = 0.05 * (dhi - dlo);
		lo = t->min < lo ? dlo - pad : lo;
		hi = t->max > hi ? dhi + pad : hi;
		widened = 1;
	}
	S->lo = lo;
	S->hi = hi;
	S->widened = widened;
}

/* The white plot area, the time grid, the zero line and (dashed) the
 * declared range when the data goes beyond it. */
static void draw_strip_grid(cairo_t *cr, const Layout *L, const Strip *S, const Port *p,
                            double seconds)
{
	/* Frame */
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, L->plot_x, S->y0, L->plot_w, L->strip_h);
	cairo_fill(cr);

	/* Time grid */
	cairo_set_line_width(cr, 1.0);
	cairo_set_source_rgb(cr, 0.91, 0.91, 0.90);
	for (double tt = S->tstep; tt < seconds * (1 - 1e-9); tt += S->tstep) {
		double x = floor(L->plot_x + tt / seconds * L->plot_w) + 0.5;
		cairo_move_to(cr, x, S->y0);
		cairo_line_to(cr, x, S->y0 + L->strip_h);
	}
	cairo_stroke(cr);

	/* Value grid: zero, and the declared range when the data goes beyond it */
	cairo_set_source_rgb(cr, 0.75, 0.75, 0.74);
	if (S->lo < 0.0 && S->hi > 0.0) {
		double y = floor(strip_y(L, S, 0.0)) + 0.5;
		cairo_move_to(cr, L->plot_x, y);
		cairo_line_to(cr, L->plot_x + L->plot_w, y);
		cairo_stroke(cr);
	}
	if (S->widened) {
		double dash[] = {4.0, 3.0};
		cairo_set_dash(cr, dash, 2, 0.0);
		cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
		if (p->has_min && p->min > S->lo) {
			cairo_move_to(cr, L->plot_x, floor(strip_y(L, S, p->min)) + 0.5);
			cairo_line_to(cr, L->plot_x + L->plot_w,
			              floor(strip_y(L, S, p->min)) + 0.5);
		}
		if (p->has_max && p->max < S->hi) {
			cairo_move_to(cr, L->plot_x, floor(strip_y(L, S, p->max)) + 0.5);
			cairo_line_to(cr, L->plot_x + L->plot_w,
			              floor(strip_y(L, S, p->max)) + 0.5);
		}
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0.0);
	}
}

/* Data: the min/max envelope of each column as one closed band, so a
 * slow signal is a line and a fast one a filled band. */
static void draw_strip_data(cairo_t *cr, const Layout *L, const Strip *S, const Track *t)
{
	int started = 0;
	double colw = L->plot_w / L->n_cols;

	cairo_save(cr);
	cairo_rectangle(cr, L->plot_x, S->y0, L->plot_w, L->strip_h);
	cairo_clip(cr);
	for (uint32_t c = 0; c < L->n_cols; ++c) {
		if (!t->env_set[c])
			continue;
		double x = L->plot_x + (c + 0.5) * colw;
		if (!started)
			cairo_move_to(cr, x, strip_y(L, S, t->env_max[c]));
		else
			cairo_line_to(cr, x, strip_y(L, S, t->env_max[c]));
		started = 1;
	}
	for (uint32_t c = L->n_cols; c-- > 0;) {
		if (!t->env_set[c])
			continue;
		cairo_line_to(cr, L->plot_x + (c + 0.5) * colw, strip_y(L, S, t->env_min[c]));
	}
	if (started) {
		cairo_close_path(cr);
		set_rgb(cr, S->colour, 0.85);
		cairo_fill_preserve(cr);
		set_rgb(cr, S->colour, 1.0);
		cairo_set_line_width(cr, 1.5);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND); /* a lone frame is a dot */
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

/* The border, and the y labels: the ends of the range, and zero. */
static void draw_strip_frame(cairo_t *cr, const Layout *L, const Strip *S)
{
	char buf[64];

	cairo_set_source_rgb(cr, 0.60, 0.60, 0.58);
	cairo_set_line_width(cr, 1.0);
	cairo_rectangle(cr, floor(L->plot_x) + 0.5, floor(S->y0) + 0.5, floor(L->plot_w),
	                floor(L->strip_h));
	cairo_stroke(cr);

	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	cairo_set_font_size(cr, 11.0);
	snprintf(buf, sizeof(buf), "%.3g", S->hi);
	text_at(cr, L->plot_x - 6.0, S->y0, 1.0, 0.0, buf);
	snprintf(buf, sizeof(buf), "%.3g", S->lo);
	text_at(cr, L->plot_x - 6.0, S->y0 + L->strip_h - 12.0, 1.0, 0.0, buf);
	if (S->lo < 0.0 && S->hi > 0.0 && L->strip_h > 60.0)
		text_at(cr, L->plot_x - 6.0, strip_y(L, S, 0.0), 1.0, 0.5, "0");
}

/* The label in the strip's corner: symbol and range, the data's range when
 * the strip shows that, and the note. */
static void draw_strip_label(cairo_t *cr, const Layout *L, const Strip *S, const Port *p,
                             const Track *t, const char *note)
{
	char label[256];
	cairo_text_extents_t te;

	if (p->has_min && p->has_max)
		snprintf(label, sizeof(label), "%s  [%g, %g]%s", p->symbol, p->min, p->max,
		         p->is_cv ? "  CV" : "");
	else
		snprintf(label, sizeof(label), "%s%s", p->symbol, p->is_cv ? "  CV" : "");
	if (S->widened) {
		size_t len = strlen(label);
		snprintf(label + len, sizeof(label) - len, "   data [%.3g, %.3g]", t->min, t->max);
	}
	if (note) {
		size_t len = strlen(label);
		snprintf(label + len, sizeof(label) - len, "   %s", note);
	}
	cairo_set_font_size(cr, 12.5);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_text_extents(cr, label, &te);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
	cairo_rectangle(cr, L->plot_x + 4.0, S->y0 + 3.0, te.x_advance + 8.0, 18.0);
	cairo_fill(cr);
	set_rgb(cr, S->colour, 1.0);
	text_at(cr, L->plot_x + 8.0, S->y0 + 5.0, 0.0, 0.0, label);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

/* The time axis, under the last strip. */
static void draw_time_axis(cairo_t *cr, const Layout *L, const Strip *S, double seconds,
                           const char *time_label)
{
	double yb = S->y0 + L->strip_h;
	char buf[64];

	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	cairo_set_font_size(cr, 11.0);
	for (double tt = 0.0; tt <= seconds * (1 + 1e-9); tt += S->tstep) {
		double x = L->plot_x + tt / seconds * L->plot_w;
		fmt_tick(buf, sizeof(buf), tt, S->tstep);
		cairo_move_to(cr, floor(x) + 0.5, yb);
		cairo_line_to(cr, floor(x) + 0.5, yb + 4.0);
		cairo_stroke(cr);
		text_at(cr, x, yb + 6.0, 0.5, 0.0, buf);
	}
	cairo_set_font_size(cr, 12.0);
	text_at(cr, L->plot_x + L->plot_w / 2.0, yb + 22.0, 0.5, 0.0, time_label);
}

/* Signal output si (of n_signals) over time, with its label (and the note,
 * if any, after it). */
static void draw_strip(cairo_t *cr, const Layout *L, const Port *p, const Track *t, int si,
                       uint32_t n_signals, double seconds, const char *time_label, const char *note)
{
	Strip S;

	S.y0 = L->strips_y + si * (L->strip_h + L->strip_gap);
	S.colour = palette[(size_t)si % N_PALETTE];
	/* (at most one tick label per 45 px of the time axis) */
	S.tstep = nice_step(seconds, (int)fmax(2.0, fmin(10.0, floor(L->plot_w / 45.0))));
	strip_range(&S, p, t);

	draw_strip_grid(cr, L, &S, p, seconds);
	draw_strip_data(cr, L, &S, t);
	draw_strip_frame(cr, L, &S);
	draw_strip_label(cr, L, &S, p, t, note);
	if ((uint32_t)si == n_signals - 1)
		draw_time_axis(cr, L, &S, seconds, time_label);
}

/* Min, max, mean and final value of each output, under the plane panel. */
static void draw_stats_table(cairo_t *cr, double x, double y, double w, double avail, const Host *h,
                             const Track *tracks, uint64_t total, const Options *o)
{
	const double row = 16.0;
	const double col[5] = {0.0, 0.30, 0.475, 0.65, 0.825};
	const char *head[5] = {"output", "min", "max", "mean", "final"};
	char buf[64];

	if (avail < row * (h->n_signals + 2.5) || h->n_signals == 0)
		return;
	cairo_set_font_size(cr, 11.5);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	for (int c = 0; c < 5; ++c)
		text_at(cr, x + col[c] * w + (c ? 0.15 * w : 0.0), y, c ? 1.0 : 0.0, 0.0, head[c]);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_source_rgb(cr, 0.80, 0.80, 0.78);
	cairo_set_line_width(cr, 1.0);
	cairo_move_to(cr, x, floor(y + row) + 0.5);
	cairo_line_to(cr, x + w, floor(y + row) + 0.5);
	cairo_stroke(cr);
	for (uint32_t s = 0; s < h->n_signals; ++s) {
		const Track *t = &tracks[s];
		uint64_t finite = total - t->nonfinite;
		double v[4] = {t->min, t->max, finite ? t->sum / (double)finite : 0.0, t->last};
		double ry = y + row * (s + 1.3);
		set_rgb(cr, palette[s % N_PALETTE], 1.0);
		text_at(cr, x, ry, 0.0, 0.0, h->signals[s]->symbol);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		for (int c = 1; c < 5; ++c) {
			snprintf(buf, sizeof(buf), "%.4f", fabs(v[c - 1]) < 5e-5 ? 0.0 : v[c - 1]);
			text_at(cr, x + col[c] * w + 0.15 * w, ry, 1.0, 0.0, buf);
		}
	}
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	snprintf(buf, sizeof(buf), "%llu frames, block %ld", (unsigned long long)total, o->block);
	text_at(cr, x, y + row * (h->n_signals + 1.6), 0.0, 0.0, buf);
}

static char *settings_summary(const Host *h, const Options *o)
{
	size_t cap = 256, len = 0;
	char *s = xcalloc(cap, 1);
#define APPEND(...)                                          \
	do {                                                 \
		int need_ = snprintf(NULL, 0, __VA_ARGS__);  \
		if (len + (size_t)need_ + 1 > cap) {         \
			cap = 2 * (len + (size_t)need_ + 1); \
			s = xrealloc(s, cap);                \
		}                                            \
		snprintf(s + len, cap - len, __VA_ARGS__);   \
		len += (size_t)need_;                        \
	} while (0)

	if (h->preset_label)
		APPEND("preset \xE2\x80\x9C%s\xE2\x80\x9D", h->preset_label);
	for (uint32_t i = 0; i < h->n_ports; ++i) {
		const Port *p = &h->ports[i];
		if (p->role != ROLE_CONTROL_IN || (p->has_def && p->value == p->def))
			continue;
		if ((p->has_min && p->value < p->min) || (p->has_max && p->value > p->max))
			APPEND("%s%s = %g (clamped from %g)", len ? "   " : "", p->symbol,
			       p->has_min && p->value < p->min ? p->min : p->max, p->value);
		else
			APPEND("%s%s = %g", len ? "   " : "", p->symbol, p->value);
	}
	if (o->block_given && o->block != DEFAULT_BLOCK)
		APPEND("%sblock %ld", len ? "   " : "", o->block);
	if (len == 0)
		APPEND("all controls at their defaults");
#undef APPEND
	return s;
}

static cairo_status_t write_png_stream(void *closure, const unsigned char *data,
                                       unsigned int length)
{
	return fwrite(data, 1, length, (FILE *)closure) == length ? CAIRO_STATUS_SUCCESS
	                                                          : CAIRO_STATUS_WRITE_ERROR;
}

int draw_png(FILE *f, const Layout *L, const Host *h, const Options *o, const Track *tracks,
             const Plane *pl, uint64_t total)
{
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, L->w, L->h);
	cairo_t *cr = cairo_create(surface);
	double seconds = (double)total / (double)o->rate;
	char title[512], right[128];
	char *settings;
	cairo_status_t status;

	cairo_set_source_rgb(cr, 0.969, 0.965, 0.953);
	cairo_paint(cr);

	/* Title: plugin name, URI; render length and rate; non-default settings
	 * (the length and rate on the right; the name, then the URI, in the
	 * room left of it, cut short with an ellipsis in a narrow picture) */
	snprintf(right, sizeof(right), "%g s at %ld Hz", seconds, o->rate);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 14.0);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	text_at(cr, L->w - L->margin, 15.0, 1.0, 0.0, right);
	double title_room;
	{
		cairo_text_extents_t te;
		cairo_text_extents(cr, right, &te);
		title_room = L->w - 2.0 * L->margin - te.x_advance - 16.0;
	}
	snprintf(title, sizeof(title), "%s", h->plugin_name);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 20.0);
	cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
	text_fit(cr, L->margin, 12.0, title_room, title);
	{
		cairo_text_extents_t te;
		cairo_text_extents(cr, title, &te);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
		                       CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, 12.0);
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		if (te.x_advance + 12.0 < title_room)
			text_fit(cr, L->margin + te.x_advance + 12.0, 19.0,
			         title_room - te.x_advance - 12.0, h->uri);
	}

	settings = settings_summary(h, o);
	cairo_set_font_size(cr, 13.0);
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	text_fit(cr, L->margin, 40.0, L->w - 2.0 * L->margin, settings);
	free(settings);

	{
		char time_label[128] = "time (s)";
		const Port *ts = find_port(h, pendula_ports[P_TIME_SCALE].symbol);
		/* (the time scale the plugin runs: clamped to the port's range) */
		float scale = ts ? ts->value : 1.0f;
		if (ts && ts->has_min && scale < ts->min)
			scale = ts->min;
		if (ts && ts->has_max && scale > ts->max)
			scale = ts->max;
		if (ts && ts->role == ROLE_CONTROL_IN && scale != 1.0f)
			snprintf(time_label, sizeof(time_label),
			         "time (s of audio; simulated time = %g \xC3\x97 audio time)",
			         scale);
		for (uint32_t s = 0; s < h->n_signals; ++s) {
			/* Angles of bodies the model does not have are 0: say so */
			char note[64];
			snprintf(note, sizeof(note), "(unused: %d bodies)", plane_n_bodies(pl));
			draw_strip(cr, L, h->signals[s], &tracks[s], (int)s, h->n_signals, seconds,
			           time_label, plane_unused_signal(pl, s) ? note : NULL);
		}
	}
	if (L->has_plane) {
		draw_plane(cr, L, pl);
		draw_stats_table(cr, L->plane_x, L->plane_y + L->plane_side + 112.0, L->plane_side,
		                 L->h - L->margin - (L->plane_y + L->plane_side + 112.0), h, tracks,
		                 total, o);
	}

	cairo_surface_flush(surface);
	status = cairo_status(cr);
	if (status == CAIRO_STATUS_SUCCESS)
		status = cairo_surface_write_to_png_stream(surface, write_png_stream, f);
	cairo_destroy(cr);
	cairo_surface_destroy(surface);
	return status == CAIRO_STATUS_SUCCESS ? 0 : -1;
}
