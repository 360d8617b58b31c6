/* SPDX-License-Identifier: ISC */
/*
 * ui_harness: the plugin UI as a host sees it, without a host: the UI
 * module loaded (dlopen), instantiated as a top-level window on the X
 * display of $DISPLAY, with a write function that records every value the
 * UI sends and when; mouse clicks sent to its window (XSendEvent, as
 * ui_click does) at the places the shared layout gives (ui_sliders.h), and
 * its pixels read back (XGetImage).  For tests/scripts/test_ui_controls.sh.
 *
 *   ui_harness UI_MODULE MODEL [SHOT.ppm]
 *
 * Checks, for the audio plugin of MODEL:
 *   - a mem_slot the host reports lights its slot button (the colours of
 *     slots 1 and k swap);
 *   - a click on slot k writes mem_slot = k and lights it;
 *   - a click on Store, Recall or Reset writes 1 to its port (and nothing
 *     else to it), then 0 once the button is up and at least the hold time
 *     after the 1 (so the plugin sees the rising edge), never a second 1;
 *   - the drive meter follows drive_level: as many of its columns lit as
 *     the level says (1 px), all at 1; after a drop to 0 it is still lit
 *     40 ms later (the decay) and dark after a second.
 * SHOT.ppm, if given, receives the window with the meter at 0.6 and slot 3
 * stored.  Exit 0: all passed; 1: a check failed (each says which).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */

#include "pendula_draw.h"
#include "ports.h"
#include "ui_buttons.h"
#include "ui_sliders.h"

#include <lv2/ui/ui.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WRITES 4096

typedef struct {
	uint32_t index;
	float value;
	double t;
} write_rec;

static write_rec writes[MAX_WRITES];
static int n_writes;
static int failures;

static const LV2UI_Descriptor *desc;
static LV2UI_Handle handle;
static const LV2UI_Idle_Interface *idle_if;
static Display *dpy;
static Window win;
static pendula_variant variant;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void check(bool ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

static void write_function(LV2UI_Controller controller, uint32_t port_index, uint32_t buffer_size,
                           uint32_t protocol, const void *buffer)
{
	(void)controller;
	if (protocol != 0 || buffer_size != sizeof(float) || n_writes >= MAX_WRITES)
		return;
	write_rec *w = &writes[n_writes++];
	w->index = port_index;
	memcpy(&w->value, buffer, sizeof(float));
	w->t = now_seconds();
}

/* The UI's idle() for `seconds`, every 5 ms. */
static void pump(double seconds)
{
	const double end = now_seconds() + seconds;
	do {
		idle_if->idle(handle);
		const struct timespec ts = {0, 5000000};
		nanosleep(&ts, NULL);
	} while (now_seconds() < end);
	idle_if->idle(handle);
	XSync(dpy, False);
}

static void host_sets(pendula_port_id id, float v)
{
	desc->port_event(handle, (uint32_t)pendula_port_index(variant, id), sizeof(float), 0, &v);
}

static void send_button(int type, int x, int y)
{
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.xbutton.type = type;
	ev.xbutton.display = dpy;
	ev.xbutton.window = win;
	ev.xbutton.root = DefaultRootWindow(dpy);
	ev.xbutton.x = x;
	ev.xbutton.y = y;
	ev.xbutton.button = Button1;
	ev.xbutton.same_screen = True;
	XSendEvent(dpy, win, True, type == ButtonPress ? ButtonPressMask : ButtonReleaseMask, &ev);
	XFlush(dpy);
}

/* A click in the middle of r, held `hold` seconds; returns when it went up. */
static double click(const pendula_rect *r, double hold)
{
	const int x = (int)(r->x + 0.5 * r->w), y = (int)(r->y + 0.5 * r->h);
	send_button(ButtonPress, x, y);
	pump(hold);
	send_button(ButtonRelease, x, y);
	const double up = now_seconds();
	pump(0.02);
	return up;
}

/* The pixel (0xRRGGBB) at (x, y) of the window. */
static unsigned long pixel(int x, int y)
{
	XImage *img = XGetImage(dpy, win, x, y, 1, 1, AllPlanes, ZPixmap);
	if (!img)
		return 0xffffffffu;
	const unsigned long p = XGetPixel(img, 0, 0) & 0xffffffu;
	XDestroyImage(img);
	return p;
}

/* A button's face: a pixel inside it, away from its label. */
static unsigned long face(const pendula_rect *r)
{
	return pixel((int)(r->x + 2.0), (int)(r->y + 2.0));
}

/* The writes to port `id` from record `from` on: count, and the first two. */
static int writes_to(pendula_port_id id, int from, write_rec *first, write_rec *second)
{
	const uint32_t index = (uint32_t)pendula_port_index(variant, id);
	int n = 0;
	for (int i = from; i < n_writes; ++i)
		if (writes[i].index == index) {
			if (n == 0 && first)
				*first = writes[i];
			if (n == 1 && second)
				*second = writes[i];
			++n;
		}
	return n;
}

/* A momentary button: 1, then 0 after the release and the hold time. */
static void check_momentary(const char *name, pendula_port_id id, const pendula_rect *r)
{
	char what[200];
	const int from = n_writes;
	const double down = now_seconds();
	const double up = click(r, 0.03);
	pump(0.25);
	write_rec a = {0}, b = {0};
	const int n = writes_to(id, from, &a, &b);
	snprintf(what, sizeof what,
	         "%s: %s gets 1 before the release, then 0 after it and >= %.2f s later "
	         "(%d writes: %g at +%.3f s, %g at +%.3f s; released at +%.3f s)",
	         name, pendula_ports[id].symbol, UI_MOMENTARY_HOLD, n, (double)a.value, a.t - down,
	         (double)b.value, b.t - down, up - down);
	check(n == 2 && a.value == 1.0f && b.value == 0.0f && a.t < up && b.t >= up &&
	          b.t - a.t >= UI_MOMENTARY_HOLD,
	      what);
	/* a long press: the port stays at 1 until the button is up */
	const int from2 = n_writes;
	const double up2 = click(r, 0.3);
	pump(0.25);
	const int n2 = writes_to(id, from2, &a, &b);
	snprintf(what, sizeof what, "%s held 0.3 s: 1, then 0 only after the release", name);
	check(n2 == 2 && a.value == 1.0f && b.value == 0.0f && b.t >= up2, what);
}

/* How many columns of the meter's middle line differ from `dark`. */
static int lit_columns(const pendula_rect *r, const unsigned long *dark)
{
	const int y = (int)(r->y + 0.5 * r->h), x0 = (int)ceil(r->x), w = (int)floor(r->w);
	XImage *img = XGetImage(dpy, win, x0, y, (unsigned)w, 1, AllPlanes, ZPixmap);
	if (!img)
		return -1;
	int n = 0;
	for (int i = 0; i < w; ++i)
		n += (XGetPixel(img, i, 0) & 0xffffffu) != dark[i];
	XDestroyImage(img);
	return n;
}

static void check_meter(const pendula_layout *lay)
{
	char what[200];
	const pendula_rect *r = &lay->level;
	const int w = (int)floor(r->w);
	unsigned long dark[128];
	if (lay->level_row < 0 || w <= 0 || w > 128) {
		check(false, "the drive gain's row has a meter");
		return;
	}
	host_sets(P_CTL_DRIVE_LEVEL, 0.0f);
	pump(1.0);
	for (int i = 0; i < w; ++i)
		dark[i] = pixel((int)ceil(r->x) + i, (int)(r->y + 0.5 * r->h));
	const float levels[] = {0.75f, 0.3f, 1.0f, 0.5f};
	for (size_t k = 0; k < sizeof levels / sizeof levels[0]; ++k) {
		host_sets(P_CTL_DRIVE_LEVEL, 0.0f);
		pump(1.0); /* (dark again: the meter falls from the last level) */
		host_sets(P_CTL_DRIVE_LEVEL, levels[k]);
		pump(0.01);
		const int lit = lit_columns(r, dark);
		const double want = levels[k] * r->w;
		snprintf(what, sizeof what,
		         "drive_level %g: %d of %d meter columns lit (%.1f expected)",
		         (double)levels[k], lit, w, want);
		check(fabs(lit - want) <= 1.5, what);
	}
	host_sets(P_CTL_DRIVE_LEVEL, 0.0f);
	pump(0.04);
	const int falling = lit_columns(r, dark);
	pump(1.0);
	const int after = lit_columns(r, dark);
	snprintf(what, sizeof what,
	         "drive_level 0.5 -> 0: %d columns lit 40 ms later (falling), %d after 1 s",
	         falling, after);
	check(falling > 0 && falling < (int)(0.5 * r->w) && after == 0, what);
}

static void check_slots(const pendula_layout *lay)
{
	char what[200];
	const unsigned long lit1 = face(&lay->slot[0]), dark5 = face(&lay->slot[4]);
	host_sets(P_MEM_SLOT, 5.0f);
	pump(0.05);
	snprintf(what, sizeof what,
	         "host sets mem_slot 5: slot 5 lit as slot 1 was (%06lx -> %06lx), slot 1 dark "
	         "(%06lx -> %06lx)",
	         dark5, face(&lay->slot[4]), lit1, face(&lay->slot[0]));
	check(lit1 != dark5 && face(&lay->slot[4]) == lit1 && face(&lay->slot[0]) == dark5, what);

	const int from = n_writes;
	click(&lay->slot[2], 0.03);
	pump(0.05);
	write_rec a = {0};
	const int n = writes_to(P_MEM_SLOT, from, &a, NULL);
	snprintf(what, sizeof what, "click on slot 3: mem_slot = %g (%d writes), slot 3 lit",
	         (double)a.value, n);
	check(n == 1 && a.value == 3.0f && face(&lay->slot[2]) == lit1 &&
	          face(&lay->slot[4]) == dark5,
	      what);
	const int others = writes_to(P_MEM_STORE, from, NULL, NULL) +
	                   writes_to(P_MEM_RECALL, from, NULL, NULL) +
	                   writes_to(P_RESET, from, NULL, NULL);
	check(others == 0, "a slot click triggers nothing");
}

static void save_ppm(const char *path, int w, int h)
{
	XImage *img = XGetImage(dpy, win, 0, 0, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
	FILE *f = img ? fopen(path, "wb") : NULL;
	if (f) {
		fprintf(f, "P6\n%d %d\n255\n", w, h);
		for (int y = 0; y < h; ++y)
			for (int x = 0; x < w; ++x) {
				const unsigned long p = XGetPixel(img, x, y);
				const unsigned char rgb[3] = {(unsigned char)(p >> 16),
				                              (unsigned char)(p >> 8),
				                              (unsigned char)p};
				fwrite(rgb, 1, 3, f);
			}
		fclose(f);
	}
	if (img)
		XDestroyImage(img);
}

/* The UI of the audio plugin of `model`, shown and mapped. */
static bool open_ui(const char *module, const char *model)
{
	void *lib = dlopen(module, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "ui_harness: %s\n", dlerror());
		return false;
	}
	const LV2UI_Descriptor *(*get)(uint32_t) =
	    (const LV2UI_Descriptor *(*)(uint32_t))dlsym(lib, "lv2ui_descriptor");
	desc = get ? get(0) : NULL;
	int m = 0;
	while (m < PENDULA_N_MODELS && strcmp(pendula_model_infos[m].slug, model))
		++m;
	if (!desc || m == PENDULA_N_MODELS) {
		fprintf(stderr, "ui_harness: no descriptor, or no model '%s'\n", model);
		return false;
	}
	variant = (pendula_variant)(2 * m); /* the audio plugin */
	const LV2_Feature *features[] = {NULL};
	LV2UI_Widget widget = NULL;
	handle = desc->instantiate(desc, pendula_variant_uris[variant], "", write_function, NULL,
	                           &widget, features);
	idle_if = handle ? desc->extension_data(LV2_UI__idleInterface) : NULL;
	const LV2UI_Show_Interface *show = desc->extension_data(LV2_UI__showInterface);
	if (!idle_if || !show) {
		fprintf(stderr, "ui_harness: the UI did not start\n");
		return false;
	}
	win = (Window)(uintptr_t)widget;
	show->show(handle);
	for (int i = 0; i < 200; ++i) {
		XWindowAttributes wa;
		pump(0.01);
		if (XGetWindowAttributes(dpy, win, &wa) && wa.map_state == IsViewable)
			return true;
	}
	fprintf(stderr, "ui_harness: the window was not mapped\n");
	return false;
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: ui_harness UI_MODULE MODEL [SHOT.ppm]\n");
		return 2;
	}
	dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "ui_harness: no X display\n");
		return 1;
	}
	if (!open_ui(argv[1], argv[2]))
		return 1;
	pump(0.3); /* (drawn) */
	pendula_layout lay;
	pendula_ui_layout(variant, PENDULA_UI_WIDTH, PENDULA_UI_HEIGHT, &lay);

	check_slots(&lay);
	check_momentary("Store", P_MEM_STORE, &lay.store);
	check_momentary("Recall", P_MEM_RECALL, &lay.recall);
	check_momentary("Reset", P_RESET, &lay.reset);
	check_meter(&lay);

	if (argc == 4) {
		host_sets(P_CTL_DRIVE_LEVEL, 0.6f);
		pump(0.05);
		save_ppm(argv[3], PENDULA_UI_WIDTH, PENDULA_UI_HEIGHT);
	}
	desc->cleanup(handle);
	XCloseDisplay(dpy);
	printf("%s: %d check(s) failed\n", argv[2], failures);
	return failures ? 1 : 0;
}
