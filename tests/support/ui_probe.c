/* SPDX-License-Identifier: ISC */
/*
 * ui_probe: the geometry side of tests/scripts/test_ui.sh.  Where the UI must draw
 * the marker comes from the test's own geometry of each model
 * (model_geometry.h: the documented conventions, not the models' pose
 * functions nor the drawing module), placed in the scene rectangle of the
 * UI's layout (the drawing module's, shared with the UI: which rectangle
 * the scene gets is layout, not geometry); it is checked against the pixels
 * of a screenshot.
 *
 *   ui_probe size
 *       prints the UI's default size "W H".
 *   ui_probe find IMAGE.ppm
 *       prints the centroid of the marker-coloured pixels "X Y COUNT".
 *   ui_probe changed A.ppm B.ppm MIN
 *       prints how many pixels differ; exit 1 if fewer than MIN.
 *   ui_probe check --plugin MODEL --image WINDOW.ppm --log LOG
 *                  --lines N [--candidates K] [--tol PX]
 *       LOG is the output of jalv --print-controls / -p ("symbol = value"
 *       lines: the control inputs the UI was given, then the control outputs
 *       the host sent to the UI, one group per update, pivot_y_ctl last).
 *       Of its first N lines (those printed before the screenshot was taken),
 *       the poses after each output line of the last K updates are the ones
 *       the UI can be showing (a host may hand the UI an update in two goes).
 *       For each, the marker's position follows from the layout of a window
 *       of the image's size; exit 0 if the marker found in the image is
 *       within PX pixels of one of them.
 *
 *   ui_probe point --plugin MODEL --log LOG --size W H --what pivot|bob1
 *       prints "X Y": where a UI of W x H draws the pivot or body 1's drag
 *       handle, for the last values in LOG; with bob1, exit 3 if another
 *       handle the UI lets one drag is close to it.
 *   ui_probe slider MODEL W H SYMBOL U
 *       prints "X Y": the point of the slider of control SYMBOL at position
 *       U (0..1) of its track, in a UI of W x H of the plugin MODEL.
 *   ui_probe button MODEL W H NAME
 *       prints "X Y": the middle of the button NAME (reset, store, recall,
 *       slot1 ... slot8) in a UI of W x H of the plugin MODEL.
 *   ui_probe models
 *       prints the models the probe has a geometry of its own for.
 *
 * MODEL: the slug of a model of the registry (its audio plugin).
 *
 * Images are binary PPM (P6, maxval 255), e.g. from ImageMagick's convert.
 */
#include "model_geometry.h"
#include "pendula_draw.h"
#include "ports.h"
#include "test_common.h"
#include "ui_sliders.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI             3.14159265358979323846
#define MAX_CANDIDATES 32   /* updates */
#define MAX_STATES     1024 /* poses: one per control output line */
/* Candidates farther apart than this would make the check meaningless. */
#define MAX_SPREAD     40.0
/* A marker pixel: within this of #ff7f00 in each channel (anti-aliased edges
 * blend with the outline and fall outside, symmetrically). */
#define MARKER_TOL     24

typedef struct {
	int w, h;
	unsigned char *rgb;
} image;

static int fail_usage(const char *msg)
{
	fprintf(stderr, "ui_probe: %s\n", msg);
	return 2;
}

static int read_token(FILE *f, char *buf, size_t size)
{
	int c;
	size_t n = 0;
	for (;;) {
		c = fgetc(f);
		if (c == '#') {
			while (c != '\n' && c != EOF)
				c = fgetc(f);
		}
		if (c == EOF)
			return 0;
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
	}
	while (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r' && n + 1 < size) {
		buf[n++] = (char)c;
		c = fgetc(f);
	}
	buf[n] = '\0';
	return 1;
}

static int load_ppm(const char *path, image *img)
{
	char tok[32];
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "ui_probe: cannot open %s\n", path);
		return 0;
	}
	int w = 0, h = 0, maxval = 0;
	if (!read_token(f, tok, sizeof tok) || strcmp(tok, "P6") ||
	    !read_token(f, tok, sizeof tok) || (w = atoi(tok)) <= 0 ||
	    !read_token(f, tok, sizeof tok) || (h = atoi(tok)) <= 0 ||
	    !read_token(f, tok, sizeof tok) || (maxval = atoi(tok)) != 255) {
		fprintf(stderr, "ui_probe: %s: not a binary 8-bit PPM\n", path);
		fclose(f);
		return 0;
	}
	img->w = w;
	img->h = h;
	img->rgb = malloc((size_t)w * (size_t)h * 3u);
	if (!img->rgb || fread(img->rgb, 3u, (size_t)w * (size_t)h, f) != (size_t)w * (size_t)h) {
		fprintf(stderr, "ui_probe: %s: short pixel data\n", path);
		fclose(f);
		free(img->rgb);
		img->rgb = NULL;
		return 0;
	}
	fclose(f);
	return 1;
}

static int is_marker(const unsigned char *p)
{
	return abs((int)p[0] - 0xff) <= MARKER_TOL && abs((int)p[1] - 0x7f) <= MARKER_TOL &&
	       (int)p[2] <= MARKER_TOL;
}

/* Centroid of the marker pixels (pixel centres); returns their count. */
static long find_marker(const image *img, double *cx, double *cy)
{
	double sx = 0.0, sy = 0.0;
	long n = 0;
	for (int y = 0; y < img->h; ++y)
		for (int x = 0; x < img->w; ++x)
			if (is_marker(img->rgb + 3 * ((size_t)y * (size_t)img->w + (size_t)x))) {
				sx += x + 0.5;
				sy += y + 0.5;
				++n;
			}
	*cx = n ? sx / (double)n : -1.0;
	*cy = n ? sy / (double)n : -1.0;
	return n;
}

/* ---- the log of jalv --print-controls ---- */

typedef struct {
	pendula_variant variant;
	float value[PENDULA_N_PORT_IDS];
} port_values;

static int variant_of_name(const char *name, port_values *pv)
{
	for (int m = 0; m < PENDULA_N_MODELS; ++m)
		if (!strcmp(name, pendula_model_infos[m].slug)) {
			pv->variant = 2 * m; /* the audio plugin */
			test_control_defaults(pv->variant, pv->value);
			return 1;
		}
	return 0;
}

/* The UI's layout for a window of w x h of this plugin. */
static void ui_layout(pendula_variant v, double w, double h, pendula_layout *lay)
{
	pendula_ui_layout(v, w, h, lay);
}

/* The test's geometry of the plugin's model, or a message and 0. */
static int geometry(const port_values *pv, tg_geometry *g)
{
	if (tg_model_geometry(pv->variant, pv->value, g))
		return 1;
	printf("FAIL: the test has no geometry of its own for the model '%s': add it to "
	       "tests/support/model_geometry.h from the model's documented geometry\n",
	       pendula_model_infos[pendula_variant_model(pv->variant)].slug);
	return 0;
}

/* point --plugin P --log LOG --size W H --what pivot|bob1 */
static int point(int argc, char **argv)
{
	const char *plugin = NULL, *log_path = NULL, *what = NULL;
	int w = 0, h = 0;
	for (int i = 0; i < argc; ++i) {
		if (!strcmp(argv[i], "--size") && i + 2 < argc) {
			w = atoi(argv[++i]);
			h = atoi(argv[++i]);
		} else if (i + 1 >= argc) {
			return fail_usage("point: missing value after an option");
		} else if (!strcmp(argv[i], "--plugin")) {
			plugin = argv[++i];
		} else if (!strcmp(argv[i], "--log")) {
			log_path = argv[++i];
		} else if (!strcmp(argv[i], "--what")) {
			what = argv[++i];
		} else {
			return fail_usage("point: unknown option");
		}
	}
	port_values pv;
	if (!plugin || !variant_of_name(plugin, &pv) || !log_path || !what || w <= 0 || h <= 0 ||
	    (strcmp(what, "pivot") && strcmp(what, "bob1")))
		return fail_usage("point: need --plugin MODEL --log --size --what");
	FILE *f = fopen(log_path, "r");
	if (!f) {
		fprintf(stderr, "ui_probe: cannot open %s\n", log_path);
		return 1;
	}
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char sym[128];
		float val;
		if (sscanf(line, "%127s = %f", sym, &val) != 2)
			continue;
		const int id = test_port_by_symbol(pv.variant, sym);
		if (id >= 0)
			pv.value[id] = val;
	}
	fclose(f);
	pendula_layout lay;
	tg_geometry g;
	double x, y, cx, cy, scale;
	ui_layout(pv.variant, w, h, &lay);
	if (!geometry(&pv, &g))
		return 1;
	tg_view(&g, lay.scene.x, lay.scene.y, lay.scene.w, lay.scene.h, &cx, &cy, &scale);
	const tg_point pivot = {pv.value[P_CTL_PIVOT_X], pv.value[P_CTL_PIVOT_Y],
	                        pv.value[P_CTL_PIVOT_Z]};
	tg_project_px(&g, strcmp(what, "pivot") ? g.handle[0] : pivot, cx, cy, scale, &x, &y);
	printf("%.0f %.0f\n", x, y);
	if (!strcmp(what, "bob1")) {
		/* The other handles a press can grab in the UI: too close to
		 * body 1's, exit 3 (try again later).  The UI grabs the handle
		 * nearest the press within its grab radius (max(18 px, 2.5 bob
		 * radii)), so a handle outside that radius plus a margin for
		 * the motion until the press arrives (time_scale 0.1: a few
		 * px) cannot be taken for body 1's.  (The chain's link 2 end
		 * is always l2 from link 1's: 45 px at the defaults.) */
		const double br = fmin(fmax(0.035 * fmin(lay.scene.w, lay.scene.h), 2.5), 11.0);
		for (int i = 1; i < g.n_handles; ++i) {
			double ox, oy;
			tg_project_px(&g, g.handle[i], cx, cy, scale, &ox, &oy);
			if (hypot(ox - x, oy - y) < fmax(18.0, 2.5 * br) + 10.0)
				return 3;
		}
		if (hypot(g.handle[0].x - pivot.x, g.handle[0].y - pivot.y) <= 0.0)
			return 3;
	}
	return 0;
}

static int check(int argc, char **argv)
{
	const char *plugin = NULL, *image_path = NULL, *log_path = NULL;
	long lines = -1;
	int k_max = 8;
	double tol = 3.0;
	for (int i = 0; i < argc; ++i) {
		const char *a = argv[i];
		if (i + 1 >= argc)
			return fail_usage("check: missing value after an option");
		if (!strcmp(a, "--plugin"))
			plugin = argv[++i];
		else if (!strcmp(a, "--image"))
			image_path = argv[++i];
		else if (!strcmp(a, "--log"))
			log_path = argv[++i];
		else if (!strcmp(a, "--lines"))
			lines = atol(argv[++i]);
		else if (!strcmp(a, "--candidates"))
			k_max = atoi(argv[++i]);
		else if (!strcmp(a, "--tol"))
			tol = atof(argv[++i]);
		else
			return fail_usage("check: unknown option");
	}
	if (!plugin || !image_path || !log_path || lines < 0 || k_max < 1 ||
	    k_max > MAX_CANDIDATES || !(tol > 0.0))
		return fail_usage("check: need --plugin, --image, --log, --lines");

	port_values pv;
	if (!variant_of_name(plugin, &pv))
		return fail_usage("check: --plugin must be a model of the registry");

	image img;
	if (!load_ppm(image_path, &img))
		return 1;
	pendula_layout lay;
	ui_layout(pv.variant, img.w, img.h, &lay);

	FILE *f = fopen(log_path, "r");
	if (!f) {
		fprintf(stderr, "ui_probe: cannot open %s\n", log_path);
		free(img.rgb);
		return 1;
	}
	/* The pose after every control output line: a host may deliver one
	 * update's outputs in two goes, and the UI may draw in between. */
	static double state_x[MAX_STATES], state_y[MAX_STATES];
	static long state_group[MAX_STATES];
	long n_states = 0, n_groups = 0;
	char line[512];
	for (long ln = 0; ln < lines && fgets(line, sizeof line, f); ++ln) {
		char sym[128];
		float val;
		if (sscanf(line, "%127s = %f", sym, &val) != 2)
			continue;
		const int id = test_port_by_symbol(pv.variant, sym);
		if (id < 0)
			continue;
		pv.value[id] = val;
		if (pendula_ports[id].kind != PK_CONTROL_OUT)
			continue;
		tg_geometry g;
		double cx, cy, scale;
		const long at = n_states % MAX_STATES;
		if (!geometry(&pv, &g)) {
			fclose(f);
			free(img.rgb);
			return 1;
		}
		tg_view(&g, lay.scene.x, lay.scene.y, lay.scene.w, lay.scene.h, &cx, &cy, &scale);
		tg_project_px(&g, g.marker, cx, cy, scale, &state_x[at], &state_y[at]);
		state_group[at] = n_groups;
		++n_states;
		if (id == P_CTL_PIVOT_Y)
			++n_groups; /* the last output of an update */
	}
	fclose(f);

	/* candidates: the states of the last k_max updates (and of one begun) */
	int n_cand = 0;
	double cand_x[MAX_STATES], cand_y[MAX_STATES];
	long cand_age[MAX_STATES];
	const long first = n_states > MAX_STATES ? n_states - MAX_STATES : 0;
	for (long i = first; i < n_states; ++i) {
		const long at = i % MAX_STATES;
		if (state_group[at] >= n_groups - k_max) {
			cand_x[n_cand] = state_x[at];
			cand_y[n_cand] = state_y[at];
			cand_age[n_cand] = n_groups - state_group[at];
			++n_cand;
		}
	}

	double mx, my;
	const long count = find_marker(&img, &mx, &my);
	free(img.rgb);
	printf("window %dx%d, scene %.0fx%.0f+%.0f+%.0f; %ld output groups in the log\n", img.w,
	       img.h, lay.scene.w, lay.scene.h, lay.scene.x, lay.scene.y, n_groups);
	if (n_cand == 0) {
		printf("FAIL: no control outputs in the first %ld lines of %s\n", lines, log_path);
		return 1;
	}
	if (count < 12) {
		printf("FAIL: marker bob (#%06x) not found: %ld pixels\n", PENDULA_MARKER_RGB,
		       count);
		return 1;
	}
	double best = INFINITY, spread = 0.0;
	int best_i = 0;
	for (int i = 0; i < n_cand; ++i) {
		const double d = hypot(cand_x[i] - mx, cand_y[i] - my);
		if (d < best) {
			best = d;
			best_i = i;
		}
		for (int j = 0; j < i; ++j) {
			const double dd = hypot(cand_x[i] - cand_x[j], cand_y[i] - cand_y[j]);
			if (dd > spread)
				spread = dd;
		}
	}
	printf("marker found at (%.2f, %.2f), %ld pixels; nearest of the %d poses of the last %d "
	       "updates sent to the UI: (%.2f, %.2f), %.2f px away (the poses span %.1f px)\n",
	       mx, my, count, n_cand, k_max, cand_x[best_i], cand_y[best_i], best, spread);
	printf("  (the nearest pose: %ld updates from the end of the log)\n", cand_age[best_i]);
	if (spread > MAX_SPREAD) {
		printf(
		    "FAIL: the poses of the last %d updates span %.1f px: too fast to tell where "
		    "the marker should be (slow the pendulum down)\n",
		    k_max, spread);
		return 1;
	}
	if (!(best <= tol)) {
		printf(
		    "FAIL: the marker is %.2f px from where the angles put it (tolerance %.1f)\n",
		    best, tol);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return fail_usage("usage: ui_probe size | find IMG | changed A B MIN | check ... | "
		                  "point ... | slider MODEL W H SYMBOL U | button MODEL W H NAME | "
		                  "models");
	if (!strcmp(argv[1], "size") && argc == 2) {
		printf("%d %d\n", PENDULA_UI_WIDTH, PENDULA_UI_HEIGHT);
		return 0;
	}
	if (!strcmp(argv[1], "find") && argc == 3) {
		image img;
		double x, y;
		if (!load_ppm(argv[2], &img))
			return 1;
		const long n = find_marker(&img, &x, &y);
		printf("%.2f %.2f %ld\n", x, y, n);
		free(img.rgb);
		return 0;
	}
	if (!strcmp(argv[1], "changed") && argc == 5) {
		image a, b;
		const long min = atol(argv[4]);
		if (!load_ppm(argv[2], &a))
			return 1;
		if (!load_ppm(argv[3], &b)) {
			free(a.rgb);
			return 1;
		}
		long n = 0;
		if (a.w != b.w || a.h != b.h) {
			printf("images differ in size: %dx%d vs %dx%d\n", a.w, a.h, b.w, b.h);
			n = -1;
		} else {
			for (size_t i = 0; i < (size_t)a.w * (size_t)a.h; ++i)
				if (memcmp(a.rgb + 3 * i, b.rgb + 3 * i, 3) != 0)
					++n;
			printf("%ld pixels changed\n", n);
		}
		free(a.rgb);
		free(b.rgb);
		return n >= min ? 0 : 1;
	}
	if (!strcmp(argv[1], "check"))
		return check(argc - 2, argv + 2);
	if (!strcmp(argv[1], "point"))
		return point(argc - 2, argv + 2);
	if (!strcmp(argv[1], "slider") && argc == 7) {
		port_values pv;
		pendula_layout lay;
		pendula_port_id ids[PENDULA_UI_MAX_SLIDERS];
		const double u = atof(argv[6]);
		if (!variant_of_name(argv[2], &pv) || !(u >= 0.0 && u <= 1.0))
			return fail_usage("slider: MODEL or U out of range");
		const int n = pendula_ui_sliders(pv.variant, ids);
		pendula_ui_layout(pv.variant, atof(argv[3]), atof(argv[4]), &lay);
		for (int i = 0; i < n; ++i)
			if (!strcmp(pendula_ports[ids[i]].symbol, argv[5])) {
				const pendula_rect *t = &lay.track[i];
				printf("%.0f %.0f\n", t->x + u * (t->w - 1.0), t->y + 0.5 * t->h);
				return 0;
			}
		return fail_usage("slider: the UI of MODEL has no slider for SYMBOL");
	}
	if (!strcmp(argv[1], "button") && argc == 6) {
		port_values pv;
		pendula_layout lay;
		if (!variant_of_name(argv[2], &pv))
			return fail_usage("button: no MODEL");
		ui_layout(pv.variant, atof(argv[3]), atof(argv[4]), &lay);
		const char *name = argv[5];
		const pendula_rect *r = !strcmp(name, "reset")    ? &lay.reset
		                        : !strcmp(name, "store")  ? &lay.store
		                        : !strcmp(name, "recall") ? &lay.recall
		                                                  : NULL;
		if (!strncmp(name, "slot", 4) && name[4] >= '1' &&
		    name[4] < '1' + PENDULA_UI_MEM_SLOTS && !name[5])
			r = &lay.slot[name[4] - '1'];
		if (!r)
			return fail_usage(
			    "button: NAME is reset, store, recall or slot1 ... slot8");
		printf("%.0f %.0f\n", r->x + 0.5 * r->w, r->y + 0.5 * r->h);
		return 0;
	}
	if (!strcmp(argv[1], "models") && argc == 2) {
		const float zero[PENDULA_N_PORT_IDS] = {0};
		tg_geometry g;
		for (int m = 0; m < PENDULA_N_MODELS; ++m)
			if (tg_model_geometry(2 * m, zero, &g))
				printf("%s\n", pendula_model_infos[m].slug);
		return 0;
	}
	return fail_usage("usage: ui_probe size | find IMG | changed A B MIN | check ... | "
	                  "point ... | slider MODEL W H SYMBOL U | button MODEL W H NAME | "
	                  "models");
}
