/* SPDX-License-Identifier: ISC */
/*
 * ui_click: mouse input for tests/scripts/test_ui.sh, without xdotool: button and
 * motion events sent (XSendEvent) to the window with the given WM_NAME, at
 * window coordinates.
 *
 *   ui_click NAME click X Y          press, 150 ms, release
 *   ui_click NAME drag X1 Y1 X2 Y2   press at 1, move to 2 in steps, release
 *   ui_click NAME resize W H         resize the window (as a window manager
 *                                    or an embedding host would)
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static Window find_named(Display *dpy, Window w, const char *name)
{
	char *wm_name = NULL;
	if (XFetchName(dpy, w, &wm_name) && wm_name) {
		const int same = !strcmp(wm_name, name);
		XFree(wm_name);
		if (same)
			return w;
	}
	Window root, parent, *children = NULL;
	unsigned n = 0;
	Window found = 0;
	if (XQueryTree(dpy, w, &root, &parent, &children, &n)) {
		for (unsigned i = 0; i < n && !found; ++i)
			found = find_named(dpy, children[i], name);
		if (children)
			XFree(children);
	}
	return found;
}

static void pause_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static void send_button(Display *dpy, Window w, int type, int x, int y)
{
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.xbutton.type = type;
	ev.xbutton.display = dpy;
	ev.xbutton.window = w;
	ev.xbutton.root = DefaultRootWindow(dpy);
	ev.xbutton.time = CurrentTime;
	ev.xbutton.x = x;
	ev.xbutton.y = y;
	ev.xbutton.same_screen = True;
	ev.xbutton.button = Button1;
	ev.xbutton.state = type == ButtonRelease ? Button1Mask : 0;
	XSendEvent(dpy, w, False, type == ButtonPress ? ButtonPressMask : ButtonReleaseMask, &ev);
	XFlush(dpy);
}

static void send_motion(Display *dpy, Window w, int x, int y)
{
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.xmotion.type = MotionNotify;
	ev.xmotion.display = dpy;
	ev.xmotion.window = w;
	ev.xmotion.root = DefaultRootWindow(dpy);
	ev.xmotion.time = CurrentTime;
	ev.xmotion.x = x;
	ev.xmotion.y = y;
	ev.xmotion.same_screen = True;
	ev.xmotion.state = Button1Mask;
	XSendEvent(dpy, w, False, ButtonMotionMask | PointerMotionMask, &ev);
	XFlush(dpy);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: ui_click NAME click X Y | drag X1 Y1 X2 Y2 | resize W H\n", stderr);
		return 2;
	}
	const int drag = !strcmp(argv[2], "drag");
	const int resize = !strcmp(argv[2], "resize");
	if (!(drag && argc == 7) && !(!strcmp(argv[2], "click") && argc == 5) &&
	    !(resize && argc == 5)) {
		fputs("ui_click: bad arguments\n", stderr);
		return 2;
	}
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fputs("ui_click: cannot open the display\n", stderr);
		return 1;
	}
	const Window w = find_named(dpy, DefaultRootWindow(dpy), argv[1]);
	if (!w) {
		fprintf(stderr, "ui_click: no window named '%s'\n", argv[1]);
		XCloseDisplay(dpy);
		return 1;
	}
	const int x1 = atoi(argv[3]), y1 = atoi(argv[4]);
	if (resize) {
		if (x1 < 1 || y1 < 1) {
			fputs("ui_click: bad size\n", stderr);
			XCloseDisplay(dpy);
			return 2;
		}
		XResizeWindow(dpy, w, (unsigned)x1, (unsigned)y1);
		XSync(dpy, False);
		XCloseDisplay(dpy);
		return 0;
	}
	send_button(dpy, w, ButtonPress, x1, y1);
	int x2 = x1, y2 = y1;
	if (drag) {
		x2 = atoi(argv[5]);
		y2 = atoi(argv[6]);
		for (int i = 1; i <= 10; ++i) {
			pause_ms(30);
			send_motion(dpy, w, x1 + (x2 - x1) * i / 10, y1 + (y2 - y1) * i / 10);
		}
	}
	pause_ms(150);
	send_button(dpy, w, ButtonRelease, x2, y2);
	XSync(dpy, False);
	XCloseDisplay(dpy);
	return 0;
}
