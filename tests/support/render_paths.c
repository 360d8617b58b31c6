/* SPDX-License-Identifier: ISC */
/*
 * render_paths: the plane view of a pendula-render PNG, seen in its pixels.
 *
 *   render_paths PNG PANELS MIN_PIXELS
 *
 * The plane view's panels are the dark rectangles (the drawing module's
 * background, #15181e, under faint grid lines) in the right half of the
 * page on its light background: runs of rows of which at least half the
 * pixels of that half are dark (every channel below 0x50), runs less than
 * MERGE_GAP rows apart being one.  In each panel, a pixel of a
 * path is one on the line from the background to the colour of tip 1
 * (pendula_tip_colour(0), the drawing module's), the path being drawn with
 * some opacity: pixel = background + a (tip - background), 0.1 <= a <= 1,
 * within 6 per channel.  Prints the panels with their rows and path
 * pixels; exit 0 if there are exactly PANELS panels, each with at least
 * MIN_PIXELS path pixels; 1 if not; 2 on a usage or file error.
 */
#include "pendula_draw.h"

#include <cairo.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BACKGROUND 0x15181e
#define MAX_PANELS 8
/* Fewer light rows than this between two dark runs: one panel (a wide
 * body drawn across it); the panels themselves are 36 px apart. */
#define MERGE_GAP  20

static int channel(unsigned rgb, int s)
{
	return (int)((rgb >> s) & 255u);
}

/* Whether the pixel lies on the line from the background to the tip colour. */
static int on_path(unsigned px, unsigned tip)
{
	double num = 0.0, den = 0.0;
	for (int s = 0; s <= 16; s += 8) {
		const double d = channel(tip, s) - channel(BACKGROUND, s);
		num += (channel(px, s) - channel(BACKGROUND, s)) * d;
		den += d * d;
	}
	const double a = num / den;
	if (a < 0.1 || a > 1.0)
		return 0;
	for (int s = 0; s <= 16; s += 8) {
		const double want =
		    channel(BACKGROUND, s) + a * (channel(tip, s) - channel(BACKGROUND, s));
		if (fabs(channel(px, s) - want) > 6.0)
			return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: render_paths PNG PANELS MIN_PIXELS\n");
		return 2;
	}
	const int want_panels = atoi(argv[2]);
	const long min_pixels = atol(argv[3]);
	cairo_surface_t *img = cairo_image_surface_create_from_png(argv[1]);
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "render_paths: cannot read %s\n", argv[1]);
		cairo_surface_destroy(img);
		return 2;
	}
	const int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
	const int stride = cairo_image_surface_get_stride(img);
	const unsigned char *data = cairo_image_surface_get_data(img);
	const unsigned tip = pendula_tip_colour(0);

	int n_panels = 0, top[MAX_PANELS], bottom[MAX_PANELS];
	long pixels[MAX_PANELS] = {0};
	int in_panel = 0;
	for (int y = 0; y < h; ++y) {
		const uint32_t *row =
		    (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
		int dark = 0;
		long path = 0;
		for (int x = w / 2; x < w; ++x) {
			const unsigned px = row[x] & 0xffffffu;
			dark += channel(px, 16) < 0x50 && channel(px, 8) < 0x50 &&
			        channel(px, 0) < 0x50;
			path += on_path(px, tip);
		}
		const int is_dark = 2 * dark >= w - w / 2;
		if (is_dark && !in_panel && n_panels > 0 && y - bottom[n_panels - 1] <= MERGE_GAP) {
			in_panel = 1; /* a body drawn across the panel: the same panel */
		} else if (is_dark && !in_panel) {
			if (n_panels == MAX_PANELS)
				break;
			top[n_panels++] = y;
			in_panel = 1;
		} else if (!is_dark && in_panel) {
			bottom[n_panels - 1] = y - 1;
			in_panel = 0;
		}
		if (in_panel)
			pixels[n_panels - 1] += path;
	}
	if (in_panel)
		bottom[n_panels - 1] = h - 1;
	int ok = n_panels == want_panels;
	for (int i = 0; i < n_panels; ++i) {
		printf("panel %d: rows %d..%d, %ld path pixels\n", i + 1, top[i], bottom[i],
		       pixels[i]);
		ok = ok && pixels[i] >= min_pixels;
	}
	printf("%d panels, expected %d with at least %ld path pixels each: %s\n", n_panels,
	       want_panels, min_pixels, ok ? "ok" : "FAIL");
	cairo_surface_destroy(img);
	return ok ? 0 : 1;
}
