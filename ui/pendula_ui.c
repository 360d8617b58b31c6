/* SPDX-License-Identifier: ISC */
/*
 * Pendula plugin UI: an LV2 ui:X11UI in plain Xlib + cairo (no toolkit), for
 * every plugin of the bundle, with no code of its own for any model.
 *
 * - The window is a child of the host's ui:parent window (or, without one,
 *   a top-level window shown through ui:showInterface); it is resizable and
 *   tells the host its size through ui:resize when offered.
 * - Data reaches the UI only through ports: the control outputs (angles,
 *   pivot position, energy; the TTL asks for ui:portNotification of each)
 *   and the control inputs (the geometry, so the drawing is to scale).  No
 *   instance-access, no data-access: the UI can run out of process.
 * - ui:idleInterface drives it: each idle() handles the pending X events and
 *   redraws only if something changed (a port value, an expose, a resize, a
 *   drag), so it draws at the rate the host delivers port values (30 to 60
 *   per second in common hosts) while the pendulum moves and not at all when
 *   it rests.
 * - The picture: the settings (control inputs, through the port table) and
 *   the angles (control outputs) go to the model itself, which gives its
 *   pose (pendula_pose_at); the drawing module (draw/) draws any pose.
 * - Controls: drag a body by its handle (the pose says which handles set
 *   which body's theta{k}_init); releasing it restarts the pendulum from
 *   there.  Sliders for the control inputs the port table flags PF_UI (right
 *   click: default, wheel: fine steps), the drive meter in the drive gain's
 *   row (ui_meter.c); a reset button and the memory strip (ui_memory.c),
 *   momentary buttons as ui_buttons.c makes them.  Values go to the plugin
 *   through the host's write_function (float protocol), by port index of
 *   the plugin's variant.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "pendula_draw.h"
#include "pendula_engine.h"
#include "port_pose.h"
#include "ports.h"
#include "ui_buttons.h"
#include "ui_memory.h"
#include "ui_meter.h"
#include "ui_slider_curve.h"
#include "ui_sliders.h"

#include <lv2/core/lv2.h>
#include <lv2/ui/ui.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <cairo-xlib.h>
#include <cairo.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UI_PI       3.14159265358979323846
/* How long an event's flash lasts (s). */
#define EVENT_FLASH 0.25

/* ---------------------------------------------------------------------- */
/* Instance                                                                */

typedef struct {
	/* host */
	pendula_variant variant;
	LV2UI_Write_Function write;
	LV2UI_Controller controller;
	const LV2UI_Resize *resize;
	ui_port_writer writer; /* set_port, for the buttons */

	/* X11 + cairo */
	Display *dpy;
	Window win;
	Atom wm_protocols, wm_delete;
	bool embedded;  /* child of the host's ui:parent */
	bool destroyed; /* the window went away with its parent */
	bool closed;    /* the user closed our top-level window */
	cairo_surface_t *surface;
	int width, height;

	/* latest value of every port of the variant, by global id */
	float value[PENDULA_N_PORT_IDS];
	/* the control outputs as last drawn */
	float drawn[PENDULA_N_PORT_IDS];

	/* the sliders: control inputs flagged PF_UI in the port table */
	int n_sliders;
	slider_desc sliders[PENDULA_UI_MAX_SLIDERS];

	/* what needs drawing */
	bool need_draw;    /* expose, resize, interaction, control input */
	bool pose_changed; /* an angle or the pivot moved: trail + redraw */
	pendula_trail trail;

	/* interaction */
	int drag_slider; /* -1: none */
	int drag_body;   /* -1: none; else the body whose initial angle is dragged */
	double drag_offset;
	int drag_port; /* the control input that sets its initial angle */
	ui_momentary reset;
	ui_memory mem;
	ui_meter drive; /* drive_level */

	/* events: the last flip or swing seen (flips_ctl / swings_ctl, or an
	 * angle output that jumped over the top between two updates) */
	double flash_since;
	bool flash_flip;
} PendulaUI;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool has_port(const PendulaUI *ui, pendula_port_id id)
{
	return pendula_port_index(ui->variant, id) >= 0;
}

/* The port rule of docs/MODELS.md, applied to what the UI shows: NaN -> default,
 * clamp to the declared range. */
static float sanitize(const PendulaUI *ui, pendula_port_id id, float v)
{
	const pendula_port_info *p = &pendula_ports[id];
	if (v != v)
		v = p->kind == PK_CONTROL_IN ? pendula_port_default(ui->variant, id) : 0.0f;
	if (v < p->min)
		v = p->min;
	if (v > p->max)
		v = p->max;
	return v;
}

/* Sets a control input here and in the plugin (through the host). */
static void set_port(PendulaUI *ui, pendula_port_id id, float v)
{
	const int index = pendula_port_index(ui->variant, id);
	if (index < 0)
		return;
	v = sanitize(ui, id, v);
	ui->value[id] = v;
	ui->write(ui->controller, (uint32_t)index, sizeof(float), 0, &v);
	ui->need_draw = true;
}

static void write_port(void *ctx, pendula_port_id id, float v)
{
	set_port((PendulaUI *)ctx, id, v);
}

/* The model's pose from the port values: the live pose (the coordinates
 * the control outputs show, through the model: pendula_frame_from_ports),
 * or the initial pose (theta{k}_init; a 3-D model's initial state); the
 * pivot where the control outputs put it. */
static void model_pose(const PendulaUI *ui, pendula_pose *pose, bool initial_pose)
{
	pendula_params params;
	pendula_system sys;
	pendula_frame f;
	double q[PENDULA_MAX_DOF];
	pendula_params_from_ports(&params, ui->variant, ui->value);
	pendula_system_init(&sys, &params);
	pendula_frame_from_ports(&sys, ui->variant, PK_CONTROL_OUT, ui->value, &f);
	pendula_frame_coords(&sys, &f, q);
	const pendula_vec3 pivot = {f.pivot_x, f.pivot_y, f.pivot_z};
	pendula_pose_at3(&sys, q, pivot, f.wave_phase, pose);
	if (initial_pose) {
		if (pendula_pose_is_3d(pose))
			pendula_initial_coords(&sys, &params, q);
		else
			for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
				q[k] = params.theta_init[k];
		pendula_pose_at3(&sys, q, pivot, f.wave_phase, pose);
	}
}

/* ---------------------------------------------------------------------- */
/* Drawing                                                                 */

/* A slider's label in at most max_w pixels: the font shrinks to fit, down
 * to 8 px, and what still does not fit is cut with an ellipsis. */
static void label_at(cairo_t *cr, double x, double y_mid, const char *s, double max_w)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	cairo_save(cr);
	if (e.x_advance > max_w)
		cairo_set_font_size(cr, fmax(8.0, 12.0 * max_w / e.x_advance));
	char buf[96];
	snprintf(buf, sizeof buf, "%s", s);
	size_t n = strlen(buf);
	cairo_text_extents(cr, buf, &e);
	while (n > 1 && e.x_advance > max_w) {
		buf[--n] = '\0';
		snprintf(buf + (n > 3 ? n - 3 : 0), 4, "...");
		cairo_text_extents(cr, buf, &e);
	}
	ui_text_at(cr, x, y_mid, buf, 0);
	cairo_restore(cr);
}

/* A slider's value as text: the chaos knob below 0 is off (its port's
 * rdfs:comment, docs/PORTS.md), a toggle is off or on. */
static void value_text(char *text, size_t size, pendula_port_id id, double v)
{
	if (pendula_ports[id].flags & PF_TOGGLED)
		snprintf(text, size, "%s", v >= 0.5 ? "on" : "off");
	else if (id == P_ENERGY_TARGET && v < 0.0)
		snprintf(text, size, "off");
	else
		snprintf(text, size, "%.3g %s", v, pendula_units[pendula_ports[id].unit].ui_text);
}

static void draw_slider(cairo_t *cr, const PendulaUI *ui, const pendula_layout *lay, int i)
{
	const slider_desc *sd = &ui->sliders[i];
	const pendula_port_info *info = &pendula_ports[sd->id];
	const pendula_rect *row = &lay->slider[i], *tr = &lay->track[i];
	const double v = ui->value[sd->id];
	const double u = slider_position(sd, v);
	const double mid = row->y + 0.5 * row->h;
	char text[64];

	cairo_set_source_rgb(cr, 0.82, 0.84, 0.88);
	label_at(cr, row->x, mid, info->name, tr->x - row->x - 6.0);

	cairo_rectangle(cr, tr->x, tr->y, tr->w, tr->h);
	cairo_set_source_rgb(cr, 0.13, 0.15, 0.18);
	cairo_fill(cr);
	const double u0 = sd->curve == CURVE_SIGNED_POW3 ? 0.5 : 0.0;
	const double a = tr->x + tr->w * (u < u0 ? u : u0), b = tr->x + tr->w * (u < u0 ? u0 : u);
	cairo_rectangle(cr, a, tr->y, b - a, tr->h);
	cairo_set_source_rgb(cr, ui->drag_slider == i ? 0.40 : 0.31,
	                     ui->drag_slider == i ? 0.52 : 0.44,
	                     ui->drag_slider == i ? 0.82 : 0.66);
	cairo_fill(cr);
	cairo_rectangle(cr, tr->x + tr->w * u - 2.0, tr->y - 2.0, 4.0, tr->h + 4.0);
	cairo_set_source_rgb(cr, 0.86, 0.88, 0.92);
	cairo_fill(cr);

	value_text(text, sizeof text, sd->id, v);
	cairo_set_source_rgb(cr, 0.82, 0.84, 0.88);
	ui_text_at(cr, row->x + row->w, mid, text, 1);
	if (lay->level_row == i)
		ui_meter_draw(cr, &ui->drive, &lay->level, now_seconds());
}

/* The chaos knob's target on the energy meter (the meter's scale:
 * pendula_draw_energy fills 0.5 E of its height), when the knob is on. */
static void draw_energy_target(cairo_t *cr, const PendulaUI *ui, pendula_rect r)
{
	const double target = ui->value[P_ENERGY_TARGET];
	if (!has_port(ui, P_ENERGY_TARGET) || !(target >= 0.0))
		return;
	const double frac = fmin(0.5 * target, 1.0);
	const double y = r.y + r.h * (1.0 - frac);
	cairo_save(cr);
	cairo_rectangle(cr, r.x - 3.0, y - 1.0, r.w + 6.0, 2.0);
	cairo_set_source_rgb(cr, 0.30, 0.90, 0.90); /* (not the probe's orange marker) */
	cairo_fill(cr);
	cairo_restore(cr);
}

/* A flip or swing seen lately: the scene's frame lights up (magenta for a
 * flip, blue for a swing) and fades out. */
static void draw_event_flash(cairo_t *cr, const PendulaUI *ui, pendula_rect r)
{
	const double age = now_seconds() - ui->flash_since;
	if (!(age >= 0.0 && age < EVENT_FLASH))
		return;
	const double a = 1.0 - age / EVENT_FLASH;
	cairo_save(cr);
	cairo_rectangle(cr, r.x + 1.5, r.y + 1.5, r.w - 3.0, r.h - 3.0);
	if (ui->flash_flip)
		cairo_set_source_rgba(cr, 0.95, 0.35, 0.85, a);
	else
		cairo_set_source_rgba(cr, 0.45, 0.65, 1.0, a);
	cairo_set_line_width(cr, 3.0);
	cairo_stroke(cr);
	cairo_restore(cr);
}

static void draw(PendulaUI *ui)
{
	pendula_layout lay;
	pendula_pose pose;
	char text[160];

	if (!ui->surface || ui->destroyed)
		return;
	pendula_ui_layout(ui->variant, ui->width, ui->height, &lay);
	model_pose(ui, &pose, false);
	const double energy = ui->value[P_CTL_ENERGY];

	cairo_t *cr = cairo_create(ui->surface);
	cairo_push_group(cr);
	cairo_set_source_rgb(cr, 0.09, 0.10, 0.12);
	cairo_paint(cr);

	pendula_draw_scene(cr, &pose, &ui->trail, lay.scene);
	if (ui->drag_body >= 0) {
		pendula_pose init;
		pendula_view v;
		model_pose(ui, &init, true);
		pendula_view_fit(&v, &pose, PENDULA_PROJ_AUTO, lay.scene);
		pendula_draw_ghost(cr, &v, &init, lay.scene, 1.0, 1.0, 1.0, 0.7);
	}
	pendula_draw_energy(cr, energy, lay.meter);
	draw_energy_target(cr, ui, lay.meter);
	draw_event_flash(cr, ui, lay.scene);

	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 12.0);
	cairo_set_source_rgb(cr, 0.62, 0.66, 0.72);
	snprintf(text, sizeof text, "%s   E = %.2f",
	         pendula_model_infos[pendula_variant_model(ui->variant)].name, energy);
	ui_text_at(cr, lay.scene.x + 6.0, lay.scene.y + 10.0, text, 0);

	for (int i = 0; i < ui->n_sliders; ++i)
		draw_slider(cr, ui, &lay, i);

	ui_draw_button(cr, &lay.reset, "Reset", ui->reset.high);
	ui_memory_draw(cr, &ui->mem, &lay, ui->value);
	cairo_set_source_rgb(cr, 0.55, 0.58, 0.64);
	if (lay.hint.h > 0.0)
		label_at(cr, lay.hint.x, lay.hint.y + 0.5 * lay.hint.h,
		         "Drag a bob to set its start angle", lay.hint.w);

	cairo_pop_group_to_source(cr);
	cairo_paint(cr);
	cairo_destroy(cr);
	cairo_surface_flush(ui->surface);
	XFlush(ui->dpy);
}

/* ---------------------------------------------------------------------- */
/* Interaction                                                             */

static bool in_rect(const pendula_rect *r, double x, double y, double slack)
{
	return x >= r->x - slack && x < r->x + r->w + slack && y >= r->y - slack &&
	       y < r->y + r->h + slack;
}

static void slider_set_from_x(PendulaUI *ui, const pendula_layout *lay, int i, double x)
{
	const double u = (x - lay->track[i].x) / lay->track[i].w;
	set_port(ui, ui->sliders[i].id, (float)slider_value(&ui->sliders[i], u));
}

static void reset_press(PendulaUI *ui)
{
	ui_momentary_press(&ui->reset, now_seconds(), &ui->writer);
	ui->need_draw = true;
}

static double wrap_degrees(double deg)
{
	deg = fmod(deg + 180.0, 360.0);
	if (deg < 0.0)
		deg += 360.0;
	return deg - 180.0;
}

/* A press near a body's handle in the live pose grabs that body (the
 * pose's handles: body k's initial angle is the angle of the line from the
 * hinge to the handle, less the handle's offset). */
static void drag_start(PendulaUI *ui, const pendula_layout *lay, double x, double y)
{
	pendula_pose pose;
	pendula_view v;
	model_pose(ui, &pose, false);
	pendula_view_fit(&v, &pose, PENDULA_PROJ_AUTO, lay->scene);
	double best = fmax(18.0, 2.5 * v.bob_r);
	int found = -1;
	for (int k = 0; k < pose.n_handles && k < PENDULA_POSE_MAX_HANDLES; ++k) {
		const int h = pose.handle[k].handle;
		if (h < 0 || h >= pose.n_points || pendula_port_theta_init(ui->variant, k) < 0)
			continue;
		double px, py;
		pendula_view_map(&v, pose.point[h].p, &px, &py);
		const double d = hypot(px - x, py - y);
		if (d < best) {
			best = d;
			found = k;
		}
	}
	if (found < 0)
		return;
	ui->drag_body = found;
	ui->drag_offset = pose.handle[found].offset;
	ui->drag_port = pendula_port_theta_init(ui->variant, found);
	ui->need_draw = true;
}

/* Sets theta{k}_init so the grabbed handle points at the pointer, seen on
 * the screen from the body's hinge in the initial pose (exact in a face-on
 * view; in an oblique one the screen's angle stands for the body's). */
static void drag_to(PendulaUI *ui, const pendula_layout *lay, double x, double y)
{
	pendula_pose live, init;
	pendula_view v;
	model_pose(ui, &live, false);
	model_pose(ui, &init, true);
	pendula_view_fit(&v, &live, PENDULA_PROJ_AUTO, lay->scene);
	const int k = ui->drag_body;
	if (k < 0 || k >= init.n_handles || ui->drag_port < 0)
		return;
	const int hinge = init.handle[k].hinge;
	if (hinge < 0 || hinge >= init.n_points)
		return;
	double hx, hy;
	pendula_view_map(&v, init.point[hinge].p, &hx, &hy);
	const double dx = x - hx, dy_down = y - hy;
	if (dx * dx + dy_down * dy_down <= 0.0)
		return;
	const double theta = atan2(dx, dy_down) - ui->drag_offset;
	set_port(ui, (pendula_port_id)ui->drag_port, (float)wrap_degrees(theta * (180.0 / UI_PI)));
}

static void on_button_press(PendulaUI *ui, const XButtonEvent *e)
{
	pendula_layout lay;
	pendula_ui_layout(ui->variant, ui->width, ui->height, &lay);
	const double x = e->x, y = e->y;

	for (int i = 0; i < ui->n_sliders; ++i) {
		if (!has_port(ui, ui->sliders[i].id) || !in_rect(&lay.slider[i], x, y, 0.0))
			continue;
		const slider_desc *sd = &ui->sliders[i];
		if (e->button == Button1) {
			ui->drag_slider = i;
			slider_set_from_x(ui, &lay, i, x);
		} else if (e->button == Button3) {
			set_port(ui, sd->id, pendula_port_default(ui->variant, sd->id));
		} else if (e->button == Button4 || e->button == Button5) {
			const double step = e->button == Button4 ? 0.01 : -0.01;
			const double u = slider_position(sd, ui->value[sd->id]) + step;
			set_port(ui, sd->id, (float)slider_value(sd, u));
		}
		return;
	}
	if (e->button != Button1)
		return;
	if (in_rect(&lay.reset, x, y, 0.0)) {
		reset_press(ui);
		return;
	}
	if (ui_memory_press(&ui->mem, &lay, ui->value, x, y, now_seconds(), &ui->writer)) {
		ui->need_draw = true;
		return;
	}
	if (in_rect(&lay.scene, x, y, 0.0)) {
		drag_start(ui, &lay, x, y);
		if (ui->drag_body >= 0)
			drag_to(ui, &lay, x, y);
	}
}

static void on_motion(PendulaUI *ui, double x, double y)
{
	pendula_layout lay;
	pendula_ui_layout(ui->variant, ui->width, ui->height, &lay);
	if (ui->drag_slider >= 0)
		slider_set_from_x(ui, &lay, ui->drag_slider, x);
	else if (ui->drag_body >= 0)
		drag_to(ui, &lay, x, y);
}

static void on_button_release(PendulaUI *ui, const XButtonEvent *e)
{
	if (e->button != Button1)
		return;
	if (ui->drag_slider >= 0) {
		ui->drag_slider = -1;
		ui->need_draw = true;
	}
	if (ui->drag_body >= 0) {
		/* let go: the pendulum restarts from the pose just set */
		ui->drag_body = -1;
		reset_press(ui);
	}
	ui_momentary_release(&ui->reset);
	ui_memory_release(&ui->mem);
}

/* ---------------------------------------------------------------------- */
/* X events                                                                */

static void handle_event(PendulaUI *ui, XEvent *ev)
{
	switch (ev->type) {
	case Expose:
		if (ev->xexpose.count == 0)
			ui->need_draw = true;
		break;
	case ConfigureNotify:
		if (ev->xconfigure.width != ui->width || ev->xconfigure.height != ui->height) {
			ui->width = ev->xconfigure.width;
			ui->height = ev->xconfigure.height;
			cairo_xlib_surface_set_size(ui->surface, ui->width, ui->height);
			ui->need_draw = true;
		}
		break;
	case MapNotify:
		ui->need_draw = true;
		break;
	case DestroyNotify:
		if (ev->xdestroywindow.window == ui->win)
			ui->destroyed = true;
		break;
	case ButtonPress:
		on_button_press(ui, &ev->xbutton);
		break;
	case ButtonRelease:
		on_button_release(ui, &ev->xbutton);
		break;
	case MotionNotify: {
		/* only the latest position matters */
		XEvent next;
		while (XCheckTypedWindowEvent(ui->dpy, ui->win, MotionNotify, &next))
			*ev = next;
		on_motion(ui, ev->xmotion.x, ev->xmotion.y);
		break;
	}
	case ClientMessage:
		if (ev->xclient.message_type == ui->wm_protocols &&
		    (Atom)ev->xclient.data.l[0] == ui->wm_delete) {
			ui->closed = true;
			XUnmapWindow(ui->dpy, ui->win);
		}
		break;
	default:
		break;
	}
}

static void process_events(PendulaUI *ui)
{
	while (!ui->destroyed && XPending(ui->dpy) > 0) {
		XEvent ev;
		XNextEvent(ui->dpy, &ev);
		handle_event(ui, &ev);
	}
}

/* ---------------------------------------------------------------------- */
/* LV2 UI                                                                  */

static int idle(LV2UI_Handle handle)
{
	PendulaUI *ui = (PendulaUI *)handle;
	process_events(ui);
	const double now = now_seconds();
	if (ui_momentary_update(&ui->reset, now, &ui->writer))
		ui->need_draw = true;
	if (ui_memory_update(&ui->mem, now, &ui->writer))
		ui->need_draw = true;
	if (now - ui->flash_since < EVENT_FLASH + 0.05 || ui_meter_moving(&ui->drive, now))
		ui->need_draw = true; /* the flash fades, the meter falls */
	if (ui->destroyed)
		return 1;
	if (ui->pose_changed) {
		pendula_pose pose;
		memcpy(ui->drawn, ui->value, sizeof ui->drawn);
		model_pose(ui, &pose, false);
		pendula_trail_push(&ui->trail, &pose);
		ui->pose_changed = false;
		ui->need_draw = true;
	}
	if (ui->need_draw) {
		ui->need_draw = false;
		draw(ui);
	}
	return ui->closed ? 1 : 0;
}

static int show(LV2UI_Handle handle)
{
	PendulaUI *ui = (PendulaUI *)handle;
	if (ui->destroyed)
		return 1;
	ui->closed = false;
	XMapRaised(ui->dpy, ui->win);
	XFlush(ui->dpy);
	ui->need_draw = true;
	return 0;
}

static int hide(LV2UI_Handle handle)
{
	PendulaUI *ui = (PendulaUI *)handle;
	if (ui->destroyed)
		return 1;
	XUnmapWindow(ui->dpy, ui->win);
	XFlush(ui->dpy);
	return 0;
}

static const LV2UI_Idle_Interface idle_interface = {idle};
static const LV2UI_Show_Interface show_interface = {show, hide};

static bool variant_of_uri(const char *uri, pendula_variant *v)
{
	for (int i = 0; i < PENDULA_N_VARIANTS; ++i)
		if (uri && !strcmp(uri, pendula_variant_uris[i])) {
			*v = (pendula_variant)i;
			return true;
		}
	return false;
}

static void cleanup(LV2UI_Handle handle)
{
	PendulaUI *ui = (PendulaUI *)handle;
	if (ui->surface)
		cairo_surface_destroy(ui->surface);
	if (ui->dpy) {
		/* Our window may have gone with the host's parent window: look
		 * for its DestroyNotify before destroying it ourselves. */
		XSync(ui->dpy, False);
		process_events(ui);
		if (!ui->destroyed)
			XDestroyWindow(ui->dpy, ui->win);
		XCloseDisplay(ui->dpy);
	}
	free(ui);
}

/* The host features the UI uses: its parent window and its resize. */
static void read_features(const LV2_Feature *const *features, void **parent,
                          const LV2UI_Resize **resize)
{
	*parent = NULL;
	*resize = NULL;
	for (int i = 0; features && features[i]; ++i) {
		if (!strcmp(features[i]->URI, LV2_UI__parent))
			*parent = features[i]->data;
		else if (!strcmp(features[i]->URI, LV2_UI__resize))
			*resize = (const LV2UI_Resize *)features[i]->data;
	}
}

/* Until the host sends values: the defaults, the pendulum at its initial
 * angles (an angle output is angle / pi). */
static void init_values(PendulaUI *ui)
{
	const pendula_variant variant = ui->variant;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		ui->value[id] = pendula_ports[id].kind == PK_CONTROL_IN
		                    ? pendula_port_default(variant, (pendula_port_id)id)
		                    : 0.0f;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const int k = pendula_ports[id].kind == PK_CONTROL_OUT
		                  ? pendula_port_angle_body((pendula_port_id)id)
		                  : -1;
		const int init = k >= 0 ? pendula_port_theta_init(variant, k) : -1;
		if (init >= 0)
			ui->value[id] = ui->value[init] / 180.0f;
	}
}

static void init_sliders(PendulaUI *ui)
{
	pendula_port_id slider_ids[PENDULA_UI_MAX_SLIDERS];
	ui->n_sliders = pendula_ui_sliders(ui->variant, slider_ids);
	for (int i = 0; i < ui->n_sliders; ++i)
		ui->sliders[i] = (slider_desc){slider_ids[i], curve_of(slider_ids[i])};
}

/* The UI's state before it has a window: no drag, its default size, the
 * values and sliders of the variant. */
static PendulaUI *new_ui(pendula_variant variant, LV2UI_Write_Function write_function,
                         LV2UI_Controller controller, const LV2UI_Resize *resize)
{
	PendulaUI *ui = (PendulaUI *)calloc(1, sizeof(PendulaUI));
	if (!ui)
		return NULL;
	ui->variant = variant;
	ui->write = write_function;
	ui->controller = controller;
	ui->resize = resize;
	ui->drag_slider = -1;
	ui->drag_body = -1;
	ui->drag_port = -1;
	ui->writer = (ui_port_writer){write_port, ui};
	ui->reset = (ui_momentary){.id = P_RESET};
	ui_memory_init(&ui->mem);
	ui->width = PENDULA_UI_WIDTH;
	ui->height = PENDULA_UI_HEIGHT;
	init_values(ui);
	init_sliders(ui);
	return ui;
}

/* The window's names and size hints, and the close button of a top-level
 * window (WM_DELETE_WINDOW). */
static void set_window_properties(PendulaUI *ui)
{
	XStoreName(ui->dpy, ui->win, "Pendula UI");
	static char res_name[] = "pendula_ui", res_class[] = "Pendula";
	XClassHint *class_hint = XAllocClassHint();
	if (class_hint) {
		class_hint->res_name = res_name;
		class_hint->res_class = res_class;
		XSetClassHint(ui->dpy, ui->win, class_hint);
		XFree(class_hint);
	}
	/* Hosts embedding X11 UIs (suil) read the size hints. */
	XSizeHints *hints = XAllocSizeHints();
	if (hints) {
		hints->flags = PMinSize | PBaseSize;
		hints->min_width = PENDULA_UI_MIN_WIDTH;
		hints->min_height = PENDULA_UI_MIN_HEIGHT;
		hints->base_width = PENDULA_UI_WIDTH;
		hints->base_height = PENDULA_UI_HEIGHT;
		XSetWMNormalHints(ui->dpy, ui->win, hints);
		XFree(hints);
	}
	ui->wm_protocols = XInternAtom(ui->dpy, "WM_PROTOCOLS", False);
	ui->wm_delete = XInternAtom(ui->dpy, "WM_DELETE_WINDOW", False);
	if (!ui->embedded)
		XSetWMProtocols(ui->dpy, ui->win, &ui->wm_delete, 1);
}

/* The window, a child of the host's parent window or a top-level one, and
 * the cairo surface on it.  False if there is no display or no surface
 * (ui->dpy says which: NULL without a display). */
static bool open_window(PendulaUI *ui, void *parent)
{
	ui->dpy = XOpenDisplay(NULL);
	if (!ui->dpy) {
		fprintf(stderr, "pendula_ui: cannot open the X display '%s'\n", XDisplayName(NULL));
		return false;
	}
	const int screen = DefaultScreen(ui->dpy);
	ui->embedded = parent != NULL;
	const Window parent_win = parent ? (Window)(uintptr_t)parent : RootWindow(ui->dpy, screen);

	XSetWindowAttributes attr;
	memset(&attr, 0, sizeof attr);
	attr.background_pixel = BlackPixel(ui->dpy, screen);
	attr.border_pixel = 0;
	attr.event_mask = ExposureMask | StructureNotifyMask | ButtonPressMask | ButtonReleaseMask |
	                  ButtonMotionMask;
	ui->win = XCreateWindow(ui->dpy, parent_win, 0, 0, (unsigned)ui->width,
	                        (unsigned)ui->height, 0, CopyFromParent, InputOutput,
	                        CopyFromParent, CWBackPixel | CWBorderPixel | CWEventMask, &attr);
	set_window_properties(ui);

	ui->surface = cairo_xlib_surface_create(ui->dpy, ui->win, DefaultVisual(ui->dpy, screen),
	                                        ui->width, ui->height);
	if (cairo_surface_status(ui->surface) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "pendula_ui: no cairo surface for the window: %s\n",
		        cairo_status_to_string(cairo_surface_status(ui->surface)));
		cairo_surface_destroy(ui->surface);
		ui->surface = NULL;
		return false;
	}
	return true;
}

static LV2UI_Handle instantiate(const LV2UI_Descriptor *descriptor, const char *plugin_uri,
                                const char *bundle_path, LV2UI_Write_Function write_function,
                                LV2UI_Controller controller, LV2UI_Widget *widget,
                                const LV2_Feature *const *features)
{
	(void)descriptor;
	(void)bundle_path;
	pendula_variant variant;
	void *parent;
	const LV2UI_Resize *resize;

	if (!variant_of_uri(plugin_uri, &variant) || !write_function) {
		fprintf(stderr, "pendula_ui: not a Pendula plugin <%s>, or no write function\n",
		        plugin_uri ? plugin_uri : "");
		return NULL;
	}
	read_features(features, &parent, &resize);

	PendulaUI *ui = new_ui(variant, write_function, controller, resize);
	if (!ui)
		return NULL;
	if (!open_window(ui, parent)) {
		if (ui->dpy)
			cleanup(ui);
		else
			free(ui);
		return NULL;
	}

	/* Embedded: visible with the parent.  Top-level: show() maps it. */
	if (ui->embedded)
		XMapRaised(ui->dpy, ui->win);
	if (resize)
		resize->ui_resize(resize->handle, ui->width, ui->height);
	XFlush(ui->dpy);

	pendula_trail_clear(&ui->trail);
	ui->need_draw = true;
	*widget = (LV2UI_Widget)(uintptr_t)ui->win;
	return (LV2UI_Handle)ui;
}

/* A flip or swing in the values the host delivers: a pulse caught by the
 * flips / swings mirrors, or a wrapped angle that jumped over the top
 * between two updates (the pulses last 1 ms: most fall between them). */
static void note_event(PendulaUI *ui, pendula_port_id id, float was, float now)
{
	const bool pulse = (id == P_CTL_FLIPS || id == P_CTL_SWINGS) && now != 0.0f;
	const bool jump = id >= P_CTL_THETA1 && id <= P_CTL_THETA6 && fabsf(now - was) > 1.0f;
	if (!pulse && !jump)
		return;
	ui->flash_since = now_seconds();
	ui->flash_flip = id != P_CTL_SWINGS;
	ui->need_draw = true;
}

static void port_event(LV2UI_Handle handle, uint32_t port_index, uint32_t buffer_size,
                       uint32_t format, const void *buffer)
{
	PendulaUI *ui = (PendulaUI *)handle;
	if (format != 0 || buffer_size != sizeof(float) || !buffer)
		return;
	const int id = pendula_port_id_at(ui->variant, port_index);
	if (id < 0)
		return;
	const pendula_port_info *p = &pendula_ports[id];
	if (p->kind != PK_CONTROL_IN && p->kind != PK_CONTROL_OUT)
		return;
	float v;
	memcpy(&v, buffer, sizeof v);
	v = sanitize(ui, (pendula_port_id)id, v);
	if (v == ui->value[id])
		return; /* hosts repeat unchanged outputs: nothing to draw */
	note_event(ui, (pendula_port_id)id, ui->value[id], v);
	const float was = ui->value[id];
	ui->value[id] = v;
	if (id == P_CTL_DRIVE_LEVEL) {
		ui_meter_set(&ui->drive, v, now_seconds());
		ui->need_draw = true;
	} else if (p->kind != PK_CONTROL_OUT) {
		ui_memory_port(&ui->mem, (pendula_port_id)id, was, ui->value);
		ui->need_draw = true;
	} else if (fabsf(v - ui->drawn[id]) > 1e-5f * (p->max - p->min))
		ui->pose_changed = true; /* (a pendulum coming to rest ends up not drawn) */
}

static const void *extension_data(const char *uri)
{
	if (!strcmp(uri, LV2_UI__idleInterface))
		return &idle_interface;
	if (!strcmp(uri, LV2_UI__showInterface))
		return &show_interface;
	return NULL;
}

static const LV2UI_Descriptor descriptor = {
    PENDULA_UI_URI, instantiate, cleanup, port_event, extension_data,
};

LV2_SYMBOL_EXPORT const LV2UI_Descriptor *lv2ui_descriptor(uint32_t index)
{
	return index == 0 ? &descriptor : NULL;
}
