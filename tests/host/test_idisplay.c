/* SPDX-License-Identifier: ISC */
/*
 * The inline display (Ardour / Carla mixer strip) through lilv, as a host
 * calls it: each plugin is instantiated from the bundle in the build tree,
 * run, and its render() called through lilv_instance_get_extension_data.
 *
 *   ttl          the plugin declares idpy:interface and idpy:queue_draw, and
 *                has the X11 UI with a port notification per control output
 *   render       render(128, 128): a 128 x <=128 ARGB32 picture, not blank,
 *                the orange marker where the angles and the pivot (read from
 *                the control outputs) put it by the test's own geometry of
 *                the model (model_geometry.h), within 1 px; also for other
 *                sizes (200 x 80, 64 x 500)
 *   queue_draw   run() asks for a redraw about 30 times a second while the
 *                pendulum moves (not more), and not at all once it rests
 *   no_feature   a host without queue_draw: the plugin runs, render() works
 *
 * Every plugin of the bundle, one suite each.
 *
 * usage: test_idisplay BUNDLE_DIR
 */
#include "lv2_inline_display.h"
#include "cunit_main.h"
#include "lv2_test_host.h"
#include "model_geometry.h"
#include "pendula_draw.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/ui/ui.h>
#include <lv2/urid/urid.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI            3.14159265358979323846
#define RATE          48000.0
#define BLOCK         256u
#define ATOM_CAPACITY 8192u
#define MARKER_TOL    24

static LilvWorld *world;
static const LilvPlugin *plugins[PENDULA_N_VARIANTS];
static pendula_variant cur;

/* ---- queue_draw, counted ---- */

static unsigned queue_draw_calls;

static void count_queue_draw(LV2_Inline_Display_Handle handle)
{
	(void)handle;
	++queue_draw_calls;
}

static LV2_Inline_Display queue_draw = {NULL, count_queue_draw};

/* ---- a host instance ---- */

typedef struct {
	LilvInstance *inst;
	float control[PENDULA_N_PORT_IDS];
	float signal[PENDULA_N_PORT_IDS][BLOCK];
	uint64_t atom_in[ATOM_CAPACITY / 8];
	uint64_t atom_out[ATOM_CAPACITY / 8];
} Host;

static Host host;

static bool host_open(bool with_queue_draw)
{
	const LV2_Feature qd_feature = {LV2_INLINEDISPLAY__queue_draw, &queue_draw};
	const LV2_Feature *features[] = {&lv2th_map_feature, with_queue_draw ? &qd_feature : NULL,
	                                 NULL};

	memset(&host, 0, sizeof host);
	host.inst = lilv_plugin_instantiate(plugins[cur], RATE, features);
	if (!host.inst)
		return false;
	/* the variant's control inputs at their defaults, all else 0 */
	float *signal[PENDULA_N_PORT_IDS];
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_port_index(cur, (pendula_port_id)id) >= 0 &&
		    pendula_ports[id].kind == PK_CONTROL_IN)
			host.control[id] = pendula_port_default(cur, (pendula_port_id)id);
		signal[id] = host.signal[id];
	}
	lv2th_connect(host.inst, cur, host.control, signal, host.atom_in, host.atom_out);
	/* no MIDI out, and no CC to send */
	for (int id = P_CC_THETA1; id <= P_CC_ENERGY; ++id)
		host.control[id] = -1.0f;
	lilv_instance_activate(host.inst);
	return true;
}

static void host_run(uint32_t n_blocks, uint32_t frames)
{
	for (uint32_t b = 0; b < n_blocks; ++b) {
		lv2th_prepare_atoms(host.atom_in, host.atom_out, ATOM_CAPACITY - sizeof(LV2_Atom));
		lilv_instance_run(host.inst, frames);
	}
}

static void host_close(void)
{
	if (host.inst) {
		lilv_instance_deactivate(host.inst);
		lilv_instance_free(host.inst);
		host.inst = NULL;
	}
}

static void set(pendula_port_id id, float v)
{
	if (pendula_port_index(cur, id) >= 0)
		host.control[id] = v;
}

static const LV2_Inline_Display_Interface *interface(void)
{
	return (const LV2_Inline_Display_Interface *)lilv_instance_get_extension_data(
	    host.inst, LV2_INLINEDISPLAY__interface);
}

/* A setting that tells a right drawing from a wrong one: uneven lengths,
 * angles away from symmetric ones, the pivot displaced by the forcing. */
static void set_test_pose(void)
{
	set(P_L1, 0.8f);
	set(P_L2, 0.5f);
	set(P_N_BODIES, 2.0f);
	set(P_C1, 0.15f);
	set(P_B2, 0.4f);
	set(P_BETA2, 75.0f);
	set(P_C2, 0.35f);
	set(P_THETA1_INIT, 100.0f);
	set(P_THETA2_INIT, -35.0f);
	set(P_TIME_SCALE, 0.5f);
	set(P_PIVOT_X_AMP, 0.3f);
	set(P_PIVOT_X_FREQ, 0.4f);
	set(P_PIVOT_Y_AMP, 0.1f);
	set(P_PIVOT_Y_FREQ, 0.3f);
}

typedef struct {
	long marker;         /* marker pixels */
	double mx, my;       /* their centroid */
	long colours;        /* distinct colours (capped) */
	long non_background; /* pixels differing from the corner pixel */
} picture_stats;

static void analyse(const LV2_Inline_Display_Image_Surface *img, picture_stats *st)
{
	uint32_t seen[64];
	long n_seen = 0;
	double sx = 0.0, sy = 0.0;
	memset(st, 0, sizeof *st);
	const uint32_t background = *(const uint32_t *)img->data;
	for (int y = 0; y < img->height; ++y) {
		const uint32_t *row =
		    (const uint32_t *)(img->data + (size_t)y * (size_t)img->stride);
		for (int x = 0; x < img->width; ++x) {
			const uint32_t p = row[x];
			const int a = (int)(p >> 24), r = (int)((p >> 16) & 255),
			          g = (int)((p >> 8) & 255), b = (int)(p & 255);
			if (p != background)
				++st->non_background;
			bool known = false;
			for (long i = 0; i < n_seen; ++i)
				known = known || seen[i] == p;
			if (!known && n_seen < 64)
				seen[n_seen++] = p;
			if (a == 255 && abs(r - 0xff) <= MARKER_TOL &&
			    abs(g - 0x7f) <= MARKER_TOL && b <= MARKER_TOL) {
				sx += x + 0.5;
				sy += y + 0.5;
				++st->marker;
			}
		}
	}
	st->colours = n_seen;
	st->mx = st->marker ? sx / (double)st->marker : -1.0;
	st->my = st->marker ? sy / (double)st->marker : -1.0;
}

/* render(w, max_h) and check the picture against the ports. */
static void check_render(uint32_t w, uint32_t max_h)
{
	const LV2_Inline_Display_Interface *iface = interface();
	CHECK(iface && iface->render, "%s: no inline display interface",
	      pendula_variant_names[cur]);
	if (!iface || !iface->render)
		return;
	const LV2_Inline_Display_Image_Surface *img =
	    iface->render(lilv_instance_get_handle(host.inst), w, max_h);
	CHECK(img != NULL, "%s: render(%u, %u) returned NULL", pendula_variant_names[cur], w,
	      max_h);
	if (!img)
		return;
	const int want_h = (int)(w < max_h ? w : max_h);
	CHECK(img->width == (int)w, "%s: width %d, asked %u", pendula_variant_names[cur],
	      img->width, w);
	CHECK(img->height > 0 && img->height <= (int)max_h, "%s: height %d, max %u",
	      pendula_variant_names[cur], img->height, max_h);
	CHECK(img->height == want_h, "%s: height %d, expected %d (square when it fits)",
	      pendula_variant_names[cur], img->height, want_h);
	CHECK(img->stride >= 4 * img->width, "%s: stride %d for width %d",
	      pendula_variant_names[cur], img->stride, img->width);
	CHECK(img->data != NULL, "%s: no pixel data", pendula_variant_names[cur]);
	if (!img->data || img->width != (int)w || img->height != want_h)
		return;

	picture_stats st;
	analyse(img, &st);
	const long area = (long)img->width * img->height;
	CHECK(st.colours >= 8, "%s: %ld colours: blank picture", pendula_variant_names[cur],
	      st.colours);
	CHECK(st.non_background >= area / 50, "%s: only %ld of %ld pixels drawn",
	      pendula_variant_names[cur], st.non_background, area);
	CHECK(st.marker >= 8, "%s %ux%d: marker bob not found (%ld pixels)",
	      pendula_variant_names[cur], w, img->height, st.marker);

	/* Where the test's own geometry of the model puts the marker, in the
	 * scene rectangle of the inline display's layout. */
	tg_geometry g;
	const char *slug = pendula_model_infos[pendula_variant_model(cur)].slug;
	CHECK(tg_model_geometry(cur, host.control, &g),
	      "%s: the test has no geometry of its own for the model '%s' "
	      "(add it to tests/support/model_geometry.h)",
	      pendula_variant_names[cur], slug);
	if (!tg_model_geometry(cur, host.control, &g))
		return;
	const pendula_rect r = pendula_inline_scene_rect(img->width, img->height);
	double cx, cy, scale, ex, ey;
	tg_view(&g, r.x, r.y, r.w, r.h, &cx, &cy, &scale);
	tg_project_px(&g, g.marker, cx, cy, scale, &ex, &ey);
	const double d = hypot(st.mx - ex, st.my - ey);
	printf("\n    %s %dx%d: marker at (%.2f, %.2f), %ld px; angles put it at (%.2f, %.2f): "
	       "%.2f px",
	       pendula_variant_names[cur], img->width, img->height, st.mx, st.my, st.marker, ex, ey,
	       d);
	CHECK(d <= 1.0, "%s %dx%d: marker at (%.2f, %.2f), expected (%.2f, %.2f) from the angles",
	      pendula_variant_names[cur], img->width, img->height, st.mx, st.my, ex, ey);
	CHECK(scale * g.reach <= 0.5 * r.h && scale * g.reach <= 0.5 * r.w,
	      "%s: the drawing is larger than the picture", pendula_variant_names[cur]);

	/* and the plugin's own tip outputs, where it has them, agree */
	if (!strcmp(slug, "double")) {
		const double wx = g.marker.x - host.control[P_CTL_PIVOT_X];
		const double wy = g.marker.y - host.control[P_CTL_PIVOT_Y];
		const double len = host.control[P_L1] + host.control[P_L2];
		CHECK(fabs(wx - host.control[P_CTL_TIP_X] * len) < 1e-3 * len &&
		          fabs(wy - host.control[P_CTL_TIP_Y] * len) < 1e-3 * len,
		      "%s: tip (%.4f, %.4f) from the angles, (%.4f, %.4f) from tip_x/tip_y",
		      pendula_variant_names[cur], wx, wy, host.control[P_CTL_TIP_X] * len,
		      host.control[P_CTL_TIP_Y] * len);
	}
}

/* ---------------------------------------------------------------------- */

static void test_ttl(void)
{
	LilvNode *iface = lilv_new_uri(world, LV2_INLINEDISPLAY__interface);
	LilvNode *qd = lilv_new_uri(world, LV2_INLINEDISPLAY__queue_draw);
	LilvNode *x11 = lilv_new_uri(world, LV2_UI__X11UI);
	LilvNode *notif = lilv_new_uri(world, LV2_UI__portNotification);
	LilvNode *ui_uri = lilv_new_uri(world, PENDULA_UI_URI);
	const LilvPlugin *p = plugins[cur];

	CHECK(lilv_plugin_has_extension_data(p, iface), "%s: no lv2:extensionData idpy:interface",
	      pendula_variant_names[cur]);
	LilvNodes *opt = lilv_plugin_get_optional_features(p);
	CHECK(opt && lilv_nodes_contains(opt, qd), "%s: idpy:queue_draw not an optional feature",
	      pendula_variant_names[cur]);
	lilv_nodes_free(opt);
	LilvNodes *req = lilv_plugin_get_required_features(p);
	CHECK(!req || !lilv_nodes_contains(req, qd), "%s: idpy:queue_draw must not be required",
	      pendula_variant_names[cur]);
	lilv_nodes_free(req);

	LilvUIs *uis = lilv_plugin_get_uis(p);
	const LilvUI *ui = uis ? lilv_uis_get_by_uri(uis, ui_uri) : NULL;
	CHECK(ui != NULL, "%s: no ui:ui <%s>", pendula_variant_names[cur], PENDULA_UI_URI);
	if (ui) {
		CHECK(lilv_ui_is_a(ui, x11), "%s: the UI is not a ui:X11UI",
		      pendula_variant_names[cur]);
		const char *bin = lilv_node_as_uri(lilv_ui_get_binary_uri(ui));
		CHECK(bin && strstr(bin, "pendula_ui."), "%s: UI binary %s",
		      pendula_variant_names[cur], bin ? bin : "(none)");
		/* one ui:portNotification per control output of this plugin */
		LilvNodes *notes = lilv_world_find_nodes(world, lilv_ui_get_uri(ui), notif, NULL);
		LilvNode *ui_plugin = lilv_new_uri(world, LV2_UI__plugin);
		LilvNode *symbol = lilv_new_uri(world, LV2_CORE__symbol);
		int mine = 0, expected = 0;
		LILV_FOREACH(nodes, i, notes)
		{
			const LilvNode *n = lilv_nodes_get(notes, i);
			LilvNode *pl = lilv_world_get(world, n, ui_plugin, NULL);
			LilvNode *sym = lilv_world_get(world, n, symbol, NULL);
			if (pl && sym && lilv_node_equals(pl, lilv_plugin_get_uri(p))) {
				const char *s = lilv_node_as_string(sym);
				bool is_ctl_out = false;
				for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
					is_ctl_out =
					    is_ctl_out ||
					    (pendula_ports[id].kind == PK_CONTROL_OUT &&
					     pendula_port_index(cur, (pendula_port_id)id) >= 0 &&
					     !strcmp(pendula_ports[id].symbol, s));
				CHECK(is_ctl_out,
				      "%s: port notification for '%s', not a control output",
				      pendula_variant_names[cur], s);
				++mine;
			}
			lilv_node_free(pl);
			lilv_node_free(sym);
		}
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			expected += pendula_ports[id].kind == PK_CONTROL_OUT &&
			            pendula_port_index(cur, (pendula_port_id)id) >= 0;
		CHECK(mine == expected && expected > 0,
		      "%s: %d port notifications, %d control outputs", pendula_variant_names[cur],
		      mine, expected);
		lilv_node_free(ui_plugin);
		lilv_node_free(symbol);
		lilv_nodes_free(notes);
	}
	lilv_uis_free(uis);
	lilv_node_free(iface);
	lilv_node_free(qd);
	lilv_node_free(x11);
	lilv_node_free(notif);
	lilv_node_free(ui_uri);
}

static void test_render(void)
{
	CHECK(host_open(true), "%s: instantiate failed", pendula_variant_names[cur]);
	if (!host.inst)
		return;
	set_test_pose();
	host_run(40, BLOCK); /* ~0.2 s: moving, pivot displaced */
	check_render(128, 128);
	host_run(7, BLOCK);
	check_render(200, 80);
	host_run(3, 100);
	check_render(64, 500);
	check_render(128, 128);
	/* a plugin with a choice of surface: the other one too (the bead's
	 * moving floor, drawn in the plane) */
	if (pendula_port_index(cur, P_SURFACE) >= 0) {
		set(P_SURFACE, 1.0f);
		set(P_WAVE_AMP, 0.2f);
		set(P_RESET, 1.0f);
		host_run(1, BLOCK);
		set(P_RESET, 0.0f);
		host_run(40, BLOCK);
		check_render(128, 128);
	}
	host_close();
}

static void test_queue_draw(void)
{
	CHECK(host_open(true), "%s: instantiate failed", pendula_variant_names[cur]);
	if (!host.inst)
		return;
	set_test_pose();
	/* 2 s in blocks of 64 frames: the pendulum moves all the time */
	queue_draw_calls = 0;
	host_run(1500, 64);
	printf("\n    %s moving: %u queue_draw in 2 s", pendula_variant_names[cur],
	       queue_draw_calls);
	CHECK(queue_draw_calls <= 61, "%s: %u queue_draw in 2 s (at most ~30/s)",
	      pendula_variant_names[cur], queue_draw_calls);
	CHECK(queue_draw_calls >= 50, "%s: %u queue_draw in 2 s of motion (expected ~60)",
	      pendula_variant_names[cur], queue_draw_calls);

	/* restart hanging at rest in an equilibrium (Chaos Man: the arm's hinge
	 * straight below the pivot), no forcing: one picture, then nothing */
	for (int id = P_THETA1_INIT; id <= P_THETA4_INIT; ++id)
		set((pendula_port_id)id, 0.0f);
	set(P_BETA2, 0.0f);
	set(P_PIVOT_X_AMP, 0.0f);
	set(P_PIVOT_Y_AMP, 0.0f);
	set(P_RESET, 1.0f);
	queue_draw_calls = 0;
	host_run(1, BLOCK);
	set(P_RESET, 0.0f);
	host_run(199, BLOCK); /* ~1 s */
	printf(", after a reset to rest: %u", queue_draw_calls);
	CHECK(queue_draw_calls >= 1 && queue_draw_calls <= 6,
	      "%s: %u queue_draw while coming to rest", pendula_variant_names[cur],
	      queue_draw_calls);
	queue_draw_calls = 0;
	host_run(200, BLOCK);
	printf(", then at rest: %u", queue_draw_calls);
	CHECK(queue_draw_calls == 0, "%s: %u queue_draw at rest (the picture did not change)",
	      pendula_variant_names[cur], queue_draw_calls);
	check_render(128, 128);
	host_close();
}

static void test_no_feature(void)
{
	CHECK(host_open(false), "%s: instantiate without queue_draw failed",
	      pendula_variant_names[cur]);
	if (!host.inst)
		return;
	set_test_pose();
	queue_draw_calls = 0;
	host_run(20, BLOCK);
	CHECK(queue_draw_calls == 0, "queue_draw called though not given");
	check_render(128, 128);
	host_close();
}

/* CUnit tests take no argument: each plugin's suite sets the plugin its
 * tests run on when it starts (suites run in the order they were added). */
static int suite_variant[PENDULA_N_VARIANTS];
static int next_suite;

static int suite_init(void)
{
	cur = (pendula_variant)suite_variant[next_suite++];
	return 0;
}

typedef void (*test_fn)(void);
static const test_fn tests[4] = {test_ttl, test_render, test_queue_draw, test_no_feature};
static const char *const test_names[4] = {"ttl", "render", "queue_draw", "no_feature"};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_idisplay BUNDLE_DIR\n");
		return 2;
	}
	if (!lv2th_world_load("test_idisplay", argv[1], &world, plugins))
		return 1;

	/* The variants whose model the test has its own geometry for
	 * (tests/support/model_geometry.h: the double pendulum, the Chaos Man and the
	 * chain and the 3-D models: every model). */
	static CU_TestInfo variant_tests[5];
	static char names[PENDULA_N_VARIANTS][64];
	static CU_SuiteInfo suites[PENDULA_N_VARIANTS + 1];
	for (int t = 0; t < 4; ++t)
		variant_tests[t] = (CU_TestInfo){test_names[t], tests[t]};
	int n_suites = 0;
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		float values[PENDULA_N_PORT_IDS] = {0};
		tg_geometry g;
		if (!tg_model_geometry((pendula_variant)v, values, &g)) {
			printf("test_idisplay: no geometry of its own for %s yet: not tested\n",
			       pendula_variant_names[v]);
			continue;
		}
		snprintf(names[v], sizeof names[v], "idisplay_%s", pendula_variant_names[v]);
		suite_variant[n_suites] = v;
		suites[n_suites++] =
		    (CU_SuiteInfo){names[v], suite_init, NULL, NULL, NULL, variant_tests};
	}
	const int status = test_cunit_main("test_idisplay", suites);
	lilv_world_free(world);
	lv2th_free_uris();
	return status;
}
