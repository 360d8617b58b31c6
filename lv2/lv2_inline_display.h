/* SPDX-License-Identifier: ISC */
/*
 * The inline display extension of Ardour and Harrison Mixbus
 * (http://harrisonconsoles.com/lv2/inlinedisplay), also implemented by Carla:
 * a plugin draws a small picture that the host shows in its mixer strip.
 * lv2-dev does not ship it; these declarations follow the ABI of Ardour's
 * ardour/lv2_extensions.h exactly (same members, same order, same types).
 */
#ifndef PENDULA_LV2_INLINE_DISPLAY_H
#define PENDULA_LV2_INLINE_DISPLAY_H

#include <lv2/core/lv2.h>

#include <stdint.h>

#define LV2_INLINEDISPLAY_URI         "http://harrisonconsoles.com/lv2/inlinedisplay"
#define LV2_INLINEDISPLAY_PREFIX      LV2_INLINEDISPLAY_URI "#"
/* lv2:extensionData of the plugin: LV2_Inline_Display_Interface */
#define LV2_INLINEDISPLAY__interface  LV2_INLINEDISPLAY_PREFIX "interface"
/* lv2:optionalFeature: LV2_Inline_Display, given by the host */
#define LV2_INLINEDISPLAY__queue_draw LV2_INLINEDISPLAY_PREFIX "queue_draw"
/* Ardour's hint that render() must run in the GUI thread (not needed here:
 * render() is safe in any non-real-time thread). */
#define LV2_INLINEDISPLAY__in_gui     LV2_INLINEDISPLAY_PREFIX "in_gui"

/* Opaque handle for LV2_Inline_Display::queue_draw() */
typedef void *LV2_Inline_Display_Handle;

/* The picture: ARGB32 (cairo's CAIRO_FORMAT_ARGB32, premultiplied, native
 * endian).  The data belongs to the plugin and stays valid from render()
 * until the next render() or cleanup. */
typedef struct {
	unsigned char *data;
	int width;
	int height;
	int stride;
} LV2_Inline_Display_Image_Surface;

/* Feature from the host: run() asks for a render() at a later time. */
typedef struct {
	LV2_Inline_Display_Handle handle;
	void (*queue_draw)(LV2_Inline_Display_Handle handle);
} LV2_Inline_Display;

/* Extension data of the plugin.  render() is called in a non-real-time
 * thread with the largest width w and height h the host offers; the result
 * has width w and a height <= h, or is NULL. */
typedef struct {
	LV2_Inline_Display_Image_Surface *(*render)(LV2_Handle instance, uint32_t w, uint32_t h);
} LV2_Inline_Display_Interface;

#endif
